//! The controller: one per window, on the UI thread. It owns the one [`AppState`] and
//! what runs beside it (saving, the seats' searches, the analysis, the animation's and
//! the taps' timers). Every Slint callback, timer and background job becomes an
//! [`Event`] handed to [`Controller::dispatch`], the only place that runs an action, keeps
//! review's gate, carries out the effects, saves, starts the seat to move and refreshes
//! the window. `wiring` connects the callbacks; `bind` writes the Slint globals.

use super::analysing::{AnalysisRunner, Polled};
use super::gestures::TapFilter;
use super::loss_measure::{LossMeasure, Measured};
use super::worker::Worker;
use super::{analysis_presenter, bind, presenter};
use crate::{AppWindow, Cell};
use halma_ai::analysis::Quality;
use halma_core::actions::{self, Event, TrainOutcome};
use halma_core::animation::HOP_TIME;
use halma_core::effects::{Effects, Redraw, Save};
use halma_core::locale;
use halma_core::players::{program_name, Driven};
use halma_core::saving::{self, Saver};
use halma_core::session::{HistoryKey, Session};
use halma_core::sound::{self, Cue, Feedback};
use halma_core::state::{AppState, Facts};
use halma_core::storage::{self, Store};
use slint::{ComponentHandle, Timer, TimerMode, VecModel};
use std::cell::{Cell as StdCell, RefCell};
use std::rc::Rc;
use std::time::Duration;

/// Saving: where, and what was written last.
struct Saving {
    store: Option<Store>,
    /// Writes the saves (only what changed, never over a newer version's file, nothing
    /// when another Halma holds the folder).
    saver: RefCell<Saver>,
    /// A save waiting for the player to stop tapping (see [`SELECTION_SAVE_DELAY`]).
    pending: Timer,
}

/// How long a change of the selection, the preview or the view waits to be saved: taps in
/// a row are saved once, and a huge game's save never runs on every tap. The game itself
/// is saved at once; closing the app (or Android pausing it) saves what waits.
pub const SELECTION_SAVE_DELAY: Duration = Duration::from_millis(1000);

/// The board's passing machinery: its cells model, the animation's timer, the taps
/// waiting for the pinch filter, and which history the window's lists were made for.
struct BoardMotion {
    cells: Rc<VecModel<Cell>>,
    animation_timer: Timer,
    taps: Rc<TapFilter>,
    /// The point (board dp) and square size of the finger's tap the filter holds, if
    /// the held tap is a finger's.
    touch_point: StdCell<Option<(f32, f32, f32)>>,
    history_shown: StdCell<Option<HistoryKey>>,
}

/// How the app starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartOptions {
    /// A newcomer's first start (no saved game, the guide never seen) opens the first-game
    /// guide. Tests and tools that start on fresh data folders turn it off.
    pub first_game_guide: bool,
}

impl Default for StartOptions {
    fn default() -> StartOptions {
        StartOptions { first_game_guide: true }
    }
}

/// The app's controller: one per window, used on the UI thread only.
pub struct Controller {
    window: slint::Weak<AppWindow>,
    state: RefCell<AppState>,
    saving: Saving,
    /// The seats' drivers and the hint, polled on a timer.
    worker: Worker,
    board: BoardMotion,
    /// The game's analysis while it runs in the background.
    analysis: AnalysisRunner,
    /// Where the actions' cues go: silent until `run_app` gives it the device.
    feedback: RefCell<Box<dyn Feedback>>,
    /// What the Train page's wrong answer gives away, while it is measured.
    loss: LossMeasure,
    /// The network game's link and the search for hosts (#40).
    network: super::network::Network,
}

impl Controller {
    /// Creates the controller for `window`, wires every callback and restores state.
    pub fn install(window: &AppWindow, store: Option<Store>) -> Rc<Controller> {
        Controller::install_with(window, store, StartOptions::default())
    }

    /// As [`Controller::install`], started as `options` say.
    pub fn install_with(window: &AppWindow, store: Option<Store>, options: StartOptions) -> Rc<Controller> {
        let state = AppState { offer_guide: options.first_game_guide, ..AppState::default() };
        let controller = Rc::new(Controller {
            window: window.as_weak(),
            state: RefCell::new(state),
            saving: Saving { store, saver: RefCell::new(Saver::none()), pending: Timer::default() },
            worker: Worker::default(),
            board: BoardMotion {
                cells: Rc::new(VecModel::from(vec![Cell::default(); 256])),
                animation_timer: Timer::default(),
                taps: Rc::new(TapFilter::default()),
                touch_point: StdCell::new(None),
                history_shown: StdCell::new(None),
            },
            analysis: AnalysisRunner::default(),
            feedback: RefCell::new(Box::new(sound::Silent)),
            loss: LossMeasure::default(),
            network: Default::default(),
        });
        bind::window_start(window, &controller.board.cells);
        bind::rules_diagrams(window, super::diagrams::all());
        controller.connect(window);
        controller.restore();
        notify_first_frame(window, &controller);
        controller
    }

