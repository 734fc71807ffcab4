//! The `--record` file: every game of the match as a game record (docs/RECORDS.md).

use crate::match_loop::{Ending, GameRecord};
use crate::options::{Options, PlayerSpec};
use halma::record::{Record, SeatPlayer};

/// when the rules did not end it (adjudication, forfeit) as its `Termination`.
pub fn records_text(options: &Options, records: &[GameRecord]) -> String {
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
