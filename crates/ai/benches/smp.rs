//! Time to depth with one and two search threads over the fixed middle-game suite
//! `tests/data/smp-suite.txt` (issue 30 §2). Not a criterion benchmark: the runs of one
//! and two threads are interleaved (position by position, the order swapped every
//! repeat), so the noise of a shared machine falls on both alike.
//!
//! ```sh
//! cargo bench -p halma-ai --bench smp -- [--depths 4,5] [--repeats 5] [--threads 2] [--suite FILE]
//! cargo bench -p halma-ai --bench smp -- --generate > tests/data/smp-suite.txt
//! ```
//!
//! For each position and depth it prints the median time and nodes to complete the depth
//! with one thread and with N, then per depth the suite's totals of those medians, their
//! ratio (the speedup) and the geometric mean of the per-position ratios; and how often
//! the N-thread search's score differed from the one-thread search's.

use halma_ai::search::{self, Limits, SearchParams};
use halma_ai::tt::TranspositionTable;
use halma_ai::{Level, SearchRequest};
use halma_rules::{parse_hpn, write_hpn, Game, Seat, Setup};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The suite, read when the benchmark runs (`--suite FILE` for another).
const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/smp-suite.txt");

/// Master's search as it plays (Best-Reply Search in 3p), on a fresh table.
fn params(setup: Setup) -> SearchParams {
    SearchParams { best_reply: setup == Setup::ThreePlayers, ..Level::Master.params() }
}

struct Run {
    time: Duration,
    nodes: u64,
    score: i32,
}

fn run(game: &Game, depth: u32, threads: usize) -> Run {
    let params = params(game.setup());
    let table = TranspositionTable::new(params.tt_bits);
    let limits = Limits { depth, deadline: None, threads };
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let result = search::search_with_table(game, &params, &limits, 0, &stop, &table, &mut |_| {});
    let time = started.elapsed();
    assert_eq!(result.depth, depth, "the search completed its depth");
    Run { time, nodes: result.nodes, score: result.score }
}

fn median<T: Copy + Ord>(values: &[T]) -> T {
    let mut sorted = values.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}

/// Self-played middle games: Master at depth 3 (one thread) on every seat, each game
/// with its own seeds, one position per game at plies 30 to 60.
fn generate() {
    let stop = AtomicBool::new(false);
    for setup in Setup::ALL {
        for (game_number, plies) in [30u64, 38, 46, 54, 60].into_iter().enumerate() {
            let mut game = Game::new(setup, Seat::A);
            for ply in 0..plies {
                let seed = 1000 * game_number as u64 + ply;
                let request = SearchRequest::new(Level::Master).with_depth(3).with_seed(seed).with_threads(1);
                let Some(action) = halma_ai::choose_action(&game, &request, &stop) else { break };
                game.play_action(&action).expect("the search's action is legal");
            }
            if game.is_over() {
                continue;
            }
            println!(
                "{} # {setup}, self-play game {} (Master depth 3 on every seat, seeds {}..), ply {plies}",
                write_hpn(game.position()),
                game_number + 1,
                1000 * game_number
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--generate") {
        generate();
        return;
    }
    let value = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1));
    let depths: Vec<u32> = value("--depths")
        .map_or("4,5".to_string(), String::clone)
        .split(',')
        .map(|d| d.parse().expect("--depths 4,5"))
        .collect();
    let repeats: usize = value("--repeats").map_or(5, |r| r.parse().expect("--repeats N"));
    let threads: usize = value("--threads").map_or(2, |t| t.parse().expect("--threads N"));

    let path = value("--suite").map_or(SUITE.to_string(), String::clone);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let suite: Vec<(Game, String)> = text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (hpn, comment) = line.split_once('#').unwrap_or((line, ""));
            let position = parse_hpn(hpn.trim()).expect("the suite holds valid HPN");
            (Game::from_position(position), comment.trim().to_string())
        })
        .collect();
    println!("{} positions, depths {depths:?}, {repeats} repeats, 1 thread against {threads}", suite.len());
    println!("load average before: {}", load_average());

    for &depth in &depths {
        let (mut total_one, mut total_many, mut log_ratio, mut differing) = (0.0, 0.0, 0.0, 0);
        let (mut nodes_one, mut nodes_many) = (0u64, 0u64);
        for (game, comment) in &suite {
            let mut one = Vec::new();
            let mut many = Vec::new();
            for repeat in 0..repeats {
                // Interleaved, the order swapped every repeat.
                if repeat % 2 == 0 {
                    one.push(run(game, depth, 1));
                    many.push(run(game, depth, threads));
                } else {
                    many.push(run(game, depth, threads));
                    one.push(run(game, depth, 1));
                }
            }
            let time_one = median(&one.iter().map(|r| r.time).collect::<Vec<_>>()).as_secs_f64();
            let time_many = median(&many.iter().map(|r| r.time).collect::<Vec<_>>()).as_secs_f64();
            let node_one = median(&one.iter().map(|r| r.nodes).collect::<Vec<_>>());
            let node_many = median(&many.iter().map(|r| r.nodes).collect::<Vec<_>>());
            let score_one = one[0].score;
            let other_scores: Vec<i32> = many.iter().map(|r| r.score).filter(|&s| s != score_one).collect();
            differing += other_scores.len();
            total_one += time_one;
            total_many += time_many;
            nodes_one += node_one;
            nodes_many += node_many;
            log_ratio += (time_one / time_many).ln();
            println!(
                "depth {depth}  {:>8.1} ms {:>9} nodes | {threads} threads {:>8.1} ms {:>9} nodes | {:.2}x  score {score_one}{}  ({comment})",
                time_one * 1e3,
                node_one,
                time_many * 1e3,
                node_many,
                time_one / time_many,
                if other_scores.is_empty() { String::new() } else { format!(" (differs: {other_scores:?})") },
            );
        }
        println!(
            "depth {depth} total of medians: 1 thread {:.2} s, {} nodes; {threads} threads {:.2} s, {} nodes; speedup {:.2} (geometric mean per position {:.2}); {differing} of {} {threads}-thread scores differ from 1 thread's",
            total_one,
            nodes_one,
            total_many,
            nodes_many,
            total_one / total_many,
            (log_ratio / suite.len() as f64).exp(),
            suite.len() * repeats,
        );
        println!("load average: {}", load_average());
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or_else(|_| "unknown".to_string(), |l| l.trim().to_string())
}
