//! An engine program speaking `halma-engine`'s protocol (docs/PROTOCOL.md) on its
//! standard input and output. It is started at its seat's first turn and kept for the
//! next ones; each turn sends the game (`position …`) and `go movetime …`, and reads lines
//! until `bestmove`. Anything else (the program cannot start, ends, answers `error …`,
//! an illegal move or nothing in time) is a failure, after which the program is stopped
//! and started afresh at the next turn.

use super::{Failure, FailureKind, SeatDriver, Turn};
use crate::rules::{excerpt, write_hpn};
use crate::rules::{Game, Position};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

/// The time a program is given for a move in the app.
pub const PROGRAM_MOVE_TIME: Duration = Duration::from_secs(1);
/// How long past its move time a program may take to answer before it has failed.
const GRACE: Duration = Duration::from_secs(5);
/// The longest line read from a program: longer means it is not speaking the protocol.
const MAX_LINE: usize = 64 * 1024;
/// Lines read ahead of the polls, so a flood of output cannot fill the memory.
const QUEUED_LINES: usize = 1024;

/// A running program: killed when dropped.
struct Process {
    child: Child,
    input: ChildStdin,
    lines: Receiver<Result<String, Failure>>,
}

impl Process {
    /// Starts `command`: a program and its arguments separated by spaces (no quoting).
    fn spawn(command: &str) -> Result<Process, Failure> {
        let cannot_start = |reason: String| Failure::new(FailureKind::CannotStart, reason);
        let mut words = command.split_whitespace();
        let program = words.next().ok_or_else(|| cannot_start("no command line".into()))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| cannot_start(format!("cannot start '{program}': {error}")))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(cannot_start("no pipes to the program".into()));
        };
        let (sender, lines) = mpsc::sync_channel(QUEUED_LINES);
        let reader = std::thread::Builder::new().name("halma-program".into()).spawn(move || {
            let mut output = BufReader::new(output);
            while let Some(line) = read_line(&mut output) {
                let last = line.is_err();
                if sender.send(line).is_err() || last {
                    break;
                }
            }
        });
        if let Err(error) = reader {
            let _ = child.kill();
            let _ = child.wait();
            return Err(cannot_start(format!("cannot read the program: {error}")));
        }
        Ok(Process { child, input, lines })
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|error| Failure::new(FailureKind::Ended, format!("cannot write to the program: {error}")))
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The next line of `output` without its end, `None` at the end of the output, or a
/// wrong answer for a line over [`MAX_LINE`] bytes or not UTF-8.
fn read_line(output: &mut impl BufRead) -> Option<Result<String, Failure>> {
    let wrong = |reason: String| Failure::new(FailureKind::WrongAnswer, reason);
    let mut bytes = Vec::new();
    match output.take(MAX_LINE as u64 + 1).read_until(b'\n', &mut bytes) {
        Ok(0) => None,
        Ok(_) if bytes.len() > MAX_LINE => Some(Err(wrong(format!("a line longer than {MAX_LINE} bytes")))),
        Ok(_) => {
            while bytes.last().is_some_and(|byte| matches!(byte, b'\n' | b'\r')) {
                bytes.pop();
            }
            Some(String::from_utf8(bytes).map_err(|_| wrong("a line that is not UTF-8".into())))
        }
        Err(error) => Some(Err(Failure::new(FailureKind::Ended, format!("cannot read the program: {error}")))),
    }
}

/// The file name of a command line's program, as the status names its seat
/// (`/usr/bin/some-engine --flag` → `some-engine`); empty for an empty command line.
pub fn program_name(command: &str) -> String {
    let program = command.split_whitespace().next().unwrap_or_default();
    Path::new(program).file_name().map_or_else(|| program.to_string(), |name| name.to_string_lossy().into_owned())
}

/// The `position` command that gives the program `game` with its whole history.
pub fn position_command(game: &Game) -> String {
    let start = game.start_position();
    let mut line = if *start == Position::start(game.setup(), game.first_seat()) {
        format!("position start {} first {}", game.setup(), game.first_seat())
    } else {
        format!("position hpn {}", write_hpn(start))
    };
    if !game.history().is_empty() {
        line.push_str(" moves");
        for action in game.history() {
            line.push(' ');
            line.push_str(&action.to_string());
        }
    }
    line
}

/// The search asked of the program.
struct Search {
    game: Game,
    limit: Duration,
    /// Past this, the program has failed.
    due: Instant,
    /// False while the program still ends a stopped search: it cannot take a position yet.
    sent: bool,
}

/// A seat driven by an engine program.
pub struct Program {
    command: String,
    process: Option<Process>,
    search: Option<Search>,
    /// Stopped searches whose `bestmove` (or `error`) is still to come, and is dropped.
    stopped: usize,
    /// A failure found while starting, told at the next poll.
    failure: Option<Failure>,
}

impl Program {
    pub fn new(command: &str) -> Program {
        Program { command: command.to_owned(), process: None, search: None, stopped: 0, failure: None }
    }

    /// Sends the waiting search to the program.
    fn send_search(&mut self) -> Result<(), Failure> {
        let (Some(process), Some(search)) = (self.process.as_mut(), self.search.as_mut()) else { return Ok(()) };
        process.send(&position_command(&search.game))?;
        process.send(&format!("go movetime {}", search.limit.as_millis().max(1)))?;
        search.sent = true;
        Ok(())
    }

    /// Ends the program and the search: the next start begins a new program.
    fn fail(&mut self, failure: Failure) -> Turn {
        self.process = None;
        self.search = None;
        self.stopped = 0;
        Turn::Failed(Failure { reason: format!("{}: {}", self.command, failure.reason), ..failure })
    }

