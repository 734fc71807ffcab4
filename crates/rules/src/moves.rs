//! Moves and routes: what a turn plays, the squares it passes through, and the set
//! of legal moves of a position.

use super::bitboard::Bitboard;
use super::setup::MAX_ARMY;
use super::square::Square;
use super::tables::NEIGHBOURS;
use std::fmt;

/// A move as the game knows it: which piece goes where. The route is kept separately.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

/// The route of a move: the start square, then every landing (one for a step).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Route(Vec<Square>);

impl Route {
    /// A route from its squares; `Position::check_route` says whether it is legal.
    pub fn new(squares: Vec<Square>) -> Route {
        Route(squares)
    }

    pub fn squares(&self) -> &[Square] {
        &self.0
    }

    /// The piece's start square.
    pub fn from(&self) -> Square {
        self.0.first().copied().unwrap_or(Square::from_index(0))
    }

    /// The final landing square.
    pub fn to(&self) -> Square {
        self.0.last().copied().unwrap_or(Square::from_index(0))
    }

    pub fn as_move(&self) -> Move {
        Move { from: self.from(), to: self.to() }
    }

    /// True for a one-square step (the only route whose squares are neighbours).
    pub fn is_step(&self) -> bool {
        self.0.len() == 2 && NEIGHBOURS[self.from().index()].contains(self.to())
    }
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, square) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("-")?;
            }
            write!(f, "{square}")?;
        }
        Ok(())
    }
}

/// The legal moves of a position, per piece: no heap allocation.
#[derive(Clone, Copy)]
pub struct MoveSet {
    pieces: [(Square, Bitboard); MAX_ARMY],
    len: usize,
}

impl Default for MoveSet {
    fn default() -> MoveSet {
        MoveSet::new()
    }
}

impl MoveSet {
    /// No moves.
    pub const fn new() -> MoveSet {
        MoveSet { pieces: [(Square::from_index(0), Bitboard::EMPTY); MAX_ARMY], len: 0 }
    }

    /// Adds a piece with its destinations (none: nothing is added).
    pub(super) fn push(&mut self, from: Square, destinations: Bitboard) {
        if !destinations.is_empty() && self.len < MAX_ARMY {
            self.pieces[self.len] = (from, destinations);
            self.len += 1;
        }
    }

    /// Each movable piece with the set of its destinations, pieces in square order.
    pub fn pieces(&self) -> &[(Square, Bitboard)] {
        &self.pieces[..self.len]
    }

    /// How many moves (distinct piece–destination pairs).
    pub fn count(&self) -> u64 {
        self.pieces().iter().map(|(_, d)| u64::from(d.count())).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn destinations(&self, from: Square) -> Bitboard {
        self.pieces().iter().find(|(s, _)| *s == from).map_or(Bitboard::EMPTY, |(_, d)| *d)
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.destinations(mv.from).contains(mv.to)
    }

    /// Every move, sorted by origin then destination square index.
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.pieces().iter().flat_map(|&(from, destinations)| destinations.squares().map(move |to| Move { from, to }))
    }
}
