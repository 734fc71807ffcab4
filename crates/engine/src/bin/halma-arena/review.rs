//! `halma-arena --review`: what the analysis's labels tell over self-play games between
//! different levels (docs/ANALYSIS.md, "Labels over games"). Each game is analysed at
//! `Quality::DEFAULT` (one thread) and reported: how many moves that gave away 8 steps or
//! more are labelled inaccuracy or worse, the share of the steps of the side that gave
//! away most on such moves, the classes that appear and each seat's costliest moves.
//! With `--moves` every judged move is written too (for tuning the thresholds). The games
//! are those of `--labels` and `--puzzles` (deterministic for a seed); take a seed the
//! win-chance model was not fitted on, so the games are held out.

use crate::selfplay::{self, SelfPlay};
use halma_ai::analysis::{self, AnalysisRequest, Class, Quality, Steps, Verdict};
use halma_ai::eval::is_on_side;
use halma_rules::Setup;
use std::sync::atomic::AtomicBool;

pub const USAGE: &str = "usage: halma-arena --review --setup 2p|3p|4p-one|4p-both --games N [--seed S] [--moves]
  analyses the first N self-play games between different levels (Beginner-Casual,
  Casual-Strong, Beginner-Strong, each side first in turn) and reports the labels:
  game levels big-judged big-labelled worst-side worst-share classes counts costliest
  (big: moves giving away 8 steps or more; labelled: inaccuracy or worse; worst-share: the
  share of the steps lost by the side that lost most, on moves labelled inaccuracy or
  worse); --moves also writes every judged move: move seat loss chance-before chance-after class";

/// Game numbers of `selfplay::play` between different levels: pairings 3, 4 and 5 of its
/// cycle of six, both sides first.
fn mixed_games() -> impl Iterator<Item = usize> {
    (0..).filter(|index: &usize| (index / 2) % 6 >= 3)
}

pub fn run(args: &[String]) -> Result<(), String> {
    let (mut setup, mut games, mut seed, mut moves) = (None, None, 43, false);
    let mut rest = args;
    while let [key, tail @ ..] = rest {
        if key == "--moves" {
            moves = true;
            rest = tail;
            continue;
        }
        let [value, tail @ ..] = tail else { return Err(format!("{key} needs a value")) };
        let number = || value.parse::<u64>().map_err(|_| format!("bad {key} '{value}'"));
        match key.as_str() {
            "--setup" => setup = Some(value.parse::<Setup>().map_err(|e| e.to_string())?),
            "--games" => games = Some(number()? as usize),
            "--seed" => seed = number()?,
            other => return Err(format!("unknown option '{other}'")),
        }
        rest = tail;
    }
    let setup = setup.ok_or("--setup is required")?;
    let games = games.ok_or("--games is required")?;
    let stop = AtomicBool::new(false);
    let (mut big, mut big_labelled, mut worst_shares) = (0usize, 0usize, Vec::new());
    for index in mixed_games().take(games) {
        let SelfPlay { game, levels, .. } = selfplay::play(setup, index, seed);
        let request = AnalysisRequest::new(Quality::DEFAULT).with_threads(1);
        let analysis = analysis::analyse(&game, &request, &stop, &mut |_, _| {}).map_err(|e| e.to_string())?;
        let names: Vec<&str> = setup.seats().iter().map(|seat| levels[seat.index()].name()).collect();
        let (mut game_big, mut game_labelled) = (0, 0);
        // Steps lost by each side, and of those on moves labelled inaccuracy or worse.
        let mut sides = [(Steps::ZERO, Steps::ZERO); 4];
        let mut counts = [0usize; 5];
        for entry in &analysis.actions {
            let Verdict::Judged(judgement) = &entry.verdict else { continue };
            counts[judgement.class as usize] += 1;
            let labelled = judgement.class >= Class::Inaccuracy;
            if judgement.loss >= Steps::whole(8) {
                game_big += 1;
                game_labelled += usize::from(labelled);
            }
            let side = setup.seats().iter().copied().find(|&s| is_on_side(setup, s, entry.seat)).unwrap_or(entry.seat);
            let tally = &mut sides[side.index()];
            tally.0 = Steps(tally.0 .0 + judgement.loss.0);
            if labelled {
                tally.1 = Steps(tally.1 .0 + judgement.loss.0);
            }
            if moves {
                let position = game.position_before(entry.index).copied().unwrap_or(*game.position());
                let before = analysis::win_chance(&position, entry.seat, judgement.before);
                let after = analysis::win_chance(&position, entry.seat, judgement.after);
                println!(
                    "move {setup} {index} {} {} {} {before:.4} {after:.4} {}",
                    entry.index + 1,
                    entry.seat,
                    judgement.loss,
                    judgement.class.name()
                );
            }
        }
        let (worst, (lost, on_labelled)) =
            sides.iter().enumerate().max_by_key(|(_, (lost, _))| *lost).map(|(i, t)| (i, *t)).unwrap_or_default();
        let share = if lost.0 > 0 { f64::from(on_labelled.0) / f64::from(lost.0) } else { 1.0 };
        worst_shares.push(share);
        big += game_big;
        big_labelled += game_labelled;
        let classes = counts.iter().filter(|&&n| n > 0).count();
        let costliest: Vec<String> = analysis
            .summaries
            .iter()
            .map(|summary| {
                let moves: Vec<String> =
                    summary.costliest.iter().flatten().map(|(at, loss)| format!("{}:{loss}", at + 1)).collect();
                format!("{}[{}]", summary.seat, moves.join(","))
            })
            .collect();
        println!(
            "game {setup} {index} {} {game_big} {game_labelled} {} {lost} {:.0}% {classes} {counts:?} {}",
            names.join(","),
            halma_rules::Seat::ALL[worst],
            share * 100.0,
            costliest.join(" ")
        );
    }
    let percent = if big > 0 { 100.0 * big_labelled as f64 / big as f64 } else { 100.0 };
    let least = worst_shares.iter().copied().fold(1.0, f64::min);
    println!("total {setup}: {big_labelled} of {big} moves giving away 8 steps or more labelled ({percent:.0}%); worst side's share on labelled moves at least {:.0}%", least * 100.0);
    Ok(())
}
