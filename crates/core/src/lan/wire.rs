//! The wire protocol's messages: one line each, parsed and written (docs/NETWORK.md,
//! "The wire protocol"), and a reader of bounded lines.

use crate::correspondence::GameId;
use halma_rules::{excerpt, parse_move, Action, MoveText, Route, Seat, SeatSet};
use std::fmt;
use std::io::{self, Read};

/// The protocol version this program speaks: 2 since the join is a SPAKE2 exchange and
/// the lines after it are authenticated (#49).
pub const PROTOCOL_VERSION: u32 = 2;
/// The word of the host's first line.
pub const GREETING_WORD: &str = "halma-lan";
/// The longest line, in bytes, its LF included. A longer one ends the connection.
pub const MAX_LINE_BYTES: usize = 8192;
pub use super::secure::{PAKE_CHARS, TAG_CHARS};
/// The length of a sync digest: 16 lowercase hex digits of a SHA-256.
pub const DIGEST_CHARS: usize = 16;
/// The longest ping token.
pub const MAX_TOKEN_CHARS: usize = 16;

/// Why a connection ends: the word of a `bye` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ByeReason {
    /// The player left (the game is not over for the other side: they may wait or leave).
    Done,
    /// The join code's proof is wrong.
    WrongCode,
    /// Too many wrong codes from the sender's address: it must wait before trying again.
    TooManyAttempts,
    /// The guest names a game the host is not hosting.
    OtherGame,
    /// No common protocol version.
    Version,
    /// A line that is not a message, or a message out of place.
    Malformed,
    /// A line over [`MAX_LINE_BYTES`] (or a record over its limit).
    TooLong,
    /// A message already received (an old move, vote or answer).
    Replayed,
    /// A move the rules refuse, or a vote that cannot be given now.
    Illegal,
    /// A move or vote for a seat the sender does not play.
    WrongSeat,
    /// The two sides' games start differently, or the agreed history differs.
    OutOfSync,
    /// Nothing heard for too long.
    Timeout,
    /// The host is busy with other joins (this one had not proved the code yet).
    Busy,
    /// A line after the join whose tag does not check out: injected, altered, replayed or
    /// reordered on the way.
    Forged,
    /// Another device joined with the code and took this guest's place.
    Replaced,
}

impl ByeReason {
    pub const ALL: [ByeReason; 15] = [
        ByeReason::Done,
        ByeReason::WrongCode,
        ByeReason::TooManyAttempts,
        ByeReason::OtherGame,
        ByeReason::Version,
        ByeReason::Malformed,
        ByeReason::TooLong,
        ByeReason::Replayed,
        ByeReason::Illegal,
        ByeReason::WrongSeat,
        ByeReason::OutOfSync,
        ByeReason::Timeout,
        ByeReason::Busy,
        ByeReason::Forged,
        ByeReason::Replaced,
    ];

    pub fn word(self) -> &'static str {
        match self {
            ByeReason::Done => "done",
            ByeReason::WrongCode => "wrong-code",
            ByeReason::TooManyAttempts => "too-many-attempts",
            ByeReason::OtherGame => "other-game",
            ByeReason::Version => "version",
            ByeReason::Malformed => "malformed",
            ByeReason::TooLong => "too-long",
            ByeReason::Replayed => "replayed",
            ByeReason::Illegal => "illegal",
            ByeReason::WrongSeat => "wrong-seat",
            ByeReason::OutOfSync => "out-of-sync",
            ByeReason::Timeout => "timeout",
            ByeReason::Busy => "busy",
            ByeReason::Forged => "forged",
            ByeReason::Replaced => "replaced",
        }
    }

    pub fn from_word(word: &str) -> Option<ByeReason> {
        ByeReason::ALL.into_iter().find(|reason| reason.word() == word)
    }

    /// Whether a guest should stop trying after it (the code, the game or the version
    /// will not change by trying again).
    pub fn is_final(self) -> bool {
        matches!(
            self,
            ByeReason::Done
                | ByeReason::WrongCode
                | ByeReason::TooManyAttempts
                | ByeReason::OtherGame
                | ByeReason::Version
                | ByeReason::OutOfSync
                | ByeReason::Replaced
        )
    }
}

