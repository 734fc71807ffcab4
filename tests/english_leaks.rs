//! No English reaches a player of another language (#42, #52).
//!
//! The app is put in the states the screenshots show (tests/screenshots.rs: the new-game
//! screen with an engine program, a selection, the computer thinking, a preview, the "⋯"
//! menu with its Theme, Sound and Vibration rows, troubles, review, the analysis running,
//! the analysed review and its summary, a refused import, the questions, three and four
//! players, a win, a draw vote, the end, a damaged save, the Rules and About pages, the
//! Train page, the first-game guide, the Games page, the Receive and Join dialogs, the
//! nearby panel and the notes of games by message and nearby) and a few the screenshots
//! lack: a game with passes in its move list, a failed analysis, every step of the guide,
//! every outcome of a puzzle, every trouble of a message and of the network, and the
//! context menus of the text fields (Slint's own Cut / Copy / Paste / Select All). In each
//! state, for French, Ukrainian, Indonesian and Filipino, every element the testing
//! backend finds gives its visible text and its accessible label, description, value and
//! placeholder. The test fails on a text that is exactly an English msgid of
//! locales/halma.pot (or the notation's "pass"), unless the language's catalogue
//! translates that msgid by itself by design (`SAME_BY_DESIGN`); on an English word inside
//! a text (a word of the msgids, "pass" included), unless the language shares it with
//! English by design (tests/common/same_words.rs, also read by tests/translations.rs); and
//! on a decimal number written with a point in a language that writes a comma. Nothing is
//! drawn, so the whole run takes seconds (most of it one quick analysis).
use halma_test_support as common;
#[path = "common/same_words.rs"]
mod same_words;
#[path = "common/set_view.rs"]
#[macro_use]
mod set_view;

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
const SAME_BY_DESIGN: [(&str, &str); 9] = [
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
    // A network's address, as Filipino phones say it (#40).
    ("fil", "Address"),
    ("fil", "Address: 192.168.1.5:40123"),
];

/// The engine program's command line typed on the new-game screen.
const ENGINE_COMMAND: &str = "/usr/local/bin/some-engine --threads 2";
/// A record pasted into the import dialog: its header keywords are the record format's.
const PASTED_RECORD: &str = "[Halma \"1\"]\n[Setup \"2p\"]\n[Teams \"none\"]\n[FirstSeat \"A\"]\n[A \"Human\"]\n\
                             [C \"Human\"]\n[Result \"*\"]\n\n1. e2-f3 m15-l14\n2. e3-e9";
/// Where a sent message was also saved: a file name the app makes, as the records' are.
const SAVED_TO: &str = "/home/player/halma-message-7KQ2M4XA-1-1764900000.txt";
/// What the player typed or the app named, not the interface's words: not checked word by word.
/// "halma-engine" is the engine program's name (the command field's example), "some-engine"
/// the file name of the command above.
const DATA: [&str; 5] = [ENGINE_COMMAND, PASTED_RECORD, SAVED_TO, "halma-engine", "some-engine"];

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
    /// The words of the English msgids (and "pass"), which no text may hold but those in `shared`.
    vocabulary: BTreeSet<String>,
    /// The words this language shares with English by design, and the names every language writes.
    shared: BTreeSet<String>,
    catalogue: BTreeMap<String, Vec<String>>,
    states: usize,
    report: Vec<String>,
    /// Whether a state lets time pass first (animations end). Off while the test sets the
    /// window's globals itself, which the controller's next redraw (a timer) would undo.
    settle: bool,
}

/// The words of every English msgid of the template, and the notation's "pass".
fn english_vocabulary() -> BTreeSet<String> {
    let mut vocabulary: BTreeSet<String> =
        po_entries("locales/halma.pot").into_iter().flat_map(|(msgid, _)| same_words::words(&msgid)).collect();
    vocabulary.insert("pass".into());
    vocabulary
}

