//! The link's words, shared by its parts and its users: what a host offers and how a guest
//! joins (`HostConfig`, `JoinConfig`), and what the link tells the UI (`LanEvent`, with
//! `DropReason` and `LocalRefusal`). Apart from `link.rs`, so that the handshake and the sync
//! can name them without depending on the loop that drives them.

use super::wire::ByeReason;
use super::JoinCode;
use crate::correspondence::GameId;
use halma_rules::{Action, Game, Seat, SeatSet};
use std::net::SocketAddr;

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
