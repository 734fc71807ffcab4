//! `halma-arena` through its binary, with `cmd:` programs that misbehave: the record file
//! keeps every finished game of a match that is killed, output without a newline forfeits
//! instead of filling memory, and the processes a program starts end with the match.
//! Unix only: `cmd:` programs run with `sh`.
#![cfg(unix)]

use halma_record::Record;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ARENA: &str = env!("CARGO_BIN_EXE_halma-arena");
const ENGINE: &str = env!("CARGO_BIN_EXE_halma-engine");

/// Whether a process runs (a zombie that nobody has reaped yet does not).
fn running(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| stat.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')))
    } else {
        Command::new("kill").arg("-0").arg(pid.to_string()).status().is_ok_and(|status| status.success())
    }
}

/// Waits up to 5 s for the process to end (a killed process takes a moment to go).
fn ends(pid: u32) -> bool {
    let start = Instant::now();
    while running(pid) && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(10));
    }
    !running(pid)
}

/// The process id a test program wrote to `path`, waiting up to 10 s for it.
fn pid_in(path: &Path) -> u32 {
    let start = Instant::now();
    loop {
        if let Some(pid) = std::fs::read_to_string(path).ok().and_then(|text| text.trim().parse().ok()) {
            return pid;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "no process id in {}", path.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn records_in(path: &Path) -> Vec<Record> {
    let text = std::fs::read_to_string(path).expect("the record file");
    Record::parse_many(&text).unwrap_or_else(|e| panic!("the record file reads back ({e:?}):\n{text}"))
}

#[test]
fn a_killed_match_keeps_every_finished_game() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let [file, sleeper, script] =
        ["games.txt", "sleeper", "player.sh"].map(|name| folder.path().join(name).display().to_string());
    // Player B passes the protocol on to halma-engine, until its third `go`: there it
    // becomes a sleeping process that writes its id, so game 3 never ends (B has one move
    // a game at 2 plies).
    let relay = format!(
        "n=0\n\
         while IFS= read -r line; do\n\
         case \"$line\" in go*) n=$((n + 1)); if [ \"$n\" -gt 2 ]; then exec sh -c 'echo $$ > \"$1\"; exec sleep 300' sh '{sleeper}'; fi ;; esac\n\
         printf '%s\\n' \"$line\"\n\
         done | '{ENGINE}'\n"
    );
    std::fs::write(&script, relay).expect("the player's script");
    let mut arena = Command::new(ARENA)
        .args(["--games", "4", "--setup", "2p", "--a", "level:Greedy", "--b", &format!("cmd:sh '{script}'")])
        .args(["--max-plies", "2", "--movetime", "50", "--record", &file])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arena starts");
    let stderr = arena.stderr.take().expect("the arena's stderr");
    let mut ended = Vec::new();
    for line in BufReader::new(stderr).lines() {
        let line = line.expect("a line of the arena's stderr");
        ended.push(line);
        if ended.len() == 2 {
            break;
        }
    }
    assert!(ended[0].starts_with("game    1: "), "{ended:?}");
    assert!(ended[1].starts_with("game    2: "), "{ended:?}");
    let sleeper = pid_in(Path::new(&sleeper));
    arena.kill().expect("the arena is killed");
    arena.wait().expect("the arena ends");

    let records = records_in(Path::new(&file));
    assert_eq!(records.len(), 2, "the two games that ended, and nothing of the third");
    assert_eq!(records.iter().map(|r| r.game.history().len()).collect::<Vec<_>>(), [2, 2]);
    assert!(ends(sleeper), "process {sleeper} of player B still runs after the arena was killed");
}

#[test]
fn a_program_that_never_ends_a_line_forfeits() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let file = folder.path().join("games.txt").display().to_string();
    let started = Instant::now();
    let output = Command::new(ARENA)
        .args(["--games", "1", "--setup", "2p", "--a", "cmd:echo readyok; yes x | tr -d '\\n'"])
        .args(["--b", "level:Greedy", "--movetime", "1000", "--record", &file])
        .stderr(Stdio::null())
        .output()
        .expect("the arena runs");
    assert!(output.status.success(), "{output:?}");
    let report = String::from_utf8_lossy(&output.stdout);
    let reason = "player A (seat A) forfeits at ply 1: the program printed more than 65536 bytes without a newline";
    assert!(report.lines().any(|line| line == format!("  game 1: {reason}")), "{report}");
    assert!(started.elapsed() < Duration::from_secs(30), "the forfeit took {:?}", started.elapsed());
    let records = records_in(Path::new(&file));
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].game.history().len(), 0);
    let termination = format!("arena player B (level:Greedy) wins: arena {reason}");
    assert_eq!(records[0].termination.as_deref(), Some(termination.as_str()));
}

#[test]
fn what_a_program_started_ends_with_the_match() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let sleeper = folder.path().join("sleeper").display().to_string();
    // The program leaves a child behind that would sleep for 5 minutes.
    let program = format!("cmd:sleep 300 & echo $! > '{sleeper}'; exec '{ENGINE}'");
    let output = Command::new(ARENA)
        .args(["--games", "1", "--setup", "2p", "--a", "level:Greedy", "--b", &program])
        .args(["--max-plies", "4", "--movetime", "50"])
        .stderr(Stdio::null())
        .output()
        .expect("the arena runs");
    assert!(output.status.success(), "{output:?}");
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(report.contains("0 forfeits"), "{report}");
    let sleeper = pid_in(Path::new(&sleeper));
    assert!(ends(sleeper), "process {sleeper}, started by player B, still runs after the match");
}

#[test]
fn analysed_games_carry_their_analysis_in_the_record() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let file = folder.path().join("games.txt").display().to_string();
    for (depth, quality) in [(None, 3), (Some("2"), 2)] {
        let mut arena = Command::new(ARENA);
        arena.args(["--games", "2", "--setup", "2p", "--a", "level:Greedy", "--b", "level:Beginner"]);
        arena.args(["--max-plies", "6", "--record", &file, "--analyse"]);
        if let Some(depth) = depth {
            arena.args(["--analyse-depth", depth]);
        }
        let output = arena.stderr(Stdio::null()).output().expect("the arena runs");
        assert!(output.status.success(), "{output:?}");
        let records = records_in(Path::new(&file));
        assert_eq!(records.len(), 2);
        for record in &records {
            let analysis = record.analysis().expect("each record holds its analysis");
            assert_eq!(analysis.quality.depth, quality);
            assert_eq!(analysis.actions.len(), 6);
            assert_eq!(
                analysis.actions.iter().map(|entry| &entry.action).collect::<Vec<_>>(),
                record.game.history().iter().collect::<Vec<_>>()
            );
        }
    }
    // The analysis goes into records only.
    let output = Command::new(ARENA)
        .args(["--games", "1", "--setup", "2p", "--a", "level:Greedy", "--b", "level:Greedy", "--analyse"])
        .output()
        .expect("the arena runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("halma-arena: --analyse writes the analysis into the records: it needs --record\n"),
        "{stderr}"
    );
}
