//! Which square a touch tap means when the board's squares are smaller than a finger.
//!
//! On an upright 360 dp phone a square is about 22 dp, and a fingertip's taps spread by
//! about 10 dp around the point aimed at, so the square under the finger is often a
//! neighbour of the one meant. A touch tap is therefore matched against the few squares
//! a tap could act on now (the *candidates*, the same ones [`Interaction::tap`] acts on):
//!
//! - nothing selected: the own pieces that can move;
//! - a piece selected: its legal destinations, and (less likely) another movable piece
//!   to select instead, or the piece itself to drop the selection;
//! - a route previewed: also the landings one more jump reaches (extend the chain) and
//!   the route's own squares (cut it back; its end keeps it as it is).
//!
//! Each candidate within the snapping radius ([`snap_radius`]) gets a score: how likely a
//! tap aimed at its centre lands where this one did (a Gaussian of σ =
//! [`FINGER_SPREAD_DP`]), times how likely the player wants it (forward progress toward
//! the target camp, and a lower weight for re-selecting or dropping the selection). The
//! best score wins. A tap in the inner half of a candidate's own square always takes
//! that candidate, so a precise tap does what it looks like. When the runner-up scores
//! nearly as well, the answer is [`Snap::Ambiguous`]: the controller may preview or
//! select the likelier square, never confirm a move with it.
//!
//! *Joint decoding*: a touch tap that selects a piece leaves a [`TapMemory`] of how well
//! it fitted each movable piece near it. The next tap is then read as a (piece,
//! destination) pair: if a neighbour of the selected piece, one the first tap may as
//! well have meant, reaches the square tapped (and the selected piece does not, or much
//! less plausibly), the answer names that piece ([`TapTarget::piece`]): select it and
//! preview its move in one tap. It is only ever a preview, never a move.
//!
//! Only touch snaps: a mouse or a pen is exact, and the keyboard never comes here, so
//! both behave as before ([`Pointer`]). Pure: no Slint, no I/O; the rules decide what
//! is legal, this only ranks what they allow.

use super::interaction::{Interaction, TapResult};
use super::session::Session;
use super::view::BoardView;
use halma_ai::greedy::corner_distance;
use halma_rules::{Bitboard, Game, Square};

/// A finger's contact size: from this square size up, a square is as large as a finger
/// and a tap takes the square under it (Material's minimum touch target).
pub const FINGER_DP: f32 = 48.0;

/// How far a fingertip's taps spread around the point aimed at (one standard deviation,
/// about 1.6 mm): the width of the Gaussian that scores candidates.
pub const FINGER_SPREAD_DP: f32 = 10.0;

/// What produced the tap. Only `Touch` snaps; a mouse or a pen points exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pointer {
    Mouse,
    Pen,
    Touch,
}

/// A point on the board in dp, from the top-left corner of the whole board as drawn at
/// the current zoom (display orientation: x to the right, y down). With the board
/// zoomed and panned, the caller adds the pan offset: (0, 0) is the top-left corner of
/// the board as displayed, not of the viewport.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardPoint {
    pub x: f32,
    pub y: f32,
}

/// How sure the choice is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Snap {
    /// The square under the pointer, as before snapping existed: a mouse or pen, a square
    /// as large as a finger, or no candidate within reach.
    Exact,
    /// One candidate clearly (it may be a neighbour of the square under the finger).
    Clear,
    /// Two candidates nearly as likely: `square` is the likelier, `other` the runner-up
    /// (for the loupe). Only a preview or a selection may follow, never a move.
    Ambiguous { other: Square },
}

/// The square a tap means, and how sure that is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TapTarget {
    /// The square to act on: pass it to `Session::tap` as an exact tap there.
    pub square: Square,
    /// The square under the finger, if the tap was on the board.
    pub under: Option<Square>,
    pub snap: Snap,
    /// Joint decoding: select this piece first, then tap `square`, one of its
    /// destinations (the first tap more plausibly meant this piece than the selected one).
    pub piece: Option<Square>,
}

impl TapTarget {
    /// Whether this tap may confirm a move, should a tap ever confirm one (today only
    /// Confirm and Enter do): only when it is not ambiguous and the finger is on the
    /// square itself, so a snapped tap can change a preview but never play a move.
    pub fn may_confirm(&self) -> bool {
        !matches!(self.snap, Snap::Ambiguous { .. }) && self.under == Some(self.square) && self.piece.is_none()
    }

