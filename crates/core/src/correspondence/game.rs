//! One game by message as this device keeps it: its identifier, this device's seats and
//! the record, and what the local player may do to it (whose turn, play, vote).

use super::{apply_vote, compose, GameId, ParseError, Vote};
use halma_record::Record;
use halma_rules::{Action, Game, Outcome, Seat, SeatSet, Setup};

/// Whose turn a game by message is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// A seat played on this device is to move (or to vote on a draw offer).
    Local(Seat),
    /// A seat of the other side: the game waits for their message.
    Remote(Seat),
    /// The game is over.
    Over(Outcome),
}

/// One game by message as this device keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorrespondenceGame {
    pub id: GameId,
    /// The seats played on this device; the others are the other side's.
    pub local: SeatSet,
    /// The game, with whatever the record knows of its players.
    pub record: Record,
    /// When this device last changed it (seconds since 1970).
    pub updated: u64,
}

impl CorrespondenceGame {
    /// A new game by message with a new random identifier; `local` are this device's seats
    /// (at least one seat in play, and not all of them).
    pub fn new(game: Game, local: SeatSet) -> Result<CorrespondenceGame, ParseError> {
        let setup = game.setup();
        let local = in_play(local, setup);
        if local.is_empty() || local == all_seats(setup) {
            return Err(ParseError::BadFrame { text: format!("seats {local}") });
        }
        Ok(CorrespondenceGame {
            id: GameId::random(),
            local,
            record: Record::new(game),
            updated: crate::storage::now_unix_time(),
        })
    }

    pub fn game(&self) -> &Game {
        &self.record.game
    }

    /// The other side's seats.
    pub fn remote(&self) -> SeatSet {
        let setup = self.game().setup();
        let mut remote = SeatSet::EMPTY;
        for &seat in setup.seats() {
            if !self.local.contains(seat) {
                remote.insert(seat);
            }
        }
        remote
    }

    /// Whose turn it is: the seat to move, or the seat whose draw vote is awaited.
    pub fn turn(&self) -> Turn {
        let game = self.game();
        if game.is_over() {
            return Turn::Over(game.outcome());
        }
        let seat = game.pending_offer().map_or(game.to_move(), |offer| offer.awaiting);
        if self.local.contains(seat) {
            Turn::Local(seat)
        } else {
            Turn::Remote(seat)
        }
    }

    /// The message to send now, with `header` as its first line (see [`compose`]).
    pub fn compose(&self, header: &str) -> String {
        compose(header, self.id, self.local, &self.record)
    }

    /// Plays a local seat's action (the UI's move), refusing another seat's.
    pub fn play_local(&mut self, action: &Action) -> Result<(), LocalError> {
        let seat = self.game().to_move();
        if !self.local.contains(seat) {
            return Err(LocalError::NotLocalTurn(seat));
        }
        self.record.game.play_action(action).map_err(LocalError::Rules)?;
        self.updated = crate::storage::now_unix_time();
        Ok(())
    }

    /// A local seat's draw vote (an offer by the seat to move, or the awaited answer).
    pub fn vote_local(&mut self, vote: Vote) -> Result<(), LocalError> {
        if !self.local.contains(vote.seat()) {
            return Err(LocalError::NotLocalTurn(vote.seat()));
        }
        let game = self.game();
        let expected = match vote {
            Vote::Offer(_) => game.to_move(),
            Vote::Accept(_) | Vote::Refuse(_) => game.pending_offer().map_or(game.to_move(), |offer| offer.awaiting),
        };
        if vote.seat() != expected {
            return Err(LocalError::NotLocalTurn(vote.seat()));
        }
        apply_vote(&mut self.record.game, vote).map_err(LocalError::Rules)?;
        self.updated = crate::storage::now_unix_time();
        Ok(())
    }

    /// The game as the list of the Games page shows it.
    pub fn summary(&self) -> Summary {
        Summary {
            id: self.id,
            setup: self.game().setup(),
            local: self.local,
            turn: self.turn(),
            actions: self.game().history().len(),
            updated: self.updated,
        }
    }
}

/// Why a local action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LocalError {
    /// That seat is the other side's, or not the one to act.
    NotLocalTurn(Seat),
    Rules(halma_rules::GameError),
}

/// A game by message as the list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub id: GameId,
    pub setup: Setup,
    pub local: SeatSet,
    pub turn: Turn,
    /// Actions played so far.
    pub actions: usize,
    /// Last change, seconds since 1970.
    pub updated: u64,
}

/// Every seat in play in `setup`: a side may not hold them all (there would be no one to send to).
pub(super) fn all_seats(setup: Setup) -> SeatSet {
    let mut seats = SeatSet::EMPTY;
    for &seat in setup.seats() {
        seats.insert(seat);
    }
    seats
}

/// `seats` without those not in play in `setup`, as a frame or a file may name them.
pub(super) fn in_play(seats: SeatSet, setup: Setup) -> SeatSet {
    let mut kept = SeatSet::EMPTY;
    for seat in seats.seats().filter(|&seat| setup.has_seat(seat)) {
        kept.insert(seat);
    }
    kept
}

/// Seats as their letters (`AC`), as the frame line and the game's file write them.
pub(super) fn seats_text(seats: SeatSet) -> String {
    seats.seats().map(Seat::letter).collect()
}
