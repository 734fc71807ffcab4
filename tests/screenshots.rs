//! Offscreen screenshots of the real window with Slint's software renderer, written
//! to `<target>/screenshots/` for people to look at: every state a player reaches (the
//! new-game screen, a selection, a previewed jump chain, the computer thinking, the
//! menu, troubles, review, the analysed review, questions, an import refused, the end,
//! a damaged save) at phone sizes (1080×2340 at scale 2.75 and the smallest, 360×640 dp,
//! portrait and landscape), tablet sizes (2560×1600 at 2) and desktop sizes, in every
//! language, and the Android stores' two shots (a previewed jump chain, the analysed review)
//! on a 1080×2160 phone and a 7-inch tablet (1200×1920 at 2); the Rules page with its
//! diagrams from top to bottom on a phone and the
//! default window. The test also checks that something was drawn (not a blank image),
//! that no button label is narrower than its longest word, which would break that word
//! across two lines («Ajuste / r», «Підтверди / ти»), that no two controls overlap (the
//! action bar's, the "⋯" menu's, a dialog's), that the game page's controls all lie
//! inside the window (an upright phone needs no scrolling), and on phones that every
//! control a finger taps is at least 48×48 dp (Material's minimum). The dark theme's main
//! states (start, a preview, the menu, review, the end) are rendered in a subset of
//! languages at the smallest phone and the tablet (`DARK_LANGUAGES`, `DARK_SIZES`).

#[path = "common/set_view.rs"]
#[macro_use]
mod set_view;
use halma::app::ui::Controller;
use halma::{AppWindow, BoardTurning, GameState, Navigation, NewGameForm, Page, Preferences, ThemeChoice};
use halma_ai::Level;
use halma_core::session::{GameConfig, Player, Session};
use halma_core::storage::Store;
use halma_rules::{Game, Seat, Setup, Square};
use i_slint_backend_testing::{TestingBackend, TestingBackendOptions};
use slint::platform::WindowEvent;
use slint::ComponentHandle;
use std::path::{Path, PathBuf};

/// Window sizes: name, physical width and height, scale factor.
const SIZES: [(&str, u32, u32, f32); 11] = [
    // The app's own window (its preferred size on the desktop).
    ("default", 1100, 760, 1.0),
    // A small desktop window.
    ("small-desktop", 800, 600, 1.0),
    ("phone", 1080, 2340, 2.75),
    ("phone-landscape", 2340, 1080, 2.75),
    // The smallest phone the game is made for: 360×640 dp.
    ("phone-small", 1080, 1920, 3.0),
    ("phone-small-landscape", 1920, 1080, 3.0),
    ("desktop", 1280, 800, 1.0),
    ("tablet", 2560, 1600, 2.0),
    ("tablet-portrait", 1600, 2560, 2.0),
    // The Android stores' sizes, for their two shots only (store_shots): a phone no longer than
    // twice its width (Google Play's limit; 393×785 dp) and a 7-inch tablet (600×960 dp).
    ("phone-store", 1080, 2160, 2.75),
    ("tablet-7", 1200, 1920, 2.0),
];

/// A window of `width`×`height` physical pixels at `scale`, on a fresh data folder `data`,
/// in the language `code` chosen through the language menu, as a player would (the menu then
/// names the language), shown.
fn open_window(
    code: &str,
    (width, height, scale): (u32, u32, f32),
    data: &Path,
) -> (AppWindow, std::rc::Rc<Controller>) {
    let window = AppWindow::new().expect("window");
    window.window().dispatch_event(WindowEvent::ScaleFactorChanged { scale_factor: scale });
    window.window().set_size(slint::PhysicalSize::new(width, height));
    let _ = std::fs::remove_dir_all(data);
    let options = halma::app::ui::StartOptions { first_game_guide: false };
    let controller = Controller::install_with(&window, Some(Store::new(data)), options);
    let language = halma_core::locale::LANGUAGES.iter().position(|(c, _)| *c == code).expect("listed");
    window.global::<Preferences>().invoke_select_language(language as i32);
    window.show().expect("show");
    (window, controller)
}

/// The shots the Android stores show, copied into fastlane/metadata/android by
/// android/store-screenshots.sh: a previewed jump chain and the analysed review.
fn store_shots(window: &AppWindow, controller: &std::rc::Rc<Controller>, name: &str) {
    window.global::<Preferences>().invoke_set_turning(BoardTurning::Fixed);
    controller.begin_session(game_in_progress());
    assert!(window.global::<GameState>().get_view().has_preview, "the game shot shows a preview");
    snapshot(window, &format!("{name}-game"));
    let (analysed, shown) = analysed_2p();
    controller.begin_session(analysed);
    window.global::<halma::Analysis>().invoke_show_position(shown as i32);
    assert!(window.global::<halma::Analysis>().get_view().available);
    snapshot(window, &format!("{name}-analysed-review"));
}

/// A finger resting beside one of the selected piece's destinations, long enough for the
/// loupe to show over the board; then the touch is cancelled.
fn loupe_shot(window: &AppWindow, controller: &std::rc::Rc<Controller>, name: &str) {
    use i_slint_core::input::TouchPhase;
    use i_slint_core::platform::InternalEvent;
    let touch = |position: slint::LogicalPosition, phase: TouchPhase| {
        let point = i_slint_core::lengths::logical_point_from_api(position);
        window.window().dispatch_event(WindowEvent::internal(InternalEvent::Touch { id: 0, position: point, phase }));
    };
    let board = i_slint_backend_testing::ElementHandle::find_by_element_id(window, "GamePage::board").next();
    let board = board.expect("the board is on screen");
    let (origin, cell) = (board.absolute_position(), board.size().width / 16.0);
    let session = controller.session();
    let selected = session.interaction().selected.expect("a piece is selected");
    let destinations = session.game().legal_moves().destinations(selected);
    let to = destinations.squares().last().expect("the selected piece can move");
    let (x, y) = session.view().display_cell(to);
    let point = slint::LogicalPosition::new(origin.x + (x as f32 + 0.8) * cell, origin.y + (y as f32 + 0.3) * cell);
    touch(point, TouchPhase::Started);
    i_slint_backend_testing::mock_elapsed_time(std::time::Duration::from_millis(400));
    assert!(window.global::<halma::BoardState>().get_view().loupe_shown, "the resting finger shows the loupe");
    snapshot(window, name);
    touch(point, TouchPhase::Cancelled);
    i_slint_backend_testing::mock_elapsed_time(std::time::Duration::from_millis(50));
}

fn output_dir() -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).parent().map_or_else(|| PathBuf::from("target"), Path::to_path_buf);
    dir.join("screenshots")
}

