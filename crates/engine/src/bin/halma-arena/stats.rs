//! The match's statistics: the score and its Elo estimate, the endings, and the medians
//! of move times, hint times and search depths, printed as the report.

use crate::engine::Thinking;
use crate::match_loop::{Ending, GameRecord};
use crate::options::{Options, PlayerSpec};
use std::time::Duration;

/// Elo difference for a score share, clamped away from 0 and 1.
fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The middle value (the upper one of an even count); 0 for none.
fn median<T: Ord + Copy + Default>(values: &mut [T]) -> T {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or_default()
}

/// Mean, median and max of some times and how many there are, as the report words them
/// (zeros for none): the one summary of move times and of hint times.
fn times_summary(mut times: Vec<Duration>) -> String {
    let mean = times.iter().sum::<Duration>().checked_div(times.len().max(1) as u32).unwrap_or_default();
    let middle = median(&mut times);
    let max = times.last().copied().unwrap_or_default();
    format!("mean {}, median {}, max {} over {}", millis(mean), millis(middle), millis(max), times.len())
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
        median(&mut depths),
        median(&mut nodes)
    )
}

fn millis(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// The system's one-minute load average (Linux), to say how busy the machine was.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg").ok()?.split_whitespace().next()?.parse().ok()
}

/// Prints the report of a finished match: what was played, the score and Elo, the times,
/// the searches, the seats won with, and the note of every game that has one.
pub fn report(options: &Options, records: &[GameRecord], elapsed: Duration, loads: [Option<f64>; 2]) {
    println!("{}", setup_lines(options, records.len(), elapsed).join("\n"));
    if let [Some(start), Some(end)] = loads {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        println!("load average {start:.1} at the start, {end:.1} at the end ({cores} cores): times are wall-clock");
    }
    println!("{}", score_lines(options, records).join("\n"));
    for (player, name) in ["A", "B"].iter().enumerate() {
        let times = records.iter().flat_map(|r| r.times[player].iter().copied()).collect();
        println!("time per move, player {name}: {} moves", times_summary(times));
    }
    for (player, name) in ["A", "B"].iter().enumerate() {
        let reports: Vec<Thinking> = records.iter().flat_map(|r| r.thinking[player].iter().copied()).collect();
        println!("{}", thinking_line(name, &reports));
    }
    let hints: Vec<Duration> = records.iter().flat_map(|r| r.hint_times.iter().copied()).collect();
    if !hints.is_empty() {
        println!("time per hint: {} positions", times_summary(hints));
    }
    if options.setup.seats().len() > 2 {
        // Which seats each player won with.
        for (player, name) in ["A", "B"].iter().enumerate() {
            let mut line = format!("player {name} won with seat:");
            for &seat in options.setup.seats() {
                let played = || records.iter().filter(|r| r.owners[seat.index()] == Some(player));
                let won = played().filter(|r| r.winning_seats.contains(&seat)).count();
                line.push_str(&format!(" {seat} {won}/{}", played().count()));
            }
            println!("{line}");
        }
    }
    for record in records.iter().filter(|r| !r.note.is_empty()) {
        println!("  game {}: {}", record.index + 1, record.note);
    }
}

/// The report's first lines: the players, their move times and the match's settings.
fn setup_lines(options: &Options, games: usize, elapsed: Duration) -> [String; 2] {
    let [a, b] = &options.players;
    let budget = |player: usize, spec: &PlayerSpec| match (options.movetimes[player], spec) {
        (Some(t), _) => format!("{} per move", millis(t)),
        (None, PlayerSpec::Level(level)) => format!("level budget {}", millis(level.movetime())),
        (None, PlayerSpec::Command(_)) => "the program's own budget".to_string(),
    };
    let search_threads = options.search_threads.map_or("default".to_string(), |n| n.to_string());
    [
        format!("{games} games of {}: A = {}, B = {}", options.setup, a.describe(), b.describe()),
        format!(
            "move time: A {}, B {}; seed {}; {} game(s) at once; level search threads {search_threads}; ply cap {}; wall time {:.0} s",
            budget(0, a),
            budget(1, b),
            options.seed,
            options.threads,
            options.max_plies,
            elapsed.as_secs_f64()
        ),
    ]
}

/// The score, the endings, the Elo difference with its 95% interval, and the mean length.
fn score_lines(options: &Options, records: &[GameRecord]) -> [String; 4] {
    let n = records.len() as f64;
    let wins = records.iter().filter(|r| r.score_a == 1.0).count();
    let draws = records.iter().filter(|r| r.score_a == 0.5).count();
    let losses = records.iter().filter(|r| r.score_a == 0.0).count();
    let score = records.iter().map(|r| r.score_a).sum::<f64>() / n;
    let variance = records.iter().map(|r| (r.score_a - score).powi(2)).sum::<f64>() / n;
    let margin = 1.96 * (variance / n).sqrt();
    let (low, high) = (elo(score - margin), elo(score + margin));
    let count = |ending| records.iter().filter(|r| r.ending == ending).count();
    let elo_text = if score >= 1.0 || score <= 0.0 {
        format!("{:+.0} or more in size (every game went one way: no finite estimate)", elo(score))
    } else {
        format!("{:+.0} (95% interval {:+.0} .. {:+.0}, ± {:.0})", elo(score), low, high, (high - low) / 2.0)
    };
    let mean_plies = records.iter().map(|r| r.plies as f64).sum::<f64>() / n;
    [
        format!("A wins {wins}, draws {draws}, losses {losses}: score {:.1}% for A", score * 100.0),
        format!(
            "endings: {} camp filled, {} repetition, {} agreement, {} adjudicated at {} plies by remaining distance, {} forfeits",
            count(Ending::Camp),
            count(Ending::Repetition),
            count(Ending::Agreement),
            count(Ending::Adjudicated),
            options.max_plies,
            count(Ending::Forfeit)
        ),
        format!("Elo difference A - B: {elo_text}"),
        format!("mean game length: {mean_plies:.1} plies"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn move_and_hint_times_are_summed_up_by_one_function() {
        let ms = Duration::from_millis;
        assert_eq!(
            times_summary(vec![ms(30), ms(10), ms(20), ms(40)]),
            "mean 25.0 ms, median 30.0 ms, max 40.0 ms over 4"
        );
        assert_eq!(times_summary(Vec::new()), "mean 0.0 ms, median 0.0 ms, max 0.0 ms over 0");
    }
}
