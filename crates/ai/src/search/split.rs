//! The root split: how several threads share one iteration (issue 30 §2).
//!
//! A middle-game position has 200 moves a side or more. Lazy SMP (every thread running
//! the same iterative deepening over one table) gained little here: the helper's nodes
//! mostly repeated the main thread's. The root split gives each thread different root
//! moves instead:
//!
//! 1. The main thread searches the first root move (the best of the last iteration) with
//!    the full window; its score is the bound the other moves must beat.
//! 2. Meanwhile the helpers do not wait for that bound: they take the next root moves
//!    and search them with a null window around a guess of it (a little below the last
//!    two iterations' scores). A move that fails low against a guess no higher than the
//!    true bound is done; any other (a fail-high, or a fail-low against a guess that
//!    turned out too high) is searched again once the bound is known.
//! 3. From then on every thread takes the next root move from the shared list (the moves
//!    to search again first) and searches it with a null window around the current
//!    bound; a move that fails high is searched again with the full window above the
//!    bound, and a better exact score raises the bound for everyone.
//! 4. A thread that finds nothing left to take searches a move another thread is still
//!    searching (the first move too, while its score is unknown: then only for the
//!    table entries it leaves): whichever finishes first settles the move and the other
//!    gives it up at its next node. So no thread sits idle behind a slow one (a helper
//!    that the machine's other work holds off its core costs the main thread little),
//!    and the last moves of an iteration are searched by both threads over one table.
//! 5. When every root move is settled, the main thread orders the root for the next
//!    iteration as the one-thread search does (the best first, then the others by the
//!    scores or bounds they got).
//!
//! A bound read a little late only costs time (a null window too low fails high more
//! often, and the re-search settles it), never correctness: every move that becomes the
//! answer was searched with a full window above the bound it beat, and every other move
//! failed low against a bound no higher than the answer's score. One thread never comes
//! here ([`super::search_with_table`] keeps the serial root), so one thread still gives
//! the same answer for the same seed and depth.

use super::{Searcher, WIN, WIN_THRESHOLD};
use halma_rules::{Move, Position};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Iterations shallower than this are searched by the main thread alone: they take well
/// under a millisecond, less than waking the helpers. Under Miri, whose searches are
/// small, from depth 2, so that its three-thread test runs the split.
pub(super) const SPLIT_FROM: u32 = if cfg!(miri) { 2 } else { 3 };

/// How far below the last iterations' scores the helpers guess the first move's score
/// (evaluation points, about a tenth of a step each): a guess at or below the true score
/// keeps the moves that fail low against it.
const GUESS_MARGIN: i32 = 20;

/// How long a helper waiting for the next iteration sleeps before it looks at the flags
/// again (a new iteration wakes it at once).
const HELPER_WAKE: Duration = Duration::from_millis(2);

/// How long a thread waiting for the moves other threads are searching sleeps between
/// looks: short, since the iteration cannot end without them, but it leaves the core to
/// the searching threads.
const PAUSE: Duration = Duration::from_micros(20);

/// What an iteration gives the helpers: its number, depth and ordered root moves.
#[derive(Default)]
struct Task {
    generation: u32,
    depth: u32,
    moves: Vec<Move>,
}

/// Where the current iteration stands.
#[derive(Default)]
struct State {
    generation: u32,
    /// The next root move never taken.
    next: usize,
    /// Root moves to search again now that the bound is known.
    again: Vec<usize>,
    /// Whether the first move's score is known (then `alpha` is a true bound).
    first_known: bool,
    /// The bound the moves are searched against: the guess until the first move's score
    /// is known, then the best exact score so far.
    alpha: i32,
    /// Moves that failed low against the guess before the bound was known, with their
    /// scores (upper bounds of their true scores).
    failed_low_early: Vec<(usize, i32)>,
    /// The best exact score and its move's index in the root list.
    best: Option<(i32, usize)>,
    /// Every root move's score (exact, or an upper bound) for the next iteration's order.
    scores: Vec<i32>,
    /// Root moves after the first whose score (or bound below the best) is settled.
    settled: usize,
    /// How many threads search each root move now.
    searchers: Vec<u8>,
}