/// Writes the picture as a PNG: 24-bit when every pixel is opaque (as the stores want
/// screenshots, and smaller), else with its alpha channel.
fn write_png(path: &Path, buffer: &slint::SharedPixelBuffer<slint::Rgba8Pixel>) {
    let file = std::fs::File::create(path).expect("create png");
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), buffer.width(), buffer.height());
    let opaque = buffer.as_slice().iter().all(|pixel| pixel.a == 255);
    encoder.set_color(if opaque { png::ColorType::Rgb } else { png::ColorType::Rgba });
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("png header");
    if opaque {
        let rgb: Vec<u8> = buffer.as_slice().iter().flat_map(|pixel| [pixel.r, pixel.g, pixel.b]).collect();
        writer.write_image_data(&rgb).expect("png data");
    } else {
        writer.write_image_data(buffer.as_bytes()).expect("png data");
    }
}

/// Distinct colours in the image: a blank or broken render has one or two.
fn colour_count(buffer: &slint::SharedPixelBuffer<slint::Rgba8Pixel>) -> usize {
    let mut seen = std::collections::HashSet::new();
    for pixel in buffer.as_slice().iter().step_by(97) {
        seen.insert((pixel.r, pixel.g, pixel.b));
    }
    seen.len()
}

slint::slint! {
    // Measures one word as a button label sets it (the label's font, size and weight).
    export component WordMeter inherits Window {
        in property <string> word;
        in property <length> size;
        out property <length> word-width: text.preferred-width;
        text := Text {
            text: root.word;
            font-size: root.size;
        }
    }
}

/// The font size of a `TouchButton` label: 0.93rem of the window's 15px base.
const BUTTON_FONT_SIZE: f32 = 0.93 * 15.0;
/// A label's text area is its button less 3px on each side (widgets.slint).
const BUTTON_LABEL_INSET: f32 = 6.0;

/// A control's rectangle on screen: left, top, right, bottom.
type Rect = (f32, f32, f32, f32);

fn rect_of(element: &i_slint_backend_testing::ElementHandle) -> Rect {
    let at = element.absolute_position();
    let size = element.size();
    (at.x, at.y, at.x + size.width, at.y + size.height)
}

fn overlaps(a: Rect, b: Rect) -> bool {
    a.0 < b.2 - 0.5 && b.0 < a.2 - 0.5 && a.1 < b.3 - 0.5 && b.1 < a.3 - 0.5
}

/// The controls a finger taps on screen (the board's squares aside, which zoom): buttons,
/// pickers and lists' entries, with their names; within `card` when given (an open menu
/// or dialog), else in the whole window. The flag marks a list's entry, which may be
/// partly scrolled under what stands above its list.
fn tap_targets(window: &AppWindow, card: Option<&i_slint_backend_testing::ElementHandle>) -> Vec<(String, Rect, bool)> {
    use i_slint_backend_testing::AccessibleRole;
    let mut targets: Vec<(String, Rect, bool)> = Vec::new();
    for role in [AccessibleRole::Button, AccessibleRole::Combobox, AccessibleRole::ListItem] {
        let query = match card {
            Some(card) => card.query_descendants(),
            None => i_slint_backend_testing::ElementQuery::from_root(window).match_descendants(),
        };
        let found = query.match_accessible_role(role).find_all();
        for element in found {
            let is_touch_button = element.type_name().is_some_and(|name| name == "TouchButton")
                || element.bases().is_some_and(|mut bases| bases.any(|name| name == "TouchButton"));
            let is_square = role == AccessibleRole::Button && !is_touch_button;
            if is_square || element.size().width <= 0.0 {
                continue;
            }
            // A component and its root element answer the query as one control.
            let target = (
                element.accessible_label().unwrap_or_default().to_string(),
                rect_of(&element),
                role == AccessibleRole::ListItem,
            );
            if !targets.contains(&target) {
                targets.push(target);
            }
        }
    }
    targets
}

/// Controls that overlap one another; with a menu or a dialog open, those on its card
/// (the page below is covered). On the game page, controls past the window's bottom
/// (the panel does not scroll). On a phone, controls smaller than 48×48 dp.
fn placement_problems(window: &AppWindow, phone: bool) -> Vec<String> {
    let size = window.window().size().to_logical(window.window().scale_factor());
    // Every dialog's card is DialogFrame's (ui/widgets.slint), written once.
    let card = ["GameMenu::card", "DialogFrame::card"]
        .iter()
        .find_map(|id| i_slint_backend_testing::ElementHandle::find_by_element_id(window, id).next());
    let targets = tap_targets(window, card.as_ref());
    let mut problems = Vec::new();
    for (i, (name, rect, entry)) in targets.iter().enumerate() {
        for (other, other_rect, other_entry) in &targets[i + 1..] {
            if !entry && !other_entry && overlaps(*rect, *other_rect) {
                problems.push(format!("«{name}» {rect:?} overlaps «{other}» {other_rect:?}"));
            }
        }
        if window.global::<Navigation>().get_page() == Page::Game && rect.3 > size.height + 0.5 {
            problems.push(format!("«{name}» reaches {:.0}px, past the window's {:.0}px", rect.3, size.height));
        }
        let (width, height) = (rect.2 - rect.0, rect.3 - rect.1);
        if phone && (width < 47.5 || height < 47.5) {
            problems.push(format!("«{name}» is {width:.0}×{height:.0} dp, under 48×48"));
        }
    }
    problems
}

/// Every button label that is narrower than one of its words, which the label's word
/// wrap would then break inside the word, and every button that reaches past the
/// window's right edge (a row too wide for its panel).
fn layout_problems(window: &AppWindow, meter: &WordMeter) -> Vec<String> {
    let window_width = window.window().size().to_logical(window.window().scale_factor()).width;
    let buttons = i_slint_backend_testing::ElementQuery::from_root(window)
        .match_descendants()
        .match_accessible_role(i_slint_backend_testing::AccessibleRole::Button)
        .find_all();
    meter.set_size(BUTTON_FONT_SIZE);
    let mut split = Vec::new();
    for button in buttons {
        let is_touch_button = button.type_name().is_some_and(|name| name == "TouchButton")
            || button.bases().is_some_and(|mut bases| bases.any(|name| name == "TouchButton"));
        if !is_touch_button || button.size().width <= 0.0 {
            continue;
        }
        // The visible text (a symbol button's accessible label names it instead).
        let right = button.absolute_position().x + button.size().width;
        if right > window_width + 0.5 {
            split.push(format!(
                "«{}» reaches {right:.0}px, past the window's {window_width:.0}px",
                button.accessible_label().unwrap_or_default()
            ));
        }
        let label = button
            .query_descendants()
            .match_accessible_role(i_slint_backend_testing::AccessibleRole::Text)
            .find_first()
            .and_then(|text| text.accessible_label())
            .unwrap_or_default();
        let room = button.size().width - BUTTON_LABEL_INSET;
        for word in label.split_whitespace() {
            meter.set_word(word.into());
            let needed = meter.get_word_width();
            if needed > room + 0.5 {
                split.push(format!("«{label}»: «{word}» needs {needed:.1}px, the label has {room:.1}px"));
            }
        }
    }
    split
}

