//! The `halma-engine` text protocol (docs/PROTOCOL.md): one command per line in,
//! one or more lines out. Bad input gets `error <reason>` and changes nothing.
//!
//! [`Engine::handle`] answers one line at a time (a `go` or `analyse` there runs before
//! it returns); [`run`] is the session the program runs: it reads on while `go` searches
//! (or `analyse` analyses) on a thread of its own, so `stop`, `isready` and `quit` are
//! answered meanwhile.

use crate::ai::analysis::{self, AnalysisError, AnalysisRequest, Eval, GameAnalysis, Quality, Verdict};
use crate::ai::{self, Level, SearchRequest};
use crate::record::{Record, RecordError, RecordProblem, MAX_RECORDS_BYTES, MAX_RECORD_BYTES};
use crate::rules::{
    excerpt, parse_hpn_fields, path_excerpt, write_hpn, Action, DrawReason, Game, Outcome, Position, Seat, Setup,
    MAX_ACTIONS,
};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// The longest command line read; longer lines are answered with an error.
pub const MAX_LINE_BYTES: usize = 1 << 20;
/// The deepest perft accepted (deeper ones would run for days).
pub const MAX_PERFT_DEPTH: u32 = 8;
/// The deepest `go depth` accepted.
pub const MAX_GO_DEPTH: u32 = 64;
/// The most search threads (`setoption threads`).
pub const MAX_THREADS: usize = ai::search::MAX_THREADS;
/// The longest `go movetime` accepted, in milliseconds (one hour).
pub const MAX_MOVETIME_MS: u64 = 3_600_000;

/// The engine's state: the game set by `position`, and the search threads
/// (`setoption threads <n>`).
pub struct Engine {
    game: Game,
    threads: Option<usize>,
    /// How later `go` commands search in 3p (`setoption search`; `None`: the level's own).
    three_player: Option<ai::ThreePlayerSearch>,
    /// Master's transposition table, kept between `go` commands (shared with the thread
    /// a session's `go` searches on).
    memory: Arc<ai::SearchMemory>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

/// What to do after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

fn error(reason: impl std::fmt::Display) -> Vec<String> {
    vec![format!("error {reason}")]
}

impl Engine {
    /// Starts with the `2p` start position, seat A to move.
    pub fn new() -> Engine {
        Engine {
            game: Game::new(Setup::TwoPlayers, Seat::A),
            threads: None,
            three_player: None,
            memory: Arc::default(),
        }
    }

    /// Starts as [`Engine::new`], searching with `threads` threads (`None`: the level's default).
    pub fn with_threads(threads: Option<usize>) -> Engine {
        Engine { threads: threads.map(|n| n.clamp(1, MAX_THREADS)), ..Engine::new() }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Answers one command line. `go`'s `info` lines are left out: see
    /// [`Engine::handle_streaming`].
    pub fn handle(&mut self, line: &str) -> (Vec<String>, Flow) {
        self.handle_streaming(line, &mut |_| {})
    }

    /// Answers one command line, passing each `info` line of a running `go` to `info`
    /// as soon as the search completes an iteration (before the answer, `bestmove`).
    pub fn handle_streaming(&mut self, line: &str, info: &mut dyn FnMut(&str)) -> (Vec<String>, Flow) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return (Vec::new(), Flow::Continue);
        };
        let lines = match command {
            "position" => self.position(args),
            "moves" if args.is_empty() => self.moves(),
            "perft" => self.perft(args),
            "status" if args.is_empty() => vec![status_line(&self.game)],
            "hpn" if args.is_empty() => vec![format!("hpn {}", write_hpn(self.game.position()))],
            "go" => match self.prepare_go(args) {
                Ok(Go { infinite: true, .. }) => error("go infinite needs a session that reads stop (protocol::run)"),
                Ok(Go { job, .. }) => job.run(&AtomicBool::new(false), info),
                Err(lines) => lines,
            },
            "analyse" => match self.prepare_analyse(args) {
                Ok(Go { job, .. }) => job.run(&AtomicBool::new(false), info),
                Err(lines) => lines,
            },
            "hint" if args.is_empty() => self.hint(),
            "isready" if args.is_empty() => vec!["readyok".to_string()],
            // No search is running: a `stop` that crossed the answer on its way is ignored.
            "stop" if args.is_empty() => Vec::new(),
            "setoption" => self.setoption(args),
            "quit" if args.is_empty() => return (Vec::new(), Flow::Quit),
            "moves" | "status" | "hpn" | "hint" | "isready" | "stop" | "quit" => {
                error(format!("{command} takes no arguments"))
            }
            other => error(format!("unknown command '{}'", excerpt(other))),
        };
        (lines, Flow::Continue)
    }

