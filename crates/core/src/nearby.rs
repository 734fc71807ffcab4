//! A game over the local network (#40) as the app holds it: which game and which seats
//! this device plays, whether the other device is there, what it did last, and what the
//! other device has not heard yet. The link itself (`app::lan::LanLink`, a thread) stays
//! with the controller; the actions see it through [`LanCommand`]s and `Event::Nearby`.

use crate::correspondence::{turn_votes, GameId, Vote};
use crate::lan::{ByeReason, DropReason, HostConfig, JoinCode, JoinConfig};
use crate::settings::SavedLink;
use halma_rules::{Action, Game, Seat, SeatSet};
use std::net::SocketAddr;

/// What the controller does with the link, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum LanCommand {
    /// Hosts `game`, on `port` if it is free (a restarted host takes its old port back, so
    /// that its guest finds it again), else on any.
    Host {
        config: HostConfig,
        game: Game,
        port: u16,
    },
    /// Joins a host, with this device's game of the same identifier when it has one.
    Join {
        config: JoinConfig,
        game: Option<Game>,
    },
    Play(Action),
    OfferDraw,
    Vote(bool),
    RequestUndo(usize),
    AnswerUndo(bool),
    /// Joins need this code from now on (the host's connected guest stays).
    NewCode(JoinCode),
    /// Says goodbye and ends the link.
    Close,
    /// Looks for hosts on the network (true) or stops looking.
    Browse(bool),
}

/// Whether the other device is there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The host waits for the guest's first join.
    Waiting,
    /// The guest reaches for the host.
    Connecting,
    Connected,
    /// The connection went; the link reconnects by itself (a guest) or waits for the
    /// guest to come back (a host).
    Lost,
    /// The link ended and will not come back by itself.
    Ended(Ending),
}

/// Why a link ended for good.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The other device left the game.
    Left,
    /// The join code was wrong.
    WrongCode,
    /// The two devices play different games, or other versions of Halma.
    OtherGame,
    /// The other device sent something the protocol or the rules refuse.
    Misbehaved,
    /// The host could not listen on the network.
    NoNetwork,
    /// Another device joined with the code and took this guest's place.
    Replaced,
}

/// What the game page tells about the network game, until the next thing happens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    None,
    /// The other device's seat played.
    Played {
        seat: Seat,
        action: String,
    },
    /// The other device took back moves with this device's consent (or gave it).
    Undone,
    /// The other device said no to taking back.
    UndoRefused,
    /// Someone tried to join with a wrong code.
    WrongCodeTried,
    /// The host drew a new join code.
    NewCode,
    /// After a reconnection the two devices agreed on a game: this device's last
    /// `taken_back` actions were not kept, `gained` came from the other device.
    Resynced {
        taken_back: usize,
        gained: usize,
    },
}

/// How far the other device has heard of this device's game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Heard {
    /// Actions both devices know.
    pub actions: usize,
    /// Votes of the turn in progress both devices know.
    pub votes: usize,
}

/// The network game shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Nearby {
    /// The game's identifier; a guest learns it when it joins.
    pub id: Option<GameId>,
    pub code: JoinCode,
    pub hosting: bool,
    /// The host's address: where it listens (shown so the guest can type it), or where
    /// the guest joined.
    pub address: Option<SocketAddr>,
    /// The seats played on this device; the others are the other device's.
    pub local: SeatSet,
    pub status: Status,
    pub heard: Heard,
    /// The other device asks to take back actions until this many remain.
    pub undo_asked: Option<usize>,
    /// This device asked to take back actions until this many remain.
    pub undo_pending: Option<usize>,
    pub note: Note,
}

impl Nearby {
    /// A new hosted game: nothing heard yet.
    pub fn hosting(id: GameId, code: JoinCode, local: SeatSet) -> Nearby {
        Nearby {
            id: Some(id),
            code,
            hosting: true,
            address: None,
            local,
            status: Status::Waiting,
            heard: Heard::default(),
            undo_asked: None,
            undo_pending: None,
            note: Note::None,
        }
    }

    /// A guest reaching for a host (its seats are known once synced).
    pub fn joining(code: JoinCode, address: SocketAddr) -> Nearby {
        Nearby {
            id: None,
            hosting: false,
            address: Some(address),
            status: Status::Connecting,
            ..Nearby::hosting(GameId::random(), code, SeatSet::EMPTY)
        }
    }

    /// What is kept for the next run of the app.
    pub fn saved(&self) -> Option<SavedLink> {
        let address = self.address?;
        Some(SavedLink {
            id: self.id?.to_string(),
            code: self.code.to_string(),
            hosting: self.hosting,
            address: address.to_string(),
        })
    }

    /// The link still runs (it may be reconnecting).
    pub fn is_live(&self) -> bool {
        !matches!(self.status, Status::Ended(_))
    }

    /// Both devices know `game` as it is now (after a sync).
    pub fn heard_all(&mut self, game: &Game) {
        self.heard = Heard { actions: game.history().len(), votes: turn_votes(game).len() };
    }

