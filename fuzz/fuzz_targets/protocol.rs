//! The engine protocol: `Engine::handle` on arbitrary lines and `protocol::run` on
//! arbitrary byte streams. Never panics; an `error` answer leaves the game unchanged;
//! only `position` changes it; answers have the documented shapes; overlong lines get
//! `error`. The first byte picks the mode.
//!
//! Searches are kept fast so that every input runs in milliseconds: `go` lines get
//! `level Greedy depth 1 movetime 1` appended (options are read left to right, the last
//! wins; a misaligned pair makes an option name a value and the line an error; with
//! `infinite`, which takes no depth or movetime, it is always an error), bare
//! `hint` lines (the app's hint level, unbounded) and `position record` (a file, see the
//! `record` target) are skipped, and `perft` from 3 to MAX_PERFT_DEPTH
//! is skipped. Everything else reaches the engine as it came.
//!
//! In `run`, `go` searches on a thread of its own while the lines after it are read: those
//! that come before its `bestmove` get `error busy …` (or `readyok`, or end the search),
//! so which lines are refused varies from run to run; every answer is still checked.
#![no_main]

use halma_engine::protocol::{run, Engine, Flow, MAX_LINE_BYTES, MAX_PERFT_DEPTH};
use libfuzzer_sys::fuzz_target;

/// The deepest perft the target lets through: deeper ones are correct but slow.
const MAX_FUZZ_PERFT: u32 = 2;

/// The line as the target lets it reach the engine, or `None` to skip it.
fn tame(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["go", ..] => Some(format!("{line} level Greedy depth 1 movetime 1")),
        ["hint"] => None,
        // An analysis searches every position of the game: the shallowest one.
        ["analyse", ..] => Some(String::from("analyse depth 1")),
        // Reads a file: the record parser has its own target, and what a file holds is not the input's.
        ["position", "record", ..] => None,
        // Depths the engine accepts but that take long; absurd ones still reach it (and get `error`).
        ["perft", depth] if depth.parse::<u32>().is_ok_and(|d| d > MAX_FUZZ_PERFT && d <= MAX_PERFT_DEPTH) => None,
        _ => Some(line.to_string()),
    }
}

/// True for a line of the documented answers.
fn is_answer(line: &str) -> bool {
    const PREFIXES: [&str; 14] = [
        "error ",
        "readyok",
        "moves ",
        "perft ",
        "status ",
        "hpn ",
        "bestmove ",
        "hint ",
        "pass",
        // An analysis: its progress, one line per action, the draw, a summary per seat, the end.
        "info analysing ",
        "action ",
        "draw ",
        "summary ",
        "analysisdone",
    ];
    PREFIXES.iter().any(|p| line.starts_with(p))
        || (!line.is_empty() && line.split('-').all(|square| square.parse::<halma_rules::Square>().is_ok()))
}

fn handle_lines(data: &[u8]) {
    let mut engine = Engine::new();
    for raw in data.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(raw);
        let Some(line) = tame(&line) else { continue };
        let before = engine.game().clone();
        let (answers, flow) = engine.handle(&line);
        let command = line.split_whitespace().next().unwrap_or("");
        if answers.first().is_some_and(|a| a.starts_with("error ")) {
            assert_eq!(answers.len(), 1, "an error answer has one line: {answers:?}");
            assert_eq!(engine.game(), &before, "'{line}' answered {answers:?} and changed the game");
        }
        if command != "position" {
            assert_eq!(engine.game(), &before, "'{line}' changed the game");
        }
        for answer in &answers {
            assert!(is_answer(answer), "'{line}' answered '{answer}'");
        }
        if let Some(count) = answers.first().and_then(|a| a.strip_prefix("moves ")) {
            assert_eq!(count.parse::<usize>().ok(), Some(answers.len() - 1), "{answers:?}");
        }
        if flow == Flow::Quit {
            assert!(answers.is_empty());
            break;
        }
    }
}

/// The stream with every line that would search or count slowly removed (the same
/// line split and the same first word as `run`).
fn tame_stream(data: &[u8]) -> Vec<u8> {
    let mut tamed = Vec::with_capacity(data.len());
    for (i, raw) in data.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            tamed.push(b'\n');
        }
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        match std::str::from_utf8(line) {
            Ok(text) => {
                if let Some(kept) = tame(text) {
                    tamed.extend_from_slice(kept.as_bytes());
                }
            }
            Err(_) => tamed.extend_from_slice(raw),
        }
    }
    tamed
}

/// Runs the protocol on `data` and returns its answers; `overlong_first` says that the
/// first line is over the limit.
fn run_stream(data: &[u8], overlong_first: bool) -> String {
    let mut output = Vec::new();
    assert!(run(data, &mut output).is_ok());
    let text = String::from_utf8(output).expect("the engine wrote something that is not UTF-8");
    for answer in text.lines() {
        assert!(is_answer(answer), "answered '{answer}'");
    }
    if overlong_first {
        let expected = format!("error line longer than {MAX_LINE_BYTES} bytes");
        assert_eq!(text.lines().next(), Some(expected.as_str()), "{text}");
    }
    text
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    // Half the inputs drive `handle` line by line, the rest `run`, and one in 256 (mode 255)
    // starts with a line over a megabyte: scanning it under instrumentation is slow.
    match mode {
        0..=127 => handle_lines(rest),
        128..=254 => {
            run_stream(&tame_stream(rest), false);
        }
        255 => {
            // An overlong line (the input without its newlines, repeated past the limit), then
            // `isready`: the line gets `error`, and the engine goes on. Nothing else is added,
            // so these slow inputs bring no new coverage and stay few in the corpus.
            let one_line: Vec<u8> = rest.iter().copied().filter(|&b| b != b'\n').collect();
            if one_line.is_empty() {
                return;
            }
            let mut long = Vec::with_capacity(MAX_LINE_BYTES + 2 * one_line.len() + 16);
            while long.len() <= MAX_LINE_BYTES {
                long.extend_from_slice(&one_line);
            }
            long.extend_from_slice(b"\nisready\n");
            let answers = run_stream(&long, true);
            assert_eq!(answers.lines().nth(1), Some("readyok"), "{answers}");
        }
    }
});
