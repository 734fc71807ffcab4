//! Game records: Copy game (the record on the clipboard, and on the desktop also a file),
//! and import: a pasted record becomes the game, to play on or to review. A record that
//! cannot be read leaves the current game as it was, and its trouble is told.

use super::begin;
use crate::app::records::{record_of, session_of};
use crate::app::session::Session;
use crate::app::ui::effects::{Copy, Effects};
use crate::app::ui::record_presenter::{trouble, Trouble};
use crate::app::ui::state::{AppState, Replacement};
use crate::record::Record;
use crate::{Page, Question, RecordTrouble};

/// Copy game: the record's text for the clipboard; on the desktop it is also saved.
pub(super) fn copy_game(state: &mut AppState, unix_time: u64) -> Effects {
    let text = record_of(&state.session, &state.settings.engine_command, unix_time).to_text();
    let file_name = (!cfg!(target_os = "android")).then(|| format!("halma-{unix_time}.txt"));
    Effects { copy: Some(Copy { text, file_name }), ..Effects::redraw() }
}

pub(super) fn open_import(state: &mut AppState) -> Effects {
    state.ui.open_import();
    state.messages.import_trouble = None;
    Effects::redraw()
}

pub(super) fn close_import(state: &mut AppState) -> Effects {
    state.ui.close_import();
    Effects::redraw()
}

/// Reads a pasted record: on success it becomes the game (in review from its start when
/// `review`), after the player's yes if an unfinished game would be replaced; otherwise
/// the line and the trouble are told and nothing changes.
pub(super) fn import(state: &mut AppState, text: &str, review: bool) -> Effects {
    let session = match Record::parse(text) {
        Ok(record) => session_of(record).ok_or((0, Trouble::new(RecordTrouble::Seats, ""))),
        Err(error) => {
            eprintln!("halma: the pasted record was refused: {error}");
            Err((error.line(), trouble(error.problem())))
        }
    };
    match session {
        Ok(session) if state.unfinished_game_at_stake() => {
            state.ui.close_import();
            state.ui.show(Page::Game);
            state.replacing = Some(Replacement::Import { session: Box::new(session), review });
            state.ui.ask(Question::Replace);
            Effects::redraw()
        }
        Ok(session) => {
            state.ui.close_import();
            take_place(state, session, review)
        }
        Err(trouble) => {
            state.messages.import_trouble = Some(trouble);
            Effects::redraw()
        }
    }
}

/// The imported game takes the board's place (the player agreed, or nothing was at stake).
pub(super) fn take_place(state: &mut AppState, session: Session, review: bool) -> Effects {
    let effects = super::leave_other_devices(state).and(begin(state, session));
    state.ui.show(Page::Game);
    if review {
        state.ui.review_from_start();
    }
    effects.and(Effects::saved())
}
