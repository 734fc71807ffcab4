//! Input on the board: taps (already filtered against pinches by the controller), arrow
//! keys and Enter, zoom, rotation, panning and two-finger gestures. None of the view
//! changes touch the game or the preview.

use super::play::{after_tap, cut_animation, refused};
use crate::effects::{Effects, Redraw, Save};
use crate::interaction::TapResult;
use crate::state::{AppState, Loupe};
use crate::tap_target::{self, BoardPoint, Pointer};
use crate::view::{Orientation, ZOOM_STEP};

/// A tap on display cell (x, y) (a mouse, a pen, a screen reader): exactly that square;
/// it selects or previews as the interaction says.
pub(super) fn tap(state: &mut AppState, x: i32, y: i32) -> Effects {
    state.touch.forget();
    let Some(square) = state.session.view().square_at(x, y) else { return Effects::none() };
    let cut = cut_animation(state);
    let before = state.session.interaction().selected;
    let result = state.session.tap(square);
    heard(cut, let_go(&result, before, square), after_tap(state, result))
}

/// A finger's tap at (x, y) dp on the board with squares of `square_dp`: the square it
/// most plausibly meant (`tap_target`), perhaps another piece's move at once (joint
/// decoding). `Session::tap` never plays a move, so a snapped or ambiguous tap only
/// selects or previews: Confirm plays (`TapTarget::may_confirm` would guard a tap that
/// confirms, and there is none).
pub(super) fn touch_tap(state: &mut AppState, x: f32, y: f32, square_dp: f32) -> Effects {
    state.loupe = None;
    let point = BoardPoint { x, y };
    let target = tap_target::for_session(&state.session, &state.touch, Pointer::Touch, point, square_dp);
    let Some(target) = target else {
        state.touch.forget();
        return Effects::none();
    };
    let cut = cut_animation(state);
    let before = state.session.interaction().selected;
    let result = target.apply(&mut state.session);
    let session = &state.session;
    let view = *session.view();
    state.touch.after_tap(session.game(), before, session.interaction(), &view, Pointer::Touch, point, square_dp);
    let refused_tap = let_go(&result, before, target.square);
    heard(cut, refused_tap, after_tap(state, result))
}

/// True when a tap let the selected piece go because it cannot move there (a tap on
/// the piece itself lets it go on purpose).
fn let_go(result: &TapResult, selected: Option<halma_rules::Square>, tapped: halma_rules::Square) -> bool {
    *result == TapResult::Deselected && selected != Some(tapped)
}

/// A tap's effects after the cues of an animation it cut short, refused if it let the
/// selection go.
fn heard(cut: Vec<crate::sound::Cue>, let_go: bool, effects: Effects) -> Effects {
    let before = Effects { cues: cut, ..Effects::none() };
    if let_go {
        before.and(refused(effects))
    } else {
        before.and(effects)
    }
}

/// A finger rests at (x, y) dp on squares of `square_dp`: on a board whose squares are
/// smaller than a finger the loupe shows, marking the square a release there would choose
/// (the same `tap_target` reading as the tap, so release does what the loupe shows).
pub(super) fn touch_hold(state: &mut AppState, x: f32, y: f32, square_dp: f32) -> Effects {
    let small = square_dp > 0.0 && square_dp < tap_target::FINGER_DP;
    let loupe = small.then(|| {
        let point = BoardPoint { x, y };
        let target = tap_target::for_session(&state.session, &state.touch, Pointer::Touch, point, square_dp);
        Loupe { target: target.map(|t| state.session.view().display_cell(t.square)) }
    });
    if loupe == state.loupe {
        return Effects::none();
    }
    state.loupe = loupe;
    Effects::redraw()
}

/// The resting finger lifted, or a pan or a pinch took it.
pub(super) fn touch_hold_ended(state: &mut AppState) -> Effects {
    if state.loupe.take().is_none() {
        return Effects::none();
    }
    Effects::redraw()
}

pub(super) fn arrow(state: &mut AppState, dx: i32, dy: i32) -> Effects {
    state.session.move_cursor(dx, dy);
    state.ui.show_cursor();
    Effects::redraw()
}

pub(super) fn enter(state: &mut AppState) -> Effects {
    state.touch.forget();
    state.ui.show_cursor();
    let cut = cut_animation(state);
    let result = state.session.enter();
    heard(cut, false, after_tap(state, result))
}

/// One zoom step in (or out) around a point given as fractions of the view.
pub(super) fn zoom(state: &mut AppState, zoom_in: bool, anchor_x: f32, anchor_y: f32) -> Effects {
    let factor = if zoom_in { ZOOM_STEP } else { 1.0 / ZOOM_STEP };
    state.session.zoom_view(factor, anchor_x, anchor_y);
    Effects::saved_soon()
}

pub(super) fn zoom_fit(state: &mut AppState) -> Effects {
    state.session.fit_view();
    Effects::saved_soon()
}

pub(super) fn rotate(state: &mut AppState, clockwise: bool) -> Effects {
    // Turning by hand switches the automatic orientation off.
    state.settings.orientation = Orientation::Fixed;
    state.session.rotate_view(clockwise);
    Effects::saved_soon()
}

/// The Flickable moved: the window already shows it.
pub(super) fn panned(state: &mut AppState, x: f32, y: f32, width: f32, height: f32) -> Effects {
    state.session.pan_view(x, y, width, height);
    Effects { save: Save::Soon, ..Effects::none() }
}

pub(super) fn viewport_resized(state: &mut AppState, width: f32, height: f32) -> Effects {
    state.viewport = (width, height);
    Effects { redraw: Redraw::View, ..Effects::none() }
}

/// A step of a two-finger gesture: zoom around its centre, and a quarter turn per 90°.
pub(super) fn pinch(
    state: &mut AppState,
    zoom_factor: f32,
    quarter_turn: Option<bool>,
    anchor_x: f32,
    anchor_y: f32,
) -> Effects {
    state.session.zoom_view(zoom_factor, anchor_x, anchor_y);
    if let Some(clockwise) = quarter_turn {
        state.session.rotate_view(clockwise);
    }
    Effects::redraw()
}

/// The gesture is over: the view it left is saved.
pub(super) fn gesture_ended() -> Effects {
    Effects { save: Save::Now, ..Effects::none() }
}
