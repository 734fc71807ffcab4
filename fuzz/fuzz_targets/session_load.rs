//! The app's save loader: `Store::load` of the session file (`game.json`: the envelope,
//! then the session with its game replayed move by move). Never panics on any bytes; a
//! file it cannot use is renamed aside with its bytes intact and never left in place; a
//! session it loads is left untouched, saves again and loads back equal.
#![no_main]

use halma::app::session::Session;
use halma::app::storage::{LoadOutcome, Store, SESSION};
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

fuzz_target!(|data: &[u8]| {
    let store = store();
    let path = store.path(SESSION);
    std::fs::write(&path, data).expect("cannot write the file to load");
    match store.load(SESSION, Ok::<Session, String>) {
        LoadOutcome::Missing => panic!("the file is there, yet loading found none"),
        LoadOutcome::Loaded(session) => {
            assert_eq!(std::fs::read(&path).ok().as_deref(), Some(data), "loading changed the file");
            store.save(SESSION, &session).expect("cannot save the loaded session");
            match store.load(SESSION, Ok::<Session, String>) {
                LoadOutcome::Loaded(again) => assert_eq!(again, session),
                other => panic!("a saved session does not load back: {other:?}"),
            }
        }
        LoadOutcome::Damaged { problem, kept_as: Some(kept) } => {
            assert!(!path.exists(), "a damaged file ({problem}) was left in place");
            assert_eq!(std::fs::read(&kept).ok().as_deref(), Some(data), "the kept file differs");
            std::fs::remove_file(&kept).expect("cannot clean up the kept file");
        }
        LoadOutcome::Damaged { problem, kept_as: None } => panic!("a damaged file ({problem}) was not kept aside"),
    }
    // Leave the folder empty between inputs (and after the run).
    let _ = std::fs::remove_file(&path);
});
