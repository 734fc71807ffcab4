//! The Slint window and the controller between it and the session: it turns taps,
//! keys and gestures into session actions, runs the computer players and hints on a
//! worker thread, animates moves, saves after every action, and shows the state.

use super::interaction::TapResult;
use super::locale;
use super::session::{GameConfig, Notice, Player, Session, Settings};
use super::storage::{self, LoadOutcome, Store};
use super::view::{BoardView, Orientation};
use crate::ai::{self, Level, SearchRequest};
use crate::rules::{Action, DrawReason, Game, Outcome, Seat, Setup, Square};
use crate::{AppWindow, Bridge, Cell, SeatChoice, SeatInfo};
use slint::{ComponentHandle, Model, ModelRc, SharedString, Timer, TimerMode, VecModel};
use std::cell::{Cell as StdCell, RefCell};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Pages of the window (Bridge.page).
const PAGE_NEW_GAME: i32 = 0;
const PAGE_GAME: i32 = 1;
const PAGE_RULES: i32 = 2;
const PAGE_ABOUT: i32 = 3;

/// A tap is held this long before it counts, so that the second finger of a pinch
/// can cancel it (Slint reports a click when the second finger lands).
const TAP_DELAY: Duration = Duration::from_millis(120);
/// After a pinch ends, the next click within this time is the pinch's own release.
const AFTER_GESTURE: Duration = Duration::from_millis(400);
/// The computer waits at least this long before moving, so a person sees it coming.
const COMPUTER_PAUSE: Duration = Duration::from_millis(450);
/// Time per hop of a move's animation.
const HOP_TIME: Duration = Duration::from_millis(160);
/// How often a running search is checked for its result.
const POLL_TIME: Duration = Duration::from_millis(25);

/// A search running on a worker thread.
struct Job {
    kind: JobKind,
    stop: Arc<AtomicBool>,
    result: Arc<Mutex<Option<Option<Action>>>>,
    /// Number of actions in the game when the job started: a result for another
    /// position is dropped.
    plies: usize,
    /// Polls left before the computer may move (its visible pause).
    pause_polls: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum JobKind {
    Computer,
    Hint,
}

impl Drop for Job {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// A move shown hop by hop after it was played.
struct Animation {
    route: Vec<Square>,
    seat: Seat,
    hop: usize,
}

/// State of a pinch / twist in progress.
#[derive(Default)]
struct Gesture {
    active: bool,
    last_scale: f32,
    rotation_applied: f32,
}

/// The app's controller: one per window, used on the UI thread only.
pub struct Controller {
    window: slint::Weak<AppWindow>,
    session: RefCell<Session>,
    /// True when `session` is a game the player started (Resume is offered).
    has_game: StdCell<bool>,
    settings: RefCell<Settings>,
    store: Option<Store>,
    /// New-game screen choices.
    choice: RefCell<GameConfig>,
    cells: Rc<VecModel<Cell>>,
    job: RefCell<Option<Job>>,
    poll_timer: Timer,
    animation: RefCell<Option<Animation>>,
    animation_timer: Timer,
    pending_tap: StdCell<Option<(i32, i32)>>,
    tap_timer: Timer,
    ignore_clicks: StdCell<bool>,
    ignore_timer: Timer,
    gesture: RefCell<Gesture>,
    viewport: StdCell<(f32, f32)>,
    previous_page: StdCell<i32>,
    cursor_visible: StdCell<bool>,
    /// Where a problem with the saved files is reported (shown once).
    load_problem: RefCell<String>,
}

thread_local! {
    static CONTROLLER: RefCell<Option<Rc<Controller>>> = const { RefCell::new(None) };
}

/// Builds the window, restores the saved game and settings from `data_dir` (or the
/// platform's data folder when `None`), and runs until the window closes.
pub fn run_app(data_dir: PathBuf) -> Result<(), slint::PlatformError> {
    let window = AppWindow::new()?;
    let controller = Controller::install(&window, Some(Store::new(data_dir)));
    window.run()?;
    controller.save();
    CONTROLLER.with(|c| c.borrow_mut().take());
    Ok(())
}

/// The desktop entry: the data folder from the environment or the OS.
pub fn run_desktop() -> Result<(), slint::PlatformError> {
    let dir = storage::default_data_dir().unwrap_or_else(|| PathBuf::from(".halma"));
    run_app(dir)
}

/// Saves the running game and settings now (Android pause/stop). No-op without a window.
pub fn save_now() {
    CONTROLLER.with(|c| {
        if let Some(controller) = c.borrow().as_ref() {
            controller.save();
        }
    });
}

fn seat_index(seat: Seat) -> i32 {
    seat.index() as i32
}

fn seat_from_index(index: i32) -> Option<Seat> {
    (0..4).contains(&index).then(|| Seat::from_index(index as usize))
}

fn level_index(level: Level) -> i32 {
    Level::PLAYABLE.iter().position(|&l| l == level).map_or(0, |i| i as i32)
}

/// The route as an SVG path in board cells (0..16), in display orientation.
fn route_path(view: &BoardView, route: &[Square]) -> SharedString {
    let mut path = String::new();
    for (i, &square) in route.iter().enumerate() {
        let (x, y) = view.display_cell(square);
        path.push_str(&format!("{} {} {} ", if i == 0 { "M" } else { "L" }, x as f32 + 0.5, y as f32 + 0.5));
    }
    path.trim_end().into()
}

/// Route text for the destination picker: "c3 → e5 → g5".
fn route_label(route: &[Square]) -> SharedString {
    route.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" → ").into()
}

impl Controller {
    /// Creates the controller for `window`, wires every callback and restores state.
    pub fn install(window: &AppWindow, store: Option<Store>) -> Rc<Controller> {
        let controller = Rc::new(Controller {
            window: window.as_weak(),
            session: RefCell::new(Session::new(GameConfig::default())),
            has_game: StdCell::new(false),
            settings: RefCell::new(Settings::default()),
            store,
            choice: RefCell::new(GameConfig::default()),
            cells: Rc::new(VecModel::from(vec![Cell::default(); 256])),
            job: RefCell::new(None),
            poll_timer: Timer::default(),
            animation: RefCell::new(None),
            animation_timer: Timer::default(),
            pending_tap: StdCell::new(None),
            tap_timer: Timer::default(),
            ignore_clicks: StdCell::new(false),
            ignore_timer: Timer::default(),
            gesture: RefCell::new(Gesture::default()),
            viewport: StdCell::new((0.0, 0.0)),
            previous_page: StdCell::new(PAGE_NEW_GAME),
            cursor_visible: StdCell::new(false),
            load_problem: RefCell::new(String::new()),
        });
        window.set_version(env!("CARGO_PKG_VERSION").into());
        if cfg!(target_os = "android") {
            // Let Android size text from the system font scale.
            window.set_base_font_size(0.0);
        }
        let bridge = window.global::<Bridge>();
        bridge.set_cells(ModelRc::from(controller.cells.clone()));
        bridge.set_language_names(ModelRc::new(VecModel::from(
            locale::LANGUAGES.iter().map(|(_, name)| SharedString::from(*name)).collect::<Vec<_>>(),
        )));
        controller.connect(&bridge);
        controller.restore();
        CONTROLLER.with(|c| *c.borrow_mut() = Some(controller.clone()));
        controller
    }

