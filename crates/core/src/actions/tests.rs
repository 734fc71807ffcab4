//! The actions without a window: what each event does to the state and asks of the world.

use super::*;
use crate::effects::{Redraw, Save};
use crate::interface::{Question, RecordTrouble};
use crate::jobs::JobKind;
use crate::session::{GameConfig, Player};
use halma_rules::{sq, Seat, Setup, Square};

/// Two people at the game page of a fresh two-player game.
fn playing() -> AppState {
    let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4].into() };
    let mut state = AppState::default();
    let effects = update(&mut state, &Facts::default(), Event::Begin(Box::new(Session::new(config))));
    assert_eq!(effects.save, Save::Now);
    state
}

/// Taps `square` the way the board would (through the view's display cell).
fn tap(state: &mut AppState, square: Square) -> Effects {
    let (x, y) = state.session.view().display_cell(square);
    update(state, &Facts::default(), Event::Tap { x, y })
}

#[test]
fn a_preview_is_saved_soon_and_its_confirmation_at_once_with_the_move_shown() {
    let mut state = playing();
    assert_eq!(tap(&mut state, sq("e2")).save, Save::Soon, "a selection waits for the taps to stop");
    assert_eq!(tap(&mut state, sq("f3")).save, Save::Soon, "so does a preview");
    assert_eq!(state.session.game().history().len(), 0);
    let effects = update(&mut state, &Facts::default(), Event::Confirm);
    assert_eq!(state.session.game().history().len(), 1);
    assert_eq!(
        (effects.save, effects.redraw, effects.stop_search, effects.animate),
        (Save::Now, Redraw::All, true, true)
    );
    assert!(state.animation.is_some(), "the move is shown hop by hop");
    while state.animation.is_some() {
        update(&mut state, &Facts::default(), Event::AnimationStep);
    }
}

#[test]
fn what_plays_on_the_live_game_is_marked_for_the_review_gate() {
    for event in [Event::Tap { x: 0, y: 0 }, Event::Confirm, Event::Undo, Event::Redo, Event::AnswerDraw(true)] {
        assert!(event.plays_on_live_game(), "{event:?}");
    }
    for event in [Event::ReviewStep(crate::interface::ReviewStep::Back), Event::Analyse, Event::NewGame, Event::ZoomFit]
    {
        assert!(!event.plays_on_live_game(), "{event:?}");
    }
}

#[test]
fn a_hint_waits_while_a_search_runs() {
    let mut state = playing();
    let busy = Facts { busy: Some(JobKind::Computer), analysing: false };
    assert_eq!(update(&mut state, &busy, Event::Hint), Effects::none());
    assert!(update(&mut state, &Facts::default(), Event::Hint).start_hint);
}

#[test]
fn set_up_keeps_the_first_move_of_a_game_nobody_has_moved_in() {
    // A newcomer opens Set up… before moving: Start must not let the computer go first.
    let mut state = playing();
    update(&mut state, &Facts::default(), Event::SetUp);
    assert_eq!(state.form.config().first, Seat::A);
    update(&mut state, &Facts::default(), Event::GoBack);
    tap(&mut state, sq("e2"));
    tap(&mut state, sq("f3"));
    update(&mut state, &Facts::default(), Event::Confirm);
    // After a move, a different game: the other seat begins, as New game would.
    update(&mut state, &Facts::default(), Event::SetUp);
    assert_eq!(state.form.config().first, state.session.next_config().first);
    assert_ne!(state.form.config().first, Seat::A);
}

#[test]
fn back_cancels_a_running_analysis_before_anything_else() {
    let mut state = playing();
    let analysing = Facts { busy: None, analysing: true };
    let effects = update(&mut state, &analysing, Event::Back);
    assert!(effects.stop_analysis && !effects.let_system_close);
    // Without a game page left to go back from, the system may close the app.
    state.ui.set_up();
    assert!(update(&mut state, &Facts::default(), Event::Back).let_system_close);
}

#[test]
fn a_refused_record_is_told_and_changes_nothing() {
    let mut state = playing();
    tap(&mut state, sq("e2"));
    tap(&mut state, sq("f3"));
    update(&mut state, &Facts::default(), Event::Confirm);
    let before = state.session.clone();
    update(&mut state, &Facts::default(), Event::OpenImport);
    let effects = update(&mut state, &Facts::default(), Event::Import { text: "not a record".into(), review: false });
    assert_eq!(effects.save, Save::No);
    assert_eq!(state.session.game(), before.game());
    assert_eq!(
        state.messages.import_trouble.as_ref().map(|(_, trouble)| trouble.kind),
        Some(RecordTrouble::NotARecord)
    );
    assert!(state.ui.import_open(), "the dialog stays open with its trouble");
    // Opening the dialog again starts clean.
    update(&mut state, &Facts::default(), Event::CloseImport);
    update(&mut state, &Facts::default(), Event::OpenImport);
    assert_eq!(state.messages.import_trouble, None);
}

