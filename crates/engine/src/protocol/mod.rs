//! The `halma-engine` text protocol (docs/PROTOCOL.md): one command per line in,
//! one or more lines out. Bad input gets `error <reason>` and changes nothing.
//!
//! [`Engine::handle`] answers one line at a time (a `go` or `analyse` there runs before
//! it returns); [`run`] is the session the program runs: it reads on while `go` searches
//! (or `analyse` analyses) on a thread of its own, so `stop`, `isready` and `quit` are
//! answered meanwhile.
//!
//! In files by concept: `interpreter` (the commands and the engine's state), `answers`
//! (how results are worded), `record_files` (`position record`'s file reading) and `io`
//! (the session: reading lines, the search thread, the output).

mod answers;
mod interpreter;
mod io;
mod record_files;

pub use answers::{analysis_lines, info_line, status_line};
pub use interpreter::{Engine, Flow};
pub use io::{run, run_engine};
/// The longest command line read; longer lines are answered with an error.
pub const MAX_LINE_BYTES: usize = 1 << 20;
/// The deepest perft accepted (deeper ones would run for days).
pub const MAX_PERFT_DEPTH: u32 = 8;
/// The deepest `go depth` accepted.
pub const MAX_GO_DEPTH: u32 = 64;
/// The most search threads (`setoption threads`).
pub const MAX_THREADS: usize = halma_ai::search::MAX_THREADS;
/// The longest `go movetime` accepted, in milliseconds (one hour).
pub const MAX_MOVETIME_MS: u64 = 3_600_000;

fn error(reason: impl std::fmt::Display) -> Vec<String> {
    vec![format!("error {reason}")]
}
