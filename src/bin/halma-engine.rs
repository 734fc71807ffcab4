//! `halma-engine`: the rules engine and computer players over stdin/stdout
//! (docs/PROTOCOL.md). No window, no interface code.
//!
//! `halma-engine [--threads N]`: N search threads (1..=8) instead of one per core (the
//! same as sending `setoption threads N` first).

use halma::protocol::{self, Engine, MAX_THREADS};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let threads = match args.as_slice() {
        [] => None,
        [flag, n] if flag == "--threads" => match n.parse::<usize>() {
            Ok(n) if (1..=MAX_THREADS).contains(&n) => Some(n),
            _ => usage(),
        },
        _ => usage(),
    };
    // Stdout itself, not its lock: the search thread writes its `info` and `bestmove`
    // lines while this thread reads on.
    let stdin = std::io::stdin();
    if let Err(error) = protocol::run_engine(Engine::with_threads(threads), stdin.lock(), std::io::stdout()) {
        // A closed pipe is the usual way a driver stops listening: leave quietly.
        if error.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("halma-engine: {error}");
            std::process::exit(1);
        }
    }
}

fn usage() -> ! {
    eprintln!("usage: halma-engine [--threads 1..={MAX_THREADS}]");
    std::process::exit(2);
}
