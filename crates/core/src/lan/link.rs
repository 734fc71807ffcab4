//! The connection to the other device, on a thread of its own: the UI never waits on the
//! network. It sends its seats' actions and votes ([`LanLink::play`], …) and polls
//! ([`LanLink::poll`]) for what happened: the other side's actions, votes, undo requests,
//! a dropped connection, the game agreed on after a reconnection.
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

use super::agree::{agree, digest, AgreeError};
use super::handshake::{guest_handshake, lock, Door, Gate, JoinResult, Joined};
use super::transport::{unexpected, Conn, Fail, TICK};
use super::wire::{ByeReason, Wire};
use super::JoinCode;
use crate::correspondence::{turn_votes, GameId};
use halma_record::{Record, MAX_RECORD_BYTES};
use halma_rules::{Action, Game, Seat, SeatSet};
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

/// What the host offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostConfig {
    pub id: GameId,
    pub code: JoinCode,
    /// The seats the guest's device plays; the host plays the others.
    pub guest_seats: SeatSet,
}

/// Where and how a guest joins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JoinConfig {
    pub addr: SocketAddr,
    pub code: JoinCode,
    /// The game this guest played with this host before (a reconnection after a restart),
    /// or `None` to take the host's game.
    pub id: Option<GameId>,
}

/// Why a connection went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// The other side said `bye`.
    PeerSaid { reason: ByeReason, text: String },
    /// This side ended it, telling the other side why (garbage, a wrong code, …).
    WeSaid { reason: ByeReason, why: String },
    /// The network: the connection closed, failed or stayed silent.
    Lost(String),
}

/// Why the UI's own action was not sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LocalRefusal {
    /// No game yet (a guest before its first sync).
    NoGame,
    /// Not a seat of this device to act now.
    NotYourTurn,
    /// The rules refuse it.
    Rules(halma_rules::GameError),
    /// No such undo request or answer is due.
    NoUndoPending,
}

/// What the link tells the UI.
#[derive(Clone, Debug, PartialEq)]
pub enum LanEvent {
    /// The host listens here.
    Listening(SocketAddr),
    /// A device proved the code and is syncing.
    Connected(SocketAddr),
    /// Both sides agreed on this game (after every connection and reconnection): the UI
    /// takes it as its game. `taken_back` of this device's actions were not kept,
    /// `gained` came from the other side.
    Synced { id: GameId, game: Game, guest_seats: SeatSet, taken_back: usize, gained: usize },
    /// The other side played.
    Played { seat: Seat, action: Action },
    /// The other side's seat offered a draw.
    DrawOffered { seat: Seat },
    /// The other side's seat voted on the offer.
    DrawVoted { seat: Seat, accept: bool },
    /// The other side asks to take back actions until `to` remain.
    UndoRequested { to: usize },
    /// An undo was agreed (asked by either side): the game now has `to` actions.
    Undone { to: usize },
    /// The other side refused this side's undo request.
    UndoRefused { to: usize },
    /// The connection went. `retrying`: the link reconnects by itself (a guest) or waits
    /// for the guest to come back (a host).
    Disconnected { reason: DropReason, retrying: bool },
    /// Someone tried to join with a wrong code.
    WrongCodeTried(SocketAddr),
    /// The UI's action was not sent.
    Refused(LocalRefusal),
}

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
            game,
            id,
            local,
            guest_seats,
            conn: None,
            events: event_tx,
            commands: command_rx,
            stop: stop.clone(),
            my_undo: None,
            their_undo: None,
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

enum Role {
    Host(Door),
    Guest { config: JoinConfig, retry_at: Instant, wait: Duration, ended: bool },
}

