//! Game identifiers and draw votes: what a game by message and a network game (`lan`)
//! both name a game and its draw votes by, so neither depends on the other.

use halma_rules::{DrawReason, Game, Outcome, Seat};
use std::fmt;

/// The characters of a game identifier: Crockford's base 32 (no I, L, O, U), read in any case.
pub const ID_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// The length of a game identifier: 8 characters, 40 random bits.
pub const ID_LENGTH: usize = 8;

/// A game's identifier: [`ID_LENGTH`] characters of [`ID_ALPHABET`], random, kept for the
/// whole game (and its file name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId([u8; ID_LENGTH]);

impl GameId {
    /// A new random identifier.
    pub fn random() -> GameId {
        let mut bytes = [0u8; ID_LENGTH];
        for byte in &mut bytes {
            *byte = ID_ALPHABET[rand::random_range(0..ID_ALPHABET.len())];
        }
        GameId(bytes)
    }

    /// Reads an identifier in any case (`7kq2m4xa` is `7KQ2M4XA`); `None` for anything else.
    pub fn parse(text: &str) -> Option<GameId> {
        let bytes = text.as_bytes();
        if bytes.len() != ID_LENGTH {
            return None;
        }
        let mut id = [0u8; ID_LENGTH];
        for (slot, &byte) in id.iter_mut().zip(bytes) {
            let upper = byte.to_ascii_uppercase();
            if !ID_ALPHABET.contains(&upper) {
                return None;
            }
            *slot = upper;
        }
        Some(GameId(id))
    }

    pub fn as_str(&self) -> &str {
        // Only ASCII letters and digits are ever stored.
        std::str::from_utf8(&self.0).unwrap_or("00000000")
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One draw vote of the turn in progress, as a record keeps it (docs/RECORDS.md: only the
/// last turn's votes are written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vote {
    Offer(Seat),
    Accept(Seat),
    Refuse(Seat),
}

impl Vote {
    /// The seat that gave the vote.
    pub fn seat(self) -> Seat {
        match self {
            Vote::Offer(seat) | Vote::Accept(seat) | Vote::Refuse(seat) => seat,
        }
    }

    /// The vote as a record's word: `offer`, `accept`, `refuse`.
    pub fn word(self) -> &'static str {
        match self {
            Vote::Offer(_) => "offer",
            Vote::Accept(_) => "accept",
            Vote::Refuse(_) => "refuse",
        }
    }
}

/// The draw votes of the turn in progress, in the order they were given, as the game's
/// state tells them: an offer waiting (the offer and the accepts so far), an agreed draw
/// (the offer and every other seat's accept) or an offer refused this turn (the offer and
/// the refusal of the seat after the offerer, as a record reads `offer refuse`).
pub fn turn_votes(game: &Game) -> Vec<Vote> {
    let setup = game.setup();
    let mut votes = Vec::new();
    let accepts_from = |offerer: Seat, until: Option<Seat>, votes: &mut Vec<Vote>| {
        let mut seat = setup.next_seat(offerer);
        while seat != offerer && Some(seat) != until {
            votes.push(Vote::Accept(seat));
            seat = setup.next_seat(seat);
        }
    };
    if let Some(offer) = game.pending_offer() {
        votes.push(Vote::Offer(offer.offerer));
        accepts_from(offer.offerer, Some(offer.awaiting), &mut votes);
    } else if game.outcome() == Outcome::Draw(DrawReason::Agreement) {
        let offerer = game.to_move();
        votes.push(Vote::Offer(offerer));
        accepts_from(offerer, None, &mut votes);
    } else if game.outcome() == Outcome::Ongoing && !game.can_offer_draw() {
        let offerer = game.to_move();
        votes.push(Vote::Offer(offerer));
        votes.push(Vote::Refuse(setup.next_seat(offerer)));
    }
    votes
}

/// Gives `vote` on `game` (the seat to move offers, the awaited seat answers).
pub fn apply_vote(game: &mut Game, vote: Vote) -> Result<(), halma_rules::GameError> {
    match vote {
        Vote::Offer(_) => game.offer_draw().map(|_| ()),
        Vote::Accept(seat) => game.answer_draw(seat, true).map(|_| ()),
        Vote::Refuse(seat) => game.answer_draw(seat, false).map(|_| ()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_crockford_base32_in_any_case() {
        let id = GameId::random();
        assert_eq!(id.as_str().len(), 8);
        assert_eq!(GameId::parse(id.as_str()), Some(id));
        assert_eq!(GameId::parse("7kq2m4xa").map(|id| id.to_string()), Some("7KQ2M4XA".to_string()));
        assert_eq!(GameId::parse("7KQ2M4XI"), None, "I is not in the alphabet");
        assert_eq!(GameId::parse("7KQ2M4X"), None);
        assert_eq!(GameId::parse("7KQ2M4XAB"), None);
    }
}
