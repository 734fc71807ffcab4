//! Game records: a small, line-oriented text format in the spirit of PGN, used by the
//! app's export and import, by `halma-arena --record` and by `halma-engine`'s
//! `position record`. docs/RECORDS.md documents the format.
//!
//! ```text
//! [Halma "1"]
//! [Setup "2p"]
//! [Teams "none"]
//! [FirstSeat "A"]
//! [A "Human"]
//! [C "Computer Master"]
//! [Date "2026.12.01"]
//! [Result "*"]
//!
//! 1. c3-d4 n14-m13
//! 2. e1-e2 offer refuse
//! ```
//!
//! Header lines are `[Name "value"]` tags; the moves follow in the rules' notation,
//! numbered by round, with `pass` and the draw votes `offer`, `accept` and `refuse`, and
//! comments `{ ... }` (one line each) that never change the game. A game's analysis can
//! be written as comments ([`Record::set_analysis`]) and read back ([`Record::analysis`]).
//! Parsing replays every action through the rules and returns a new [`Game`]: it never
//! touches any other game, and a bad record gets a [`RecordError`] naming the line.
//!
//! ```rust
//! use halma_record::{Record, SeatPlayer};
//! use halma_ai::Level;
//! use halma_rules::{Game, Seat, Setup};
//!
//! let mut game = Game::new(Setup::TwoPlayers, Seat::A);
//! game.play_text("c3-d4")?;
//! let mut record = Record::new(game);
//! record.players[Seat::C] = Some(SeatPlayer::Computer(Level::Master));
//! let text = record.to_text();
//! assert!(text.contains("[C \"Computer Master\"]\n"));
//! assert!(text.ends_with("\n1. c3-d4\n"));
//! assert_eq!(Record::parse(&text), Ok(record));
//!
//! let error = Record::parse(&text.replace("c3-d4", "c3-d5")).unwrap_err();
//! assert_eq!(error.line(), 8);
//! assert_eq!(error.to_string(), "line 8: illegal move 'c3-d5' (action 1): c3 to d5 is neither a step nor a jump");
//! # Ok::<(), halma_rules::GameError>(())
//! ```

use halma_ai::analysis::{ActionAnalysis, Class, Eval, GameAnalysis, Judgement, Quality, Steps, Verdict};
use halma_ai::Level;
use halma_rules::{
    excerpt, parse_hpn, parse_move, write_hpn, BySeat, DrawReason, Game, GameError, MoveText, NotationError, Outcome,
    ParseSetupError, Position, Route, Seat, SeatSet, Setup,
};
use std::fmt;
use std::str::FromStr;

/// The version of the record format this program writes and reads.
pub const RECORD_VERSION: u32 = 1;
/// The largest record [`Record::parse`] reads, in bytes.
pub const MAX_RECORD_BYTES: usize = 1 << 20;
/// The largest text of many records [`Record::parse_many`] reads, in bytes.
pub const MAX_RECORDS_BYTES: usize = 64 << 20;
/// The most actions (moves and passes) one record may hold: the rules' cap on a game.
pub use halma_rules::MAX_ACTIONS;
/// The longest comment, in bytes of its text (the spaces around it not counted): room for any analysis line or a
/// note, while a stray `{` cannot swallow a whole record.
pub const MAX_COMMENT_BYTES: usize = 4096;

/// A comment among the moves, `{ text }`: free text that the game never reads.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Comment {
    /// How many actions stand before it: 0 before the first action, `n` right after
    /// action `n` (counted from 1, as in errors).
    pub after: usize,
    /// One line, without braces, trimmed; see [`clean_comment`].
    pub text: String,
}

impl Comment {
    pub fn new(after: usize, text: impl Into<String>) -> Comment {
        Comment { after, text: text.into() }
    }
}

/// A comment's text as the writer writes it and the reader keeps it: control characters
/// (line breaks) as spaces, `}` (which would end it) as `)`, trimmed, cut to
/// [`MAX_COMMENT_BYTES`]. Cleaning twice changes nothing, so written comments read back
/// as they were.
pub fn clean_comment(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .map(|c| match c {
            '}' => ')',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    let mut cleaned = cleaned.trim();
    if cleaned.len() > MAX_COMMENT_BYTES {
        let mut end = MAX_COMMENT_BYTES;
        while !cleaned.is_char_boundary(end) {
            end -= 1;
        }
        cleaned = cleaned[..end].trim_end();
    }
    cleaned.to_string()
}

/// Who played a seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SeatPlayer {
    /// `Human`.
    Human,
    /// `Computer <level>`, a level of this program (`Computer Master`).
    Computer(Level),
    /// `Program <name>`: another program (the arena's `cmd:` players), by its command line
    /// (not blank, without spaces around it: it is read back trimmed).
    Program(String),
}

impl fmt::Display for SeatPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatPlayer::Human => f.write_str("Human"),
            SeatPlayer::Computer(level) => write!(f, "Computer {}", level.name()),
            SeatPlayer::Program(name) => write!(f, "Program {name}"),
        }
    }
}

