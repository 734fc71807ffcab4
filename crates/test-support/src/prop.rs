//! Shared by the property tests (`tests/prop_*.rs`): the proptest configuration and the
//! generators of random and biased-random games, sparse positions and routes to try.
//!
//! The rules they are checked against are the independent reference model of
//! `tests/common/reference.rs` (slow and obvious, where the engine is fast and clever):
//! a test crate that uses this module declares `mod common;` too. Where engine and
//! reference disagree, one of them is wrong, and proptest shrinks the game that shows it.

#![allow(dead_code)] // each test file uses its own part of this module

use crate::glue::{ref_setup, seats_in_play};
use crate::reference::{self, RefPosition, Sq, DIRECTIONS};
use halma_rules::{Action, Game, Move, Seat, Setup, Square};
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;

/// The proptest configuration: `default_cases` unless `PROPTEST_CASES` says otherwise,
/// so that `cargo test` stays quick and a long run is one variable away.
pub fn config(default_cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|text| text.parse().ok()).unwrap_or(default_cases);
    // Shrinking a 700-ply game is slow: a minute of it finds a short enough example.
    ProptestConfig { cases, max_shrink_iters: 4_000, max_shrink_time: 60_000, ..ProptestConfig::default() }
}

/// Distance still to go for a piece of `army` on `at`: king steps to the farthest
/// corner square of its target camp, so that moving deeper into the camp still counts.
pub fn distance_to_go(army: Seat, at: Square) -> i32 {
    let (column, row) = reference::corner(reference::opposite(army.letter()));
    (at.column() - column).abs() + (at.row() - row).abs()
}

/// How to drive one random game: the setup, the first seat, how often the mover picks
/// a most-forward move instead of any move, and one random number per ply.
#[derive(Clone, Debug)]
pub struct Recipe {
    pub setup: Setup,
    pub first: Seat,
    pub forward_percent: u32,
    pub choices: Vec<u32>,
}

pub fn any_setup() -> impl Strategy<Value = Setup> {
    prop::sample::select(Setup::ALL.to_vec())
}

/// Random games: every setup, any first seat, uniform or biased toward forward moves
/// (biased games reach the late phases: camps filling, the duty, wins).
pub fn recipe(max_plies: usize) -> impl Strategy<Value = Recipe> {
    (any_setup(), 0..4usize, prop_oneof![Just(0u32), Just(80u32), Just(95u32), Just(100u32)]).prop_flat_map(
        move |(setup, first, forward_percent)| {
            let seats = seats_in_play(setup);
            let first = seats[first % seats.len()];
            prop::collection::vec(any::<u32>(), 0..=max_plies).prop_map(move |choices| Recipe {
                setup,
                first,
                forward_percent,
                choices,
            })
        },
    )
}

/// The action a recipe's player takes: a pass when it must, otherwise a legal move,
/// among the most forward ones `forward_percent` of the time.
pub fn pick(game: &Game, choice: u32, forward_percent: u32) -> Option<Action> {
    if game.is_over() {
        return None;
    }
    if game.must_pass() {
        return Some(Action::Pass);
    }
    let position = game.position();
    let army = position.army_to_move();
    let mut moves: Vec<Move> = game.legal_moves().iter().collect();
    if choice % 100 < forward_percent {
        let gain = |mv: &Move| distance_to_go(army, mv.from) - distance_to_go(army, mv.to);
        let best = moves.iter().map(gain).max()?;
        moves.retain(|mv| gain(mv) == best);
    }
    let mv = moves[(choice / 100) as usize % moves.len()];
    position.route(mv).map(Action::Move)
}

/// A game position by position: calls `visit` before every action with the game so far.
pub fn play_recipe(recipe: &Recipe, mut visit: impl FnMut(&Game, &Action)) -> Game {
    let mut game = Game::new(recipe.setup, recipe.first);
    play_choices(&mut game, &recipe.choices, recipe.forward_percent, &mut visit);
    game
}

/// Plays one action per choice from `game` on until the game ends or the choices run out.
pub fn play_choices(game: &mut Game, choices: &[u32], forward_percent: u32, visit: &mut impl FnMut(&Game, &Action)) {
    for &choice in choices {
        let Some(action) = pick(game, choice, forward_percent) else { break };
        visit(game, &action);
        let played = game.play_action(&action);
        assert_eq!(played, Ok(()), "the engine refused its own action {action}");
    }
}

/// The square of index `index` (row * 16 + column), as the engine numbers them.
fn square_of_index(index: u8) -> Sq {
    (i32::from(index % 16), i32::from(index / 16))
}

/// A position with fewer pieces: for each seat in play, up to its army size on random
/// squares, a random seat to move and ply count, written as HPN text by the reference.
pub fn sparse_hpn() -> impl Strategy<Value = String> {
    (any_setup(), 0..4usize, 0..400u32, prop::collection::vec((0..4usize, any::<u8>()), 0..60)).prop_map(
        |(setup, to_move, plies, placements)| {
            let setup = ref_setup(setup);
            let seats = setup.seats();
            let mut position =
                RefPosition { board: [[None; 16]; 16], to_move: seats[to_move % seats.len()], setup, plies };
            for (seat, at) in placements {
                let seat = seats[seat % seats.len()];
                if position.pieces(seat).len() < setup.army_size(seat) {
                    let (column, row) = square_of_index(at);
                    position.board[row as usize][column as usize] = Some(seat);
                }
            }
            position.to_hpn()
        },
    )
}

/// The square `reach` squares from `at` in direction `(dc, dr)`, if on the board.
fn toward(at: Sq, (dc, dr): (i32, i32), reach: i32) -> Option<Sq> {
    let square = (at.0 + reach * dc, at.1 + reach * dr);
    reference::on_board(square).then_some(square)
}

/// A route to try on the engine, legal or not: from a piece of the army to move (or
/// now and then any square), a step in any direction, a random chain of legal jumps
/// (by the reference), or hops in random directions that may break any rule.
pub fn random_route(position: &RefPosition, rng: &mut impl rand::Rng) -> Vec<Sq> {
    let own = position.pieces(position.army_to_move());
    let from = if own.is_empty() || rng.random_range(0..10) == 0 {
        square_of_index(rng.random())
    } else {
        own[rng.random_range(0..own.len())]
    };
    let mut route = vec![from];
    match rng.random_range(0..4) {
        0 => {
            route.extend(toward(from, DIRECTIONS[rng.random_range(0..8)], 1));
            if rng.random_range(0..4) == 0 {
                route.extend(toward(from, DIRECTIONS[rng.random_range(0..8)], 2));
            }
        }
        1 | 2 => {
            let hops = rng.random_range(1..=6);
            for _ in 0..hops {
                let at = route[route.len() - 1];
                let next = position.next_jumps(from, at, &route[1..]);
                if next.is_empty() {
                    break;
                }
                route.push(next[rng.random_range(0..next.len())]);
            }
        }
        _ => {
            let hops = rng.random_range(1..=4);
            for _ in 0..hops {
                let at = route[route.len() - 1];
                let direction = DIRECTIONS[rng.random_range(0..8)];
                let reach = if rng.random_range(0..8) == 0 { 3 } else { 2 };
                match toward(at, direction, reach) {
                    Some(next) => route.push(next),
                    None => break,
                }
            }
            if rng.random_range(0..8) == 0 {
                route.push(from);
            }
        }
    }
    route
}
