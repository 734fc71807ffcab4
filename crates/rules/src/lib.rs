//! The rules of Halma (docs/RULES.md): pure logic, no I/O, no interface.
//!
//! One concept per file: squares ([`Square`]), seats ([`Seat`], [`SeatSet`]),
//! bitboards, setups and camps ([`Setup`]), moves and routes ([`Move`], [`Route`],
//! [`MoveSet`]), positions and move generation ([`Position`]; jump chains on the four
//! colour lattices in `jumps`), whole games
//! ([`Game`]), text notation ([`parse_move`], [`parse_hpn`], [`write_hpn`]), the
//! save format ([`SavedGame`]) and the one way every layer quotes rejected text in an
//! error ([`excerpt`]).

mod bitboard;
mod by_seat;
mod excerpt;
mod game;
mod jumps;
mod moves;
mod notation;
mod position;
mod save;
mod seat;
mod setup;
mod square;
mod tables;

pub use bitboard::Bitboard;
pub use by_seat::BySeat;
pub use excerpt::{excerpt, message_excerpt, path_excerpt, EXCERPT_CHARS, MESSAGE_CHARS, PATH_CHARS};
pub use game::{Action, DrawOffer, DrawReason, Game, GameError, Outcome, VoteResult, MAX_ACTIONS};
pub use moves::{Move, MoveSet, Route};
pub use notation::{parse_hpn, parse_hpn_fields, parse_move, write_hpn, MoveText, NotationError};
pub use position::{IllegalMove, Position, DUTY_FREE_TURNS};
pub use save::{LoadError, SavedGame, SavedOffer, SeatField, SAVE_FORMAT, SAVE_VERSION};
pub use seat::{ParseSeatError, Seat, SeatSet};
pub use setup::{camp_at, ParseSetupError, Setup, MAX_ARMY};
#[cfg(any(test, feature = "testing"))]
pub use square::sq;
pub use square::{ParseSquareError, Square};
pub use tables::DIRECTIONS;
