//! The multi-threaded search (lazy SMP, issue 14 §1): legal answers with several threads
//! in every setup, one thread reproducible, cancellation within 50 ms, and no thread left
//! running after a search returns.
//!
//! One test only, on purpose: it counts the process's threads, which other tests running
//! alongside in the same binary would change.

mod ai_support;

use ai_support::{opened_two_player_game, random_game, time_to_stop};
use halma::ai::{self, Level, SearchRequest};
use halma::rules::{Action, Game, Seat, Setup};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn assert_legal(game: &Game, action: Option<Action>, context: &str) {
    let action = action.unwrap_or_else(|| panic!("{context}: an ongoing game has an action"));
    game.clone().play_action(&action).unwrap_or_else(|e| panic!("{context}: {action} refused: {e}"));
}

/// The threads of this process (Linux), or `None` where that cannot be read.
fn process_threads() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|line| line.strip_prefix("Threads:")).and_then(|n| n.trim().parse().ok())
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
    let game = opened_two_player_game();
    let four_threads = SearchRequest::new(Level::Master).with_seed(1).with_threads(4);
    let mut delays: Vec<Duration> =
        [30, 150, 60, 250, 90].map(|ms| time_to_stop(&game, four_threads, Duration::from_millis(ms))).to_vec();
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
