//! The rules of Halma (RULES.md): pure logic, no I/O, no interface.

mod bitboard;
mod game;
mod notation;
mod position;
mod setup;
mod square;
mod tables;

pub use bitboard::Bitboard;
pub use game::{
    Action, DrawOffer, DrawReason, Game, GameError, LoadError, Outcome, SavedGame, VoteResult, SAVE_FORMAT,
    SAVE_VERSION,
};
pub(crate) use notation::excerpt;
pub use notation::{parse_hpn, parse_hpn_fields, parse_move, write_hpn, MoveText, NotationError};
pub use position::{IllegalMove, Move, MoveSet, Position, Route, SeatSet, DUTY_FREE_TURNS, MAX_ARMY};
pub use setup::{camp_at, Setup};
pub use square::{ParseSquareError, Seat, Square};
pub use tables::DIRECTIONS;
