//! The join, both sides of it: the host's door (its code, the wrong codes per address, a
//! check of each new connection on its own thread) and the guest's greeting, hello and
//! welcome, by SPAKE2 over the code (`secure`), up to a connection whose lines are keyed.

use super::secure::{tag_matches, LineKeys, Pake, SessionKey, GUEST_CONFIRM_LABEL, HOST_CONFIRM_LABEL};
use super::terms::{HostConfig, JoinConfig};
use super::transport::{read_message, send_line, unexpected, Fail, Slots, CONNECT_LIMIT, TICK};
use super::wire::{hello_start, seats_word, ByeReason, LineReader, Wire, PROTOCOL_VERSION};
use super::JoinCode;
use crate::correspondence::GameId;
use halma_rules::SeatSet;
use std::collections::HashMap;
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long the records' exchange after the join may take, and a guest's whole join.
pub const HANDSHAKE_LIMIT: Duration = Duration::from_secs(5);
/// How long a host waits for a new connection's hello: a silent one is dropped then.
pub const HELLO_LIMIT: Duration = Duration::from_secs(3);
/// New connections taken per turn of the link's loop (a flood cannot hold it there).
const MAX_ACCEPTS_PER_TICK: usize = 16;
/// Wrong codes an address may try without waiting.
pub const FREE_WRONG_CODES: u32 = 3;
/// The wait after each further wrong code: doubling from the first to the last.
pub const WRONG_CODE_WAIT_FIRST: Duration = Duration::from_secs(1);
pub const WRONG_CODE_WAIT_LAST: Duration = Duration::from_secs(60);
/// An address's wrong codes are forgotten after this long without one.
pub const WRONG_CODES_FORGOTTEN: Duration = Duration::from_secs(600);
/// Addresses whose wrong codes are remembered; past this the longest quiet is forgotten.
pub const MAX_ADDRESSES_REMEMBERED: usize = 256;

/// Wrong join codes per remote address, and the wait each must keep before its next try:
/// [`FREE_WRONG_CODES`] at once, then 1 s, 2 s, 4 s … up to 60 s after each further one.
/// A stranger guessing from one address gets about one guess a minute; the real guest,
/// from its own address, is never held up by it.
#[derive(Debug, Default)]
pub struct Throttle {
    tries: HashMap<IpAddr, (u32, Instant)>,
}

impl Throttle {
    /// How long `ip` must still wait before its next try, if at all.
    pub fn wait(&self, ip: IpAddr, now: Instant) -> Option<Duration> {
        let &(wrong, last) = self.tries.get(&ip)?;
        if wrong < FREE_WRONG_CODES {
            return None;
        }
        let doublings = (wrong - FREE_WRONG_CODES).min(16);
        let needed = (WRONG_CODE_WAIT_FIRST * (1u32 << doublings)).min(WRONG_CODE_WAIT_LAST);
        let waited = now.saturating_duration_since(last);
        (waited < needed).then(|| needed - waited)
    }

    /// Counts a wrong code from `ip`.
    pub fn wrong(&mut self, ip: IpAddr, now: Instant) {
        self.tries.retain(|_, (_, last)| now.saturating_duration_since(*last) < WRONG_CODES_FORGOTTEN);
        if !self.tries.contains_key(&ip) && self.tries.len() >= MAX_ADDRESSES_REMEMBERED {
            let oldest = self.tries.iter().min_by_key(|(_, (_, last))| *last).map(|(ip, _)| *ip);
            if let Some(oldest) = oldest {
                self.tries.remove(&oldest);
            }
        }
        let entry = self.tries.entry(ip).or_insert((0, now));
        *entry = (entry.0.saturating_add(1), now);
    }

    /// `ip` proved the code: its wrong codes are forgotten.
    pub fn forget(&mut self, ip: IpAddr) {
        self.tries.remove(&ip);
    }

    pub fn clear(&mut self) {
        self.tries.clear();
    }
}

/// What the host's door shares with the threads that check joins: the code (a new one can
/// be drawn while hosting), the wrong codes per address, and the connections waiting.
pub(super) struct Gate {
    code: JoinCode,
    throttle: Throttle,
    pub(super) slots: Slots,
}

impl Gate {
    /// A new join code: the wrong codes counted so far are forgotten (they were guesses at
    /// the old code).
    pub(super) fn set_code(&mut self, code: JoinCode) {
        self.code = code;
        self.throttle.clear();
    }
}

