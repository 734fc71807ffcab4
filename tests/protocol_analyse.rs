//! `halma-engine`'s `analyse` command (docs/PROTOCOL.md): the analysis of the current
//! game, one line per action and one summary per seat, through `Engine::handle` and
//! through the real binary, where it runs like `go` and `stop` cancels it.

use halma::ai::analysis::{self, AnalysisRequest, Quality};
use halma::protocol::{analysis_lines, Engine, Flow};
use halma::rules::{Game, Seat, Setup};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

const ENGINE: &str = env!("CARGO_BIN_EXE_halma-engine");

/// Six plies of a 2p game where A gives away a step chain and C a jump chain.
const SIX_PLIES: [&str; 6] = ["c3-d4", "n14-m13", "a1-c3-e5", "p16-n14-l12", "e5-f6", "m13-l13"];

/// Its analysis at depth 3, as the engine prints it.
const SIX_PLIES_ANALYSED: [&str; 9] = [
    "action 1 A c3-d4 best loss 0.0 best c3-d4 before +6.3 after +6.3",
    "action 2 C n14-m13 best loss 0.0 best n14-m13 before -4.6 after -4.6",
    "action 3 A a1-c3-e5 best loss 0.0 best a1-c3-e5 before +5.4 after +5.4",
    "action 4 C p16-n14-l12 best loss 0.0 best p16-n14-l12 before -4.8 after -4.8",
    "action 5 A e5-f6 mistake loss 3.1 best c2-e4-e6 before +8.1 after +5.0",
    "action 6 C m13-l13 blunder loss 9.7 best n15-l13-l11 before -1.3 after -11.0",
    "summary A judged 3 best 2 good 0 inaccuracy 0 mistake 1 blunder 0 lost 3.1 average 1.0 chain 2 at 3",
    "summary C judged 3 best 2 good 0 inaccuracy 0 mistake 0 blunder 1 lost 9.7 average 3.2 chain 2 at 4",
    "analysisdone",
];

fn six_plies_position() -> String {
    format!("position start 2p moves {}", SIX_PLIES.join(" "))
}

/// Runs the binary on `input` to its end: its stdout lines and whether it exited 0.
fn run_binary(input: &str) -> (Vec<String>, bool) {
    let mut child = Command::new(ENGINE)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("halma-engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("halma-engine runs");
    writer.join().expect("the writer thread");
    let text = String::from_utf8(output.stdout).expect("UTF-8 output");
    (text.lines().map(str::to_string).collect(), output.status.success())
}

fn without_info(lines: &[String]) -> Vec<&str> {
    lines.iter().map(String::as_str).filter(|line| !line.starts_with("info ")).collect()
}

#[test]
fn analyse_prints_a_line_per_action_then_a_summary_per_seat() {
    let input = format!("{}\nanalyse depth 3\n", six_plies_position());
    // The end of the input waits for the analysis: a pipe gets the whole of it.
    let (lines, ok) = run_binary(&input);
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
    let (lines, ok) = run_binary(&format!("{blocked}\nanalyse depth 2\n"));
    assert!(ok, "{lines:?}");
    assert_eq!(
        without_info(&lines),
        [
            "action 1 A pass forced-pass",
            "action 2 C h9-h10 mistake loss 4.5 best h9-g8 before +22.7 after +18.2",
            "summary A judged 0 best 0 good 0 inaccuracy 0 mistake 0 blunder 0 lost 0.0 average 0.0 chain 0",
            "summary C judged 1 best 0 good 0 inaccuracy 0 mistake 1 blunder 0 lost 4.5 average 4.5 chain 0",
            "analysisdone",
        ]
    );
    let (lines, ok) = run_binary(&format!("position record {}\nanalyse depth 2\n", path.display()));
    assert!(ok, "{lines:?}");
    assert_eq!(
        without_info(&lines),
        [
            "action 1 A c3-d4 mistake loss 3.8 best c1-e3 before +4.6 after +0.8",
            "action 2 C n14-m13 best loss 0.0 best n14-m13 before 0.0 after 0.0",
            "draw agreed",
            "summary A judged 1 best 0 good 0 inaccuracy 0 mistake 1 blunder 0 lost 3.8 average 3.8 chain 0",
            "summary C judged 1 best 1 good 0 inaccuracy 0 mistake 0 blunder 0 lost 0.0 average 0.0 chain 0",
            "analysisdone",
        ]
    );
}

/// The binary in a live session, its output read by a thread of its own.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Session {
    fn start() -> Session {
        let mut child = Command::new(ENGINE)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("halma-engine starts");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Session { stdin: child.stdin.take(), child, lines }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").and_then(|()| stdin.flush()).expect("the engine reads its input");
    }

    /// The next line that is not `info`.
    fn next_answer(&self) -> String {
        loop {
            let line = self.lines.recv_timeout(Duration::from_secs(20)).expect("an answer in time");
            if !line.starts_with("info ") {
                return line;
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // A failed test must not leave an analysing engine behind.
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[test]
fn stop_cancels_an_analysis_and_the_engine_answers_again() {
    let record = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/analysis-typical-2p.txt");
    let mut session = Session::start();
    session.send(&format!("position record {record}"));
    // Deep enough to run for many seconds.
    session.send("analyse depth 6");
    let first = session.lines.recv_timeout(Duration::from_secs(20)).expect("progress");
    assert_eq!(first, "info analysing 1 of 166");
    session.send("isready");
    assert_eq!(session.next_answer(), "readyok");
    session.send("status");
    assert_eq!(
        session.next_answer(),
        "error busy analysing: 'status' refused until analysisdone (stop, isready and quit are answered)"
    );
    let stopped = Instant::now();
    session.send("stop");
    assert_eq!(session.next_answer(), "analysisdone cancelled");
    assert!(stopped.elapsed() < Duration::from_secs(2), "stopped after {:?}", stopped.elapsed());
    session.send("status");
    assert_eq!(session.next_answer(), "status win C");
    session.send("quit");
    assert!(session.child.wait().expect("the engine exits").success());
}

#[test]
fn quit_during_an_analysis_ends_the_engine() {
    let record = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/analysis-typical-2p.txt");
    let mut session = Session::start();
    session.send(&format!("position record {record}"));
    session.send("analyse depth 6");
    assert_eq!(session.lines.recv_timeout(Duration::from_secs(20)).ok().as_deref(), Some("info analysing 1 of 166"));
    session.send("quit");
    assert_eq!(session.next_answer(), "analysisdone cancelled");
    assert!(session.child.wait().expect("the engine exits").success());
}
