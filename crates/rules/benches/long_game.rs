//! The cost of a long game: replaying a 10,000-action game through the rules (what
//! loading a save or a record and the engine's `position … moves` do), and taking all
//! of it back and playing it again with undo and redo. Every action checks the result,
//! threefold repetition included, so a repetition test that scans the history makes the
//! replay quadratic; counting positions as they come keeps it linear.
//!
//! `cargo bench -p halma-rules --bench long_game`

use criterion::{criterion_group, criterion_main, Criterion};
use halma_rules::{Action, Game, Move, Position, Seat, Setup};
use std::collections::HashMap;
use std::hint::black_box;
use std::time::Duration;

/// The length of the game replayed.
const ACTIONS: usize = 10_000;

/// SplitMix64 (the tests' own generator), so the game is the same on every run and in every build.
use halma_test_support::TestRng;

/// A legal two-player game of `ACTIONS` actions that neither side wins and that never
/// reaches a position a third time: seeded random moves, skipping those that would win
/// or repeat a position twice seen. Built on positions alone, so that building it costs
/// the same before and after a change to `Game`.
fn long_game() -> Vec<Action> {
    let mut rng = TestRng::new(25);
    let mut position = Position::start(Setup::TwoPlayers, Seat::A);
    // Counted by Zobrist key: a collision only makes the walk more careful.
    let mut seen: HashMap<u64, u32> = HashMap::from([(position.hash(), 1)]);
    let mut actions = Vec::with_capacity(ACTIONS);
    while actions.len() < ACTIONS {
        let moves: Vec<Move> = position.legal_moves_ignoring_result().iter().collect();
        let fresh: Vec<(Move, Position)> = moves
            .iter()
            .map(|&mv| (mv, position.after(mv)))
            .filter(|(_, next)| next.winners().is_none() && seen.get(&next.hash()).copied().unwrap_or(0) < 2)
            .collect();
        if moves.is_empty() {
            position.pass_unchecked();
            actions.push(Action::Pass);
        } else {
            assert!(!fresh.is_empty(), "every move at action {} repeats a position", actions.len() + 1);
            let (mv, next) = fresh[rng.below(fresh.len())];
            actions.push(Action::Move(position.route(mv).expect("a legal move has a route")));
            position = next;
        }
        *seen.entry(position.hash()).or_insert(0) += 1;
    }
    actions
}

/// Plays `actions` from the start, as loading a save does.
fn replay(actions: &[Action]) -> Game {
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    for action in actions {
        if let Err(error) = game.play_action(action) {
            panic!("action {} ({action}): {error}", game.history().len() + 1);
        }
    }
    game
}

fn long_games(c: &mut Criterion) {
    let actions = long_game();
    let game = replay(&actions);
    assert_eq!(game.history().len(), ACTIONS);
    assert!(!game.is_over(), "the long game must still be going");

    let mut group = c.benchmark_group("long game");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(10));
    group.bench_function("replay 10000 actions", |b| b.iter(|| replay(black_box(&actions))));
    group.bench_function("undo and redo 10000 actions", |b| {
        b.iter_batched_ref(
            || game.clone(),
            |game| {
                while game.undo() {}
                while game.redo() {}
                assert_eq!(game.history().len(), ACTIONS);
            },
            criterion::BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, long_games);
criterion_main!(benches);