    fn position(&mut self, args: &[&str]) -> Vec<String> {
        if let ["record", rest @ ..] = args {
            return match load_record(rest) {
                Ok((game, moves)) => self.play_moves(game, moves),
                Err(why) => error(why),
            };
        }
        let (start, rest) = match args {
            ["start", setup, rest @ ..] => {
                let setup: Setup = match setup.parse() {
                    Ok(setup) => setup,
                    Err(why) => return error(why),
                };
                let (first, rest) = match rest {
                    ["first", seat, rest @ ..] => match seat.parse::<Seat>() {
                        Ok(seat) if setup.has_seat(seat) => (seat, rest),
                        Ok(seat) => return error(format!("seat {seat} does not play in {setup}")),
                        Err(why) => return error(why),
                    },
                    _ => (Seat::A, rest),
                };
                (Position::start(setup, first), rest)
            }
            ["hpn", rows, to_move, setup, plies, rest @ ..] => match parse_hpn_fields(rows, to_move, setup, plies) {
                Ok(position) => (position, rest),
                Err(why) => return error(why),
            },
            ["hpn", ..] => return error("usage: position hpn <rows> <to-move> <setup> <plies> [moves ...]"),
            _ => {
                return error(
                    "usage: position start <setup> [first <seat>] [moves ...] | position hpn ... | position record ...",
                )
            }
        };
        self.play_moves(Game::from_position(start), rest)
    }

    /// Plays `moves ...` (if any) on `game` and makes it the engine's game; on an error,
    /// nothing changes.
    fn play_moves(&mut self, mut game: Game, rest: &[&str]) -> Vec<String> {
        let moves = match rest {
            [] => &[][..],
            ["moves", moves @ ..] => moves,
            [other, ..] => return error(format!("unexpected '{}' (expected 'moves')", excerpt(other))),
        };
        // Counted before any is played: the rules refuse the action past the cap anyway, but
        // as an illegal move, which would not say why.
        let played = game.history().len();
        if moves.len() > MAX_ACTIONS.saturating_sub(played) {
            return error(format!(
                "too many moves: {} after {played} would pass the cap of {MAX_ACTIONS} actions in a game",
                moves.len()
            ));
        }
        for text in moves {
            let ply = game.position().plies() + 1;
            if game.play_text(text).is_err() {
                return error(format!("illegal move {} at ply {ply}", excerpt(text)));
            }
        }
        self.game = game;
        Vec::new()
    }

