//! The search: iterative-deepening alpha-beta with principal-variation search, a Zobrist
//! transposition table, move ordering (table move, killers, history, distance gained) and
//! late-move reductions.
//!
//! Two-sided games (2p, and the team setups, where partners share one score) are
//! ordinary minimax games. In 3p the search is paranoid: the two opponents are assumed to
//! play together against the seat to move. Scores are always from the root seat's side
//! (positive: good for it); nodes where its side moves maximise, the others minimise. A
//! side may move twice in a row (partners in 4p, the two opponents in 3p): alpha-beta
//! needs nothing special for that in this max/min form.
//!
//! [`SearchParams::best_reply`] replaces paranoid search in 3p by Best-Reply Search
//! (see `search/brs.rs`).
//!
//! The search only ever plays moves from `Position::legal_moves`, so every move it
//! returns obeys the rules, the home-leaving duty and 4p-both's partner moves.

use super::eval::{self, Evaluator, Weights, WIN, WIN_THRESHOLD};
use super::tt::{Bound, TranspositionTable};
use halma_rules::{Action, Game, Move, Position, Seat, Setup};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

mod brs;
mod split;

/// The deepest search (plies).
pub const MAX_PLY: usize = 64;

/// How a level searches.
#[derive(Clone, Copy, Debug)]
pub struct SearchParams {
    pub weights: Weights,
    /// Deepest iteration (plies).
    pub max_depth: u32,
    /// Below the root, moves that lose more than this many points are not searched.
    pub backward_margin: Option<i32>,
    /// Below the root, only this many moves (the best-ordered) are searched.
    pub beam: Option<usize>,
    /// Late-move reductions.
    pub reductions: bool,
    /// Deterministic noise added to leaf scores (0..=jitter points each way), from the seed.
    pub jitter: i32,
    /// log2 of the transposition-table entries.
    pub tt_bits: u32,
    /// In 3p, Best-Reply Search instead of paranoid search (other setups ignore it).
    pub best_reply: bool,
}

/// What to stop at.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub depth: u32,
    /// Stop the search at this instant (the move found so far is played). A timed search
    /// uses all of its time: an iteration that cannot finish still helps, since the root
    /// searches the best move first and a move that beats it was searched in full.
    pub deadline: Option<Instant>,
    /// Search threads (they split each iteration's root moves, over one shared
    /// transposition table: `search/split.rs`); 1 searches on the caller's thread alone
    /// and gives the same answer for the same seed and depth.
    pub threads: usize,
}

/// The most threads a search uses.
pub const MAX_THREADS: usize = 8;

/// What one completed iteration of the iterative deepening found, as reported while the
/// search runs (the engine's `info` lines).
#[derive(Clone, Debug)]
pub struct Iteration {
    pub depth: u32,
    /// From the root seat's side, in evaluation points (about a tenth of a step each);
    /// beyond [`WIN_THRESHOLD`] in size when a camp fill is forced.
    pub score: i32,
    /// Nodes searched so far (all iterations).
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The expected line, the best move first: the best move, then the moves the
    /// transposition table holds for the positions that follow, each checked legal (a
    /// seat without moves passes). It ends early at a missing or stale entry, a finished
    /// game or a repetition, so it may be shorter than `depth`.
    pub pv: Vec<Action>,
}

/// The search's answer.
#[derive(Clone, Copy, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
}