fn snapshot(window: &AppWindow, name: &str) {
    i_slint_backend_testing::mock_elapsed_time(std::time::Duration::from_millis(500));
    let buffer = window.window().take_snapshot().expect("snapshot");
    assert!(colour_count(&buffer) > 20, "{name} looks blank");
    let path = output_dir().join(format!("{name}.png"));
    write_png(&path, &buffer);
    METER.with(|meter| {
        let meter = meter.get_or_init(|| WordMeter::new().expect("word meter"));
        let mut split = layout_problems(window, meter);
        split.extend(placement_problems(window, name.contains("-phone")));
        SPLIT_WORDS.with(|all| {
            let mut all = all.borrow_mut();
            for problem in split.into_iter().map(|problem| format!("{name}: {problem}")) {
                if !all.contains(&problem) {
                    all.push(problem);
                }
            }
        });
    });
}

thread_local! {
    static METER: std::cell::OnceCell<WordMeter> = const { std::cell::OnceCell::new() };
    static SPLIT_WORDS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
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

/// Opens the game page's "⋯" menu through its button, as a screen reader would.
fn open_menu(window: &AppWindow) {
    let button = i_slint_backend_testing::ElementHandle::find_by_accessible_label(window, "More actions")
        .next()
        .or_else(|| {
            // Translated: the one button whose visible text is the symbol.
            i_slint_backend_testing::ElementQuery::from_root(window)
                .match_descendants()
                .match_accessible_role(i_slint_backend_testing::AccessibleRole::Button)
                .find_all()
                .into_iter()
                .find(|button| {
                    button
                        .query_descendants()
                        .match_accessible_role(i_slint_backend_testing::AccessibleRole::Text)
                        .find_first()
                        .and_then(|text| text.accessible_label())
                        .is_some_and(|label| label == "⋯")
                })
        })
        .expect("the menu button");
    button.invoke_accessible_default_action();
    assert!(
        i_slint_backend_testing::ElementHandle::find_by_element_id(window, "GameMenu::card").next().is_some(),
        "the menu opened"
    );
}

fn press_escape(window: &AppWindow) {
    let text: slint::SharedString = slint::platform::Key::Escape.into();
    window.window().dispatch_event(WindowEvent::KeyPressed { text: text.clone() });
    window.window().dispatch_event(WindowEvent::KeyReleased { text });
}

fn game_in_progress() -> Session {
    let config = GameConfig {
        setup: Setup::TwoPlayers,
        first: Seat::A,
        players: [Player::Human, Player::Human, Player::Computer(Level::Strong), Player::Human].into(),
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

/// The game of `game_in_progress` one move later, the computer's seat C to move.
fn computer_to_move() -> Session {
    let mut session = game_in_progress();
    assert!(session.confirm().is_ok(), "A plays its previewed chain");
    session
}

/// The same game as `game_in_progress`, its piece on a3 selected and nothing previewed.
fn piece_selected() -> Session {
    let mut session = game_in_progress();
    assert!(session.cancel(), "the preview is dropped, the selection kept");
    session
}

/// A game between people, A to move and free to offer a draw.
fn draw_offerable(setup: Setup) -> Session {
    Session::new(GameConfig { setup, first: Seat::A, players: [Player::Human; 4].into() })
}

/// 4 players, both armies: Blue's army has arrived, so Blue moves Purple's pieces.
fn arrived_4p() -> Session {
    let rows = "BBBB8AAAA/BBBB8AAAA/BBB10AAA/BB12AA/16/16/16/16/2CCCCCCC7/2CCCCCC8/16/16/14DD/13DDD/12DDDD/12DDDD";
    let position = halma_rules::parse_hpn(&format!("{rows} A 4p-both 120")).expect("hpn");
    let config = GameConfig { setup: Setup::FourPlayersBothArmies, first: Seat::A, players: [Player::Human; 4].into() };
    Session::with_game(config, Game::from_position(position)).expect("a 4p game")
}

/// Blue has just won a 2-player game with its last step.
fn won_2p() -> Session {
    let rows = "11AAAAA/11AAAAA/12AAAA/13AAA/14A1/14A1/16/16/16/16/16/16/16/16/CCC13/CCCCCCCCCCCCCCCC";
    let position = halma_rules::parse_hpn(&format!("{rows} A 2p 80")).expect("hpn");
    let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4].into() };
    let mut session = Session::with_game(config, Game::from_position(position)).expect("a 2p game");
    let sq = |name: &str| name.parse::<Square>().expect("square");
    assert!(session.play_route(&[sq("o11"), sq("p12")]).is_ok(), "the winning step");
    session
}

/// A game between people after a few moves, with A's draw offer awaiting the others.
fn draw_offered(setup: Setup) -> Session {
    let config = GameConfig { setup, first: Seat::A, players: [Player::Human; 4].into() };
    let mut session = Session::new(config);
    assert!(session.offer_draw().is_ok());
    session
}

/// The typical 2p game of tests/data (166 actions), finished.
fn finished_2p() -> Session {
    let record = halma_record::Record::parse(include_str!("data/analysis-typical-2p.txt")).expect("the record");
    Session::with_game(
        GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4].into() },
        record.game,
    )
    .expect("a 2p game")
}

/// The finished 2p game analysed (at the app's quality, once per run), and the position
/// after its first move that was not the best.
fn analysed_2p() -> (Session, usize) {
    thread_local! {
        static ANALYSED: std::cell::OnceCell<(Session, usize)> = const { std::cell::OnceCell::new() };
    }
    ANALYSED.with(|analysed| {
        analysed
            .get_or_init(|| {
                use halma_ai::analysis::{self, AnalysisRequest, Class, Quality};
                let mut session = finished_2p();
                // The app's own quality, so the shots show what a player sees (mistakes found).
                let request = AnalysisRequest::new(Quality::DEFAULT);
                let stop = std::sync::atomic::AtomicBool::new(false);
                let analysis = analysis::analyse(session.game(), &request, &stop, &mut |_, _| {}).expect("analysed");
                let shown = analysis
                    .actions
                    .iter()
                    .position(|entry| entry.verdict.judgement().is_some_and(|judged| judged.class > Class::Good))
                    .or_else(|| {
                        analysis.actions.iter().position(|entry| {
                            entry.verdict.judgement().is_some_and(|judged| judged.class != Class::Best)
                        })
                    })
                    .map_or(1, |index| index + 1);
                assert!(session.set_analysis(analysis));
                (session, shown)
            })
            .clone()
    })
}

/// The dark theme's shots: two languages (the longest words are Ukrainian's) and two
/// sizes, enough to see every surface in the dark without rendering everything twice.
const DARK_LANGUAGES: [&str; 2] = ["en", "uk"];
const DARK_SIZES: [&str; 2] = ["phone-small", "tablet"];

