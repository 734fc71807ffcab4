//! `halma-arena --puzzles`: candidate puzzles from self-play games (docs/PUZZLES.md).
//! Every K-th position of each game is tried with `ai::puzzles::find`: one move must beat
//! every other by `puzzles::MIN_GAIN` steps at the verification depth and again at the
//! deeper `--depth`. After a puzzle the next `--gap` positions of that game are skipped,
//! so one turning point gives one puzzle. Lines go to standard output in the puzzle
//! file's format; deterministic for a seed.

use crate::selfplay;
use halma_ai::puzzles::{self, Rules, GENERATOR_DEPTH};
use halma_rules::{Game, Setup};
use std::io::Write;
use std::sync::atomic::AtomicBool;

pub const USAGE: &str = "usage: halma-arena --puzzles --setup 2p|3p|4p-one|4p-both --games N [--seed S] [--every K] [--gap G] [--depth D] [--first-game I]
       halma-arena --puzzles --recheck FILE [--depth D] [--shipped-rules]
       halma-arena --puzzles --filter FILE
  writes candidate puzzles (docs/PUZZLES.md) from N self-play games: every K-th position
  (default 3) is tried, G positions (default 12) are skipped after a puzzle, answers are
  checked at depth D (default 6, 6 to 8). --recheck puts every puzzle of FILE through the
  same checks again (at depth D; --shipped-rules: the rules the shipped set was made with,
  without the plain measure and the stability to depth 10) and writes the ones that pass,
  keeping their ids; --filter applies only the quick checks (legal moves, the plain measure,
  the verification depth)";

struct PuzzleOptions {
    setup: Setup,
    games: usize,
    first_game: usize,
    seed: u64,
    every: usize,
    gap: usize,
    depth: u32,
    recheck: Option<String>,
    filter: Option<String>,
    shipped_rules: bool,
}

fn parse(args: &[String]) -> Result<PuzzleOptions, String> {
    let mut options = PuzzleOptions {
        setup: Setup::TwoPlayers,
        games: 0,
        first_game: 0,
        seed: 1,
        every: 3,
        gap: 12,
        depth: GENERATOR_DEPTH,
        recheck: None,
        filter: None,
        shipped_rules: false,
    };
    let (mut setup, mut games) = (None, None);
    let mut rest = args;
    while let [key, tail @ ..] = rest {
        if key == "--shipped-rules" {
            options.shipped_rules = true;
            rest = tail;
            continue;
        }
        let [value, tail @ ..] = tail else { return Err(format!("{key} needs a value")) };
        let number = || value.parse::<u64>().map_err(|_| format!("bad {key} '{value}'"));
        match key.as_str() {
            "--setup" => setup = Some(value.parse::<Setup>().map_err(|e| e.to_string())?),
            "--games" => games = Some(number()? as usize),
            "--first-game" => options.first_game = number()? as usize,
            "--seed" => options.seed = number()?,
            "--every" => options.every = (number()? as usize).max(1),
            "--gap" => options.gap = number()? as usize,
            "--depth" => match number()? {
                depth @ 6..=8 => options.depth = depth as u32,
                _ => return Err(format!("bad depth '{value}' (6..=8)")),
            },
            "--recheck" => options.recheck = Some(value.clone()),
            "--filter" => options.filter = Some(value.clone()),
            other => return Err(format!("unknown option '{other}'")),
        }
        rest = tail;
    }
    if options.recheck.is_some() || options.filter.is_some() {
        return Ok(options);
    }
    options.setup = setup.ok_or("--setup is required")?;
    options.games = games.ok_or("--games is required")?;
    Ok(options)
}

pub fn run(args: &[String]) -> Result<(), String> {
    let options = parse(args)?;
    let stop = AtomicBool::new(false);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Some(file) = &options.recheck {
        let rules = if options.shipped_rules { Rules::SHIPPED } else { Rules::CURRENT };
        return recheck(file, rules, options.depth, &stop, &mut out);
    }
    if let Some(file) = &options.filter {
        return filter(file, &stop, &mut out);
    }
    for index in options.first_game..options.first_game + options.games {
        let played = selfplay::play(options.setup, index, options.seed);
        let mut replay = Game::new(options.setup, played.game.first_seat());
        let mut next_try = 0;
        let mut found = 0;
        for (ply, action) in played.game.history().iter().enumerate() {
            // The position before action `ply`, with the seat that played it to move.
            if ply >= next_try && (ply + index) % options.every == 0 && !replay.is_over() {
                let position = Game::from_position(*replay.position());
                let id = format!("{}-{}-{index}-{ply}", options.setup, options.seed);
                if let Some(puzzle) = puzzles::find(&position, &id, options.depth, &stop) {
                    writeln!(out, "{}", puzzle.line()).map_err(|e| e.to_string())?;
                    out.flush().map_err(|e| e.to_string())?;
                    found += 1;
                    next_try = ply + options.gap + 1;
                }
            }
            replay.play_action(action).map_err(|e| format!("game {index} ply {ply}: {e}"))?;
        }
        eprintln!("game {index}: {} plies, {found} puzzles", played.game.history().len());
    }
    Ok(())
}

/// Puts every puzzle of `file` through [`puzzles::find`] again at `depth` and writes the
/// ones that still pass (with the figures of that depth), so a set can be made stricter
/// without replaying its games. A line that does not parse is reported and dropped.
fn recheck(file: &str, rules: Rules, depth: u32, stop: &AtomicBool, out: &mut impl Write) -> Result<(), String> {
    let passed = &format!("pass at depth {depth}");
    keep_passing(file, passed, out, |puzzle| {
        puzzles::find_by(rules, &puzzle.game(), &puzzle.id, depth, stop)
            .ok_or_else(|| format!("dropped at depth {depth}"))
    })
}

/// The cheap part of the checks (`puzzles::quick_check`: enough legal moves, the answer best
/// by the plain measure and at the verification depth, each by `MIN_GAIN`) applied to every
/// puzzle of `file`: writes the ones that pass with the figures measured today. The deep
/// checks are `--recheck`'s.
fn filter(file: &str, stop: &AtomicBool, out: &mut impl Write) -> Result<(), String> {
    keep_passing(file, "pass the quick checks", out, |puzzle| {
        let gain = puzzles::quick_check(&puzzle.game(), puzzle.answer_move(), stop)?;
        Ok(puzzles::Puzzle { gain, ..puzzle.clone() })
    })
}

/// Reads the puzzle set `file` (a line that does not parse is reported and dropped), writes
/// each puzzle `check` keeps as it returns it (flushed, so a long run can be followed),
/// reports why each other one was dropped, and then how many `passed`.
fn keep_passing(
    file: &str,
    passed: &str,
    out: &mut impl Write,
    mut check: impl FnMut(&puzzles::Puzzle) -> Result<puzzles::Puzzle, String>,
) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let set = puzzles::parse_set(&text);
    for error in &set.errors {
        eprintln!("{error}");
    }
    let mut kept = 0;
    for puzzle in &set.puzzles {
        match check(puzzle) {
            Ok(again) => {
                writeln!(out, "{}", again.line()).map_err(|e| e.to_string())?;
                out.flush().map_err(|e| e.to_string())?;
                kept += 1;
            }
            Err(why) => eprintln!("{}: {why}", puzzle.id),
        }
    }
    eprintln!("{kept} of {} puzzles {passed}", set.puzzles.len());
    Ok(())
}
