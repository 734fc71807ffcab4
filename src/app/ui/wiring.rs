//! Connects the Slint callbacks of each global to the controller: each becomes an
//! [`Event`] for the one dispatch (taps and gestures pass the pinch filter first).

use super::controller::Controller;
use crate::{
    Analysis, AppWindow, BoardState, BoardTurning, GameMenuState, GameState, Navigation, NewGameForm, Page, Pickers,
    PlayerKind, Preferences, Records, ReviewStep, ThemeChoice,
};
use halma_core::actions::Event;
use slint::ComponentHandle;
use std::rc::Rc;

/// `on!(global.on_callback, |controller, args: types| body)`: calls `body` with the
/// controller while it exists (the callbacks hold it weakly, so the window does not
/// keep it alive).
macro_rules! on {
    ($this:ident, $global:ident . $method:ident, |$c:ident $(, $arg:ident : $ty:ty)*| $body:expr) => {{
        let weak = Rc::downgrade($this);
        $global.$method(move |$($arg: $ty),*| {
            if let Some($c) = weak.upgrade() {
                $body;
            }
        });
    }};
}

/// `send!(global.on_callback, |args: types| event)`: the callback dispatches `event`.
macro_rules! send {
    ($this:ident, $global:ident . $method:ident, || $event:expr) => {
        on!($this, $global.$method, |c| c.dispatch($event))
    };
    ($this:ident, $global:ident . $method:ident, |$($arg:ident : $ty:ty),*| $event:expr) => {
        on!($this, $global.$method, |c $(, $arg: $ty)*| c.dispatch($event))
    };
}

impl Controller {
    pub(super) fn connect(self: &Rc<Self>, window: &AppWindow) {
        self.connect_commands(window);
        self.connect_navigation(window);
        self.connect_board(window);
        self.connect_game(window);
        self.connect_new_game(window);
        self.connect_by_message(window);
        self.connect_nearby(window);
    }

    /// The buttons that carry no value: each names its event (`Event::command`). A name
    /// the core does not know is a mistake in a view (tests/commands.rs): told, ignored.
    fn connect_commands(self: &Rc<Self>, window: &AppWindow) {
        let commands = window.global::<crate::Commands>();
        on!(self, commands.on_run, |c, name: slint::SharedString| match Event::command(&name) {
            Some(event) => {
                c.dispatch(event);
            }
            None => eprintln!("halma: a button sent the unknown command {name:?}"),
        });
    }

    /// Play over the local network (#40).
    fn connect_nearby(self: &Rc<Self>, window: &AppWindow) {
        let nearby = window.global::<crate::Nearby>();
        send!(self, nearby.on_open_join, || Event::OpenJoin);
        send!(self, nearby.on_close_join, || Event::CloseJoin);
        send!(self, nearby.on_join, |code: slint::SharedString, address: slint::SharedString| {
            Event::JoinNearby { code: code.into(), address: address.into() }
        });
        send!(self, nearby.on_answer_undo, |yes: bool| Event::AnswerUndo(yes));
        send!(self, nearby.on_leave, || Event::LeaveNearby);
        send!(self, nearby.on_new_code, || Event::NewJoinCode);
    }

    /// Play by message (#40): Send gives back the message for the clipboard (on Android
    /// the share sheet takes it instead).
    fn connect_by_message(self: &Rc<Self>, window: &AppWindow) {
        let by_message = window.global::<crate::ByMessage>();
        let weak = Rc::downgrade(self);
        by_message.on_send(move |header| {
            let event = Event::SendMessage { header: header.into(), unix_time: Controller::now() };
            let shared = weak.upgrade().and_then(|c| c.dispatch(event).share);
            let text = shared.map(|message| message.text).filter(|_| !cfg!(target_os = "android"));
            text.unwrap_or_default().into()
        });
        send!(self, by_message.on_open_receive, || Event::OpenReceive);
        send!(self, by_message.on_close_receive, || Event::CloseReceive);
        send!(self, by_message.on_receive, |text: slint::SharedString| Event::Receive(text.into()));
        send!(self, by_message.on_answer_offer, |yes: bool| Event::AnswerOffer(yes));
        send!(self, by_message.on_open_game, |id: slint::SharedString| Event::OpenGame(id.into()));
    }

