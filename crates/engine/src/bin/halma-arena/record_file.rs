//! The `--record` file: every game of the match as a game record (docs/RECORDS.md),
//! written as soon as the game ends, so an interrupted match keeps its finished games.
//! With `--analyse`, each game's analysis is written in its record as comments.

use crate::match_loop::{Ending, GameRecord};
use crate::options::{Options, PlayerSpec};
use halma_ai::analysis::{self, AnalysisRequest, Quality};
use halma_record::{Record, SeatPlayer, MAX_RECORD_BYTES};
use std::fs::File;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

/// The open record file, shared by the threads that play games.
pub struct RecordFile {
    path: String,
    /// The file and whether a game is in it yet (games are separated by blank lines).
    file: Mutex<(File, bool)>,
}

impl RecordFile {
    /// Creates (or empties) the file before the first game, so a path that cannot be
    /// written is told at once, not after the whole match.
    pub fn create(path: &str) -> Result<RecordFile, String> {
        let file = File::create(path).map_err(|e| format!("cannot write {path}: {e}"))?;
        Ok(RecordFile { path: path.to_string(), file: Mutex::new((file, false)) })
    }

    /// Appends one finished game and hands it to the system at once: a match killed
    /// later still has this game in the file.
    pub fn append(&self, options: &Options, game: &GameRecord) -> Result<(), String> {
        let text = record_text(options, game);
        let mut guard = self.file.lock().map_err(|_| format!("cannot write {}: a writer failed", self.path))?;
        let (file, started) = &mut *guard;
        let separator = if *started { "\n" } else { "" };
        file.write_all(format!("{separator}{text}").as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write {}: {e}", self.path))?;
        *started = true;
        Ok(())
    }
}

/// One game as a game record: levels as `Computer <level>`, programs as `Program <command>`,
/// the date it ended, and why it stopped when the rules did not end it (adjudication,
/// forfeit) as its `Termination`.
fn record_text(options: &Options, game: &GameRecord) -> String {
    let mut record = Record::new(game.game.clone());
    for &seat in options.setup.seats() {
        record.players[seat] = game.owners[seat.index()].map(|owner| match &options.players[owner] {
            PlayerSpec::Level(level) => SeatPlayer::Computer(*level),
            PlayerSpec::Command(command) => SeatPlayer::Program(command.trim().to_string()),
        });
    }
    let seconds = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    record.date = Some(halma_record::date_of_unix_time(seconds));
    // The arena's players A and B (not seats): who the score went to.
    let [a, b] = &options.players;
    let player = if game.score_a > 0.75 {
        format!("arena player A ({}) wins", a.describe())
    } else if game.score_a < 0.25 {
        format!("arena player B ({}) wins", b.describe())
    } else {
        "drawn".to_string()
    };
    record.termination = match game.ending {
        Ending::Adjudicated => Some(format!("adjudicated at {} plies, {player}; {}", options.max_plies, game.note)),
        Ending::Forfeit => Some(format!("{player}: {}", game.note.replacen("player", "arena player", 1))),
        Ending::Camp | Ending::Repetition | Ending::Agreement => None,
    };
    let plain = record.to_text();
    let Some(depth) = options.analyse else { return plain };
    // One thread: games may be played two at a time, and the result is the same anyway.
    let request = AnalysisRequest::new(Quality { depth }).with_threads(1);
    match analysis::analyse(&game.game, &request, &AtomicBool::new(false), &mut |_, _| {}) {
        Ok(analysis) => {
            record.set_analysis(&analysis);
            let analysed = record.to_text();
            if analysed.len() <= MAX_RECORD_BYTES {
                return analysed;
            }
            eprintln!("halma-arena: game {}: its analysis would pass the record size limit: left out", game.index + 1);
        }
        Err(why) => eprintln!("halma-arena: game {}: {why}: recorded without its analysis", game.index + 1),
    }
    plain
}