/// The main states in the dark theme, chosen in the menu as a player would: the new-game
/// screen, a previewed jump chain, the "⋯" menu, review, a won game and the analysed
/// review. Named `<code>-<size>-dark-<state>`.
fn dark_shots(window: &AppWindow, controller: &std::rc::Rc<Controller>, name: &str) {
    window.global::<Preferences>().invoke_set_theme(ThemeChoice::Dark);
    assert_eq!(window.global::<Preferences>().get_view().theme, ThemeChoice::Dark, "the theme is kept");
    window.global::<Navigation>().invoke_show(Page::NewGame);
    snapshot(window, &format!("{name}-dark-new-game"));
    controller.begin_session(game_in_progress());
    assert!(window.global::<GameState>().get_view().has_preview, "the game shot shows a preview");
    snapshot(window, &format!("{name}-dark-game"));
    open_menu(window);
    snapshot(window, &format!("{name}-dark-menu"));
    press_escape(window);
    window.global::<GameState>().invoke_review_step(halma::ReviewStep::Back);
    window.global::<GameState>().invoke_review_step(halma::ReviewStep::Back);
    assert!(window.global::<GameState>().get_view().reviewing);
    snapshot(window, &format!("{name}-dark-review"));
    window.global::<GameState>().invoke_review_step(halma::ReviewStep::Leave);
    controller.begin_session(won_2p());
    assert_eq!(window.global::<GameState>().get_view().outcome, halma::Outcome::Win);
    snapshot(window, &format!("{name}-dark-won"));
    let (analysed, shown) = analysed_2p();
    controller.begin_session(analysed);
    window.global::<halma::Analysis>().invoke_show_position(shown as i32);
    snapshot(window, &format!("{name}-dark-analysed-review"));
    window.global::<Preferences>().invoke_set_theme(ThemeChoice::System);
}

/// The first-game guide's shots (#39 item 5): the smallest phone and the tablet, in
/// English and Ukrainian (the longest words), sampled rather than every size and language.
const GUIDE_SHOTS: [(&str, &str); 6] = [
    ("en", "phone-small"),
    ("uk", "phone-small"),
    ("en", "tablet"),
    ("uk", "tablet"),
    // The longest words of the guide's cards (#52).
    ("fil", "phone-small"),
    ("id", "phone-small"),
];

/// The guide opened from the menu over a game: its first step (the pieces ringed), Confirm
/// (the action bar ringed) and a chain previewed (where it goes on ringed); then skipped.
/// Named `<code>-<size>-guide-select`, `-guide-confirm`, `-guide-chain`.
fn guide_shots(controller: &std::rc::Rc<Controller>, window: &AppWindow, name: &str) {
    use halma_core::actions::Event;
    controller.begin_session(game_in_progress());
    controller.dispatch(Event::OpenGuide);
    assert!(window.global::<halma::Guide>().get_view().active);
    snapshot(window, &format!("{name}-guide-select"));
    let tap = |square: &str| {
        let square: Square = square.parse().expect("square");
        let state = controller.state();
        let (x, y) = state.guide_shown().expect("the guide's game").view().display_cell(square);
        controller.dispatch(Event::Tap { x, y });
    };
    tap("b2");
    tap("c3");
    assert_eq!(window.global::<halma::Guide>().get_view().step, halma::GuideStep::Confirm);
    snapshot(window, &format!("{name}-guide-confirm"));
    controller.dispatch(Event::Confirm);
    while controller.is_animating() {
        controller.dispatch(Event::AnimationStep);
    }
    tap("c3");
    tap("e5");
    assert_eq!(window.global::<halma::Guide>().get_view().step, halma::GuideStep::Chain);
    snapshot(window, &format!("{name}-guide-chain"));
    controller.dispatch(Event::SkipGuide);
    assert!(!window.global::<halma::Guide>().get_view().active);
}

/// The Train page's shots (#41): two languages and two sizes, and the smallest phone in the
/// languages of the longest words (#52), for CI's time.
const TRAIN_SHOTS: [(&str, &str); 7] = [
    ("en", "phone"),
    ("en", "tablet"),
    ("uk", "phone"),
    ("uk", "tablet"),
    ("uk", "phone-small"),
    ("fil", "phone-small"),
    ("id", "phone-small"),
];

/// What #47 changed for a newcomer, at the smallest phone and the desktop (every language
/// sampled there): a hint as the status words it, a step's prompt, the guide's cut chain,
/// the moves of a 3-player round in their colours, a 4-player game's partners, the board
/// zoomed into its middle with its coordinates, and the Games page. Named
/// `<code>-<size>-hint`, `-step`, `-guide-cut`, `-3p-round`, `-4p-partners`, `-zoomed`, `-games-page`.
fn newcomer_shots(controller: &std::rc::Rc<Controller>, window: &AppWindow, name: &str) {
    use halma_core::actions::Event;
    use slint::Model;
    let sq = |name: &str| name.parse::<Square>().expect("square");
    let humans = |setup: Setup| GameConfig { setup, first: setup.seats()[0], players: [Player::Human; 4].into() };
    let mut hinted = Session::new(humans(Setup::TwoPlayers));
    assert!(hinted.show_hint(&[sq("d2"), sq("e3")]));
    controller.begin_session(hinted);
    assert!(window.global::<halma::BoardState>().get_view().preview_is_hint);
    snapshot(window, &format!("{name}-hint"));
    let mut stepped = Session::new(humans(Setup::TwoPlayers));
    stepped.tap(sq("a5"));
    stepped.tap(sq("a6"));
    controller.begin_session(stepped);
    snapshot(window, &format!("{name}-step"));
    // The guide's cut chain: c3 over d4 to e5, on to g5, cut back to e5.
    controller.dispatch(Event::OpenGuide);
    let tap = |square: &str| {
        let state = controller.state();
        let (x, y) = state.guide_shown().expect("the guide's game").view().display_cell(sq(square));
        controller.dispatch(Event::Tap { x, y });
    };
    tap("b2");
    tap("c3");
    controller.dispatch(Event::Confirm);
    while controller.is_animating() {
        controller.dispatch(Event::AnimationStep);
    }
    for square in ["c3", "e5", "g5", "e5"] {
        tap(square);
    }
    assert!(window.global::<halma::Guide>().get_view().cut, "the chain was cut");
    snapshot(window, &format!("{name}-guide-cut"));
    controller.dispatch(Event::SkipGuide);
    // A 3-player round: the two other seats' moves since the first seat's.
    let mut round = Session::new(humans(Setup::ThreePlayers));
    for _ in 0..4 {
        let mv = round.game().legal_moves().iter().last().expect("a legal move");
        round.tap(mv.from);
        round.tap(mv.to);
        assert!(round.confirm().is_ok());
    }
    controller.begin_session(round);
    assert_eq!(window.global::<halma::BoardState>().get_round_routes().row_count(), 2);
    snapshot(window, &format!("{name}-3p-round"));
    controller.begin_session(Session::new(humans(Setup::FourPlayersOneArmy)));
    snapshot(window, &format!("{name}-4p-partners"));
    controller.begin_session(Session::new(humans(Setup::TwoPlayers)));
    controller.dispatch(Event::Zoom { zoom_in: true, anchor_x: 0.5, anchor_y: 0.5 });
    controller.dispatch(Event::Zoom { zoom_in: true, anchor_x: 0.5, anchor_y: 0.5 });
    snapshot(window, &format!("{name}-zoomed"));
    controller.dispatch(Event::ZoomFit);
    window.global::<Navigation>().invoke_show(Page::Games);
    snapshot(window, &format!("{name}-games-page"));
    window.global::<Navigation>().invoke_show(Page::Game);
}

