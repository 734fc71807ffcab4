//! The controller: one per window, on the UI thread. It holds the session and the
//! interface's passing state, and after every change saves, lets the computer act and
//! pushes the presenter's pictures into the window. The actions themselves live in
//! `play` (the game), `board_input` (taps, keys, view) and `pages` (pages, new game,
//! settings); `wiring` connects them to the Slint callbacks.

use super::animation::{Animation, HOP_TIME};
use super::gestures::TapFilter;
use super::navigation::Navigator;
use super::setup_form::SetupForm;
use super::worker::{JobKind, Worker};
use super::{bind, presenter};
use crate::ai;
use crate::app::locale;
use crate::app::saving::{self, Saver};
use crate::app::session::{GameConfig, Session, Settings};
use crate::app::storage::{SaveFailure, Store};
use crate::rules::{Seat, Square};
use crate::{AppWindow, BoardState, Cell, GameState, NewGameForm, Page, Preferences, Question};
use slint::{ComponentHandle, ModelRc, SharedString, Timer, TimerMode, VecModel};
use std::cell::{Cell as StdCell, RefCell};
use std::rc::Rc;

/// The app's controller: one per window, used on the UI thread only.
pub struct Controller {
    pub(super) window: slint::Weak<AppWindow>,
    pub(super) session: RefCell<Session>,
    /// True when `session` is a game the player started (Resume is offered).
    pub(super) has_game: StdCell<bool>,
    pub(super) settings: RefCell<Settings>,
    pub(super) store: Option<Store>,
    /// Writes the saves (only what changed, never over a newer version's file, nothing
    /// when another Halma holds the folder).
    saver: RefCell<Saver>,
    /// Why the last save failed, shown until a save succeeds.
    save_failure: RefCell<Option<SaveFailure>>,
    /// The computer's last search failed: its seat waits for Retry instead of thinking forever.
    pub(super) computer_failed: StdCell<bool>,
    pub(super) form: RefCell<SetupForm>,
    pub(super) cells: Rc<VecModel<Cell>>,
    pub(super) worker: Worker,
    pub(super) animation: RefCell<Option<Animation>>,
    pub(super) animation_timer: Timer,
    pub(super) taps: Rc<TapFilter>,
    /// The board's viewport size, for the Flickable's offset.
    pub(super) viewport: StdCell<(f32, f32)>,
    pub(super) navigator: Navigator,
    pub(super) cursor_visible: StdCell<bool>,
    /// The question the game page asks before New game, Restart or a draw offer.
    pub(super) question: StdCell<Question>,
    /// In review: how many of the game's actions the board shows (None: the live game).
    pub(super) review: StdCell<Option<usize>>,
}

impl Controller {
    /// Creates the controller for `window`, wires every callback and restores state.
    pub fn install(window: &AppWindow, store: Option<Store>) -> Rc<Controller> {
        // A window before this one (tests, Android recreating its activity) lets its data
        // folder go first.
        super::CONTROLLER.with(|c| c.borrow_mut().take());
        let controller = Rc::new(Controller {
            window: window.as_weak(),
            session: RefCell::new(Session::new(GameConfig::default())),
            has_game: StdCell::new(false),
            settings: RefCell::new(Settings::default()),
            store,
            saver: RefCell::new(Saver::none()),
            save_failure: RefCell::new(None),
            computer_failed: StdCell::new(false),
            form: RefCell::new(SetupForm::default()),
            cells: Rc::new(VecModel::from(vec![Cell::default(); 256])),
            worker: Worker::default(),
            animation: RefCell::new(None),
            animation_timer: Timer::default(),
            taps: Rc::new(TapFilter::default()),
            viewport: StdCell::new((0.0, 0.0)),
            navigator: Navigator::default(),
            cursor_visible: StdCell::new(false),
            question: StdCell::new(Question::None),
            review: StdCell::new(None),
        });
        window.set_version(env!("CARGO_PKG_VERSION").into());
        if cfg!(target_os = "android") {
            // Let Android size text from the system font scale.
            window.set_base_font_size(0.0);
        }
        window.global::<BoardState>().set_cells(ModelRc::from(controller.cells.clone()));
        window.global::<Preferences>().set_language_names(ModelRc::new(VecModel::from(
            locale::LANGUAGES.iter().map(|(_, name)| SharedString::from(*name)).collect::<Vec<_>>(),
        )));
        bind::rules_diagrams(window, super::diagrams::all());
        controller.connect(window);
        controller.restore();
        notify_first_frame(window, &controller);
        super::CONTROLLER.with(|c| *c.borrow_mut() = Some(controller.clone()));
        controller
    }

