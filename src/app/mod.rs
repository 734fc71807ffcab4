//! Between the interface and the rules: interaction state, board view, saving,
//! language, and (with the `gui` feature) the Slint window itself.

pub mod locale;
pub mod storage;

#[cfg(all(target_os = "android", feature = "android"))]
pub mod android;