#[test]
fn copy_game_then_import_gives_the_same_game_in_review() {
    let mut state = playing();
    tap(&mut state, sq("e2"));
    tap(&mut state, sq("f3"));
    update(&mut state, &Facts::default(), Event::Confirm);
    let copy = update(&mut state, &Facts::default(), Event::CopyGame { unix_time: 0 }).copy;
    let Some(copy) = copy else { panic!("Copy game gives a record") };
    assert!(copy.text.contains("1970.01.01"), "{}", copy.text);
    let played = state.session.game().clone();
    update(&mut state, &Facts::default(), Event::AnswerQuestion(true));
    update(&mut state, &Facts::default(), Event::NewGame);
    assert_eq!(state.ui.question(), Question::NewGame, "an unfinished game is not dropped without a yes");
    let effects = update(&mut state, &Facts::default(), Event::AnswerQuestion(true));
    assert!(effects.stop_search && effects.save == Save::Now);
    assert!(state.session.game().history().is_empty());
    let effects = update(&mut state, &Facts::default(), Event::Import { text: copy.text, review: true });
    assert_eq!(effects.save, Save::Now);
    assert_eq!(state.session.game(), &played);
    assert_eq!(state.ui.review(), Some(0), "in review from its start");
}

#[test]
fn a_search_for_an_earlier_position_is_dropped() {
    let mut state = playing();
    let finished =
        Finished { kind: JobKind::Hint, plies: 3, turn: crate::players::Turn::Chose(halma_rules::Action::Pass) };
    let effects = update(&mut state, &Facts::default(), Event::SearchFinished(finished));
    assert_eq!((effects.save, effects.redraw), (Save::No, Redraw::All));
    assert!(state.session.game().history().is_empty());
}

#[test]
fn a_failed_analysis_is_told_until_the_next_one_starts() {
    let mut state = playing();
    tap(&mut state, sq("e2"));
    tap(&mut state, sq("f3"));
    update(&mut state, &Facts::default(), Event::Confirm);
    update(&mut state, &Facts::default(), Event::AnalysisFailed);
    assert!(state.messages.analysis_failed);
    let running = Facts { busy: None, analysing: true };
    assert_eq!(update(&mut state, &running, Event::Analyse), Effects::none(), "one analysis at a time");
    assert!(update(&mut state, &Facts::default(), Event::Analyse).start_analysis);
    assert!(!state.messages.analysis_failed);
}

#[test]
fn the_menu_and_the_summary_are_kept_in_the_state() {
    let mut state = playing();
    update(&mut state, &Facts::default(), Event::SetMenuOpen(true));
    update(&mut state, &Facts::default(), Event::SetSummaryOpen(true));
    assert!(state.ui.menu_open() && state.ui.summary_open());
    update(&mut state, &Facts::default(), Event::SetMenuOpen(false));
    assert!(!state.ui.menu_open());
}

// ----- Touch taps (issue 39): snapped to what the finger meant, never a move -----

/// A square of the unzoomed board on an upright phone, in dp.
const SQUARE_DP: f32 = 22.0;

/// A finger's tap `dx`, `dy` dp from the centre of `square` as displayed.
fn touch(state: &mut AppState, square: Square, dx: f32, dy: f32) -> Effects {
    let (column, row) = state.session.view().display_cell(square);
    let (x, y) = ((column as f32 + 0.5) * SQUARE_DP + dx, (row as f32 + 0.5) * SQUARE_DP + dy);
    update(state, &Facts::default(), Event::TouchTap { x, y, square_dp: SQUARE_DP })
}

/// Two people at a position: A at c3 and d4, C at e3 and f5 (d4 alone jumps to f2).
fn playing_from(hpn: &str) -> AppState {
    let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4].into() };
    let Ok(position) = halma_rules::parse_hpn(hpn) else { panic!("{hpn} parses") };
    let session = Session::with_game(config, halma_rules::Game::from_position(position));
    let Ok(session) = session else { panic!("a session for {hpn}") };
    let mut state = AppState::default();
    update(&mut state, &Facts::default(), Event::Begin(Box::new(session)));
    state
}

const CHAIN: &str = "16/16/16/16/16/16/16/16/16/16/16/5C10/3A12/2A1C11/16/15C A 2p 0";

#[test]
fn a_touch_tap_off_a_piece_selects_the_likeliest_and_a_mouse_click_there_is_exact() {
    let mut state = playing();
    // f2 is empty; 6 dp left of its centre the finger is 16 dp from e2, a movable piece.
    assert_eq!(touch(&mut state, sq("f2"), -6.0, 0.0).save, Save::Soon);
    assert_eq!(state.session.interaction().selected, Some(sq("e2")));
    // A mouse click there takes f2 itself, an empty square: nothing is selected.
    let mut state = playing();
    tap(&mut state, sq("f2"));
    assert_eq!(state.session.interaction().selected, None, "a click on an empty square selects nothing");
    // Between c3 and d4, nearer c3: c3 (not d4).
    let mut state = playing_from(CHAIN);
    touch(&mut state, sq("c3"), 7.0, -7.0);
    assert_eq!(state.session.interaction().selected, Some(sq("c3")));
}

#[test]
fn a_touch_tap_off_a_destination_previews_it_and_an_ambiguous_one_never_plays() {
    let mut state = playing();
    touch(&mut state, sq("e2"), 0.0, 0.0);
    assert_eq!(state.session.interaction().selected, Some(sq("e2")));
    // On the edge between e2's steps f2 and f3: ambiguous, previews the likelier, f3.
    touch(&mut state, sq("f2"), 0.0, -11.0);
    assert_eq!(state.session.interaction().route, vec![sq("e2"), sq("f3")]);
    // Tapping on and around the preview's end again and again plays nothing.
    for (dx, dy) in [(0.0, 0.0), (3.0, -11.0), (-11.0, 0.0), (0.0, 11.0)] {
        touch(&mut state, sq("f3"), dx, dy);
        assert_eq!(state.session.game().history().len(), 0, "a tap never plays a move");
    }
    assert_eq!(update(&mut state, &Facts::default(), Event::Confirm).save, Save::Now);
    assert_eq!(state.session.game().history().len(), 1, "Confirm does");
}

