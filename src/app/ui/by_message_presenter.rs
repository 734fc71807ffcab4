//! The games by message as the window shows them: the note, the trouble of a refused
//! text, the Games list (`bind::by_message` writes the picture).

use halma_core::by_message::{can_send, header_seat, rows, ByMessage, Note, RowTurn, Trouble};
use halma_core::correspondence::{CorrespondenceGame, Refusal, Turn};
use halma_core::session::Session;
use halma_core::ui_state::UiState;
use halma_rules::Seat;

/// What the window shows of the games by message (`bind::by_message` writes it): the
/// global's one struct and its two lists.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    pub view: crate::ByMessageView,
    pub played: Vec<crate::PlayedAction>,
    pub games: Vec<crate::GameRow>,
    /// Undo would take back what the other side may know (the game page's Undo is off).
    pub undo_blocked: bool,
}

fn seat_number(seat: Seat) -> i32 {
    seat.index() as i32
}

fn number(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// The picture of the games by message for the window.
pub fn picture(by_message: &ByMessage, session: &Session, live: Option<&Session>, ui: &UiState) -> Picture {
    use crate::{MessageNote, ReceiveTrouble as T};
    use halma_core::correspondence::ParseError as P;
    let active = by_message.active_game();
    let (trouble, trouble_number, trouble_seat) = match &by_message.trouble {
        None => (T::None, 0, 0),
        Some(Trouble::Damaged) => (T::Damaged, 0, 0),
        Some(Trouble::Parse(error)) => match error {
            P::TooLarge { .. } => (T::TooLarge, 0, 0),
            P::NotAMessage => (T::NotAMessage, 0, 0),
            P::Version { .. } => (T::Version, 0, 0),
            P::BadFrame { .. } => (T::BadFrame, 0, 0),
            P::Truncated => (T::Truncated, 0, 0),
            P::Record(error) => (T::Record, number(error.line()), 0),
            P::TurnMismatch { .. } => (T::TurnMismatch, 0, 0),
        },
        Some(Trouble::Refused(reason)) => match reason {
            Refusal::DifferentStart | Refusal::WrongSetup => (T::DifferentStart, 0, 0),
            Refusal::Rewritten { action } => (T::Rewritten, number(*action), 0),
            Refusal::VotesRewritten { vote } => (T::VotesRewritten, number(*vote), 0),
            Refusal::OldMessage => (T::OldMessage, 0, 0),
            Refusal::NothingNew => (T::NothingNew, 0, 0),
            Refusal::WrongSeat { seats } => (T::WrongSeat, 0, seats.seats().next().map_or(0, seat_number)),
            Refusal::SkippedTurn { seat } => (T::SkippedTurn, 0, seat_number(*seat)),
        },
    };
    let offered = by_message.offered.as_ref().map(|new| {
        let game = new.game.game();
        let from = new.from.seats().next().unwrap_or(game.first_seat());
        (seat_number(from), number(game.setup().seats().len()), number(game.history().len()))
    });
    let (note, played, started_from) = match &by_message.note {
        Note::None => (MessageNote::None, Vec::new(), None),
        Note::Sent { .. } => (MessageNote::Sent, Vec::new(), None),
        Note::Started { from } => (MessageNote::Started, Vec::new(), Some(seat_number(*from))),
        Note::Received { played, .. } => (
            MessageNote::Received,
            played
                .iter()
                .map(|(seat, action)| crate::PlayedAction { seat: seat_number(*seat), action: action.as_str().into() })
                .collect(),
            None,
        ),
    };
    let saved_to = match &by_message.note {
        Note::Sent { saved_to } => saved_to.clone(),
        _ => String::new(),
    };
    let turn = active.map(CorrespondenceGame::turn);
    let games = rows(by_message, live)
        .into_iter()
        .map(|row| {
            let (turn, seat) = match row.turn {
                RowTurn::Yours(seat) => (crate::GameTurn::Yours, seat_number(seat)),
                RowTurn::Theirs(seat) => (crate::GameTurn::Theirs, seat_number(seat)),
                RowTurn::Over => (crate::GameTurn::Over, 0),
            };
            crate::GameRow {
                id: row.id.map(|id| id.to_string()).unwrap_or_default().into(),
                players: number(row.players),
                turn,
                seat,
                moves: number(row.actions),
                current: row.current,
            }
        })
        .collect();
    let (offered_from, offered_players, offered_moves) =
        offered.or(started_from.map(|from| (from, 0, 0))).unwrap_or_default();
    Picture {
        view: crate::ByMessageView {
            active: active.is_some(),
            can_send: active.is_some_and(can_send),
            header_seat: active.and_then(header_seat).map_or(-1, seat_number),
            waiting_seat: match turn {
                Some(Turn::Remote(seat)) => seat_number(seat),
                _ => -1,
            },
            receiving: ui.receive_open(),
            trouble,
            trouble_number,
            trouble_seat,
            offered: offered.is_some(),
            offered_from,
            offered_players,
            offered_moves,
            note,
            your_move: matches!(turn, Some(Turn::Local(_))),
            saved_to: saved_to.into(),
        },
        played,
        games,
        undo_blocked: active.is_some() && session.game().history().len() <= by_message.known,
    }
}
