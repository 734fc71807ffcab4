//! The app's start and saving (`app::saving`): a crash during loading never becomes a
//! crash loop, every value a file can hold is checked or repaired, a second Halma on the
//! same folder writes nothing, a newer version's save is left alone, a save is written
//! only when something changed, and a failed save says why.

use halma_test_support as common;

use halma_core::saving::{self, StartProblem};
use halma_core::session::{GameConfig, Notice, Player, Session};
use halma_core::settings::{Settings, MAX_ENGINE_COMMAND};
use halma_core::storage::{self, Damage, SaveFailure, Store, SESSION, SETTINGS};
use halma_core::view::{BoardView, MAX_ZOOM};
use halma_rules::{Seat, Setup};
use serde_json::{json, Value};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// This file's group of test folders (`fresh_dir`).
const DIRS: &str = "startup-tests";

/// A fresh folder for test `test` of this file's group, under Cargo's temporary folder.
fn fresh_dir(group: &str, test: &str) -> std::path::PathBuf {
    common::fresh_dir_in(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")), group, test)
}

/// A 2-player game against the computer with three moves played and a preview.
fn session_under_way() -> Session {
    let config = GameConfig {
        setup: Setup::TwoPlayers,
        first: Seat::A,
        players: [Player::Human, Player::Human, Player::Human, Player::Human].into(),
    };
    let mut session = Session::new(config);
    for (from, to) in [("e2", "f3"), ("m15", "l14"), ("d2", "d4")] {
        let route = [from.parse().expect("a square"), to.parse().expect("a square")];
        session.play_route(&route).expect("a legal move");
    }
    session.tap("l14".parse().expect("a square"));
    session.tap("k13".parse().expect("a square"));
    session
}

/// The session's file as JSON, for editing by hand as a player would.
fn saved_json(session: &Session) -> Value {
    serde_json::from_str(&storage::document_text(SESSION, session).expect("serializable")).expect("JSON")
}

fn write_json(dir: &Path, name: &str, value: &Value) {
    fs::write(dir.join(name), serde_json::to_string_pretty(value).expect("text")).expect("written");
}

/// Files in `dir` whose names start with `prefix`.
fn files_starting(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .expect("a folder")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(prefix)))
        .collect();
    found.sort();
    found
}

#[test]
fn a_start_that_crashes_while_loading_is_not_repeated() {
    let dir = fresh_dir(DIRS, "crash_loop");
    let store = Store::new(&dir);
    let session = session_under_way();
    store.save(SESSION, &session).expect("saved");
    store.save(SETTINGS, &Settings { language: Some("fr".into()), ..Settings::default() }).expect("saved");
    let bytes = fs::read(store.path(SESSION)).expect("the save");

    // The first start loads the game, then dies before its window shows a frame: the
    // process ends without reaching `first_frame_shown` (dropping the saver is what the
    // end of a process does to its lock).
    let (first, saver) = saving::start(&store);
    assert_eq!(first.session.as_ref(), Some(&session));
    assert_eq!(first.problems, []);
    drop(saver);

    // The next start does not load it again: both files are set aside, intact, and the
    // player is told; the app starts fresh.
    let (second, mut saver) = saving::start(&store);
    assert_eq!(second.session, None);
    assert_eq!(second.settings, Settings::default());
    let [StartProblem::LastStartFailed { kept }] = second.problems.as_slice() else {
        panic!("expected the crash-loop breaker, got {:?}", second.problems)
    };
    assert_eq!(kept.len(), 2, "the game and the settings: {kept:?}");
    assert!(!store.path(SESSION).exists() && !store.path(SETTINGS).exists());
    assert_eq!(files_starting(&dir, "game.damaged-").len(), 1);
    assert_eq!(fs::read(&files_starting(&dir, "game.damaged-")[0]).ok(), Some(bytes));
    saver.first_frame_shown();
    drop(saver);

    // This start reached its first frame: the one after it is an ordinary start.
    let (third, _saver) = saving::start(&store);
    assert_eq!((third.session, third.problems), (None, vec![]));
}

