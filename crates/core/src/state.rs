//! The app's whole state in one place: the session, the settings, the new-game form, the
//! interface state and every message the window shows. The controller owns the one
//! `AppState`; the actions (`actions`) change it and the presenter reads it. Nothing here
//! runs, waits or draws: what runs in the background (searches, the analysis, timers)
//! stays with the controller and is seen by the actions as [`Facts`].

use super::animation::Animation;
use super::setup_form::SetupForm;
use super::ui_state::UiState;
use crate::boards::Cover;
use crate::effects::Effects;
use crate::jobs::JobKind;
use crate::locale;
use crate::players::FailureKind;
use crate::record_trouble::Trouble;
use crate::saving::StartProblem;
use crate::session::{GameConfig, Player, Session};
use crate::settings::Settings;
use crate::storage::SaveFailure;
use crate::tap_target::TapMemory;
use std::collections::HashSet;

/// Everything the window shows, and what it is made from.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The game the board shows and plays: the top of the stack of boards.
    pub session: Session,
    /// The games `session` covers, the live game at the bottom (`boards`).
    pub boards: crate::boards::Boards,
    pub settings: Settings,
    pub form: SetupForm,
    /// Page, question or dialog, menu, review, cursor, whether there is a game.
    pub ui: UiState,
    pub messages: Messages,
    /// The language the interface is shown in (a code of `locale::LANGUAGES`).
    pub language: &'static str,
    /// The move being shown hop by hop.
    pub animation: Option<Animation>,
    /// Why the seat to move's computer or engine program failed: it waits for Retry
    /// instead of thinking again forever.
    pub seat_failure: Option<FailureKind>,
    /// The engine command lines the player allowed to start in this run of the app. Never
    /// saved: a command line read from a file (settings, a save) starts nothing until the
    /// player confirms it, since data folders are copied and synced between machines.
    pub trusted_commands: HashSet<String>,
    /// The board viewport's size, for the Flickable's offset.
    pub viewport: (f32, f32),
    /// What the last touch tap leaves for the next one (joint decoding, `app::tap_target`).
    pub touch: TapMemory,
    /// The loupe under a resting finger, while it shows.
    pub loupe: Option<Loupe>,
    /// The Train page's puzzle, with its own game: never the live game, never saved.
    pub training: Option<crate::training::Training>,
    /// The first-game guide while it runs, with its own game: never the live game, never
    /// saved.
    pub guide: Option<crate::guide::Guide>,
    /// Whether a newcomer's first start opens the guide (tests and tools on fresh data
    /// folders start without it).
    pub offer_guide: bool,
    /// The games by message (#40) and which one is shown.
    pub by_message: super::by_message::ByMessage,
    /// The game over the local network (#40), while the shown game is one.
    pub nearby: Option<super::nearby::Nearby>,
    /// The join dialog, while it is open.
    pub join: Option<JoinForm>,
    /// An action that would replace the unfinished game on this device, held while
    /// the player is asked (`Question::Replace`).
    pub replacing: Option<Replacement>,
}

/// What takes the place of the game on this device once the player says yes.
#[derive(Clone, Debug)]
pub enum Replacement {
    /// An imported record's game, in review from its start when `review`.
    Import { session: Box<Session>, review: bool },
    /// The new-game form's game (Start).
    Start,
    /// A game nearby, joined with this code at this address (both already checked).
    Join { code: crate::lan::JoinCode, addr: std::net::SocketAddr },
}

/// The dialog that joins a game nearby.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JoinForm {
    /// The hosts found on the network: their game and address.
    pub hosts: Vec<(crate::correspondence::GameId, std::net::SocketAddr)>,
    /// Why the last Join did nothing.
    pub trouble: Option<JoinTrouble>,
    /// Join was pressed: the link reaches for the host.
    pub connecting: bool,
}

/// Why a join did not happen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinTrouble {
    /// The code is not 6 letters and digits of the code's alphabet.
    Code,
    /// The address is not an address and a port.
    Address,
    /// The host refused the join, or could not be reached.
    Ended(super::nearby::Ending),
}

/// The loupe under a finger resting on a board of squares smaller than a finger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loupe {
    /// The display cell (column, row) a release there would choose, as `tap_target`
    /// decides it; `None` when nothing would be chosen (off the board).
    pub target: Option<(i32, i32)>,
}

/// The messages the window shows until something ends them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Messages {
    /// Copy game was done: `Some` with the file it was also saved to (or empty), until
    /// the game changes.
    pub copied: Option<String>,
    /// Why the pasted record was refused, at which line.
    pub import_trouble: Option<(usize, Trouble)>,
    /// What went wrong with the saved files at start, until dismissed.
    pub load_problems: Vec<StartProblem>,
    /// The last analysis failed (told under Analyse until another starts).
    pub analysis_failed: bool,
    /// Why the last save failed, until a save succeeds.
    pub save_failure: Option<SaveFailure>,
}

