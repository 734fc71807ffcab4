//! Game analysis: the computer goes over a whole game and says, for every action, what
//! the position was worth before and after from the mover's side, the best move it
//! found, how many steps the played move gave away against it and a class (best, good,
//! inaccuracy, mistake, blunder). The class follows the win chance the move gave away
//! ([`win_chance`], fitted per setup on self-play games), so a move that changes nothing
//! in a decided game is not a mistake; the words keep the steps. Forced passes and only
//! moves are labelled, not judged; so is a draw vote at the end. See docs/ANALYSIS.md
//! for the classes, thresholds and calibration.
//!
//! Values are the search's own evaluation (points, [`Weights::step`] to a step),
//! converted to [`Steps`]. Every position of the game is searched on its own, with a
//! fresh transposition table and no noise, so the result depends on the game and the
//! [`Quality`] alone: the same at any thread count. Threads analyse different
//! positions at once (measured against lazy SMP inside each search: see
//! docs/ANALYSIS.md).

use super::eval::{Evaluator, Weights, WIN, WIN_THRESHOLD};
use super::search::{self, Iteration, Limits, RaiseOnDrop, RaiseOnPanic, SearchParams};
use super::tt::TranspositionTable;
use super::Level;
use halma_rules::{Action, Game, Move, Outcome, Position, Route, Seat, Setup};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// An amount of steps (one step is one piece moved one square nearer its camp), kept in
/// tenths so that results are exact integers: comparable in tests and reproducible.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Steps(pub i32);

impl Steps {
    pub const ZERO: Steps = Steps(0);

    /// Whole steps.
    pub const fn whole(steps: i32) -> Steps {
        Steps(steps * 10)
    }

    pub const fn tenths(self) -> i32 {
        self.0
    }

    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 10.0
    }

    /// Evaluation points to steps ([`Weights::step`] points a step), rounded toward zero.
    fn from_points(points: i32) -> Steps {
        Steps((i64::from(points) * 10 / i64::from(Weights::DEFAULT.step)) as i32)
    }
}

impl fmt::Display for Steps {
    /// `7.5`, `-12.0`: one decimal, as the tenths are exact.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        write!(f, "{sign}{}.{}", self.0.unsigned_abs() / 10, self.0.unsigned_abs() % 10)
    }
}

/// What a position is worth to one seat: a lead in steps (negative when behind), or a
/// forced result the search saw (a filled camp within its horizon).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Eval {
    Lead(Steps),
    /// The seat's side wins by force, this many plies after the position.
    Wins {
        plies: u32,
    },
    /// Another side wins by force, this many plies after the position.
    Loses {
        plies: u32,
    },
}

impl Eval {
    fn from_points(points: i32) -> Eval {
        if points > WIN_THRESHOLD {
            Eval::Wins { plies: (WIN - points).max(0) as u32 }
        } else if points < -WIN_THRESHOLD {
            Eval::Loses { plies: (WIN + points).max(0) as u32 }
        } else {
            Eval::Lead(Steps::from_points(points))
        }
    }
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Eval::Lead(steps) if steps.0 > 0 => write!(f, "+{steps}"),
            Eval::Lead(steps) => write!(f, "{steps}"),
            Eval::Wins { plies } => write!(f, "wins in {plies}"),
            Eval::Loses { plies } => write!(f, "loses in {plies}"),
        }
    }
}

/// How good a judged move was, from the steps it gave away against the best move found.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Class {
    Best,
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

// The step scale: each class's least loss in steps. It is a ceiling on the class since
// the win-chance labels (see `Class::of_judgement`): a move is never worse than its steps say.

/// Loss from which a move is [`Class::Good`] rather than best: anything above nothing.
pub const GOOD_FROM: Steps = Steps(1);
/// Loss from which a move is an [`Class::Inaccuracy`]: one step, the least a single
/// piece can gain; below it the difference is the evaluation's fine print (keeping to
/// the diagonal, a ladder rung), not progress.
pub const INACCURACY_FROM: Steps = Steps::whole(1);
/// Loss from which a move is a [`Class::Mistake`]: three steps, about one ordinary
/// move's progress (the evaluation's tempo is two steps, `ai::DRAW_MARGIN` three), so
/// the player has in effect given the opponent a move.
pub const MISTAKE_FROM: Steps = Steps::whole(3);
/// Loss from which a move is a [`Class::Blunder`]: eight steps, more than two ordinary
/// moves, about what a good jump chain gains. Passing up a long chain, or opening one
/// for the opponent, costs this much.
pub const BLUNDER_FROM: Steps = Steps::whole(8);
/// Loss from which a move is a [`Class::Blunder`] whatever its win chance says: fifteen
/// steps, five ordinary moves' progress or two long jump chains, nearly twice
/// [`BLUNDER_FROM`]. A planted 20-step blunder is one even in a lost game; the quiet
/// moves of a decided game (a few steps) are not.
pub const BLUNDER_STEPS: Steps = Steps::whole(15);
/// The loss counted for a move that misses a forced win or walks into a forced loss
/// (a blunder whatever the steps say): a hundred steps.
pub const FORCED_RESULT_LOSS: Steps = Steps::whole(100);

/// Expected result lost (win chance before minus after, from the mover's side, 0 to 1)
/// from which a move is an [`Class::Inaccuracy`]: five points in a hundred, Lichess's 0.1
/// on its -1..1 winning-chances scale (and chess.com's expected-points inaccuracy).
pub const INACCURACY_CHANCE: f64 = 0.05;
/// Expected result lost from which a move is a [`Class::Mistake`]: ten points (Lichess's
/// 0.2, chess.com's too).
pub const MISTAKE_CHANCE: f64 = 0.10;
/// Expected result lost from which a move is a [`Class::Blunder`]: fifteen points,
/// Lichess's 0.3 (chess.com takes twenty). Fifteen keeps a 20-step blunder a blunder from
/// 40 steps behind to 40 ahead, where the race is still open (docs/ANALYSIS.md).
pub const BLUNDER_CHANCE: f64 = 0.15;