#[test]
fn a_touch_tap_on_a_neighbours_destination_previews_the_neighbours_move() {
    let mut state = playing_from(CHAIN);
    // The first tap, between c3 and d4, selects c3 ...
    touch(&mut state, sq("c3"), 7.0, -7.0);
    assert_eq!(state.session.interaction().selected, Some(sq("c3")));
    // ... but f2 is d4's jump over e3, which c3 cannot reach: d4's move is previewed.
    touch(&mut state, sq("f2"), 1.0, 2.0);
    assert_eq!(state.session.interaction().route, vec![sq("d4"), sq("f2")]);
    assert_eq!(state.session.game().history().len(), 0);
    // With a mouse the same two clicks are exact: f2 drops c3's selection.
    let mut state = playing_from(CHAIN);
    tap(&mut state, sq("c3"));
    tap(&mut state, sq("f2"));
    assert_eq!(state.session.interaction().selected, None);
    // A precise first touch on c3 is exact too: no other piece's move follows.
    let mut state = playing_from(CHAIN);
    touch(&mut state, sq("c3"), 2.0, -2.0);
    touch(&mut state, sq("f2"), 1.0, 2.0);
    assert_eq!(state.session.interaction().selected, None);
}

// ----- Train (#41) -----

use crate::storage::{document_text, SESSION};
use halma_ai::puzzles::Difficulty;

/// The live game's save as it would be written (wherever it is in the stack of boards).
fn saved_game(state: &AppState) -> String {
    state.live_session().and_then(|live| document_text(SESSION, live).ok()).unwrap_or_default()
}

/// A two-player game with a move played, then the Train page at a date.
fn training() -> (AppState, String) {
    let mut state = playing();
    tap(&mut state, sq("e2"));
    tap(&mut state, sq("f3"));
    update(&mut state, &Facts::default(), Event::Confirm);
    state.animation = None;
    let saved = saved_game(&state);
    update(&mut state, &Facts::default(), Event::OpenTrain { year: 2026, month: 12, day: 3 });
    assert_eq!(state.ui.page(), Page::Train);
    (state, saved)
}

/// Plays `route` on the Train page's board by taps and Confirm.
fn play_in_puzzle(state: &mut AppState, route: &[Square]) -> Effects {
    for &square in route {
        let (x, y) = state.training_shown().map(|s| s.view().display_cell(square)).unwrap_or((0, 0));
        update(state, &Facts::default(), Event::Tap { x, y });
    }
    update(state, &Facts::default(), Event::Confirm)
}

/// A legal move of the puzzle's position that is not its answer.
fn wrong_route(training: &Training) -> Vec<Square> {
    let position = &training.puzzle.position;
    let answer = training.puzzle.answer_move();
    let wrong = position.legal_moves().iter().find(|&mv| mv != answer);
    wrong.and_then(|mv| position.route(mv)).map(|route| route.squares().to_vec()).unwrap_or_default()
}

#[test]
fn the_train_page_opens_at_the_puzzle_of_the_day_on_its_own_game() {
    let (state, saved) = training();
    let training = state.training.as_ref().expect("a puzzle");
    let today = halma_ai::puzzles::puzzle_of_the_day(&puzzle_set().puzzles, 2026, 12, 3).expect("a puzzle");
    assert_eq!(training.puzzle.id, today.id);
    assert_eq!(training.session.game().position(), &today.position);
    assert_eq!(training.session.config().players, [Player::Human; 4], "every seat is the player's");
    assert_eq!(state.session.game().history().len(), 1, "the live game is kept as it was");
    assert_eq!(saved_game(&state), saved);
}

#[test]
fn a_wrong_answer_is_told_then_retried_without_touching_the_live_game() {
    let (mut state, saved) = training();
    let rating = state.settings.training.rating;
    let route = wrong_route(state.training.as_ref().expect("a puzzle"));
    let effects = play_in_puzzle(&mut state, &route);
    assert!(!effects.stop_search, "the live game's search goes on");
    let training = state.training.as_ref().expect("a puzzle");
    assert!(matches!(training.outcome, Some(TrainOutcome::Wrong { .. })), "{:?}", training.outcome);
    assert_eq!(training.session.game().history().len(), 1, "the wrong move is shown");
    let progress = &state.settings.training;
    assert_eq!(progress.streak, 0);
    assert!(progress.rating < rating, "a wrong first answer lowers the rating");
    assert!(progress.solved.is_empty());
    // The board takes no more moves until Retry.
    let tapped = play_in_puzzle(&mut state, &route);
    assert_eq!(tapped, Effects::none());
    update(&mut state, &Facts::default(), Event::TrainRetry);
    let training = state.training.as_ref().expect("a puzzle");
    assert_eq!(training.outcome, None);
    assert_eq!(training.session.game().history().len(), 0, "the position is back");
    assert_eq!(state.session.game().history().len(), 1);
    assert_eq!(saved_game(&state), saved, "the live game's save is byte for byte the same");
}

