//! Time to analyse a typical 2-player game (issue 28's target: at most 15 s at the
//! default quality on one core of a 2-core machine), and what a second thread adds.
//!
//! The game is tests/data/analysis-typical-2p.txt: 166 actions between two Strong players
//! (each move a search of 3 plies, seed 8000 + ply), so every run analyses the same game.
//!
//! `cargo bench -p halma-record --bench analysis`

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use halma_ai::analysis::{self, AnalysisRequest, Quality};
use halma_record::Record;
use halma_rules::Game;
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn typical_game() -> Game {
    match Record::parse(include_str!("../../../tests/data/analysis-typical-2p.txt")) {
        Ok(record) => record.game,
        Err(error) => panic!("the typical game does not read: {error:?}"),
    }
}

fn analyse(game: &Game, quality: Quality, threads: usize) {
    let request = AnalysisRequest::new(quality).with_threads(threads);
    let result = analysis::analyse(black_box(game), &request, &AtomicBool::new(false), &mut |_, _| {});
    black_box(result.is_ok());
}

fn whole_game(c: &mut Criterion) {
    let game = typical_game();
    let mut group = c.benchmark_group("analyse a typical 2p game");
    // Each sample is one whole analysis (seconds): the fewest samples criterion accepts,
    // flat, so that ten samples are ten analyses and not 55.
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(1));
    group.bench_function("quick, one thread", |b| b.iter(|| analyse(&game, Quality::QUICK, 1)));
    group.bench_function("default, one thread", |b| b.iter(|| analyse(&game, Quality::DEFAULT, 1)));
    group.bench_function("default, two threads", |b| b.iter(|| analyse(&game, Quality::DEFAULT, 2)));
    group.finish();
}

criterion_group!(benches, whole_game);
criterion_main!(benches);
