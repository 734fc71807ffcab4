//! A window of the real app under Slint's testing backend, driven like a person
//! would: pointer events on board squares, keys, accessible buttons, mock time.
#![allow(dead_code)]

use halma::app::ui::{Controller, StartOptions};
use halma::{AppWindow, BoardState, GameState, Navigation, NewGameForm, Pickers, Preferences};
use halma_core::session::{GameConfig, Player, Session};
use halma_core::storage::Store;
use halma_rules::{Game, Seat, Setup, Square};
use i_slint_backend_testing::ElementHandle;
use i_slint_core::input::TouchPhase;
use i_slint_core::platform::InternalEvent;
use slint::platform::{PointerEventButton, WindowEvent};
use slint::{ComponentHandle, LogicalPosition, SharedString};
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Advances the mock clock in small steps, as frames would (a repeated timer fires at
/// most once per step).
pub fn advance(ms: u64) {
    let mut left = ms;
    while left > 0 {
        let step = left.min(20);
        i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(step));
        left -= step;
    }
}

/// One finger of a touchscreen, through the runtime's touch event (the public
/// `WindowEvent` has none): Slint turns two fingers into pinch and twist gestures.
pub fn touch(window: &AppWindow, finger: i32, position: LogicalPosition, phase: TouchPhase) {
    let point = i_slint_core::lengths::logical_point_from_api(position);
    window.window().dispatch_event(WindowEvent::internal(InternalEvent::Touch { id: finger, position: point, phase }));
}

// Square names in tests: the helper every test shares (the monkey test names no squares).
#[allow(unused_imports)]
pub use halma_test_support::sq;

pub struct Harness {
    pub window: AppWindow,
    pub controller: Rc<Controller>,
    pub dir: PathBuf,
}

impl Drop for Harness {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A fresh data folder for the app, under Cargo's temporary folder; the process id keeps
/// two test runs on one build folder apart.
pub fn fresh_dir(name: &str) -> PathBuf {
    let base = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    halma_test_support::fresh_dir_in(base, "ui-tests", &format!("{name}-{}", std::process::id()))
}

thread_local! {
    static SLINT_READY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Slint's testing backend with mock time, once (Slint's platform is set once per
/// process; its windows and clock belong to the thread that set it).
pub fn init() {
    if !SLINT_READY.with(|ready| ready.replace(true)) {
        // With the software renderer, which `take_snapshot` draws with: the flows with long
        // texts (#49) render the window as the desktop app does. Nothing is drawn otherwise.
        let options = i_slint_backend_testing::TestingBackendOptions {
            mock_time: true,
            threading: true,
            renderer_name: Some("software".into()),
        };
        slint::platform::set_platform(Box::new(i_slint_backend_testing::TestingBackend::new(options)))
            .expect("the testing platform, once");
    }
}

/// Runs each named flow (half of them here, half in a child process), catching its panic,
/// and reports like libtest:
/// a failure names its flow. Arguments that are not options filter flows by name.
pub fn run_flows(flows: &[(&str, fn())]) {
    let filters: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let chosen: Vec<&(&str, fn())> = flows
        .iter()
        .filter(|(name, _)| filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str())))
        .collect();
    // The flows are most of a `cargo test` run and each keeps one core busy: they run in two
    // processes at once, this one and a child of the same binary given the other half
    // (HALMA_UI_HALF=1), each with its own Slint platform and its own data folders.
    let half: Option<usize> = std::env::var("HALMA_UI_HALF").ok().and_then(|text| text.parse().ok());
    let other_half = match half {
        None if chosen.len() > 1 => {
            let child = std::env::current_exe().and_then(|me| {
                std::process::Command::new(me).args(std::env::args().skip(1)).env("HALMA_UI_HALF", "1").spawn()
            });
            match child {
                Ok(child) => Some(child),
                Err(error) => panic!("cannot start the second half of the flows: {error}"),
            }
        }
        _ => None,
    };
    let mine: Vec<&(&str, fn())> = match (half, &other_half) {
        (Some(half), _) => chosen.iter().copied().enumerate().filter(|(i, _)| i % 2 == half).map(|(_, f)| f).collect(),
        (None, Some(_)) => chosen.iter().copied().step_by(2).collect(),
        (None, None) => chosen.clone(),
    };
    println!("\nrunning {} tests (of {})", mine.len(), chosen.len());
    let mut failed = Vec::new();
    for (name, flow) in mine.iter().copied() {
        let outcome = std::panic::catch_unwind(*flow);
        println!("test {name} ... {}", if outcome.is_ok() { "ok" } else { "FAILED" });
        if outcome.is_err() {
            failed.push(name.to_string());
        }
    }
    if let Some(mut child) = other_half {
        match child.wait() {
            Ok(status) if status.success() => {}
            Ok(_) => failed.push("the other half (see its lines above)".into()),
            Err(error) => failed.push(format!("the other half could not be waited for: {error}")),
        }
    }
    let passed = mine.len().saturating_sub(failed.len());
    println!("\n{passed} passed here, {} failed", failed.len());
    if !failed.is_empty() {
        println!("failures: {}", failed.join(", "));
        std::process::exit(1);
    }
}

