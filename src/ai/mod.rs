//! Computer players and hints.
//!
//! The entry points take the public game (position and history) and a stop flag, so
//! the app can run them on a worker thread and cancel them at once.

pub mod greedy;

pub use greedy::greedy_move;

use crate::rules::{Action, Game};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Playing strengths, weakest first. `Greedy` is the simple baseline used for testing.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub enum Level {
    Greedy,
    Beginner,
    Casual,
    Strong,
    Master,
}

impl Level {
    /// The levels the app offers, weakest first.
    pub const PLAYABLE: [Level; 4] = [Level::Beginner, Level::Casual, Level::Strong, Level::Master];
    pub const ALL: [Level; 5] = [Level::Greedy, Level::Beginner, Level::Casual, Level::Strong, Level::Master];

    /// The name the app shows and the protocol accepts.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Greedy => "Greedy",
            Level::Beginner => "Beginner",
            Level::Casual => "Casual",
            Level::Strong => "Strong",
            Level::Master => "Master",
        }
    }

    /// Parses a level name, ignoring case.
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|level| level.name().eq_ignore_ascii_case(name))
    }
}

/// What a search may use.
#[derive(Clone, Copy, Debug)]
pub struct SearchRequest {
    pub level: Level,
    /// Overrides the level's own time budget.
    pub movetime: Option<Duration>,
    /// Caps the search depth.
    pub depth: Option<u32>,
    /// Seed for the level's random choices: same seed, same move.
    pub seed: u64,
}

impl SearchRequest {
    pub fn new(level: Level) -> SearchRequest {
        SearchRequest { level, movetime: None, depth: None, seed: 0 }
    }
}

/// The action the computer plays for the seat to move: a move, or a pass when it has
/// none. `None` when the game is over.
pub fn choose_action(game: &Game, request: &SearchRequest, stop: &AtomicBool) -> Option<Action> {
    let _ = stop;
    if game.is_over() {
        return None;
    }
    if game.must_pass() {
        return Some(Action::Pass);
    }
    let mv = greedy_move(game.position(), request.seed)?;
    game.position().route(mv).map(Action::Move)
}

/// The suggestion shown to a player: from the public game only.
pub fn hint(game: &Game, stop: &AtomicBool) -> Option<Action> {
    choose_action(game, &SearchRequest::new(Level::Casual), stop)
}
