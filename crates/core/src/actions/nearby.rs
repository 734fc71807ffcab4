//! Play over the local network (#40): hosting a game with seats for a player nearby,
//! joining one by its code, the other device's moves, votes and undo requests as the link
//! reports them, and undo by consent. The link checks every message against the rules
//! before it reaches these actions; what this device plays goes out through
//! [`Nearby::outgoing`] after every action, so that no action can forget to send it.

use super::{begin, play};
use crate::correspondence::GameId;
use crate::effects::Effects;
use crate::interface::{Page, Question};
use crate::lan::{HostConfig, JoinCode, JoinConfig, LanEvent};
use crate::nearby::{ending, Ending, LanCommand, Nearby, Note, Status};
use crate::session::{GameConfig, Player, Session};
use crate::settings::SavedLink;
use crate::state::{AppState, JoinForm, JoinTrouble, Replacement};
use halma_rules::{Action, SeatSet};
use std::net::SocketAddr;

/// Effects that hand `commands` to the link.
fn link(commands: Vec<LanCommand>) -> Effects {
    Effects { lan: commands, ..Effects::none() }
}

/// Start of a game with seats for a player nearby: this device hosts it, shows the join
/// code and waits for the other device.
pub(super) fn host(state: &mut AppState, config: GameConfig) -> Effects {
    let closed = detach(state);
    let guest_seats = config.nearby_seats();
    let mut local = SeatSet::EMPTY;
    for &seat in config.setup.seats() {
        if !guest_seats.contains(seat) {
            local.insert(seat);
        }
    }
    let (id, code) = (GameId::random(), JoinCode::random());
    let effects = begin(state, Session::new(config));
    state.nearby = Some(Nearby::hosting(id, code, local));
    state.ui.show(Page::Game);
    let game = state.session.game().clone();
    let command = LanCommand::Host { config: HostConfig { id, code, guest_seats }, game, port: 0 };
    closed.and(effects).and(link(vec![command])).and(Effects::saved())
}

/// The host's New join code: joins need the new code from now on, the guest connected
/// with the old one stays, and the link saved for a restart keeps the new one.
pub(super) fn new_code(state: &mut AppState) -> Effects {
    let Some(nearby) = state.nearby.as_mut().filter(|nearby| nearby.hosting) else { return Effects::none() };
    let code = JoinCode::random();
    nearby.code = code;
    if nearby.status == Status::Connected {
        nearby.note = Note::NewCode;
    } else if nearby.note == Note::WrongCodeTried {
        nearby.note = Note::None;
    }
    if let Some(saved) = state.settings.nearby.as_mut() {
        saved.code = code.to_string();
    }
    link(vec![LanCommand::NewCode(code)]).and(Effects::saved())
}

/// Another game replaces the shown one: the network game's link says goodbye, and the
/// game's other seats are played here should it be shown again.
pub(super) fn detach(state: &mut AppState) -> Effects {
    if state.nearby.take().is_none() {
        return Effects::none();
    }
    state.settings.nearby = None;
    state.session.seat_people_here(Player::Nearby);
    // Even a host whose guest left still listens: it stops now.
    link(vec![LanCommand::Close])
}

/// The host could not listen: the game stays, told why, its other seats waiting for
/// Leave.
pub(super) fn unavailable(state: &mut AppState, why: &str) -> Effects {
    let Some(nearby) = state.nearby.as_mut() else { return Effects::none() };
    eprintln!("halma: the game cannot be hosted on the network: {why}");
    nearby.status = Status::Ended(Ending::NoNetwork);
    state.settings.nearby = None;
    Effects::saved()
}

/// Join a game nearby…: the dialog, and the search for hosts on the network.
pub(super) fn open_join(state: &mut AppState) -> Effects {
    state.join = Some(JoinForm::default());
    link(vec![LanCommand::Browse(true)]).and(Effects::redraw())
}

pub(super) fn close_join(state: &mut AppState) -> Effects {
    let Some(form) = state.join.take() else { return Effects::none() };
    let mut commands = vec![LanCommand::Browse(false)];
    // A join still reaching for its host is given up.
    if form.connecting && state.nearby.as_ref().is_some_and(|nearby| !nearby.hosting && nearby.id.is_none()) {
        state.nearby = None;
        commands.push(LanCommand::Close);
    }
    link(commands).and(Effects::redraw())
}