/// How a thread searches a root move it took.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// A null window around the guess, before the first move's score is known.
    Early,
    /// A null window around the bound, then the full window above it if it fails high.
    Bound,
    /// The first move, searched alongside the main thread: only its table entries count.
    Assist,
}

/// What a thread gets when it asks for a root move.
enum Take {
    /// Search this move against this bound (the guess for an early search).
    Move { index: usize, alpha: i32, kind: Kind },
    /// Nothing now, but moves may come back to be searched again.
    Wait,
    /// Every root move of this iteration is settled.
    Done,
}

/// Root moves beyond this many are never searched by two threads at once.
const WATCHED_MOVES: usize = 1024;

/// The state of the current split, shared by the threads of one search. The main thread
/// publishes an iteration, and only after every move of it was settled publishes the
/// next, so a helper that is late sees a generation it no longer has and takes nothing.
pub(super) struct RootSplit {
    task: Mutex<Task>,
    published: Condvar,
    state: Mutex<State>,
    /// For each root move, the last generation that settled it: a thread searching a
    /// move another thread has settled gives its search up (read at every node).
    settled: Vec<AtomicU32>,
}

impl Default for RootSplit {
    fn default() -> RootSplit {
        RootSplit {
            task: Mutex::default(),
            published: Condvar::new(),
            state: Mutex::default(),
            settled: (0..WATCHED_MOVES).map(|_| AtomicU32::new(0)).collect(),
        }
    }
}

