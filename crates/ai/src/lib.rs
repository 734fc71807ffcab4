//! Computer players and hints.
//!
//! The entry points take the public game (position and history) and a stop flag, so
//! the app can run them on a worker thread and cancel them at once. Every move they
//! return comes from the rules engine's legal moves.
//!
//! - [`eval`]: who is ahead in the race.
//! - [`search`]: iterative-deepening alpha-beta (paranoid in 3p) with a transposition
//!   table ([`tt`]).
//! - [`greedy`]: the baseline player (most distance gained, no look-ahead).
//!
//! | level | looks ahead | prunes | noise | own budget |
//! |---|---|---|---|---|
//! | Greedy (tests only) | its own move, distance only | — | ties by seed | instant |
//! | Beginner | its own move, plain race with a heavy straggler cost | — | ±4 steps | instant |
//! | Casual | 2 plies | backward moves, 20 best | ±0.8 step | a few ms |
//! | Strong | up to 3 plies | backward moves | ±0.2 step | 250 ms at most |
//! | Master | as deep as 300 ms allow, on every core (at most 8) | — | ±0.1 step | 300 ms |
//!
//! Hints search [`HINT_DEPTH`] plies with Strong's judgement and no noise.
//! Draws: [`should_accept_draw`] and [`wants_draw`] judge offers for computer seats.

pub mod analysis;
pub mod eval;
pub mod greedy;
pub mod puzzles;
pub mod search;
pub mod tt;

pub use greedy::greedy_move;

use eval::Weights;
use halma_rules::{Action, Game, Seat};
pub use search::Iteration;
use search::{Limits, SearchParams};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Playing strengths, weakest first. `Greedy` is the simple baseline used for testing.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub enum Level {
    Greedy,
    Beginner,
    Casual,
    Strong,
    Master,
}

impl Level {
    /// The levels the app offers, weakest first.
    pub const PLAYABLE: [Level; 4] = [Level::Beginner, Level::Casual, Level::Strong, Level::Master];
    pub const ALL: [Level; 5] = [Level::Greedy, Level::Beginner, Level::Casual, Level::Strong, Level::Master];

    /// The name the app shows and the protocol accepts.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Greedy => "Greedy",
            Level::Beginner => "Beginner",
            Level::Casual => "Casual",
            Level::Strong => "Strong",
            Level::Master => "Master",
        }
    }

    /// Parses a level name, ignoring case.
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|level| level.name().eq_ignore_ascii_case(name))
    }

    /// The level's own thinking time per move. A phone core can be twice as slow as a
    /// desktop one, so Master stays well inside its 1 s limit and answers at once.
    pub const fn movetime(self) -> Duration {
        Duration::from_millis(match self {
            Level::Greedy => 50,
            Level::Beginner => 100,
            Level::Casual => 150,
            Level::Strong => 250,
            Level::Master => 300,
        })
    }

    /// How the level searches. Weaker levels look less far ahead, prune more, and add
    /// noise to their judgement (seeded, so a fixed seed still gives a fixed move).
    pub fn params(self) -> SearchParams {
        let base = SearchParams {
            weights: Weights::DEFAULT,
            max_depth: search::MAX_PLY as u32,
            backward_margin: None,
            beam: None,
            reductions: true,
            jitter: 0,
            tt_bits: 19,
            best_reply: false,
        };
        match self {
            Level::Greedy | Level::Beginner => SearchParams {
                // The plain race plus a straggler cost (see BEGINNER_STRAGGLER).
                weights: Weights { straggler: BEGINNER_STRAGGLER, ..Weights::PLAIN },
                max_depth: 1,
                jitter: 40,
                tt_bits: 10,
                reductions: false,
                ..base
            },
            Level::Casual => SearchParams {
                max_depth: 2,
                backward_margin: Some(10),
                beam: Some(20),
                jitter: 8,
                tt_bits: 16,
                reductions: false,
                ..base
            },
            Level::Strong => SearchParams { max_depth: 3, backward_margin: Some(20), jitter: 2, tt_bits: 18, ..base },
            Level::Master => SearchParams { jitter: 1, ..base },
        }
    }
}

