//! Tables computed at compile time: neighbours, jumps and Zobrist keys.

use super::bitboard::Bitboard;

/// The 8 directions as (column, row) deltas.
pub const DIRECTIONS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

const fn on_board(column: i32, row: i32) -> bool {
    column >= 0 && column < 16 && row >= 0 && row < 16
}

const fn build_neighbours() -> [Bitboard; 256] {
    let mut table = [Bitboard::EMPTY; 256];
    let mut square = 0;
    while square < 256 {
        let (column, row) = ((square % 16) as i32, (square / 16) as i32);
        let mut words = [0u64; 4];
        let mut d = 0;
        while d < 8 {
            let (c, r) = (column + DIRECTIONS[d].0, row + DIRECTIONS[d].1);
            if on_board(c, r) {
                let index = (r * 16 + c) as usize;
                words[index / 64] |= 1u64 << (index % 64);
            }
            d += 1;
        }
        table[square] = Bitboard(words);
        square += 1;
    }
    table
}

/// The squares one step away from each square.
pub static NEIGHBOURS: [Bitboard; 256] = build_neighbours();

/// For one square, the jumps that stay on the board: (jumped-over square, landing square).
#[derive(Clone, Copy)]
pub struct JumpList {
    pub len: u8,
    pub jumps: [(u8, u8); 8],
}

const fn build_jumps() -> [JumpList; 256] {
    let mut table = [JumpList { len: 0, jumps: [(0, 0); 8] }; 256];
    let mut square = 0;
    while square < 256 {
        let (column, row) = ((square % 16) as i32, (square / 16) as i32);
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = DIRECTIONS[d];
            let (c, r) = (column + 2 * dc, row + 2 * dr);
            if on_board(c, r) {
                let over = ((row + dr) * 16 + column + dc) as u8;
                let land = (r * 16 + c) as u8;
                let len = table[square].len as usize;
                table[square].jumps[len] = (over, land);
                table[square].len += 1;
            }
            d += 1;
        }
        square += 1;
    }
    table
}

/// The jumps from each square.
pub static JUMPS: [JumpList; 256] = build_jumps();

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn build_zobrist() -> ([[u64; 256]; 4], [u64; 4]) {
    let mut pieces = [[0u64; 256]; 4];
    let mut to_move = [0u64; 4];
    let mut state = 0x4841_4C4D_4131_3933u64;
    let mut seat = 0;
    while seat < 4 {
        let mut square = 0;
        while square < 256 {
            let (next, value) = splitmix(state);
            state = next;
            pieces[seat][square] = value;
            square += 1;
        }
        let (next, value) = splitmix(state);
        state = next;
        to_move[seat] = value;
        seat += 1;
    }
    (pieces, to_move)
}

const ZOBRIST: ([[u64; 256]; 4], [u64; 4]) = build_zobrist();
/// Zobrist key of a piece of army `seat` on `square`.
pub static ZOBRIST_PIECES: [[u64; 256]; 4] = ZOBRIST.0;
/// Zobrist key of the seat to move.
pub static ZOBRIST_TO_MOVE: [u64; 4] = ZOBRIST.1;
