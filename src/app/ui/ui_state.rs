//! Moving between the pages, and what Back and Esc do on each. Pure decisions, tested
//! without a window; the controller carries them out.

use crate::Page;
use std::cell::Cell;

/// Remembers where the rules and about pages were opened from.
pub struct Navigator {
    previous: Cell<Page>,
}

impl Default for Navigator {
    fn default() -> Navigator {
        Navigator { previous: Cell::new(Page::NewGame) }
    }
}

impl Navigator {
    /// The page to show when `requested` is asked for on `current`. The game page
    /// needs a game; leaving the new-game or game page remembers it for [`Self::back_target`].
    pub fn open(&self, current: Page, requested: Page, has_game: bool) -> Page {
        if current != requested && matches!(current, Page::Game | Page::NewGame) {
            self.previous.set(current);
        }
        Self::available(requested, has_game)
    }

    /// The page that the rules or about page returns to.
    pub fn back_target(&self, has_game: bool) -> Page {
        Self::available(self.previous.get(), has_game)
    }

    fn available(page: Page, has_game: bool) -> Page {
        if page == Page::Game && !has_game {
            Page::NewGame
        } else {
            page
        }
    }
}

/// What Android's Back button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackStep {
    /// Drop the preview, else the selection (the game page, while there is one).
    CancelOnBoard,
    /// Leave the game for the new-game screen (the game is kept).
    LeaveGame,
    /// Return from the rules or about page.
    Return,
    /// Nothing left to go back to: Android may close the app.
    LetSystemClose,
}

/// Back on `page`, given whether a preview or selection is on the board.
pub fn back_step(page: Page, board_has_choice: bool) -> BackStep {
    match page {
        Page::Game if board_has_choice => BackStep::CancelOnBoard,
        Page::Game => BackStep::LeaveGame,
        Page::Rules | Page::About => BackStep::Return,
        Page::NewGame => BackStep::LetSystemClose,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_return_to_the_page_they_were_opened_from() {
        let navigator = Navigator::default();
        assert_eq!(navigator.open(Page::Game, Page::Rules, true), Page::Rules);
        assert_eq!(navigator.back_target(true), Page::Game);
        assert_eq!(navigator.open(Page::NewGame, Page::About, true), Page::About);
        assert_eq!(navigator.back_target(true), Page::NewGame);
        assert_eq!(navigator.open(Page::About, Page::Rules, true), Page::Rules, "from about to rules");
        assert_eq!(navigator.back_target(true), Page::NewGame, "still returns where the player came from");
    }

    #[test]
    fn without_a_game_the_game_page_is_the_new_game_page() {
        let navigator = Navigator::default();
        assert_eq!(navigator.open(Page::NewGame, Page::Game, false), Page::NewGame);
        navigator.open(Page::Game, Page::Rules, true);
        assert_eq!(navigator.back_target(false), Page::NewGame);
    }

    #[test]
    fn back_steps_from_the_board_to_the_system() {
        assert_eq!(back_step(Page::Game, true), BackStep::CancelOnBoard);
        assert_eq!(back_step(Page::Game, false), BackStep::LeaveGame);
        assert_eq!(back_step(Page::Rules, false), BackStep::Return);
        assert_eq!(back_step(Page::NewGame, true), BackStep::LetSystemClose);
    }
}
