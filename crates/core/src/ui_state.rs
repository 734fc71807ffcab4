//! The interface's own state, apart from the game: the page shown, the question or dialog
//! open over it, the review position, the keyboard cursor and whether there is a game.
//! Rust owns it and the window only shows it (`bind::interface`), so every change is a
//! function here, tested without a window, and Back and Esc are decided from it alone.

use crate::interface::{Page, Question, ReviewStep};

/// What is open over the page: at most one modal thing at a time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Overlay {
    None,
    /// A yes/no question before New game, Restart or a draw offer.
    Question(Question),
    /// The dialog where a record is pasted.
    Import,
    /// The dialog where a message of a game by message is pasted (#40).
    Receive,
}

/// What Back (Android's button) or Esc did to the interface state, and what the
/// controller still has to do with the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackStep {
    /// The import dialog (or the receive dialog) was closed.
    CloseImport,
    /// The open question was answered no.
    DismissQuestion,
    /// The analysis running in the background was cancelled.
    CancelAnalysis,
    /// Review ended: the board shows the live game again.
    LeaveReview,
    /// Drop the preview, else the selection (the game page, while there is one).
    CancelOnBoard,
    /// The game was left for the new-game screen (the game is kept): the controller fills
    /// the form with the next game's configuration.
    LeaveGame,
    /// The rules or about page went back to where it was opened from.
    Return,
    /// Nothing to do (Esc on the new-game screen, or with nothing on the board).
    Nothing,
    /// Nothing left to go back to: Android may close the app.
    LetSystemClose,
}

/// The interface state. Its fields change only through the methods below.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UiState {
    page: Page,
    /// Where the rules and about pages return to.
    previous: Page,
    overlay: Overlay,
    /// In review: how many of the game's actions the board shows (None: the live game).
    review: Option<usize>,
    cursor_visible: bool,
    /// True when the session is a game the player started (Resume is offered).
    has_game: bool,
    /// The "⋯" menu of the game page is open.
    menu_open: bool,
    /// The analysis summary is shown instead of the move list.
    summary_open: bool,
}

impl Default for UiState {
    fn default() -> UiState {
        UiState {
            page: Page::NewGame,
            previous: Page::NewGame,
            overlay: Overlay::None,
            review: None,
            cursor_visible: false,
            has_game: false,
            menu_open: false,
            summary_open: false,
        }
    }
}

impl UiState {
    pub fn page(&self) -> Page {
        self.page
    }

    pub fn overlay(&self) -> Overlay {
        self.overlay
    }

    /// The question waiting for an answer, `Question::None` if none.
    pub fn question(&self) -> Question {
        match self.overlay {
            Overlay::Question(question) => question,
            _ => Question::None,
        }
    }

    pub fn import_open(&self) -> bool {
        self.overlay == Overlay::Import
    }

    pub fn review(&self) -> Option<usize> {
        self.review
    }

    /// True while the board shows an earlier position: it then takes no moves.
    pub fn in_review(&self) -> bool {
        self.review.is_some()
    }

    /// The keyboard cursor shows once a key moved it, and never in review.
    pub fn cursor_shown(&self) -> bool {
        self.cursor_visible && self.review.is_none()
    }

    pub fn has_game(&self) -> bool {
        self.has_game
    }

    pub fn menu_open(&self) -> bool {
        self.menu_open
    }

    pub fn summary_open(&self) -> bool {
        self.summary_open
    }

    /// Opens or closes the game page's "⋯" menu.
    pub fn set_menu_open(&mut self, open: bool) {
        self.menu_open = open;
    }

    /// Shows the analysis summary instead of the move list, or the list again.
    pub fn set_summary_open(&mut self, open: bool) {
        self.summary_open = open;
    }

    // ----- Pages -----

    /// Shows `requested` (the game page needs a game); leaving the new-game or game page
    /// remembers it for the rules and about pages' return.
    pub fn show(&mut self, requested: Page) {
        if self.page != requested && matches!(self.page, Page::Game | Page::NewGame) {
            self.previous = self.page;
        }
        self.page = self.available(requested);
    }