    /// `setoption threads <1..=8|auto>`: the search threads of later `go` commands.
    /// `setoption search <paranoid|brs>`: their 3p search (for matches between the two).
    fn setoption(&mut self, args: &[&str]) -> Vec<String> {
        match args {
            ["search", value] => match ai::ThreePlayerSearch::from_name(value) {
                Some(search) => self.three_player = Some(search),
                None => return error(format!("bad search '{}' (paranoid or brs)", excerpt(value))),
            },
            ["threads", "auto"] => self.threads = None,
            ["threads", value] => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => self.threads = Some(n),
                _ => return error(format!("bad thread count '{}' (1..={MAX_THREADS} or auto)", excerpt(value))),
            },
            _ => return error("usage: setoption threads <n>|auto"),
        }
        Vec::new()
    }

    fn moves(&self) -> Vec<String> {
        if self.game.is_over() {
            return vec!["moves 0".to_string()];
        }
        if self.game.must_pass() {
            return vec!["moves 1".to_string(), "pass".to_string()];
        }
        let position = self.game.position();
        let moves = self.game.legal_moves();
        let mut lines = vec![format!("moves {}", moves.count())];
        for mv in moves.iter() {
            match position.route(mv) {
                Some(route) => lines.push(route.to_string()),
                None => return error(format!("internal: no route for {}-{}", mv.from, mv.to)),
            }
        }
        lines
    }

    fn perft(&self, args: &[&str]) -> Vec<String> {
        let depth = match args {
            [depth] => match depth.parse::<u32>() {
                Ok(depth) if depth <= MAX_PERFT_DEPTH => depth,
                _ => return error(format!("bad perft depth '{}' (0..={MAX_PERFT_DEPTH})", excerpt(depth))),
            },
            _ => return error("usage: perft <depth>"),
        };
        vec![format!("perft {depth} {}", self.game.perft(depth))]
    }

    /// Checks a `go` line and makes its search (run it with [`Search::run`]); an error
    /// answer for a bad option or a finished game.
    fn prepare_go(&self, args: &[&str]) -> Result<Go, Vec<String>> {
        let mut request = SearchRequest {
            threads: self.threads,
            three_player: self.three_player,
            ..SearchRequest::new(Level::Master)
        };
        let mut infinite = false;
        let mut rest = args;
        loop {
            // `infinite` is the one option without a value.
            if let ["infinite", tail @ ..] = rest {
                infinite = true;
                rest = tail;
                continue;
            }
            let [key, value, tail @ ..] = rest else { break };
            match *key {
                "level" => match Level::from_name(value) {
                    Some(level) => request.level = level,
                    None => {
                        let names: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
                        return Err(error(format!("unknown level '{}' (one of {})", excerpt(value), names.join(", "))));
                    }
                },
                "movetime" => match value.parse::<u64>() {
                    Ok(ms) if (1..=MAX_MOVETIME_MS).contains(&ms) => request.movetime = Some(Duration::from_millis(ms)),
                    _ => return Err(error(format!("bad movetime '{}' (1..={MAX_MOVETIME_MS} ms)", excerpt(value)))),
                },
                "depth" => match value.parse::<u32>() {
                    Ok(depth) if (1..=MAX_GO_DEPTH).contains(&depth) => request.depth = Some(depth),
                    _ => return Err(error(format!("bad depth '{}' (1..={MAX_GO_DEPTH})", excerpt(value)))),
                },
                "seed" => match value.parse::<u64>() {
                    Ok(seed) => request.seed = seed,
                    Err(_) => return Err(error(format!("bad seed '{}'", excerpt(value)))),
                },
                other => return Err(error(format!("unknown go option '{}'", excerpt(other)))),
            }
            rest = tail;
        }
        if let [odd] = rest {
            return Err(error(format!("go option '{}' needs a value", excerpt(odd))));
        }
        if infinite {
            if request.depth.is_some() || request.movetime.is_some() {
                return Err(error("go infinite takes no depth or movetime"));
            }
            // No time limit (the depth given without movetime says so), and as many
            // threads as a timed search: nothing has to be reproducible here.
            request.depth = Some(MAX_GO_DEPTH);
            if request.level == Level::Master {
                request.threads = Some(self.threads.unwrap_or_else(ai::default_threads));
            }
        }
        if self.game.is_over() {
            return Err(error("the game is over"));
        }
        let search = Search { game: self.game.clone(), request, memory: Arc::clone(&self.memory) };
        Ok(Go { job: Job::Search(search), infinite })
    }

    /// Checks an `analyse [depth <n>]` line and makes its analysis of the current game
    /// (run it as a `go`'s job).
    fn prepare_analyse(&self, args: &[&str]) -> Result<Go, Vec<String>> {
        let depth = match args {
            [] => Quality::DEFAULT.depth,
            ["depth", value] => match value.parse::<u32>() {
                Ok(depth) if (1..=Quality::MAX_DEPTH).contains(&depth) => depth,
                _ => {
                    return Err(error(format!("bad analysis depth '{}' (1..={})", excerpt(value), Quality::MAX_DEPTH)))
                }
            },
            _ => return Err(error("usage: analyse [depth <n>]")),
        };
        // The same result at any thread count, so every core the engine may use.
        let threads = self.threads.unwrap_or_else(ai::default_threads);
        let request = AnalysisRequest::new(Quality { depth }).with_threads(threads);
        Ok(Go { job: Job::Analyse(Analyse { game: self.game.clone(), request }), infinite: false })
    }

    fn hint(&self) -> Vec<String> {
        match ai::hint(&self.game, &AtomicBool::new(false)) {
            Some(action) => vec![format!("hint {}", action_text(&action))],
            None => error("the game is over"),
        }
    }
}

/// A checked `go` or `analyse`.
struct Go {
    job: Job,
    /// `go infinite`: `bestmove` only after `stop`, even when the search has ended before.
    infinite: bool,
}

/// What runs on the search thread: a `go`'s search or an `analyse`'s analysis.
enum Job {
    Search(Search),
    Analyse(Analyse),
}

