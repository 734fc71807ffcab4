//! A game over the local network (#40) as the app holds it: which game and which seats
//! this device plays, whether the other device is there, what it did last, and what the
//! other device has not heard yet. The link itself (`app::lan::LanLink`, a thread) stays
//! with the controller; the actions see it through [`LanCommand`]s and `Event::Nearby`.

use crate::app::correspondence::{turn_votes, GameId, Vote};
use crate::app::lan::{ByeReason, DropReason, HostConfig, JoinCode, JoinConfig};
use crate::app::settings::SavedLink;
use crate::rules::{Action, Game, Seat, SeatSet};
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

/// What the window shows of the network game (`bind::nearby` writes it).
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    pub active: bool,
    pub hosting: bool,
    pub code: String,
    pub address: String,
    pub status: crate::NearbyStatus,
    pub ending: crate::NearbyTrouble,
    pub note: crate::NearbyNote,
    pub note_seat: i32,
    pub note_action: String,
    pub taken_back: i32,
    pub gained: i32,
    pub undo_asked: bool,
    pub undo_pending: bool,
    pub joining: bool,
    pub join_connecting: bool,
    pub join_trouble: crate::NearbyTrouble,
    pub hosts: Vec<crate::FoundHost>,
    /// Redo and Restart do not apply while the other device plays too.
    pub shared: bool,
}

fn trouble_of_ending(ending: Ending) -> crate::NearbyTrouble {
    use crate::NearbyTrouble as T;
    match ending {
        Ending::Left => T::Left,
        Ending::WrongCode => T::WrongCode,
        Ending::OtherGame => T::OtherGame,
        Ending::Misbehaved => T::Misbehaved,
        Ending::NoNetwork => T::NoNetwork,
        Ending::Replaced => T::Replaced,
    }
}

fn count(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// The picture of the network game and the join dialog.
pub fn picture(nearby: Option<&Nearby>, join: Option<&super::state::JoinForm>) -> Picture {
    use super::state::JoinTrouble;
    use crate::{NearbyNote as N, NearbyStatus as S, NearbyTrouble as T};
    let (status, ending) = match nearby.map(|nearby| &nearby.status) {
        None | Some(Status::Waiting) => (S::Waiting, T::None),
        Some(Status::Connecting) => (S::Connecting, T::None),
        Some(Status::Connected) => (S::Connected, T::None),
        Some(Status::Lost) => (S::Lost, T::None),
        Some(Status::Ended(ending)) => (S::Ended, trouble_of_ending(*ending)),
    };
    let (mut note, mut note_seat, mut note_action, mut taken_back, mut gained) = (N::None, 0, String::new(), 0, 0);
    match nearby.map(|nearby| &nearby.note) {
        None | Some(Note::None) => {}
        Some(Note::Played { seat, action }) => {
            (note, note_seat, note_action) = (N::Played, seat.index() as i32, action.clone());
        }
        Some(Note::Undone) => note = N::Undone,
        Some(Note::UndoRefused) => note = N::UndoRefused,
        Some(Note::WrongCodeTried) => note = N::WrongCodeTried,
        Some(Note::NewCode) => note = N::NewCode,
        Some(Note::Resynced { taken_back: back, gained: got }) => {
            (note, taken_back, gained) = (N::Resynced, count(*back), count(*got));
        }
    }
    let join_trouble = match join.and_then(|join| join.trouble) {
        None => T::None,
        Some(JoinTrouble::Code) => T::Code,
        Some(JoinTrouble::Address) => T::Address,
        Some(JoinTrouble::Ended(ending)) => trouble_of_ending(ending),
    };
    // Not a first join still reaching for its host: the join dialog tells that.
    let shown = nearby.filter(|nearby| nearby.id.is_some());
    Picture {
        active: shown.is_some(),
        hosting: shown.is_some_and(|nearby| nearby.hosting),
        code: shown.map(|nearby| nearby.code.to_string()).unwrap_or_default(),
        address: shown.and_then(|nearby| nearby.address).map(|addr| addr.to_string()).unwrap_or_default(),
        status,
        ending,
        note,
        note_seat,
        note_action,
        taken_back,
        gained,
        undo_asked: shown.is_some_and(|nearby| nearby.undo_asked.is_some()),
        undo_pending: shown.is_some_and(|nearby| nearby.undo_pending.is_some()),
        joining: join.is_some(),
        join_connecting: join.is_some_and(|join| join.connecting),
        join_trouble,
        hosts: join
            .map(|join| {
                join.hosts
                    .iter()
                    .map(|(id, addr)| crate::FoundHost {
                        game: id.to_string().into(),
                        address: addr.to_string().into(),
                    })
                    .collect()
            })
            .unwrap_or_default(),
        shared: shown.is_some_and(Nearby::is_live),
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
    use crate::rules::{Setup, Square};

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
