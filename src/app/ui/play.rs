//! The game's actions: confirm, cancel, hints, undo and redo, draws, restart, and the
//! computer's moves when its search finishes.

use super::controller::Controller;
use super::ui_state::UiState;
use super::worker::JobKind;
use crate::app::interaction::TapResult;
use crate::app::players::{FailureKind, Turn};
use crate::app::session::{Player, Session};
use crate::rules::Action;
use crate::{Page, Question};
use std::rc::Rc;

impl Controller {
    /// What follows a tap, Enter or a picker choice.
    pub(super) fn handle_tap_result(self: &Rc<Self>, result: TapResult) {
        match result {
            TapResult::Confirm(_) => self.confirm(),
            TapResult::Nothing => self.refresh(),
            // A selection or a preview: the game is as it was.
            _ => self.after_selection_change(),
        }
    }

    pub(super) fn confirm(self: &Rc<Self>) {
        self.finish_animation();
        let seat = self.session.borrow().game().position().army_to_move();
        if let Ok(Action::Move(route)) = self.with_session(|session| session.confirm()) {
            self.worker.cancel();
            self.animate(route.squares().to_vec(), seat);
            self.after_change(true);
        }
    }

    pub(super) fn cancel(self: &Rc<Self>) {
        if self.with_session(|session| session.cancel()) {
            self.after_selection_change();
        }
    }

    pub(super) fn hint(self: &Rc<Self>) {
        let can = self.session.borrow().human_can_act() && self.worker.busy().is_none();
        if !can || self.ui.borrow().page() != Page::Game {
            return;
        }
        let game = self.session.borrow().game().clone();
        let weak = Rc::downgrade(self);
        self.worker.start_hint(game, move || {
            if let Some(controller) = weak.upgrade() {
                controller.poll_job();
            }
        });
        self.refresh();
    }

    /// Called by the worker's timer: plays or shows a finished search's result.
    pub(super) fn poll_job(self: &Rc<Self>) {
        let Some(finished) = self.worker.take_finished() else { return };
        if finished.plies != self.session.borrow().game().history().len() {
            // The position changed meanwhile: the result is for another one.
            self.after_change(false);
            return;
        }
        match (finished.kind, finished.turn) {
            (JobKind::Computer, Turn::Chose(action)) => self.play_computer(action),
            // A failure is told (Retry), not a reason to think again forever.
            (JobKind::Computer, Turn::Failed(failure)) => {
                eprintln!("halma: the seat to move could not choose a move: {failure}");
                self.worker.set_failed(failure.kind);
            }
            (JobKind::Hint, Turn::Chose(Action::Move(route))) => {
                self.with_session(|session| session.show_hint(route.squares()));
            }
            (_, _) => {}
        }
        self.after_change(true);
    }

    /// Retry after the computer's search failed: it thinks again.
    pub(super) fn retry_computer(self: &Rc<Self>) {
        self.worker.clear_failure();
        self.after_change(false);
    }

    /// Start: the player allows the engine program to move to start (this command line,
    /// until the app closes).
    pub(super) fn start_program(self: &Rc<Self>) {
        if let Some(command) = self.program_awaits_confirmation() {
            self.trusted_commands.borrow_mut().insert(command);
        }
        self.after_change(false);
    }

    /// Play as a person: the engine program's seat to move goes to the people here, and
    /// the program is never started for it.
    pub(super) fn play_program_seat(self: &Rc<Self>) {
        if self.program_awaits_confirmation().is_some() && self.with_session(Session::seat_person_to_move) {
            self.after_change(true);
        }
    }

    fn play_computer(self: &Rc<Self>, action: Action) {
        let seat = self.session.borrow().game().position().army_to_move();
        match self.with_session(|session| session.play_action(&action)) {
            Ok(()) => {
                if let Action::Move(route) = action {
                    self.animate(route.squares().to_vec(), seat);
                }
            }
            Err(error) => {
                eprintln!("halma: the computer's move was refused: {error}");
                let program = self.session.borrow().driven_to_move() == Some(Player::Program);
                self.worker.set_failed(if program { FailureKind::WrongAnswer } else { FailureKind::Search });
            }
        }
    }

    /// Stops whatever moves or thinks before the game changes under it.
    pub(super) fn interrupt(&self) {
        self.worker.cancel();
        self.finish_animation();
        // The game changes: a failed search was for the position that goes.
        self.worker.clear_failure();
    }

    pub(super) fn undo(self: &Rc<Self>) {
        self.interrupt();
        self.with_session(|session| session.undo());
        self.after_change(true);
    }

    pub(super) fn redo(self: &Rc<Self>) {
        self.interrupt();
        self.with_session(|session| session.redo());
        self.after_change(true);
    }

    /// Offering a draw can end the game: the player confirms it first.
    pub(super) fn offer_draw(self: &Rc<Self>) {
        if self.session.borrow().can_offer_draw() {
            self.ask(Question::OfferDraw);
        }
    }

    pub(super) fn answer_draw(self: &Rc<Self>, accept: bool) {
        let Some(seat) = self.session.borrow().human_vote_awaited() else { return };
        // A refused answer changes nothing; the screen is refreshed either way.
        let _ = self.with_session(|session| session.answer_draw(seat, accept));
        self.after_change(true);
    }

    /// Restart: the same configuration from its start, after a yes while the game is unfinished.
    pub(super) fn restart_game(self: &Rc<Self>) {
        self.ask_unless_nothing_is_lost(Question::Restart);
    }

    /// New game: the same configuration with the first seat rotated, after a yes while
    /// the game is unfinished.
    pub(super) fn new_game(self: &Rc<Self>) {
        self.ask_unless_nothing_is_lost(Question::NewGame);
    }

    fn ask_unless_nothing_is_lost(self: &Rc<Self>, question: Question) {
        if self.session.borrow().is_unfinished() {
            self.ask(question);
        } else {
            self.carry_out(question);
        }
    }

    fn ask(&self, question: Question) {
        self.with_ui(|ui| ui.ask(question));
        self.refresh();
    }

    /// The player's answer: yes carries the action out, no keeps everything as it was.
    pub(super) fn answer_question(self: &Rc<Self>, yes: bool) {
        let question = self.with_ui(UiState::take_question);
        if yes {
            self.carry_out(question);
        } else {
            self.refresh();
        }
    }

    fn carry_out(self: &Rc<Self>, question: Question) {
        match question {
            Question::NewGame | Question::Restart => {
                // The game is replaced: review ends with it.
                self.with_ui(UiState::game_begun);
                self.interrupt();
                self.with_session(
                    |session| {
                        if question == Question::NewGame {
                            session.new_game()
                        } else {
                            session.restart()
                        }
                    },
                );
                self.after_change(true);
            }
            Question::OfferDraw => {
                if self.with_session(|session| session.offer_draw()).is_ok() {
                    self.after_change(true);
                } else {
                    self.refresh();
                }
            }
            Question::None => self.refresh(),
        }
    }

    pub(super) fn pick_piece(self: &Rc<Self>, index: i32) {
        let Ok(index) = usize::try_from(index) else { return };
        let result = self.with_session(|session| session.pick_piece(index));
        self.handle_tap_result(result);
    }

    pub(super) fn pick_destination(self: &Rc<Self>, index: i32) {
        let Ok(index) = usize::try_from(index) else { return };
        let result = self.with_session(|session| session.pick_destination(index));
        self.handle_tap_result(result);
    }
}
