//! Pages and the new-game screen: showing a page, Back and Esc, the new-game form,
//! starting a game, and the settings (language, board turning).

use super::controller::Controller;
use super::setup_form::SetupForm;
use super::ui_state::{BackStep, UiState};
use super::{bind, presenter};
use crate::app::locale;
use crate::app::session::Session;
use crate::{BoardTurning, Page, PlayerKind};
use std::rc::Rc;

impl Controller {
    pub(super) fn show_page(self: &Rc<Self>, page: Page) {
        self.with_ui(|ui| ui.show(page));
        self.refresh();
    }

    /// From the rules or about page back to where the player came from.
    pub(super) fn go_back(self: &Rc<Self>) {
        self.with_ui(UiState::go_back);
        self.refresh();
    }

    /// True while a preview or a selection is on the board.
    fn board_has_choice(&self) -> bool {
        let session = self.session.borrow();
        session.interaction().has_preview() || session.interaction().selected.is_some()
    }

    pub(super) fn escape(self: &Rc<Self>) {
        let step = self.with_ui(|ui| ui.escape(self.board_has_choice()));
        self.carry_out_back(step);
    }

    /// Android's back button: the dialog or question, review, the preview, then the
    /// selection, then the new-game screen, then (false) let the system close the app.
    pub(super) fn back(self: &Rc<Self>) -> bool {
        let step = self.with_ui(|ui| ui.back(self.board_has_choice()));
        self.carry_out_back(step)
    }

    /// What is left to do after Back or Esc changed the interface state; false when the
    /// system may close the app.
    fn carry_out_back(self: &Rc<Self>, step: BackStep) -> bool {
        match step {
            BackStep::CancelOnBoard => self.cancel(),
            BackStep::CancelAnalysis => self.cancel_analysis(),
            BackStep::LeaveGame => self.set_up(),
            BackStep::LetSystemClose => return false,
            BackStep::CloseImport
            | BackStep::DismissQuestion
            | BackStep::LeaveReview
            | BackStep::Return
            | BackStep::Nothing => self.refresh(),
        }
        true
    }

    // ----- New-game screen -----

    /// Opens the new-game screen to set up a different game: this game's configuration
    /// with the first seat rotated, as New game would start it. The game is kept.
    pub(super) fn set_up(self: &Rc<Self>) {
        self.with_ui(UiState::set_up);
        self.with_session(|session| session.clear_selection());
        if self.ui.borrow().has_game() {
            let config = self.session.borrow().next_config();
            let (command, move_ms) = {
                let form = self.form.borrow();
                (form.command().to_string(), form.move_ms())
            };
            *self.form.borrow_mut() = SetupForm::from_config(config, &command, move_ms);
        }
        self.refresh_form();
        self.after_change(true);
    }

    pub(super) fn set_players(&self, players: i32) {
        self.form.borrow_mut().set_players(players);
        self.refresh_form();
    }

    pub(super) fn set_both_armies(&self, both: bool) {
        self.form.borrow_mut().set_both_armies(both);
        self.refresh_form();
    }

    pub(super) fn set_seat_player(&self, seat: i32, kind: PlayerKind) {
        let Some(seat) = presenter::seat_from_index(seat) else { return };
        self.form.borrow_mut().set_player(seat, presenter::player_from_kind(kind));
        self.refresh_form();
    }

    pub(super) fn set_first_seat(&self, turn_index: i32) {
        let Ok(turn_index) = usize::try_from(turn_index) else { return };
        self.form.borrow_mut().set_first_seat(turn_index);
        self.refresh_form();
    }

    /// The engine program's time per move, from the form's list.
    pub(super) fn set_engine_move_time(&self, index: i32) {
        let Ok(index) = usize::try_from(index) else { return };
        self.form.borrow_mut().set_move_time_index(index);
        self.refresh_form();
    }

    /// The engine program's command line as the player types it.
    pub(super) fn set_engine_command(&self, command: &str) {
        self.form.borrow_mut().set_command(command);
        self.refresh_form();
    }

    pub(super) fn start_game(self: &Rc<Self>) {
        let form = self.form.borrow().clone();
        if !form.can_start() {
            return;
        }
        let config = form.config();
        if form.needs_command() {
            // The seats' driver reads it from the settings, and so does the next start.
            // Start with the command line on screen is the player's confirmation of it.
            self.settings.borrow_mut().engine_command = form.engine_command();
            self.settings.borrow_mut().engine_move_ms = form.move_ms();
            self.trusted_commands.borrow_mut().insert(form.engine_command());
        }
        self.begin(Session::new(config));
        self.settings.borrow_mut().last_config = Some(config);
        self.show_page(Page::Game);
        self.after_change(true);
    }

    /// Resume: back to the game. A command line the player changed on the form (Change…
    /// of a program waiting to start) becomes the engine program's, confirmed.
    pub(super) fn resume(self: &Rc<Self>) {
        let form = self.form.borrow().clone();
        let typed = form.engine_command();
        if form.needs_command() {
            // The time per move changes nothing that runs: it applies from the next move.
            self.settings.borrow_mut().engine_move_ms = form.move_ms();
        }
        if form.needs_command() && !typed.is_empty() && typed != self.settings.borrow().engine_command {
            self.settings.borrow_mut().engine_command = typed.clone();
            self.trusted_commands.borrow_mut().insert(typed);
            self.worker.clear_failure();
        }
        self.show_page(Page::Game);
        self.after_change(true);
    }

    /// Replaces the game by `session`, keeping the player's view of the board.
    pub(super) fn begin(&self, session: Session) {
        self.interrupt();
        let view = *self.session.borrow().view();
        *self.session.borrow_mut() = session.with_view(view);
        self.with_ui(UiState::game_begun);
    }

    pub(super) fn dismiss_load_problems(&self) {
        self.with_window(|w| bind::load_problems(w, Vec::new()));
    }

    // ----- Settings -----

    /// Shows the chosen language, or the system's while the player has chosen none.
    pub(super) fn apply_language(&self) {
        let chosen = self.settings.borrow().language.clone();
        let code = chosen.as_deref().and_then(locale::supported_language).unwrap_or_else(locale::system_language);
        self.show_language(code);
    }

    fn show_language(&self, code: &str) {
        // Every language of the menu is bundled: an error would mean a missing catalogue,
        // and the interface then stays in the language it had.
        if let Err(error) = slint::select_bundled_translation(code) {
            eprintln!("halma: no translation for '{code}': {error}");
        }
        let index = locale::LANGUAGES.iter().position(|(c, _)| *c == code).unwrap_or(0);
        self.with_window(|w| bind::language_index(w, index as i32));
    }

    /// The system's language changed (Android's per-app language or system locale): it
    /// applies unless the player chose a language in the app.
    pub(super) fn system_language_changed(&self, tag: &str) {
        if self.settings.borrow().language.is_some() {
            return;
        }
        self.show_language(locale::language_from_locale(tag));
    }

    pub(super) fn select_language(self: &Rc<Self>, index: i32) {
        let Some((code, _)) = usize::try_from(index).ok().and_then(|i| locale::LANGUAGES.get(i)) else { return };
        self.settings.borrow_mut().language = Some(code.to_string());
        self.apply_language();
        self.save();
    }

    pub(super) fn set_turning(self: &Rc<Self>, turning: BoardTurning) {
        self.settings.borrow_mut().orientation = presenter::orientation(turning);
        self.after_change(true);
    }
}