/// The model from a position's value to its expected result, per setup:
/// `1 / (1 + exp(-(k * steps * phase + offset)))`, `steps` the value from the side of the
/// seat that has just moved (as the analysis values a move) and `phase` = sqrt(work at
/// the start / work left), the work of that seat's side and the nearest opposing side's
/// ([`phase`]): a lead counts more as the race shortens.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct WinModel {
    /// Per step of lead, at the start (times the phase later).
    pub k: f64,
    /// The log-odds of the expected result at a lead of zero.
    pub offset: f64,
    /// Added to `offset` for the lone 13-piece seat of 3p (B): the evaluation counts its
    /// smaller army's work in the same steps as the 19-piece armies', so it shows a lead
    /// from the start that is not one.
    pub lone_offset: f64,
}

impl WinModel {
    /// The fitted model of `setup`: by `crates/ai/data/calibration/fit_win_chance.py` (logistic
    /// regression, maximum likelihood) on `halma-arena --labels --setup <setup> --games 40
    /// --seed 41 --every 1` (self-play at Beginner, Casual and Strong in every pairing;
    /// about 9,000 positions a setup), four games in five; the fifth held out for the
    /// calibration tables of docs/ANALYSIS.md, which says how to regenerate them.
    pub const fn of(setup: Setup) -> WinModel {
        match setup {
            Setup::TwoPlayers => WinModel { k: 0.02537, offset: 0.0670, lone_offset: 0.0 },
            Setup::ThreePlayers => WinModel { k: 0.02159, offset: -1.5389, lone_offset: 2.1232 },
            Setup::FourPlayersOneArmy => WinModel { k: 0.02432, offset: 0.0085, lone_offset: 0.0 },
            Setup::FourPlayersBothArmies => WinModel { k: 0.01562, offset: 0.0287, lone_offset: 0.0 },
        }
    }

    /// The expected result (0 to 1: a win 1, a draw a half) for `seat` of a position
    /// valued `value` from its side, at `phase` ([`phase`]). A forced result is certain.
    pub fn chance(&self, seat: Seat, value: Eval, phase: f64) -> f64 {
        let lone = if seat == Seat::B { self.lone_offset } else { 0.0 };
        match value {
            Eval::Wins { .. } => 1.0,
            Eval::Loses { .. } => 0.0,
            Eval::Lead(steps) => 1.0 / (1.0 + (-(self.k * steps.as_f64() * phase + self.offset + lone)).exp()),
        }
    }
}

/// How far the race has run for `seat`: sqrt(work at the start / work left), counting
/// the work of its side and of the nearest opposing side (`Evaluator::work_of_seat`); 1 at
/// the start, growing as the armies arrive.
pub fn phase(position: &Position, seat: Seat) -> f64 {
    let setup = position.setup();
    let evaluator = Evaluator::new(setup, Weights::ANALYSIS);
    let work = |position: &Position| {
        let works = evaluator.par(&evaluator.works(position));
        let others = setup
            .seats()
            .iter()
            .filter(|&&other| !super::eval::is_on_side(setup, seat, other))
            .map(|&other| evaluator.work_of_seat(&works, other))
            .min()
            .unwrap_or(0);
        f64::from(evaluator.work_of_seat(&works, seat)) + f64::from(others)
    };
    (work(&Position::start(setup, seat)) / work(position).max(1.0)).sqrt().min(MAX_PHASE)
}

/// The largest [`phase`]: about the largest in the games the model was fitted on (their
/// last few steps of work), so hand-made positions with a few pieces are not read past
/// the data.
pub const MAX_PHASE: f64 = 16.0;

/// The expected result (0 to 1) for `seat` of `position` valued `value` from its side:
/// the analysis's win chance ([`WinModel`]).
pub fn win_chance(position: &Position, seat: Seat, value: Eval) -> f64 {
    WinModel::of(position.setup()).chance(seat, value, phase(position, seat))
}

/// Whether the result was still in doubt for the mover before a move: a win chance (with
/// the best move) of at least [`DECIDED_CHANCE`] is a game already won, at most
/// 1 − [`DECIDED_CHANCE`] one already lost.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Decided {
    Won,
    Lost,
}

impl Decided {
    /// The game's state for a mover whose win chance with the best move is `chance`.
    pub fn of_chance(chance: f64) -> Option<Decided> {
        if chance >= DECIDED_CHANCE {
            Some(Decided::Won)
        } else if chance <= 1.0 - DECIDED_CHANCE {
            Some(Decided::Lost)
        } else {
            None
        }
    }

    /// The game's state for `seat` in `position`, valued `before` with its best move.
    pub fn of(position: &Position, seat: Seat, before: Eval) -> Option<Decided> {
        Decided::of_chance(win_chance(position, seat, before))
    }
}

/// The win chance from which a game counts as decided for the mover ([`Decided`]): nine in
/// ten (or one in ten for a lost one). There the win chance hardly moves whatever is
/// played, so moves are judged by the steps they give away against the player's own best
/// ([`Class::of_decided_loss`]), as the best review tools do once the result is clear.
pub const DECIDED_CHANCE: f64 = 0.9;

// The scale of a decided game: each class's least loss in steps.

/// In a decided game, a loss from which a move is an [`Class::Inaccuracy`]: three
/// steps, about one ordinary move's progress given away.
pub const DECIDED_INACCURACY: Steps = Steps::whole(3);
/// In a decided game, a loss from which a move is a [`Class::Mistake`]: eight steps, more
/// than two ordinary moves, about what a good jump chain gains.
pub const DECIDED_MISTAKE: Steps = Steps::whole(8);
/// A loss from which a move is at least an [`Class::Inaccuracy`] wherever it is played:
/// five steps, nearly two ordinary moves. In 3p and 4p-both, where a lead counts for less,
/// the win chance alone calls most such moves good in an open race, and the side that
/// gives away most would not see where its game went (measured with `halma-arena --review`:
/// with eight steps here, 43 % of the steps the worse side gave away in one 2p game were on
/// moves labelled inaccuracy or worse; with five, at least 61 % in every game).
pub const INACCURACY_STEPS: Steps = Steps::whole(5);

