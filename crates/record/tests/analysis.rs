//! The analysis of a finished game (issue 28): blunders found with the better move named,
//! the same result every time at a fixed depth and any thread count, cancelling within
//! 100 ms with no thread left behind, passes, only moves and draw votes labelled but not
//! judged, and the class thresholds on constructed positions.

use common::two_player_game;
use halma_ai::analysis::{
    self, AnalysisError, AnalysisRequest, Class, DrawVote, Eval, GameAnalysis, Quality, Steps, Verdict, BLUNDER_FROM,
    FORCED_RESULT_LOSS, GOOD_FROM, INACCURACY_FROM, MISTAKE_FROM,
};
use halma_ai::eval::{self, Weights};
use halma_ai::{Level, SearchRequest};
use halma_record::Record;
use halma_rules::{Action, Game, Move, Seat, Setup};
use halma_test_support as common;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The tests run one at a time: they count the analysis threads of the whole process,
/// and two cores are all there is.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn play(game: &mut Game, text: &str) {
    game.play_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
}

fn analyse(game: &Game, quality: Quality, threads: usize) -> GameAnalysis {
    let request = AnalysisRequest::new(quality).with_threads(threads);
    analysis::analyse(game, &request, &AtomicBool::new(false), &mut |_, _| {}).unwrap_or_else(|e| panic!("{e}"))
}

/// The typical game of the benchmark: two Strong players, 166 actions.
fn typical_game() -> Game {
    let text = include_str!("../../../tests/data/analysis-typical-2p.txt");
    Record::parse(text).unwrap_or_else(|e| panic!("{e:?}")).game
}

/// A's straggler on d4 has a ladder of A's own pieces ahead of it, five jumps into its
/// camp; C's piece on g5 can close it by stepping to f6. (With C's pieces as the rungs,
/// the search rightly prefers to stop on j10: a piece that leaves the ladder opens it for
/// C's own jumps the other way.)
const LADDER_A: [&str; 10] = ["d4", "e5", "g7", "i9", "k11", "m13", "h2", "p16", "p15", "o16"];
const LADDER_C: [&str; 3] = ["g5", "c2", "b3"];
const THE_CHAIN: &str = "d4-f6-h8-j10-l12-n14";

#[test]
fn a_single_step_instead_of_a_long_jump_chain_is_a_blunder_and_the_chain_is_named() {
    let _serial = one_at_a_time();
    let mut game = two_player_game(&LADDER_A, &LADDER_C, Seat::A, 20);
    play(&mut game, "h2-i3");
    play(&mut game, "g5-f6");
    for quality in [Quality::QUICK, Quality::DEFAULT, Quality::DEEP] {
        let analysis = analyse(&game, quality, 1);
        let step = &analysis.actions[0];
        assert_eq!((step.index, step.seat), (0, Seat::A));
        let Verdict::Judged(judgement) = &step.verdict else { panic!("not judged: {:?}", step.verdict) };
        assert_eq!(judgement.class, Class::Blunder, "{quality:?}: {judgement:?}");
        assert_eq!(judgement.best.to_string(), THE_CHAIN, "{quality:?}");
        assert!(judgement.loss >= BLUNDER_FROM, "{quality:?}: {judgement:?}");
        let (Eval::Lead(before), Eval::Lead(after)) = (judgement.before, judgement.after) else {
            panic!("no forced result here: {judgement:?}")
        };
        assert_eq!(Steps(before.0 - after.0), judgement.loss, "{quality:?}");
        let summary = analysis.summary(Seat::A).unwrap_or_else(|| panic!("A has a summary"));
        assert_eq!((summary.judged, summary.blunders(), summary.mistakes()), (1, 1, 0));
        assert_eq!(summary.average_loss(), judgement.loss);
        assert_eq!(summary.longest_chain, None, "A only stepped");
    }
}

#[test]
fn the_analysis_is_the_same_every_time_and_at_any_thread_count() {
    let _serial = one_at_a_time();
    let game = typical_game();
    assert_eq!(game.history().len(), 166);
    let first = analyse(&game, Quality::QUICK, 1);
    assert_eq!(first.actions.len(), 166);
    assert_eq!(first.graph(Seat::A).len(), 167);
    assert_eq!(analyse(&game, Quality::QUICK, 1), first);
    assert_eq!(analyse(&game, Quality::QUICK, 2), first);
}

/// The analysis threads running, counted by name in /proc: Linux only. Elsewhere `None`,
/// and the thread checks are skipped (said on the test's output), never passed by a count
/// of 0 that was not made.
fn analysis_threads() -> Option<usize> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        eprintln!("skipped: counting threads needs /proc/self/task, which only Linux has");
        return None;
    };
    tasks
        .filter_map(Result::ok)
        .filter_map(|task| std::fs::read_to_string(task.path().join("comm")).ok())
        .filter(|name| name.starts_with(analysis::THREAD_NAME))
        .count()
        .into()
}