    /// Acts on `session` as meant: an exact tap on [`Self::square`], after selecting
    /// [`Self::piece`] if joint decoding named one. Never plays a move (`Session::tap`
    /// does not).
    pub fn apply(&self, session: &mut Session) -> TapResult {
        if let Some(piece) = self.piece {
            if session.interaction().selected != Some(piece) {
                session.tap(piece);
            }
            if session.interaction().selected != Some(piece) {
                return TapResult::Nothing;
            }
        }
        session.tap(self.square)
    }
}

/// The memory keeps the pieces within this many snapping radii of the first tap.
const MEMORY_REACH: f32 = 2.0;

/// What the last touch tap that selected a piece leaves for the next one: how well it
/// fitted each movable piece near it, so that the next tap can weigh (piece,
/// destination) pairs together. Forgotten as soon as the selection, the position or
/// the kind of pointer changes, and never kept for a precise tap (which is exact).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TapMemory {
    first: Option<FirstTap>,
}

#[derive(Clone, Debug, PartialEq)]
struct FirstTap {
    /// The piece the tap selected.
    selected: Square,
    /// The position it was made in (its key).
    position: u64,
    /// The movable pieces within reach of the tap, each with −d²/(2σ²) of the tap's
    /// distance to its centre: how well the tap fits it.
    pieces: Vec<(Square, f32)>,
    /// How far the tap was from the selected piece's centre, in squares (the larger of
    /// the two ways): a precise tap ([`SnapParams::precise`]) is not read again.
    off_centre: f32,
}

impl TapMemory {
    /// After a tap acted: remembers a touch tap at `point` that newly selected a piece
    /// (not a precise one), forgets everything else. `selected_before` is the selection
    /// before the tap.
    #[allow(clippy::too_many_arguments)]
    pub fn after_tap(
        &mut self,
        game: &Game,
        selected_before: Option<Square>,
        interaction: &Interaction,
        view: &BoardView,
        pointer: Pointer,
        point: BoardPoint,
        square_dp: f32,
    ) {
        self.first = None;
        let radius = snap_radius(square_dp) * MEMORY_REACH;
        let Some(selected) = interaction.selected else { return };
        if pointer != Pointer::Touch
            || radius <= 0.0
            || interaction.has_preview()
            || selected_before == Some(selected)
            || !(point.x.is_finite() && point.y.is_finite())
        {
            return;
        }
        let offset = |square: Square| offset(view, point, square_dp, square);
        let (dx, dy) = offset(selected);
        let off_centre = dx.abs().max(dy.abs()) / square_dp;
        let spread = 2.0 * FINGER_SPREAD_DP * FINGER_SPREAD_DP;
        let pieces: Vec<(Square, f32)> = game
            .legal_moves()
            .pieces()
            .iter()
            .filter_map(|&(from, _)| {
                let (dx, dy) = offset(from);
                let squared = dx * dx + dy * dy;
                (squared <= radius * radius || from == selected).then_some((from, -squared / spread))
            })
            .collect();
        if pieces.len() > 1 {
            self.first = Some(FirstTap { selected, position: game.position().hash(), pieces, off_centre });
        }
    }

    /// Forgets the last tap (a mouse click, a key, a pinch).
    pub fn forget(&mut self) {
        self.first = None;
    }

    /// The remembered tap, if it still applies to `interaction` in `game`: the same piece
    /// selected, nothing previewed, the same position.
    fn applies(&self, game: &Game, interaction: &Interaction, params: &SnapParams) -> Option<&FirstTap> {
        self.first.as_ref().filter(|first| {
            first.off_centre > params.precise
                && interaction.selected == Some(first.selected)
                && !interaction.has_preview()
                && game.position().hash() == first.position
        })
    }
}

