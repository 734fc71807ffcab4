//! Monkey test of the interface: thousands of random taps, drags, pinches (with the
//! stray clicks real touchscreens report), twists, keys, button clicks and window
//! resizes across every screen, on games with computer seats. Afterwards and along
//! the way: no panic, the game is legal (its history replays), the preview (if any)
//! is a legal route, and the saved file loads back to the same game.
//!
//! `MONKEY_EVENTS` sets the number of events (default 20000), `MONKEY_SEED` the seed. A
//! failure prints both, with the event it failed at.
//!
//! Time is Slint's mock clock only, so a seed replays the same run: the computer's and the
//! hint's searches run on real threads, and before the mock clock moves on while one runs,
//! the test waits for that thread to end (see [`settle`]). Their answer is then always
//! there at the first poll after the computer's pause, however fast this machine is.

mod ui_support;

use halma_ai::Level;
use halma_core::session::{GameConfig, Player, Session};
use halma_core::storage::{self, LoadOutcome, Store};
use halma_rules::{Game, Seat, Setup};
use i_slint_backend_testing::ElementHandle;
use i_slint_core::input::TouchPhase;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use slint::platform::Key;
use slint::{ComponentHandle, LogicalPosition};
use std::cell::Cell;
use std::hash::{DefaultHasher, Hasher};
use std::time::{Duration, Instant};
use ui_support::{advance, harness, touch, Harness};

const BUTTONS: [&str; 36] = [
    // The game page's "⋯" menu, which holds most of the game's rarer actions below.
    "More actions",
    "Confirm",
    "Cancel",
    "Hint",
    "Undo",
    "Redo",
    "Offer draw",
    "Offer the draw",
    "Keep playing",
    "Replace this game",
    "Start again",
    "Accept draw",
    "Decline",
    "New game",
    "Restart",
    "Rules",
    "About",
    "Back",
    "Start",
    "Resume game",
    "2 players",
    "3 players (19/13/19)",
    "4 players",
    "Teams: one army home wins",
    "Teams: both armies home",
    "Set up…",
    "Zoom in",
    "Zoom out",
    "Rotate right",
    "Back to game",
    "Review",
    "Previous move",
    "Next move",
    "Copy game",
    "Import game…",
    "Close",
];

fn random_key(rng: &mut StdRng) -> slint::SharedString {
    let keys: [slint::SharedString; 17] = [
        Key::LeftArrow.into(),
        Key::RightArrow.into(),
        Key::UpArrow.into(),
        Key::DownArrow.into(),
        Key::Return.into(),
        Key::Escape.into(),
        Key::Back.into(),
        "h".into(),
        "u".into(),
        "r".into(),
        "+".into(),
        "-".into(),
        "0".into(),
        Key::PageUp.into(),
        Key::PageDown.into(),
        Key::Home.into(),
        Key::End.into(),
    ];
    keys[rng.random_range(0..keys.len())].clone()
}

fn random_point_on_board(h: &Harness, rng: &mut StdRng) -> Option<LogicalPosition> {
    let board = ElementHandle::find_by_element_id(&h.window, "GamePage::board").next()?;
    let origin = board.absolute_position();
    let size = board.size();
    Some(LogicalPosition::new(
        origin.x + rng.random_range(0.0..size.width.max(1.0)),
        origin.y + rng.random_range(0.0..size.height.max(1.0)),
    ))
}

/// Whether a thread of the app's (named `halma-…`: a seat's or the hint's search) is
/// still running, from Linux's list of this process's threads; `None` where the list
/// cannot be read. A thread just spawned still has its creator's name until it names
/// itself, so a thread of this one's name counts too.
fn app_thread_running() -> Option<bool> {
    let this = std::fs::read_link("/proc/thread-self").ok()?;
    let this_name = std::fs::read_to_string("/proc/thread-self/comm").ok()?;
    let tasks = std::fs::read_dir("/proc/self/task").ok()?;
    Some(tasks.flatten().filter(|task| !this.ends_with(task.file_name())).any(|task| {
        std::fs::read_to_string(task.path().join("comm"))
            .is_ok_and(|name| name.starts_with("halma-") || name == this_name)
    }))
}

/// Waits in real time while the app searches, until the search's thread has ended, so the
/// next poll of the mock clock finds its answer whatever this machine's speed. Off Linux
/// the threads cannot be listed, and a short real pause is the best that can be done (a
/// seed may then not replay exactly).
fn settle(h: &Harness) {
    if !h.controller.is_searching() {
        return;
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match app_thread_running() {
            Some(false) => return,
            Some(true) => {
                assert!(Instant::now() < deadline, "a search thread has run for a minute");
                std::thread::sleep(Duration::from_micros(200));
            }
            None => {
                std::thread::sleep(Duration::from_millis(5));
                return;
            }
        }
    }
}

/// Lets `ms` of mock time pass in frames, as `ui_support::advance` does, settling every
/// search before each frame.
fn pass_time(h: &Harness, ms: u64) {
    let mut left = ms;
    while left > 0 {
        settle(h);
        let step = left.min(20);
        advance(step);
        left -= step;
    }
}

