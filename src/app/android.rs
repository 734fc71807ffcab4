//! The Android entry point and lifecycle.
//!
//! Android's `NativeActivity` loads `libhalma.so` (named in `android/AndroidManifest.xml`) and
//! android-activity calls [`android_main`] on a thread of its own, which then becomes the Slint UI
//! thread. The same [`crate::app::ui::run_app`] as on the desktop builds the window and restores
//! the saved game; this file only adds what is specific to Android:
//!
//! - where to save: the app's private files folder (`Context.getFilesDir()`), which survives
//!   updates and is removed with the app;
//! - when to save besides after every action (which the interface does itself): whenever Android
//!   may be about to kill the process without warning. Once an activity is paused or stopped the
//!   process can be killed at any time, so saving then is what makes "restore on start" work
//!   also after the system reclaimed the memory.
//!
//! Compiled only with the `android` feature (Slint's android-activity backend), which needs the
//! Android NDK and SDK; see `android/README.md`.

use slint::android::android_activity::{MainEvent, PollEvent};
use slint::android::AndroidApp;
use std::path::PathBuf;

/// The entry point that android-activity looks up in the library by name.
///
/// Runs once per activity instance: if Android destroys and recreates the activity while the
/// process lives on, it is called again on a new thread (Slint's platform is per thread).
#[unsafe(no_mangle)]
fn android_main(app: AndroidApp) {
    // android-activity forwards stdout and stderr to logcat, so `eprintln!` is the log.
    let Some(data_dir) = save_folder(&app) else {
        eprintln!("halma: Android gave the app no internal or external files folder; cannot save, not starting");
        return;
    };
    if let Err(error) = slint::android::init_with_event_listener(app, save_when_android_may_kill_us) {
        eprintln!("halma: cannot start Slint's Android backend: {error}");
        return;
    }
    if let Err(error) = crate::app::ui::run_app(data_dir) {
        eprintln!("halma: the interface stopped with an error: {error}");
    }
}

/// The app's private files folder, from `ANativeActivity::internalDataPath`.
///
/// The external app folder is only a fallback for a platform that reports no internal one
/// (none is known to): it is still private to the app on API 26+ and needs no permission.
fn save_folder(app: &AndroidApp) -> Option<PathBuf> {
    app.internal_data_path().or_else(|| app.external_data_path())
}

/// Saves the session when the activity leaves the foreground or is going away.
///
/// Slint calls this listener on its UI thread, inside its event loop, after its own handling of
/// each android-activity event, so the interface state can be read safely here.
///
/// - `Pause`: another window covers the app (dialog, multi-window, screen off); from here on
///   the process may be killed.
/// - `Stop`: the app is no longer visible (home button, app switcher, back at the root).
/// - `SaveState`: Android asks for state to restore a later instance from; the game lives in
///   the save file rather than in the activity's `Bundle`, so this only writes the file.
/// - `Destroy`: the activity ends; Slint's event loop returns after this event.
fn save_when_android_may_kill_us(event: &PollEvent<'_>) {
    if let PollEvent::Main(MainEvent::Pause | MainEvent::Stop | MainEvent::SaveState { .. } | MainEvent::Destroy) =
        event
    {
        crate::app::ui::save_now();
    }
}
