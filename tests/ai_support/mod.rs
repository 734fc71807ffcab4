//! Helpers shared by the computer players' tests: random games, and timing how fast a
//! search gives up once its stop flag is set.
// Each test file uses a different part of this module.
#![allow(dead_code)]

use halma::ai::{self, Level, SearchRequest};
use halma::rules::{Game, Seat, Setup};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Plays `plies` random legal actions from the start of `setup` (fewer if the game ends).
pub fn random_game(setup: Setup, first: Seat, plies: usize, seed: u64) -> Game {
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
        let mv = moves[rng.random_range(0..moves.len())];
        game.play_move(mv).expect("a listed move is legal");
    }
    game
}

/// A few Greedy moves into a 2p game, where a search has most moves to look at.
pub fn opened_two_player_game() -> Game {
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    for seed in 0..8 {
        let action =
            ai::choose_action(&game, &SearchRequest::new(Level::Greedy).with_seed(seed), &AtomicBool::new(false));
        game.play_action(&action.expect("an opening move")).expect("legal");
    }
    game
}

/// Runs `request` (given an hour's budget) on another thread, sets the stop flag after
/// `after`, and returns how long the search took to return after that. Even a cancelled
/// search must answer with a legal action (the caller may ignore it).
pub fn time_to_stop(game: &Game, request: SearchRequest, after: Duration) -> Duration {
    let stop = Arc::new(AtomicBool::new(false));
    let (worker_stop, worker_game) = (Arc::clone(&stop), game.clone());
    let worker = std::thread::spawn(move || {
        let request = request.with_movetime(Duration::from_secs(3600));
        let action = ai::choose_action(&worker_game, &request, &worker_stop);
        (action, Instant::now())
    });
    std::thread::sleep(after);
    let flagged = Instant::now();
    stop.store(true, Ordering::Relaxed);
    let (action, returned) = worker.join().expect("the search thread does not panic");
    let action = action.expect("an ongoing game has an action");
    game.clone().play_action(&action).expect("the cancelled search's action is legal");
    returned.saturating_duration_since(flagged)
}