/// A finger pressed at `from`, moved in a few frames of random length to `to`, lifted.
fn drag(h: &Harness, rng: &mut StdRng, from: LogicalPosition, to: LogicalPosition) {
    h.press(from);
    let steps = rng.random_range(1..6);
    for step in 1..=steps {
        let t = step as f32 / steps as f32;
        let position = LogicalPosition::new(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t);
        h.window.window().dispatch_event(slint::platform::WindowEvent::PointerMoved { position });
        pass_time(h, rng.random_range(5..40));
    }
    h.release(to);
}

/// Two fingers on the board around `centre`: they land (the second after a random wait),
/// spread or close while turning by `degrees` in frames of random length, and lift in
/// either order, as people pinch and twist. Slint reports stray clicks for them.
fn two_fingers(h: &Harness, rng: &mut StdRng, centre: LogicalPosition, degrees: f32) {
    let (from, to) = (rng.random_range(20.0..200.0), rng.random_range(20.0..300.0));
    let finger = |spread: f32, angle: f32, sign: f32| {
        let radians = f32::to_radians(angle);
        LogicalPosition::new(
            centre.x + sign * spread / 2.0 * radians.cos(),
            centre.y + sign * spread / 2.0 * radians.sin(),
        )
    };
    touch(&h.window, 0, finger(from, 0.0, -1.0), TouchPhase::Started);
    pass_time(h, rng.random_range(0..60));
    touch(&h.window, 1, finger(from, 0.0, 1.0), TouchPhase::Started);
    let steps = rng.random_range(2..16);
    for step in 1..=steps {
        let t = step as f32 / steps as f32;
        let (spread, angle) = (from + (to - from) * t, degrees * t);
        touch(&h.window, 0, finger(spread, angle, -1.0), TouchPhase::Moved);
        touch(&h.window, 1, finger(spread, angle, 1.0), TouchPhase::Moved);
        pass_time(h, rng.random_range(8..33));
    }
    let first = i32::from(rng.random_bool(0.5));
    let sign = |id: i32| if id == 0 { -1.0 } else { 1.0 };
    touch(&h.window, first, finger(to, degrees, sign(first)), TouchPhase::Ended);
    pass_time(h, rng.random_range(0..60));
    touch(&h.window, 1 - first, finger(to, degrees, sign(1 - first)), TouchPhase::Ended);
}

/// Tells how to replay a failed run: the seed and the event it failed at.
struct Replay {
    seed: u64,
    events: usize,
    event: Cell<usize>,
}

impl Drop for Replay {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!(
                "monkey failed at event {} of {}: replay with MONKEY_SEED={} MONKEY_EVENTS={}",
                self.event.get(),
                self.events,
                self.seed,
                self.events
            );
        }
    }
}

/// Checks everything that must always hold.
fn check_invariants(h: &Harness, context: &str) {
    let session = h.controller.session();
    let game = session.game();
    // The history replays from the start: every action was legal.
    let mut replay = Game::from_position(*game.start_position());
    for action in game.history() {
        assert!(replay.play_action(action).is_ok(), "{context}: illegal action {action} in the history");
    }
    assert_eq!(replay.position(), game.position(), "{context}: replay differs");
    // The preview, if any, is a legal route (or a legal partial chain).
    let route = &session.interaction().route;
    if route.len() >= 2 {
        let position = game.position();
        let legal = position.check_route(route).is_ok() || position.jump_extensions(route).is_ok();
        assert!(legal, "{context}: preview {route:?} is not legal");
    }
    // No two pieces on a square, counts kept.
    let mut seen = 0u32;
    for seat in Seat::ALL {
        let pieces = game.position().pieces(seat);
        assert_eq!(pieces.count(), game.setup().army_size(seat), "{context}: pieces of {seat}");
        seen += pieces.count();
    }
    assert_eq!(game.position().occupied().count(), seen, "{context}: two pieces on one square");
}

fn check_save_loads_back(h: &Harness) {
    h.controller.save();
    let store = Store::new(&h.dir);
    match store.load(storage::SESSION, Ok::<Session, String>) {
        LoadOutcome::Loaded(saved) => assert_eq!(saved.game(), h.controller.session().game(), "saved game differs"),
        LoadOutcome::Missing => {}
        LoadOutcome::Damaged { problem, .. } => panic!("the app's own save did not load: {problem}"),
        LoadOutcome::FromNewerVersion { found, .. } => panic!("the app's own save claims version {found}"),
    }
}

