//! A `cmd:` program as a process: started with `sh -c`, its output lines arriving on a channel.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A running protocol program: its input, and its output lines arriving on a channel.
pub struct Process {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    pub fn spawn(command: &str) -> Result<Process, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start '{command}': {e}"))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = child.stdout.take().ok_or("no stdout")?;
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process { child, input, lines })
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}").and_then(|()| self.input.flush()).map_err(|e| format!("program closed: {e}"))
    }

    /// The next line starting with `prefix`; an `error` line or silence until `timeout` fails.
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
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Ok(line),
                Ok(line) if line.starts_with("error") => return Err(format!("program said '{line}'")),
                Ok(line) => other(&line),
                Err(RecvTimeoutError::Timeout) => return Err(format!("no '{prefix}' within {timeout:?}")),
                Err(RecvTimeoutError::Disconnected) => return Err("program exited".to_string()),
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