struct Searcher<'a> {
    params: SearchParams,
    root: Seat,
    setup: Setup,
    seed_mix: u64,
    tt: &'a TranspositionTable,
    /// Mixed into every table key: scores are from the root seat's side (and in 3p the
    /// paranoid search's sides depend on the root), so a table kept from move to move
    /// must never give one root seat's scores to another (the app or the engine playing
    /// several seats with one memory).
    root_key: u64,
    /// Best-Reply Search: a 3p search with `SearchParams::best_reply` set.
    best_reply: bool,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    history: Vec<i32>,
    evaluator: Evaluator,
    /// Positions of the game so far (their hashes), for repetitions.
    seen_in_game: HashSet<u64, BuildHasherDefault<ZobristHasher>>,
    /// Hashes along the current search line, root first.
    line: Vec<u64>,
    move_lists: Vec<Vec<(Move, i32)>>,
    nodes: u64,
    stop: &'a AtomicBool,
    /// Set when the main thread has its answer: the helper threads stop.
    done: &'a AtomicBool,
    /// Where a helper thread adds its nodes as it goes (`None` for the main thread).
    helper_nodes: Option<&'a AtomicU64>,
    /// The root split of a search with several threads.
    split: &'a split::RootSplit,
    /// The root move (index, split generation) this thread searches while another may
    /// search it too: once the other has settled it, this search is given up.
    watching: Option<(usize, u32)>,
    deadline: Option<Instant>,
    aborted: bool,
}

/// How many nodes between looks at the clock (well under 1 ms of work).
const CHECK_EVERY: u64 = 256;

/// Table keys per root seat (A's is 0, so a search from seat A keys positions by their
/// hash alone).
const ROOT_KEYS: [u64; 4] = [0, 0x5A0B_9E1C_37D2_64F1, 0xC3A5_C85C_97CB_3127, 0x9FB2_1C65_1E98_DF25];

const TT_MOVE_SCORE: i32 = i32::MAX;
const KILLER_SCORE: i32 = i32::MAX - 10;

impl<'a> Searcher<'a> {
    fn new(game: &Game, params: SearchParams, seed: u64, shared: &'a Shared<'a>, deadline: Option<Instant>) -> Self {
        let now = game.position();
        let seen_in_game =
            (0..game.history().len()).filter_map(|index| game.position_before(index)).map(Position::hash).collect();
        Searcher {
            params,
            root: now.to_move(),
            setup: now.setup(),
            seed_mix: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03,
            tt: shared.tt,
            root_key: ROOT_KEYS[now.to_move().index()] ^ brs::table_key(params, now.setup()),
            best_reply: params.best_reply && now.setup() == Setup::ThreePlayers,
            evaluator: Evaluator::new(now.setup(), params.weights),
            killers: [[None; 2]; MAX_PLY + 1],
            history: vec![0; 256 * 256],
            seen_in_game,
            line: Vec::with_capacity(MAX_PLY + 2),
            move_lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            nodes: 0,
            stop: shared.stop,
            done: &shared.done,
            helper_nodes: None,
            split: &shared.split,
            watching: None,
            deadline,
            aborted: false,
        }
    }

    /// The table key of a position with this `hash`, for this search's root seat.
    fn table_key(&self, hash: u64) -> u64 {
        hash ^ self.root_key
    }

    fn maximising(&self, position: &Position) -> bool {
        eval::is_on_side(self.setup, self.root, position.to_move())
    }

    fn leaf(&self, position: &Position, works: &[i32; 4]) -> i32 {
        debug_assert_eq!(*works, self.evaluator.works(position), "the work kept move by move went wrong");
        let mut score = self.evaluator.score(position, self.root, works);
        if self.params.jitter > 0 {
            let mut z = (position.hash() ^ self.seed_mix).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z ^= z >> 31;
            let span = 2 * self.params.jitter as u64 + 1;
            score += (z % span) as i32 - self.params.jitter;
        }
        score
    }