impl Class {
    /// The class of a move `seat` played in `position`: by the expected result it gave
    /// away (`before` minus `after`, [`win_chance`]), never worse than its steps lost
    /// say ([`Class::of_loss`]). So a move that gives away less than a step is at most
    /// good.
    ///
    /// Where the result is no longer in doubt ([`Decided`]) the win chance hardly moves,
    /// and the move is judged by the steps it gave away against the player's own best
    /// ([`Class::of_decided_loss`]) instead when that is worse: the review still teaches
    /// the side that is far behind (or far ahead).
    ///
    /// And two floors anywhere: a move that gives away [`INACCURACY_STEPS`] or more is at
    /// least an inaccuracy, one that gives away [`BLUNDER_STEPS`] or more (a forced result
    /// missed or walked into among them) a blunder. The model is fitted on games between
    /// the levels and reads a short search; throwing away that much is worth telling.
    pub fn of_judgement(position: &Position, seat: Seat, before: Eval, after: Eval, loss: Steps) -> Class {
        if loss >= BLUNDER_STEPS {
            return Class::Blunder;
        }
        let chance_before = win_chance(position, seat, before);
        let lost = chance_before - win_chance(position, seat, after);
        let by_chance = Class::of_loss(loss).min(Class::of_chance_lost(lost, loss));
        let floor = if Decided::of_chance(chance_before).is_some() {
            Class::of_decided_loss(loss)
        } else if loss >= INACCURACY_STEPS {
            Class::Inaccuracy
        } else {
            Class::Best
        };
        by_chance.max(floor)
    }

    /// The class by steps in a decided game: good under [`DECIDED_INACCURACY`] (a quiet
    /// move that changes nothing stays good), then inaccuracy, mistake from
    /// [`DECIDED_MISTAKE`] and blunder from [`BLUNDER_STEPS`].
    pub fn of_decided_loss(loss: Steps) -> Class {
        if loss >= BLUNDER_STEPS {
            Class::Blunder
        } else if loss >= DECIDED_MISTAKE {
            Class::Mistake
        } else if loss >= DECIDED_INACCURACY {
            Class::Inaccuracy
        } else if loss > Steps::ZERO {
            Class::Good
        } else {
            Class::Best
        }
    }

    /// The class of a move that gave away `lost` of the expected result (0 to 1); best
    /// only when it lost no steps at all.
    pub fn of_chance_lost(lost: f64, loss: Steps) -> Class {
        if lost >= BLUNDER_CHANCE {
            Class::Blunder
        } else if lost >= MISTAKE_CHANCE {
            Class::Mistake
        } else if lost >= INACCURACY_CHANCE {
            Class::Inaccuracy
        } else if loss > Steps::ZERO {
            Class::Good
        } else {
            Class::Best
        }
    }

    /// The class by steps alone: a move that gave away `loss` against the best move found.
    pub fn of_loss(loss: Steps) -> Class {
        if loss >= BLUNDER_FROM {
            Class::Blunder
        } else if loss >= MISTAKE_FROM {
            Class::Mistake
        } else if loss >= INACCURACY_FROM {
            Class::Inaccuracy
        } else if loss >= GOOD_FROM {
            Class::Good
        } else {
            Class::Best
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }
}

/// The judgement of one move that had an alternative.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Judgement {
    /// The position before the move, from the mover's side: the value of the best move.
    pub before: Eval,
    /// The position after the move played, from the mover's side.
    pub after: Eval,
    /// The best move found (the move played when nothing better was found).
    pub best: Route,
    /// Steps given away against the best move (`before` minus `after`, never negative).
    pub loss: Steps,
    pub class: Class,
}

/// What the analysis says about one action.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Verdict {
    Judged(Judgement),
    /// The mover had no legal move and had to pass: nothing to judge.
    ForcedPass,
    /// The mover had exactly one legal move: nothing to choose, so nothing to judge.
    /// Its value from the mover's side after it.
    OnlyMove {
        after: Eval,
    },
}

impl Verdict {
    pub fn judgement(&self) -> Option<&Judgement> {
        match self {
            Verdict::Judged(judgement) => Some(judgement),
            _ => None,
        }
    }
}

/// One action of the game and what the analysis says about it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ActionAnalysis {
    /// Its place in the game's history (from 0).
    pub index: usize,
    pub seat: Seat,
    pub action: Action,
    pub verdict: Verdict,
}

/// A draw vote at the end of the game (the only votes a game keeps): labelled, not judged.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DrawVote {
    /// Every seat accepted: the game ended in a draw by agreement.
    Agreed,
    /// An offer by this seat is still waiting for answers.
    Offered { offerer: Seat },
}

/// One seat's game in numbers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SeatSummary {
    pub seat: Seat,
    /// Moves judged (forced passes and only moves are not).
    pub judged: usize,
    /// Judged moves in each class, best first ([`Class`] as index).
    pub classes: [usize; 5],
    /// Steps lost summed over the judged moves.
    pub total_loss: Steps,
    /// The longest jump chain the seat played: its jumps and its action index.
    pub longest_chain: Option<(usize, usize)>,
    /// The seat's costliest moves, the largest loss first (ties: the earlier move): the
    /// action index and the steps given away, for the [`COSTLIEST`] judged moves that lost
    /// a step or more.
    pub costliest: [Option<(usize, Steps)>; COSTLIEST],
}

/// How many of each seat's costliest moves its summary names.
pub const COSTLIEST: usize = 3;

impl SeatSummary {
    pub fn count(&self, class: Class) -> usize {
        self.classes[class as usize]
    }

    pub fn best_moves(&self) -> usize {
        self.count(Class::Best)
    }

    pub fn mistakes(&self) -> usize {
        self.count(Class::Mistake)
    }

    pub fn blunders(&self) -> usize {
        self.count(Class::Blunder)
    }

    /// Average steps lost per judged move (zero without any).
    pub fn average_loss(&self) -> Steps {
        match i32::try_from(self.judged) {
            Ok(judged) if judged > 0 => Steps(self.total_loss.0 / judged),
            _ => Steps::ZERO,
        }
    }
}

