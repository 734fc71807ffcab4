//! Review: the board shows the position after any action of the game, read-only,
//! while the live game, its history, its preview and its save stay as they were. The
//! position shown is `UiState::review`; `Session::reviewing` gives the copy to show.

use super::controller::Controller;
use crate::ReviewStep;
use std::rc::Rc;

impl Controller {
    pub(super) fn review_step(self: &Rc<Self>, step: ReviewStep) {
        let total = self.session.borrow().game().history().len();
        self.with_ui(|ui| ui.review_step(step, total));
        self.refresh();
    }

    /// Shows the position after the move list's entry `index`.
    pub(super) fn review_at(self: &Rc<Self>, index: i32) {
        self.show_position(index.saturating_add(1));
    }

    /// Shows the position after the game's first `position` actions (0: the start), as a
    /// point of the evaluation graph does.
    pub(super) fn show_position(self: &Rc<Self>, position: i32) {
        let Ok(position) = usize::try_from(position) else { return };
        let total = self.session.borrow().game().history().len();
        self.with_ui(|ui| ui.review_position(position, total));
        self.refresh();
    }
}