    fn with_window(&self, f: impl FnOnce(&AppWindow)) {
        if let Some(window) = self.window.upgrade() {
            f(&window);
        }
    }

    fn connect(self: &Rc<Self>, bridge: &Bridge) {
        macro_rules! on {
            ($method:ident, |$this:ident $(, $arg:ident : $ty:ty)*| $body:expr) => {{
                let weak = Rc::downgrade(self);
                bridge.$method(move |$($arg: $ty),*| {
                    if let Some($this) = weak.upgrade() {
                        $body
                    }
                });
            }};
        }
        on!(on_cell_clicked, |c, x: i32, y: i32| c.cell_clicked(x, y));
        on!(on_arrow, |c, dx: i32, dy: i32| c.arrow(dx, dy));
        on!(on_enter, |c| c.enter());
        on!(on_escape, |c| c.escape());
        {
            let weak = Rc::downgrade(self);
            bridge.on_back(move || weak.upgrade().is_some_and(|c| c.back()));
        }
        on!(on_confirm, |c| c.confirm());
        on!(on_cancel, |c| c.cancel());
        on!(on_hint, |c| c.hint());
        on!(on_undo, |c| c.undo());
        on!(on_redo, |c| c.redo());
        on!(on_offer_draw, |c| c.offer_draw());
        on!(on_answer_draw, |c, accept: bool| c.answer_draw(accept));
        on!(on_pick_piece, |c, index: i32| c.pick_piece(index));
        on!(on_pick_destination, |c, index: i32| c.pick_destination(index));
        on!(on_zoom_by, |c, factor: f32, ax: f32, ay: f32| c.zoom_by(factor, ax, ay));
        on!(on_zoom_fit, |c| c.zoom_fit());
        on!(on_rotate, |c, clockwise: bool| c.rotate(clockwise));
        on!(on_panned, |c, x: f32, y: f32, w: f32, h: f32| c.panned(x, y, w, h));
        on!(on_viewport_resized, |c, w: f32, h: f32| c.viewport_resized(w, h));
        on!(on_gesture_started, |c| c.gesture_started());
        on!(on_gesture_updated, |c, scale: f32, rotation: f32, cx: f32, cy: f32| c
            .gesture_updated(scale, rotation, cx, cy));
        on!(on_gesture_ended, |c| c.gesture_ended());
        on!(on_start_game, |c| c.start_game());
        on!(on_resume_game, |c| c.show_page(PAGE_GAME));
        on!(on_restart_game, |c| c.restart_game());
        on!(on_new_game_screen, |c| c.new_game_screen());
        on!(on_next_game, |c| c.next_game());
        on!(on_set_players, |c, players: i32| c.set_players(players));
        on!(on_set_seat_player, |c, seat: i32, player: i32| c.set_seat_player(seat, player));
        on!(on_select_language, |c, index: i32| c.select_language(index));
        on!(on_set_orientation, |c, index: i32| c.set_orientation(index));
        on!(on_dismiss_load_problem, |c| c.dismiss_load_problem());
        on!(on_show_page, |c, page: i32| c.show_page(page));
    }

