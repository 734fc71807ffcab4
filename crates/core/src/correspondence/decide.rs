//! Reconciling a received message with the game this device knows: it is applied only
//! when it extends the known game by exactly the other side's actions and draw votes.

use super::{in_play, turn_votes, CorrespondenceGame, GameId, Message, Vote};
use halma_rules::{Action, Seat, SeatSet};
use std::fmt;

/// A received game that this device does not know yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// The game to keep if the player says yes: this device plays the seats the sender
    /// does not.
    pub game: CorrespondenceGame,
    /// The sender's seats.
    pub from: SeatSet,
}

/// What the message brought into a known game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The game with the message applied (to be saved).
    pub game: CorrespondenceGame,
    /// The other side's new actions, each with the seat that played it (`Purple played
    /// m16-k14`).
    pub played: Vec<(Seat, Action)>,
    /// The other side's new draw votes.
    pub votes: Vec<Vote>,
}

/// Why a message about a known game was refused. The known game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The message's game starts differently (setup, first seat, start position).
    DifferentStart,
    /// The message changes action `action` (1-based) of the known game: earlier actions
    /// rewritten (or taken back).
    Rewritten { action: usize },
    /// The message changes draw vote `vote` (1-based) of the turn in progress.
    VotesRewritten { vote: usize },
    /// An older message of this game: it knows fewer actions or votes than this device.
    OldMessage,
    /// The message brings nothing new (the same game, e.g. this device's own message).
    NothingNew,
    /// The sender says it plays seats that this device plays.
    WrongSeat { seats: SeatSet },
    /// The sender played or voted for a seat of this device: it skipped this side's turn.
    SkippedTurn { seat: Seat },
    /// The message's game is not this game by message's: other seats in play.
    WrongSetup,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::DifferentStart => f.write_str("the message's game starts differently"),
            Refusal::Rewritten { action } => write!(f, "the message rewrites action {action} of the game"),
            Refusal::VotesRewritten { vote } => write!(f, "the message changes draw vote {vote} of this turn"),
            Refusal::OldMessage => f.write_str("an older message of this game"),
            Refusal::NothingNew => f.write_str("nothing new in this message"),
            Refusal::WrongSeat { seats } => write!(f, "the sender plays seats {seats}, which are this device's"),
            Refusal::SkippedTurn { seat } => write!(f, "the sender played seat {seat}'s turn, which is this device's"),
            Refusal::WrongSetup => f.write_str("the message's game is of another setup"),
        }
    }
}

/// What to do with a received message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The known game extended by exactly the other side's actions and votes: save `game`.
    Applied(Applied),
    /// A game this device does not know: ask the player, then save `game`.
    NewGame(NewGame),
    /// Refused; the known game is unchanged.
    Refused { id: GameId, reason: Refusal },
}

/// Decides what a message means for the games this device knows (`known` finds a game by
/// its identifier). See docs/NETWORK.md, "Receiving a message".
pub fn decide(message: Message, mut known: impl FnMut(GameId) -> Option<CorrespondenceGame>) -> Decision {
    let now = crate::storage::now_unix_time();
    let Some(mine) = known(message.id) else {
        let setup = message.record.game.setup();
        let mut local = SeatSet::EMPTY;
        for &seat in setup.seats() {
            if !message.from.contains(seat) {
                local.insert(seat);
            }
        }
        let game = CorrespondenceGame { id: message.id, local, record: message.record, updated: now };
        return Decision::NewGame(NewGame { game, from: message.from });
    };
    let refuse = |reason| Decision::Refused { id: message.id, reason };
    match extension(&mine, &message) {
        Ok((played, votes)) => {
            let mut record = message.record;
            // What this device knows of the players stays.
            for (slot, known) in record.players.iter_mut().zip(&mine.record.players) {
                if slot.is_none() {
                    slot.clone_from(known);
                }
            }
            let game = CorrespondenceGame { id: mine.id, local: mine.local, record, updated: now };
            Decision::Applied(Applied { game, played, votes })
        }
        Err(reason) => refuse(reason),
    }
}

type Extension = (Vec<(Seat, Action)>, Vec<Vote>);

