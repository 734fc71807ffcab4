//! Labels by winning chance (issue 41): a move's class follows the expected result it gave
//! away (`ai::analysis::win_chance`), never more than its steps say. A planted blunder
//! stays a blunder where the race is open; a move that changes nothing in a decided game
//! is no mistake, however many steps it costs.

use common::two_player_game;
use halma_ai::analysis::{
    self, phase, win_chance, AnalysisRequest, Class, Eval, GameAnalysis, Quality, Steps, Verdict, WinModel,
    BLUNDER_CHANCE, INACCURACY_CHANCE, MISTAKE_CHANCE,
};
use halma_rules::{Game, Position, Seat, Setup};
use halma_test_support as common;
use std::sync::atomic::AtomicBool;

fn analyse(game: &Game, quality: Quality) -> GameAnalysis {
    let request = AnalysisRequest::new(quality).with_threads(1);
    analysis::analyse(game, &request, &AtomicBool::new(false), &mut |_, _| {}).unwrap_or_else(|e| panic!("{e}"))
}

fn lead(tenths: i32) -> Eval {
    Eval::Lead(Steps(tenths))
}

fn start(setup: Setup) -> Position {
    Position::start(setup, Seat::A)
}

/// The first action's judgement and the chance it lost.
fn first_judged(game: &Game, text: &str, quality: Quality) -> (analysis::Judgement, f64) {
    let mut game = game.clone();
    game.play_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let analysis = analyse(&game, quality);
    let Verdict::Judged(judgement) = &analysis.actions[0].verdict else { panic!("{text} not judged") };
    let lost = analysis.chance_lost(0).unwrap_or_else(|| panic!("{text}: a judged move has a chance lost"));
    (judgement.clone(), lost)
}

/// A's straggler on d4 has a ladder of A's own pieces ahead of it, five jumps into its
/// camp (as in tests/analysis.rs); h2-i3 instead is the planted blunder.
const LADDER_A: [&str; 10] = ["d4", "e5", "g7", "i9", "k11", "m13", "h2", "p16", "p15", "o16"];
/// C's pieces far from their camp: A is about a hundred steps ahead.
const FAR_C: [&str; 10] = ["g5", "c2", "b3", "l16", "m15", "n14", "k15", "o13", "j16", "m16"];
/// The ladder with three more of A's pieces still at home, and C's three pieces nearly
/// there: A is about 150 steps behind.
const LOST_A: [&str; 13] = ["d4", "e5", "g7", "i9", "k11", "m13", "h2", "p16", "p15", "o16", "a1", "b1", "a2"];
const NEAR_C: [&str; 3] = ["g5", "c2", "b3"];

#[test]
fn a_planted_blunder_in_a_won_position_is_still_a_blunder() {
    let won = two_player_game(&LADDER_A, &FAR_C, Seat::A, 20);
    let (judgement, lost) = first_judged(&won, "h2-i3", Quality::DEFAULT);
    assert_eq!((judgement.before, judgement.after), (lead(1004), lead(730)));
    assert_eq!((judgement.loss, judgement.class), (Steps(274), Class::Blunder));
    assert_eq!(judgement.best.to_string(), "d4-f6-h8-j10");
    // The win chance hardly moves a hundred steps ahead: the steps make it a blunder.
    assert_eq!(format!("{lost:.4}"), "0.0184");
}

#[test]
fn quiet_moves_in_a_long_lost_position_are_no_mistakes() {
    let lost = two_player_game(&LOST_A, &NEAR_C, Seat::A, 20);
    // Stopping the chain early: 9.3 and 12.7 steps, a blunder on the step scale alone.
    let cases =
        [("d4-f6-h8-j10", lead(-1467), lead(-1560), Steps(93)), ("d4-f6-h8", lead(-1467), lead(-1594), Steps(127))];
    for (text, before, after, loss) in cases {
        let (judgement, chance_lost) = first_judged(&lost, text, Quality::DEFAULT);
        assert_eq!((judgement.before, judgement.after, judgement.loss), (before, after, loss), "{text}");
        assert_eq!(judgement.class, Class::Good, "{text}: {judgement:?}");
        assert!(chance_lost < 0.001, "{text}: {chance_lost}");
    }
    // The same in a long-won one: a hundred steps ahead, a chain stopped one jump short.
    let won = two_player_game(&LADDER_A, &FAR_C, Seat::A, 20);
    let (judgement, _) = first_judged(&won, "d4-f6-h8", Quality::DEFAULT);
    assert!(judgement.loss > Steps::ZERO && judgement.loss < Steps::whole(15), "{judgement:?}");
    assert_eq!(judgement.class, Class::Good, "{judgement:?}");
}