    // ----- Start, saving -----

    fn restore(self: &Rc<Self>) {
        let mut problems = Vec::new();
        if let Some(store) = &self.store {
            match store.load(storage::SETTINGS, Ok::<Settings, String>) {
                LoadOutcome::Loaded(settings) => *self.settings.borrow_mut() = settings,
                LoadOutcome::Missing => {}
                LoadOutcome::Damaged { problem, .. } => problems.push(problem.to_string()),
            }
            match store.load(storage::SESSION, validate_session) {
                LoadOutcome::Loaded(session) => {
                    *self.session.borrow_mut() = session;
                    self.has_game.set(true);
                }
                LoadOutcome::Missing => {}
                LoadOutcome::Damaged { problem, .. } => problems.push(problem.to_string()),
            }
        }
        if let Some(config) = self.settings.borrow().last_config {
            *self.choice.borrow_mut() = config;
        }
        *self.load_problem.borrow_mut() = problems.join(" · ");
        self.apply_language();
        let page = if self.has_game.get() && problems.is_empty() { PAGE_GAME } else { PAGE_NEW_GAME };
        self.with_window(|w| w.global::<Bridge>().set_page(page));
        self.refresh_choices();
        self.after_change(false);
    }

    /// Saves the session (when a game is in progress) and the settings.
    pub fn save(&self) {
        let Some(store) = &self.store else { return };
        if self.has_game.get() {
            if let Err(error) = store.save(storage::SESSION, &*self.session.borrow()) {
                eprintln!("halma: could not save the game: {error}");
            }
        }
        if let Err(error) = store.save(storage::SETTINGS, &*self.settings.borrow()) {
            eprintln!("halma: could not save the settings: {error}");
        }
    }

    fn apply_language(&self) {
        let chosen = self.settings.borrow().language.clone();
        let code = chosen.as_deref().and_then(locale::supported_language).unwrap_or_else(locale::system_language);
        let _ = slint::select_bundled_translation(code);
        let index = locale::LANGUAGES.iter().position(|(c, _)| *c == code).unwrap_or(0);
        self.with_window(|w| w.global::<Bridge>().set_language_index(index as i32));
    }

    // ----- After every change -----

    /// Saves, starts the computer or answers its votes when due, and refreshes.
    fn after_change(self: &Rc<Self>, save: bool) {
        {
            let mut session = self.session.borrow_mut();
            session.resolve_computer_votes(ai::should_accept_draw);
            let orientation = self.settings.borrow().orientation;
            session.apply_orientation(orientation);
        }
        if save {
            self.save();
        }
        self.maybe_start_computer();
        self.refresh();
    }

    fn maybe_start_computer(self: &Rc<Self>) {
        if self.animation.borrow().is_some() || !self.has_game.get() {
            return;
        }
        let level = self.session.borrow().computer_to_move();
        let Some(level) = level else { return };
        if matches!(&*self.job.borrow(), Some(job) if job.kind == JobKind::Computer) {
            return;
        }
        // A computer seat offers a draw when the game is stuck (once per turn).
        let offers = {
            let session = self.session.borrow();
            session.game.can_offer_draw() && ai::wants_draw(&session.game)
        };
        if offers && self.session.borrow_mut().game.offer_draw().is_ok() {
            self.session.borrow_mut().resolve_computer_votes(ai::should_accept_draw);
            self.save();
            self.refresh();
            if self.session.borrow().computer_to_move().is_none() {
                // A person answers first (or everyone accepted).
                return;
            }
        }
        let game = self.session.borrow().game.clone();
        let seed = game.history().len() as u64;
        self.start_job(JobKind::Computer, game, move |game, stop| {
            let request = SearchRequest { seed, ..SearchRequest::new(level) };
            ai::choose_action(&game, &request, &stop)
        });
    }

    fn start_job(
        self: &Rc<Self>,
        kind: JobKind,
        game: Game,
        search: impl FnOnce(Game, Arc<AtomicBool>) -> Option<Action> + Send + 'static,
    ) {
        let stop = Arc::new(AtomicBool::new(false));
        let result = Arc::new(Mutex::new(None));
        let plies = game.history().len();
        let (thread_stop, thread_result) = (stop.clone(), result.clone());
        let spawned = std::thread::Builder::new().name("halma-search".into()).stack_size(8 << 20).spawn(move || {
            let action = search(game, thread_stop);
            if let Ok(mut slot) = thread_result.lock() {
                *slot = Some(action);
            }
        });
        if spawned.is_err() {
            return;
        }
        let pause_polls =
            if kind == JobKind::Computer { (COMPUTER_PAUSE.as_millis() / POLL_TIME.as_millis()) as u32 } else { 0 };
        *self.job.borrow_mut() = Some(Job { kind, stop, result, plies, pause_polls });
        let weak = Rc::downgrade(self);
        self.poll_timer.start(TimerMode::Repeated, POLL_TIME, move || {
            if let Some(c) = weak.upgrade() {
                c.poll_job();
            }
        });
    }