/// The hosts found on the network, for the join dialog.
pub(super) fn hosts_found(state: &mut AppState, hosts: Vec<(GameId, SocketAddr)>) -> Effects {
    let Some(form) = state.join.as_mut() else { return Effects::none() };
    if form.hosts == hosts {
        return Effects::none();
    }
    form.hosts = hosts;
    Effects::redraw()
}

/// Join: the code and the host's address as the player typed them.
pub(super) fn join(state: &mut AppState, code: &str, address: &str) -> Effects {
    let Some(form) = state.join.as_mut() else { return Effects::none() };
    let Some(code) = JoinCode::parse(code) else {
        form.trouble = Some(JoinTrouble::Code);
        return Effects::redraw();
    };
    let Some(addr) = parse_address(address) else {
        form.trouble = Some(JoinTrouble::Address);
        return Effects::redraw();
    };
    form.trouble = None;
    if state.unfinished_game_at_stake() {
        // The host's game will take the board's place: the player says yes first.
        state.join = None;
        state.replacing = Some(Replacement::Join { code, addr });
        state.ui.show(Page::Game);
        state.ui.ask(Question::Replace);
        return link(vec![LanCommand::Browse(false)]).and(Effects::redraw());
    }
    join_agreed(state, code, addr)
}

/// Join, once nothing is at stake or the player agreed to replace the unfinished game.
pub(super) fn join_agreed(state: &mut AppState, code: JoinCode, addr: SocketAddr) -> Effects {
    state.join.get_or_insert_with(JoinForm::default).connecting = true;
    let closed = detach(state);
    state.nearby = Some(Nearby::joining(code, addr));
    let config = JoinConfig { addr, code, id: None };
    closed.and(link(vec![LanCommand::Join { config, game: None }])).and(Effects::redraw())
}

/// An address as people type it: `192.168.1.5:40123`, `[fe80::1]:40123`, spaces ignored.
fn parse_address(text: &str) -> Option<SocketAddr> {
    let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    text.parse().ok()
}

/// The answer to the other device's request to take back moves.
pub(super) fn answer_undo(state: &mut AppState, yes: bool) -> Effects {
    let Some(nearby) = state.nearby.as_mut() else { return Effects::none() };
    if nearby.undo_asked.take().is_none() {
        return Effects::none();
    }
    link(vec![LanCommand::AnswerUndo(yes)]).and(Effects::redraw())
}

/// Undo in a live network game asks the other device first (like a draw offer); the
/// moves go when it agrees. (Once the link ended the game is this device's alone, and
/// Undo is the ordinary one: `actions::undo`.)
pub(super) fn undo(state: &mut AppState) -> Effects {
    let Some(nearby) = state.nearby.as_ref().filter(|nearby| nearby.is_live()) else {
        return play::undo(state);
    };
    if nearby.undo_pending.is_some() || nearby.undo_asked.is_some() {
        return Effects::none();
    }
    // What Undo would take back here: back to before this device's last move.
    let mut trial = state.session.clone();
    let length = trial.game().history().len();
    trial.undo();
    let to = trial.game().history().len();
    if to >= length {
        // Nothing of the moves to take back (told as ever).
        return if length == 0 { play::undo(state) } else { Effects::none() };
    }
    if let Some(nearby) = state.nearby.as_mut() {
        nearby.undo_pending = Some(to);
        nearby.note = Note::None;
    }
    link(vec![LanCommand::RequestUndo(to)]).and(Effects::redraw())
}

/// Leave: the link ends with a goodbye and the other device's seats are played here.
pub(super) fn leave(state: &mut AppState) -> Effects {
    detach(state).and(Effects::saved())
}

/// At start: a network game saved with its link is hosted or joined again, so that a
/// restarted device finds the other one; without its link its seats are played here.
pub(super) fn restored(state: &mut AppState) -> Effects {
    let config = *state.session.config();
    let away = config.nearby_seats();
    if away.is_empty() {
        state.settings.nearby = None;
        return Effects::none();
    }
    let saved = state.settings.nearby.clone().and_then(|saved| resumed(&saved));
    let Some((id, code, hosting, addr)) = saved else {
        state.session.seat_people_here(Player::Nearby);
        state.settings.nearby = None;
        return Effects::saved();
    };
    let game = state.session.game().clone();
    if hosting {
        let mut local = SeatSet::EMPTY;
        for &seat in config.setup.seats() {
            if !away.contains(seat) {
                local.insert(seat);
            }
        }
        let mut nearby = Nearby::hosting(id, code, local);
        nearby.heard_all(&game);
        state.nearby = Some(nearby);
        let config = HostConfig { id, code, guest_seats: away };
        return link(vec![LanCommand::Host { config, game, port: addr.port() }]).and(Effects::redraw());
    }
    let mut nearby = Nearby::joining(code, addr);
    nearby.id = Some(id);
    nearby.local = SeatSet::EMPTY;
    for &seat in config.setup.seats() {
        if !away.contains(seat) {
            nearby.local.insert(seat);
        }
    }
    nearby.heard_all(&game);
    state.nearby = Some(nearby);
    let config = JoinConfig { addr, code, id: Some(id) };
    link(vec![LanCommand::Join { config, game: Some(game) }]).and(Effects::redraw())
}

