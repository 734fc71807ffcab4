//! Telling taps from pinches and twists on a touchscreen.
//!
//! Slint reports a click on the board when the second finger of a pinch lands (the first
//! finger's release) and another when the pinch ends. So a tap is held briefly before it
//! counts and dropped if a gesture starts meanwhile, and the first click after a gesture
//! is ignored. A twist past 60° turns the board a quarter turn, once per 90°.

use slint::{Timer, TimerMode};
use std::cell::{Cell, RefCell};
use std::time::Duration;

/// A tap is held this long before it counts, so that the second finger of a pinch
/// can cancel it.
const TAP_DELAY: Duration = Duration::from_millis(120);
/// After a pinch ends, the next click within this time is the pinch's own release.
const AFTER_GESTURE: Duration = Duration::from_millis(400);
/// A twist turns the board once it passes this many degrees past the last turn.
const TWIST_THRESHOLD: f32 = 60.0;

/// The arithmetic of one pinch or twist: pure, so it is tested without a screen.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pinch {
    active: bool,
    last_scale: f32,
    rotation_applied: f32,
}

/// What one step of a gesture does to the view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PinchStep {
    /// Zoom by this factor (1.0: unchanged).
    pub zoom_factor: f32,
    /// A quarter turn to make: clockwise or not.
    pub quarter_turn: Option<bool>,
}

impl Pinch {
    fn started() -> Pinch {
        Pinch { active: true, last_scale: 1.0, rotation_applied: 0.0 }
    }

    /// The gesture now has accumulated `scale` and `rotation` (degrees).
    pub fn update(&mut self, scale: f32, rotation: f32) -> PinchStep {
        if !self.active {
            *self = Pinch::started();
        }
        let zoom_factor = if self.last_scale > 0.0 && scale.is_finite() { scale / self.last_scale } else { 1.0 };
        self.last_scale = scale;
        let quarter_turn = if rotation - self.rotation_applied > TWIST_THRESHOLD {
            self.rotation_applied += 90.0;
            Some(true)
        } else if rotation - self.rotation_applied < -TWIST_THRESHOLD {
            self.rotation_applied -= 90.0;
            Some(false)
        } else {
            None
        };
        PinchStep { zoom_factor, quarter_turn }
    }
}

/// Filters the board's clicks against gestures; lives on the UI thread.
#[derive(Default)]
pub struct TapFilter {
    pending: Cell<Option<(i32, i32)>>,
    tap_timer: Timer,
    ignore_next_click: Cell<bool>,
    ignore_timer: Timer,
    pinch: RefCell<Pinch>,
}

impl TapFilter {
    /// A click on display cell (x, y): after the tap delay `tap` runs, and takes the
    /// click with [`Self::take_pending`] unless a gesture has dropped it meanwhile.
    pub fn click(&self, x: i32, y: i32, tap: impl Fn() + 'static) {
        if self.pinch.borrow().active || self.ignore_next_click.replace(false) {
            return;
        }
        self.pending.set(Some((x, y)));
        self.tap_timer.start(TimerMode::SingleShot, TAP_DELAY, tap);
    }

    /// The held tap, if it is still due (the timer calls this before tapping).
    pub fn take_pending(&self) -> Option<(i32, i32)> {
        self.pending.take()
    }

    pub fn gesture_started(&self) {
        self.drop_pending();
        *self.pinch.borrow_mut() = Pinch::started();
    }

    pub fn gesture_updated(&self, scale: f32, rotation: f32) -> PinchStep {
        self.pinch.borrow_mut().update(scale, rotation)
    }

    /// The gesture is over: its own release, reported as a click, is ignored.
    pub fn gesture_ended(self: &std::rc::Rc<Self>) {
        self.pinch.borrow_mut().active = false;
        self.drop_pending();
        self.ignore_next_click.set(true);
        let weak = std::rc::Rc::downgrade(self);
        self.ignore_timer.start(TimerMode::SingleShot, AFTER_GESTURE, move || {
            if let Some(filter) = weak.upgrade() {
                filter.ignore_next_click.set(false);
            }
        });
    }

    fn drop_pending(&self) {
        self.pending.set(None);
        self.tap_timer.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreading_fingers_zoom_by_the_change_of_scale() {
        let mut pinch = Pinch::started();
        assert_eq!(pinch.update(1.5, 0.0), PinchStep { zoom_factor: 1.5, quarter_turn: None });
        let step = pinch.update(3.0, 10.0);
        assert!((step.zoom_factor - 2.0).abs() < 1e-6);
        assert_eq!(pinch.update(f32::NAN, 0.0).zoom_factor, 1.0);
    }

    #[test]
    fn a_twist_turns_once_per_quarter() {
        let mut pinch = Pinch::started();
        assert_eq!(pinch.update(1.0, 50.0).quarter_turn, None);
        assert_eq!(pinch.update(1.0, 61.0).quarter_turn, Some(true));
        assert_eq!(pinch.update(1.0, 100.0).quarter_turn, None, "one turn per 90°");
        assert_eq!(pinch.update(1.0, 151.0).quarter_turn, Some(true));
        assert_eq!(pinch.update(1.0, 20.0).quarter_turn, Some(false));
    }
}