impl Job {
    /// Runs until done or until `stop` is set, passing `info` lines on; the answer's
    /// lines, the last one ending the job (`bestmove`, `analysisdone` or an error).
    fn run(&self, stop: &AtomicBool, info: &mut dyn FnMut(&str)) -> Vec<String> {
        match self {
            Job::Search(search) => vec![search.run(stop, info)],
            Job::Analyse(analyse) => analyse.run(stop, info),
        }
    }
}

/// One `analyse`: the game as it was when asked, and how deep.
struct Analyse {
    game: Game,
    request: AnalysisRequest,
}

impl Analyse {
    /// `info analysing <i> of <n>` as each action's analysis begins; then the analysis
    /// ([`analysis_lines`]) and `analysisdone`, or `analysisdone cancelled` after `stop`.
    fn run(&self, stop: &AtomicBool, info: &mut dyn FnMut(&str)) -> Vec<String> {
        let mut progress = |index: usize, total: usize| info(&format!("info analysing {} of {total}", index + 1));
        match analysis::analyse(&self.game, &self.request, stop, &mut progress) {
            Ok(analysis) => {
                let mut lines = analysis_lines(&self.game, &analysis);
                lines.push("analysisdone".to_string());
                lines
            }
            Err(AnalysisError::Cancelled) => vec!["analysisdone cancelled".to_string()],
            Err(why) => error(why),
        }
    }
}

/// A value for the protocol, one word: `+12.0`, `0.0`, `-3.5` (steps, from the mover's
/// side), `wins-in-3`, `loses-in-3`.
fn eval_word(eval: Eval) -> String {
    match eval {
        Eval::Lead(_) => eval.to_string(),
        Eval::Wins { plies } => format!("wins-in-{plies}"),
        Eval::Loses { plies } => format!("loses-in-{plies}"),
    }
}

/// An analysis as `analyse` answers it: one `action` line per action, a `draw` line when
/// the game ended with a draw vote, and one `summary` line per seat in play.
///
/// - `action <n> <seat> <action> <class> loss <steps> best <route> before <value> after <value>`
/// - `action <n> <seat> <move> only-move after <value>`
/// - `action <n> <seat> pass forced-pass`
/// - `draw agreed` or `draw offered <seat>`
/// - `summary <seat> judged <n> best <n> good <n> inaccuracy <n> mistake <n> blunder <n> lost <steps> average <steps> chain <jumps> [at <n>]`
pub fn analysis_lines(game: &Game, analysis: &GameAnalysis) -> Vec<String> {
    let mut lines = Vec::with_capacity(analysis.actions.len() + 5);
    for entry in &analysis.actions {
        let head = format!("action {} {} {}", entry.index + 1, entry.seat, action_text(&entry.action));
        lines.push(match &entry.verdict {
            Verdict::Judged(judged) => format!(
                "{head} {} loss {} best {} before {} after {}",
                judged.class.name(),
                judged.loss,
                judged.best,
                eval_word(judged.before),
                eval_word(judged.after)
            ),
            Verdict::OnlyMove { after } => format!("{head} only-move after {}", eval_word(*after)),
            Verdict::ForcedPass => format!("{head} forced-pass"),
        });
    }
    match analysis.draw {
        Some(analysis::DrawVote::Agreed) => lines.push("draw agreed".to_string()),
        Some(analysis::DrawVote::Offered { offerer }) => lines.push(format!("draw offered {offerer}")),
        None => {}
    }
    for &seat in game.setup().seats() {
        let Some(summary) = analysis.summary(seat) else { continue };
        let [best, good, inaccuracy, mistake, blunder] = summary.classes;
        let mut line = format!(
            "summary {seat} judged {} best {best} good {good} inaccuracy {inaccuracy} mistake {mistake} blunder {blunder} lost {} average {}",
            summary.judged,
            summary.total_loss,
            summary.average_loss()
        );
        match summary.longest_chain {
            Some((jumps, index)) => line.push_str(&format!(" chain {jumps} at {}", index + 1)),
            None => line.push_str(" chain 0"),
        }
        lines.push(line);
    }
    lines
}

/// One `go`'s search, owning what it reads so that it can run on a thread of its own
/// while the session reads on.
struct Search {
    game: Game,
    request: SearchRequest,
    memory: Arc<ai::SearchMemory>,
}