    /// Runs `f` on the window, if it still exists.
    pub(super) fn with_window(&self, f: impl FnOnce(&AppWindow)) {
        if let Some(window) = self.window.upgrade() {
            f(&window);
        }
    }

    /// Changes the session; the borrow ends when `f` returns.
    pub(super) fn with_session<R>(&self, f: impl FnOnce(&mut Session) -> R) -> R {
        f(&mut self.session.borrow_mut())
    }

    // ----- Start and saving -----

    fn restore(self: &Rc<Self>) {
        let mut problems = Vec::new();
        if let Some(store) = &self.store {
            let (started, saver) = saving::start(store);
            for problem in &started.problems {
                eprintln!("halma: {}", presenter::start_problem_log(problem));
            }
            problems = started.problems.iter().map(presenter::start_problem).collect();
            *self.settings.borrow_mut() = started.settings;
            if let Some(session) = started.session {
                *self.session.borrow_mut() = session;
                self.has_game.set(true);
            }
            *self.saver.borrow_mut() = saver;
        }
        if let Some(config) = self.settings.borrow().last_config {
            *self.form.borrow_mut() = SetupForm::from_config(config);
        }
        let page = if self.has_game.get() && problems.is_empty() { Page::Game } else { Page::NewGame };
        // Shown once, until dismissed: the window holds them, nothing else reads them.
        self.with_window(|w| w.global::<NewGameForm>().set_load_problems(ModelRc::new(VecModel::from(problems))));
        self.apply_language();
        self.set_page(page);
        self.refresh_form();
        self.after_change(false);
    }

    /// The window has shown its first frame (or closed normally): the start worked, and
    /// the crash-loop breaker's marker goes.
    pub fn start_succeeded(&self) {
        self.saver.borrow_mut().first_frame_shown();
    }

    /// Saves the session (when a game is in progress) and the settings, each only if it
    /// changed. A failure is shown to the player until a later save succeeds; play goes on.
    pub fn save(&self) {
        let mut saver = self.saver.borrow_mut();
        let mut result = saver.save_settings(&self.settings.borrow());
        if self.has_game.get() {
            result = saver.save_session(&self.session.borrow()).and(result);
        }
        drop(saver);
        if let Err(failure) = &result {
            eprintln!("halma: could not save: {failure}");
        }
        let failure = result.err();
        if *self.save_failure.borrow() != failure {
            self.with_window(|w| bind::save_failure(w, presenter::save_failure(failure.as_ref())));
            *self.save_failure.borrow_mut() = failure;
        }
    }

    // ----- After every change -----

    /// Saves, starts the computer or answers its votes when due, and refreshes.
    pub(super) fn after_change(self: &Rc<Self>, save: bool) {
        let orientation = self.settings.borrow().orientation;
        self.with_session(|session| {
            session.resolve_computer_votes(ai::should_accept_draw);
            session.apply_orientation(orientation);
        });
        if save {
            self.save();
            // A changed game: "copied" spoke of the game as it was.
            self.with_window(|w| w.global::<crate::Records>().set_copied(false));
        }
        self.maybe_start_computer();
        self.refresh();
    }

    /// Starts the computer's search when a computer seat is to move (it may first offer
    /// a draw when the game is stuck).
    fn maybe_start_computer(self: &Rc<Self>) {
        let idle = self.animation.borrow().is_none() && self.worker.busy() != Some(JobKind::Computer);
        if !idle || !self.has_game.get() || self.computer_failed.get() {
            return;
        }
        let Some(level) = self.session.borrow().computer_to_move() else { return };
        if self.with_session(|session| session.computer_offers_draw(ai::wants_draw)) {
            self.with_session(|session| session.resolve_computer_votes(ai::should_accept_draw));
            self.save();
            self.refresh();
            if self.session.borrow().computer_to_move().is_none() {
                // A person answers first (or everyone accepted).
                return;
            }
        }
        let game = self.session.borrow().game().clone();
        let weak = Rc::downgrade(self);
        self.worker.start_computer(game, level, move || {
            if let Some(controller) = weak.upgrade() {
                controller.poll_job();
            }
        });
    }