#[test]
fn monkey() {
    let events: usize = std::env::var("MONKEY_EVENTS").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000);
    let seed: u64 = std::env::var("MONKEY_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(20261129);
    let mut rng = StdRng::seed_from_u64(seed);
    let replay = Replay { seed, events, event: Cell::new(0) };
    // The position after every event, summed up: a replay of the seed must reach the same.
    let mut trace = DefaultHasher::new();
    let h = harness("monkey");
    h.start(Session::new(GameConfig {
        setup: Setup::ThreePlayers,
        first: Seat::A,
        players: [Player::Human, Player::Computer(Level::Greedy), Player::Human, Player::Computer(Level::Beginner)]
            .into(),
    }));
    let sizes = [(1000.0, 700.0), (393.0, 851.0), (851.0, 393.0), (1280.0, 800.0), (320.0, 480.0)];
    for event in 0..events {
        replay.event.set(event);
        // Every event starts with no search running: keys and buttons may start one and
        // let a little mock time pass (less than a poll), never a search's answer.
        settle(&h);
        match rng.random_range(0..100) {
            0..=39 => {
                if let Some(point) = random_point_on_board(&h, &mut rng) {
                    h.press(point);
                    pass_time(&h, rng.random_range(10..80));
                    h.release(point);
                }
            }
            40..=46 => {
                if let Some(from) = random_point_on_board(&h, &mut rng) {
                    let to = LogicalPosition::new(
                        from.x + rng.random_range(-200.0..200.0),
                        from.y + rng.random_range(-200.0..200.0),
                    );
                    drag(&h, &mut rng, from, to);
                }
            }
            47..=52 => {
                // Pinches and twists with two real fingers (Slint reports stray clicks for them).
                if let Some(at) = random_point_on_board(&h, &mut rng) {
                    let degrees = if rng.random_bool(0.3) { rng.random_range(-150.0..150.0) } else { 0.0 };
                    two_fingers(&h, &mut rng, at, degrees);
                    pass_time(&h, 300);
                }
            }
            53..=74 => h.key(random_key(&mut rng)),
            75..=94 => {
                let label = BUTTONS[rng.random_range(0..BUTTONS.len())];
                if let Some(button) = ElementHandle::find_by_accessible_label(&h.window, label)
                    .find(|e| e.accessible_enabled() != Some(false))
                {
                    button.invoke_accessible_default_action();
                }
            }
            95 => {
                // Review steps, and junk pasted into the import (a record cut short, noise,
                // or the game's own record changed at random).
                let game_state = h.game_state();
                let records = h.window.global::<halma::Records>();
                match rng.random_range(0..6) {
                    0 => game_state.invoke_review_step(halma::ReviewStep::Back),
                    1 => game_state.invoke_review_step(halma::ReviewStep::First),
                    2 => game_state.invoke_review_step(halma::ReviewStep::Forward),
                    3 => game_state.invoke_review_step(halma::ReviewStep::Leave),
                    4 => game_state.invoke_review_at(rng.random_range(-2..40)),
                    _ => {
                        let before = h.controller.session();
                        let mut text: Vec<u8> = records.invoke_export().to_string().into_bytes();
                        let cut = rng.random_range(0..=text.len());
                        text.truncate(cut);
                        for _ in 0..rng.random_range(0..4) {
                            if !text.is_empty() {
                                let at = rng.random_range(0..text.len());
                                text[at] = rng.random_range(b' '..=b'~');
                            }
                        }
                        let text = String::from_utf8_lossy(&text).into_owned();
                        records.invoke_open_import();
                        records.invoke_import(text.clone().into(), rng.random_bool(0.5));
                        if records.get_view().importing {
                            // Refused: nothing changed.
                            assert_eq!(
                                h.controller.session().game(),
                                before.game(),
                                "a refused record changed the game"
                            );
                            records.invoke_close_import();
                        }
                    }
                }
            }
            96 => {
                let (width, height) = sizes[rng.random_range(0..sizes.len())];
                h.window.window().set_size(slint::LogicalSize::new(width, height));
            }
            _ => {
                // Let the computer think and move: mock time passes until no search runs
                // (a person is to move, or a seat failed), at most 2 s more.
                pass_time(&h, 500);
                for _ in 0..80 {
                    if !h.controller.is_searching() {
                        break;
                    }
                    pass_time(&h, 25);
                }
            }
        }
        pass_time(&h, rng.random_range(0..250));
        let session = h.controller.session();
        trace.write_u64(session.game().position().hash());
        trace.write_usize(session.game().history().len());
        trace.write_usize(session.interaction().route.len());
        if event % 500 == 0 {
            check_invariants(&h, &format!("event {event}"));
        }
        if event % 5000 == 0 {
            check_save_loads_back(&h);
        }
    }
    replay.event.set(events);
    check_invariants(&h, "the end");
    check_save_loads_back(&h);
    // What a replay of this seed must reach again (shown with --nocapture).
    let game = h.controller.session().game().clone();
    println!("monkey: trace {:016x}", trace.finish());
    println!(
        "monkey: seed {seed}, {events} events: {} actions, {}",
        game.history().len(),
        halma_rules::write_hpn(game.position())
    );
    // A finished game or one in progress: the screen shows something sensible.
    // The game page is only shown with a game to show.
    let page = h.navigation().get_page();
    assert!(page != halma::Page::Game || h.form().get_view().can_resume, "the game page without a game");
}
