//! The Analyse action: the analysis runs in the background (the controller's runner)
//! while the board and review stay usable; Cancel, Back and Esc stop it, and a change to
//! the game drops it (the dispatch sees to that), so an analysis is only ever shown with
//! the game it is of.

use crate::effects::Effects;
use crate::state::{AppState, Facts};
use halma_ai::analysis::GameAnalysis;

/// Analyse: the game (as far as it is played), unless it has an analysis or one runs.
pub(super) fn analyse(state: &mut AppState, facts: &Facts) -> Effects {
    let game = state.session.game();
    if facts.analysing || state.session.analysis().is_some() || game.history().is_empty() {
        return Effects::none();
    }
    state.messages.analysis_failed = false;
    Effects { start_analysis: true, ..Effects::redraw() }
}

/// Cancel (and Back, Esc): the analysis stops; nothing of it is kept.
pub(super) fn cancel() -> Effects {
    Effects { stop_analysis: true, ..Effects::redraw() }
}

/// The analysis is done: kept with its game, and shown at once in the review of the
/// game's end, with its graph.
pub(super) fn done(state: &mut AppState, analysed: GameAnalysis) -> Effects {
    if !state.session.set_analysis(analysed) {
        return Effects::redraw();
    }
    let total = state.session.game().history().len();
    if !state.ui.in_review() {
        state.ui.review_position(total, total);
    }
    Effects::saved()
}

/// The analysis failed: the player is told, in the interface's language, under Analyse.
pub(super) fn failed(state: &mut AppState) -> Effects {
    state.messages.analysis_failed = true;
    Effects::redraw()
}
