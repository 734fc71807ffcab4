//! Play by message: a game travels as text through any chat app or mail, with no server.
//! Pure but for the store: no Slint, no network. One concept a file, all re-exported here:
//!
//! - `id`: game identifiers and draw votes, shared with the network game (`lan`);
//! - `game`: [`CorrespondenceGame`], one game as this device keeps it;
//! - `message`: the text format, written by [`OutgoingMessage`] ([`compose`]) and read by
//!   [`Message`]'s `FromStr` ([`parse_message`]), tolerating what chat apps do to text;
//! - `decide`: [`decide`], what a received message means for the game this device knows;
//! - `store`: [`CorrespondenceStore`], every game by message in its own file.

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