/// Equal positions at the start of each setup (phase 1): what each loss is called.
#[test]
fn in_an_equal_position_the_class_follows_the_win_chance_lost() {
    let two = start(Setup::TwoPlayers);
    // (before, after, loss, class) in tenths of a step from A's side.
    let cases = [
        (0, 0, 0, Class::Best),
        (0, -5, 5, Class::Good),
        // Two steps: an inaccuracy on the step scale, 1.3 points of result: good.
        (0, -20, 20, Class::Good),
        // Eight steps, once a blunder: five points of result, an inaccuracy.
        (0, -80, 80, Class::Inaccuracy),
        (0, -140, 140, Class::Inaccuracy),
        // Twenty steps: a blunder whatever the chance says.
        (0, -200, 200, Class::Blunder),
    ];
    for (before, after, loss, class) in cases {
        let judged = Class::of_judgement(&two, Seat::A, lead(before), lead(after), Steps(loss));
        assert_eq!(judged, class, "{before} -> {after}");
    }
    // Walking into a forced loss from an equal position loses half the result.
    assert_eq!(Class::of_chance_lost(win_chance(&two, Seat::A, lead(0)), Steps(1000)), Class::Blunder);
    // Later in the race a lead counts more: the same ten steps lost where both sides have
    // a quarter of their work left (phase 2) is a mistake.
    let model = WinModel::of(Setup::TwoPlayers);
    let lost = model.chance(Seat::A, lead(0), 2.0) - model.chance(Seat::A, lead(-100), 2.0);
    assert_eq!(format!("{lost:.4}"), "0.1251");
    assert_eq!(Class::of_chance_lost(lost, Steps(100)), Class::Mistake);
}

#[test]
fn the_win_chance_model_and_thresholds() {
    assert_eq!((INACCURACY_CHANCE, MISTAKE_CHANCE, BLUNDER_CHANCE), (0.05, 0.10, 0.15));
    assert_eq!(analysis::BLUNDER_STEPS, Steps(150));
    for setup in Setup::ALL {
        assert_eq!(phase(&start(setup), Seat::A), 1.0, "{setup}");
    }
    let chance =
        |setup: Setup, seat: Seat, tenths: i32| format!("{:.4}", win_chance(&start(setup), seat, lead(tenths)));
    assert_eq!(chance(Setup::TwoPlayers, Seat::A, 0), "0.5167");
    assert_eq!(chance(Setup::TwoPlayers, Seat::A, 200), "0.6398");
    assert_eq!(chance(Setup::ThreePlayers, Seat::A, 0), "0.3297");
    assert_eq!(chance(Setup::ThreePlayers, Seat::B, 0), "0.4216");
    assert_eq!(chance(Setup::FourPlayersOneArmy, Seat::A, 0), "0.5021");
    assert_eq!(chance(Setup::FourPlayersBothArmies, Seat::A, 0), "0.5072");
    assert_eq!(win_chance(&start(Setup::TwoPlayers), Seat::A, Eval::Wins { plies: 3 }), 1.0);
    assert_eq!(win_chance(&start(Setup::TwoPlayers), Seat::A, Eval::Loses { plies: 3 }), 0.0);
    // Chances rise with the lead and stay within 0 and 1.
    let chances: Vec<f64> =
        (-50..=50).map(|steps| win_chance(&start(Setup::TwoPlayers), Seat::A, lead(steps * 100))).collect();
    assert!(chances.windows(2).all(|pair| pair[0] < pair[1]) && chances.iter().all(|c| (0.0..=1.0).contains(c)));
}

/// The graph as win chances: one per position, each the model's reading of the graph's
/// value there.
#[test]
fn an_analysis_gives_the_win_chance_of_every_position() {
    let mut game = two_player_game(&LADDER_A, &FAR_C, Seat::A, 20);
    for text in ["h2-i3", "g5-f6", "d4-e4"] {
        game.play_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    let analysis = analyse(&game, Quality::QUICK);
    let chances = analysis.win_chances(Seat::A);
    let graph = analysis.graph(Seat::A);
    assert_eq!(chances.len(), 4);
    for (index, (chance, value)) in chances.iter().zip(&graph).enumerate() {
        let position = game.position_before(index).copied().unwrap_or(*game.position());
        assert_eq!(*chance, win_chance(&position, Seat::A, *value), "{index}");
    }
    assert_eq!(analysis.chance_lost(1).map(|lost| lost >= 0.0), Some(true));
    assert_eq!(analysis.chance_lost(7), None);
}
