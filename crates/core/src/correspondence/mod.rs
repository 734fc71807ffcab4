//! Play by message: a game travels as text through any chat app or mail, with no server.
//!
//! A message is a one-line header for people, a frame line naming the game, the normal
//! game record (docs/RECORDS.md), and an end line (docs/NETWORK.md has the format):
//!
//! ```text
//! Halma: your move, Purple. Open with Halma.
//! halma-by-message 1 game=7KQ2M4XA from=A turn=C
//! [Halma "1"]
//! [Setup "2p"]
//! [Teams "none"]
//! [FirstSeat "A"]
//! [Result "*"]
//!
//! 1. c3-d4
//! end 7KQ2M4XA
//! ```
//!
//! [`compose`] writes it, [`parse_message`] reads it back (tolerating what chat apps do
//! to text), [`decide`] compares it with the game this device knows, and
//! [`CorrespondenceStore`] keeps every game by message in its own file. Pure but for the
//! store: no Slint, no network.

use halma_record::{Record, MAX_RECORD_BYTES};
use halma_rules::{excerpt, Action, Seat, SeatSet};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

mod game;
mod id;
mod message;

use game::{all_seats, in_play, seats_text};
pub use game::{CorrespondenceGame, LocalError, Summary, Turn};
pub use id::{apply_vote, turn_votes, GameId, Vote, ID_ALPHABET, ID_LENGTH};
pub use message::{
    colour_name, compose, english_header, parse_message, unmangle, Message, ParseError, FRAME_WORD, MAX_FRAMES_READ,
    MAX_MESSAGE_BYTES, MESSAGE_VERSION,
};

/// A received game that this device does not know yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// The game to keep if the player says yes: this device plays the seats the sender
    /// does not.
    pub game: CorrespondenceGame,
    /// The sender's seats.
    pub from: SeatSet,
}

/// What the message brought into a known game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The game with the message applied (to be saved).
    pub game: CorrespondenceGame,
    /// The other side's new actions, each with the seat that played it (`Purple played
    /// m16-k14`).
    pub played: Vec<(Seat, Action)>,
    /// The other side's new draw votes.
    pub votes: Vec<Vote>,
}

/// Why a message about a known game was refused. The known game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The message's game starts differently (setup, first seat, start position).
    DifferentStart,
    /// The message changes action `action` (1-based) of the known game: earlier actions
    /// rewritten (or taken back).
    Rewritten { action: usize },
    /// The message changes draw vote `vote` (1-based) of the turn in progress.
    VotesRewritten { vote: usize },
    /// An older message of this game: it knows fewer actions or votes than this device.
    OldMessage,
    /// The message brings nothing new (the same game, e.g. this device's own message).
    NothingNew,
    /// The sender says it plays seats that this device plays.
    WrongSeat { seats: SeatSet },
    /// The sender played or voted for a seat of this device: it skipped this side's turn.
    SkippedTurn { seat: Seat },
    /// The message's game is not this game by message's: other seats in play.
    WrongSetup,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::DifferentStart => f.write_str("the message's game starts differently"),
            Refusal::Rewritten { action } => write!(f, "the message rewrites action {action} of the game"),
            Refusal::VotesRewritten { vote } => write!(f, "the message changes draw vote {vote} of this turn"),
            Refusal::OldMessage => f.write_str("an older message of this game"),
            Refusal::NothingNew => f.write_str("nothing new in this message"),
            Refusal::WrongSeat { seats } => write!(f, "the sender plays seats {seats}, which are this device's"),
            Refusal::SkippedTurn { seat } => write!(f, "the sender played seat {seat}'s turn, which is this device's"),
            Refusal::WrongSetup => f.write_str("the message's game is of another setup"),
        }
    }
}

/// What to do with a received message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The known game extended by exactly the other side's actions and votes: save `game`.
    Applied(Applied),
    /// A game this device does not know: ask the player, then save `game`.
    NewGame(NewGame),
    /// Refused; the known game is unchanged.
    Refused { id: GameId, reason: Refusal },
}

