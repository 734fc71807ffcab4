//! Game records in the app: Copy game (the record on the clipboard, and on the desktop
//! also a file), and import: a pasted record becomes the game, to play on or to review.
//! A record that cannot be read leaves the current game as it was.

use super::bind;
use super::controller::Controller;
use super::ui_state::UiState;
use crate::ai::analysis::GameAnalysis;
use crate::app::session::{GameConfig, Player, Session};
use crate::app::storage;
use crate::record::{date_of_unix_time, Record, RecordProblem};
use crate::rules::NotationError;
use crate::{Page, RecordDetail, RecordTrouble};
use slint::SharedString;
use std::rc::Rc;

/// The current game as a record, with who plays each seat (an engine program by its
/// command line `program`) and today's date.
pub fn record_of(session: &Session, program: &str, unix_time: u64) -> Record {
    let mut record = Record::new(session.game().clone());
    for &seat in session.game().setup().seats() {
        record.players[seat.index()] = Some(session.config().player(seat).recorded(program));
    }
    if let Some(analysis) = session.analysis() {
        record.set_analysis(analysis);
    }
    record.date = Some(date_of_unix_time(unix_time));
    record
}

/// A refused record as the import dialog tells it. Nothing here is English: the dialog
/// words `kind` and `detail` with translated strings, and `text` is the record's own text
/// at fault (a tag line, a round number, a move, a square, a seat letter). The parser's
/// English message (`RecordError`'s `Display`) goes to the log only.
#[derive(Clone, Debug, PartialEq)]
pub struct Trouble {
    pub kind: RecordTrouble,
    pub detail: RecordDetail,
    pub text: String,
    /// The action's number in the game (1-based), 0 if none.
    pub action: usize,
    /// A row of the Start position (1..16), 0 if none.
    pub row: i32,
    /// A count: of fields, rows, squares, pieces or turns played.
    pub count: i32,
    /// An army's size.
    pub limit: i32,
}

impl Trouble {
    fn new(kind: RecordTrouble, text: impl Into<String>) -> Self {
        Trouble { kind, detail: RecordDetail::Text, text: text.into(), action: 0, row: 0, count: 0, limit: 0 }
    }

    fn worded(mut self, detail: RecordDetail) -> Self {
        self.detail = detail;
        self
    }
}

/// Clamps a count from the input for the interface's `int`.
pub(super) fn int(value: impl TryInto<i32>) -> i32 {
    value.try_into().unwrap_or(i32::MAX)
}

/// The trouble of a refused record: its kind and, where the record's own text does not
/// say what is wrong, a reason of its own.
pub fn trouble(problem: &RecordProblem) -> Trouble {
    use RecordProblem::*;
    match problem {
        TooLarge { .. } => Trouble::new(RecordTrouble::TooLarge, ""),
        Empty => Trouble::new(RecordTrouble::Empty, ""),
        NotARecord { .. } | Version { .. } => Trouble::new(RecordTrouble::NotARecord, ""),
        MalformedTag { text } | TagAfterMoves { text } | UnknownSetup { text } | Teams { text, .. } => {
            Trouble::new(RecordTrouble::Header, text.as_str())
        }
        BadSeat { text, .. } | BadPlayer { text } | BadDate { text } | BadResult { text } => {
            Trouble::new(RecordTrouble::Header, text.as_str())
        }
        UnknownTag { name } | DuplicateTag { name } => Trouble::new(RecordTrouble::Header, name.as_str()),
        MissingTag { name } => Trouble::new(RecordTrouble::Header, *name).worded(RecordDetail::MissingTag),
        SeatNotInPlay { seat, .. } => Trouble::new(RecordTrouble::Seats, seat.to_string()),
        Start(error) => notation(Trouble::new(RecordTrouble::Header, ""), error),
        StartMismatch => Trouble::new(RecordTrouble::Header, "").worded(RecordDetail::StartMismatch),
        MoveNumber { text, .. } => Trouble::new(RecordTrouble::MoveNumber, text.as_str()),
        MalformedMove { action, error } => {
            notation(Trouble { action: *action, ..Trouble::new(RecordTrouble::MalformedMove, "") }, error)
        }
        IllegalMove { text, action, .. } => {
            Trouble { action: *action, ..Trouble::new(RecordTrouble::IllegalMove, text.as_str()) }
        }
        Vote { text, .. } => Trouble::new(RecordTrouble::Vote, text.as_str()),
        TooManyActions { .. } => Trouble::new(RecordTrouble::TooManyActions, ""),
        ResultMismatch { .. } => Trouble::new(RecordTrouble::ResultMismatch, ""),
        // A comment stands after `after` actions (0: before the first).
        UnterminatedComment { text, after } => {
            Trouble { action: *after, ..Trouble::new(RecordTrouble::CommentUnterminated, text.as_str()) }
        }
        CommentTooLong { bytes, limit, after } => Trouble {
            action: *after,
            count: int(*bytes),
            limit: int(*limit),
            ..Trouble::new(RecordTrouble::CommentTooLong, "")
        },
    }
}

