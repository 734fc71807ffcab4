//! Puzzles: positions from real games where one move is clearly best (docs/PUZZLES.md).
//!
//! A puzzle is a position, its answer (a route; any route of the same piece to the same
//! square counts, as for the rules) and the steps the answer gains over every other
//! move. Moves are valued as the analysis values them ([`analysis::move_values`]): the
//! position after the move searched a few plies, from the mover's side. The built-in set
//! ([`BUILT_IN`], `crates/ai/data/puzzles.txt`) was made by `halma-arena --puzzles` from
//! self-play games by [`find`]'s rules (issue 51): enough legal moves, a margin by the
//! search and by a plain count of king steps, and the same answer from [`VERIFY_DEPTH`] to
//! [`STABLE_TO`]. `tests/puzzles.rs` re-verifies every answer without the deep searches.
//!
//! Everything here is pure and deterministic: the same set and date give the same puzzle
//! of the day on every device, and a bad line of a puzzle file is reported, never fatal.

use super::analysis::{self, Class, Decided, Eval, Steps};
use super::eval::{Evaluator, Weights};
use super::{Level, SearchRequest};
use halma_rules::{parse_hpn_fields, parse_move, Action, Game, Move, MoveText, Position, Route, Seat, Setup, Square};
use std::fmt;
use std::sync::atomic::AtomicBool;

/// The built-in puzzles (`crates/ai/data/puzzles.txt`).
pub const BUILT_IN: &str = include_str!("../data/puzzles.txt");

/// The depth (as an analysis [`analysis::Quality`]'s: moves valued one ply less after
/// them) at which every shipped answer is re-verified, in `tests/puzzles.rs` by
/// [`quick_check`]: each move valued by its opponents' best reply. Cheap enough to
/// check every puzzle in a debug build.
pub const VERIFY_DEPTH: u32 = 2;
/// The depth at which the generator values a candidate's answer again: it must still beat
/// the [`DEEP_RIVALS`] best other moves by [`MIN_GAIN`] there. Six plies: at four (the
/// analysis's default) half the answers changed under a deeper search.
pub const GENERATOR_DEPTH: u32 = 6;
/// The least an answer gains over every other move, at both depths: three steps, a
/// mistake's worth on the analysis's step scale (about one ordinary move given away).
pub const MIN_GAIN: Steps = Steps::whole(3);

/// How hard a puzzle is, from the depth it needs and how far its answer is from the
/// obvious greedy move (see [`Difficulty::grade`]).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
}

impl Difficulty {
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    /// `depth`: the least depth at which the answer is already clearly best (1: the
    /// position right after it shows it); `greedy_rank`: the answer's place among the
    /// moves by distance gained (1: it is the move that gains most). Easy: the greedy
    /// move, clear at once. Hard: neither the greedy move (nor its runner-up) nor clear
    /// before the opponents' reply is seen. Medium: the rest.
    pub fn grade(depth: u32, greedy_rank: usize) -> Difficulty {
        if depth <= 1 && greedy_rank <= 1 {
            Difficulty::Easy
        } else if depth >= 2 && greedy_rank >= 3 {
            Difficulty::Hard
        } else {
            Difficulty::Medium
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }

    pub fn from_name(name: &str) -> Option<Difficulty> {
        Difficulty::ALL.into_iter().find(|difficulty| difficulty.name() == name)
    }
}

/// One puzzle, as a line of the puzzle file holds it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Puzzle {
    /// `<setup>-<seed>-<game>-<ply>`: where the generator found it.
    pub id: String,
    pub difficulty: Difficulty,
    /// Steps the answer gains over the best other move at [`VERIFY_DEPTH`].
    pub gain: Steps,
    /// The same at [`GENERATOR_DEPTH`].
    pub deep_gain: Steps,
    /// The least depth at which the answer is clearly best (by [`MIN_GAIN`]).
    pub depth: u32,
    /// The answer's place among the moves by distance gained (1: the greedy move).
    pub greedy_rank: usize,
    /// The answer's route (one shortest route; any route of the same move is right).
    pub answer: Route,
    /// The best other move at [`GENERATOR_DEPTH`], for the explanation.
    pub runner_up: Route,
    /// The position; the seat to move solves it.
    pub position: Position,
}

