//! How the board is shown: quarter-turn rotation, zoom and pan, and the mapping between
//! board squares and display cells. Pure state, kept apart from the game and the
//! selection so that changing the view never changes either.

use halma_rules::{Seat, Square};
use serde::{Deserialize, Serialize};

pub const MIN_ZOOM: f32 = 1.0;
pub const MAX_ZOOM: f32 = 4.0;
/// Factor of one zoom step (buttons, keys, wheel).
pub const ZOOM_STEP: f32 = 1.25;

/// Whether the board turns to face the seat to move (pass-and-play on a tablet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Orientation {
    /// The board keeps the rotation the player chose.
    #[default]
    Fixed,
    /// The board turns so that the seat to move has its home corner at the bottom.
    FaceSeatToMove,
}

/// Zoom, pan and rotation of the board.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardView {
    /// Clockwise quarter turns, 0..=3. 0 shows a1 at the bottom left.
    pub quarter_turns: u8,
    /// 1.0 fits the board in its area.
    pub zoom: f32,
    /// The board point (0..1 across, 0..1 down, in display orientation) at the centre
    /// of the visible area: resizing keeps it centred.
    pub centre_x: f32,
    pub centre_y: f32,
}

impl Default for BoardView {
    fn default() -> BoardView {
        BoardView { quarter_turns: 0, zoom: 1.0, centre_x: 0.5, centre_y: 0.5 }
    }
}

impl BoardView {
    /// The display cell (column from the left, row from the top) of `square`.
    pub fn display_cell(&self, square: Square) -> (i32, i32) {
        let (mut x, mut y) = (square.column(), 15 - square.row());
        for _ in 0..self.quarter_turns % 4 {
            (x, y) = (15 - y, x);
        }
        (x, y)
    }

    /// The square shown at display cell `(x, y)`, if it is on the board.
    pub fn square_at(&self, x: i32, y: i32) -> Option<Square> {
        if !(0..16).contains(&x) || !(0..16).contains(&y) {
            return None;
        }
        let (mut x, mut y) = (x, y);
        for _ in 0..self.quarter_turns % 4 {
            (x, y) = (y, 15 - x);
        }
        Square::from_coords(x, 15 - y)
    }

    /// Turns a screen direction (right = +x, down = +y) into a board direction
    /// (columns, rows), so arrow keys follow the screen whatever the rotation.
    pub fn screen_to_board_direction(&self, dx: i32, dy: i32) -> (i32, i32) {
        // Undo the clockwise turns on the vector, then flip y (rows grow upwards).
        let (mut x, mut y) = (dx, dy);
        for _ in 0..self.quarter_turns % 4 {
            (x, y) = (y, -x);
        }
        (x, -y)
    }

    /// Turns the board a quarter turn clockwise (or back), keeping the same board point
    /// in the centre.
    pub fn rotate(&mut self, clockwise: bool) {
        self.repair();
        let (cx, cy) = (self.centre_x, self.centre_y);
        if clockwise {
            self.quarter_turns = (self.quarter_turns + 1) % 4;
            (self.centre_x, self.centre_y) = (1.0 - cy, cx);
        } else {
            self.quarter_turns = (self.quarter_turns + 3) % 4;
            (self.centre_x, self.centre_y) = (cy, 1.0 - cx);
        }
        // `1 - (1 - half)` can miss `half` by a rounding step.
        self.repair();
    }

    /// The rotation that puts `seat`'s home corner at the bottom left.
    pub fn quarter_turns_facing(seat: Seat) -> u8 {
        match seat {
            Seat::A => 0,
            Seat::B => 3,
            Seat::C => 2,
            Seat::D => 1,
        }
    }

    /// Sets the rotation outright (e.g. to face a seat), keeping the board centred.
    pub fn set_quarter_turns(&mut self, turns: u8) {
        self.repair();
        while self.quarter_turns != turns % 4 {
            self.rotate(true);
        }
    }