pub fn harness(name: &str) -> Harness {
    open(fresh_dir(name))
}

/// The app started on the data folder `dir` (a new one, or one a quit left), its window
/// shown at a desktop size. A fresh folder is a newcomer's, whom the first-game guide
/// greets: the flows start without it (`open_as_newcomer` has it).
pub fn open(dir: PathBuf) -> Harness {
    open_with(dir, StartOptions { first_game_guide: false }, slint::LogicalSize::new(1000.0, 700.0))
}

/// The app started as a newcomer starts it (the first-game guide offered), at `size`.
pub fn open_as_newcomer(dir: PathBuf, size: slint::LogicalSize) -> Harness {
    open_with(dir, StartOptions::default(), size)
}

fn open_with(dir: PathBuf, options: StartOptions, size: slint::LogicalSize) -> Harness {
    init();
    let window = AppWindow::new().expect("window");
    window.window().set_size(size);
    let controller = Controller::install_with(&window, Some(Store::new(&dir)), options);
    window.show().expect("show");
    advance(20);
    Harness { window, controller, dir }
}

pub fn humans(setup: Setup) -> GameConfig {
    GameConfig { setup, first: Seat::A, players: [Player::Human; 4].into() }
}

/// Two players: a person at A, who moves first, against `player` at C.
pub fn against(player: Player) -> GameConfig {
    GameConfig { players: [Player::Human, Player::Human, player, Player::Human].into(), ..humans(Setup::TwoPlayers) }
}

/// The command line of the `halma-engine` built with the tests, on one thread. It is
/// another crate's binary (`halma-engine`), which `cargo test` at the root builds beside
/// the test binaries' folder (`target/debug/deps/..`).
pub fn engine_command() -> String {
    let engine = std::env::current_exe()
        .ok()
        .and_then(|test| Some(test.parent()?.parent()?.join(format!("halma-engine{}", std::env::consts::EXE_SUFFIX))))
        .filter(|engine| engine.is_file())
        .unwrap_or_else(|| panic!("no halma-engine beside the tests: run `cargo test` at the root, or `cargo build -p halma-engine` first"));
    format!("{} --threads 1", engine.display())
}

impl Harness {
    /// Closes the window as quitting the app does (nothing is saved on the way out) and
    /// keeps the data folder for the next start, whose path it returns.
    pub fn quit(self) -> PathBuf {
        let dir = self.dir.clone();
        let kept = dir.with_extension("kept");
        let moved = std::fs::rename(&dir, &kept).is_ok();
        drop(self);
        if moved {
            let _ = std::fs::rename(&kept, &dir);
        }
        dir
    }

