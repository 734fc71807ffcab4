//! The Train page's picture: what the puzzle shown, its outcome and the progress look
//! like, from the state alone (pure; tested without a window).

use crate::TrainInfo;
use halma_ai::analysis::{Class, Decided};
use halma_ai::puzzles::Difficulty;
use halma_core::actions::{puzzle_set, solved_in_set, TrainOutcome, TrainSource, Training};
use halma_core::session::Session;
use halma_core::settings::TrainingProgress;

fn difficulty_index(difficulty: Difficulty) -> i32 {
    match difficulty {
        Difficulty::Easy => 1,
        Difficulty::Medium => 2,
        Difficulty::Hard => 3,
    }
}

/// The Slint index of a difficulty (1 easy, 2 medium, 3 hard) back as one.
pub fn difficulty_of(index: i32) -> Option<Difficulty> {
    match index {
        1 => Some(Difficulty::Easy),
        2 => Some(Difficulty::Medium),
        3 => Some(Difficulty::Hard),
        _ => None,
    }
}

fn count(value: usize) -> i32 {
    i32::try_from(value).unwrap_or(i32::MAX)
}

/// How many of the people's moves the live game's analysis calls a mistake or a blunder
/// (what Practise your mistakes offers; counted without building the puzzles).
pub fn mistakes_to_practise(session: &Session) -> i32 {
    let Some(analysis) = session.analysis() else { return 0 };
    let people = session.config().human_seats();
    let judged = analysis.actions.iter().filter(|entry| people.contains(entry.seat));
    count(judged.filter(|entry| entry.verdict.judgement().is_some_and(|j| j.class >= Class::Mistake)).count())
}

/// The Train page: the puzzle (if any), its outcome and the progress; `practise`: the
/// live game's mistakes on offer.
pub fn train(training: Option<&Training>, progress: &TrainingProgress, practise: i32) -> TrainInfo {
    let mut info = TrainInfo {
        practise,
        solved: count(solved_in_set(progress)),
        total: count(puzzle_set().puzzles.len()),
        streak: i32::try_from(progress.streak).unwrap_or(i32::MAX),
        best_streak: i32::try_from(progress.best_streak).unwrap_or(i32::MAX),
        rating: progress.rating,
        ..TrainInfo::default()
    };
    let Some(training) = training else { return info };
    let puzzle = &training.puzzle;
    let interaction = training.session.interaction();
    info.available = true;
    info.kind = match training.source {
        TrainSource::Daily => 0,
        TrainSource::Graded(difficulty) => difficulty_index(difficulty),
        TrainSource::Mistake(at) => {
            info.mistake = count(at + 1);
            info.mistakes = count(training.mistakes.len());
            4
        }
    };
    info.difficulty = difficulty_index(puzzle.difficulty);
    info.seat = puzzle.position.army_to_move().index() as i32;
    info.answer = puzzle.answer.to_string().into();
    // In tenths: the page writes them with the language's decimal separator.
    info.gain = puzzle.gain.tenths();
    info.runner_up = puzzle.runner_up.to_string().into();
    info.hints = i32::from(training.hints);
    match &training.outcome {
        None => {
            info.can_confirm = interaction.can_confirm(training.session.game());
            info.can_cancel = interaction.has_preview() || interaction.selected.is_some();
        }
        Some(TrainOutcome::Solved) => info.outcome = 1,
        Some(TrainOutcome::Wrong { played, loss }) => {
            info.outcome = 2;
            info.played = played.to_string().into();
            // Told as the review tells a move: its class, the steps in tenths, and whether
            // the game was already decided.
            if let Some(wrong) = loss {
                info.loss = wrong.loss.to_string().into();
                info.loss_tenths = wrong.loss.tenths();
                info.loss_class = wrong.class as i32;
                info.decided = match wrong.decided {
                    None => 0,
                    Some(Decided::Won) => 1,
                    Some(Decided::Lost) => 2,
                };
            }
        }
    }
    info
}
