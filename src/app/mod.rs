//! The app around its window: the Slint interface (`ui`), the sound and haptic feedback
//! of the core's cues, and the Android entry point. Everything the app decides lives in
//! the `halma-core` crate, without Slint.

pub mod haptics;
pub mod sound_player;
pub mod ui;

#[cfg(all(target_os = "android", feature = "android"))]
pub mod android;
/// Android's share sheet, shared texts and the multicast lock (#40), over JNI.
#[cfg(target_os = "android")]
pub mod share;