/// A wrong answer judged as the review judges a move: the steps it gives away against the
/// answer, its class, and whether the game was already decided for the mover.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct WrongAnswer {
    pub loss: Steps,
    pub class: Class,
    pub decided: Option<Decided>,
}

/// Why a puzzle line was refused: its line number (from 1) and the reason.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PuzzleError {
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "puzzle line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for PuzzleError {}

/// A set of puzzles read from a file: those that parsed, and the lines refused.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PuzzleSet {
    pub puzzles: Vec<Puzzle>,
    pub errors: Vec<PuzzleError>,
}

/// What a move played in a puzzle is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Answer {
    /// The answer's piece to the answer's square (by any route).
    Solved,
    /// Another legal move.
    Wrong,
    /// Not a legal move in the puzzle's position.
    Illegal,
}

/// Steps written with one decimal (`6.5`, `-2.0`), as [`Steps`] displays them.
fn parse_steps(text: &str) -> Result<Steps, String> {
    let bad = || format!("bad steps '{}'", halma_rules::excerpt(text));
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, tenth) = digits.split_once('.').ok_or_else(bad)?;
    if whole.is_empty() || tenth.len() != 1 || !whole.bytes().chain(tenth.bytes()).all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let whole: i32 = whole.parse().map_err(|_| bad())?;
    let tenth: i32 = tenth.parse().map_err(|_| bad())?;
    let tenths = whole.checked_mul(10).and_then(|t| t.checked_add(tenth)).ok_or_else(bad)?;
    Ok(Steps(if negative { -tenths } else { tenths }))
}

/// A route checked against `position`: legal, and written as the file has it.
fn parse_route(position: &Position, text: &str) -> Result<(Route, Move), String> {
    let squares = match parse_move(text).map_err(|e| e.to_string())? {
        MoveText::Route(squares) => squares,
        MoveText::Pass => return Err("a puzzle's move cannot be a pass".to_string()),
    };
    let mv = position
        .check_route(&squares)
        .map_err(|e| format!("'{}' is not legal here: {e}", halma_rules::excerpt(text)))?;
    Ok((Route::new(squares), mv))
}

impl Puzzle {
    /// The number of fields of a line.
    pub const FIELDS: usize = 12;