pub(super) fn lock(gate: &Mutex<Gate>) -> MutexGuard<'_, Gate> {
    gate.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A guest that proved the code, handed from its check's thread (or the guest's own join)
/// to the link.
pub(super) struct Joined {
    pub(super) stream: TcpStream,
    pub(super) reader: LineReader,
    pub(super) peer: SocketAddr,
    pub(super) keys: LineKeys,
}

/// What a host's check of a new connection tells the link.
pub(super) enum JoinResult {
    Joined(Joined),
    WrongCode(SocketAddr),
}

/// The host's listening socket and its gate: each new connection is checked on a thread of
/// its own, so a slow or hostile one never holds up the game; the results come back here.
pub(super) struct Door {
    listener: TcpListener,
    config: HostConfig,
    joined: (Sender<JoinResult>, Receiver<JoinResult>),
    gate: Arc<Mutex<Gate>>,
}

impl Door {
    pub(super) fn new(listener: TcpListener, config: HostConfig) -> Door {
        let gate =
            Arc::new(Mutex::new(Gate { code: config.code, throttle: Throttle::default(), slots: Slots::default() }));
        Door { listener, config, joined: channel(), gate }
    }

    /// The gate, shared with the link so that it can draw a new code.
    pub(super) fn gate(&self) -> Arc<Mutex<Gate>> {
        self.gate.clone()
    }

    /// Takes the new connections of this turn: an address that must still wait is told so
    /// before the greeting; the others get a slot and a thread that checks their join.
    pub(super) fn accept(&self, stop: &Arc<AtomicBool>) {
        for _ in 0..MAX_ACCEPTS_PER_TICK {
            let Ok((mut stream, peer)) = self.listener.accept() else { break };
            let now = Instant::now();
            let _ = stream.set_nonblocking(false);
            if let Some(wait) = lock(&self.gate).throttle.wait(peer.ip(), now) {
                let text = format!("wait {} s", wait.as_secs() + 1);
                let _ = send_line(&mut stream, &Wire::Bye { reason: ByeReason::TooManyAttempts, text });
                let _ = stream.shutdown(Shutdown::Both);
                continue;
            }
            let Ok(handle) = stream.try_clone() else { continue };
            let id = lock(&self.gate).slots.admit(peer.ip(), handle, now);
            let (sender, gate, stop, config) = (self.joined.0.clone(), self.gate.clone(), stop.clone(), self.config);
            let spawned = std::thread::Builder::new().name("halma-lan-join".into()).spawn(move || {
                let result = check_join(stream, peer, config, &gate, &stop);
                lock(&gate).slots.leave(id);
                if let Some(result) = result {
                    let _ = sender.send(result);
                }
            });
            if spawned.is_err() {
                // No thread to check it: the connection was dropped with the closure.
                lock(&self.gate).slots.leave(id);
            }
        }
    }

    /// The checks finished since the last call.
    pub(super) fn results(&self) -> Vec<JoinResult> {
        self.joined.1.try_iter().collect()
    }
}

/// The host's side of a join, on its own thread: greeting, hello (within
/// [`HELLO_LIMIT`]), the code's confirmation, welcome.
fn check_join(
    mut stream: TcpStream,
    peer: SocketAddr,
    config: HostConfig,
    gate: &Mutex<Gate>,
    stop: &AtomicBool,
) -> Option<JoinResult> {
    let _ = stream.set_read_timeout(Some(TICK));
    let _ = stream.set_write_timeout(Some(HANDSHAKE_LIMIT));
    let _ = stream.set_nodelay(true);
    let mut reader = LineReader::new();
    let code = lock(gate).code;
    let (pake, host_message) = Pake::host(code);
    send_line(&mut stream, &Wire::Greeting { version: PROTOCOL_VERSION, message: host_message }).ok()?;
    let deadline = Instant::now() + HELLO_LIMIT;
    let refuse = |stream: &mut TcpStream, reason: ByeReason, text: &str| {
        let _ = send_line(stream, &Wire::Bye { reason, text: text.into() });
        let _ = stream.shutdown(Shutdown::Both);
    };
    let hello = match read_message(&mut stream, &mut reader, None, deadline, stop) {
        Ok(hello) => hello,
        Err(Fail::Bye(reason, text)) => {
            refuse(&mut stream, reason, &text);
            return None;
        }
        Err(_) => return None,
    };
    let Wire::Hello { version, game, message, confirm } = hello else {
        refuse(&mut stream, ByeReason::Malformed, "expected hello");
        return None;
    };
    if version != PROTOCOL_VERSION {
        refuse(&mut stream, ByeReason::Version, &format!("this host speaks version {PROTOCOL_VERSION}"));
        return None;
    }
    if let Some(wait) = lock(gate).throttle.wait(peer.ip(), Instant::now()) {
        refuse(&mut stream, ByeReason::TooManyAttempts, &format!("wait {} s", wait.as_secs() + 1));
        return None;
    }
    let Ok(key) = pake.finish(&message) else {
        refuse(&mut stream, ByeReason::Malformed, "a SPAKE2 message that is not a point");
        return None;
    };
    if !tag_matches(&key.derive(GUEST_CONFIRM_LABEL), &hello_start(version, game, &message), &confirm) {
        lock(gate).throttle.wrong(peer.ip(), Instant::now());
        refuse(&mut stream, ByeReason::WrongCode, "");
        return Some(JoinResult::WrongCode(peer));
    }
    lock(gate).throttle.forget(peer.ip());
    if game.is_some_and(|id| id != config.id) {
        refuse(&mut stream, ByeReason::OtherGame, "this host plays another game");
        return None;
    }
    let confirm = key.host_confirm(&welcome_words(config.id, config.guest_seats));
    let welcome = Wire::Welcome { game: config.id, confirm, guest_seats: config.guest_seats };
    send_line(&mut stream, &welcome).ok()?;
    Some(JoinResult::Joined(Joined { stream, reader, peer, keys: key.lines(true) }))
}

