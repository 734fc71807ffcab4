//! Helpers shared by the integration tests of every crate: the independent reference
//! model (the only one: rules, protocol and property tests all check the engine against
//! it), the glue between engine values and its plain (column, row) squares, letters and
//! setups, the seeded generator and the test games (`games`), the computer players'
//! helpers (`ai`), the property tests' strategies (`prop`), and a fresh folder for each
//! test that writes files. Each crate's `tests/common` re-exports it.
// Each test file uses a different part of this module.
#![allow(dead_code)]

pub mod ai;
pub mod games;
mod glue;
pub mod prop;
pub mod reference;
mod rng;

// Each test crate uses some of them.
#[allow(unused_imports)]
pub use games::{assert_legal, game_from, long_game, play_randomly, random_game, two_player_game};
#[allow(unused_imports)]
pub use glue::*;
#[allow(unused_imports)]
pub use rng::TestRng;