/// A lock whose holder panicked: the panic reaches the caller anyway (the scope joins
/// every thread), so the data is used as it is.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl RootSplit {
    /// Opens an iteration for the helpers (the main thread searches its first move).
    fn publish(&self, depth: u32, moves: &[Move], guess: i32) -> u32 {
        let mut task = lock(&self.task);
        let generation = task.generation + 1;
        let mut searchers = vec![0; moves.len()];
        searchers[0] = 1;
        *lock(&self.state) =
            State { generation, next: 1, alpha: guess, scores: vec![0; moves.len()], searchers, ..State::default() };
        *task = Task { generation, depth, moves: moves.to_vec() };
        drop(task);
        self.published.notify_all();
        generation
    }

    /// Whether root move `index` of `generation` is settled (a later generation settled it
    /// too: then a search of the earlier one is stale anyway).
    pub(super) fn is_settled(&self, index: usize, generation: u32) -> bool {
        self.settled.get(index).is_some_and(|g| g.load(Ordering::Relaxed) >= generation)
    }

    /// Marks a root move settled, once: false if it already was.
    fn settle(&self, state: &mut State, index: usize) -> bool {
        let fresh = match self.settled.get(index) {
            Some(generation) => generation.swap(state.generation, Ordering::Relaxed) < state.generation,
            // Beyond the watched moves no move is searched twice: see `take`.
            None => true,
        };
        if fresh && index > 0 {
            state.settled += 1;
        }
        fresh
    }

    /// The next root move of `generation` to search, if any: a fresh one, one to search
    /// again, or one another thread is searching (so that no thread waits while one is
    /// slow: whichever finishes first settles it).
    fn take(&self, generation: u32, count: usize) -> Take {
        let mut state = lock(&self.state);
        if state.generation != generation {
            return Take::Done;
        }
        let again = if state.first_known { state.again.pop() } else { None };
        let taken = if let Some(index) = again {
            Some((index, Kind::Bound))
        } else if state.next < count {
            let index = state.next;
            state.next += 1;
            Some((index, if state.first_known { Kind::Bound } else { Kind::Early }))
        } else if !state.first_known {
            (state.searchers[0] == 1).then_some((0, Kind::Assist))
        } else if state.settled == count - 1 {
            return Take::Done;
        } else {
            (1..count.min(WATCHED_MOVES))
                .find(|&i| state.searchers[i] == 1 && !self.is_settled(i, generation))
                .map(|index| (index, Kind::Bound))
        };
        match taken {
            Some((index, kind)) => {
                state.searchers[index] += 1;
                Take::Move { index, alpha: state.alpha, kind }
            }
            None => Take::Wait,
        }
    }

    /// The first move's score: the bound is known, and the moves that failed low against
    /// a guess above it are searched again.
    fn first_searched(&self, score: i32) {
        let mut state = lock(&self.state);
        state.first_known = true;
        state.alpha = score;
        state.best = Some((score, 0));
        state.scores[0] = score;
        state.searchers[0] -= 1;
        self.settle(&mut state, 0);
        for (index, bound) in std::mem::take(&mut state.failed_low_early) {
            if bound <= score {
                state.scores[index] = bound.min(score - 1);
                self.settle(&mut state, index);
            } else {
                state.again.push(index);
            }
        }
    }

    /// A search against the guess ended: `score` from a null window at `guess`.
    fn early_result(&self, generation: u32, index: usize, score: i32, guess: i32) {
        let mut state = lock(&self.state);
        if state.generation != generation {
            return;
        }
        state.searchers[index] -= 1;
        if self.is_settled(index, state.generation) {
            return;
        }
        if score > guess {
            state.again.push(index);
        } else if !state.first_known {
            state.failed_low_early.push((index, score));
        } else if score <= state.alpha {
            let alpha = state.alpha;
            state.scores[index] = score.min(alpha - 1);
            self.settle(&mut state, index);
        } else {
            state.again.push(index);
        }
    }

    /// A root move's score once the bound was known: `exact` when a full window above
    /// `bound` gave it, else it failed low against `bound`.
    fn result(&self, generation: u32, index: usize, score: i32, exact: bool, bound: i32) {
        let mut state = lock(&self.state);
        if state.generation != generation {
            return;
        }
        state.searchers[index] -= 1;
        if !self.settle(&mut state, index) {
            return;
        }
        if exact {
            // Equal scores go to the earlier move, as in the one-thread search.
            if state.best.is_none_or(|(best, at)| score > best || (score == best && index < at)) {
                state.best = Some((score, index));
            }
            state.alpha = state.alpha.max(score);
            state.scores[index] = score;
        } else {
            state.scores[index] = score.min(bound - 1);
        }
    }

    /// A search given up (the move was settled by another thread, or the search is over).
    /// The main thread may have opened the next iteration meanwhile: then nothing counts.
    fn abandoned(&self, generation: u32, index: usize) {
        let mut state = lock(&self.state);
        if state.generation == generation {
            state.searchers[index] -= 1;
        }
    }
}

/// The guess of the first move's score at `depth`, from the scores of the completed
/// iterations (`scores[d - 1]` for depth d): a little below the lower of the last two,
/// since odd and even depths differ (whose move ends the line).
pub(super) fn guess(scores: &[i32], depth: u32) -> i32 {
    let depth = depth as usize;
    let last = scores[..depth.saturating_sub(1).min(scores.len())].iter().rev().take(2).copied().min();
    last.map_or(-WIN_THRESHOLD, |score| score - GUESS_MARGIN).clamp(-WIN_THRESHOLD, WIN_THRESHOLD)
}