/// English words inside `text`: words of three letters or more of the English vocabulary that
/// the language does not share by design. Record keywords in quotes («pass») are the notation's.
fn english_words(text: &str, vocabulary: &BTreeSet<String>, shared: &BTreeSet<String>) -> Vec<String> {
    let text = DATA.iter().fold(text.to_owned(), |text, data| text.replace(data, ""));
    let text = same_words::without_quoted_keywords(&text);
    same_words::words(&text)
        .into_iter()
        .filter(|word| word.chars().count() >= 3 && vocabulary.contains(word) && !shared.contains(word))
        .collect()
}

/// Decimal numbers written with a point ("3.4"): runs of digits and points with exactly one
/// point between digits. An address (192.168.1.5) or a version (0.1.0) has more than one.
fn point_decimals(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map(|run| run.trim_matches('.'))
        .filter(|run| {
            run.matches('.').count() == 1
                && run.split('.').all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()))
        })
        .map(str::to_owned)
        .collect()
}

impl Checker {
    fn new(language: &'static str) -> Checker {
        let catalogue = po_entries(&format!("locales/{language}/LC_MESSAGES/halma.po")).into_iter().collect();
        let shared_words = same_words::SHARED_WORDS.iter().find(|(code, _)| *code == language).map(|(_, words)| *words);
        let shared =
            same_words::NAMES.iter().chain(shared_words.unwrap_or_default()).map(|word| word.to_string()).collect();
        Checker {
            language,
            english: english_for(language),
            vocabulary: english_vocabulary(),
            shared,
            catalogue,
            states: 0,
            report: Vec::new(),
            settle: true,
        }
    }

    /// The language's decimal separator: how its catalogue writes "{}.{}".
    fn decimal(&self, whole: i32, tenths: i32) -> String {
        self.translated("{}.{}").replacen("{}", &whole.to_string(), 1).replacen("{}", &tenths.to_string(), 1)
    }

    /// The translation of a msgid with its `{}` filled in order.
    fn filled(&self, msgid: &str, values: &[&str]) -> String {
        values.iter().fold(self.translated(msgid), |text, value| text.replacen("{}", value, 1))
    }

    /// The translation of a msgid without placeholders.
    fn translated(&self, msgid: &str) -> String {
        let translation = self.catalogue.get(msgid).and_then(|translations| translations.first()).cloned();
        translation.unwrap_or_else(|| panic!("{}: {msgid:?} has no translation", self.language))
    }

    /// Checks the state shown: no English whole; returns what it shows.
    fn state(&mut self, window: &AppWindow, name: &str) -> Vec<(String, String)> {
        if self.settle {
            i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(300));
        }
        self.states += 1;
        let texts = shown_texts(window);
        // HALMA_LEAKS_DUMP=1 lists what each state shows, to see what the test reads.
        if std::env::var_os("HALMA_LEAKS_DUMP").is_some() {
            eprintln!("== {}-{name}: {:?}", self.language, texts.iter().map(|(_, text)| text).collect::<Vec<_>>());
        }
        assert!(texts.len() > 5, "{}-{name}: only {} texts found (SLINT_EMIT_DEBUG_INFO?)", self.language, texts.len());
        let comma = self.decimal(3, 4) == "3,4";
        for (what, text) in &texts {
            let mut problems = Vec::new();
            // The Slint badge of the About page writes its own text, in English (README).
            if text.contains("slint.dev") {
                continue;
            }
            if self.english.contains(text.trim()) {
                problems.push(format!("{}-{name}: {what} is English: {text:?}", self.language));
            } else {
                let words = english_words(text, &self.vocabulary, &self.shared);
                if !words.is_empty() {
                    problems.push(format!("{}-{name}: {what} has English words {words:?}: {text:?}", self.language));
                }
            }
            let points = point_decimals(text);
            if comma && !points.is_empty() {
                problems.push(format!("{}-{name}: {what} writes {points:?} with a point: {text:?}", self.language));
            }
            for problem in problems {
                if !self.report.contains(&problem) {
                    self.report.push(problem);
                }
            }
        }
        texts
    }

    /// Fails unless the state shows (or tells a screen reader) `text`.
    fn expect_text(&mut self, texts: &[(String, String)], name: &str, text: &str) {
        if !texts.iter().any(|(_, shown)| shown.contains(text)) {
            self.report.push(format!("{}-{name}: «{text}» is not shown", self.language));
        }
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
    GameConfig { setup, first: Seat::A, players: [Player::Human; 4].into() }
}