    /// Stops any running search (undo, new game, leaving the game).
    pub(super) fn cancel_job(&self) {
        self.worker.cancel();
        self.with_window(|w| {
            w.global::<GameState>().set_hint_thinking(false);
            w.global::<GameState>().set_computer_thinking(false);
        });
    }

    // ----- Animation -----

    pub(super) fn animate(self: &Rc<Self>, route: Vec<Square>, seat: Seat) {
        let Some(animation) = Animation::new(route, seat) else { return };
        *self.animation.borrow_mut() = Some(animation);
        let weak = Rc::downgrade(self);
        self.animation_timer.start(TimerMode::Repeated, HOP_TIME, move || {
            if let Some(controller) = weak.upgrade() {
                controller.animation_step();
            }
        });
    }

    fn animation_step(self: &Rc<Self>) {
        let moved = self.animation.borrow_mut().as_mut().is_some_and(Animation::step);
        if moved {
            self.refresh();
        } else {
            self.finish_animation();
            self.after_change(false);
        }
    }

    pub(super) fn finish_animation(&self) {
        self.animation.borrow_mut().take();
        self.animation_timer.stop();
    }

    // ----- Showing the state -----

    /// Pushes the whole state into the window; only changed board cells are updated.
    pub fn refresh(&self) {
        let Some(window) = self.window.upgrade() else { return };
        let session = self.session.borrow();
        let animation = self.animation.borrow();
        let review = self.review.get().map(|shown| session.reviewing(shown));
        match &review {
            // An earlier position, read-only: no preview, no cursor, no moving piece.
            Some(shown) => bind::board(&window, &self.cells, presenter::board(shown, None)),
            None => bind::board(&window, &self.cells, presenter::board(&session, animation.as_ref())),
        }
        window.global::<BoardState>().set_cursor_visible(self.cursor_visible.get() && review.is_none());
        bind::status(&window, presenter::status(&session, self.worker.busy(), self.question.get()));
        bind::computer_failed(&window, self.computer_failed.get() && review.is_none());
        let shown = review.as_ref().map(|shown| (shown.game().history().len(), shown.game().to_move().index() as i32));
        bind::review(&window, presenter::moves(&session), shown);
        bind::pickers(&window, presenter::pickers(&session));
        window.global::<NewGameForm>().set_can_resume(self.has_game.get());
        window.global::<Preferences>().set_turning(presenter::turning(self.settings.borrow().orientation));
        self.refresh_view(&window, &session);
    }

    /// The zoom and the Flickable's offset, which follow the view and the viewport.
    pub(super) fn refresh_view(&self, window: &AppWindow, session: &Session) {
        let (width, height) = self.viewport.get();
        bind::view(window, session.view().zoom, session.view().content_offset(width, height));
    }

    /// The new-game form, after it changed.
    pub(super) fn refresh_form(&self) {
        let form = *self.form.borrow();
        self.with_window(|w| bind::form(w, presenter::form(&form.config(), form.both_armies())));
    }

    // ----- For tests and tools -----

    /// Starts `session` on the game screen, as if chosen on the new-game screen
    /// (tests, screenshots and tools use it to reach a given position).
    pub fn begin_session(self: &Rc<Self>, session: Session) {
        self.begin(session);
        self.show_page(Page::Game);
        self.after_change(true);
    }

    /// The session, for tests and tools.
    pub fn session(&self) -> Session {
        self.session.borrow().clone()
    }

    /// True while a search runs (tests wait on it).
    pub fn is_searching(&self) -> bool {
        self.worker.busy().is_some()
    }

    /// True while a move is being animated.
    pub fn is_animating(&self) -> bool {
        self.animation.borrow().is_some()
    }
}

/// Tells the controller when the window has drawn its first frame: from then on a crash
/// is not the start's fault, and the crash-loop breaker's marker goes. A renderer that
/// reports no frames gets the event loop's first turn instead.
fn notify_first_frame(window: &AppWindow, controller: &Rc<Controller>) {
    let weak = Rc::downgrade(controller);
    let notified = window.window().set_rendering_notifier(move |state, _| {
        if matches!(state, slint::RenderingState::AfterRendering) {
            if let Some(controller) = weak.upgrade() {
                controller.start_succeeded();
            }
        }
    });
    if notified.is_err() {
        let weak = Rc::downgrade(controller);
        slint::Timer::single_shot(std::time::Duration::ZERO, move || {
            if let Some(controller) = weak.upgrade() {
                controller.start_succeeded();
            }
        });
    }
}