/// The analysis of a whole game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameAnalysis {
    pub quality: Quality,
    /// One entry per action of the game's history, in order.
    pub actions: Vec<ActionAnalysis>,
    /// The draw vote the game ended with, if any.
    pub draw: Option<DrawVote>,
    /// Per seat in play, in turn order.
    pub summaries: Vec<SeatSummary>,
    /// Every position's value (before each action, then the final one) from each seat's
    /// side (indexed by seat), as the verdicts state them: see [`GameAnalysis::graph`].
    values: Vec<[Eval; 4]>,
    /// Every position of the game (before each action, then the final one), for the win
    /// chances: the model reads a value with the position's phase.
    positions: Vec<Position>,
}

impl GameAnalysis {
    /// The value of every position of the game from `seat`'s side, the start first and
    /// the final position last (one more than the actions): the evaluation graph.
    ///
    /// It is what the verdicts say, so that an analysis read back from a record or a
    /// save draws the same graph: after each action, the mover's value after it; the
    /// mover's partner shares it and the other side has its opposite (in 3p, where each
    /// seat is its own side, the other seats keep their value from their last action).
    /// The start is the first mover's value with the best move; a forced pass changes
    /// nothing.
    pub fn graph(&self, seat: Seat) -> Vec<Eval> {
        self.values.iter().map(|views| views[seat.index()]).collect()
    }

    /// The graph as win chances (the expected result, 0 to 1, [`win_chance`]) from
    /// `seat`'s side: what a graph of winning chances would draw.
    pub fn win_chances(&self, seat: Seat) -> Vec<f64> {
        self.values
            .iter()
            .zip(&self.positions)
            .map(|(views, position)| win_chance(position, seat, views[seat.index()]))
            .collect()
    }

    /// The expected result (0 to 1) the judged move at `index` gave away, from its mover's
    /// side: what its class follows from. `None` for an action not judged.
    pub fn chance_lost(&self, index: usize) -> Option<f64> {
        let entry = self.actions.get(index)?;
        let judgement = entry.verdict.judgement()?;
        let position = self.positions.get(index)?;
        let lost =
            win_chance(position, entry.seat, judgement.before) - win_chance(position, entry.seat, judgement.after);
        Some(lost.max(0.0))
    }

    /// Whether the result was already decided for the mover of the judged move at `index`
    /// (its win chance with the best move, [`Decided`]): what the review says with the
    /// move's class ("the game was already won"). `None` for an open game or an action
    /// not judged.
    pub fn decided(&self, index: usize) -> Option<Decided> {
        let entry = self.actions.get(index)?;
        let judgement = entry.verdict.judgement()?;
        Decided::of(self.positions.get(index)?, entry.seat, judgement.before)
    }

    /// Rebuilds a whole analysis (graph and summaries) from its verdicts, as a record's
    /// comments or a save keep them: `actions` must be one per action of `game`'s
    /// history, in order, for the seat that played it, and every judged move's best move
    /// legal where it was played; `None` otherwise. An analysis of `game` rebuilt from
    /// its own verdicts equals it.
    pub fn from_verdicts(game: &Game, quality: Quality, actions: Vec<ActionAnalysis>) -> Option<GameAnalysis> {
        let history = game.history();
        if actions.len() != history.len() || !(1..=Quality::MAX_DEPTH).contains(&quality.depth) {
            return None;
        }
        for (index, (entry, action)) in actions.iter().zip(history).enumerate() {
            if entry.index != index || entry.seat != game.actor(index) || entry.action != *action {
                return None;
            }
            if let Verdict::Judged(judgement) = &entry.verdict {
                game.position_before(index)?.check_route(judgement.best.squares()).ok()?;
            }
        }
        Some(build(game, quality, actions))
    }

    pub fn summary(&self, seat: Seat) -> Option<&SeatSummary> {
        self.summaries.iter().find(|summary| summary.seat == seat)
    }
}

/// How hard the analysis looks: the depth (plies) of the search that finds each
/// position's best move; moves are valued one ply less deep after them. A fixed depth
/// and no clock, so the result is reproducible.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Quality {
    pub depth: u32,
}

impl Quality {
    /// A first look: moves valued two plies on (the opponent's reply), about a tenth of
    /// the default's time.
    pub const QUICK: Quality = Quality { depth: 3 };
    /// Moves valued three plies on, so a move that prepares the mover's next one counts:
    /// a typical 2-player game of about 170 actions within 15 s on one core
    /// (benches/analysis.rs, docs/ANALYSIS.md).
    pub const DEFAULT: Quality = Quality { depth: 4 };
    /// Four plies on: several times the default's time.
    pub const DEEP: Quality = Quality { depth: 5 };
    /// The deepest the analysis accepts.
    pub const MAX_DEPTH: u32 = 8;
}

impl Default for Quality {
    fn default() -> Quality {
        Quality::DEFAULT
    }
}

/// What an analysis may use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct AnalysisRequest {
    pub quality: Quality,
    /// Threads, each analysing other positions (at least 1, at most [`search::MAX_THREADS`]).
    pub threads: usize,
}

impl AnalysisRequest {
    /// `quality` on every core the search may use.
    pub fn new(quality: Quality) -> AnalysisRequest {
        AnalysisRequest { quality, threads: super::default_threads() }
    }

    pub fn with_threads(self, threads: usize) -> AnalysisRequest {
        AnalysisRequest { threads, ..self }
    }
}

/// Why an analysis gave no result.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AnalysisError {
    /// The stop flag was set.
    Cancelled,
    /// A thread of the analysis panicked (a bug); every thread has ended.
    Failed(String),
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::Cancelled => f.write_str("the analysis was cancelled"),
            AnalysisError::Failed(reason) => write!(f, "the analysis failed: {reason}"),
        }
    }
}

impl std::error::Error for AnalysisError {}

/// log2 of each search's table: 2 MiB, plenty for the shallow searches of an analysis.
/// Each thread allocates one and clears it before every search (a cleared table is a
/// fresh one), so an analysis holds [`TABLE_BYTES`] a thread, not a new table for every
/// search of every position (each freed table left to the allocator, docs/MEMORY.md).
const TABLE_BITS: u32 = 17;

/// The bytes of one analysis thread's table.
pub const TABLE_BYTES: usize = TranspositionTable::bytes(TABLE_BITS);

