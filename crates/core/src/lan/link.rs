//! The connection to the other device, on a thread of its own: the UI never waits on the
//! network. It sends its seats' actions and votes ([`LanLink::play`], …) and polls
//! ([`LanLink::poll`]) for what happened: the other side's actions, votes, undo requests,
//! a dropped connection, the game agreed on after a reconnection.
//!
//! This file holds that facade and the thread's loop that ties the parts together: the
//! lines, deadlines and keep-alive (`transport`), the join (`handshake`) and the game both
//! sides play on (`sync`).
//!
//! The link keeps its own copy of the game and checks every message against it before
//! telling the UI: a message that is not the protocol, too long, forged, replayed, illegal
//! or for a seat the sender does not play ends the connection with a `bye` and changes
//! nothing.
//!
//! A host guards its door against strangers on the network (#49): wrong codes are counted
//! per address with a growing wait ([`Throttle`]), a connection that has not sent its hello
//! within [`HELLO_LIMIT`] is dropped, and a new connection evicts one that has not proved
//! the code rather than being told `busy`.

use super::handshake::{guest_handshake, lock, Door, Gate, JoinResult, Joined};
use super::sync::SharedGame;
pub use super::terms::{DropReason, HostConfig, JoinConfig, LanEvent, LocalRefusal};
use super::transport::{Conn, Fail, TICK};
use super::wire::{ByeReason, Wire};
use super::JoinCode;
use crate::correspondence::GameId;
use halma_rules::{Action, Game, SeatSet};
use std::io;
use std::net::{Shutdown, SocketAddr, TcpListener};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub use super::handshake::{
    Throttle, FREE_WRONG_CODES, HANDSHAKE_LIMIT, HELLO_LIMIT, MAX_ADDRESSES_REMEMBERED, WRONG_CODES_FORGOTTEN,
    WRONG_CODE_WAIT_FIRST, WRONG_CODE_WAIT_LAST,
};
pub use super::transport::{MAX_HANDSHAKES, MAX_HANDSHAKES_PER_ADDRESS, PING_EVERY, SILENCE_LIMIT};

/// Waits between a guest's tries to reconnect: doubling from the first to the last.
const RETRY_FIRST: Duration = Duration::from_millis(100);
const RETRY_LAST: Duration = Duration::from_secs(2);

/// What the UI asks of the link's thread, through `LanLink`'s methods.
enum Command {
    Play(Action),
    Offer,
    Vote(bool),
    RequestUndo(usize),
    AnswerUndo(bool),
    Close,
    Cut,
}

/// A running connection, host's or guest's. Dropping it ends the thread at once without
/// a word to the other side (as when the app is killed); [`LanLink::close`] says `bye done`.
pub struct LanLink {
    commands: Sender<Command>,
    events: Receiver<LanEvent>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    local_addr: Option<SocketAddr>,
    /// A host's door: its code can be changed while it hosts.
    gate: Option<Arc<Mutex<Gate>>>,
}

impl LanLink {
    /// Hosts `game` on `bind` (port 0: any free port; [`LanLink::local_addr`] tells which).
    pub fn host(bind: SocketAddr, config: HostConfig, game: Game) -> io::Result<LanLink> {
        let listener = TcpListener::bind(bind)?;
        listener.set_nonblocking(true)?;
        let local_addr = listener.local_addr()?;
        let mut local = SeatSet::EMPTY;
        for &seat in game.setup().seats() {
            if !config.guest_seats.contains(seat) {
                local.insert(seat);
            }
        }
        let door = Door::new(listener, config);
        let gate = door.gate();
        let role = Role::Host(door);
        let mut link = LanLink::spawn(role, Some(game), Some(config.id), local, config.guest_seats, Some(local_addr));
        link.gate = Some(gate);
        Ok(link)
    }

    /// Joins a host; with `game` (this device's saved game of `config.id`) the two agree
    /// on a history, without it the host's game is taken.
    pub fn join(config: JoinConfig, game: Option<Game>) -> LanLink {
        let role = Role::Guest { config, retry_at: Instant::now(), wait: RETRY_FIRST, ended: false };
        LanLink::spawn(role, game, config.id, SeatSet::EMPTY, SeatSet::EMPTY, None)
    }

    fn spawn(
        role: Role,
        game: Option<Game>,
        id: Option<GameId>,
        local: SeatSet,
        guest_seats: SeatSet,
        local_addr: Option<SocketAddr>,
    ) -> LanLink {
        let (commands, command_rx) = channel();
        let (event_tx, events) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        if let Some(addr) = local_addr {
            let _ = event_tx.send(LanEvent::Listening(addr));
        }
        let mut engine = Engine {
            role,
            shared: SharedGame::new(game, id, local, guest_seats),
            conn: None,
            events: event_tx,
            commands: command_rx,
            stop: stop.clone(),
            closing: false,
        };
        let thread = std::thread::Builder::new().name("halma-lan".into()).spawn(move || engine.run()).ok();
        LanLink { commands, events, stop, thread, local_addr, gate: None }
    }

