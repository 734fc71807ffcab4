//! A position: where every piece stands and who moves; legal moves, routes, the
//! home-leaving duty and wins. Repetition needs the history and lives in `Game`.

use super::bitboard::Bitboard;
use super::jumps::JumpStarts;
use super::moves::{Move, MoveSet, Route};
use super::seat::{Seat, SeatSet};
use super::setup::Setup;
use super::square::Square;
use super::tables::{JUMPS, NEIGHBOURS, ZOBRIST_PIECES, ZOBRIST_TO_MOVE};
use std::fmt;

/// Turns (passes included) a seat takes before the home-leaving duty starts: it applies
/// from the seat's 31st own turn on.
pub const DUTY_FREE_TURNS: u32 = 30;

/// Why a move or route is not legal here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    TooShort,
    NoPieceToMove(Square),
    NotAStepOrJump(Square, Square),
    NothingToJumpOver(Square, Square),
    Occupied(Square),
    LandsTwice(Square),
    BackToStart,
    StepInChain,
    HomeLeavingDuty,
    GameOver,
    PassWithMoves,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::TooShort => f.write_str("a move needs a start and a destination square"),
            IllegalMove::NoPieceToMove(s) => write!(f, "no piece of the seat to move on {s}"),
            IllegalMove::NotAStepOrJump(a, b) => write!(f, "{a} to {b} is neither a step nor a jump"),
            IllegalMove::NothingToJumpOver(a, b) => write!(f, "no piece to jump over between {a} and {b}"),
            IllegalMove::Occupied(s) => write!(f, "{s} is occupied"),
            IllegalMove::LandsTwice(s) => write!(f, "the chain lands on {s} twice"),
            IllegalMove::BackToStart => f.write_str("the chain returns to its start square"),
            IllegalMove::StepInChain => f.write_str("steps and jumps do not mix in one turn"),
            IllegalMove::HomeLeavingDuty => {
                f.write_str("the home-leaving duty applies: a piece must leave the home camp")
            }
            IllegalMove::GameOver => f.write_str("the game is over"),
            IllegalMove::PassWithMoves => f.write_str("a seat may pass only when it has no legal move"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Where every piece stands, the seat to move and the turns taken so far; its legal
/// moves and routes, the home-leaving duty and wins. A small `Copy` value: playing a
/// move gives a new position ([`Position::after`]) or changes this one in place.
///
/// ```rust
/// use halma_rules::{Move, Position, Seat, Setup, Square};
///
/// let start = Position::start(Setup::TwoPlayers, Seat::A);
/// let moves = start.legal_moves();
/// assert_eq!(moves.count(), 40);
///
/// // c3 jumps over d3 to e3: every destination comes with a shortest route.
/// let sq = |name: &str| name.parse::<Square>();
/// let jump = Move { from: sq("c3")?, to: sq("e3")? };
/// assert!(moves.contains(jump));
/// assert_eq!(start.route(jump).map(|route| route.to_string()), Some("c3-e3".to_string()));
///
/// let next = start.after(jump);
/// assert_eq!(next.to_move(), Seat::C);
/// assert_eq!(next.piece_at(sq("e3")?), Some(Seat::A));
/// assert_eq!(next.piece_at(sq("c3")?), None);
/// assert_eq!(next.plies(), 1);
/// assert_eq!(next.winners(), None);
/// # Ok::<(), halma_rules::ParseSquareError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    setup: Setup,
    pieces: [Bitboard; 4],
    occupied: Bitboard,
    to_move: Seat,
    plies: u32,
    hash: u64,
}

impl Position {
    /// The start of `setup` with `first` to move (which must be in play; else the first seat).
    pub fn start(setup: Setup, first: Seat) -> Position {
        let mut pieces = [Bitboard::EMPTY; 4];
        for &seat in setup.seats() {
            pieces[seat.index()] = setup.home_camp(seat);
        }
        let to_move = if setup.has_seat(first) { first } else { setup.seats()[0] };
        Position::from_parts(setup, pieces, to_move, 0)
    }