/// The analysis threads' names start with this (tests look for any left running).
pub const THREAD_NAME: &str = "halma-analysis";

/// How often the calling thread looks at the caller's stop flag while the workers run.
const POLL: Duration = Duration::from_millis(5);

/// Analyses every action of `game` (any setup, any start) at `request.quality`.
/// `progress(index, total)` is called on the calling thread as the analysis of the action
/// at `index` of `total` begins, in order. Setting `stop` ends the analysis within a few
/// milliseconds with [`AnalysisError::Cancelled`]; every thread it started has ended when
/// it returns, whatever the outcome.
pub fn analyse(
    game: &Game,
    request: &AnalysisRequest,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<GameAnalysis, AnalysisError> {
    let quality = Quality { depth: request.quality.depth.clamp(1, Quality::MAX_DEPTH) };
    let total = game.history().len();
    // One task per position: before each action, then the final one.
    let tasks = total + 1;
    let threads = request.threads.clamp(1, search::MAX_THREADS).min(tasks);
    // The searches watch this flag, not the caller's: it is also raised when a worker
    // fails, or when this function unwinds, so that no worker searches on.
    let halt = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<Task>> = vec![None; tasks];
    let mut failure = None;
    std::thread::scope(|scope| {
        let _halt_on_exit = RaiseOnDrop(&halt);
        let (sender, receiver) = mpsc::channel::<Message>();
        let mut workers = Vec::new();
        for worker in 0..threads {
            let sender = sender.clone();
            let (halt, next) = (&halt, &next);
            let spawned =
                std::thread::Builder::new().name(format!("{THREAD_NAME}-{worker}")).spawn_scoped(scope, move || {
                    let _halt_on_panic = RaiseOnPanic(halt);
                    let table = TranspositionTable::new(TABLE_BITS);
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= tasks || halt.load(Ordering::Relaxed) {
                            break;
                        }
                        if sender.send(Message::Started(index)).is_err() {
                            break;
                        }
                        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            analyse_position(game, index, quality.depth, halt, &table)
                        }));
                        let message = match outcome {
                            Ok(Some(task)) => Message::Done(index, Box::new(task)),
                            Ok(None) => break,
                            Err(panic) => Message::Failed(panic_text(panic.as_ref())),
                        };
                        if sender.send(message).is_err() {
                            break;
                        }
                    }
                });
            match spawned {
                Ok(handle) => workers.push(handle),
                // No thread to be had (a process or memory limit): analyse with those so far.
                Err(_) => break,
            }
        }
        drop(sender);
        if workers.is_empty() {
            failure = Some("no thread could be started".to_string());
            return;
        }
        let mut started = vec![false; tasks];
        let mut reported = 0;
        loop {
            if stop.load(Ordering::Relaxed) {
                halt.store(true, Ordering::Relaxed);
            }
            match receiver.recv_timeout(POLL) {
                Ok(Message::Started(index)) => {
                    started[index] = true;
                    // In order, even when a later task starts first on another thread.
                    while reported < total && started[reported] {
                        progress(reported, total);
                        reported += 1;
                    }
                }
                Ok(Message::Done(index, task)) => results[index] = Some(*task),
                Ok(Message::Failed(reason)) => {
                    halt.store(true, Ordering::Relaxed);
                    failure.get_or_insert(reason);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        // Joined one by one, not left to the scope: the scope only waits for their work
        // to end, and the caller is promised that no thread of the analysis remains.
        for worker in workers {
            if worker.join().is_err() {
                failure.get_or_insert_with(|| "an analysis thread failed".to_string());
            }
        }
    });
    if let Some(reason) = failure {
        return Err(AnalysisError::Failed(reason));
    }
    if stop.load(Ordering::Relaxed) {
        return Err(AnalysisError::Cancelled);
    }
    let tasks: Vec<Task> = results.into_iter().collect::<Option<_>>().ok_or(AnalysisError::Cancelled)?;
    Ok(assemble(game, quality, &tasks))
}

enum Message {
    Started(usize),
    Done(usize, Box<Task>),
    Failed(String),
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
        (Some(text), _) => text.to_string(),
        (None, Some(text)) => text.clone(),
        (None, None) => "unknown panic".to_string(),
    }
}

/// What one position of the game gave.
#[derive(Clone, Debug)]
struct Task {
    /// The position's value from each seat's side, searched one ply less than the quality.
    values: [i32; 4],
    /// For the action played from here: its verdict's raw material.
    choice: Choice,
}

#[derive(Clone, Debug)]
enum Choice {
    /// The final position, or a position the mover had to pass in.
    Nothing,
    OnlyMove,
    /// The best move found, and the value from each seat's side after it (searched one ply
    /// less than the quality, as the move played is).
    Best {
        best: Move,
        after: [i32; 4],
    },
}

/// The search's settings for analysis: Master's judgement without its noise, every army
/// measured against its par ([`Weights::ANALYSIS`]).
fn params() -> SearchParams {
    SearchParams { jitter: 0, tt_bits: TABLE_BITS, weights: Weights::ANALYSIS, ..Level::Master.params() }
}

/// The game as it stood before `history()[index]` (the whole game for the last index).
fn game_before(game: &Game, index: usize) -> Game {
    let mut before = game.clone();
    while before.history().len() > index {
        if !before.undo() {
            break;
        }
    }
    before
}

