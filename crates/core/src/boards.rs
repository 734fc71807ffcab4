//! The one way another game takes the board: a stack of boards with the live game (the
//! game on this device, the one saved) at the bottom. the app state's `session` is always the
//! top, the game the board actions play; each game below waits untouched until the one
//! covering it is taken off.
//!
//! Two uses, one mechanism:
//! - a game by message covers the live game while the Games list shows it
//!   ([`Cover::ByMessage`], until another game is chosen);
//! - the guide's game and a puzzle's (Train, Practise your mistakes) are kept by their
//!   owners and cover the board for one event at a time (`on_covering_board`, with the state's methods of the stack in `state.rs`):
//!   what that event would start or stop for the live game (its computer, the hint, the
//!   analysis) is dropped, and the live game's seat failure is kept.
//!
//! Whatever covers it, the live game's save is byte-identical afterwards
//! (`actions::tests::the_live_game_is_saved_unchanged_after_every_other_game`).

use crate::session::Session;

/// What covers the game below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cover {
    /// The first-game guide's own game.
    Guide,
    /// A puzzle's game (Train, and Practise your mistakes).
    Puzzle,
    /// A game by message shown from the Games list.
    ByMessage,
}

/// The games under the app state's `session`, the live game first.
#[derive(Clone, Debug, Default)]
pub struct Boards {
    below: Vec<(Cover, Session)>,
}

impl Boards {
    /// What covers the game just below the top, if anything does.
    pub fn top_cover(&self) -> Option<Cover> {
        self.below.last().map(|&(cover, _)| cover)
    }

    /// The game a game covered by `cover` covers (the first, from the bottom).
    pub fn under(&self, cover: Cover) -> Option<&Session> {
        self.below.iter().find(|&&(covering, _)| covering == cover).map(|(_, session)| session)
    }

    /// The game at the bottom, when something covers it.
    pub fn bottom(&self) -> Option<&Session> {
        self.below.first().map(|(_, session)| session)
    }

    /// Keeps `below` under the game that covers it (by `cover`).
    pub fn push(&mut self, cover: Cover, below: Session) {
        self.below.push((cover, below));
    }

    /// The game just under the top, taken out, when `cover` is what covers it.
    pub fn pop(&mut self, cover: Cover) -> Option<Session> {
        if self.top_cover() != Some(cover) {
            return None;
        }
        self.below.pop().map(|(_, session)| session)
    }

    /// Drops every game that `cover` covers.
    pub fn forget(&mut self, cover: Cover) {
        self.below.retain(|&(covering, _)| covering != cover);
    }
}