    /// Reads the saves (the saver then owns the data folder) and shows what they hold.
    fn restore(self: &Rc<Self>) {
        let mut started = saving::Started::default();
        if let Some(store) = &self.saving.store {
            let (read, saver) = saving::start(store);
            started = read;
            *self.saving.saver.borrow_mut() = saver;
        }
        self.dispatch(Event::Restored(Box::new(started)));
        if let Some(store) = self.by_message_store() {
            let (summaries, damaged) = store.list();
            for file in damaged {
                eprintln!("halma: a game by message could not be read ({}): {}", file.file.display(), file.problem);
            }
            let games = summaries.iter().filter_map(|summary| store.load(summary.id).ok()).collect();
            self.dispatch(Event::GamesLoaded(games));
        }
    }

    /// Where the games by message are kept (in the data folder), while this app holds it.
    fn by_message_store(&self) -> Option<halma_core::correspondence::CorrespondenceStore> {
        let holds = self.saving.saver.borrow().holds_folder();
        self.by_message_store_if(holds)
    }

    fn by_message_store_if(&self, holds_folder: bool) -> Option<halma_core::correspondence::CorrespondenceStore> {
        let store = self.saving.store.as_ref()?;
        if !holds_folder {
            return None;
        }
        let data_dir = store.path(storage::SETTINGS).parent()?.to_path_buf();
        Some(halma_core::correspondence::CorrespondenceStore::in_data_dir(&data_dir))
    }

    /// The window has shown its first frame (or closed normally): the start worked, and
    /// the crash-loop breaker's marker goes.
    pub fn start_succeeded(&self) {
        self.saving.saver.borrow_mut().first_frame_shown();
    }

    // ----- The one dispatch -----

    /// Runs `event`'s action on the state (unless review's gate holds it: in review the
    /// board takes no moves), then carries out its effects in one fixed order: stop what
    /// the change makes stale, start what it asks for, save, start the seat to move, and
    /// refresh the window once. Returns the effects (Copy game's text is in them).
    pub fn dispatch(self: &Rc<Self>, event: Event) -> Effects {
        let facts = self.facts();
        let Ok(mut state) = self.state.try_borrow_mut() else {
            // An event raised while an action runs (a Slint callback fired by a property
            // set during a refresh) waits for the event loop's next turn.
            let weak = Rc::downgrade(self);
            Timer::single_shot(Duration::ZERO, move || {
                if let Some(controller) = weak.upgrade() {
                    controller.dispatch(event);
                }
            });
            return Effects::none();
        };
        // The Train page's board plays the puzzle's own game, never the reviewed one.
        let own_game = state.ui.page() == halma_core::interface::Page::Train || state.guide.is_some();
        if state.ui.in_review() && event.plays_on_live_game() && !own_game {
            return Effects::none();
        }
        let effects = actions::update(&mut state, &facts, event);
        drop(state);
        self.carry_out(&effects);
        effects
    }

    /// What the actions may know of the background, as it is now.
    fn facts(&self) -> Facts {
        Facts { busy: self.worker.busy(), analysing: self.analysis.is_running() }
    }

    fn carry_out(self: &Rc<Self>, effects: &Effects) {
        if effects.stop_search {
            self.worker.cancel();
        }
        if effects.stop_analysis {
            self.analysis.stop();
        }
        self.drop_stale_analysis();
        self.give_feedback(effects.cues.iter().copied());
        if let Some(copy) = &effects.copy {
            self.write_record(copy);
        }
        if let Some(message) = &effects.share {
            self.share_message(message);
        }
        if effects.language {
            self.show_language();
        }
        self.run_animation(effects.animate);
        if effects.start_hint {
            self.start_hint();
        }
        if effects.start_analysis {
            self.start_analysis();
        }
        if effects.measure_loss {
            self.start_loss_measure();
        }
        match effects.save {
            Save::Now => self.save_now(),
            Save::Soon => self.save_soon(),
            Save::No => {}
        }
        if let Some(driven) = &effects.start_seat {
            self.start_seat(driven.clone());
        }
        // The network link: what the action asks, then what the other device has not heard
        // yet (this device's moves and votes, the computer's among them).
        self.run_network(&effects.lan);
        let news = {
            let mut state = self.state.borrow_mut();
            let AppState { nearby, session, .. } = &mut *state;
            nearby.as_mut().map(|nearby| nearby.outgoing(session.game())).unwrap_or_default()
        };
        self.run_network(&news);
        match effects.redraw {
            Redraw::All => self.refresh(),
            Redraw::View => self.refresh_view(),
            // A seat that offered a draw changed what the window shows.
            Redraw::Nothing => {}
        }
    }

