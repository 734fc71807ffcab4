//! The command interpreter: the engine's state and its answer to each command line.

use super::answers::{action_text, analysis_lines, info_line, status_line};
use super::record_files::load_record;
use super::{error, MAX_GO_DEPTH, MAX_MOVETIME_MS, MAX_PERFT_DEPTH, MAX_THREADS};
use halma_ai::analysis::{self, AnalysisError, AnalysisRequest, Quality};
use halma_ai::{Level, SearchRequest};
use halma_rules::{excerpt, parse_hpn_fields, write_hpn, Game, Position, Seat, Setup, MAX_ACTIONS};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The engine's state: the game set by `position`, and the search threads
/// (`setoption threads <n>`).
pub struct Engine {
    game: Game,
    threads: Option<usize>,
    /// How later `go` commands search in 3p (`setoption search`; `None`: the level's own).
    three_player: Option<halma_ai::ThreePlayerSearch>,
    /// Master's transposition table, kept between `go` commands (shared with the thread
    /// a session's `go` searches on).
    memory: Arc<halma_ai::SearchMemory>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

/// What to do after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

impl Engine {
    /// Starts with the `2p` start position, seat A to move.
    pub fn new() -> Engine {
        Engine {
            game: Game::new(Setup::TwoPlayers, Seat::A),
            threads: None,
            three_player: None,
            memory: Arc::default(),
        }
    }

    /// Starts as [`Engine::new`], searching with `threads` threads (`None`: the level's default).
    pub fn with_threads(threads: Option<usize>) -> Engine {
        Engine { threads: threads.map(|n| n.clamp(1, MAX_THREADS)), ..Engine::new() }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Answers one command line. `go`'s `info` lines are left out: see
    /// [`Engine::handle_streaming`].
    pub fn handle(&mut self, line: &str) -> (Vec<String>, Flow) {
        self.handle_streaming(line, &mut |_| {})
    }

    /// Answers one command line, passing each `info` line of a running `go` to `info`
    /// as soon as the search completes an iteration (before the answer, `bestmove`).
    pub fn handle_streaming(&mut self, line: &str, info: &mut dyn FnMut(&str)) -> (Vec<String>, Flow) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return (Vec::new(), Flow::Continue);
        };
        let lines = match command {
            "position" => self.position(args),
            "moves" if args.is_empty() => self.moves(),
            "perft" => self.perft(args),
            "status" if args.is_empty() => vec![status_line(&self.game)],
            "hpn" if args.is_empty() => vec![format!("hpn {}", write_hpn(self.game.position()))],
            "go" => match self.prepare_go(args) {
                Ok(Go { infinite: true, .. }) => error("go infinite needs a session that reads stop (protocol::run)"),
                Ok(Go { job, .. }) => job.run(&AtomicBool::new(false), info),
                Err(lines) => lines,
            },
            "analyse" => match self.prepare_analyse(args) {
                Ok(Go { job, .. }) => job.run(&AtomicBool::new(false), info),
                Err(lines) => lines,
            },
            "hint" if args.is_empty() => self.hint(),
            "isready" if args.is_empty() => vec!["readyok".to_string()],
            // No search is running: a `stop` that crossed the answer on its way is ignored.
            "stop" if args.is_empty() => Vec::new(),
            "setoption" => self.setoption(args),
            "quit" if args.is_empty() => return (Vec::new(), Flow::Quit),
            "moves" | "status" | "hpn" | "hint" | "isready" | "stop" | "quit" => {
                error(format!("{command} takes no arguments"))
            }
            other => error(format!("unknown command '{}'", excerpt(other))),
        };
        (lines, Flow::Continue)
    }

    fn position(&mut self, args: &[&str]) -> Vec<String> {
        if let ["record", rest @ ..] = args {
            return match load_record(rest) {
                Ok((game, moves)) => self.play_moves(game, moves),
                Err(why) => error(why),
            };
        }
        let (start, rest) = match args {
            ["start", setup, rest @ ..] => {
                let setup: Setup = match setup.parse() {
                    Ok(setup) => setup,
                    Err(why) => return error(why),
                };
                let (first, rest) = match rest {
                    ["first", seat, rest @ ..] => match seat.parse::<Seat>() {
                        Ok(seat) if setup.has_seat(seat) => (seat, rest),
                        Ok(seat) => return error(format!("seat {seat} does not play in {setup}")),
                        Err(why) => return error(why),
                    },
                    _ => (Seat::A, rest),
                };
                (Position::start(setup, first), rest)
            }
            ["hpn", rows, to_move, setup, plies, rest @ ..] => match parse_hpn_fields(rows, to_move, setup, plies) {
                Ok(position) => (position, rest),
                Err(why) => return error(why),
            },
            ["hpn", ..] => return error("usage: position hpn <rows> <to-move> <setup> <plies> [moves ...]"),
            _ => {
                return error(
                    "usage: position start <setup> [first <seat>] [moves ...] | position hpn ... | position record ...",
                )
            }
        };
        self.play_moves(Game::from_position(start), rest)
    }

