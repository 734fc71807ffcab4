//! Helpers shared by the integration tests: the independent reference model and the
//! glue that turns engine values into its plain (column, row) squares.
// Each test file uses a different part of this module.
#![allow(dead_code)]

pub mod reference;

use halma::rules::{parse_hpn, Game, MoveSet, Position, Square};
use reference::{Mv, RefPosition, RefSetup, Sq};
use std::collections::BTreeSet;

pub fn to_sq(square: Square) -> Sq {
    (square.column(), square.row())
}

/// The engine square for a reference square.
pub fn square(sq: Sq) -> Square {
    Square::from_coords(sq.0, sq.1).expect("square on the board")
}

/// Parses a test square name into the engine's type.
pub fn sq(text: &str) -> Square {
    text.parse().expect("test square")
}

/// Route squares from `c3-e5-g5`.
pub fn route(text: &str) -> Vec<Square> {
    text.split('-').map(sq).collect()
}

pub fn move_set(moves: &MoveSet) -> BTreeSet<Mv> {
    moves.iter().map(|mv| (to_sq(mv.from), to_sq(mv.to))).collect()
}

/// Names of the moves, `from-to`, sorted for readable failures.
pub fn move_names(moves: &BTreeSet<Mv>) -> Vec<String> {
    moves.iter().map(|&mv| reference::move_text(mv)).collect()
}

/// The engine position for a reference position (through HPN text).
pub fn engine_position(position: &RefPosition) -> Position {
    parse_hpn(&position.to_hpn()).expect("reference HPN parses")
}

/// A game starting at the position written by pieces: `[('A', "c3 d4"), ('C', "p16")]`.
pub fn game_with(setup: RefSetup, to_move: char, plies: u32, pieces: &[(char, &str)]) -> Game {
    Game::from_position(engine_position(&RefPosition::from_pieces(setup, to_move, plies, pieces)))
}

/// Destinations of the piece on `from` among the legal moves, as sorted names.
pub fn destinations(game: &Game, from: &str) -> Vec<String> {
    game.legal_moves().destinations(sq(from)).squares().map(|sq| sq.to_string()).collect()
}

/// Square names from a space-separated list, sorted by square index like the engine.
pub fn sorted(names: &str) -> Vec<String> {
    let mut squares: Vec<Square> = names.split_whitespace().map(sq).collect();
    squares.sort();
    squares.iter().map(|sq| sq.to_string()).collect()
}

/// SplitMix64: a tiny seeded generator so that test games are the same on every run
/// and with every version of the `rand` crate.
pub struct TestRng(u64);

impl TestRng {
    pub fn new(seed: u64) -> TestRng {
        TestRng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Picks the next move of a test game: mostly the move that gains the most toward the
/// target corner (so games reach their end), sometimes any move. Works on the
/// reference model only, so it does not depend on the engine under test.
pub fn pick_move(position: &RefPosition, moves: &BTreeSet<Mv>, rng: &mut TestRng, greed_percent: usize) -> Mv {
    let list: Vec<Mv> = moves.iter().copied().collect();
    if rng.below(100) >= greed_percent {
        return list[rng.below(list.len())];
    }
    let goal = reference::corner(reference::opposite(position.army_to_move()));
    let distance = |s: Sq| (s.0 - goal.0).abs() + (s.1 - goal.1).abs();
    let gain = |mv: &Mv| distance(mv.0) - distance(mv.1);
    let best = list.iter().map(gain).max().unwrap_or(0);
    let candidates: Vec<Mv> = list.iter().copied().filter(|mv| gain(mv) == best).collect();
    candidates[rng.below(candidates.len())]
}