    pub fn board(&self) -> BoardState<'_> {
        self.window.global::<BoardState>()
    }

    pub fn game_state(&self) -> GameState<'_> {
        self.window.global::<GameState>()
    }

    pub fn pickers(&self) -> Pickers<'_> {
        self.window.global::<Pickers>()
    }

    pub fn navigation(&self) -> Navigation<'_> {
        self.window.global::<Navigation>()
    }

    pub fn form(&self) -> NewGameForm<'_> {
        self.window.global::<NewGameForm>()
    }

    pub fn preferences(&self) -> Preferences<'_> {
        self.window.global::<Preferences>()
    }

    pub fn start(&self, session: Session) {
        self.controller.begin_session(session);
        advance(20);
    }

    pub fn game(&self) -> Game {
        self.controller.session().game().clone()
    }

    /// Window coordinates of the centre of `square`'s cell on the board.
    pub fn square_point(&self, square: Square) -> LogicalPosition {
        let board =
            ElementHandle::find_by_element_id(&self.window, "GamePage::board").next().expect("the board is on screen");
        let origin = board.absolute_position();
        let size = board.size();
        let zoom = self.board().get_view().zoom;
        let cell = size.width * zoom / 16.0;
        // The board shows the guide's game while the guide runs.
        let state = self.controller.state();
        let (x, y) = state.guide_shown().unwrap_or(&state.session).view().display_cell(square);
        LogicalPosition::new(
            origin.x + self.board().get_content_x() + (x as f32 + 0.5) * cell,
            origin.y + self.board().get_content_y() + (y as f32 + 0.5) * cell,
        )
    }

    /// The centre of the board area on screen.
    pub fn board_centre(&self) -> LogicalPosition {
        let board =
            ElementHandle::find_by_element_id(&self.window, "GamePage::board").next().expect("the board is on screen");
        let origin = board.absolute_position();
        let size = board.size();
        LogicalPosition::new(origin.x + size.width / 2.0, origin.y + size.height / 2.0)
    }

    pub fn press(&self, position: LogicalPosition) {
        let window = self.window.window();
        window.dispatch_event(WindowEvent::PointerMoved { position });
        window.dispatch_event(WindowEvent::PointerPressed { position, button: PointerEventButton::Left });
    }

    pub fn release(&self, position: LogicalPosition) {
        self.window
            .window()
            .dispatch_event(WindowEvent::PointerReleased { position, button: PointerEventButton::Left });
    }

    /// A press at `from` dragged in `steps` frames to `to`, then released.
    pub fn drag(&self, from: LogicalPosition, to: LogicalPosition, steps: u32) {
        self.press(from);
        for step in 1..=steps {
            let t = step as f32 / steps as f32;
            self.window.window().dispatch_event(WindowEvent::PointerMoved {
                position: LogicalPosition::new(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t),
            });
            advance(16);
        }
        self.release(to);
    }

    /// A tap on a square, then the tap delay passes.
    pub fn tap(&self, square: Square) {
        let point = self.square_point(square);
        self.press(point);
        advance(40);
        self.release(point);
        advance(200);
    }

    pub fn key(&self, text: impl Into<SharedString>) {
        let text = text.into();
        self.window.window().dispatch_event(WindowEvent::KeyPressed { text: text.clone() });
        self.window.window().dispatch_event(WindowEvent::KeyReleased { text });
        advance(20);
    }

    /// Clicks the button whose accessible label is `label` (the visible text).
    pub fn click_button(&self, label: &str) {
        let button = ElementHandle::find_by_accessible_label(&self.window, label)
            .find(|e| e.accessible_enabled() != Some(false))
            .unwrap_or_else(|| panic!("no enabled button '{label}'"));
        button.invoke_accessible_default_action();
        advance(20);
    }

    /// Opens the game page's "⋯" menu and clicks its item `label`. The menu stays open
    /// after a zoom or rotation (a player may repeat them); Esc then closes it, so the
    /// next tap reaches the board.
    pub fn menu(&self, label: &str) {
        self.click_button("More actions");
        self.click_button(label);
        if ElementHandle::find_by_accessible_label(&self.window, "Rotate right").next().is_some() {
            self.key(slint::platform::Key::Escape);
        }
    }

    /// The position and size on screen of the element with the id `id` ("Component::id").
    pub fn element_rect(&self, id: &str) -> (LogicalPosition, slint::LogicalSize) {
        let element =
            ElementHandle::find_by_element_id(&self.window, id).next().unwrap_or_else(|| panic!("no element '{id}'"));
        (element.absolute_position(), element.size())
    }

    /// The elements on screen with an accessible `role`.
    pub fn elements_with_role(&self, role: i_slint_backend_testing::AccessibleRole) -> Vec<ElementHandle> {
        i_slint_backend_testing::ElementQuery::from_root(&self.window)
            .match_descendants()
            .match_accessible_role(role)
            .find_all()
    }

    /// Whether some text on screen contains `needle`.
    pub fn shows_text(&self, needle: &str) -> bool {
        self.elements_with_role(i_slint_backend_testing::AccessibleRole::Text)
            .iter()
            .any(|text| text.accessible_label().is_some_and(|label| label.contains(needle)))
    }

    /// Whether some combo box on screen shows `value` as its choice.
    pub fn combo_shows(&self, value: &str) -> bool {
        self.elements_with_role(i_slint_backend_testing::AccessibleRole::Combobox)
            .iter()
            .any(|combo| combo.accessible_value().is_some_and(|shown| shown == value))
    }

    /// Whether the picker whose prompt is `prompt` shows its prompt (nothing chosen).
    pub fn picker_shows_prompt(&self, prompt: &str) -> bool {
        self.elements_with_role(i_slint_backend_testing::AccessibleRole::Combobox).iter().any(|picker| {
            picker.accessible_label().is_some_and(|label| label == prompt)
                && picker.accessible_value().is_none_or(|value| value.is_empty())
        })
    }

    /// Whether a picker's list is open.
    pub fn picker_popup_open(&self) -> bool {
        self.elements_with_role(i_slint_backend_testing::AccessibleRole::Combobox)
            .iter()
            .any(|picker| picker.accessible_expanded() == Some(true))
    }

    /// The percentage shown by the progress bar whose accessible label contains `label`.
    pub fn progress(&self, label: &str) -> Option<u32> {
        self.elements_with_role(i_slint_backend_testing::AccessibleRole::ProgressIndicator)
            .iter()
            .filter(|bar| bar.accessible_label().is_some_and(|text| text.contains(label)))
            .find_map(|bar| bar.accessible_value().and_then(|value| value.parse().ok()))
    }

    pub fn button_enabled(&self, label: &str) -> bool {
        ElementHandle::find_by_accessible_label(&self.window, label).any(|e| e.accessible_enabled() == Some(true))
    }

    pub fn route(&self) -> Vec<Square> {
        self.controller.session().interaction().route.clone()
    }

    /// Two fingers on the board around `centre`: they land `from` apart, spread to
    /// `to` apart while turning by `degrees`, then lift — as a person pinches.
    pub fn two_finger_gesture(&self, centre: LogicalPosition, from: f32, to: f32, degrees: f32) {
        let finger = |spread: f32, angle: f32, sign: f32| {
            let radians = angle.to_radians();
            LogicalPosition::new(
                centre.x + sign * spread / 2.0 * radians.cos(),
                centre.y + sign * spread / 2.0 * radians.sin(),
            )
        };
        touch(&self.window, 0, finger(from, 0.0, -1.0), TouchPhase::Started);
        advance(30);
        touch(&self.window, 1, finger(from, 0.0, 1.0), TouchPhase::Started);
        advance(16);
        let steps = 12;
        for step in 1..=steps {
            let t = step as f32 / steps as f32;
            let spread = from + (to - from) * t;
            let angle = degrees * t;
            touch(&self.window, 0, finger(spread, angle, -1.0), TouchPhase::Moved);
            touch(&self.window, 1, finger(spread, angle, 1.0), TouchPhase::Moved);
            advance(16);
        }
        touch(&self.window, 1, finger(to, degrees, 1.0), TouchPhase::Ended);
        advance(30);
        touch(&self.window, 0, finger(to, degrees, -1.0), TouchPhase::Ended);
        advance(300);
    }

    /// A's opening step: e2 and f3 tapped (the preview), then Confirm.
    pub fn play_e2_f3(&self) {
        self.tap(sq("e2"));
        self.tap(sq("f3"));
        self.click_button("Confirm");
    }

    /// Waits until the game has `actions` actions and no move is being animated: the
    /// computer or engine program to move has answered.
    pub fn wait_for_actions(&self, actions: usize) {
        self.wait_until(&format!("{actions} actions"), |h| {
            h.game().history().len() == actions && !h.controller.is_animating()
        });
    }

    /// Lets timers, animations and worker threads run until `done` holds.
    pub fn wait_until(&self, what: &str, done: impl Fn(&Harness) -> bool) {
        let start = Instant::now();
        while !done(self) {
            assert!(start.elapsed() < Duration::from_secs(30), "timed out waiting for {what}");
            advance(30);
            std::thread::sleep(Duration::from_millis(2));
        }
        advance(400);
    }
}
