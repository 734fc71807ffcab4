//! Connects the Slint callbacks of each global to the controller's actions. The actions
//! that change the live game go through `Controller::live`, the one gate of review.

use super::controller::Controller;
use crate::{
    Analysis, AppWindow, BoardState, BoardTurning, GameState, Navigation, NewGameForm, Page, Pickers, PlayerKind,
    Preferences, Records, ReviewStep,
};
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

impl Controller {
    pub(super) fn connect(self: &Rc<Self>, window: &AppWindow) {
        self.connect_navigation(window);
        self.connect_board(window);
        self.connect_game(window);
        self.connect_new_game(window);
    }

    fn connect_navigation(self: &Rc<Self>, window: &AppWindow) {
        let navigation = window.global::<Navigation>();
        on!(self, navigation.on_show, |c, page: Page| c.show_page(page));
        on!(self, navigation.on_go_back, |c| c.go_back());
        on!(self, navigation.on_escape, |c| c.escape());
        let weak = Rc::downgrade(self);
        navigation.on_back(move || weak.upgrade().is_some_and(|c| c.back()));
    }

    fn connect_board(self: &Rc<Self>, window: &AppWindow) {
        let board = window.global::<BoardState>();
        on!(self, board.on_cell_clicked, |c, x: i32, y: i32| c.live(|c| c.cell_clicked(x, y)));
        on!(self, board.on_square_activated, |c, x: i32, y: i32| c.live(|c| c.square_activated(x, y)));
        on!(self, board.on_arrow, |c, dx: i32, dy: i32| c.live(|c| c.arrow(dx, dy)));
        on!(self, board.on_enter, |c| c.live(Controller::enter));
        on!(self, board.on_zoom_in, |c, x: f32, y: f32| c.zoom_step(true, x, y));
        on!(self, board.on_zoom_out, |c, x: f32, y: f32| c.zoom_step(false, x, y));
        on!(self, board.on_zoom_fit, |c| c.zoom_fit());
        on!(self, board.on_rotate, |c, clockwise: bool| c.rotate(clockwise));
        on!(self, board.on_panned, |c, x: f32, y: f32, w: f32, h: f32| c.panned(x, y, w, h));
        on!(self, board.on_viewport_resized, |c, w: f32, h: f32| c.viewport_resized(w, h));
        on!(self, board.on_gesture_started, |c| c.gesture_started());
        on!(self, board.on_gesture_updated, |c, scale: f32, rotation: f32, x: f32, y: f32| c
            .gesture_updated(scale, rotation, x, y));
        on!(self, board.on_gesture_ended, |c| c.gesture_ended());
    }

    fn connect_game(self: &Rc<Self>, window: &AppWindow) {
        let game = window.global::<GameState>();
        on!(self, game.on_confirm, |c| c.live(Controller::confirm));
        on!(self, game.on_cancel, |c| c.live(Controller::cancel));
        on!(self, game.on_hint, |c| c.live(Controller::hint));
        on!(self, game.on_undo, |c| c.live(Controller::undo));
        on!(self, game.on_retry_computer, |c| c.retry_computer());
        on!(self, game.on_start_program, |c| c.start_program());
        on!(self, game.on_change_program, |c| c.set_up());
        on!(self, game.on_play_program_seat, |c| c.play_program_seat());
        on!(self, game.on_redo, |c| c.live(Controller::redo));
        on!(self, game.on_offer_draw, |c| c.live(Controller::offer_draw));
        on!(self, game.on_answer_draw, |c, accept: bool| c.answer_draw(accept));
        on!(self, game.on_restart, |c| c.restart_game());
        on!(self, game.on_new_game, |c| c.new_game());
        on!(self, game.on_answer_question, |c, yes: bool| c.answer_question(yes));
        on!(self, game.on_set_up, |c| c.set_up());
        on!(self, game.on_review_step, |c, step: ReviewStep| c.review_step(step));
        on!(self, game.on_review_at, |c, index: i32| c.review_at(index));
        let analysis = window.global::<Analysis>();
        on!(self, analysis.on_analyse, |c| c.analyse());
        on!(self, analysis.on_cancel, |c| c.cancel_analysis());
        on!(self, analysis.on_show_position, |c, position: i32| c.show_position(position));
        let pickers = window.global::<Pickers>();
        on!(self, pickers.on_pick_piece, |c, index: i32| c.live(|c| c.pick_piece(index)));
        on!(self, pickers.on_pick_destination, |c, index: i32| c.live(|c| c.pick_destination(index)));
    }

    fn connect_new_game(self: &Rc<Self>, window: &AppWindow) {
        let form = window.global::<NewGameForm>();
        on!(self, form.on_set_players, |c, players: i32| c.set_players(players));
        on!(self, form.on_set_both_armies, |c, both: bool| c.set_both_armies(both));
        on!(self, form.on_set_seat_player, |c, seat: i32, kind: PlayerKind| c.set_seat_player(seat, kind));
        on!(self, form.on_set_first_seat, |c, index: i32| c.set_first_seat(index));
        on!(self, form.on_set_engine_command, |c, command: slint::SharedString| c.set_engine_command(&command));
        on!(self, form.on_set_engine_move_time, |c, index: i32| c.set_engine_move_time(index));
        on!(self, form.on_start, |c| c.start_game());
        on!(self, form.on_resume, |c| c.resume());
        on!(self, form.on_dismiss_load_problems, |c| c.dismiss_load_problems());
        let records = window.global::<Records>();
        let weak = Rc::downgrade(self);
        records.on_export(move || weak.upgrade().map(|c| c.export_record()).unwrap_or_default());
        on!(self, records.on_open_import, |c| c.open_import());
        on!(self, records.on_close_import, |c| c.close_import());
        on!(self, records.on_import, |c, text: slint::SharedString, review: bool| c.import_record(text, review));
        let preferences = window.global::<Preferences>();
        on!(self, preferences.on_select_language, |c, index: i32| c.select_language(index));
        on!(self, preferences.on_set_turning, |c, turning: BoardTurning| c.set_turning(turning));
    }
}