/// `None` when halted. `table`: the thread's, cleared before each search.
fn analyse_position(
    game: &Game,
    index: usize,
    depth: u32,
    halt: &AtomicBool,
    table: &TranspositionTable,
) -> Option<Task> {
    let here = game_before(game, index);
    let Some(played) = game.history().get(index) else {
        // The final position: only its value.
        return Some(Task { values: value(game, depth - 1, halt, table)?, choice: Choice::Nothing });
    };
    let moves = here.legal_moves();
    let choice_count = moves.count();
    if choice_count <= 1 {
        let values = value(&here, depth - 1, halt, table)?;
        let choice = if choice_count == 1 { Choice::OnlyMove } else { Choice::Nothing };
        return Some(Task { values, choice });
    }
    // One search to the quality's depth: its best move, and on the way (one ply less)
    // this position's value, as the previous action's move is valued.
    table.clear();
    let limits = Limits { depth, deadline: None, threads: 1 };
    let mut iterations = Vec::new();
    let result = search::search_with_table(&here, &params(), &limits, 0, halt, table, &mut |iteration| {
        iterations.push(iteration.clone())
    });
    if halt.load(Ordering::Relaxed) {
        return None;
    }
    let values = if depth <= 1 {
        static_values(here.position(), 0)
    } else {
        values_of_search(here.position(), &iterations, depth - 1)
    };
    let best = result.best.or_else(|| moves.iter().next())?;
    let played_move = match played {
        Action::Move(route) => Some(route.as_move()),
        Action::Pass => None,
    };
    let after = if played_move == Some(best) {
        // The same move: its value is the next position's, which that task finds.
        None
    } else {
        let mut next = here.clone();
        next.play_move(best).ok()?;
        Some(value(&next, depth - 1, halt, table)?)
    };
    Some(Task { values, choice: Choice::Best { best, after: after.unwrap_or([0; 4]) } })
}

/// The value of `game`'s position from each seat's side (indexed by seat), searched
/// `depth` plies as the analysis values the position after a move: the figures the
/// calibration of [`win_chance`] was fitted on and puzzles are judged by. `None` when
/// `stop` was set.
pub fn position_values(game: &Game, depth: u32, stop: &AtomicBool) -> Option<[Eval; 4]> {
    let table = TranspositionTable::new(TABLE_BITS);
    value(game, depth, stop, &table).map(|points| points.map(Eval::from_points))
}

/// Every legal move of the seat to move with its value from the mover's side: the
/// position after it searched `depth - 1` plies, the way the analysis values the move
/// played and the best move (so `depth` is a [`Quality`]'s depth). Best first; equal
/// values keep the move order of the rules (by origin, then destination). Empty when the
/// game is over or the seat must pass; `None` when `stop` was set.
pub fn move_values(game: &Game, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, Eval)>> {
    if game.is_over() || game.pending_offer().is_some() {
        return Some(Vec::new());
    }
    let mover = game.to_move();
    let mut valued = Vec::new();
    let table = TranspositionTable::new(TABLE_BITS);
    for mv in game.legal_moves().iter() {
        let mut next = game.clone();
        if next.play_move(mv).is_err() {
            continue;
        }
        let points = value(&next, depth.saturating_sub(1), stop, &table)?[mover.index()];
        valued.push((mv, points));
    }
    valued.sort_by_key(|&(mv, points)| (std::cmp::Reverse(points), mv.from.index(), mv.to.index()));
    Some(valued.into_iter().map(|(mv, points)| (mv, Eval::from_points(points))).collect())
}

/// The best move the analysis finds for the seat to move with a search of `depth` plies
/// (its best move at that quality). `None` without a legal move or when `stop` was set.
pub fn best_move(game: &Game, depth: u32, stop: &AtomicBool) -> Option<Move> {
    if game.is_over() {
        return None;
    }
    let table = TranspositionTable::new(TABLE_BITS);
    let limits = Limits { depth: depth.max(1), deadline: None, threads: 1 };
    let result = search::search_with_table(game, &params(), &limits, 0, stop, &table, &mut |_| {});
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    result.best
}

/// Whether the analysis's search chooses `mv` at every depth from `from` to `to` (one
/// search's iterations). The search ends at the first depth
/// that chooses another move, so a position that fails is rejected in the time of that
/// depth, not of `to`; `stop` is read between depths. `None` when `stop` was set.
/// `best_reply`: in 3p, search as the computer plays 3p (Best-Reply: only the strongest
/// opponent's reply at each turn of the opponents) instead of paranoid, where every
/// opponent's every move is tried, which takes tens of minutes at 10 plies.
pub fn chosen_at_every_depth(
    game: &Game,
    mv: Move,
    from: u32,
    to: u32,
    best_reply: bool,
    stop: &AtomicBool,
) -> Option<bool> {
    if game.is_over() {
        return Some(false);
    }
    let table = TranspositionTable::new(TABLE_BITS);
    let limits = Limits { depth: to.max(1), deadline: None, threads: 1 };
    let dropped = AtomicBool::new(stop.load(Ordering::Relaxed));
    let mut kept = Vec::new();
    let params = SearchParams { best_reply, ..params() };
    search::search_with_table(game, &params, &limits, 0, &dropped, &table, &mut |iteration| {
        let chosen = matches!(iteration.pv.first(), Some(Action::Move(route)) if route.as_move() == mv);
        if chosen {
            kept.push(iteration.depth);
        }
        if (!chosen && iteration.depth >= from) || stop.load(Ordering::Relaxed) {
            dropped.store(true, Ordering::Relaxed);
        }
    });
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    Some((from..=to).all(|depth| kept.contains(&depth)))
}

/// One legal move's value from the mover's side, as [`move_values`] gives it. `None` for
/// an illegal move or when `stop` was set.
pub fn move_value(game: &Game, mv: Move, depth: u32, stop: &AtomicBool) -> Option<Eval> {
    let mover = game.to_move();
    let mut next = game.clone();
    next.play_move(mv).ok()?;
    let table = TranspositionTable::new(TABLE_BITS);
    Some(Eval::from_points(value(&next, depth.saturating_sub(1), stop, &table)?[mover.index()]))
}

/// The value of `game`'s position from each seat's side, searched `depth` plies. A seat
/// with no choice (a pass, a single move) plays it here, as the search counts it a ply.
/// `table` is cleared before the search.
fn value(game: &Game, depth: u32, halt: &AtomicBool, table: &TranspositionTable) -> Option<[i32; 4]> {
    let position = game.position();
    match game.outcome() {
        Outcome::Ongoing => {}
        Outcome::Win(_) => return Some(static_values(position, 0)),
        Outcome::Draw(_) => return Some([0; 4]),
    }
    if depth == 0 {
        return Some(static_values(position, 0));
    }
    let moves = game.legal_moves();
    if moves.count() <= 1 {
        let mut next = game.clone();
        let played = match moves.iter().next() {
            Some(only) => next.play_move(only).is_ok(),
            None => next.pass().is_ok(),
        };
        if !played {
            // A waiting draw offer blocks actions: value the position as it is.
            return Some(static_values(position, 0));
        }
        return value(&next, depth - 1, halt, table);
    }
    table.clear();
    let limits = Limits { depth, deadline: None, threads: 1 };
    let mut iterations = Vec::new();
    search::search_with_table(game, &params(), &limits, 0, halt, table, &mut |iteration| {
        iterations.push(iteration.clone())
    });
    if halt.load(Ordering::Relaxed) {
        return None;
    }
    Some(values_of_search(position, &iterations, depth))
}