/// The Train page at a fixed date's puzzle, a wrong answer, then the solved puzzle.
/// Named `<code>-<size>-train`, `-train-wrong`, `-train-solved`.
fn train_shots(controller: &std::rc::Rc<Controller>, window: &AppWindow, name: &str) {
    use halma_core::actions::Event;
    controller.dispatch(Event::TrainDaily { year: 2026, month: 12, day: 3 });
    assert_eq!(window.global::<Navigation>().get_page(), Page::Train);
    snapshot(window, &format!("{name}-train"));
    let play = |route: Vec<halma_rules::Square>| {
        for square in route {
            let shown = controller.state().training.expect("a puzzle").session;
            let (x, y) = shown.view().display_cell(square);
            controller.dispatch(Event::Tap { x, y });
        }
        controller.dispatch(Event::Confirm);
        while controller.is_animating() {
            controller.dispatch(Event::AnimationStep);
        }
    };
    let puzzle = controller.state().training.expect("a puzzle").puzzle;
    let answer = puzzle.answer_move();
    let wrong = puzzle.position.legal_moves().iter().find(|&mv| mv != answer).expect("another move");
    play(vec![wrong.from, wrong.to]);
    // What the background measure reports, measured here so the shot shows it.
    let played = puzzle.position.route(wrong).expect("a route");
    let stop = std::sync::atomic::AtomicBool::new(false);
    let loss = puzzle.loss_of(wrong, halma_ai::puzzles::VERIFY_DEPTH, &stop);
    controller.dispatch(Event::TrainLossMeasured { puzzle_id: puzzle.id.clone(), played, loss });
    snapshot(window, &format!("{name}-train-wrong"));
    controller.dispatch(Event::TrainRetry);
    play(vec![answer.from, answer.to]);
    snapshot(window, &format!("{name}-train-solved"));
}

/// Play by message's and over the network's shots (#40): every language, at the smallest
/// phone and the tablet (sizes every language is drawn at anyway).
const BETWEEN_DEVICES_SIZES: [&str; 2] = ["phone-small", "tablet"];

/// A game by message after Blue's move (Send at hand), after Send (copied), the receive
/// dialog refusing a message that rewrites a move, and the Games list. Named
/// `<code>-<size>-by-message-send`, `-by-message-sent`, `-by-message-refused`, `-games`.
fn by_message_shots(controller: &std::rc::Rc<Controller>, window: &AppWindow, name: &str) {
    use halma_core::actions::Event;
    let form = window.global::<NewGameForm>();
    window.global::<Navigation>().invoke_show(Page::NewGame);
    form.invoke_set_players(2);
    form.invoke_set_seat_player(0, halma::PlayerKind::Human);
    form.invoke_set_seat_player(2, halma::PlayerKind::Friend);
    form.invoke_set_first_seat(0);
    form.invoke_start();
    let by_message = window.global::<halma::ByMessage>();
    assert!(by_message.get_view().active);
    let sq = |name: &str| name.parse::<Square>().expect("square");
    for square in [sq("e2"), sq("f3")] {
        let (x, y) = controller.session().view().display_cell(square);
        controller.dispatch(Event::Tap { x, y });
    }
    controller.dispatch(Event::Confirm);
    while controller.is_animating() {
        controller.dispatch(Event::AnimationStep);
    }
    assert!(by_message.get_view().can_send);
    snapshot(window, &format!("{name}-by-message-send"));
    let sent = by_message.invoke_send(by_message.invoke_header());
    assert!(sent.contains("halma-by-message 1 game="));
    snapshot(window, &format!("{name}-by-message-sent"));
    let id = controller.state().by_message.active.expect("a game by message");
    let mut forged = halma_rules::Game::new(Setup::TwoPlayers, Seat::A);
    assert_eq!(forged.play_text("c3-d4"), Ok(()));
    let rewrite = halma_core::correspondence::compose(
        "Halma: your move, Blue (A). Open with Halma.",
        id,
        halma_rules::SeatSet::single(Seat::C),
        &halma_record::Record::new(forged),
    );
    by_message.invoke_open_receive();
    if let Some(editor) =
        i_slint_backend_testing::ElementHandle::find_by_element_id(window, "ReceiveDialog::editor").next()
    {
        editor.set_accessible_value(rewrite.as_str());
    }
    by_message.invoke_receive(rewrite.into());
    assert_eq!(by_message.get_view().trouble, halma::ReceiveTrouble::Rewritten);
    snapshot(window, &format!("{name}-by-message-refused"));
    by_message.invoke_close_receive();
    window.global::<Navigation>().invoke_show(Page::Games);
    snapshot(window, &format!("{name}-games"));
}