    /// An analysis of the game as it was is of no use any more (what the game itself
    /// brings after every event is decided by `update`'s tail).
    fn drop_stale_analysis(&self) {
        let state = self.state.borrow();
        if self.analysis.is_stale(state.session.game()) {
            self.analysis.stop();
        }
    }

    /// Carries out the link's commands, and polls the link and the search while either runs.
    fn run_network(self: &Rc<Self>, commands: &[halma_core::nearby::LanCommand]) {
        if commands.is_empty() {
            return;
        }
        let reports: Vec<Event> = commands.iter().filter_map(|command| self.network.carry_out(command)).collect();
        if self.network.is_idle() {
            self.network.timer.stop();
        } else if !self.network.timer.running() {
            let weak = Rc::downgrade(self);
            self.network.timer.start(TimerMode::Repeated, super::network::POLL_EVERY, move || {
                if let Some(controller) = weak.upgrade() {
                    for event in controller.network.poll() {
                        controller.dispatch(event);
                    }
                }
            });
        }
        for report in reports {
            let weak = Rc::downgrade(self);
            Timer::single_shot(Duration::ZERO, move || {
                if let Some(controller) = weak.upgrade() {
                    controller.dispatch(report);
                }
            });
        }
    }

    /// Hands the cues to the feedback sink as the Sound and Vibration settings allow.
    fn give_feedback(&self, cues: impl Iterator<Item = Cue>) {
        let cues: Vec<Cue> = cues.collect();
        if cues.is_empty() {
            return;
        }
        let (sound, vibration) = {
            let state = self.state.borrow();
            (state.settings.sound, state.settings.vibration)
        };
        sound::deliver(&cues, sound, vibration, self.feedback.borrow_mut().as_mut());
    }

    /// Where the cues go from now on (the app's device; tests may record them).
    pub fn set_feedback(&self, sink: Box<dyn Feedback>) {
        *self.feedback.borrow_mut() = sink;
    }

    // ----- What the effects start -----

    /// Starts or stops the animation's timer: it runs while a move is shown hop by hop.
    fn run_animation(self: &Rc<Self>, start: bool) {
        if self.state.borrow().animation.is_none() {
            self.board.animation_timer.stop();
        } else if start {
            let weak = Rc::downgrade(self);
            self.board.animation_timer.start(TimerMode::Repeated, HOP_TIME, move || {
                if let Some(controller) = weak.upgrade() {
                    controller.dispatch(Event::AnimationStep);
                }
            });
        }
    }

    fn start_hint(self: &Rc<Self>) {
        let game = self.state.borrow().session.game().clone();
        let weak = Rc::downgrade(self);
        self.worker.start_hint(game, move || {
            if let Some(controller) = weak.upgrade() {
                controller.poll_search();
            }
        });
    }

    /// The worker's timer: a finished search is reported to the state.
    fn poll_search(self: &Rc<Self>) {
        if let Some(finished) = self.worker.take_finished() {
            self.dispatch(Event::SearchFinished(finished));
        }
    }

    /// Measures the Train page's wrong answer in the background (see `loss_measure`).
    fn start_loss_measure(self: &Rc<Self>) {
        let job = {
            let state = self.state.borrow();
            match state.training.as_ref().map(|training| (&training.puzzle, &training.outcome)) {
                Some((puzzle, Some(TrainOutcome::Wrong { played, .. }))) => Some((puzzle.clone(), played.clone())),
                _ => None,
            }
        };
        let Some((puzzle, played)) = job else { return };
        let weak = Rc::downgrade(self);
        self.loss.start(puzzle, played, move || {
            if let Some(controller) = weak.upgrade() {
                if let Some(measured) = controller.loss.take_finished() {
                    let Measured { puzzle_id, played, loss } = measured;
                    controller.dispatch(Event::TrainLossMeasured { puzzle_id, played, loss });
                }
            }
        });
    }

