//! The multi-threaded search (lazy SMP, issue 14 §1): legal answers with several threads
//! in every setup, one thread reproducible, cancellation within 50 ms, and no thread left
//! running after a search returns.
//!
//! One test only, on purpose: it counts the process's threads, which other tests running
//! alongside in the same binary would change.

use halma::ai::{self, Level, SearchRequest};
use halma::rules::{Action, Game, Seat, Setup};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn random_game(setup: Setup, first: Seat, plies: usize, seed: u64) -> Game {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(setup, first);
    for _ in 0..plies {
        if game.is_over() {
            break;
        }
        if game.must_pass() {
            game.pass().expect("a seat without moves may pass");
            continue;
        }
        let moves: Vec<_> = game.legal_moves().iter().collect();
        game.play_move(moves[rng.random_range(0..moves.len())]).expect("a listed move is legal");
    }
    game
}

fn assert_legal(game: &Game, action: Option<Action>, context: &str) {
    let action = action.unwrap_or_else(|| panic!("{context}: an ongoing game has an action"));
    game.clone().play_action(&action).unwrap_or_else(|e| panic!("{context}: {action} refused: {e}"));
}

/// The threads of this process (Linux), or `None` where that cannot be read.
fn process_threads() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|line| line.strip_prefix("Threads:")).and_then(|n| n.trim().parse().ok())
}

/// Starts a 4-thread search with an hour's budget, sets the stop flag after `after` and
/// returns how long the search took to return after that.
fn time_to_stop(game: &Game, after: Duration) -> Duration {
    let stop = Arc::new(AtomicBool::new(false));
    let (worker_stop, worker_game) = (Arc::clone(&stop), game.clone());
    let worker = std::thread::spawn(move || {
        let request =
            SearchRequest::new(Level::Master).with_movetime(Duration::from_secs(3600)).with_seed(1).with_threads(4);
        let action = ai::choose_action(&worker_game, &request, &worker_stop);
        (action, Instant::now())
    });
    std::thread::sleep(after);
    let flagged = Instant::now();
    stop.store(true, Ordering::Relaxed);
    let (action, returned) = worker.join().expect("the search thread does not panic");
    assert_legal(game, action, "a cancelled 4-thread search");
    returned.saturating_duration_since(flagged)
}

#[test]
fn lazy_smp_answers_legal_moves_stops_at_once_and_leaves_no_thread_behind() {
    let before = process_threads();
    let stop = AtomicBool::new(false);

    // Legal answers with several threads, timed and at a fixed depth, in every setup.
    for (index, setup) in Setup::ALL.into_iter().enumerate() {
        for plies in [0, 7, 40] {
            let game = random_game(setup, setup.seats()[0], plies, 11 + index as u64);
            if game.is_over() {
                continue;
            }
            let context = format!("{setup} after {plies} plies");
            for threads in [2, 4] {
                let timed = SearchRequest::new(Level::Master)
                    .with_movetime(Duration::from_millis(40))
                    .with_seed(plies as u64)
                    .with_threads(threads);
                assert_legal(&game, ai::choose_action(&game, &timed, &stop), &context);
                let deep = SearchRequest::new(Level::Master).with_depth(3).with_threads(threads);
                assert_legal(&game, ai::choose_action(&game, &deep, &stop), &context);
            }
        }
    }

    // One thread: the same seed and depth give the same move, and a fixed depth without a
    // time limit searches with one thread by default.
    let game = random_game(Setup::TwoPlayers, Seat::A, 12, 5);
    let one = SearchRequest::new(Level::Master).with_depth(4).with_seed(9);
    assert_eq!(one.thread_count(), 1);
    assert!(SearchRequest::new(Level::Master).with_movetime(Duration::from_millis(300)).thread_count() >= 1);
    let first = ai::choose_action(&game, &one.with_threads(1), &stop);
    for _ in 0..3 {
        assert_eq!(ai::choose_action(&game, &one.with_threads(1), &stop), first);
        assert_eq!(ai::choose_action(&game, &one, &stop), first);
    }

    // Cancellation: the main thread and its helpers are gone within 50 ms (median).
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    for seed in 0..8 {
        let action =
            ai::choose_action(&game, &SearchRequest::new(Level::Greedy).with_seed(seed), &AtomicBool::new(false));
        game.play_action(&action.expect("an opening move")).expect("legal");
    }
    let mut delays: Vec<Duration> =
        [30, 150, 60, 250, 90].map(|ms| time_to_stop(&game, Duration::from_millis(ms))).to_vec();
    delays.sort();
    assert!(delays[2] < Duration::from_millis(50), "median stop time {:?} ({delays:?})", delays[2]);

    // Every helper thread was joined before its search returned. A joined thread can
    // linger in /proc for a moment while the kernel tears it down: allow a second.
    if let Some(before) = before {
        let mut after = process_threads();
        for _ in 0..100 {
            if after == Some(before) {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
            after = process_threads();
        }
        assert_eq!(after, Some(before), "threads left running after the searches");
    }
}