    /// A position from its parts, as given: HPN parsing checks them before; the Rules
    /// page's diagrams and the tests build positions no game reaches (a lone piece, an
    /// army arrived).
    pub fn from_parts(setup: Setup, pieces: [Bitboard; 4], to_move: Seat, plies: u32) -> Position {
        let occupied = pieces.iter().fold(Bitboard::EMPTY, |all, &p| all | p);
        let mut hash = ZOBRIST_TO_MOVE[to_move.index()];
        for seat in Seat::ALL {
            for square in pieces[seat.index()].squares() {
                hash ^= ZOBRIST_PIECES[seat.index()][square.index()];
            }
        }
        Position { setup, pieces, occupied, to_move, plies, hash }
    }

    pub fn setup(&self) -> Setup {
        self.setup
    }

    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// Turns taken so far by all seats together, passes included.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Zobrist key of the placement and the seat to move (what repetition compares).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The pieces of `seat`'s army.
    pub fn pieces(&self, seat: Seat) -> Bitboard {
        self.pieces[seat.index()]
    }

    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// Whose army stands on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Option<Seat> {
        Seat::ALL.into_iter().find(|seat| self.pieces[seat.index()].contains(square))
    }

    /// True when the placement and the seat to move are the same (what repetition counts).
    pub fn same_placement(&self, other: &Position) -> bool {
        self.hash == other.hash && self.to_move == other.to_move && self.pieces == other.pieces
    }

    /// The seat that moved first, derived from the seat to move and the plies taken.
    pub fn first_seat(&self) -> Seat {
        let seats = self.setup.seats();
        let n = seats.len();
        let index = self.setup.turn_index(self.to_move).unwrap_or(0);
        seats[(index + n - (self.plies as usize % n)) % n]
    }

    /// Own turns `seat` has taken so far (passes included).
    pub fn turns_taken(&self, seat: Seat) -> u32 {
        let seats = self.setup.seats();
        let n = seats.len() as u32;
        let first = self.setup.turn_index(self.first_seat()).unwrap_or(0) as u32;
        let Some(index) = self.setup.turn_index(seat) else { return 0 };
        let offset = (index as u32 + n - first) % n;
        if self.plies > offset {
            (self.plies - offset - 1) / n + 1
        } else {
            0
        }
    }

    /// True when `seat`'s own army fills its whole target camp.
    pub fn has_arrived(&self, seat: Seat) -> bool {
        self.setup.army_size(seat) > 0 && self.pieces(seat).is_superset_of(self.setup.target_camp(seat))
    }

    /// The army the seat to move moves: its own, or its partner's once its own has
    /// arrived in `4p-both`.
    pub fn army_to_move(&self) -> Seat {
        let seat = self.to_move;
        if self.setup == Setup::FourPlayersBothArmies && self.has_arrived(seat) {
            seat.opposite()
        } else {
            seat
        }
    }

    /// The winning seats (one seat, or a team), if the game is won.
    pub fn winners(&self) -> Option<SeatSet> {
        let seats = self.setup.seats();
        match self.setup {
            Setup::TwoPlayers | Setup::ThreePlayers => {
                seats.iter().find(|&&s| self.has_arrived(s)).map(|&s| SeatSet::single(s))
            }
            Setup::FourPlayersOneArmy => {
                seats.iter().find(|&&s| self.has_arrived(s)).map(|&s| SeatSet::team(s, s.opposite()))
            }
            Setup::FourPlayersBothArmies => seats
                .iter()
                .find(|&&s| self.has_arrived(s) && self.has_arrived(s.opposite()))
                .map(|&s| SeatSet::team(s, s.opposite())),
        }
    }

    /// Whether the home-leaving duty binds the seat to move now: from its 31st own turn,
    /// with own pieces at home and at least one legal move carrying one of them out.
    /// Never in a won game: no one has a turn left to restrict.
    pub fn duty_applies(&self) -> bool {
        self.winners().is_none() && self.duty_moves(&JumpStarts::new(self.occupied)).is_some()
    }

    /// The moves the duty allows, when it binds.
    fn duty_moves(&self, jumps: &JumpStarts) -> Option<MoveSet> {
        let seat = self.to_move;
        let home = self.setup.home_camp(seat);
        let at_home = self.pieces(seat) & home;
        if at_home.is_empty() || self.turns_taken(seat) < DUTY_FREE_TURNS || self.army_to_move() != seat {
            return None;
        }
        let mut allowed = MoveSet::new();
        for from in at_home.squares() {
            allowed.push(from, (self.step_destinations(from) | jumps.landings(from)) & !home);
        }
        (!allowed.is_empty()).then_some(allowed)
    }

    /// Squares one step away from `from` that are empty.
    #[inline]
    pub fn step_destinations(&self, from: Square) -> Bitboard {
        NEIGHBOURS[from.index()] & !self.occupied
    }

    /// Squares a jump chain from `from` can end on (the start square counts as empty
    /// and is never a landing). No allocation.
    #[inline]
    pub fn jump_destinations(&self, from: Square) -> Bitboard {
        JumpStarts::new(self.occupied.without(from)).landings(from)
    }

    /// Every destination of the piece on `from` by the movement rules alone (no duty).
    #[inline]
    pub fn destinations_of(&self, from: Square) -> Bitboard {
        self.step_destinations(from) | self.jump_destinations(from)
    }

    /// The legal moves of the seat to move: movement rules and the home-leaving duty.
    /// Empty when the game is won or when the seat must pass.
    pub fn legal_moves(&self) -> MoveSet {
        if self.winners().is_some() {
            return MoveSet::new();
        }
        self.legal_moves_ignoring_result()
    }

    /// As `legal_moves`, without first checking for a win (callers that know it is ongoing).
    pub fn legal_moves_ignoring_result(&self) -> MoveSet {
        let jumps = JumpStarts::new(self.occupied);
        if let Some(allowed) = self.duty_moves(&jumps) {
            return allowed;
        }
        let mut moves = MoveSet::new();
        for from in self.pieces(self.army_to_move()).squares() {
            moves.push(from, self.step_destinations(from) | jumps.landings(from));
        }
        moves
    }

    /// True when the seat to move has no legal move and must pass (game not won).
    pub fn must_pass(&self) -> bool {
        self.winners().is_none() && self.legal_moves_ignoring_result().is_empty()
    }

    /// Plays `mv` without checking it (the caller took it from `legal_moves`).
    pub fn play_unchecked(&mut self, mv: Move) {
        let army = self.army_to_move().index();
        self.pieces[army].remove(mv.from);
        self.pieces[army].insert(mv.to);
        self.occupied.remove(mv.from);
        self.occupied.insert(mv.to);
        self.hash ^= ZOBRIST_PIECES[army][mv.from.index()] ^ ZOBRIST_PIECES[army][mv.to.index()];
        self.advance_turn();
    }

    /// The seat to move passes.
    pub fn pass_unchecked(&mut self) {
        self.advance_turn();
    }

    fn advance_turn(&mut self) {
        let next = self.setup.next_seat(self.to_move);
        self.hash ^= ZOBRIST_TO_MOVE[self.to_move.index()] ^ ZOBRIST_TO_MOVE[next.index()];
        self.to_move = next;
        self.plies += 1;
    }

    /// The position after `mv` (unchecked).
    pub fn after(&self, mv: Move) -> Position {
        let mut next = *self;
        next.play_unchecked(mv);
        next
    }

    /// A shortest route for a legal move (a step, or the shortest jump chain). `None`
    /// when `to` is not reachable from `from` by the movement rules.
    pub fn route(&self, mv: Move) -> Option<Route> {
        if self.step_destinations(mv.from).contains(mv.to) {
            return Some(Route::new(vec![mv.from, mv.to]));
        }
        let occupied = self.occupied.without(mv.from);
        let mut parent = [u8::MAX; 256];
        let mut reached = Bitboard::from_square(mv.from);
        let mut queue = [0u8; 256];
        let (mut head, mut tail) = (0usize, 1usize);
        queue[0] = mv.from.index() as u8;
        while head < tail {
            let at = queue[head];
            head += 1;
            let list = &JUMPS[at as usize];
            for &(over, land) in &list.jumps[..list.len as usize] {
                let (over_sq, land_sq) = (Square::from_index(over), Square::from_index(land));
                if occupied.contains(over_sq) && !occupied.contains(land_sq) && !reached.contains(land_sq) {
                    reached.insert(land_sq);
                    parent[land as usize] = at;
                    if land_sq == mv.to {
                        let mut squares = vec![mv.to];
                        let mut cursor = land;
                        while Square::from_index(cursor) != mv.from {
                            cursor = parent[cursor as usize];
                            squares.push(Square::from_index(cursor));
                        }
                        squares.reverse();
                        return Some(Route::new(squares));
                    }
                    queue[tail] = land;
                    tail += 1;
                }
            }
        }
        None
    }

    /// Checks a whole route (any legal route, not only the shortest) against the
    /// movement rules and the duty, and returns its move.
    pub fn check_route(&self, squares: &[Square]) -> Result<Move, IllegalMove> {
        if self.winners().is_some() {
            return Err(IllegalMove::GameOver);
        }
        let (&from, rest) = squares.split_first().ok_or(IllegalMove::TooShort)?;
        if rest.is_empty() {
            return Err(IllegalMove::TooShort);
        }
        if !self.pieces(self.army_to_move()).contains(from) {
            return Err(IllegalMove::NoPieceToMove(from));
        }
        let to = squares[squares.len() - 1];
        if NEIGHBOURS[from.index()].contains(rest[0]) {
            if rest.len() > 1 {
                return Err(IllegalMove::StepInChain);
            }
            if self.occupied.contains(to) {
                return Err(IllegalMove::Occupied(to));
            }
        } else {
            self.follow_jumps(from, rest)?;
        }
        let mv = Move { from, to };
        if !self.legal_moves_ignoring_result().contains(mv) {
            return Err(IllegalMove::HomeLeavingDuty);
        }
        Ok(mv)
    }

    /// Follows a jump chain of the piece on `from` through `landings`, checking every
    /// hop. Returns the last landing (`from` when there is none) and the squares landed on.
    fn follow_jumps(&self, from: Square, landings: &[Square]) -> Result<(Square, Bitboard), IllegalMove> {
        let mut landed = Bitboard::EMPTY;
        let mut at = from;
        for &next in landings {
            if !self.jump_extensions_from(from, at, landed).contains(next) {
                return Err(self.explain_bad_hop(from, at, next, landed));
            }
            landed.insert(next);
            at = next;
        }
        Ok((at, landed))
    }

    fn explain_bad_hop(&self, from: Square, at: Square, next: Square, landed: Bitboard) -> IllegalMove {
        let (dc, dr) = (next.column() - at.column(), next.row() - at.row());
        if dc.abs().max(dr.abs()) == 1 {
            return IllegalMove::StepInChain;
        }
        if !(dc == 0 || dc.abs() == 2) || !(dr == 0 || dr.abs() == 2) {
            return IllegalMove::NotAStepOrJump(at, next);
        }
        let over = at.offset(dc / 2, dr / 2).unwrap_or(at);
        if next == from {
            IllegalMove::BackToStart
        } else if landed.contains(next) {
            IllegalMove::LandsTwice(next)
        } else if !self.occupied.without(from).contains(over) {
            IllegalMove::NothingToJumpOver(at, next)
        } else {
            IllegalMove::Occupied(next)
        }
    }

    fn jump_extensions_from(&self, from: Square, at: Square, landed: Bitboard) -> Bitboard {
        let occupied = self.occupied.without(from);
        let mut result = Bitboard::EMPTY;
        let list = &JUMPS[at.index()];
        for &(over, land) in &list.jumps[..list.len as usize] {
            let (over, land) = (Square::from_index(over), Square::from_index(land));
            if occupied.contains(over) && !occupied.contains(land) && land != from && !landed.contains(land) {
                result.insert(land);
            }
        }
        result
    }

    /// For a partial jump chain (`route` = start square then the landings so far), the
    /// squares one more jump can land on. Whether stopping there is a legal move is
    /// `legal_moves().contains(...)` (the duty may forbid some ends).
    pub fn jump_extensions(&self, route: &[Square]) -> Result<Bitboard, IllegalMove> {
        let (&from, landings) = route.split_first().ok_or(IllegalMove::TooShort)?;
        if !self.pieces(self.army_to_move()).contains(from) {
            return Err(IllegalMove::NoPieceToMove(from));
        }
        let (at, landed) = self.follow_jumps(from, landings)?;
        Ok(self.jump_extensions_from(from, at, landed))
    }
}