/// Each seat's value from a search of `position` (its last iteration at most `depth`
/// plies deep). In two-sided setups the score is the root's side's and the negation the
/// other's. In 3p the paranoid score is the root seat's alone, so the other seats judge
/// the position where the expected line ends, as the search judged it for the root.
fn values_of_search(position: &Position, iterations: &[Iteration], depth: u32) -> [i32; 4] {
    let Some(iteration) = iterations.iter().rev().find(|iteration| iteration.depth <= depth) else {
        return static_values(position, 0);
    };
    let setup = position.setup();
    let root = position.to_move();
    let mut values = [0; 4];
    if setup == Setup::ThreePlayers {
        let (leaf, plies) = line_end(position, &iteration.pv);
        values = static_values(&leaf, plies);
        values[root.index()] = iteration.score;
    } else {
        for &seat in setup.seats() {
            let ours = super::eval::is_on_side(setup, root, seat);
            values[seat.index()] = if ours { iteration.score } else { -iteration.score };
        }
    }
    values
}

/// The position at the end of `line` played from `position`, and the plies played.
fn line_end(position: &Position, line: &[Action]) -> (Position, u32) {
    let mut leaf = *position;
    let mut plies = 0;
    for action in line {
        match action {
            Action::Move(route) => leaf.play_unchecked(route.as_move()),
            Action::Pass => leaf.pass_unchecked(),
        }
        plies += 1;
    }
    (leaf, plies)
}

/// The static evaluation from each seat's side; a won position as the search scores a
/// win `plies` plies away.
fn static_values(position: &Position, plies: u32) -> [i32; 4] {
    let setup = position.setup();
    let mut values = [0; 4];
    let winners = position.winners();
    let evaluator = Evaluator::new(setup, Weights::ANALYSIS);
    let distance = i32::try_from(plies).unwrap_or(i32::MAX).min(WIN - WIN_THRESHOLD - 1);
    for &seat in setup.seats() {
        values[seat.index()] = match winners {
            Some(winners) if winners.contains(seat) => WIN - distance,
            Some(_) => -(WIN - distance),
            None => evaluator.evaluate(position, seat),
        };
    }
    values
}

/// Steps lost going from `best` to `played` (points, from the mover's side).
fn loss_between(best: i32, played: i32) -> Steps {
    let forced = |points: i32| points.abs() > WIN_THRESHOLD;
    if played >= best {
        Steps::ZERO
    } else if forced(best) || forced(played) {
        // A slower forced win is still a win: only its plies count, a tenth of a step each.
        if best > WIN_THRESHOLD && played > WIN_THRESHOLD {
            Steps((best - played).min(FORCED_RESULT_LOSS.0))
        } else {
            FORCED_RESULT_LOSS
        }
    } else {
        Steps::from_points(best - played)
    }
}

/// Jumps in a route (none for a step).
fn jumps(route: &Route) -> usize {
    if route.is_step() {
        0
    } else {
        route.squares().len().saturating_sub(1)
    }
}

fn assemble(game: &Game, quality: Quality, tasks: &[Task]) -> GameAnalysis {
    let history = game.history();
    let mut actions = Vec::with_capacity(history.len());
    for (index, action) in history.iter().enumerate() {
        let seat = game.actor(index);
        let here = &tasks[index];
        let played_after = tasks.get(index + 1).map_or([0; 4], |next| next.values)[seat.index()];
        let verdict = match (&here.choice, action) {
            (Choice::Nothing, _) | (_, Action::Pass) => Verdict::ForcedPass,
            (Choice::OnlyMove, _) => Verdict::OnlyMove { after: Eval::from_points(played_after) },
            (Choice::Best { best, after }, Action::Move(route)) => {
                let (best_route, best_value) = if route.as_move() == *best {
                    (route.clone(), played_after)
                } else {
                    let best_value = after[seat.index()];
                    // Nothing better found than the move played: it was the best.
                    match game.position_before(index).and_then(|position| position.route(*best)) {
                        Some(best_route) if best_value > played_after => (best_route, best_value),
                        _ => (route.clone(), played_after),
                    }
                };
                let loss = loss_between(best_value, played_after);
                Verdict::Judged(Judgement {
                    before: Eval::from_points(best_value),
                    after: Eval::from_points(played_after),
                    best: best_route,
                    loss,
                    class: Class::of_judgement(
                        game.position_before(index).unwrap_or(game.position()),
                        seat,
                        Eval::from_points(best_value),
                        Eval::from_points(played_after),
                        loss,
                    ),
                })
            }
        };
        actions.push(ActionAnalysis { index, seat, action: action.clone(), verdict });
    }
    build(game, quality, actions)
}

/// The analysis of `game` from its verdicts: the draw vote, the summaries and the graph.
fn build(game: &Game, quality: Quality, actions: Vec<ActionAnalysis>) -> GameAnalysis {
    let draw = match (game.outcome(), game.pending_offer()) {
        (Outcome::Draw(halma_rules::DrawReason::Agreement), _) => Some(DrawVote::Agreed),
        (_, Some(offer)) => Some(DrawVote::Offered { offerer: offer.offerer }),
        _ => None,
    };
    let summaries = game.setup().seats().iter().map(|&seat| summarise(seat, &actions)).collect();
    let values = values_of_verdicts(game.setup(), &actions);
    let count = game.history().len();
    let positions = (0..=count).map(|index| game.position_before(index).copied().unwrap_or(*game.position())).collect();
    GameAnalysis { quality, actions, draw, summaries, values, positions }
}

