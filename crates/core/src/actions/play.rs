//! The game's actions: confirm, cancel, hints, undo and redo, draws, restart and new game
//! (after a question), the pickers, the engine program's confirmation, and the seats'
//! moves when their search finishes.

use super::interrupt;
use crate::animation::Animation;
use crate::effects::Effects;
use crate::interaction::TapResult;
use crate::interface::{Page, Question};
use crate::jobs::{Finished, JobKind};
use crate::players::{FailureKind, Turn};
use crate::session::Player;
use crate::sound::Cue;
use crate::state::{AppState, Facts};
use halma_rules::{Action, Seat, Square};

/// What follows a tap, Enter or a picker's choice.
pub(super) fn after_tap(state: &mut AppState, result: TapResult) -> Effects {
    match result {
        TapResult::Confirm(_) => confirm(state),
        // The tap asked for what the game refused (or cannot do now).
        TapResult::Nothing => refused(Effects::redraw()),
        // A selection or a preview: the game is as it was.
        _ => Effects::saved_soon(),
    }
}

/// Plays the previewed route, shown hop by hop.
pub(super) fn confirm(state: &mut AppState) -> Effects {
    let cut = cut_animation(state);
    let seat = state.session.game().position().army_to_move();
    let effects = match state.session.confirm() {
        Ok(action) => {
            let mut effects = Effects { stop_search: true, cues: vec![Cue::Confirm], ..Effects::saved() };
            if let Action::Move(route) = action {
                animate(state, route.squares().to_vec(), seat);
                effects.animate = true;
            }
            effects
        }
        Err(_) => refused(Effects::redraw()),
    };
    Effects { cues: cut, ..Effects::none() }.and(effects)
}

/// `effects` with the cue of a refused tap, key or button.
pub(super) fn refused(effects: Effects) -> Effects {
    effects.and(Effects { cues: vec![Cue::Refused], ..Effects::none() })
}

/// Stops the move being shown (the player acts on): the piece is drawn where it ends,
/// and what its arrival was to sound like is heard now.
pub(super) fn cut_animation(state: &mut AppState) -> Vec<Cue> {
    state.animation.take().map(Animation::cut_short).unwrap_or_default()
}

/// Shows the move just played along `route`, with the cues of its arrival: in the
/// seat's target camp (from outside it), and the end of the game if it ended there.
pub(super) fn animate(state: &mut AppState, route: Vec<Square>, seat: Seat) {
    let game = state.session.game();
    let camp = game.setup().target_camp(seat);
    let arrives =
        matches!((route.first(), route.last()), (Some(&from), Some(&to)) if camp.contains(to) && !camp.contains(from));
    let mut arrival = if arrives { vec![Cue::ArriveInCamp] } else { Vec::new() };
    arrival.extend(Cue::of_ending(game.outcome()));
    state.animation = Animation::new(route, seat).map(|animation| animation.with_arrival(arrival));
}

/// The end of the game, heard when it ended without a move (a draw agreed, a pass).
fn ending(state: &AppState) -> Effects {
    Effects { cues: Cue::of_ending(state.session.game().outcome()).into_iter().collect(), ..Effects::none() }
}

pub(super) fn cancel(state: &mut AppState) -> Effects {
    if state.session.cancel() {
        Effects::saved_soon()
    } else {
        Effects::none()
    }
}

/// A hint for the person to move, on the game page, when nothing else thinks.
pub(super) fn hint(state: &mut AppState, facts: &Facts) -> Effects {
    if !state.session.human_can_act() || facts.busy.is_some() || state.ui.page() != Page::Game {
        return Effects::none();
    }
    Effects { start_hint: true, ..Effects::redraw() }
}

/// A search finished: the seat's action is played (or its failure told), the hint shown.
pub(super) fn search_finished(state: &mut AppState, finished: Finished) -> Effects {
    if finished.plies != state.session.game().history().len() {
        // The position changed meanwhile: the result is for another one.
        return Effects::redraw();
    }
    let mut effects = Effects::saved();
    match (finished.kind, finished.turn) {
        (JobKind::Computer, Turn::Chose(action)) => {
            let was_over = state.session.game().is_over();
            effects.animate = play_seat_action(state, action);
            if !effects.animate && !was_over {
                effects = effects.and(ending(state));
            }
        }
        // A failure is told (Retry), not a reason to think again forever.
        (JobKind::Computer, Turn::Failed(failure)) => {
            eprintln!("halma: the seat to move could not choose a move: {failure}");
            state.seat_failure = Some(failure.kind);
        }
        (JobKind::Hint, Turn::Chose(Action::Move(route))) => {
            state.session.show_hint(route.squares());
        }
        (_, _) => {}
    }
    effects
}

