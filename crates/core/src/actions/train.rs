//! The Train page (#41): a puzzle played on the real board from its own session, so the
//! live game, its review and its save are never touched. Taps, previews and Confirm run
//! the ordinary board actions on the puzzle's session (covering the live game for the one
//! action: `boards`);
//! a move played is then judged by `Puzzle::check`, and the progress kept in the settings.

use super::Event;
use crate::boards::Cover;
use crate::effects::Effects;
use crate::interface::Page;
use crate::session::Session;
use crate::state::{AppState, Facts};
pub use crate::training::{Outcome, Source, Training};
use halma_ai::analysis::Class;
use halma_ai::puzzles::{self, Answer, Difficulty, Puzzle, PuzzleSet, WrongAnswer};
use halma_rules::{Action, Move, Route};

use std::sync::OnceLock;

/// How many puzzles of the built-in set `progress` counts as solved. Ids of puzzles the set
/// no longer has (a set made again keeps none of the old ids) are not counted, so the page
/// never says "40 of 300" over a set the player has not started.
pub fn solved_in_set(progress: &crate::settings::TrainingProgress) -> usize {
    puzzle_set().puzzles.iter().filter(|puzzle| progress.is_solved(&puzzle.id)).count()
}

/// The built-in set, parsed once (every line is checked against the rules).
pub fn puzzle_set() -> &'static PuzzleSet {
    static SET: OnceLock<PuzzleSet> = OnceLock::new();
    SET.get_or_init(|| {
        let set = puzzles::built_in();
        for error in &set.errors {
            eprintln!("halma: {error}");
        }
        set
    })
}

/// The rating a puzzle plays at (Elo): easy 1000, medium 1300, hard 1600.
pub fn puzzle_rating(difficulty: Difficulty) -> i32 {
    match difficulty {
        Difficulty::Easy => 1000,
        Difficulty::Medium => 1300,
        Difficulty::Hard => 1600,
    }
}

/// The Train page with the puzzle of the day (a local date), or (`keep`) the puzzle
/// shown before if there is one.
pub(super) fn open(state: &mut AppState, year: i32, month: u32, day: u32, keep: bool) -> Effects {
    if keep && state.training.is_some() {
        state.ui.set_menu_open(false);
        state.ui.show(Page::Train);
        return Effects::redraw();
    }
    let puzzle = puzzles::puzzle_of_the_day(&puzzle_set().puzzles, year, month, day).cloned();
    if let Some(training) = puzzle.and_then(|puzzle| Training::new(puzzle, Source::Daily, &state.session)) {
        state.training = Some(training);
    }
    state.ui.set_menu_open(false);
    state.ui.show(Page::Train);
    Effects::redraw()
}

/// The next unsolved puzzle of `difficulty` after the one shown (in the set's order, from
/// the start again when all were seen).
pub(super) fn next(state: &mut AppState, difficulty: Difficulty) -> Effects {
    let all = &puzzle_set().puzzles;
    let graded: Vec<&Puzzle> = all.iter().filter(|p| p.difficulty == difficulty).collect();
    let current = state.training.as_ref().map(|t| t.puzzle.id.as_str());
    let after = current.and_then(|id| graded.iter().position(|p| p.id == id)).map_or(0, |at| at + 1);
    let progress = &state.settings.training;
    let ring = graded.iter().cycle().skip(after).take(graded.len());
    let unsolved = ring.clone().find(|p| !progress.is_solved(&p.id) && Some(p.id.as_str()) != current);
    let Some(puzzle) = unsolved.or_else(|| ring.clone().next()) else { return Effects::none() };
    if let Some(training) = Training::new((*puzzle).clone(), Source::Graded(difficulty), &state.session) {
        state.training = Some(training);
    }
    Effects::redraw()
}

/// Retry: the puzzle's position again, the hints kept.
pub(super) fn retry(state: &mut AppState) -> Effects {
    let Some(training) = &mut state.training else { return Effects::none() };
    let hints = training.hints;
    let counted = training.counted;
    if let Some(mut fresh) = Training::new(training.puzzle.clone(), training.source, &training.session) {
        fresh.counted = counted;
        fresh.mistakes = std::mem::take(&mut training.mistakes);
        *training = fresh;
        for _ in 0..hints {
            give_hint(training);
        }
    }
    state.animation = None;
    Effects::redraw()
}

/// A hint: the piece first (selected), then its first step or jump (previewed, marked as
/// a suggestion).
pub(super) fn hint(state: &mut AppState) -> Effects {
    let Some(training) = &mut state.training else { return Effects::none() };
    if training.outcome.is_some() || training.hints >= 2 {
        return Effects::none();
    }
    training.hints += 1;
    give_hint(training);
    Effects::redraw()
}

fn give_hint(training: &mut Training) {
    let puzzle = &training.puzzle;
    let (piece, landing) = (puzzle.hint_piece(), puzzle.hint_first_landing());
    let route: &[_] = if training.hints >= 2 { &[piece, landing] } else { &[piece] };
    if route.len() == 1 {
        training.session.clear_selection();
        training.session.tap(piece);
    } else {
        training.session.show_hint(route);
    }
}

/// True for the events the Train page's board takes: taps, keys, the pickers, Confirm and
/// Cancel, and the view's zoom, turn and pan.
pub(super) fn is_board_event(event: &Event) -> bool {
    use Event::*;
    matches!(
        event,
        Tap { .. }
            | TouchTap { .. }
            | TouchHold { .. }
            | TouchHoldEnded
            | Arrow { .. }
            | Enter
            | Confirm
            | Cancel
            | PickPiece(_)
            | PickDestination(_)
            | Zoom { .. }
            | ZoomFit
            | Rotate { .. }
            | Panned { .. }
            | ViewportResized { .. }
            | Pinch { .. }
            | GestureEnded
    )
}