/// Decides what a message means for the games this device knows (`known` finds a game by
/// its identifier). See docs/NETWORK.md, "Receiving a message".
pub fn decide(message: Message, mut known: impl FnMut(GameId) -> Option<CorrespondenceGame>) -> Decision {
    let now = crate::storage::now_unix_time();
    let Some(mine) = known(message.id) else {
        let setup = message.record.game.setup();
        let mut local = SeatSet::EMPTY;
        for &seat in setup.seats() {
            if !message.from.contains(seat) {
                local.insert(seat);
            }
        }
        let game = CorrespondenceGame { id: message.id, local, record: message.record, updated: now };
        return Decision::NewGame(NewGame { game, from: message.from });
    };
    let refuse = |reason| Decision::Refused { id: message.id, reason };
    match extension(&mine, &message) {
        Ok((played, votes)) => {
            let mut record = message.record;
            // What this device knows of the players stays.
            for (slot, known) in record.players.iter_mut().zip(&mine.record.players) {
                if slot.is_none() {
                    slot.clone_from(known);
                }
            }
            let game = CorrespondenceGame { id: mine.id, local: mine.local, record, updated: now };
            Decision::Applied(Applied { game, played, votes })
        }
        Err(reason) => refuse(reason),
    }
}

type Extension = (Vec<(Seat, Action)>, Vec<Vote>);

/// The other side's actions and votes that take `mine` to the message's game, or why
/// the message is not such an extension.
fn extension(mine: &CorrespondenceGame, message: &Message) -> Result<Extension, Refusal> {
    let known = mine.game();
    let theirs = &message.record.game;
    if theirs.setup() != known.setup() {
        return Err(Refusal::WrongSetup);
    }
    if theirs.start_position() != known.start_position() {
        return Err(Refusal::DifferentStart);
    }
    let (old, new) = (known.history(), theirs.history());
    if let Some(index) = old.iter().zip(new).position(|(a, b)| a != b) {
        return Err(Refusal::Rewritten { action: index + 1 });
    }
    let (old_votes, new_votes) = (turn_votes(known), turn_votes(theirs));
    if new.len() < old.len() {
        return Err(Refusal::OldMessage);
    }
    let fresh_votes: Vec<Vote> = if new.len() == old.len() {
        if let Some(index) = old_votes.iter().zip(&new_votes).position(|(a, b)| a != b) {
            // A vote of this turn is not the one this device knows.
            return Err(Refusal::VotesRewritten { vote: index + 1 });
        }
        if new_votes.len() < old_votes.len() {
            return Err(Refusal::OldMessage);
        }
        if new_votes.len() == old_votes.len() {
            return Err(Refusal::NothingNew);
        }
        new_votes[old_votes.len()..].to_vec()
    } else {
        // New actions: a draw offer this device must answer cannot be passed over.
        if let Some(offer) = known.pending_offer() {
            if mine.local.contains(offer.awaiting) {
                return Err(Refusal::SkippedTurn { seat: offer.awaiting });
            }
        }
        new_votes
    };
    let overlap = in_play(message.from, known.setup());
    let mut clash = SeatSet::EMPTY;
    for seat in overlap.seats().filter(|&seat| mine.local.contains(seat)) {
        clash.insert(seat);
    }
    if !clash.is_empty() {
        return Err(Refusal::WrongSeat { seats: clash });
    }
    let mut played = Vec::new();
    for (index, action) in new.iter().enumerate().skip(old.len()) {
        let seat = theirs.actor(index);
        if mine.local.contains(seat) {
            return Err(Refusal::SkippedTurn { seat });
        }
        played.push((seat, action.clone()));
    }
    if let Some(vote) = fresh_votes.iter().find(|vote| mine.local.contains(vote.seat())) {
        return Err(Refusal::SkippedTurn { seat: vote.seat() });
    }
    Ok((played, fresh_votes))
}

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

/// What the tests of every part start from: a two-player game where this device plays A.
#[cfg(test)]
mod fixtures {
    use super::*;
    use halma_rules::{Game, Setup};

    fn game_of(moves: &[&str]) -> Game {
        let mut game = Game::new(Setup::TwoPlayers, Seat::A);
        for text in moves {
            assert_eq!(game.play_text(text), Ok(()), "{text}");
        }
        game
    }

    pub(super) fn mine(moves: &[&str]) -> CorrespondenceGame {
        CorrespondenceGame {
            id: GameId::parse("7KQ2M4XA").unwrap_or_else(GameId::random),
            local: SeatSet::single(Seat::A),
            record: Record::new(game_of(moves)),
            updated: 1,
        }
    }

