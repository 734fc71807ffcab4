//! No English reaches a player of another language (#42).
//!
//! The app is put in the states the screenshots show (tests/screenshots.rs: the new-game
//! screen with an engine program, a selection, the computer thinking, a preview, the "⋯"
//! menu, troubles, review, the analysis running, the analysed review and its summary, a
//! refused import, the questions, three and four players, a win, a draw vote, the end, a
//! damaged save, the Rules and About pages) and a few the screenshots lack: a game with
//! passes in its move list, a failed analysis, and the context menus of the text fields
//! (Slint's own Cut / Copy / Paste / Select All). In each state, for French, Ukrainian,
//! Indonesian and Filipino, every element the testing backend finds gives its visible
//! text and its accessible label, description, value and placeholder; the test fails on
//! any that is exactly an English msgid of locales/halma.pot (or the notation's "pass"),
//! unless the language's catalogue translates that msgid by itself by design (the game's
//! name, «OK», the French «Destination»). Nothing is drawn, so the whole run takes
//! seconds (most of it one quick analysis).

use halma_test_support as common;

use common::sq;
use halma::app::ui::Controller;
use halma::{AppWindow, GameState, Navigation, NewGameForm, Page, Preferences};
use halma_ai::analysis::Quality;
use halma_core::session::{GameConfig, Player, Session};
use halma_core::storage::Store;
use halma_rules::{Game, Seat, Setup};
use i_slint_backend_testing::{AccessibleRole, ElementHandle, ElementQuery, TestingBackend, TestingBackendOptions};
use slint::platform::{PointerEventButton, WindowEvent};
use slint::ComponentHandle;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Duration;

/// The languages checked: every one the app offers but English.
const LANGUAGES: [&str; 4] = ["fr", "uk", "id", "fil"];

/// Msgids a language writes as in English, by design: (language or "*", msgid).
const SAME_BY_DESIGN: [(&str, &str); 7] = [
    // The game's name.
    ("*", "Halma"),
    ("fr", "OK"),
    ("id", "OK"),
    ("fil", "OK"),
    // French words spelt as the English ones.
    ("fr", "Destination"),
    ("fr", "Orange (B)"),
    // The word of Indonesian chess players.
    ("id", "blunder"),
];

fn project_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Reads the msgid/msgid_plural (and msgstr) strings of a PO file: (msgid, translations).
fn po_entries(path: &str) -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(project_dir().join(path)).unwrap_or_else(|error| panic!("{path}: {error}"));
    let unquote = |line: &str| -> String {
        let inner = line.trim();
        let inner = inner.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')).unwrap_or_default();
        inner.replace("\\n", "\n").replace("\\\"", "\"").replace("\\\\", "\\")
    };
    let mut entries = Vec::new();
    for block in text.split("\n\n") {
        let (mut ids, mut strs): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
        let mut into_ids = true;
        for line in block.lines().filter(|line| !line.starts_with('#')) {
            if let Some((keyword, value)) = line.split_once(' ').filter(|(keyword, _)| keyword.starts_with("msg")) {
                if keyword == "msgctxt" {
                    into_ids = false;
                    continue;
                }
                into_ids = keyword.starts_with("msgid");
                if into_ids { &mut ids } else { &mut strs }.push(unquote(value));
            } else if line.starts_with('"') {
                if let Some(last) = if into_ids { ids.last_mut() } else { strs.last_mut() } {
                    last.push_str(&unquote(line));
                }
            }
        }
        if let Some(msgid) = ids.first().filter(|msgid| !msgid.is_empty()) {
            entries.push((msgid.clone(), strs));
            // The plural source is English too.
            for plural in ids.iter().skip(1) {
                entries.push((plural.clone(), Vec::new()));
            }
        }
    }
    entries
}

