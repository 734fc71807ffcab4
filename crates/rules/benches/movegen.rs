//! Move generation speed: perft (moves counted per second, bulk counting at the last
//! ply) and legal-move-list generations per second, from the start of every setup and
//! from crowded middle-game positions.
//!
//! `cargo bench -p halma-rules --bench movegen` runs the criterion groups, then
//! prints a summary whose first line is the target figure:
//! `perft 4 from 2p start: N moves/s` (median of several runs, one thread).

use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use halma_rules::{write_hpn, Game, Move, Position, Seat, Setup};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// SplitMix64 (the tests' own generator), so the middle-game positions are the same on every run.
use halma_test_support::TestRng;

/// The seeded game after `plies` plies: each move is one of those that gain the most
/// toward the target corner, so the armies meet and crowd the middle of the board.
fn middle_game(setup: Setup, plies: usize, seed: u64) -> Game {
    let mut rng = TestRng::new(seed);
    let mut game = Game::new(setup, setup.seats()[0]);
    for _ in 0..plies {
        if game.is_over() {
            break;
        }
        if game.must_pass() {
            let _ = game.pass();
            continue;
        }
        let army = game.position().army_to_move();
        let goal = army.opposite().corner();
        let gain = |mv: &Move| distance(mv.from, goal) - distance(mv.to, goal);
        let moves: Vec<Move> = game.legal_moves().iter().collect();
        let best = moves.iter().map(gain).max().unwrap_or(0);
        let candidates: Vec<&Move> = moves.iter().filter(|mv| gain(mv) == best).collect();
        let Some(&&mv) = candidates.get(rng.below(candidates.len().max(1))) else { break };
        let _ = game.play_move(mv);
    }
    game
}

fn distance(a: halma_rules::Square, b: halma_rules::Square) -> i32 {
    (a.column() - b.column()).abs() + (a.row() - b.row()).abs()
}

/// The positions benchmarked: each setup's start and a middle game after 40 plies.
fn positions() -> Vec<(String, Game)> {
    let mut list = Vec::new();
    for setup in Setup::ALL {
        list.push((format!("{setup} start"), Game::new(setup, Seat::A)));
    }
    for setup in Setup::ALL {
        list.push((format!("{setup} middle"), middle_game(setup, 40, 2024)));
    }
    list
}

fn perft_speed(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    for (name, game) in positions() {
        // Depth 4 from the starts, 3 from the denser middle games.
        let depth = if name.ends_with("start") { 4 } else { 3 };
        let count = game.perft(depth);
        group.throughput(Throughput::Elements(count));
        group.bench_with_input(BenchmarkId::new(format!("depth {depth}"), &name), &game, |b, game| {
            b.iter(|| black_box(game).perft(depth))
        });
    }
    group.finish();
}

fn move_lists(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    group.throughput(Throughput::Elements(1));
    for (name, game) in positions() {
        let position: Position = *game.position();
        group.bench_with_input(BenchmarkId::from_parameter(&name), &position, |b, position| {
            b.iter(|| black_box(position).legal_moves())
        });
    }
    group.finish();
}

criterion_group!(benches, perft_speed, move_lists);

/// Median of `runs` timings of `perft depth`, as moves counted per second.
fn perft_rate(game: &Game, depth: u32, runs: usize) -> (u64, f64) {
    let mut times = Vec::with_capacity(runs);
    let mut count = 0;
    for _ in 0..runs {
        let started = Instant::now();
        count = black_box(game).perft(depth);
        times.push(started.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    (count, count as f64 / times[runs / 2].max(1e-9))
}

/// Legal-move-list generations per second (median of `runs` batches).
fn generation_rate(position: &Position, runs: usize) -> f64 {
    const BATCH: u32 = 20_000;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = Instant::now();
        for _ in 0..BATCH {
            black_box(black_box(position).legal_moves());
        }
        times.push(started.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    f64::from(BATCH) / times[runs / 2].max(1e-9)
}

fn print_summary() {
    let start = Game::new(Setup::TwoPlayers, Seat::A);
    let (count, rate) = perft_rate(&start, 4, 5);
    println!();
    println!("perft 4 from 2p start: {rate:.0} moves/s ({count} moves, median of 5 runs, one thread)");
    for (name, game) in positions() {
        let depth = if name.ends_with("start") { 4 } else { 3 };
        let (count, rate) = perft_rate(&game, depth, 3);
        let generations = generation_rate(game.position(), 3);
        println!(
            "{name:>15}: perft {depth} = {count:>10}: {:>6.1} M moves/s; move lists: {:>6.2} M/s  [{}]",
            rate / 1e6,
            generations / 1e6,
            write_hpn(game.position())
        );
    }
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    // `cargo bench` passes `--bench`; `cargo test --benches` does not: skip the slow summary there.
    if std::env::args().any(|arg| arg == "--bench") {
        print_summary();
    }
}
