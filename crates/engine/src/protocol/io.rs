//! The session the program runs: lines read in bounded memory, `go` and `analyse` on a
//! thread of their own while reading goes on, and one output both write to.

use super::interpreter::{Engine, Flow, Go, Job};
use super::{error, MAX_LINE_BYTES};
use halma_rules::excerpt;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

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
                vec![format!("error the search failed: {}", halma_ai::panic_message(panic.as_ref()))]
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
