//! A whole game: history with undo/redo, results (wins, repetition, agreement) and
//! the draw-offer vote. Its save format (and its serde impls) are in `save.rs`.

use super::moves::{Move, MoveSet, Route};
use super::notation::{parse_move, MoveText, NotationError};
use super::position::{IllegalMove, Position};
use super::seat::{Seat, SeatSet};
use super::setup::Setup;
use super::square::Square;
use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};

/// The most actions (moves and passes) one game holds, its history and redo list
/// together; playing past it is [`GameError::TooManyActions`], and saves, records and
/// the engine's `position … moves` refuse more. Real games are a few hundred actions and
/// the arena adjudicates at 1,000 by default; 20,000 is twice the 10,000-action game the
/// replay benchmark measures, yet a game at the cap still fits a record or an engine
/// protocol line (1 MiB each) at up to 50 bytes an action, and bounds what a hostile file
/// costs to load (a few MiB, well under a second).
pub const MAX_ACTIONS: usize = 20_000;

/// One real action: a move with the route chosen for it, or a pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Move(Route),
    Pass,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(route) => write!(f, "{route}"),
            Action::Pass => f.write_str("pass"),
        }
    }
}

/// Why the game ended in a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// The same position with the same seat to move occurred a third time.
    Repetition,
    /// Every seat accepted a draw offer.
    Agreement,
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ongoing,
    /// The winning seat, or both seats of the winning team.
    Win(SeatSet),
    Draw(DrawReason),
}

impl Outcome {
    pub fn is_over(self) -> bool {
        self != Outcome::Ongoing
    }
}

/// A draw offer waiting for votes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawOffer {
    pub offerer: Seat,
    /// Seats that accepted so far.
    pub accepted: SeatSet,
    /// The seat whose answer is awaited.
    pub awaiting: Seat,
}

/// What one vote led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteResult {
    /// Accepted; this seat answers next.
    Next(Seat),
    /// Everyone accepted: the game is drawn.
    Agreed,
    /// Refused: the offer is gone and the offerer's turn goes on.
    Refused,
}

/// Why an action on the game was refused. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    Illegal(IllegalMove),
    Notation(NotationError),
    GameOver,
    OfferPending,
    NoOffer,
    AlreadyOffered,
    NotYourVote {
        expected: Seat,
    },
    /// The game already holds [`MAX_ACTIONS`] actions.
    TooManyActions {
        limit: usize,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Illegal(why) => write!(f, "illegal move: {why}"),
            GameError::Notation(why) => write!(f, "{why}"),
            GameError::GameOver => f.write_str("the game is over"),
            GameError::OfferPending => f.write_str("a draw offer is waiting for answers"),
            GameError::NoOffer => f.write_str("no draw offer is pending"),
            GameError::AlreadyOffered => f.write_str("a draw was already offered this turn"),
            GameError::NotYourVote { expected } => write!(f, "seat {expected} answers the offer now"),
            GameError::TooManyActions { limit } => {
                write!(f, "the game already holds the most actions allowed ({limit})")
            }
        }
    }
}

impl std::error::Error for GameError {}

impl From<IllegalMove> for GameError {
    fn from(why: IllegalMove) -> GameError {
        GameError::Illegal(why)
    }
}

impl From<NotationError> for GameError {
    fn from(why: NotationError) -> GameError {
        GameError::Notation(why)
    }
}

/// A game from its start position to now, with what can be redone: history,
/// results (wins, threefold repetition, agreed draws) and the draw-offer vote.
///
/// ```rust
/// use halma_rules::{Action, Game, GameError, IllegalMove, Outcome, Seat, Setup};
///
/// let mut game = Game::new(Setup::TwoPlayers, Seat::A);
/// assert_eq!(game.legal_moves().count(), 40);
/// assert_eq!(game.perft(2), 1600);
///
/// game.play_text("c3-e3")?;
/// assert_eq!(game.to_move(), Seat::C);
/// assert_eq!(game.history().len(), 1);
/// assert_eq!(game.history()[0].to_string(), "c3-e3");
///
/// // An illegal move is refused and changes nothing.
/// assert_eq!(game.play_text("a1-a2"), Err(GameError::Illegal(IllegalMove::NoPieceToMove("a1".parse()?))));
/// assert_eq!(game.history().len(), 1);
///
/// assert!(game.undo());
/// assert_eq!(game.redo_list().collect::<Vec<&Action>>().len(), 1);
/// assert!(game.redo());
/// assert_eq!(game.outcome(), Outcome::Ongoing);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    // The fields are visible to the save format (`save.rs`), which writes and checks them.
    /// `positions[0]` is the start; `positions[i + 1]` follows `actions[i]`.
    positions: Vec<Position>,
    /// How often each placement of `positions` occurs, kept with them.
    occurrences: Occurrences,
    pub(super) actions: Vec<Action>,
    /// Undone actions, the next to redo last.
    pub(super) redo: Vec<Action>,
    pub(super) offer: Option<DrawOffer>,
    pub(super) offered_this_turn: bool,
    pub(super) agreed_draw: bool,
}