    /// Stops any running search (undo, new game, leaving the game).
    fn cancel_job(&self) {
        self.job.borrow_mut().take();
        self.poll_timer.stop();
        self.with_window(|w| {
            w.global::<Bridge>().set_hint_thinking(false);
            w.global::<Bridge>().set_computer_thinking(false);
        });
    }

    fn poll_job(self: &Rc<Self>) {
        let finished = {
            let mut job = self.job.borrow_mut();
            let Some(running) = job.as_mut() else {
                self.poll_timer.stop();
                return;
            };
            if running.pause_polls > 0 {
                running.pause_polls -= 1;
            }
            let ready = running.result.lock().map(|mut slot| slot.take()).unwrap_or(Some(None));
            match ready {
                Some(action) if running.pause_polls == 0 => Some((running.kind, running.plies, action)),
                Some(action) => {
                    // Keep the result until the pause is over.
                    if let Ok(mut slot) = running.result.lock() {
                        *slot = Some(action);
                    }
                    None
                }
                None => None,
            }
        };
        let Some((kind, plies, action)) = finished else { return };
        self.job.borrow_mut().take();
        self.poll_timer.stop();
        if plies != self.session.borrow().game.history().len() {
            self.after_change(false);
            return;
        }
        match (kind, action) {
            (JobKind::Computer, Some(action)) => self.play_computer(action),
            (JobKind::Hint, Some(Action::Move(route))) => {
                let mut session = self.session.borrow_mut();
                let Session { interaction, game, .. } = &mut *session;
                interaction.show_hint(game, route.squares());
            }
            _ => {}
        }
        self.after_change(true);
    }

    fn play_computer(self: &Rc<Self>, action: Action) {
        let seat = self.session.borrow().game.position().army_to_move();
        let played = self.session.borrow_mut().play_action(&action);
        match played {
            Ok(()) => {
                if let Action::Move(route) = action {
                    self.animate(route.squares().to_vec(), seat);
                }
            }
            Err(error) => eprintln!("halma: the computer's move was refused: {error}"),
        }
    }

    fn animate(self: &Rc<Self>, route: Vec<Square>, seat: Seat) {
        *self.animation.borrow_mut() = Some(Animation { route, seat, hop: 0 });
        let weak = Rc::downgrade(self);
        self.animation_timer.start(TimerMode::Repeated, HOP_TIME, move || {
            if let Some(c) = weak.upgrade() {
                c.animation_step();
            }
        });
    }

    fn animation_step(self: &Rc<Self>) {
        let done = {
            let mut animation = self.animation.borrow_mut();
            match animation.as_mut() {
                Some(a) if a.hop + 1 < a.route.len() => {
                    a.hop += 1;
                    false
                }
                _ => true,
            }
        };
        if done {
            self.finish_animation();
            self.after_change(false);
        } else {
            self.refresh();
        }
    }

    fn finish_animation(&self) {
        self.animation.borrow_mut().take();
        self.animation_timer.stop();
    }

    // ----- Board input -----

    fn cell_clicked(self: &Rc<Self>, x: i32, y: i32) {
        if self.gesture.borrow().active || self.ignore_clicks.replace(false) {
            return;
        }
        self.pending_tap.set(Some((x, y)));
        let weak = Rc::downgrade(self);
        self.tap_timer.start(TimerMode::SingleShot, TAP_DELAY, move || {
            if let Some(c) = weak.upgrade() {
                if let Some((x, y)) = c.pending_tap.take() {
                    c.tap_cell(x, y);
                }
            }
        });
    }

    /// A tap that survived the pinch filter.
    fn tap_cell(self: &Rc<Self>, x: i32, y: i32) {
        let square = self.session.borrow().view.square_at(x, y);
        let Some(square) = square else { return };
        self.finish_animation();
        let result = self.session.borrow_mut().tap(square);
        self.handle_tap_result(result);
    }

    fn handle_tap_result(self: &Rc<Self>, result: TapResult) {
        match result {
            TapResult::Confirm(_) => self.confirm(),
            TapResult::Nothing => self.refresh(),
            _ => self.after_change(true),
        }
    }

    fn arrow(self: &Rc<Self>, dx: i32, dy: i32) {
        {
            let mut session = self.session.borrow_mut();
            let (columns, rows) = session.view.screen_to_board_direction(dx, dy);
            session.interaction.move_cursor(columns, rows);
        }
        self.cursor_visible.set(true);
        self.refresh();
    }

    fn enter(self: &Rc<Self>) {
        self.cursor_visible.set(true);
        self.finish_animation();
        let result = {
            let mut session = self.session.borrow_mut();
            let can_act = session.human_can_act();
            let Session { interaction, game, .. } = &mut *session;
            interaction.enter(game, can_act)
        };
        self.handle_tap_result(result);
    }

    fn confirm(self: &Rc<Self>) {
        self.finish_animation();
        let seat = self.session.borrow().game.position().army_to_move();
        let played = self.session.borrow_mut().confirm();
        if let Ok(Action::Move(route)) = played {
            self.cancel_job();
            self.animate(route.squares().to_vec(), seat);
            self.after_change(true);
        }
    }

