//! The Halma app without its window: everything the app decides, tested without Slint.
//!
//! - [`state`]: the one [`state::AppState`] (session, settings, form, interface state,
//!   messages) and [`boards`], the one way another game covers the live one;
//! - [`actions`]: [`actions::Event`] and [`actions::update`], what each event does to
//!   the state, returning [`effects::Effects`] for the controller to carry out;
//! - [`interface`]: the words the core and the window share (pages, questions, …);
//! - [`ui_state`]: the interface's own state (page, dialog, menu, review, cursor) and Back;
//! - the game as the app holds it: [`session`], [`interaction`], [`view`], [`tap_target`],
//!   [`records`], [`guide`], [`animation`], [`setup_form`];
//! - what it keeps: [`settings`], [`storage`], [`saving`], [`locale`];
//! - who plays: [`players`] (the computer and engine programs behind `SeatDriver`),
//!   [`jobs`], [`analysing`];
//! - between devices: [`correspondence`] and [`by_message`] (play by message), [`lan`]
//!   and [`nearby`] (play over the local network);
//! - [`sound`]: the cues the actions give, and the sounds synthesised for them.

pub mod actions;
pub mod analysing;
pub mod animation;
pub mod boards;
pub mod by_message;
pub mod correspondence;
pub mod effects;
pub mod guide;
pub mod interaction;
pub mod interface;
pub mod jobs;
pub mod lan;
pub mod locale;
pub mod nearby;
pub mod players;
pub mod record_trouble;
pub mod records;
pub mod saving;
pub mod session;
pub mod settings;
pub mod setup_form;
pub mod sound;
pub mod state;
pub mod storage;
pub mod tap_target;
pub mod training;
pub mod ui_state;
pub mod view;