#[test]
fn a_start_that_shows_its_window_removes_the_marker() {
    let dir = fresh_dir(DIRS, "marker");
    let store = Store::new(&dir);
    store.save(SESSION, &session_under_way()).expect("saved");
    let (_, mut saver) = saving::start(&store);
    assert!(store.start_marker_path().exists(), "written before loading");
    saver.first_frame_shown();
    assert!(!store.start_marker_path().exists());
    drop(saver);
    let (again, _saver) = saving::start(&store);
    assert_eq!(again.session, Some(session_under_way()));
    assert_eq!(again.problems, []);
}

#[test]
fn out_of_range_view_values_are_repaired_on_load() {
    let dir = fresh_dir(DIRS, "view_values");
    let store = Store::new(&dir);
    let session = session_under_way();
    let cases: [(Value, BoardView); 5] = [
        // The crash: a zoom below 1.
        (json!({"quarter_turns": 0, "zoom": 0.5, "centre_x": 0.5, "centre_y": 0.5}), BoardView::default()),
        (json!({"quarter_turns": 0, "zoom": 0.0, "centre_x": -3.0, "centre_y": 9.0}), BoardView::default()),
        (
            json!({"quarter_turns": 255, "zoom": 3.0e38, "centre_x": 0.0, "centre_y": 1.0}),
            BoardView { quarter_turns: 3, zoom: MAX_ZOOM, centre_x: 0.125, centre_y: 0.875 },
        ),
        (
            json!({"quarter_turns": 6, "zoom": 1.0e-40, "centre_x": 1.0e-42, "centre_y": -1.0e-42}),
            BoardView { quarter_turns: 2, ..BoardView::default() },
        ),
        (
            json!({"quarter_turns": 1, "zoom": -2.0, "centre_x": 0.7, "centre_y": 0.2}),
            BoardView { quarter_turns: 1, ..BoardView::default() },
        ),
    ];
    for (view, expected) in cases {
        let mut file = saved_json(&session);
        file["view"] = view.clone();
        write_json(&dir, "game.json", &file);
        let (started, mut saver) = saving::start(&store);
        saver.first_frame_shown();
        assert_eq!(started.problems, [], "{view}");
        let loaded = started.session.expect("loaded");
        assert_eq!(*loaded.view(), expected, "{view}");
        assert_eq!(loaded.game(), session.game());
    }
}

#[test]
fn values_that_do_not_fit_the_game_are_repaired_or_refused() {
    let dir = fresh_dir(DIRS, "other_values");
    let store = Store::new(&dir);
    let session = session_under_way();

    // Repaired: a notice about a seat not in play, a first seat that is not the game's, a
    // selection of a square without a piece of the seat to move, a route that is not one.
    let mut file = saved_json(&session);
    file["notice"] = json!({"Passed": "B"});
    file["config"]["first"] = json!("D");
    file["interaction"]["selected"] = json!("h8");
    file["interaction"]["route"] = json!(["h8", "p16", "a1"]);
    write_json(&dir, "game.json", &file);
    let (started, mut saver) = saving::start(&store);
    saver.first_frame_shown();
    drop(saver);
    assert_eq!(started.problems, []);
    let loaded = started.session.expect("loaded");
    assert_eq!(loaded.notice(), Notice::None);
    assert_eq!(loaded.config().first, Seat::A);
    assert_eq!((loaded.interaction().selected, loaded.interaction().route.len()), (None, 0));

    // Refused, kept aside: a cursor off the board, players of a setup other than the game's.
    for (field, value) in [("interaction", json!({"cursor": "q17"})), ("config", json!({"setup": "3p"}))] {
        let mut file = saved_json(&session);
        for (key, inner) in value.as_object().into_iter().flatten() {
            file[field][key] = inner.clone();
        }
        write_json(&dir, "game.json", &file);
        let (started, mut saver) = saving::start(&store);
        saver.first_frame_shown();
        drop(saver);
        assert_eq!(started.session, None, "{field}: {value}");
        assert!(
            matches!(
                started.problems.as_slice(),
                [StartProblem::Damaged { problem: Damage::Invalid(_), kept_as: Some(_), .. }]
            ),
            "{field}: {:?}",
            started.problems
        );
        assert!(!store.path(SESSION).exists());
    }
}

