//! How long Slint's software renderer, which draws the desktop app's window since it
//! stopped using OpenGL (docs/MEMORY.md), takes for a whole frame of the game page: the
//! worst case, when zooming, panning or turning the board redraws everything (a hop or a
//! tap redraws a few squares). A game of 60 actions with a piece selected, drawn by
//! Slint's testing backend into a buffer, at the app's own window, a full-HD screen and
//! a 4K screen.
//!
//! `cargo bench --bench render` (a frame at 60 Hz is 16.7 ms).

use criterion::{criterion_group, criterion_main, Criterion};
use halma::app::ui::Controller;
use halma::{AppWindow, BoardState};
use halma_core::session::{GameConfig, Player, Session};
use halma_core::storage::Store;
use halma_rules::{Action, Game, Seat, Setup};
use slint::ComponentHandle;
use std::time::Duration;

use halma_test_support::TestRng;

/// 60 seeded random actions of a 2-player game.
fn some_game() -> Game {
    let mut rng = TestRng::new(60);
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    while game.history().len() < 60 && !game.is_over() {
        let moves: Vec<_> = game.legal_moves().iter().collect();
        let mv = moves[rng.below(moves.len())];
        let route = game.position().route(mv).expect("a legal move has a route");
        assert!(game.play_action(&Action::Move(route)).is_ok());
    }
    game
}

fn full_frames(c: &mut Criterion) {
    let backend = i_slint_backend_testing::TestingBackend::new(i_slint_backend_testing::TestingBackendOptions {
        mock_time: true,
        threading: true,
        renderer_name: Some("software".into()),
    });
    slint::platform::set_platform(Box::new(backend)).expect("the testing platform");
    let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4].into() };
    let session = Session::with_game(config, some_game()).expect("a session");
    let folder = tempfile::tempdir().expect("a data folder");
    let window = AppWindow::new().expect("a window");
    let controller = Controller::install(&window, Some(Store::new(folder.path())));
    window.show().expect("shown");
    controller.begin_session(session);
    let piece = controller.session().game().legal_moves().iter().next().expect("a move").from;
    window.global::<BoardState>().invoke_square_activated(piece.column() as i32, 15 - piece.row() as i32);

    let mut group = c.benchmark_group("a whole frame of the game page, software renderer");
    group.sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(6));
    // Slint's testing backend draws at scale 1 only: the 4K screen is drawn as 3840 × 2160
    // logical pixels, the pixels a 4K screen at 2× fills.
    let sizes =
        [("app window 1100×760", 1100.0, 760.0), ("1920×1080", 1920.0, 1080.0), ("4K 3840×2160", 3840.0, 2160.0)];
    for (name, width, height) in sizes {
        window.window().set_size(slint::LogicalSize::new(width, height));
        group.bench_function(name, |b| b.iter(|| window.window().take_snapshot().expect("a frame")));
    }
    group.finish();
}

criterion_group!(benches, full_frames);
criterion_main!(benches);