impl FromStr for SeatPlayer {
    type Err = ();

    /// `Human`, `Computer <level>` (a level name, any case) or `Program <name>`.
    fn from_str(text: &str) -> Result<SeatPlayer, ()> {
        if text == "Human" {
            return Ok(SeatPlayer::Human);
        }
        if let Some(level) = text.strip_prefix("Computer ") {
            return Level::from_name(level).map(SeatPlayer::Computer).ok_or(());
        }
        match text.strip_prefix("Program ").map(str::trim) {
            Some(name) if !name.is_empty() => Ok(SeatPlayer::Program(name.to_string())),
            _ => Err(()),
        }
    }
}

/// One game as a record: who played each seat, when, how it ended beyond the rules,
/// and the game itself (setup, first seat, start, every action and the draw votes).
///
/// The setup, the first seat and the result are the game's own; the record's header
/// states them and [`Record::parse`] checks them against the replayed game. The redo
/// list is not recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Who played each seat, indexed by seat (A..D); `None` when unknown. Seats not in
    /// play must be `None`: [`Record::to_text`] skips them.
    pub players: BySeat<Option<SeatPlayer>>,
    /// `YYYY.MM.DD`, with `?` for unknown digits (as in PGN), e.g. from [`date_of_unix_time`].
    /// Another text is not written.
    pub date: Option<String>,
    /// Why the game stopped when the rules did not end it (e.g. the arena's
    /// adjudication or a forfeit); free text on one line.
    pub termination: Option<String>,
    pub game: Game,
    /// The comments among the moves, in the order written (by [`Comment::after`]).
    pub comments: Vec<Comment>,
}

/// Why a record was refused: the 1-based line (0 for the input as a whole) and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub line: usize,
    pub problem: RecordProblem,
}

impl RecordError {
    /// The 1-based line of the problem, or 0 when it is about the whole input.
    pub fn line(&self) -> usize {
        self.line
    }

    pub fn problem(&self) -> &RecordProblem {
        &self.problem
    }
}

/// What is wrong with a record. Texts from the input are shortened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordProblem {
    /// The input is over the size limit (in bytes).
    TooLarge {
        bytes: usize,
        limit: usize,
    },
    /// Nothing but blank lines.
    Empty,
    /// The first line is not `[Halma "1"]`.
    NotARecord {
        text: String,
    },
    /// A newer or unknown format version.
    Version {
        text: String,
    },
    /// A line starting with `[` that is not `[Name "value"]`.
    MalformedTag {
        text: String,
    },
    UnknownTag {
        name: String,
    },
    DuplicateTag {
        name: String,
    },
    /// A required tag (`Setup`, `FirstSeat`, `Result`) is missing from the header.
    MissingTag {
        name: &'static str,
    },
    /// A tag line among the moves.
    TagAfterMoves {
        text: String,
    },
    UnknownSetup {
        text: String,
    },
    /// The `Teams` tag does not describe the setup's teams.
    Teams {
        text: String,
        setup: Setup,
    },
    /// Not a seat letter, in the tag `tag`.
    BadSeat {
        tag: &'static str,
        text: String,
    },
    /// A seat (first seat or a player's tag) that does not play in the setup.
    SeatNotInPlay {
        seat: Seat,
        setup: Setup,
    },
    BadPlayer {
        text: String,
    },
    BadDate {
        text: String,
    },
    BadResult {
        text: String,
    },
    /// The `Start` tag's HPN does not parse.
    Start(NotationError),
    /// The `Start` position is of another setup or first seat than the header says.
    StartMismatch,
    /// A round number that is not the round of the next action.
    MoveNumber {
        text: String,
        expected: u32,
    },
    /// Action `action` (1-based) is not notation.
    MalformedMove {
        action: usize,
        error: NotationError,
    },
    /// Action `action` (1-based) cannot be played.
    IllegalMove {
        text: String,
        action: usize,
        error: GameError,
    },
    /// A draw vote (`offer`, `accept`, `refuse`) that cannot be given now.
    Vote {
        text: String,
        error: GameError,
    },
    /// More than [`MAX_ACTIONS`] actions.
    TooManyActions {
        limit: usize,
    },
    /// The `Result` tag says another outcome than the replayed game has (both as
    /// `Result` values).
    ResultMismatch {
        stated: String,
        actual: String,
    },
    /// A `{` with no `}` after it on its line (comments are one line each); `after`
    /// actions stand before it.
    UnterminatedComment {
        text: String,
        after: usize,
    },
    /// A comment whose text is over [`MAX_COMMENT_BYTES`].
    CommentTooLong {
        bytes: usize,
        limit: usize,
        after: usize,
    },
}