    fn connect_navigation(self: &Rc<Self>, window: &AppWindow) {
        let navigation = window.global::<Navigation>();
        send!(self, navigation.on_show, |page: Page| Event::ShowPage(page.into()));
        send!(self, navigation.on_go_back, || Event::GoBack);
        send!(self, navigation.on_escape, || Event::Escape);
        let weak = Rc::downgrade(self);
        navigation.on_back(move || weak.upgrade().is_some_and(|c| !c.dispatch(Event::Back).let_system_close));
        let menu = window.global::<GameMenuState>();
        send!(self, menu.on_set_open, |open: bool| Event::SetMenuOpen(open));
    }

    fn connect_board(self: &Rc<Self>, window: &AppWindow) {
        let board = window.global::<BoardState>();
        on!(self, board.on_cell_clicked, |c, x: i32, y: i32| c.cell_clicked(x, y));
        on!(self, board.on_touch_tapped, |c, x: i32, y: i32, point_x: f32, point_y: f32, square: f32| c
            .touch_tapped(x, y, point_x, point_y, square));
        // The loupe: a finger rests (or slides while resting) on a small board, or lifts.
        send!(self, board.on_touch_held, |x: f32, y: f32, square_dp: f32| Event::TouchHold { x, y, square_dp });
        send!(self, board.on_touch_hold_ended, || Event::TouchHoldEnded);
        // A screen reader's activation: no finger, so no pinch to wait for.
        send!(self, board.on_square_activated, |x: i32, y: i32| Event::Tap { x, y });
        send!(self, board.on_arrow, |dx: i32, dy: i32| Event::Arrow { dx, dy });
        send!(self, board.on_enter, || Event::Enter);
        send!(self, board.on_zoom_in, |anchor_x: f32, anchor_y: f32| Event::Zoom { zoom_in: true, anchor_x, anchor_y });
        send!(self, board.on_zoom_out, |anchor_x: f32, anchor_y: f32| Event::Zoom {
            zoom_in: false,
            anchor_x,
            anchor_y
        });
        send!(self, board.on_zoom_fit, || Event::ZoomFit);
        send!(self, board.on_rotate, |clockwise: bool| Event::Rotate { clockwise });
        send!(self, board.on_panned, |x: f32, y: f32, width: f32, height: f32| Event::Panned { x, y, width, height });
        send!(self, board.on_viewport_resized, |width: f32, height: f32| Event::ViewportResized { width, height });
        on!(self, board.on_gesture_started, |c| c.gesture_started());
        on!(self, board.on_gesture_updated, |c, scale: f32, rotation: f32, x: f32, y: f32| c
            .gesture_updated(scale, rotation, x, y));
        on!(self, board.on_gesture_ended, |c| c.gesture_ended());
    }

    fn connect_game(self: &Rc<Self>, window: &AppWindow) {
        let game = window.global::<GameState>();
        send!(self, game.on_confirm, || Event::Confirm);
        send!(self, game.on_cancel, || Event::Cancel);
        send!(self, game.on_hint, || Event::Hint);
        send!(self, game.on_undo, || Event::Undo);
        send!(self, game.on_retry_computer, || Event::RetryComputer);
        send!(self, game.on_start_program, || Event::StartProgram);
        send!(self, game.on_change_program, || Event::SetUp);
        send!(self, game.on_play_program_seat, || Event::PlayProgramSeat);
        send!(self, game.on_redo, || Event::Redo);
        send!(self, game.on_offer_draw, || Event::OfferDraw);
        send!(self, game.on_answer_draw, |accept: bool| Event::AnswerDraw(accept));
        send!(self, game.on_restart, || Event::Restart);
        send!(self, game.on_new_game, || Event::NewGame);
        send!(self, game.on_answer_question, |yes: bool| Event::AnswerQuestion(yes));
        send!(self, game.on_set_up, || Event::SetUp);
        send!(self, game.on_review_step, |step: ReviewStep| Event::ReviewStep(step.into()));
        send!(self, game.on_review_at, |index: i32| Event::ReviewAt(index));
        let analysis = window.global::<Analysis>();
        send!(self, analysis.on_analyse, || Event::Analyse);
        send!(self, analysis.on_cancel, || Event::CancelAnalysis);
        send!(self, analysis.on_show_position, |position: i32| Event::ShowPosition(position));
        send!(self, analysis.on_set_summary_open, |open: bool| Event::SetSummaryOpen(open));
        self.connect_train(window);
        let guide = window.global::<crate::Guide>();
        send!(self, guide.on_open, || Event::OpenGuide);
        send!(self, guide.on_skip, || Event::SkipGuide);
        send!(self, guide.on_finish, || Event::FinishGuide);
        let pickers = window.global::<Pickers>();
        send!(self, pickers.on_pick_piece, |index: i32| Event::PickPiece(index));
        send!(self, pickers.on_pick_destination, |index: i32| Event::PickDestination(index));
    }

