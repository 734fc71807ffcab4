//! Pages and the new-game screen: the start, showing a page, Back and Esc, the new-game
//! form, starting and resuming a game, and the settings (language, board turning, theme).

use super::{analysis, begin, play};
use crate::effects::Effects;
use crate::interface::{BoardTurning, Page, PlayerKind, Question, ThemeChoice};
use crate::locale;
use crate::saving::Started;
use crate::session::Session;
use crate::setup_form::SetupForm;
use crate::state::{AppState, Facts, Replacement};
use crate::ui_state::BackStep;

/// The start: the saved settings and game, and what went wrong reading them (then the
/// new-game screen shows it, until dismissed).
pub(super) fn restored(state: &mut AppState, started: Started) -> Effects {
    for problem in &started.problems {
        eprintln!("halma: {}", problem.log_line());
    }
    state.messages.load_problems = started.problems.clone();
    state.settings = started.settings;
    if let Some(session) = started.session {
        state.session = session;
        state.ui.game_begun();
    }
    let settings = &state.settings;
    let config = settings.last_config.unwrap_or_default();
    state.form = SetupForm::from_config(config, &settings.engine_command, settings.engine_move_ms);
    let page = if state.messages.load_problems.is_empty() { Page::Game } else { Page::NewGame };
    state.ui.show(page);
    show_language(state).and(Effects::redraw())
}

/// A session to play, as if chosen on the new-game screen (tests and tools).
pub(super) fn begin_playing(state: &mut AppState, session: Session) -> Effects {
    let effects = super::leave_other_devices(state).and(begin(state, session));
    state.ui.show(Page::Game);
    effects.and(Effects::saved())
}

pub(super) fn show_page(state: &mut AppState, page: Page) -> Effects {
    state.ui.show(page);
    Effects::redraw()
}

/// From the rules or about page back to where the player came from.
pub(super) fn go_back(state: &mut AppState) -> Effects {
    state.ui.go_back();
    Effects::redraw()
}

pub(super) fn escape(state: &mut AppState, facts: &Facts) -> Effects {
    let step = state.ui.escape(state.board_has_choice(), facts.analysing);
    carry_out_back(state, step)
}

/// Android's Back: the dialog or question, the analysis, review, the preview, then the
/// selection, then the new-game screen, then the system closes the app.
pub(super) fn back(state: &mut AppState, facts: &Facts) -> Effects {
    let step = state.ui.back(state.board_has_choice(), facts.analysing);
    carry_out_back(state, step)
}

/// What is left to do after Back or Esc changed the interface state.
fn carry_out_back(state: &mut AppState, step: BackStep) -> Effects {
    match step {
        BackStep::CancelOnBoard => play::cancel(state).and(Effects::redraw()),
        BackStep::CancelAnalysis => analysis::cancel(),
        BackStep::LeaveGame => set_up(state),
        BackStep::LetSystemClose => Effects { let_system_close: true, ..Effects::none() },
        BackStep::CloseImport
        | BackStep::DismissQuestion
        | BackStep::LeaveReview
        | BackStep::Return
        | BackStep::Nothing => Effects::redraw(),
    }
}

/// The new-game screen to set up a different game: this game's configuration with the
/// first seat rotated, as New game would start it, unless nobody has moved yet (a newcomer
/// pressing Start keeps the first move). The game is kept.
pub(super) fn set_up(state: &mut AppState) -> Effects {
    state.ui.set_up();
    state.session.clear_selection();
    if state.ui.has_game() {
        let config = if state.session.game().history().is_empty() {
            *state.session.config()
        } else {
            state.session.next_config()
        };
        state.form = SetupForm::from_config(config, state.form.command(), state.form.move_ms());
    }
    Effects::saved()
}

/// A change on the new-game form.
pub(super) fn edit_form(state: &mut AppState, edit: impl FnOnce(&mut SetupForm)) -> Effects {
    edit(&mut state.form);
    Effects::redraw()
}

pub(super) fn set_seat_player(state: &mut AppState, seat: i32, kind: PlayerKind) -> Effects {
    let Some(seat) = crate::interface::seat_from_index(seat) else { return Effects::none() };
    edit_form(state, |form| form.set_player(seat, kind.into()))
}

pub(super) fn set_first_seat(state: &mut AppState, turn_index: i32) -> Effects {
    let Ok(turn_index) = usize::try_from(turn_index) else { return Effects::none() };
    edit_form(state, |form| form.set_first_seat(turn_index))
}