impl fmt::Display for RecordProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RecordProblem::*;
        match self {
            TooLarge { bytes, limit } => write!(f, "the record is {bytes} bytes, over the limit of {limit}"),
            Empty => f.write_str("empty record"),
            NotARecord { text } => write!(f, "not a Halma record: expected [Halma \"1\"] first, got '{text}'"),
            Version { text } => write!(f, "unsupported record version '{text}' (this program reads {RECORD_VERSION})"),
            MalformedTag { text } => write!(f, "malformed tag line '{text}' (expected [Name \"value\"])"),
            UnknownTag { name } => write!(f, "unknown tag '{name}'"),
            DuplicateTag { name } => write!(f, "tag '{name}' given twice"),
            MissingTag { name } => write!(f, "missing header tag [{name} \"…\"]"),
            TagAfterMoves { text } => write!(f, "tag line '{text}' after the moves"),
            UnknownSetup { text } => write!(f, "unknown setup '{text}' (expected 2p, 3p, 4p-one or 4p-both)"),
            Teams { text, setup } => {
                write!(f, "teams '{text}' contradict setup {setup} (its teams: '{}')", teams_text(*setup))
            }
            BadSeat { tag, text } => write!(f, "bad seat '{text}' in {tag} (expected A, B, C or D)"),
            SeatNotInPlay { seat, setup } => write!(f, "seat {seat} does not play in {setup}"),
            BadPlayer { text } => {
                write!(f, "bad player '{text}' (expected Human, Computer <level> or Program <name>)")
            }
            BadDate { text } => write!(f, "bad date '{text}' (expected YYYY.MM.DD, with ? for unknown digits)"),
            BadResult { text } => write!(
                f,
                "bad result '{text}' (expected '*', 'A wins', 'A+C win', 'draw by repetition' or 'draw by agreement')"
            ),
            Start(error) => write!(f, "bad start position: {error}"),
            StartMismatch => f.write_str("the Start position does not match the setup and first seat"),
            MoveNumber { text, expected } => write!(f, "move number '{text}' where round {expected} is due"),
            MalformedMove { action, error } => write!(f, "malformed move (action {action}): {error}"),
            IllegalMove { text, action, error: GameError::Illegal(why) } => {
                write!(f, "illegal move '{text}' (action {action}): {why}")
            }
            IllegalMove { text, action, error } => write!(f, "move '{text}' (action {action}) not allowed: {error}"),
            Vote { text, error } => write!(f, "'{text}' not allowed: {error}"),
            TooManyActions { limit } => write!(f, "more than {limit} actions"),
            ResultMismatch { stated, actual } => {
                write!(f, "the result says '{stated}' but the moves end with '{actual}'")
            }
            UnterminatedComment { text, .. } => {
                write!(f, "unterminated comment '{text}' (a comment ends with '}}' on its own line)")
            }
            CommentTooLong { bytes, limit, .. } => write!(f, "a comment of {bytes} bytes, over the limit of {limit}"),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.problem)
        } else {
            write!(f, "line {}: {}", self.line, self.problem)
        }
    }
}

impl std::error::Error for RecordError {}

fn fail<T>(line: usize, problem: RecordProblem) -> Result<T, RecordError> {
    Err(RecordError { line, problem })
}

/// The `Teams` tag of a setup (written for readability; checked when read).
pub fn teams_text(setup: Setup) -> &'static str {
    match setup {
        Setup::TwoPlayers | Setup::ThreePlayers => "none",
        Setup::FourPlayersOneArmy => "A+C vs B+D, one army home wins",
        Setup::FourPlayersBothArmies => "A+C vs B+D, both armies home win",
    }
}

/// The `Result` tag of an outcome: `*`, `A wins`, `A+C win`, `draw by repetition`,
/// `draw by agreement`.
pub fn result_text(outcome: Outcome) -> String {
    match outcome {
        Outcome::Ongoing => "*".to_string(),
        Outcome::Win(seats) => {
            let letters: Vec<String> = seats.seats().map(|s| s.to_string()).collect();
            let verb = if letters.len() == 1 { "wins" } else { "win" };
            format!("{} {verb}", letters.join("+"))
        }
        Outcome::Draw(DrawReason::Repetition) => "draw by repetition".to_string(),
        Outcome::Draw(DrawReason::Agreement) => "draw by agreement".to_string(),
    }
}