#[test]
fn settings_values_are_repaired() {
    let dir = fresh_dir(DIRS, "settings_values");
    let store = Store::new(&dir);
    let last = json!({"setup": "3p", "first": "D", "players": ["Human", "Human", "Human", "Human"]});
    for (language, expected) in [(json!("xx"), None), (json!("fr-FR"), Some("fr")), (json!(""), None)] {
        let file = json!({"format": "halma-settings", "version": 1, "language": language, "last_config": last});
        write_json(&dir, "settings.json", &file);
        let (started, mut saver) = saving::start(&store);
        saver.first_frame_shown();
        assert_eq!(started.problems, []);
        assert_eq!(started.settings.language.as_deref(), expected, "{language}");
        assert_eq!(started.settings.last_config.map(|config| config.first), Some(Seat::A), "D is not in 3p");
    }
}

#[test]
fn the_engine_command_line_is_kept_or_forgotten_on_load() {
    let dir = fresh_dir(DIRS, "engine_command");
    let store = Store::new(&dir);
    let last = json!({"setup": "2p", "first": "A", "players": ["Human", "Human", "Program", "Human"]});
    let too_long = "x".repeat(MAX_ENGINE_COMMAND + 1);
    for (command, expected) in [
        (json!("  /usr/bin/some-engine --flag  "), "/usr/bin/some-engine --flag"),
        (json!("halma-engine\nquit"), ""),
        (json!(too_long), ""),
    ] {
        let file = json!({"format": "halma-settings", "version": 1, "last_config": last, "engine_command": command});
        write_json(&dir, "settings.json", &file);
        let (started, mut saver) = saving::start(&store);
        saver.first_frame_shown();
        assert_eq!(started.problems, [], "{command}");
        assert_eq!(started.settings.engine_command, expected, "{command}");
        assert_eq!(started.settings.last_config.map(|config| config.players[Seat::C]), Some(Player::Program));
    }
    // Settings written before engine programs: no command line, and they load as they were.
    let file = json!({"format": "halma-settings", "version": 1, "language": "fr", "last_config": last});
    write_json(&dir, "settings.json", &file);
    let (started, mut saver) = saving::start(&store);
    saver.first_frame_shown();
    assert_eq!((started.problems.as_slice(), started.settings.engine_command.as_str()), (&[][..], ""));
    assert_eq!(started.settings.language.as_deref(), Some("fr"));
}

#[test]
fn a_game_with_an_engine_program_seat_loads_again() {
    let dir = fresh_dir(DIRS, "program_seat");
    let store = Store::new(&dir);
    let config = GameConfig {
        players: [Player::Human, Player::Human, Player::Program, Player::Human].into(),
        ..GameConfig::default()
    };
    let mut session = Session::new(config);
    session.play_route(&["e2".parse().expect("a square"), "f3".parse().expect("a square")]).expect("a legal move");
    store.save(SESSION, &session).expect("saved");
    let settings = Settings { engine_command: "halma-engine --threads 1".into(), ..Settings::default() };
    store.save(SETTINGS, &settings).expect("saved");
    let (started, mut saver) = saving::start(&store);
    saver.first_frame_shown();
    assert_eq!(started.problems, []);
    let loaded = started.session.expect("loaded");
    assert_eq!(loaded.game(), session.game());
    assert_eq!(loaded.driven_to_move(), Some(Player::Program), "the program is to move");
    assert_eq!(started.settings.engine_command, "halma-engine --threads 1");
}

#[test]
fn a_second_halma_on_the_same_folder_writes_nothing() {
    let dir = fresh_dir(DIRS, "two_windows");
    let store = Store::new(&dir);
    let session = session_under_way();
    store.save(SESSION, &session).expect("saved");
    store.save(SETTINGS, &Settings { language: Some("uk".into()), ..Settings::default() }).expect("saved");
    let (first, mut owner) = saving::start(&store);
    owner.first_frame_shown();
    assert_eq!(first.session.as_ref(), Some(&session));

    // A leftover of the owner's save in progress, which the second one must not touch.
    let pending = store.write_temp(SESSION, &session).expect("a pending save");
    let bytes = fs::read(store.path(SESSION)).expect("the save");
    let (second, mut guest) = saving::start(&store);
    assert_eq!(second.problems, [StartProblem::AlreadyOpen]);
    assert_eq!(second.session, None, "the running one holds the game");
    assert_eq!(second.settings.language.as_deref(), Some("uk"), "the language is read");
    let other = Session::new(GameConfig::default());
    assert_eq!(guest.save_session(&other), Ok(()));
    assert_eq!(guest.save_settings(&Settings::default()), Ok(()));
    guest.first_frame_shown();
    assert_eq!(fs::read(store.path(SESSION)).ok(), Some(bytes), "the game is untouched");
    assert!(pending.temp_path().exists(), "the owner's temporary file is left alone");
    assert!(!store.start_marker_path().exists());
    pending.commit().expect("the owner's save completes");

    // Once the first one has quit, the folder is free again.
    drop(guest);
    drop(owner);
    let (third, _saver) = saving::start(&store);
    assert_eq!(third.problems, []);
    assert!(third.session.is_some());
}

