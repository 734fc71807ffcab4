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

use halma_record::{Record, RecordError, MAX_RECORD_BYTES};
use halma_rules::{excerpt, Action, Game, Seat, SeatSet};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

mod game;
mod id;

use game::{all_seats, in_play, seats_text};
pub use game::{CorrespondenceGame, LocalError, Summary, Turn};
pub use id::{apply_vote, turn_votes, GameId, Vote, ID_ALPHABET, ID_LENGTH};

/// The version of the message frame this program writes and reads.
pub const MESSAGE_VERSION: u32 = 1;
/// The word that starts the frame line.
pub const FRAME_WORD: &str = "halma-by-message";
/// The largest message [`parse_message`] reads, in bytes: a record's limit and room for chat around it.
pub const MAX_MESSAGE_BYTES: usize = MAX_RECORD_BYTES + 64 * 1024;

/// The English name of a seat's colour, as the app shows it.
pub fn colour_name(seat: Seat) -> &'static str {
    match seat {
        Seat::A => "Blue",
        Seat::B => "Orange",
        Seat::C => "Purple",
        Seat::D => "Green",
    }
}

/// The English header line for the player who receives the message: `Halma: your move,
/// Purple. Open with Halma.`, or for a finished game `Halma: the game is over. Open with
/// Halma.` The app passes its translated line to [`compose`] instead.
pub fn english_header(game: &Game) -> String {
    if game.is_over() {
        "Halma: the game is over. Open with Halma.".to_string()
    } else {
        format!("Halma: your move, {}. Open with Halma.", colour_name(game.to_move()))
    }
}

/// The header as one line: control characters and line breaks as spaces, trimmed, and
/// never a line that the reader would take for the frame.
fn clean_header(header: &str) -> String {
    let line: String = header.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let line = line.trim();
    if line.to_ascii_lowercase().starts_with(FRAME_WORD) || line.starts_with('[') {
        format!("({line})")
    } else {
        line.to_string()
    }
}

/// The text of a message: `header` (one line, cleaned), the frame line
/// `halma-by-message 1 game=<id> from=<sender's seats> turn=<seat to act or ->`, the
/// record of `record` (its players, date and comments kept), and `end <id>`.
pub fn compose(header: &str, id: GameId, from: SeatSet, record: &Record) -> String {
    let game = &record.game;
    let turn = if game.is_over() {
        "-".to_string()
    } else {
        game.pending_offer().map_or(game.to_move(), |offer| offer.awaiting).to_string()
    };
    let mut text = String::new();
    let header = clean_header(header);
    if !header.is_empty() {
        text.push_str(&header);
        text.push('\n');
    }
    text.push_str(&format!("{FRAME_WORD} {MESSAGE_VERSION} game={id} from={} turn={turn}\n", seats_text(from)));
    text.push_str(&record.to_text());
    text.push_str(&format!("end {id}\n"));
    text
}

/// A message read back: the game it names, who sent it and the game itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub id: GameId,
    /// The sender's seats.
    pub from: SeatSet,
    pub record: Record,
}

