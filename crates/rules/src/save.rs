//! The versioned save format of a game: moves in notation, replayed and checked on
//! loading, so that a save never holds a position the rules could not reach.

use super::excerpt::excerpt;
use super::game::{DrawOffer, Game, GameError, MAX_ACTIONS};
use super::notation::{parse_hpn, write_hpn, NotationError};
use super::position::Position;
use super::seat::{Seat, SeatSet};
use super::setup::Setup;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The save format's name and version.
pub const SAVE_FORMAT: &str = "halma-game";
pub const SAVE_VERSION: u32 = 1;

/// The on-disk form of a game: moves in notation, replayed and checked on loading.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedGame {
    pub format: String,
    pub version: u32,
    pub setup: Setup,
    pub first: char,
    /// HPN of the start, when it is not the standard start of `setup`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    pub moves: Vec<String>,
    /// Undone moves, the next to redo first.
    #[serde(default)]
    pub redo: Vec<String>,
    #[serde(default)]
    pub offer: Option<SavedOffer>,
    #[serde(default)]
    pub offered_this_turn: bool,
    #[serde(default)]
    pub agreed_draw: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedOffer {
    pub offerer: char,
    pub accepted: Vec<char>,
    pub awaiting: char,
}

/// Which seat field of a save holds a letter that is not a seat of its setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatField {
    /// `first`: the seat that moved first.
    First,
    /// `offer.offerer`: the seat that offered a draw.
    Offerer,
    /// `offer.awaiting`: the seat whose answer is awaited.
    Awaiting,
    /// `offer.accepted`: a seat that accepted the draw.
    Accepted,
}

impl fmt::Display for SeatField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SeatField::First => "first seat",
            SeatField::Offerer => "offering seat",
            SeatField::Awaiting => "awaited seat",
            SeatField::Accepted => "accepting seat",
        })
    }
}

