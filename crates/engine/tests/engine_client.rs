//! The engine-program client as the app's seats use it, against programs that misbehave:
//! one that never reads its input (the caller must not block, however long the `position`
//! line), and one that starts a child and answers garbage (a Retry must leave no thread
//! and no process behind). The tests run one at a time: one counts this process's threads.

use halma_test_support as common;

use halma_core::players::{FailureKind, Program, SeatDriver, Turn};
use halma_engine::engine_client::{EngineProcess, Launch, Received};
use halma_rules::{Game, Seat, Setup};
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The tests of this file run one at a time: the first counts the process's threads.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Polls `driver` until it answers (at most `limit`).
fn wait(driver: &mut dyn SeatDriver, limit: Duration) -> Turn {
    let deadline = Instant::now() + limit;
    loop {
        match driver.poll() {
            Turn::Thinking if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
            turn => return turn,
        }
    }
}

/// The client's threads of this process, by the names it gives them ("halma-engine-in",
/// "halma-engine-out"; Linux shows their first 15 bytes).
#[cfg(target_os = "linux")]
fn client_threads() -> usize {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return 0 };
    tasks
        .flatten()
        .filter(|task| {
            std::fs::read_to_string(task.path().join("comm")).is_ok_and(|name| name.starts_with("halma-engine"))
        })
        .count()
}

/// Whether the process `pid` runs (a zombie waiting for its parent does not).
#[cfg(target_os = "linux")]
fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| stat.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')))
}

/// Waits up to 5 s for `done`.
#[cfg(target_os = "linux")]
fn eventually(done: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !done() {
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

#[cfg(target_os = "linux")]
#[test]
fn misbehaving_programs_neither_block_the_caller_nor_leave_anything_behind() {
    let _serial = serial();
    // The test before this one may still be winding its threads down: counting from a
    // moment when some were still alive would ask for a number they no longer reach.
    assert!(eventually(|| client_threads() == 0), "an earlier test left {} threads", client_threads());

    // 1. A program that never reads: the position line of a 12,000-action game (over
    // 60 KB, past a pipe's buffer) is queued, start() returns at once, and the seat
    // fails as too slow after its time and grace instead of freezing the caller.
    let game = common::long_game(12_000, 7);
    assert!(game.history().len() >= 12_000);
    let mut silent = Program::new("sleep 60");
    let started = Instant::now();
    silent.start(&game, Some(Duration::from_millis(100)));
    assert!(started.elapsed() < Duration::from_secs(1), "start() blocked for {:?}", started.elapsed());
    let polled = Instant::now();
    assert_eq!(silent.poll(), Turn::Thinking);
    assert!(polled.elapsed() < Duration::from_millis(200), "poll() blocked");
    match wait(&mut silent, Duration::from_secs(20)) {
        Turn::Failed(failure) => assert_eq!(failure.kind, FailureKind::TooSlow, "{failure}"),
        other => panic!("expected a failure, got {other:?}"),
    }
    drop(silent);
    assert!(eventually(|| client_threads() == 0), "threads left after the silent program: {}", client_threads());

    // 2. A program that starts a child, then answers garbage: each Retry starts it afresh
    // and ends the last one with its child; nothing accumulates.
    let folder = tempfile::tempdir().expect("a temporary folder");
    let pid_file = folder.path().join("child");
    let script = format!(
        "sleep 300 & echo $! > '{}'; read line; echo error not an engine; exec cat >/dev/null",
        pid_file.display()
    );
    let command = format!("sh -c \"{script}\"");
    let mut garbage = Program::new(&command);
    let start = Game::new(Setup::TwoPlayers, Seat::A);
    for retry in 0..3 {
        let _ = std::fs::remove_file(&pid_file);
        garbage.start(&start, Some(Duration::from_millis(500)));
        match wait(&mut garbage, Duration::from_secs(20)) {
            Turn::Failed(failure) => assert_eq!(failure.kind, FailureKind::WrongAnswer, "{failure}"),
            other => panic!("retry {retry}: expected a failure, got {other:?}"),
        }
        let child = std::fs::read_to_string(&pid_file).expect("the program wrote its child's id");
        let child = child.trim().to_string();
        assert!(eventually(|| !running(&child)), "retry {retry}: the child {child} outlived its program");
        assert!(eventually(|| client_threads() == 0), "retry {retry}: {} threads left", client_threads());
    }
}

/// A wrapper script's engine goes with the wrapper: the client ends the whole group.
#[cfg(target_os = "linux")]
#[test]
fn ending_a_program_ends_what_it_started() {
    let _serial = serial();
    let launch = Launch::new(vec!["sh".into(), "-c".into(), "sleep 300 & echo $!; exec cat >/dev/null".into()]);
    let process = EngineProcess::spawn(&launch).expect("sh starts");
    let Received::Line(child) = process.line_within(Duration::from_secs(10)) else { panic!("no child id") };
    assert!(running(&child), "{child} runs while the program runs");
    drop(process);
    assert!(eventually(|| !running(&child)), "{child} still runs after the program ended");
}

/// Command lines are split as a shell splits words and never run through a shell: a
/// path with a space works, and shell syntax is only text.
#[cfg(unix)]
#[test]
fn a_command_line_is_never_run_through_a_shell() {
    let _serial = serial();
    let folder = tempfile::tempdir().expect("a temporary folder");
    let spaced = folder.path().join("my engines");
    std::fs::create_dir(&spaced).expect("a folder with a space");
    let engine = spaced.join("halma engine");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_halma-engine"), &engine).expect("linked");
    let mut program = Program::new(&format!("'{}' --threads 1", engine.display()));
    program.start(&Game::new(Setup::TwoPlayers, Seat::A), Some(Duration::from_millis(50)));
    assert!(matches!(wait(&mut program, Duration::from_secs(20)), Turn::Chose(_)), "the quoted path starts");

    let planted = folder.path().join("pwned");
    let mut shell = Program::new(&format!("echo hi;touch {}", planted.display()));
    shell.start(&Game::new(Setup::TwoPlayers, Seat::A), Some(Duration::from_millis(50)));
    let _ = wait(&mut shell, Duration::from_secs(20));
    assert!(!Path::new(&planted).exists(), "a ';' must not start a second command");
}