/// Why a text is not a message that can be read. `Display` gives English for logs; the
/// variants let the UI say it in the player's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Over [`MAX_MESSAGE_BYTES`].
    TooLarge { bytes: usize, limit: usize },
    /// No `halma-by-message` line: not a game by message.
    NotAMessage,
    /// A frame of another version.
    Version { text: String },
    /// The frame line is malformed (identifier, seats, turn).
    BadFrame { text: String },
    /// No `end <id>` line after the record: the message was cut short.
    Truncated,
    /// The record in it is refused (the line counts from the record's first line).
    Record(RecordError),
    /// The frame's turn is not the record's.
    TurnMismatch { stated: String, actual: String },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::TooLarge { bytes, limit } => {
                write!(f, "the message is {bytes} bytes, over the limit of {limit}")
            }
            ParseError::NotAMessage => write!(f, "no Halma game in this text (no '{FRAME_WORD}' line)"),
            ParseError::Version { text } => {
                write!(f, "unsupported message version '{text}' (this program reads {MESSAGE_VERSION})")
            }
            ParseError::BadFrame { text } => write!(f, "malformed '{FRAME_WORD}' line: {text}"),
            ParseError::Truncated => f.write_str("the message is cut short (no 'end' line after the record)"),
            ParseError::Record(error) => write!(f, "the game record is refused: {error}"),
            ParseError::TurnMismatch { stated, actual } => {
                write!(f, "the message says it is {stated}'s turn but the record says {actual}'s")
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// What chat apps do to text, undone: a byte-order mark, CR LF and lone CR as LF, curly and
/// other quotes as `"`, dashes and minus signs as `-`, no-break spaces as spaces, and
/// zero-width characters and direction marks removed.
pub fn unmangle(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push('\n');
            }
            '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{201f}' | '\u{2033}' | '\u{00ab}' | '\u{00bb}' | '\u{ff02}'
            | '\u{301d}' | '\u{301e}' => out.push('"'),
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2212}' | '\u{fe63}' | '\u{ff0d}' => {
                out.push('-')
            }
            '\u{00a0}' | '\u{2007}' | '\u{202f}' | '\u{2009}' | '\u{200a}' | '\u{3000}' | '\t' => out.push(' '),
            '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}' | '\u{200e}' | '\u{200f}' => {}
            c => out.push(c),
        }
    }
    out
}

/// A line as the reader takes it: trimmed, with e-mail quoting (`> `) taken off.
fn clean_line(line: &str) -> &str {
    let mut line = line.trim();
    while let Some(rest) = line.strip_prefix('>') {
        line = rest.trim_start();
    }
    line
}

/// The most frame lines of one text that are read; past it, the last ones.
pub const MAX_FRAMES_READ: usize = 32;

/// Reads a message out of a received text: anything may stand before the frame line and
/// after the end line, lines may be indented, quoted (`> `), wrapped (a tag line broken
/// in two is joined again) or end in CR LF, and quotes may have been made curly. Reads at
/// most [`MAX_MESSAGE_BYTES`]; never panics.
///
/// A reply may quote older messages above or below the new one (mail clients put the new
/// text on top): of all the frames that read, the one furthest along in its game wins:
/// the most actions, then the most draw votes of the turn in progress, then the last in
/// the text. When none reads, the last frame's error is told.
pub fn parse_message(text: &str) -> Result<Message, ParseError> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(ParseError::TooLarge { bytes: text.len(), limit: MAX_MESSAGE_BYTES });
    }
    let text = unmangle(text);
    let lines: Vec<&str> = text.split('\n').map(clean_line).collect();
    let starts: Vec<usize> = (lines.iter().enumerate())
        .filter(|(_, line)| line.split_whitespace().next().is_some_and(|word| word.eq_ignore_ascii_case(FRAME_WORD)))
        .map(|(index, _)| index)
        .collect();
    let starts = &starts[starts.len().saturating_sub(MAX_FRAMES_READ)..];
    let mut best: Option<(usize, usize, Message)> = None;
    let mut last_error = ParseError::NotAMessage;
    for &start in starts {
        match parse_frame_at(&lines, start) {
            Ok(message) => {
                let rank = (message.record.game.history().len(), turn_votes(&message.record.game).len());
                if best.as_ref().is_none_or(|(actions, votes, _)| rank >= (*actions, *votes)) {
                    best = Some((rank.0, rank.1, message));
                }
            }
            Err(error) => last_error = error,
        }
    }
    best.map(|(_, _, message)| message).ok_or(last_error)
}