impl Search {
    /// Searches until done or until `stop` is set, passing `info` lines on; answers
    /// `bestmove <move>`, or an error line if the search failed (nothing is left running).
    fn run(&self, stop: &AtomicBool, info: &mut dyn FnMut(&str)) -> String {
        let mut report = |iteration: &ai::Iteration| info(&info_line(iteration));
        match ai::try_choose_action_remembering(&self.game, &self.request, stop, &self.memory, &mut report) {
            Ok(Some(action)) => format!("bestmove {}", action_text(&action)),
            Ok(None) => "error the game is over".to_string(),
            Err(why) => format!("error {why}"),
        }
    }
}

/// `position record <path> [game <n>] [moves ...]`: the game of a record file (its
/// `n`-th record, the first by default) and the rest of the arguments.
fn load_record<'a, 'b>(args: &'a [&'b str]) -> Result<(Game, &'a [&'b str]), String> {
    let usage = "usage: position record <path> [game <n>] [moves ...]";
    let [path, rest @ ..] = args else { return Err(usage.to_string()) };
    let (index, rest) = match rest {
        ["game", n, rest @ ..] => match n.parse::<usize>() {
            Ok(n) if n >= 1 => (n - 1, rest),
            _ => return Err(format!("bad game number '{}' (1 or more)", excerpt(n))),
        },
        ["game"] => return Err(usage.to_string()),
        _ => (0, rest),
    };
    let shown = path_excerpt(path);
    let file = crate::files::open_regular_file(std::path::Path::new(path))
        .map_err(|why| format!("cannot read record '{shown}': {why}"))?;
    match nth_record(io::BufReader::new(file), index) {
        Ok(record) => Ok((record.game, rest)),
        Err(RecordRead::Io(why)) => Err(format!("cannot read record '{shown}': {why}")),
        Err(RecordRead::Bad(why)) => Err(format!("bad record '{shown}': {why}")),
        Err(RecordRead::NotUtf8) => Err(format!("bad record '{shown}': not UTF-8 text")),
        Err(RecordRead::Missing { count }) => Err(format!("record '{shown}' holds {count} game(s), not {}", index + 1)),
        Err(RecordRead::TooFar) => {
            Err(format!("bad record '{shown}': game {} is not within the first {MAX_RECORDS_BYTES} bytes", index + 1))
        }
    }
}

/// Why [`nth_record`] found no record.
#[derive(Debug)]
enum RecordRead {
    Io(io::Error),
    /// The requested record does not parse (lines counted from the start of the file).
    Bad(RecordError),
    NotUtf8,
    /// The file holds only `count` records.
    Missing {
        count: usize,
    },
    /// The requested record does not start within [`MAX_RECORDS_BYTES`].
    TooFar,
}

/// How much of a line outside the requested record is kept: enough to see whether it
/// starts a record (`[Halma`, after any blanks).
const LINE_HEAD_BYTES: usize = 256;

/// Reads records one after the other as [`Record::parse_many`] splits them (each starts
/// with a line beginning `[Halma`; blank text before the first is no record) and parses
/// the `index`-th (from 0) alone. Only that record is held (at most [`MAX_RECORD_BYTES`]
/// of it, plus one line), and reading stops at its end: memory stays bounded whatever
/// the file's size, and at most [`MAX_RECORDS_BYTES`] are read looking for it.
fn nth_record(mut input: impl BufRead, index: usize) -> Result<Record, RecordRead> {
    let mut line = Vec::new();
    let mut line_number = 0;
    let mut read = 0;
    // Records passed so far, and the current one: its first line, its size, whether it
    // holds more than blanks, and its text if it is the requested one.
    let mut count = 0;
    let mut first_line = 1;
    let mut size = 0;
    let mut blank = true;
    let mut text = Vec::new();
    loop {
        let keep = if count == index { MAX_RECORD_BYTES + 1 } else { LINE_HEAD_BYTES };
        let length =
            read_line_head(&mut input, &mut line, keep, MAX_RECORDS_BYTES + 1 - read).map_err(RecordRead::Io)?;
        read += length;
        if read > MAX_RECORDS_BYTES {
            return Err(RecordRead::TooFar);
        }
        line_number += 1;
        let ended = length == 0;
        let head = String::from_utf8_lossy(&line[..line.len().min(LINE_HEAD_BYTES)]);
        if ended || (line_number > 1 && head.trim_start().starts_with("[Halma")) {
            if !blank {
                if count == index {
                    return parse_record(&text, size, first_line);
                }
                count += 1;
            }
            if ended {
                return Err(match count {
                    0 => RecordRead::Bad(RecordError { line: 1, problem: RecordProblem::Empty }),
                    _ => RecordRead::Missing { count },
                });
            }
            (first_line, size, blank) = (line_number, 0, true);
            text.clear();
        }
        // A line cut short counts as text (only a file's leading lines can be blank).
        blank = blank && line.len() == length && String::from_utf8_lossy(&line).trim().is_empty();
        if count == index {
            size += length;
            if size <= MAX_RECORD_BYTES {
                text.extend_from_slice(&line);
            }
        }
    }
}