    fn cancel(self: &Rc<Self>) {
        if self.session.borrow_mut().interaction.cancel() {
            self.after_change(true);
        }
    }

    fn escape(self: &Rc<Self>) {
        let page = self.page();
        if page == PAGE_GAME {
            self.cancel();
        } else if page == PAGE_RULES || page == PAGE_ABOUT {
            self.show_page(-1);
        }
    }

    /// Android's back button: preview, then selection, then the game screen, then
    /// (false) let the system close the app.
    fn back(self: &Rc<Self>) -> bool {
        match self.page() {
            PAGE_GAME => {
                if !self.session.borrow_mut().interaction.cancel() {
                    self.new_game_screen();
                } else {
                    self.after_change(true);
                }
                true
            }
            PAGE_RULES | PAGE_ABOUT => {
                self.show_page(-1);
                true
            }
            _ => false,
        }
    }

    fn page(&self) -> i32 {
        self.window.upgrade().map_or(PAGE_NEW_GAME, |w| w.global::<Bridge>().get_page())
    }

    fn show_page(self: &Rc<Self>, page: i32) {
        let current = self.page();
        let target = if page < 0 { self.previous_page.get() } else { page };
        let target = if target == PAGE_GAME && !self.has_game.get() { PAGE_NEW_GAME } else { target };
        if page >= 0 && current != page && (current == PAGE_GAME || current == PAGE_NEW_GAME) {
            self.previous_page.set(current);
        }
        self.with_window(|w| w.global::<Bridge>().set_page(target));
        self.refresh();
    }

    fn hint(self: &Rc<Self>) {
        let can = self.session.borrow().human_can_act() && self.job.borrow().is_none();
        if !can || self.page() != PAGE_GAME {
            return;
        }
        let game = self.session.borrow().game.clone();
        self.start_job(JobKind::Hint, game, |game, stop| ai::hint(&game, &stop));
        self.refresh();
    }

    fn undo(self: &Rc<Self>) {
        self.cancel_job();
        self.finish_animation();
        self.session.borrow_mut().undo();
        self.after_change(true);
    }

    fn redo(self: &Rc<Self>) {
        self.cancel_job();
        self.finish_animation();
        self.session.borrow_mut().redo();
        self.after_change(true);
    }

    fn offer_draw(self: &Rc<Self>) {
        if self.session.borrow_mut().offer_draw().is_ok() {
            self.after_change(true);
        }
    }

    fn answer_draw(self: &Rc<Self>, accept: bool) {
        let seat = self.session.borrow().human_vote_awaited();
        if let Some(seat) = seat {
            let _ = self.session.borrow_mut().answer_draw(seat, accept);
            self.after_change(true);
        }
    }

    fn pick_piece(self: &Rc<Self>, index: i32) {
        let result = {
            let mut session = self.session.borrow_mut();
            // Entry 0 is the prompt.
            if !session.human_can_act() || index < 1 {
                return;
            }
            let Session { interaction, game, .. } = &mut *session;
            interaction.pick_piece(game, index as usize - 1)
        };
        self.handle_tap_result(result);
    }

    fn pick_destination(self: &Rc<Self>, index: i32) {
        let result = {
            let mut session = self.session.borrow_mut();
            if !session.human_can_act() || index < 1 {
                return;
            }
            let Session { interaction, game, .. } = &mut *session;
            interaction.pick_destination(game, index as usize - 1)
        };
        self.handle_tap_result(result);
    }

    // ----- View -----

    fn zoom_by(self: &Rc<Self>, factor: f32, anchor_x: f32, anchor_y: f32) {
        self.session.borrow_mut().view.zoom_around(factor, anchor_x, anchor_y);
        self.view_changed();
    }

    fn zoom_fit(self: &Rc<Self>) {
        self.session.borrow_mut().view.fit();
        self.view_changed();
    }

    fn rotate(self: &Rc<Self>, clockwise: bool) {
        if self.settings.borrow().orientation == Orientation::FaceSeatToMove {
            // Turning by hand switches the automatic orientation off.
            self.settings.borrow_mut().orientation = Orientation::Fixed;
        }
        self.session.borrow_mut().view.rotate(clockwise);
        self.view_changed();
    }

    fn view_changed(self: &Rc<Self>) {
        self.save();
        self.refresh();
    }

    fn panned(self: &Rc<Self>, x: f32, y: f32, width: f32, height: f32) {
        self.session.borrow_mut().view.set_content_offset(x, y, width, height);
        self.save();
    }

    fn viewport_resized(self: &Rc<Self>, width: f32, height: f32) {
        self.viewport.set((width, height));
        self.refresh_offsets();
    }

    fn gesture_started(self: &Rc<Self>) {
        // The click reported when the second finger landed is not a tap.
        self.pending_tap.set(None);
        self.tap_timer.stop();
        *self.gesture.borrow_mut() = Gesture { active: true, last_scale: 1.0, rotation_applied: 0.0 };
    }

