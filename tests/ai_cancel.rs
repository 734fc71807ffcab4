//! Cancelling a search (undo, new game, leaving the game): the worker thread must give
//! up within 50 ms of the stop flag being set, whatever the level's budget.

use halma::ai::{self, Level, SearchRequest};
use halma::rules::{Game, Seat, Setup};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Starts a search with an hour's budget on another thread, sets the stop flag after
/// `after`, and returns how long the search took to return after that.
fn time_to_stop(game: &Game, level: Level, after: Duration) -> Duration {
    let stop = Arc::new(AtomicBool::new(false));
    let worker_stop = Arc::clone(&stop);
    let worker_game = game.clone();
    let worker = std::thread::spawn(move || {
        let request =
            SearchRequest { level, movetime: Some(Duration::from_secs(3600)), depth: None, seed: 1, threads: None };
        let action = ai::choose_action(&worker_game, &request, &worker_stop);
        (action, Instant::now())
    });
    std::thread::sleep(after);
    let flagged = Instant::now();
    stop.store(true, Ordering::Relaxed);
    let (action, returned) = worker.join().expect("the search thread does not panic");
    // Even a cancelled search answers with a legal move (the caller may ignore it).
    let action = action.expect("an ongoing game has an action");
    let mut after_move = game.clone();
    after_move.play_action(&action).expect("the cancelled search's move is legal");
    returned.saturating_duration_since(flagged)
}

#[test]
fn a_search_stops_within_50_ms_of_the_stop_flag() {
    // A few moves into a 2p game, where the search has most moves to look at.
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    for seed in 0..8 {
        let action =
            ai::choose_action(&game, &SearchRequest::new(Level::Greedy).with_seed(seed), &AtomicBool::new(false));
        game.play_action(&action.expect("an opening move")).expect("legal");
    }
    let four = Game::new(Setup::FourPlayersBothArmies, Seat::B);
    let three = Game::new(Setup::ThreePlayers, Seat::C);
    for (game, level) in [(&game, Level::Master), (&four, Level::Master), (&three, Level::Master)] {
        let mut delays: Vec<Duration> =
            [30, 150, 60, 250, 90].map(|ms| time_to_stop(game, level, Duration::from_millis(ms))).to_vec();
        delays.sort();
        let median = delays[delays.len() / 2];
        assert!(
            median < Duration::from_millis(50),
            "{} {level:?}: median stop time {median:?} ({delays:?})",
            game.setup()
        );
    }
}
