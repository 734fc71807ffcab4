//! The multi-threaded search (the root split, issue 30 §2; lazy SMP before it, issue 14
//! §1): legal answers with several threads in every setup, one thread reproducible, the
//! same score as one thread where the search promises it, cancellation within 50 ms, and
//! no thread left running after a search returns.
//!
//! One test only, on purpose: it counts the process's threads, which other tests running
//! alongside in the same binary would change.

use halma_test_support::ai as ai_support;

use ai_support::common::assert_legal;
use ai_support::{opened_two_player_game, random_game, time_to_stop};
use halma_ai::search::{self, Limits, SearchParams};
use halma_ai::{Level, SearchRequest};
use halma_rules::{parse_hpn, Game, Seat, Setup};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The threads of this process (Linux), or `None` where that cannot be read.
fn process_threads() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|line| line.strip_prefix("Threads:")).and_then(|n| n.trim().parse().ok())
}

/// The middle-game suite of the time-to-depth benchmark (`benches/smp.rs`): its games
/// and the comment naming each position's setup and source.
fn suite() -> Vec<(Game, String)> {
    include_str!("data/smp-suite.txt")
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (hpn, comment) = line.split_once('#').expect("every position names its source");
            let position = parse_hpn(hpn.trim()).unwrap_or_else(|e| panic!("{line}: {e}"));
            (Game::from_position(position), comment.trim().to_string())
        })
        .collect()
}

/// At depth 3 (the first iteration the threads split) no move is reduced (a reduction
/// needs 3 plies left below the root) and no position of the iteration is reached twice,
/// so the score is the plain minimax score whatever order the threads search the root
/// moves in: several threads must give exactly one thread's score. Deeper, the scores of
/// reduced moves depend on the bound they were searched against and on the entries other
/// threads left in the table, so threads may differ by a few points there (as lazy SMP's
/// did); `benches/smp.rs` counts how often.
fn split_scores_the_suite_as_one_thread(suite: &[(Game, String)]) {
    let stop = AtomicBool::new(false);
    for (game, source) in suite {
        let params = SearchParams { best_reply: game.setup() == Setup::ThreePlayers, ..Level::Master.params() };
        let one = search::search(game, &params, &Limits { depth: 3, deadline: None, threads: 1 }, 0, &stop);
        for threads in [2, 3] {
            let many = search::search(game, &params, &Limits { depth: 3, deadline: None, threads }, 0, &stop);
            assert_eq!((many.depth, many.score), (3, one.score), "{source}: {threads} threads");
            let best = many.best.expect("a middle game has moves");
            assert!(game.legal_moves().contains(best), "{source}: {threads} threads chose an illegal {best:?}");
        }
        // Deeper, the answer is still a legal move of a completed iteration.
        let deeper = search::search(game, &params, &Limits { depth: 4, deadline: None, threads: 2 }, 0, &stop);
        assert_eq!(deeper.depth, 4, "{source}");
        assert!(deeper.best.is_some_and(|best| game.legal_moves().contains(best)), "{source}");
    }
}

#[test]
fn threads_answer_legal_moves_score_as_one_stop_at_once_and_leave_no_thread_behind() {
    let before = process_threads();
    let stop = AtomicBool::new(false);

    // The suite holds middle games of every setup.
    let suite = suite();
    for setup in Setup::ALL {
        let positions = suite.iter().filter(|(game, _)| game.setup() == setup).count();
        assert!((4..=6).contains(&positions), "{positions} positions of {setup} in the suite");
    }
    split_scores_the_suite_as_one_thread(&suite);

    // Legal answers with several threads, timed and at a fixed depth, in every setup.
    for (index, setup) in Setup::ALL.into_iter().enumerate() {
        for plies in [0, 7, 40] {
            let game = random_game(setup, setup.seats()[0], plies, 11 + index as u64);
            if game.is_over() {
                continue;
            }
            let context = format!("{setup} after {plies} plies");
            let answer = |request: &SearchRequest| {
                halma_ai::choose_action(&game, request, &stop)
                    .unwrap_or_else(|| panic!("{context}: an ongoing game has an action"))
            };
            for threads in [2, 4] {
                let timed = SearchRequest::new(Level::Master)
                    .with_movetime(Duration::from_millis(40))
                    .with_seed(plies as u64)
                    .with_threads(threads);
                assert_legal(&game, &answer(&timed), &context);
                let deep = SearchRequest::new(Level::Master).with_depth(3).with_threads(threads);
                assert_legal(&game, &answer(&deep), &context);
            }
        }
    }

    // One thread: the same seed and depth give the same move, and a fixed depth without a
    // time limit searches with one thread by default.
    let game = random_game(Setup::TwoPlayers, Seat::A, 12, 5);
    let one = SearchRequest::new(Level::Master).with_depth(4).with_seed(9);
    assert_eq!(one.thread_count(), 1);
    // With a move time, Master searches on every core the machine has, at most 8.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    assert_eq!(SearchRequest::new(Level::Master).with_movetime(Duration::from_millis(300)).thread_count(), cores);
    assert_eq!(SearchRequest::new(Level::Strong).with_movetime(Duration::from_millis(300)).thread_count(), 1);
    assert_eq!(SearchRequest::new(Level::Master).with_threads(64).thread_count(), 8, "capped at 8");
    let first = halma_ai::choose_action(&game, &one.with_threads(1), &stop);
    for _ in 0..3 {
        assert_eq!(halma_ai::choose_action(&game, &one.with_threads(1), &stop), first);
        assert_eq!(halma_ai::choose_action(&game, &one, &stop), first);
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