    /// Fails with an answer that is not a legal action here.
    fn wrong(&mut self, reason: String) -> Turn {
        self.fail(Failure::new(FailureKind::WrongAnswer, reason))
    }

    /// What `line` from the program means for the search, if anything.
    fn answer(&mut self, line: &str) -> Option<Turn> {
        let ends_a_search = line.starts_with("bestmove") || line.starts_with("error");
        if ends_a_search && self.stopped > 0 {
            self.stopped -= 1;
            if self.stopped == 0 {
                if let Err(failure) = self.send_search() {
                    return Some(self.fail(failure));
                }
            }
            return None;
        }
        if line.starts_with("error") {
            return Some(self.wrong(format!("it answered '{}'", excerpt(line))));
        }
        let mut words = line.split_whitespace();
        if words.next() != Some("bestmove") {
            return None; // info lines and anything else the protocol may add
        }
        let search = self.search.as_ref()?;
        let (Some(text), None) = (words.next(), words.next()) else {
            return Some(self.wrong(format!("malformed answer '{}'", excerpt(line))));
        };
        let mut game = search.game.clone();
        match game.play_text(text) {
            Ok(()) => match game.history().last() {
                Some(action) => {
                    let action = action.clone();
                    self.search = None;
                    Some(Turn::Chose(action))
                }
                None => Some(self.wrong("no action played".into())),
            },
            Err(error) => Some(self.wrong(format!("its move '{}' is refused: {error}", excerpt(text)))),
        }
    }
}

impl SeatDriver for Program {
    fn start(&mut self, game: &Game, limit: Option<Duration>) {
        self.cancel();
        let limit = limit.unwrap_or(PROGRAM_MOVE_TIME);
        self.search = Some(Search { game: game.clone(), limit, due: Instant::now() + limit + GRACE, sent: false });
        if self.process.is_none() {
            match Process::spawn(&self.command) {
                Ok(process) => self.process = Some(process),
                Err(failure) => {
                    self.failure = Some(failure);
                    return;
                }
            }
        }
        if self.stopped == 0 {
            if let Err(failure) = self.send_search() {
                self.failure = Some(failure);
            }
        }
    }

    fn poll(&mut self) -> Turn {
        if let Some(failure) = self.failure.take() {
            return self.fail(failure);
        }
        if self.search.is_none() {
            return Turn::Idle;
        }
        loop {
            let Some(process) = &self.process else {
                return self.fail(Failure::new(FailureKind::Ended, "not running"));
            };
            match process.lines.try_recv() {
                Ok(Ok(line)) => {
                    if let Some(turn) = self.answer(&line) {
                        return turn;
                    }
                }
                Ok(Err(failure)) => return self.fail(failure),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    return self.fail(Failure::new(FailureKind::Ended, "the program ended"))
                }
            }
        }
        match &self.search {
            Some(search) if Instant::now() > search.due => {
                self.fail(Failure::new(FailureKind::TooSlow, "no answer in time"))
            }
            Some(_) => Turn::Thinking,
            None => Turn::Idle,
        }
    }

    fn cancel(&mut self) {
        let Some(search) = self.search.take() else { return };
        if !search.sent {
            return;
        }
        let stopped = self.process.as_mut().map(|process| process.send("stop"));
        match stopped {
            Some(Ok(())) => self.stopped += 1,
            // A program that cannot be told to stop is started afresh next time.
            _ => {
                self.process = None;
                self.stopped = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Seat, Setup};

    #[test]
    fn the_position_command_names_the_start_and_every_action() {
        let mut game = Game::new(Setup::TwoPlayers, Seat::C);
        assert_eq!(position_command(&game), "position start 2p first C");
        assert!(game.play_text("n14-m13").is_ok());
        assert_eq!(position_command(&game), "position start 2p first C moves n14-m13");
        let from_hpn = Game::from_position(*game.position());
        assert_eq!(position_command(&from_hpn), format!("position hpn {}", write_hpn(game.position())));
    }

    #[test]
    fn a_program_is_named_by_its_file_name() {
        assert_eq!(program_name("/usr/bin/some-engine --flag x"), "some-engine");
        assert_eq!(program_name("  halma-engine "), "halma-engine");
        assert_eq!(program_name(""), "");
    }

    #[test]
    fn lines_are_bounded_and_text() {
        let mut output = BufReader::new(&b"bestmove c3-d4\r\ninfo depth 1\n\xff\n"[..]);
        assert_eq!(read_line(&mut output), Some(Ok("bestmove c3-d4".to_string())));
        assert_eq!(read_line(&mut output), Some(Ok("info depth 1".to_string())));
        let wrong = |reason: String| Some(Err(Failure::new(FailureKind::WrongAnswer, reason)));
        assert_eq!(read_line(&mut output), wrong("a line that is not UTF-8".into()));
        assert_eq!(read_line(&mut output), None);
        let long = vec![b'x'; MAX_LINE + 10];
        assert_eq!(read_line(&mut BufReader::new(&long[..])), wrong(format!("a line longer than {MAX_LINE} bytes")));
    }

    #[test]
    fn a_program_that_cannot_start_fails_at_the_first_poll() {
        let mut program = Program::new("/nonexistent/halma-engine-nowhere");
        program.start(&Game::new(Setup::TwoPlayers, Seat::A), None);
        assert!(matches!(program.poll(), Turn::Failed(failure)
            if failure.kind == FailureKind::CannotStart && failure.reason.contains("cannot start")));
        assert_eq!(program.poll(), Turn::Idle);
    }
}