/// Reads the message whose frame line is `lines[start]`.
fn parse_frame_at(lines: &[&str], start: usize) -> Result<Message, ParseError> {
    // The frame's words run up to the record's first tag (a wrapped frame line goes on).
    let record_start = lines[start + 1..]
        .iter()
        .position(|line| line.starts_with('['))
        .map(|offset| start + 1 + offset)
        .ok_or(ParseError::Truncated)?;
    let frame_words: Vec<&str> = lines[start..record_start].iter().flat_map(|line| line.split_whitespace()).collect();
    let (id, from, turn) = parse_frame(&frame_words)?;
    let end = lines[record_start..]
        .iter()
        .position(|line| {
            let mut words = line.split_whitespace();
            words.next().is_some_and(|word| word.eq_ignore_ascii_case("end"))
                && words.next().and_then(GameId::parse) == Some(id)
                && words.next().is_none()
        })
        .map(|offset| record_start + offset)
        .ok_or(ParseError::Truncated)?;
    let record_text = join_wrapped_tags(&lines[record_start..end]);
    let record = Record::parse(&record_text).map_err(ParseError::Record)?;
    let setup = record.game.setup();
    let from = in_play(from, setup);
    if from.is_empty() || from == all_seats(setup) {
        return Err(ParseError::BadFrame { text: format!("from={} in {setup}", seats_text(from)) });
    }
    let game = &record.game;
    let actual =
        if game.is_over() { None } else { Some(game.pending_offer().map_or(game.to_move(), |offer| offer.awaiting)) };
    if turn != actual {
        let name = |seat: Option<Seat>| seat.map_or("nobody".to_string(), |seat| seat.to_string());
        return Err(ParseError::TurnMismatch { stated: name(turn), actual: name(actual) });
    }
    Ok(Message { id, from, record })
}

/// The frame's words: `halma-by-message 1 game=<id> from=<seats> turn=<seat or ->`, the
/// fields in any order, names in any case.
fn parse_frame(words: &[&str]) -> Result<(GameId, SeatSet, Option<Seat>), ParseError> {
    let bad = |text: &str| ParseError::BadFrame { text: excerpt(text) };
    let version = words.get(1).ok_or_else(|| bad("no version"))?;
    if *version != MESSAGE_VERSION.to_string() {
        return Err(ParseError::Version { text: excerpt(version) });
    }
    let (mut id, mut from, mut turn) = (None, None, None);
    for word in &words[2..] {
        let Some((name, value)) = word.split_once('=') else { return Err(bad(word)) };
        match name.to_ascii_lowercase().as_str() {
            "game" if id.is_none() => id = Some(GameId::parse(value).ok_or_else(|| bad(word))?),
            "from" if from.is_none() => {
                let mut seats = SeatSet::EMPTY;
                for letter in value.chars() {
                    let seat = Seat::from_letter(letter.to_ascii_uppercase()).ok_or_else(|| bad(word))?;
                    if seats.contains(seat) {
                        return Err(bad(word));
                    }
                    seats.insert(seat);
                }
                from = Some(seats);
            }
            "turn" if turn.is_none() => {
                turn = Some(match value {
                    "-" => None,
                    letter => Some(letter.to_ascii_uppercase().parse::<Seat>().map_err(|_| bad(word))?),
                })
            }
            _ => return Err(bad(word)),
        }
    }
    match (id, from, turn) {
        (Some(id), Some(from), Some(turn)) => Ok((id, from, turn)),
        (None, _, _) => Err(bad("no game=")),
        (_, None, _) => Err(bad("no from=")),
        (_, _, None) => Err(bad("no turn=")),
    }
}

