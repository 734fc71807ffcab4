//! The Slint window and everything between it and the core (`halma-core`, which decides
//! everything and knows no Slint).
//!
//! - [`controller`]: owns the core's `AppState` and what runs beside it; its one
//!   `dispatch` runs `halma_core::actions::update` and carries out the effects; `wiring`
//!   turns Slint callbacks into the core's events;
//! - [`convert`]: the core's interface words (`halma_core::interface`) and the window's
//!   copies of them, one to one;
//! - [`presenter`], [`analysis_presenter`], [`by_message_presenter`],
//!   [`nearby_presenter`], [`guide_presenter`], [`train_presenter`]: pure functions from
//!   the state to the plain data the views show; `bind` copies them into the Slint globals;
//! - [`worker`]: polls the seats' drivers and the hint on a timer; [`gestures`]: taps
//!   against pinches; [`diagrams`]: the Rules page's pictures.

mod analysing;
pub mod analysis_presenter;
mod bind;
pub mod by_message_presenter;
pub mod controller;
pub mod convert;
pub mod diagrams;
pub mod gestures;
pub mod guide_presenter;
mod loss_measure;
pub mod nearby_presenter;
mod network;
pub mod presenter;
pub mod train_presenter;
mod wiring;
pub mod worker;

pub use controller::{Controller, StartOptions, SELECTION_SAVE_DELAY};

use crate::AppWindow;
use halma_core::storage::{self, Store};
use slint::ComponentHandle;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

thread_local! {
    /// The running window's controller, for the platform's lifecycle hooks.
    static CONTROLLER: RefCell<Option<Rc<Controller>>> = const { RefCell::new(None) };
}

/// Runs `f` with the running window's controller, if there is one.
fn with_controller(f: impl FnOnce(&Rc<Controller>)) {
    let controller = CONTROLLER.with(|c| c.borrow().clone());
    if let Some(controller) = controller {
        f(&controller);
    }
}

/// Builds the window, restores the saved game and settings from `data_dir`, and runs
/// until the window closes.
pub fn run_app(data_dir: PathBuf) -> Result<(), slint::PlatformError> {
    // A window before this one (Android recreating its activity) lets its data folder go
    // first.
    CONTROLLER.with(|c| c.borrow_mut().take());
    let window = AppWindow::new()?;
    let controller = Controller::install(&window, Some(Store::new(data_dir)));
    // Only the app makes sounds and vibrates: tests and tools keep the silent sink.
    controller.set_feedback(Box::new(crate::app::sound_player::Device::default()));
    CONTROLLER.with(|c| *c.borrow_mut() = Some(controller.clone()));
    // A game's message shared to Halma from a chat app (#40).
    #[cfg(target_os = "android")]
    apply_shared_text(&controller);
    window.run()?;
    controller.save();
    // A start whose window closed normally succeeded too (even if no frame was drawn).
    controller.start_succeeded();
    CONTROLLER.with(|c| c.borrow_mut().take());
    Ok(())
}

/// The desktop entry: the data folder from the environment or the OS.
pub fn run_desktop() -> Result<(), slint::PlatformError> {
    choose_desktop_renderer();
    let dir = storage::default_data_dir().unwrap_or_else(|| PathBuf::from(".halma"));
    run_app(dir)
}

/// Desktop windows are drawn by Slint's software renderer (the one the tests and the
/// screenshots use) unless `SLINT_BACKEND` names another: a board game needs no GPU, and
/// a GL driver costs more memory than anything else in the app (65 MB resident for
/// Mesa's llvmpipe where there is no GPU; docs/MEMORY.md). Where the software renderer
/// cannot open a window, Slint's own default is used.
fn choose_desktop_renderer() {
    if std::env::var_os("SLINT_BACKEND").is_some() {
        return;
    }
    let chosen = slint::BackendSelector::new().backend_name("winit".into()).renderer_name("software".into()).select();
    if let Err(error) = chosen {
        eprintln!("halma: the software renderer is not available ({error}); using Slint's default");
    }
}

/// Applies a game's message shared to Halma (Android's share sheet), if one came with the
/// activity's intent: at start, and on each resume for a message shared while the game ran.
#[cfg(target_os = "android")]
fn apply_shared_text(controller: &Rc<Controller>) {
    if let Some(text) = crate::app::share::received_text() {
        // The emulator test (.ci/android-emulator-test.sh) looks for this line in logcat.
        eprintln!("halma: a shared text arrived ({} bytes)", text.len());
        controller.dispatch(halma_core::actions::Event::Receive(text));
    }
}

/// The activity came back to the foreground (Android): a message may have been shared to it.
#[cfg(target_os = "android")]
pub fn resumed() {
    with_controller(apply_shared_text);
}

/// Saves the running game and settings now (Android pause/stop). No-op without a window.
pub fn save_now() {
    with_controller(|controller| controller.save());
}

/// The system's language is now `tag` (a locale tag such as `fr-FR` or `in_ID`): the
/// interface follows it unless the player chose a language in the app.
pub fn system_language_changed(tag: &str) {
    with_controller(|controller| {
        controller.dispatch(halma_core::actions::Event::SystemLanguage(tag.to_string()));
    });
}