fn game_in_progress() -> Session {
    let config = GameConfig {
        setup: Setup::TwoPlayers,
        first: Seat::A,
        players: [Player::Human, Player::Human, Player::Computer(halma_ai::Level::Strong), Player::Human].into(),
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
    form.invoke_set_engine_command(ENGINE_COMMAND.into());
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
    // The menu's settings: Theme, Sound and (offered on Android) Vibration, with their choices.
    window.global::<Preferences>().set_vibration_offered(true);
    if let Some(button) = ElementHandle::find_by_accessible_label(&window, &checker.translated("More actions")).next() {
        button.invoke_accessible_default_action();
        let texts = checker.state(&window, "menu");
        for msgid in ["Theme", "Sound", "Vibration", "System default", "On"] {
            checker.expect(&texts, "menu", msgid);
        }
        tap_escape(&window);
    } else {
        checker.report.push(format!("{language}-game: no «More actions» button"));
    }
    set_view!(game_state, save_failure = halma::SaveFailureKind::DiskFull);
    checker.state(&window, "troubles");
    set_view!(
        game_state,
        human_turn = false,
        computer_failed = true,
        seat_failure = halma::SeatFailure::ProgramCannotStart
    );
    checker.state(&window, "troubles-engine");
    set_view!(game_state, seat_failure = halma::SeatFailure::Search);
    checker.state(&window, "troubles-both");
    set_view!(game_state, save_failure = halma::SaveFailureKind::None, computer_failed = false);

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
    set_view!(analysis, failed = true);
    let texts = checker.state(&window, "analysis-failed");
    checker.expect(&texts, "analysis-failed", "The analysis could not be finished. Try Analyse again.");
    set_view!(analysis, failed = false);
    controller.begin_session(analysed.0.clone());
    analysis.invoke_show_position(analysed.1 as i32);
    checker.state(&window, "analysed-review");
    analysis.invoke_set_summary_open(true);
    checker.state(&window, "analysis-summary");
    analysis.invoke_set_summary_open(false);

    // A refused import, and the record field's context menu.
    controller.begin_session(game_in_progress());
    let pasted = PASTED_RECORD;
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
    check_train(checker, &window, &controller);
    check_guide(checker, &window, &controller);
    check_by_message(checker, &window, &controller);
    check_nearby(checker, &window, &controller);
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

// ---------------------------------------------------------------------------
// The pages, dialogs and notes added since #42 (#52)

/// The Train page: a puzzle, and every outcome its text tells, with steps in tenths so that
/// the decimal separator shows.
fn check_train(checker: &mut Checker, window: &AppWindow, controller: &Rc<Controller>) {
    use halma_core::actions::Event;
    controller.dispatch(Event::TrainDaily { year: 2026, month: 12, day: 3 });
    if window.global::<Navigation>().get_page() != Page::Train {
        checker.report.push(format!("{}: the Train page did not open", checker.language));
        return;
    }
    let texts = checker.state(window, "train");
    checker.expect(&texts, "train", "Puzzle of the day");
    let train = window.global::<halma::Train>();
    let shown = train.get_info();
    checker.settle = false;
    // (name, kind, outcome, gain, loss): a puzzle by level, the player's own mistake, solved
    // both ways, and a wrong move with and without its measure.
    let cases = [
        ("train-easy", 1, 0, 34, -1),
        ("train-medium", 2, 0, 34, -1),
        ("train-hard", 3, 0, 34, -1),
        ("train-mistake", 4, 0, 34, -1),
        ("train-solved", 0, 1, 34, -1),
        ("train-solved-mistake", 4, 1, 34, -1),
        ("train-wrong", 0, 2, 34, 27),
        ("train-wrong-unmeasured", 0, 2, 34, -1),
    ];
    for (name, kind, outcome, gain, loss) in cases {
        let mut info = shown.clone();
        (info.kind, info.outcome, info.gain, info.hints) = (kind, outcome, gain, 2);
        // A measured wrong move is told as the review tells a move: its class and its steps.
        info.loss = if loss > 0 { format!("{}.{}", loss / 10, loss % 10).into() } else { Default::default() };
        (info.loss_tenths, info.loss_class) = (loss.max(0), if loss > 0 { 2 } else { 0 });
        (info.mistake, info.mistakes) = (2, 5);
        train.set_info(info);
        let texts = checker.state(window, name);
        if outcome == 1 {
            let steps = checker.decimal(3, 4);
            checker.expect_text(&texts, name, &steps);
        }
        if loss > 0 {
            // The review's words for a move: whole steps.
            checker.expect_text(&texts, name, "3");
        }
    }
    train.set_info(shown);
    checker.settle = true;
    window.global::<Navigation>().invoke_show(Page::NewGame);
}

/// The first-game guide: every step's card, its counter, and the card after a wrong move.
fn check_guide(checker: &mut Checker, window: &AppWindow, controller: &Rc<Controller>) {
    use halma::GuideStep;
    use halma_core::actions::Event;
    controller.begin_session(game_in_progress());
    controller.dispatch(Event::OpenGuide);
    let guide = window.global::<halma::Guide>();
    if !guide.get_view().active {
        checker.report.push(format!("{}: the guide did not open", checker.language));
        return;
    }
    let texts = checker.state(window, "guide");
    let counter = checker.filled("Step {} of {}", &["1", "10"]);
    checker.expect_text(&texts, "guide", &counter);
    checker.settle = false;
    let steps = [
        GuideStep::Select,
        GuideStep::PreviewStep,
        GuideStep::Confirm,
        GuideStep::Jump,
        GuideStep::Chain,
        GuideStep::CutBack,
        GuideStep::Goal,
        GuideStep::Undo,
        GuideStep::Menu,
        GuideStep::Done,
    ];
    for (index, step) in steps.into_iter().enumerate() {
        set_view!(guide, step = step, number = index as i32 + 1);
        checker.state(window, &format!("guide-{}", index + 1));
    }
    set_view!(guide, step = GuideStep::Jump, retry = true);
    let texts = checker.state(window, "guide-retry");
    checker.expect(&texts, "guide-retry", "That was another move: the position is set up again. Try once more.");
    set_view!(guide, retry = false);
    checker.settle = true;
    controller.dispatch(Event::SkipGuide);
}

/// Play by message: the notes after a received message (a pass among the moves), the Receive
/// dialog with every trouble and a new game offered, and the Games page, empty and full.
fn check_by_message(checker: &mut Checker, window: &AppWindow, controller: &Rc<Controller>) {
    use halma::{GameRow, GameTurn, MessageNote, PlayedAction, ReceiveTrouble};
    controller.begin_session(game_in_progress());
    window.global::<Navigation>().invoke_show(Page::Game);
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(300));
    checker.settle = false;
    let by_message = window.global::<halma::ByMessage>();
    set_view!(by_message, active = true, can_send = true, waiting_seat = 2);
    let played = [PlayedAction { seat: 2, action: "pass".into() }, PlayedAction { seat: 2, action: "n14-m13".into() }];
    by_message.set_played(slint::ModelRc::new(slint::VecModel::from(played.to_vec())));
    set_view!(by_message, your_move = true);
    for (name, note) in [
        ("by-message-received", MessageNote::Received),
        ("by-message-started", MessageNote::Started),
        ("by-message-sent", MessageNote::Sent),
    ] {
        set_view!(by_message, note = note);
        let texts = checker.state(window, name);
        if note == MessageNote::Received {
            // The pass in words; the move after it in notation.
            let passed = checker.translated("{} passed.");
            let (before, after) = passed.split_once("{}").unwrap_or_default();
            if !texts.iter().any(|(_, text)| text.starts_with(before) && text.ends_with(after)) {
                checker.report.push(format!("{}-{name}: no «{passed}» for the pass", checker.language));
            }
        }
    }
    set_view!(by_message, saved_to = SAVED_TO.into());
    checker.state(window, "by-message-sent-saved");
    set_view!(by_message, saved_to = "".into(), note = MessageNote::None);

    by_message.invoke_open_receive();
    checker.state(window, "receive");
    let troubles = [
        ReceiveTrouble::TooLarge,
        ReceiveTrouble::NotAMessage,
        ReceiveTrouble::Version,
        ReceiveTrouble::BadFrame,
        ReceiveTrouble::Truncated,
        ReceiveTrouble::Record,
        ReceiveTrouble::TurnMismatch,
        ReceiveTrouble::DifferentStart,
        ReceiveTrouble::Rewritten,
        ReceiveTrouble::VotesRewritten,
        ReceiveTrouble::OldMessage,
        ReceiveTrouble::NothingNew,
        ReceiveTrouble::WrongSeat,
        ReceiveTrouble::SkippedTurn,
        ReceiveTrouble::Damaged,
    ];
    set_view!(by_message, trouble_number = 3, trouble_seat = 2);
    for trouble in troubles {
        set_view!(by_message, trouble = trouble);
        checker.state(window, &format!("receive-{trouble:?}"));
    }
    set_view!(
        by_message,
        trouble = ReceiveTrouble::None,
        offered = true,
        offered_from = 2,
        offered_players = 2,
        offered_moves = 3
    );
    checker.state(window, "receive-offer");
    set_view!(by_message, offered = false);
    by_message.invoke_close_receive();
    set_view!(by_message, active = false);

    let rows = |rows: Vec<GameRow>| slint::ModelRc::new(slint::VecModel::from(rows));
    by_message.set_games(rows(Vec::new()));
    window.global::<Navigation>().invoke_show(Page::Games);
    checker.state(window, "games-empty");
    let row = |id: &str, turn: GameTurn, seat: i32, current: bool| GameRow {
        id: id.into(),
        players: 2,
        turn,
        seat,
        moves: 12,
        current,
    };
    by_message.set_games(rows(vec![
        row("", GameTurn::Yours, 0, true),
        row("7KQ2M4XA", GameTurn::Yours, 2, false),
        row("9PLR3TZE", GameTurn::Theirs, 2, false),
        row("4HWX8NBC", GameTurn::Over, 2, false),
    ]));
    let texts = checker.state(window, "games");
    checker.expect(&texts, "games", "Games");
    checker.settle = true;
    window.global::<Navigation>().invoke_show(Page::NewGame);
}

/// Play with a device nearby: the panel in every status, trouble and note (a pass told in
/// words), and the Join dialog with games found and every trouble.
fn check_nearby(checker: &mut Checker, window: &AppWindow, controller: &Rc<Controller>) {
    use halma::{FoundHost, NearbyNote, NearbyStatus, NearbyTrouble};
    use halma_core::actions::Event;
    controller.begin_session(game_in_progress());
    window.global::<Navigation>().invoke_show(Page::Game);
    i_slint_backend_testing::mock_elapsed_time(Duration::from_millis(300));
    checker.settle = false;
    let nearby = window.global::<halma::Nearby>();
    set_view!(nearby, active = true, hosting = true, code = "7KQ2M4".into(), address = "192.168.1.5:40123".into());
    for status in [NearbyStatus::Waiting, NearbyStatus::Connecting, NearbyStatus::Connected, NearbyStatus::Lost] {
        set_view!(nearby, status = status);
        checker.state(window, &format!("nearby-{status:?}"));
    }
    set_view!(nearby, hosting = false);
    checker.state(window, "nearby-lost-guest");
    set_view!(nearby, status = NearbyStatus::Ended);
    let troubles = [
        NearbyTrouble::Left,
        NearbyTrouble::WrongCode,
        NearbyTrouble::OtherGame,
        NearbyTrouble::Misbehaved,
        NearbyTrouble::NoNetwork,
    ];
    for trouble in troubles {
        set_view!(nearby, ending = trouble);
        checker.state(window, &format!("nearby-ended-{trouble:?}"));
    }
    set_view!(nearby, status = NearbyStatus::Connected, note_seat = 2, taken_back = 2, gained = 1);
    for note in [
        NearbyNote::Played,
        NearbyNote::Undone,
        NearbyNote::UndoRefused,
        NearbyNote::WrongCodeTried,
        NearbyNote::Resynced,
    ] {
        set_view!(nearby, note = note, note_action = "pass".into());
        let texts = checker.state(window, &format!("nearby-{note:?}"));
        if note == NearbyNote::Played {
            let passed = checker.translated("{} passed.");
            let (before, after) = passed.split_once("{}").unwrap_or_default();
            if !texts.iter().any(|(_, text)| text.starts_with(before) && text.ends_with(after)) {
                checker.report.push(format!("{}-nearby-played: no «{passed}» for the pass", checker.language));
            }
            set_view!(nearby, note_action = "n14-m13".into());
            checker.state(window, "nearby-played-move");
        }
    }
    set_view!(nearby, taken_back = 0);
    checker.state(window, "nearby-resynced-none-lost");
    set_view!(nearby, note = NearbyNote::None, undo_asked = true);
    checker.state(window, "nearby-undo-asked");
    set_view!(nearby, undo_asked = false, undo_pending = true);
    checker.state(window, "nearby-undo-pending");
    set_view!(nearby, undo_pending = false, active = false);

    window.global::<Navigation>().invoke_show(Page::NewGame);
    controller.dispatch(Event::OpenJoin);
    if !nearby.get_view().joining {
        checker.report.push(format!("{}: the Join dialog did not open", checker.language));
        checker.settle = true;
        return;
    }
    checker.state(window, "join");
    let hosts = [FoundHost { game: "7KQ2M4XA".into(), address: "192.168.1.5:40123".into() }];
    nearby.set_hosts(slint::ModelRc::new(slint::VecModel::from(hosts.to_vec())));
    checker.state(window, "join-found");
    set_view!(nearby, join_connecting = true);
    checker.state(window, "join-connecting");
    set_view!(nearby, join_connecting = false);
    for trouble in [
        NearbyTrouble::Code,
        NearbyTrouble::Address,
        NearbyTrouble::WrongCode,
        NearbyTrouble::OtherGame,
        NearbyTrouble::Misbehaved,
        NearbyTrouble::NoNetwork,
        NearbyTrouble::Left,
    ] {
        set_view!(nearby, join_trouble = trouble);
        checker.state(window, &format!("join-{trouble:?}"));
    }
    set_view!(nearby, join_trouble = NearbyTrouble::None);
    checker.settle = true;
    controller.dispatch(Event::CloseJoin);
}

#[test]
fn the_word_check_finds_english_inside_a_sentence() {
    let vocabulary: BTreeSet<String> = ["played", "pass", "engine", "address"].into_iter().map(String::from).collect();
    let shared: BTreeSet<String> = ["address"].into_iter().map(String::from).collect();
    assert_eq!(english_words("Bleu (A) a joué pass.", &vocabulary, &shared), ["pass"]);
    assert_eq!(english_words("un coup est «\u{a0}pass\u{a0}»", &vocabulary, &shared), Vec::<String>::new());
    assert_eq!(english_words("Address: 192.168.1.5:40123", &vocabulary, &shared), Vec::<String>::new());
    assert_eq!(english_words(ENGINE_COMMAND, &vocabulary, &shared), Vec::<String>::new());
    assert_eq!(point_decimals("gagne 3.4 pas"), ["3.4"]);
    assert_eq!(point_decimals("gagne 3,4 pas, version 0.1.0, 192.168.1.5:40123, fin."), Vec::<String>::new());
}