#[test]
fn a_newer_versions_save_is_left_in_place_and_never_saved_over() {
    let dir = fresh_dir(DIRS, "newer");
    let store = Store::new(&dir);
    let mut file = saved_json(&session_under_way());
    file["version"] = json!(7);
    file["a field of the future"] = json!(true);
    write_json(&dir, "game.json", &file);
    let bytes = fs::read(store.path(SESSION)).expect("the save");

    let (started, mut saver) = saving::start(&store);
    saver.first_frame_shown();
    assert_eq!(started.problems, [StartProblem::FromNewerVersion { document: SESSION }]);
    assert_eq!(started.session, None);
    assert_eq!(saver.save_session(&session_under_way()), Ok(()));
    assert_eq!(fs::read(store.path(SESSION)).ok(), Some(bytes.clone()), "not saved over");
    assert_eq!(files_starting(&dir, "game.damaged-"), Vec::<PathBuf>::new(), "not renamed away");
    // The settings are still saved.
    saver.save_settings(&Settings { language: Some("id".into()), ..Settings::default() }).expect("saved");
    assert!(store.path(SETTINGS).exists());

    drop(saver);
    let (again, _saver) = saving::start(&store);
    assert_eq!(again.problems, [StartProblem::FromNewerVersion { document: SESSION }], "told at every start");
    assert_eq!(fs::read(store.path(SESSION)).ok(), Some(bytes));
}

#[test]
fn a_save_is_written_only_when_something_changed() {
    let dir = fresh_dir(DIRS, "only_changes");
    let store = Store::new(&dir);
    let mut session = session_under_way();
    store.save(SESSION, &session).expect("saved");
    let (_, mut saver) = saving::start(&store);
    saver.first_frame_shown();
    // Unchanged since it was loaded: nothing is written (the file removed behind its back
    // stays removed).
    fs::remove_file(store.path(SESSION)).expect("removed");
    assert_eq!(saver.save_session(&session), Ok(()));
    assert!(!store.path(SESSION).exists());
    // Changed: written.
    session.cancel();
    assert_eq!(saver.save_session(&session), Ok(()));
    drop(saver);
    let (reloaded, _saver) = saving::start(&store);
    assert_eq!(reloaded.session, Some(session));
}

#[test]
fn a_failed_save_says_why_and_the_next_one_tries_again() {
    let dir = fresh_dir(DIRS, "failing");
    let store = Store::new(&dir);
    let (_, mut saver) = saving::start(&store);
    saver.first_frame_shown();
    let session = session_under_way();
    // The data folder is replaced by a file: nothing can be written in it.
    fs::remove_dir_all(&dir).expect("removed");
    fs::write(&dir, b"not a folder").expect("a file in its place");
    assert_eq!(saver.save_session(&session), Err(SaveFailure::FolderMissing));
    // The folder comes back: the next save writes the game.
    fs::remove_file(&dir).expect("removed");
    assert_eq!(saver.save_session(&session), Ok(()));
    assert!(store.path(SESSION).exists());

    // Each kind of failure the system reports, as the player hears it.
    for (kind, failure) in [
        (io::ErrorKind::StorageFull, SaveFailure::DiskFull),
        (io::ErrorKind::QuotaExceeded, SaveFailure::DiskFull),
        (io::ErrorKind::PermissionDenied, SaveFailure::NotAllowed),
        (io::ErrorKind::ReadOnlyFilesystem, SaveFailure::NotAllowed),
        (io::ErrorKind::NotFound, SaveFailure::FolderMissing),
    ] {
        assert_eq!(SaveFailure::from_io(&io::Error::from(kind)), failure, "{kind:?}");
    }
    assert!(matches!(SaveFailure::from_io(&io::Error::other("EIO")), SaveFailure::Other(_)));
}

