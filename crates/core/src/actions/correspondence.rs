//! Play by message (#40): starting a game with a friend's seat, Send, pasting a received
//! message (applied, a new game asked first, or refused with its reason and nothing
//! changed), and the Games list that switches between the game on this device and the
//! games by message without disturbing any of them. The rules decide every message
//! (`app::correspondence::decide`); the controller saves what changed.

use super::{begin, play};
use crate::boards::Cover;
use crate::by_message::{session_for, Note, Trouble};
use crate::correspondence::{parse_message, CorrespondenceGame, Decision, GameId};
use crate::effects::{Copy, Effects};
use crate::interface::Page;
use crate::session::{GameConfig, Session};
use crate::state::AppState;
use halma_rules::SeatSet;

/// The games by message read at start.
pub(super) fn loaded(state: &mut AppState, games: Vec<CorrespondenceGame>) -> Effects {
    for game in games {
        state.by_message.games.insert(game.id, game);
    }
    Effects::redraw()
}

/// Start of a game with a friend's seat: a new game by message (a new identifier, this
/// device's seats the others), shown; the game on this device is kept aside.
pub(super) fn start(state: &mut AppState, config: GameConfig) -> Effects {
    let friends = config.friend_seats();
    let mut local = SeatSet::EMPTY;
    for &seat in config.setup.seats() {
        if !friends.contains(seat) {
            local.insert(seat);
        }
    }
    let session = Session::new(config);
    let Ok(game) = CorrespondenceGame::new(session.game().clone(), local) else { return Effects::none() };
    let id = game.id;
    state.by_message.games.insert(id, game);
    state.by_message.dirty.insert(id);
    show_game(state, id).and(Effects::saved())
}

/// Send's message was shared (and on the desktop saved to `saved_to`): the note says so.
pub(super) fn shared(state: &mut AppState, saved_to: String) -> Effects {
    state.by_message.note = Note::Sent { saved_to };
    Effects::redraw()
}

/// A game that is not by message replaces the shown one (Start, import, a tool's
/// session): it is the game on this device from now on; the games by message stay.
pub(super) fn detach(state: &mut AppState) {
    state.by_message.sync(&state.session);
    if state.by_message.active.take().is_some() {
        state.forget_covered(Cover::ByMessage);
        state.by_message.note = Note::None;
    }
}

/// Shows the game by message `id`, keeping the game on this device aside.
fn show_game(state: &mut AppState, id: GameId) -> Effects {
    state.by_message.sync(&state.session);
    let Some(session) = state.by_message.games.get(&id).and_then(session_for) else { return Effects::none() };
    let closed = super::end_network_game(state);
    let effects = if state.by_message.active.is_none() && state.ui.has_game() {
        // The game on this device stays below the game by message, untouched.
        closed.and(super::begin_covering(state, Cover::ByMessage, session))
    } else {
        closed.and(begin(state, session))
    };
    state.by_message.active = Some(id);
    state.by_message.known = state.session.game().history().len();
    state.ui.show(Page::Game);
    effects.and(Effects::saved())
}

/// The Games list's entry: a game by message by its identifier, or (empty) the game on
/// this device.
pub(super) fn open_game(state: &mut AppState, id: &str) -> Effects {
    if let Some(id) = GameId::parse(id) {
        if state.by_message.active != Some(id) {
            state.by_message.note = Note::None;
        }
        return show_game(state, id);
    }
    if state.by_message.active.is_some() {
        state.by_message.sync(&state.session);
        state.by_message.active = None;
        state.by_message.note = Note::None;
        if let Some(effects) = super::end_covering(state, Cover::ByMessage) {
            state.ui.show(Page::Game);
            return effects.and(Effects::saved());
        }
        // No game on this device: the new-game screen.
        state.ui.set_up();
        return Effects::saved();
    }
    state.ui.show(Page::Game);
    Effects::redraw()
}

/// Send: the shown game's message, with `header` (the player's language) as its first
/// line, for the clipboard or the share sheet, and (on the desktop) a file.
pub(super) fn send(state: &mut AppState, header: &str, unix_time: u64) -> Effects {
    state.by_message.sync(&state.session);
    let Some(game) = state.by_message.active_game() else { return Effects::none() };
    let text = game.compose(header);
    let actions = game.game().history().len();
    let file_name =
        (!cfg!(target_os = "android")).then(|| format!("halma-message-{}-{actions}-{unix_time}.txt", game.id));
    state.by_message.known = actions;
    state.by_message.note = Note::Sent { saved_to: String::new() };
    Effects { share: Some(Copy { text, file_name }), ..Effects::saved() }
}

pub(super) fn open_receive(state: &mut AppState) -> Effects {
    state.ui.open_receive();
    state.by_message.trouble = None;
    state.by_message.offered = None;
    Effects::redraw()
}

pub(super) fn close_receive(state: &mut AppState) -> Effects {
    state.ui.close_receive();
    state.by_message.offered = None;
    Effects::redraw()
}

