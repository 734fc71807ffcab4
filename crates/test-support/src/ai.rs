//! Helpers shared by the computer players' tests: random games, positions from piece
//! lists, and timing how fast a search gives up once its stop flag is set.
// Each test file uses a different part of this module.
#![allow(dead_code)]

use halma_ai::{Level, SearchRequest};
use halma_rules::{Game, Seat, Setup, Square};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use crate as common;
#[allow(unused_imports)]
pub use common::random_game;

/// An HPN position text: each seat's pieces on its squares, `to_move`, `setup` and the
/// plies played.
pub fn hpn_text(pieces: &[(Seat, Vec<Square>)], to_move: Seat, setup: Setup, plies: u32) -> String {
    let mut board = [[None; 16]; 16];
    for (seat, squares) in pieces {
        for square in squares {
            board[square.row() as usize][square.column() as usize] = Some(*seat);
        }
    }
    let rows: Vec<String> = (0..16)
        .rev()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for cell in board[row] {
                match cell {
                    Some(seat) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push(Seat::letter(seat));
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    format!("{} {to_move} {setup} {plies}", rows.join("/"))
}

/// A few Greedy moves into a 2p game, where a search has most moves to look at.
pub fn opened_two_player_game() -> Game {
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    for seed in 0..8 {
        let action =
            halma_ai::choose_action(&game, &SearchRequest::new(Level::Greedy).with_seed(seed), &AtomicBool::new(false));
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
        let action = halma_ai::choose_action(&worker_game, &request, &worker_stop);
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
