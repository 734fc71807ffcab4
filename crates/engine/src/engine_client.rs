//! The one client of programs speaking `halma-engine`'s protocol (docs/PROTOCOL.md):
//! the app's engine-program seats and `halma-arena`'s `cmd:` players both start, talk to
//! and end their programs here.
//!
//! - **Nothing blocks the caller.** Lines to the program go through a writer thread, so
//!   a program that never reads its input (and lets the pipe fill) cannot freeze the
//!   window; lines from it arrive on a channel from a reader thread.
//! - **Bounded.** An output line over [`MAX_LINE_BYTES`] or not UTF-8 ends the reading;
//!   at most [`QUEUED_LINES`] lines wait to be taken.
//! - **Ended whole.** On Unix the program runs in a process group of its own, and ending
//!   it kills the whole group: a wrapper script's engine or a helper goes with it. Both
//!   threads then end by themselves (their pipes close), so a Retry leaves nothing behind.
//! - **Never a shell.** A command line is split as a shell would split it ([`split_command`],
//!   quotes and escapes), and the program is run directly.

use halma_rules::{write_hpn, Game, Position};
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

/// The longest output line read from a program (`info` lines with a long principal
/// variation stay far below it). A longer line means the program is not speaking the
/// protocol, and reading stops rather than growing the memory.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Output lines read ahead of the caller: a program that prints faster than it is read
/// waits on its pipe instead of filling the memory.
pub const QUEUED_LINES: usize = 256;

/// Programs this process has asked the system to start. A program is started only from
/// [`EngineProcess::spawn`], synchronously, so a caller can tell that nothing was started
/// without waiting for signs of a program that might still be on its way.
static PROGRAMS_STARTED: AtomicUsize = AtomicUsize::new(0);

/// How many programs this process has started so far (successfully or not).
pub fn programs_started() -> usize {
    PROGRAMS_STARTED.load(Ordering::SeqCst)
}

/// Why reading a program's output stopped early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// A line longer than [`MAX_LINE_BYTES`] (without a newline for that long).
    TooLong,
    /// A line that is not UTF-8.
    NotUtf8,
    /// The pipe could not be read.
    Io(String),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::TooLong => write!(f, "the program printed more than {MAX_LINE_BYTES} bytes without a newline"),
            LineError::NotUtf8 => f.write_str("the program printed a line that is not UTF-8"),
            LineError::Io(why) => write!(f, "cannot read the program's output: {why}"),
        }
    }
}

/// One output line, or why reading stopped.
pub type Line = Result<String, LineError>;

/// What a wait for a line found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Received {
    Line(String),
    /// Nothing yet.
    Nothing,
    /// Reading stopped: the output has a line that breaks the protocol's bounds.
    Broken(LineError),
    /// The program closed its output (it ended).
    Closed,
}

/// How to start a program.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// Whether the program's standard error goes to ours (the arena) or nowhere (the app).
    pub show_errors: bool,
    /// How long the program has to leave by itself after `quit` before its group is killed.
    pub quit_wait: Duration,
}

impl Launch {
    /// Runs `argv` directly, its errors dropped, killed at once when ended.
    pub fn new(argv: Vec<String>) -> Launch {
        Launch { argv, show_errors: false, quit_wait: Duration::ZERO }
    }
}

/// A running protocol program. Dropping it ends the program and everything it started.
pub struct EngineProcess {
    child: Child,
    /// Lines for the writer thread; `None` once ending.
    input: Option<Sender<String>>,
    lines: Receiver<Line>,
    group: group::Group,
    quit_wait: Duration,
}