/// The tunable weights of the scoring, with [`SnapParams::DEFAULT`] as the app uses them
/// (the model test also measures snapping by distance alone).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SnapParams {
    /// Whether a tap after a touch selection weighs (piece, destination) pairs together
    /// ([`TapMemory`]).
    pub joint: bool,
    /// Weight of a (piece, destination) reading with another piece than the selected
    /// one, against 1: the player saw the selection and may have meant it.
    pub switch: f32,
    /// Log-weight per unit of forward progress (the corner distance a move gains, as the
    /// greedy player counts it), clamped to ±`max_progress`: a piece or a landing that
    /// goes further toward the target camp is likelier meant.
    pub progress: f32,
    /// Progress is counted at most this much either way, so that one long chain cannot
    /// pull a tap from across the radius.
    pub max_progress: i32,
    /// Log-weight of a move that brings a piece into its target camp from outside (and
    /// against one that takes it out again).
    pub goal: f32,
    /// Log-weight per king step a move gains toward the target camp (0 inside it).
    pub camp: f32,
    /// Added to the camp weight per step gained, times the piece's distance from the camp
    /// / 8: a piece far behind is likelier moved.
    pub straggler: f32,
    /// Log-weight of moving a piece already in its target camp.
    pub settled: f32,
    /// The log prior of a move is kept within ± this, so no move is ruled out.
    pub max_prior: f32,
    /// The snapping radius is [`snap_radius`] times this.
    pub reach: f32,
    /// Weight of re-selecting another piece or dropping the selection, against 1 for a
    /// destination, an extension or a landing: once a piece is chosen, its moves are
    /// what the player most likely aims at.
    pub secondary: f32,
    /// The runner-up is "nearly as likely" when its weight is at least this fraction of
    /// the best one's.
    pub ambiguity: f32,
    /// A tap within this fraction of a square of a candidate's centre (each way) takes
    /// that candidate whatever the weights: a precise tap does what it looks like.
    pub precise: f32,
}

impl SnapParams {
    pub const DEFAULT: SnapParams = SnapParams {
        joint: true,
        switch: 1.0,
        progress: 0.5,
        max_progress: 20,
        goal: 0.0,
        camp: 2.0,
        straggler: 0.0,
        settled: 0.0,
        max_prior: 100.0,
        reach: 1.0,
        secondary: 0.05,
        ambiguity: 0.35,
        precise: 0.15,
    };
    /// Each tap on its own, as before joint decoding.
    pub const SINGLE: SnapParams = SnapParams { joint: false, ..SnapParams::DEFAULT };
    /// Nearest candidate only: what distance alone gives.
    pub const DISTANCE_ONLY: SnapParams = SnapParams {
        joint: false,
        switch: 0.5,
        progress: 0.0,
        max_progress: 0,
        goal: 0.0,
        camp: 0.0,
        straggler: 0.0,
        settled: 0.0,
        max_prior: 100.0,
        reach: 1.0,
        secondary: 1.0,
        ambiguity: 0.35,
        precise: 0.25,
    };

    /// The log prior of moving `from` to `to` for the army to move: how plausibly a
    /// player means it, from its progress toward the target camp.
    fn move_prior(&self, prior: &Prior, from: Square, to: Square) -> f32 {
        let gain = prior.distance(from) - prior.distance(to);
        let mut log = self.progress * gain.clamp(-self.max_progress, self.max_progress) as f32;
        match (prior.target.contains(from), prior.target.contains(to)) {
            (false, true) => log += self.goal,
            (true, false) => log -= self.goal,
            (true, true) => log += self.settled,
            _ => {}
        }
        let behind = prior.steps(from);
        let steps = (behind - prior.steps(to)) as f32;
        log += steps * (self.camp + self.straggler * behind as f32 / 8.0);
        log.clamp(-self.max_prior, self.max_prior)
    }
}

/// What the prior of a move needs of the position: the army to move's target corner
/// and camp.
struct Prior<'a> {
    position: &'a halma_rules::Position,
    army: halma_rules::Seat,
    target: Bitboard,
}

