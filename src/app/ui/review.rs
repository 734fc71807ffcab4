//! Review: the board shows the position after any action of the game, read-only,
//! while the live game, its history, its preview and its save stay as they were.

use super::controller::Controller;
use crate::ReviewStep;
use std::rc::Rc;

/// The number of actions shown after `step` from `shown` (None: the live game), in a
/// game of `total` actions. Stepping back from the live game starts review one action
/// before its end; stepping forward in the live game stays there.
pub fn step_review(shown: Option<usize>, step: ReviewStep, total: usize) -> Option<usize> {
    match step {
        ReviewStep::First => Some(0),
        ReviewStep::Back => Some(shown.unwrap_or(total).saturating_sub(1)),
        ReviewStep::Forward => shown.map(|shown| (shown + 1).min(total)),
        ReviewStep::Last => Some(total),
        ReviewStep::Leave => None,
    }
}

impl Controller {
    /// True while the board shows an earlier position: it then takes no moves.
    pub(super) fn in_review(&self) -> bool {
        self.review.get().is_some()
    }

    pub(super) fn review_step(self: &Rc<Self>, step: ReviewStep) {
        let total = self.session.borrow().game().history().len();
        self.review.set(step_review(self.review.get(), step, total));
        self.refresh();
    }

    /// Shows the position after the move list's entry `index`.
    pub(super) fn review_at(self: &Rc<Self>, index: i32) {
        let Ok(index) = usize::try_from(index) else { return };
        let total = self.session.borrow().game().history().len();
        self.review.set(Some((index + 1).min(total)));
        self.refresh();
    }

    /// Back to the live game (before anything replaces it).
    pub(super) fn leave_review(&self) {
        self.review.set(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_stay_within_the_game() {
        assert_eq!(step_review(None, ReviewStep::Back, 5), Some(4), "back from the live game");
        assert_eq!(step_review(Some(0), ReviewStep::Back, 5), Some(0), "not before the start");
        assert_eq!(step_review(Some(4), ReviewStep::Forward, 5), Some(5));
        assert_eq!(step_review(Some(5), ReviewStep::Forward, 5), Some(5), "not past the end");
        assert_eq!(step_review(None, ReviewStep::Forward, 5), None, "forward in the live game: nothing");
        assert_eq!(step_review(Some(3), ReviewStep::First, 5), Some(0));
        assert_eq!(step_review(None, ReviewStep::Last, 5), Some(5));
        assert_eq!(step_review(Some(2), ReviewStep::Leave, 5), None);
    }
}
