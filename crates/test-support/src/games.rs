//! Test games built through the engine: random legal games (the computer players' and the
//! saves' tests), a long game that neither wins nor repeats (the limits of a game and
//! of a record), games set up from piece lists, and the check that an answer is legal.

use super::reference::RefPosition;
use crate::glue::{engine_position, ref_setup};
use halma_rules::{Action, Game, Move, Outcome, Seat, Setup, Square};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

/// Plays `plies` random legal actions on `game` (passes when forced; fewer if it ends).
pub fn play_randomly(game: &mut Game, plies: usize, rng: &mut StdRng) {
    for _ in 0..plies {
        if game.is_over() {
            break;
        }
        if game.must_pass() {
            game.pass().expect("a seat without moves may pass");
            continue;
        }
        let moves: Vec<_> = game.legal_moves().iter().collect();
        let mv = moves[rng.random_range(0..moves.len())];
        game.play_move(mv).expect("a listed move is legal");
    }
}

/// Plays `plies` random legal actions from the start of `setup` (fewer if the game ends).
pub fn random_game(setup: Setup, first: Seat, plies: usize, seed: u64) -> Game {
    let mut game = Game::new(setup, first);
    play_randomly(&mut game, plies, &mut StdRng::seed_from_u64(seed));
    game
}

/// A two-player game of `actions` actions, from seeded random moves that neither win
/// nor bring a position back a third time; it is still going on.
pub fn long_game(actions: usize, seed: u64) -> Game {
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    let mut seen = HashMap::from([(game.position().hash(), 1)]);
    let mut seed = seed;
    while game.history().len() < actions {
        if game.must_pass() {
            assert_eq!(game.pass(), Ok(()));
        } else {
            let fresh: Vec<Move> = game
                .legal_moves()
                .iter()
                .filter(|&mv| {
                    let next = game.position().after(mv);
                    next.winners().is_none() && seen.get(&next.hash()).copied().unwrap_or(0) < 2
                })
                .collect();
            assert!(!fresh.is_empty(), "no fresh move at action {}", game.history().len() + 1);
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let mv = fresh[(seed >> 33) as usize % fresh.len()];
            assert!(game.play_move(mv).is_ok());
        }
        *seen.entry(game.position().hash()).or_insert(0) += 1;
    }
    assert_eq!(game.outcome(), Outcome::Ongoing);
    game
}

/// A game from the position with each seat's pieces on its squares, `to_move` and the
/// plies played. The reference model writes it as HPN for the engine to read, so a
/// position that is not one fails here, and two pieces on one square fail the test.
pub fn game_from(pieces: &[(Seat, &[Square])], to_move: Seat, setup: Setup, plies: u32) -> Game {
    let mut position =
        RefPosition { board: [[None; 16]; 16], to_move: to_move.letter(), setup: ref_setup(setup), plies };
    for &(seat, squares) in pieces {
        for &square in squares {
            let cell = &mut position.board[square.row() as usize][square.column() as usize];
            assert!(cell.is_none(), "test position puts two pieces on {square}");
            *cell = Some(seat.letter());
        }
    }
    Game::from_position(engine_position(&position))
}

/// A two-player game (A and C) from the squares' names of each side's pieces: the
/// analysis tests' planted positions.
pub fn two_player_game(a: &[&str], c: &[&str], to_move: Seat, plies: u32) -> Game {
    let a: Vec<Square> = a.iter().map(|name| crate::glue::sq(name)).collect();
    let c: Vec<Square> = c.iter().map(|name| crate::glue::sq(name)).collect();
    game_from(&[(Seat::A, &a), (Seat::C, &c)], to_move, Setup::TwoPlayers, plies)
}

/// Asserts that `action` is legal for the game's seat to move (a move among the legal
/// moves, a pass only when forced) and that the game accepts it; returns the game after.
pub fn assert_legal(game: &Game, action: &Action, context: &str) -> Game {
    let mut after = game.clone();
    match action {
        Action::Move(route) => {
            let mv = route.as_move();
            assert!(game.legal_moves().contains(mv), "{context}: {route} is not a legal move");
            after.play_route(route.squares()).unwrap_or_else(|e| panic!("{context}: route {route} refused: {e}"));
        }
        Action::Pass => {
            assert!(game.must_pass(), "{context}: passed with legal moves");
            after.pass().unwrap_or_else(|e| panic!("{context}: pass refused: {e}"));
        }
    }
    after
}