    fn out_of_time(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        // The flags cost a relaxed load each: look at them at every node. The clock costs more.
        if self.stop.load(Ordering::Relaxed)
            || self.done.load(Ordering::Relaxed)
            || self.watching.is_some_and(|(index, generation)| self.split.is_settled(index, generation))
        {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(CHECK_EVERY) {
            if let Some(counter) = self.helper_nodes {
                counter.fetch_add(CHECK_EVERY, Ordering::Relaxed);
            }
            self.aborted = self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.aborted
    }

    /// A repeated position (in the game or on this line) scores as a draw: the search
    /// never walks into a repetition when ahead, and looks for one when behind.
    fn is_repetition(&self, hash: u64) -> bool {
        self.seen_in_game.contains(&hash) || self.line[..self.line.len() - 1].contains(&hash)
    }

    /// A move's place in the search order: the table's move, then the two killers, then
    /// the evaluator's gain with the history as tie-break (paranoid and Best-Reply share it).
    fn order_score(&self, army: Seat, mv: Move, tt_move: Option<Move>, killers: [Option<Move>; 2]) -> i32 {
        if Some(mv) == tt_move {
            TT_MOVE_SCORE
        } else if killers[0] == Some(mv) {
            KILLER_SCORE
        } else if killers[1] == Some(mv) {
            KILLER_SCORE - 1
        } else {
            self.evaluator.gain(army, mv.from, mv.to) * 256 + self.history[history_index(mv)].min(255)
        }
    }

    /// Fills the move list of `ply` with scored moves. With forward pruning the list is
    /// sorted and cut; otherwise it is left unsorted for [`Searcher::pick`], since most
    /// nodes are cut off after one or two moves and a full sort would be wasted.
    fn order_moves(&mut self, position: &Position, ply: usize, tt_move: Option<Move>) {
        let mut list = std::mem::take(&mut self.move_lists[ply]);
        list.clear();
        let army = position.army_to_move();
        let killers = self.killers[ply];
        for mv in position.legal_moves_ignoring_result().iter() {
            list.push((mv, self.order_score(army, mv, tt_move, killers)));
        }
        if self.params.backward_margin.is_some() || self.params.beam.is_some() {
            list.sort_unstable_by_key(|&(mv, score)| (std::cmp::Reverse(score), mv));
            self.prune(&mut list, army);
        }
        self.move_lists[ply] = list;
    }

    /// Puts the best remaining move of `ply`'s list at `index` (selection for the first
    /// few moves, then one sort of the rest).
    fn pick(&mut self, ply: usize, index: usize) -> (Move, i32) {
        const SELECT_FIRST: usize = 3;
        let list = &mut self.move_lists[ply];
        let presorted = self.params.backward_margin.is_some() || self.params.beam.is_some();
        if !presorted {
            if index < SELECT_FIRST {
                let best =
                    (index..list.len()).max_by_key(|&i| (list[i].1, std::cmp::Reverse(list[i].0))).unwrap_or(index);
                list.swap(index, best);
            } else if index == SELECT_FIRST {
                list[index..].sort_unstable_by_key(|&(mv, score)| (std::cmp::Reverse(score), mv));
            }
        }
        list[index]
    }

    /// Forward pruning below the root (weaker levels): drop backward moves and keep a beam.
    fn prune(&self, list: &mut Vec<(Move, i32)>, army: Seat) {
        if let Some(margin) = self.params.backward_margin {
            let keep_at_least = 4.min(list.len());
            let mut kept = 0;
            list.retain(|&(mv, score)| {
                let forward = score >= KILLER_SCORE - 1 || self.evaluator.gain(army, mv.from, mv.to) >= -margin;
                let keep = forward || kept < keep_at_least;
                kept += usize::from(keep);
                keep
            });
        }
        if let Some(beam) = self.params.beam {
            list.truncate(beam.max(1));
        }
    }

    /// The score of `position` searched `depth` plies deep, within (`alpha`, `beta`).
    /// `works` holds every army's work in this position.
    fn search(
        &mut self,
        position: &Position,
        works: &[i32; 4],
        depth: u32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        if let Some(winners) = position.winners() {
            let ply = ply as i32;
            return if winners.contains(self.root) { WIN - ply } else { -(WIN - ply) };
        }
        if ply > 0 && self.is_repetition(position.hash()) {
            return 0;
        }
        if depth == 0 || ply >= MAX_PLY {
            return self.leaf(position, works);
        }
        let maximising = self.maximising(position);
        let (alpha_in, beta_in) = (alpha, beta);
        let entry = self.tt.probe(self.table_key(position.hash()));
        let mut tt_move = None;
        if let Some(entry) = entry {
            tt_move = entry.best;
            if entry.depth >= depth as u8 {
                let score = score_from_tt(entry.score, ply);
                match entry.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }

        // Best-Reply Search: one node for both opponents, whose children are the root's turn again.
        let replies = self.best_reply && !maximising;
        if replies {
            self.order_replies(position, ply, tt_move);
        } else {
            self.order_moves(position, ply, tt_move);
        }
        if self.move_lists[ply].is_empty() {
            // No legal move: the seat passes (in Best-Reply Search, both opponents).
            let mut next = *position;
            next.pass_unchecked();
            if replies {
                next.pass_unchecked();
            }
            self.line.push(next.hash());
            let score = self.search(&next, works, depth - 1, ply + 1, alpha, beta);
            self.line.pop();
            return score;
        }

        let mut best_score = if maximising { -WIN - 1 } else { WIN + 1 };
        let mut best_move = None;
        let count = self.move_lists[ply].len();
        let to_move = position.army_to_move();
        for index in 0..count {
            let (mv, order_score) = self.pick(ply, index);
            let (next, army) = if replies { brs::reply(position, mv) } else { (position.after(mv), to_move) };
            let mut next_works = *works;
            next_works[army.index()] -= self.evaluator.gain(army, mv.from, mv.to);
            self.line.push(next.hash());
            let quiet_late =
                self.params.reductions && index >= REDUCE_FROM && depth >= 3 && order_score < KILLER_SCORE - 1;
            let score = if index == 0 {
                self.search(&next, &next_works, depth - 1, ply + 1, alpha, beta)
            } else {
                // Null window around the bound this node must beat, reduced for late moves.
                let reduced = if quiet_late { depth - 1 - late_move_reduction(depth, index) } else { depth - 1 };
                let (lo, hi) = if maximising { (alpha, alpha + 1) } else { (beta - 1, beta) };
                let mut score = self.search(&next, &next_works, reduced, ply + 1, lo, hi);
                let improves = if maximising { score > alpha } else { score < beta };
                if improves && !self.aborted && (reduced < depth - 1 || alpha + 1 < beta) {
                    score = self.search(&next, &next_works, depth - 1, ply + 1, alpha, beta);
                }
                score
            };
            self.line.pop();
            if self.aborted {
                return 0;
            }
            let better = if maximising { score > best_score } else { score < best_score };
            if better {
                best_score = score;
                best_move = Some(mv);
            }
            if maximising {
                alpha = alpha.max(score);
            } else {
                beta = beta.min(score);
            }
            if alpha >= beta {
                if order_score < KILLER_SCORE - 1 {
                    let killers = &mut self.killers[ply];
                    if killers[0] != Some(mv) {
                        killers[1] = killers[0];
                        killers[0] = Some(mv);
                    }
                    self.history[history_index(mv)] += (depth * depth) as i32;
                }
                break;
            }
        }

        let bound = if best_score <= alpha_in {
            Bound::Upper
        } else if best_score >= beta_in {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // Bounds are from the root's side: a failed-low maximising node is an upper bound,
        // a failed-high minimising node a lower bound; both read the same in the table.
        self.tt.store(self.table_key(position.hash()), depth as u8, score_to_tt(best_score, ply), bound, best_move);
        best_score
    }

    /// The principal variation after an iteration of `depth` plies that chose `best`:
    /// read from the transposition table, every move checked against the legal moves.
    fn principal_variation(&self, root: &Position, best: Move, depth: u32) -> Vec<Action> {
        let mut pv = Vec::new();
        let mut position = *root;
        let mut line = vec![root.hash()];
        let mut next = Some(best);
        while pv.len() < depth as usize && position.winners().is_none() {
            let moves = position.legal_moves_ignoring_result();
            if moves.is_empty() {
                pv.push(Action::Pass);
                position.pass_unchecked();
            } else {
                let Some(mv) = next.filter(|&mv| moves.contains(mv)) else { break };
                let Some(route) = position.route(mv) else { break };
                pv.push(Action::Move(route));
                position.play_unchecked(mv);
            }
            let hash = position.hash();
            if line.contains(&hash) || self.seen_in_game.contains(&hash) {
                break;
            }
            line.push(hash);
            next = self.tt.probe(self.table_key(hash)).and_then(|entry| entry.best);
        }
        pv
    }

    /// One iteration at the root: every legal move, full width, best first. The root's
    /// side always maximises. Returns the best move and score, and whether the iteration
    /// completed (a stopped one still returns a move that beat the earlier ones).
    fn root_iteration(
        &mut self,
        position: &Position,
        depth: u32,
        root_moves: &mut [(Move, i32)],
    ) -> Option<(Move, i32, bool)> {
        let mut alpha = -WIN - 1;
        let mut best: Option<(Move, i32)> = None;
        let works = self.evaluator.works(position);
        let army = position.army_to_move();
        for (index, entry) in root_moves.iter_mut().enumerate() {
            let mv = entry.0;
            let next = position.after(mv);
            let mut next_works = works;
            next_works[army.index()] -= self.evaluator.gain(army, mv.from, mv.to);
            self.line.push(next.hash());
            let score = if index == 0 {
                self.search(&next, &next_works, depth - 1, 1, alpha, WIN + 1)
            } else {
                let score = self.search(&next, &next_works, depth - 1, 1, alpha, alpha + 1);
                if score > alpha && !self.aborted {
                    self.search(&next, &next_works, depth - 1, 1, alpha, WIN + 1)
                } else {
                    score
                }
            };
            self.line.pop();
            if self.aborted {
                return best.map(|(m, s)| (m, s, false));
            }
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((mv, score));
                alpha = alpha.max(score);
                entry.1 = score;
            } else {
                // Only a bound is known: keep the move below the best for the next ordering.
                entry.1 = score.min(alpha - 1);
            }
        }
        best.map(|(m, s)| (m, s, true))
    }
}

/// Zobrist keys are already uniformly random: hashing them again is wasted work.
#[derive(Default)]
struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// Moves from this place in the search order on (after the table move, the killers and
/// the best few forward moves) may be searched less deep.
const REDUCE_FROM: usize = 4;

/// How many plies less a late quiet move at a node `depth` plies deep is searched (a
/// move that then beats the bound is searched again in full). It grows with both: a
/// middle-game position has over 200 moves a side, most of them retreats, and a flat
/// one-ply reduction made depth 6 cost 10–18 times depth 5.
fn late_move_reduction(depth: u32, index: usize) -> u32 {
    let reduction = 1 + ((depth as f64).ln() * (index as f64).ln() / 2.25) as u32;
    // At least one ply is left to search.
    reduction.min(depth - 2)
}

fn history_index(mv: Move) -> usize {
    mv.from.index() * 256 + mv.to.index()
}

fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score + ply as i32
    } else if score < -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score - ply as i32
    } else if score < -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

/// Searches the game's position for the seat to move. The best move is always one of the
/// legal moves (`None` only when the seat has none).
pub fn search(game: &Game, params: &SearchParams, limits: &Limits, seed: u64, stop: &AtomicBool) -> SearchResult {
    search_reporting(game, params, limits, seed, stop, &mut |_| {})
}

/// What the threads of one search share.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    done: AtomicBool,
    helper_nodes: AtomicU64,
    /// The iteration the threads share (see `search/split.rs`).
    split: split::RootSplit,
}