/// A pasted (or shared) text: applied to its game (then shown and told), a new game
/// (asked first), or refused with its reason; a refused text changes nothing.
pub(super) fn receive(state: &mut AppState, text: &str) -> Effects {
    state.by_message.sync(&state.session);
    state.by_message.offered = None;
    let decision = parse_message(text).map(|message| {
        let games = &state.by_message.games;
        crate::correspondence::decide(message, |id| games.get(&id).cloned())
    });
    match decision {
        Err(error) => {
            eprintln!("halma: the pasted message was refused: {error}");
            state.ui.open_receive();
            state.by_message.trouble = Some(Trouble::Parse(error));
            Effects::redraw()
        }
        Ok(Decision::Refused { id, reason }) => {
            eprintln!("halma: the message of game {id} was refused: {reason}");
            state.ui.open_receive();
            state.by_message.trouble = Some(Trouble::Refused(reason));
            Effects::redraw()
        }
        Ok(Decision::NewGame(new)) => {
            state.ui.open_receive();
            state.by_message.trouble = None;
            state.by_message.offered = Some(new);
            Effects::redraw()
        }
        Ok(Decision::Applied(applied)) => {
            let id = applied.game.id;
            let played = applied.played.iter().map(|(seat, action)| (*seat, action.to_string())).collect();
            state.by_message.games.insert(id, applied.game);
            state.by_message.dirty.insert(id);
            // The shown game is replaced by the received one, not synced back over it.
            if state.by_message.active == Some(id) {
                if let Some(session) = state.by_message.games.get(&id).and_then(session_for) {
                    state.by_message.known = session.game().history().len();
                    let effects = begin(state, session);
                    state.ui.show(Page::Game);
                    state.ui.close_receive();
                    state.by_message.trouble = None;
                    state.by_message.note = Note::Received { played, votes: applied.votes };
                    return effects.and(Effects::saved());
                }
            }
            let effects = show_game(state, id);
            state.ui.close_receive();
            state.by_message.trouble = None;
            state.by_message.note = Note::Received { played, votes: applied.votes };
            effects
        }
    }
}

/// The answer to "Start this game from …?": yes keeps and shows it, no forgets it.
pub(super) fn answer_offer(state: &mut AppState, yes: bool) -> Effects {
    let Some(new) = state.by_message.offered.take() else { return Effects::none() };
    if !yes {
        return Effects::redraw();
    }
    let from = new.game.game().to_move();
    let from = new.from.seats().next().unwrap_or(from);
    let id = new.game.id;
    state.by_message.games.insert(id, new.game);
    state.by_message.dirty.insert(id);
    let effects = show_game(state, id);
    state.ui.close_receive();
    state.by_message.trouble = None;
    state.by_message.note = Note::Started { from };
    effects
}

/// Undo in a game by message takes back only what the other side cannot know yet (the
/// moves played here since the last message received or sent).
pub(super) fn undo(state: &mut AppState) -> Effects {
    if state.by_message.active.is_none() {
        return play::undo(state);
    }
    let before = state.session.clone();
    let effects = play::undo(state);
    if state.session.game().history().len() < state.by_message.known {
        state.session = before;
        return Effects::redraw();
    }
    effects
}

#[cfg(test)]
mod tests {
    use super::super::{update, Event};
    use crate::by_message::{Note, Trouble};
    use crate::correspondence::{compose, Refusal};
    use crate::effects::Save;
    use crate::interface::PlayerKind;
    use crate::session::Player;
    use crate::state::{AppState, Facts};
    use halma_record::Record;
    use halma_rules::{sq, Game, Seat, SeatSet, Setup};

    fn run(state: &mut AppState, event: Event) -> crate::effects::Effects {
        update(state, &Facts::default(), event)
    }

    /// Plays `from`-`to` by taps and Confirm, as the board would, to its last hop.
    fn play(state: &mut AppState, from: &str, to: &str) {
        for square in [sq(from), sq(to)] {
            let (x, y) = state.session.view().display_cell(square);
            run(state, Event::Tap { x, y });
        }
        assert_eq!(run(state, Event::Confirm).save, Save::Now);
        while state.animation.is_some() {
            run(state, Event::AnimationStep);
        }
        // What the controller does before it saves.
        state.by_message.sync(&state.session);
    }

    fn send(state: &mut AppState) -> String {
        let effects =
            run(state, Event::SendMessage { header: "Halma: your move. Open with Halma.".into(), unix_time: 9 });
        effects.share.map(|message| message.text).unwrap_or_default()
    }

    /// Blue (A) here against a friend by message at Purple (C).
    fn blue_against_a_friend() -> AppState {
        let mut state = AppState::default();
        run(&mut state, Event::SetPlayers(2));
        run(&mut state, Event::SetSeatPlayer(0, PlayerKind::Human));
        run(&mut state, Event::SetSeatPlayer(2, PlayerKind::Friend));
        assert_eq!(run(&mut state, Event::Start).save, Save::Now);
        state
    }

