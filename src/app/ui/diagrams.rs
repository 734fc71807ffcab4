//! The Rules page's diagrams: small boards built from the rules engine, so that every
//! picture shows what the game really allows or refuses. The steps are the legal
//! moves of a lone piece, the jump chain is a route the engine accepts, the refused
//! routes are routes it refuses (for the stated reason), the camps are the setups'
//! own and the duty and team pictures are positions where those rules bind.
//!
//! Pure functions: the pictures are plain data, pushed once into `RulesDiagrams`.

use super::presenter::{camp_outline, seat_index};
use crate::{CampOutline, Cell, DiagramCaption, Mark};
use halma_core::view::BoardView;
use halma_rules::{Bitboard, Position, Seat, Setup, Square};
use slint::SharedString;

/// A rectangle of the board: its bottom-left square's column and row, and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub left: i32,
    pub bottom: i32,
    pub columns: i32,
    pub rows: i32,
}

impl Frame {
    pub const WHOLE_BOARD: Frame = Frame { left: 0, bottom: 0, columns: 16, rows: 16 };

    /// The window cell (column from the left, row from the top) of `square`, if inside.
    pub fn cell_of(self, square: Square) -> Option<(i32, i32)> {
        let (x, y) = (square.column() - self.left, self.bottom + self.rows - 1 - square.row());
        ((0..self.columns).contains(&x) && (0..self.rows).contains(&y)).then_some((x, y))
    }

    /// The squares inside, in square order.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        Square::all().filter(move |&square| self.cell_of(square).is_some())
    }
}

/// One diagram as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct DiagramPicture {
    pub caption: DiagramCaption,
    pub frame: Frame,
    pub cells: Vec<Cell>,
    /// A legal route (or the legal part of a refused one), in window cells.
    pub route_path: SharedString,
    /// The refused hop and a cross on its landing, in window cells.
    pub refused_path: SharedString,
    pub outlines: Vec<CampOutline>,
}

/// The diagrams of each section of the Rules page.
#[derive(Clone, Debug, PartialEq)]
pub struct RulesPictures {
    pub camps: Vec<DiagramPicture>,
    pub turn: Vec<DiagramPicture>,
    pub duty: Vec<DiagramPicture>,
    pub teams: Vec<DiagramPicture>,
}

pub fn all() -> RulesPictures {
    RulesPictures {
        camps: vec![
            camps(Setup::TwoPlayers, DiagramCaption::CampsTwoPlayers),
            camps(Setup::ThreePlayers, DiagramCaption::CampsThreePlayers),
            camps(Setup::FourPlayersOneArmy, DiagramCaption::CampsFourPlayers),
        ],
        turn: vec![steps(), jump_chain(), step_in_chain(), lands_twice()],
        duty: vec![duty()],
        teams: vec![team()],
    }
}

fn sq(name: &str) -> Square {
    name.parse().expect("a square of the diagrams")
}

fn squares(names: &[&str]) -> Bitboard {
    names.iter().map(|name| sq(name)).collect()
}

/// A position of `setup` with these pieces, `to_move` to move after `plies` turns.
fn position(setup: Setup, pieces: [Bitboard; 4], to_move: Seat, plies: u32) -> Position {
    Position::from_parts(setup, pieces, to_move, plies)
}

/// The marks of a selected piece on `from` and its legal destinations.
fn selected_with_destinations(square: Square, from: Square, destinations: Bitboard) -> Mark {
    if square == from {
        Mark::Selected
    } else if destinations.contains(square) {
        Mark::Destination
    } else {
        Mark::None
    }
}

/// The cells of `frame`: pieces and camp tints of `position`, the given marks, and
/// coordinate labels along the frame's bottom row and left column.
fn cells(position: &Position, frame: Frame, mark: impl Fn(Square) -> Mark) -> Vec<Cell> {
    let setup = position.setup();
    frame
        .squares()
        .map(|square| {
            let (x, y) = frame.cell_of(square).expect("inside");
            let piece = position.piece_at(square);
            let camp = setup.seats().iter().copied().find(|&s| setup.home_camp(s).contains(square));
            Cell {
                x,
                y,
                has_piece: piece.is_some(),
                piece: piece.map_or(0, seat_index),
                in_camp: camp.is_some(),
                camp: camp.map_or(0, seat_index),
                mark: mark(square),
                name: square.to_string().into(),
                has_target: false,
                target: 0,
                jumps: 0,
                column_label: if y == frame.rows - 1 {
                    ((b'a' + square.column() as u8) as char).to_string().into()
                } else {
                    SharedString::new()
                },
                row_label: if x == 0 { (square.row() + 1).to_string().into() } else { SharedString::new() },
            }
        })
        .collect()
}