fn parse_result(text: &str) -> Option<Outcome> {
    match text {
        "*" => return Some(Outcome::Ongoing),
        "draw by repetition" => return Some(Outcome::Draw(DrawReason::Repetition)),
        "draw by agreement" => return Some(Outcome::Draw(DrawReason::Agreement)),
        _ => {}
    }
    let (seats, verb) = text.split_once(' ')?;
    let mut set = SeatSet::EMPTY;
    let mut count = 0;
    for letter in seats.split('+') {
        let seat: Seat = letter.parse().ok()?;
        if set.contains(seat) {
            return None;
        }
        set.insert(seat);
        count += 1;
    }
    let expected_verb = if count == 1 { "wins" } else { "win" };
    (verb == expected_verb && count <= 2).then_some(Outcome::Win(set))
}

/// The date `YYYY.MM.DD` (UTC) of a time in seconds since 1970.
pub fn date_of_unix_time(seconds: u64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let days = (seconds / 86_400) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

fn valid_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes
            .iter()
            .enumerate()
            .all(|(i, &b)| if i == 4 || i == 7 { b == b'.' } else { b.is_ascii_digit() || b == b'?' })
}

/// A tag value as written: quotes and backslashes escaped, control characters (which
/// would break the line) as spaces.
fn quote(value: &str) -> String {
    let mut text = String::with_capacity(value.len() + 2);
    text.push('"');
    for c in value.chars() {
        match c {
            '"' => text.push_str("\\\""),
            '\\' => text.push_str("\\\\"),
            c if c.is_control() => text.push(' '),
            c => text.push(c),
        }
    }
    text.push('"');
    text
}

/// Splits a tag line `[Name "value"]` (already trimmed) into its name and unescaped value.
fn parse_tag(line: &str) -> Option<(&str, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let name_end = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(inner.len());
    let (name, rest) = inner.split_at(name_end);
    if name.is_empty() {
        return None;
    }
    let rest = rest.trim_start();
    let mut chars = rest.strip_prefix('"')?.chars();
    let mut value = String::new();
    loop {
        match chars.next()? {
            '"' => break,
            '\\' => match chars.next()? {
                c @ ('"' | '\\') => value.push(c),
                _ => return None,
            },
            // A value is one line of text, as `quote` writes it.
            c if c.is_control() => return None,
            c => value.push(c),
        }
    }
    chars.as_str().trim().is_empty().then_some((name, value))
}

/// The round (from 1) of the next action of a game: every seat moves once a round.
fn round_of(game: &Game) -> u32 {
    let seats = game.setup().seats().len() as u32;
    game.position().plies() / seats + 1
}

/// The header tags as read: name, value, line.
struct Tags<'a> {
    tags: Vec<(&'a str, String, usize)>,
}

impl Tags<'_> {
    fn get(&self, name: &str) -> Option<(&str, usize)> {
        self.tags.iter().find(|(n, _, _)| *n == name).map(|(_, value, line)| (value.as_str(), *line))
    }

    /// A missing tag stands on no line: it is about the header as a whole (line 0), not
    /// about the line of moves that follows it.
    fn require(&self, name: &'static str) -> Result<(&str, usize), RecordError> {
        self.get(name).map_or_else(|| fail(0, RecordProblem::MissingTag { name }), Ok)
    }
}

const KNOWN_TAGS: [&str; 11] = ["Halma", "Setup", "Teams", "FirstSeat", "Start", "A", "B", "C", "D", "Date", "Result"];
const TERMINATION: &str = "Termination";

impl Record {
    /// A record of `game` with nothing else known.
    pub fn new(game: Game) -> Record {
        Record { players: BySeat::default(), date: None, termination: None, game, comments: Vec::new() }
    }