    /// Plays `moves ...` (if any) on `game` and makes it the engine's game; on an error,
    /// nothing changes.
    fn play_moves(&mut self, mut game: Game, rest: &[&str]) -> Vec<String> {
        let moves = match rest {
            [] => &[][..],
            ["moves", moves @ ..] => moves,
            [other, ..] => return error(format!("unexpected '{}' (expected 'moves')", excerpt(other))),
        };
        // Counted before any is played: the rules refuse the action past the cap anyway, but
        // as an illegal move, which would not say why.
        let played = game.history().len();
        if moves.len() > MAX_ACTIONS.saturating_sub(played) {
            return error(format!(
                "too many moves: {} after {played} would pass the cap of {MAX_ACTIONS} actions in a game",
                moves.len()
            ));
        }
        for text in moves {
            let ply = game.position().plies() + 1;
            if game.play_text(text).is_err() {
                return error(format!("illegal move {} at ply {ply}", excerpt(text)));
            }
        }
        self.game = game;
        Vec::new()
    }

    /// `setoption threads <1..=8|auto>`: the search threads of later `go` commands.
    /// `setoption search <paranoid|brs>`: their 3p search (for matches between the two).
    fn setoption(&mut self, args: &[&str]) -> Vec<String> {
        match args {
            ["search", value] => match halma_ai::ThreePlayerSearch::from_name(value) {
                Some(search) => self.three_player = Some(search),
                None => return error(format!("bad search '{}' (paranoid or brs)", excerpt(value))),
            },
            ["threads", "auto"] => self.threads = None,
            ["threads", value] => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => self.threads = Some(n),
                _ => return error(format!("bad thread count '{}' (1..={MAX_THREADS} or auto)", excerpt(value))),
            },
            _ => return error("usage: setoption threads <n>|auto"),
        }
        Vec::new()
    }

    fn moves(&self) -> Vec<String> {
        if self.game.is_over() {
            return vec!["moves 0".to_string()];
        }
        if self.game.must_pass() {
            return vec!["moves 1".to_string(), "pass".to_string()];
        }
        let position = self.game.position();
        let moves = self.game.legal_moves();
        let mut lines = vec![format!("moves {}", moves.count())];
        for mv in moves.iter() {
            match position.route(mv) {
                Some(route) => lines.push(route.to_string()),
                None => return error(format!("internal: no route for {}-{}", mv.from, mv.to)),
            }
        }
        lines
    }

    fn perft(&self, args: &[&str]) -> Vec<String> {
        let depth = match args {
            [depth] => match depth.parse::<u32>() {
                Ok(depth) if depth <= MAX_PERFT_DEPTH => depth,
                _ => return error(format!("bad perft depth '{}' (0..={MAX_PERFT_DEPTH})", excerpt(depth))),
            },
            _ => return error("usage: perft <depth>"),
        };
        vec![format!("perft {depth} {}", self.game.perft(depth))]
    }

    /// Checks a `go` line and makes its search (run it with [`Search::run`]); an error
    /// answer for a bad option or a finished game.
    pub(super) fn prepare_go(&self, args: &[&str]) -> Result<Go, Vec<String>> {
        let mut request = SearchRequest {
            threads: self.threads,
            three_player: self.three_player,
            ..SearchRequest::new(Level::Master)
        };
        let mut infinite = false;
        let mut rest = args;
        loop {
            // `infinite` is the one option without a value.
            if let ["infinite", tail @ ..] = rest {
                infinite = true;
                rest = tail;
                continue;
            }
            let [key, value, tail @ ..] = rest else { break };
            match *key {
                "level" => match Level::from_name(value) {
                    Some(level) => request.level = level,
                    None => {
                        let names: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
                        return Err(error(format!("unknown level '{}' (one of {})", excerpt(value), names.join(", "))));
                    }
                },
                "movetime" => match value.parse::<u64>() {
                    Ok(ms) if (1..=MAX_MOVETIME_MS).contains(&ms) => request.movetime = Some(Duration::from_millis(ms)),
                    _ => return Err(error(format!("bad movetime '{}' (1..={MAX_MOVETIME_MS} ms)", excerpt(value)))),
                },
                "depth" => match value.parse::<u32>() {
                    Ok(depth) if (1..=MAX_GO_DEPTH).contains(&depth) => request.depth = Some(depth),
                    _ => return Err(error(format!("bad depth '{}' (1..={MAX_GO_DEPTH})", excerpt(value)))),
                },
                "seed" => match value.parse::<u64>() {
                    Ok(seed) => request.seed = seed,
                    Err(_) => return Err(error(format!("bad seed '{}'", excerpt(value)))),
                },
                other => return Err(error(format!("unknown go option '{}'", excerpt(other)))),
            }
            rest = tail;
        }
        if let [odd] = rest {
            return Err(error(format!("go option '{}' needs a value", excerpt(odd))));
        }
        if infinite {
            if request.depth.is_some() || request.movetime.is_some() {
                return Err(error("go infinite takes no depth or movetime"));
            }
            // No time limit (the depth given without movetime says so), and as many
            // threads as a timed search: nothing has to be reproducible here.
            request.depth = Some(MAX_GO_DEPTH);
            if request.level == Level::Master {
                request.threads = Some(self.threads.unwrap_or_else(halma_ai::default_threads));
            }
        }
        if self.game.is_over() {
            return Err(error("the game is over"));
        }
        let search = Search { game: self.game.clone(), request, memory: Arc::clone(&self.memory) };
        Ok(Go { job: Job::Search(search), infinite })
    }

    /// Checks an `analyse [depth <n>]` line and makes its analysis of the current game
    /// (run it as a `go`'s job).
    pub(super) fn prepare_analyse(&self, args: &[&str]) -> Result<Go, Vec<String>> {
        let depth = match args {
            [] => Quality::DEFAULT.depth,
            ["depth", value] => match value.parse::<u32>() {
                Ok(depth) if (1..=Quality::MAX_DEPTH).contains(&depth) => depth,
                _ => {
                    return Err(error(format!("bad analysis depth '{}' (1..={})", excerpt(value), Quality::MAX_DEPTH)))
                }
            },
            _ => return Err(error("usage: analyse [depth <n>]")),
        };
        // The same result at any thread count, so every core the engine may use.
        let threads = self.threads.unwrap_or_else(halma_ai::default_threads);
        let request = AnalysisRequest::new(Quality { depth }).with_threads(threads);
        Ok(Go { job: Job::Analyse(Analyse { game: self.game.clone(), request }), infinite: false })
    }

    fn hint(&self) -> Vec<String> {
        match halma_ai::hint(&self.game, &AtomicBool::new(false)) {
            Some(action) => vec![format!("hint {}", action_text(&action))],
            None => error("the game is over"),
        }
    }
}

