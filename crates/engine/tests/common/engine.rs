//! The real `halma-engine` binary for the protocol's tests: run on a whole input
//! ([`run_binary`]), or in a live session ([`EngineSession`]).
// Each test file uses a different part of this module.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The binary started with piped input and output (its stderr discarded).
fn spawn() -> Child {
    Command::new(env!("CARGO_BIN_EXE_halma-engine"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("halma-engine starts")
}

/// Runs the real binary on `input` to its end (its stderr discarded): its stdout lines and
/// whether it exited 0.
pub fn run_binary(input: &[u8]) -> (Vec<String>, bool) {
    let mut child = spawn();
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    // Write from another thread so a full stdout pipe cannot block us both.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("halma-engine runs");
    writer.join().expect("the writer thread");
    let text = String::from_utf8(output.stdout).expect("UTF-8 output");
    (text.lines().map(str::to_string).collect(), output.status.success())
}

/// The real binary in a live session: lines are sent one at a time, and each output line
/// is read (with the time it came) by a thread of its own, so a test can wait for an
/// answer with a time limit and measure how fast it came.
pub struct EngineSession {
    pub child: Child,
    stdin: Option<ChildStdin>,
    pub lines: Receiver<(String, Instant)>,
}

/// How long a test waits for any answer before it fails (a hang, not a slow answer).
pub const PATIENCE: Duration = Duration::from_secs(20);

impl EngineSession {
    pub fn start() -> EngineSession {
        let mut child = spawn();
        let stdout = child.stdout.take().expect("stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send((line, Instant::now())).is_err() {
                    break;
                }
            }
        });
        EngineSession { stdin: child.stdin.take(), child, lines }
    }

    /// Sends one line; returns when it was sent.
    pub fn send(&mut self, line: &str) -> Instant {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").and_then(|()| stdin.flush()).expect("the engine reads its input");
        Instant::now()
    }

    /// The next output line and when it came.
    pub fn next_line(&self) -> (String, Instant) {
        self.lines.recv_timeout(PATIENCE).expect("an answer in time")
    }

    /// Output lines up to the first starting with `prefix` (included), and when that one came.
    pub fn until(&self, prefix: &str) -> (Vec<String>, Instant) {
        let mut lines = Vec::new();
        loop {
            let (line, at) = self.next_line();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return (lines, at);
            }
        }
    }

    /// The next line that is not `info`.
    pub fn next_answer(&self) -> (String, Instant) {
        loop {
            let (line, at) = self.next_line();
            if !line.starts_with("info ") {
                return (line, at);
            }
        }
    }

    /// Waits until a search has completed its first iteration: it is really running.
    pub fn searching(&self) {
        let (line, _) = self.next_line();
        assert!(line.starts_with("info depth 1 "), "{line}");
    }

    /// Whether nothing but `info` lines came for `time`.
    pub fn quiet_but_info(&self, time: Duration) -> Result<(), String> {
        let end = Instant::now() + time;
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok((line, _)) if line.starts_with("info ") => {}
                Ok((line, _)) => return Err(line),
                Err(_) => break,
            }
        }
        Ok(())
    }

    /// Closes the engine's input and waits (up to `limit`) for it to exit: its exit status.
    pub fn close_and_wait(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        drop(self.stdin.take());
        let end = Instant::now() + limit;
        while Instant::now() < end {
            if let Some(status) = self.child.try_wait().expect("the engine's status") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    }
}

impl Drop for EngineSession {
    fn drop(&mut self) {
        // A failed test must not leave a searching engine behind.
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