impl fmt::Display for ByeReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// One message of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wire {
    /// `halma-lan <version> <SPAKE2 message>`: the host's first line. With another
    /// version the rest is not read (`message` empty).
    Greeting {
        version: u32,
        message: String,
    },
    /// `hello <version> <game-id or -> <SPAKE2 message> <confirmation>`: the guest's
    /// answer. With another version the rest is not read.
    Hello {
        version: u32,
        game: Option<GameId>,
        message: String,
        confirm: String,
    },
    /// `welcome <game-id> <confirmation> <guest seats>`: the host accepts the guest.
    Welcome {
        game: GameId,
        confirm: String,
        guest_seats: SeatSet,
    },
    /// `record <text>`: one line of the sender's game record.
    Record(String),
    /// `record-end <lines>`: the record is whole (0 lines: the sender has no game).
    RecordEnd(usize),
    /// `synced <actions> <digest>`: the agreed history's length and digest.
    Synced {
        actions: usize,
        digest: String,
    },
    /// `move <index> <action>`: the action played with `index` actions before it.
    Move {
        index: usize,
        action: Action,
    },
    /// `offer <index>`: the seat to move offers a draw.
    Offer {
        index: usize,
    },
    /// `vote <index> <votes so far> accept|refuse`: the awaited seat's answer.
    Vote {
        index: usize,
        given: usize,
        accept: bool,
    },
    /// `undo <index> <to>`: asks to take back actions until `to` remain.
    Undo {
        index: usize,
        to: usize,
    },
    /// `undo-answer <index> <to> yes|no`.
    UndoAnswer {
        index: usize,
        to: usize,
        accept: bool,
    },
    Ping(String),
    Pong(String),
    /// `bye <reason> [text]`.
    Bye {
        reason: ByeReason,
        text: String,
    },
}

/// Why a line is not a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    /// The line is over [`MAX_LINE_BYTES`].
    TooLong,
    /// Not UTF-8.
    NotText,
    /// Not a message of the protocol; the text says what.
    Malformed(String),
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::TooLong => write!(f, "a line over {MAX_LINE_BYTES} bytes"),
            WireError::NotText => f.write_str("a line that is not UTF-8 text"),
            WireError::Malformed(why) => write!(f, "malformed message: {why}"),
        }
    }
}

fn is_hex(text: &str, chars: usize) -> bool {
    text.len() == chars && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn number(word: &str) -> Result<usize, WireError> {
    if word.is_empty() || word.len() > 9 || !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(WireError::Malformed(format!("'{}' is not a number", excerpt(word))));
    }
    word.parse().map_err(|_| WireError::Malformed(format!("'{}' is not a number", excerpt(word))))
}

/// Seat letters, each once: `C`, `BD`.
pub fn parse_seats(word: &str) -> Option<SeatSet> {
    let mut seats = SeatSet::EMPTY;
    for letter in word.chars() {
        let seat = Seat::from_letter(letter)?;
        if seats.contains(seat) {
            return None;
        }
        seats.insert(seat);
    }
    (!seats.is_empty()).then_some(seats)
}

pub fn seats_word(seats: SeatSet) -> String {
    seats.seats().map(Seat::letter).collect()
}

fn parse_action(word: &str) -> Result<Action, WireError> {
    match parse_move(word) {
        Ok(MoveText::Pass) => Ok(Action::Pass),
        Ok(MoveText::Route(squares)) => Ok(Action::Move(Route::new(squares))),
        Err(error) => Err(WireError::Malformed(format!("bad action: {error}"))),
    }
}

