//! `halma-arena`: plays games between two players and reports who is stronger.
//!
//! ```text
//! halma-arena --games N --setup 2p --a level:Master --b level:Greedy
//!             [--movetime MS] [--movetime-a MS] [--movetime-b MS] [--seed S] [--threads 1|2]
//!             [--max-plies 1000] [--record FILE] [--time-hints] [--search-threads N]
//! ```
//!
//! A player is `level:<name>` (a level of this program, played in-process) or
//! `cmd:<command line>` (any program speaking ENGINE-PROTOCOL.md, started with `sh -c`).
//! `--threads` plays that many games at once; `--search-threads` sets how many threads
//! each in-process level searches with (default: Master on every core, at most 8; for a
//! program, pass its own option, e.g. `cmd:halma-engine --threads 2`). `--movetime` gives
//! both players the same time a move; `--movetime-a` and `--movetime-b` give one player its
//! own (to measure what more time is worth: the same player at two times).
//! Seats are shared out fairly: in 2p the players take turns moving first; in 4p each
//! player takes a team and the teams and the first seat rotate; in 3p the seat sets rotate
//! (A alone, B alone, C alone, and each pair), so each player gets the lone 13-piece seat
//! as often as the other. Every move is checked by the rules engine: an illegal or
//! malformed move, a crash or a timeout loses the game for the program that made it.
//! Games reaching the ply cap are adjudicated by remaining distance (the share of its
//! start distance each player's armies still have to go; the smaller share wins).
//! Levels offer and answer draws as they would in the app (`ai::wants_draw`,
//! `ai::should_accept_draw`); programs cannot, so they never offer and always refuse.
//! Levels offer only in stuck games, where a level accepts unless it is ahead (and, once
//! the game is hopelessly stuck, even then), so stuck games between levels end drawn.

use halma::ai::{self, Level, SearchRequest};
use halma::record::{Record, SeatPlayer};
use halma::rules::{Game, Outcome, Position, Seat, Setup, VoteResult};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const USAGE: &str = "usage: halma-arena --games N --setup 2p|3p|4p-one|4p-both --a PLAYER --b PLAYER \
[--movetime MS] [--movetime-a MS] [--movetime-b MS] [--seed S] [--threads 1|2] [--max-plies N] [--record FILE] [--time-hints] [--search-threads N]
  PLAYER: level:<Greedy|Beginner|Casual|Strong|Master> or cmd:<command line of a halma-engine-protocol program>";

/// How long a program may think beyond its move time before it loses on time.
const GRACE: Duration = Duration::from_secs(5);
/// The wait for a program that was given no move time (it uses its own budget).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Clone, Debug)]
enum PlayerSpec {
    Level(Level),
    Command(String),
}

impl PlayerSpec {
    fn parse(text: &str) -> Result<PlayerSpec, String> {
        if let Some(name) = text.strip_prefix("level:") {
            Level::from_name(name).map(PlayerSpec::Level).ok_or_else(|| format!("unknown level '{name}'"))
        } else if let Some(command) = text.strip_prefix("cmd:") {
            if command.trim().is_empty() {
                Err("cmd: needs a command line".to_string())
            } else {
                Ok(PlayerSpec::Command(command.to_string()))
            }
        } else {
            Err(format!("bad player '{text}' (expected level:<name> or cmd:<command line>)"))
        }
    }

    fn describe(&self) -> String {
        match self {
            PlayerSpec::Level(level) => format!("level:{}", level.name()),
            PlayerSpec::Command(command) => format!("cmd:{command}"),
        }
    }
}