    /// The record as text: the header, a blank line, then one line per round. Ends with
    /// a newline.
    pub fn to_text(&self) -> String {
        let game = &self.game;
        let setup = game.setup();
        let mut text = String::new();
        let mut tag = |name: &str, value: &str| {
            text.push_str(&format!("[{name} {}]\n", quote(value)));
        };
        tag("Halma", &RECORD_VERSION.to_string());
        tag("Setup", setup.name());
        tag("Teams", teams_text(setup));
        tag("FirstSeat", &game.first_seat().to_string());
        if *game.start_position() != Position::start(setup, game.first_seat()) {
            tag("Start", &write_hpn(game.start_position()));
        }
        for &seat in setup.seats() {
            if let Some(player) = &self.players[seat] {
                tag(&seat.to_string(), &player.to_string());
            }
        }
        if let Some(date) = self.date.as_deref().filter(|date| valid_date(date)) {
            tag("Date", date);
        }
        tag("Result", &result_text(game.outcome()));
        if let Some(termination) = &self.termination {
            tag(TERMINATION, termination);
        }
        text.push('\n');

        let mut replay = Game::from_position(*game.start_position());
        let mut line = String::new();
        let seats = setup.seats().len() as u32;
        let mut lines = Vec::new();
        // Comments placed after more actions than the game has follow its last action.
        let actions = game.history().len();
        let comments_at = |place: usize, line: &mut String| {
            for comment in self.comments.iter().filter(|comment| comment.after.min(actions) == place) {
                let text = clean_comment(&comment.text);
                if !text.is_empty() {
                    if !line.is_empty() {
                        line.push(' ');
                    }
                    line.push_str(&format!("{{ {text} }}"));
                }
            }
        };
        // Comments before the first action: a line of their own.
        comments_at(0, &mut line);
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        for (index, action) in game.history().iter().enumerate() {
            if line.is_empty() || replay.position().plies().is_multiple_of(seats) {
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                line = format!("{}.", round_of(&replay));
            }
            line.push(' ');
            line.push_str(&action.to_string());
            comments_at(index + 1, &mut line);
            if replay.play_action(action).is_err() {
                break;
            }
        }
        // The draw votes of the last turn: an agreed draw, an offer waiting for votes, or
        // an offer refused this turn.
        let votes = match (game.outcome(), game.pending_offer()) {
            (Outcome::Draw(DrawReason::Agreement), _) => {
                let accepts = vec!["accept"; setup.seats().len() - 1];
                format!("offer {}", accepts.join(" "))
            }
            (_, Some(offer)) => {
                let mut votes = "offer".to_string();
                for _ in offer.accepted.seats() {
                    votes.push_str(" accept");
                }
                votes
            }
            // Ongoing without an offer: only an offer made (and refused) this turn forbids another.
            (Outcome::Ongoing, None) if !game.can_offer_draw() => "offer refuse".to_string(),
            _ => String::new(),
        };
        if !votes.is_empty() {
            if line.is_empty() {
                line = format!("{}.", round_of(game));
            }
            line.push(' ');
            line.push_str(&votes);
        }
        if !line.is_empty() {
            lines.push(line);
        }
        for line in lines {
            text.push_str(&line);
            text.push('\n');
        }
        text
    }

    /// Reads one record (at most [`MAX_RECORD_BYTES`]), replaying and checking every
    /// action. Never panics; the error names the line and the problem.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        if text.len() > MAX_RECORD_BYTES {
            return fail(0, RecordProblem::TooLarge { bytes: text.len(), limit: MAX_RECORD_BYTES });
        }
        parse_from(text, 1)
    }

    /// Reads records one after the other (as `halma-arena --record` writes them): each
    /// starts with its `[Halma "1"]` line. At most [`MAX_RECORDS_BYTES`] in all and
    /// [`MAX_RECORD_BYTES`] per record; line numbers count from the start of `text`.
    pub fn parse_many(text: &str) -> Result<Vec<Record>, RecordError> {
        if text.len() > MAX_RECORDS_BYTES {
            return fail(0, RecordProblem::TooLarge { bytes: text.len(), limit: MAX_RECORDS_BYTES });
        }
        // Byte offsets and line numbers where each record starts.
        let mut starts = vec![(0usize, 1usize)];
        let mut offset = 0;
        for (index, line) in text.split_inclusive('\n').enumerate() {
            if index > 0 && line.trim_start().starts_with("[Halma") {
                starts.push((offset, index + 1));
            }
            offset += line.len();
        }
        let mut records = Vec::with_capacity(starts.len());
        for (i, &(start, first_line)) in starts.iter().enumerate() {
            let end = starts.get(i + 1).map_or(text.len(), |&(next, _)| next);
            let chunk = text.get(start..end).unwrap_or("");
            if chunk.trim().is_empty() {
                continue;
            }
            if chunk.len() > MAX_RECORD_BYTES {
                return fail(first_line, RecordProblem::TooLarge { bytes: chunk.len(), limit: MAX_RECORD_BYTES });
            }
            records.push(parse_from(chunk, first_line)?);
        }
        if records.is_empty() {
            return fail(1, RecordProblem::Empty);
        }
        Ok(records)
    }
}