/// Parses the requested record: its text, `size` bytes in the file from line `first_line`.
fn parse_record(text: &[u8], size: usize, first_line: usize) -> Result<Record, RecordRead> {
    if size > MAX_RECORD_BYTES {
        let problem = RecordProblem::TooLarge { bytes: size, limit: MAX_RECORD_BYTES };
        return Err(RecordRead::Bad(RecordError { line: first_line, problem }));
    }
    let text = std::str::from_utf8(text).map_err(|_| RecordRead::NotUtf8)?;
    Record::parse(text).map_err(|mut why| {
        // `parse` counts lines from the record's first; the file's count is wanted.
        if why.line > 0 {
            why.line += first_line - 1;
        }
        RecordRead::Bad(why)
    })
}

/// Reads one line (with its `\n`) but no more than `limit` bytes, keeping at most `keep`
/// of them in `line`; returns how many were read (0 at the end of the input).
fn read_line_head(input: &mut impl BufRead, line: &mut Vec<u8>, keep: usize, limit: usize) -> io::Result<usize> {
    line.clear();
    let mut length = 0;
    while length < limit {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(why) if why.kind() == io::ErrorKind::Interrupted => continue,
            Err(why) => return Err(why),
        };
        let available = &available[..available.len().min(limit - length)];
        if available.is_empty() {
            break;
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(end) => (&available[..=end], true),
            None => (available, false),
        };
        let room = keep.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let consumed = chunk.len();
        length += consumed;
        input.consume(consumed);
        if done {
            break;
        }
    }
    Ok(length)
}

fn action_text(action: &Action) -> String {
    action.to_string()
}

/// The `info` line of one completed search iteration:
/// `info depth <d> score <points> nodes <n> nps <n> time <ms> pv <moves>`.
pub fn info_line(iteration: &ai::Iteration) -> String {
    let micros = iteration.elapsed.as_micros().max(1);
    let nps = u128::from(iteration.nodes) * 1_000_000 / micros;
    let mut line = format!(
        "info depth {} score {} nodes {} nps {nps} time {} pv",
        iteration.depth,
        iteration.score,
        iteration.nodes,
        iteration.elapsed.as_millis()
    );
    for action in &iteration.pv {
        line.push(' ');
        line.push_str(&action_text(action));
    }
    line
}

/// The `status` answer for a game.
pub fn status_line(game: &Game) -> String {
    match game.outcome() {
        Outcome::Ongoing => format!("status ongoing {}", game.to_move()),
        Outcome::Win(seats) => format!("status win {seats}"),
        Outcome::Draw(DrawReason::Repetition) => "status draw repetition".to_string(),
        Outcome::Draw(DrawReason::Agreement) => "status draw agreement".to_string(),
    }
}

/// Reads one line of at most `MAX_LINE_BYTES` (the rest of a longer line is skipped).
/// `Ok(None)` at end of input; `Ok(Some(Err(())))` for an overlong or non-UTF-8 line.
fn read_line(input: &mut impl BufRead, buffer: &mut Vec<u8>) -> io::Result<Option<Result<String, String>>> {
    buffer.clear();
    let mut overlong = false;
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            if buffer.is_empty() && !overlong {
                return Ok(None);
            }
            break;
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(end) => (&available[..end], Some(end + 1)),
            None => (available, None),
        };
        if !overlong {
            if buffer.len() + chunk.len() > MAX_LINE_BYTES {
                overlong = true;
                buffer.clear();
            } else {
                buffer.extend_from_slice(chunk);
            }
        }
        let consumed = done.unwrap_or(available.len());
        input.consume(consumed);
        if done.is_some() {
            break;
        }
    }
    if overlong {
        return Ok(Some(Err(format!("line longer than {MAX_LINE_BYTES} bytes"))));
    }
    if buffer.last() == Some(&b'\r') {
        buffer.pop();
    }
    Ok(Some(String::from_utf8(std::mem::take(buffer)).map_err(|_| "line is not UTF-8".to_string())))
}

