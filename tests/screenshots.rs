//! Offscreen screenshots of the real window with Slint's software renderer, written
//! to `<target>/screenshots/` for people to look at: the new-game screen and a game in
//! progress with a previewed jump chain, at phone sizes (1080×2340 at scale 2.75,
//! portrait and landscape), tablet sizes (2560×1600 at 2) and a desktop size, in every
//! language; the Rules page with its diagrams from top to bottom on a phone and the
//! default window. The test also checks that something was drawn (not a blank image).

use halma::ai::Level;
use halma::app::session::{GameConfig, Player, Session};
use halma::app::storage::Store;
use halma::app::ui::Controller;
use halma::rules::{Game, Seat, Setup, Square};
use halma::{AppWindow, BoardTurning, GameState, Navigation, NewGameForm, Page, Preferences};
use i_slint_backend_testing::{TestingBackend, TestingBackendOptions};
use slint::platform::WindowEvent;
use slint::ComponentHandle;
use std::path::{Path, PathBuf};

/// Window sizes: name, physical width and height, scale factor.
const SIZES: [(&str, u32, u32, f32); 6] = [
    // The app's own window (its preferred size on the desktop).
    ("default", 1100, 760, 1.0),
    ("phone", 1080, 2340, 2.75),
    ("phone-landscape", 2340, 1080, 2.75),
    ("desktop", 1280, 800, 1.0),
    ("tablet", 2560, 1600, 2.0),
    ("tablet-portrait", 1600, 2560, 2.0),
];

fn output_dir() -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).parent().map_or_else(|| PathBuf::from("target"), Path::to_path_buf);
    dir.join("screenshots")
}

fn write_png(path: &Path, buffer: &slint::SharedPixelBuffer<slint::Rgba8Pixel>) {
    let file = std::fs::File::create(path).expect("create png");
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), buffer.width(), buffer.height());
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("png header");
    writer.write_image_data(buffer.as_bytes()).expect("png data");
}

/// Distinct colours in the image: a blank or broken render has one or two.
fn colour_count(buffer: &slint::SharedPixelBuffer<slint::Rgba8Pixel>) -> usize {
    let mut seen = std::collections::HashSet::new();
    for pixel in buffer.as_slice().iter().step_by(97) {
        seen.insert((pixel.r, pixel.g, pixel.b));
    }
    seen.len()
}

fn snapshot(window: &AppWindow, name: &str) {
    i_slint_backend_testing::mock_elapsed_time(std::time::Duration::from_millis(500));
    let buffer = window.window().take_snapshot().expect("snapshot");
    assert!(colour_count(&buffer) > 20, "{name} looks blank");
    let path = output_dir().join(format!("{name}.png"));
    write_png(&path, &buffer);
}

/// Scrolls the page under the middle of the window down by most of a screen, and takes
/// a shot after each scroll until the picture stops changing (the end of the page):
/// `<name>-2.png`, `<name>-3.png`, ...
fn scrolled_snapshots(window: &AppWindow, name: &str) {
    let size = window.window().size().to_logical(window.window().scale_factor());
    let middle = slint::LogicalPosition::new(size.width / 2.0, size.height / 2.0);
    let mut previous = window.window().take_snapshot().expect("snapshot");
    for page in 2..=20 {
        window.window().dispatch_event(WindowEvent::PointerMoved { position: middle });
        window.window().dispatch_event(WindowEvent::PointerScrolled {
            position: middle,
            delta_x: 0.0,
            delta_y: -size.height * 0.8,
        });
        i_slint_backend_testing::mock_elapsed_time(std::time::Duration::from_millis(500));
        let buffer = window.window().take_snapshot().expect("snapshot");
        if buffer.as_bytes() == previous.as_bytes() {
            assert!(page > 2, "{name} does not scroll");
            return;
        }
        snapshot(window, &format!("{name}-{page}"));
        previous = buffer;
    }
    panic!("{name} is longer than 20 screens");
}

fn game_in_progress() -> Session {
    let config = GameConfig {
        setup: Setup::TwoPlayers,
        first: Seat::A,
        players: [Player::Human, Player::Human, Player::Computer(Level::Strong), Player::Human],
    };
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    for text in ["d2-d4", "m15-m13", "c3-e5", "n14-l12", "b4-b6", "n13-l13-l11"] {
        assert!(game.play_text(text).is_ok(), "{text}");
    }
    let mut session = Session::with_game(config, game).expect("a 2p game");
    let sq = |name: &str| name.parse::<Square>().expect("square");
    // Preview a two-jump chain for A: b3 over c3? Build by taps: select a piece with a chain.
    session.tap(sq("a3"));
    let destinations = session.interaction().destinations(session.game());
    let far = destinations.squares().max_by_key(|s| s.row() + s.column()).expect("a3 can move");
    session.tap(far);
    session
}