#[test]
fn a_wrong_answer_is_told_what_it_gives_away_once_measured() {
    let (mut state, _) = training();
    let route = wrong_route(state.training.as_ref().expect("a puzzle"));
    let effects = play_in_puzzle(&mut state, &route);
    assert!(effects.measure_loss, "the wrong answer is measured in the background");
    let (puzzle, played) = match state.training.as_ref() {
        Some(Training { puzzle, outcome: Some(TrainOutcome::Wrong { played, loss: None }), .. }) => {
            (puzzle.clone(), played.clone())
        }
        other => panic!("a wrong answer not yet measured, not {:?}", other.map(|training| &training.outcome)),
    };
    // What the background thread computes: every built-in puzzle's answer beats every
    // other move by at least MIN_GAIN at the verification depth.
    let mv = halma_rules::Move { from: played.from(), to: played.to() };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let loss = puzzle.loss_of(mv, halma_ai::puzzles::VERIFY_DEPTH, &stop).expect("a loss");
    assert!(loss.loss >= halma_ai::puzzles::MIN_GAIN, "{loss:?}");
    assert!(loss.class >= halma_ai::analysis::Class::Good, "judged as the review judges: {loss:?}");
    // A report for another move of the puzzle is not this answer's: ignored.
    let other =
        Event::TrainLossMeasured { puzzle_id: puzzle.id.clone(), played: puzzle.answer.clone(), loss: Some(loss) };
    assert_eq!(update(&mut state, &Facts::default(), other), Effects::none());
    let told = Event::TrainLossMeasured { puzzle_id: puzzle.id.clone(), played: played.clone(), loss: Some(loss) };
    assert_eq!(update(&mut state, &Facts::default(), told).redraw, crate::effects::Redraw::All);
    let outcome = state.training.as_ref().and_then(|training| training.outcome.clone());
    assert_eq!(outcome, Some(TrainOutcome::Wrong { played: played.clone(), loss: Some(loss) }));
    // After Retry a late report finds nothing to tell.
    update(&mut state, &Facts::default(), Event::TrainRetry);
    let late = Event::TrainLossMeasured { puzzle_id: puzzle.id, played, loss: Some(loss) };
    assert_eq!(update(&mut state, &Facts::default(), late), Effects::none());
    assert_eq!(state.training.as_ref().and_then(|training| training.outcome.clone()), None);
}

#[test]
fn the_right_answer_is_solved_and_moves_the_progress() {
    let (mut state, saved) = training();
    let answer = state.training.as_ref().expect("a puzzle").puzzle.answer.squares().to_vec();
    let effects = play_in_puzzle(&mut state, &answer);
    assert_eq!(effects.save, Save::Now, "the progress is saved");
    let training = state.training.as_ref().expect("a puzzle");
    assert_eq!(training.outcome, Some(TrainOutcome::Solved));
    let progress = &state.settings.training;
    assert_eq!((progress.streak, progress.best_streak, progress.solved.len()), (1, 1, 1));
    assert_eq!(super::solved_in_set(progress), 1);
    assert!(progress.rating > crate::settings::START_RATING);
    assert_eq!(saved_game(&state), saved);
    // Next: another puzzle of that level, not yet solved.
    update(&mut state, &Facts::default(), Event::TrainNext(Difficulty::Hard));
    let next = state.training.as_ref().expect("a puzzle");
    assert_eq!(next.puzzle.difficulty, Difficulty::Hard);
    assert!(next.outcome.is_none() && !state.settings.training.is_solved(&next.puzzle.id));
}

#[test]
fn puzzles_solved_in_an_earlier_set_are_not_counted_in_this_one() {
    let mut progress = crate::settings::TrainingProgress::default();
    progress.mark_solved("2p-39-6-66");
    progress.mark_solved("3p-39-30-93");
    assert_eq!(super::solved_in_set(&progress), 0);
    let first = &super::puzzle_set().puzzles[0];
    progress.mark_solved(&first.id);
    assert_eq!((super::solved_in_set(&progress), progress.solved.len()), (1, 3));
}

#[test]
fn a_solve_after_a_retry_counts_as_solved_but_moves_neither_streak_nor_rating() {
    let (mut state, _) = training();
    let route = wrong_route(state.training.as_ref().expect("a puzzle"));
    play_in_puzzle(&mut state, &route);
    let rating = state.settings.training.rating;
    update(&mut state, &Facts::default(), Event::TrainRetry);
    let answer = state.training.as_ref().expect("a puzzle").puzzle.answer.squares().to_vec();
    play_in_puzzle(&mut state, &answer);
    let progress = &state.settings.training;
    assert_eq!((progress.streak, progress.rating, progress.solved.len()), (0, rating, 1));
}

#[test]
fn hints_select_the_piece_then_show_its_first_landing() {
    let (mut state, _) = training();
    update(&mut state, &Facts::default(), Event::TrainHint);
    let training = state.training.as_ref().expect("a puzzle");
    assert_eq!(training.session.interaction().selected, Some(training.puzzle.hint_piece()));
    update(&mut state, &Facts::default(), Event::TrainHint);
    let training = state.training.as_ref().expect("a puzzle");
    let route = &training.session.interaction().route;
    assert_eq!(route[..], [training.puzzle.hint_piece(), training.puzzle.hint_first_landing()]);
    assert!(training.session.interaction().from_hint);
}