    fn start_analysis(self: &Rc<Self>) {
        let weak = Rc::downgrade(self);
        self.analysis.start(self.state.borrow().session.game(), move || {
            if let Some(controller) = weak.upgrade() {
                controller.poll_analysis();
            }
        });
    }

    /// The analysis' timer: its progress and its end are reported to the state.
    fn poll_analysis(self: &Rc<Self>) {
        match self.analysis.poll() {
            Polled::Unchanged => {}
            Polled::Progress => {
                self.dispatch(Event::AnalysisProgress);
            }
            Polled::Done(analysed) => {
                self.dispatch(Event::AnalysisDone(analysed));
            }
            Polled::Failed(reason) => {
                eprintln!("halma: the analysis failed: {reason}");
                self.dispatch(Event::AnalysisFailed);
            }
        }
    }

    /// Starts the seat to move's driver, as `update` decided.
    fn start_seat(self: &Rc<Self>, driven: Driven) {
        let weak = Rc::downgrade(self);
        let state = self.state.borrow();
        self.worker.start_seat(driven, state.session.game(), move || {
            if let Some(controller) = weak.upgrade() {
                controller.poll_search();
            }
        });
    }

    /// Shows the interface in the state's language (a bundled catalogue).
    fn show_language(&self) {
        let code = self.state.borrow().language;
        // Every language of the menu is bundled: an error would mean a missing catalogue,
        // and the interface then stays in the language it had.
        if let Err(error) = slint::select_bundled_translation(code) {
            eprintln!("halma: no translation for '{code}': {error}");
        }
    }

    /// Copy game: on the desktop the record is also saved to a file, which the message
    /// names.
    fn write_record(self: &Rc<Self>, copy: &halma_core::effects::Copy) {
        let saved = match (&self.saving.store, &copy.file_name) {
            (Some(store), Some(name)) => store.save_record(name, &copy.text).ok(),
            _ => None,
        };
        let saved_to = saved.map(|path| path.display().to_string()).unwrap_or_default();
        self.dispatch(Event::RecordCopied { saved_to });
    }

    /// Send of a game by message: on the desktop the message is also saved to a file,
    /// which the note names; on Android the system's share sheet takes it.
    fn share_message(self: &Rc<Self>, message: &halma_core::effects::Copy) {
        #[cfg(target_os = "android")]
        crate::app::share::share_text(&message.text);
        let saved = match (&self.saving.store, &message.file_name) {
            (Some(store), Some(name)) => store.save_record(name, &message.text).ok(),
            _ => None,
        };
        let saved_to = saved.map(|path| path.display().to_string()).unwrap_or_default();
        self.dispatch(Event::MessageShared { saved_to });
    }

    // ----- Saving -----

    /// Saves the session (when a game is in progress) and the settings, each only if it
    /// changed. A failure is shown to the player until a later save succeeds; play goes on.
    fn save_now(self: &Rc<Self>) {
        self.saving.pending.stop();
        let result = {
            let mut state = self.state.borrow_mut();
            let mut saver = self.saving.saver.borrow_mut();
            let mut result = saver.save_settings(&state.settings);
            // The live game, wherever it is in the stack of boards (`boards`).
            if let Some(device) = state.live_session() {
                result = saver.save_session(device).and(result);
            }
            let state = &mut *state;
            if let Some(store) = self.by_message_store_if(saver.holds_folder()) {
                for id in std::mem::take(&mut state.by_message.dirty) {
                    let Some(game) = state.by_message.games.get(&id) else { continue };
                    if let Err(error) = store.save(game) {
                        state.by_message.dirty.insert(id);
                        result = result.and(Err(storage::SaveFailure::from_io(&error)));
                    }
                }
            }
            result
        };
        if let Err(failure) = &result {
            eprintln!("halma: could not save: {failure}");
        }
        self.dispatch(Event::Saved(result.err()));
    }

    /// Saves within [`SELECTION_SAVE_DELAY`]: for changes of the selection, the preview
    /// and the view, which the save keeps (a game resumes mid-preview) but which come tap
    /// after tap.
    fn save_soon(self: &Rc<Self>) {
        if self.saving.pending.running() {
            return;
        }
        let weak = Rc::downgrade(self);
        self.saving.pending.start(TimerMode::SingleShot, SELECTION_SAVE_DELAY, move || {
            if let Some(controller) = weak.upgrade() {
                controller.dispatch(Event::SaveDue);
            }
        });
    }

