//! The message format: the text a game travels as, so that the two sides agree on it byte
//! for byte. [`OutgoingMessage`] writes it, [`Message`]'s `FromStr` reads it back
//! ([`compose`] and [`parse_message`] are the same as functions).
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

use super::{all_seats, in_play, seats_text, turn_votes, GameId};
use halma_record::{Record, RecordError, MAX_RECORD_BYTES};
use halma_rules::{excerpt, Game, Seat, SeatSet};
use std::fmt;
use std::str::FromStr;

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

/// A message to send, written by its `Display`: `header` (one line, cleaned), the frame
/// line `halma-by-message 1 game=<id> from=<sender's seats> turn=<seat to act or ->`, the
/// record (its players, date and comments kept), and `end <id>`. It borrows, so writing
/// one never copies the record.
#[derive(Clone, Copy, Debug)]
pub struct OutgoingMessage<'a> {
    /// The line for people above the frame (the app's translated [`english_header`]).
    pub header: &'a str,
    pub id: GameId,
    /// The sender's seats.
    pub from: SeatSet,
    pub record: &'a Record,
}

impl fmt::Display for OutgoingMessage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let OutgoingMessage { header, id, from, record } = *self;
        let game = &record.game;
        let turn = if game.is_over() {
            "-".to_string()
        } else {
            game.pending_offer().map_or(game.to_move(), |offer| offer.awaiting).to_string()
        };
        let header = clean_header(header);
        if !header.is_empty() {
            writeln!(f, "{header}")?;
        }
        writeln!(f, "{FRAME_WORD} {MESSAGE_VERSION} game={id} from={} turn={turn}", seats_text(from))?;
        f.write_str(&record.to_text())?;
        writeln!(f, "end {id}")
    }
}

/// The text of a message (see [`OutgoingMessage`]), kept for its callers.
pub fn compose(header: &str, id: GameId, from: SeatSet, record: &Record) -> String {
    OutgoingMessage { header, id, from, record }.to_string()
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
impl FromStr for Message {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Message, ParseError> {
        if text.len() > MAX_MESSAGE_BYTES {
            return Err(ParseError::TooLarge { bytes: text.len(), limit: MAX_MESSAGE_BYTES });
        }
        let text = unmangle(text);
        let lines: Vec<&str> = text.split('\n').map(clean_line).collect();
        let starts: Vec<usize> = (lines.iter().enumerate())
            .filter(|(_, line)| {
                line.split_whitespace().next().is_some_and(|word| word.eq_ignore_ascii_case(FRAME_WORD))
            })
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
}

/// Reads a message out of a received text, as `text.parse::<Message>()` does; kept for its callers.
pub fn parse_message(text: &str) -> Result<Message, ParseError> {
    text.parse()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::correspondence::fixtures::mine;

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
    fn the_types_write_and_read_as_the_functions_do() {
        let game = mine(&["c3-d4"]);
        let text = OutgoingMessage { header: "hi", id: game.id, from: game.local, record: &game.record }.to_string();
        assert_eq!(text, compose("hi", game.id, game.local, &game.record));
        assert_eq!(text.parse::<Message>(), parse_message(&text));
        assert_eq!("hello there".parse::<Message>(), Err(ParseError::NotAMessage));
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
}