/// How a 3p search treats the two opponents of the seat to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ThreePlayerSearch {
    /// Both opponents move in turn, as one side playing against the root seat.
    Paranoid,
    /// Best-Reply Search: only the best reply of either opponent is searched, so the
    /// root seat moves every other ply (see `search/brs.rs`).
    BestReply,
}

impl ThreePlayerSearch {
    /// What a level searches with in 3p unless a request says otherwise. Master: Best-Reply
    /// Search, which beat paranoid Master clearly at equal time (docs/STRENGTH.md). The
    /// other levels keep paranoid: their few plies were not measured with it.
    pub const fn of_level(level: Level) -> ThreePlayerSearch {
        match level {
            Level::Master => ThreePlayerSearch::BestReply,
            _ => ThreePlayerSearch::Paranoid,
        }
    }

    /// The name the protocol's `setoption search` accepts.
    pub const fn name(self) -> &'static str {
        match self {
            ThreePlayerSearch::Paranoid => "paranoid",
            ThreePlayerSearch::BestReply => "brs",
        }
    }

    /// Parses a name, ignoring case.
    pub fn from_name(name: &str) -> Option<ThreePlayerSearch> {
        [ThreePlayerSearch::Paranoid, ThreePlayerSearch::BestReply]
            .into_iter()
            .find(|search| search.name().eq_ignore_ascii_case(name))
    }
}

/// Beginner's straggler weight (1/16 point per step squared), over three times Master's:
/// a one-ply search sees nothing of why the last pieces at home matter, and with the
/// plain race left on average 3.1 of them at home after its 30 duty-free turns (the duty
/// then forced them out) and stalled 2 games of 40; with this, 2.0 and none
/// (tests/ai_beginner.rs). It makes Beginner stronger, so its noise is ±4 steps (was
/// ±2.5) to keep it a clear step below Casual (docs/STRENGTH.md).
pub const BEGINNER_STRAGGLER: i32 = 60;

/// What a search may use.
#[derive(Clone, Copy, Debug)]
pub struct SearchRequest {
    pub level: Level,
    /// Overrides the level's own time budget.
    pub movetime: Option<Duration>,
    /// Caps the search depth. Given without `movetime`, the search has no time limit (only
    /// the stop flag ends it early), so the answer depends on the seed alone.
    pub depth: Option<u32>,
    /// Seed for the level's random choices: same seed, same move (with one thread).
    pub seed: u64,
    /// Search threads. `None`: Master uses [`default_threads`] for a timed search and one
    /// thread for a fixed depth without a time limit (so that stays reproducible); the
    /// other levels, which look only a few plies ahead, always use one.
    pub threads: Option<usize>,
    /// How a 3p search treats the opponents (other setups ignore it); `None`: the level's
    /// own ([`ThreePlayerSearch::of_level`]).
    pub three_player: Option<ThreePlayerSearch>,
}

/// The threads a Master search uses by default: one per available core, at most
/// [`search::MAX_THREADS`].
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, search::MAX_THREADS)
}

impl SearchRequest {
    pub fn new(level: Level) -> SearchRequest {
        SearchRequest { level, movetime: None, depth: None, seed: 0, threads: None, three_player: None }
    }

    pub fn with_seed(self, seed: u64) -> SearchRequest {
        SearchRequest { seed, ..self }
    }

    pub fn with_depth(self, depth: u32) -> SearchRequest {
        SearchRequest { depth: Some(depth), ..self }
    }

    pub fn with_movetime(self, movetime: Duration) -> SearchRequest {
        SearchRequest { movetime: Some(movetime), ..self }
    }

    pub fn with_threads(self, threads: usize) -> SearchRequest {
        SearchRequest { threads: Some(threads), ..self }
    }