    /// A host's new join code: joins from now on need it. The guest connected with the old
    /// one stays; a guest that comes back later needs the new one. The wrong codes counted
    /// so far are forgotten (they were guesses at the old code).
    pub fn set_code(&self, code: JoinCode) {
        if let Some(gate) = &self.gate {
            lock(gate).set_code(code);
        }
    }

    /// The host's address (its port), `None` for a guest.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.local_addr
    }

    /// What happened since the last poll; never waits.
    pub fn poll(&self) -> Vec<LanEvent> {
        self.events.try_iter().collect()
    }

    /// Waits up to `timeout` for the next event (tests; the UI polls).
    pub fn next_event(&self, timeout: Duration) -> Option<LanEvent> {
        self.events.recv_timeout(timeout).ok()
    }

    /// Plays this device's seat's action (already checked by the session): sent now, or
    /// at the reconnection's sync.
    pub fn play(&self, action: Action) {
        let _ = self.commands.send(Command::Play(action));
    }

    /// This device's seat to move offers a draw.
    pub fn offer_draw(&self) {
        let _ = self.commands.send(Command::Offer);
    }

    /// This device's awaited seat answers the draw offer.
    pub fn vote(&self, accept: bool) {
        let _ = self.commands.send(Command::Vote(accept));
    }

    /// Asks the other side to take back actions until `to` remain.
    pub fn request_undo(&self, to: usize) {
        let _ = self.commands.send(Command::RequestUndo(to));
    }

    /// Answers the other side's undo request.
    pub fn answer_undo(&self, accept: bool) {
        let _ = self.commands.send(Command::AnswerUndo(accept));
    }

    /// Drops the connection without a word, as a lost network does (tests; the link
    /// reconnects as after any loss).
    pub fn cut(&self) {
        let _ = self.commands.send(Command::Cut);
    }

    /// Says `bye done` and ends the link.
    pub fn close(mut self) {
        let _ = self.commands.send(Command::Close);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for LanLink {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Which side this is: a host listens at its door, a guest connects and reconnects.
enum Role {
    Host(Door),
    Guest { config: JoinConfig, retry_at: Instant, wait: Duration, ended: bool },
}

/// The link's thread: each turn of [`Engine::run`] takes the UI's commands, new or
/// renewed connections, and the connection's next line.
struct Engine {
    role: Role,
    shared: SharedGame,
    conn: Option<Conn>,
    events: Sender<LanEvent>,
    commands: Receiver<Command>,
    stop: Arc<AtomicBool>,
    closing: bool,
}

impl Engine {
    fn tell(&self, event: LanEvent) {
        let _ = self.events.send(event);
    }

    fn run(&mut self) {
        while !self.stop.load(Ordering::SeqCst) && !self.closing {
            self.commands_step();
            if self.closing {
                break;
            }
            self.accept_step();
            self.connect_step();
            if self.conn.is_some() {
                if let Err(fail) = self.conn_step() {
                    self.drop_conn(fail);
                }
            } else {
                std::thread::sleep(TICK);
            }
        }
        if let Some(conn) = &mut self.conn {
            if self.closing {
                let _ = conn.write(&[Wire::Bye { reason: ByeReason::Done, text: String::new() }]);
            }
            let _ = conn.stream.shutdown(Shutdown::Both);
        }
    }

    fn is_host(&self) -> bool {
        matches!(self.role, Role::Host(_))
    }

    /// Ends the connection, telling the other side why when it is this side's call.
    fn drop_conn(&mut self, fail: Fail) {
        let Some(mut conn) = self.conn.take() else { return };
        let reason = match fail {
            Fail::Bye(reason, why) => {
                let text: String = why.chars().filter(|c| !c.is_control()).take(200).collect();
                let _ = conn.write(&[Wire::Bye { reason, text }]);
                DropReason::WeSaid { reason, why }
            }
            Fail::PeerBye(reason, text) => DropReason::PeerSaid { reason, text },
            Fail::Lost(why) => DropReason::Lost(why),
            Fail::Stopped => return,
        };
        let _ = conn.stream.shutdown(Shutdown::Both);
        self.shared.forget_undos();
        let retrying = match &mut self.role {
            Role::Host(_) => true,
            Role::Guest { ended, wait, retry_at, .. } => {
                let again = match &reason {
                    DropReason::Lost(_) => true,
                    DropReason::PeerSaid { reason, .. } => !reason.is_final(),
                    DropReason::WeSaid { reason, .. } => *reason == ByeReason::Timeout,
                };
                *ended = !again;
                *wait = RETRY_FIRST;
                *retry_at = Instant::now() + RETRY_FIRST;
                again
            }
        };
        self.tell(LanEvent::Disconnected { reason, retrying });
    }

    fn commands_step(&mut self) {
        while let Ok(command) = self.commands.try_recv() {
            let result = match command {
                Command::Close => {
                    self.closing = true;
                    return;
                }
                Command::Cut => {
                    self.drop_conn(Fail::Lost("cut".into()));
                    Ok(())
                }
                Command::Play(action) => self.shared.play(action).map(|message| self.send(message)),
                Command::Offer => self.shared.offer().map(|message| self.send(message)),
                Command::Vote(accept) => self.shared.vote(accept).map(|message| self.send(message)),
                Command::RequestUndo(to) => self.shared.request_undo(to).map(|message| self.send(message)),
                Command::AnswerUndo(accept) => self.shared.answer_undo(accept).map(|(undone, message)| {
                    if let Some(event) = undone {
                        self.tell(event);
                    }
                    self.send(message)
                }),
            };
            if let Err(refusal) = result {
                self.tell(LanEvent::Refused(refusal));
            }
        }
    }

    /// Sends a message if connected; a failed write drops the connection (the sync at the
    /// reconnection carries what was lost).
    fn send(&mut self, message: Wire) {
        if let Some(conn) = &mut self.conn {
            if let Err(error) = conn.write(&[message]) {
                self.drop_conn(Fail::Lost(error.to_string()));
            }
        }
    }

    fn accept_step(&mut self) {
        let Role::Host(door) = &self.role else { return };
        door.accept(&self.stop);
        for result in door.results() {
            match result {
                JoinResult::WrongCode(peer) => self.tell(LanEvent::WrongCodeTried(peer)),
                JoinResult::Joined(joined) => {
                    // A device that proved the code takes the place: the guest coming back
                    // on a connection the old one has not noticed is dead, or another
                    // device the player gave the code to. The old one is told why.
                    if self.conn.is_some() {
                        self.drop_conn(Fail::Bye(ByeReason::Replaced, "another device joined with the code".into()));
                    }
                    self.take_conn(joined);
                    if let Err(fail) = self.sync() {
                        self.drop_conn(fail);
                    }
                }
            }
        }
    }

    /// A connection that proved the code becomes the link's.
    fn take_conn(&mut self, joined: Joined) {
        self.tell(LanEvent::Connected(joined.peer));
        self.conn = Some(Conn::new(joined.stream, joined.reader, joined.keys));
    }

    fn connect_step(&mut self) {
        let Role::Guest { config, retry_at, ended, .. } = &self.role else { return };
        if self.conn.is_some() || *ended || Instant::now() < *retry_at {
            return;
        }
        let config = *config;
        match guest_handshake(config, self.shared.id(), &self.stop) {
            Ok((joined, id, guest_seats)) => {
                self.shared.welcomed(id, guest_seats);
                self.take_conn(joined);
                if let Role::Guest { wait, .. } = &mut self.role {
                    *wait = RETRY_FIRST;
                }
                if let Err(fail) = self.sync() {
                    self.drop_conn(fail);
                }
            }
            Err(fail) => {
                let final_reason = match &fail {
                    Fail::PeerBye(reason, _) => reason.is_final(),
                    Fail::Bye(reason, _) => *reason == ByeReason::WrongCode || *reason == ByeReason::OtherGame,
                    _ => false,
                };
                let reason = match fail {
                    Fail::PeerBye(reason, text) => Some(DropReason::PeerSaid { reason, text }),
                    Fail::Bye(reason, why) => Some(DropReason::WeSaid { reason, why }),
                    Fail::Lost(_) | Fail::Stopped => None,
                };
                if let Role::Guest { retry_at, wait, ended, .. } = &mut self.role {
                    *retry_at = Instant::now() + *wait;
                    *wait = (*wait * 2).min(RETRY_LAST);
                    *ended = final_reason;
                }
                // A refused join is told; a host not (yet) reachable is just tried again.
                if let Some(reason) = reason {
                    self.tell(LanEvent::Disconnected { reason, retrying: !final_reason });
                }
            }
        }
    }

    /// Exchanges the records and agrees on a history (see [`SharedGame::sync`]).
    fn sync(&mut self) -> Result<(), Fail> {
        let host = self.is_host();
        let conn = self.conn.as_mut().ok_or(Fail::Lost("no connection".into()))?;
        if let Some(event) = self.shared.sync(conn, host, &self.stop)? {
            self.tell(event);
        }
        Ok(())
    }

    /// One tick of a live connection: a message of the game, if one came, checked against
    /// this side's copy before anything changes.
    fn conn_step(&mut self) -> Result<(), Fail> {
        let conn = self.conn.as_mut().ok_or(Fail::Lost("no connection".into()))?;
        if let Some(message) = conn.poll()? {
            let event = self.shared.check_and_apply(message)?;
            self.tell(event);
        }
        Ok(())
    }
}