/// The centre of `square` in window cells.
fn centre(frame: Frame, square: Square) -> (f32, f32) {
    let (x, y) = frame.cell_of(square).expect("a route square inside its frame");
    (x as f32 + 0.5, y as f32 + 0.5)
}

/// A route through the centres of its squares, in window cells.
fn route_path(frame: Frame, route: &[Square]) -> SharedString {
    let mut path = String::new();
    for (i, &square) in route.iter().enumerate() {
        let (x, y) = centre(frame, square);
        path.push_str(&format!("{} {} {} ", if i == 0 { "M" } else { "L" }, x, y));
    }
    path.trim_end().into()
}

/// The refused hop `from` → `to` and a cross over `to`.
fn refused_path(frame: Frame, from: Square, to: Square) -> SharedString {
    let (ax, ay) = centre(frame, from);
    let (bx, by) = centre(frame, to);
    let r = 0.28;
    format!(
        "M {ax} {ay} L {bx} {by} M {} {} L {} {} M {} {} L {} {}",
        bx - r,
        by - r,
        bx + r,
        by + r,
        bx - r,
        by + r,
        bx + r,
        by - r
    )
    .into()
}

/// Every seat's target camp outlined (whole-board diagrams only).
fn outlines(setup: Setup) -> Vec<CampOutline> {
    let view = BoardView::default();
    setup
        .seats()
        .iter()
        .map(|&seat| CampOutline { seat: seat_index(seat), path: camp_outline(&view, setup.target_camp(seat)) })
        .collect()
}

/// A diagram without routes or outlines.
fn plain(caption: DiagramCaption, frame: Frame, cells: Vec<Cell>) -> DiagramPicture {
    DiagramPicture {
        caption,
        frame,
        cells,
        route_path: SharedString::new(),
        refused_path: SharedString::new(),
        outlines: Vec::new(),
    }
}

/// The lone piece of the steps diagram.
const STEP_PIECE: &str = "g7";

/// A lone piece away from the camps: its legal moves are the eight steps.
pub fn steps() -> DiagramPicture {
    let from = sq(STEP_PIECE);
    let start = position(
        Setup::TwoPlayers,
        [Bitboard::from_square(from), Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY],
        Seat::A,
        0,
    );
    let destinations = start.legal_moves().destinations(from);
    let frame = Frame { left: 4, bottom: 4, columns: 5, rows: 5 };
    let cells = cells(&start, frame, |square| selected_with_destinations(square, from, destinations));
    plain(DiagramCaption::Steps, frame, cells)
}

/// The jump chain: b2 over c3, over e4, over f5 (diagonal, then right, then up),
/// stopping at f6 although it could jump on over e6 to d6.
pub const JUMP_CHAIN: [&str; 4] = ["b2", "d4", "f4", "f6"];

fn jump_position() -> Position {
    position(
        Setup::FourPlayersOneArmy,
        [squares(&["b2", "f5", "a1"]), squares(&["c3", "e6"]), squares(&["e4"]), squares(&["g2"])],
        Seat::A,
        0,
    )
}

pub fn jump_chain() -> DiagramPicture {
    let start = jump_position();
    let route: Vec<Square> = JUMP_CHAIN.iter().map(|name| sq(name)).collect();
    let extensions = start.jump_extensions(&route).unwrap_or_default();
    let frame = Frame { left: 0, bottom: 0, columns: 7, rows: 7 };
    let cells = cells(&start, frame, |square| {
        if square == route[0] {
            Mark::Selected
        } else if route[1..].contains(&square) {
            Mark::Route
        } else if extensions.contains(square) {
            Mark::Extension
        } else {
            Mark::None
        }
    });
    DiagramPicture { route_path: route_path(frame, &route), ..plain(DiagramCaption::JumpChain, frame, cells) }
}

/// A refused route: its legal part in the route colour, the refused hop crossed out.
fn refused(caption: DiagramCaption, start: &Position, route: &[Square], frame: Frame) -> DiagramPicture {
    let legal = &route[..route.len() - 1];
    let cells = cells(start, frame, |square| {
        if square == route[0] {
            Mark::Selected
        } else if legal[1..].contains(&square) {
            Mark::Route
        } else {
            Mark::None
        }
    });
    DiagramPicture {
        route_path: route_path(frame, legal),
        refused_path: refused_path(frame, legal[legal.len() - 1], route[route.len() - 1]),
        ..plain(caption, frame, cells)
    }
}

/// A jump (b2 over c3 to d4), then a step to e4.
pub const STEP_IN_CHAIN: [&str; 3] = ["b2", "d4", "e4"];

fn step_in_chain_position() -> Position {
    position(
        Setup::FourPlayersOneArmy,
        [squares(&["b2"]), squares(&["c3"]), Bitboard::EMPTY, Bitboard::EMPTY],
        Seat::A,
        0,
    )
}