#[test]
fn the_second_hint_shows_the_first_landing_of_every_puzzle() {
    // Some answers begin with a jump whose first landing is still in the home camp (d1 over
    // d2 to d3 with pieces at home): no move may end there under the home-leaving duty, yet
    // the hint shows it as the chain's first landing, as a tap there would.
    let (mut state, _) = training();
    let mut landing_at_home = 0;
    for puzzle in &puzzle_set().puzzles {
        let (piece, landing) = (puzzle.hint_piece(), puzzle.hint_first_landing());
        let ends_there = puzzle.position.legal_moves().destinations(piece).contains(landing);
        landing_at_home += usize::from(!ends_there);
        state.training = Training::new(puzzle.clone(), TrainSource::Daily, &state.session);
        update(&mut state, &Facts::default(), Event::TrainHint);
        update(&mut state, &Facts::default(), Event::TrainHint);
        let training = state.training.as_ref().expect("a puzzle");
        let interaction = training.session.interaction();
        assert_eq!(interaction.route[..], [piece, landing], "puzzle {}", puzzle.id);
        assert!(interaction.from_hint, "puzzle {}", puzzle.id);
        assert_eq!(interaction.can_confirm(training.session.game()), ends_there, "puzzle {}", puzzle.id);
    }
    assert!(landing_at_home > 0, "the set has answers starting at home");
}

#[test]
fn leaving_the_train_page_gives_the_board_back_to_the_live_game() {
    let (mut state, saved) = training();
    update(&mut state, &Facts::default(), Event::GoBack);
    assert_eq!(state.ui.page(), Page::Game);
    assert!(state.training_shown().is_none());
    assert_eq!(saved_game(&state), saved);
    tap(&mut state, sq("o15"));
    assert_eq!(state.session.interaction().selected, Some(sq("o15")), "taps play the live game again");
    // Back to Train: the same puzzle.
    let id = state.training.as_ref().map(|t| t.puzzle.id.clone());
    update(&mut state, &Facts::default(), Event::OpenTrain { year: 2030, month: 1, day: 1 });
    assert_eq!(state.training.as_ref().map(|t| t.puzzle.id.clone()), id);
}

#[test]
fn the_rating_follows_elo_against_the_puzzles_level() {
    let mut progress = crate::settings::TrainingProgress::default();
    progress.record(true, puzzle_rating(Difficulty::Easy));
    // Expected 0.76 against an easy puzzle from 1200: +8.
    assert_eq!(progress.rating, 1208);
    progress.record(false, puzzle_rating(Difficulty::Hard));
    // Expected 0.09 from 1208 against a hard one: -3.
    assert_eq!((progress.rating, progress.streak, progress.best_streak), (1205, 0, 1));
}

#[test]
fn practise_your_mistakes_offers_the_peoples_mistakes_as_puzzles() {
    use halma_ai::analysis::{ActionAnalysis, Class, Eval, GameAnalysis, Judgement, Quality, Steps, Verdict};
    use halma_rules::{Action, Move};
    let mut state = playing();
    for (from, to) in [("e2", "f3"), ("o15", "n14"), ("f3", "g4")] {
        tap(&mut state, sq(from));
        tap(&mut state, sq(to));
        update(&mut state, &Facts::default(), Event::Confirm);
    }
    state.animation = None;
    let saved = saved_game(&state);
    let game = state.session.game().clone();
    // A's first move called a mistake, the best another move of that position.
    let start = *game.position_before(0).expect("the start");
    let played = Move { from: sq("e2"), to: sq("f3") };
    let best = start.legal_moves().iter().find(|&mv| mv != played).and_then(|mv| start.route(mv)).expect("a move");
    let verdict = |index: usize| {
        let judged = |class| Judgement {
            before: Eval::Lead(Steps(0)),
            after: Eval::Lead(Steps(-40)),
            best: if index == 0 {
                best.clone()
            } else {
                game.position_before(index)
                    .and_then(|p| match &game.history()[index] {
                        Action::Move(r) => p.route(Move { from: r.from(), to: r.to() }),
                        _ => None,
                    })
                    .expect("a route")
            },
            loss: Steps(if index == 0 { 40 } else { 0 }),
            class,
        };
        Verdict::Judged(judged(if index == 0 { Class::Mistake } else { Class::Best }))
    };
    let actions = (0..game.history().len())
        .map(|index| ActionAnalysis {
            index,
            seat: game.actor(index),
            action: game.history()[index].clone(),
            verdict: verdict(index),
        })
        .collect();
    let analysis = GameAnalysis::from_verdicts(&game, Quality { depth: 2 }, actions).expect("an analysis");
    assert!(state.session.set_analysis(analysis));
    let mistakes = mistakes_of(&state.session);
    assert_eq!(mistakes.len(), 1);
    assert_eq!(mistakes[0].position, start, "the position before the move");
    assert_eq!(mistakes[0].answer_move(), Move { from: best.from(), to: best.to() });
    let saved_analysed = saved_game(&state);
    update(&mut state, &Facts::default(), Event::PractiseMistakes);
    assert_eq!(state.ui.page(), Page::Train);
    let answer = best.squares().to_vec();
    play_in_puzzle(&mut state, &answer);
    let training = state.training.as_ref().expect("a puzzle");
    assert_eq!(training.outcome, Some(TrainOutcome::Solved));
    assert_eq!(state.settings.training, crate::settings::TrainingProgress::default(), "not graded");
    assert_eq!(saved_game(&state), saved_analysed, "the analysed game is untouched");
    assert_ne!(saved, saved_analysed);
    // "Your mistake 1 of 1": Next mistake has no other to go to (the page offers none), and
    // does not set the same one up again.
    assert_eq!(update(&mut state, &Facts::default(), Event::TrainNextMistake), Effects::none());
    assert_eq!(state.training.as_ref().expect("a puzzle").outcome, Some(TrainOutcome::Solved));
}