/// The other side's actions and votes that take `mine` to the message's game, or why
/// the message is not such an extension.
fn extension(mine: &CorrespondenceGame, message: &Message) -> Result<Extension, Refusal> {
    let known = mine.game();
    let theirs = &message.record.game;
    if theirs.setup() != known.setup() {
        return Err(Refusal::WrongSetup);
    }
    if theirs.start_position() != known.start_position() {
        return Err(Refusal::DifferentStart);
    }
    let (old, new) = (known.history(), theirs.history());
    if let Some(index) = old.iter().zip(new).position(|(a, b)| a != b) {
        return Err(Refusal::Rewritten { action: index + 1 });
    }
    let (old_votes, new_votes) = (turn_votes(known), turn_votes(theirs));
    if new.len() < old.len() {
        return Err(Refusal::OldMessage);
    }
    let fresh_votes: Vec<Vote> = if new.len() == old.len() {
        if let Some(index) = old_votes.iter().zip(&new_votes).position(|(a, b)| a != b) {
            // A vote of this turn is not the one this device knows.
            return Err(Refusal::VotesRewritten { vote: index + 1 });
        }
        if new_votes.len() < old_votes.len() {
            return Err(Refusal::OldMessage);
        }
        if new_votes.len() == old_votes.len() {
            return Err(Refusal::NothingNew);
        }
        new_votes[old_votes.len()..].to_vec()
    } else {
        // New actions: a draw offer this device must answer cannot be passed over.
        if let Some(offer) = known.pending_offer() {
            if mine.local.contains(offer.awaiting) {
                return Err(Refusal::SkippedTurn { seat: offer.awaiting });
            }
        }
        new_votes
    };
    let overlap = in_play(message.from, known.setup());
    let mut clash = SeatSet::EMPTY;
    for seat in overlap.seats().filter(|&seat| mine.local.contains(seat)) {
        clash.insert(seat);
    }
    if !clash.is_empty() {
        return Err(Refusal::WrongSeat { seats: clash });
    }
    let mut played = Vec::new();
    for (index, action) in new.iter().enumerate().skip(old.len()) {
        let seat = theirs.actor(index);
        if mine.local.contains(seat) {
            return Err(Refusal::SkippedTurn { seat });
        }
        played.push((seat, action.clone()));
    }
    if let Some(vote) = fresh_votes.iter().find(|vote| mine.local.contains(vote.seat())) {
        return Err(Refusal::SkippedTurn { seat: vote.seat() });
    }
    Ok((played, fresh_votes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::correspondence::fixtures::{message_from_c, mine};
    use crate::correspondence::{compose, parse_message, Turn};
    use halma_record::Record;
    use halma_rules::{DrawReason, Game, Outcome, Setup};

    #[test]
    fn the_other_sides_move_is_applied() {
        let known = mine(&["c3-d4"]);
        let decision = decide(message_from_c(&["c3-d4", "n14-m13"]), |_| Some(known.clone()));
        let Decision::Applied(applied) = decision else { panic!("{decision:?}") };
        assert_eq!(applied.played.len(), 1);
        assert_eq!(applied.played[0].0, Seat::C);
        assert_eq!(applied.played[0].1.to_string(), "n14-m13");
        assert_eq!(applied.game.turn(), Turn::Local(Seat::A));
    }

    #[test]
    fn refusals() {
        let known = mine(&["c3-d4", "n14-m13", "e2-f3"]);
        let refused = |message: Message| match decide(message, |_| Some(known.clone())) {
            Decision::Refused { reason, .. } => reason,
            other => panic!("{other:?}"),
        };
        assert_eq!(refused(message_from_c(&["c3-d4", "n14-m13"])), Refusal::OldMessage);
        assert_eq!(refused(message_from_c(&["c3-d4", "n14-m13", "e2-f3"])), Refusal::NothingNew);
        assert_eq!(
            refused(message_from_c(&["c3-d4", "n14-l14", "e2-f3", "m14-l13"])),
            Refusal::Rewritten { action: 2 }
        );
        // C played, then A's move and C's again: A's turn was played by the sender.
        assert_eq!(
            refused(message_from_c(&["c3-d4", "n14-m13", "e2-f3", "m14-l13", "d3-e4", "o13-n12"])),
            Refusal::SkippedTurn { seat: Seat::A }
        );
        let mut wrong = message_from_c(&["c3-d4", "n14-m13", "e2-f3", "m14-l13"]);
        wrong.from = SeatSet::single(Seat::A);
        assert_eq!(refused(wrong), Refusal::WrongSeat { seats: SeatSet::single(Seat::A) });
        let mut other_start = message_from_c(&[]);
        other_start.record = Record::new(Game::new(Setup::TwoPlayers, Seat::C));
        assert_eq!(refused(other_start), Refusal::DifferentStart);
    }

    #[test]
    fn draw_votes_travel_and_are_checked() {
        // A offers (locally), C accepts by message.
        let mut known = mine(&["c3-d4", "n14-m13"]);
        assert_eq!(known.vote_local(Vote::Offer(Seat::A)), Ok(()));
        let mut theirs = known.record.game.clone();
        assert!(theirs.answer_draw(Seat::C, true).is_ok());
        let text = compose("x", known.id, SeatSet::single(Seat::C), &Record::new(theirs));
        let decision = decide(parse_message(&text).expect("reads"), |_| Some(known.clone()));
        let Decision::Applied(applied) = decision else { panic!("{decision:?}") };
        assert_eq!(applied.votes, vec![Vote::Accept(Seat::C)]);
        assert_eq!(applied.game.turn(), Turn::Over(Outcome::Draw(DrawReason::Agreement)));

        // C offers by message and the message answers for A: refused.
        let known = mine(&["c3-d4"]);
        let mut theirs = known.record.game.clone();
        assert!(theirs.offer_draw().is_ok());
        assert!(theirs.answer_draw(Seat::A, true).is_ok());
        let text = compose("x", known.id, SeatSet::single(Seat::C), &Record::new(theirs));
        let decision = decide(parse_message(&text).expect("reads"), |_| Some(known.clone()));
        assert_eq!(decision, Decision::Refused { id: known.id, reason: Refusal::SkippedTurn { seat: Seat::A } });
    }

    #[test]
    fn an_unknown_game_is_offered_with_the_other_seats() {
        let decision = decide(message_from_c(&["c3-d4"]), |_| None);
        let Decision::NewGame(new) = decision else { panic!("{decision:?}") };
        assert_eq!(new.game.local, SeatSet::single(Seat::A));
        assert_eq!(new.from, SeatSet::single(Seat::C));
    }
}
