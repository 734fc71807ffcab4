//! Between the interface and the rules: interaction state, board view, saving,
//! language, and (with the `gui` feature) the Slint window itself.

pub mod analysing;
pub mod correspondence;
pub mod guide;
pub mod interaction;
pub mod lan;
pub mod locale;
pub mod players;
pub mod records;
pub mod saving;
pub mod session;
pub mod settings;
pub mod sound;
pub mod storage;
pub mod tap_target;
pub mod view;

#[cfg(feature = "gui")]
pub mod haptics;

#[cfg(all(target_os = "android", feature = "android"))]
pub mod android;
/// Android's share sheet, shared texts and the multicast lock (#40), over JNI.
#[cfg(target_os = "android")]
pub mod share;

#[cfg(feature = "gui")]
pub mod ui;