// ----- No action loses a game (#47) -----

/// A two-player game between people with one move played: unfinished, so at stake.
fn unfinished() -> (AppState, String) {
    let mut state = playing();
    tap(&mut state, sq("e2"));
    tap(&mut state, sq("f3"));
    update(&mut state, &Facts::default(), Event::Confirm);
    state.animation = None;
    assert!(state.unfinished_game_at_stake());
    let saved = saved_game(&state);
    (state, saved)
}

/// A finished record of another game, as Import reads it.
fn another_record() -> String {
    let mut other = playing();
    for square in ["c3", "d4"] {
        tap(&mut other, sq(square));
    }
    update(&mut other, &Facts::default(), Event::Confirm);
    let copy = update(&mut other, &Facts::default(), Event::CopyGame { unix_time: 0 }).copy;
    copy.map(|copy| copy.text).unwrap_or_default()
}

/// Every action that puts another game on the board either asks first (and "no" keeps
/// the game exactly as it was saved) or keeps the live game where it comes back from.
#[test]
fn no_action_loses_the_unfinished_game() {
    let facts = Facts::default();
    let asks = |event: Event, setup: &dyn Fn(&mut AppState)| {
        let (mut state, saved) = unfinished();
        setup(&mut state);
        let label = format!("{event:?}");
        update(&mut state, &facts, event);
        let question = state.ui.question();
        assert_ne!(question, Question::None, "{label} asks before replacing an unfinished game");
        update(&mut state, &facts, Event::AnswerQuestion(false));
        assert_eq!(saved_game(&state), saved, "{label}, then no: the game is as it was");
        assert!(state.replacing.is_none());
        question
    };
    let record = another_record();
    for review in [false, true] {
        let open = |state: &mut AppState| {
            update(state, &Facts::default(), Event::OpenImport);
        };
        assert_eq!(asks(Event::Import { text: record.clone(), review }, &open), Question::Replace);
    }
    assert_eq!(asks(Event::NewGame, &|_| {}), Question::NewGame);
    assert_eq!(asks(Event::Restart, &|_| {}), Question::Restart);
    let set_up = |state: &mut AppState| {
        update(state, &Facts::default(), Event::SetUp);
    };
    assert_eq!(asks(Event::Start, &set_up), Question::Replace);
    let join_dialog = |state: &mut AppState| {
        update(state, &Facts::default(), Event::OpenJoin);
    };
    let join = Event::JoinNearby { code: "ABCDEF".into(), address: "127.0.0.1:40123".into() };
    assert_eq!(asks(join, &join_dialog), Question::Replace);

    // Review, Train, the guide and a game by message keep the live game and give it back.
    let keeps = |there: Vec<Event>, back: Event| {
        let (mut state, saved) = unfinished();
        let label = format!("{there:?}");
        for event in there {
            update(&mut state, &facts, event);
        }
        update(&mut state, &facts, back);
        assert_eq!(state.ui.question(), Question::None, "{label}");
        assert_eq!(saved_game(&state), saved, "{label}: the live game comes back as it was");
    };
    keeps(
        vec![Event::ReviewStep(crate::interface::ReviewStep::First)],
        Event::ReviewStep(crate::interface::ReviewStep::Leave),
    );
    keeps(vec![Event::OpenTrain { year: 2026, month: 12, day: 5 }], Event::GoBack);
    keeps(vec![Event::OpenGuide], Event::SkipGuide);
    let by_message = vec![
        Event::SetUp,
        Event::SetSeatPlayer(2, crate::interface::PlayerKind::Friend),
        Event::Start,
        Event::ShowPage(Page::Games),
    ];
    keeps(by_message, Event::OpenGame(String::new()));

    // Yes carries the import out.
    let (mut state, _) = unfinished();
    update(&mut state, &facts, Event::OpenImport);
    update(&mut state, &facts, Event::Import { text: record, review: false });
    let effects = update(&mut state, &facts, Event::AnswerQuestion(true));
    assert_eq!(effects.save, Save::Now);
    assert_eq!(state.session.game().history().len(), 1);
    assert_eq!(state.session.game().history()[0].to_string(), "c3-d4");
}

#[test]
fn a_finished_or_empty_game_is_replaced_without_a_question() {
    let facts = Facts::default();
    let mut state = playing();
    update(&mut state, &facts, Event::OpenImport);
    update(&mut state, &facts, Event::Import { text: another_record(), review: true });
    assert_eq!(state.ui.question(), Question::None, "nothing is lost: no question");
    assert_eq!(state.ui.review(), Some(0));
}