/// What the host's confirmation is made over: `welcome <game> <seats>`.
fn welcome_words(id: GameId, guest_seats: SeatSet) -> String {
    format!("welcome {id} {}", seats_word(guest_seats))
}

/// The guest's side of a join: greeting, hello, welcome (checking the host's
/// confirmation, which only a host that knows the code can make). `id`: the game this
/// guest played with this host before, if any. Returns the host's game and the seats it
/// gave this guest.
pub(super) fn guest_handshake(
    config: JoinConfig,
    id: Option<GameId>,
    stop: &AtomicBool,
) -> Result<(Joined, GameId, SeatSet), Fail> {
    let mut stream = TcpStream::connect_timeout(&config.addr, CONNECT_LIMIT)?;
    stream.set_read_timeout(Some(TICK))?;
    stream.set_write_timeout(Some(HANDSHAKE_LIMIT))?;
    let _ = stream.set_nodelay(true);
    let mut reader = LineReader::new();
    let deadline = Instant::now() + HANDSHAKE_LIMIT;
    let result = (|| {
        let greeting = read_message(&mut stream, &mut reader, None, deadline, stop)?;
        let Wire::Greeting { version, message: host_message } = greeting else {
            return Err(unexpected(&greeting));
        };
        if version != PROTOCOL_VERSION {
            return Err(Fail::Bye(ByeReason::Version, format!("this guest speaks version {PROTOCOL_VERSION}")));
        }
        let (pake, message) = Pake::guest(config.code);
        let key: SessionKey = pake
            .finish(&host_message)
            .map_err(|_| Fail::Bye(ByeReason::Malformed, "a SPAKE2 message that is not a point".into()))?;
        let start = hello_start(PROTOCOL_VERSION, id, &message);
        let confirm = key.guest_confirm(&start);
        let hello = Wire::Hello { version: PROTOCOL_VERSION, game: id, message, confirm };
        send_line(&mut stream, &hello)?;
        let welcome = read_message(&mut stream, &mut reader, None, deadline, stop)?;
        let Wire::Welcome { game, confirm, guest_seats } = welcome else {
            return Err(unexpected(&welcome));
        };
        if !tag_matches(&key.derive(HOST_CONFIRM_LABEL), &welcome_words(game, guest_seats), &confirm) {
            return Err(Fail::Bye(ByeReason::WrongCode, "the host does not know the code".into()));
        }
        if id.is_some_and(|named| named != game) {
            return Err(Fail::Bye(ByeReason::OtherGame, "the host plays another game".into()));
        }
        Ok((game, guest_seats, key.lines(false)))
    })();
    match result {
        Ok((game, guest_seats, keys)) => Ok((Joined { stream, reader, peer: config.addr, keys }, game, guest_seats)),
        Err(fail) => {
            if let Fail::Bye(reason, why) = &fail {
                let _ = send_line(&mut stream, &Wire::Bye { reason: *reason, text: why.clone() });
            }
            let _ = stream.shutdown(Shutdown::Both);
            Err(fail)
        }
    }
}
