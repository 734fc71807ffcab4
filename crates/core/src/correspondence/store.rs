//! The file store: every game by message in its own JSON file in the data folder, saved
//! atomically, with damaged files set aside and reported (FileProblem) rather than lost.

use super::{
    all_seats, decide, in_play, parse_message, seats_text, CorrespondenceGame, Decision, GameId, ParseError, Summary,
};
use halma_record::{Record, MAX_RECORD_BYTES};
use halma_rules::{excerpt, Seat, SeatSet};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The folder of the games by message inside the data folder.
pub const FOLDER: &str = "correspondence";
/// The format name in each game's file.
pub const FILE_FORMAT: &str = "halma-correspondence";
/// The file version written now.
pub const FILE_VERSION: u32 = 1;
/// A game's file is at most this big (its record and a little JSON).
pub const MAX_GAME_FILE_BYTES: u64 = (MAX_RECORD_BYTES as u64) * 2 + 4096;
const TEMP_PREFIX: &str = ".game.tmp-";

#[derive(Serialize, Deserialize)]
struct GameFile {
    format: String,
    version: u32,
    id: String,
    local: String,
    updated: u64,
    record: String,
}

/// Why a game's file was not loaded (it is then set aside as `<id>.damaged-<time>.json`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileProblem {
    Missing,
    Unreadable(String),
    TooLarge {
        bytes: u64,
    },
    /// Not this format, another version, or content that does not check out.
    Invalid(String),
}

impl fmt::Display for FileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileProblem::Missing => f.write_str("no such game"),
            FileProblem::Unreadable(why) => write!(f, "the file could not be read ({why})"),
            FileProblem::TooLarge { bytes } => write!(f, "the file is too large ({bytes} bytes)"),
            FileProblem::Invalid(why) => write!(f, "the file is damaged: {why}"),
        }
    }
}

/// A game file that could not be used: where it was, what is wrong, and where it went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DamagedFile {
    pub file: PathBuf,
    pub problem: FileProblem,
    pub kept_as: Option<PathBuf>,
}

/// The games by message in `<data folder>/correspondence/`, one file each, `<id>.json`.
/// Writes are atomic (a temporary file, flushed, renamed); links are never followed; a
/// damaged file is set aside and reported, never a crash.
#[derive(Clone, Debug)]
pub struct CorrespondenceStore {
    dir: PathBuf,
}

impl CorrespondenceStore {
    /// The store inside the data folder `data_dir`.
    pub fn in_data_dir(data_dir: &Path) -> CorrespondenceStore {
        CorrespondenceStore { dir: data_dir.join(FOLDER) }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, id: GameId) -> PathBuf {
        self.dir.join(format!("{id}.json"))
    }

    /// Saves `game` as `<id>.json`, atomically.
    pub fn save(&self, game: &CorrespondenceGame) -> io::Result<()> {
        let file = GameFile {
            format: FILE_FORMAT.to_string(),
            version: FILE_VERSION,
            id: game.id.to_string(),
            local: seats_text(game.local),
            updated: game.updated,
            record: game.record.to_text(),
        };
        let mut text = serde_json::to_string_pretty(&file).map_err(io::Error::other)?;
        text.push('\n');
        fs::create_dir_all(&self.dir)?;
        let mut temp = tempfile::Builder::new().prefix(TEMP_PREFIX).tempfile_in(&self.dir)?;
        temp.write_all(text.as_bytes())?;
        temp.as_file().sync_all()?;
        // A rename replaces a planted link itself, never writes through it.
        temp.persist(self.path(game.id)).map_err(|error| error.error)?;
        if let Ok(dir) = fs::File::open(&self.dir) {
            let _ = dir.sync_all();
        }
        Ok(())
    }

    /// Loads one game. A file that cannot be used is set aside (see [`DamagedFile`]).
    pub fn load(&self, id: GameId) -> Result<CorrespondenceGame, DamagedFile> {
        let path = self.path(id);
        match read_game(&path, Some(id)) {
            Ok(game) => Ok(game),
            Err(FileProblem::Missing) => Err(DamagedFile { file: path, problem: FileProblem::Missing, kept_as: None }),
            Err(problem) => Err(self.set_aside(path, problem)),
        }
    }