    /// From the rules or about page back to where the player came from.
    pub fn go_back(&mut self) {
        self.page = self.available(self.previous);
    }

    fn available(&self, page: Page) -> Page {
        if page == Page::Game && !self.has_game {
            Page::NewGame
        } else {
            page
        }
    }

    /// A game now is in the session (started, resumed from a save, imported): the live
    /// game shows, whatever was reviewed before.
    pub fn game_begun(&mut self) {
        self.has_game = true;
        self.review = None;
    }

    /// The first-game guide opens over the game page, with or without a game (it plays its
    /// own); the menu closes.
    pub fn open_guide(&mut self) {
        if self.page != Page::Game {
            self.previous = self.page;
        }
        self.page = Page::Game;
        self.menu_open = false;
    }

    /// The guide ended: the game page stays if there is a game, else the new-game screen.
    pub fn close_guide(&mut self) {
        self.page = self.available(self.page);
    }

    /// The new-game screen to set up another game: questions and review end.
    pub fn set_up(&mut self) {
        self.overlay = Overlay::None;
        self.review = None;
        self.show(Page::NewGame);
    }

    // ----- Questions and the import dialog -----

    pub fn ask(&mut self, question: Question) {
        self.overlay = if question == Question::None { Overlay::None } else { Overlay::Question(question) };
    }

    /// Closes the open question and returns it (`Question::None` if none was open).
    pub fn take_question(&mut self) -> Question {
        let question = self.question();
        if question != Question::None {
            self.overlay = Overlay::None;
        }
        question
    }

    pub fn open_import(&mut self) {
        self.overlay = Overlay::Import;
    }

    pub fn close_import(&mut self) {
        if self.import_open() {
            self.overlay = Overlay::None;
        }
    }

    pub fn receive_open(&self) -> bool {
        self.overlay == Overlay::Receive
    }

    /// Opens the dialog where a message by message is pasted (over any page).
    pub fn open_receive(&mut self) {
        self.overlay = Overlay::Receive;
    }

    pub fn close_receive(&mut self) {
        if self.receive_open() {
            self.overlay = Overlay::None;
        }
    }

    // ----- Review and the cursor -----

    /// One step of review in a game of `total` actions. Stepping back from the live game
    /// starts review one action before its end; stepping forward in the live game stays
    /// there.
    pub fn review_step(&mut self, step: ReviewStep, total: usize) {
        self.review = match step {
            ReviewStep::First => Some(0),
            ReviewStep::Back => Some(self.review.unwrap_or(total).saturating_sub(1)),
            ReviewStep::Forward => self.review.map(|shown| (shown + 1).min(total)),
            ReviewStep::Last => Some(total),
            ReviewStep::Leave => None,
        };
    }

    /// Shows the position after the move list's entry `index` (a game of `total` actions).
    pub fn review_at(&mut self, index: usize, total: usize) {
        self.review_position(index.saturating_add(1), total);
    }

    /// Shows the position after the game's first `shown` actions (a game of `total`):
    /// the evaluation graph's points.
    pub fn review_position(&mut self, shown: usize, total: usize) {
        self.review = Some(shown.min(total));
    }

    /// Shows the game from its start, read-only (an imported record to review).
    pub fn review_from_start(&mut self) {
        self.review = Some(0);
    }

    pub fn show_cursor(&mut self) {
        self.cursor_visible = true;
    }

    // ----- Back and Esc -----

    /// Android's Back: the dialog, then the question, then review, then (on the game page)
    /// the preview or selection, then the game page itself, then the rules or about page,
    /// and last the app (`LetSystemClose`). `board_has_choice`: a preview or selection is
    /// on the board.
    pub fn back(&mut self, board_has_choice: bool, analysing: bool) -> BackStep {
        if let Some(step) = self.close_what_is_over_the_page(analysing) {
            return step;
        }
        match self.page {
            Page::Game if board_has_choice => BackStep::CancelOnBoard,
            Page::Game => {
                self.set_up();
                BackStep::LeaveGame
            }
            Page::Rules | Page::About | Page::Train | Page::Games => {
                self.go_back();
                BackStep::Return
            }
            Page::NewGame => BackStep::LetSystemClose,
        }
    }