/// A game over the network (#40): the host waiting with its code and address, then
/// connected after both moved with the other device asking to take back, and the join
/// dialog with the games found and a wrong code refused. The link's reports are given as
/// the controller's timer would (a real host listens meanwhile, on any free port). Named
/// `<code>-<size>-nearby-host`, `-nearby-undo-asked`, `-nearby-join`.
fn nearby_shots(controller: &std::rc::Rc<Controller>, window: &AppWindow, name: &str) {
    use halma_core::actions::Event;
    use halma_core::lan::{ByeReason, DropReason, LanEvent};
    let form = window.global::<NewGameForm>();
    window.global::<Navigation>().invoke_show(Page::NewGame);
    form.invoke_set_players(2);
    form.invoke_set_seat_player(0, halma::PlayerKind::Human);
    form.invoke_set_seat_player(2, halma::PlayerKind::Nearby);
    form.invoke_set_first_seat(0);
    form.invoke_start();
    // An unfinished game of the shots before is replaced with the player's yes.
    let game = window.global::<halma::GameState>();
    if game.get_view().question == halma::Question::Replace {
        game.invoke_answer_question(true);
    }
    let nearby = window.global::<halma::Nearby>();
    assert!(nearby.get_view().active && nearby.get_view().hosting);
    let address: std::net::SocketAddr = "192.168.1.5:40123".parse().expect("an address");
    controller.dispatch(Event::Nearby(vec![LanEvent::Listening(address)]));
    snapshot(window, &format!("{name}-nearby-host"));
    let state = controller.state();
    let id = state.nearby.as_ref().and_then(|nearby| nearby.id).expect("a game id");
    let game = state.session.game().clone();
    let guest_seats = halma_rules::SeatSet::single(Seat::C);
    let synced = LanEvent::Synced { id, game, guest_seats, taken_back: 0, gained: 0 };
    controller.dispatch(Event::Nearby(vec![synced]));
    let sq = |name: &str| name.parse::<Square>().expect("square");
    for square in [sq("e2"), sq("f3")] {
        let (x, y) = controller.session().view().display_cell(square);
        controller.dispatch(Event::Tap { x, y });
    }
    controller.dispatch(Event::Confirm);
    let mut theirs = controller.session().game().clone();
    assert_eq!(theirs.play_text("n14-m13"), Ok(()));
    let action = theirs.history().last().cloned().expect("their move");
    controller.dispatch(Event::Nearby(vec![LanEvent::Played { seat: Seat::C, action }]));
    while controller.is_animating() {
        controller.dispatch(Event::AnimationStep);
    }
    controller.dispatch(Event::Nearby(vec![LanEvent::UndoRequested { to: 1 }]));
    assert!(nearby.get_view().undo_asked);
    snapshot(window, &format!("{name}-nearby-undo-asked"));
    controller.dispatch(Event::AnswerUndo(false));
    controller.dispatch(Event::LeaveNearby);
    // A device with nothing at stake joins at once (an unfinished game would be asked about).
    controller.begin_session(Session::new(GameConfig::default()));
    window.global::<Navigation>().invoke_show(Page::NewGame);
    controller.dispatch(Event::OpenJoin);
    let found = halma_core::correspondence::GameId::parse("7KQ2M4XA").expect("an id");
    controller.dispatch(Event::HostsFound(vec![(found, address)]));
    controller.dispatch(Event::JoinNearby { code: "7KQ2M4".into(), address: address.to_string() });
    let refused = DropReason::PeerSaid { reason: ByeReason::WrongCode, text: String::new() };
    controller.dispatch(Event::Nearby(vec![LanEvent::Disconnected { reason: refused, retrying: false }]));
    assert_eq!(nearby.get_view().join_trouble, halma::NearbyTrouble::WrongCode);
    snapshot(window, &format!("{name}-nearby-join"));
    controller.dispatch(Event::CloseJoin);
}

/// Whether `name` is in the comma-separated list in the environment variable `var`
/// (all are, when it is unset): `HALMA_SCREENSHOT_LANGUAGES=fr,uk` and
/// `HALMA_SCREENSHOT_SIZES=phone` render a part of the shots while working on a page
/// (`HALMA_SCREENSHOT_THEMES=none` leaves out the dark theme's).
fn wanted(var: &str, name: &str) -> bool {
    std::env::var(var).map_or(true, |list| list.split(',').any(|item| item.trim() == name))
}