fn resumed(saved: &SavedLink) -> Option<(GameId, JoinCode, bool, SocketAddr)> {
    Some((GameId::parse(&saved.id)?, JoinCode::parse(&saved.code)?, saved.hosting, saved.address.parse().ok()?))
}

/// What the link reports, in order.
pub(super) fn on_events(state: &mut AppState, events: Vec<LanEvent>) -> Effects {
    let mut effects = Effects::none();
    for event in events {
        effects = effects.and(on_event(state, event));
    }
    effects
}

fn on_event(state: &mut AppState, event: LanEvent) -> Effects {
    let Some(nearby) = state.nearby.as_mut() else { return Effects::none() };
    match event {
        LanEvent::Listening(addr) => {
            nearby.address = Some(addr);
            state.settings.nearby = nearby.saved();
            Effects::saved()
        }
        LanEvent::Connected(_) => Effects::none(),
        LanEvent::Synced { id, game, guest_seats, taken_back, gained } => {
            let first = nearby.status == Status::Connecting && nearby.id.is_none();
            nearby.id = Some(id);
            if !nearby.hosting {
                nearby.local = guest_seats;
            }
            let local = nearby.local;
            let reconnected = !first && nearby.status != Status::Waiting;
            nearby.status = Status::Connected;
            nearby.undo_asked = None;
            nearby.undo_pending = None;
            nearby.note =
                if reconnected && taken_back + gained > 0 { Note::Resynced { taken_back, gained } } else { Note::None };
            nearby.heard_all(&game);
            state.settings.nearby = nearby.saved();
            let session = session_for(&state.session, local, first, game);
            let Some(session) = session else { return Effects::none() };
            let mut effects = Effects::saved();
            if first || session.game() != state.session.game() {
                effects = effects.and(begin(state, session));
            }
            if first {
                state.join = None;
                state.ui.show(Page::Game);
                effects = effects.and(link(vec![LanCommand::Browse(false)]));
            }
            effects
        }
        LanEvent::Played { seat, action } => {
            let index = nearby.heard.actions;
            nearby.heard.actions += 1;
            nearby.heard.votes = 0;
            nearby.undo_pending = None;
            nearby.note = Note::Played { seat, action: action.to_string() };
            // A forced pass this device already played for the other device's seat.
            if state.session.game().history().get(index) == Some(&action) {
                return Effects::saved();
            }
            super::interrupt(state);
            let was_over = state.session.game().is_over();
            match state.session.play_action(&action) {
                Ok(()) => {}
                Err(error) => {
                    // The link checked it against its copy of the game: a mismatch means the
                    // two copies differ, which the next sync settles.
                    eprintln!("halma: the other device's move {action} does not fit this game: {error}");
                    return Effects::redraw();
                }
            }
            let mut effects = Effects { stop_search: true, ..Effects::saved() };
            if let Action::Move(route) = &action {
                super::play::animate(state, route.squares().to_vec(), seat);
                effects.animate = true;
            } else if !was_over {
                effects.cues.extend(crate::sound::Cue::of_ending(state.session.game().outcome()));
            }
            effects
        }
        LanEvent::DrawOffered { .. } => {
            nearby.heard.votes += 1;
            nearby.note = Note::None;
            match state.session.remote_offers_draw() {
                Ok(()) => Effects { stop_search: true, ..Effects::saved() },
                Err(error) => {
                    eprintln!("halma: the other device's draw offer does not fit this game: {error}");
                    Effects::redraw()
                }
            }
        }
        LanEvent::DrawVoted { seat, accept } => {
            nearby.heard.votes += 1;
            match state.session.answer_draw(seat, accept) {
                Ok(_) => Effects::saved(),
                Err(error) => {
                    eprintln!("halma: the other device's draw vote does not fit this game: {error}");
                    Effects::redraw()
                }
            }
        }
        LanEvent::UndoRequested { to } => {
            nearby.undo_asked = Some(to);
            Effects::redraw()
        }
        LanEvent::Undone { to } => {
            nearby.undo_asked = None;
            nearby.undo_pending = None;
            nearby.note = Note::Undone;
            let effects = super::interrupt(state);
            if let Err(error) = state.session.take_back_to(to) {
                eprintln!("halma: taking back to {to} actions failed: {error}");
            }
            if let Some(nearby) = state.nearby.as_mut() {
                nearby.heard_all(state.session.game());
            }
            effects.and(Effects::saved())
        }
        LanEvent::UndoRefused { .. } => {
            nearby.undo_pending = None;
            nearby.note = Note::UndoRefused;
            Effects::redraw()
        }
        LanEvent::Disconnected { reason, retrying } => {
            eprintln!("halma: the network game's connection went: {reason:?}");
            nearby.undo_pending = None;
            nearby.undo_asked = None;
            match ending(&reason, retrying) {
                None => nearby.status = Status::Lost,
                // A host whose guest left still listens: should it come back, the sync
                // takes the game up again.
                Some(end) => {
                    let (guest, never_joined) = (!nearby.hosting, !nearby.hosting && nearby.id.is_none());
                    nearby.status = Status::Ended(end);
                    state.settings.nearby = None;
                    if never_joined {
                        state.nearby = None;
                        if let Some(form) = state.join.as_mut() {
                            form.connecting = false;
                            form.trouble = Some(JoinTrouble::Ended(end));
                        }
                    }
                    // A guest's link ended for good; a host still listens for its guest.
                    let closed = if guest { link(vec![LanCommand::Close]) } else { Effects::none() };
                    return closed.and(Effects::saved());
                }
            }
            Effects::redraw()
        }
        LanEvent::WrongCodeTried(addr) => {
            eprintln!("halma: {addr} tried to join with a wrong code");
            nearby.note = Note::WrongCodeTried;
            Effects::redraw()
        }
        LanEvent::Refused(refusal) => {
            eprintln!("halma: the network link did not send this device's action: {refusal:?}");
            Effects::none()
        }
    }
}