/// Parses one record whose first line is line `first_line` of the input.
fn parse_from(text: &str, first_line: usize) -> Result<Record, RecordError> {
    let mut lines = text.lines().enumerate().map(|(i, line)| (i + first_line, line.trim())).peekable();
    // The header: tag lines (and blank lines) up to the first line of moves.
    let mut tags = Tags { tags: Vec::new() };
    while let Some(&(number, line)) = lines.peek() {
        if line.is_empty() {
            lines.next();
            continue;
        }
        if !line.starts_with('[') {
            break;
        }
        lines.next();
        let Some((name, value)) = parse_tag(line) else {
            return fail(number, RecordProblem::MalformedTag { text: excerpt(line) });
        };
        if tags.tags.is_empty() && name != "Halma" {
            return fail(number, RecordProblem::NotARecord { text: excerpt(line) });
        }
        if !KNOWN_TAGS.contains(&name) && name != TERMINATION {
            return fail(number, RecordProblem::UnknownTag { name: excerpt(name) });
        }
        if tags.get(name).is_some() {
            return fail(number, RecordProblem::DuplicateTag { name: name.to_string() });
        }
        tags.tags.push((name, value, number));
    }
    if tags.tags.is_empty() {
        return match lines.peek() {
            Some(&(number, line)) => fail(number, RecordProblem::NotARecord { text: excerpt(line) }),
            None => fail(first_line, RecordProblem::Empty),
        };
    }

    let (version, line) = tags.require("Halma")?;
    if version != RECORD_VERSION.to_string() {
        return fail(line, RecordProblem::Version { text: excerpt(version) });
    }
    let (setup_text, line) = tags.require("Setup")?;
    let setup: Setup = setup_text.parse().map_err(|e: ParseSetupError| RecordError {
        line,
        problem: RecordProblem::UnknownSetup { text: e.text().to_string() },
    })?;
    if let Some((teams, line)) = tags.get("Teams") {
        if teams != teams_text(setup) {
            return fail(line, RecordProblem::Teams { text: excerpt(teams), setup });
        }
    }
    let seat_in_play = |text: &str, tag: &'static str, line: usize| -> Result<Seat, RecordError> {
        let seat: Seat = text
            .parse()
            .map_err(|_| RecordError { line, problem: RecordProblem::BadSeat { tag, text: excerpt(text) } })?;
        if !setup.has_seat(seat) {
            return fail(line, RecordProblem::SeatNotInPlay { seat, setup });
        }
        Ok(seat)
    };
    let (first_text, line) = tags.require("FirstSeat")?;
    let first = seat_in_play(first_text, "FirstSeat", line)?;
    let start = match tags.get("Start") {
        Some((hpn, line)) => {
            let start = parse_hpn(hpn).map_err(|e| RecordError { line, problem: RecordProblem::Start(e) })?;
            if start.setup() != setup || start.first_seat() != first {
                return fail(line, RecordProblem::StartMismatch);
            }
            start
        }
        None => Position::start(setup, first),
    };
    let mut players = BySeat::default();
    for seat in Seat::ALL {
        let name = &KNOWN_TAGS[5 + seat.index()];
        if let Some((text, line)) = tags.get(name) {
            seat_in_play(name, "a player tag", line)?;
            let player = text
                .parse()
                .map_err(|()| RecordError { line, problem: RecordProblem::BadPlayer { text: excerpt(text) } })?;
            players[seat] = Some(player);
        }
    }
    let date = match tags.get("Date") {
        Some((date, line)) if !valid_date(date) => return fail(line, RecordProblem::BadDate { text: excerpt(date) }),
        Some((date, _)) => Some(date.to_string()),
        None => None,
    };
    let (result, result_line) = tags.require("Result")?;
    let stated = parse_result(result)
        .filter(|outcome| match outcome {
            Outcome::Win(seats) => seats.seats().all(|s| setup.has_seat(s)),
            _ => true,
        })
        .ok_or_else(|| RecordError {
            line: result_line,
            problem: RecordProblem::BadResult { text: excerpt(result) },
        })?;
    let termination = tags.get(TERMINATION).map(|(text, _)| text.to_string());

    // The moves.
    let mut game = Game::from_position(start);
    let mut actions = 0usize;
    let mut comments = Vec::new();
    for (number, line) in lines {
        if line.starts_with('[') {
            return fail(number, RecordProblem::TagAfterMoves { text: excerpt(line) });
        }
        play_line(&mut game, line, number, &mut actions, &mut comments)?;
    }
    let actual = game.outcome();
    if actual != stated {
        return fail(
            result_line,
            RecordProblem::ResultMismatch { stated: result_text(stated), actual: result_text(actual) },
        );
    }
    Ok(Record { players, date, termination, game, comments })
}

