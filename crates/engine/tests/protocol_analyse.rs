//! `halma-engine`'s `analyse` command (docs/PROTOCOL.md): the analysis of the current
//! game, one line per action and one summary per seat, through `Engine::handle` and
//! through the real binary, where it runs like `go` and `stop` cancels it.

mod common;

use common::engine::{run_binary, EngineSession};
use halma_ai::analysis::{self, AnalysisRequest, Quality};
use halma_engine::protocol::{analysis_lines, Engine, Flow};
use halma_rules::{Game, Seat, Setup};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Six plies of a 2p game where A gives away a step chain and C a jump chain.
const SIX_PLIES: [&str; 6] = ["c3-d4", "n14-m13", "a1-c3-e5", "p16-n14-l12", "e5-f6", "m13-l13"];

/// Its analysis at depth 3, as the engine prints it.
const SIX_PLIES_ANALYSED: [&str; 9] = [
    "action 1 A c3-d4 best loss 0.0 best c3-d4 before +6.3 after +6.3",
    "action 2 C n14-m13 best loss 0.0 best n14-m13 before -4.6 after -4.6",
    "action 3 A a1-c3-e5 best loss 0.0 best a1-c3-e5 before +5.4 after +5.4",
    "action 4 C p16-n14-l12 best loss 0.0 best p16-n14-l12 before -4.8 after -4.8",
    "action 5 A e5-f6 good loss 3.1 best c2-e4-e6 before +8.1 after +5.0",
    "action 6 C m13-l13 inaccuracy loss 9.7 best n15-l13-l11 before -1.3 after -11.0",
    "summary A judged 3 best 2 good 1 inaccuracy 0 mistake 0 blunder 0 lost 3.1 average 1.0 chain 2 at 3",
    "summary C judged 3 best 2 good 0 inaccuracy 1 mistake 0 blunder 0 lost 9.7 average 3.2 chain 2 at 4",
    "analysisdone",
];

fn six_plies_position() -> String {
    format!("position start 2p moves {}", SIX_PLIES.join(" "))
}

fn without_info(lines: &[String]) -> Vec<&str> {
    lines.iter().map(String::as_str).filter(|line| !line.starts_with("info ")).collect()
}

#[test]
fn analyse_prints_a_line_per_action_then_a_summary_per_seat() {
    let input = format!("{}\nanalyse depth 3\n", six_plies_position());
    // The end of the input waits for the analysis: a pipe gets the whole of it.
    let (lines, ok) = run_binary(input.as_bytes());
    assert!(ok, "{lines:?}");
    let progress: Vec<&str> = lines.iter().map(String::as_str).filter(|line| line.starts_with("info ")).collect();
    assert_eq!(progress, (1..=6).map(|i| format!("info analysing {i} of 6")).collect::<Vec<_>>());
    assert_eq!(without_info(&lines), SIX_PLIES_ANALYSED);

    // The lines say what the library's analysis says, at any thread count.
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    for text in SIX_PLIES {
        game.play_text(text).expect(text);
    }
    for threads in [1, 2] {
        let request = AnalysisRequest::new(Quality { depth: 3 }).with_threads(threads);
        let analysis = analysis::analyse(&game, &request, &AtomicBool::new(false), &mut |_, _| {}).expect("analysed");
        assert_eq!(analysis_lines(&game, &analysis), SIX_PLIES_ANALYSED[..8]);
    }
}

#[test]
fn engine_handle_answers_analyse_whole_and_refuses_bad_options() {
    let mut engine = Engine::new();
    assert_eq!(engine.handle(&six_plies_position()), (Vec::new(), Flow::Continue));
    let (lines, flow) = engine.handle("analyse depth 3");
    assert_eq!(flow, Flow::Continue);
    assert_eq!(lines, SIX_PLIES_ANALYSED);
    for (line, answer) in [
        ("analyse depth 0", "error bad analysis depth '0' (1..=8)"),
        ("analyse depth 9", "error bad analysis depth '9' (1..=8)"),
        ("analyse depth", "error usage: analyse [depth <n>]"),
        ("analyse fast", "error usage: analyse [depth <n>]"),
        ("analyse depth 3 now", "error usage: analyse [depth <n>]"),
    ] {
        assert_eq!(engine.handle(line), (vec![answer.to_string()], Flow::Continue), "{line}");
    }
    // The game is as it was.
    assert_eq!(engine.game().history().len(), 6);
}