struct Options {
    games: usize,
    setup: Setup,
    players: [PlayerSpec; 2],
    /// Each player's time a move (`None`: its own budget).
    movetimes: [Option<Duration>; 2],
    seed: u64,
    threads: usize,
    max_plies: usize,
    /// Where to write every game as a game record (`halma::record`), for replaying.
    record: Option<String>,
    /// Also time a hint in every position.
    time_hints: bool,
    /// Search threads of the in-process levels (`None`: their default).
    search_threads: Option<usize>,
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut games = None;
    let mut setup = None;
    let (mut a, mut b) = (None, None);
    let mut movetimes = [None, None];
    let mut seed = 1;
    let mut threads = 1;
    let mut max_plies = 1000;
    let mut record = None;
    let mut time_hints = false;
    let mut search_threads = None;
    let mut rest = args;
    while let [key, tail @ ..] = rest {
        if key == "--time-hints" {
            time_hints = true;
            rest = tail;
            continue;
        }
        let [value, tail @ ..] = tail else { return Err(format!("{key} needs a value")) };
        let number = |what: &str| value.parse::<u64>().map_err(|_| format!("bad {what} '{value}'"));
        let move_time = || number("move time").map(|ms| Some(Duration::from_millis(ms.max(1))));
        match key.as_str() {
            "--games" => games = Some(number("game count")? as usize),
            "--setup" => setup = Some(value.parse::<Setup>().map_err(|e| e.to_string())?),
            "--a" => a = Some(PlayerSpec::parse(value)?),
            "--b" => b = Some(PlayerSpec::parse(value)?),
            "--movetime" => movetimes = [move_time()?; 2],
            "--movetime-a" => movetimes[0] = move_time()?,
            "--movetime-b" => movetimes[1] = move_time()?,
            "--seed" => seed = number("seed")?,
            "--threads" => threads = number("thread count")? as usize,
            "--max-plies" => max_plies = number("ply cap")? as usize,
            "--record" => record = Some(value.clone()),
            "--search-threads" => search_threads = Some((number("search thread count")? as usize).clamp(1, 8)),
            other => return Err(format!("unknown option '{other}'")),
        }
        rest = tail;
    }
    let games = games.ok_or("--games is required")?;
    if games == 0 {
        return Err("--games must be at least 1".to_string());
    }
    if !(1..=2).contains(&threads) {
        return Err("--threads must be 1 or 2 (the machine is shared)".to_string());
    }
    Ok(Options {
        games,
        setup: setup.ok_or("--setup is required")?,
        players: [a.ok_or("--a is required")?, b.ok_or("--b is required")?],
        movetimes,
        seed,
        threads,
        max_plies: max_plies.max(1),
        record,
        time_hints,
        search_threads,
    })
}

/// A running protocol program: its input, and its output lines arriving on a channel.
struct Process {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    fn spawn(command: &str) -> Result<Process, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start '{command}': {e}"))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = child.stdout.take().ok_or("no stdout")?;
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process { child, input, lines })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}").and_then(|()| self.input.flush()).map_err(|e| format!("program closed: {e}"))
    }

    /// The next line starting with `prefix`; an `error` line or silence until `timeout` fails.
    fn expect(&mut self, prefix: &str, timeout: Duration) -> Result<String, String> {
        self.expect_after(prefix, timeout, &mut |_| {})
    }

    /// As [`Process::expect`], passing every other line (such as `info`) to `other`.
    fn expect_after(&mut self, prefix: &str, timeout: Duration, other: &mut dyn FnMut(&str)) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Ok(line),
                Ok(line) if line.starts_with("error") => return Err(format!("program said '{line}'")),
                Ok(line) => other(&line),
                Err(RecvTimeoutError::Timeout) => return Err(format!("no '{prefix}' within {timeout:?}")),
                Err(RecvTimeoutError::Disconnected) => return Err("program exited".to_string()),
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a search reported for one move: the depth of its deepest completed iteration
/// and the nodes searched by then (the last `info` line of a program).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Thinking {
    depth: u32,
    nodes: u64,
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
struct Player {
    spec: PlayerSpec,
    process: Option<Process>,
    /// Search threads of a level (`None`: its default).
    threads: Option<usize>,
    /// A level's transposition table, kept from move to move as the engine keeps it.
    memory: ai::SearchMemory,
}

impl Player {
    fn new(spec: PlayerSpec, threads: Option<usize>) -> Player {
        Player { spec, process: None, threads, memory: ai::SearchMemory::new() }
    }

    fn is_level(&self) -> bool {
        matches!(self.spec, PlayerSpec::Level(_))
    }

