//! An engine program speaking `halma-engine`'s protocol (docs/PROTOCOL.md) on its
//! standard input and output. It is started at its seat's first turn and kept for the
//! next ones; each turn sends the game (`position …`) and `go movetime …`, and reads lines
//! until `bestmove`. Anything else (the program cannot start, ends, answers `error …`,
//! an illegal move or nothing in time) is a failure, after which the program is stopped
//! and started afresh at the next turn.

use super::{Failure, FailureKind, SeatDriver, Turn};
use halma_engine::engine_client::{position_command, split_command, EngineProcess, Launch, Received};
use halma_rules::excerpt;
use halma_rules::Game;
use std::path::Path;
use std::time::{Duration, Instant};

/// The time a program is given for a move when its caller gives none.
const PROGRAM_MOVE_TIME: Duration = Duration::from_secs(1);
/// How long past its move time a program may take to answer before it has failed.
const GRACE: Duration = Duration::from_secs(5);

/// Starts `command`, split as a shell splits words and run without a shell.
fn spawn(command: &str) -> Result<EngineProcess, Failure> {
    let cannot_start = |reason: String| Failure::new(FailureKind::CannotStart, reason);
    let argv = split_command(command).map_err(|error| cannot_start(error.to_string()))?;
    let program = argv.first().cloned().unwrap_or_default();
    EngineProcess::spawn(&Launch::new(argv)).map_err(|error| cannot_start(format!("cannot start '{program}': {error}")))
}

/// The file name of a command line's program, as the status names its seat
/// (`/usr/bin/some-engine --flag` → `some-engine`); empty for an empty command line.
pub fn program_name(command: &str) -> String {
    let program = split_command(command)
        .ok()
        .and_then(|words| words.into_iter().next())
        .unwrap_or_else(|| command.split_whitespace().next().unwrap_or_default().to_string());
    Path::new(&program).file_name().map_or_else(|| program.clone(), |name| name.to_string_lossy().into_owned())
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
    process: Option<EngineProcess>,
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
        let (Some(process), Some(search)) = (self.process.as_ref(), self.search.as_mut()) else { return Ok(()) };
        let ended = |reason: String| Failure::new(FailureKind::Ended, reason);
        process.send(&position_command(&search.game)).map_err(ended)?;
        process.send(&format!("go movetime {}", search.limit.as_millis().max(1))).map_err(ended)?;
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
            match spawn(&self.command) {
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
            match process.try_line() {
                Received::Line(line) => {
                    if let Some(turn) = self.answer(&line) {
                        return turn;
                    }
                }
                Received::Broken(why) => return self.fail(Failure::new(FailureKind::WrongAnswer, why.to_string())),
                Received::Nothing => break,
                Received::Closed => return self.fail(Failure::new(FailureKind::Ended, "the program ended")),
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
        let stopped = self.process.as_ref().map(|process| process.send("stop"));
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
    use halma_rules::{Seat, Setup};

    #[test]
    fn a_program_is_named_by_its_file_name() {
        assert_eq!(program_name("/usr/bin/some-engine --flag x"), "some-engine");
        assert_eq!(program_name("  halma-engine "), "halma-engine");
        assert_eq!(program_name("'/opt/my engines/halma' --fast"), "halma");
        assert_eq!(program_name(""), "");
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