/// A game between people after a few moves, with A's draw offer awaiting the others.
fn draw_offered(setup: Setup) -> Session {
    let config = GameConfig { setup, first: Seat::A, players: [Player::Human; 4] };
    let mut session = Session::new(config);
    assert!(session.offer_draw().is_ok());
    session
}

/// Whether `name` is in the comma-separated list in the environment variable `var`
/// (all are, when it is unset): `HALMA_SCREENSHOT_LANGUAGES=fr,uk` and
/// `HALMA_SCREENSHOT_SIZES=phone` render a part of the shots while working on a page.
fn wanted(var: &str, name: &str) -> bool {
    std::env::var(var).map_or(true, |list| list.split(',').any(|item| item.trim() == name))
}

#[test]
fn screenshots_in_every_language_and_size() {
    let backend = TestingBackend::new(TestingBackendOptions {
        mock_time: true,
        threading: true,
        renderer_name: Some("software".into()),
    });
    slint::platform::set_platform(Box::new(backend)).expect("platform");
    std::fs::create_dir_all(output_dir()).expect("screenshot folder");
    let data = std::env::temp_dir().join(format!("halma-shots-{}", std::process::id()));
    for &(code, _) in
        halma::app::locale::LANGUAGES.iter().filter(|(code, _)| wanted("HALMA_SCREENSHOT_LANGUAGES", code))
    {
        for (size_name, width, height, scale) in
            SIZES.into_iter().filter(|size| wanted("HALMA_SCREENSHOT_SIZES", size.0))
        {
            let window = AppWindow::new().expect("window");
            window.window().dispatch_event(WindowEvent::ScaleFactorChanged { scale_factor: scale });
            window.window().set_size(slint::PhysicalSize::new(width, height));
            let _ = std::fs::remove_dir_all(&data);
            let controller = Controller::install(&window, Some(Store::new(&data)));
            // Through the language menu, as a player would: the menu then names the language.
            let language = halma::app::locale::LANGUAGES.iter().position(|(c, _)| *c == code).expect("listed");
            window.global::<Preferences>().invoke_select_language(language as i32);
            window.show().expect("show");
            // The longest orientation choice, to see that it fits.
            window.global::<Preferences>().invoke_set_turning(BoardTurning::FaceSeatToMove);
            snapshot(&window, &format!("{code}-{size_name}-new-game"));
            if size_name.starts_with("phone") {
                // The longest new-game screen: four seats and the team choice.
                window.global::<NewGameForm>().invoke_set_players(4);
                snapshot(&window, &format!("{code}-{size_name}-new-game-4p"));
                window.global::<NewGameForm>().invoke_set_players(2);
            }
            window.global::<Preferences>().invoke_set_turning(BoardTurning::Fixed);
            controller.begin_session(game_in_progress());
            assert!(window.global::<GameState>().get_has_preview(), "the game shot shows a preview");
            snapshot(&window, &format!("{code}-{size_name}-game"));
            // Late states: a person's draw vote, then the end of a game.
            controller.begin_session(draw_offered(Setup::ThreePlayers));
            assert!(window.global::<GameState>().get_vote_awaited(), "the vote shot shows the dialog");
            snapshot(&window, &format!("{code}-{size_name}-draw-vote"));
            let mut ended = draw_offered(Setup::TwoPlayers);
            assert!(ended.answer_draw(Seat::C, true).is_ok());
            controller.begin_session(ended);
            assert_ne!(window.global::<GameState>().get_outcome(), halma::Outcome::Ongoing);
            snapshot(&window, &format!("{code}-{size_name}-game-over"));
            window.global::<Navigation>().invoke_show(Page::Rules);
            snapshot(&window, &format!("{code}-{size_name}-rules"));
            if size_name == "phone" || size_name == "default" {
                // The whole page, diagrams included.
                scrolled_snapshots(&window, &format!("{code}-{size_name}-rules"));
            }
            if size_name == "phone" {
                window.global::<Navigation>().invoke_show(Page::About);
                snapshot(&window, &format!("{code}-{size_name}-about"));
            }
            window.hide().expect("hide");
        }
    }
    let _ = std::fs::remove_dir_all(&data);
}
