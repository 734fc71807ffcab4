//! Saving and loading: round trips of real games, every kind of damaged file, and
//! the interrupted save.

use halma_test_support as common;

use common::play_randomly;
use halma_core::storage::{
    data_dir_for, default_data_dir, Damage, Document, LoadOutcome, Platform, Store, DATA_DIR_VARIABLE, MAX_FILE_BYTES,
    SESSION, SETTINGS,
};
use halma_rules::{DrawReason, Game, Outcome, Setup, VoteResult};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::ffi::OsString;
use std::fs;
use std::path::PathBuf;

/// A stand-in for the app's session document: a game plus a few fields of other types.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Session {
    game: Game,
    players: Vec<String>,
    zoom: f64,
    selected: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Settings {
    language: String,
    orientation: String,
}

/// This file's group of test folders (`fresh_dir`).
const DIRS: &str = "storage-tests";

/// A fresh folder for test `test` of this file's group, under Cargo's temporary folder.
fn fresh_dir(group: &str, test: &str) -> std::path::PathBuf {
    common::fresh_dir_in(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")), group, test)
}

/// A game of `plies` random legal actions (passes when forced) from a random first seat,
/// then `undos` undone, so that it has a redo list.
fn game_with_redo_list(setup: Setup, seed: u64, plies: usize, undos: usize) -> Game {
    let mut rng = StdRng::seed_from_u64(seed);
    let first = setup.seats()[rng.random_range(0..setup.seats().len())];
    let mut game = Game::new(setup, first);
    play_randomly(&mut game, plies, &mut rng);
    for _ in 0..undos {
        game.undo();
    }
    game
}

fn session_of(game: Game) -> Session {
    Session { game, players: vec!["human".into(), "computer:casual".into()], zoom: 1.75, selected: Some("e3".into()) }
}

fn load_session(store: &Store) -> LoadOutcome<Session> {
    store.load(SESSION, Ok::<Session, String>)
}

/// Saves `session`, loads it back and checks it is the same, down to the redo list
/// and the draw offer.
fn assert_round_trip(store: &Store, session: &Session) {
    store.save(SESSION, session).unwrap();
    match load_session(store) {
        LoadOutcome::Loaded(loaded) => {
            assert_eq!(&loaded, session);
            assert_eq!(loaded.game.redo_list().collect::<Vec<_>>(), session.game.redo_list().collect::<Vec<_>>());
            assert_eq!(loaded.game.pending_offer(), session.game.pending_offer());
            assert_eq!(loaded.game.can_offer_draw(), session.game.can_offer_draw());
            assert_eq!(loaded.game.outcome(), session.game.outcome());
        }
        other => panic!("expected the session back, got {other:?}"),
    }
}

#[test]
fn random_games_in_every_setup_round_trip_with_their_redo_lists() {
    let store = Store::new(fresh_dir(DIRS, "round_trip"));
    for setup in Setup::ALL {
        for (seed, plies, undos) in [(1, 0, 0), (2, 9, 0), (3, 40, 3), (4, 120, 17), (5, 60, 60)] {
            let game = game_with_redo_list(setup, seed, plies, undos);
            assert_eq!(game.history().len(), plies - undos, "{setup:?} seed {seed}");
            assert_eq!(game.redo_list().count(), undos);
            assert_round_trip(&store, &session_of(game));
        }
    }
}

#[test]
fn pending_draw_offers_round_trip_with_their_votes() {
    let store = Store::new(fresh_dir(DIRS, "pending_offer"));
    for setup in Setup::ALL {
        let mut game = game_with_redo_list(setup, 11, 25, 2);
        let offer = game.offer_draw().unwrap();
        assert_round_trip(&store, &session_of(game.clone()));
        // With three or four seats, a first acceptance leaves the offer pending.
        if setup != Setup::TwoPlayers {
            assert!(matches!(game.answer_draw(offer.awaiting, true), Ok(VoteResult::Next(_))));
            assert_eq!(game.pending_offer().unwrap().accepted.seats().count(), 1);
            assert_round_trip(&store, &session_of(game.clone()));
        }
    }
}

#[test]
fn refused_and_agreed_draws_round_trip() {
    let store = Store::new(fresh_dir(DIRS, "agreed_draw"));
    for setup in Setup::ALL {
        let mut refused = game_with_redo_list(setup, 21, 14, 0);
        let offer = refused.offer_draw().unwrap();
        assert_eq!(refused.answer_draw(offer.awaiting, false), Ok(VoteResult::Refused));
        // The offerer may not offer again this turn, and that survives a restart.
        assert!(!refused.can_offer_draw());
        assert_round_trip(&store, &session_of(refused));

        let mut agreed = game_with_redo_list(setup, 22, 31, 4);
        let offer = agreed.offer_draw().unwrap();
        let mut seat = offer.awaiting;
        while agreed.answer_draw(seat, true).unwrap() != VoteResult::Agreed {
            seat = agreed.pending_offer().unwrap().awaiting;
        }
        assert_eq!(agreed.outcome(), Outcome::Draw(DrawReason::Agreement));
        assert_round_trip(&store, &session_of(agreed));
    }
}

#[test]
fn the_file_is_a_versioned_envelope_and_the_last_save_wins() {
    let dir = fresh_dir(DIRS, "envelope");
    let store = Store::new(dir.join("not").join("yet").join("there"));
    assert_eq!(load_session(&store), LoadOutcome::Missing);
    let first = session_of(game_with_redo_list(Setup::ThreePlayers, 31, 12, 0));
    let second = session_of(game_with_redo_list(Setup::ThreePlayers, 32, 13, 1));
    store.save(SESSION, &first).unwrap();
    store.save(SESSION, &second).unwrap();
    let text = fs::read_to_string(store.path(SESSION)).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["format"], "halma-session");
    assert_eq!(value["version"], 1);
    assert_eq!(value["game"]["format"], "halma-game");
    assert_eq!(value["zoom"], 1.75);
    assert_eq!(load_session(&store), LoadOutcome::Loaded(second));
    // Only the document itself is left: no temporary file.
    let names: Vec<_> = fs::read_dir(&store.dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, [OsString::from("game.json")]);
}

