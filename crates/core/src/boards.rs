//! The one way another game takes the board: a stack of boards with the live game (the
//! game on this device, the one saved) at the bottom. [`AppState::session`] is always the
//! top, the game the board actions play; each game below waits untouched until the one
//! covering it is taken off.
//!
//! Two uses, one mechanism:
//! - a game by message covers the live game while the Games list shows it
//!   ([`Cover::ByMessage`], until another game is chosen);
//! - the guide's game and a puzzle's (Train, Practise your mistakes) are kept by their
//!   owners and cover the board for one event at a time ([`AppState::on_covering_board`]):
//!   what that event would start or stop for the live game (its computer, the hint, the
//!   analysis) is dropped, and the live game's seat failure is kept.
//!
//! Whatever covers it, the live game's save is byte-identical afterwards
//! (`actions::tests::the_live_game_is_saved_unchanged_after_every_other_game`).

use crate::effects::Effects;
use crate::session::{GameConfig, Session};
use crate::state::AppState;

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

/// The games under [`AppState::session`], the live game first.
#[derive(Clone, Debug, Default)]
pub struct Boards {
    below: Vec<(Cover, Session)>,
}

impl Boards {
    /// What covers the game just below the top, if anything does.
    pub fn top_cover(&self) -> Option<Cover> {
        self.below.last().map(|&(cover, _)| cover)
    }

    /// The game a game covered by `cover` (the first, from the bottom).
    fn under(&self, cover: Cover) -> Option<&Session> {
        self.below.iter().find(|&&(covering, _)| covering == cover).map(|(_, session)| session)
    }
}

impl AppState {
    /// Puts `session` on top of the board, the game shown until now kept below it.
    pub fn cover(&mut self, cover: Cover, session: Session) {
        let below = std::mem::replace(&mut self.session, session);
        self.boards.below.push((cover, below));
    }

    /// Takes the top game off when `cover` is what covers (gives it back); the game below
    /// it is on top again. Nothing changes when the top is not covering by `cover`.
    pub fn uncover(&mut self, cover: Cover) -> Option<Session> {
        if self.boards.top_cover() != Some(cover) {
            return None;
        }
        let (_, below) = self.boards.below.pop()?;
        Some(std::mem::replace(&mut self.session, below))
    }

    /// Drops every game below the top that `cover` covers (the top becomes the live game):
    /// a new game took the board's place and the one set aside is the device's no more.
    pub fn forget_covered(&mut self, cover: Cover) {
        self.boards.below.retain(|&(covering, _)| covering != cover);
    }

    /// The live game, wherever it is in the stack: while a game by message is shown, the
    /// game it covers (none when there was none); else the bottom of the stack, or the
    /// shown game when nothing covers it and there is one.
    pub fn live_session(&self) -> Option<&Session> {
        if self.by_message.active.is_some() {
            return self.boards.under(Cover::ByMessage);
        }
        match self.boards.below.first() {
            Some((_, bottom)) => Some(bottom),
            None => self.ui.has_game().then_some(&self.session),
        }
    }

    /// `action` with `board` on top of the stack (covering by `cover`), taken off after:
    /// the guide's and the puzzles' games, which their owners keep between events. What
    /// the action would start or stop for the game below (its computer, the hint, the
    /// analysis) is not done, and its seat failure stays as it was.
    pub fn on_covering_board(
        &mut self,
        cover: Cover,
        board: &mut Session,
        action: impl FnOnce(&mut AppState) -> Effects,
    ) -> Effects {
        let seat_failure = self.seat_failure;
        // A new game's session stands in the owner's place meanwhile (cheap: a start position).
        let placeholder = Session::new(GameConfig::default());
        self.cover(cover, std::mem::replace(board, placeholder));
        let mut effects = action(self);
        if let Some(session) = self.uncover(cover) {
            *board = session;
        }
        self.seat_failure = seat_failure;
        effects.stop_search = false;
        effects.start_hint = false;
        effects.start_analysis = false;
        effects.stop_analysis = false;
        effects
    }
}
