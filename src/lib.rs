//! Halma on Monks' 16×16 board with Parker's 1938 square-Halma rules.
//!
//! - [`rules`]: the game itself, pure and fast.
//! - [`ai`]: computer players and hints.
//! - [`record`]: game records, the text format of exported games and arena games.
//! - [`protocol`]: the `halma-engine` text protocol.
//! - [`engine_client`]: the client side of that protocol, for programs the app or arena runs.
//! - [`files`]: opening and creating files without blocking on a FIFO or following a planted link.
//! - `app` (feature `gui`): the Slint interface and everything between it and the rules.

pub mod ai;
pub mod app;
pub mod engine_client;
pub mod files;
pub mod protocol;
pub mod record;
pub mod rules;

#[cfg(feature = "gui")]
slint::include_modules!();
