//! `halma-arena --puzzles`: candidate puzzles from self-play games (docs/PUZZLES.md).
//! Every K-th position of each game is tried with `ai::puzzles::find`: one move must beat
//! every other by `puzzles::MIN_GAIN` steps at the verification depth and again at the
//! deeper `--depth`. With `--variations V`, the positions after the mover's V best other
//! moves are tried too (the game had the player chosen a near move: about twice the
//! candidates per game played). After a puzzle the next `--gap` positions of that game are
//! skipped, so one turning point gives one puzzle. Lines go to standard output in the puzzle
//! file's format; deterministic for a seed.

use crate::selfplay;
use halma_ai::analysis;
use halma_ai::puzzles::{self, Rules, GENERATOR_DEPTH};
use halma_rules::{Action, Game, Setup};
use std::io::Write;
use std::sync::atomic::AtomicBool;

pub const USAGE: &str = "usage: halma-arena --puzzles --setup 2p|3p|4p-one|4p-both --games N [--seed S] [--every K] [--gap G] [--depth D] [--first-game I] [--variations V]
       halma-arena --puzzles --recheck FILE [--depth D]
       halma-arena --puzzles --filter FILE
  writes candidate puzzles (docs/PUZZLES.md) from N self-play games: every K-th position
  (default 3) is tried, G positions (default 12) are skipped after a puzzle, answers are
  checked at depth D (default 6, 6 to 8); with V, also the positions after the mover's V
  best other moves than the one played (ids end in .1 to .V). --recheck puts every puzzle
  of FILE through the same checks again (at depth D) and writes the ones that pass, keeping
  their ids; --filter applies only the quick checks (legal moves, the plain measure, the
  verification depth)";

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
    variations: usize,
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
        variations: 0,
    };
    let (mut setup, mut games) = (None, None);
    let mut rest = args;
    while let [key, tail @ ..] = rest {
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
            "--variations" => options.variations = number()? as usize,
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
        return recheck(file, Rules::CURRENT, options.depth, &stop, &mut out);
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
                let mut candidates = vec![(id.clone(), position.clone())];
                for (rank, alternative) in
                    alternatives(&position, action, options.variations, &stop).into_iter().enumerate()
                {
                    candidates.push((format!("{id}.{}", rank + 1), alternative));
                }
                for (id, candidate) in candidates {
                    if let Some(puzzle) = puzzles::find(&candidate, &id, options.depth, &stop) {
                        writeln!(out, "{}", puzzle.line()).map_err(|e| e.to_string())?;
                        out.flush().map_err(|e| e.to_string())?;
                        found += 1;
                        next_try = ply + options.gap + 1;
                        break;
                    }
                }
            }
            replay.play_action(action).map_err(|e| format!("game {index} ply {ply}: {e}"))?;
        }
        eprintln!("game {index}: {} plies, {found} puzzles", played.game.history().len());
    }
    Ok(())
}

/// The positions after the mover's `count` best other moves than the one played (by the
/// analysis's one-ply values), with the next seat to move: what the game would have been
/// had the player chosen a near move.
fn alternatives(position: &Game, played: &Action, count: usize, stop: &AtomicBool) -> Vec<Game> {
    if count == 0 {
        return Vec::new();
    }
    let played = match played {
        Action::Move(route) => Some(route.as_move()),
        Action::Pass => None,
    };
    let valued = analysis::move_values(position, 1, stop).unwrap_or_default();
    valued
        .iter()
        .filter(|(mv, _)| Some(*mv) != played)
        .take(count)
        .filter_map(|&(mv, _)| {
            let mut next = position.clone();
            next.play_move(mv).ok()?;
            (!next.is_over()).then(|| Game::from_position(*next.position()))
        })
        .collect()
}

/// Puts every puzzle of `file` through [`puzzles::find`] again at `depth` and writes the
/// ones that still pass (with the figures of that depth), so a set can be made stricter
/// without replaying its games. A line that does not parse is reported and dropped.
fn recheck(file: &str, rules: Rules, depth: u32, stop: &AtomicBool, out: &mut impl Write) -> Result<(), String> {
    let passed =
        &format!("pass every check (the deep gain at depth {depth}, the same answer to depth {})", rules.stable.1);
    keep_passing(file, passed, out, |puzzle| {
        puzzles::find_by(rules, &puzzle.game(), &puzzle.id, depth, stop)
            .ok_or_else(|| "dropped: no longer a puzzle by today's checks".to_string())
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

#[cfg(test)]
mod tests {
    use super::*;
    use halma_rules::Seat;

    #[test]
    fn variations_are_the_movers_best_other_moves_with_the_next_seat_to_move() {
        let game = Game::new(Setup::TwoPlayers, Seat::A);
        let stop = AtomicBool::new(false);
        let valued = analysis::move_values(&game, 1, &stop).unwrap_or_default();
        let (best, second, third) = (valued[0].0, valued[1].0, valued[2].0);
        let played = Action::Move(game.position().route(best).expect("a route"));
        let after = |mv| {
            let mut next = game.clone();
            next.play_move(mv).map(|_| *next.position())
        };
        let variations: Vec<_> = alternatives(&game, &played, 2, &stop).iter().map(|g| Ok(*g.position())).collect();
        assert_eq!(variations, [after(second), after(third)]);
        let fresh = alternatives(&game, &played, 2, &stop);
        assert!(fresh.iter().all(|g| g.history().is_empty() && g.to_move() == Seat::C));
        assert!(alternatives(&game, &played, 0, &stop).is_empty());
    }
}
