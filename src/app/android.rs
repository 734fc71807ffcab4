//! The Android entry point and lifecycle.
//!
//! The app's activity (`HalmaActivity` in android/java, Android's `NativeActivity` plus
//! `onNewIntent`) loads `libhalma.so` (named in `android/AndroidManifest.xml`) and
//! android-activity calls [`android_main`] on a thread of its own, which then becomes the Slint UI
//! thread. The same [`crate::app::ui::run_app`] as on the desktop builds the window and restores
//! the saved game; this file only adds what is specific to Android:
//!
//! - where to save: the app's private files folder (`Context.getFilesDir()`), which survives
//!   updates and is removed with the app;
//! - when to save besides after every action (which the interface does itself): whenever Android
//!   may be about to kill the process without warning. Once an activity is paused or stopped the
//!   process can be killed at any time, so saving then is what makes "restore on start" work
//!   also after the system reclaimed the memory;
//! - the interface language: the locale of the activity's configuration, which Android resolves
//!   for this app (the per-app language of Android 13+, else the first of the user's languages
//!   that the app has resources for), read at start and again on each `ConfigChanged`. sys-locale
//!   only reads the system-wide property. The player's choice in the app still wins (the
//!   interface applies a system language only while the player has chosen none).
//!
//! Compiled only with the `android` feature (Slint's android-activity backend), which needs the
//! Android NDK and SDK; see `android/README.md`.

use halma_core::locale;
use slint::android::android_activity::{ndk_sys, MainEvent, PollEvent};
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
    // Before the interface starts, so that its first `system_language()` is the activity's.
    locale::set_platform_language(configuration_language(&app));
    let listener_app = app.clone();
    let listener = move |event: &PollEvent<'_>| {
        save_when_android_may_kill_us(event);
        follow_the_configuration_language(&listener_app, event);
        if let PollEvent::Main(MainEvent::Resume { .. }) = event {
            // A game's message shared while Halma ran arrives as a new intent, then a resume.
            crate::app::ui::resumed();
        }
    };
    if let Err(error) = slint::android::init_with_event_listener(app, listener) {
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

/// Applies a new system or per-app language when the activity's configuration changes.
///
/// The manifest declares `locale` (and `layoutDirection`) in `configChanges`, so a language change
/// does not recreate the activity: android-activity refreshes `AndroidApp::config()` from the
/// activity's resources and then delivers `ConfigChanged`, which Slint passes to this listener
/// after its own handling (it only rescales on density changes). Rotations and other changes
/// arrive as `ConfigChanged` too; they leave the language as it was and change nothing here.
fn follow_the_configuration_language(app: &AndroidApp, event: &PollEvent<'_>) {
    if !matches!(event, PollEvent::Main(MainEvent::ConfigChanged { .. })) {
        return;
    }
    let language = configuration_language(app);
    if locale::set_platform_language(language) {
        // Applies it unless the player chose a language in the app (their choice wins).
        crate::app::ui::system_language_changed(locale::system_language());
    }
}

/// The interface language for the locale of the activity's current configuration, or `None`
/// when it has none or one we do not speak (then sys-locale decides, in practice English).
///
/// Reads the raw `AConfiguration` bytes rather than `ndk::configuration::Configuration::language()`,
/// which decodes them as UTF-8 and panics on a packed three-letter code such as Filipino's `fil`.
fn configuration_language(app: &AndroidApp) -> Option<&'static str> {
    // A deep copy, owned here: the shared configuration is replaced on every change.
    let config = app.config().copy();
    let (mut language, mut country) = ([0u8; 2], [0u8; 2]);
    // SAFETY: `config` owns a valid `AConfiguration` for the duration of both calls, and each call
    // writes exactly two bytes to the two-byte buffer it is given.
    unsafe {
        ndk_sys::AConfiguration_getLanguage(config.ptr().as_ptr(), language.as_mut_ptr().cast());
        ndk_sys::AConfiguration_getCountry(config.ptr().as_ptr(), country.as_mut_ptr().cast());
    }
    locale::android_configuration_language(language, country)
}
