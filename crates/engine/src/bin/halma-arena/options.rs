//! The arena's command line: the options of a match and the two players (`level:` or `cmd:`).

use halma_ai::analysis::Quality;
use halma_ai::Level;
use halma_rules::{Setup, MAX_ACTIONS};
use std::time::Duration;

pub const USAGE: &str = "usage: halma-arena --games N --setup 2p|3p|4p-one|4p-both --a PLAYER --b PLAYER \
[--movetime MS] [--movetime-a MS] [--movetime-b MS] [--seed S] [--threads 1|2] [--max-plies N] [--record FILE [--analyse] [--analyse-depth N]] [--time-hints] [--search-threads N]
  PLAYER: level:<Greedy|Beginner|Casual|Strong|Master> or cmd:<command line of a halma-engine-protocol program>";

/// A player of the match.
#[derive(Clone, Debug)]
pub enum PlayerSpec {
    Level(Level),
    Command(String),
}

impl PlayerSpec {
    pub fn parse(text: &str) -> Result<PlayerSpec, String> {
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

    pub fn describe(&self) -> String {
        match self {
            PlayerSpec::Level(level) => format!("level:{}", level.name()),
            PlayerSpec::Command(command) => format!("cmd:{command}"),
        }
    }
}

/// A match as the command line asks for it.
pub struct Options {
    pub games: usize,
    pub setup: Setup,
    pub players: [PlayerSpec; 2],
    /// Each player's time a move (`None`: its own budget).
    pub movetimes: [Option<Duration>; 2],
    pub seed: u64,
    pub threads: usize,
    pub max_plies: usize,
    /// Where to write every game as a game record (`halma_record`), for replaying.
    pub record: Option<String>,
    /// The depth at which each recorded game is analysed, its analysis written in the
    /// record as comments (`--analyse`); `None`: not analysed.
    pub analyse: Option<u32>,
    /// Also time a hint in every position.
    pub time_hints: bool,
    /// Search threads of the in-process levels (`None`: their default).
    pub search_threads: Option<usize>,
}

pub fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut games = None;
    let mut setup = None;
    let (mut a, mut b) = (None, None);
    let mut movetimes = [None, None];
    let mut seed = 1;
    let mut threads = 1;
    let mut max_plies = 1000;
    let mut record = None;
    let mut analyse = false;
    let mut analyse_depth = Quality::QUICK.depth;
    let mut time_hints = false;
    let mut search_threads = None;
    let mut rest = args;
    while let [key, tail @ ..] = rest {
        if key == "--time-hints" || key == "--analyse" {
            if key == "--analyse" {
                analyse = true;
            } else {
                time_hints = true;
            }
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
            "--max-plies" => match number("ply cap")? {
                cap @ 1.. if cap <= MAX_ACTIONS as u64 => max_plies = cap as usize,
                _ => {
                    return Err(format!(
                        "bad ply cap '{value}': a game holds at most {MAX_ACTIONS} actions, so --max-plies is 1..={MAX_ACTIONS}"
                    ))
                }
            },
            "--record" => record = Some(value.clone()),
            "--analyse-depth" => match number("analysis depth")? {
                depth @ 1..=8 => analyse_depth = depth as u32,
                _ => return Err(format!("bad analysis depth '{value}' (1..=8)")),
            },
            "--search-threads" => search_threads = Some((number("search thread count")? as usize).clamp(1, 8)),
            other => return Err(format!("unknown option '{other}'")),
        }
        rest = tail;
    }
    let games = games.ok_or("--games is required")?;
    if games == 0 {
        return Err("--games must be at least 1".to_string());
    }
    if analyse && record.is_none() {
        return Err("--analyse writes the analysis into the records: it needs --record".to_string());
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
        max_plies,
        record,
        analyse: analyse.then_some(analyse_depth),
        time_hints,
        search_threads,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_ply_cap_stays_within_the_games_action_cap() {
        let args = |extra: &str| {
            format!("--games 1 --setup 2p --a level:Greedy --b level:Greedy {extra}")
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        let cap = |extra: &str| parse_options(&args(extra)).map(|o| o.max_plies);
        assert_eq!(cap(""), Ok(1000));
        assert_eq!(cap(&format!("--max-plies {MAX_ACTIONS}")), Ok(MAX_ACTIONS));
        let above = cap(&format!("--max-plies {}", MAX_ACTIONS + 1)).unwrap_err();
        assert!(above.contains("at most 20000 actions"), "{above}");
        assert!(cap("--max-plies 0").is_err());
    }
}