    /// The threads this request searches with (see [`SearchRequest::threads`]).
    pub fn thread_count(&self) -> usize {
        match self.threads {
            Some(threads) => threads.clamp(1, search::MAX_THREADS),
            None if self.level == Level::Master && (self.movetime.is_some() || self.depth.is_none()) => {
                default_threads()
            }
            None => 1,
        }
    }
}

/// The action the computer plays for the seat to move: a move, or a pass when it has
/// none. `None` when the game is over. Setting `stop` ends the search at once; the best
/// move found so far is returned (the caller may ignore it).
pub fn choose_action(game: &Game, request: &SearchRequest, stop: &AtomicBool) -> Option<Action> {
    choose_action_reporting(game, request, stop, &mut |_| {})
}

/// As [`choose_action`], calling `report` after every completed iteration of the search
/// (never for Greedy, a forced move or a pass, which need no search).
pub fn choose_action_reporting(
    game: &Game,
    request: &SearchRequest,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Iteration),
) -> Option<Action> {
    choose(game, request, stop, None, report)
}

/// What Master keeps from one move of a game to the next: its transposition table, as
/// chess engines keep their hash. Each search then starts with the results of the last
/// ones (the best moves two plies on, deeper scores), not from nothing, and the table is
/// allocated once instead of inside every move's time. Shared by reference: a cancelled
/// search still finishing while the next starts only shares lock-free slots with it.
pub struct SearchMemory {
    /// Made at the first search that uses it, so a player that never searches at Master
    /// (or a protocol session that only checks moves) never allocates it.
    table: std::sync::OnceLock<tt::TranspositionTable>,
}

/// log2 of the slots of a [`SearchMemory`]'s table: 2^20 slots of 16 bytes, 16 MiB.
pub const MEMORY_TABLE_BITS: u32 = 20;

impl SearchMemory {
    pub fn new() -> SearchMemory {
        SearchMemory { table: std::sync::OnceLock::new() }
    }
}

impl Default for SearchMemory {
    fn default() -> SearchMemory {
        SearchMemory::new()
    }
}

/// As [`choose_action_reporting`], for a player that keeps `memory` between its moves.
/// Only a timed Master search uses it: the other levels keep to what their design
/// allows them to see, and a search to a fixed depth without a time limit stays
/// reproducible for its seed.
pub fn choose_action_remembering(
    game: &Game,
    request: &SearchRequest,
    stop: &AtomicBool,
    memory: &SearchMemory,
    report: &mut dyn FnMut(&Iteration),
) -> Option<Action> {
    choose(game, request, stop, Some(memory), report)
}

/// Why a search gave no answer: it panicked (a bug in the search or in `report`). Every
/// thread of that search has ended by then, so the caller may show the error and try again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchError {
    /// The panic's message.
    pub reason: String,
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the search failed: {}", self.reason)
    }
}

impl std::error::Error for SearchError {}

/// The message of a panic's payload (`panic!` gives a `&str` or a `String`).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
        (Some(text), _) => text.to_string(),
        (None, Some(text)) => text.clone(),
        (None, None) => "unknown panic".to_string(),
    }
}

/// As [`choose_action_remembering`], with a panic in the search (any of its threads, or
/// `report`) returned as an error instead of unwinding into the caller: a computer seat
/// whose search fails can then be told so, rather than wait forever for its move.
pub fn try_choose_action_remembering(
    game: &Game,
    request: &SearchRequest,
    stop: &AtomicBool,
    memory: &SearchMemory,
    report: &mut dyn FnMut(&Iteration),
) -> Result<Option<Action>, SearchError> {
    // Unwind safety: what the search shares with later ones is the kept table, whose
    // slots are written whole (lock-free), so a search ended half-way leaves no torn state.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| choose(game, request, stop, Some(memory), report)))
        .map_err(|panic| SearchError { reason: panic_message(panic.as_ref()) })
}

