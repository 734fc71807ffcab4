//! The built-in computer at a level, searching on a thread of its own.

use super::{Background, SeatDriver, Turn};
use halma_ai::{Level, SearchMemory, SearchRequest};
use halma_rules::Game;
use std::sync::Arc;
use std::time::Duration;

pub struct Computer {
    level: Level,
    /// Master's transposition table, kept from one move to the next.
    memory: Arc<SearchMemory>,
    search: Option<Background>,
}

impl Computer {
    pub fn new(level: Level, memory: Arc<SearchMemory>) -> Computer {
        Computer { level, memory, search: None }
    }
}

impl SeatDriver for Computer {
    fn start(&mut self, game: &Game, limit: Option<Duration>) {
        // The seed follows the game, so the same game gets the same move.
        let request =
            SearchRequest { movetime: limit, seed: game.history().len() as u64, ..SearchRequest::new(self.level) };
        let (game, memory) = (game.clone(), Arc::clone(&self.memory));
        self.search = Some(Background::spawn(move |stop| {
            halma_ai::try_choose_action_remembering(&game, &request, stop, &memory, &mut |_| {})
                .map_err(|error| format!("the search failed: {}", error.reason))
        }));
    }

    fn poll(&mut self) -> Turn {
        let Some(search) = &self.search else { return Turn::Idle };
        let turn = search.poll();
        if turn != Turn::Thinking {
            self.search = None;
        }
        turn
    }

    fn cancel(&mut self) {
        self.search = None;
    }
}