/// The sizes every language is drawn at: the tightest (the smallest phone, both ways),
/// the tablet and the app's own window, and the stores' sizes (their shots are shipped in
/// every language). English, the reference, is drawn at every size; each other language
/// adds two more sizes in turn, so every size is seen in two languages or more without
/// multiplying every size by every language (CI's time, #38).
fn sampled(code: &str, size: &str) -> bool {
    const EVERY_LANGUAGE: [&str; 6] =
        ["default", "phone-small", "phone-small-landscape", "tablet", "phone-store", "tablet-7"];
    const IN_TURN: [&str; 5] = ["phone", "phone-landscape", "tablet-portrait", "desktop", "small-desktop"];
    if code == "en" || EVERY_LANGUAGE.contains(&size) {
        return true;
    }
    let others = halma_core::locale::LANGUAGES.iter().map(|(code, _)| *code).filter(|code| *code != "en");
    let Some(turn) = others.into_iter().position(|other| other == code) else { return true };
    // Two sizes for each language in turn: with English, every size in two languages or more.
    [turn % IN_TURN.len(), (turn + IN_TURN.len() - 1) % IN_TURN.len()].iter().any(|&index| IN_TURN[index] == size)
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
    // Rendering is one core's work: the (language, size) pairs are shared with a child
    // process of this same test (HALMA_SCREENSHOT_HALF=1), which takes every other pair.
    let half: Option<usize> = std::env::var("HALMA_SCREENSHOT_HALF").ok().and_then(|text| text.parse().ok());
    let other_half = match half {
        Some(_) => None,
        None => {
            let me = std::env::current_exe().expect("this test's own program");
            let child = std::process::Command::new(me)
                .args(["screenshots_in_every_language_and_size", "--exact", "--nocapture"])
                .env("HALMA_SCREENSHOT_HALF", "1")
                .spawn();
            Some(child.expect("the second half of the screenshots started"))
        }
    };
    let half = half.unwrap_or(0);
    if half == 0 {
        decided_review_and_three_player_graph();
    }
    let data = std::env::temp_dir().join(format!("halma-shots-{}", std::process::id()));
    let mut pair = 0;
    for &(code, _) in
        halma_core::locale::LANGUAGES.iter().filter(|(code, _)| wanted("HALMA_SCREENSHOT_LANGUAGES", code))
    {
        for (size_name, width, height, scale) in
            SIZES.into_iter().filter(|size| wanted("HALMA_SCREENSHOT_SIZES", size.0) && sampled(code, size.0))
        {
            pair += 1;
            if pair % 2 != half {
                continue;
            }
            let (window, controller) = open_window(code, (width, height, scale), &data);
            if matches!(size_name, "phone-store" | "tablet-7") {
                store_shots(&window, &controller, &format!("{code}-{size_name}"));
                window.hide().expect("hide");
                continue;
            }
            // The longest orientation choice, to see that it fits.
            window.global::<Preferences>().invoke_set_turning(BoardTurning::FaceSeatToMove);
            snapshot(&window, &format!("{code}-{size_name}-new-game"));
            // An engine program at C (desktop builds): its command line and what it must be.
            let form = window.global::<NewGameForm>();
            form.invoke_set_seat_player(2, halma::PlayerKind::Program);
            form.invoke_set_engine_command("/usr/local/bin/some-engine --threads 2".into());
            snapshot(&window, &format!("{code}-{size_name}-new-game-engine"));
            form.invoke_set_seat_player(2, halma::PlayerKind::Casual);
            if size_name.starts_with("phone") {
                // The longest new-game screen: four seats and the team choice.
                window.global::<NewGameForm>().invoke_set_players(4);
                snapshot(&window, &format!("{code}-{size_name}-new-game-4p"));
                window.global::<NewGameForm>().invoke_set_players(2);
            }
            // A game against an engine program, started from the form: the status names
            // it by its file name (A moves first, so the program is not started).
            form.invoke_set_seat_player(2, halma::PlayerKind::Program);
            form.invoke_start();
            snapshot(&window, &format!("{code}-{size_name}-game-engine"));
            window.global::<Preferences>().invoke_set_turning(BoardTurning::Fixed);
            controller.begin_session(piece_selected());
            snapshot(&window, &format!("{code}-{size_name}-selected"));
            // A finger resting on the smallest phone's board: the loupe (two languages).
            if size_name.starts_with("phone-small") && matches!(code, "en" | "uk") {
                loupe_shot(&window, &controller, &format!("{code}-{size_name}-loupe"));
            }
            // The computer thinking, its progress under the status and Undo at hand.
            controller.begin_session(computer_to_move());
            assert!(window.global::<GameState>().get_view().computer_thinking);
            snapshot(&window, &format!("{code}-{size_name}-thinking"));
            controller.begin_session(game_in_progress());
            assert!(window.global::<GameState>().get_view().has_preview, "the game shot shows a preview");
            snapshot(&window, &format!("{code}-{size_name}-game"));
            // The "⋯" menu over the game, opened as a player does; Esc closes it.
            open_menu(&window);
            snapshot(&window, &format!("{code}-{size_name}-menu"));
            press_escape(&window);
            assert!(
                i_slint_backend_testing::ElementHandle::find_by_element_id(&window, "GameMenu::card").next().is_none(),
                "Esc closed the menu"
            );
            // A save that failed under a previewed jump chain, as the game page tells it.
            set_view!(window.global::<GameState>(), save_failure = halma::SaveFailureKind::DiskFull);
            snapshot(&window, &format!("{code}-{size_name}-troubles"));
            // Both troubles at once: a failed save and a computer whose search failed (no
            // preview or pickers then: the computer's seat waits for Retry).
            controller.begin_session(piece_selected());
            window.global::<GameState>().invoke_cancel();
            set_view!(
                window.global::<GameState>(),
                human_turn = false,
                save_failure = halma::SaveFailureKind::DiskFull,
                computer_failed = true
            );
            snapshot(&window, &format!("{code}-{size_name}-troubles-both"));
            // The longest seat failure: an engine program that could not be started.
            set_view!(window.global::<GameState>(), seat_failure = halma::SeatFailure::ProgramCannotStart);
            snapshot(&window, &format!("{code}-{size_name}-troubles-engine"));
            set_view!(
                window.global::<GameState>(),
                seat_failure = halma::SeatFailure::Search,
                save_failure = halma::SaveFailureKind::None,
                computer_failed = false
            );
            controller.begin_session(game_in_progress());
            // Review: an earlier position of the game, with the move list.
            window.global::<GameState>().invoke_review_step(halma::ReviewStep::Back);
            window.global::<GameState>().invoke_review_step(halma::ReviewStep::Back);
            assert!(window.global::<GameState>().get_view().reviewing);
            snapshot(&window, &format!("{code}-{size_name}-review"));
            window.global::<GameState>().invoke_review_step(halma::ReviewStep::Leave);
            // The analysis: its progress on the end card, then the analysed review (the
            // marks, the move's words, both routes and the graph) and the summary.
            controller.set_analysis_quality(halma_ai::analysis::Quality::QUICK);
            controller.begin_session(finished_2p());
            window.global::<halma::Analysis>().invoke_analyse();
            assert!(window.global::<halma::Analysis>().get_view().running);
            snapshot(&window, &format!("{code}-{size_name}-analysing"));
            window.global::<halma::Analysis>().invoke_cancel();
            let (analysed, shown) = analysed_2p();
            controller.begin_session(analysed);
            window.global::<halma::Analysis>().invoke_show_position(shown as i32);
            assert!(window.global::<halma::Analysis>().get_view().available);
            snapshot(&window, &format!("{code}-{size_name}-analysed-review"));
            window.global::<halma::Analysis>().invoke_set_summary_open(true);
            snapshot(&window, &format!("{code}-{size_name}-analysis-summary"));
            window.global::<halma::Analysis>().invoke_set_summary_open(false);
            controller.begin_session(game_in_progress());
            // A pasted record refused, as the import dialog tells why (line, move, reason).
            let pasted = "[Halma \"1\"]\n[Setup \"2p\"]\n[Teams \"none\"]\n[FirstSeat \"A\"]\n[A \"Human\"]\n\
                          [C \"Human\"]\n[Result \"*\"]\n\n1. e2-f3 m15-l14\n2. e3-e9";
            window.global::<halma::Records>().invoke_open_import();
            if let Some(editor) =
                i_slint_backend_testing::ElementHandle::find_by_element_id(&window, "ImportDialog::editor").next()
            {
                editor.set_accessible_value(pasted);
            }
            window.global::<halma::Records>().invoke_import(pasted.into(), false);
            assert_ne!(window.global::<halma::Records>().get_view().trouble, halma::RecordTrouble::None);
            snapshot(&window, &format!("{code}-{size_name}-import-error"));
            window.global::<halma::Records>().invoke_close_import();
            // The questions before replacing an unfinished game and before a draw offer.
            window.global::<GameState>().invoke_new_game();
            assert_eq!(window.global::<GameState>().get_view().question, halma::Question::NewGame);
            snapshot(&window, &format!("{code}-{size_name}-ask-new-game"));
            window.global::<GameState>().invoke_answer_question(false);
            controller.begin_session(draw_offerable(Setup::TwoPlayers));
            window.global::<GameState>().invoke_offer_draw();
            assert_eq!(window.global::<GameState>().get_view().question, halma::Question::OfferDraw);
            snapshot(&window, &format!("{code}-{size_name}-ask-draw"));
            window.global::<GameState>().invoke_answer_question(false);
            // Every army's target camp outlined: 3 players (B races to the empty corner)
            // and 4 players with an army arrived, moving its partner's pieces.
            if matches!(size_name, "default" | "phone" | "tablet") {
                controller.begin_session(Session::new(GameConfig {
                    setup: Setup::ThreePlayers,
                    first: Seat::A,
                    players: [Player::Human; 4].into(),
                }));
                snapshot(&window, &format!("{code}-{size_name}-3p"));
                controller.begin_session(arrived_4p());
                assert!(window.global::<GameState>().get_view().moves_partner);
                snapshot(&window, &format!("{code}-{size_name}-4p-arrived"));
                controller.begin_session(won_2p());
                assert_eq!(window.global::<GameState>().get_view().outcome, halma::Outcome::Win);
                snapshot(&window, &format!("{code}-{size_name}-won"));
            }
            // Late states: a person's draw vote, then the end of a game.
            controller.begin_session(draw_offered(Setup::ThreePlayers));
            assert!(window.global::<GameState>().get_view().vote_awaited, "the vote shot shows the dialog");
            snapshot(&window, &format!("{code}-{size_name}-draw-vote"));
            let mut ended = draw_offered(Setup::TwoPlayers);
            assert!(ended.answer_draw(Seat::C, true).is_ok());
            controller.begin_session(ended);
            assert_ne!(window.global::<GameState>().get_view().outcome, halma::Outcome::Ongoing);
            snapshot(&window, &format!("{code}-{size_name}-game-over"));
            // The report of a save that could not be loaded, as the new-game screen shows it.
            let problems = [
                (halma::SavedFile::Game, halma::SaveDamage::NotJson),
                (halma::SavedFile::Game, halma::SaveDamage::LastStartFailed),
                (halma::SavedFile::Game, halma::SaveDamage::NewerVersion),
            ]
            .map(|(file, damage)| halma::SaveProblem { file, damage });
            window
                .global::<NewGameForm>()
                .set_load_problems(slint::ModelRc::new(slint::VecModel::from(problems.to_vec())));
            window.global::<Navigation>().invoke_show(Page::NewGame);
            snapshot(&window, &format!("{code}-{size_name}-damaged-save"));
            window.global::<NewGameForm>().invoke_dismiss_load_problems();
            window.global::<Navigation>().invoke_show(Page::Rules);
            snapshot(&window, &format!("{code}-{size_name}-rules"));
            if size_name == "phone" || size_name == "default" {
                // The whole page, diagrams included.
                scrolled_snapshots(&window, &format!("{code}-{size_name}-rules"));
            }
            window.global::<Navigation>().invoke_show(Page::About);
            snapshot(&window, &format!("{code}-{size_name}-about"));
            if GUIDE_SHOTS.contains(&(code, size_name)) {
                guide_shots(&controller, &window, &format!("{code}-{size_name}"));
            }
            if matches!(size_name, "phone-small" | "desktop") {
                newcomer_shots(&controller, &window, &format!("{code}-{size_name}"));
            }
            if TRAIN_SHOTS.contains(&(code, size_name)) {
                train_shots(&controller, &window, &format!("{code}-{size_name}"));
            }
            if BETWEEN_DEVICES_SIZES.contains(&size_name) {
                by_message_shots(&controller, &window, &format!("{code}-{size_name}"));
                nearby_shots(&controller, &window, &format!("{code}-{size_name}"));
            }
            if DARK_LANGUAGES.contains(&code)
                && DARK_SIZES.contains(&size_name)
                && wanted("HALMA_SCREENSHOT_THEMES", "dark")
            {
                dark_shots(&window, &controller, &format!("{code}-{size_name}"));
            }
            window.hide().expect("hide");
        }
    }
    let _ = std::fs::remove_dir_all(&data);
    let other_half_passed = other_half.is_none_or(|mut child| child.wait().is_ok_and(|status| status.success()));
    let split = SPLIT_WORDS.with(|all| all.take());
    assert!(
        split.is_empty(),
        "{} control(s) would break a word, overlap, reach past the window or be too small to tap:\n{}",
        split.len(),
        split.join("\n")
    );
    assert!(other_half_passed, "the other half of the screenshots failed (its lines are above)");
}

