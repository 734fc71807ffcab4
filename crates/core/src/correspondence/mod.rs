//! Play by message: a game travels as text through any chat app or mail, with no server.
//!
//! A message is a one-line header for people, a frame line naming the game, the normal
//! game record (docs/RECORDS.md), and an end line (docs/NETWORK.md has the format):
//!
//! ```text
//! Halma: your move, Purple. Open with Halma.
//! halma-by-message 1 game=7KQ2M4XA from=A turn=C
//! [Halma "1"]
//! [Setup "2p"]
//! [Teams "none"]
//! [FirstSeat "A"]
//! [Result "*"]
//!
//! 1. c3-d4
//! end 7KQ2M4XA
//! ```
//!
//! [`compose`] writes it, [`parse_message`] reads it back (tolerating what chat apps do
//! to text), [`decide`] compares it with the game this device knows, and
//! [`CorrespondenceStore`] keeps every game by message in its own file. Pure but for the
//! store: no Slint, no network.

mod decide;
mod game;
mod id;
mod message;
mod store;

pub use decide::{decide, Applied, Decision, NewGame, Refusal};
use game::{all_seats, in_play, seats_text};
pub use game::{CorrespondenceGame, LocalError, Summary, Turn};
pub use id::{apply_vote, turn_votes, GameId, Vote, ID_ALPHABET, ID_LENGTH};
pub use message::{
    colour_name, compose, english_header, parse_message, unmangle, Message, OutgoingMessage, ParseError, FRAME_WORD,
    MAX_FRAMES_READ, MAX_MESSAGE_BYTES, MESSAGE_VERSION,
};
pub use store::{
    CorrespondenceStore, DamagedFile, FileProblem, ReceiveError, FILE_FORMAT, FILE_VERSION, FOLDER, MAX_GAME_FILE_BYTES,
};

/// What the tests of every part start from: a two-player game where this device plays A.
#[cfg(test)]
mod fixtures {
    use super::*;
    use halma_record::Record;
    use halma_rules::{Game, Seat, SeatSet, Setup};

    fn game_of(moves: &[&str]) -> Game {
        let mut game = Game::new(Setup::TwoPlayers, Seat::A);
        for text in moves {
            assert_eq!(game.play_text(text), Ok(()), "{text}");
        }
        game
    }

    pub(super) fn mine(moves: &[&str]) -> CorrespondenceGame {
        CorrespondenceGame {
            id: GameId::parse("7KQ2M4XA").unwrap_or_else(GameId::random),
            local: SeatSet::single(Seat::A),
            record: Record::new(game_of(moves)),
            updated: 1,
        }
    }

    pub(super) fn message_from_c(moves: &[&str]) -> Message {
        let game = mine(moves);
        let text = compose("hi", game.id, SeatSet::single(Seat::C), &game.record);
        match parse_message(&text) {
            Ok(message) => message,
            Err(error) => panic!("{error}: {text}"),
        }
    }
}
