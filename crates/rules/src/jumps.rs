//! Jump chains for move generation, on the board's four colour lattices.
//!
//! A jump moves a piece two columns and/or two rows, so every landing of a chain keeps
//! the parity of its start square's column and row: a chain never leaves one of four
//! lattices of 8 × 8 squares (column parity × row parity). Each lattice fits one `u64`
//! (bit `8 × (row / 2) + column / 2`), so a whole chain is a flood fill over single
//! words, and a jump in a given direction is one rotation of a word.

use super::bitboard::Bitboard;
use super::square::Square;
use super::tables::DIRECTIONS;

/// The lattice of a square: column parity + 2 × row parity.
#[inline(always)]
const fn class_of(index: usize) -> usize {
    (index & 1) | ((index >> 3) & 2)
}

/// The square's bit in its lattice word.
#[inline(always)]
const fn lattice_bit(index: usize) -> u32 {
    (((index >> 5) << 3) | ((index & 15) >> 1)) as u32
}

/// Splits a 16-bit row, in every 16-bit lane of `x` at once: even columns to the low
/// byte, odd columns to the high byte (Hacker's Delight's unshuffle, three steps).
#[inline(always)]
const fn unshuffle_rows(mut x: u64) -> u64 {
    let mut t = (x ^ (x >> 1)) & 0x2222_2222_2222_2222;
    x ^= t ^ (t << 1);
    t = (x ^ (x >> 2)) & 0x0C0C_0C0C_0C0C_0C0C;
    x ^= t ^ (t << 2);
    t = (x ^ (x >> 4)) & 0x00F0_00F0_00F0_00F0;
    x ^ t ^ (t << 4)
}

/// The four lattice words of a board.
#[inline(always)]
pub(super) fn lattices(board: Bitboard) -> [u64; 4] {
    let mut out = [0u64; 4];
    let mut word = 0;
    while word < 4 {
        // Rows 4w..4w+3, one per 16-bit lane, each split into even and odd columns.
        let x = unshuffle_rows(board.0[word]);
        let mut class = 0;
        while class < 4 {
            let (column_parity, row_parity) = (class & 1, class >> 1);
            let y = x >> (8 * column_parity + 16 * row_parity);
            // Lattice rows 2w (lane row_parity) and 2w + 1 (lane row_parity + 2).
            let pair = (y & 0xFF) | ((y >> 24) & 0xFF00);
            out[class] |= pair << (16 * word);
            class += 1;
        }
        word += 1;
    }
    out
}

const fn build_spread() -> [u16; 256] {
    let mut table = [0u16; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte] |= 1 << (2 * bit);
            }
            bit += 1;
        }
        byte += 1;
    }
    table
}

/// A lattice row's 8 bits spread to the even bits of a board row.
static SPREAD: [u16; 256] = build_spread();

/// The squares of lattice `class` whose bits are set in `lattice`.
#[inline]
fn to_board(class: usize, mut lattice: u64) -> Bitboard {
    let (column_parity, row_parity) = (class & 1, class >> 1);
    let mut words = [0u64; 4];
    while lattice != 0 {
        let lattice_row = lattice.trailing_zeros() as usize / 8;
        let byte = (lattice >> (8 * lattice_row)) & 0xFF;
        lattice &= !(0xFF << (8 * lattice_row));
        let row = 2 * lattice_row + row_parity;
        words[row / 4] |= u64::from(SPREAD[byte as usize]) << (16 * (row % 4) + column_parity);
    }
    Bitboard(words)
}

/// For each direction: how far a landing moves a lattice bit (rotations count mod 64).
const LAND_SHIFT: [u32; 8] = build_land_shifts();

const fn build_land_shifts() -> [u32; 8] {
    let mut table = [0u32; 8];
    let mut d = 0;
    while d < 8 {
        let (dc, dr) = DIRECTIONS[d];
        table[d] = ((dc + 8 * dr) & 63) as u32;
        d += 1;
    }
    table
}

/// For each lattice and direction: the lattice of the jumped-over square and how far its
/// bit is from the start's (mod 64).
const OVER: [[(usize, u32); 8]; 4] = build_over();