impl<'a> Prior<'a> {
    fn of(game: &'a Game) -> Prior<'a> {
        let position = game.position();
        let army = position.army_to_move();
        Prior { position, army, target: position.setup().target_camp(army) }
    }

    fn distance(&self, square: Square) -> i32 {
        corner_distance(self.position, self.army, square)
    }

    /// King steps from `square` to the nearest square of the target camp (0 inside).
    fn steps(&self, square: Square) -> i32 {
        let (column, row) = (square.column(), square.row());
        let steps = self.target.squares().map(|t| (t.column() - column).abs().max((t.row() - row).abs()));
        steps.min().unwrap_or(0)
    }
}

/// How far (dp, from a candidate's centre) a touch tap may be and still snap to it, for
/// squares of `square_dp` at the current zoom.
///
/// `r(s) = s/2 + 3/4 · (48 − s)` below [`FINGER_DP`], 0 from there on (no snapping): half
/// a square (the square itself) plus three quarters of what the square lacks of a
/// finger. Unzoomed on a 360 dp phone (s = 22) that is 30.5 dp, three spreads of a
/// finger; zooming in shrinks it to the square itself at 48 dp. A size that is not a
/// positive number gives 0.
pub fn snap_radius(square_dp: f32) -> f32 {
    if !(square_dp.is_finite() && square_dp > 0.0 && square_dp < FINGER_DP) {
        return 0.0;
    }
    square_dp / 2.0 + 0.75 * (FINGER_DP - square_dp)
}

/// The square a tap at `point` means, for the session as it is (see [`tap_target`]).
pub fn for_session(
    session: &Session,
    memory: &TapMemory,
    pointer: Pointer,
    point: BoardPoint,
    square_dp: f32,
) -> Option<TapTarget> {
    tap_target(
        session.game(),
        session.interaction(),
        session.human_can_act(),
        session.view(),
        pointer,
        point,
        square_dp,
        &SnapParams::DEFAULT,
        memory,
    )
}

/// The square a tap at `point` means: `square_dp` is a square's size in dp at the current
/// zoom, `view` maps display cells to squares, `can_act` is whether the local player may
/// move now (as `Session::human_can_act`), `memory` what the last touch tap left (joint
/// decoding, when `params.joint`). `None` when the tap is off the board and no
/// candidate is within reach: nothing to do, as before.
#[allow(clippy::too_many_arguments)]
pub fn tap_target(
    game: &Game,
    interaction: &Interaction,
    can_act: bool,
    view: &BoardView,
    pointer: Pointer,
    point: BoardPoint,
    square_dp: f32,
    params: &SnapParams,
    memory: &TapMemory,
) -> Option<TapTarget> {
    let under = square_under(view, point, square_dp);
    let exact = under.map(|square| TapTarget { square, under, snap: Snap::Exact, piece: None });
    let radius = snap_radius(square_dp) * params.reach;
    if pointer != Pointer::Touch || radius <= 0.0 || !can_act || !(point.x.is_finite() && point.y.is_finite()) {
        return exact;
    }
    let candidates = candidates(game, interaction, params);
    let offset = |square: Square| offset(view, point, square_dp, square);
    // A precise tap: the middle of a candidate's own square.
    if let Some(square) = under {
        let (dx, dy) = offset(square);
        let precise = params.precise * square_dp;
        if candidates.iter().any(|c| c.square == square) && dx.abs() <= precise && dy.abs() <= precise {
            return Some(TapTarget { square, under, snap: Snap::Clear, piece: None });
        }
    }
    let spread = 2.0 * FINGER_SPREAD_DP * FINGER_SPREAD_DP;
    let mut scored: Vec<(f32, Square, Option<Square>)> = candidates
        .iter()
        .filter_map(|candidate| {
            let (dx, dy) = offset(candidate.square);
            let squared = dx * dx + dy * dy;
            if squared > radius * radius {
                return None;
            }
            let weight = if candidate.secondary { params.secondary.max(f32::MIN_POSITIVE).ln() } else { 0.0 };
            Some((weight + candidate.prior - squared / spread, candidate.square, None))
        })
        .collect();
    if params.joint {
        if let (Some(first), Some(selected)) = (memory.applies(game, interaction, params), interaction.selected) {
            scored.extend(joint_candidates(game, first, selected, params, |square| {
                let (dx, dy) = offset(square);
                let squared = dx * dx + dy * dy;
                (squared <= radius * radius).then_some(-squared / spread)
            }));
        }
    }
    // Best first; equal scores by square index (the selected piece's own reading first),
    // so the answer never depends on order.
    let key = |piece: Option<Square>| piece.map_or(0, |p| 1 + p.index());
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.index().cmp(&b.1.index())).then(key(a.2).cmp(&key(b.2))));
    let Some(&(best_score, best, piece)) = scored.first() else { return exact };
    let snap = match scored.iter().find(|c| c.1 != best) {
        Some(&(score, other, _)) if score - best_score >= params.ambiguity.max(f32::MIN_POSITIVE).ln() => {
            Snap::Ambiguous { other }
        }
        _ => Snap::Clear,
    };
    Some(TapTarget { square: best, under, snap, piece })
}

