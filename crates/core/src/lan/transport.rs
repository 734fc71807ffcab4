//! The connection's plumbing, below the join and the game: lines over TCP with their tags,
//! deadlines and keep-alive, and the host's slots for connections still waiting for their
//! hello. One way of reading and of failing, shared by the handshake and the sync.

use super::secure::{LineKeys, TAG_CHARS};
use super::wire::{ByeReason, LineError, LineReader, ReadLine, Wire, WireError};
use std::io::{self, Write};
use std::net::{IpAddr, Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long one read waits: the loop's tick.
pub(super) const TICK: Duration = Duration::from_millis(25);
/// A ping goes out after this much quiet.
pub const PING_EVERY: Duration = Duration::from_secs(1);
/// The connection is taken for lost after this much silence.
pub const SILENCE_LIMIT: Duration = Duration::from_secs(5);
/// How long connecting may take.
pub(super) const CONNECT_LIMIT: Duration = Duration::from_secs(3);
/// Connections waiting for their hello at once; a new one evicts the oldest of the address
/// with the most (`bye busy`).
pub const MAX_HANDSHAKES: usize = 8;
/// Connections waiting for their hello from one address; a new one evicts that address's
/// oldest.
pub const MAX_HANDSHAKES_PER_ADDRESS: usize = 2;

/// A connection waiting for its hello, which the host may evict.
struct Pending {
    id: u64,
    ip: IpAddr,
    since: Instant,
    stream: TcpStream,
}

/// The host's connections still waiting for their hello. They are few per address and in
/// all, and a new one evicts an old one, so silent strangers cannot hold the door shut.
#[derive(Default)]
pub(super) struct Slots {
    pending: Vec<Pending>,
    next_id: u64,
}

impl Slots {
    /// Makes room for a connection from `ip`: evicts the oldest waiting connection of
    /// `ip` when it has [`MAX_HANDSHAKES_PER_ADDRESS`], else the oldest of the address
    /// with the most when [`MAX_HANDSHAKES`] wait. Returns the new connection's number.
    pub(super) fn admit(&mut self, ip: IpAddr, stream: TcpStream, now: Instant) -> u64 {
        let count = |ip: IpAddr, pending: &[Pending]| pending.iter().filter(|p| p.ip == ip).count();
        let victim_ip = if count(ip, &self.pending) >= MAX_HANDSHAKES_PER_ADDRESS {
            Some(ip)
        } else if self.pending.len() >= MAX_HANDSHAKES {
            self.pending.iter().map(|p| p.ip).max_by_key(|&other| (count(other, &self.pending), other == ip))
        } else {
            None
        };
        if let Some(victim_ip) = victim_ip {
            let oldest = (self.pending.iter().enumerate())
                .filter(|(_, p)| p.ip == victim_ip)
                .min_by_key(|(_, p)| p.since)
                .map(|(index, _)| index);
            if let Some(index) = oldest {
                let mut evicted = self.pending.remove(index);
                let bye = Wire::Bye { reason: ByeReason::Busy, text: "another connection took the place".into() };
                let _ = send_line(&mut evicted.stream, &bye);
                let _ = evicted.stream.shutdown(Shutdown::Both);
            }
        }
        self.next_id += 1;
        self.pending.push(Pending { id: self.next_id, ip, since: now, stream });
        self.next_id
    }

    pub(super) fn leave(&mut self, id: u64) {
        self.pending.retain(|p| p.id != id);
    }
}

/// A joined connection: every line both ways tagged, and kept alive by pings.
pub(super) struct Conn {
    pub(super) stream: TcpStream,
    reader: LineReader,
    /// The tags of the lines both ways.
    keys: LineKeys,
    heard: Instant,
    pinged: Instant,
    pings: u64,
}

impl Conn {
    pub(super) fn new(stream: TcpStream, reader: LineReader, keys: LineKeys) -> Conn {
        let now = Instant::now();
        Conn { stream, reader, keys, heard: now, pinged: now, pings: 0 }
    }

    /// Sends messages, each line with its tag, in one write.
    pub(super) fn write(&mut self, messages: &[Wire]) -> io::Result<()> {
        let mut out = String::new();
        for message in messages {
            out.push_str(&self.keys.seal(&message.text()));
        }
        self.stream.write_all(out.as_bytes())
    }

    /// One tick of a live connection: the silence limit, a ping when quiet, and a line
    /// read if one came. Pings are answered here, so only the game's messages come out.
    pub(super) fn poll(&mut self) -> Result<Option<Wire>, Fail> {
        let now = Instant::now();
        if now.duration_since(self.heard) > SILENCE_LIMIT {
            return Err(Fail::Bye(ByeReason::Timeout, "nothing heard".into()));
        }
        if now.duration_since(self.pinged) > PING_EVERY {
            self.pings += 1;
            self.pinged = now;
            let token = format!("p{}", self.pings);
            self.write(&[Wire::Ping(token)])?;
        }
        match self.reader.next_line(&mut self.stream) {
            Ok(ReadLine::Line(line)) => {
                self.heard = Instant::now();
                match open_line(&mut self.keys, &line)? {
                    Wire::Ping(token) => {
                        self.write(&[Wire::Pong(token)])?;
                        Ok(None)
                    }
                    Wire::Pong(_) => Ok(None),
                    message => Ok(Some(message)),
                }
            }
            Ok(ReadLine::Nothing) => Ok(None),
            Ok(ReadLine::Closed) => Err(Fail::Lost("the connection closed".into())),
            Err(error) => Err(line_failure(error)),
        }
    }

    /// Reads the next message before `deadline` (the sync's); pings and pongs are answered
    /// and passed over.
    pub(super) fn read(&mut self, deadline: Instant, stop: &AtomicBool) -> Result<Wire, Fail> {
        loop {
            let message = read_message(&mut self.stream, &mut self.reader, Some(&mut self.keys), deadline, stop)?;
            self.heard = Instant::now();
            match message {
                Wire::Ping(token) => self.write(&[Wire::Pong(token)])?,
                Wire::Pong(_) => {}
                message => return Ok(message),
            }
        }
    }
}

/// Why the connection must go (the engine sends the `bye` when it is this side's call).
pub(super) enum Fail {
    Bye(ByeReason, String),
    PeerBye(ByeReason, String),
    Lost(String),
    Stopped,
}

impl From<io::Error> for Fail {
    fn from(error: io::Error) -> Fail {
        Fail::Lost(error.to_string())
    }
}

/// Sends one untagged line: the join's, and the `bye` to a connection not joined.
pub(super) fn send_line(stream: &mut TcpStream, message: &Wire) -> io::Result<()> {
    stream.write_all(message.to_line().as_bytes())
}

/// Reads the next message before `deadline` (or `stop`); with `keys`, a line after the
/// join, whose tag is checked first.
pub(super) fn read_message(
    stream: &mut TcpStream,
    reader: &mut LineReader,
    mut keys: Option<&mut LineKeys>,
    deadline: Instant,
    stop: &AtomicBool,
) -> Result<Wire, Fail> {
    loop {
        if stop.load(Ordering::SeqCst) {
            return Err(Fail::Stopped);
        }
        match reader.next_line(stream) {
            Ok(ReadLine::Line(line)) => {
                return match keys.as_deref_mut() {
                    Some(keys) => open_line(keys, &line),
                    None => parse_line(&line),
                }
            }
            Ok(ReadLine::Closed) => return Err(Fail::Lost("the connection closed".into())),
            Ok(ReadLine::Nothing) if Instant::now() >= deadline => {
                return Err(Fail::Bye(ByeReason::Timeout, "no answer in time".into()))
            }
            Ok(ReadLine::Nothing) => {}
            Err(error) => return Err(line_failure(error)),
        }
    }
}

/// A line after the join: its tag checked, then its message read. A line that fails the
/// check is named in the `bye forged` (its number and its first words).
fn open_line(keys: &mut LineKeys, line: &str) -> Result<Wire, Fail> {
    match keys.open(line) {
        Ok(message) => parse_line(message),
        Err(forged) => {
            // The message after a tag-like start, or else the line's start.
            let tagged = line.get(..TAG_CHARS).is_some_and(|tag| tag.bytes().all(|b| b.is_ascii_hexdigit()));
            let message = if tagged { line.get(TAG_CHARS + 1..).unwrap_or("") } else { line };
            let shown: String = message.chars().filter(|c| !c.is_control()).take(40).collect();
            Err(Fail::Bye(ByeReason::Forged, format!("line {} '{shown}' fails its check", forged.index)))
        }
    }
}

fn parse_line(line: &str) -> Result<Wire, Fail> {
    match Wire::parse(line) {
        Ok(Wire::Bye { reason, text }) => Err(Fail::PeerBye(reason, text)),
        Ok(message) => Ok(message),
        Err(WireError::TooLong) => Err(Fail::Bye(ByeReason::TooLong, WireError::TooLong.to_string())),
        Err(error) => Err(Fail::Bye(ByeReason::Malformed, error.to_string())),
    }
}

fn line_failure(error: LineError) -> Fail {
    match error {
        LineError::Wire(WireError::TooLong) => Fail::Bye(ByeReason::TooLong, WireError::TooLong.to_string()),
        LineError::Wire(error) => Fail::Bye(ByeReason::Malformed, error.to_string()),
        LineError::Io(why) => Fail::Lost(why),
    }
}

/// A message out of place: `bye malformed`, naming only its verb.
pub(super) fn unexpected(message: &Wire) -> Fail {
    let line = message.to_line();
    let verb = line.split_whitespace().next().unwrap_or("");
    Fail::Bye(ByeReason::Malformed, format!("unexpected '{verb}'"))
}