impl Eval {
    /// The same value from the other side's point of view.
    pub fn opposite(self) -> Eval {
        match self {
            Eval::Lead(steps) => Eval::Lead(Steps(-steps.0)),
            Eval::Wins { plies } => Eval::Loses { plies },
            Eval::Loses { plies } => Eval::Wins { plies },
        }
    }
}

/// Every position's value from each seat's side, as the verdicts state them (see
/// [`GameAnalysis::graph`]).
fn values_of_verdicts(setup: Setup, actions: &[ActionAnalysis]) -> Vec<[Eval; 4]> {
    let mut views = [Eval::Lead(Steps::ZERO); 4];
    let set = |views: &mut [Eval; 4], mover: Seat, value: Eval| {
        for &seat in setup.seats() {
            if seat == mover || setup != Setup::ThreePlayers {
                let ours = super::eval::is_on_side(setup, mover, seat);
                views[seat.index()] = if ours { value } else { value.opposite() };
            }
        }
    };
    match actions.first().map(|entry| (entry.seat, &entry.verdict)) {
        Some((seat, Verdict::Judged(judgement))) => set(&mut views, seat, judgement.before),
        Some((seat, Verdict::OnlyMove { after })) => set(&mut views, seat, *after),
        _ => {}
    }
    let mut values = Vec::with_capacity(actions.len() + 1);
    values.push(views);
    for entry in actions {
        match &entry.verdict {
            Verdict::Judged(judgement) => set(&mut views, entry.seat, judgement.after),
            Verdict::OnlyMove { after } => set(&mut views, entry.seat, *after),
            Verdict::ForcedPass => {}
        }
        values.push(views);
    }
    values
}

fn summarise(seat: Seat, actions: &[ActionAnalysis]) -> SeatSummary {
    let mut summary = SeatSummary {
        seat,
        judged: 0,
        classes: [0; 5],
        total_loss: Steps::ZERO,
        longest_chain: None,
        costliest: [None; COSTLIEST],
    };
    let mut losses = Vec::new();
    for entry in actions.iter().filter(|entry| entry.seat == seat) {
        if let Action::Move(route) = &entry.action {
            let chain = jumps(route);
            if chain > 0 && summary.longest_chain.is_none_or(|(longest, _)| chain > longest) {
                summary.longest_chain = Some((chain, entry.index));
            }
        }
        if let Verdict::Judged(judgement) = &entry.verdict {
            summary.judged += 1;
            summary.classes[judgement.class as usize] += 1;
            summary.total_loss = Steps(summary.total_loss.0.saturating_add(judgement.loss.0));
            if judgement.loss >= INACCURACY_FROM {
                losses.push((entry.index, judgement.loss));
            }
        }
    }
    losses.sort_by_key(|&(index, loss)| (std::cmp::Reverse(loss), index));
    for (slot, costly) in summary.costliest.iter_mut().zip(losses) {
        *slot = Some(costly);
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysed(setup: Setup, moves: usize) -> (Game, GameAnalysis) {
        let mut game = Game::new(setup, setup.seats()[0]);
        for _ in 0..moves {
            let Some(first) = game.legal_moves().iter().next() else { break };
            assert!(game.play_move(first).is_ok());
        }
        let request = AnalysisRequest::new(Quality::QUICK).with_threads(2);
        let analysis = analyse(&game, &request, &AtomicBool::new(false), &mut |_, _| {});
        (game, analysis.unwrap_or_else(|error| panic!("{error}")))
    }

    #[test]
    fn an_analysis_rebuilt_from_its_verdicts_equals_it() {
        for setup in [Setup::TwoPlayers, Setup::ThreePlayers, Setup::FourPlayersOneArmy] {
            let (game, analysis) = analysed(setup, 9);
            let rebuilt = GameAnalysis::from_verdicts(&game, analysis.quality, analysis.actions.clone());
            assert_eq!(rebuilt.as_ref(), Some(&analysis), "{setup}");
            assert_eq!(analysis.graph(setup.seats()[0]).len(), 10);
        }
    }

    #[test]
    fn verdicts_of_another_game_are_refused() {
        let (game, analysis) = analysed(Setup::TwoPlayers, 6);
        let (other, _) = analysed(Setup::TwoPlayers, 5);
        assert_eq!(GameAnalysis::from_verdicts(&other, analysis.quality, analysis.actions.clone()), None);
        let mut shifted = analysis.actions.clone();
        shifted.swap(0, 1);
        assert_eq!(GameAnalysis::from_verdicts(&game, analysis.quality, shifted), None);
        assert_eq!(GameAnalysis::from_verdicts(&game, Quality { depth: 0 }, analysis.actions.clone()), None);
    }

    #[test]
    fn in_two_sided_games_the_graph_is_one_line_seen_from_both_sides() {
        let (_, analysis) = analysed(Setup::TwoPlayers, 8);
        let a = analysis.graph(Seat::A);
        let c = analysis.graph(Seat::C);
        assert!(a.iter().zip(&c).all(|(a, c)| a.opposite() == *c));
    }

    #[test]
    fn a_move_is_chosen_at_every_depth_only_when_each_search_chooses_it() {
        let game = Game::new(Setup::TwoPlayers, Seat::A);
        let stop = AtomicBool::new(false);
        let chosen: Vec<Move> = (1..=3).filter_map(|depth| best_move(&game, depth, &stop)).collect();
        assert_eq!(chosen.len(), 3);
        let steady = chosen.iter().all(|&mv| mv == chosen[0]);
        assert_eq!(chosen_at_every_depth(&game, chosen[0], 1, 3, false, &stop), Some(steady));
        assert_eq!(chosen_at_every_depth(&game, chosen[2], 3, 3, false, &stop), Some(true));
        let other = game.legal_moves().iter().find(|&mv| !chosen.contains(&mv));
        let other = other.unwrap_or_else(|| panic!("the opening has moves no search chooses"));
        assert_eq!(chosen_at_every_depth(&game, other, 1, 3, false, &stop), Some(false));
        stop.store(true, Ordering::Relaxed);
        assert_eq!(chosen_at_every_depth(&game, chosen[2], 3, 3, false, &stop), None);
    }
}
