//! The Train page's state (#41): the puzzle shown, where it came from, how the last answer
//! went, and the puzzle's own session, which is never the live game and never saved. The
//! actions that change it are in `actions/train.rs`; `AppState::training` holds it.

use crate::session::{GameConfig, Player, Session};
use halma_ai::puzzles::{Difficulty, Puzzle, WrongAnswer};
use halma_rules::Route;

/// Where the puzzle shown came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Daily,
    Graded(Difficulty),
    /// The player's own mistake number n (from 0) of the analysed game.
    Mistake(usize),
}

/// What the last move played in the puzzle was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Solved,
    /// Another legal move: what it gives away against the answer, judged as the review
    /// judges a move at the puzzles' verification depth (`None` until measured, or when it
    /// could not be).
    Wrong {
        played: Route,
        loss: Option<WrongAnswer>,
    },
}

/// The puzzle on the Train page and its own game.
#[derive(Clone, Debug)]
pub struct Training {
    pub puzzle: Puzzle,
    pub source: Source,
    /// The puzzle's position, every seat a person's: what the board shows and plays.
    pub session: Session,
    pub outcome: Option<Outcome>,
    /// Hints shown: 1 the piece, 2 its first landing.
    pub hints: u8,
    /// The first answer moved the streak and the rating; retries do not.
    pub counted: bool,
    /// The player's mistakes in the analysed game, as puzzles (Practise your mistakes).
    pub mistakes: Vec<Puzzle>,
}

impl Training {
    pub(crate) fn new(puzzle: Puzzle, source: Source, view_of: &Session) -> Option<Training> {
        let game = puzzle.game();
        let config = GameConfig { setup: puzzle.setup(), first: game.first_seat(), players: [Player::Human; 4].into() };
        let session = Session::with_game(config, game).ok()?.with_view(*view_of.view());
        Some(Training { puzzle, source, session, outcome: None, hints: 0, counted: false, mistakes: Vec::new() })
    }
}