impl Searcher<'_> {
    /// Whether the whole search is over (stop, done or the deadline), for a thread that
    /// waits instead of searching.
    fn search_over(&mut self) -> bool {
        if self.stop.load(Ordering::Relaxed)
            || self.done.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Takes root moves of `generation` until every one is settled (or the search is over).
    fn search_taken_moves(
        &mut self,
        split: &RootSplit,
        position: &Position,
        depth: u32,
        moves: &[Move],
        generation: u32,
    ) {
        let works = self.evaluator.works(position);
        let army = position.army_to_move();
        loop {
            let (index, alpha, kind) = match split.take(generation, moves.len()) {
                Take::Move { index, alpha, kind } => (index, alpha, kind),
                Take::Wait => {
                    if self.search_over() {
                        return;
                    }
                    std::thread::sleep(PAUSE);
                    continue;
                }
                Take::Done => return,
            };
            let mv = moves[index];
            let next = position.after(mv);
            let mut next_works = works;
            next_works[army.index()] -= self.evaluator.gain(army, mv.from, mv.to);
            self.line.push(next.hash());
            self.watching = Some((index, generation));
            let (mut score, mut exact, mut bound) = (0, false, alpha);
            if kind == Kind::Assist {
                self.search(&next, &next_works, depth - 1, 1, -WIN - 1, WIN + 1);
            } else {
                score = self.search(&next, &next_works, depth - 1, 1, alpha, alpha + 1);
                if kind == Kind::Bound && score > alpha && !self.aborted {
                    bound = lock(&split.state).alpha;
                    score = self.search(&next, &next_works, depth - 1, 1, bound, WIN + 1);
                    exact = score > bound;
                }
            }
            self.watching = None;
            self.line.pop();
            if self.aborted || kind == Kind::Assist {
                split.abandoned(generation, index);
                // Given up because another thread settled the move: take the next.
                self.aborted = false;
                if self.search_over() {
                    return;
                }
                continue;
            }
            match kind {
                Kind::Early => split.early_result(generation, index, score, alpha),
                _ => split.result(generation, index, score, exact, bound),
            }
        }
    }

    /// One iteration at the root shared with the helpers (the main thread's part). As
    /// [`Searcher::root_iteration`]: the best move and score, and whether the iteration
    /// completed (a stopped one still returns a move that beat the first, or nothing if
    /// the first was not searched yet); the root list is reordered for the next iteration.
    pub(super) fn split_iteration(
        &mut self,
        split: &RootSplit,
        position: &Position,
        depth: u32,
        guess: i32,
        root_moves: &mut [(Move, i32)],
    ) -> Option<(Move, i32, bool)> {
        let moves: Vec<Move> = root_moves.iter().map(|entry| entry.0).collect();
        let generation = split.publish(depth, &moves, guess);

        let works = self.evaluator.works(position);
        let army = position.army_to_move();
        let first = moves[0];
        let next = position.after(first);
        let mut next_works = works;
        next_works[army.index()] -= self.evaluator.gain(army, first.from, first.to);
        self.line.push(next.hash());
        let score = self.search(&next, &next_works, depth - 1, 1, -WIN - 1, WIN + 1);
        self.line.pop();
        if self.aborted {
            return None;
        }
        split.first_searched(score);

        self.search_taken_moves(split, position, depth, &moves, generation);
        let state = lock(&split.state);
        let (score, index) = state.best.unwrap_or((score, 0));
        if self.aborted {
            return Some((moves[index], score, false));
        }
        for (entry, &score) in root_moves.iter_mut().zip(&state.scores) {
            entry.1 = score;
        }
        // The best first, then by score (a stable sort keeps the earlier order in ties).
        root_moves[..=index].rotate_right(1);
        root_moves[1..].sort_by_key(|&(_, score)| std::cmp::Reverse(score));
        Some((moves[index], score, true))
    }

    /// A helper thread's work: every split the main thread publishes, until the search is
    /// over.
    pub(super) fn help(&mut self, split: &RootSplit, position: &Position, seed: u64) {
        #[cfg(not(test))]
        let _ = seed;
        let mut seen = 0;
        loop {
            let (generation, depth, moves) = {
                let mut task = lock(&split.task);
                while task.generation == seen {
                    if self.search_over() {
                        return;
                    }
                    task = split.published.wait_timeout(task, HELPER_WAKE).unwrap_or_else(PoisonError::into_inner).0;
                }
                (task.generation, task.depth, task.moves.clone())
            };
            seen = generation;
            #[cfg(test)]
            super::tests::fail_if_asked(seed, depth);
            self.search_taken_moves(split, position, depth, &moves, generation);
            if self.aborted {
                return;
            }
        }
    }
}