fn choose(
    game: &Game,
    request: &SearchRequest,
    stop: &AtomicBool,
    memory: Option<&SearchMemory>,
    report: &mut dyn FnMut(&Iteration),
) -> Option<Action> {
    if game.is_over() {
        return None;
    }
    if game.must_pass() {
        return Some(Action::Pass);
    }
    let position = game.position();
    let mv = if request.level == Level::Greedy {
        greedy_move(position, request.seed)?
    } else {
        let three_player = request.three_player.unwrap_or(ThreePlayerSearch::of_level(request.level));
        let params =
            SearchParams { best_reply: three_player == ThreePlayerSearch::BestReply, ..request.level.params() };
        let movetime = match (request.movetime, request.depth) {
            (Some(movetime), _) => Some(movetime),
            (None, Some(_)) => None,
            (None, None) => Some(request.level.movetime()),
        };
        let table = memory
            .filter(|_| request.level == Level::Master && movetime.is_some())
            .map(|memory| memory.table.get_or_init(|| tt::TranspositionTable::new(MEMORY_TABLE_BITS)));
        // The clock starts once the table is there: making one is not thinking.
        let started = Instant::now();
        let limits = Limits {
            depth: request.depth.map_or(params.max_depth, |depth| depth.min(params.max_depth)),
            deadline: movetime.map(|t| started + t),
            threads: request.thread_count(),
        };
        match table {
            Some(table) => search::search_with_table(game, &params, &limits, request.seed, stop, table, report).best?,
            None => search::search_reporting(game, &params, &limits, request.seed, stop, report).best?,
        }
    };
    position.route(mv).map(Action::Move)
}

/// How far a hint looks ahead (plies): Strong's depth, which takes a few tens of
/// milliseconds, so hints stay well inside 150 ms (median) even on a phone.
pub const HINT_DEPTH: u32 = 3;
/// A safety net only: a hint that has not finished by then gives the best move found.
/// Normally the depth ends the search long before, so the same game gives the same hint.
pub const HINT_DEADLINE: Duration = Duration::from_millis(500);

/// The suggestion shown to a player: from the public game only (position, history and
/// setup; a hint cannot see any computer seat's state because it gets none). A search of
/// [`HINT_DEPTH`] plies with Strong's judgement and no noise.
pub fn hint(game: &Game, stop: &AtomicBool) -> Option<Action> {
    if game.is_over() {
        return None;
    }
    if game.must_pass() {
        return Some(Action::Pass);
    }
    let params = SearchParams { jitter: 0, tt_bits: 16, ..Level::Strong.params() };
    // One thread: the same game gives the same hint (a few plies take tens of milliseconds).
    let limits = Limits { depth: HINT_DEPTH, deadline: Some(Instant::now() + HINT_DEADLINE), threads: 1 };
    let mv = search::search(game, &params, &limits, 0, stop).best?;
    game.position().route(mv).map(Action::Move)
}

/// A lead (in evaluation points, about a tenth of a step each) below which a seat does
/// not count itself ahead: about one move's worth of progress.
pub const DRAW_MARGIN: i32 = 30;
/// How far (points) a seat must trail before it counts itself clearly behind and accepts
/// a draw in a game that still moves: 40 steps, about a tenth of an army's work at the
/// start. That is more than one move can make up: in test games between the levels (64
/// games, every setup) no single move changed the judgement by more than about 330
/// points. A level game, or one where a side is a move or two ahead, is not behind.
pub const BEHIND_MARGIN: i32 = 400;