const fn build_over() -> [[(usize, u32); 8]; 4] {
    let mut table = [[(0usize, 0u32); 8]; 4];
    let mut class = 0;
    while class < 4 {
        let (column_parity, row_parity) = ((class & 1) as i32, (class >> 1) as i32);
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = DIRECTIONS[d];
            let over_class = class ^ ((dc != 0) as usize) ^ (((dr != 0) as usize) << 1);
            // The over square's lattice column is (2i + parity + dc) / 2, rounded down.
            let (fi, fj) = ((column_parity + dc).div_euclid(2), (row_parity + dr).div_euclid(2));
            table[class][d] = (over_class, ((fi + 8 * fj) & 63) as u32);
            d += 1;
        }
        class += 1;
    }
    table
}

/// For each direction: the lattice squares whose landing that way stays on the board.
/// Whenever the jumped-over square's lattice bit is offset too, it is offset the same way,
/// so this mask also keeps it on the board: rotations never wrap around an edge.
const LAND_ON_BOARD: [u64; 8] = build_on_board();

const fn build_on_board() -> [u64; 8] {
    let mut table = [0u64; 8];
    let mut d = 0;
    while d < 8 {
        let (dc, dr) = DIRECTIONS[d];
        let mut bit = 0;
        while bit < 64 {
            let (i, j) = (bit % 8 + dc, bit / 8 + dr);
            if i >= 0 && i < 8 && j >= 0 && j < 8 {
                table[d] |= 1 << bit;
            }
            bit += 1;
        }
        d += 1;
    }
    table
}

/// Where a jump can start in one placement, per lattice and direction (the order of
/// `DIRECTIONS`): the neighbour that way holds a piece and the square behind it is empty.
///
/// Computed once per move generation and shared by every piece, with the moving piece
/// counted as occupying its start square. That is exact although the rules count the
/// start square as empty: every landing of a chain is an even number of columns and
/// rows away from its start, so no chain can ever jump over its own start square, and
/// landing there is forbidden anyway.
#[derive(Clone, Copy)]
pub(super) struct JumpStarts {
    starts: [[u64; 8]; 4],
    /// Per lattice, the union of its directions: squares with at least one jump.
    any: [u64; 4],
}

impl JumpStarts {
    #[inline]
    pub(super) fn new(occupied: Bitboard) -> JumpStarts {
        let occupied = lattices(occupied);
        let mut starts = [[0u64; 8]; 4];
        let mut any = [0u64; 4];
        for class in 0..4 {
            let empty = !occupied[class];
            for d in 0..8 {
                let (over_class, over_shift) = OVER[class][d];
                starts[class][d] = occupied[over_class].rotate_right(over_shift)
                    & empty.rotate_right(LAND_SHIFT[d])
                    & LAND_ON_BOARD[d];
                any[class] |= starts[class][d];
            }
        }
        JumpStarts { starts, any }
    }

    /// Every square a jump chain from `from` can stop on: a flood fill over the lattice
    /// of `from`, one rotation per direction and step of the chain.
    #[inline]
    pub(super) fn landings(&self, from: Square) -> Bitboard {
        let index = from.index();
        let class = class_of(index);
        let start = 1u64 << lattice_bit(index);
        if self.any[class] & start == 0 {
            return Bitboard::EMPTY;
        }
        let starts = &self.starts[class];
        let mut reached = start;
        let mut frontier = start;
        loop {
            let mut next = 0;
            for d in 0..8 {
                next |= (frontier & starts[d]).rotate_left(LAND_SHIFT[d]);
            }
            next &= !reached;
            if next == 0 {
                break;
            }
            reached |= next;
            frontier = next;
        }
        to_board(class, reached & !start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lattices_split_the_board_by_parity_and_back() {
        let mut state = 0x1234_5678_9ABC_DEF0u64;
        for _ in 0..200 {
            let mut words = [0u64; 4];
            for word in &mut words {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                *word = state ^ (state >> 29);
            }
            let board = Bitboard(words);
            let split = lattices(board);
            for index in 0..256 {
                let bit = (split[class_of(index)] >> lattice_bit(index)) & 1 == 1;
                assert_eq!(bit, board.contains(Square::from_index(index as u8)), "square {index}");
            }
            let whole = (0..4).fold(Bitboard::EMPTY, |all, class| all | to_board(class, split[class]));
            assert_eq!(whole, board);
        }
    }
}