/// Plays one line of moves: its tokens, and its comments `{ ... }` (kept, not played),
/// which may stand anywhere between tokens, with or without spaces around them.
fn play_line(
    game: &mut Game,
    line: &str,
    number: usize,
    actions: &mut usize,
    comments: &mut Vec<Comment>,
) -> Result<(), RecordError> {
    let mut rest = line;
    while let Some(open) = rest.find('{') {
        for token in rest[..open].split_whitespace() {
            play_token(game, token, number, actions)?;
        }
        let after = *actions;
        let from_brace = &rest[open..];
        let inside = &from_brace[1..];
        let Some(close) = inside.find('}') else {
            return fail(number, RecordProblem::UnterminatedComment { text: excerpt(from_brace), after });
        };
        // The spaces around the text (which the writer puts there) do not count.
        let raw = inside[..close].trim();
        if raw.len() > MAX_COMMENT_BYTES {
            return fail(number, RecordProblem::CommentTooLong { bytes: raw.len(), limit: MAX_COMMENT_BYTES, after });
        }
        // An empty comment says nothing: not kept, so not written back.
        let text = clean_comment(raw);
        if !text.is_empty() {
            comments.push(Comment { after, text });
        }
        rest = &inside[close + 1..];
    }
    for token in rest.split_whitespace() {
        play_token(game, token, number, actions)?;
    }
    Ok(())
}

/// Plays one token of the moves: a round number, a draw vote, a pass or a move.
fn play_token(game: &mut Game, token: &str, line: usize, actions: &mut usize) -> Result<(), RecordError> {
    if let Some(digits) = token.strip_suffix('.') {
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            let expected = round_of(game);
            if digits.len() > 9 || digits.parse::<u32>().ok() != Some(expected) {
                return fail(line, RecordProblem::MoveNumber { text: excerpt(token), expected });
            }
            return Ok(());
        }
    }
    let vote = match token {
        "offer" => Some(game.offer_draw().map(|_| ())),
        "accept" | "refuse" => {
            let awaiting = game.pending_offer().map_or(game.to_move(), |offer| offer.awaiting);
            Some(game.answer_draw(awaiting, token == "accept").map(|_| ()))
        }
        _ => None,
    };
    if let Some(result) = vote {
        return result
            .map_err(|error| RecordError { line, problem: RecordProblem::Vote { text: token.to_string(), error } });
    }
    if *actions >= MAX_ACTIONS {
        return fail(line, RecordProblem::TooManyActions { limit: MAX_ACTIONS });
    }
    *actions += 1;
    let action = *actions;
    let played = match parse_move(token) {
        Ok(MoveText::Pass) => game.pass(),
        Ok(MoveText::Route(squares)) => game.play_route(&squares).map(|_| ()),
        Err(error) => return fail(line, RecordProblem::MalformedMove { action, error }),
    };
    played.map_err(|error| RecordError {
        line,
        problem: RecordProblem::IllegalMove { text: excerpt(token), action, error },
    })
}

/// The comment before the first action of an analysed record, `analysis depth 4`: the
/// quality the verdicts after each action were found at.
pub fn analysis_header_comment(quality: Quality) -> String {
    format!("analysis depth {}", quality.depth)
}

/// One action's verdict as a comment, in words a reader can follow and
/// [`parse_verdict_comment`] reads back:
///
/// - `mistake, 7.0 steps lost, best n15-l13-j15, before +12.0, after +5.0` (a judged move;
///   values from the mover's side, `wins in 3` or `loses in 3` for a forced result);
/// - `only move, after -3.0`;
/// - `forced pass`.
pub fn verdict_comment(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Judged(Judgement { before, after, best, loss, class }) => {
            format!("{}, {loss} steps lost, best {best}, before {before}, after {after}", class.name())
        }
        Verdict::OnlyMove { after } => format!("only move, after {after}"),
        Verdict::ForcedPass => "forced pass".to_string(),
    }
}

/// The verdict a [`verdict_comment`] states, or `None` for any other comment. The best
/// move's route is read, not checked: [`Record::analysis`] checks it in its position.
pub fn parse_verdict_comment(text: &str) -> Option<Verdict> {
    if text == "forced pass" {
        return Some(Verdict::ForcedPass);
    }
    if let Some(after) = text.strip_prefix("only move, after ") {
        return Some(Verdict::OnlyMove { after: parse_eval(after)? });
    }
    let mut fields = text.split(", ");
    let class = fields.next().and_then(class_of_name)?;
    let loss = parse_steps(fields.next()?.strip_suffix(" steps lost")?)?;
    let best = match parse_move(fields.next()?.strip_prefix("best ")?).ok()? {
        MoveText::Route(squares) => Route::new(squares),
        MoveText::Pass => return None,
    };
    let before = parse_eval(fields.next()?.strip_prefix("before ")?)?;
    let after = parse_eval(fields.next()?.strip_prefix("after ")?)?;
    if fields.next().is_some() || loss < Steps::ZERO {
        return None;
    }
    Some(Verdict::Judged(Judgement { before, after, best, loss, class }))
}