/// How `seat` judges the game now: positive when its side is ahead (points). The
/// evaluation without the bonuses for the side to move (tempo, ladders), so both sides
/// of a position see the same lead, and without the walled-in blockers (they swing the
/// judgement by a whole piece's worth when an army's last pieces step out of its home in
/// the middle game; an ending walled in for good is what the stuck rules are for).
///
/// Each army's remaining work counts as a share of its work at the start, in the units
/// of `seat`'s own army: the lone 13-piece army of 3p has less to do than the 19-piece
/// ones, yet nobody is behind at the start. Every start position judges 0 for every seat.
pub fn judge(game: &Game, seat: Seat) -> i32 {
    let setup = game.setup();
    let weights = Weights { tempo: 0, ladder: 0, trapped: 0, ..Weights::DEFAULT };
    let evaluator = eval::Evaluator::new(setup, weights);
    let start = evaluator.works(&halma_rules::Position::start(setup, seat));
    let own = i64::from(start[seat.index()]);
    let mut works = evaluator.works(game.position());
    for &army in setup.seats() {
        let at_start = i64::from(start[army.index()]);
        if at_start > 0 {
            works[army.index()] = (i64::from(works[army.index()]) * own / at_start) as i32;
        }
    }
    evaluator.score(game.position(), seat, &works)
}

/// Whether `seat` counts itself ahead: its side leads by more than [`DRAW_MARGIN`], and
/// the game is not so stuck ([`HOPELESS_PLIES`] without progress) that the lead cannot
/// be turned into a win (an army walled out of its last camp square by pieces that
/// cannot or will not leave).
pub fn is_ahead(game: &Game, seat: Seat) -> bool {
    judge(game, seat) > DRAW_MARGIN && plies_without_progress(game) < HOPELESS_PLIES
}

/// Whether `seat` counts itself clearly behind: its side trails by more than
/// [`BEHIND_MARGIN`].
pub fn is_behind(game: &Game, seat: Seat) -> bool {
    judge(game, seat) < -BEHIND_MARGIN
}

/// Whether the game has stopped progressing: no progress for [`STUCK_PLIES`].
pub fn is_stuck(game: &Game) -> bool {
    plies_without_progress(game) >= STUCK_PLIES
}

/// A computer seat's answer to a draw offer: it accepts only when it cannot expect to
/// win, that is when it is clearly behind ([`is_behind`]), or when the game is stuck
/// ([`is_stuck`]) and it is not ahead ([`is_ahead`]; no lead counts once the game is
/// hopelessly stuck). It declines in a level or better game that still moves, the start
/// position included.
pub fn should_accept_draw(game: &Game, seat: Seat) -> bool {
    if game.is_over() || !game.setup().has_seat(seat) {
        return false;
    }
    is_behind(game, seat) || (is_stuck(game) && !is_ahead(game, seat))
}

/// Plies without progress after which a game counts as stuck.
pub const STUCK_PLIES: usize = 60;
/// A stuck seat offers again only after this many more plies.
pub const OFFER_INTERVAL: usize = 40;
/// Plies without progress after which no lead counts any more: both sides then offer
/// and accept draws, so games between computer players end.
pub const HOPELESS_PLIES: usize = 180;

/// Plies since the armies together last got closer to their camps than ever before.
pub fn plies_without_progress(game: &Game) -> usize {
    let total = |position: &halma_rules::Position| -> i32 {
        position.setup().seats().iter().map(|&s| eval::remaining_steps(position, s)).sum()
    };
    let count = game.history().len();
    let mut best = i32::MAX;
    let mut best_at = 0;
    for index in 0..=count {
        let position = if index == count { Some(game.position()) } else { game.position_before(index) };
        if let Some(position) = position {
            let value = total(position);
            if value < best {
                best = value;
                best_at = index;
            }
        }
    }
    count - best_at
}

/// Whether the computer seat to move offers a draw now: when the game is stuck (no
/// progress for [`STUCK_PLIES`]) and it is not ahead. A stuck seat offers once, then again
/// every [`OFFER_INTERVAL`] plies, so a human opponent is not asked every turn.
pub fn wants_draw(game: &Game) -> bool {
    if !game.can_offer_draw() {
        return false;
    }
    let stuck = plies_without_progress(game);
    let seats = game.setup().seats().len();
    stuck >= STUCK_PLIES && (stuck - STUCK_PLIES) % OFFER_INTERVAL < seats && !is_ahead(game, game.to_move())
}
