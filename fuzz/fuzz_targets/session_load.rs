//! The app's whole start on any `game.json`: `saving::start` takes the folder, loads and
//! validates the settings and the session (its game replayed move by move, the view,
//! selection, players and notice checked or repaired), then the view arithmetic the window
//! runs on every frame (offsets, zoom, rotation, square mapping). Never panics on any
//! bytes; a file it cannot use is renamed aside with its bytes intact (a newer version's
//! is left in place, untouched); a session it loads saves again and loads back equal.
#![no_main]

use halma_core::saving::{self, StartProblem};
use halma_core::storage::{Store, SESSION};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

/// A folder of this process's own, in memory when the system has one (saves flush).
fn store() -> &'static Store {
    static STORE: OnceLock<Store> = OnceLock::new();
    STORE.get_or_init(|| {
        let shm = PathBuf::from("/dev/shm");
        let base = if shm.is_dir() { shm } else { std::env::temp_dir() };
        let dir = base.join(format!("halma-fuzz-session-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("cannot create the fuzzing folder");
        Store::new(dir)
    })
}

/// What the window does with a loaded view: none of it may panic, and every offset
/// stays inside the zoomed board.
fn exercise_view(session: &halma_core::session::Session) {
    let mut view = *session.view();
    assert!(view.is_valid(), "a loaded view is in range: {view:?}");
    for (width, height) in [(0.0, 0.0), (1.0, 1.0), (360.0, 640.0), (1100.0, 760.0), (f32::MAX, 1.0)] {
        let (x, y) = view.content_offset(width, height);
        assert!(x.is_finite() && y.is_finite() && x <= 0.0 && y <= 0.0, "offset {x},{y} for {width}x{height}");
        view.set_content_offset(x, y, width, height);
        assert!(view.is_valid());
    }
    for square in halma_rules::Square::all() {
        let (x, y) = view.display_cell(square);
        assert_eq!(view.square_at(x, y), Some(square));
    }
    view.zoom_around(1.25, 0.3, 0.7);
    view.rotate(true);
    assert!(view.is_valid());
}

fuzz_target!(|data: &[u8]| {
    let store = store();
    let path = store.path(SESSION);
    std::fs::write(&path, data).expect("cannot write the file to load");
    let (started, mut saver) = saving::start(store);
    saver.first_frame_shown();
    match (started.session, started.problems.as_slice()) {
        (Some(session), []) => {
            assert_eq!(std::fs::read(&path).ok().as_deref(), Some(data), "loading changed the file");
            exercise_view(&session);
            store.save(SESSION, &session).expect("cannot save the loaded session");
            drop(saver);
            let (again, mut saver) = saving::start(store);
            saver.first_frame_shown();
            assert_eq!(again.session.as_ref(), Some(&session), "a saved session loads back equal");
        }
        (None, [StartProblem::Damaged { kept_as: Some(kept), problem, .. }]) => {
            assert!(!path.exists(), "a damaged file ({problem}) was left in place");
            assert_eq!(std::fs::read(kept).ok().as_deref(), Some(data), "the kept file differs");
            std::fs::remove_file(kept).expect("cannot clean up the kept file");
        }
        (None, [StartProblem::FromNewerVersion { .. }]) => {
            assert_eq!(std::fs::read(&path).ok().as_deref(), Some(data), "a newer version's file was changed");
        }
        (session, problems) => panic!("unexpected start: session {}, problems {problems:?}", session.is_some()),
    }
    // Leave the folder empty between inputs (and after the run).
    let _ = std::fs::remove_file(&path);
});