    /// The move text the player answers for the game's seat to move, and what its search
    /// reported last (nothing for a move found without search: Greedy, forced moves).
    fn choose(
        &mut self,
        game: &Game,
        moves: &[String],
        movetime: Option<Duration>,
        seed: u64,
    ) -> (Result<String, String>, Option<Thinking>) {
        let mut thinking = None;
        let result = match &self.spec {
            PlayerSpec::Level(level) => {
                let request = SearchRequest { level: *level, movetime, depth: None, seed, threads: self.threads };
                let mut report = |i: &ai::Iteration| thinking = Some(Thinking { depth: i.depth, nodes: i.nodes });
                ai::choose_action_remembering(game, &request, &AtomicBool::new(false), &self.memory, &mut report)
                    .map(|action| action.to_string())
                    .ok_or_else(|| "no move for an ongoing game".to_string())
            }
            PlayerSpec::Command(command) => {
                let result = self.ask_program(&command.clone(), game, moves, movetime, seed, &mut thinking);
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
        moves: &[String],
        movetime: Option<Duration>,
        seed: u64,
        thinking: &mut Option<Thinking>,
    ) -> Result<String, String> {
        if self.process.is_none() {
            let mut process = Process::spawn(command)?;
            process.send("isready")?;
            process.expect("readyok", DEFAULT_TIMEOUT)?;
            self.process = Some(process);
        }
        let process = self.process.as_mut().ok_or("no program")?;
        let mut position = format!("position start {} first {}", game.setup(), game.first_seat());
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        process.send(&position)?;
        let (go, timeout) = match movetime {
            Some(t) => (format!("go movetime {} seed {seed}", t.as_millis()), t + GRACE),
            None => (format!("go seed {seed}"), DEFAULT_TIMEOUT),
        };
        process.send(&go)?;
        let line = process.expect_after("bestmove", timeout, &mut |line| {
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

/// How a game ended, for the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    Camp,
    Repetition,
    Agreement,
    Adjudicated,
    Forfeit,
}

struct GameRecord {
    index: usize,
    /// Points of player A: 1 win, 0.5 draw, 0 loss.
    score_a: f64,
    ending: Ending,
    plies: usize,
    /// The seat(s) that won, when a seat or team won.
    winning_seats: Vec<Seat>,
    owners: [Option<usize>; 4],
    times: [Vec<Duration>; 2],
    /// Each player's search report per move that had one.
    thinking: [Vec<Thinking>; 2],
    /// Time of a hint in each position (with `--time-hints`).
    hint_times: Vec<Duration>,
    note: String,
    /// The game as it stopped, for `--record`.
    game: Game,
}

/// Which player (0 = A, 1 = B) owns each seat in game `index`, and the first seat.
fn seat_plan(setup: Setup, index: usize) -> ([Option<usize>; 4], Seat) {
    let mut owners = [None; 4];
    match setup {
        Setup::TwoPlayers => {
            // The first seat is always A; the players swap seats every game.
            let a_seat = if index.is_multiple_of(2) { Seat::A } else { Seat::C };
            owners[a_seat.index()] = Some(0);
            owners[a_seat.opposite().index()] = Some(1);
            (owners, Seat::A)
        }
        Setup::FourPlayersOneArmy | Setup::FourPlayersBothArmies => {
            // Player A takes team A+C or B+D on alternate games; the first seat moves to
            // the other team every two games.
            let team_a = if index.is_multiple_of(2) { [Seat::A, Seat::C] } else { [Seat::B, Seat::D] };
            for seat in Seat::ALL {
                owners[seat.index()] = Some(usize::from(!team_a.contains(&seat)));
            }
            let first = if (index / 2).is_multiple_of(2) { Seat::A } else { Seat::B };
            (owners, first)
        }
        Setup::ThreePlayers => {
            // Player A's seats cycle through every non-empty proper subset of {A, B, C};
            // the first seat rotates once per cycle.
            const SETS: [&[Seat]; 6] =
                [&[Seat::A], &[Seat::B, Seat::C], &[Seat::B], &[Seat::A, Seat::C], &[Seat::C], &[Seat::A, Seat::B]];
            let set = SETS[index % 6];
            for &seat in setup.seats() {
                owners[seat.index()] = Some(usize::from(!set.contains(&seat)));
            }
            let first = setup.seats()[(index / 6) % 3];
            (owners, first)
        }
    }
}

/// Remaining distance as a share of the start's, for each player (lower is better).
fn remaining_share(position: &Position, owners: &[Option<usize>; 4]) -> [f64; 2] {
    let start = Position::start(position.setup(), Seat::A);
    let mut left = [0.0; 2];
    let mut total = [0.0; 2];
    for &seat in position.setup().seats() {
        if let Some(owner) = owners[seat.index()] {
            left[owner] += f64::from(ai::eval::remaining_steps(position, seat));
            total[owner] += f64::from(ai::eval::remaining_steps(&start, seat));
        }
    }
    [left[0] / total[0].max(1.0), left[1] / total[1].max(1.0)]
}

/// The seat to move offers a draw; every other seat answers in turn order (levels by
/// their own judgement, programs cannot answer and so refuse). True when all accepted.
fn offer_draw(game: &mut Game, owners: &[Option<usize>; 4], players: &[Player; 2]) -> bool {
    if game.offer_draw().is_err() {
        return false;
    }
    while let Some(offer) = game.pending_offer() {
        let seat = offer.awaiting;
        let player = &players[owners[seat.index()].unwrap_or(0)];
        let accept = player.is_level() && ai::should_accept_draw(game, seat);
        match game.answer_draw(seat, accept) {
            Ok(VoteResult::Agreed) => return true,
            Ok(VoteResult::Refused) | Err(_) => return false,
            Ok(VoteResult::Next(_)) => {}
        }
    }
    false
}

fn play_game(index: usize, options: &Options, players: &mut [Player; 2]) -> GameRecord {
    let (owners, first) = seat_plan(options.setup, index);
    let mut game = Game::new(options.setup, first);
    let mut moves: Vec<String> = Vec::new();
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut thinking: [Vec<Thinking>; 2] = [Vec::new(), Vec::new()];
    let mut hint_times = Vec::new();
    let seed = options.seed.wrapping_mul(1_000_003).wrapping_add(index as u64);
    let record = |score_a: f64, ending: Ending, game: &Game, times, thinking, hint_times, note: String| GameRecord {
        index,
        score_a,
        ending,
        plies: game.history().len(),
        winning_seats: match game.outcome() {
            Outcome::Win(seats) => seats.seats().collect(),
            _ => Vec::new(),
        },
        owners,
        times,
        thinking,
        hint_times,
        note,
        game: game.clone(),
    };
    loop {
        match game.outcome() {
            Outcome::Win(seats) => {
                let winner = seats.seats().next().and_then(|s| owners[s.index()]).unwrap_or(0);
                let score = if winner == 0 { 1.0 } else { 0.0 };
                return record(score, Ending::Camp, &game, times, thinking, hint_times, String::new());
            }
            Outcome::Draw(reason) => {
                let ending = match reason {
                    halma::rules::DrawReason::Repetition => Ending::Repetition,
                    halma::rules::DrawReason::Agreement => Ending::Agreement,
                };
                return record(0.5, ending, &game, times, thinking, hint_times, String::new());
            }
            Outcome::Ongoing => {}
        }
        if game.history().len() >= options.max_plies {
            let share = remaining_share(game.position(), &owners);
            let score = if (share[0] - share[1]).abs() < 1e-9 {
                0.5
            } else if share[0] < share[1] {
                1.0
            } else {
                0.0
            };
            let note = format!("remaining share A {:.3} B {:.3}", share[0], share[1]);
            return record(score, Ending::Adjudicated, &game, times, thinking, hint_times, note);
        }
        let seat = game.to_move();
        let owner = owners[seat.index()].unwrap_or(0);
        if players[owner].is_level() && ai::wants_draw(&game) && offer_draw(&mut game, &owners, players) {
            continue;
        }
        if options.time_hints {
            let started = Instant::now();
            let _ = ai::hint(&game, &AtomicBool::new(false));
            hint_times.push(started.elapsed());
        }
        let started = Instant::now();
        let (answer, report) =
            players[owner].choose(&game, &moves, options.movetimes[owner], seed ^ (game.history().len() as u64) << 20);
        times[owner].push(started.elapsed());
        thinking[owner].extend(report);
        let checked =
            answer.and_then(|text| game.play_text(&text).map(|()| text.clone()).map_err(|e| format!("'{text}': {e}")));
        match checked {
            Ok(_) => {
                let played = game.history().last().map(ToString::to_string).unwrap_or_default();
                moves.push(played);
            }
            Err(why) => {
                let score = if owner == 0 { 0.0 } else { 1.0 };
                let note =
                    format!("player {} (seat {seat}) forfeits at ply {}: {why}", ["A", "B"][owner], moves.len() + 1);
                return record(score, Ending::Forfeit, &game, times, thinking, hint_times, note);
            }
        }
    }
}

/// Elo difference for a score share, clamped away from 0 and 1.
fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

fn median(values: &mut [Duration]) -> Duration {
    if values.is_empty() {
        return Duration::ZERO;
    }
    values.sort();
    values[values.len() / 2]
}

/// The middle value (the upper one of an even count); 0 for none.
fn median_of<T: Ord + Copy + Default>(values: &mut [T]) -> T {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or_default()
}

/// The report's line on how deep a player searched: medians over its moves with a report.
fn thinking_line(name: &str, reports: &[Thinking]) -> String {
    if reports.is_empty() {
        return format!("search per move, player {name}: no depth or nodes reported");
    }
    let mut depths: Vec<u32> = reports.iter().map(|t| t.depth).collect();
    let mut nodes: Vec<u64> = reports.iter().map(|t| t.nodes).collect();
    let count = reports.len();
    format!(
        "search per move, player {name}: median depth {}, median nodes {} over {count} moves with a report",
        median_of(&mut depths),
        median_of(&mut nodes)
    )
}

fn millis(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// The system's one-minute load average (Linux), to say how busy the machine was.
fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg").ok()?.split_whitespace().next()?.parse().ok()
}

fn report(options: &Options, records: &[GameRecord], elapsed: Duration, loads: [Option<f64>; 2]) {
    let n = records.len() as f64;
    let wins = records.iter().filter(|r| r.score_a == 1.0).count();
    let draws = records.iter().filter(|r| r.score_a == 0.5).count();
    let losses = records.iter().filter(|r| r.score_a == 0.0).count();
    let score = records.iter().map(|r| r.score_a).sum::<f64>() / n;
    let variance = records.iter().map(|r| (r.score_a - score).powi(2)).sum::<f64>() / n;
    let margin = 1.96 * (variance / n).sqrt();
    let (low, high) = (elo(score - margin), elo(score + margin));
    let [a, b] = &options.players;
    println!("{} games of {}: A = {}, B = {}", records.len(), options.setup, a.describe(), b.describe());
    let budget = |player: usize, spec: &PlayerSpec| match (options.movetimes[player], spec) {
        (Some(t), _) => format!("{} per move", millis(t)),
        (None, PlayerSpec::Level(level)) => format!("level budget {}", millis(level.movetime())),
        (None, PlayerSpec::Command(_)) => "the program's own budget".to_string(),
    };
    let search_threads = options.search_threads.map_or("default".to_string(), |n| n.to_string());
    println!(
        "move time: A {}, B {}; seed {}; {} game(s) at once; level search threads {search_threads}; ply cap {}; wall time {:.0} s",
        budget(0, a),
        budget(1, b),
        options.seed,
        options.threads,
        options.max_plies,
        elapsed.as_secs_f64()
    );
    if let [Some(start), Some(end)] = loads {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        println!("load average {start:.1} at the start, {end:.1} at the end ({cores} cores): times are wall-clock");
    }
    println!("A wins {wins}, draws {draws}, losses {losses}: score {:.1}% for A", score * 100.0);
    let count = |ending| records.iter().filter(|r| r.ending == ending).count();
    println!(
        "endings: {} camp filled, {} repetition, {} agreement, {} adjudicated at {} plies by remaining distance, {} forfeits",
        count(Ending::Camp),
        count(Ending::Repetition),
        count(Ending::Agreement),
        count(Ending::Adjudicated),
        options.max_plies,
        count(Ending::Forfeit)
    );
    let elo_text = if score >= 1.0 || score <= 0.0 {
        format!("{:+.0} or more in size (every game went one way: no finite estimate)", elo(score))
    } else {
        format!("{:+.0} (95% interval {:+.0} .. {:+.0}, ± {:.0})", elo(score), low, high, (high - low) / 2.0)
    };
    println!("Elo difference A - B: {elo_text}");
    let mean_plies = records.iter().map(|r| r.plies as f64).sum::<f64>() / n;
    println!("mean game length: {mean_plies:.1} plies");
    for (player, name) in ["A", "B"].iter().enumerate() {
        let mut all: Vec<Duration> = records.iter().flat_map(|r| r.times[player].iter().copied()).collect();
        let mean = all.iter().sum::<Duration>().checked_div(all.len().max(1) as u32).unwrap_or_default();
        let med = median(&mut all);
        let max = all.last().copied().unwrap_or_default();
        println!(
            "time per move, player {name}: mean {}, median {}, max {} over {} moves",
            millis(mean),
            millis(med),
            millis(max),
            all.len()
        );
    }
    for (player, name) in ["A", "B"].iter().enumerate() {
        let reports: Vec<Thinking> = records.iter().flat_map(|r| r.thinking[player].iter().copied()).collect();
        println!("{}", thinking_line(name, &reports));
    }
    let mut hints: Vec<Duration> = records.iter().flat_map(|r| r.hint_times.iter().copied()).collect();
    if !hints.is_empty() {
        let mean = hints.iter().sum::<Duration>().checked_div(hints.len() as u32).unwrap_or_default();
        let med = median(&mut hints);
        let max = hints.last().copied().unwrap_or_default();
        println!(
            "time per hint: mean {}, median {}, max {} over {} positions",
            millis(mean),
            millis(med),
            millis(max),
            hints.len()
        );
    }
    if options.setup.seats().len() > 2 {
        // Which seats each player won with.
        for (player, name) in ["A", "B"].iter().enumerate() {
            let mut line = format!("player {name} won with seat:");
            for &seat in options.setup.seats() {
                let won = records
                    .iter()
                    .filter(|r| r.owners[seat.index()] == Some(player) && r.winning_seats.contains(&seat))
                    .count();
                let played = records.iter().filter(|r| r.owners[seat.index()] == Some(player)).count();
                line.push_str(&format!(" {seat} {won}/{played}"));
            }
            println!("{line}");
        }
    }
    for record in records.iter().filter(|r| !r.note.is_empty()) {
        println!("  game {}: {}", record.index + 1, record.note);
    }
}

/// Every game as a game record (README, "Game records"), separated by blank lines:
/// levels as `Computer <level>`, programs as `Program <command>`, and why a game stopped
/// when the rules did not end it (adjudication, forfeit) as its `Termination`.
fn records_text(options: &Options, records: &[GameRecord]) -> String {
    let seconds = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let date = halma::record::date_of_unix_time(seconds);
    let texts: Vec<String> = records
        .iter()
        .map(|r| {
            let mut record = Record::new(r.game.clone());
            for &seat in options.setup.seats() {
                record.players[seat.index()] = r.owners[seat.index()].map(|owner| match &options.players[owner] {
                    PlayerSpec::Level(level) => SeatPlayer::Computer(*level),
                    PlayerSpec::Command(command) => SeatPlayer::Program(command.trim().to_string()),
                });
            }
            record.date = Some(date.clone());
            // The arena's players A and B (not seats): who the score went to.
            let [a, b] = &options.players;
            let player = if r.score_a > 0.75 {
                format!("arena player A ({}) wins", a.describe())
            } else if r.score_a < 0.25 {
                format!("arena player B ({}) wins", b.describe())
            } else {
                "drawn".to_string()
            };
            record.termination = match r.ending {
                Ending::Adjudicated => {
                    Some(format!("adjudicated at {} plies, {player}; {}", options.max_plies, r.note))
                }
                Ending::Forfeit => Some(format!("{player}: {}", r.note.replacen("player", "arena player", 1))),
                Ending::Camp | Ending::Repetition | Ending::Agreement => None,
            };
            record.to_text()
        })
        .collect();
    texts.join("\n")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
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
    if let Some(path) = &options.record {
        if let Err(why) = std::fs::write(path, records_text(&options, &records)) {
            eprintln!("halma-arena: cannot write {path}: {why}");
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

    #[test]
    fn the_report_gives_median_depth_and_nodes() {
        let reports = [(5, 900), (7, 100), (6, 300)].map(|(depth, nodes)| Thinking { depth, nodes });
        assert_eq!(
            thinking_line("A", &reports),
            "search per move, player A: median depth 6, median nodes 300 over 3 moves with a report"
        );
        assert_eq!(thinking_line("B", &[]), "search per move, player B: no depth or nodes reported");
    }

    #[test]
    fn each_player_may_have_its_own_move_time() {
        let args = |text: &str| text.split(' ').map(str::to_string).collect::<Vec<_>>();
        let ms = |n| Some(Duration::from_millis(n));
        let base = "--games 2 --setup 2p --a level:Master --b level:Master";
        let parsed = |extra: &str| parse_options(&args(&format!("{base} {extra}"))).map(|o| o.movetimes);
        assert_eq!(parsed("--movetime 100"), Ok([ms(100), ms(100)]));
        assert_eq!(parsed("--movetime-a 1000 --movetime-b 300"), Ok([ms(1000), ms(300)]));
        // The shared time first, then one player's own.
        assert_eq!(parsed("--movetime 300 --movetime-a 1000"), Ok([ms(1000), ms(300)]));
        assert_eq!(parse_options(&args(base)).map(|o| o.movetimes), Ok([None, None]));
        assert!(parsed("--movetime-b soon").is_err());
    }
}