/// A checked `go` or `analyse`.
pub(super) struct Go {
    pub(super) job: Job,
    /// `go infinite`: `bestmove` only after `stop`, even when the search has ended before.
    pub(super) infinite: bool,
}

/// What runs on the search thread: a `go`'s search or an `analyse`'s analysis.
pub(super) enum Job {
    Search(Search),
    Analyse(Analyse),
}

impl Job {
    /// Runs until done or until `stop` is set, passing `info` lines on; the answer's
    /// lines, the last one ending the job (`bestmove`, `analysisdone` or an error).
    pub(super) fn run(&self, stop: &AtomicBool, info: &mut dyn FnMut(&str)) -> Vec<String> {
        match self {
            Job::Search(search) => vec![search.run(stop, info)],
            Job::Analyse(analyse) => analyse.run(stop, info),
        }
    }
}

/// One `analyse`: the game as it was when asked, and how deep.
pub(super) struct Analyse {
    game: Game,
    request: AnalysisRequest,
}

impl Analyse {
    /// `info analysing <i> of <n>` as each action's analysis begins; then the analysis
    /// ([`analysis_lines`]) and `analysisdone`, or `analysisdone cancelled` after `stop`.
    fn run(&self, stop: &AtomicBool, info: &mut dyn FnMut(&str)) -> Vec<String> {
        let mut progress = |index: usize, total: usize| info(&format!("info analysing {} of {total}", index + 1));
        match analysis::analyse(&self.game, &self.request, stop, &mut progress) {
            Ok(analysis) => {
                let mut lines = analysis_lines(&self.game, &analysis);
                lines.push("analysisdone".to_string());
                lines
            }
            Err(AnalysisError::Cancelled) => vec!["analysisdone cancelled".to_string()],
            Err(why) => error(why),
        }
    }
}

/// One `go`'s search, owning what it reads so that it can run on a thread of its own
/// while the session reads on.
pub(super) struct Search {
    game: Game,
    request: SearchRequest,
    memory: Arc<halma_ai::SearchMemory>,
}

impl Search {
    /// Searches until done or until `stop` is set, passing `info` lines on; answers
    /// `bestmove <move>`, or an error line if the search failed (nothing is left running).
    fn run(&self, stop: &AtomicBool, info: &mut dyn FnMut(&str)) -> String {
        let mut report = |iteration: &halma_ai::Iteration| info(&info_line(iteration));
        match halma_ai::try_choose_action_remembering(&self.game, &self.request, stop, &self.memory, &mut report) {
            Ok(Some(action)) => format!("bestmove {}", action_text(&action)),
            Ok(None) => "error the game is over".to_string(),
            Err(why) => format!("error {why}"),
        }
    }
}