/// Sets its flag when dropped, on every way out of a scope: the return, an early exit and
/// the unwinding of a panic. The main thread's guard stops the helpers whatever ended it
/// (without it, a panic in the main thread left helpers with no deadline searching on,
/// and the scope that joins them never returned).
pub(crate) struct RaiseOnDrop<'a>(pub(crate) &'a AtomicBool);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Sets its flag when dropped by a panic only: a helper that fails ends the whole search
/// at once (its panic then reaches the caller when the scope joins it) instead of
/// leaving the main thread to search on alone to its deadline.
pub(crate) struct RaiseOnPanic<'a>(pub(crate) &'a AtomicBool);

impl Drop for RaiseOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

/// As [`search`], calling `report` after every completed iteration (none when the seat
/// has at most one move, which needs no search).
///
/// With `limits.threads` above 1 the threads split each iteration's root moves between
/// them (see `search/split.rs`): the main thread searches the first move with the full
/// window while the helpers search it too, lazily, over the shared transposition table;
/// then every thread takes the next root move from the shared ordered list. The main
/// thread runs the iterative deepening and gives the answer. The helpers are scoped
/// threads: they stop as soon as the main thread has its answer (or the stop flag is set)
/// and are joined before this returns, so none outlives the search.
///
/// A panic in any thread of the search (or in `report`) ends all of them and then reaches
/// the caller, who may catch it (see [`crate::try_choose_action_remembering`]); a
/// helper thread that cannot be started only means fewer helpers.
pub fn search_reporting(
    game: &Game,
    params: &SearchParams,
    limits: &Limits,
    seed: u64,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Iteration),
) -> SearchResult {
    let table = TranspositionTable::new(params.tt_bits);
    search_with_table(game, params, limits, seed, stop, &table, report)
}