/// Why a saved game could not be loaded. Texts from the file are shortened to 40
/// characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// Not JSON, or JSON without the fields and types of a save (serde's message).
    Json(String),
    /// The `format` field names another format.
    Format(String),
    /// Written by a newer version of Halma, in this format version.
    NewerVersion(u32),
    /// A seat letter that is not a seat of the setup.
    Seat { field: SeatField, letter: char, setup: Setup },
    /// The start position's HPN does not parse.
    Start(NotationError),
    /// The start position is of another setup or first seat than the save says.
    StartMismatch,
    /// More moves, history and redo list together, than a game holds ([`MAX_ACTIONS`]).
    TooManyActions { actions: usize, limit: usize },
    /// A move of the history (numbered from 1) cannot be played.
    Move { number: usize, text: String, error: GameError },
    /// A move of the redo list cannot be played after the history.
    Redo { text: String, error: GameError },
    /// Agreed drawn and with a draw offer pending at once.
    DrawAndOffer,
    /// An agreed draw in a game already won or drawn by repetition.
    DrawAfterEnd,
    /// A draw offer in a finished game.
    OfferAfterEnd,
    /// The offering seat is not the seat to move, or it awaits its own answer.
    OfferNotToMove,
    /// The seats that accepted are not exactly those between the offerer and the awaited seat.
    VotesOutOfOrder,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Json(why) => f.write_str(why),
            LoadError::Format(format) => write!(f, "not a Halma game (format '{format}')"),
            LoadError::NewerVersion(version) => {
                write!(f, "saved by a newer version of Halma (format version {version}, this one reads {SAVE_VERSION})")
            }
            LoadError::Seat { field, letter, setup } => write!(f, "{field} '{letter}' is not a seat of {setup}"),
            LoadError::Start(why) => write!(f, "{why}"),
            LoadError::StartMismatch => f.write_str("the start position does not match the setup and first seat"),
            LoadError::TooManyActions { actions, limit } => {
                write!(f, "{actions} moves, more than the {limit} a game may hold")
            }
            LoadError::Move { number, text, error } => write!(f, "move {number} ('{text}'): {error}"),
            LoadError::Redo { text, error } => write!(f, "redo move '{text}': {error}"),
            LoadError::DrawAndOffer => f.write_str("a game cannot be both agreed drawn and have an offer pending"),
            LoadError::DrawAfterEnd => f.write_str("an agreed draw after the game was over"),
            LoadError::OfferAfterEnd => f.write_str("a draw offer in a finished game"),
            LoadError::OfferNotToMove => f.write_str("the draw offer does not fit the seat to move"),
            LoadError::VotesOutOfOrder => f.write_str("the draw offer's votes are not in turn order"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Start(why) => Some(why),
            LoadError::Move { error, .. } | LoadError::Redo { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// A game is saved as its [`SavedGame`], and read back only through its checks.
impl Serialize for Game {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SavedGame::from(self.clone()).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Game, D::Error> {
        let saved = SavedGame::deserialize(deserializer)?;
        Game::try_from(saved).map_err(serde::de::Error::custom)
    }
}

impl From<Game> for SavedGame {
    fn from(game: Game) -> SavedGame {
        let standard = Position::start(game.setup(), game.first_seat());
        SavedGame {
            format: SAVE_FORMAT.to_string(),
            version: SAVE_VERSION,
            setup: game.setup(),
            first: game.first_seat().letter(),
            start: (*game.start_position() != standard).then(|| write_hpn(game.start_position())),
            moves: game.actions.iter().map(ToString::to_string).collect(),
            redo: game.redo_list().map(ToString::to_string).collect(),
            offer: game.offer.map(|o| SavedOffer {
                offerer: o.offerer.letter(),
                accepted: o.accepted.seats().map(Seat::letter).collect(),
                awaiting: o.awaiting.letter(),
            }),
            offered_this_turn: game.offered_this_turn,
            agreed_draw: game.agreed_draw,
        }
    }
}

fn seat_in(setup: Setup, letter: char, field: SeatField) -> Result<Seat, LoadError> {
    Seat::from_letter(letter).filter(|&s| setup.has_seat(s)).ok_or(LoadError::Seat { field, letter, setup })
}

impl TryFrom<SavedGame> for Game {
    type Error = LoadError;

    fn try_from(saved: SavedGame) -> Result<Game, LoadError> {
        if saved.format != SAVE_FORMAT {
            return Err(LoadError::Format(excerpt(&saved.format)));
        }
        if saved.version > SAVE_VERSION {
            return Err(LoadError::NewerVersion(saved.version));
        }
        // Refused before replaying anything: an over-long save costs no more than a short one.
        let actions = saved.moves.len().saturating_add(saved.redo.len());
        if actions > MAX_ACTIONS {
            return Err(LoadError::TooManyActions { actions, limit: MAX_ACTIONS });
        }
        let setup = saved.setup;
        let first = seat_in(setup, saved.first, SeatField::First)?;
        let start = match &saved.start {
            Some(hpn) => parse_hpn(hpn).map_err(LoadError::Start)?,
            None => Position::start(setup, first),
        };
        if start.setup() != setup || start.first_seat() != first {
            return Err(LoadError::StartMismatch);
        }
        let mut game = Game::from_position(start);
        for (ply, text) in saved.moves.iter().enumerate() {
            game.play_text(text).map_err(|error| LoadError::Move { number: ply + 1, text: excerpt(text), error })?;
        }
        // The redo list must replay from here.
        let mut scratch = game.clone();
        let mut redo = Vec::new();
        for text in &saved.redo {
            let before = scratch.actions.len();
            scratch.play_text(text).map_err(|error| LoadError::Redo { text: excerpt(text), error })?;
            redo.push(scratch.actions[before].clone());
        }
        redo.reverse();
        game.redo = redo;
        if saved.agreed_draw && saved.offer.is_some() {
            return Err(LoadError::DrawAndOffer);
        }
        if saved.agreed_draw && game.is_over() {
            return Err(LoadError::DrawAfterEnd);
        }
        game.agreed_draw = saved.agreed_draw;
        game.offered_this_turn = saved.offered_this_turn || saved.offer.is_some();
        if let Some(offer) = saved.offer {
            if game.is_over() {
                return Err(LoadError::OfferAfterEnd);
            }
            let offerer = seat_in(setup, offer.offerer, SeatField::Offerer)?;
            let awaiting = seat_in(setup, offer.awaiting, SeatField::Awaiting)?;
            if offerer != game.to_move() || awaiting == offerer {
                return Err(LoadError::OfferNotToMove);
            }
            // The seats that accepted are exactly those between the offerer and the awaited one.
            let mut expected = SeatSet::EMPTY;
            let mut seat = setup.next_seat(offerer);
            while seat != awaiting {
                expected.insert(seat);
                seat = setup.next_seat(seat);
            }
            let mut accepted = SeatSet::EMPTY;
            for letter in offer.accepted {
                accepted.insert(seat_in(setup, letter, SeatField::Accepted)?);
            }
            if accepted != expected {
                return Err(LoadError::VotesOutOfOrder);
            }
            game.offer = Some(DrawOffer { offerer, accepted, awaiting });
        }
        Ok(game)
    }
}

impl Game {
    /// The game as JSON text (the save format).
    ///
    /// ```rust
    /// use halma_rules::{Game, LoadError, Seat, Setup};
    ///
    /// let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    /// game.play_text("e1-f1")?;
    /// let saved = game.to_json();
    /// assert_eq!(Game::from_json(&saved), Ok(game));
    ///
    /// let tampered = saved.replace("e1-f1", "e1-f4");
    /// let error = Game::from_json(&tampered).unwrap_err();
    /// assert!(matches!(error, LoadError::Move { number: 1, .. }));
    /// assert_eq!(error.to_string(), "move 1 ('e1-f4'): illegal move: e1 to f4 is neither a step nor a jump");
    /// assert!(matches!(Game::from_json("{ nope"), Err(LoadError::Json(_))));
    /// # Ok::<(), halma_rules::GameError>(())
    /// ```
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Loads a game from JSON text, checking every move.
    pub fn from_json(text: &str) -> Result<Game, LoadError> {
        let saved: SavedGame = serde_json::from_str(text).map_err(|e| LoadError::Json(e.to_string()))?;
        Game::try_from(saved)
    }
}