    /// Parses one line: `id difficulty gain deep-gain depth greedy-rank answer runner-up`
    /// then the position in HPN (four fields). See docs/PUZZLES.md.
    pub fn parse(line: &str) -> Result<Puzzle, String> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [id, difficulty, gain, deep_gain, depth, rank, answer, runner_up, rows, to_move, setup, plies] = fields[..]
        else {
            return Err(format!("{} fields instead of {}", fields.len(), Puzzle::FIELDS));
        };
        let position = parse_hpn_fields(rows, to_move, setup, plies).map_err(|e| e.to_string())?;
        let difficulty = Difficulty::from_name(difficulty)
            .ok_or_else(|| format!("bad difficulty '{}' (easy, medium or hard)", halma_rules::excerpt(difficulty)))?;
        let depth: u32 = match depth.parse() {
            Ok(depth @ 1..=8) => depth,
            _ => return Err(format!("bad depth '{}' (1..=8)", halma_rules::excerpt(depth))),
        };
        let greedy_rank: usize = match rank.parse() {
            Ok(rank @ 1..) => rank,
            _ => return Err(format!("bad greedy rank '{}'", halma_rules::excerpt(rank))),
        };
        let (answer, answer_move) = parse_route(&position, answer).map_err(|e| format!("answer: {e}"))?;
        let (runner_up, runner_move) = parse_route(&position, runner_up).map_err(|e| format!("runner-up: {e}"))?;
        if answer_move == runner_move {
            return Err("the runner-up is the answer".to_string());
        }
        Ok(Puzzle {
            id: id.to_string(),
            difficulty,
            gain: parse_steps(gain).map_err(|e| format!("gain: {e}"))?,
            deep_gain: parse_steps(deep_gain).map_err(|e| format!("deep gain: {e}"))?,
            depth,
            greedy_rank,
            answer,
            runner_up,
            position,
        })
    }

    /// The line of the puzzle file that [`Puzzle::parse`] reads back as this puzzle.
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {} {} {} {} {} {}",
            self.id,
            self.difficulty.name(),
            self.gain,
            self.deep_gain,
            self.depth,
            self.greedy_rank,
            self.answer,
            self.runner_up,
            halma_rules::write_hpn(&self.position)
        )
    }

    pub fn setup(&self) -> Setup {
        self.position.setup()
    }

    /// The answer as a move (piece and destination).
    pub fn answer_move(&self) -> Move {
        Move { from: self.answer.from(), to: self.answer.to() }
    }

    /// The first hint: the piece to move.
    pub fn hint_piece(&self) -> Square {
        self.answer.from()
    }

    /// The second hint: where the answer's first step or jump lands.
    pub fn hint_first_landing(&self) -> Square {
        self.answer.squares().get(1).copied().unwrap_or(self.answer.to())
    }

    /// A game from the puzzle's position, for the board.
    pub fn game(&self) -> Game {
        Game::from_position(self.position)
    }

    /// What `mv` is here: the answer, another legal move, or no legal move.
    pub fn check(&self, mv: Move) -> Answer {
        if !self.position.legal_moves().contains(mv) {
            Answer::Illegal
        } else if mv == self.answer_move() {
            Answer::Solved
        } else {
            Answer::Wrong
        }
    }

    /// What `mv` gives away against the answer at `depth` (as an analysis quality's),
    /// from the mover's side, judged as the review judges a move: what a wrong answer is
    /// told. `None` for an illegal move, a forced result in the way, or when `stop` was
    /// set. A search: run it off the interface's thread (at [`VERIFY_DEPTH`] it takes
    /// milliseconds).
    pub fn loss_of(&self, mv: Move, depth: u32, stop: &AtomicBool) -> Option<WrongAnswer> {
        let valued = analysis::move_values(&self.game(), depth, stop)?;
        let value = |wanted: Move| valued.iter().find(|(mv, _)| *mv == wanted).map(|&(_, value)| value);
        let (before, after) = (value(self.answer_move())?, value(mv)?);
        let (Eval::Lead(answer), Eval::Lead(played)) = (before, after) else { return None };
        let loss = Steps((answer.0 - played.0).max(0));
        let seat = self.position.to_move();
        Some(WrongAnswer {
            loss,
            class: Class::of_judgement(&self.position, seat, before, after, loss),
            decided: Decided::of(&self.position, seat, before),
        })
    }
}

/// Reads a puzzle file: `#` starts a comment line, blank lines are skipped, every other
/// line is a puzzle. Lines that do not parse are kept as errors, the rest as puzzles.
pub fn parse_set(text: &str) -> PuzzleSet {
    let mut set = PuzzleSet::default();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match Puzzle::parse(line) {
            Ok(puzzle) => set.puzzles.push(puzzle),
            Err(reason) => set.errors.push(PuzzleError { line: number + 1, reason }),
        }
    }
    set
}