impl Wire {
    /// Reads one line (without its LF; a CR before it is allowed).
    pub fn parse(line: &str) -> Result<Wire, WireError> {
        if line.len() >= MAX_LINE_BYTES {
            return Err(WireError::TooLong);
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        let malformed = |why: &str| WireError::Malformed(why.to_string());
        if let Some(text) = line.strip_prefix("record ") {
            if text.contains(['\r', '\n']) {
                return Err(malformed("a line break in a record line"));
            }
            return Ok(Wire::Record(text.to_string()));
        }
        if line == "record" {
            return Ok(Wire::Record(String::new()));
        }
        let (verb, rest) = line.split_once(' ').unwrap_or((line, ""));
        if verb == "bye" {
            let (reason, text) = rest.split_once(' ').unwrap_or((rest, ""));
            let reason = ByeReason::from_word(reason).ok_or_else(|| malformed("unknown bye reason"))?;
            if text.chars().any(char::is_control) {
                return Err(malformed("a control character in a bye"));
            }
            return Ok(Wire::Bye { reason, text: text.to_string() });
        }
        let words: Vec<&str> = rest.split(' ').filter(|word| !word.is_empty()).collect();
        let count = |n: usize| {
            if words.len() == n {
                Ok(())
            } else {
                Err(WireError::Malformed(format!("'{verb}' takes {n} words, not {}", words.len())))
            }
        };
        let version = |word: &str| -> Result<u32, WireError> {
            let version = number(word)?;
            u32::try_from(version).map_err(|_| malformed("bad version"))
        };
        let pake = |word: &str| {
            if is_hex(word, PAKE_CHARS) {
                Ok(word.to_string())
            } else {
                Err(malformed("bad SPAKE2 message"))
            }
        };
        // Another version's greeting or hello is told apart before its words are read.
        let other_version = words.first().and_then(|word| version(word).ok()).filter(|v| *v != PROTOCOL_VERSION);
        let yes_no = |word: &str, yes: &str, no: &str| match word {
            w if w == yes => Ok(true),
            w if w == no => Ok(false),
            _ => Err(WireError::Malformed(format!("expected {yes} or {no}"))),
        };
        let token = |word: &str| {
            if !word.is_empty() && word.len() <= MAX_TOKEN_CHARS && word.bytes().all(|b| b.is_ascii_alphanumeric()) {
                Ok(word.to_string())
            } else {
                Err(malformed("bad token"))
            }
        };
        match verb {
            GREETING_WORD if other_version.is_some() => {
                Ok(Wire::Greeting { version: other_version.unwrap_or_default(), message: String::new() })
            }
            "hello" if other_version.is_some() => Ok(Wire::Hello {
                version: other_version.unwrap_or_default(),
                game: None,
                message: String::new(),
                confirm: String::new(),
            }),
            GREETING_WORD => {
                count(2)?;
                Ok(Wire::Greeting { version: version(words[0])?, message: pake(words[1])? })
            }
            "hello" => {
                count(4)?;
                let game = match words[1] {
                    "-" => None,
                    id => Some(GameId::parse(id).ok_or_else(|| malformed("bad game id"))?),
                };
                if !is_hex(words[3], TAG_CHARS) {
                    return Err(malformed("bad confirmation"));
                }
                Ok(Wire::Hello {
                    version: version(words[0])?,
                    game,
                    message: pake(words[2])?,
                    confirm: words[3].into(),
                })
            }
            "welcome" => {
                count(3)?;
                let game = GameId::parse(words[0]).ok_or_else(|| malformed("bad game id"))?;
                if !is_hex(words[1], TAG_CHARS) {
                    return Err(malformed("bad confirmation"));
                }
                let guest_seats = parse_seats(words[2]).ok_or_else(|| malformed("bad seats"))?;
                Ok(Wire::Welcome { game, confirm: words[1].into(), guest_seats })
            }
            "record-end" => {
                count(1)?;
                Ok(Wire::RecordEnd(number(words[0])?))
            }
            "synced" => {
                count(2)?;
                if !is_hex(words[1], DIGEST_CHARS) {
                    return Err(malformed("bad digest"));
                }
                Ok(Wire::Synced { actions: number(words[0])?, digest: words[1].into() })
            }
            "move" => {
                count(2)?;
                Ok(Wire::Move { index: number(words[0])?, action: parse_action(words[1])? })
            }
            "offer" => {
                count(1)?;
                Ok(Wire::Offer { index: number(words[0])? })
            }
            "vote" => {
                count(3)?;
                Ok(Wire::Vote {
                    index: number(words[0])?,
                    given: number(words[1])?,
                    accept: yes_no(words[2], "accept", "refuse")?,
                })
            }
            "undo" => {
                count(2)?;
                Ok(Wire::Undo { index: number(words[0])?, to: number(words[1])? })
            }
            "undo-answer" => {
                count(3)?;
                Ok(Wire::UndoAnswer {
                    index: number(words[0])?,
                    to: number(words[1])?,
                    accept: yes_no(words[2], "yes", "no")?,
                })
            }
            "ping" => {
                count(1)?;
                Ok(Wire::Ping(token(words[0])?))
            }
            "pong" => {
                count(1)?;
                Ok(Wire::Pong(token(words[0])?))
            }
            _ => Err(WireError::Malformed(format!("unknown message '{}'", excerpt(verb)))),
        }
    }

    /// The message as a line, with its LF.
    pub fn to_line(&self) -> String {
        let mut line = self.text();
        line.push('\n');
        line
    }

    /// The message's words, without the LF (what a line's tag is made over).
    pub fn text(&self) -> String {
        match self {
            Wire::Greeting { version, message } => format!("{GREETING_WORD} {version} {message}"),
            Wire::Hello { version, game, message, confirm } => {
                format!("{} {confirm}", hello_start(*version, *game, message))
            }
            Wire::Welcome { game, confirm, guest_seats } => {
                format!("welcome {game} {confirm} {}", seats_word(*guest_seats))
            }
            Wire::Record(text) => format!("record {text}"),
            Wire::RecordEnd(lines) => format!("record-end {lines}"),
            Wire::Synced { actions, digest } => format!("synced {actions} {digest}"),
            Wire::Move { index, action } => format!("move {index} {action}"),
            Wire::Offer { index } => format!("offer {index}"),
            Wire::Vote { index, given, accept } => {
                format!("vote {index} {given} {}", if *accept { "accept" } else { "refuse" })
            }
            Wire::Undo { index, to } => format!("undo {index} {to}"),
            Wire::UndoAnswer { index, to, accept } => {
                format!("undo-answer {index} {to} {}", if *accept { "yes" } else { "no" })
            }
            Wire::Ping(token) => format!("ping {token}"),
            Wire::Pong(token) => format!("pong {token}"),
            Wire::Bye { reason, text } if text.is_empty() => format!("bye {reason}"),
            Wire::Bye { reason, text } => format!("bye {reason} {text}"),
        }
    }
}

/// The words of a hello before its confirmation, which the confirmation is made over:
/// `hello 2 <game or -> <guest's SPAKE2 message>`.
pub fn hello_start(version: u32, game: Option<GameId>, message: &str) -> String {
    let game = game.map_or("-".to_string(), |id| id.to_string());
    format!("hello {version} {game} {message}")
}

/// Reads lines of at most [`MAX_LINE_BYTES`] from a stream with a read timeout: a line
/// split over several reads is kept until its end comes.
#[derive(Default)]
pub struct LineReader {
    buffer: Vec<u8>,
}

/// What [`LineReader::next_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadLine {
    Line(String),
    /// Nothing whole yet (the read timed out).
    Nothing,
    /// The other side closed the connection.
    Closed,
}

