//! The transposition table: positions already searched, keyed by their Zobrist hash
//! (`Position::hash`), with the depth, score, bound and best move found. One table per
//! search, so a search with a fixed depth gives the same answer every time.

use crate::rules::{Move, Square};

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub depth: u8,
    pub score: i32,
    pub bound: Bound,
    pub best: Option<Move>,
}

/// 16 bytes per slot: the key, the score, depth, bound and move packed.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    score: i32,
    depth: u8,
    /// 0 empty, 1 exact, 2 lower, 3 upper.
    bound: u8,
    from: u8,
    /// The move's destination; a move is stored when `from != to`.
    to: u8,
}

pub struct TranspositionTable {
    slots: Vec<Slot>,
    mask: usize,
}

impl TranspositionTable {
    /// A table of 2^bits slots (16 bytes each).
    pub fn new(bits: u32) -> TranspositionTable {
        let size = 1usize << bits.clamp(4, 24);
        TranspositionTable { slots: vec![Slot::default(); size], mask: size - 1 }
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slots[key as usize & self.mask];
        if slot.bound == 0 || slot.key != key {
            return None;
        }
        let bound = match slot.bound {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        let best = (slot.from != slot.to)
            .then(|| Move { from: Square::from_index(slot.from), to: Square::from_index(slot.to) });
        Some(Entry { depth: slot.depth, score: slot.score, bound, best })
    }

    /// Stores a result, replacing the slot unless it holds a deeper result for the same
    /// position.
    pub fn store(&mut self, key: u64, depth: u8, score: i32, bound: Bound, best: Option<Move>) {
        let index = key as usize & self.mask;
        let old = self.slots[index];
        if old.bound != 0 && old.key == key && old.depth > depth {
            return;
        }
        let (from, to) = best.map_or((0, 0), |m| (m.from.index() as u8, m.to.index() as u8));
        let bound = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        self.slots[index] = Slot { key, score, depth, bound, from, to };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let mut table = TranspositionTable::new(8);
        let mv = Move { from: Square::from_index(3), to: Square::from_index(40) };
        assert!(table.probe(12345).is_none());
        table.store(12345, 3, -17, Bound::Lower, Some(mv));
        let entry = table.probe(12345).map(|e| (e.depth, e.score, e.bound, e.best));
        assert_eq!(entry, Some((3, -17, Bound::Lower, Some(mv))));
        // A shallower result for the same position does not replace a deeper one.
        table.store(12345, 2, 5, Bound::Exact, None);
        assert_eq!(table.probe(12345).map(|e| e.depth), Some(3));
        // Another position in the same slot replaces it.
        table.store(12345 + 256, 1, 9, Bound::Upper, None);
        assert!(table.probe(12345).is_none());
        assert_eq!(table.probe(12345 + 256).map(|e| (e.score, e.best)), Some((9, None)));
    }
}
