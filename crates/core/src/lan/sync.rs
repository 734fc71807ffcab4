//! The game both sides play on: the link's own copy of it, the records' exchange and the
//! agreed history at every (re)connection, and the checks of every move, vote and undo,
//! both ways, against the rules and the seats before anything changes.

use super::agree::{agree, digest, AgreeError};
use super::handshake::HANDSHAKE_LIMIT;
use super::terms::{LanEvent, LocalRefusal};
use super::transport::{unexpected, Conn, Fail};
use super::wire::{ByeReason, Wire};
use crate::correspondence::{turn_votes, GameId};
use halma_record::{Record, MAX_RECORD_BYTES};
use halma_rules::{Action, Game, SeatSet};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// This side's copy of the game and who plays what: the messages both ways are made
/// from it and checked against it, so the link never tells the UI what the rules refuse.
pub(super) struct SharedGame {
    game: Option<Game>,
    id: Option<GameId>,
    /// This device's seats.
    local: SeatSet,
    guest_seats: SeatSet,
    /// This side's undo request waiting for an answer: the history length asked for.
    my_undo: Option<usize>,
    /// The other side's undo request waiting for this side's answer.
    their_undo: Option<usize>,
}

impl SharedGame {
    pub(super) fn new(game: Option<Game>, id: Option<GameId>, local: SeatSet, guest_seats: SeatSet) -> SharedGame {
        SharedGame { game, id, local, guest_seats, my_undo: None, their_undo: None }
    }

    /// The game's identifier: a guest names it in its hello (`None`: it takes the host's).
    pub(super) fn id(&self) -> Option<GameId> {
        self.id
    }

    /// The host welcomed this guest to game `id`, playing `guest_seats`.
    pub(super) fn welcomed(&mut self, id: GameId, guest_seats: SeatSet) {
        self.id = Some(id);
        self.guest_seats = guest_seats;
        self.local = guest_seats;
    }

    /// The connection went: pending undo requests do not survive it.
    pub(super) fn forget_undos(&mut self) {
        self.my_undo = None;
        self.their_undo = None;
    }

    /// This device's seat plays: the move to send.
    pub(super) fn play(&mut self, action: Action) -> Result<Wire, LocalRefusal> {
        let game = self.game.as_mut().ok_or(LocalRefusal::NoGame)?;
        if !self.local.contains(game.to_move()) || game.pending_offer().is_some() {
            return Err(LocalRefusal::NotYourTurn);
        }
        let index = game.history().len();
        game.play_action(&action).map_err(LocalRefusal::Rules)?;
        self.my_undo = None;
        self.their_undo = None;
        Ok(Wire::Move { index, action })
    }

    /// This device's seat to move offers a draw: the offer to send.
    pub(super) fn offer(&mut self) -> Result<Wire, LocalRefusal> {
        let game = self.game.as_mut().ok_or(LocalRefusal::NoGame)?;
        if !self.local.contains(game.to_move()) {
            return Err(LocalRefusal::NotYourTurn);
        }
        game.offer_draw().map_err(LocalRefusal::Rules)?;
        let index = game.history().len();
        Ok(Wire::Offer { index })
    }

    /// This device's awaited seat votes: the vote to send.
    pub(super) fn vote(&mut self, accept: bool) -> Result<Wire, LocalRefusal> {
        let game = self.game.as_mut().ok_or(LocalRefusal::NoGame)?;
        let offer = game.pending_offer().ok_or(LocalRefusal::Rules(halma_rules::GameError::NoOffer))?;
        if !self.local.contains(offer.awaiting) {
            return Err(LocalRefusal::NotYourTurn);
        }
        let given = turn_votes(game).len();
        game.answer_draw(offer.awaiting, accept).map_err(LocalRefusal::Rules)?;
        let index = game.history().len();
        Ok(Wire::Vote { index, given, accept })
    }

    /// This device asks to take back actions until `to` remain: the request to send.
    pub(super) fn request_undo(&mut self, to: usize) -> Result<Wire, LocalRefusal> {
        let game = self.game.as_ref().ok_or(LocalRefusal::NoGame)?;
        let index = game.history().len();
        if to >= index {
            return Err(LocalRefusal::NoUndoPending);
        }
        self.my_undo = Some(to);
        Ok(Wire::Undo { index, to })
    }

    /// This device answers the other side's undo request: `Undone` to tell when it agreed
    /// (told before the answer goes), and the answer to send.
    pub(super) fn answer_undo(&mut self, accept: bool) -> Result<(Option<LanEvent>, Wire), LocalRefusal> {
        let to = self.their_undo.take().ok_or(LocalRefusal::NoUndoPending)?;
        let game = self.game.as_mut().ok_or(LocalRefusal::NoGame)?;
        let index = game.history().len();
        let undone = accept.then(|| {
            take_back(game, to);
            LanEvent::Undone { to }
        });
        Ok((undone, Wire::UndoAnswer { index, to, accept }))
    }