/// The session that plays the agreed `game`: this device's seats as they were (a person
/// or the computer) when it is the game already shown, else people; the other device's
/// seats are nearby players.
fn session_for(shown: &Session, local: SeatSet, first_join: bool, game: halma_rules::Game) -> Option<Session> {
    let setup = game.setup();
    let players = halma_rules::BySeat::from_fn(|seat| {
        if !local.contains(seat) {
            Player::Nearby
        } else if first_join {
            Player::Human
        } else {
            shown.config().player(seat)
        }
    });
    let config = GameConfig { setup, first: game.first_seat(), players };
    match Session::with_game(config, game) {
        Ok(session) => Some(session),
        Err(error) => {
            eprintln!("halma: the network game could not be shown: {error}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actions::{update, Event};
    use crate::interface::PlayerKind;
    use crate::state::Facts;
    use halma_rules::Seat;

    fn run(state: &mut AppState, event: Event) -> Effects {
        update(state, &Facts::default(), event)
    }

    fn hosting_state() -> (AppState, HostConfig) {
        let mut state = AppState { offer_guide: false, ..AppState::default() };
        run(&mut state, Event::SetUp);
        run(&mut state, Event::SetSeatPlayer(0, PlayerKind::Human));
        run(&mut state, Event::SetSeatPlayer(2, PlayerKind::Nearby));
        let effects = run(&mut state, Event::Start);
        let Some(LanCommand::Host { config, port: 0, .. }) = effects.lan.last().cloned() else {
            panic!("Start hosts: {:?}", effects.lan)
        };
        (state, config)
    }

    #[test]
    fn start_with_a_nearby_seat_hosts_it_and_the_other_seats_stay_here() {
        let (state, config) = hosting_state();
        assert_eq!(config.guest_seats, SeatSet::single(Seat::C));
        let nearby = state.nearby.as_ref().expect("a network game");
        assert!(nearby.hosting);
        assert_eq!(nearby.local, SeatSet::single(Seat::A));
        assert_eq!(nearby.status, Status::Waiting);
        assert_eq!(state.session.config().player(Seat::C), Player::Nearby);
        assert_eq!(state.ui.page(), Page::Game);
    }

    #[test]
    fn the_other_devices_move_is_played_and_told_and_undo_waits_for_consent() {
        let (mut state, _) = hosting_state();
        let game = state.session.game().clone();
        let synced = LanEvent::Synced {
            id: state.nearby.as_ref().and_then(|n| n.id).expect("an id"),
            game,
            guest_seats: SeatSet::single(Seat::C),
            taken_back: 0,
            gained: 0,
        };
        run(&mut state, Event::Nearby(vec![synced]));
        assert_eq!(state.nearby.as_ref().map(|n| n.status.clone()), Some(Status::Connected));
        // This device's move goes out once; the other device's comes back.
        let square = |text: &str| text.parse::<halma_rules::Square>().expect("a square");
        let mine = state.session.play_route(&[square("c3"), square("d4")]).expect("a legal step");
        let sent = state.nearby.as_mut().map(|n| n.outgoing(state.session.game())).unwrap_or_default();
        assert_eq!(sent, vec![LanCommand::Play(mine)]);
        let mut probe = state.session.game().clone();
        probe.play_route(&[square("n14"), square("m13")]).expect("their legal step");
        let theirs = probe.history().last().cloned().expect("their move");
        let effects = run(&mut state, Event::Nearby(vec![LanEvent::Played { seat: Seat::C, action: theirs.clone() }]));
        assert!(effects.animate);
        assert_eq!(state.session.game().history().len(), 2);
        assert!(matches!(state.nearby.as_ref().map(|n| &n.note), Some(Note::Played { seat: Seat::C, .. })));
        assert_eq!(state.nearby.as_mut().map(|n| n.outgoing(state.session.game())), Some(Vec::new()));
        // Undo asks; the moves stay until the other device agrees.
        let effects = run(&mut state, Event::Undo);
        assert_eq!(effects.lan, vec![LanCommand::RequestUndo(0)]);
        assert_eq!(state.session.game().history().len(), 2);
        run(&mut state, Event::Nearby(vec![LanEvent::Undone { to: 0 }]));
        assert_eq!(state.session.game().history().len(), 0);
        assert_eq!(state.nearby.as_mut().map(|n| n.outgoing(state.session.game())), Some(Vec::new()));
    }

    #[test]
    fn a_join_with_a_bad_code_or_address_is_told_and_starts_nothing() {
        let mut state = AppState { offer_guide: false, ..AppState::default() };
        let effects = run(&mut state, Event::OpenJoin);
        assert_eq!(effects.lan, vec![LanCommand::Browse(true)]);
        let effects = run(&mut state, Event::JoinNearby { code: "7KQ2".into(), address: "10.0.0.2:4000".into() });
        assert!(effects.lan.is_empty());
        assert_eq!(state.join.as_ref().and_then(|form| form.trouble), Some(JoinTrouble::Code));
        let effects = run(&mut state, Event::JoinNearby { code: "7kq-2m4".into(), address: "10.0.0.2".into() });
        assert!(effects.lan.is_empty());
        assert_eq!(state.join.as_ref().and_then(|form| form.trouble), Some(JoinTrouble::Address));
        let effects = run(&mut state, Event::JoinNearby { code: "7kq-2m4".into(), address: " 10.0.0.2:4000 ".into() });
        assert!(matches!(effects.lan.as_slice(), [LanCommand::Join { game: None, .. }]));
        // A wrong code ends the join: told in the dialog, no game taken.
        let refused = LanEvent::Disconnected {
            reason: crate::lan::DropReason::PeerSaid { reason: crate::lan::ByeReason::WrongCode, text: String::new() },
            retrying: false,
        };
        run(&mut state, Event::Nearby(vec![refused]));
        assert!(state.nearby.is_none());
        assert_eq!(state.join.as_ref().and_then(|form| form.trouble), Some(JoinTrouble::Ended(Ending::WrongCode)));
    }

    #[test]
    fn a_restarted_device_hosts_or_joins_its_game_again() {
        let (mut state, config) = hosting_state();
        let addr: SocketAddr = "192.168.1.5:40123".parse().expect("an address");
        run(&mut state, Event::Nearby(vec![LanEvent::Listening(addr)]));
        let saved = state.settings.nearby.clone().expect("the link is kept");
        let mut restarted = AppState { offer_guide: false, ..AppState::default() };
        restarted.settings = state.settings.clone();
        restarted.session = state.session.clone();
        let effects = restored(&mut restarted);
        let Some(LanCommand::Host { config: again, port, .. }) = effects.lan.first().cloned() else {
            panic!("hosts again: {:?}", effects.lan)
        };
        assert_eq!((again, port), (config, 40123));
        assert_eq!(saved.code, config.code.to_string());
        // Without its link the other device's seats are played here.
        restarted.settings.nearby = None;
        restored(&mut restarted);
        assert_eq!(restarted.session.config().player(Seat::C), Player::Human);
    }
}