/// As [`search_reporting`], with a transposition table the caller keeps: one kept from
/// move to move of a game starts each search with what the last ones found (the best
/// moves of the positions two plies on, and deeper results for them).
pub fn search_with_table(
    game: &Game,
    params: &SearchParams,
    limits: &Limits,
    seed: u64,
    stop: &AtomicBool,
    table: &TranspositionTable,
    report: &mut dyn FnMut(&Iteration),
) -> SearchResult {
    let started = Instant::now();
    let position = *game.position();
    let army = position.army_to_move();
    let evaluator = Evaluator::new(position.setup(), params.weights);
    // Root moves: shuffled by the seed (so equal moves vary between games), then ordered
    // by distance gained.
    let mut root_moves: Vec<(Move, i32)> =
        position.legal_moves().iter().map(|mv| (mv, evaluator.gain(army, mv.from, mv.to))).collect();
    root_moves.shuffle(&mut StdRng::seed_from_u64(seed ^ position.hash()));
    root_moves.sort_by_key(|&(_, gain)| std::cmp::Reverse(gain));
    let mut result = SearchResult { best: root_moves.first().map(|m| m.0), score: 0, depth: 0, nodes: 0 };
    if root_moves.len() <= 1 {
        return result;
    }
    let max_depth = limits.depth.clamp(1, MAX_PLY as u32);
    let threads = limits.threads.clamp(1, MAX_THREADS);
    let shared = Shared {
        tt: table,
        stop,
        done: AtomicBool::new(false),
        helper_nodes: AtomicU64::new(0),
        split: split::RootSplit::default(),
    };
    let searcher = std::thread::scope(|scope| {
        // Made before any helper starts: whatever ends this closure, they stop and the
        // scope can join them.
        let done = RaiseOnDrop(&shared.done);
        let mut helpers = Vec::new();
        for helper in 1..threads {
            let shared = &shared;
            let spawned =
                std::thread::Builder::new().name(format!("halma-helper-{helper}")).spawn_scoped(scope, move || {
                    let _failed = RaiseOnPanic(&shared.done);
                    let mut searcher = Searcher::new(game, *params, seed, shared, limits.deadline);
                    searcher.helper_nodes = Some(&shared.helper_nodes);
                    searcher.line.push(position.hash());
                    searcher.help(&shared.split, &position, seed);
                    shared.helper_nodes.fetch_add(searcher.nodes % CHECK_EVERY, Ordering::Relaxed);
                });
            match spawned {
                Ok(handle) => helpers.push(handle),
                // No thread to be had (a process or memory limit): search with the helpers so far.
                Err(_) => break,
            }
        }
        let split = !helpers.is_empty();
        let mut searcher = Searcher::new(game, *params, seed, &shared, limits.deadline);
        searcher.line.push(position.hash());
        // The score of each completed iteration, for the helpers' guess of the next.
        let mut scores = Vec::new();
        for depth in 1..=max_depth {
            let found = if split && depth >= split::SPLIT_FROM {
                let guess = split::guess(&scores, depth);
                searcher.split_iteration(&shared.split, &position, depth, guess, &mut root_moves)
            } else {
                let found = searcher.root_iteration(&position, depth, &mut root_moves);
                // Best first for the next iteration (a stable sort keeps the earlier order in ties).
                root_moves.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
                found
            };
            if let Some((mv, score, complete)) = found {
                result.best = Some(mv);
                result.score = score;
                if complete {
                    result.depth = depth;
                    scores.push(score);
                    report(&Iteration {
                        depth,
                        score,
                        nodes: searcher.nodes + shared.helper_nodes.load(Ordering::Relaxed),
                        elapsed: started.elapsed(),
                        pv: searcher.principal_variation(&position, mv, depth),
                    });
                }
            }
            if searcher.aborted || result.score.abs() > WIN_THRESHOLD {
                break;
            }
        }
        // The answer is found: the helpers stop at their next node and are joined here.
        drop(done);
        for helper in helpers {
            // A helper's own panic, not the scope's generic one, so the caller learns what failed.
            if let Err(panic) = helper.join() {
                std::panic::resume_unwind(panic);
            }
        }
        searcher
    });
    result.nodes = searcher.nodes + shared.helper_nodes.load(Ordering::Relaxed);
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Level;
    use std::sync::mpsc;

    /// The seed that makes every helper thread panic from its second iteration on. Only
    /// test builds look at it ([`fail_if_asked`]), so a search can fail on demand.
    const FAILING_HELPER_SEED: u64 = 0x00FA_11ED;

    pub(super) fn fail_if_asked(seed: u64, depth: u32) {
        if seed == FAILING_HELPER_SEED && depth >= 2 {
            panic!("a helper failed on purpose");
        }
    }

    /// Runs `search` on its own thread: its result or its panic's message, or `None` if it
    /// has not ended after `limit` (it hangs; the thread is left behind).
    fn ends_within(
        limit: Duration,
        search: impl FnOnce() -> SearchResult + Send + 'static,
    ) -> Option<Result<SearchResult, String>> {
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(search));
            let _ = sender.send(outcome.map_err(|panic| crate::panic_message(panic.as_ref())));
        });
        receiver.recv_timeout(limit).ok()
    }

    /// No deadline and the deepest depth: only the end of the main thread can stop the
    /// helpers. A panic there (here in `report`, as a writer that panics on a closed pipe
    /// would) used to leave them searching for hours while the scope waited to join them.
    #[test]
    #[cfg_attr(miri, ignore = "timed against the wall clock, which Miri does not keep")]
    fn a_panic_in_the_main_search_thread_ends_the_helpers_and_reaches_the_caller() {
        let started = Instant::now();
        let outcome = ends_within(Duration::from_secs(30), || {
            let game = Game::new(Setup::TwoPlayers, Seat::A);
            let params = SearchParams { tt_bits: 12, ..Level::Master.params() };
            let limits = Limits { depth: MAX_PLY as u32, deadline: None, threads: 3 };
            search_reporting(&game, &params, &limits, 1, &AtomicBool::new(false), &mut |_| {
                panic!("report failed on purpose")
            })
        });
        let outcome = outcome.expect("the search ended");
        assert_eq!(outcome.map(|r| r.depth), Err("report failed on purpose".to_string()));
        assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
    }

    /// A helper that panics ends the whole search at once (the main thread has no deadline
    /// either), and the caller gets the helper's own panic.
    #[test]
    #[cfg_attr(miri, ignore = "timed against the wall clock, which Miri does not keep")]
    fn a_panic_in_a_helper_thread_ends_the_search_and_reaches_the_caller() {
        let started = Instant::now();
        let outcome = ends_within(Duration::from_secs(30), || {
            let game = Game::new(Setup::TwoPlayers, Seat::A);
            let params = SearchParams { tt_bits: 12, ..Level::Master.params() };
            let limits = Limits { depth: MAX_PLY as u32, deadline: None, threads: 2 };
            search(&game, &params, &limits, FAILING_HELPER_SEED, &AtomicBool::new(false))
        });
        let outcome = outcome.expect("the search ended");
        assert_eq!(outcome.map(|r| r.depth), Err("a helper failed on purpose".to_string()));
        assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
    }

    /// Three threads share one search (the table, the stop and done flags, the root
    /// split's lists and flags; under Miri the split starts at depth 2): small enough to
    /// run under Miri, which checks every shared access for a data race
    /// (`cargo +nightly miri test --no-default-features --lib ai::`).
    #[test]
    fn helper_threads_share_one_search_and_it_completes_every_depth() {
        let game = Game::new(Setup::TwoPlayers, Seat::A);
        let params = SearchParams { tt_bits: 8, ..Level::Master.params() };
        let depth = if cfg!(miri) { 2 } else { 3 };
        let limits = Limits { depth, deadline: None, threads: 3 };
        let mut reported = Vec::new();
        let result = search_reporting(&game, &params, &limits, 1, &AtomicBool::new(false), &mut |iteration| {
            reported.push(iteration.depth)
        });
        let best = result.best.expect("the start position has moves");
        assert!(game.legal_moves().contains(best), "{best:?} is not legal at the start");
        assert_eq!(reported, (1..=depth).collect::<Vec<_>>());
        assert_eq!(result.depth, depth);
        assert!(result.nodes > 0);
    }

    #[test]
    fn a_late_move_is_reduced_more_the_later_it_comes_and_always_keeps_a_ply() {
        for depth in 3..=MAX_PLY as u32 {
            let mut last = 1;
            for index in REDUCE_FROM..=400 {
                let reduction = late_move_reduction(depth, index);
                assert!((1..=depth - 2).contains(&reduction), "depth {depth}, move {index}: {reduction}");
                assert!(reduction >= last, "depth {depth}: move {index} is reduced less than the one before");
                last = reduction;
            }
        }
        assert_eq!((late_move_reduction(3, REDUCE_FROM), late_move_reduction(6, 100)), (1, 4));
    }

    /// A table kept from move to move that one seat's searches filled must not steer
    /// another seat's: its scores are from the other side (and in 3p from another
    /// paranoid coalition). The next seat's search is then exactly a fresh table's.
    #[test]
    fn a_kept_table_never_gives_one_seats_scores_to_another() {
        for setup in [Setup::TwoPlayers, Setup::ThreePlayers] {
            let params = SearchParams { jitter: 0, tt_bits: 16, ..Level::Master.params() };
            let limits = Limits { depth: 3, deadline: None, threads: 1 };
            let stop = AtomicBool::new(false);
            let mut game = Game::new(setup, Seat::A);
            let kept = TranspositionTable::new(params.tt_bits);
            let first = search_with_table(&game, &params, &limits, 3, &stop, &kept, &mut |_| {});
            game.play_move(first.best.expect("the start has moves")).expect("the search's move is legal");

            let with_kept = search_with_table(&game, &params, &limits, 3, &stop, &kept, &mut |_| {});
            let fresh = TranspositionTable::new(params.tt_bits);
            let with_fresh = search_with_table(&game, &params, &limits, 3, &stop, &fresh, &mut |_| {});
            assert_eq!(
                (with_kept.best, with_kept.score, with_kept.nodes),
                (with_fresh.best, with_fresh.score, with_fresh.nodes),
                "{setup}: the second seat's search read the first seat's entries"
            );
        }
    }
}