struct Engine {
    role: Role,
    game: Option<Game>,
    id: Option<GameId>,
    /// This device's seats.
    local: SeatSet,
    guest_seats: SeatSet,
    conn: Option<Conn>,
    events: Sender<LanEvent>,
    commands: Receiver<Command>,
    stop: Arc<AtomicBool>,
    /// This side's undo request waiting for an answer: the history length asked for.
    my_undo: Option<usize>,
    /// The other side's undo request waiting for this side's answer.
    their_undo: Option<usize>,
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
        matches!(self.role, Role::Host { .. })
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
        self.my_undo = None;
        self.their_undo = None;
        let retrying = match &mut self.role {
            Role::Host { .. } => true,
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
                Command::Play(action) => self.local_play(action),
                Command::Offer => self.local_offer(),
                Command::Vote(accept) => self.local_vote(accept),
                Command::RequestUndo(to) => self.local_undo_request(to),
                Command::AnswerUndo(accept) => self.local_undo_answer(accept),
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

    fn local_play(&mut self, action: Action) -> Result<(), LocalRefusal> {
        let game = self.game.as_mut().ok_or(LocalRefusal::NoGame)?;
        if !self.local.contains(game.to_move()) || game.pending_offer().is_some() {
            return Err(LocalRefusal::NotYourTurn);
        }
        let index = game.history().len();
        game.play_action(&action).map_err(LocalRefusal::Rules)?;
        self.my_undo = None;
        self.their_undo = None;
        self.send(Wire::Move { index, action });
        Ok(())
    }

    fn local_offer(&mut self) -> Result<(), LocalRefusal> {
        let game = self.game.as_mut().ok_or(LocalRefusal::NoGame)?;
        if !self.local.contains(game.to_move()) {
            return Err(LocalRefusal::NotYourTurn);
        }
        game.offer_draw().map_err(LocalRefusal::Rules)?;
        let index = game.history().len();
        self.send(Wire::Offer { index });
        Ok(())
    }

    fn local_vote(&mut self, accept: bool) -> Result<(), LocalRefusal> {
        let game = self.game.as_mut().ok_or(LocalRefusal::NoGame)?;
        let offer = game.pending_offer().ok_or(LocalRefusal::Rules(halma_rules::GameError::NoOffer))?;
        if !self.local.contains(offer.awaiting) {
            return Err(LocalRefusal::NotYourTurn);
        }
        let given = turn_votes(game).len();
        game.answer_draw(offer.awaiting, accept).map_err(LocalRefusal::Rules)?;
        let index = game.history().len();
        self.send(Wire::Vote { index, given, accept });
        Ok(())
    }

    fn local_undo_request(&mut self, to: usize) -> Result<(), LocalRefusal> {
        let game = self.game.as_ref().ok_or(LocalRefusal::NoGame)?;
        let index = game.history().len();
        if to >= index {
            return Err(LocalRefusal::NoUndoPending);
        }
        self.my_undo = Some(to);
        self.send(Wire::Undo { index, to });
        Ok(())
    }

    fn local_undo_answer(&mut self, accept: bool) -> Result<(), LocalRefusal> {
        let to = self.their_undo.take().ok_or(LocalRefusal::NoUndoPending)?;
        let game = self.game.as_mut().ok_or(LocalRefusal::NoGame)?;
        let index = game.history().len();
        if accept {
            take_back(game, to);
            self.tell(LanEvent::Undone { to });
        }
        self.send(Wire::UndoAnswer { index, to, accept });
        Ok(())
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
        match guest_handshake(config, self.id, &self.stop) {
            Ok((joined, id, guest_seats)) => {
                self.id = Some(id);
                self.guest_seats = guest_seats;
                self.local = guest_seats;
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

    /// Exchanges the records (host first), agrees on a history, and checks both sides
    /// agreed on the same (`synced`).
    fn sync(&mut self) -> Result<(), Fail> {
        let deadline = Instant::now() + HANDSHAKE_LIMIT;
        let host = self.is_host();
        let theirs = if host {
            self.send_record()?;
            self.read_record(deadline)?
        } else {
            let theirs = self.read_record(deadline)?;
            self.send_record()?;
            theirs
        };
        let (game, taken_back, gained) = match (&self.game, theirs) {
            (Some(mine), Some(theirs)) => {
                let agreed = agree(mine, &theirs).map_err(|error| match error {
                    AgreeError::DifferentStart => Fail::Bye(ByeReason::OutOfSync, "the games start differently".into()),
                    AgreeError::Replay => Fail::Bye(ByeReason::OutOfSync, "the agreed history does not replay".into()),
                })?;
                (agreed.game, agreed.taken_back, agreed.gained)
            }
            (Some(mine), None) => (mine.clone(), 0, 0),
            (None, Some(theirs)) => {
                let gained = theirs.history().len();
                (theirs, 0, gained)
            }
            (None, None) => return Err(Fail::Bye(ByeReason::Malformed, "no game on either side".into())),
        };
        for seat in self.guest_seats.seats() {
            if !game.setup().has_seat(seat) {
                return Err(Fail::Bye(ByeReason::OutOfSync, format!("seat {seat} does not play in {}", game.setup())));
            }
        }
        if !host {
            let mine = Wire::Synced { actions: game.history().len(), digest: digest(&game) };
            let theirs = self.read_conn(deadline)?;
            self.check_synced(&theirs, &mine)?;
            self.write(&mine)?;
        } else {
            let mine = Wire::Synced { actions: game.history().len(), digest: digest(&game) };
            self.write(&mine)?;
            let theirs = self.read_conn(deadline)?;
            self.check_synced(&theirs, &mine)?;
        }
        self.game = Some(game.clone());
        if let Some(id) = self.id {
            self.tell(LanEvent::Synced { id, game, guest_seats: self.guest_seats, taken_back, gained });
        }
        Ok(())
    }

    fn check_synced(&self, theirs: &Wire, mine: &Wire) -> Result<(), Fail> {
        match theirs {
            Wire::Synced { .. } if theirs == mine => Ok(()),
            Wire::Synced { .. } => {
                Err(Fail::Bye(ByeReason::OutOfSync, "the two sides agreed on different games".into()))
            }
            other => Err(unexpected(other)),
        }
    }

    fn write(&mut self, message: &Wire) -> Result<(), Fail> {
        let conn = self.conn.as_mut().ok_or(Fail::Lost("no connection".into()))?;
        conn.write(std::slice::from_ref(message)).map_err(Fail::from)
    }

    /// Reads the next message of the connection; pings and pongs during the sync are
    /// answered and passed over.
    fn read_conn(&mut self, deadline: Instant) -> Result<Wire, Fail> {
        let conn = self.conn.as_mut().ok_or(Fail::Lost("no connection".into()))?;
        conn.read(deadline, &self.stop)
    }

    fn send_record(&mut self) -> Result<(), Fail> {
        let text = self.game.as_ref().map(|game| Record::new(game.clone()).to_text());
        let conn = self.conn.as_mut().ok_or(Fail::Lost("no connection".into()))?;
        let mut messages: Vec<Wire> =
            text.as_deref().unwrap_or("").lines().map(|line| Wire::Record(line.into())).collect();
        messages.push(Wire::RecordEnd(messages.len()));
        conn.write(&messages)?;
        Ok(())
    }

    /// Reads the other side's record: `record` lines, then `record-end` with their count.
    fn read_record(&mut self, deadline: Instant) -> Result<Option<Game>, Fail> {
        let mut text = String::new();
        let mut lines = 0usize;
        loop {
            match self.read_conn(deadline)? {
                Wire::Record(line) => {
                    text.push_str(&line);
                    text.push('\n');
                    lines += 1;
                    if text.len() > MAX_RECORD_BYTES {
                        return Err(Fail::Bye(ByeReason::TooLong, "the record is over its limit".into()));
                    }
                }
                Wire::RecordEnd(count) if count == lines && count == 0 => return Ok(None),
                Wire::RecordEnd(count) if count == lines => {
                    return Record::parse(&text)
                        .map(|record| Some(record.game))
                        .map_err(|error| Fail::Bye(ByeReason::Malformed, format!("record: {error}")));
                }
                Wire::RecordEnd(count) => {
                    return Err(Fail::Bye(ByeReason::Malformed, format!("record-end {count} after {lines} lines")))
                }
                other => return Err(unexpected(&other)),
            }
        }
    }

    /// One tick of a live connection: a message of the game, if one came, checked against
    /// this side's copy before anything changes.
    fn conn_step(&mut self) -> Result<(), Fail> {
        let conn = self.conn.as_mut().ok_or(Fail::Lost("no connection".into()))?;
        if let Some(message) = conn.poll()? {
            let event = self.check_and_apply(message)?;
            self.tell(event);
        }
        Ok(())
    }

    fn check_and_apply(&mut self, message: Wire) -> Result<LanEvent, Fail> {
        let bye = |reason: ByeReason, why: String| Err(Fail::Bye(reason, why));
        let peer_seats = self.peer_seats();
        let Some(game) = self.game.as_mut() else { return Err(unexpected(&message)) };
        let length = game.history().len();
        let stale = |index: usize| -> Result<(), Fail> {
            if index < length {
                Err(Fail::Bye(ByeReason::Replayed, format!("action {index} is past (the game has {length})")))
            } else if index > length {
                Err(Fail::Bye(ByeReason::OutOfSync, format!("action {index} is ahead (the game has {length})")))
            } else {
                Ok(())
            }
        };
        match message {
            Wire::Move { index, action } => {
                stale(index)?;
                let seat = game.to_move();
                if !peer_seats.contains(seat) {
                    return bye(ByeReason::WrongSeat, format!("seat {seat} is not the sender's"));
                }
                if let Err(error) = game.play_action(&action) {
                    return bye(ByeReason::Illegal, format!("{action}: {error}"));
                }
                self.my_undo = None;
                self.their_undo = None;
                Ok(LanEvent::Played { seat, action })
            }
            Wire::Offer { index } => {
                stale(index)?;
                let seat = game.to_move();
                if !peer_seats.contains(seat) {
                    return bye(ByeReason::WrongSeat, format!("seat {seat} is not the sender's"));
                }
                if let Err(error) = game.offer_draw() {
                    let reason = if error == halma_rules::GameError::AlreadyOffered {
                        ByeReason::Replayed
                    } else {
                        ByeReason::Illegal
                    };
                    return bye(reason, format!("offer: {error}"));
                }
                Ok(LanEvent::DrawOffered { seat })
            }
            Wire::Vote { index, given, accept } => {
                stale(index)?;
                let so_far = turn_votes(game).len();
                if given < so_far {
                    return bye(ByeReason::Replayed, format!("vote {given} is past ({so_far} given)"));
                }
                let Some(offer) = game.pending_offer().filter(|_| given == so_far) else {
                    return bye(ByeReason::Illegal, "no such vote is due".into());
                };
                if !peer_seats.contains(offer.awaiting) {
                    return bye(ByeReason::WrongSeat, format!("seat {} is not the sender's", offer.awaiting));
                }
                if let Err(error) = game.answer_draw(offer.awaiting, accept) {
                    return bye(ByeReason::Illegal, format!("vote: {error}"));
                }
                Ok(LanEvent::DrawVoted { seat: offer.awaiting, accept })
            }
            Wire::Undo { index, to } => {
                stale(index)?;
                if to >= length || self.their_undo.is_some() {
                    return bye(ByeReason::Illegal, format!("undo to {to} of {length}"));
                }
                self.their_undo = Some(to);
                Ok(LanEvent::UndoRequested { to })
            }
            Wire::UndoAnswer { index, to, accept } => {
                if self.my_undo != Some(to) || index != length {
                    return bye(ByeReason::Replayed, format!("no undo to {to} was asked"));
                }
                self.my_undo = None;
                if accept {
                    take_back(game, to);
                    self.their_undo = None;
                    Ok(LanEvent::Undone { to })
                } else {
                    Ok(LanEvent::UndoRefused { to })
                }
            }
            other => Err(unexpected(&other)),
        }
    }

    fn peer_seats(&self) -> SeatSet {
        let Some(game) = &self.game else { return SeatSet::EMPTY };
        let mut seats = SeatSet::EMPTY;
        for &seat in game.setup().seats() {
            if !self.local.contains(seat) {
                seats.insert(seat);
            }
        }
        seats
    }
}

/// Takes back actions (and votes) until `to` actions remain; the redo list is dropped.
fn take_back(game: &mut Game, to: usize) {
    let mut fresh = Game::from_position(*game.start_position());
    for action in game.history().iter().take(to) {
        if fresh.play_action(action).is_err() {
            return;
        }
    }
    *game = fresh;
}
