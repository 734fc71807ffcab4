//! A 256-bit set of squares, one bit per square (bit `i` = square index `i`).

use super::square::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub [u64; 4]);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard([0; 4]);
    pub const FULL: Bitboard = Bitboard([u64::MAX; 4]);

    pub const fn from_square(square: Square) -> Bitboard {
        let mut words = [0u64; 4];
        words[square.index() / 64] = 1u64 << (square.index() % 64);
        Bitboard(words)
    }

    pub const fn contains(self, square: Square) -> bool {
        self.0[square.index() / 64] & (1u64 << (square.index() % 64)) != 0
    }

    pub fn insert(&mut self, square: Square) {
        self.0[square.index() / 64] |= 1u64 << (square.index() % 64);
    }

    pub fn remove(&mut self, square: Square) {
        self.0[square.index() / 64] &= !(1u64 << (square.index() % 64));
    }

    pub const fn with(self, square: Square) -> Bitboard {
        let mut words = self.0;
        words[square.index() / 64] |= 1u64 << (square.index() % 64);
        Bitboard(words)
    }

    pub const fn without(self, square: Square) -> Bitboard {
        let mut words = self.0;
        words[square.index() / 64] &= !(1u64 << (square.index() % 64));
        Bitboard(words)
    }

    pub const fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    pub const fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones() + self.0[3].count_ones()
    }

    /// True when every square of `other` is in `self`.
    pub const fn is_superset_of(self, other: Bitboard) -> bool {
        (other.0[0] & !self.0[0]) | (other.0[1] & !self.0[1]) | (other.0[2] & !self.0[2]) | (other.0[3] & !self.0[3])
            == 0
    }

    /// The squares in index order.
    pub fn squares(self) -> Squares {
        Squares(self)
    }

    /// The lowest square, if any.
    pub fn first(self) -> Option<Square> {
        self.squares().next()
    }
}

/// Iterator over the squares of a bitboard, lowest index first. Allocation-free.
pub struct Squares(Bitboard);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        for word in 0..4 {
            let bits = self.0 .0[word];
            if bits != 0 {
                let bit = bits.trailing_zeros();
                self.0 .0[word] = bits & (bits - 1);
                return Some(Square::from_index((word as u32 * 64 + bit) as u8));
            }
        }
        None
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard([self.0[0] & rhs.0[0], self.0[1] & rhs.0[1], self.0[2] & rhs.0[2], self.0[3] & rhs.0[3]])
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard([self.0[0] | rhs.0[0], self.0[1] | rhs.0[1], self.0[2] | rhs.0[2], self.0[3] | rhs.0[3]])
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        *self = *self & rhs;
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        *self = *self | rhs;
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut board = Bitboard::EMPTY;
        for square in iter {
            board.insert(square);
        }
        board
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_iterate() {
        let squares = [0u8, 63, 64, 127, 128, 200, 255].map(Square::from_index);
        let board: Bitboard = squares.iter().copied().collect();
        assert_eq!(board.count(), 7);
        assert_eq!(board.squares().collect::<Vec<_>>(), squares.to_vec());
        assert!(board.contains(Square::from_index(200)));
        assert!(!board.without(Square::from_index(200)).contains(Square::from_index(200)));
        assert!(board.is_superset_of(Bitboard::from_square(Square::from_index(64))));
        assert!(!Bitboard::EMPTY.is_superset_of(board));
        assert_eq!((!board).count(), 249);
    }
}