/// What the actions may know of what runs in the background, read by the controller just
/// before each action (never kept, so never stale).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// Which search runs (a seat's or the hint's), if any.
    pub busy: Option<JobKind>,
    /// An analysis of the game runs.
    pub analysing: bool,
}

impl Default for AppState {
    fn default() -> AppState {
        AppState {
            session: Session::new(GameConfig::default()),
            boards: Default::default(),
            settings: Settings::default(),
            form: SetupForm::default(),
            ui: UiState::default(),
            messages: Messages::default(),
            language: locale::LANGUAGES[0].0,
            animation: None,
            seat_failure: None,
            trusted_commands: HashSet::new(),
            viewport: (0.0, 0.0),
            touch: TapMemory::default(),
            loupe: None,
            training: None,
            guide: None,
            offer_guide: true,
            by_message: Default::default(),
            nearby: None,
            join: None,
            replacing: None,
        }
    }
}

impl AppState {
    /// The command line of the engine program to move, while it waits for the player's
    /// confirmation before it is started ("Start …?").
    pub fn program_awaits_confirmation(&self) -> Option<String> {
        if !self.ui.has_game() || self.session.driven_to_move() != Some(Player::Program) {
            return None;
        }
        let command = &self.settings.engine_command;
        (!self.trusted_commands.contains(command)).then(|| command.clone())
    }

    /// The puzzle's game when the Train page shows it (the board then shows and plays it).
    pub fn training_shown(&self) -> Option<&Session> {
        self.training
            .as_ref()
            .filter(|_| self.ui.page() == crate::interface::Page::Train)
            .map(|training| &training.session)
    }

    /// The guide's game while the guide runs: the game page's board, status and action bar
    /// show and play it.
    pub fn guide_shown(&self) -> Option<&Session> {
        self.guide.as_ref().map(crate::guide::Guide::session)
    }

    /// True when another game taking the board's place would lose moves: the game on
    /// this device (shown, or kept aside while a game by message is shown) is started
    /// and not over. Games by message are kept in their own files and never at stake.
    pub fn unfinished_game_at_stake(&self) -> bool {
        self.live_session().is_some_and(Session::is_unfinished)
    }

    /// True while a preview or a selection is on the board.
    pub fn board_has_choice(&self) -> bool {
        let interaction = self.session.interaction();
        interaction.has_preview() || interaction.selected.is_some()
    }
}

/// The stack of boards (`boards`): the one way another game covers the live one.
impl AppState {
    /// Puts `session` on top of the board, the game shown until now kept below it.
    pub fn cover(&mut self, cover: Cover, session: Session) {
        let below = std::mem::replace(&mut self.session, session);
        self.boards.push(cover, below);
    }

    /// Takes the top game off when `cover` is what covers (gives it back); the game below
    /// it is on top again. Nothing changes when the top is not covering by `cover`.
    pub fn uncover(&mut self, cover: Cover) -> Option<Session> {
        let below = self.boards.pop(cover)?;
        Some(std::mem::replace(&mut self.session, below))
    }

    /// Drops every game below the top that `cover` covers (the top becomes the live game):
    /// a new game took the board's place and the one set aside is the device's no more.
    pub fn forget_covered(&mut self, cover: Cover) {
        self.boards.forget(cover);
    }

    /// The live game, wherever it is in the stack: while a game by message is shown, the
    /// game it covers (none when there was none); else the bottom of the stack, or the
    /// shown game when nothing covers it and there is one.
    pub fn live_session(&self) -> Option<&Session> {
        if self.by_message.active.is_some() {
            return self.boards.under(Cover::ByMessage);
        }
        match self.boards.bottom() {
            Some(bottom) => Some(bottom),
            None => self.ui.has_game().then_some(&self.session),
        }
    }

    /// `action` with `board` on top of the stack (covering by `cover`), taken off after:
    /// the guide's and the puzzles' games, which their owners keep between events. What
    /// the action would start or stop for the game below (its computer, the hint, the
    /// analysis) is not done, and its seat failure stays as it was.
    pub fn on_covering_board(
        &mut self,
        cover: Cover,
        board: &mut Session,
        action: impl FnOnce(&mut AppState) -> Effects,
    ) -> Effects {
        let seat_failure = self.seat_failure;
        // A new game's session stands in the owner's place meanwhile (cheap: a start position).
        let placeholder = Session::new(GameConfig::default());
        self.cover(cover, std::mem::replace(board, placeholder));
        let mut effects = action(self);
        if let Some(session) = self.uncover(cover) {
            *board = session;
        }
        self.seat_failure = seat_failure;
        effects.stop_search = false;
        effects.start_hint = false;
        effects.start_analysis = false;
        effects.stop_analysis = false;
        effects
    }
}
