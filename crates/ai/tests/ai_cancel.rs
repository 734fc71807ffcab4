//! Cancelling a search (undo, new game, leaving the game): the worker thread must give
//! up within 50 ms of the stop flag being set, whatever the level's budget.

use halma_test_support::ai as ai_support;

use ai_support::{opened_two_player_game, time_to_stop};
use halma_ai::{Level, SearchError, SearchMemory, SearchRequest};
use halma_rules::{Game, Seat, Setup};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[test]
fn a_search_stops_within_50_ms_of_the_stop_flag() {
    let game = opened_two_player_game();
    let four = Game::new(Setup::FourPlayersBothArmies, Seat::B);
    let three = Game::new(Setup::ThreePlayers, Seat::C);
    for (game, level) in [(&game, Level::Master), (&four, Level::Master), (&three, Level::Master)] {
        let mut delays: Vec<Duration> = [30, 150, 60, 250, 90]
            .map(|ms| time_to_stop(game, SearchRequest::new(level).with_seed(1), Duration::from_millis(ms)))
            .to_vec();
        delays.sort();
        let median = delays[delays.len() / 2];
        assert!(
            median < Duration::from_millis(50),
            "{} {level:?}: median stop time {median:?} ({delays:?})",
            game.setup()
        );
    }
}

/// A search that fails (here its report panics, as a writer on a closed pipe would) ends
/// with all its threads and returns an error, with an hour's budget left and three
/// threads: the computer seat is told, never left "thinking". The kept memory still
/// serves the next search.
#[test]
fn a_failing_search_returns_an_error_at_once_and_the_next_one_works() {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let game = opened_two_player_game();
        let memory = SearchMemory::new();
        let stop = AtomicBool::new(false);
        let request = SearchRequest::new(Level::Master).with_movetime(Duration::from_secs(3600)).with_threads(3);
        let started = Instant::now();
        let failed = halma_ai::try_choose_action_remembering(&game, &request, &stop, &memory, &mut |_| {
            panic!("the report failed on purpose")
        });
        let took = started.elapsed();
        let request = request.with_movetime(Duration::from_millis(50));
        let next = halma_ai::try_choose_action_remembering(&game, &request, &stop, &memory, &mut |_| {});
        let _ = sender.send((failed, took, next, game));
    });
    let (failed, took, next, game) = receiver.recv_timeout(Duration::from_secs(30)).expect("the searches ended");
    assert_eq!(failed, Err(SearchError { reason: "the report failed on purpose".to_string() }));
    assert!(took < Duration::from_secs(5), "{took:?}");
    let action = next.expect("the next search works").expect("an ongoing game has an action");
    game.clone().play_action(&action).expect("its action is legal");
}