#[test]
fn cancelling_stops_the_analysis_within_100_ms_and_leaves_no_thread() {
    let _serial = one_at_a_time();
    let game = typical_game();
    let mut delays = Vec::new();
    for (after_ms, threads) in [(50, 1), (300, 2), (150, 2), (600, 1), (20, 2)] {
        let stop = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Mutex::new(Vec::new()));
        let worker = {
            let (stop, progress, game) = (Arc::clone(&stop), Arc::clone(&progress), game.clone());
            std::thread::spawn(move || {
                let request = AnalysisRequest::new(Quality::DEEP).with_threads(threads);
                let result = analysis::analyse(&game, &request, &stop, &mut |index, total| {
                    progress.lock().unwrap_or_else(|p| p.into_inner()).push((index, total))
                });
                (result.map(|_| ()), Instant::now())
            })
        };
        std::thread::sleep(Duration::from_millis(after_ms));
        assert!(analysis_threads().is_none_or(|threads| threads > 0), "the analysis runs on its own threads");
        let flagged = Instant::now();
        stop.store(true, Ordering::Relaxed);
        let (result, returned) = worker.join().unwrap_or_else(|_| panic!("the analysis does not panic"));
        assert_eq!(result, Err(AnalysisError::Cancelled));
        assert!(
            analysis_threads().is_none_or(|threads| threads == 0),
            "every analysis thread has ended when it returns"
        );
        delays.push(returned.saturating_duration_since(flagged));
        // Progress came in order, one call per action begun.
        let progress = progress.lock().unwrap_or_else(|p| p.into_inner()).clone();
        assert!(!progress.is_empty());
        assert!(progress.iter().enumerate().all(|(i, &(index, total))| index == i && total == 166), "{progress:?}");
    }
    delays.sort();
    // The median, so that one stall of a loaded machine does not fail the test.
    assert!(delays[delays.len() / 2] < Duration::from_millis(100), "{delays:?}");
}

#[test]
fn a_stop_flag_already_set_cancels_at_once() {
    let _serial = one_at_a_time();
    let started = Instant::now();
    let result = analysis::analyse(
        &typical_game(),
        &AnalysisRequest::new(Quality::DEEP),
        &AtomicBool::new(true),
        &mut |_, _| {},
    );
    assert_eq!(result, Err(AnalysisError::Cancelled));
    assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
    assert!(analysis_threads().is_none_or(|threads| threads == 0));
}

/// C's lone piece on a1 is walled in by A's pieces: it can neither step nor jump.
const WALLED_A: [&str; 7] = ["a2", "b1", "b2", "a3", "c1", "c3", "h8"];

#[test]
fn forced_passes_and_an_agreed_draw_are_labelled_not_judged() {
    let _serial = one_at_a_time();
    let mut game = two_player_game(&WALLED_A, &["a1"], Seat::A, 0);
    play(&mut game, "h8-i9");
    play(&mut game, "pass");
    play(&mut game, "i9-j10");
    play(&mut game, "pass");
    game.offer_draw().unwrap_or_else(|e| panic!("{e}"));
    game.answer_draw(Seat::C, true).unwrap_or_else(|e| panic!("{e}"));
    let analysis = analyse(&game, Quality::DEFAULT, 2);
    let verdicts: Vec<&Verdict> = analysis.actions.iter().map(|a| &a.verdict).collect();
    assert!(matches!(verdicts[..], [Verdict::Judged(_), Verdict::ForcedPass, Verdict::Judged(_), Verdict::ForcedPass]));
    assert_eq!(analysis.draw, Some(DrawVote::Agreed));
    let c = analysis.summary(Seat::C).unwrap_or_else(|| panic!("C has a summary"));
    assert_eq!((c.judged, c.classes, c.total_loss, c.longest_chain), (0, [0; 5], Steps::ZERO, None));
    assert_eq!(analysis.summary(Seat::A).map(|a| a.judged), Some(2));
}

#[test]
fn a_waiting_draw_offer_and_an_only_move_are_labelled_not_judged() {
    let _serial = one_at_a_time();
    // Without c3 A's wall has one gap: C's only move is the jump a1-c3.
    let mut game =
        two_player_game(&WALLED_A[..5].iter().chain(&["h8"]).copied().collect::<Vec<_>>(), &["a1"], Seat::C, 1);
    assert_eq!(game.legal_moves().count(), 1);
    play(&mut game, "a1-c3");
    play(&mut game, "h8-i9");
    game.offer_draw().unwrap_or_else(|e| panic!("{e}"));
    let analysis = analyse(&game, Quality::QUICK, 1);
    assert!(matches!(analysis.actions[0].verdict, Verdict::OnlyMove { .. }), "{:?}", analysis.actions[0]);
    assert!(matches!(analysis.actions[1].verdict, Verdict::Judged(_)));
    assert_eq!(analysis.draw, Some(DrawVote::Offered { offerer: Seat::C }));
    let c = analysis.summary(Seat::C).unwrap_or_else(|| panic!("C has a summary"));
    assert_eq!((c.judged, c.longest_chain), (0, Some((1, 0))));
}