/// What the notation refused in a move or in the Start position, as a reason of its own.
fn notation(trouble: Trouble, error: &NotationError) -> Trouble {
    use NotationError::*;
    let text = |text: &str| Trouble { text: text.to_owned(), ..trouble.clone() };
    match error {
        MoveTooLong { text: move_text } => text(move_text).worded(RecordDetail::MoveTooLong),
        MoveSquare { error, .. } => text(error.text()).worded(RecordDetail::NotASquare),
        MoveTooShort { text: move_text } => text(move_text).worded(RecordDetail::MoveTooShort),
        MoveTooManySquares { text: move_text } => text(move_text).worded(RecordDetail::MoveTooManySquares),
        HpnFields(count) => Trouble { count: int(*count), ..trouble }.worded(RecordDetail::StartFields),
        HpnSetup(error) => text(error.text()).worded(RecordDetail::StartSetup),
        HpnSeat(error) => text(error.text()).worded(RecordDetail::StartSeat),
        HpnSeatNotInPlay { seat, .. } => text(&seat.to_string()).worded(RecordDetail::StartSeatNotInPlay),
        HpnPlies(plies) => text(plies).worded(RecordDetail::StartPlies),
        HpnTooManyPlies(plies) => Trouble { count: int(*plies), ..trouble }.worded(RecordDetail::StartTooManyPlies),
        HpnRowCount(count) => Trouble { count: int(*count), ..trouble }.worded(RecordDetail::StartRows),
        HpnRun { row } => Trouble { row: *row, ..trouble }.worded(RecordDetail::StartRun),
        HpnCharacter { character, row } => {
            Trouble { row: *row, ..text(&character.to_string()) }.worded(RecordDetail::StartCharacter)
        }
        HpnRowTooLong { row } => Trouble { row: *row, ..trouble }.worded(RecordDetail::StartRowTooLong),
        HpnRowTooShort { row, squares } => {
            Trouble { row: *row, count: *squares, ..trouble }.worded(RecordDetail::StartRowTooShort)
        }
        HpnArmy { seat, count, army } => {
            Trouble { count: int(*count), limit: int(*army), ..text(&seat.to_string()) }.worded(RecordDetail::StartArmy)
        }
    }
}

/// The game of a record with its players (another program's seat is played by a person).
pub fn session_of(record: Record) -> Option<Session> {
    // An analysis in the comments comes with the game, shown at once; a damaged one is told.
    let claims_analysis = record.claims_analysis();
    let analysis = record
        .analysis()
        .and_then(|recorded| GameAnalysis::from_verdicts(&record.game, recorded.quality, recorded.actions));
    let game = record.game;
    let mut players = [Player::Human; 4];
    for (player, recorded) in players.iter_mut().zip(record.players) {
        if let Some(Ok(recorded)) = recorded.map(Player::try_from) {
            *player = recorded;
        }
    }
    let config = GameConfig { setup: game.setup(), first: game.first_seat(), players };
    let mut session = Session::with_game(config, game).ok()?;
    match analysis {
        Some(analysis) => {
            session.set_analysis(analysis);
        }
        None if claims_analysis => session.note_unreadable_analysis(),
        None => {}
    }
    Some(session)
}