    /// Exchanges the records (host first), agrees on a history, and checks both sides
    /// agreed on the same (`synced`). Returns the `Synced` to tell (none without a game
    /// identifier; a guest has one from the welcome).
    pub(super) fn sync(&mut self, conn: &mut Conn, host: bool, stop: &AtomicBool) -> Result<Option<LanEvent>, Fail> {
        let deadline = Instant::now() + HANDSHAKE_LIMIT;
        let theirs = if host {
            self.send_record(conn)?;
            read_record(conn, deadline, stop)?
        } else {
            let theirs = read_record(conn, deadline, stop)?;
            self.send_record(conn)?;
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
            let theirs = conn.read(deadline, stop)?;
            check_synced(&theirs, &mine)?;
            conn.write(std::slice::from_ref(&mine))?;
        } else {
            let mine = Wire::Synced { actions: game.history().len(), digest: digest(&game) };
            conn.write(std::slice::from_ref(&mine))?;
            let theirs = conn.read(deadline, stop)?;
            check_synced(&theirs, &mine)?;
        }
        self.game = Some(game.clone());
        Ok(self.id.map(|id| LanEvent::Synced { id, game, guest_seats: self.guest_seats, taken_back, gained }))
    }

    /// Sends this side's record: its lines, then `record-end` with their count.
    fn send_record(&self, conn: &mut Conn) -> Result<(), Fail> {
        let text = self.game.as_ref().map(|game| Record::new(game.clone()).to_text());
        let mut messages: Vec<Wire> =
            text.as_deref().unwrap_or("").lines().map(|line| Wire::Record(line.into())).collect();
        messages.push(Wire::RecordEnd(messages.len()));
        conn.write(&messages)?;
        Ok(())
    }

    /// A message of the game, checked against this side's copy before anything changes.
    pub(super) fn check_and_apply(&mut self, message: Wire) -> Result<LanEvent, Fail> {
        let peer_seats = self.peer_seats();
        let Some(game) = self.game.as_mut() else { return Err(unexpected(&message)) };
        let length = game.history().len();
        match message {
            Wire::Move { index, action } => {
                let event = their_move(game, peer_seats, index, action)?;
                self.my_undo = None;
                self.their_undo = None;
                Ok(event)
            }
            Wire::Offer { index } => their_offer(game, peer_seats, index),
            Wire::Vote { index, given, accept } => their_vote(game, peer_seats, index, given, accept),
            Wire::Undo { index, to } => {
                check_index(index, length)?;
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

/// The other side's seat played `action` with `index` actions before it.
fn their_move(game: &mut Game, peer_seats: SeatSet, index: usize, action: Action) -> Result<LanEvent, Fail> {
    check_index(index, game.history().len())?;
    let seat = game.to_move();
    if !peer_seats.contains(seat) {
        return bye(ByeReason::WrongSeat, format!("seat {seat} is not the sender's"));
    }
    if let Err(error) = game.play_action(&action) {
        return bye(ByeReason::Illegal, format!("{action}: {error}"));
    }
    Ok(LanEvent::Played { seat, action })
}

/// The other side's seat to move offers a draw; an offer already made is one received again.
fn their_offer(game: &mut Game, peer_seats: SeatSet, index: usize) -> Result<LanEvent, Fail> {
    check_index(index, game.history().len())?;
    let seat = game.to_move();
    if !peer_seats.contains(seat) {
        return bye(ByeReason::WrongSeat, format!("seat {seat} is not the sender's"));
    }
    if let Err(error) = game.offer_draw() {
        let reason =
            if error == halma_rules::GameError::AlreadyOffered { ByeReason::Replayed } else { ByeReason::Illegal };
        return bye(reason, format!("offer: {error}"));
    }
    Ok(LanEvent::DrawOffered { seat })
}

/// The other side's awaited seat votes; `given` (the votes before it) tells a vote received
/// twice from one out of turn.
fn their_vote(
    game: &mut Game,
    peer_seats: SeatSet,
    index: usize,
    given: usize,
    accept: bool,
) -> Result<LanEvent, Fail> {
    check_index(index, game.history().len())?;
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

/// A message's `index` must be the game's length: smaller is an old message received
/// again, larger one from a history this side never had.
fn check_index(index: usize, length: usize) -> Result<(), Fail> {
    if index < length {
        bye(ByeReason::Replayed, format!("action {index} is past (the game has {length})"))
    } else if index > length {
        bye(ByeReason::OutOfSync, format!("action {index} is ahead (the game has {length})"))
    } else {
        Ok(())
    }
}

fn bye<T>(reason: ByeReason, why: String) -> Result<T, Fail> {
    Err(Fail::Bye(reason, why))
}

fn check_synced(theirs: &Wire, mine: &Wire) -> Result<(), Fail> {
    match theirs {
        Wire::Synced { .. } if theirs == mine => Ok(()),
        Wire::Synced { .. } => Err(Fail::Bye(ByeReason::OutOfSync, "the two sides agreed on different games".into())),
        other => Err(unexpected(other)),
    }
}

/// Reads the other side's record: `record` lines, then `record-end` with their count.
fn read_record(conn: &mut Conn, deadline: Instant, stop: &AtomicBool) -> Result<Option<Game>, Fail> {
    let mut text = String::new();
    let mut lines = 0usize;
    loop {
        match conn.read(deadline, stop)? {
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