/// Runs the protocol until `quit` or the end of input, flushing after every answer.
/// `go` searches on a thread of its own while the input is read on: see [`run_engine`].
pub fn run(input: impl BufRead, output: impl Write + Send) -> io::Result<()> {
    run_engine(Engine::new(), input, output)
}

/// The session's output, shared by the reading loop and the search thread. One lock
/// keeps each answer whole, and knows whether the running search still owes `bestmove`.
struct Output<W> {
    state: Mutex<OutputState<W>>,
}

struct OutputState<W> {
    writer: W,
    /// A search has started and not yet answered.
    searching: bool,
    /// The first write error: nothing more is written, and the session ends with it.
    failed: Option<io::Error>,
}

impl<W: Write> Output<W> {
    fn lock(&self) -> std::sync::MutexGuard<'_, OutputState<W>> {
        // Only a panic while writing poisons it; the writer is still whole.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes `lines` and flushes.
    fn answer<S: AsRef<str>>(&self, lines: &[S]) {
        self.lock().write(lines);
    }

    /// Writes the search's answer and marks it over in one step: a driver that reads
    /// `bestmove` (or `analysisdone`) and sends its next command finds the engine idle.
    fn finish_search<S: AsRef<str>>(&self, answer: &[S]) {
        let mut state = self.lock();
        if state.searching {
            state.write(answer);
            state.searching = false;
        }
    }

    fn searching(&self) -> bool {
        self.lock().searching
    }

    fn set_searching(&self, searching: bool) {
        self.lock().searching = searching;
    }

    fn take_error(&self) -> Option<io::Error> {
        self.lock().failed.take()
    }
}

impl<W: Write> OutputState<W> {
    fn write<S: AsRef<str>>(&mut self, lines: &[S]) {
        if self.failed.is_some() || lines.is_empty() {
            return;
        }
        let written = lines
            .iter()
            .try_for_each(|line| writeln!(self.writer, "{}", line.as_ref()))
            .and_then(|()| self.writer.flush());
        self.failed = written.err();
    }
}

/// A `go` searching on its thread.
struct Running<'scope> {
    thread: std::thread::ScopedJoinHandle<'scope, ()>,
    stop: Arc<AtomicBool>,
    /// An `analyse`, not a `go`.
    analysis: bool,
}

impl Running<'_> {
    /// Waits for the job to end by itself, which writes its answer first.
    fn wait<W: Write>(self, output: &Output<W>) {
        if self.thread.join().is_err() {
            output.finish_search(&["error the search failed"]);
        }
    }

    /// Stops the search and waits for its thread, which writes its answer first.
    fn finish<W: Write>(self, output: &Output<W>) {
        self.stop.store(true, Ordering::Relaxed);
        // Wakes a `go infinite` that has searched all it can and waits for `stop`.
        self.thread.thread().unpark();
        if self.thread.join().is_err() {
            // The thread catches the search's panics, so this one came from writing:
            // the driver still gets an answer.
            output.finish_search(&["error the search failed"]);
        }
    }
}

/// Starts `go`'s search on a thread of its own, which writes its `info` lines and its
/// answer to `output` itself.
fn spawn_search<'scope, W: Write + Send>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    go: Go,
    output: &'scope Output<W>,
) -> io::Result<Running<'scope>> {
    let stop = Arc::new(AtomicBool::new(false));
    let thread_stop = Arc::clone(&stop);
    let analysis = matches!(go.job, Job::Analyse(_));
    output.set_searching(true);
    // The stack the search had on the program's main thread.
    let spawned =
        std::thread::Builder::new().name("halma-search".into()).stack_size(8 << 20).spawn_scoped(scope, move || {
            let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                go.job.run(&thread_stop, &mut |line| output.answer(&[line]))
            }));
            let answer = searched.unwrap_or_else(|panic| {
                vec![format!("error the search failed: {}", ai::panic_message(panic.as_ref()))]
            });
            // `go infinite` answers only after `stop`, even when it has searched all it can.
            while go.infinite && !thread_stop.load(Ordering::Relaxed) {
                std::thread::park();
            }
            output.finish_search(&answer);
        });
    spawned.map(|thread| Running { thread, stop, analysis }).inspect_err(|_| output.set_searching(false))
}

