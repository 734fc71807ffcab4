//! The UI thread's work in a huge game: a 20,000-action game (the rules' cap) with an
//! analysis of every action, shown in the real window (Slint's testing backend, software
//! renderer, nothing drawn): a tap on the board (select a piece, then drop it again; as a
//! screen reader's tap, so no pinch filter delays it), and
//! a step back and forth in review. Each is the whole of what the controller does for it
//! (the refresh, the bindings and the save), as a player's tap would cost.
//!
//! `cargo bench --bench huge_game` (the target is 16 ms, one frame at 60 Hz, each).

use criterion::{criterion_group, criterion_main, Criterion};
use halma::app::ui::Controller;
use halma::{AppWindow, BoardState, GameState, ReviewStep};
use halma_ai::analysis::{ActionAnalysis, Eval, GameAnalysis, Quality, Steps, Verdict};
use halma_core::session::{GameConfig, Player, Session};
use halma_core::storage::Store;
use halma_rules::{Action, Game, Seat, Setup, MAX_ACTIONS};
use slint::ComponentHandle;
use std::time::Duration;

use halma_test_support::TestRng;

/// A game of `actions` seeded random actions that never ends and never repeats a
/// position three times.
fn huge_game(actions: usize) -> Game {
    let mut rng = TestRng::new(20_000);
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    let mut seen = std::collections::HashMap::from([(game.position().hash(), 1u32)]);
    while game.history().len() < actions {
        if game.must_pass() {
            assert!(game.play_action(&Action::Pass).is_ok());
        } else {
            let position = *game.position();
            let moves: Vec<_> = game.legal_moves().iter().collect();
            let fresh: Vec<_> = moves
                .into_iter()
                .filter(|&mv| {
                    let next = position.after(mv);
                    next.winners().is_none() && seen.get(&next.hash()).copied().unwrap_or(0) < 2
                })
                .collect();
            assert!(!fresh.is_empty(), "stuck at {}", game.history().len());
            let mv = fresh[rng.below(fresh.len())];
            let route = position.route(mv).expect("a legal move has a route");
            assert!(game.play_action(&Action::Move(route)).is_ok());
        }
        *seen.entry(game.position().hash()).or_insert(0) += 1;
    }
    game
}

/// An analysis with a verdict for every action (each an only move: cheap to make, and
/// every point of the graph and every entry of the move list carries it).
fn analysis_of(game: &Game) -> GameAnalysis {
    let actions = game
        .history()
        .iter()
        .enumerate()
        .map(|(index, action)| ActionAnalysis {
            index,
            seat: game.actor(index),
            action: action.clone(),
            verdict: Verdict::OnlyMove { after: Eval::Lead(Steps((index % 40) as i32 - 20)) },
        })
        .collect();
    GameAnalysis::from_verdicts(game, Quality { depth: 2 }, actions).expect("an analysis of the game")
}

fn huge_game_ui(c: &mut Criterion) {
    i_slint_backend_testing::init_integration_test_with_mock_time();
    let game = huge_game(MAX_ACTIONS - 1);
    let analysis = analysis_of(&game);
    let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4].into() };
    let mut session = Session::with_game(config, game).expect("a session");
    assert!(session.set_analysis(analysis));
    let folder = tempfile::tempdir().expect("a data folder");
    let window = AppWindow::new().expect("a window");
    window.window().set_size(slint::LogicalSize::new(1100.0, 760.0));
    let controller = Controller::install(&window, Some(Store::new(folder.path())));
    window.show().expect("shown");
    controller.begin_session(session);
    // A piece that can move; the board's cells count rows from the top (unrotated view).
    let piece = controller.session().game().legal_moves().iter().next().expect("a move").from;
    let (x, y) = (piece.column() as i32, 15 - piece.row() as i32);

    let mut group = c.benchmark_group("huge game (19,999 actions, analysed)");
    group.sample_size(30).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(8));
    let board = window.global::<BoardState>();
    group.bench_function("tap a piece on the board", |b| {
        b.iter(|| {
            // Selects the piece, then the next tap on it drops the selection again.
            board.invoke_square_activated(x, y);
        })
    });
    let game_state = window.global::<GameState>();
    game_state.invoke_review_step(ReviewStep::Last);
    group.bench_function("one step in review", |b| {
        let mut back = true;
        b.iter(|| {
            game_state.invoke_review_step(if back { ReviewStep::Back } else { ReviewStep::Forward });
            back = !back;
        })
    });
    group.finish();
}

criterion_group!(benches, huge_game_ui);
criterion_main!(benches);
