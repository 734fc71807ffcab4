//! The network game and the join dialog as the window shows them (`bind::nearby` writes
//! the picture).

use halma_core::nearby::{Ending, Nearby, Note, Status};
use halma_core::state::{JoinForm, JoinTrouble};

/// What the window shows of the network game (`bind::nearby` writes it).
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    pub view: crate::NearbyView,
    pub hosts: Vec<crate::FoundHost>,
    /// Redo and Restart do not apply while the other device plays too.
    pub shared: bool,
}

fn trouble_of_ending(ending: Ending) -> crate::NearbyTrouble {
    use crate::NearbyTrouble as T;
    match ending {
        Ending::Left => T::Left,
        Ending::WrongCode => T::WrongCode,
        Ending::OtherGame => T::OtherGame,
        Ending::Misbehaved => T::Misbehaved,
        Ending::NoNetwork => T::NoNetwork,
        Ending::Replaced => T::Replaced,
    }
}

fn count(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// The picture of the network game and the join dialog.
pub fn picture(nearby: Option<&Nearby>, join: Option<&JoinForm>) -> Picture {
    use crate::{NearbyNote as N, NearbyStatus as S, NearbyTrouble as T};
    let (status, ending) = match nearby.map(|nearby| &nearby.status) {
        None | Some(Status::Waiting) => (S::Waiting, T::None),
        Some(Status::Connecting) => (S::Connecting, T::None),
        Some(Status::Connected) => (S::Connected, T::None),
        Some(Status::Lost) => (S::Lost, T::None),
        Some(Status::Ended(ending)) => (S::Ended, trouble_of_ending(*ending)),
    };
    let (mut note, mut note_seat, mut note_action, mut taken_back, mut gained) = (N::None, 0, String::new(), 0, 0);
    match nearby.map(|nearby| &nearby.note) {
        None | Some(Note::None) => {}
        Some(Note::Played { seat, action }) => {
            (note, note_seat, note_action) = (N::Played, seat.index() as i32, action.clone());
        }
        Some(Note::Undone) => note = N::Undone,
        Some(Note::UndoRefused) => note = N::UndoRefused,
        Some(Note::WrongCodeTried) => note = N::WrongCodeTried,
        Some(Note::NewCode) => note = N::NewCode,
        Some(Note::Resynced { taken_back: back, gained: got }) => {
            (note, taken_back, gained) = (N::Resynced, count(*back), count(*got));
        }
    }
    let join_trouble = match join.and_then(|join| join.trouble) {
        None => T::None,
        Some(JoinTrouble::Code) => T::Code,
        Some(JoinTrouble::Address) => T::Address,
        Some(JoinTrouble::Ended(ending)) => trouble_of_ending(ending),
    };
    // Not a first join still reaching for its host: the join dialog tells that.
    let shown = nearby.filter(|nearby| nearby.id.is_some());
    Picture {
        view: crate::NearbyView {
            active: shown.is_some(),
            hosting: shown.is_some_and(|nearby| nearby.hosting),
            code: shown.map(|nearby| nearby.code.to_string()).unwrap_or_default().into(),
            address: shown.and_then(|nearby| nearby.address).map(|addr| addr.to_string()).unwrap_or_default().into(),
            status,
            ending,
            note,
            note_seat,
            note_action: note_action.into(),
            taken_back,
            gained,
            undo_asked: shown.is_some_and(|nearby| nearby.undo_asked.is_some()),
            undo_pending: shown.is_some_and(|nearby| nearby.undo_pending.is_some()),
            joining: join.is_some(),
            join_connecting: join.is_some_and(|join| join.connecting),
            join_trouble,
        },
        hosts: join
            .map(|join| {
                join.hosts
                    .iter()
                    .map(|(id, addr)| crate::FoundHost {
                        game: id.to_string().into(),
                        address: addr.to_string().into(),
                    })
                    .collect()
            })
            .unwrap_or_default(),
        shared: shown.is_some_and(Nearby::is_live),
    }
}