    /// Saves now what waits to be saved (the app pauses or closes).
    pub fn save(self: &Rc<Self>) {
        self.dispatch(Event::SaveDue);
    }

    // ----- Input that waits on the machinery -----

    /// A click on a display cell: it counts as a tap once no pinch claims it.
    pub(super) fn cell_clicked(self: &Rc<Self>, x: i32, y: i32) {
        self.board.touch_point.set(None);
        self.hold_tap(x, y);
    }

    /// A finger's tap on a display cell at a point (board dp) with squares of `square`
    /// dp: held like a click, then snapped by the action (`Event::TouchTap`).
    pub(super) fn touch_tapped(self: &Rc<Self>, x: i32, y: i32, point_x: f32, point_y: f32, square: f32) {
        self.board.touch_point.set(Some((point_x, point_y, square)));
        self.hold_tap(x, y);
    }

    fn hold_tap(self: &Rc<Self>, x: i32, y: i32) {
        let weak = Rc::downgrade(self);
        self.board.taps.click(x, y, move || {
            if let Some(controller) = weak.upgrade() {
                let touch = controller.board.touch_point.take();
                if let Some((x, y)) = controller.board.taps.take_pending() {
                    controller.dispatch(match touch {
                        Some((x, y, square_dp)) => Event::TouchTap { x, y, square_dp },
                        None => Event::Tap { x, y },
                    });
                }
            }
        });
    }

    pub(super) fn gesture_started(&self) {
        self.board.taps.gesture_started();
    }

    pub(super) fn gesture_updated(self: &Rc<Self>, scale: f32, rotation: f32, anchor_x: f32, anchor_y: f32) {
        let step = self.board.taps.gesture_updated(scale, rotation);
        let (zoom_factor, quarter_turn) = (step.zoom_factor, step.quarter_turn);
        self.dispatch(Event::Pinch { zoom_factor, quarter_turn, anchor_x, anchor_y });
    }

    pub(super) fn gesture_ended(self: &Rc<Self>) {
        self.board.taps.gesture_ended();
        self.dispatch(Event::GestureEnded);
    }

    // ----- Showing the state -----

    /// Pushes the whole state into the window; only changed board cells are updated, and
    /// what depends on the history alone only when the history changed.
    fn refresh(&self) {
        let Some(window) = self.window.upgrade() else { return };
        let state = self.state.borrow();
        // While the guide runs the game page shows and plays the guide's game.
        let (session, ui, settings) = (state.guide_shown().unwrap_or(&state.session), state.ui, &state.settings);
        let guiding = state.guide.is_some();
        let review = ui.review().filter(|_| !guiding).map(|shown| session.reviewing(shown));
        bind::whole_window_dirty(&window);
        bind::guide(&window, super::guide_presenter::guide(state.guide.as_ref()));
        let practise = super::train_presenter::mistakes_to_practise(session);
        bind::train(&window, super::train_presenter::train(state.training.as_ref(), &settings.training, practise));
        let board = match (&review, state.training_shown()) {
            // The Train page's board shows the puzzle's own game.
            (_, Some(puzzle)) => presenter::board(puzzle, state.animation.as_ref()),
            // An earlier position, read-only: no preview, no cursor, no moving piece.
            (Some(shown), None) => presenter::board(shown, None),
            (None, None) => presenter::board(session, state.animation.as_ref()),
        };
        bind::board(&window, &self.board.cells, board, ui.cursor_shown(), state.loupe.as_ref());
        bind::navigation(&window, ui.page().into());
        bind::game_menu(&window, ui.menu_open());
        bind::records(&window, &ui, &state.messages);
        let program_move = Duration::from_millis(settings.engine_move_ms.into());
        let confirming = state.program_awaits_confirmation().filter(|_| review.is_none() && !guiding);
        let by_message = super::by_message_presenter::picture(&state.by_message, session, state.live_session(), &ui);
        let nearby = super::nearby_presenter::picture(state.nearby.as_ref(), state.join.as_ref());
        let status = presenter::status(session, self.worker.busy(), ui.question().into(), program_move);
        let status = if confirming.is_some() { status.waiting_to_start() } else { status };
        // Undo stops at what the other side may know; Redo does not apply while another
        // device plays too, and Undo waits for its answer.
        let status =
            status.limited(by_message.undo_blocked || (nearby.shared && nearby.view.undo_pending), nearby.shared);
        // A tap or a review step in a 20,000-action game stays within a frame.
        let history = HistoryKey::of(session);
        let history_changed = self.board.history_shown.replace(Some(history)) != Some(history);
        bind::game_state(
            &window,
            bind::GamePicture {
                status,
                failure: presenter::seat_failure(state.seat_failure.filter(|_| review.is_none() && !guiding)),
                confirmation: confirming,
                program_name: program_name(&settings.engine_command),
                save_failure: presenter::save_failure(state.messages.save_failure.as_ref()),
                review: review
                    .as_ref()
                    .map(|shown| (shown.game().history().len(), shown.game().to_move().index() as i32)),
                moves: history_changed.then(|| presenter::moves(session)),
            },
        );
        bind::by_message(&window, by_message);
        bind::nearby(&window, nearby);
        let analysis_history =
            history_changed.then(|| analysis_presenter::of_history(session.analysis(), session.game().setup()));
        let reviewed = analysis_presenter::reviewed(session.analysis(), session.view(), ui.review());
        let offered = (ui.in_review() || session.game().is_over()) && !session.game().history().is_empty();
        let analysis = bind::AnalysisState {
            progress: self.analysis.progress(),
            offered,
            failed: state.messages.analysis_failed,
            summary_open: ui.summary_open(),
        };
        bind::analysis(&window, analysis_history, reviewed, analysis);
        bind::pickers(&window, presenter::pickers(session));
        bind::preferences(
            &window,
            crate::PreferencesView {
                language_index: locale::language_index(state.language),
                turning: presenter::turning(settings.orientation),
                theme: presenter::theme_choice(settings.theme),
                sound: settings.sound,
                vibration: settings.vibration,
            },
        );
        bind::form(&window, presenter::form(&state.form), ui.has_game(), &state.messages.load_problems);
        drop(state);
        self.refresh_view();
    }