    /// Multiplies the zoom by `factor` around a point of the visible area given as
    /// fractions (0..1) of its width and height; the board point under it stays put.
    pub fn zoom_around(&mut self, factor: f32, anchor_x: f32, anchor_y: f32) {
        self.repair();
        if !factor.is_finite() || factor <= 0.0 {
            return;
        }
        let old = self.zoom;
        let new = (old * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        let (ax, ay) = (unit_or_centre(anchor_x) - 0.5, unit_or_centre(anchor_y) - 0.5);
        // Board point under the anchor before: centre + a / old. Keep it under the anchor.
        self.centre_x += ax / old - ax / new;
        self.centre_y += ay / old - ay / new;
        self.zoom = new;
        self.repair();
    }

    /// Zoom 1, board centred.
    pub fn fit(&mut self) {
        self.quarter_turns %= 4;
        self.zoom = 1.0;
        self.centre_x = 0.5;
        self.centre_y = 0.5;
    }

    /// Brings every field back into its range, whatever it holds (a hand-edited save,
    /// a NaN from a degenerate gesture): quarter turns 0..=3, zoom within
    /// [`MIN_ZOOM`]..=[`MAX_ZOOM`] (1 when it is not a number), and a centre that keeps
    /// the visible area on the board (the middle when it is not a number). Never panics,
    /// and the result is the view the player saw whenever it was already valid.
    pub fn repair(&mut self) {
        self.quarter_turns %= 4;
        self.zoom = if self.zoom.is_finite() { self.zoom.clamp(MIN_ZOOM, MAX_ZOOM) } else { 1.0 };
        // With the zoom in range, `half` is in 0.125..=0.5, so the bounds are ordered.
        let half = 0.5 / self.zoom;
        let keep_on_board = |centre: f32| if centre.is_finite() { centre.clamp(half, 1.0 - half) } else { 0.5 };
        self.centre_x = keep_on_board(self.centre_x);
        self.centre_y = keep_on_board(self.centre_y);
    }

    /// True when every field is in its range (what [`BoardView::repair`] gives).
    pub fn is_valid(&self) -> bool {
        let mut repaired = *self;
        repaired.repair();
        repaired.quarter_turns == self.quarter_turns
            && repaired.zoom.to_bits() == self.zoom.to_bits()
            && repaired.centre_x.to_bits() == self.centre_x.to_bits()
            && repaired.centre_y.to_bits() == self.centre_y.to_bits()
    }

    /// Scroll offset (content-x/y, ≤ 0) for a viewport of `viewport` logical pixels
    /// showing the zoomed board of side `viewport * zoom`.
    pub fn content_offset(&self, viewport_width: f32, viewport_height: f32) -> (f32, f32) {
        let mut view = *self;
        view.repair();
        let offset = |viewport: f32, centre: f32| {
            if !viewport.is_finite() || viewport <= 0.0 {
                return 0.0;
            }
            let side = viewport * view.zoom;
            // `max` and `min` (not `clamp`) so that no value can make the bounds cross.
            let offset = (centre * side - viewport / 2.0).min(side - viewport).max(0.0);
            // A viewport near `f32::MAX` overflows: no sensible offset, show the corner.
            if offset.is_finite() {
                -offset
            } else {
                0.0
            }
        };
        (offset(viewport_width, view.centre_x), offset(viewport_height, view.centre_y))
    }

    /// Records a pan made by the player (Flickable content offsets).
    pub fn set_content_offset(&mut self, content_x: f32, content_y: f32, viewport_width: f32, viewport_height: f32) {
        self.repair();
        let usable = |length: f32| length.is_finite() && length > 0.0;
        if !usable(viewport_width) || !usable(viewport_height) || !content_x.is_finite() || !content_y.is_finite() {
            return;
        }
        self.centre_x = (-content_x + viewport_width / 2.0) / (viewport_width * self.zoom);
        self.centre_y = (-content_y + viewport_height / 2.0) / (viewport_height * self.zoom);
        self.repair();
    }
}

/// A fraction of the visible area: within 0..=1, the middle when it is not a number.
fn unit_or_centre(fraction: f32) -> f32 {
    if fraction.is_finite() {
        fraction.clamp(0.0, 1.0)
    } else {
        0.5
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use halma_rules::sq;

    #[test]
    fn display_cells_round_trip_in_every_rotation() {
        for turns in 0..4 {
            let view = BoardView { quarter_turns: turns, ..BoardView::default() };
            for square in Square::all() {
                let (x, y) = view.display_cell(square);
                assert_eq!(view.square_at(x, y), Some(square));
            }
        }
        let view = BoardView::default();
        assert_eq!(view.display_cell(sq("a1")), (0, 15));
        assert_eq!(view.display_cell(sq("p16")), (15, 0));
        assert_eq!(view.square_at(16, 0), None);
    }

    #[test]
    fn facing_a_seat_puts_its_corner_bottom_left() {
        for seat in Seat::ALL {
            let view = BoardView { quarter_turns: BoardView::quarter_turns_facing(seat), ..BoardView::default() };
            assert_eq!(view.display_cell(seat.corner()), (0, 15), "seat {seat}");
        }
    }

    #[test]
    fn arrows_follow_the_screen() {
        for turns in 0..4 {
            let view = BoardView { quarter_turns: turns, ..BoardView::default() };
            let start = sq("h8");
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (dc, dr) = view.screen_to_board_direction(dx, dy);
                let moved = start.offset(dc, dr).unwrap_or(start);
                let (x0, y0) = view.display_cell(start);
                assert_eq!(view.display_cell(moved), (x0 + dx, y0 + dy), "turns {turns} dir {dx},{dy}");
            }
        }
    }

    #[test]
    fn zoom_keeps_the_anchor_and_stays_in_bounds() {
        let mut view = BoardView::default();
        view.zoom_around(2.0, 0.25, 0.25);
        assert_eq!(view.zoom, 2.0);
        // The board point under the anchor (0.25, 0.25 of the area) was 0.25; still is.
        let under_anchor = view.centre_x + (0.25 - 0.5) / view.zoom;
        assert!((under_anchor - 0.25).abs() < 1e-6);
        view.zoom_around(100.0, 0.5, 0.5);
        assert_eq!(view.zoom, MAX_ZOOM);
        view.zoom_around(0.0001, 0.5, 0.5);
        assert_eq!(view.zoom, MIN_ZOOM);
        assert_eq!((view.centre_x, view.centre_y), (0.5, 0.5));
        view.zoom_around(f32::NAN, 0.5, 0.5);
        assert_eq!(view.zoom, MIN_ZOOM);
    }

    #[test]
    fn pan_offsets_round_trip() {
        let mut view = BoardView::default();
        view.zoom_around(3.0, 0.9, 0.1);
        let (x, y) = view.content_offset(400.0, 400.0);
        let mut copy = BoardView { centre_x: 0.5, centre_y: 0.5, ..view };
        copy.set_content_offset(x, y, 400.0, 400.0);
        assert!((copy.centre_x - view.centre_x).abs() < 1e-5);
        assert!((copy.centre_y - view.centre_y).abs() < 1e-5);
    }
}
