//! `halma-arena`: plays games between two players and reports who is stronger.
//!
//! ```text
//! halma-arena --games N --setup 2p --a level:Master --b level:Greedy
//!             [--movetime MS] [--movetime-a MS] [--movetime-b MS] [--seed S] [--threads 1|2]
//!             [--max-plies 1000] [--record FILE [--analyse] [--analyse-depth N]]
//!             [--time-hints] [--search-threads N]
//! ```
//!
//! A player is `level:<name>` (a level of this program, played in-process) or
//! `cmd:<command line>` (any program speaking docs/PROTOCOL.md, started with `sh -c`).
//! `--threads` plays that many games at once; `--search-threads` sets how many threads
//! each in-process level searches with (default: Master on every core, at most 8; for a
//! program, pass its own option, e.g. `cmd:halma-engine --threads 2`). `--movetime` gives
//! both players the same time a move; `--movetime-a` and `--movetime-b` give one player its
//! own (to measure what more time is worth: the same player at two times).
//! Seats are shared out fairly: in 2p the players take turns moving first; in 4p each
//! player takes a team and the teams and the first seat rotate; in 3p the seat sets rotate
//! (A alone, B alone, C alone, and each pair), so each player gets the lone 13-piece seat
//! as often as the other. Every move is checked by the rules engine: an illegal or
//! malformed move, a crash, a timeout or an output line over 64 KiB loses the game for
//! the program that made it; the program is then stopped with every process it started.
//! `--record` gets each game as soon as it ends: a match interrupted keeps its games.
//! With `--analyse` each recorded game is first analysed (`ai::analysis`, depth 3 or
//! `--analyse-depth`, one thread) and the analysis written in its record as comments
//! (docs/RECORDS.md), so matches can be reviewed later without slowing them much.
//! Games reaching the ply cap are adjudicated by remaining distance (the share of its
//! start distance each player's armies still have to go; the smaller share wins).
//! Levels offer and answer draws as they would in the app (`ai::wants_draw`,
//! `ai::should_accept_draw`); programs cannot, so they never offer and always refuse.
//! Levels offer only in stuck games, where a level accepts unless it is ahead (and, once
//! the game is hopelessly stuck, even then), so stuck games between levels end drawn.
//!
//! Three data modes play reproducible self-play games instead of a match (see their
//! `--help`): `halma-arena --labels …` writes positions with their values and results for
//! the analysis's win-chance model (docs/ANALYSIS.md), `halma-arena --puzzles …` writes
//! candidate puzzles (docs/PUZZLES.md); `halma-arena --review …` reports the analysis's
//! labels over games between different levels (docs/ANALYSIS.md).

mod engine;
mod labels;
mod match_loop;
mod options;
mod puzzles;
mod record_file;
mod review;
mod selfplay;
mod stats;

use engine::Player;
use match_loop::play_game;
use options::{parse_options, USAGE};
use record_file::RecordFile;
use stats::{load_average, report};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The data modes: games for the analysis's win-chance model and for puzzles.
    let data_modes = ["--labels", "--puzzles", "--review"];
    if let Some((mode, rest)) = args.split_first().filter(|(mode, _)| data_modes.contains(&mode.as_str())) {
        type Mode = fn(&[String]) -> Result<(), String>;
        let (usage, run): (&str, Mode) = match mode.as_str() {
            "--labels" => (labels::USAGE, labels::run),
            "--puzzles" => (puzzles::USAGE, puzzles::run),
            _ => (review::USAGE, review::run),
        };
        if rest.iter().any(|a| a == "--help" || a == "-h") {
            println!("{usage}");
            return;
        }
        if let Err(why) = run(rest) {
            eprintln!("halma-arena {mode}: {why}\n{usage}");
            std::process::exit(2);
        }
        return;
    }
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return;
    }
    let options = match parse_options(&args) {
        Ok(options) => options,
        Err(why) => {
            eprintln!("halma-arena: {why}\n{USAGE}");
            std::process::exit(2);
        }
    };
    let record_file = match options.record.as_deref().map(RecordFile::create).transpose() {
        Ok(file) => file,
        Err(why) => {
            eprintln!("halma-arena: {why}");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    let load_at_start = load_average();
    let next = AtomicUsize::new(0);
    let records = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..options.threads.min(options.games) {
            scope.spawn(|| {
                let mut players = options.players.clone().map(|spec| Player::new(spec, options.search_threads));
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= options.games {
                        break;
                    }
                    let record = play_game(index, &options, &mut players);
                    // On file before it is announced: a game shown as ended is never lost.
                    if let Some(Err(why)) = record_file.as_ref().map(|file| file.append(&options, &record)) {
                        eprintln!("halma-arena: {why}");
                    }
                    let result = if record.score_a > 0.75 {
                        "A wins"
                    } else if record.score_a < 0.25 {
                        "B wins"
                    } else {
                        "draw"
                    };
                    eprintln!("game {:>4}: {result} ({:?}, {} plies)", index + 1, record.ending, record.plies);
                    if let Ok(mut records) = records.lock() {
                        records.push(record);
                    }
                }
            });
        }
    });
    let mut records = records.into_inner().unwrap_or_default();
    records.sort_by_key(|r| r.index);
    report(&options, &records, started.elapsed(), [load_at_start, load_average()]);
}
