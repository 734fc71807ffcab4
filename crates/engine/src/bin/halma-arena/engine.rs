//! The players' engines: an in-process level, or a `cmd:` program speaking the engine
//! protocol (run with `sh -c` through the app's own client, `halma_engine::engine_client`, in a
//! process group of its own), started on first use and stopped after a failure.

use crate::options::PlayerSpec;
use halma_ai::SearchRequest;
use halma_engine::engine_client::{position_command, EngineProcess, Launch};
use halma_rules::Game;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How long a program may think beyond its move time before it loses on time.
const GRACE: Duration = Duration::from_secs(5);
/// The wait for a program that was given no move time (it uses its own budget).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a program has to leave by itself after `quit` before its group is killed.
const QUIT_WAIT: Duration = Duration::from_millis(200);

/// Starts a `cmd:` program: its command line is run by `sh -c`, as typed on the arena's
/// command line, and its errors go to the arena's.
fn spawn(command: &str) -> Result<EngineProcess, String> {
    let launch =
        Launch { argv: vec!["sh".into(), "-c".into(), command.into()], show_errors: true, quit_wait: QUIT_WAIT };
    EngineProcess::spawn(&launch).map_err(|e| format!("cannot start '{command}': {e}"))
}

/// What a search reported for one move: the depth of its deepest completed iteration
/// and the nodes searched by then (the last `info` line of a program).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinking {
    pub depth: u32,
    pub nodes: u64,
}

/// Depth and nodes of an `info` line (`info depth <d> ... nodes <n> ...`), if it has both.
fn parse_info(line: &str) -> Option<Thinking> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let (mut depth, mut nodes) = (None, None);
    while let Some(key) = words.next() {
        match key {
            "depth" => depth = words.next().and_then(|w| w.parse().ok()),
            "nodes" => nodes = words.next().and_then(|w| w.parse().ok()),
            "pv" => break,
            _ => {}
        }
    }
    Some(Thinking { depth: depth?, nodes: nodes? })
}

/// One player as a thread uses it: a level, or a program (started on first use and
/// restarted after a failure).
pub struct Player {
    spec: PlayerSpec,
    process: Option<EngineProcess>,
    /// Search threads of a level (`None`: its default).
    threads: Option<usize>,
    /// A level's transposition table, kept from move to move as the engine keeps it.
    memory: halma_ai::SearchMemory,
}

impl Player {
    pub fn new(spec: PlayerSpec, threads: Option<usize>) -> Player {
        Player { spec, process: None, threads, memory: halma_ai::SearchMemory::new() }
    }

    pub fn is_level(&self) -> bool {
        matches!(self.spec, PlayerSpec::Level(_))
    }

    /// The move text the player answers for the game's seat to move, and what its search
    /// reported last (nothing for a move found without search: Greedy, forced moves).
    pub fn choose(
        &mut self,
        game: &Game,
        movetime: Option<Duration>,
        seed: u64,
    ) -> (Result<String, String>, Option<Thinking>) {
        let mut thinking = None;
        let result = match &self.spec {
            PlayerSpec::Level(level) => {
                let request = SearchRequest { movetime, seed, threads: self.threads, ..SearchRequest::new(*level) };
                let mut report = |i: &halma_ai::Iteration| thinking = Some(Thinking { depth: i.depth, nodes: i.nodes });
                halma_ai::choose_action_remembering(game, &request, &AtomicBool::new(false), &self.memory, &mut report)
                    .map(|action| action.to_string())
                    .ok_or_else(|| "no move for an ongoing game".to_string())
            }
            PlayerSpec::Command(command) => {
                let result = self.ask_program(&command.clone(), game, movetime, seed, &mut thinking);
                if result.is_err() {
                    self.process = None;
                }
                result
            }
        };
        (result, thinking)
    }

    fn ask_program(
        &mut self,
        command: &str,
        game: &Game,
        movetime: Option<Duration>,
        seed: u64,
        thinking: &mut Option<Thinking>,
    ) -> Result<String, String> {
        if self.process.is_none() {
            let process = spawn(command)?;
            process.send("isready")?;
            process.expect_until("readyok", Instant::now() + DEFAULT_TIMEOUT, &mut |_| {})?;
            self.process = Some(process);
        }
        let process = self.process.as_ref().ok_or("no program")?;
        process.send(&position_command(game))?;
        let (go, timeout) = match movetime {
            Some(t) => (format!("go movetime {} seed {seed}", t.as_millis()), t + GRACE),
            None => (format!("go seed {seed}"), DEFAULT_TIMEOUT),
        };
        process.send(&go)?;
        let line = process.expect_until("bestmove", Instant::now() + timeout, &mut |line| {
            if let Some(info) = parse_info(line) {
                *thinking = Some(info);
            }
        })?;
        let mut words = line.split_whitespace().skip(1);
        match (words.next(), words.next()) {
            (Some(mv), None) => Ok(mv.to_string()),
            _ => Err(format!("malformed answer '{line}'")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_depth_and_nodes() {
        let line = "info depth 7 score -12 nodes 123456 nps 400000 time 308 pv c3-e3 n14-l14";
        assert_eq!(parse_info(line), Some(Thinking { depth: 7, nodes: 123456 }));
        assert_eq!(parse_info("info depth 3 pv c3-e3"), None, "no nodes");
        assert_eq!(parse_info("bestmove c3-e3"), None);
        // Words in the pv are not read as fields.
        assert_eq!(parse_info("info nodes 5 depth 2 pv depth 9"), Some(Thinking { depth: 2, nodes: 5 }));
    }
}
