//! Games by message in the app (#40): every game this device plays by message, which one
//! the window shows (over the game on this device, `boards`), and what the player
//! was last told. Pure state and pictures: the controller loads and saves the games
//! (`CorrespondenceStore`), the actions (`actions::correspondence`) change them.

use crate::correspondence::{CorrespondenceGame, GameId, NewGame, ParseError, Refusal, Turn, Vote};
use crate::session::{GameConfig, Player, Session};
use halma_rules::Seat;
use std::collections::{BTreeMap, BTreeSet};

/// The games by message and the window's view of them.
#[derive(Clone, Debug, Default)]
pub struct ByMessage {
    /// Every game by message, as loaded at start and changed since.
    pub games: BTreeMap<GameId, CorrespondenceGame>,
    /// The game by message the session plays, if any.
    pub active: Option<GameId>,
    /// Actions of the shown game that the other side may already know (received, or
    /// sent): undo never takes them back, or the next message would be refused.
    pub known: usize,
    /// Games changed since they were last saved.
    pub dirty: BTreeSet<GameId>,
    /// A received game this device does not know, waiting for the player's yes.
    pub offered: Option<NewGame>,
    /// Why the pasted text was refused (the dialog stays open with it).
    pub trouble: Option<Trouble>,
    /// What the player was last told.
    pub note: Note,
}

/// Why a pasted message did nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trouble {
    Parse(ParseError),
    Refused(Refusal),
    /// The known game's file is damaged (it was set aside at start).
    Damaged,
}

/// What the player was last told about games by message.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Note {
    #[default]
    None,
    /// Send copied the message (and saved it to this file, on the desktop).
    Sent { saved_to: String },
    /// A message was applied: the other side's actions (seat, notation) and draw votes.
    Received { played: Vec<(Seat, String)>, votes: Vec<Vote> },
    /// A new game by message was started from a friend's message.
    Started { from: Seat },
}

impl ByMessage {
    /// The shown game by message, if one is shown.
    pub fn active_game(&self) -> Option<&CorrespondenceGame> {
        self.active.and_then(|id| self.games.get(&id))
    }

    /// Takes the session's game into the shown game by message (the session is the only
    /// place it is played). True if it changed: it is then saved.
    pub fn sync(&mut self, session: &Session) -> bool {
        let Some(id) = self.active else { return false };
        let Some(game) = self.games.get_mut(&id) else { return false };
        if game.record.game == *session.game() {
            return false;
        }
        game.record.game = session.game().clone();
        game.updated = crate::storage::now_unix_time();
        self.dirty.insert(id);
        true
    }
}

/// The session that plays a game by message: the other side's seats are friends', this
/// device's are people's (or the computer's, as its record says).
pub fn session_for(game: &CorrespondenceGame) -> Option<Session> {
    let record = &game.record;
    let setup = record.game.setup();
    let players = halma_rules::BySeat::from_fn(|seat| {
        if !setup.seats().contains(&seat) {
            Player::Human
        } else if game.local.contains(seat) {
            match record.players[seat].clone().map(Player::try_from) {
                Some(Ok(player @ Player::Computer(_))) => player,
                _ => Player::Human,
            }
        } else {
            Player::Friend
        }
    });
    let config = GameConfig { setup, first: record.game.first_seat(), players };
    Session::with_game(config, record.game.clone()).ok()
}

/// Whose turn a game is at, as the Games list says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowTurn {
    /// A seat played here is to act.
    Yours(Seat),
    /// The other side's seat: waiting for its message.
    Theirs(Seat),
    Over,
}

/// One line of the Games list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// `None`: the game on this device.
    pub id: Option<GameId>,
    pub players: usize,
    pub turn: RowTurn,
    pub actions: usize,
    /// The window shows it now.
    pub current: bool,
}

/// The Games list: the game on this device first (if there is one), then every game by
/// message, the most recently changed first. `live` is the game on this device
/// (`AppState::live_session`).
pub fn rows(by_message: &ByMessage, live: Option<&Session>) -> Vec<Row> {
    let mut rows = Vec::new();
    if let Some(device) = live {
        let game = device.game();
        let turn = if game.is_over() { RowTurn::Over } else { RowTurn::Yours(game.to_move()) };
        rows.push(Row {
            id: None,
            players: game.setup().seats().len(),
            turn,
            actions: game.history().len(),
            current: by_message.active.is_none(),
        });
    }
    let mut games: Vec<&CorrespondenceGame> = by_message.games.values().collect();
    games.sort_by(|a, b| b.updated.cmp(&a.updated).then(a.id.cmp(&b.id)));
    for game in games {
        let turn = match game.turn() {
            Turn::Local(seat) => RowTurn::Yours(seat),
            Turn::Remote(seat) => RowTurn::Theirs(seat),
            Turn::Over(_) => RowTurn::Over,
        };
        rows.push(Row {
            id: Some(game.id),
            players: game.game().setup().seats().len(),
            turn,
            actions: game.game().history().len(),
            current: by_message.active == Some(game.id),
        });
    }
    rows
}

/// The seat the message is for (its header's colour), or `None` when the game is over.
pub fn header_seat(game: &CorrespondenceGame) -> Option<Seat> {
    match game.turn() {
        Turn::Local(seat) | Turn::Remote(seat) => Some(seat),
        Turn::Over(_) => None,
    }
}

/// True when the shown game waits for the other side: Send applies (and after an end
/// this device played, so that the last move reaches them too).
pub fn can_send(game: &CorrespondenceGame) -> bool {
    let played = game.game().history().len();
    match game.turn() {
        Turn::Remote(_) => true,
        Turn::Over(_) => played > 0 && game.local.contains(game.game().actor(played - 1)),
        Turn::Local(_) => false,
    }
}