/// The (piece, destination) readings of a tap after a touch selection: for each other
/// movable piece the first tap fitted, its destinations within reach of this tap, scored
/// against the selected piece's own destinations (which carry the first tap's fit to
/// the selected piece: here the difference of the two fits is added).
fn joint_candidates(
    game: &Game,
    first: &FirstTap,
    selected: Square,
    params: &SnapParams,
    fit: impl Fn(Square) -> Option<f32>,
) -> Vec<(f32, Square, Option<Square>)> {
    let prior = Prior::of(game);
    let moves = game.legal_moves();
    let Some(&(_, selected_fit)) = first.pieces.iter().find(|(square, _)| *square == selected) else {
        return Vec::new();
    };
    let mut list = Vec::new();
    let weight = params.switch.max(f32::MIN_POSITIVE).ln();
    for &(piece, piece_fit) in &first.pieces {
        if piece == selected {
            continue;
        }
        for to in moves.destinations(piece).squares() {
            let Some(tap_fit) = fit(to) else { continue };
            let log = weight + piece_fit - selected_fit + params.move_prior(&prior, piece, to) + tap_fit;
            list.push((log, to, Some(piece)));
        }
    }
    list
}

/// The offset in dp from `square`'s centre (as displayed) to `point`.
fn offset(view: &BoardView, point: BoardPoint, square_dp: f32, square: Square) -> (f32, f32) {
    let (column, row) = view.display_cell(square);
    let centre_x = (column as f32 + 0.5) * square_dp;
    let centre_y = (row as f32 + 0.5) * square_dp;
    (point.x - centre_x, point.y - centre_y)
}

/// The square whose display cell holds `point`, if the point is on the board.
fn square_under(view: &BoardView, point: BoardPoint, square_dp: f32) -> Option<Square> {
    if !(square_dp.is_finite() && square_dp > 0.0 && point.x.is_finite() && point.y.is_finite()) {
        return None;
    }
    let (x, y) = ((point.x / square_dp).floor(), (point.y / square_dp).floor());
    if !(0.0..16.0).contains(&x) || !(0.0..16.0).contains(&y) {
        return None;
    }
    view.square_at(x as i32, y as i32)
}

/// A square a tap could act on now.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Candidate {
    square: Square,
    /// The log prior of what tapping it does ([`SnapParams::move_prior`]; for a piece:
    /// its likeliest move's).
    prior: f32,
    /// Re-selecting or dropping the selection rather than acting with the selected piece.
    secondary: bool,
}