impl EngineProcess {
    /// Starts `launch.argv` with piped input and output, in a process group of its own.
    pub fn spawn(launch: &Launch) -> io::Result<EngineProcess> {
        let (program, arguments) =
            launch.argv.split_first().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no command line"))?;
        let mut command = Command::new(program);
        command.args(arguments).stdin(Stdio::piped()).stdout(Stdio::piped());
        command.stderr(if launch.show_errors { Stdio::inherit() } else { Stdio::null() });
        let group = group::Group::start()?;
        group.place(&mut command);
        PROGRAMS_STARTED.fetch_add(1, Ordering::SeqCst);
        let mut child = command.spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("no pipes to the program"));
        };
        let (line_sender, lines) = mpsc::sync_channel(QUEUED_LINES);
        let (input, to_write) = mpsc::channel::<String>();
        let reader = std::thread::Builder::new().name("halma-engine-out".into()).spawn(move || {
            let mut output = BufReader::new(stdout);
            while let Some(line) = read_line(&mut output, MAX_LINE_BYTES) {
                let broken = line.is_err();
                if line_sender.send(line).is_err() || broken {
                    break;
                }
            }
        });
        let writer = reader.and_then(|_| {
            std::thread::Builder::new().name("halma-engine-in".into()).spawn(move || {
                let mut stdin = stdin;
                // Ends when the process is dropped (the channel closes) or the pipe breaks.
                for line in to_write {
                    if writeln!(stdin, "{line}").and_then(|()| stdin.flush()).is_err() {
                        break;
                    }
                }
            })
        });
        if let Err(error) = writer {
            let _ = child.kill();
            let _ = child.wait();
            return Err(error);
        }
        Ok(EngineProcess { child, input: Some(input), lines, group, quit_wait: launch.quit_wait })
    }

    /// Queues `line` for the program; never waits for the program to read it. Fails once
    /// the program's input is closed (it ended or stopped reading for good).
    pub fn send(&self, line: &str) -> Result<(), String> {
        let sent = self.input.as_ref().is_some_and(|input| input.send(line.to_owned()).is_ok());
        if sent {
            Ok(())
        } else {
            Err("the program's input is closed".to_string())
        }
    }

    /// The next line if one is there, without waiting.
    pub fn try_line(&self) -> Received {
        match self.lines.try_recv() {
            Ok(line) => received(line),
            Err(TryRecvError::Empty) => Received::Nothing,
            Err(TryRecvError::Disconnected) => Received::Closed,
        }
    }

    /// The next line, waiting at most `timeout` (then `Nothing`).
    pub fn line_within(&self, timeout: Duration) -> Received {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => received(line),
            Err(RecvTimeoutError::Timeout) => Received::Nothing,
            Err(RecvTimeoutError::Disconnected) => Received::Closed,
        }
    }

    /// Waits until `deadline` for a line starting with `prefix`; an `error` line, a
    /// broken or closed output, or the deadline fails. Other lines (such as `info`) go to
    /// `other`.
    pub fn expect_until(&self, prefix: &str, deadline: Instant, other: &mut dyn FnMut(&str)) -> Result<String, String> {
        loop {
            // Checked before each line: a program that talks without end still runs out of time.
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!("no '{prefix}' in time"));
            }
            match self.line_within(left) {
                Received::Line(line) if line.starts_with(prefix) => return Ok(line),
                Received::Line(line) if line.starts_with("error") => {
                    return Err(format!("program said '{}'", halma_rules::message_excerpt(&line)))
                }
                Received::Line(line) => other(&line),
                Received::Nothing => return Err(format!("no '{prefix}' in time")),
                Received::Broken(why) => return Err(why.to_string()),
                Received::Closed => return Err("program exited".to_string()),
            }
        }
    }
}

fn received(line: Line) -> Received {
    match line {
        Ok(line) => Received::Line(line),
        Err(why) => Received::Broken(why),
    }
}

impl Drop for EngineProcess {
    /// Asks the program to quit, gives it `quit_wait`, then ends its whole process group.
    fn drop(&mut self) {
        if !self.quit_wait.is_zero() {
            let _ = self.send("quit");
            let waited = Instant::now();
            while matches!(self.child.try_wait(), Ok(None)) && waited.elapsed() < self.quit_wait {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        // The writer thread ends: at once if it waits for a line, or when the kill
        // below breaks the pipe it is blocked on.
        self.input = None;
        self.group.end();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One line of output without its newline (`\n` or `\r\n`), reading at most `limit`
/// bytes before the newline; `None` at the end of the output. A last line without a
/// newline still counts.
pub fn read_line(output: &mut impl BufRead, limit: usize) -> Option<Line> {
    let mut bytes = Vec::new();
    let bound = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    if let Err(error) = Read::take(&mut *output, bound).read_until(b'\n', &mut bytes) {
        return Some(Err(LineError::Io(error.to_string())));
    }
    if bytes.is_empty() {
        return None;
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    } else if bytes.len() > limit {
        return Some(Err(LineError::TooLong));
    }
    Some(String::from_utf8(bytes).map_err(|_| LineError::NotUtf8))
}

/// The `position` command that gives a program `game` with its whole history: from the
/// setup's start when the game began there, else from its HPN.
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

/// Why a command line cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandLineError {
    Empty,
    /// A quote opened and never closed, or a backslash at the very end.
    Unbalanced,
}

impl fmt::Display for CommandLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandLineError::Empty => f.write_str("no command line"),
            CommandLineError::Unbalanced => f.write_str("a quote is not closed"),
        }
    }
}