#[test]
fn settings_are_a_separate_document_checked_by_the_caller() {
    let store = Store::new(fresh_dir(DIRS, "settings"));
    let check = |settings: Settings| {
        if ["en", "fr", "uk", "id", "fil"].contains(&settings.language.as_str()) {
            Ok(settings)
        } else {
            Err(format!("unknown language '{}'", settings.language))
        }
    };
    assert_eq!(store.load(SETTINGS, check), LoadOutcome::Missing);
    let settings = Settings { language: "uk".into(), orientation: "face-seat".into() };
    store.save(SETTINGS, &settings).unwrap();
    store.save(SESSION, &session_of(game_with_redo_list(Setup::TwoPlayers, 41, 5, 0))).unwrap();
    assert_eq!(store.load(SETTINGS, check), LoadOutcome::Loaded(settings));
    assert_eq!(
        fs::read_to_string(store.path(SETTINGS)).unwrap().lines().nth(1),
        Some(r#"  "format": "halma-settings","#)
    );

    store.save(SETTINGS, &Settings { language: "xx".into(), orientation: "fixed".into() }).unwrap();
    let problem = expect_damaged(&store, SETTINGS, |store| store.load(SETTINGS, check).map(|_| ()));
    assert_eq!(problem, Damage::Invalid("unknown language 'xx'".into()));
    assert_eq!(problem.to_string(), "the saved data is invalid: unknown language 'xx'");
    // The session was not touched.
    assert!(matches!(load_session(&store), LoadOutcome::Loaded(_)));
}

#[test]
fn content_that_is_not_an_object_or_claims_the_envelope_is_refused_on_saving() {
    let store = Store::new(fresh_dir(DIRS, "bad_content"));
    let error = store.save(SESSION, &vec![1, 2, 3]).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    let error = store.save(SESSION, &json!({"format": "mine", "zoom": 1})).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    let error = store.save(SESSION, &json!({"version": 3})).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    assert_eq!(fs::read_dir(&store.dir).unwrap().count(), 0);
}

/// Puts `bytes` as the session file, loads it and checks that it is reported
/// damaged and kept aside byte for byte, and that the store then saves and loads
/// again. Returns the problem.
fn expect_damaged_bytes(store: &Store, bytes: &[u8]) -> Damage {
    fs::write(store.path(SESSION), bytes).unwrap();
    let problem = expect_damaged(store, SESSION, |store| load_session(store).map(|_| ()));
    check_store_still_works(store);
    problem
}

/// Runs `load` on a damaged `document` of `store` and checks the file went aside
/// intact under a new `<stem>.damaged-<time>.json` name. Returns the problem.
fn expect_damaged(store: &Store, document: Document, load: impl Fn(&Store) -> LoadOutcome<()>) -> Damage {
    let original = store.path(document);
    let before = fs::read(&original).ok();
    let kept_before: Vec<PathBuf> = kept_files(store, document);
    match load(store) {
        LoadOutcome::Damaged { problem, kept_as: Some(kept) } => {
            assert!(!original.exists(), "the damaged file must not stay in place");
            assert!(!kept_before.contains(&kept), "an earlier kept file was overwritten: {kept:?}");
            assert_eq!(kept_files(store, document).len(), kept_before.len() + 1);
            let name = kept.file_name().unwrap().to_str().unwrap().to_string();
            let stem = document.file_name.trim_end_matches(".json");
            assert!(name.starts_with(&format!("{stem}.damaged-")) && name.ends_with(".json"), "{name}");
            assert_eq!(kept.parent(), Some(store.dir.as_path()));
            if let Some(before) = before {
                assert!(fs::read(&kept).unwrap() == before, "the kept file differs from the damaged one");
            }
            // Loading again finds no file: a fresh start, not the same report again.
            assert!(matches!(load(store), LoadOutcome::Missing));
            problem
        }
        other => panic!("expected a damaged file, got {other:?}"),
    }
}

fn kept_files(store: &Store, document: Document) -> Vec<PathBuf> {
    let stem = document.file_name.trim_end_matches(".json");
    let mut kept: Vec<PathBuf> = fs::read_dir(&store.dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.file_name().unwrap().to_str().unwrap().starts_with(&format!("{stem}.damaged-")))
        .collect();
    kept.sort();
    kept
}

fn check_store_still_works(store: &Store) {
    let session = session_of(game_with_redo_list(Setup::FourPlayersOneArmy, 99, 6, 1));
    store.save(SESSION, &session).unwrap();
    assert_eq!(load_session(store), LoadOutcome::Loaded(session));
    fs::remove_file(store.path(SESSION)).unwrap();
}

/// The text of a real save of a game in progress with a redo list.
fn real_save(store: &Store) -> Vec<u8> {
    let session = session_of(game_with_redo_list(Setup::TwoPlayers, 51, 30, 2));
    store.save(SESSION, &session).unwrap();
    let bytes = fs::read(store.path(SESSION)).unwrap();
    fs::remove_file(store.path(SESSION)).unwrap();
    bytes
}

/// The real save with its JSON changed by `edit`.
fn edited_save(store: &Store, edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    let mut value: Value = serde_json::from_slice(&real_save(store)).unwrap();
    edit(&mut value);
    serde_json::to_vec_pretty(&value).unwrap()
}

#[test]
fn empty_files_are_reported_empty() {
    let store = Store::new(fresh_dir(DIRS, "empty"));
    assert_eq!(expect_damaged_bytes(&store, b""), Damage::Empty);
    assert_eq!(expect_damaged_bytes(&store, b" \n\t\r\n"), Damage::Empty);
    assert_eq!(Damage::Empty.to_string(), "the file is empty");
}

#[test]
fn a_save_truncated_at_any_byte_is_reported_truncated_and_kept() {
    let store = Store::new(fresh_dir(DIRS, "truncated"));
    let save = real_save(&store);
    assert!(save.len() > 500, "a real save of 28 moves and 2 to redo: {} bytes", save.len());
    assert_eq!(save.last(), Some(&b'\n'));
    for length in 0..save.len() {
        fs::write(store.path(SESSION), &save[..length]).unwrap();
        let outcome = load_session(&store);
        if length == save.len() - 1 {
            // Only the final newline is missing: the data is whole.
            assert!(matches!(outcome, LoadOutcome::Loaded(_)), "length {length}: {outcome:?}");
            continue;
        }
        let LoadOutcome::Damaged { problem, kept_as: Some(kept) } = outcome else {
            panic!("length {length}: expected a damaged file, got {outcome:?}")
        };
        let expected = if length == 0 { Damage::Empty } else { Damage::Truncated };
        assert_eq!(problem, expected, "length {length}");
        assert!(fs::read(&kept).unwrap() == save[..length], "length {length}: kept file differs");
        assert!(!store.path(SESSION).exists());
        fs::remove_file(kept).unwrap();
    }
    assert_eq!(Damage::Truncated.to_string(), "the file is truncated (it ends in the middle of the data)");
    let problem = expect_damaged_bytes(&store, &save[..save.len() / 2]);
    assert_eq!(problem, Damage::Truncated);
}

#[test]
fn files_that_are_not_json_are_reported_as_such() {
    let store = Store::new(fresh_dir(DIRS, "not_json"));
    for bytes in [&b"hello"[..], b"\x00\xff\xfe binary \x89PNG", b"{'format': 'halma-session'}", b"{\"format\" 1}"] {
        let problem = expect_damaged_bytes(&store, bytes);
        assert!(matches!(problem, Damage::NotJson(_)), "{bytes:?}: {problem:?}");
        assert!(problem.to_string().starts_with("the file is not valid JSON ("), "{problem}");
    }
    // A whole save followed by something else is not a save either.
    let mut doubled = real_save(&store);
    doubled.extend_from_slice(b"{}");
    let problem = expect_damaged_bytes(&store, &doubled);
    assert!(matches!(&problem, Damage::NotJson(why) if why.starts_with("trailing characters")), "{problem:?}");
}

#[test]
fn json_of_another_format_is_reported_foreign() {
    let store = Store::new(fresh_dir(DIRS, "foreign"));
    // A bare game file (the engine's save format) is not a session.
    let game = game_with_redo_list(Setup::TwoPlayers, 61, 8, 0);
    let problem = expect_damaged_bytes(&store, game.to_json().as_bytes());
    assert_eq!(problem, Damage::Foreign { found: Some("halma-game".into()) });
    assert_eq!(problem.to_string(), "the file is not a Halma save of this kind (its format is 'halma-game')");
    // Nor is the settings file.
    let settings = Settings { language: "fr".into(), orientation: "fixed".into() };
    store.save(SETTINGS, &settings).unwrap();
    let problem = expect_damaged_bytes(&store, &fs::read(store.path(SETTINGS)).unwrap());
    assert_eq!(problem, Damage::Foreign { found: Some("halma-settings".into()) });
    for bytes in [&b"[1, 2, 3]"[..], b"\"halma-session\"", b"42", b"null", b"{}", b"{\"format\": 1, \"version\": 1}"] {
        assert_eq!(expect_damaged_bytes(&store, bytes), Damage::Foreign { found: None }, "{bytes:?}");
    }
    assert_eq!(Damage::Foreign { found: None }.to_string(), "the file is not a Halma save (it names no format)");
}

#[test]
fn a_newer_version_is_reported_as_newer_and_left_in_place() {
    let store = Store::new(fresh_dir(DIRS, "newer"));
    let newer = edited_save(&store, |save| {
        save["version"] = json!(2);
        save["something_new"] = json!({"we": "cannot read"});
    });
    for (bytes, found) in [(newer, 2), (edited_save(&store, |save| save["version"] = json!(u64::MAX)), u64::MAX)] {
        fs::write(store.path(SESSION), &bytes).unwrap();
        // Never renamed away: the newer app must still find it where it left it.
        assert_eq!(load_session(&store), LoadOutcome::FromNewerVersion { found, supported: 1 });
        assert_eq!(fs::read(store.path(SESSION)).unwrap(), bytes);
        assert_eq!(kept_files(&store, SESSION), Vec::<PathBuf>::new());
    }
    assert_eq!(
        Damage::NewerVersion { found: 2, supported: 1 }.to_string(),
        "the file was saved by a newer version of Halma (format version 2; this version reads up to 1)"
    );
}

#[test]
fn a_bad_version_field_is_invalid() {
    let store = Store::new(fresh_dir(DIRS, "bad_version"));
    let cases = [
        (json!(0), "the saved data is invalid: '0' is not a format version"),
        (json!(-1), "the saved data is invalid: '-1' is not a format version"),
        (json!(1.5), "the saved data is invalid: '1.5' is not a format version"),
        (json!("1"), "the saved data is invalid: the format version is not a number"),
        (Value::Null, "the saved data is invalid: the format version is not a number"),
    ];
    for (version, message) in cases {
        let bytes = edited_save(&store, |save| save["version"] = version.clone());
        assert_eq!(expect_damaged_bytes(&store, &bytes).to_string(), message, "{version}");
    }
    let missing = edited_save(&store, |save| {
        save.as_object_mut().unwrap().remove("version");
    });
    assert_eq!(expect_damaged_bytes(&store, &missing), Damage::Invalid("the format version is missing".into()));
}

/// The problem reported for the real save with its JSON changed by `edit`; it must be `Invalid`.
fn invalid_problem(store: &Store, edit: impl FnOnce(&mut Value)) -> String {
    match expect_damaged_bytes(store, &edited_save(store, edit)) {
        Damage::Invalid(why) => why,
        other => panic!("expected invalid content, got {other:?}"),
    }
}

#[test]
fn an_illegal_move_inside_is_reported_with_its_number() {
    let store = Store::new(fresh_dir(DIRS, "illegal_move"));
    // The second seat's first move, played by the first seat: its piece is not theirs.
    let why = invalid_problem(&store, |save| {
        let moves = save["game"]["moves"].as_array_mut().unwrap();
        moves[0] = moves[1].clone();
    });
    assert!(why.starts_with("move 1 ('") && why.contains("): illegal move: "), "{why}");
    // A move of the middle of the game played twice: its piece has left.
    let why = invalid_problem(&store, |save| {
        let moves = save["game"]["moves"].as_array_mut().unwrap();
        let repeated = moves[9].clone();
        moves.insert(11, repeated);
    });
    assert!(why.starts_with("move 12 ('") && why.contains("illegal move"), "{why}");
    let why = invalid_problem(&store, |save| save["game"]["moves"][4] = json!("z99-q1"));
    assert!(why.starts_with("move 5 ('z99-q1'): "), "{why}");
    let why = invalid_problem(&store, |save| save["game"]["redo"] = json!(["pass"]));
    assert!(why.starts_with("redo move 'pass': illegal move"), "{why}");
    let why = invalid_problem(&store, |save| save["game"]["first"] = json!("B"));
    assert_eq!(why, "first seat 'B' is not a seat of 2p");
    let why = invalid_problem(&store, |save| save["game"]["version"] = json!(7));
    assert!(why.contains("saved by a newer version of Halma"), "{why}");
}

/// A change to a save's JSON.
type Edit = fn(&mut Value);

#[test]
fn wrong_types_and_missing_fields_are_invalid() {
    let store = Store::new(fresh_dir(DIRS, "wrong_types"));
    let cases: [(Edit, &str); 6] = [
        (|save| save["game"]["moves"] = json!(5), "invalid type: integer `5`, expected a sequence"),
        (|save| save["zoom"] = json!("big"), "invalid type: string \"big\", expected f64"),
        (|save| save["game"]["setup"] = json!("5p"), "unknown variant `5p`"),
        (|save| save["players"] = json!([1, 2]), "invalid type: integer `1`, expected a string"),
        (
            |save| {
                save.as_object_mut().unwrap().remove("game");
            },
            "missing field `game`",
        ),
        (|save| save["game"] = json!(null), "invalid type: null, expected struct SavedGame"),
    ];
    for (edit, expected) in cases {
        let why = invalid_problem(&store, edit);
        assert!(why.starts_with(expected), "{why} (expected {expected})");
    }
    // A huge wrong value is not quoted in full.
    let why = invalid_problem(&store, |save| save["zoom"] = json!("x".repeat(100_000)));
    assert!(why.chars().count() <= 301, "{} characters", why.chars().count());
}

#[test]
fn unreadable_and_oversized_files_are_kept_aside() {
    let store = Store::new(fresh_dir(DIRS, "unreadable"));
    // A folder where the file should be cannot be read as one.
    fs::create_dir(store.path(SESSION)).unwrap();
    fs::write(store.path(SESSION).join("inside"), b"kept").unwrap();
    let problem = expect_damaged(&store, SESSION, |store| load_session(store).map(|_| ()));
    assert!(matches!(problem, Damage::Unreadable(_)), "{problem:?}");
    let kept = kept_files(&store, SESSION);
    assert_eq!(fs::read(kept[0].join("inside")).unwrap(), b"kept");
    check_store_still_works(&store);

    // A sparse file: large without writing its bytes.
    let file = fs::File::create(store.path(SESSION)).unwrap();
    file.set_len(MAX_FILE_BYTES + 1).unwrap();
    drop(file);
    let problem = expect_damaged(&store, SESSION, |store| load_session(store).map(|_| ()));
    assert_eq!(problem, Damage::TooLarge { bytes: MAX_FILE_BYTES + 1 });
    let kept = kept_files(&store, SESSION);
    assert_eq!(kept.len(), 2);
    assert!(kept.iter().any(|path| fs::metadata(path).unwrap().len() == MAX_FILE_BYTES + 1));
    check_store_still_works(&store);
}

#[test]
fn kept_files_never_overwrite_each_other() {
    let store = Store::new(fresh_dir(DIRS, "kept_twice"));
    let contents: Vec<Vec<u8>> = (0..5).map(|n| format!("damaged number {n}").into_bytes()).collect();
    for content in &contents {
        // Within one second all five get the same time stamp and need distinct names.
        fs::write(store.path(SESSION), content).unwrap();
        assert!(matches!(load_session(&store), LoadOutcome::Damaged { kept_as: Some(_), .. }));
    }
    let mut kept: Vec<Vec<u8>> = kept_files(&store, SESSION).iter().map(|path| fs::read(path).unwrap()).collect();
    kept.sort();
    assert_eq!(kept, contents);
}

#[test]
fn no_single_byte_change_makes_loading_panic_or_lose_the_file() {
    let store = Store::new(fresh_dir(DIRS, "byte_changes"));
    let save = real_save(&store);
    let mut loaded = 0;
    for index in 0..save.len() {
        for replacement in [b'"', b'}', b'1', b'x', 0xff] {
            let mut bytes = save.clone();
            bytes[index] = replacement;
            fs::write(store.path(SESSION), &bytes).unwrap();
            match load_session(&store) {
                LoadOutcome::Loaded(_) => loaded += 1,
                LoadOutcome::Damaged { kept_as: Some(kept), .. } => {
                    assert!(fs::read(&kept).unwrap() == bytes, "byte {index}: kept file differs");
                    fs::remove_file(kept).unwrap();
                }
                // A digit of the version made bigger: left in place, byte for byte.
                LoadOutcome::FromNewerVersion { .. } => {
                    assert!(fs::read(store.path(SESSION)).unwrap() == bytes, "byte {index}: a newer save changed");
                }
                other => panic!("byte {index}: {other:?}"),
            }
        }
    }
    // Some changes keep a valid save (a digit of the zoom, a letter of a player's name), most do not.
    assert!(loaded > 0 && loaded < save.len(), "{loaded} of {} changes loaded", save.len() * 5);
}

#[test]
fn an_interrupted_save_leaves_the_last_good_one() {
    let dir = fresh_dir(DIRS, "interrupted");
    let good = session_of(game_with_redo_list(Setup::FourPlayersBothArmies, 71, 20, 1));
    let newer = session_of(game_with_redo_list(Setup::FourPlayersBothArmies, 71, 21, 0));
    Store::new(&dir).save(SESSION, &good).unwrap();

    // The new text is written and flushed, then the app dies before the rename (a
    // crash runs no destructor: forgetting the pending write leaves its file, as a crash would).
    let pending = Store::new(&dir).write_temp(SESSION, &newer).unwrap();
    let temp = pending.temp_path().to_path_buf();
    assert_eq!(temp.parent(), Some(dir.as_path()));
    assert!(temp.file_name().unwrap().to_str().unwrap().starts_with(".game.json.tmp-"));
    std::mem::forget(pending);
    assert!(temp.exists());
    // A crash in the middle of writing leaves a partial temporary file too.
    fs::write(dir.join(".game.json.tmp-1-0"), b"{\"format\": \"halma-se").unwrap();

    // The restarted app finds the last good save, and the leftovers are gone.
    let restarted = Store::new(&dir);
    assert_eq!(load_session(&restarted), LoadOutcome::Loaded(good));
    assert!(!temp.exists());
    let names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, [OsString::from("game.json")]);

    // The same two steps without the crash save the new session.
    restarted.write_temp(SESSION, &newer).unwrap().commit().unwrap();
    assert_eq!(load_session(&restarted), LoadOutcome::Loaded(newer));
}