/// Issue 51's shots: the analysed review at a move of a decided game ("…; the game was
/// already won/lost") and the graph of a three-player game, each seat measured against its
/// par, in English and French at the smallest phone and the desktop (called by the one
/// screenshot test, which owns the process's Slint platform).
fn decided_review_and_three_player_graph() {
    use halma_ai::analysis::{self, AnalysisRequest, Class, Quality};
    let stop = std::sync::atomic::AtomicBool::new(false);
    // A lopsided 2p game (Strong against Beginner), shown at its first decided inaccuracy or worse.
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    while !game.is_over() && game.history().len() < 240 {
        let level = if game.to_move() == Seat::A { Level::Strong } else { Level::Beginner };
        let search = halma_ai::SearchRequest::new(level).with_depth(2).with_threads(1).with_seed(5);
        let Some(action) = halma_ai::choose_action(&game, &search, &stop) else { break };
        assert!(game.play_action(&action).is_ok());
    }
    let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4].into() };
    let mut decided = Session::with_game(config, game).expect("a 2p game");
    let request = AnalysisRequest::new(Quality::QUICK);
    let analysis = analysis::analyse(decided.game(), &request, &stop, &mut |_, _| {}).expect("analysed");
    let shown = (0..analysis.actions.len())
        .find(|&index| {
            analysis.decided(index).is_some()
                && analysis.actions[index].verdict.judgement().is_some_and(|judged| judged.class >= Class::Inaccuracy)
        })
        .expect("a decided move worth telling")
        + 1;
    assert!(decided.set_analysis(analysis));
    // A 3p game between the computer's levels, analysed quickly.
    let mut game = Game::new(Setup::ThreePlayers, Seat::A);
    while !game.is_over() && game.history().len() < 150 {
        let search = halma_ai::SearchRequest::new(Level::Casual).with_depth(2).with_threads(1).with_seed(7);
        let Some(action) = halma_ai::choose_action(&game, &search, &stop) else { break };
        assert!(game.play_action(&action).is_ok());
    }
    let config = GameConfig { setup: Setup::ThreePlayers, first: Seat::A, players: [Player::Human; 4].into() };
    let mut three = Session::with_game(config, game).expect("a 3p game");
    let quick = AnalysisRequest::new(Quality::QUICK);
    let analysis = analysis::analyse(three.game(), &quick, &stop, &mut |_, _| {}).expect("analysed");
    let three_shown = analysis.actions.len() / 2;
    assert!(three.set_analysis(analysis));
    let data = std::env::temp_dir().join(format!("halma-shots-51-{}", std::process::id()));
    for code in ["en", "fr"] {
        for (size_name, width, height, scale) in SIZES.into_iter().filter(|s| matches!(s.0, "phone-small" | "desktop"))
        {
            let (window, controller) = open_window(code, (width, height, scale), &data);
            controller.begin_session(decided.clone());
            window.global::<halma::Analysis>().invoke_show_position(shown as i32);
            assert!(window.global::<halma::Analysis>().get_view().shown_mark.decided != 0);
            snapshot(&window, &format!("{code}-{size_name}-decided-review"));
            // Next mistake (a button with no value, through Commands) shows a mistake or a
            // blunder after the move shown.
            window.global::<halma::Commands>().invoke_run("next-mistake".into());
            let view = window.global::<halma::Analysis>().get_view();
            assert!(matches!(view.shown_mark.class, halma::MoveClass::Mistake | halma::MoveClass::Blunder));
            assert!(window.global::<halma::GameState>().get_view().review_shown > shown as i32);
            window.global::<halma::Analysis>().invoke_show_position(shown as i32);
            window.global::<halma::Analysis>().invoke_set_summary_open(true);
            snapshot(&window, &format!("{code}-{size_name}-decided-summary"));
            window.global::<halma::Analysis>().invoke_set_summary_open(false);
            controller.begin_session(three.clone());
            window.global::<halma::Analysis>().invoke_show_position(three_shown as i32);
            snapshot(&window, &format!("{code}-{size_name}-3p-graph"));
            window.hide().expect("hide");
        }
    }
}