/// The record's lines with a tag line that a chat app wrapped joined again: a line
/// starting with `[` and not ending with `]` takes the following lines up to one that does.
fn join_wrapped_tags(lines: &[&str]) -> String {
    let mut text = String::new();
    let mut open = false;
    for line in lines {
        if open {
            text.push(' ');
            text.push_str(line);
        } else {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(line);
        }
        open = (open || line.starts_with('[')) && !line.ends_with(']');
    }
    text.push('\n');
    text
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use halma_rules::{DrawReason, Outcome, Setup};

    fn game_of(moves: &[&str]) -> Game {
        let mut game = Game::new(Setup::TwoPlayers, Seat::A);
        for text in moves {
            assert_eq!(game.play_text(text), Ok(()), "{text}");
        }
        game
    }

    fn mine(moves: &[&str]) -> CorrespondenceGame {
        CorrespondenceGame {
            id: GameId::parse("7KQ2M4XA").unwrap_or_else(GameId::random),
            local: SeatSet::single(Seat::A),
            record: Record::new(game_of(moves)),
            updated: 1,
        }
    }

    fn message_from_c(moves: &[&str]) -> Message {
        let game = mine(moves);
        let text = compose("hi", game.id, SeatSet::single(Seat::C), &game.record);
        match parse_message(&text) {
            Ok(message) => message,
            Err(error) => panic!("{error}: {text}"),
        }
    }

    #[test]
    fn a_composed_message_reads_back() {
        let game = mine(&["c3-d4"]);
        let text = game.compose("Halma: your move, Purple. Open with Halma.");
        assert_eq!(
            text,
            "Halma: your move, Purple. Open with Halma.\nhalma-by-message 1 game=7KQ2M4XA from=A turn=C\n\
             [Halma \"1\"]\n[Setup \"2p\"]\n[Teams \"none\"]\n[FirstSeat \"A\"]\n[Result \"*\"]\n\n1. c3-d4\nend 7KQ2M4XA\n"
        );
        let message = parse_message(&text).expect("reads");
        assert_eq!(message.id, game.id);
        assert_eq!(message.from, SeatSet::single(Seat::A));
        assert_eq!(message.record, game.record);
        assert_eq!(english_header(game.game()), "Halma: your move, Purple. Open with Halma.");
    }

    #[test]
    fn a_header_cannot_pose_as_the_frame() {
        let game = mine(&[]);
        let text = game.compose("halma-by-message 1 game=AAAAAAAA\nfrom=C");
        assert!(text.starts_with("(halma-by-message 1 game=AAAAAAAA from=C)\nhalma-by-message 1 game=7KQ2M4XA"));
        assert_eq!(parse_message(&text).map(|m| m.id), Ok(game.id));
    }

    #[test]
    fn chat_mangling_is_undone() {
        let game = mine(&["c3-d4", "n14-m13"]);
        let text = game.compose("Halma: your move, Blue.");
        let mangled = format!(
            "[12:01] Ann: look\r\n  {}\r\nSent from my phone",
            text.replace('"', "\u{201c}")
                .replace("[Setup \u{201c}2p\u{201c}]", "[Setup\n \u{201c}2p\u{201d}]")
                .replace('-', "\u{2013}")
                .replace('\n', "\r\n    ")
        );
        let message = parse_message(&mangled).expect("reads through the mangling");
        assert_eq!(message.record.game.history(), game.game().history());
        let quoted: String = text.lines().map(|line| format!("> {line}\n")).collect();
        assert_eq!(parse_message(&quoted).map(|m| m.record), Ok(game.record.clone()));
    }

    #[test]
    fn broken_texts_get_typed_errors() {
        let game = mine(&["c3-d4"]);
        let text = game.compose("x");
        assert_eq!(parse_message("hello there"), Err(ParseError::NotAMessage));
        assert_eq!(parse_message(&text.replace("end 7KQ2M4XA\n", "")), Err(ParseError::Truncated));
        assert_eq!(
            parse_message(&text.replace("by-message 1", "by-message 2")),
            Err(ParseError::Version { text: "2".into() })
        );
        assert_eq!(
            parse_message(&text.replace("game=7KQ2M4XA", "game=7KQ")),
            Err(ParseError::BadFrame { text: "game=7KQ".into() })
        );
        assert_eq!(
            parse_message(&text.replace("turn=C", "turn=A")),
            Err(ParseError::TurnMismatch { stated: "A".into(), actual: "C".into() })
        );
        assert_eq!(
            parse_message(&text.replace("from=A", "from=AC")),
            Err(ParseError::BadFrame { text: "from=AC in 2p".into() })
        );
        assert!(matches!(parse_message(&text.replace("c3-d4", "c3-d5")), Err(ParseError::Record(_))));
        let huge = "x".repeat(MAX_MESSAGE_BYTES + 1);
        assert_eq!(
            parse_message(&huge),
            Err(ParseError::TooLarge { bytes: MAX_MESSAGE_BYTES + 1, limit: MAX_MESSAGE_BYTES })
        );
    }

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
