//! A `cmd:` program as a process: started with `sh -c` in a process group of its own,
//! its output read in lines of bounded length, and the whole group ended when it stops.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The longest output line read from a program (`info` lines with a long principal
/// variation stay far below it). Output without a newline for longer forfeits the game
/// rather than growing the arena's memory.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Output lines read ahead of the arena: a program that prints faster than the arena reads
/// waits on its pipe instead of filling the arena's memory.
const QUEUED_LINES: usize = 64;
/// How long a program has to leave by itself after `quit` before its group is killed.
const QUIT_WAIT: Duration = Duration::from_millis(200);

/// What the reader thread passes on: a line, or why reading stopped early.
type Line = Result<String, String>;

/// A running protocol program: its input, and its output lines arriving on a channel.
pub struct Process {
    child: Child,
    input: ChildStdin,
    lines: Receiver<Line>,
    /// Holds the program's process group; ending it kills every process in it.
    group: group::Group,
}

impl Process {
    pub fn spawn(command: &str) -> Result<Process, String> {
        let cannot = |e: std::io::Error| format!("cannot start '{command}': {e}");
        let mut shell = Command::new("sh");
        shell.arg("-c").arg(command).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit());
        let group = group::Group::start().map_err(cannot)?;
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut shell, group.id());
        let mut child = shell.spawn().map_err(cannot)?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = child.stdout.take().ok_or("no stdout")?;
        let (sender, lines) = mpsc::sync_channel(QUEUED_LINES);
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            while let Some(line) = read_line(&mut output, MAX_LINE_BYTES) {
                let failed = line.is_err();
                if sender.send(line).is_err() || failed {
                    break;
                }
            }
        });
        Ok(Process { child, input, lines, group })
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}").and_then(|()| self.input.flush()).map_err(|e| format!("program closed: {e}"))
    }

    /// The next line starting with `prefix`; an `error` line, an overlong line or silence
    /// until `timeout` fails.
    pub fn expect(&mut self, prefix: &str, timeout: Duration) -> Result<String, String> {
        self.expect_after(prefix, timeout, &mut |_| {})
    }

    /// As [`Process::expect`], passing every other line (such as `info`) to `other`.
    pub fn expect_after(
        &mut self,
        prefix: &str,
        timeout: Duration,
        other: &mut dyn FnMut(&str),
    ) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            // Checked before each line: a program that talks without end still runs out of time.
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!("no '{prefix}' within {timeout:?}"));
            }
            match self.lines.recv_timeout(left) {
                Ok(Ok(line)) if line.starts_with(prefix) => return Ok(line),
                Ok(Ok(line)) if line.starts_with("error") => return Err(format!("program said '{line}'")),
                Ok(Ok(line)) => other(&line),
                Ok(Err(why)) => return Err(why),
                Err(RecvTimeoutError::Timeout) => return Err(format!("no '{prefix}' within {timeout:?}")),
                Err(RecvTimeoutError::Disconnected) => return Err("program exited".to_string()),
            }
        }
    }
}

impl Drop for Process {
    /// Asks the program to quit, gives it a moment, then ends its whole process group:
    /// whatever the program started (a wrapper's engine, a helper) goes with it.
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let waited = Instant::now();
        while matches!(self.child.try_wait(), Ok(None)) && waited.elapsed() < QUIT_WAIT {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.group.end();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One line of output without its newline (`\n` or `\r\n`), reading at most `limit` bytes
/// before the newline; `None` at the end of the output. A longer line or one that is not
/// UTF-8 is an error that names the problem.
fn read_line(output: &mut impl BufRead, limit: usize) -> Option<Line> {
    let mut bytes = Vec::new();
    let bound = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    if let Err(e) = Read::take(&mut *output, bound).read_until(b'\n', &mut bytes) {
        return Some(Err(format!("cannot read the program's output: {e}")));
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
        return Some(Err(format!("the program printed more than {limit} bytes without a newline")));
    }
    Some(String::from_utf8(bytes).map_err(|_| "the program printed a line that is not UTF-8".to_string()))
}

/// The process group of a program on Unix systems.
///
/// The group is held by a guard: a small `sh` that leads the group and waits for the end
/// of a pipe only the arena writes to, then kills its whole group. The pipe ends when the
/// arena stops the program ([`Group::end`]) and also when the arena itself ends in any
/// way, killed or interrupted included, so no process a program started outlives the
/// match. Standard `std` and `sh` only: no signal handler, no `unsafe`, no new crate.
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

        /// The group's id, for [`CommandExt::process_group`] of the program.
        pub fn id(&self) -> i32 {
            // A process id always fits an `i32` (`pid_t`).
            i32::try_from(self.guard.id()).unwrap_or(i32::MAX)
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

/// Elsewhere a program is a single process: stopping it kills that process alone.
#[cfg(not(unix))]
mod group {
    pub struct Group;

    impl Group {
        pub fn start() -> std::io::Result<Group> {
            Ok(Group)
        }

        pub fn end(&mut self) {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[u8], limit: usize) -> Vec<Line> {
        let mut output = text;
        std::iter::from_fn(|| read_line(&mut output, limit)).collect()
    }

    #[test]
    fn output_is_read_in_lines_of_bounded_length() {
        let ok = |s: &str| Ok(s.to_string());
        assert_eq!(lines(b"readyok\r\nbestmove c3-e3\n", 16), [ok("readyok"), ok("bestmove c3-e3")]);
        // A last line without a newline still counts.
        assert_eq!(lines(b"12345678\n12345678", 8), [ok("12345678"), ok("12345678")]);
        let long = Err("the program printed more than 8 bytes without a newline".to_string());
        // The reader stops at the first error: what follows it is not read as lines.
        assert_eq!(lines(b"123456789\n", 8)[0], long);
        assert_eq!(lines(&[b'x'; 100], 8)[0], long);
        assert_eq!(lines(b"\xff\n", 8), [Err("the program printed a line that is not UTF-8".to_string())]);
        assert_eq!(lines(b"", 8), []);
    }

    /// Whether a process still runs (a zombie waiting for its parent does not).
    #[cfg(target_os = "linux")]
    fn running(pid: &str) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| stat.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')))
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn stopping_a_program_ends_what_it_started() {
        // The program starts a child that would sleep for 5 minutes, says its id, then waits.
        let mut process = Process::spawn("sleep 300 & echo $!; exec cat >/dev/null").expect("sh starts");
        let child = process.expect("", Duration::from_secs(10)).expect("the child's id");
        assert!(running(&child), "{child} runs while the program runs");
        drop(process);
        let stopped = Instant::now();
        while running(&child) && stopped.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!running(&child), "{child} still runs after the program stopped");
    }
}