#[test]
fn exported_records_never_replace_each_other() {
    let dir = fresh_dir(DIRS, "records");
    let store = Store::new(&dir);
    let first = store.save_record("halma-100.txt", "first").expect("saved");
    let second = store.save_record("halma-100.txt", "second").expect("saved");
    let third = store.save_record("halma-100.txt", "third").expect("saved");
    assert_eq!(first.file_name().and_then(|n| n.to_str()), Some("halma-100.txt"));
    assert_eq!(second.file_name().and_then(|n| n.to_str()), Some("halma-100-2.txt"));
    assert_eq!(third.file_name().and_then(|n| n.to_str()), Some("halma-100-3.txt"));
    assert_eq!(fs::read_to_string(&first).ok().as_deref(), Some("first"));
    assert_eq!(fs::read_to_string(&second).ok().as_deref(), Some("second"));
    // Nothing else is left in the folder: no temporary file.
    assert_eq!(fs::read_dir(dir.join("records")).expect("a folder").count(), 3);
}

/// A link planted where the start marker goes (a synced or shared data folder) is
/// replaced by a new file: its target is never truncated or written.
#[cfg(unix)]
#[test]
fn a_link_planted_at_the_start_marker_is_never_written_through() {
    let dir = fresh_dir(DIRS, "marker_link");
    let victim = dir.join("victim.txt");
    fs::write(&victim, "precious").expect("written");
    let marker = Store::new(&dir).start_marker_path();
    std::os::unix::fs::symlink(&victim, &marker).expect("planted");
    let lock_victim = dir.join("lock-victim.txt");
    fs::write(&lock_victim, "precious too").expect("written");
    std::os::unix::fs::symlink(&lock_victim, dir.join(".lock")).expect("planted");
    let (started, mut saver) = saving::start(&Store::new(&dir));
    assert_eq!(fs::read_to_string(&victim).expect("read"), "precious", "the marker's link target is untouched");
    assert_eq!(fs::read_to_string(&lock_victim).expect("read"), "precious too", "the lock's link target too");
    assert!(!fs::symlink_metadata(&marker).expect("a marker").file_type().is_symlink(), "a marker of its own");
    assert!(started.problems.iter().any(|p| matches!(p, StartProblem::LastStartFailed { .. })));
    saver.first_frame_shown();
    assert!(fs::symlink_metadata(&marker).is_err(), "removed after the first frame");
    assert!(victim.exists(), "removing the marker never follows a link either");
}

/// The temporary files an export left when the app stopped mid-write are swept at start;
/// the records themselves stay.
#[test]
fn leftover_record_temporaries_are_swept_at_start() {
    let dir = fresh_dir(DIRS, "record_temps");
    let store = Store::new(&dir);
    let record = store.save_record("halma-1.txt", "[Setup \"2p\"]\n").expect("exported");
    let records = dir.join("records");
    for name in [".record.tmp-a1b2c3", ".record.tmp-zzz"] {
        fs::write(records.join(name), "half a record").expect("a leftover");
    }
    let (_, mut saver) = saving::start(&store);
    saver.first_frame_shown();
    assert_eq!(files_starting(&records, ".record.tmp-"), Vec::<PathBuf>::new(), "swept");
    assert!(record.exists(), "the exported record stays");
}

/// A FIFO in place of the saved game or the settings never blocks the start: it is
/// refused at once, reported, and kept aside like any file that cannot be used.
#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_a_save_does_not_block_the_start() {
    let dir = fresh_dir(DIRS, "fifo_save");
    for name in ["game.json", "settings.json"] {
        let made = std::process::Command::new("mkfifo").arg(dir.join(name)).status().expect("mkfifo runs");
        assert!(made.success());
    }
    let (sender, receiver) = std::sync::mpsc::channel();
    let store = Store::new(&dir);
    std::thread::spawn(move || {
        let (started, mut saver) = saving::start(&store);
        saver.first_frame_shown();
        let _ = sender.send((started.session.is_none(), started.problems.len()));
    });
    let (no_game, problems) =
        receiver.recv_timeout(std::time::Duration::from_secs(10)).expect("the start did not block");
    assert!(no_game);
    assert_eq!(problems, 2, "both files are reported");
    assert_eq!(files_starting(&dir, "game.damaged-").len(), 1, "kept aside");
}