impl Game {
    /// A new game of `setup` with `first` to move.
    pub fn new(setup: Setup, first: Seat) -> Game {
        Game::from_position(Position::start(setup, first))
    }

    /// A game starting at any position (e.g. from HPN).
    pub fn from_position(start: Position) -> Game {
        Game {
            positions: vec![start],
            occurrences: Occurrences::of(&start),
            actions: Vec::new(),
            redo: Vec::new(),
            offer: None,
            offered_this_turn: false,
            agreed_draw: false,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    pub fn start_position(&self) -> &Position {
        &self.positions[0]
    }

    pub fn setup(&self) -> Setup {
        self.position().setup()
    }

    /// The seat that moved first in this game.
    pub fn first_seat(&self) -> Seat {
        self.start_position().first_seat()
    }

    pub fn to_move(&self) -> Seat {
        self.position().to_move()
    }

    /// The actions played, oldest first.
    pub fn history(&self) -> &[Action] {
        &self.actions
    }

    /// The seat that played `history()[index]`.
    pub fn actor(&self, index: usize) -> Seat {
        self.positions.get(index).map_or(Seat::A, Position::to_move)
    }

    /// The position before `history()[index]`.
    pub fn position_before(&self, index: usize) -> Option<&Position> {
        self.positions.get(index)
    }

    /// Actions that redo would play again, the next one first.
    pub fn redo_list(&self) -> impl Iterator<Item = &Action> {
        self.redo.iter().rev()
    }

    /// How many times the current placement (with the same seat to move) has occurred.
    pub fn repetition_count(&self) -> usize {
        self.occurrences.count(self.position()) as usize
    }

    pub fn outcome(&self) -> Outcome {
        if self.agreed_draw {
            return Outcome::Draw(DrawReason::Agreement);
        }
        if let Some(winners) = self.position().winners() {
            return Outcome::Win(winners);
        }
        if self.repetition_count() >= 3 {
            return Outcome::Draw(DrawReason::Repetition);
        }
        Outcome::Ongoing
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_over()
    }

    /// Legal moves of the seat to move (none once the game is over).
    pub fn legal_moves(&self) -> MoveSet {
        if self.is_over() {
            return MoveSet::new();
        }
        self.position().legal_moves_ignoring_result()
    }

    /// True when the seat to move has no legal move and must pass.
    pub fn must_pass(&self) -> bool {
        !self.is_over() && self.position().legal_moves_ignoring_result().is_empty()
    }

    fn check_can_act(&self) -> Result<(), GameError> {
        if self.offer.is_some() {
            return Err(GameError::OfferPending);
        }
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        Ok(())
    }

    /// Whether one more action may be played: a game holds at most [`MAX_ACTIONS`].
    fn check_room(&self) -> Result<(), GameError> {
        if self.actions.len() >= MAX_ACTIONS {
            return Err(GameError::TooManyActions { limit: MAX_ACTIONS });
        }
        Ok(())
    }

    fn push(&mut self, action: Action, next: Position) {
        self.actions.push(action);
        self.positions.push(next);
        self.occurrences.add(&next);
        self.offered_this_turn = false;
    }

    /// Plays a move given by its whole route (any legal route). Drops the redo list.
    pub fn play_route(&mut self, squares: &[Square]) -> Result<Move, GameError> {
        self.check_can_act()?;
        self.check_room()?;
        let mv = self.position().check_route(squares)?;
        let next = self.position().after(mv);
        self.push(Action::Move(Route::new(squares.to_vec())), next);
        self.redo.clear();
        Ok(mv)
    }

    /// Plays a move by piece and destination, with its shortest route.
    pub fn play_move(&mut self, mv: Move) -> Result<Route, GameError> {
        self.check_can_act()?;
        self.check_room()?;
        if !self.position().legal_moves_ignoring_result().contains(mv) {
            let why = match self.position().route(mv) {
                Some(_) if self.position().pieces(self.position().army_to_move()).contains(mv.from) => {
                    IllegalMove::HomeLeavingDuty
                }
                _ => IllegalMove::NotAStepOrJump(mv.from, mv.to),
            };
            return Err(GameError::Illegal(why));
        }
        let route = self.position().route(mv).ok_or(GameError::Illegal(IllegalMove::NotAStepOrJump(mv.from, mv.to)))?;
        let next = self.position().after(mv);
        self.push(Action::Move(route.clone()), next);
        self.redo.clear();
        Ok(route)
    }

    /// The seat to move passes; allowed only when it has no legal move.
    pub fn pass(&mut self) -> Result<(), GameError> {
        self.check_can_act()?;
        self.check_room()?;
        if !self.position().legal_moves_ignoring_result().is_empty() {
            return Err(GameError::Illegal(IllegalMove::PassWithMoves));
        }
        let mut next = *self.position();
        next.pass_unchecked();
        self.push(Action::Pass, next);
        self.redo.clear();
        Ok(())
    }

    /// Plays an action (a move with its route, or a pass).
    pub fn play_action(&mut self, action: &Action) -> Result<(), GameError> {
        match action {
            Action::Move(route) => self.play_route(route.squares()).map(|_| ()),
            Action::Pass => self.pass(),
        }
    }

    /// Plays a move written in notation (`c3-e5-g5`, `pass`).
    pub fn play_text(&mut self, text: &str) -> Result<(), GameError> {
        match parse_move(text)? {
            MoveText::Pass => self.pass(),
            MoveText::Route(squares) => self.play_route(&squares).map(|_| ()),
        }
    }

    /// Plays the passes of seats that have no legal move, so that the seat to move can
    /// move (or the game is over). Returns how many passes were played.
    pub fn play_forced_passes(&mut self) -> usize {
        let mut passes = 0;
        // Every seat passing in a row would repeat the position; the bound is a safeguard.
        while passes < 8 && self.offer.is_none() && self.must_pass() {
            if self.pass().is_err() {
                break;
            }
            passes += 1;
        }
        passes
    }

    pub fn can_undo(&self) -> bool {
        !self.actions.is_empty() || self.agreed_draw || self.offer.is_some()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty() && !self.is_over() && self.offer.is_none()
    }

    /// Takes back the last real action (and reopens a finished game). A pending offer
    /// is withdrawn; an agreed draw is cancelled with the action before it.
    pub fn undo(&mut self) -> bool {
        let had_votes = self.offer.take().is_some() | std::mem::take(&mut self.agreed_draw);
        self.offered_this_turn = false;
        match self.actions.pop() {
            Some(action) => {
                if let Some(last) = self.positions.pop() {
                    self.occurrences.remove(&last);
                }
                self.redo.push(action);
                true
            }
            None => had_votes,
        }
    }

    /// Goes back to just before the last action of any of `seats` (e.g. the human
    /// seats in a game against the computer): the actions after it go too. Does
    /// nothing when none of `seats` has acted.
    pub fn undo_for(&mut self, seats: SeatSet) -> bool {
        let Some(last) = (0..self.actions.len()).rev().find(|&i| seats.contains(self.actor(i))) else {
            return false;
        };
        while self.actions.len() > last {
            self.undo();
        }
        true
    }

    /// Plays the last undone action again.
    pub fn redo(&mut self) -> bool {
        if !self.can_redo() {
            return false;
        }
        let Some(action) = self.redo.pop() else { return false };
        let redo = std::mem::take(&mut self.redo);
        let played = self.play_action(&action).is_ok();
        self.redo = redo;
        if !played {
            self.redo.push(action);
        }
        played
    }

    /// The offer waiting for votes, if any.
    pub fn pending_offer(&self) -> Option<DrawOffer> {
        self.offer
    }

    /// True when the seat to move may offer a draw now.
    pub fn can_offer_draw(&self) -> bool {
        self.check_can_act().is_ok() && !self.offered_this_turn
    }

    /// The seat to move offers a draw (at most once per turn). Votes follow in turn order.
    pub fn offer_draw(&mut self) -> Result<DrawOffer, GameError> {
        self.check_can_act()?;
        if self.offered_this_turn {
            return Err(GameError::AlreadyOffered);
        }
        let offerer = self.to_move();
        let offer = DrawOffer { offerer, accepted: SeatSet::EMPTY, awaiting: self.setup().next_seat(offerer) };
        self.offer = Some(offer);
        self.offered_this_turn = true;
        Ok(offer)
    }

    /// `seat` answers the pending offer. Changes no position, count or history.
    pub fn answer_draw(&mut self, seat: Seat, accept: bool) -> Result<VoteResult, GameError> {
        let Some(mut offer) = self.offer else { return Err(GameError::NoOffer) };
        if seat != offer.awaiting {
            return Err(GameError::NotYourVote { expected: offer.awaiting });
        }
        if !accept {
            self.offer = None;
            return Ok(VoteResult::Refused);
        }
        offer.accepted.insert(seat);
        let next = self.setup().next_seat(seat);
        if next == offer.offerer {
            self.offer = None;
            self.agreed_draw = true;
            return Ok(VoteResult::Agreed);
        }
        offer.awaiting = next;
        self.offer = Some(offer);
        Ok(VoteResult::Next(next))
    }

    /// Counts move sequences of `depth` moves from here (a pass is one move; a finished
    /// game, including a repetition reached on the way, has none). Bulk-counts the last ply.
    pub fn perft(&self, depth: u32) -> u64 {
        if self.is_over() {
            return u64::from(depth == 0);
        }
        perft_from(*self.position(), &self.occurrences, &mut Vec::new(), depth)
    }
}

/// A placement and the seat to move, as repetition compares them: hashed by its Zobrist
/// key, equal only when the pieces stand the same, so a key collision is never a repetition.
#[derive(Clone, Copy, Debug)]
struct Placement(Position);

impl PartialEq for Placement {
    fn eq(&self, other: &Placement) -> bool {
        self.0.same_placement(&other.0)
    }
}

impl Eq for Placement {}

impl Hash for Placement {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.hash());
    }
}