    /// The Train page (#41); today's date comes with the events that need it.
    fn connect_train(self: &Rc<Self>, window: &AppWindow) {
        let train = window.global::<crate::Train>();
        send!(self, train.on_open, || {
            let (year, month, day) = Controller::today();
            Event::OpenTrain { year, month, day }
        });
        send!(self, train.on_daily, || {
            let (year, month, day) = Controller::today();
            Event::TrainDaily { year, month, day }
        });
        on!(
            self,
            train.on_next,
            |c, index: i32| if let Some(difficulty) = super::train_presenter::difficulty_of(index) {
                c.dispatch(Event::TrainNext(difficulty));
            }
        );
        send!(self, train.on_retry, || Event::TrainRetry);
        send!(self, train.on_hint, || Event::TrainHint);
        send!(self, train.on_practise, || Event::PractiseMistakes);
        send!(self, train.on_next_mistake, || Event::TrainNextMistake);
    }

    fn connect_new_game(self: &Rc<Self>, window: &AppWindow) {
        let form = window.global::<NewGameForm>();
        send!(self, form.on_set_players, |players: i32| Event::SetPlayers(players));
        send!(self, form.on_set_both_armies, |both: bool| Event::SetBothArmies(both));
        send!(self, form.on_set_seat_player, |seat: i32, kind: PlayerKind| Event::SetSeatPlayer(seat, kind.into()));
        send!(self, form.on_set_first_seat, |index: i32| Event::SetFirstSeat(index));
        send!(self, form.on_set_engine_command, |command: slint::SharedString| Event::SetEngineCommand(command.into()));
        send!(self, form.on_set_engine_move_time, |index: i32| Event::SetEngineMoveTime(index));
        send!(self, form.on_start, || Event::Start);
        send!(self, form.on_resume, || Event::Resume);
        send!(self, form.on_dismiss_load_problems, || Event::DismissLoadProblems);
        let records = window.global::<Records>();
        let weak = Rc::downgrade(self);
        records.on_export(move || {
            let copied = weak.upgrade().and_then(|c| c.dispatch(Event::CopyGame { unix_time: Controller::now() }).copy);
            copied.map(|copy| copy.text).unwrap_or_default().into()
        });
        send!(self, records.on_open_import, || Event::OpenImport);
        send!(self, records.on_close_import, || Event::CloseImport);
        send!(self, records.on_import, |text: slint::SharedString, review: bool| Event::Import {
            text: text.into(),
            review
        });
        let preferences = window.global::<Preferences>();
        send!(self, preferences.on_select_language, |index: i32| Event::SelectLanguage(index));
        send!(self, preferences.on_set_turning, |turning: BoardTurning| Event::SetTurning(turning.into()));
        send!(self, preferences.on_set_theme, |theme: ThemeChoice| Event::SetTheme(theme.into()));
        send!(self, preferences.on_set_sound, |on: bool| Event::SetSound(on));
        send!(self, preferences.on_set_vibration, |on: bool| Event::SetVibration(on));
    }
}