// ----- The tail of update (#48): what every event brings, decided without a window -----

/// The computer's seat is started by `update` itself once the person's move has been
/// shown, never while the move still shows or the computer's own search runs.
#[test]
fn the_computer_to_move_is_started_once_the_move_has_been_shown() {
    use crate::players::Driven;
    let mut players = halma_rules::BySeat::all(Player::Human);
    players[Seat::C] = Player::Computer(halma_ai::Level::Casual);
    let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players };
    let mut state = AppState::default();
    let effects = update(&mut state, &Facts::default(), Event::Begin(Box::new(Session::new(config))));
    assert_eq!(effects.start_seat, None, "a person moves first");
    tap(&mut state, sq("e2"));
    tap(&mut state, sq("f3"));
    let effects = update(&mut state, &Facts::default(), Event::Confirm);
    assert!(state.animation.is_some());
    assert_eq!(effects.start_seat, None, "not while the move is shown");
    let mut started = None;
    while state.animation.is_some() {
        started = update(&mut state, &Facts::default(), Event::AnimationStep).start_seat;
    }
    assert_eq!(started, Some(Driven::Computer(halma_ai::Level::Casual)), "once the piece has landed");
    let searching = Facts { busy: Some(JobKind::Computer), analysing: false };
    assert_eq!(update(&mut state, &searching, Event::ZoomFit).start_seat, None, "its search runs already");
    let stopped = update(&mut state, &Facts::default(), Event::ZoomFit).start_seat;
    assert_eq!(stopped, Some(Driven::Computer(halma_ai::Level::Casual)), "started again if it was stopped");
}

/// Three computers after a person's move in a four-player game (#47 item 7): each move is
/// shown hop by hop, and the next computer starts only once the previous piece has landed,
/// so a person sees the round one move after another.
#[test]
fn a_round_of_computers_is_shown_one_move_after_another() {
    use crate::players::{Driven, Turn};
    let level = halma_ai::Level::Casual;
    let players = [Player::Human, Player::Computer(level), Player::Computer(level), Player::Computer(level)];
    let config = GameConfig { setup: Setup::FourPlayersOneArmy, first: Seat::A, players: players.into() };
    let mut state = AppState::default();
    update(&mut state, &Facts::default(), Event::Begin(Box::new(Session::new(config))));
    let some_move = |state: &AppState| {
        let position = state.session.game().position();
        let mv = position.legal_moves().iter().next().expect("a legal move");
        halma_rules::Action::Move(position.route(mv).expect("its route"))
    };
    state.session.play_action(&some_move(&state)).expect("a legal first move");
    let mut effects = update(&mut state, &Facts::default(), Event::ZoomFit);
    for computer in 1..=3 {
        let started = effects.start_seat.take().unwrap_or_else(|| panic!("computer {computer} starts"));
        assert_eq!(started, Driven::Computer(level));
        let plies = state.session.game().history().len();
        let searching = Facts { busy: Some(JobKind::Computer), analysing: false };
        let chosen = some_move(&state);
        let turn = Turn::Chose(chosen.clone());
        effects =
            update(&mut state, &searching, Event::SearchFinished(Finished { kind: JobKind::Computer, plies, turn }));
        assert_eq!(state.session.game().history().last(), Some(&chosen), "computer {computer}'s move is played");
        assert!(state.animation.is_some() && effects.animate, "and shown hop by hop");
        assert_eq!(effects.start_seat, None, "the next seat waits while the move is shown");
        let mut hops = 0;
        while state.animation.is_some() {
            assert_eq!(effects.start_seat, None, "not before the piece has landed");
            effects = update(&mut state, &Facts::default(), Event::AnimationStep);
            hops += 1;
        }
        assert!(hops >= 1);
    }
    assert_eq!(effects.start_seat, None, "the round comes back to the person");
    assert_eq!(state.session.game().position().to_move(), Seat::A);
}

/// A person's draw offer is answered by the computer seats in the same event.
#[test]
fn the_computers_answer_a_draw_offer_in_the_same_event() {
    let mut players = halma_rules::BySeat::all(Player::Human);
    players[Seat::C] = Player::Computer(halma_ai::Level::Casual);
    let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players };
    let mut state = AppState::default();
    update(&mut state, &Facts::default(), Event::Begin(Box::new(Session::new(config))));
    update(&mut state, &Facts::default(), Event::OfferDraw);
    assert_eq!(state.ui.question(), Question::OfferDraw, "the person may offer");
    update(&mut state, &Facts::default(), Event::AnswerQuestion(true));
    assert_eq!(state.session.game().pending_offer(), None, "the computer answered at once");
}

// ----- One way to show another game (#48) -----

