//! What the app loads when it starts and how it saves afterwards, with everything that
//! keeps a file, a second window or a crash from losing a game or bricking the app:
//!
//! - **one writer**: the first Halma to start takes the data folder ([`Store::lock`]); a
//!   second one reads the settings (for the language) but loads no game and writes
//!   nothing, and says why;
//! - **the crash-loop breaker**: a marker is written before loading and removed once the
//!   window has shown its first frame ([`Saver::first_frame_shown`]). Finding it at the
//!   next start means that start never got that far, whatever the reason: the saved
//!   files are set aside, the app starts fresh and says why, so a bad file can never
//!   crash every start;
//! - **every value checked**: the session and settings are validated and repaired
//!   ([`Session::validated`], [`Settings::validated`]); what cannot be repaired makes the
//!   file damaged, and it is kept aside;
//! - **a newer version's save is left in place**, never saved over, and the player is
//!   told to update;
//! - **saving only what changed**, and telling the caller why a save failed, so that the
//!   player hears of it and the next change tries again.
//!
//! Pure files and state, no interface: the app's window and the fuzz target run the
//! same path.

use super::session::Session;
use super::settings::Settings;
use super::storage::{self, Damage, Document, InstanceLock, LoadOutcome, LockError, SaveFailure, Store};
use std::fs;
use std::path::PathBuf;

/// Something the player should hear about the start.
#[derive(Clone, Debug, PartialEq)]
pub enum StartProblem {
    /// A saved file could not be used; it was renamed to `kept_as` (when that worked).
    Damaged { document: Document, problem: Damage, kept_as: Option<PathBuf> },
    /// A saved file was written by a newer Halma: it is left in place and not saved
    /// over; the player should update.
    FromNewerVersion { document: Document },
    /// The last start stopped before its window appeared (a crash while loading): the
    /// saved files were set aside (`kept`) and this start is fresh.
    LastStartFailed { kept: Vec<PathBuf> },
    /// Another Halma is running with the same data folder: this one saves nothing.
    AlreadyOpen,
}

impl StartProblem {
    /// The problem in full, for the log (the window shows only its typed reason).
    pub fn log_line(&self) -> String {
        match self {
            StartProblem::Damaged { document, problem, kept_as } => {
                let kept = kept_as.as_ref().map_or(String::from("could not be renamed"), |path| {
                    format!(
                        "kept as {}",
                        path.file_name().map_or_else(String::new, |name| name.to_string_lossy().into())
                    )
                });
                format!("{} not loaded ({kept}): {problem}", document.file_name)
            }
            StartProblem::FromNewerVersion { document } => {
                format!("{} is from a newer version of Halma: left in place and not saved over", document.file_name)
            }
            StartProblem::LastStartFailed { kept } => {
                format!("the last start did not show its window: {} file(s) set aside, starting afresh", kept.len())
            }
            StartProblem::AlreadyOpen => String::from("another Halma holds the data folder: this one saves nothing"),
        }
    }
}

/// What the start found (by default: nothing saved, nothing wrong).
#[derive(Debug, Default)]
pub struct Started {
    pub settings: Settings,
    /// The game to resume, if there is one.
    pub session: Option<Session>,
    pub problems: Vec<StartProblem>,
}

/// Whether a document may be written, and the text last read or written, so that an
/// unchanged document is not written again.
#[derive(Debug, Default)]
struct Slot {
    writable: bool,
    last_text: Option<String>,
}

/// Saves the session and settings after the start; see the module's documentation.
#[derive(Debug)]
pub struct Saver {
    store: Store,
    _lock: Option<InstanceLock>,
    /// The start marker this start wrote, removed after the first frame.
    marker: Option<PathBuf>,
    session: Slot,
    settings: Slot,
}