    /// What of `game` the other device has not heard yet, as commands for the link: this
    /// device's actions and votes since the last thing both knew. An action of the other
    /// device's seat that this device played itself (a forced pass) waits for the other
    /// device's own word before anything after it is sent.
    pub fn outgoing(&mut self, game: &Game) -> Vec<LanCommand> {
        let mut commands = Vec::new();
        if !self.is_live() {
            return commands;
        }
        let history = game.history();
        if history.len() < self.heard.actions {
            // Taken back here without the other device (never by the actions): start again
            // from what is left.
            self.heard_all(game);
            return commands;
        }
        while self.heard.actions < history.len() {
            let index = self.heard.actions;
            if !self.local.contains(game.actor(index)) {
                return commands;
            }
            commands.push(LanCommand::Play(history[index].clone()));
            self.heard = Heard { actions: index + 1, votes: 0 };
        }
        let votes = turn_votes(game);
        for vote in votes.iter().skip(self.heard.votes) {
            if !self.local.contains(vote.seat()) {
                break;
            }
            commands.push(match vote {
                Vote::Offer(_) => LanCommand::OfferDraw,
                Vote::Accept(_) => LanCommand::Vote(true),
                Vote::Refuse(_) => LanCommand::Vote(false),
            });
            self.heard.votes += 1;
        }
        commands
    }
}

/// Why a link ended for good, from why it dropped (`None`: it comes back by itself).
pub fn ending(reason: &DropReason, retrying: bool) -> Option<Ending> {
    // A guest that said goodbye left, though its host still listens for it.
    if matches!(reason, DropReason::PeerSaid { reason: ByeReason::Done, .. }) {
        return Some(Ending::Left);
    }
    if retrying {
        return None;
    }
    let bye = match reason {
        DropReason::PeerSaid { reason, .. } | DropReason::WeSaid { reason, .. } => *reason,
        DropReason::Lost(_) => return Some(Ending::Left),
    };
    Some(match bye {
        ByeReason::Done | ByeReason::Timeout | ByeReason::Busy => Ending::Left,
        ByeReason::Replaced => Ending::Replaced,
        ByeReason::WrongCode | ByeReason::TooManyAttempts => Ending::WrongCode,
        ByeReason::OtherGame | ByeReason::Version | ByeReason::OutOfSync => Ending::OtherGame,
        ByeReason::Malformed
        | ByeReason::TooLong
        | ByeReason::Replayed
        | ByeReason::Illegal
        | ByeReason::WrongSeat
        | ByeReason::Forged => Ending::Misbehaved,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use halma_rules::{Setup, Square};

    fn step(game: &mut Game, from: &str, to: &str) {
        let route: [Square; 2] = [from.parse().expect("a square"), to.parse().expect("a square")];
        game.play_route(&route).expect("a legal step");
    }

    #[test]
    fn only_this_devices_news_goes_out_once_and_a_forced_pass_of_theirs_waits() {
        let mut game = Game::new(Setup::TwoPlayers, Seat::A);
        let mut nearby = Nearby::hosting(GameId::random(), JoinCode::random(), SeatSet::single(Seat::A));
        step(&mut game, "c3", "d4");
        assert_eq!(nearby.outgoing(&game), vec![LanCommand::Play(game.history()[0].clone())]);
        assert_eq!(nearby.outgoing(&game), Vec::new(), "sent once");
        // The other device's move, then this device's offer.
        step(&mut game, "n14", "m13");
        assert_eq!(nearby.outgoing(&game), Vec::new(), "their move is theirs to tell");
        nearby.heard_all(&game);
        game.offer_draw().expect("an offer");
        assert_eq!(nearby.outgoing(&game), vec![LanCommand::OfferDraw]);
        game.answer_draw(Seat::C, false).expect("a vote");
        assert_eq!(nearby.outgoing(&game), Vec::new(), "their refusal is theirs");
        nearby.status = Status::Ended(Ending::Left);
        step(&mut game, "d4", "e5");
        assert_eq!(nearby.outgoing(&game), Vec::new(), "nothing goes to a link that ended");
    }

    #[test]
    fn a_link_ends_for_good_only_for_reasons_that_do_not_pass() {
        let said = |reason| DropReason::PeerSaid { reason, text: String::new() };
        assert_eq!(ending(&DropReason::Lost("reset".into()), true), None);
        assert_eq!(ending(&said(ByeReason::Timeout), true), None);
        assert_eq!(ending(&said(ByeReason::Done), true), Some(Ending::Left), "a host's guest left");
        assert_eq!(ending(&said(ByeReason::Done), false), Some(Ending::Left));
        assert_eq!(ending(&said(ByeReason::WrongCode), false), Some(Ending::WrongCode));
        assert_eq!(ending(&said(ByeReason::OutOfSync), false), Some(Ending::OtherGame));
        assert_eq!(ending(&said(ByeReason::Malformed), false), Some(Ending::Misbehaved));
        assert_eq!(ending(&said(ByeReason::Replaced), false), Some(Ending::Replaced));
        assert_eq!(ending(&said(ByeReason::Forged), true), None, "a guest joins again after a forged line");
    }
}