    pub(super) fn message_from_c(moves: &[&str]) -> Message {
        let game = mine(moves);
        let text = compose("hi", game.id, SeatSet::single(Seat::C), &game.record);
        match parse_message(&text) {
            Ok(message) => message,
            Err(error) => panic!("{error}: {text}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fixtures::{message_from_c, mine};
    use halma_rules::{DrawReason, Game, Outcome, Setup};

    #[test]
    fn the_other_sides_move_is_applied() {
        let known = mine(&["c3-d4"]);
        let decision = decide(message_from_c(&["c3-d4", "n14-m13"]), |_| Some(known.clone()));
        let Decision::Applied(applied) = decision else { panic!("{decision:?}") };
        assert_eq!(applied.played.len(), 1);
        assert_eq!(applied.played[0].0, Seat::C);
        assert_eq!(applied.played[0].1.to_string(), "n14-m13");
        assert_eq!(applied.game.turn(), Turn::Local(Seat::A));
    }

    #[test]
    fn refusals() {
        let known = mine(&["c3-d4", "n14-m13", "e2-f3"]);
        let refused = |message: Message| match decide(message, |_| Some(known.clone())) {
            Decision::Refused { reason, .. } => reason,
            other => panic!("{other:?}"),
        };
        assert_eq!(refused(message_from_c(&["c3-d4", "n14-m13"])), Refusal::OldMessage);
        assert_eq!(refused(message_from_c(&["c3-d4", "n14-m13", "e2-f3"])), Refusal::NothingNew);
        assert_eq!(
            refused(message_from_c(&["c3-d4", "n14-l14", "e2-f3", "m14-l13"])),
            Refusal::Rewritten { action: 2 }
        );
        // C played, then A's move and C's again: A's turn was played by the sender.
        assert_eq!(
            refused(message_from_c(&["c3-d4", "n14-m13", "e2-f3", "m14-l13", "d3-e4", "o13-n12"])),
            Refusal::SkippedTurn { seat: Seat::A }
        );
        let mut wrong = message_from_c(&["c3-d4", "n14-m13", "e2-f3", "m14-l13"]);
        wrong.from = SeatSet::single(Seat::A);
        assert_eq!(refused(wrong), Refusal::WrongSeat { seats: SeatSet::single(Seat::A) });
        let mut other_start = message_from_c(&[]);
        other_start.record = Record::new(Game::new(Setup::TwoPlayers, Seat::C));
        assert_eq!(refused(other_start), Refusal::DifferentStart);
    }

    #[test]
    fn draw_votes_travel_and_are_checked() {
        // A offers (locally), C accepts by message.
        let mut known = mine(&["c3-d4", "n14-m13"]);
        assert_eq!(known.vote_local(Vote::Offer(Seat::A)), Ok(()));
        let mut theirs = known.record.game.clone();
        assert!(theirs.answer_draw(Seat::C, true).is_ok());
        let text = compose("x", known.id, SeatSet::single(Seat::C), &Record::new(theirs));
        let decision = decide(parse_message(&text).expect("reads"), |_| Some(known.clone()));
        let Decision::Applied(applied) = decision else { panic!("{decision:?}") };
        assert_eq!(applied.votes, vec![Vote::Accept(Seat::C)]);
        assert_eq!(applied.game.turn(), Turn::Over(Outcome::Draw(DrawReason::Agreement)));

        // C offers by message and the message answers for A: refused.
        let known = mine(&["c3-d4"]);
        let mut theirs = known.record.game.clone();
        assert!(theirs.offer_draw().is_ok());
        assert!(theirs.answer_draw(Seat::A, true).is_ok());
        let text = compose("x", known.id, SeatSet::single(Seat::C), &Record::new(theirs));
        let decision = decide(parse_message(&text).expect("reads"), |_| Some(known.clone()));
        assert_eq!(decision, Decision::Refused { id: known.id, reason: Refusal::SkippedTurn { seat: Seat::A } });
    }

    #[test]
    fn an_unknown_game_is_offered_with_the_other_seats() {
        let decision = decide(message_from_c(&["c3-d4"]), |_| None);
        let Decision::NewGame(new) = decision else { panic!("{decision:?}") };
        assert_eq!(new.game.local, SeatSet::single(Seat::A));
        assert_eq!(new.from, SeatSet::single(Seat::C));
    }

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
