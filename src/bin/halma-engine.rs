//! `halma-engine`: the rules engine and computer players over stdin/stdout
//! (ENGINE-PROTOCOL.md). No window, no interface code.

fn main() {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    if let Err(error) = halma::protocol::run(stdin.lock(), stdout.lock()) {
        // A closed pipe is the usual way a driver stops listening: leave quietly.
        if error.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("halma-engine: {error}");
            std::process::exit(1);
        }
    }
}