/// A board event on the Train page: the ordinary action on the puzzle's session, then the
/// move played (if any) judged. The puzzle's game covers the live one for the event (`boards`).
pub(super) fn on_board(state: &mut AppState, facts: &Facts, event: Event) -> Effects {
    let Some(mut training) = state.training.take() else { return Effects::none() };
    let moves = !matches!(event, Event::Zoom { .. } | Event::ZoomFit | Event::Rotate { .. } | Event::Panned { .. });
    let view_only =
        !moves || matches!(event, Event::ViewportResized { .. } | Event::Pinch { .. } | Event::GestureEnded);
    if training.outcome.is_some() && !view_only {
        state.training = Some(training);
        return Effects::none();
    }
    // The puzzle's moves stop nothing of the live game and start nothing for it.
    let mut effects =
        state.on_covering_board(Cover::Puzzle, &mut training.session, |state| super::update(state, facts, event));
    let played = match training.session.game().history().first() {
        Some(Action::Move(route)) if training.outcome.is_none() => Some(route.clone()),
        _ => None,
    };
    if let Some(route) = played {
        let wrong = judge(&mut training, &mut state.settings.training, route);
        effects = effects.and(Effects { measure_loss: wrong, ..Effects::saved() });
    }
    state.training = Some(training);
    effects
}

/// The move played in the puzzle: solved or wrong, and the progress it moves. True when
/// it was wrong: what it gives away is then measured in the background
/// (`Effects::measure_loss`) and told by [`loss_measured`].
fn judge(training: &mut Training, progress: &mut crate::settings::TrainingProgress, route: Route) -> bool {
    let puzzle = &training.puzzle;
    let mv = Move { from: route.from(), to: route.to() };
    let right = match puzzle.check(mv) {
        Answer::Solved => true,
        Answer::Wrong => false,
        // The board plays only legal moves; nothing to judge.
        Answer::Illegal => return false,
    };
    training.outcome = Some(if right { Outcome::Solved } else { Outcome::Wrong { played: route, loss: None } });
    // The player's own mistakes are not graded: they move no progress.
    if !matches!(training.source, Source::Mistake(_)) {
        if !training.counted {
            training.counted = true;
            progress.record(right, puzzle_rating(puzzle.difficulty));
        }
        if right {
            progress.mark_solved(&puzzle.id);
        }
    }
    !right
}

/// The background measure of a wrong answer came back: told if the page still shows that
/// answer to that puzzle (the player may have retried or moved on meanwhile).
pub(super) fn loss_measured(
    state: &mut AppState,
    puzzle_id: &str,
    measured: &Route,
    loss: Option<WrongAnswer>,
) -> Effects {
    let Some(training) = state.training.as_mut() else { return Effects::none() };
    if training.puzzle.id != puzzle_id {
        return Effects::none();
    }
    match &mut training.outcome {
        Some(Outcome::Wrong { played, loss: told }) if played == measured && told.is_none() && loss.is_some() => {
            *told = loss;
            Effects::redraw()
        }
        _ => Effects::none(),
    }
}

/// The people's own mistakes and blunders in the analysed game as puzzles: the position
/// before each, the analysis' best move as the answer (any route of that piece to that
/// square solves it), the move played as the runner-up and its loss as the gain. Empty
/// without an analysis.
pub fn mistakes_of(session: &Session) -> Vec<Puzzle> {
    let Some(analysis) = session.analysis() else { return Vec::new() };
    let people = session.config().human_seats();
    let mut found = Vec::new();
    for entry in &analysis.actions {
        let (Some(judgement), Action::Move(played)) = (entry.verdict.judgement(), &entry.action) else { continue };
        if !people.contains(entry.seat) || judgement.class < Class::Mistake {
            continue;
        }
        let before = session.reviewing(entry.index);
        let position = *before.game().position();
        let best = &judgement.best;
        let answer = Move { from: best.from(), to: best.to() };
        if answer == (Move { from: played.from(), to: played.to() }) || !position.legal_moves().contains(answer) {
            continue;
        }
        found.push(Puzzle {
            id: format!("mistake-{}", entry.index + 1),
            difficulty: Difficulty::Medium,
            gain: judgement.loss,
            deep_gain: judgement.loss,
            depth: analysis.quality.depth,
            greedy_rank: puzzles::greedy_rank(&position, answer),
            answer: best.clone(),
            runner_up: played.clone(),
            position,
        });
    }
    found
}

/// Practise your mistakes: the Train page at the first of the player's mistakes in the
/// analysed game (nothing when there are none).
pub(super) fn practise(state: &mut AppState) -> Effects {
    let mistakes = mistakes_of(&state.session);
    let Some(first) = mistakes.first().cloned() else { return Effects::none() };
    if let Some(mut training) = Training::new(first, Source::Mistake(0), &state.session) {
        training.mistakes = mistakes;
        state.training = Some(training);
        state.ui.show(Page::Train);
    }
    Effects::redraw()
}

/// The next of the player's mistakes (from the first again after the last).
pub(super) fn next_mistake(state: &mut AppState) -> Effects {
    let Some(training) = &mut state.training else { return Effects::none() };
    let Source::Mistake(at) = training.source else { return Effects::none() };
    if training.mistakes.len() < 2 {
        // The only mistake: there is no next one (the page offers none).
        return Effects::none();
    }
    let mistakes = std::mem::take(&mut training.mistakes);
    let next = (at + 1) % mistakes.len().max(1);
    let Some(puzzle) = mistakes.get(next).cloned() else { return Effects::none() };
    if let Some(mut fresh) = Training::new(puzzle, Source::Mistake(next), &training.session) {
        fresh.mistakes = mistakes;
        *training = fresh;
    }
    Effects::redraw()
}