/// Starts from `store`: takes the folder, breaks a crash loop, loads and validates the
/// settings and the session. Never panics, whatever the files hold.
pub fn start(store: &Store) -> (Started, Saver) {
    let lock = match store.lock() {
        Ok(lock) => Some(lock),
        Err(LockError::AlreadyOpen) => return start_as_guest(store),
        // A folder that cannot hold a lock file cannot hold saves either: saving says so.
        Err(LockError::Io(_)) => None,
    };
    let mut problems = Vec::new();
    let marker = store.start_marker_path();
    if fs::symlink_metadata(&marker).is_ok() {
        let kept: Vec<PathBuf> = [storage::SESSION, storage::SETTINGS]
            .into_iter()
            .filter_map(|document| store.set_aside(document))
            .collect();
        problems.push(StartProblem::LastStartFailed { kept });
    }
    // Written before anything is read; a start that fails to write it only loses the breaker.
    let marker = store.write_start_marker().ok();
    // Records an export was writing when the app stopped: never named, never needed.
    store.sweep_record_temps();

    let mut saver = Saver {
        store: store.clone(),
        _lock: lock,
        marker,
        session: Slot { writable: true, last_text: None },
        settings: Slot { writable: true, last_text: None },
    };
    let settings = match store.load(storage::SETTINGS, |settings: Settings| Ok::<_, String>(settings.validated())) {
        LoadOutcome::Loaded(settings) => {
            saver.settings.last_text = storage::document_text(storage::SETTINGS, &settings).ok();
            settings
        }
        outcome => {
            note_problem(storage::SETTINGS, outcome, &mut problems, &mut saver.settings);
            Settings::default()
        }
    };
    let session = match store.load(storage::SESSION, |session: Session| session.validated().map_err(|e| e.to_string()))
    {
        LoadOutcome::Loaded(session) => {
            saver.session.last_text = storage::document_text(storage::SESSION, &session).ok();
            Some(session)
        }
        outcome => {
            note_problem(storage::SESSION, outcome, &mut problems, &mut saver.session);
            None
        }
    };
    (Started { settings, session, problems }, saver)
}

/// A second Halma on the same folder: the settings are read for the language, nothing
/// else is touched (the running one owns the files, the marker and the temporary files).
fn start_as_guest(store: &Store) -> (Started, Saver) {
    let settings = store.peek::<Settings>(storage::SETTINGS).map(Settings::validated).unwrap_or_default();
    let saver =
        Saver { store: store.clone(), _lock: None, marker: None, session: Slot::default(), settings: Slot::default() };
    (Started { settings, session: None, problems: vec![StartProblem::AlreadyOpen] }, saver)
}

/// Turns a load that gave no value into the player's problem; a newer version's file
/// must not be saved over.
fn note_problem<U>(document: Document, outcome: LoadOutcome<U>, problems: &mut Vec<StartProblem>, slot: &mut Slot) {
    match outcome {
        LoadOutcome::Loaded(_) | LoadOutcome::Missing => {}
        LoadOutcome::Damaged { problem, kept_as } => {
            problems.push(StartProblem::Damaged { document, problem, kept_as })
        }
        LoadOutcome::FromNewerVersion { .. } => {
            slot.writable = false;
            problems.push(StartProblem::FromNewerVersion { document });
        }
    }
}

impl Saver {
    /// A saver that writes nothing (no data folder: tests and tools).
    pub fn none() -> Saver {
        Saver {
            store: Store::new(PathBuf::new()),
            _lock: None,
            marker: None,
            session: Slot::default(),
            settings: Slot::default(),
        }
    }

    /// The window has shown its first frame: the start succeeded, the marker goes.
    pub fn first_frame_shown(&mut self) {
        if let Some(marker) = self.marker.take() {
            let _ = fs::remove_file(marker);
        }
    }

    /// True when this app holds the data folder (another Halma on it, or none: nothing
    /// is written), so that the games by message are saved too.
    pub fn holds_folder(&self) -> bool {
        self._lock.is_some()
    }

    /// Saves the session if it changed since the last save (or the start).
    pub fn save_session(&mut self, session: &Session) -> Result<(), SaveFailure> {
        save(&self.store, storage::SESSION, session, &mut self.session)
    }

    /// Saves the settings if they changed since the last save (or the start).
    pub fn save_settings(&mut self, settings: &Settings) -> Result<(), SaveFailure> {
        save(&self.store, storage::SETTINGS, settings, &mut self.settings)
    }
}

fn save<T: serde::Serialize>(store: &Store, document: Document, value: &T, slot: &mut Slot) -> Result<(), SaveFailure> {
    if !slot.writable {
        return Ok(());
    }
    let text = storage::document_text(document, value).map_err(|error| SaveFailure::Other(error.to_string()))?;
    if slot.last_text.as_deref() == Some(text.as_str()) {
        return Ok(());
    }
    store.save_text(document, &text).map_err(|error| SaveFailure::from_io(&error))?;
    slot.last_text = Some(text);
    Ok(())
}