    fn gesture_updated(self: &Rc<Self>, scale: f32, rotation: f32, anchor_x: f32, anchor_y: f32) {
        let (factor, turn) = {
            let mut gesture = self.gesture.borrow_mut();
            if !gesture.active {
                *gesture = Gesture { active: true, last_scale: 1.0, rotation_applied: 0.0 };
            }
            let factor = if gesture.last_scale > 0.0 && scale.is_finite() { scale / gesture.last_scale } else { 1.0 };
            gesture.last_scale = scale;
            // A twist past 60° turns the board a quarter turn (once per 90°).
            let turn = if rotation - gesture.rotation_applied > 60.0 {
                gesture.rotation_applied += 90.0;
                Some(true)
            } else if rotation - gesture.rotation_applied < -60.0 {
                gesture.rotation_applied -= 90.0;
                Some(false)
            } else {
                None
            };
            (factor, turn)
        };
        {
            let mut session = self.session.borrow_mut();
            session.view.zoom_around(factor, anchor_x, anchor_y);
            if let Some(clockwise) = turn {
                session.view.rotate(clockwise);
            }
        }
        self.refresh();
    }

    fn gesture_ended(self: &Rc<Self>) {
        self.gesture.borrow_mut().active = false;
        self.pending_tap.set(None);
        self.tap_timer.stop();
        // The release that ends a pinch arrives as a click: ignore the next one.
        self.ignore_clicks.set(true);
        let weak = Rc::downgrade(self);
        self.ignore_timer.start(TimerMode::SingleShot, AFTER_GESTURE, move || {
            if let Some(c) = weak.upgrade() {
                c.ignore_clicks.set(false);
            }
        });
        self.save();
    }

    // ----- New game screen -----

    fn new_game_screen(self: &Rc<Self>) {
        self.session.borrow_mut().interaction.clear();
        let config = self.session.borrow().config;
        if self.has_game.get() {
            *self.choice.borrow_mut() = config;
        }
        self.refresh_choices();
        self.show_page(PAGE_NEW_GAME);
        self.after_change(true);
    }

    fn set_players(self: &Rc<Self>, players: i32) {
        let both = self.window.upgrade().is_none_or(|w| w.global::<Bridge>().get_both_armies());
        let setup = match players {
            2 => Setup::TwoPlayers,
            3 => Setup::ThreePlayers,
            _ if both => Setup::FourPlayersBothArmies,
            _ => Setup::FourPlayersOneArmy,
        };
        {
            let mut choice = self.choice.borrow_mut();
            choice.setup = setup;
            if !setup.has_seat(choice.first) {
                choice.first = setup.seats()[0];
            }
        }
        self.refresh_choices();
    }

    fn set_seat_player(self: &Rc<Self>, seat: i32, player: i32) {
        let Some(seat) = seat_from_index(seat) else { return };
        let value = match player {
            1..=4 => Player::Computer(Level::PLAYABLE[(player - 1) as usize]),
            _ => Player::Human,
        };
        self.choice.borrow_mut().players[seat.index()] = value;
    }

    /// Reads the new-game screen into a configuration.
    fn chosen_config(&self) -> GameConfig {
        let mut config = *self.choice.borrow();
        if let Some(window) = self.window.upgrade() {
            let bridge = window.global::<Bridge>();
            if config.setup.has_teams() {
                config.setup =
                    if bridge.get_both_armies() { Setup::FourPlayersBothArmies } else { Setup::FourPlayersOneArmy };
            }
            let index = bridge.get_first_seat_index().max(0) as usize;
            config.first = config.setup.seats().get(index).copied().unwrap_or(config.setup.seats()[0]);
        }
        config
    }

    fn refresh_choices(&self) {
        let config = *self.choice.borrow();
        self.with_window(|w| {
            let bridge = w.global::<Bridge>();
            bridge.set_setup_players(config.setup.seats().len() as i32);
            if config.setup.has_teams() {
                bridge.set_both_armies(config.setup == Setup::FourPlayersBothArmies);
            }
            let rows: Vec<SeatChoice> = config
                .setup
                .seats()
                .iter()
                .map(|&seat| SeatChoice {
                    seat: seat_index(seat),
                    player: match config.player(seat) {
                        Player::Human => 0,
                        Player::Computer(level) => level_index(level) + 1,
                    },
                })
                .collect();
            bridge.set_seat_choices(ModelRc::new(VecModel::from(rows)));
            let names: Vec<SharedString> = config.setup.seats().iter().map(|s| s.to_string().into()).collect();
            bridge.set_first_seat_names(ModelRc::new(VecModel::from(names)));
            bridge.set_first_seat_index(config.setup.turn_index(config.first).unwrap_or(0) as i32);
        });
    }

    fn start_game(self: &Rc<Self>) {
        let config = self.chosen_config();
        self.begin(Session::new(config));
        self.settings.borrow_mut().last_config = Some(config);
        self.show_page(PAGE_GAME);
        self.after_change(true);
    }

    fn begin(&self, session: Session) {
        self.cancel_job();
        self.finish_animation();
        let view = self.session.borrow().view;
        *self.session.borrow_mut() = Session { view, ..session };
        self.has_game.set(true);
    }