impl LineReader {
    pub fn new() -> LineReader {
        LineReader::default()
    }

    /// The next whole line (without its LF), reading at most once from `stream`.
    pub fn next_line(&mut self, stream: &mut impl Read) -> Result<ReadLine, LineError> {
        if let Some(line) = self.take_line()? {
            return Ok(ReadLine::Line(line));
        }
        let mut chunk = [0u8; 4096];
        match stream.read(&mut chunk) {
            Ok(0) => Ok(ReadLine::Closed),
            Ok(n) => {
                self.buffer.extend_from_slice(&chunk[..n]);
                Ok(self.take_line()?.map_or(ReadLine::Nothing, ReadLine::Line))
            }
            Err(error)
                if matches!(
                    error.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
                ) =>
            {
                Ok(ReadLine::Nothing)
            }
            Err(error) => Err(LineError::Io(error.to_string())),
        }
    }

    fn take_line(&mut self) -> Result<Option<String>, LineError> {
        match self.buffer.iter().position(|&b| b == b'\n') {
            Some(end) if end + 1 > MAX_LINE_BYTES => Err(LineError::Wire(WireError::TooLong)),
            Some(end) => {
                let line: Vec<u8> = self.buffer.drain(..=end).take(end).collect();
                String::from_utf8(line).map(Some).map_err(|_| LineError::Wire(WireError::NotText))
            }
            None if self.buffer.len() >= MAX_LINE_BYTES => Err(LineError::Wire(WireError::TooLong)),
            None => Ok(None),
        }
    }
}