pub fn step_in_chain() -> DiagramPicture {
    let route: Vec<Square> = STEP_IN_CHAIN.iter().map(|name| sq(name)).collect();
    let frame = Frame { left: 0, bottom: 0, columns: 6, rows: 6 };
    refused(DiagramCaption::StepInChain, &step_in_chain_position(), &route, frame)
}

/// Around a ring of pieces and back onto e3, where the chain has landed already.
pub const LANDS_TWICE: [&str; 5] = ["c3", "e3", "e5", "c5", "e3"];

fn lands_twice_position() -> Position {
    position(
        Setup::FourPlayersOneArmy,
        [squares(&["c3"]), squares(&["d3", "d5"]), squares(&["e4"]), squares(&["d4"])],
        Seat::A,
        0,
    )
}

pub fn lands_twice() -> DiagramPicture {
    let route: Vec<Square> = LANDS_TWICE.iter().map(|name| sq(name)).collect();
    let frame = Frame { left: 1, bottom: 1, columns: 5, rows: 5 };
    refused(DiagramCaption::LandsTwice, &lands_twice_position(), &route, frame)
}

/// The whole board at the start of `setup`: home camps tinted and filled, targets outlined.
pub fn camps(setup: Setup, caption: DiagramCaption) -> DiagramPicture {
    let start = Position::start(setup, setup.seats()[0]);
    let frame = Frame::WHOLE_BOARD;
    DiagramPicture { outlines: outlines(setup), ..plain(caption, frame, cells(&start, frame, |_| Mark::None)) }
}

/// Blue's 31st turn (two players, Blue first): three pieces still at home. a1 cannot
/// leave the camp this turn; d2 and b4 can, so only they may move, and only out.
fn duty_position() -> Position {
    position(
        Setup::TwoPlayers,
        [squares(&["a1", "d2", "b4", "f6", "g3", "c7"]), Bitboard::EMPTY, squares(&["p16"]), Bitboard::EMPTY],
        Seat::A,
        2 * 30,
    )
}

pub fn duty() -> DiagramPicture {
    let start = duty_position();
    let moves = start.legal_moves();
    let frame = Frame { left: 0, bottom: 0, columns: 7, rows: 7 };
    let cells = cells(&start, frame, |square| {
        if !moves.destinations(square).is_empty() {
            Mark::Selected
        } else if moves.pieces().iter().any(|&(_, to)| to.contains(square)) {
            Mark::Destination
        } else {
            Mark::None
        }
    });
    plain(DiagramCaption::Duty, frame, cells)
}

/// The Purple piece whose moves the team diagram shows.
pub const TEAM_PIECE: &str = "f6";

/// Four players, both armies home: Blue fills its target camp (Purple's home), Purple is
/// on its way; Blue is to move and moves a Purple piece.
fn team_position() -> Position {
    let setup = Setup::FourPlayersBothArmies;
    let purple = squares(&["a1", "b1", "c1", "a2", "b2", "a3", "c2", "e3", TEAM_PIECE, "g5", "h7", "e6", "d8"]);
    position(
        setup,
        [setup.target_camp(Seat::A), setup.home_camp(Seat::B), purple, setup.home_camp(Seat::D)],
        Seat::A,
        4 * 60,
    )
}