#[test]
fn analyse_labels_passes_and_draw_votes_and_reads_records() {
    let blocked = "position hpn 16/16/16/16/16/16/16/7C8/16/16/16/16/16/C1C13/CC14/ACC13 A 2p 0 moves pass h9-h10";
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("draw.txt");
    let record = "[Halma \"1\"]\n[Setup \"2p\"]\n[FirstSeat \"A\"]\n[Result \"draw by agreement\"]\n\n\
                  1. c3-d4 { a comment changes nothing } n14-m13 offer accept\n";
    std::fs::write(&path, record).expect("the record file");
    // One analysis a run: commands sent during one are refused, not queued.
    let (lines, ok) = run_binary(format!("{blocked}\nanalyse depth 2\n").as_bytes());
    assert!(ok, "{lines:?}");
    assert_eq!(
        without_info(&lines),
        [
            "action 1 A pass forced-pass",
            "action 2 C h9-h10 inaccuracy loss 4.5 best h9-g8 before +22.7 after +18.2",
            "summary A judged 0 best 0 good 0 inaccuracy 0 mistake 0 blunder 0 lost 0.0 average 0.0 chain 0",
            "summary C judged 1 best 0 good 0 inaccuracy 1 mistake 0 blunder 0 lost 4.5 average 4.5 chain 0",
            "analysisdone",
        ]
    );
    let (lines, ok) = run_binary(format!("position record {}\nanalyse depth 2\n", path.display()).as_bytes());
    assert!(ok, "{lines:?}");
    assert_eq!(
        without_info(&lines),
        [
            "action 1 A c3-d4 good loss 3.8 best c1-e3 before +4.6 after +0.8",
            "action 2 C n14-m13 best loss 0.0 best n14-m13 before 0.0 after 0.0",
            "draw agreed",
            "summary A judged 1 best 0 good 1 inaccuracy 0 mistake 0 blunder 0 lost 3.8 average 3.8 chain 0",
            "summary C judged 1 best 1 good 0 inaccuracy 0 mistake 0 blunder 0 lost 0.0 average 0.0 chain 0",
            "analysisdone",
        ]
    );
}

/// The engine's first answer to a long analysis of a whole recorded game: it has begun.
fn analysing_a_long_game() -> EngineSession {
    let record = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/analysis-typical-2p.txt");
    let mut session = EngineSession::start();
    session.send(&format!("position record {record}"));
    // Deep enough to run for many seconds.
    session.send("analyse depth 6");
    assert_eq!(session.next_line().0, "info analysing 1 of 166");
    session
}

#[test]
fn stop_cancels_an_analysis_and_the_engine_answers_again() {
    let mut session = analysing_a_long_game();
    session.send("isready");
    assert_eq!(session.next_answer().0, "readyok");
    session.send("status");
    assert_eq!(
        session.next_answer().0,
        "error busy analysing: 'status' refused until analysisdone (stop, isready and quit are answered)"
    );
    let stopped = Instant::now();
    session.send("stop");
    assert_eq!(session.next_answer().0, "analysisdone cancelled");
    assert!(stopped.elapsed() < Duration::from_secs(2), "stopped after {:?}", stopped.elapsed());
    session.send("status");
    assert_eq!(session.next_answer().0, "status win C");
    session.send("quit");
    assert!(session.child.wait().expect("the engine exits").success());
}

#[test]
fn quit_during_an_analysis_ends_the_engine() {
    let mut session = analysing_a_long_game();
    session.send("quit");
    assert_eq!(session.next_answer().0, "analysisdone cancelled");
    assert!(session.child.wait().expect("the engine exits").success());
}
