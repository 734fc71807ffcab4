//! `halma`: the desktop app.

fn main() {
    if let Err(error) = halma::app::ui::run_desktop() {
        eprintln!("halma: {error}");
        std::process::exit(1);
    }
}