/// How many times each placement occurs in a line of positions (a game's, or a perft
/// line's): threefold repetition is one look-up, not a scan of the history.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Occurrences(HashMap<Placement, u32>);

impl Occurrences {
    /// A line holding `start` alone.
    fn of(start: &Position) -> Occurrences {
        let mut occurrences = Occurrences::default();
        occurrences.add(start);
        occurrences
    }

    fn add(&mut self, position: &Position) {
        *self.0.entry(Placement(*position)).or_insert(0) += 1;
    }

    /// Forgets one occurrence of `position` (the last of the line, taken back).
    fn remove(&mut self, position: &Position) {
        let key = Placement(*position);
        if let Some(count) = self.0.get_mut(&key) {
            *count -= 1;
            if *count == 0 {
                self.0.remove(&key);
            }
        }
    }

    fn count(&self, position: &Position) -> u32 {
        self.0.get(&Placement(*position)).copied().unwrap_or(0)
    }
}

/// Counts the move sequences of `depth` plies from `position`, the last of `path`
/// (the plies played since the game's current position, at most perft's depth):
/// repetition counts the game's occurrences and those on the path.
fn perft_from(position: Position, game: &Occurrences, path: &mut Vec<Position>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if position.winners().is_some() {
        return 0;
    }
    let on_path = path.iter().filter(|p| p.same_placement(&position)).count();
    if game.count(&position) as usize + on_path >= 3 {
        return 0;
    }
    let moves = position.legal_moves_ignoring_result();
    if moves.is_empty() {
        let mut next = position;
        next.pass_unchecked();
        return perft_child(next, game, path, depth - 1);
    }
    if depth == 1 {
        return moves.count();
    }
    moves.iter().map(|mv| perft_child(position.after(mv), game, path, depth - 1)).sum()
}

/// `perft_from` one ply further down the path.
fn perft_child(next: Position, game: &Occurrences, path: &mut Vec<Position>, depth: u32) -> u64 {
    path.push(next);
    let count = perft_from(next, game, path, depth);
    path.pop();
    count
}
