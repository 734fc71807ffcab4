//! The cues each action gives (#39: sound and haptics), without any audio device: what a
//! selection, a step, a jump chain, an arrival in camp, a refused tap, Confirm, a win and
//! a draw are to sound and feel like, in order.

use super::*;
use crate::session::{GameConfig, Player};
use crate::sound::Cue;
use halma_rules::{sq, Game, Seat, Setup, Square};

/// Two people at a position where A has pieces on `a`, C on `c`, and A is to move.
fn playing(a: &[Square], c: &[Square]) -> AppState {
    let rows: Vec<String> = (0..16)
        .rev()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for column in 0..16 {
                let piece = Square::from_coords(column, row).and_then(|square| {
                    (a.contains(&square).then_some('A')).or_else(|| c.contains(&square).then_some('C'))
                });
                match piece {
                    Some(letter) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                        }
                        empty = 0;
                        text.push(letter);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    let hpn = format!("{} A 2p 0", rows.join("/"));
    let Ok(position) = halma_rules::parse_hpn(&hpn) else { panic!("{hpn} parses") };
    let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4].into() };
    let Ok(session) = Session::with_game(config, Game::from_position(position)) else { panic!("a session") };
    let mut state = AppState::default();
    update(&mut state, &Facts::default(), Event::Begin(Box::new(session)));
    state
}

fn act(state: &mut AppState, event: Event) -> Vec<Cue> {
    update(state, &Facts::default(), event).cues
}

fn tap(state: &mut AppState, square: Square) -> Vec<Cue> {
    let (x, y) = state.session.view().display_cell(square);
    act(state, Event::Tap { x, y })
}

/// The cues of each landing as the animation's timer shows the move, until it is over.
fn landings(state: &mut AppState) -> Vec<Vec<Cue>> {
    let mut heard = Vec::new();
    while state.animation.is_some() {
        heard.push(act(state, Event::AnimationStep));
    }
    heard
}

/// A square of A's target camp next to one outside it: (outside, inside).
fn camp_entry() -> (Square, Square) {
    let camp = Setup::TwoPlayers.target_camp(Seat::A);
    let entry = camp.squares().find_map(|inside| {
        let beside = [-1, 1].into_iter().filter_map(|dx| Square::from_coords(inside.column() + dx, inside.row()));
        beside.filter(|&outside| !camp.contains(outside)).map(|outside| (outside, inside)).next()
    });
    entry.unwrap_or_else(|| panic!("a camp has an edge"))
}

#[test]
fn a_selection_and_a_preview_are_quiet() {
    let mut state = playing(&[sq("c3")], &[sq("h8")]);
    assert_eq!(tap(&mut state, sq("c3")), []);
    assert_eq!(tap(&mut state, sq("d4")), []);
    assert_eq!(tap(&mut state, sq("c3")), [], "cutting the preview back");
    assert_eq!(tap(&mut state, sq("c3")), [], "letting the piece go on purpose");
}

#[test]
fn a_step_is_confirmed_then_heard_as_it_lands() {
    let mut state = playing(&[sq("c3")], &[sq("h8")]);
    tap(&mut state, sq("c3"));
    tap(&mut state, sq("d4"));
    assert_eq!(act(&mut state, Event::Confirm), [Cue::Confirm]);
    assert_eq!(landings(&mut state), [vec![Cue::Step], vec![]]);
}

#[test]
fn each_jump_of_a_chain_is_heard_as_it_lands_climbing() {
    let mut state = playing(&[sq("c3")], &[sq("d4"), sq("f6")]);
    tap(&mut state, sq("c3"));
    tap(&mut state, sq("g7"));
    assert_eq!(state.session.interaction().route, [sq("c3"), sq("e5"), sq("g7")]);
    assert_eq!(act(&mut state, Event::Confirm), [Cue::Confirm]);
    assert_eq!(landings(&mut state), [vec![Cue::Hop(0)], vec![Cue::Hop(1)], vec![]]);
}

#[test]
fn a_piece_arriving_in_its_target_camp_is_heard_as_it_lands() {
    let (outside, inside) = camp_entry();
    let mut state = playing(&[outside, sq("c3")], &[sq("h8")]);
    tap(&mut state, outside);
    tap(&mut state, inside);
    assert_eq!(act(&mut state, Event::Confirm), [Cue::Confirm]);
    assert_eq!(landings(&mut state), [vec![Cue::Step, Cue::ArriveInCamp], vec![]]);
}

#[test]
fn the_last_piece_home_wins_and_a_tap_that_cuts_the_move_short_still_hears_it() {
    let (outside, inside) = camp_entry();
    let camp = Setup::TwoPlayers.target_camp(Seat::A);
    let mut army: Vec<Square> = camp.squares().filter(|&square| square != inside).collect();
    army.push(outside);
    let mut state = playing(&army, &[sq("h8")]);
    tap(&mut state, outside);
    tap(&mut state, inside);
    let mut cut_short = state.clone();
    assert_eq!(act(&mut state, Event::Confirm), [Cue::Confirm]);
    assert_eq!(landings(&mut state), [vec![Cue::Step, Cue::ArriveInCamp, Cue::Win], vec![]]);

    // The player taps before the piece has landed: the board shows it home at once.
    act(&mut cut_short, Event::Confirm);
    assert_eq!(tap(&mut cut_short, sq("h2")), [Cue::ArriveInCamp, Cue::Win, Cue::Refused]);
    assert!(cut_short.animation.is_none());
}

#[test]
fn refused_taps_and_an_empty_confirm_are_rejected() {
    let mut state = playing(&[sq("c3")], &[sq("h8")]);
    assert_eq!(tap(&mut state, sq("h2")), [Cue::Refused], "an empty square with nothing selected");
    assert_eq!(tap(&mut state, sq("h8")), [Cue::Refused], "the other side's piece");
    tap(&mut state, sq("c3"));
    assert_eq!(tap(&mut state, sq("h2")), [Cue::Refused], "a square the piece cannot reach");
    assert_eq!(state.session.interaction().selected, None);
    assert_eq!(act(&mut state, Event::Confirm), [Cue::Refused], "nothing to confirm");
}

#[test]
fn a_draw_agreed_is_heard_once() {
    let mut state = playing(&[sq("c3")], &[sq("h8")]);
    assert_eq!(act(&mut state, Event::OfferDraw), []);
    assert_eq!(act(&mut state, Event::AnswerQuestion(true)), [], "C is yet to answer");
    assert_eq!(act(&mut state, Event::AnswerDraw(true)), [Cue::Draw]);
    assert!(state.session.game().is_over());
    assert_eq!(tap(&mut state, sq("c3")), [Cue::Refused], "the game is over");
}

#[test]
fn the_sound_and_vibration_settings_are_kept() {
    let mut state = playing(&[sq("c3")], &[sq("h8")]);
    assert!(state.settings.sound && state.settings.vibration, "both on at first");
    let effects = update(&mut state, &Facts::default(), Event::SetSound(false));
    assert_eq!(effects.save, crate::effects::Save::Now);
    update(&mut state, &Facts::default(), Event::SetVibration(false));
    assert!(!state.settings.sound && !state.settings.vibration);
    assert!(!Event::SetSound(true).plays_on_live_game());
}