    /// Forgets a game (its file goes).
    pub fn remove(&self, id: GameId) -> io::Result<()> {
        fs::remove_file(self.path(id))
    }

    /// Every game, the most recently changed first, and the files that could not be used
    /// (set aside). Temporary files of interrupted saves are removed.
    pub fn list(&self) -> (Vec<Summary>, Vec<DamagedFile>) {
        let mut games = Vec::new();
        let mut damaged = Vec::new();
        let Ok(entries) = fs::read_dir(&self.dir) else { return (games, damaged) };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else { continue };
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            if name.starts_with(TEMP_PREFIX) {
                if kind.is_file() {
                    let _ = fs::remove_file(entry.path());
                }
                continue;
            }
            let Some(id) = name.strip_suffix(".json").and_then(GameId::parse) else { continue };
            match read_game(&entry.path(), Some(id)) {
                Ok(game) => games.push(game.summary()),
                Err(FileProblem::Missing) => {}
                Err(problem) => damaged.push(self.set_aside(entry.path(), problem)),
            }
        }
        games.sort_by(|a, b| b.updated.cmp(&a.updated).then(a.id.cmp(&b.id)));
        (games, damaged)
    }

    /// Reads, decides and (when applied) saves a received text in one step: what the UI
    /// calls on a paste or a shared text. A new game is not saved: the UI asks, then
    /// calls [`CorrespondenceStore::save`].
    pub fn receive(&self, text: &str) -> Result<Decision, ReceiveError> {
        let message = parse_message(text).map_err(ReceiveError::Parse)?;
        let mut damaged = None;
        let decision = decide(message, |id| match self.load(id) {
            Ok(game) => Some(game),
            Err(file) => {
                if file.problem != FileProblem::Missing {
                    damaged = Some(file);
                }
                None
            }
        });
        if let Some(file) = damaged {
            return Err(ReceiveError::Damaged(file));
        }
        if let Decision::Applied(applied) = &decision {
            self.save(&applied.game).map_err(|error| ReceiveError::Save(error.to_string()))?;
        }
        Ok(decision)
    }

    fn set_aside(&self, path: PathBuf, problem: FileProblem) -> DamagedFile {
        let stem = path.file_stem().and_then(|stem| stem.to_str()).unwrap_or("game").to_string();
        let time = crate::storage::now_unix_time();
        let mut kept_as = None;
        for attempt in 1..=1000u32 {
            let suffix = if attempt == 1 { String::new() } else { format!("-{attempt}") };
            let kept = self.dir.join(format!("{stem}.damaged-{time}{suffix}.json"));
            if fs::symlink_metadata(&kept).is_ok() {
                continue;
            }
            kept_as = fs::rename(&path, &kept).ok().map(|()| kept);
            break;
        }
        DamagedFile { file: path, problem, kept_as }
    }
}

/// Why [`CorrespondenceStore::receive`] did not decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReceiveError {
    Parse(ParseError),
    /// The known game's file is damaged (and now set aside).
    Damaged(DamagedFile),
    /// The applied game could not be saved (the message can be received again).
    Save(String),
}

impl fmt::Display for ReceiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReceiveError::Parse(error) => write!(f, "{error}"),
            ReceiveError::Damaged(file) => write!(f, "the saved game is damaged: {}", file.problem),
            ReceiveError::Save(why) => write!(f, "the game could not be saved: {why}"),
        }
    }
}