/// Why reading a line failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    Wire(WireError),
    Io(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip() {
        let id = GameId::parse("7KQ2M4XA");
        let messages = [
            Wire::Greeting { version: 2, message: "42".repeat(33) },
            Wire::Hello { version: 2, game: id, message: "41".repeat(33), confirm: "a".repeat(32) },
            Wire::Hello { version: 2, game: None, message: "4a".repeat(33), confirm: "b".repeat(32) },
            Wire::Greeting { version: 1, message: String::new() },
            Wire::Record("[Halma \"1\"]".into()),
            Wire::Record(String::new()),
            Wire::RecordEnd(7),
            Wire::Synced { actions: 3, digest: "0123456789abcdef".into() },
            Wire::Move { index: 4, action: Action::Pass },
            Wire::Offer { index: 2 },
            Wire::Vote { index: 2, given: 1, accept: false },
            Wire::Undo { index: 5, to: 3 },
            Wire::UndoAnswer { index: 5, to: 3, accept: true },
            Wire::Ping("p1".into()),
            Wire::Pong("p1".into()),
            Wire::Bye { reason: ByeReason::WrongCode, text: "try again".into() },
            Wire::Bye { reason: ByeReason::Done, text: String::new() },
        ];
        for message in messages {
            let line = message.to_line();
            assert_eq!(Wire::parse(line.trim_end_matches('\n')), Ok(message), "{line}");
        }
        if let Some(id) = id {
            let welcome = Wire::Welcome { game: id, confirm: "c".repeat(32), guest_seats: SeatSet::single(Seat::C) };
            assert_eq!(welcome.to_line(), format!("welcome 7KQ2M4XA {} C\n", "c".repeat(32)));
            assert_eq!(Wire::parse(welcome.to_line().trim_end()), Ok(welcome));
        }
        // An older guest's hello is read as far as its version, to be told `bye version`.
        assert_eq!(
            Wire::parse("hello 1 - 0123456789abcdef 0123456789abcdef0123456789abcdef"),
            Ok(Wire::Hello { version: 1, game: None, message: String::new(), confirm: String::new() })
        );
        assert_eq!(
            Wire::parse("move 0 c3-d4\r").map(|m| m.to_line()),
            Ok("move 0 c3-d4\n".to_string()),
            "a CR before the LF is allowed"
        );
    }

    #[test]
    fn bad_lines_are_refused() {
        for line in
            ["", "move", "move x c3-d4", "move 1 c3-z9", "vote 1 1 maybe", "bye nope", "hello 2 - 12 34", "ping ☃"]
        {
            assert!(matches!(Wire::parse(line), Err(WireError::Malformed(_))), "{line}");
        }
        assert_eq!(Wire::parse(&"x".repeat(MAX_LINE_BYTES)), Err(WireError::TooLong));
    }

    #[test]
    fn the_reader_bounds_lines() {
        let mut reader = LineReader::new();
        let mut input: &[u8] = b"ping a\npo";
        assert_eq!(reader.next_line(&mut input), Ok(ReadLine::Line("ping a".into())));
        assert_eq!(reader.next_line(&mut input), Ok(ReadLine::Closed), "the input ended in a line");
        let mut more: &[u8] = b"ng b\n";
        assert_eq!(reader.next_line(&mut more), Ok(ReadLine::Line("pong b".into())));
        assert_eq!(reader.next_line(&mut more), Ok(ReadLine::Closed));
        let long = vec![b'x'; MAX_LINE_BYTES + 10];
        let mut reader = LineReader::new();
        let mut input: &[u8] = &long;
        let mut result = reader.next_line(&mut input);
        while result == Ok(ReadLine::Nothing) {
            result = reader.next_line(&mut input);
        }
        assert_eq!(result, Err(LineError::Wire(WireError::TooLong)));
    }
}
