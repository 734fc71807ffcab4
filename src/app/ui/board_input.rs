//! Input on the board: taps (filtered against pinches), arrow keys and Enter, zoom,
//! rotation, panning and two-finger gestures. None of the view changes touch the game
//! or the preview.

use super::controller::Controller;
use crate::app::view::{Orientation, ZOOM_STEP};
use std::rc::Rc;

impl Controller {
    /// A click on a display cell: it counts as a tap once no pinch claims it.
    pub(super) fn cell_clicked(self: &Rc<Self>, x: i32, y: i32) {
        let weak = Rc::downgrade(self);
        self.board.taps.click(x, y, move || {
            if let Some(controller) = weak.upgrade() {
                if let Some((x, y)) = controller.board.taps.take_pending() {
                    controller.live(|c| c.tap_cell(x, y));
                }
            }
        });
    }

    /// A screen reader activated a square: a tap (no finger, so no pinch to wait for).
    pub(super) fn square_activated(self: &Rc<Self>, x: i32, y: i32) {
        self.tap_cell(x, y);
    }

    /// A tap that survived the pinch filter.
    pub(super) fn tap_cell(self: &Rc<Self>, x: i32, y: i32) {
        let Some(square) = self.session.borrow().view().square_at(x, y) else { return };
        self.finish_animation();
        let result = self.with_session(|session| session.tap(square));
        self.handle_tap_result(result);
    }

    pub(super) fn arrow(self: &Rc<Self>, dx: i32, dy: i32) {
        self.with_session(|session| session.move_cursor(dx, dy));
        self.with_ui(|ui| ui.show_cursor());
        self.refresh();
    }

    pub(super) fn enter(self: &Rc<Self>) {
        self.with_ui(|ui| ui.show_cursor());
        self.finish_animation();
        let result = self.with_session(|session| session.enter());
        self.handle_tap_result(result);
    }

    /// One zoom step in (or out) around a point given as fractions of the view.
    pub(super) fn zoom_step(self: &Rc<Self>, zoom_in: bool, anchor_x: f32, anchor_y: f32) {
        let factor = if zoom_in { ZOOM_STEP } else { 1.0 / ZOOM_STEP };
        self.with_session(|session| session.zoom_view(factor, anchor_x, anchor_y));
        self.view_changed();
    }

    pub(super) fn zoom_fit(self: &Rc<Self>) {
        self.with_session(|session| session.fit_view());
        self.view_changed();
    }

    pub(super) fn rotate(self: &Rc<Self>, clockwise: bool) {
        // Turning by hand switches the automatic orientation off.
        self.settings.borrow_mut().orientation = Orientation::Fixed;
        self.with_session(|session| session.rotate_view(clockwise));
        self.view_changed();
    }

    fn view_changed(self: &Rc<Self>) {
        self.save_soon();
        self.refresh();
    }

    pub(super) fn panned(self: &Rc<Self>, x: f32, y: f32, width: f32, height: f32) {
        self.with_session(|session| session.pan_view(x, y, width, height));
        self.save_soon();
    }

    pub(super) fn viewport_resized(self: &Rc<Self>, width: f32, height: f32) {
        self.board.viewport.set((width, height));
        let Some(window) = self.window.upgrade() else { return };
        self.refresh_view(&window, &self.session.borrow());
    }

    pub(super) fn gesture_started(&self) {
        self.board.taps.gesture_started();
    }

    pub(super) fn gesture_updated(self: &Rc<Self>, scale: f32, rotation: f32, anchor_x: f32, anchor_y: f32) {
        let step = self.board.taps.gesture_updated(scale, rotation);
        self.with_session(|session| {
            session.zoom_view(step.zoom_factor, anchor_x, anchor_y);
            if let Some(clockwise) = step.quarter_turn {
                session.rotate_view(clockwise);
            }
        });
        self.refresh();
    }

    pub(super) fn gesture_ended(&self) {
        self.board.taps.gesture_ended();
        self.save();
    }
}