fn class_of_name(name: &str) -> Option<Class> {
    [Class::Best, Class::Good, Class::Inaccuracy, Class::Mistake, Class::Blunder]
        .into_iter()
        .find(|class| class.name() == name)
}

/// Steps as `Steps`'s `Display` writes them: `7.5`, `-12.0`, `+3.0` (one decimal).
fn parse_steps(text: &str) -> Option<Steps> {
    let (sign, digits) = match text.strip_prefix('-') {
        Some(digits) => (-1, digits),
        None => (1, text.strip_prefix('+').unwrap_or(text)),
    };
    let (whole, tenth) = digits.split_once('.')?;
    let is_digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    if !is_digits(whole) || tenth.len() != 1 || !is_digits(tenth) || whole.len() > 9 {
        return None;
    }
    let tenths = whole.parse::<i32>().ok()?.checked_mul(10)?.checked_add(tenth.parse::<i32>().ok()?)?;
    Some(Steps(sign * tenths))
}

/// An evaluation as `Eval`'s `Display` writes it: `+12.0`, `0.0`, `wins in 3`, `loses in 3`.
fn parse_eval(text: &str) -> Option<Eval> {
    let plies = |digits: &str| digits.bytes().all(|b| b.is_ascii_digit()).then(|| digits.parse::<u32>().ok())?;
    if let Some(digits) = text.strip_prefix("wins in ") {
        return plies(digits).map(|plies| Eval::Wins { plies });
    }
    if let Some(digits) = text.strip_prefix("loses in ") {
        return plies(digits).map(|plies| Eval::Loses { plies });
    }
    parse_steps(text).map(Eval::Lead)
}

/// An analysis read back from a record's comments: its quality and every action's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedAnalysis {
    pub quality: Quality,
    /// One per action of the game, in order, with the verdict its comment states.
    pub actions: Vec<ActionAnalysis>,
}

impl Record {
    /// Writes `analysis` into the record as comments: [`analysis_header_comment`] before
    /// the first action and [`verdict_comment`] after each. Earlier analysis comments
    /// are replaced; other comments stay. The game does not change.
    pub fn set_analysis(&mut self, analysis: &GameAnalysis) {
        self.comments.retain(|comment| !is_analysis_comment(comment));
        self.comments.push(Comment::new(0, analysis_header_comment(analysis.quality)));
        for entry in &analysis.actions {
            self.comments.push(Comment::new(entry.index + 1, verdict_comment(&entry.verdict)));
        }
        // Stable: each place keeps its comments in the order they had.
        self.comments.sort_by_key(|comment| comment.after);
    }

    /// Whether the comments hold any part of an analysis (its header, even a broken one, or
    /// a verdict): when [`Record::analysis`] then finds none, the analysis is damaged and
    /// the reader should hear of it.
    pub fn claims_analysis(&self) -> bool {
        self.comments.iter().any(|comment| {
            is_analysis_comment(comment) || (comment.after == 0 && comment.text.starts_with("analysis depth"))
        })
    }

    /// The analysis the comments state, when they hold a whole one: the header comment
    /// and, after every action, a verdict whose best move is legal where it was played.
    /// `None` for a record without one (or with a part of one).
    pub fn analysis(&self) -> Option<RecordedAnalysis> {
        let history = self.game.history();
        let mut quality = None;
        let mut verdicts: Vec<Option<Verdict>> = vec![None; history.len()];
        for comment in &self.comments {
            if comment.after == 0 {
                quality = quality.or_else(|| parse_analysis_header(&comment.text));
            } else if let Some(slot) = verdicts.get_mut(comment.after - 1) {
                if slot.is_none() {
                    *slot = parse_verdict_comment(&comment.text);
                }
            }
        }
        let quality = quality?;
        let mut actions = Vec::with_capacity(history.len());
        for (index, (action, verdict)) in history.iter().zip(verdicts).enumerate() {
            let verdict = verdict?;
            if let Verdict::Judged(judgement) = &verdict {
                self.game.position_before(index)?.check_route(judgement.best.squares()).ok()?;
            }
            actions.push(ActionAnalysis { index, seat: self.game.actor(index), action: action.clone(), verdict });
        }
        Some(RecordedAnalysis { quality, actions })
    }
}

fn parse_analysis_header(text: &str) -> Option<Quality> {
    let depth = text.strip_prefix("analysis depth ")?;
    let depth: u32 = depth.bytes().all(|b| b.is_ascii_digit()).then(|| depth.parse().ok())??;
    (1..=Quality::MAX_DEPTH).contains(&depth).then_some(Quality { depth })
}

fn is_analysis_comment(comment: &Comment) -> bool {
    if comment.after == 0 {
        parse_analysis_header(&comment.text).is_some()
    } else {
        parse_verdict_comment(&comment.text).is_some()
    }
}