    #[test]
    fn a_whole_exchange_by_message_between_two_devices() {
        let mut blue = blue_against_a_friend();
        let id = blue.by_message.active.expect("a game by message is shown");
        assert!(blue.by_message.dirty.contains(&id), "and saved");
        assert_eq!(blue.session.config().player(Seat::C), Player::Friend);
        play(&mut blue, "c3", "d4");
        let first = send(&mut blue);
        assert!(first.starts_with("Halma: your move. Open with Halma.\nhalma-by-message 1 game="), "{first}");
        assert!(first.contains(&format!("game={id} from=A turn=C\n")), "{first}");
        assert!(first.ends_with(&format!("1. c3-d4\nend {id}\n")), "{first}");

        // Purple's device knows nothing: it asks first.
        let mut purple = AppState::default();
        run(&mut purple, Event::OpenReceive);
        run(&mut purple, Event::Receive(first.clone()));
        assert!(purple.by_message.offered.is_some() && purple.ui.receive_open());
        assert!(purple.by_message.games.is_empty(), "nothing is kept before yes");
        run(&mut purple, Event::AnswerOffer(true));
        assert_eq!(purple.by_message.active, Some(id));
        assert!(!purple.ui.receive_open());
        assert_eq!(purple.by_message.note, Note::Started { from: Seat::A });
        assert_eq!(purple.session.config().player(Seat::A), Player::Friend);
        assert_eq!(purple.session.game().history().len(), 1);
        assert!(purple.session.human_can_act(), "Purple's move");

        play(&mut purple, "n14", "m13");
        let reply = send(&mut purple);
        assert!(reply.contains(&format!("game={id} from=C turn=A\n")), "{reply}");

        // Blue receives: applied and told.
        run(&mut blue, Event::OpenReceive);
        run(&mut blue, Event::Receive(reply.clone()));
        assert!(!blue.ui.receive_open());
        assert_eq!(blue.by_message.note, Note::Received { played: vec![(Seat::C, "n14-m13".into())], votes: vec![] });
        assert_eq!(blue.session.game().history().len(), 2);
        assert!(blue.session.human_can_act());

        // The same message again: refused, nothing changes.
        run(&mut blue, Event::Receive(reply));
        assert_eq!(blue.by_message.trouble, Some(Trouble::Refused(Refusal::NothingNew)));
        assert_eq!(blue.session.game().history().len(), 2);

        // A message that rewrites Blue's first move: refused with its reason, unchanged.
        let mut forged = Game::new(Setup::TwoPlayers, Seat::A);
        for text in ["e2-f3", "n14-m13"] {
            assert_eq!(forged.play_text(text), Ok(()));
        }
        let rewrite = compose("", id, SeatSet::single(Seat::C), &Record::new(forged));
        let before = blue.session.game().clone();
        run(&mut blue, Event::Receive(rewrite));
        assert_eq!(blue.by_message.trouble, Some(Trouble::Refused(Refusal::Rewritten { action: 1 })));
        assert!(blue.ui.receive_open(), "the dialog stays, with its reason");
        assert_eq!(*blue.session.game(), before);
        assert_eq!(blue.by_message.games[&id].record.game, before);

        // Not a message at all.
        run(&mut blue, Event::Receive("see you tomorrow".into()));
        assert!(matches!(blue.by_message.trouble, Some(Trouble::Parse(_))));
        run(&mut blue, Event::CloseReceive);

        // Undo never takes back what Purple knows; Blue's own unsent move it does.
        run(&mut blue, Event::Undo);
        assert_eq!(blue.session.game().history().len(), 2);
        play(&mut blue, "d4", "e5");
        run(&mut blue, Event::Undo);
        assert_eq!(blue.session.game().history().len(), 2);
    }

    #[test]
    fn opening_a_game_keeps_every_other_as_it_was() {
        let mut state = AppState::default();
        let config =
            crate::session::GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4].into() };
        run(&mut state, Event::Begin(Box::new(crate::session::Session::new(config))));
        play(&mut state, "c3", "d4");
        let device = state.session.game().clone();
        run(&mut state, Event::SetUp);
        run(&mut state, Event::SetSeatPlayer(2, PlayerKind::Friend));
        run(&mut state, Event::SetFirstSeat(0));
        run(&mut state, Event::Start);
        let id = state.by_message.active.expect("shown");
        assert_eq!(state.session.game().history().len(), 0);
        assert_eq!(state.live_session().map(|s| s.game().clone()), Some(device.clone()));
        play(&mut state, "e2", "f3");

        run(&mut state, Event::OpenGame(String::new()));
        assert_eq!(state.by_message.active, None);
        assert_eq!(*state.session.game(), device, "the game on this device, as it was");
        assert_eq!(state.by_message.games[&id].game().history().len(), 1, "the game by message kept its move");

        run(&mut state, Event::OpenGame(id.to_string()));
        assert_eq!(state.by_message.active, Some(id));
        assert_eq!(state.session.game().history().len(), 1);
        assert_eq!(state.ui.page(), crate::interface::Page::Game);
        // A game by message cannot start again.
        run(&mut state, Event::Restart);
        assert_eq!(state.session.game().history().len(), 1);
    }
}
