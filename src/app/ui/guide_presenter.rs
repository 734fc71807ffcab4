//! The first-game guide's picture (#39 item 5): which step the card shows, its number,
//! the squares it rings (as display cells of the guide's board) and what else it points
//! at. A pure function of the guide, tested without a window.

use crate::{GuideMark, GuidePointer, GuideStep, GuideView};
use halma_core::guide::{Guide, Pointer, Step};

/// What the guide's card and marks show.
#[derive(Clone, Debug, PartialEq)]
pub struct GuidePicture {
    pub view: GuideView,
    pub marks: Vec<GuideMark>,
}

pub fn guide(guide: Option<&Guide>) -> GuidePicture {
    let total = Step::ALL.len() as i32;
    let Some(guide) = guide else {
        let (step, pointer) = (GuideStep::Select, GuidePointer::Board);
        let view = GuideView { active: false, step, number: 1, total, retry: false, cut: false, pointer };
        return GuidePicture { view, marks: Vec::new() };
    };
    let board = guide.session().view();
    let marks = guide
        .marks()
        .into_iter()
        .map(|square| {
            let (x, y) = board.display_cell(square);
            GuideMark { x, y }
        })
        .collect();
    let view = GuideView {
        active: true,
        step: step(guide.step()),
        number: guide.step().number() as i32,
        total,
        retry: guide.retry(),
        cut: guide.cut(),
        pointer: match guide.pointer() {
            Pointer::Board => GuidePointer::Board,
            Pointer::Bar => GuidePointer::Bar,
            Pointer::Menu => GuidePointer::Menu,
        },
    };
    GuidePicture { view, marks }
}

fn step(step: Step) -> GuideStep {
    match step {
        Step::Select => GuideStep::Select,
        Step::PreviewStep => GuideStep::PreviewStep,
        Step::Confirm => GuideStep::Confirm,
        Step::Jump => GuideStep::Jump,
        Step::Chain => GuideStep::Chain,
        Step::CutBack => GuideStep::CutBack,
        Step::Goal => GuideStep::Goal,
        Step::Undo => GuideStep::Undo,
        Step::Menu => GuideStep::Menu,
        Step::Done => GuideStep::Done,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_step_rings_the_pieces_as_the_board_shows_them() {
        let mut running = Guide::new();
        let picture = guide(Some(&running));
        let view = &picture.view;
        assert_eq!((view.active, view.step, view.number, view.total), (true, GuideStep::Select, 1, 10));
        // b2, d2 and b4 with a1 at the bottom left.
        let cells = [(1, 14), (3, 14), (1, 12)].map(|(x, y)| GuideMark { x, y });
        assert_eq!(picture.marks, cells);
        running.session_mut().rotate_view(true);
        let turned = guide(Some(&running)).marks;
        assert_eq!(turned[0], GuideMark { x: 1, y: 1 }, "b2 a quarter turn clockwise");
        assert!(!guide(None).view.active);
    }
}
