//! The controller: one per window, on the UI thread. It holds the session, the settings,
//! the new-game form and the interface state (`UiState`), and after every change saves,
//! lets the seats' drivers act and pushes the presenter's pictures into the window
//! through `bind`. The actions themselves live in `play` (the game), `board_input`
//! (taps, keys, view), `pages` (pages, Back, new game, settings), `review` and `records`;
//! `wiring` connects them to the Slint callbacks.

use super::analysing::AnalysisRunner;
use super::animation::{Animation, HOP_TIME};
use super::gestures::TapFilter;
use super::setup_form::SetupForm;
use super::ui_state::UiState;
use super::worker::{JobKind, Worker};
use super::{analysis_presenter, bind, presenter};
use crate::ai;
use crate::app::players::{program_name, Driven};
use crate::app::saving::{self, Saver};
use crate::app::session::{GameConfig, Player, Session, Settings};
use crate::app::storage::{SaveFailure, Store};
use crate::rules::{Seat, Square};
use crate::{AppWindow, Cell, Page};
use slint::{ComponentHandle, Timer, TimerMode, VecModel};
use std::cell::{Cell as StdCell, RefCell};
use std::collections::HashSet;
use std::rc::Rc;
use std::time::Duration;

/// Saving: where, what was written last, and the failure shown until a save succeeds.
pub(super) struct Saving {
    pub(super) store: Option<Store>,
    /// Writes the saves (only what changed, never over a newer version's file, nothing
    /// when another Halma holds the folder).
    saver: RefCell<Saver>,
    failure: RefCell<Option<SaveFailure>>,
    /// A save waiting for the player to stop tapping (see [`Controller::save_soon`]).
    pending: Timer,
}

/// How long a change of the selection, the preview or the view waits to be saved: taps in
/// a row are saved once, and a huge game's save never runs on every tap. The game itself
/// is saved at once; closing the app (or Android pausing it) saves what waits.
pub const SELECTION_SAVE_DELAY: Duration = Duration::from_millis(1000);

/// The board's passing state: its cells, the move being animated, taps waiting for the
/// pinch filter, the viewport's size.
pub(super) struct BoardMotion {
    pub(super) cells: Rc<VecModel<Cell>>,
    pub(super) animation: RefCell<Option<Animation>>,
    animation_timer: Timer,
    pub(super) taps: Rc<TapFilter>,
    /// The board's viewport size, for the Flickable's offset.
    pub(super) viewport: StdCell<(f32, f32)>,
    /// The history whose move list and analysis the window shows.
    pub(super) history_shown: StdCell<Option<HistoryKey>>,
}

/// Which history a picture was made for: its length, the Zobrist keys of its first and
/// last positions, and which analysis of it there is (its depth). Two histories of one
/// length between the same two positions are told apart by chance alone (64-bit keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct HistoryKey {
    actions: usize,
    start: u64,
    end: u64,
    analysis: Option<u32>,
}

impl HistoryKey {
    fn of(session: &Session) -> HistoryKey {
        let game = session.game();
        HistoryKey {
            actions: game.history().len(),
            start: game.start_position().hash(),
            end: game.position().hash(),
            analysis: session.analysis().map(|analysis| analysis.quality.depth),
        }
    }
}

/// The app's controller: one per window, used on the UI thread only.
pub struct Controller {
    pub(super) window: slint::Weak<AppWindow>,
    pub(super) session: RefCell<Session>,
    pub(super) settings: RefCell<Settings>,
    pub(super) form: RefCell<SetupForm>,
    /// Page, question or dialog, review, cursor, whether there is a game.
    pub(super) ui: RefCell<UiState>,
    pub(super) saving: Saving,
    /// The seats' drivers and the hint, polled on a timer.
    pub(super) worker: Worker,
    pub(super) board: BoardMotion,
    /// The game's analysis while it runs in the background.
    pub(super) analysis: AnalysisRunner,
    /// The engine command lines the player allowed to start in this run of the app. Never
    /// saved: a command line read from a file (settings, a save) starts nothing until the
    /// player confirms it, since data folders are copied and synced between machines.
    pub(super) trusted_commands: RefCell<HashSet<String>>,
}

