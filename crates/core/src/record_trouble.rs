//! Why a pasted record was refused, as the import dialog tells it: a kind, a reason of
//! its own and the record's own text at fault, never the parser's English.

use crate::interface::{RecordDetail, RecordTrouble};
use halma_record::RecordProblem;
use halma_rules::NotationError;

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
    pub fn new(kind: RecordTrouble, text: impl Into<String>) -> Self {
        Trouble { kind, detail: RecordDetail::Text, text: text.into(), action: 0, row: 0, count: 0, limit: 0 }
    }

    fn worded(mut self, detail: RecordDetail) -> Self {
        self.detail = detail;
        self
    }
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

/// A count for the window, saturated (records are far smaller).
fn int(value: impl TryInto<i32>) -> i32 {
    value.try_into().unwrap_or(i32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::record_of;
    use crate::session::{GameConfig, Player, Session};
    use halma_record::Record;
    use halma_rules::{Seat, Setup};

    /// What the import dialog is given for a record: never the parser's English, only a
    /// kind, a reason and the record's own text at fault.
    fn refused(text: &str) -> Trouble {
        match Record::parse(text) {
            Ok(_) => panic!("the record was read:\n{text}"),
            Err(error) => trouble(error.problem()),
        }
    }

    #[test]
    fn a_malformed_comment_is_told_as_a_comment() {
        let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4].into() };
        let header = record_of(&Session::new(config), "", 0).to_text();
        let open = refused(&format!("{header}\n1. c3-d4 {{ a note\n"));
        assert_eq!((open.kind, open.action), (RecordTrouble::CommentUnterminated, 1));
        let long = "x".repeat(halma_record::MAX_COMMENT_BYTES + 1);
        let long = refused(&format!("{header}\n{{ {long} }}\n1. c3-d4\n"));
        assert_eq!((long.kind, long.action), (RecordTrouble::CommentTooLong, 0));
        assert_eq!(long.limit, halma_record::MAX_COMMENT_BYTES as i32);
    }

    #[test]
    fn a_refused_record_is_told_by_a_typed_reason_with_its_own_text() {
        let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4].into() };
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