    fn restart_game(self: &Rc<Self>) {
        self.cancel_job();
        self.finish_animation();
        self.session.borrow_mut().restart();
        self.after_change(true);
    }

    fn next_game(self: &Rc<Self>) {
        self.cancel_job();
        self.finish_animation();
        self.session.borrow_mut().new_game();
        self.after_change(true);
    }

    fn select_language(self: &Rc<Self>, index: i32) {
        let Some((code, _)) = locale::LANGUAGES.get(index.max(0) as usize) else { return };
        self.settings.borrow_mut().language = Some(code.to_string());
        self.apply_language();
        self.save();
    }

    fn set_orientation(self: &Rc<Self>, index: i32) {
        self.settings.borrow_mut().orientation =
            if index == 1 { Orientation::FaceSeatToMove } else { Orientation::Fixed };
        self.after_change(true);
    }

    fn dismiss_load_problem(self: &Rc<Self>) {
        self.load_problem.borrow_mut().clear();
        self.refresh();
    }

    // ----- Showing the state -----

    fn refresh_offsets(&self) {
        let (width, height) = self.viewport.get();
        let view = self.session.borrow().view;
        let (x, y) = view.content_offset(width, height);
        self.with_window(|w| {
            let bridge = w.global::<Bridge>();
            bridge.set_zoom(view.zoom);
            bridge.set_content_x(x);
            bridge.set_content_y(y);
        });
    }