impl Controller {
    /// Creates the controller for `window`, wires every callback and restores state.
    pub fn install(window: &AppWindow, store: Option<Store>) -> Rc<Controller> {
        let controller = Rc::new(Controller {
            window: window.as_weak(),
            session: RefCell::new(Session::new(GameConfig::default())),
            settings: RefCell::new(Settings::default()),
            form: RefCell::new(SetupForm::default()),
            ui: RefCell::new(UiState::default()),
            saving: Saving {
                store,
                saver: RefCell::new(Saver::none()),
                failure: RefCell::new(None),
                pending: Timer::default(),
            },
            worker: Worker::default(),
            board: BoardMotion {
                cells: Rc::new(VecModel::from(vec![Cell::default(); 256])),
                animation: RefCell::new(None),
                animation_timer: Timer::default(),
                taps: Rc::new(TapFilter::default()),
                viewport: StdCell::new((0.0, 0.0)),
                history_shown: StdCell::new(None),
            },
            analysis: AnalysisRunner::default(),
            trusted_commands: RefCell::new(HashSet::new()),
        });
        bind::window_start(window, &controller.board.cells);
        bind::rules_diagrams(window, super::diagrams::all());
        controller.connect(window);
        controller.restore();
        notify_first_frame(window, &controller);
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

    /// Changes the interface state (then `refresh` shows it).
    pub(super) fn with_ui<R>(&self, f: impl FnOnce(&mut UiState) -> R) -> R {
        f(&mut self.ui.borrow_mut())
    }

    /// The one gate of the actions that change the live game: in review the board shows
    /// an earlier position and takes no moves, so they do nothing.
    pub(super) fn live(self: &Rc<Self>, action: impl FnOnce(&Rc<Self>)) {
        if !self.ui.borrow().in_review() {
            action(self);
        }
    }

    // ----- Start and saving -----

    fn restore(self: &Rc<Self>) {
        let mut problems = Vec::new();
        if let Some(store) = &self.saving.store {
            let (started, saver) = saving::start(store);
            for problem in &started.problems {
                eprintln!("halma: {}", presenter::start_problem_log(problem));
            }
            problems = started.problems.iter().map(presenter::start_problem).collect();
            *self.settings.borrow_mut() = started.settings;
            if let Some(session) = started.session {
                *self.session.borrow_mut() = session;
                self.with_ui(UiState::game_begun);
            }
            *self.saving.saver.borrow_mut() = saver;
        }
        let settings = self.settings.borrow();
        let config = settings.last_config.unwrap_or_default();
        *self.form.borrow_mut() = SetupForm::from_config(config, &settings.engine_command, settings.engine_move_ms);
        drop(settings);
        let page = if problems.is_empty() { Page::Game } else { Page::NewGame };
        // Shown once, until dismissed: nothing reads them back.
        self.with_window(|w| bind::load_problems(w, problems));
        self.apply_language();
        self.with_ui(|ui| ui.show(page));
        self.refresh_form();
        self.after_change(false);
    }

    /// The window has shown its first frame (or closed normally): the start worked, and
    /// the crash-loop breaker's marker goes.
    pub fn start_succeeded(&self) {
        self.saving.saver.borrow_mut().first_frame_shown();
    }

    /// Saves the session (when a game is in progress) and the settings, each only if it
    /// changed. A failure is shown to the player until a later save succeeds; play goes on.
    pub fn save(&self) {
        self.saving.pending.stop();
        let mut saver = self.saving.saver.borrow_mut();
        let mut result = saver.save_settings(&self.settings.borrow());
        if self.ui.borrow().has_game() {
            result = saver.save_session(&self.session.borrow()).and(result);
        }
        drop(saver);
        if let Err(failure) = &result {
            eprintln!("halma: could not save: {failure}");
        }
        let failure = result.err();
        if *self.saving.failure.borrow() != failure {
            self.with_window(|w| bind::save_failure(w, presenter::save_failure(failure.as_ref())));
            *self.saving.failure.borrow_mut() = failure;
        }
    }

    /// Saves within [`SELECTION_SAVE_DELAY`]: for changes of the selection, the preview and
    /// the view, which the save keeps (a game resumes mid-preview) but which come tap after
    /// tap.
    pub(super) fn save_soon(self: &Rc<Self>) {
        if self.saving.pending.running() {
            return;
        }
        let weak = Rc::downgrade(self);
        self.saving.pending.start(TimerMode::SingleShot, SELECTION_SAVE_DELAY, move || {
            if let Some(controller) = weak.upgrade() {
                controller.save();
            }
        });
    }

    // ----- After every change -----

    /// Saves, starts the seat to move's driver or answers its votes when due, and refreshes.
    pub(super) fn after_change(self: &Rc<Self>, save: bool) {
        let orientation = self.settings.borrow().orientation;
        // An analysis of the game as it was is of no use any more.
        self.drop_stale_analysis();
        self.with_session(|session| {
            session.resolve_computer_votes(ai::should_accept_draw);
            session.apply_orientation(orientation);
        });
        if save {
            self.save();
            // A changed game: "copied" spoke of the game as it was.
            self.with_window(|w| bind::copied(w, None));
        }
        self.maybe_start_seat();
        self.refresh();
    }

    /// After a change of the selection or the preview alone: refreshes, and saves soon.
    pub(super) fn after_selection_change(self: &Rc<Self>) {
        self.after_change(false);
        self.save_soon();
    }

    /// Starts the driver of the seat to move when no person plays it (it may first offer
    /// a draw when the game is stuck).
    fn maybe_start_seat(self: &Rc<Self>) {
        let idle = self.board.animation.borrow().is_none() && self.worker.busy() != Some(JobKind::Computer);
        if !idle || !self.ui.borrow().has_game() || self.worker.failed() {
            return;
        }
        if self.session.borrow().driven_to_move().is_none() || self.program_awaits_confirmation().is_some() {
            return;
        }
        if self.with_session(|session| session.computer_offers_draw(ai::wants_draw)) {
            self.with_session(|session| session.resolve_computer_votes(ai::should_accept_draw));
            self.save();
            self.refresh();
        }
        // A person answers first (or everyone accepted).
        let driven = match self.session.borrow().driven_to_move() {
            Some(Player::Computer(level)) => Driven::Computer(level),
            Some(Player::Program) => {
                let settings = self.settings.borrow();
                Driven::Program {
                    command: settings.engine_command.clone(),
                    move_time: Duration::from_millis(settings.engine_move_ms.into()),
                }
            }
            Some(Player::Human) | None => return,
        };
        let weak = Rc::downgrade(self);
        self.worker.start_seat(driven, self.session.borrow().game(), move || {
            if let Some(controller) = weak.upgrade() {
                controller.poll_job();
            }
        });
    }

    /// The command line of the engine program to move, while it waits for the player's
    /// confirmation before it is started ("Start …?").
    pub(super) fn program_awaits_confirmation(&self) -> Option<String> {
        if !self.ui.borrow().has_game() || self.session.borrow().driven_to_move() != Some(Player::Program) {
            return None;
        }
        let command = self.settings.borrow().engine_command.clone();
        (!self.trusted_commands.borrow().contains(&command)).then_some(command)
    }

    // ----- Animation -----

    pub(super) fn animate(self: &Rc<Self>, route: Vec<Square>, seat: Seat) {
        let Some(animation) = Animation::new(route, seat) else { return };
        *self.board.animation.borrow_mut() = Some(animation);
        let weak = Rc::downgrade(self);
        self.board.animation_timer.start(TimerMode::Repeated, HOP_TIME, move || {
            if let Some(controller) = weak.upgrade() {
                controller.animation_step();
            }
        });
    }

    fn animation_step(self: &Rc<Self>) {
        let moved = self.board.animation.borrow_mut().as_mut().is_some_and(Animation::step);
        if moved {
            self.refresh();
        } else {
            self.finish_animation();
            self.after_change(false);
        }
    }

    pub(super) fn finish_animation(&self) {
        self.board.animation.borrow_mut().take();
        self.board.animation_timer.stop();
    }

    // ----- Showing the state -----

    /// Pushes the whole state into the window; only changed board cells are updated.
    pub fn refresh(&self) {
        let Some(window) = self.window.upgrade() else { return };
        let session = self.session.borrow();
        let ui = *self.ui.borrow();
        let animation = self.board.animation.borrow();
        let review = ui.review().map(|shown| session.reviewing(shown));
        match &review {
            // An earlier position, read-only: no preview, no cursor, no moving piece.
            Some(shown) => bind::board(&window, &self.board.cells, presenter::board(shown, None)),
            None => bind::board(&window, &self.board.cells, presenter::board(&session, animation.as_ref())),
        }
        bind::interface(&window, &ui);
        let settings = self.settings.borrow();
        let program_move = Duration::from_millis(settings.engine_move_ms.into());
        let confirming = self.program_awaits_confirmation().filter(|_| review.is_none());
        let status = presenter::status(&session, self.worker.busy(), ui.question(), program_move);
        bind::status(&window, if confirming.is_some() { status.waiting_to_start() } else { status });
        bind::seat_failure(&window, presenter::seat_failure(self.worker.failure().filter(|_| review.is_none())));
        bind::program_confirmation(&window, confirming.as_deref());
        drop(settings);
        bind::program_name(&window, &program_name(&self.settings.borrow().engine_command));
        let shown = review.as_ref().map(|shown| (shown.game().history().len(), shown.game().to_move().index() as i32));
        // What depends on the history alone is rebuilt only when the history changed: a
        // tap or a review step in a 20,000-action game stays within a frame.
        let history = HistoryKey::of(&session);
        let history_changed = self.board.history_shown.replace(Some(history)) != Some(history);
        bind::review(&window, history_changed.then(|| presenter::moves(&session)), shown);
        let analysis_history =
            history_changed.then(|| analysis_presenter::of_history(session.analysis(), session.game().setup()));
        let reviewed = analysis_presenter::reviewed(session.analysis(), session.view(), ui.review());
        let offered = (ui.in_review() || session.game().is_over()) && !session.game().history().is_empty();
        bind::analysis(&window, analysis_history, reviewed, self.analysis.progress(), offered);
        bind::pickers(&window, presenter::pickers(&session));
        bind::turning(&window, presenter::turning(self.settings.borrow().orientation));
        self.refresh_view(&window, &session);
    }

    /// The zoom and the Flickable's offset, which follow the view and the viewport.
    pub(super) fn refresh_view(&self, window: &AppWindow, session: &Session) {
        let (width, height) = self.board.viewport.get();
        bind::view(window, session.view().zoom, session.view().content_offset(width, height));
    }

    /// The new-game form, after it changed.
    pub(super) fn refresh_form(&self) {
        let picture = presenter::form(&self.form.borrow());
        self.with_window(|w| bind::form(w, picture));
    }

    // ----- For tests and tools -----

    /// Starts `session` on the game screen, as if chosen on the new-game screen
    /// (tests, screenshots and tools use it to reach a given position).
    pub fn begin_session(self: &Rc<Self>, session: Session) {
        self.begin(session);
        self.with_ui(|ui| ui.show(Page::Game));
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
        self.board.animation.borrow().is_some()
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