/// The English strings a player of `language` must never see whole: every msgid of the
/// template (the plural sources too) and the notation's "pass", but those the language's
/// catalogue translates by themselves by design.
fn english_for(language: &str) -> BTreeSet<String> {
    let mut english: BTreeSet<String> =
        po_entries("locales/halma.pot").into_iter().map(|(msgid, _)| msgid).filter(|id| !id.is_empty()).collect();
    english.insert("pass".into());
    let catalogue: BTreeMap<String, Vec<String>> =
        po_entries(&format!("locales/{language}/LC_MESSAGES/halma.po")).into_iter().collect();
    for (lang, msgid) in SAME_BY_DESIGN {
        if lang == language {
            assert!(
                catalogue.get(msgid).is_some_and(|translations| translations.iter().any(|t| t == msgid)),
                "{language}: {msgid:?} is listed as the same by design but translated otherwise"
            );
            english.remove(msgid);
        } else if lang == "*" {
            english.remove(msgid);
        }
    }
    english
}

/// Every text the window shows now, with what a screen reader is told: (what, text).
fn shown_texts(window: &AppWindow) -> Vec<(String, String)> {
    let mut texts = Vec::new();
    for element in ElementQuery::from_root(window).match_descendants().find_all() {
        let id = element.id().map(|id| id.to_string()).unwrap_or_else(|| "?".into());
        let parts = [
            ("label", element.accessible_label()),
            ("description", element.accessible_description()),
            ("value", element.accessible_value()),
            ("placeholder", element.accessible_placeholder_text()),
        ];
        for (what, text) in parts {
            if let Some(text) = text.filter(|text| !text.trim().is_empty()) {
                texts.push((format!("{id} {what}"), text.to_string()));
            }
        }
    }
    texts
}

/// The checks of one run: every state's leaks and what each state must show.
struct Checker {
    language: &'static str,
    english: BTreeSet<String>,
    catalogue: BTreeMap<String, Vec<String>>,
    states: usize,
    report: Vec<String>,
}

impl Checker {
    fn new(language: &'static str) -> Checker {
        let catalogue = po_entries(&format!("locales/{language}/LC_MESSAGES/halma.po")).into_iter().collect();
        Checker { language, english: english_for(language), catalogue, states: 0, report: Vec::new() }
    }

    /// The translation of a msgid without placeholders.
    fn translated(&self, msgid: &str) -> String {
        let translation = self.catalogue.get(msgid).and_then(|translations| translations.first()).cloned();
        translation.unwrap_or_else(|| panic!("{}: {msgid:?} has no translation", self.language))
    }

    /// Checks the state shown: no English whole; returns what it shows.
    fn state(&mut self, window: &AppWindow, name: &str) -> Vec<(String, String)> {
        i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(300));
        self.states += 1;
        let texts = shown_texts(window);
        // HALMA_LEAKS_DUMP=1 lists what each state shows, to see what the test reads.
        if std::env::var_os("HALMA_LEAKS_DUMP").is_some() {
            eprintln!("== {}-{name}: {:?}", self.language, texts.iter().map(|(_, text)| text).collect::<Vec<_>>());
        }
        assert!(texts.len() > 5, "{}-{name}: only {} texts found (SLINT_EMIT_DEBUG_INFO?)", self.language, texts.len());
        for (what, text) in &texts {
            if self.english.contains(text.trim()) {
                let problem = format!("{}-{name}: {what} is English: {text:?}", self.language);
                if !self.report.contains(&problem) {
                    self.report.push(problem);
                }
            }
        }
        texts
    }

    /// Fails unless the state shows (or tells a screen reader) the translation of `msgid`.
    fn expect(&mut self, texts: &[(String, String)], name: &str, msgid: &str) {
        let translation = self.translated(msgid);
        if !texts.iter().any(|(_, text)| text.contains(&translation)) {
            self.report.push(format!("{}-{name}: {msgid:?} is not shown as «{translation}»", self.language));
        }
    }
}

fn tap_escape(window: &AppWindow) {
    let text: slint::SharedString = slint::platform::Key::Escape.into();
    window.window().dispatch_event(WindowEvent::KeyPressed { text: text.clone() });
    window.window().dispatch_event(WindowEvent::KeyReleased { text });
}

/// Opens a text field's context menu with a right click in its middle.
fn open_context_menu(window: &AppWindow, field: &ElementHandle) {
    let position = field.absolute_position();
    let size = field.size();
    let middle = slint::LogicalPosition::new(position.x + size.width / 2.0, position.y + size.height / 2.0);
    window.window().dispatch_event(WindowEvent::PointerMoved { position: middle });
    window.window().dispatch_event(WindowEvent::PointerPressed { position: middle, button: PointerEventButton::Right });
    window
        .window()
        .dispatch_event(WindowEvent::PointerReleased { position: middle, button: PointerEventButton::Right });
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(100));
}

