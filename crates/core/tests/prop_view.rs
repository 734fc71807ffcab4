//! The board view driven with arbitrary numbers, as a hand-edited save or a degenerate
//! gesture can give it: any `f32` (NaN, infinities, zero, negatives, subnormals, huge
//! values) and any `u8`. Nothing panics, and after every operation the view is in range:
//! 0..=3 quarter turns, zoom within MIN..=MAX, a centre that keeps the visible area on
//! the board, finite offsets inside the zoomed board, and squares that map back.

use halma_core::view::{BoardView, MAX_ZOOM, MIN_ZOOM};
use halma_rules::Square;
use proptest::prelude::*;

/// Any bit pattern, so that NaNs, infinities and subnormals come up as often as plain numbers.
fn any_bits() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<u32>().prop_map(f32::from_bits),
        Just(0.0),
        Just(-0.0),
        Just(f32::MIN_POSITIVE / 2.0),
        Just(f32::MAX),
        Just(f32::NAN),
        Just(f32::INFINITY),
        -10.0f32..10.0,
    ]
}

fn any_view() -> impl Strategy<Value = BoardView> {
    (any::<u8>(), any_bits(), any_bits(), any_bits()).prop_map(|(quarter_turns, zoom, centre_x, centre_y)| BoardView {
        quarter_turns,
        zoom,
        centre_x,
        centre_y,
    })
}

/// What the player can do to the view, with arbitrary arguments; each leaves the view in
/// range, whatever it held before.
#[derive(Clone, Debug)]
enum Operation {
    Zoom(f32, f32, f32),
    Rotate(bool),
    Face(u8),
    Pan(f32, f32, f32, f32),
    Fit,
}

fn any_operation() -> impl Strategy<Value = Operation> {
    prop_oneof![
        (any_bits(), any_bits(), any_bits()).prop_map(|(f, x, y)| Operation::Zoom(f, x, y)),
        any::<bool>().prop_map(Operation::Rotate),
        any::<u8>().prop_map(Operation::Face),
        (any_bits(), any_bits(), any_bits(), any_bits()).prop_map(|(x, y, w, h)| Operation::Pan(x, y, w, h)),
        Just(Operation::Fit),
    ]
}

fn assert_in_range(view: &BoardView) {
    assert!(view.quarter_turns < 4, "{view:?}");
    assert!((MIN_ZOOM..=MAX_ZOOM).contains(&view.zoom), "{view:?}");
    let half = 0.5 / view.zoom;
    for centre in [view.centre_x, view.centre_y] {
        assert!(centre >= half - 1e-6 && centre <= 1.0 - half + 1e-6, "{view:?}");
    }
    assert!(view.is_valid(), "{view:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn any_view_is_repaired_into_range(view in any_view()) {
        let mut repaired = view;
        repaired.repair();
        assert_in_range(&repaired);
        // A view already in range is left exactly as it is.
        let mut again = repaired;
        again.repair();
        prop_assert_eq!(again, repaired);
    }

    #[test]
    fn every_operation_keeps_the_view_in_range(
        view in any_view(),
        operations in prop::collection::vec(any_operation(), 0..12),
        width in any_bits(),
        height in any_bits(),
    ) {
        let mut view = view;
        for operation in operations {
            match operation {
                Operation::Zoom(factor, x, y) => view.zoom_around(factor, x, y),
                Operation::Rotate(clockwise) => view.rotate(clockwise),
                Operation::Face(turns) => view.set_quarter_turns(turns),
                Operation::Pan(x, y, w, h) => view.set_content_offset(x, y, w, h),
                Operation::Fit => view.fit(),
            }
            assert_in_range(&view);
            // Offsets are asked of any view, even one straight from a file.
            let (x, y) = view.content_offset(width, height);
            prop_assert!(x.is_finite() && y.is_finite() && x <= 0.0 && y <= 0.0, "{:?} gives {},{}", view, x, y);
            if width.is_finite() && width > 0.0 && (width * view.zoom).is_finite() {
                prop_assert!(-x <= width * view.zoom - width + 1e-3 * width, "inside the zoomed board");
            }
        }
        view.repair();
        assert_in_range(&view);
        for square in Square::all() {
            let (x, y) = view.display_cell(square);
            prop_assert_eq!(view.square_at(x, y), Some(square));
        }
    }
}

#[test]
fn the_reported_crash_values_are_repaired() {
    // The save: a zoom below 1 made the centre's bounds cross (min > max).
    let mut below_one = BoardView { quarter_turns: 9, zoom: 0.5, centre_x: 0.2, centre_y: 0.9 };
    below_one.repair();
    assert_eq!(below_one, BoardView { quarter_turns: 1, zoom: 1.0, centre_x: 0.5, centre_y: 0.5 });
    // A huge zoom would have asked the renderer for an enormous texture.
    let mut huge = BoardView { quarter_turns: 0, zoom: 1e30, centre_x: 0.0, centre_y: 1.0 };
    huge.repair();
    assert_eq!(huge, BoardView { quarter_turns: 0, zoom: MAX_ZOOM, centre_x: 0.125, centre_y: 0.875 });
    let mut nan = BoardView { quarter_turns: 2, zoom: f32::NAN, centre_x: f32::INFINITY, centre_y: -0.0 };
    nan.repair();
    assert_eq!(nan, BoardView { quarter_turns: 2, zoom: 1.0, centre_x: 0.5, centre_y: 0.5 });
}
