//! Review: the board shows the position after any action of the game, read-only, while
//! the live game, its history, its preview and its save stay as they were. Also the game
//! page's menu and the analysis summary, which open over it.

use crate::effects::Effects;
use crate::interface::ReviewStep;
use crate::state::AppState;
use halma_ai::analysis::Class;

pub(super) fn step(state: &mut AppState, step: ReviewStep) -> Effects {
    let total = state.session.game().history().len();
    state.ui.review_step(step, total);
    Effects::redraw()
}

/// Shows the position after the game's first `position` actions (0: the start).
pub(super) fn show_position(state: &mut AppState, position: i32) -> Effects {
    let Ok(position) = usize::try_from(position) else { return Effects::none() };
    let total = state.session.game().history().len();
    state.ui.review_position(position, total);
    Effects::redraw()
}

/// Next mistake: the position after the next move the analysis calls a mistake or a
/// blunder, after the position shown (the live game's end counts as after its last
/// move), from the first one again after the last. Nothing without such a move.
pub(super) fn next_mistake(state: &mut AppState) -> Effects {
    let Some(analysis) = state.session.analysis() else { return Effects::none() };
    let after_mistakes: Vec<usize> = analysis
        .actions
        .iter()
        .filter(|entry| entry.verdict.judgement().is_some_and(|judged| judged.class >= Class::Mistake))
        .map(|entry| entry.index + 1)
        .collect();
    let total = state.session.game().history().len();
    let shown = state.ui.review().unwrap_or(total);
    let next = after_mistakes.iter().find(|&&position| position > shown).or(after_mistakes.first());
    let Some(&position) = next else { return Effects::none() };
    state.ui.review_position(position, total);
    Effects::redraw()
}

pub(super) fn set_menu_open(state: &mut AppState, open: bool) -> Effects {
    state.ui.set_menu_open(open);
    Effects::redraw()
}

pub(super) fn set_summary_open(state: &mut AppState, open: bool) -> Effects {
    state.ui.set_summary_open(open);
    Effects::redraw()
}
