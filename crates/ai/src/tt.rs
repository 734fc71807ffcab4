//! The transposition table: positions already searched, keyed by their Zobrist hash
//! (`Position::hash`, mixed with the searching seat), with the depth, score, bound and
//! best move found. Shared by a search's threads (the root split); a fresh table per search, or
//! one kept from move to move (`ai::SearchMemory`) for timed Master searches. A one-thread
//! search with a fixed depth and a fresh table gives the same answer every time.

use halma_rules::{Move, Square};
use std::sync::atomic::{AtomicU64, Ordering};

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

/// 16 bytes per slot, two atomic words: the packed result (`data`) and the key XOR the
/// data (`check`). Threads store and probe without locks; a probe accepts a slot only
/// when `check ^ data` gives back its key, so a slot half-written by another thread (one
/// word new, one old) reads as a miss instead of as another position's result. Relaxed
/// ordering is enough: each word is read and written whole, and a torn pair fails the
/// check. No `unsafe` anywhere: every access is an atomic operation, so there is no data
/// race to reason about.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The data word: score (32 bits), depth, bound (0 empty, 1 exact, 2 lower, 3 upper),
/// the move's origin and destination (a move is stored when they differ).
fn pack(score: i32, depth: u8, bound: u8, from: u8, to: u8) -> u64 {
    u64::from(score as u32)
        | u64::from(depth) << 32
        | u64::from(bound) << 40
        | u64::from(from) << 48
        | u64::from(to) << 56
}

/// A transposition table that any number of search threads share (`&self` everywhere).
pub struct TranspositionTable {
    slots: Vec<Slot>,
    mask: usize,
}

impl TranspositionTable {
    /// A table of 2^bits slots (16 bytes each).
    pub fn new(bits: u32) -> TranspositionTable {
        let size = 1usize << bits.clamp(4, 24);
        TranspositionTable { slots: (0..size).map(|_| Slot::default()).collect(), mask: size - 1 }
    }

    /// The bytes a table of 2^bits slots takes.
    pub const fn bytes(bits: u32) -> usize {
        std::mem::size_of::<Slot>() << bits
    }

    /// Empties every slot: the table is then as [`TranspositionTable::new`] made it, so a
    /// search that clears one table first gives what it gives with a fresh one, without
    /// allocating (the analysis keeps one table per thread this way).
    pub fn clear(&self) {
        for slot in &self.slots {
            slot.data.store(0, Ordering::Relaxed);
            slot.check.store(0, Ordering::Relaxed);
        }
    }

    /// The slot's data word when it holds `key`.
    fn data(&self, key: u64) -> Option<u64> {
        let slot = &self.slots[key as usize & self.mask];
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        (check ^ data == key && (data >> 40) as u8 != 0).then_some(data)
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let data = self.data(key)?;
        let bound = match (data >> 40) as u8 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        let (from, to) = ((data >> 48) as u8, (data >> 56) as u8);
        let best = (from != to).then(|| Move { from: Square::from_index(from), to: Square::from_index(to) });
        Some(Entry { depth: (data >> 32) as u8, score: data as u32 as i32, bound, best })
    }

    /// Stores a result, replacing the slot unless it holds a deeper result for the same
    /// position. (Two threads storing at once may each win the slot: either way it then
    /// holds one whole, verifiable entry.)
    pub fn store(&self, key: u64, depth: u8, score: i32, bound: Bound, best: Option<Move>) {
        if self.data(key).is_some_and(|old| (old >> 32) as u8 > depth) {
            return;
        }
        let (from, to) = best.map_or((0, 0), |m| (m.from.index() as u8, m.to.index() as u8));
        let bound = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let data = pack(score, depth, bound, from, to);
        let slot = &self.slots[key as usize & self.mask];
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let table = TranspositionTable::new(8);
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
        // Cleared, it holds nothing, as a new table.
        table.clear();
        assert!(table.probe(12345 + 256).is_none());
        assert_eq!(TranspositionTable::bytes(8), 256 * 16);
    }

    #[test]
    fn threads_storing_at_once_never_mix_entries() {
        // Each thread stores, for keys that collide in a small table, an entry whose
        // fields are all derived from its key; a probe must never see a mixture.
        let table = TranspositionTable::new(4);
        // Miri interprets every step (and checks each access for a data race): fewer rounds.
        let rounds = if cfg!(miri) { 300 } else { 200_000 };
        let fields = |key: u64| {
            let score = (key as i32).wrapping_mul(7919);
            let mv = Move { from: Square::from_index(key as u8), to: Square::from_index(key as u8 ^ 1) };
            (score, (key % 64) as u8, mv)
        };
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let table = &table;
                scope.spawn(move || {
                    let mut state = thread + 1;
                    for _ in 0..rounds {
                        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                        let key = state >> 11;
                        let (score, depth, mv) = fields(key);
                        table.store(key, depth, score, Bound::Exact, Some(mv));
                        let probe = state.rotate_left(17) >> 11;
                        if let Some(entry) = table.probe(probe) {
                            let (score, depth, mv) = fields(probe);
                            assert_eq!((entry.score, entry.depth, entry.best), (score, depth, Some(mv)));
                        }
                        if let Some(entry) = table.probe(key) {
                            let (score, _, mv) = fields(key);
                            assert_eq!((entry.score, entry.best), (score, Some(mv)));
                        }
                    }
                });
            }
        });
    }
}