impl Controller {
    /// Copy game: the record's text for the clipboard; on the desktop it is also saved.
    pub(super) fn export_record(&self) -> SharedString {
        let now = storage::now_unix_time();
        let text = record_of(&self.session.borrow(), &self.settings.borrow().engine_command, now).to_text();
        let saved = match &self.saving.store {
            Some(store) if !cfg!(target_os = "android") => store.save_record(&format!("halma-{now}.txt"), &text).ok(),
            _ => None,
        };
        let saved_to = saved.map(|path| path.display().to_string()).unwrap_or_default();
        self.with_window(|w| bind::copied(w, Some(saved_to)));
        text.into()
    }

    pub(super) fn open_import(&self) {
        self.with_ui(UiState::open_import);
        self.with_window(|w| bind::import_trouble(w, None));
        self.refresh();
    }

    pub(super) fn close_import(&self) {
        self.with_ui(UiState::close_import);
        self.refresh();
    }

    /// Reads a pasted record: on success it becomes the game (in review from its start
    /// when `review`); otherwise the line and the problem are shown and nothing changes.
    pub(super) fn import_record(self: &Rc<Self>, text: SharedString, review: bool) {
        let parsed = Record::parse(&text);
        let session = match parsed {
            Ok(record) => session_of(record).ok_or((0, Trouble::new(RecordTrouble::Seats, ""))),
            Err(error) => {
                eprintln!("halma: the pasted record was refused: {error}");
                Err((error.line(), trouble(error.problem())))
            }
        };
        match session {
            Ok(session) => {
                self.begin(session);
                self.with_ui(|ui| {
                    ui.close_import();
                    ui.show(Page::Game);
                    if review {
                        ui.review_from_start();
                    }
                });
                self.after_change(true);
            }
            Err((line, trouble)) => self.with_window(|w| bind::import_trouble(w, Some((line, trouble)))),
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
        let record = record_of(&session, "", 0);
        assert_eq!(record.date.as_deref(), Some("1970.01.01"));
        let back = Record::parse(&record.to_text()).ok().and_then(session_of);
        let back = back.expect("the record reads back");
        assert_eq!(back.game(), session.game());
        assert_eq!(back.config(), session.config());
    }

    #[test]
    fn an_engine_program_is_recorded_by_its_command_and_imported_as_a_person() {
        let config = GameConfig {
            setup: Setup::TwoPlayers,
            first: Seat::A,
            players: [Player::Human, Player::Human, Player::Program, Player::Human],
        };
        let text = record_of(&Session::new(config), " /usr/bin/some-engine --fast ", 0).to_text();
        assert!(text.contains("[C \"Program /usr/bin/some-engine --fast\"]"), "{text}");
        let back = Record::parse(&text).ok().and_then(session_of).expect("the record reads back");
        assert_eq!(back.config().player(Seat::C), Player::Human, "this app's program may not be the record's");
    }

    /// What the import dialog is given for a record: never the parser's English, only a
    /// kind, a reason and the record's own text at fault.
    fn refused(text: &str) -> Trouble {
        match Record::parse(text) {
            Ok(_) => panic!("the record was read:\n{text}"),
            Err(error) => trouble(error.problem()),
        }
    }

    /// Copy game writes the analysis as comments; importing that record shows it at once.
    #[test]
    fn an_analysed_game_travels_with_its_analysis() {
        use crate::ai::analysis::{self, AnalysisRequest, Quality};
        let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4] };
        let mut session = Session::new(config);
        let square = |name: &str| name.parse::<Square>().unwrap_or(Square::from_index(0));
        for (from, to) in [("e2", "f3"), ("m15", "l14"), ("d2", "d4")] {
            assert!(session.play_route(&[square(from), square(to)]).is_ok());
        }
        let request = AnalysisRequest::new(Quality::QUICK).with_threads(1);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let analysed = analysis::analyse(session.game(), &request, &stop, &mut |_, _| {});
        assert!(session.set_analysis(analysed.unwrap_or_else(|error| panic!("{error}"))));
        let text = record_of(&session, "", 0).to_text();
        assert!(text.contains("{ analysis depth 3 }"), "{text}");
        let back = Record::parse(&text).ok().and_then(session_of);
        assert_eq!(back.as_ref().and_then(Session::analysis), session.analysis());
        // A broken verdict: the game still comes, without an analysis.
        let broken = text.replacen("steps lost", "steps", 1);
        let back = Record::parse(&broken).ok().and_then(session_of);
        assert_eq!(back.as_ref().map(|back| (back.analysis().is_none(), back.game().history().len())), Some((true, 3)));
        // ... and the player hears that its analysis could not be read, never silence.
        assert_eq!(back.map(|back| back.notice()), Some(crate::app::session::Notice::AnalysisUnreadable));
        let plain = record_of(&Session::new(config), "", 0).to_text();
        let plain = Record::parse(&plain).ok().and_then(session_of);
        assert_eq!(
            plain.map(|plain| plain.notice()),
            Some(crate::app::session::Notice::None),
            "no analysis, nothing to tell"
        );
    }

    #[test]
    fn a_malformed_comment_is_told_as_a_comment() {
        let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4] };
        let header = record_of(&Session::new(config), "", 0).to_text();
        let open = refused(&format!("{header}\n1. c3-d4 {{ a note\n"));
        assert_eq!((open.kind, open.action), (RecordTrouble::CommentUnterminated, 1));
        let long = "x".repeat(crate::record::MAX_COMMENT_BYTES + 1);
        let long = refused(&format!("{header}\n{{ {long} }}\n1. c3-d4\n"));
        assert_eq!((long.kind, long.action), (RecordTrouble::CommentTooLong, 0));
        assert_eq!(long.limit, crate::record::MAX_COMMENT_BYTES as i32);
    }

    #[test]
    fn a_refused_record_is_told_by_a_typed_reason_with_its_own_text() {
        let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4] };
        let header = record_of(&Session::new(config), "", 0).to_text();
        let with_start = |hpn: &str| header.replace("[Result", &format!("[Start \"{hpn}\"]\n[Result"));
        let blank = Trouble::new(RecordTrouble::Header, "");
        let cases = [
            (
                format!("{header}\n1. c3-z9\n"),
                Trouble { action: 1, ..Trouble::new(RecordTrouble::MalformedMove, "z9") }
                    .worded(RecordDetail::NotASquare),
            ),
            (
                format!("{header}\n1. c3\n"),
                Trouble { action: 1, ..Trouble::new(RecordTrouble::MalformedMove, "c3") }
                    .worded(RecordDetail::MoveTooShort),
            ),
            (
                format!("{header}\n1. c3-e5x\n"),
                Trouble { action: 1, ..Trouble::new(RecordTrouble::MalformedMove, "e5x") }
                    .worded(RecordDetail::NotASquare),
            ),
            (
                format!("{header}\n1. c3-d5\n"),
                Trouble { action: 1, ..Trouble::new(RecordTrouble::IllegalMove, "c3-d5") },
            ),
            (with_start("x"), Trouble { count: 1, ..blank.clone() }.worded(RecordDetail::StartFields)),
            (with_start("16/16 A 5p 0"), Trouble::new(RecordTrouble::Header, "5p").worded(RecordDetail::StartSetup)),
            (with_start("16/16 A 2p 0"), Trouble { count: 2, ..blank.clone() }.worded(RecordDetail::StartRows)),
            (
                header.replace("[Setup \"2p\"]\n", ""),
                Trouble::new(RecordTrouble::Header, "Setup").worded(RecordDetail::MissingTag),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(refused(&text), expected, "{text}");
        }
    }
}