/// The engine program's time per move, from the form's list.
pub(super) fn set_engine_move_time(state: &mut AppState, index: i32) -> Effects {
    let Ok(index) = usize::try_from(index) else { return Effects::none() };
    edit_form(state, |form| form.set_move_time_index(index))
}

/// Start: the form's game. The command line on screen is the player's confirmation of it.
pub(super) fn start(state: &mut AppState) -> Effects {
    let form = state.form.clone();
    if !form.can_start() {
        return Effects::none();
    }
    let config = form.config();
    if form.needs_command() {
        // The seats' driver reads it from the settings, and so does the next start.
        state.settings.engine_command = form.engine_command();
        state.settings.engine_move_ms = form.move_ms();
        state.trusted_commands.insert(form.engine_command());
    }
    state.settings.last_config = Some(config);
    // A game by message keeps the game on this device aside; any other takes its place.
    if config.friend_seats().is_empty() && state.unfinished_game_at_stake() {
        state.replacing = Some(Replacement::Start);
        state.ui.show(Page::Game);
        state.ui.ask(Question::Replace);
        return Effects::redraw();
    }
    start_agreed(state)
}

/// Start, once nothing is at stake or the player agreed to replace the unfinished game.
pub(super) fn start_agreed(state: &mut AppState) -> Effects {
    let config = state.form.config();
    if !config.friend_seats().is_empty() {
        let closed = super::nearby::detach(state);
        return closed.and(super::correspondence::start(state, config));
    }
    if !config.nearby_seats().is_empty() {
        super::correspondence::detach(state);
        return super::nearby::host(state, config);
    }
    let effects = super::leave_other_devices(state).and(begin(state, Session::new(config)));
    state.ui.show(Page::Game);
    effects.and(Effects::saved())
}

/// Resume: back to the game. A command line the player changed on the form (Change… of a
/// program waiting to start) becomes the engine program's, confirmed.
pub(super) fn resume(state: &mut AppState) -> Effects {
    let form = &state.form;
    let typed = form.engine_command();
    if form.needs_command() {
        // The time per move changes nothing that runs: it applies from the next move.
        state.settings.engine_move_ms = form.move_ms();
    }
    if state.form.needs_command() && !typed.is_empty() && typed != state.settings.engine_command {
        state.settings.engine_command = typed.clone();
        state.trusted_commands.insert(typed);
        state.seat_failure = None;
    }
    state.ui.show(Page::Game);
    Effects::saved()
}

pub(super) fn dismiss_load_problems(state: &mut AppState) -> Effects {
    state.messages.load_problems.clear();
    Effects::redraw()
}

/// The language the player chose, or the system's while the player has chosen none.
fn show_language(state: &mut AppState) -> Effects {
    let chosen = state.settings.language.as_deref();
    state.language = chosen.and_then(locale::supported_language).unwrap_or_else(locale::system_language);
    Effects { language: true, ..Effects::redraw() }
}

pub(super) fn select_language(state: &mut AppState, index: i32) -> Effects {
    let Some((code, _)) = usize::try_from(index).ok().and_then(|i| locale::LANGUAGES.get(i)) else {
        return Effects::none();
    };
    state.settings.language = Some(code.to_string());
    show_language(state).and(Effects::saved())
}

/// The system's language changed (Android's per-app language or system locale): it
/// applies unless the player chose a language in the app.
pub(super) fn system_language(state: &mut AppState, tag: &str) -> Effects {
    if state.settings.language.is_some() {
        return Effects::none();
    }
    state.language = locale::language_from_locale(tag);
    Effects { language: true, ..Effects::redraw() }
}

pub(super) fn set_turning(state: &mut AppState, turning: BoardTurning) -> Effects {
    state.settings.orientation = turning.into();
    Effects::saved()
}

pub(super) fn set_theme(state: &mut AppState, theme: ThemeChoice) -> Effects {
    state.settings.theme = theme.into();
    Effects::saved()
}

pub(super) fn set_sound(state: &mut AppState, on: bool) -> Effects {
    state.settings.sound = on;
    Effects::saved()
}

/// Haptic feedback on or off (the menu offers it on Android only).
pub(super) fn set_vibration(state: &mut AppState, on: bool) -> Effects {
    state.settings.vibration = on;
    Effects::saved()
}