fn read_game(path: &Path, expected: Option<GameId>) -> Result<CorrespondenceGame, FileProblem> {
    // A link is never followed: only a regular file is read (and a FIFO never waited on).
    match fs::symlink_metadata(path) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Err(FileProblem::Missing),
        Err(error) => return Err(FileProblem::Unreadable(error.to_string())),
        Ok(meta) if !meta.file_type().is_file() => return Err(FileProblem::Unreadable("not a regular file".into())),
        Ok(_) => {}
    }
    let file = halma_engine::files::open_checked(path).map_err(|error| FileProblem::Unreadable(error.to_string()))?;
    let mut bytes = Vec::new();
    file.take(MAX_GAME_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| FileProblem::Unreadable(e.to_string()))?;
    if bytes.len() as u64 > MAX_GAME_FILE_BYTES {
        return Err(FileProblem::TooLarge { bytes: bytes.len() as u64 });
    }
    let invalid = |why: String| FileProblem::Invalid(halma_rules::message_excerpt(&why));
    let file: GameFile = serde_json::from_slice(&bytes).map_err(|error| invalid(error.to_string()))?;
    if file.format != FILE_FORMAT {
        return Err(invalid(format!("format '{}'", excerpt(&file.format))));
    }
    if file.version != FILE_VERSION {
        return Err(invalid(format!("version {}", file.version)));
    }
    let id = GameId::parse(&file.id).ok_or_else(|| invalid(format!("identifier '{}'", excerpt(&file.id))))?;
    if expected.is_some_and(|expected| expected != id) {
        return Err(invalid(format!("identifier '{id}' in another game's file")));
    }
    let record = Record::parse(&file.record).map_err(|error| invalid(error.to_string()))?;
    let mut local = SeatSet::EMPTY;
    for letter in file.local.chars() {
        let seat = Seat::from_letter(letter).ok_or_else(|| invalid(format!("seats '{}'", excerpt(&file.local))))?;
        local.insert(seat);
    }
    let setup = record.game.setup();
    if local.is_empty() || in_play(local, setup) != local || local == all_seats(setup) {
        return Err(invalid(format!("seats '{}' in {setup}", excerpt(&file.local))));
    }
    Ok(CorrespondenceGame { id, local, record, updated: file.updated })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::correspondence::fixtures::mine;

    #[test]
    fn the_store_keeps_games_and_sets_damaged_files_aside() {
        let folder = tempfile::tempdir().expect("a temporary folder");
        let store = CorrespondenceStore::in_data_dir(folder.path());
        let game = mine(&["c3-d4"]);
        store.save(&game).expect("saved");
        assert_eq!(store.load(game.id), Ok(game.clone()));
        let (games, damaged) = store.list();
        assert_eq!(games, vec![game.summary()]);
        assert!(damaged.is_empty());

        fs::write(store.dir().join("AAAAAAAA.json"), "{ not json").expect("written");
        fs::write(store.dir().join(".game.tmp-x"), "left over").expect("written");
        let (games, damaged) = store.list();
        assert_eq!(games.len(), 1);
        assert_eq!(damaged.len(), 1);
        assert!(matches!(damaged[0].problem, FileProblem::Invalid(_)));
        assert!(damaged[0].kept_as.as_ref().is_some_and(|path| path.exists()));
        assert!(!store.dir().join("AAAAAAAA.json").exists());
        assert!(!store.dir().join(".game.tmp-x").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_link_is_neither_read_nor_written_through() {
        let folder = tempfile::tempdir().expect("a temporary folder");
        let store = CorrespondenceStore::in_data_dir(folder.path());
        let game = mine(&[]);
        store.save(&game).expect("saved");
        let victim = folder.path().join("victim.json");
        fs::rename(store.dir().join("7KQ2M4XA.json"), &victim).expect("moved");
        std::os::unix::fs::symlink(&victim, store.dir().join("7KQ2M4XA.json")).expect("linked");
        assert!(matches!(store.load(game.id), Err(DamagedFile { problem: FileProblem::Unreadable(_), .. })));
        std::os::unix::fs::symlink(&victim, store.dir().join("7KQ2M4XA.json")).expect("linked again");
        let before = fs::read_to_string(&victim).expect("read");
        store.save(&mine(&["c3-d4"])).expect("saved");
        assert_eq!(fs::read_to_string(&victim).expect("read"), before, "the link's target is untouched");
        assert_eq!(store.load(game.id).map(|g| g.game().history().len()), Ok(1));
    }
}