fn text_field(window: &AppWindow) -> Option<ElementHandle> {
    ElementQuery::from_root(window).match_descendants().match_accessible_role(AccessibleRole::TextInput).find_first()
}

// ---------------------------------------------------------------------------
// The states (those of tests/screenshots.rs, built the same way)

fn people(setup: Setup) -> GameConfig {
    GameConfig { setup, first: Seat::A, players: [Player::Human; 4] }
}

fn game_in_progress() -> Session {
    let config = GameConfig {
        setup: Setup::TwoPlayers,
        first: Seat::A,
        players: [Player::Human, Player::Human, Player::Computer(halma_ai::Level::Strong), Player::Human],
    };
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    for text in ["d2-d4", "m15-m13", "c3-e5", "n14-l12", "b4-b6", "n13-l13-l11"] {
        assert!(game.play_text(text).is_ok(), "{text}");
    }
    let mut session = Session::with_game(config, game).expect("a 2p game");
    session.tap(sq("a3"));
    let destinations = session.interaction().destinations(session.game());
    let far = destinations.squares().max_by_key(|s| s.row() + s.column()).expect("a3 can move");
    session.tap(far);
    session
}

fn finished_2p() -> Session {
    let record = halma_record::Record::parse(include_str!("data/analysis-typical-2p.txt")).expect("the record");
    Session::with_game(people(Setup::TwoPlayers), record.game).expect("a 2p game")
}

/// A four-player game won by A and C after three passes (tests/record.rs).
fn passes_4p() -> Session {
    let start = "16/16/16/16/16/16/16/16/16/16/16/16/CC14/CCC13/CCCC12/CCC1C11 D 4p-one 3";
    let mut game = Game::from_position(halma_rules::parse_hpn(start).expect("hpn"));
    for text in ["pass", "pass", "pass", "e1-d1"] {
        assert!(game.play_text(text).is_ok(), "{text}");
    }
    Session::with_game(people(Setup::FourPlayersOneArmy), game).expect("a 4p game")
}

fn arrived_4p() -> Session {
    let rows = "BBBB8AAAA/BBBB8AAAA/BBB10AAA/BB12AA/16/16/16/16/2CCCCCCC7/2CCCCCC8/16/16/14DD/13DDD/12DDDD/12DDDD";
    let position = halma_rules::parse_hpn(&format!("{rows} A 4p-both 120")).expect("hpn");
    Session::with_game(people(Setup::FourPlayersBothArmies), Game::from_position(position)).expect("a 4p game")
}

fn won_2p() -> Session {
    let rows = "11AAAAA/11AAAAA/12AAAA/13AAA/14A1/14A1/16/16/16/16/16/16/16/16/CCC13/CCCCCCCCCCCCCCCC";
    let position = halma_rules::parse_hpn(&format!("{rows} A 2p 80")).expect("hpn");
    let mut session = Session::with_game(people(Setup::TwoPlayers), Game::from_position(position)).expect("2p");
    assert!(session.play_route(&[sq("o11"), sq("p12")]).is_ok(), "the winning step");
    session
}

fn draw_offered(setup: Setup) -> Session {
    let mut session = Session::new(people(setup));
    assert!(session.offer_draw().is_ok());
    session
}

/// The finished 2p game analysed quickly, and a position after a move that was not the best.
fn analysed_2p() -> (Session, usize) {
    use halma_ai::analysis::{self, AnalysisRequest, Class};
    let mut session = finished_2p();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let request = AnalysisRequest::new(Quality::QUICK);
    let analysis = analysis::analyse(session.game(), &request, &stop, &mut |_, _| {}).expect("analysed");
    let shown = analysis
        .actions
        .iter()
        .position(|entry| entry.verdict.judgement().is_some_and(|judged| judged.class != Class::Best))
        .map_or(1, |index| index + 1);
    assert!(session.set_analysis(analysis));
    (session, shown)
}