/// Plays the computer's (or program's) action; true when a move is to be animated.
fn play_seat_action(state: &mut AppState, action: Action) -> bool {
    let seat = state.session.game().position().army_to_move();
    match state.session.play_action(&action) {
        Ok(()) => match action {
            Action::Move(route) => {
                animate(state, route.squares().to_vec(), seat);
                true
            }
            _ => false,
        },
        Err(error) => {
            eprintln!("halma: the computer's move was refused: {error}");
            let program = state.session.driven_to_move() == Some(Player::Program);
            state.seat_failure = Some(if program { FailureKind::WrongAnswer } else { FailureKind::Search });
            false
        }
    }
}

/// The next hop of the move being shown; at its end the seat to move may start.
pub(super) fn animation_step(state: &mut AppState) -> Effects {
    let moved = state.animation.as_mut().is_some_and(Animation::step);
    if !moved {
        state.animation = None;
    }
    let cues = state.animation.as_ref().filter(|_| moved).map(Animation::landing_cues).unwrap_or_default();
    Effects { cues, ..Effects::redraw() }
}

/// Retry after the computer's search failed: it thinks again.
pub(super) fn retry_computer(state: &mut AppState) -> Effects {
    state.seat_failure = None;
    Effects::redraw()
}

/// Start: the player allows the engine program to move to start (this command line,
/// until the app closes).
pub(super) fn start_program(state: &mut AppState) -> Effects {
    if let Some(command) = state.program_awaits_confirmation() {
        state.trusted_commands.insert(command);
    }
    Effects::redraw()
}

/// Play as a person: the engine program's seat to move goes to the people here, and the
/// program is never started for it.
pub(super) fn play_program_seat(state: &mut AppState) -> Effects {
    if state.program_awaits_confirmation().is_some() && state.session.seat_person_to_move() {
        Effects::saved()
    } else {
        Effects::none()
    }
}

pub(super) fn undo(state: &mut AppState) -> Effects {
    let effects = interrupt(state);
    state.session.undo();
    effects.and(Effects::saved())
}

pub(super) fn redo(state: &mut AppState) -> Effects {
    let effects = interrupt(state);
    state.session.redo();
    effects.and(Effects::saved())
}

/// Offering a draw can end the game: the player confirms it first.
pub(super) fn offer_draw(state: &mut AppState) -> Effects {
    if state.session.can_offer_draw() {
        ask(state, Question::OfferDraw)
    } else {
        Effects::none()
    }
}

pub(super) fn answer_draw(state: &mut AppState, accept: bool) -> Effects {
    let Some(seat) = state.session.human_vote_awaited() else { return Effects::none() };
    // A refused answer changes nothing; the screen is drawn either way.
    let _ = state.session.answer_draw(seat, accept);
    Effects::saved().and(ending(state))
}

/// Restart or New game: asked first while the game is unfinished.
pub(super) fn ask_unless_nothing_is_lost(state: &mut AppState, question: Question) -> Effects {
    if state.session.is_unfinished() {
        ask(state, question)
    } else {
        carry_out(state, question)
    }
}

fn ask(state: &mut AppState, question: Question) -> Effects {
    state.ui.ask(question);
    Effects::redraw()
}

/// The player's answer: yes carries the action out, no keeps everything as it was.
pub(super) fn answer_question(state: &mut AppState, yes: bool) -> Effects {
    let question = state.ui.take_question();
    if yes {
        carry_out(state, question)
    } else {
        state.replacing = None;
        Effects::redraw()
    }
}

fn carry_out(state: &mut AppState, question: Question) -> Effects {
    match question {
        Question::NewGame | Question::Restart => {
            // The game is replaced: review ends with it.
            let effects = interrupt(state);
            state.ui.game_begun();
            if question == Question::NewGame {
                state.session.new_game();
            } else {
                state.session.restart();
            }
            effects.and(Effects::saved())
        }
        Question::OfferDraw => match state.session.offer_draw() {
            Ok(_) => Effects::saved().and(ending(state)),
            Err(_) => Effects::redraw(),
        },
        Question::Replace => {
            let replacement = state.replacing.take();
            super::replace_agreed(state, replacement)
        }
        Question::None => Effects::redraw(),
    }
}

pub(super) fn pick_piece(state: &mut AppState, index: i32) -> Effects {
    let Ok(index) = usize::try_from(index) else { return Effects::none() };
    let result = state.session.pick_piece(index);
    after_tap(state, result)
}

pub(super) fn pick_destination(state: &mut AppState, index: i32) -> Effects {
    let Ok(index) = usize::try_from(index) else { return Effects::none() };
    let result = state.session.pick_destination(index);
    after_tap(state, result)
}
