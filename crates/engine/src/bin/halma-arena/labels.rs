//! `halma-arena --labels`: the data the win-chance model of the analysis is fitted on
//! (`ai::analysis::win_chance`, docs/ANALYSIS.md). Self-play games at several levels;
//! positions after a move, each valued as the analysis values a move (searched
//! `Quality::DEFAULT.depth - 1` plies) from the side of the seat that just moved, with
//! that seat's result in the game. Deterministic for a seed.

use crate::selfplay::{self, SelfPlay};
use halma_ai::analysis::{self, Eval, Quality};
use halma_rules::{Game, Setup};
use std::io::Write;
use std::sync::atomic::AtomicBool;

pub const USAGE: &str = "usage: halma-arena --labels --setup 2p|3p|4p-one|4p-both --games N [--seed S] [--every K]
  writes one line per position after every K-th action (default 2) of N self-play games:
  game split levels ply mover value result work-mover work-others
  (value: tenths of a step from the mover's side, or W<plies>/L<plies> for a forced result;
   split: train, or test for every fifth game)";

struct LabelOptions {
    setup: Setup,
    games: usize,
    seed: u64,
    every: usize,
}

fn parse(args: &[String]) -> Result<LabelOptions, String> {
    let (mut setup, mut games, mut seed, mut every) = (None, None, 1, 2);
    let mut rest = args;
    while let [key, value, tail @ ..] = rest {
        let number = || value.parse::<u64>().map_err(|_| format!("bad {key} '{value}'"));
        match key.as_str() {
            "--setup" => setup = Some(value.parse::<Setup>().map_err(|e| e.to_string())?),
            "--games" => games = Some(number()? as usize),
            "--seed" => seed = number()?,
            "--every" => every = (number()? as usize).max(1),
            other => return Err(format!("unknown option '{other}'")),
        }
        rest = tail;
    }
    if let [key] = rest {
        return Err(format!("{key} needs a value"));
    }
    Ok(LabelOptions {
        setup: setup.ok_or("--setup is required")?,
        games: games.ok_or("--games is required")?,
        seed,
        every,
    })
}

/// A value as the data file writes it.
fn value_text(value: Eval) -> String {
    match value {
        Eval::Lead(steps) => steps.tenths().to_string(),
        Eval::Wins { plies } => format!("W{plies}"),
        Eval::Loses { plies } => format!("L{plies}"),
    }
}

pub fn run(args: &[String]) -> Result<(), String> {
    let options = parse(args)?;
    let depth = Quality::DEFAULT.depth - 1;
    let stop = AtomicBool::new(false);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // The analysis's own measure: every army against its par, as `analysis::phase` counts.
    let evaluator = halma_ai::eval::Evaluator::new(options.setup, halma_ai::eval::Weights::ANALYSIS);
    for index in 0..options.games {
        let SelfPlay { game, levels, result } = selfplay::play(options.setup, index, options.seed);
        let Some(result) = result else {
            eprintln!("game {index}: unfinished at {} plies, left out", game.history().len());
            continue;
        };
        let split = if index % 5 == 4 { "test" } else { "train" };
        let names: Vec<&str> = options.setup.seats().iter().map(|seat| levels[seat.index()].name()).collect();
        let mut replay = Game::new(options.setup, game.first_seat());
        let mut lines = 0;
        for (ply, action) in game.history().iter().enumerate() {
            let mover = game.actor(ply);
            replay.play_action(action).map_err(|e| format!("game {index} ply {ply}: {e}"))?;
            if replay.is_over() || (ply + index) % options.every != 0 {
                continue;
            }
            let values = analysis::position_values(&replay, depth, &stop).ok_or("stopped")?;
            let works = evaluator.par(&evaluator.works(replay.position()));
            let own = evaluator.work_of_seat(&works, mover);
            // The nearest opposing side's work (in 3p the best-placed opponent's).
            let others = options
                .setup
                .seats()
                .iter()
                .filter(|&&seat| !halma_ai::eval::is_on_side(options.setup, mover, seat))
                .map(|&seat| evaluator.work_of_seat(&works, seat))
                .min()
                .unwrap_or(0);
            writeln!(
                out,
                "{} {index} {split} {} {} {mover} {} {} {own} {others}",
                options.setup,
                names.join(","),
                ply + 1,
                value_text(values[mover.index()]),
                result[mover.index()]
            )
            .map_err(|e| e.to_string())?;
            lines += 1;
        }
        out.flush().map_err(|e| e.to_string())?;
        eprintln!("game {index}: {} plies, {:?}, {lines} positions", game.history().len(), game.outcome());
    }
    Ok(())
}
