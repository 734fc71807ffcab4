//! Best-Reply Search for 3p (Schadd & Winands, IEEE TCIAIG 3(1), 2011).
//!
//! Paranoid search lets both opponents move, one after the other, before the root seat
//! moves again: at depth 5 the root seat moves twice, and it sees every opponent's move
//! as aimed at it. Best-Reply Search searches one node for both opponents instead, whose
//! moves are every move of either of them, and only the single best of those is played:
//! the other opponent passes. The root seat then moves every other ply, so the same time
//! looks further into its own plan, at the price of positions that cannot occur (an
//! opponent's turn skipped). The rest of the search (table, ordering, reductions) is
//! the paranoid search's; only the opponents' nodes differ.

use super::{Move, Position, SearchParams, Searcher, Seat, Setup};

/// Mixed into the table keys of a Best-Reply Search, whose scores differ from a paranoid
/// search's for the same position and root seat (a table kept from move to move may see
/// both, when a program's option changes between moves).
const BRS_KEY: u64 = 0x2545_F491_4F6C_DD1D;

/// The part of the table key that says which search scored an entry.
pub(super) fn table_key(params: SearchParams, setup: Setup) -> u64 {
    if params.best_reply && setup == Setup::ThreePlayers {
        BRS_KEY
    } else {
        0
    }
}

/// The position after an opponent's reply `mv` (by the seat to move or the one after
/// it), with the other opponent's turn passed, so the root seat moves next; and the army
/// that moved.
pub(super) fn reply(position: &Position, mv: Move) -> (Position, Seat) {
    let mover = position.to_move();
    let mut next = *position;
    if position.piece_at(mv.from) == Some(mover) {
        next.play_unchecked(mv);
        next.pass_unchecked();
        (next, mover)
    } else {
        next.pass_unchecked();
        let army = next.to_move();
        next.play_unchecked(mv);
        (next, army)
    }
}

impl Searcher<'_> {
    /// Fills the move list of `ply` with the moves of both opponents (the seat to move
    /// and the next one), scored as `order_moves` scores one seat's. Their pieces stand
    /// on different squares, so a move names its mover. Forward pruning keeps only the
    /// beam (Master, the one level meant to search this way, prunes nothing).
    pub(super) fn order_replies(&mut self, position: &Position, ply: usize, tt_move: Option<Move>) {
        let mut list = std::mem::take(&mut self.move_lists[ply]);
        list.clear();
        let killers = self.killers[ply];
        let mut second = *position;
        second.pass_unchecked();
        let mut movers = vec![*position];
        if second.to_move() != self.root {
            movers.push(second);
        }
        for mover in &movers {
            let army = mover.army_to_move();
            for mv in mover.legal_moves_ignoring_result().iter() {
                list.push((mv, self.order_score(army, mv, tt_move, killers)));
            }
        }
        if self.params.backward_margin.is_some() || self.params.beam.is_some() {
            list.sort_unstable_by_key(|&(mv, score)| (std::cmp::Reverse(score), mv));
            if let Some(beam) = self.params.beam {
                list.truncate(beam.max(1));
            }
        }
        self.move_lists[ply] = list;
    }
}
