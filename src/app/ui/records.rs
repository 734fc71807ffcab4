//! Game records in the app: Copy game (the record on the clipboard, and on the desktop
//! also a file), and import: a pasted record becomes the game, to play on or to review.
//! A record that cannot be read leaves the current game as it was.

use super::controller::Controller;
use crate::app::session::{GameConfig, Player, Session};
use crate::app::storage;
use crate::record::{date_of_unix_time, Record, RecordProblem};
use crate::{Page, RecordTrouble, Records};
use slint::{ComponentHandle, SharedString};
use std::rc::Rc;

/// The current game as a record, with who plays each seat and today's date.
pub fn record_of(session: &Session, unix_time: u64) -> Record {
    let mut record = Record::new(session.game().clone());
    for &seat in session.game().setup().seats() {
        record.players[seat.index()] = Some(session.config().player(seat).into());
    }
    record.date = Some(date_of_unix_time(unix_time));
    record
}

/// A refused record as the import dialog tells it: the kind of trouble, the text at
/// fault (a move, a tag line, a round number) and the action's number (0 if none).
pub fn trouble(problem: &RecordProblem) -> (RecordTrouble, String, usize) {
    use RecordProblem::*;
    match problem {
        TooLarge { .. } => (RecordTrouble::TooLarge, String::new(), 0),
        Empty => (RecordTrouble::Empty, String::new(), 0),
        NotARecord { .. } | Version { .. } => (RecordTrouble::NotARecord, String::new(), 0),
        MalformedTag { text } | TagAfterMoves { text } | UnknownSetup { text } | Teams { text, .. } => {
            (RecordTrouble::Header, text.clone(), 0)
        }
        BadSeat { text, .. } | BadPlayer { text } | BadDate { text } | BadResult { text } => {
            (RecordTrouble::Header, text.clone(), 0)
        }
        UnknownTag { name } | DuplicateTag { name } => (RecordTrouble::Header, name.clone(), 0),
        MissingTag { name } => (RecordTrouble::Header, format!("[{name} \"…\"]"), 0),
        SeatNotInPlay { seat, .. } => (RecordTrouble::Seats, seat.to_string(), 0),
        Start(error) => (RecordTrouble::Header, error.to_string(), 0),
        StartMismatch => (RecordTrouble::Header, "Start".to_string(), 0),
        MoveNumber { text, .. } => (RecordTrouble::MoveNumber, text.clone(), 0),
        MalformedMove { action, error } => (RecordTrouble::MalformedMove, error.to_string(), *action),
        IllegalMove { text, action, .. } => (RecordTrouble::IllegalMove, text.clone(), *action),
        Vote { text, .. } => (RecordTrouble::Vote, text.clone(), 0),
        TooManyActions { .. } => (RecordTrouble::TooManyActions, String::new(), 0),
        ResultMismatch { .. } => (RecordTrouble::ResultMismatch, String::new(), 0),
    }
}

/// The game of a record with its players (another program's seat is played by a person).
pub fn session_of(record: Record) -> Option<Session> {
    let game = record.game;
    let mut players = [Player::Human; 4];
    for (player, recorded) in players.iter_mut().zip(record.players) {
        if let Some(Ok(recorded)) = recorded.map(Player::try_from) {
            *player = recorded;
        }
    }
    let config = GameConfig { setup: game.setup(), first: game.first_seat(), players };
    Session::with_game(config, game).ok()
}

impl Controller {
    /// Copy game: the record's text for the clipboard; on the desktop it is also saved.
    pub(super) fn export_record(&self) -> SharedString {
        let now = storage::now_unix_time();
        let text = record_of(&self.session.borrow(), now).to_text();
        let saved = match &self.store {
            Some(store) if !cfg!(target_os = "android") => store.save_record(&format!("halma-{now}.txt"), &text).ok(),
            _ => None,
        };
        self.with_window(|w| {
            let records = w.global::<Records>();
            records.set_copied(true);
            records.set_saved_to(saved.map(|path| path.display().to_string()).unwrap_or_default().into());
        });
        text.into()
    }

    pub(super) fn open_import(&self) {
        self.with_window(|w| {
            let records = w.global::<Records>();
            records.set_error_line(-1);
            records.set_trouble(RecordTrouble::None);
            records.set_error(SharedString::new());
            records.set_importing(true);
        });
    }

    pub(super) fn import_open(&self) -> bool {
        self.window.upgrade().is_some_and(|w| w.global::<Records>().get_importing())
    }

    pub(super) fn close_import(&self) {
        self.with_window(|w| w.global::<Records>().set_importing(false));
    }

    /// Reads a pasted record: on success it becomes the game (in review from its start
    /// when `review`); otherwise the line and the problem are shown and nothing changes.
    pub(super) fn import_record(self: &Rc<Self>, text: SharedString, review: bool) {
        let parsed = Record::parse(&text);
        let session = match parsed {
            Ok(record) => session_of(record).ok_or((0, (RecordTrouble::Seats, String::new(), 0))),
            Err(error) => Err((error.line(), trouble(error.problem()))),
        };
        match session {
            Ok(session) => {
                self.close_import();
                self.begin(session);
                self.show_page(Page::Game);
                if review {
                    self.review.set(Some(0));
                }
                self.after_change(true);
            }
            Err((line, (kind, detail, action))) => self.with_window(|w| {
                let records = w.global::<Records>();
                records.set_error_line(line as i32);
                records.set_trouble(kind);
                records.set_error(detail.into());
                records.set_error_action(action as i32);
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Level;
    use crate::rules::{Seat, Setup, Square};

    #[test]
    fn a_record_round_trip_keeps_the_game_and_its_players() {
        let config = GameConfig {
            setup: Setup::ThreePlayers,
            first: Seat::B,
            players: [Player::Human, Player::Computer(Level::Strong), Player::Human, Player::Human],
        };
        let mut session = Session::new(config);
        let square = |name: &str| name.parse::<Square>().unwrap_or(Square::from_index(0));
        assert!(session.play_route(&[square("b13"), square("c12")]).is_ok());
        let record = record_of(&session, 0);
        assert_eq!(record.date.as_deref(), Some("1970.01.01"));
        let back = Record::parse(&record.to_text()).ok().and_then(session_of);
        let back = back.expect("the record reads back");
        assert_eq!(back.game(), session.game());
        assert_eq!(back.config(), session.config());
    }
}
