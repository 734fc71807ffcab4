//! Speed of the computer players: evaluation, fixed-depth searches in each setup, Master's
//! time to depth 6, hints and each level's move with its own budget, in typical
//! middle-game positions.
//!
//! `cargo bench -p halma-ai --bench ai`

use criterion::{criterion_group, criterion_main, Criterion};
use halma_ai::{eval, Level, SearchRequest};
use halma_rules::{Game, Seat, Setup};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A middle-game position: `plies` moves of two Strong-ish players at depth 1 (quick).
fn middle_game(setup: Setup, plies: u64) -> Game {
    let mut game = Game::new(setup, Seat::A);
    let stop = AtomicBool::new(false);
    for ply in 0..plies {
        let Some(action) =
            halma_ai::choose_action(&game, &SearchRequest::new(Level::Strong).with_depth(1).with_seed(ply), &stop)
        else {
            break;
        };
        if game.play_action(&action).is_err() {
            break;
        }
    }
    game
}

fn evaluation(c: &mut Criterion) {
    let game = middle_game(Setup::TwoPlayers, 40);
    c.bench_function("evaluate 2p middle game", |b| {
        b.iter(|| eval::evaluate(black_box(game.position()), Seat::A, &eval::Weights::DEFAULT))
    });
    c.bench_function("legal moves 2p middle game", |b| b.iter(|| black_box(game.position()).legal_moves().count()));
}

fn fixed_depth(c: &mut Criterion) {
    let stop = AtomicBool::new(false);
    let mut group = c.benchmark_group("search depth 3");
    group.sample_size(10);
    for setup in Setup::ALL {
        let game = middle_game(setup, 40);
        group.bench_function(setup.name(), |b| {
            b.iter(|| halma_ai::choose_action(&game, &SearchRequest::new(Level::Master).with_depth(3), &stop))
        });
    }
    group.finish();
}

/// Time to depth 6 on one thread: the depth the middle game's 200-odd moves a side held
/// Master below until late-move reductions grew with the move's place.
fn time_to_depth(c: &mut Criterion) {
    let stop = AtomicBool::new(false);
    let mut group = c.benchmark_group("Master to depth 6, one thread");
    group.sample_size(10).measurement_time(Duration::from_secs(30));
    for setup in [Setup::TwoPlayers, Setup::FourPlayersBothArmies] {
        let game = middle_game(setup, 40);
        let request = SearchRequest::new(Level::Master).with_depth(6).with_threads(1);
        group.bench_function(setup.name(), |b| b.iter(|| halma_ai::choose_action(&game, &request, &stop)));
    }
    group.finish();
}

fn hints_and_levels(c: &mut Criterion) {
    let stop = AtomicBool::new(false);
    let mut group = c.benchmark_group("budgets");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    for setup in [Setup::TwoPlayers, Setup::FourPlayersBothArmies] {
        let game = middle_game(setup, 40);
        group.bench_function(format!("hint {setup}"), |b| b.iter(|| halma_ai::hint(&game, &stop)));
        for level in Level::PLAYABLE {
            group.bench_function(format!("{} {setup}", level.name()), |b| {
                b.iter(|| halma_ai::choose_action(&game, &SearchRequest::new(level), &stop))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, evaluation, fixed_depth, time_to_depth, hints_and_levels);
criterion_main!(benches);
