//! The `halma-engine` text protocol (ENGINE-PROTOCOL.md): one command per line in,
//! one or more lines out. Bad input gets `error <reason>` and changes nothing.

use crate::ai::{self, Level, SearchRequest};
use crate::record::{Record, MAX_RECORDS_BYTES};
use crate::rules::{parse_hpn_fields, write_hpn, Action, DrawReason, Game, Outcome, Position, Seat, Setup};
use std::io::{self, BufRead, Read, Write};
use std::sync::atomic::AtomicBool;
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
    /// Master's transposition table, kept between `go` commands.
    memory: ai::SearchMemory,
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
        Engine { game: Game::new(Setup::TwoPlayers, Seat::A), threads: None, memory: ai::SearchMemory::new() }
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
            "go" => self.go(args, info),
            "hint" if args.is_empty() => self.hint(),
            "isready" if args.is_empty() => vec!["readyok".to_string()],
            "setoption" => self.setoption(args),
            "quit" if args.is_empty() => return (Vec::new(), Flow::Quit),
            "moves" | "status" | "hpn" | "hint" | "isready" | "quit" => error(format!("{command} takes no arguments")),
            other => error(format!("unknown command '{}'", crate::rules::excerpt(other))),
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
            [other, ..] => return error(format!("unexpected '{}' (expected 'moves')", crate::rules::excerpt(other))),
        };
        for text in moves {
            let ply = game.position().plies() + 1;
            if game.play_text(text).is_err() {
                return error(format!("illegal move {} at ply {ply}", crate::rules::excerpt(text)));
            }
        }
        self.game = game;
        Vec::new()
    }

    /// `setoption threads <1..=8|auto>`: the search threads of later `go` commands.
    fn setoption(&mut self, args: &[&str]) -> Vec<String> {
        match args {
            ["threads", "auto"] => self.threads = None,
            ["threads", value] => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => self.threads = Some(n),
                _ => {
                    return error(format!(
                        "bad thread count '{}' (1..={MAX_THREADS} or auto)",
                        crate::rules::excerpt(value)
                    ))
                }
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
                _ => {
                    return error(format!("bad perft depth '{}' (0..={MAX_PERFT_DEPTH})", crate::rules::excerpt(depth)))
                }
            },
            _ => return error("usage: perft <depth>"),
        };
        vec![format!("perft {depth} {}", self.game.perft(depth))]
    }

    fn go(&self, args: &[&str], info: &mut dyn FnMut(&str)) -> Vec<String> {
        let mut request = SearchRequest { threads: self.threads, ..SearchRequest::new(Level::Master) };
        let mut rest = args;
        while let [key, value, tail @ ..] = rest {
            match *key {
                "level" => match Level::from_name(value) {
                    Some(level) => request.level = level,
                    None => {
                        let names: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
                        return error(format!(
                            "unknown level '{}' (one of {})",
                            crate::rules::excerpt(value),
                            names.join(", ")
                        ));
                    }
                },
                "movetime" => match value.parse::<u64>() {
                    Ok(ms) if (1..=MAX_MOVETIME_MS).contains(&ms) => request.movetime = Some(Duration::from_millis(ms)),
                    _ => {
                        return error(format!(
                            "bad movetime '{}' (1..={MAX_MOVETIME_MS} ms)",
                            crate::rules::excerpt(value)
                        ))
                    }
                },
                "depth" => match value.parse::<u32>() {
                    Ok(depth) if (1..=MAX_GO_DEPTH).contains(&depth) => request.depth = Some(depth),
                    _ => return error(format!("bad depth '{}' (1..={MAX_GO_DEPTH})", crate::rules::excerpt(value))),
                },
                "seed" => match value.parse::<u64>() {
                    Ok(seed) => request.seed = seed,
                    Err(_) => return error(format!("bad seed '{}'", crate::rules::excerpt(value))),
                },
                other => return error(format!("unknown go option '{}'", crate::rules::excerpt(other))),
            }
            rest = tail;
        }
        if let [odd] = rest {
            return error(format!("go option '{}' needs a value", crate::rules::excerpt(odd)));
        }
        let mut report = |iteration: &ai::Iteration| info(&info_line(iteration));
        match ai::choose_action_remembering(&self.game, &request, &AtomicBool::new(false), &self.memory, &mut report) {
            Some(action) => vec![format!("bestmove {}", action_text(&action))],
            None => error("the game is over"),
        }
    }

    fn hint(&self) -> Vec<String> {
        match ai::hint(&self.game, &AtomicBool::new(false)) {
            Some(action) => vec![format!("hint {}", action_text(&action))],
            None => error("the game is over"),
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
            _ => return Err(format!("bad game number '{}' (1 or more)", crate::rules::excerpt(n))),
        },
        ["game"] => return Err(usage.to_string()),
        _ => (0, rest),
    };
    let shown: String = path.chars().take(100).collect();
    // Only regular files: a device or a pipe (`/dev/stdin`, the protocol's own input)
    // could block or never end.
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| {
            if !file.metadata()?.is_file() {
                return Err(io::Error::other("not a regular file"));
            }
            file.take(MAX_RECORDS_BYTES as u64 + 1).read_to_end(&mut bytes)
        })
        .map_err(|why| format!("cannot read record '{shown}': {why}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("bad record '{shown}': not UTF-8 text"))?;
    let mut records = Record::parse_many(&text).map_err(|why| format!("bad record '{shown}': {why}"))?;
    let count = records.len();
    if index >= count {
        return Err(format!("record '{shown}' holds {count} game(s), not {}", index + 1));
    }
    Ok((records.swap_remove(index).game, rest))
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
pub fn run(input: impl BufRead, output: impl Write) -> io::Result<()> {
    run_engine(Engine::new(), input, output)
}

/// As [`run`], with an engine set up beforehand (e.g. [`Engine::with_threads`]).
pub fn run_engine(mut engine: Engine, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut buffer = Vec::new();
    while let Some(line) = read_line(&mut input, &mut buffer)? {
        // `info` lines go out (flushed) while the search runs; the first write error ends the session.
        let mut failed = None;
        let mut info = |text: &str| {
            if failed.is_none() {
                if let Err(why) = writeln!(output, "{text}").and_then(|()| output.flush()) {
                    failed = Some(why);
                }
            }
        };
        let (lines, flow) = match line {
            Ok(line) => engine.handle_streaming(&line, &mut info),
            Err(why) => (error(why), Flow::Continue),
        };
        if let Some(why) = failed {
            return Err(why);
        }
        for line in lines {
            writeln!(output, "{line}")?;
        }
        output.flush()?;
        if flow == Flow::Quit {
            break;
        }
    }
    Ok(())
}