/// The built-in set.
pub fn built_in() -> PuzzleSet {
    parse_set(BUILT_IN)
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (negative before).
pub fn days_from_civil(year: i32, month: u32, day: u32) -> i64 {
    // Howard Hinnant's algorithm, on i64 so no year overflows.
    let year = i64::from(year) - i64::from(month <= 2);
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(month);
    let day_of_year = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The puzzle of the day (a date in the calendar, as the device's local date): the same
/// for a date on every device, as it depends on the date and the set alone. Day `d` shows
/// puzzle `(d × stride) mod n` ([`day_stride`]): the stride has no factor in common with
/// the set's size, so any `n` days in a row show `n` different puzzles (with a random
/// draw, a set of 112 showed one puzzle twice within a week), and about 0.618 × `n`, so
/// consecutive days visit the set out of order. `None` for an empty set.
pub fn puzzle_of_the_day(puzzles: &[Puzzle], year: i32, month: u32, day: u32) -> Option<&Puzzle> {
    let size = i64::try_from(puzzles.len()).ok().filter(|&size| size > 0)?;
    let stride = day_stride(size);
    let place = (i128::from(days_from_civil(year, month, day)) * i128::from(stride)).rem_euclid(i128::from(size));
    puzzles.get(usize::try_from(place).ok()?)
}

/// The step from one day's puzzle to the next in a set of `size`: the nearest number to
/// `size` / φ that shares no factor with `size` (1 for a set of one or two).
pub fn day_stride(size: i64) -> i64 {
    fn gcd(a: i64, b: i64) -> i64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    let golden = (size as f64 * 0.618_033_988_75).round() as i64;
    (0..size)
        .flat_map(|offset| [golden + offset, golden - offset])
        .find(|&stride| stride >= 1 && stride < size && gcd(stride, size) == 1)
        .unwrap_or(1)
}

/// How clearly one move is best in a position at one depth.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Measure {
    pub best: Move,
    pub best_route: Route,
    /// The best other move.
    pub runner_up: Move,
    pub runner_up_route: Route,
    /// The best move's value minus the runner-up's, in steps from the mover's side.
    pub gain: Steps,
}

/// Values every move of the seat to move at `depth` ([`analysis::move_values`]) and says
/// how far the best is ahead of the next. `None` without two moves, when the best two
/// values are not both leads in steps (a forced result), or when `stop` was set.
pub fn measure(game: &Game, depth: u32, stop: &AtomicBool) -> Option<Measure> {
    measure_of(game.position(), &analysis::move_values(game, depth, stop)?)
}

/// [`measure`] from the moves already valued, best first.
fn measure_of(position: &Position, valued: &[(Move, Eval)]) -> Option<Measure> {
    let [(best, Eval::Lead(best_value)), (runner_up, Eval::Lead(runner_value)), ..] = valued[..] else {
        return None;
    };
    Some(Measure {
        best,
        best_route: position.route(best)?,
        runner_up,
        runner_up_route: position.route(runner_up)?,
        gain: Steps(best_value.0 - runner_value.0),
    })
}

/// The place of `mv` among the legal moves by distance gained (1: none gains more),
/// the way the greedy player and the search's move ordering count it.
pub fn greedy_rank(position: &Position, mv: Move) -> usize {
    let evaluator = Evaluator::new(position.setup(), Weights::DEFAULT);
    let army = position.army_to_move();
    let gain = |m: Move| evaluator.gain(army, m.from, m.to);
    let own = gain(mv);
    1 + position.legal_moves().iter().filter(|&other| gain(other) > own).count()
}

/// The deepest of the searches that must all choose a puzzle's answer, from
/// [`VERIFY_DEPTH`] on: ten plies, five moves of each side in 2p; one more with four seats
/// ([`Rules::stable_to`]), where ten plies are only two and a half moves of each seat.
pub const STABLE_TO: u32 = 10;

/// How deep the computer's own search looks when it checks a candidate last, in every
/// setup: the move `halma-engine` plays with `setoption threads 1` and `go level Master
/// depth 10` (its Master search as it plays, Best-Reply in 3p, so the same every time),
/// the depth at which an outside referee re-solves the puzzles.
pub const COMPUTER_CHECK_DEPTH: u32 = 10;

/// The move the computer's Master search chooses at `depth`, one thread, no time limit:
/// exactly what `halma-engine` answers to `go level Master depth <depth>` after
/// `setoption threads 1`. `None` when it passes, the game is over or `stop` was set.
pub fn computer_choice(game: &Game, depth: u32, stop: &AtomicBool) -> Option<Move> {
    let request = SearchRequest::new(Level::Master).with_depth(depth).with_threads(1);
    match super::choose_action(game, &request, stop)? {
        Action::Move(route) => Some(route.as_move()),
        Action::Pass => None,
    }
}

/// How many of the best other moves (by their value at [`VERIFY_DEPTH`]) the generator
/// values again at the deep depth to measure the deep gain.
pub const DEEP_RIVALS: usize = 6;

/// A candidate puzzle in `game`'s position, found and checked the way the generator does:
/// at least [`MIN_MOVES`] legal moves; at [`VERIFY_DEPTH`] one move beats every other by
/// at least [`MIN_GAIN`], and by the plain measure too ([`plain_gain`]); the analysis's
/// search chooses it at every depth from [`VERIFY_DEPTH`] to [`STABLE_TO`] (11 with four
/// seats: [`Rules::stable_to`]; Best-Reply in 3p); valued at
/// `deep` (at least [`GENERATOR_DEPTH`]) it still beats the [`DEEP_RIVALS`] best other
/// moves by [`MIN_GAIN`]; and the computer's own Master search, [`COMPUTER_CHECK_DEPTH`]
/// plies, plays it. `None` otherwise.
pub fn find(game: &Game, id: &str, deep: u32, stop: &AtomicBool) -> Option<Puzzle> {
    find_by(Rules::CURRENT, game, id, deep, stop)
}

/// How deep a puzzle's answer is searched: the steadiness check and the engine's own
/// search, by today's rules ([`Rules::CURRENT`], issue 51), or shallower for a quick
/// re-check of a sample (`tests/puzzles.rs`, where searches to depth 10 in every run would
/// cost minutes).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    /// The searches that must all choose the answer: from this depth to the next (one
    /// search's iterations).
    pub stable: (u32, u32),
    /// Plies the deepest of those searches looks further with four seats.
    pub four_seats_further: u32,
    /// The depth of the computer's own search that must play the answer last
    /// ([`computer_choice`]); `None` leaves that check out (a quick re-check: the engine's
    /// search at a shallower depth may play another move than at 10).
    pub computer_depth: Option<u32>,
}

impl Rules {
    pub const CURRENT: Rules =
        Rules { stable: (VERIFY_DEPTH, STABLE_TO), four_seats_further: 1, computer_depth: Some(COMPUTER_CHECK_DEPTH) };

    /// The deepest search that must choose the answer in `setup`.
    pub fn stable_to(self, setup: Setup) -> u32 {
        match setup {
            Setup::TwoPlayers | Setup::ThreePlayers => self.stable.1,
            Setup::FourPlayersOneArmy | Setup::FourPlayersBothArmies => self.stable.1 + self.four_seats_further,
        }
    }
}

/// [`find`] by `rules`.
pub fn find_by(rules: Rules, game: &Game, id: &str, deep: u32, stop: &AtomicBool) -> Option<Puzzle> {
    let deep = deep.max(GENERATOR_DEPTH);
    if game.legal_moves().count() < MIN_MOVES as u64 {
        return None;
    }
    // The plain measure before the search: it turns away most positions for less than the
    // search costs (trying every position of two games took half the time it had). The
    // order changes nothing else: every check must pass.
    let plain_best = plain_answer(&plain_values(game.position()))?;
    let valued = analysis::move_values(game, VERIFY_DEPTH, stop)?;
    let shallow = measure_of(game.position(), &valued)?;
    if shallow.gain < MIN_GAIN || shallow.best != plain_best {
        return None;
    }
    // The cheap checks first (the checks only all pass or not, so their order changes
    // nothing else): the steadiness to the deep depth, where most unsteady answers already
    // show in under a second, and the deep gain, seconds at most, before the steadiness
    // search to its end, which takes up to minutes.
    let setup = game.position().setup();
    let (from, to) = (rules.stable.0, rules.stable_to(setup));
    // In 3p as the computer searches 3p (Best-Reply): a paranoid search to 10 plies took
    // more than 13 minutes on one candidate.
    let best_reply = setup == Setup::ThreePlayers;
    if !analysis::chosen_at_every_depth(game, shallow.best, from, deep.min(to), best_reply, stop)? {
        return None;
    }
    let lead = |value: Eval| match value {
        Eval::Lead(steps) => Some(steps),
        _ => None,
    };
    let answer_deep = lead(analysis::move_value(game, shallow.best, deep, stop)?)?;
    let mut runner_up: Option<(Move, Steps)> = None;
    for &(rival, _) in valued.iter().skip(1).take(DEEP_RIVALS) {
        let value = lead(analysis::move_value(game, rival, deep, stop)?)?;
        if runner_up.is_none_or(|(_, best)| value > best) {
            runner_up = Some((rival, value));
        }
    }
    let (runner_up, runner_value) = runner_up?;
    let deep_gain = Steps(answer_deep.0 - runner_value.0);
    if deep_gain < MIN_GAIN {
        return None;
    }
    // Chosen at every depth from the verification depth to STABLE_TO, one more with four
    // seats (one search's iterations): a move that a deeper search drops or takes back is
    // no clear answer.
    if to > deep && !analysis::chosen_at_every_depth(game, shallow.best, from, to, best_reply, stop)? {
        return None;
    }
    if let Some(depth) = rules.computer_depth {
        if computer_choice(game, depth, stop)? != shallow.best {
            return None;
        }
    }
    // The least depth at which the answer is already clearly best.
    let depth = if measure(game, 1, stop).is_some_and(|m| m.best == shallow.best && m.gain >= MIN_GAIN) {
        1
    } else {
        VERIFY_DEPTH
    };
    let greedy_rank = greedy_rank(game.position(), shallow.best);
    Some(Puzzle {
        id: id.to_string(),
        difficulty: Difficulty::grade(depth, greedy_rank),
        gain: shallow.gain,
        deep_gain,
        depth,
        greedy_rank,
        answer: shallow.best_route,
        runner_up: game.position().route(runner_up)?,
        position: *game.position(),
    })
}

/// The fewest legal moves a puzzle's position has: with fewer (the home-leaving duty
/// often leaves two or three) the answer is found by trying them all.
pub const MIN_MOVES: usize = 8;

/// The plain measure of every legal move of the seat to move, best first (ties in the
/// rules' move order): independent of the search and its evaluation, it counts king
/// steps alone ([`super::eval::remaining_steps`]). A move's value is the mover's plain
/// lead ([`plain_lead`]) after it and the reply that leaves the mover worst off (every
/// legal reply of the next seat tried; a pass when it has none), in whole steps; a move
/// that wins at once is worth [`PLAIN_WIN`].
pub fn plain_values(position: &Position) -> Vec<(Move, i32)> {
    let mover = position.to_move();
    let pars = PlainPars::of(position.setup());
    let mut valued: Vec<(Move, i32)> = position
        .legal_moves()
        .iter()
        .map(|mv| {
            let mut after = *position;
            after.play_unchecked(mv);
            if after.winners().is_some_and(|winners| winners.contains(mover)) {
                return (mv, PLAIN_WIN);
            }
            let replies = after.legal_moves();
            let worst = replies
                .iter()
                .map(|reply| {
                    let mut replied = after;
                    replied.play_unchecked(reply);
                    pars.lead(&replied, mover)
                })
                .min();
            let value = worst.unwrap_or_else(|| {
                let mut passed = after;
                passed.pass_unchecked();
                pars.lead(&passed, mover)
            });
            (mv, value)
        })
        .collect();
    valued.sort_by_key(|&(mv, value)| (std::cmp::Reverse(value), mv.from.index(), mv.to.index()));
    valued
}

/// The value of a move that wins the game at once in [`plain_values`].
pub const PLAIN_WIN: i32 = 10_000;

/// `seat`'s plain lead in `position`, in whole king steps: the nearest opposing side's
/// remaining steps minus its own side's ([`super::eval::remaining_steps`]; a team's both
/// armies in 4p-both, its nearer army in 4p-one). In 3p each army's steps count against
/// its par, as a share of its steps at the start in a 19-piece army's units, so the lone
/// 13-piece army is not ahead by its size alone.
pub fn plain_lead(position: &Position, seat: Seat) -> i32 {
    PlainPars::of(position.setup()).lead(position, seat)
}

/// Each army's steps at the start of a setup and the largest of them: the pars
/// [`plain_lead`] scales by, worked out once for all the positions [`plain_values`] counts.
struct PlainPars {
    setup: Setup,
    largest: i32,
    pars: [i32; 4],
}

impl PlainPars {
    fn of(setup: Setup) -> PlainPars {
        let start = Position::start(setup, setup.seats()[0]);
        let mut pars = [1; 4];
        for &army in setup.seats() {
            pars[army.index()] = super::eval::remaining_steps(&start, army).max(1);
        }
        let largest = setup.seats().iter().map(|&army| pars[army.index()]).max().unwrap_or(1);
        PlainPars { setup, largest, pars }
    }

    fn lead(&self, position: &Position, seat: Seat) -> i32 {
        let setup = self.setup;
        let steps = |army: Seat| super::eval::remaining_steps(position, army) * self.largest / self.pars[army.index()];
        let side = |seat: Seat| match setup {
            Setup::TwoPlayers | Setup::ThreePlayers => steps(seat),
            Setup::FourPlayersBothArmies => steps(seat) + steps(seat.opposite()),
            Setup::FourPlayersOneArmy => steps(seat).min(steps(seat.opposite())),
        };
        let others = setup
            .seats()
            .iter()
            .filter(|&&other| !super::eval::is_on_side(setup, seat, other))
            .map(|&other| side(other))
            .min()
            .unwrap_or(0);
        others - side(seat)
    }
}

/// How far the answer `mv` is ahead of every other move by the plain measure
/// ([`plain_values`]), in whole steps: negative when another move is as good or better.
/// `None` for a move that is not legal.
pub fn plain_gain(position: &Position, mv: Move) -> Option<i32> {
    let valued = plain_values(position);
    let answer = valued.iter().find(|(other, _)| *other == mv)?.1;
    let rival = valued.iter().filter(|(other, _)| *other != mv).map(|&(_, value)| value).max();
    Some(rival.map_or(PLAIN_WIN, |rival| answer - rival))
}

/// The move that is at least [`MIN_GAIN`] ahead of every other by the plain measure, from
/// the moves [`plain_values`] valued: the only move whose [`plain_gain`] can pass.
fn plain_answer(valued: &[(Move, i32)]) -> Option<Move> {
    match valued {
        [(only, _)] => Some(*only),
        [(best, value), (_, rival), ..] if Steps::whole(value - rival) >= MIN_GAIN => Some(*best),
        _ => None,
    }
}

/// The checks of a puzzle that need no deep search: at least [`MIN_MOVES`] legal moves,
/// `answer` best by at least [`MIN_GAIN`] over every other move both by the plain measure
/// ([`plain_gain`]) and at [`VERIFY_DEPTH`]. Gives the gain at the verification depth, or
/// why the position is no puzzle.
pub fn quick_check(game: &Game, answer: Move, stop: &AtomicBool) -> Result<Steps, String> {
    let moves = game.legal_moves().count();
    if moves < MIN_MOVES as u64 {
        return Err(format!("{moves} legal moves, fewer than {MIN_MOVES}"));
    }
    let plain = plain_gain(game.position(), answer).ok_or("the answer is not legal")?;
    if Steps::whole(plain) < MIN_GAIN {
        return Err(format!("{plain} steps ahead by the plain measure, less than {MIN_GAIN}"));
    }
    let measured = measure(game, VERIFY_DEPTH, stop).ok_or("no measure: a forced result")?;
    if measured.best != answer {
        return Err(format!("the best move is {}", measured.best_route));
    }
    if measured.gain < MIN_GAIN {
        return Err(format!("the answer gains {} steps, less than {MIN_GAIN}", measured.gain));
    }
    Ok(measured.gain)
}