/// Each other game the board can show, opened over an unfinished live game with a
/// selection on it, played in, and left: the live game's save is byte-identical after
/// each, and the board plays the live game again.
#[test]
fn the_live_game_is_saved_unchanged_after_every_other_game() {
    let send = |state: &mut AppState, event: Event| update(state, &Facts::default(), event);
    let (mut state, _) = unfinished();
    tap(&mut state, sq("o15"));
    let saved = saved_game(&state);
    assert_eq!(state.session.interaction().selected, Some(sq("o15")), "kept in the save too");

    // The guide: a move of its own game, then Done.
    send(&mut state, Event::OpenGuide);
    for square in [sq("d2"), sq("e3")] {
        let session = state.guide_shown().expect("the guide's game");
        let (x, y) = session.view().display_cell(square);
        send(&mut state, Event::Tap { x, y });
    }
    send(&mut state, Event::Confirm);
    send(&mut state, Event::FinishGuide);
    assert_eq!(saved_game(&state), saved, "after the guide");

    // Train: a wrong answer, Retry, the hint, and back to the game.
    send(&mut state, Event::OpenTrain { year: 2026, month: 12, day: 5 });
    let wrong = wrong_route(state.training.as_ref().expect("a puzzle"));
    play_in_puzzle(&mut state, &wrong);
    send(&mut state, Event::TrainRetry);
    send(&mut state, Event::TrainHint);
    send(&mut state, Event::GoBack);
    assert_eq!(saved_game(&state), saved, "after Train");

    // Practise your mistakes: the page opens (with or without mistakes) and is left.
    send(&mut state, Event::PractiseMistakes);
    send(&mut state, Event::GoBack);
    assert_eq!(saved_game(&state), saved, "after Practise your mistakes");

    // The review of the live game: stepped through, then left.
    for step in [ReviewStep::First, ReviewStep::Forward, ReviewStep::Back, ReviewStep::Leave] {
        send(&mut state, Event::ReviewStep(step));
    }
    assert_eq!(saved_game(&state), saved, "after the review");

    // A game by message: set up (the new-game page clears the live game's selection, as
    // it always does), started, a move played in it, and the game on this device chosen
    // again from the Games list.
    send(&mut state, Event::SetUp);
    send(&mut state, Event::SetSeatPlayer(2, PlayerKind::Friend));
    send(&mut state, Event::SetFirstSeat(0));
    let saved = saved_game(&state);
    send(&mut state, Event::Start);
    let id = state.by_message.active.expect("the game by message is shown");
    assert_eq!(saved_game(&state), saved, "while the game by message is shown");
    tap(&mut state, sq("e2"));
    tap(&mut state, sq("f3"));
    send(&mut state, Event::Confirm);
    state.animation = None;
    send(&mut state, Event::OpenGame(String::new()));
    assert_eq!(state.by_message.active, None);
    assert_eq!(state.by_message.games[&id].game().history().len(), 1, "the game by message kept its move");
    assert_eq!(saved_game(&state), saved, "after the game by message");

    // The board plays the live game again.
    assert!(state.guide_shown().is_none() && state.training_shown().is_none());
    assert_eq!(state.boards.top_cover(), None, "nothing covers the live game");
    assert_eq!(document_text(SESSION, &state.session).ok(), Some(saved));
}

// ----- Review: Next mistake -----

/// Next mistake steps through the moves the analysis calls a mistake or a blunder (not
/// an inaccuracy), from the position shown, and comes round to the first after the last.
#[test]
fn next_mistake_shows_each_mistake_and_blunder_in_turn() {
    use halma_ai::analysis::{ActionAnalysis, Class, Eval, GameAnalysis, Judgement, Quality, Steps, Verdict};
    use halma_rules::Action;
    let mut state = playing();
    for _ in 0..5 {
        // Each seat's first legal move, tapped along its route and confirmed.
        let position = *state.session.game().position();
        let route = position.legal_moves().iter().next().and_then(|mv| position.route(mv)).expect("a move");
        for &square in route.squares() {
            tap(&mut state, square);
        }
        update(&mut state, &Facts::default(), Event::Confirm);
        state.animation = None;
    }
    assert_eq!(state.session.game().history().len(), 5);
    let send = |state: &mut AppState| update(state, &Facts::default(), Event::NextMistake);
    assert_eq!(send(&mut state), Effects::none(), "no analysis: nothing to go to");

    let game = state.session.game().clone();
    let classes = [Class::Best, Class::Mistake, Class::Inaccuracy, Class::Blunder, Class::Good];
    let actions = classes
        .iter()
        .enumerate()
        .map(|(index, &class)| {
            let Action::Move(played) = &game.history()[index] else { panic!("a move") };
            let loss = Steps(if class >= Class::Mistake { 60 } else { 0 });
            let judgement = Judgement {
                before: Eval::Lead(Steps(0)),
                after: Eval::Lead(Steps(-loss.0)),
                best: played.clone(),
                loss,
                class,
            };
            ActionAnalysis {
                index,
                seat: game.actor(index),
                action: game.history()[index].clone(),
                verdict: Verdict::Judged(judgement),
            }
        })
        .collect();
    let analysis = GameAnalysis::from_verdicts(&game, Quality { depth: 2 }, actions).expect("an analysis");
    assert!(state.session.set_analysis(analysis));

    // From the live game's end: round to the first mistake (move 2), then the blunder
    // (move 4), then the first again; the inaccuracy is passed over.
    let mut shown = Vec::new();
    for _ in 0..3 {
        assert_eq!(send(&mut state), Effects::redraw());
        shown.push(state.ui.review());
    }
    assert_eq!(shown, [Some(2), Some(4), Some(2)]);
    // From the start it goes to the first; the live game is not changed by any of it.
    update(&mut state, &Facts::default(), Event::ReviewStep(ReviewStep::First));
    send(&mut state);
    assert_eq!(state.ui.review(), Some(2));
    assert_eq!(state.session.game(), &game);
}