    /// The zoom and the Flickable's offset, which follow the view and the viewport.
    fn refresh_view(&self) {
        let Some(window) = self.window.upgrade() else { return };
        let state = self.state.borrow();
        let (width, height) = state.viewport;
        let view = state.training_shown().or(state.guide_shown()).unwrap_or(&state.session).view();
        bind::view(&window, view.zoom, view.content_offset(width, height));
    }

    // ----- For tests and tools -----

    /// Starts `session` on the game screen, as if chosen on the new-game screen
    /// (tests, screenshots and tools use it to reach a given position).
    pub fn begin_session(self: &Rc<Self>, session: Session) {
        self.dispatch(Event::Begin(Box::new(session)));
    }

    /// The session, for tests and tools.
    pub fn session(&self) -> Session {
        self.state.borrow().session.clone()
    }

    /// A copy of the whole state, for tests and tools.
    pub fn state(&self) -> AppState {
        self.state.borrow().clone()
    }

    /// True while a search runs (tests wait on it).
    pub fn is_searching(&self) -> bool {
        self.worker.busy().is_some()
    }

    /// True while a move is being animated.
    pub fn is_animating(&self) -> bool {
        self.state.borrow().animation.is_some()
    }

    /// The analysis' quality (the app uses `Quality::DEFAULT`; tests may go faster).
    pub fn set_analysis_quality(&self, quality: Quality) {
        self.analysis.set_quality(quality);
    }

    /// True while an analysis runs in the background.
    pub fn is_analysing(&self) -> bool {
        self.analysis.is_running()
    }

    /// Today's date (year, month, day) for the puzzle of the day: the calendar date in
    /// UTC, the same instant everywhere (the app has no time-zone database).
    pub(super) fn today() -> (i32, u32, u32) {
        civil_from_days(i64::try_from(Self::now() / 86_400).unwrap_or(0))
    }

    /// The current time for records' dates and file names.
    pub(super) fn now() -> u64 {
        storage::now_unix_time()
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

/// The calendar date of a day number from 1970-01-01 (Howard Hinnant's algorithm, the
/// inverse of `halma_ai::puzzles::days_from_civil`).
fn civil_from_days(days: i64) -> (i32, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (i32::try_from(year).unwrap_or(i32::MAX), month, day)
}

#[cfg(test)]
mod date_tests {
    use super::civil_from_days;
    use halma_ai::puzzles::days_from_civil;

    #[test]
    fn day_numbers_and_dates_agree() {
        for (y, m, d) in [(1970, 1, 1), (2000, 2, 29), (2026, 12, 3), (2100, 3, 1), (1969, 12, 31)] {
            assert_eq!(civil_from_days(days_from_civil(y, m, d)), (y, m, d));
        }
    }
}