pub fn team() -> DiagramPicture {
    let start = team_position();
    let from = sq(TEAM_PIECE);
    let destinations = start.legal_moves().destinations(from);
    let frame = Frame::WHOLE_BOARD;
    let cells = cells(&start, frame, |square| selected_with_destinations(square, from, destinations));
    DiagramPicture { outlines: outlines(start.setup()), ..plain(DiagramCaption::Team, frame, cells) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use halma_rules::IllegalMove;

    /// Why the engine refuses a diagram's route.
    fn refusal(start: &Position, route: &[&str]) -> Option<IllegalMove> {
        let route: Vec<Square> = route.iter().map(|name| sq(name)).collect();
        start.check_route(&route).err()
    }

    fn marked(picture: &DiagramPicture, mark: Mark) -> usize {
        picture.cells.iter().filter(|cell| cell.mark == mark).count()
    }

    #[test]
    fn every_cell_of_a_frame_is_drawn_once() {
        for picture in [all().camps, all().turn, all().duty, all().teams].concat() {
            let frame = picture.frame;
            assert_eq!(picture.cells.len() as i32, frame.columns * frame.rows, "{:?}", picture.caption);
            let mut seen = std::collections::HashSet::new();
            for cell in &picture.cells {
                assert!((0..frame.columns).contains(&cell.x) && (0..frame.rows).contains(&cell.y));
                assert!(seen.insert((cell.x, cell.y)));
            }
            assert_eq!(picture.cells.iter().filter(|c| !c.column_label.is_empty()).count() as i32, frame.columns);
            assert_eq!(picture.cells.iter().filter(|c| !c.row_label.is_empty()).count() as i32, frame.rows);
        }
    }

    #[test]
    fn a_lone_piece_has_eight_steps() {
        let picture = steps();
        assert_eq!(marked(&picture, Mark::Destination), 8);
        assert_eq!(marked(&picture, Mark::Selected), 1);
        assert_eq!(picture.cells.iter().filter(|c| c.has_piece).count(), 1);
    }

    #[test]
    fn the_jump_chain_is_legal_turns_and_could_go_on() {
        let start = jump_position();
        assert_eq!(refusal(&start, &JUMP_CHAIN), None);
        let route: Vec<Square> = JUMP_CHAIN.iter().map(|name| sq(name)).collect();
        let directions: Vec<(i32, i32)> = route
            .windows(2)
            .map(|hop| ((hop[1].column() - hop[0].column()) / 2, (hop[1].row() - hop[0].row()) / 2))
            .collect();
        assert_eq!(directions, [(1, 1), (1, 0), (0, 1)], "three jumps in three directions");
        assert!(start.jump_extensions(&route).is_ok_and(|more| !more.is_empty()), "it stops by choice");
        let picture = jump_chain();
        assert_eq!(marked(&picture, Mark::Route), 3);
        assert!(marked(&picture, Mark::Extension) >= 1);
        assert_eq!(picture.route_path, "M 1.5 5.5 L 3.5 3.5 L 5.5 3.5 L 5.5 1.5");
    }

    #[test]
    fn the_refused_routes_are_refused_for_their_reason() {
        assert_eq!(refusal(&step_in_chain_position(), &STEP_IN_CHAIN), Some(IllegalMove::StepInChain));
        assert_eq!(refusal(&step_in_chain_position(), &STEP_IN_CHAIN[..2]), None, "the jump alone is legal");
        assert_eq!(refusal(&lands_twice_position(), &LANDS_TWICE), Some(IllegalMove::LandsTwice(sq("e3"))));
        assert_eq!(refusal(&lands_twice_position(), &LANDS_TWICE[..4]), None, "the chain before it is legal");
        for picture in [step_in_chain(), lands_twice()] {
            assert!(picture.refused_path.starts_with("M "));
            assert!(!picture.route_path.is_empty());
        }
    }

    #[test]
    fn the_camps_are_the_setups_own() {
        let tinted =
            |picture: &DiagramPicture, seat: i32| picture.cells.iter().filter(|c| c.in_camp && c.camp == seat).count();
        let two = camps(Setup::TwoPlayers, DiagramCaption::CampsTwoPlayers);
        assert_eq!((tinted(&two, 0), tinted(&two, 1), tinted(&two, 2), tinted(&two, 3)), (19, 0, 19, 0));
        assert_eq!(two.outlines.len(), 2);
        let three = camps(Setup::ThreePlayers, DiagramCaption::CampsThreePlayers);
        assert_eq!((tinted(&three, 0), tinted(&three, 1), tinted(&three, 2)), (19, 13, 19));
        let four = camps(Setup::FourPlayersOneArmy, DiagramCaption::CampsFourPlayers);
        assert!((0..4).all(|seat| tinted(&four, seat) == 13));
        assert_eq!(four.cells.iter().filter(|c| c.has_piece).count(), 52);
    }

    #[test]
    fn the_duty_diagram_binds_and_shows_only_moves_out_of_home() {
        let start = duty_position();
        assert!(start.duty_applies());
        let home = Setup::TwoPlayers.home_camp(Seat::A);
        let picture = duty();
        let selected: Vec<(i32, i32)> =
            picture.cells.iter().filter(|c| c.mark == Mark::Selected).map(|c| (c.x, c.y)).collect();
        let frame = picture.frame;
        assert_eq!(selected, [frame.cell_of(sq("d2")).unwrap(), frame.cell_of(sq("b4")).unwrap()]);
        for cell in picture.cells.iter().filter(|c| c.mark == Mark::Destination) {
            let square = frame.squares().find(|&s| frame.cell_of(s) == Some((cell.x, cell.y))).unwrap();
            assert!(!home.contains(square), "{square} is outside the home camp");
        }
        assert!(marked(&picture, Mark::Destination) > 0);
    }

    #[test]
    fn the_team_diagram_moves_the_partners_army() {
        let start = team_position();
        assert!(start.has_arrived(Seat::A));
        assert_eq!(start.winners(), None);
        assert_eq!(start.army_to_move(), Seat::C);
        let picture = team();
        assert_eq!(marked(&picture, Mark::Selected), 1);
        assert!(marked(&picture, Mark::Destination) > 0);
        assert_eq!(picture.outlines.len(), 4);
    }
}