    /// Esc: as Back, but it never leaves the game page nor closes the app.
    pub fn escape(&mut self, board_has_choice: bool, analysing: bool) -> BackStep {
        if let Some(step) = self.close_what_is_over_the_page(analysing) {
            return step;
        }
        match self.page {
            Page::Game if board_has_choice => BackStep::CancelOnBoard,
            Page::Rules | Page::About | Page::Train | Page::Games => {
                self.go_back();
                BackStep::Return
            }
            Page::Game | Page::NewGame => BackStep::Nothing,
        }
    }

    /// The import dialog, the open question, a running analysis or review on the game
    /// page, closed first.
    /// `analysing`: an analysis runs in the background (the runner knows; Back cancels it).
    fn close_what_is_over_the_page(&mut self, analysing: bool) -> Option<BackStep> {
        if self.overlay == Overlay::None && analysing && self.page == Page::Game {
            return Some(BackStep::CancelAnalysis);
        }
        match self.overlay {
            Overlay::Import | Overlay::Receive => {
                self.overlay = Overlay::None;
                Some(BackStep::CloseImport)
            }
            Overlay::Question(_) => {
                self.overlay = Overlay::None;
                Some(BackStep::DismissQuestion)
            }
            Overlay::None if self.review.is_some() && self.page == Page::Game => {
                self.review = None;
                Some(BackStep::LeaveReview)
            }
            Overlay::None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_game() -> UiState {
        let mut state = UiState::default();
        state.game_begun();
        state.show(Page::Game);
        state
    }

    #[test]
    fn rules_return_to_the_page_they_were_opened_from() {
        let mut state = with_game();
        state.show(Page::Rules);
        assert_eq!(state.page(), Page::Rules);
        state.go_back();
        assert_eq!(state.page(), Page::Game);
        state.show(Page::NewGame);
        state.show(Page::About);
        state.show(Page::Rules);
        assert_eq!(state.page(), Page::Rules, "from about to rules");
        state.go_back();
        assert_eq!(state.page(), Page::NewGame, "still returns where the player came from");
    }

    #[test]
    fn without_a_game_the_game_page_is_the_new_game_page() {
        let mut state = UiState::default();
        state.show(Page::Game);
        assert_eq!(state.page(), Page::NewGame);
        state.show(Page::About);
        state.go_back();
        assert_eq!(state.page(), Page::NewGame);
    }

    /// Back from every kind of state, step by step until Android may close the app.
    #[test]
    fn back_steps_from_the_dialog_to_the_system() {
        let mut state = with_game();
        state.review_step(ReviewStep::Back, 4);
        state.ask(Question::Restart);
        state.open_import();
        let mut steps = Vec::new();
        for board_has_choice in [true, true, true, true, false, false] {
            steps.push((state.back(board_has_choice, false), state.page()));
        }
        assert_eq!(
            steps,
            [
                (BackStep::CloseImport, Page::Game),
                // Opening the dialog replaced the question: one thing is open at a time.
                (BackStep::LeaveReview, Page::Game),
                (BackStep::CancelOnBoard, Page::Game),
                (BackStep::CancelOnBoard, Page::Game),
                (BackStep::LeaveGame, Page::NewGame),
                (BackStep::LetSystemClose, Page::NewGame),
            ]
        );
        assert!(state.has_game(), "leaving the game keeps it");

        let mut state = with_game();
        state.ask(Question::OfferDraw);
        assert_eq!(state.back(false, false), BackStep::DismissQuestion);
        assert_eq!(state.question(), Question::None);
        state.show(Page::About);
        assert_eq!((state.back(false, false), state.page()), (BackStep::Return, Page::Game));
        state.show(Page::Rules);
        state.review_step(ReviewStep::First, 4);
        assert_eq!(
            (state.back(false, false), state.page()),
            (BackStep::Return, Page::Game),
            "review waits on the game page"
        );
        assert_eq!(state.back(false, false), BackStep::LeaveReview);
    }

    #[test]
    fn escape_never_leaves_the_game_nor_closes_the_app() {
        let mut state = with_game();
        state.open_import();
        assert_eq!(state.escape(false, false), BackStep::CloseImport);
        state.ask(Question::NewGame);
        assert_eq!(state.escape(false, false), BackStep::DismissQuestion);
        state.review_at(0, 3);
        assert_eq!(state.escape(true, false), BackStep::LeaveReview);
        assert_eq!(state.escape(true, false), BackStep::CancelOnBoard);
        assert_eq!((state.escape(false, false), state.page()), (BackStep::Nothing, Page::Game));
        state.show(Page::Rules);
        assert_eq!((state.escape(false, false), state.page()), (BackStep::Return, Page::Game));
        state.set_up();
        assert_eq!((state.escape(false, false), state.page()), (BackStep::Nothing, Page::NewGame));
    }

    /// A running analysis is cancelled by Back or Esc before review ends, after any
    /// dialog or question; the board's choice waits.
    #[test]
    fn back_and_escape_cancel_a_running_analysis_first() {
        let mut state = with_game();
        state.review_step(ReviewStep::Last, 6);
        state.ask(Question::Restart);
        assert_eq!(state.back(true, true), BackStep::DismissQuestion);
        assert_eq!(state.back(true, true), BackStep::CancelAnalysis);
        assert!(state.in_review(), "review stays");
        assert_eq!(state.back(true, false), BackStep::LeaveReview, "once the analysis stopped");

        let mut state = with_game();
        state.open_import();
        assert_eq!(state.escape(true, true), BackStep::CloseImport);
        assert_eq!(state.escape(true, true), BackStep::CancelAnalysis);
        assert_eq!(state.escape(true, false), BackStep::CancelOnBoard);
        state.show(Page::Rules);
        assert_eq!(state.escape(false, true), BackStep::Return, "the rules page goes back first");
        assert_eq!(state.escape(false, true), BackStep::CancelAnalysis);
        assert_eq!(state.escape(false, false), BackStep::Nothing);
    }

    #[test]
    fn review_steps_stay_within_the_game() {
        let mut state = with_game();
        state.review_step(ReviewStep::Forward, 5);
        assert_eq!(state.review(), None, "forward in the live game stays there");
        state.review_step(ReviewStep::Back, 5);
        assert_eq!(state.review(), Some(4), "back from the live game");
        state.review_step(ReviewStep::First, 5);
        state.review_step(ReviewStep::Back, 5);
        assert_eq!(state.review(), Some(0), "not before the start");
        state.review_step(ReviewStep::Last, 5);
        state.review_step(ReviewStep::Forward, 5);
        assert_eq!(state.review(), Some(5), "not past the end");
        state.review_at(usize::MAX, 5);
        assert_eq!(state.review(), Some(5));
        state.review_position(0, 5);
        assert_eq!(state.review(), Some(0), "the graph's first point: the start");
        state.review_position(9, 5);
        assert_eq!(state.review(), Some(5));
        state.review_step(ReviewStep::Leave, 5);
        assert_eq!(state.review(), None);
    }

    #[test]
    fn the_cursor_and_questions_follow_review_and_new_games() {
        let mut state = with_game();
        state.show_cursor();
        assert!(state.cursor_shown());
        state.review_from_start();
        assert!(!state.cursor_shown(), "no cursor on a read-only board");
        state.game_begun();
        assert!(state.cursor_shown() && !state.in_review(), "a new game shows the live board");
        state.ask(Question::Restart);
        state.close_import();
        assert_eq!(state.question(), Question::Restart, "closing a dialog that is not open changes nothing");
        assert_eq!(state.take_question(), Question::Restart);
        assert_eq!(state.take_question(), Question::None);
        state.ask(Question::OfferDraw);
        state.set_up();
        assert_eq!((state.overlay(), state.page()), (Overlay::None, Page::NewGame));
    }
}