#[test]
fn leftover_temporary_files_alone_are_not_taken_for_a_save() {
    let dir = fresh_dir(DIRS, "only_temp");
    let store = Store::new(&dir);
    let session = session_of(game_with_redo_list(Setup::TwoPlayers, 81, 10, 0));
    // A save abandoned without a commit removes its temporary file...
    let pending = store.write_temp(SESSION, &session).unwrap();
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
    drop(pending);
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
    // ...and one cut short by a crash leaves it behind (a crash runs no destructor).
    std::mem::forget(store.write_temp(SESSION, &session).unwrap());
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
    assert_eq!(load_session(&store), LoadOutcome::Missing);
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
    // Loading the settings leaves the session's pending write alone.
    let pending = store.write_temp(SESSION, &session).unwrap();
    assert_eq!(store.load(SETTINGS, Ok::<Settings, String>), LoadOutcome::Missing);
    pending.commit().unwrap();
    assert_eq!(load_session(&store), LoadOutcome::Loaded(session));
}

fn fake_env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
    let vars: Vec<(String, OsString)> = vars.iter().map(|(k, v)| (k.to_string(), OsString::from(v))).collect();
    move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
}

#[test]
fn data_folders_follow_each_platform() {
    // HALMA_DATA_DIR wins everywhere, unless empty.
    for platform in [Platform::Desktop, Platform::Android] {
        let vars = [("HOME", "/home/ana"), ("APPDATA", "C:\\x"), (DATA_DIR_VARIABLE, "/tmp/shots")];
        assert_eq!(data_dir_for(platform, fake_env(&vars)), Some(PathBuf::from("/tmp/shots")), "{platform:?}");
        let vars = [("HOME", "/home/ana"), (DATA_DIR_VARIABLE, "")];
        assert_ne!(data_dir_for(platform, fake_env(&vars)), Some(PathBuf::from("")), "{platform:?}");
    }
    // Android's folder comes from the activity, never from the environment.
    assert_eq!(data_dir_for(Platform::Android, fake_env(&[("HOME", "/home/ana")])), None);
    assert_eq!(data_dir_for(Platform::Android, fake_env(&[(DATA_DIR_VARIABLE, "")])), None);

    // On a desktop, the app's folder inside the system's per-user data folder (the
    // `directories` crate reads the real environment: XDG_DATA_HOME or HOME on Linux).
    let desktop = data_dir_for(Platform::Desktop, fake_env(&[]));
    #[cfg(target_os = "linux")]
    {
        assert_eq!(Platform::CURRENT, Platform::Desktop);
        let home = std::env::var_os("HOME").filter(|home| !home.is_empty());
        let xdg = std::env::var_os("XDG_DATA_HOME").map(PathBuf::from).filter(|dir| dir.is_absolute());
        let expected = match (xdg, home) {
            (Some(xdg), _) => Some(xdg.join("halma")),
            (None, Some(home)) => Some(PathBuf::from(home).join(".local").join("share").join("halma")),
            // Without HOME the crate asks the system's user database.
            (None, None) => desktop.clone(),
        };
        assert_eq!(desktop, expected);
    }
    if let Some(dir) = &desktop {
        assert!(dir.is_absolute(), "{dir:?}");
        assert!(dir.ends_with("halma") || dir.ends_with("Halma"), "{dir:?}");
    }
}