/// The squares [`Interaction::tap`] would act on, in the state given.
fn candidates(game: &Game, interaction: &Interaction, params: &SnapParams) -> Vec<Candidate> {
    let prior = Prior::of(game);
    let moves = game.legal_moves();
    let gain = |from: Square, to: Square| params.move_prior(&prior, from, to);
    let best = |from: Square, destinations: Bitboard| destinations.squares().map(|to| gain(from, to)).reduce(f32::max);
    let mut list = Vec::new();
    let Some(selected) = interaction.selected else {
        for &(from, destinations) in moves.pieces() {
            if let Some(prior) = best(from, destinations) {
                list.push(Candidate { square: from, prior, secondary: false });
            }
        }
        return list;
    };
    let route = &interaction.route;
    let preview = interaction.has_preview();
    let mut taken = Bitboard::EMPTY;
    let mut push = |list: &mut Vec<Candidate>, candidate: Candidate| {
        if !taken.contains(candidate.square) {
            taken.insert(candidate.square);
            list.push(candidate);
        }
    };
    // The selected piece (or the preview's start, which drops the preview).
    push(&mut list, Candidate { square: selected, prior: 0.0, secondary: true });
    if preview {
        for &landing in &route[1..] {
            push(&mut list, Candidate { square: landing, prior: gain(selected, landing), secondary: false });
        }
        for landing in interaction.extensions(game).squares() {
            push(&mut list, Candidate { square: landing, prior: gain(selected, landing), secondary: false });
        }
    }
    for to in moves.destinations(selected).squares() {
        push(&mut list, Candidate { square: to, prior: gain(selected, to), secondary: false });
    }
    // First landings of chains that may not end there (Interaction::tap builds on them).
    if !preview {
        let landings = game.position().jump_extensions(&[selected]).unwrap_or(Bitboard::EMPTY);
        for landing in landings.squares() {
            push(&mut list, Candidate { square: landing, prior: gain(selected, landing), secondary: false });
        }
    }
    for &(from, destinations) in moves.pieces() {
        if let Some(prior) = best(from, destinations) {
            push(&mut list, Candidate { square: from, prior, secondary: true });
        }
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use halma_rules::{parse_hpn, Position, Seat, Setup};

    const S: f32 = 22.0;

    fn sq(name: &str) -> Square {
        name.parse().unwrap_or(Square::from_index(0))
    }

    /// The centre of `square` in board dp, unrotated, plus an offset.
    fn at(square: &str, dx: f32, dy: f32) -> BoardPoint {
        let (column, row) = BoardView::default().display_cell(sq(square));
        BoardPoint { x: (column as f32 + 0.5) * S + dx, y: (row as f32 + 0.5) * S + dy }
    }

    fn target(game: &Game, ui: &Interaction, pointer: Pointer, point: BoardPoint, size: f32) -> Option<TapTarget> {
        tap_target(
            game,
            ui,
            true,
            &BoardView::default(),
            pointer,
            point,
            size,
            &SnapParams::DEFAULT,
            &TapMemory::default(),
        )
    }

    fn game_from(hpn: &str) -> Game {
        Game::from_position(parse_hpn(hpn).unwrap_or(Position::start(Setup::TwoPlayers, Seat::A)))
    }

    /// A at c3 with d4 to jump over, C at f5 and e3: c3 jumps to e5, then on to g5.
    fn chain_game() -> Game {
        game_from("16/16/16/16/16/16/16/16/16/16/16/5C10/3A12/2A1C11/16/15C A 2p 0")
    }

    #[test]
    fn the_radius_shrinks_with_zoom_and_ends_at_a_finger() {
        assert_eq!(snap_radius(22.0), 30.5);
        assert_eq!(snap_radius(21.5), 30.625);
        assert_eq!(snap_radius(40.0), 26.0);
        assert_eq!(snap_radius(47.0), 24.25);
        assert_eq!(snap_radius(48.0), 0.0);
        assert_eq!(snap_radius(88.0), 0.0);
        assert_eq!(snap_radius(0.0), 0.0);
        assert_eq!(snap_radius(-3.0), 0.0);
        assert_eq!(snap_radius(f32::NAN), 0.0);
        // Zooming in never widens it.
        let mut last = f32::INFINITY;
        for size in 1..60 {
            let radius = snap_radius(size as f32);
            assert!(radius <= last, "{size} dp");
            last = radius;
        }
    }

    #[test]
    fn mouse_pen_and_large_squares_take_the_square_under_the_pointer() {
        let game = Game::new(Setup::TwoPlayers, Seat::A);
        let ui = Interaction::default();
        // d4 is empty; 6 dp left of its centre is 16 dp from c4, a piece that can move.
        let point = at("d4", -6.0, 0.0);
        for pointer in [Pointer::Mouse, Pointer::Pen] {
            assert_eq!(
                target(&game, &ui, pointer, point, S),
                Some(TapTarget { square: sq("d4"), under: Some(sq("d4")), snap: Snap::Exact, piece: None })
            );
        }
        // Touch snaps to c4 at 22 dp, not once a square is as large as a finger.
        let touch = target(&game, &ui, Pointer::Touch, point, S);
        assert_eq!(touch, Some(TapTarget { square: sq("c4"), under: Some(sq("d4")), snap: Snap::Clear, piece: None }));
        assert!(touch.is_some_and(|t| !t.may_confirm()), "the finger is not on c4");
        let big = BoardPoint { x: 3.5 * 48.0 - 6.0, y: 12.5 * 48.0 };
        assert_eq!(
            target(&game, &ui, Pointer::Touch, big, 48.0),
            Some(TapTarget { square: sq("d4"), under: Some(sq("d4")), snap: Snap::Exact, piece: None })
        );
        // Off the board with a mouse: nothing.
        assert_eq!(target(&game, &ui, Pointer::Mouse, BoardPoint { x: -5.0, y: 3.0 }, S), None);
    }

    #[test]
    fn nothing_selected_snaps_to_the_nearest_movable_piece() {
        let game = Game::new(Setup::TwoPlayers, Seat::A);
        let ui = Interaction::default();
        // f2 is empty; 6 dp left of its centre: e2 (16 dp away) rather than e1 (27 dp).
        let t = target(&game, &ui, Pointer::Touch, at("f2", -6.0, 0.0), S);
        assert_eq!(t.map(|t| t.square), Some(sq("e2")));
        assert_eq!(t.map(|t| t.under), Some(Some(sq("f2"))));
        // The middle of a movable piece's square (3.3 dp each way) is its own.
        let t = target(&game, &ui, Pointer::Touch, at("d2", 3.0, -3.0), S);
        assert_eq!(t, Some(TapTarget { square: sq("d2"), under: Some(sq("d2")), snap: Snap::Clear, piece: None }));
        assert!(t.is_some_and(|t| t.may_confirm()));
        // Beyond it the prior weighs in: still d2, but c2 is nearly as likely.
        let t = target(&game, &ui, Pointer::Touch, at("d2", 3.0, -4.0), S);
        let other = Snap::Ambiguous { other: sq("c2") };
        assert_eq!(t, Some(TapTarget { square: sq("d2"), under: Some(sq("d2")), snap: other, piece: None }));
        // Far from every piece: the square under the finger, as before.
        let t = target(&game, &ui, Pointer::Touch, at("h9", 0.0, 0.0), S);
        assert_eq!(t, Some(TapTarget { square: sq("h9"), under: Some(sq("h9")), snap: Snap::Exact, piece: None }));
    }

    #[test]
    fn a_selected_piece_snaps_to_its_destinations_before_other_pieces() {
        let game = chain_game();
        let mut ui = Interaction::default();
        ui.tap(&game, sq("c3"), true);
        // c3's destinations: the steps around it, the jump to e5 and the chain on to g5.
        // A tap on e6, 16 dp from e5's centre, takes e5.
        let t = target(&game, &ui, Pointer::Touch, at("e6", 3.0, 6.0), S);
        assert_eq!(t.map(|t| t.square), Some(sq("e5")));
        // d4 is an own piece that can move; a tap on its edge toward the step d3 (8 dp
        // from d4's centre, 14 dp from d3's) takes the destination d3, as re-selecting
        // weighs 0.05 once a piece is chosen.
        let t = target(&game, &ui, Pointer::Touch, at("d4", -2.0, 8.0), S);
        assert_eq!(t, Some(TapTarget { square: sq("d3"), under: Some(sq("d4")), snap: Snap::Clear, piece: None }));
        // On its middle, d4 is re-selected.
        let t = target(&game, &ui, Pointer::Touch, at("d4", 1.0, -2.0), S);
        assert_eq!(t.map(|t| t.square), Some(sq("d4")));
    }

    #[test]
    fn a_preview_snaps_to_extensions_and_landings() {
        let game = chain_game();
        let mut ui = Interaction::default();
        ui.tap(&game, sq("c3"), true);
        ui.tap(&game, sq("e5"), true);
        assert_eq!(ui.route, vec![sq("c3"), sq("e5")]);
        // g5 extends the chain; a tap in g6, 27 dp from g5's centre, still reaches it.
        let t = target(&game, &ui, Pointer::Touch, at("g6", 2.0, -5.0), S);
        assert_eq!(t.map(|t| t.square), Some(sq("g5")));
        // Near e5, the preview's end, in the empty f4: e5 (a tap there keeps the preview),
        // which such a tap could not confirm, as the finger is not on e5 itself.
        let t = target(&game, &ui, Pointer::Touch, at("e5", 12.0, 12.0), S);
        assert_eq!(t, Some(TapTarget { square: sq("e5"), under: Some(sq("f4")), snap: Snap::Clear, piece: None }));
        assert!(t.is_some_and(|t| !t.may_confirm()));
        // On e5 itself, it could.
        let t = target(&game, &ui, Pointer::Touch, at("e5", 7.0, 7.0), S);
        assert!(t.is_some_and(|t| t.square == sq("e5") && t.may_confirm()));
    }

    #[test]
    fn between_two_similar_candidates_the_tap_is_ambiguous_and_never_confirms() {
        let game = Game::new(Setup::TwoPlayers, Seat::A);
        let mut ui = Interaction::default();
        ui.tap(&game, sq("e2"), true);
        // e2's steps f2 (east: no king step nearer the camp, prior e^0.5) and f3 (north-
        // east: one king step and two corner units nearer, e^3). On their shared edge, 11
        // dp from both centres, f3 clearly.
        let t = target(&game, &ui, Pointer::Touch, at("f2", 0.0, -11.0), S);
        assert_eq!(t.map(|t| (t.square, t.snap)), Some((sq("f3"), Snap::Clear)));
        // 4 dp above f2's centre f3 still wins, but f2 is nearly as likely: a preview only.
        let t = target(&game, &ui, Pointer::Touch, at("f2", 0.0, -4.0), S);
        let Some(t) = t else { panic!("a target") };
        assert_eq!(t.square, sq("f3"), "the likelier: more progress toward p16");
        assert_eq!(t.snap, Snap::Ambiguous { other: sq("f2") });
        assert!(!t.may_confirm());
        // f2's middle is f2's.
        let t = target(&game, &ui, Pointer::Touch, at("f2", 0.0, -3.0), S);
        assert_eq!(t.map(|t| (t.square, t.snap)), Some((sq("f2"), Snap::Clear)));
    }

    #[test]
    fn a_tap_just_off_the_board_snaps_to_an_edge_piece() {
        let game = Game::new(Setup::TwoPlayers, Seat::A);
        let ui = Interaction::default();
        // 4 dp below the board's bottom edge under e1, 5 dp right of its centre.
        let point = at("e1", 5.0, 15.0);
        let t = target(&game, &ui, Pointer::Touch, point, S);
        assert_eq!(t.map(|t| (t.square, t.under)), Some((sq("e1"), None)));
        assert!(t.is_some_and(|t| !t.may_confirm()));
        // A mouse there: nothing, as before.
        assert_eq!(target(&game, &ui, Pointer::Mouse, point, S), None);
    }

    #[test]
    fn rotation_maps_points_through_the_view() {
        let game = Game::new(Setup::TwoPlayers, Seat::A);
        let ui = Interaction::default();
        let mut view = BoardView::default();
        view.set_quarter_turns(2);
        // Turned half round, d3 is shown at display cell (12, 2).
        assert_eq!(view.display_cell(sq("d3")), (12, 2));
        let point = BoardPoint { x: 12.5 * S + 1.0, y: 2.5 * S - 1.0 };
        let t =
            tap_target(&game, &ui, true, &view, Pointer::Touch, point, S, &SnapParams::DEFAULT, &TapMemory::default());
        assert_eq!(t, Some(TapTarget { square: sq("d3"), under: Some(sq("d3")), snap: Snap::Clear, piece: None }));
    }

    #[test]
    fn while_the_player_may_not_act_the_tap_stays_exact() {
        let game = Game::new(Setup::TwoPlayers, Seat::A);
        let ui = Interaction::default();
        let point = at("f2", -6.0, 0.0);
        let t = tap_target(
            &game,
            &ui,
            false,
            &BoardView::default(),
            Pointer::Touch,
            point,
            S,
            &SnapParams::DEFAULT,
            &TapMemory::default(),
        );
        assert_eq!(t, Some(TapTarget { square: sq("f2"), under: Some(sq("f2")), snap: Snap::Exact, piece: None }));
        let nan = BoardPoint { x: f32::NAN, y: 3.0 };
        assert_eq!(target(&game, &ui, Pointer::Touch, nan, S), None);
        assert_eq!(target(&game, &ui, Pointer::Touch, point, f32::NAN), None);
    }
}