/// The answer to a line read while a search runs, or `None` for `stop` and `quit`,
/// which end the search.
fn during_search(words: &[&str], analysis: bool) -> Option<Vec<String>> {
    let (busy, until) = if analysis { ("analysing", "analysisdone") } else { ("searching", "bestmove") };
    match words {
        [] => Some(Vec::new()),
        ["isready"] => Some(vec!["readyok".to_string()]),
        ["stop"] | ["quit"] => None,
        [command @ ("isready" | "stop" | "quit"), ..] => Some(error(format!("{command} takes no arguments"))),
        [command, ..] => Some(error(format!(
            "busy {busy}: '{}' refused until {until} (stop, isready and quit are answered)",
            excerpt(command)
        ))),
    }
}

/// As [`run`], with an engine set up beforehand (e.g. [`Engine::with_threads`]).
///
/// `go` searches on a thread of its own while this reads on. During a search `stop`
/// ends it (its `bestmove` comes at once), `isready` is answered `readyok`, `quit` and
/// the end of the input stop it (its `bestmove` is still written) and end the session,
/// and any other command is refused with an error: nothing is queued, so a driver that
/// floods the engine cannot make it hold an unbounded backlog. A `stop` outside a
/// search is ignored: it may have crossed the answer. `analyse` runs the same way
/// (`stop` gives `analysisdone cancelled`), except that the end of the input waits for
/// its result.
pub fn run_engine(mut engine: Engine, mut input: impl BufRead, output: impl Write + Send) -> io::Result<()> {
    let output = &Output { state: Mutex::new(OutputState { writer: output, searching: false, failed: None }) };
    let mut buffer = Vec::new();
    std::thread::scope(|scope| {
        let mut running: Option<Running> = None;
        let ended = loop {
            let line = match read_line(&mut input, &mut buffer) {
                Ok(line) => line,
                Err(why) => break Err(why),
            };
            // A search that has answered is over, even if its thread has not returned yet.
            if !output.searching() {
                if let Some(search) = running.take() {
                    search.finish(output);
                }
            }
            let line = match line {
                None => {
                    // An analysis ends by itself and nobody is left to stop it for its
                    // result: `printf 'position record g.txt\nanalyse\n' | halma-engine`
                    // prints it. A search is stopped, as by `quit`.
                    if let Some(job) = running.take_if(|job| job.analysis) {
                        job.wait(output);
                    }
                    break Ok(());
                }
                Some(Err(why)) => {
                    output.answer(&error(why));
                    continue;
                }
                Some(Ok(line)) => line,
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            if let Some(search) = running.take() {
                match during_search(&words, search.analysis) {
                    Some(answer) => {
                        output.answer(&answer);
                        running = Some(search);
                    }
                    None => {
                        search.finish(output);
                        if words == ["quit"] {
                            break Ok(());
                        }
                    }
                }
            } else if let [command @ ("go" | "analyse"), args @ ..] = words.as_slice() {
                let job = if *command == "go" { engine.prepare_go(args) } else { engine.prepare_analyse(args) };
                match job {
                    Ok(go) => match spawn_search(scope, go, output) {
                        Ok(search) => running = Some(search),
                        Err(why) => output.answer(&error(format!("cannot start the search: {why}"))),
                    },
                    Err(answer) => output.answer(&answer),
                }
            } else {
                let (answer, flow) = engine.handle(&line);
                output.answer(&answer);
                if flow == Flow::Quit {
                    break Ok(());
                }
            }
            if let Some(why) = output.take_error() {
                break Err(why);
            }
        };
        if let Some(search) = running.take() {
            search.finish(output);
        }
        ended.and_then(|()| output.take_error().map_or(Ok(()), Err))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_read_whole_up_to_the_limit_and_kept_up_to_its_share() {
        let mut input = io::BufReader::with_capacity(4, "abcdefgh\nij".as_bytes());
        let mut line = Vec::new();
        assert_eq!(read_line_head(&mut input, &mut line, 3, 100).ok(), Some(9));
        assert_eq!(line, b"abc");
        assert_eq!(read_line_head(&mut input, &mut line, 3, 1).ok(), Some(1));
        assert_eq!(line, b"i");
        assert_eq!(read_line_head(&mut input, &mut line, 3, 100).ok(), Some(1));
        assert_eq!(read_line_head(&mut input, &mut line, 3, 100).ok(), Some(0));
    }
}