/// The only test that touches the process environment (the others pass folders
/// explicitly), so no other test can race with it.
#[test]
fn halma_data_dir_in_the_environment_is_honoured() {
    let saved = std::env::var_os(DATA_DIR_VARIABLE);
    let dir = fresh_dir(DIRS, "env");
    std::env::set_var(DATA_DIR_VARIABLE, &dir);
    let found = default_data_dir();
    let store = Store::at_default_location();
    std::env::remove_var(DATA_DIR_VARIABLE);
    let without = default_data_dir();
    if let Some(value) = saved {
        std::env::set_var(DATA_DIR_VARIABLE, value);
    }
    assert_eq!(found, Some(dir.clone()));
    assert_eq!(store, Some(Store::new(&dir)));
    assert_ne!(without, Some(dir));
}

#[test]
fn settings_from_before_sound_and_vibration_load_with_both_on_and_keep_them_off() {
    use halma_core::settings::Settings as AppSettings;
    let store = Store::new(fresh_dir(DIRS, "settings_sound"));
    let accept = |settings: AppSettings| Ok::<_, String>(settings);
    // Written by an app from before #39: no "sound", no "vibration" (nor "theme").
    store.save(SETTINGS, &json!({"language": "fr", "engine_command": "", "engine_move_ms": 1000})).unwrap();
    let LoadOutcome::Loaded(old) = store.load(SETTINGS, accept) else { panic!("the old settings load") };
    assert_eq!((old.language.as_deref(), old.sound, old.vibration), (Some("fr"), true, true));

    let quiet = AppSettings { sound: false, vibration: false, ..old };
    store.save(SETTINGS, &quiet).unwrap();
    assert_eq!(store.load(SETTINGS, accept), LoadOutcome::Loaded(quiet));
    let text = fs::read_to_string(store.path(SETTINGS)).unwrap();
    assert!(text.contains(r#""sound": false"#) && text.contains(r#""vibration": false"#), "{text}");
}
