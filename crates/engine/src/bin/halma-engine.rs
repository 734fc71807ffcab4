//! `halma-engine`: the rules engine and computer players over stdin/stdout
//! (docs/PROTOCOL.md). No window, no interface code.
//!
//! `halma-engine [--threads N] [--search paranoid|brs]`: N search threads (1..=8)
//! instead of one per core, and the 3p search (the same as sending `setoption threads
//! N` and `setoption search ...` first; an arena can then pit the two 3p searches).

use halma_engine::protocol::{self, Engine, MAX_THREADS};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut threads = None;
    let mut options = Vec::new();
    for pair in args.chunks(2) {
        match pair {
            [flag, n] if flag == "--threads" => match n.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => threads = Some(n),
                _ => usage(),
            },
            [flag, name] if flag == "--search" => options.push(format!("setoption search {name}")),
            _ => usage(),
        }
    }
    let mut engine = Engine::with_threads(threads);
    for option in options {
        if !engine.handle(&option).0.is_empty() {
            usage();
        }
    }
    // Stdout itself, not its lock: the search thread writes its `info` and `bestmove`
    // lines while this thread reads on.
    let stdin = std::io::stdin();
    if let Err(error) = protocol::run_engine(engine, stdin.lock(), std::io::stdout()) {
        // A closed pipe is the usual way a driver stops listening: leave quietly.
        if error.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("halma-engine: {error}");
            std::process::exit(1);
        }
    }
}

fn usage() -> ! {
    eprintln!("usage: halma-engine [--threads 1..={MAX_THREADS}] [--search paranoid|brs]");
    std::process::exit(2);
}
