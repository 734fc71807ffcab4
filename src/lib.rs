//! Halma on Monks' 16×16 board with Parker's 1938 square-Halma rules: the app's Slint
//! interface (the desktop binary and the Android library).
//!
//! The layers below it are crates of their own (ARCHITECTURE.md): `halma-rules`,
//! `halma-ai`, `halma-record`, `halma-engine` and `halma-core`, none of which knows Slint.
//! Here: the `.slint` window compiled by `build.rs`, and [`app`], what turns the core's
//! state into the window's pictures and the window's callbacks into the core's events.

pub mod app;

slint::include_modules!();