#[test]
fn the_class_follows_the_loss_at_each_threshold() {
    let cases = [
        (Steps(0), Class::Best),
        (Steps(1), Class::Good),
        (Steps(9), Class::Good),
        (Steps(10), Class::Inaccuracy),
        (Steps(29), Class::Inaccuracy),
        (Steps(30), Class::Mistake),
        (Steps(79), Class::Mistake),
        (Steps(80), Class::Blunder),
        (FORCED_RESULT_LOSS, Class::Blunder),
    ];
    for (loss, class) in cases {
        assert_eq!(Class::of_loss(loss), class, "{loss}");
    }
    assert_eq!([GOOD_FROM, INACCURACY_FROM, MISTAKE_FROM, BLUNDER_FROM], [Steps(1), Steps(10), Steps(30), Steps(80)]);
    assert_eq!(
        (Steps(75).to_string(), Steps(-120).to_string(), Steps(3).to_string()),
        ("7.5".into(), "-12.0".into(), "0.3".into())
    );
}

/// At depth 1 a move's value is the evaluation right after it: the loss of each move can
/// be worked out here from `eval::evaluate` alone, and must be what the analysis says.
/// Both positions are decided for the evaluation (A is 69 steps behind on the ladder, 11
/// in the open with three pieces left), so the class follows the steps given away (issue
/// 51, tests/analysis_labels.rs): under 3 good, from 3 an inaccuracy, from 8 a mistake,
/// from 15 (`BLUNDER_STEPS`) a blunder.
#[test]
fn the_classes_on_constructed_positions_match_the_evaluation() {
    let _serial = one_at_a_time();
    let ladder = two_player_game(&LADDER_A, &LADDER_C, Seat::A, 20);
    // A lone piece in the open: its diagonal step is best, the straight ones a tenth less.
    let open = two_player_game(&["h8", "p16"], &["b2"], Seat::A, 20);
    // Each move with the class it should get and its loss in tenths of a step.
    let cases = [
        (&ladder, THE_CHAIN, Class::Best, 0),
        (&open, "h8-i9", Class::Best, 0),
        (&open, "h8-i8", Class::Good, 1),
        (&open, "h8-i7", Class::Good, 24),
        (&ladder, "d4-f6-h8-j10-l12", Class::Good, 28),
        (&ladder, "d4-f6-h8-j10", Class::Inaccuracy, 66),
        (&ladder, "d4-f6-h8", Class::Mistake, 112),
        (&ladder, "h2-i3", Class::Blunder, 199),
    ];
    for (start, text, class, tenths) in cases {
        let position = *start.position();
        let value = |mv: Move| eval::evaluate(&position.after(mv), Seat::A, &Weights::DEFAULT);
        let best = start.legal_moves().iter().map(value).max().unwrap_or(0);
        let mut game = start.clone();
        play(&mut game, text);
        let played = match &game.history()[0] {
            Action::Move(route) => route.as_move(),
            Action::Pass => panic!("{text} is a move"),
        };
        let analysis = analyse(&game, Quality { depth: 1 }, 1);
        let Verdict::Judged(judgement) = &analysis.actions[0].verdict else { panic!("{text} not judged") };
        assert_eq!(judgement.loss, Steps((best - value(played)) * 10 / Weights::DEFAULT.step), "{text}");
        assert_eq!((judgement.loss, judgement.class), (Steps(tenths), class), "{text}: {judgement:?}");
    }
}

/// Every setup, from its start or a position set up by hand: one verdict per action, a
/// summary per seat in play, and a graph point per position.
#[test]
fn games_of_every_setup_are_analysed() {
    let _serial = one_at_a_time();
    for setup in Setup::ALL {
        let mut game = Game::new(setup, setup.seats()[0]);
        for seed in 0..12 {
            let request = SearchRequest::new(Level::Greedy).with_seed(seed);
            match halma_ai::choose_action(&game, &request, &AtomicBool::new(false)) {
                Some(action) => game.play_action(&action).unwrap_or_else(|e| panic!("{setup}: {e}")),
                None => break,
            }
        }
        let analysis = analyse(&game, Quality::QUICK, 2);
        assert_eq!(analysis.actions.len(), 12, "{setup}");
        assert!(analysis.actions.iter().all(|a| matches!(a.verdict, Verdict::Judged(_))), "{setup}");
        let seats: Vec<Seat> = analysis.summaries.iter().map(|s| s.seat).collect();
        assert_eq!(seats, setup.seats(), "{setup}");
        assert!(analysis.summaries.iter().all(|s| s.judged == 12 / setup.seats().len()), "{setup}");
        assert_eq!(analysis.graph(setup.seats()[0]).len(), 13, "{setup}");
    }
}
