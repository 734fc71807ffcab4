//! Cancelling a search (undo, new game, leaving the game): the worker thread must give
//! up within 50 ms of the stop flag being set, whatever the level's budget.

mod ai_support;

use ai_support::{opened_two_player_game, time_to_stop};
use halma::ai::{Level, SearchRequest};
use halma::rules::{Game, Seat, Setup};
use std::time::Duration;

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