    /// Pushes the whole state into the window; only changed board cells are updated.
    pub fn refresh(&self) {
        let Some(window) = self.window.upgrade() else { return };
        let bridge = window.global::<Bridge>();
        let session = self.session.borrow();
        let game = &session.game;
        let position = game.position();
        let view = session.view;
        let interaction = &session.interaction;
        let animation = self.animation.borrow();
        let outcome = game.outcome();
        let setup = game.setup();

        // Board cells.
        let destinations = if interaction.has_preview() { Default::default() } else { interaction.destinations(game) };
        let extensions = interaction.extensions(game);
        let last_route: Vec<Square> = match game.history().last() {
            Some(Action::Move(route)) => route.squares().to_vec(),
            _ => Vec::new(),
        };
        let hidden = animation.as_ref().and_then(|a| a.route.last().copied());
        for square in Square::all() {
            let (x, y) = view.display_cell(square);
            let piece = match position.piece_at(square) {
                Some(_) if hidden == Some(square) => -1,
                Some(seat) => seat_index(seat),
                None => -1,
            };
            let camp =
                setup.seats().iter().find(|&&s| setup.home_camp(s).contains(square)).map_or(-1, |&s| seat_index(s));
            let mark = if interaction.selected == Some(square) {
                4
            } else if interaction.route.iter().skip(1).any(|&s| s == square) {
                3
            } else if extensions.contains(square) {
                2
            } else if destinations.contains(square) {
                1
            } else if last_route.contains(&square) {
                5
            } else {
                0
            };
            let even = view.quarter_turns.is_multiple_of(2);
            let column_name: SharedString = ((b'a' + square.column() as u8) as char).to_string().into();
            let row_name: SharedString = (square.row() + 1).to_string().into();
            let cell = Cell {
                x,
                y,
                piece,
                camp,
                mark,
                column_label: if y == 15 {
                    if even {
                        column_name.clone()
                    } else {
                        row_name.clone()
                    }
                } else {
                    SharedString::new()
                },
                row_label: if x == 0 {
                    if even {
                        row_name
                    } else {
                        column_name
                    }
                } else {
                    SharedString::new()
                },
            };
            let index = square.index();
            if self.cells.row_data(index).as_ref() != Some(&cell) {
                self.cells.set_row_data(index, cell);
            }
        }
        bridge.set_route_path(route_path(&view, &interaction.route));
        bridge.set_last_move_path(if animation.is_some() {
            SharedString::new()
        } else {
            route_path(&view, &last_route)
        });
        bridge.set_preview_is_hint(interaction.from_hint);
        let (cx, cy) = view.display_cell(interaction.cursor);
        bridge.set_cursor_x(cx);
        bridge.set_cursor_y(cy);
        bridge.set_cursor_visible(self.cursor_visible.get());
        match animation.as_ref() {
            Some(a) => {
                let (ax, ay) = view.display_cell(a.route[a.hop.min(a.route.len() - 1)]);
                bridge.set_anim_visible(true);
                bridge.set_anim_seat(seat_index(a.seat));
                bridge.set_anim_x(ax as f32);
                bridge.set_anim_y(ay as f32);
            }
            None => bridge.set_anim_visible(false),
        }
        drop(animation);

        // Status.
        bridge.set_to_move(seat_index(position.to_move()));
        bridge.set_move_number(position.plies() as i32 + 1);
        let seats: Vec<SeatInfo> = setup
            .seats()
            .iter()
            .map(|&seat| SeatInfo {
                seat: seat_index(seat),
                level: match session.config.player(seat) {
                    Player::Human => -1,
                    Player::Computer(level) => level_index(level),
                },
                home: session.pieces_home(seat) as i32,
                total: setup.army_size(seat) as i32,
                to_move: !outcome.is_over() && seat == position.to_move(),
            })
            .collect();
        bridge.set_seats(ModelRc::new(VecModel::from(seats)));
        let (code, winner, partner) = match outcome {
            Outcome::Ongoing => (0, 0, 0),
            Outcome::Win(seats) => {
                let mut list = seats.seats();
                let first = list.next().map_or(0, seat_index);
                match list.next() {
                    Some(second) if setup == Setup::FourPlayersBothArmies => (5, first, seat_index(second)),
                    Some(second) => (2, first, seat_index(second)),
                    None => (1, first, first),
                }
            }
            Outcome::Draw(DrawReason::Repetition) => (3, 0, 0),
            Outcome::Draw(DrawReason::Agreement) => (4, 0, 0),
        };
        bridge.set_outcome(code);
        bridge.set_winner(winner);
        bridge.set_winner_partner(partner);
        let job = self.job.borrow();
        let job_kind = job.as_ref().map(|j| j.kind);
        bridge.set_computer_thinking(job_kind == Some(JobKind::Computer) || session.computer_to_move().is_some());
        bridge.set_hint_thinking(job_kind == Some(JobKind::Hint));
        let human = session.human_can_act();
        bridge.set_human_turn(human);
        let (notice, notice_seat) = match session.notice {
            Notice::None | Notice::Refused => (0, 0),
            Notice::Passed(seat) => (1, seat_index(seat)),
            Notice::DrawRefused(seat) => (2, seat_index(seat)),
            Notice::NothingToUndo => (3, 0),
        };
        bridge.set_notice(notice);
        bridge.set_notice_seat(notice_seat);
        bridge.set_duty_applies(human && position.duty_applies());
        bridge.set_has_preview(interaction.has_preview());
        bridge.set_preview_jumps(interaction.preview_jumps() as i32);
        bridge.set_has_selection(interaction.selected.is_some());
        bridge.set_can_confirm(human && interaction.can_confirm(game));
        bridge.set_can_undo(session.can_undo());
        bridge.set_can_redo(game.can_redo());
        bridge.set_can_offer_draw(human && game.can_offer_draw());
        bridge.set_can_hint(human && job.is_none());
        drop(job);

        // Pickers.
        let pieces = if human { super::interaction::Interaction::movable_pieces(game) } else { Vec::new() };
        // Entry 0 of each list is its prompt; entry i + 1 is item i.
        let piece_names: Vec<SharedString> =
            std::iter::once(bridge.get_piece_prompt()).chain(pieces.iter().map(|s| s.to_string().into())).collect();
        bridge.set_piece_choices(ModelRc::new(VecModel::from(piece_names)));
        bridge.set_piece_choice(
            interaction.selected.and_then(|s| pieces.iter().position(|&p| p == s)).map_or(0, |i| i as i32 + 1),
        );
        let routes = if human { interaction.destination_routes(game) } else { Vec::new() };
        let labels: Vec<SharedString> =
            std::iter::once(bridge.get_destination_prompt()).chain(routes.iter().map(|r| route_label(r))).collect();
        bridge.set_destination_choices(ModelRc::new(VecModel::from(labels)));
        let end = interaction.preview_move().map(|m| m.to);
        bridge.set_destination_choice(
            end.and_then(|to| routes.iter().position(|r| r.last() == Some(&to))).map_or(0, |i| i as i32 + 1),
        );

        // Draw vote.
        match session.human_vote_awaited() {
            Some(seat) => {
                bridge.set_vote_seat(seat_index(seat));
                bridge.set_vote_offerer(game.pending_offer().map_or(0, |o| seat_index(o.offerer)));
            }
            None => bridge.set_vote_seat(-1),
        }

        bridge.set_can_resume(self.has_game.get());
        bridge.set_load_problem(self.load_problem.borrow().as_str().into());
        bridge.set_orientation(match self.settings.borrow().orientation {
            Orientation::Fixed => 0,
            Orientation::FaceSeatToMove => 1,
        });
        drop(session);
        self.refresh_offsets();
    }

    /// Starts `session` on the game screen, as if chosen on the new-game screen
    /// (tests, screenshots and tools use it to reach a given position).
    pub fn begin_session(self: &Rc<Self>, session: Session) {
        self.begin(session);
        self.show_page(PAGE_GAME);
        self.after_change(true);
    }

    /// The session, for tests and tools.
    pub fn session(&self) -> Session {
        self.session.borrow().clone()
    }

    /// True while a search runs (tests wait on it).
    pub fn is_searching(&self) -> bool {
        self.job.borrow().is_some()
    }

    /// True while a move is being animated.
    pub fn is_animating(&self) -> bool {
        self.animation.borrow().is_some()
    }
}

/// Checks a loaded session: its game was already replayed and checked move by move
/// when it was parsed; the rest must fit it.
fn validate_session(session: Session) -> Result<Session, String> {
    if session.config.setup != session.game.setup() {
        return Err("the seats do not match the game's setup".into());
    }
    let mut session = session;
    session.view.clamp_centre();
    let can_act = session.human_can_act();
    let Session { interaction, game, .. } = &mut session;
    interaction.revalidate(game, can_act);
    Ok(session)
}