/// Every state, in one language.
fn check_language(checker: &mut Checker, analysed: &(Session, usize)) {
    let language = checker.language;
    let window = AppWindow::new().expect("window");
    window.window().set_size(slint::PhysicalSize::new(1100, 760));
    let data = std::env::temp_dir().join(format!("halma-leaks-{}-{language}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let options = halma::app::ui::StartOptions { first_game_guide: false };
    let controller: Rc<Controller> = Controller::install_with(&window, Some(Store::new(&data)), options);
    let index = halma_core::locale::LANGUAGES.iter().position(|(code, _)| *code == language).expect("offered");
    window.global::<Preferences>().invoke_select_language(index as i32);
    window.show().expect("show");
    let game_state = window.global::<GameState>();
    let analysis = window.global::<halma::Analysis>();

    checker.state(&window, "new-game");
    let form = window.global::<NewGameForm>();
    form.invoke_set_players(4);
    checker.state(&window, "new-game-4p");
    form.invoke_set_players(2);
    form.invoke_set_seat_player(2, halma::PlayerKind::Program);
    form.invoke_set_engine_command("/usr/local/bin/some-engine --threads 2".into());
    checker.state(&window, "new-game-engine");
    // The command field's context menu: Slint's own strings, from our catalogues.
    match text_field(&window) {
        Some(field) => {
            open_context_menu(&window, &field);
            let texts = checker.state(&window, "new-game-engine-menu");
            for msgid in ["Cut", "Copy", "Paste", "Select All"] {
                checker.expect(&texts, "new-game-engine-menu", msgid);
            }
            tap_escape(&window);
        }
        None => checker.report.push(format!("{language}: no engine command field on the new-game screen")),
    }
    form.invoke_start();
    checker.state(&window, "game-engine");

    let mut selected = game_in_progress();
    assert!(selected.cancel());
    controller.begin_session(selected);
    checker.state(&window, "selected");
    let mut thinking = game_in_progress();
    assert!(thinking.confirm().is_ok());
    controller.begin_session(thinking);
    checker.state(&window, "thinking");
    controller.begin_session(game_in_progress());
    checker.state(&window, "game");
    if let Some(button) = ElementHandle::find_by_accessible_label(&window, &checker.translated("More actions")).next() {
        button.invoke_accessible_default_action();
        checker.state(&window, "menu");
        tap_escape(&window);
    } else {
        checker.report.push(format!("{language}-game: no «More actions» button"));
    }
    game_state.set_save_failure(halma::SaveFailureKind::DiskFull);
    checker.state(&window, "troubles");
    game_state.set_human_turn(false);
    game_state.set_computer_failed(true);
    game_state.set_seat_failure(halma::SeatFailure::ProgramCannotStart);
    checker.state(&window, "troubles-engine");
    game_state.set_seat_failure(halma::SeatFailure::Search);
    checker.state(&window, "troubles-both");
    game_state.set_save_failure(halma::SaveFailureKind::None);
    game_state.set_computer_failed(false);

    controller.begin_session(game_in_progress());
    game_state.invoke_review_step(halma::ReviewStep::Back);
    game_state.invoke_review_step(halma::ReviewStep::Back);
    checker.state(&window, "review");
    game_state.invoke_review_step(halma::ReviewStep::Leave);

    // Passes in the move list: a word of the language on screen and to a screen reader.
    controller.begin_session(passes_4p());
    let texts = checker.state(&window, "passes");
    checker.expect(&texts, "passes", "passed");
    game_state.invoke_review_step(halma::ReviewStep::Back);
    checker.state(&window, "passes-review");
    game_state.invoke_review_step(halma::ReviewStep::Leave);

    // The analysis: running, failed (told in the language), done.
    controller.set_analysis_quality(Quality::QUICK);
    controller.begin_session(finished_2p());
    analysis.invoke_analyse();
    checker.state(&window, "analysing");
    analysis.invoke_cancel();
    analysis.set_failed(true);
    let texts = checker.state(&window, "analysis-failed");
    checker.expect(&texts, "analysis-failed", "The analysis could not be finished. Try Analyse again.");
    analysis.set_failed(false);
    controller.begin_session(analysed.0.clone());
    analysis.invoke_show_position(analysed.1 as i32);
    checker.state(&window, "analysed-review");
    analysis.invoke_set_summary_open(true);
    checker.state(&window, "analysis-summary");
    analysis.invoke_set_summary_open(false);

    // A refused import, and the record field's context menu.
    controller.begin_session(game_in_progress());
    let pasted = "[Halma \"1\"]\n[Setup \"2p\"]\n[Teams \"none\"]\n[FirstSeat \"A\"]\n[A \"Human\"]\n\
                  [C \"Human\"]\n[Result \"*\"]\n\n1. e2-f3 m15-l14\n2. e3-e9";
    let records = window.global::<halma::Records>();
    records.invoke_open_import();
    if let Some(editor) = ElementHandle::find_by_element_id(&window, "ImportDialog::editor").next() {
        editor.set_accessible_value(pasted);
        records.invoke_import(pasted.into(), false);
        checker.state(&window, "import-error");
        open_context_menu(&window, &editor);
        let texts = checker.state(&window, "import-menu");
        for msgid in ["Cut", "Copy", "Paste", "Select All"] {
            checker.expect(&texts, "import-menu", msgid);
        }
        tap_escape(&window);
    } else {
        checker.report.push(format!("{language}: no import editor"));
    }
    records.invoke_close_import();

    game_state.invoke_new_game();
    checker.state(&window, "ask-new-game");
    game_state.invoke_answer_question(false);
    controller.begin_session(Session::new(people(Setup::TwoPlayers)));
    game_state.invoke_offer_draw();
    checker.state(&window, "ask-draw");
    game_state.invoke_answer_question(false);
    controller.begin_session(Session::new(people(Setup::ThreePlayers)));
    checker.state(&window, "3p");
    controller.begin_session(arrived_4p());
    checker.state(&window, "4p-arrived");
    controller.begin_session(won_2p());
    checker.state(&window, "won");
    controller.begin_session(draw_offered(Setup::ThreePlayers));
    checker.state(&window, "draw-vote");
    let mut ended = draw_offered(Setup::TwoPlayers);
    assert!(ended.answer_draw(Seat::C, true).is_ok());
    controller.begin_session(ended);
    checker.state(&window, "game-over");

    let problems = [
        (halma::SavedFile::Game, halma::SaveDamage::NotJson),
        (halma::SavedFile::Game, halma::SaveDamage::LastStartFailed),
        (halma::SavedFile::Settings, halma::SaveDamage::NewerVersion),
    ]
    .map(|(file, damage)| halma::SaveProblem { file, damage });
    form.set_load_problems(slint::ModelRc::new(slint::VecModel::from(problems.to_vec())));
    window.global::<Navigation>().invoke_show(Page::NewGame);
    checker.state(&window, "damaged-save");
    form.invoke_dismiss_load_problems();
    window.global::<Navigation>().invoke_show(Page::Rules);
    checker.state(&window, "rules");
    // The About page: the app's version and the Slint badge (its own text is English:
    // see the README).
    window.global::<Navigation>().invoke_show(Page::About);
    let texts = checker.state(&window, "about");
    let version = env!("CARGO_PKG_VERSION");
    if !texts.iter().any(|(_, text)| text.contains(version)) {
        checker.report.push(format!("{language}-about: the version {version} is not shown"));
    }
    if !texts.iter().any(|(_, text)| text == "#MadeWithSlint") {
        checker.report.push(format!("{language}-about: no Slint badge"));
    }
    window.hide().expect("hide");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn no_english_string_reaches_a_player_of_another_language() {
    let started = std::time::Instant::now();
    let backend = TestingBackend::new(TestingBackendOptions {
        mock_time: true,
        threading: true,
        renderer_name: Some("software".into()),
    });
    slint::platform::set_platform(Box::new(backend)).expect("platform");
    let analysed = analysed_2p();
    let mut report = Vec::new();
    let mut states = 0;
    for language in LANGUAGES {
        let mut checker = Checker::new(language);
        check_language(&mut checker, &analysed);
        states = checker.states;
        report.extend(checker.report);
    }
    eprintln!("{states} states in {} languages checked in {:.1} s", LANGUAGES.len(), started.elapsed().as_secs_f64());
    assert!(report.is_empty(), "{} problem(s):\n{}", report.len(), report.join("\n"));
}