/// A command line split into the program and its arguments as a POSIX shell splits
/// words: spaces separate, '…' and "…" quote, a backslash escapes. Nothing else of a
/// shell applies (no variables, globs, pipes or redirections): the words are run as
/// they are, never through a shell.
pub fn split_command(command: &str) -> Result<Vec<String>, CommandLineError> {
    let words = shell_words::split(command).map_err(|_| CommandLineError::Unbalanced)?;
    if words.first().is_none_or(String::is_empty) {
        return Err(CommandLineError::Empty);
    }
    Ok(words)
}

/// The process group of a program on Unix systems.
///
/// The group is held by a guard: a small `sh` that leads the group and waits for the end
/// of a pipe only we write to, then kills its whole group. The pipe ends when the program
/// is ended ([`Group::end`]) and also when this process ends in any way, killed or
/// interrupted included, so no process a program started outlives us. Standard `std`
/// and `sh` builtins only: no signal handler, no `unsafe`.
#[cfg(unix)]
mod group {
    use std::os::unix::process::CommandExt;
    use std::process::{Child, ChildStdin, Command, Stdio};

    /// Waits for the end of its input (builtins only), then kills its process group.
    const GUARD: &str = "while read -r _; do :; done; kill -s KILL 0";

    pub struct Group {
        guard: Child,
        /// The pipe whose end tells the guard to kill the group.
        hold: Option<ChildStdin>,
    }

    impl Group {
        /// Starts the guard as the leader of a new group.
        pub fn start() -> std::io::Result<Group> {
            let mut guard = Command::new("sh")
                .arg("-c")
                .arg(GUARD)
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .process_group(0)
                .spawn()?;
            let hold = guard.stdin.take();
            Ok(Group { guard, hold })
        }

        /// Makes `command` start in this group.
        pub fn place(&self, command: &mut Command) {
            // A process id always fits an `i32` (`pid_t`).
            command.process_group(i32::try_from(self.guard.id()).unwrap_or(i32::MAX));
        }

        /// Kills every process in the group and waits for the guard.
        pub fn end(&mut self) {
            if self.hold.take().is_some() {
                let _ = self.guard.wait();
            }
        }
    }

    impl Drop for Group {
        fn drop(&mut self) {
            self.end();
        }
    }
}

/// Elsewhere a program is a single process: ending it kills that process alone.
#[cfg(not(unix))]
mod group {
    pub struct Group;

    impl Group {
        pub fn start() -> std::io::Result<Group> {
            Ok(Group)
        }

        pub fn place(&self, _command: &mut std::process::Command) {}

        pub fn end(&mut self) {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use halma_rules::{Seat, Setup};

    fn lines(text: &[u8], limit: usize) -> Vec<Line> {
        let mut output = text;
        std::iter::from_fn(|| read_line(&mut output, limit)).collect()
    }

    #[test]
    fn output_is_read_in_lines_of_bounded_length() {
        let ok = |s: &str| Ok(s.to_string());
        assert_eq!(lines(b"readyok\r\nbestmove c3-e3\n", 16), [ok("readyok"), ok("bestmove c3-e3")]);
        assert_eq!(lines(b"12345678\n12345678", 8), [ok("12345678"), ok("12345678")]);
        assert_eq!(lines(b"123456789\n", 8)[0], Err(LineError::TooLong));
        assert_eq!(lines(&[b'x'; 100], 8)[0], Err(LineError::TooLong));
        assert_eq!(lines(b"\xff\n", 8), [Err(LineError::NotUtf8)]);
        assert_eq!(lines(b"", 8), []);
    }

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
    fn command_lines_split_as_a_shell_splits_words() {
        let words = |text: &str| split_command(text).map(|w| w.join("|"));
        assert_eq!(words("halma-engine --threads 2"), Ok("halma-engine|--threads|2".into()));
        assert_eq!(words("'/opt/my engines/halma' -x"), Ok("/opt/my engines/halma|-x".into()));
        assert_eq!(words(r#""C:\Program Files\e.exe""#), Ok(r"C:\Program Files\e.exe".into()));
        assert_eq!(words(r"/opt/my\ engine  a\'b"), Ok("/opt/my engine|a'b".into()));
        // Shell syntax is only text: nothing is expanded or redirected.
        assert_eq!(words("echo $HOME;id>/tmp/x"), Ok("echo|$HOME;id>/tmp/x".into()));
        assert_eq!(split_command("   "), Err(CommandLineError::Empty));
        assert_eq!(split_command("''"), Err(CommandLineError::Empty));
        assert_eq!(split_command("'unclosed"), Err(CommandLineError::Unbalanced));
    }
}
