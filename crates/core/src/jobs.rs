//! The background searches as the actions see them: which kind runs (a seat's or the
//! hint's) and what one found. The controller's worker runs them; the actions decide
//! what a result does.

use crate::players::Turn;

/// Which search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// A seat's driver chooses its action.
    Computer,
    /// A hint for the person to move.
    Hint,
}

/// What a poll found.
#[derive(Debug)]
pub struct Finished {
    pub kind: JobKind,
    /// Number of actions in the game when the search started.
    pub plies: usize,
    pub turn: Turn,
}
