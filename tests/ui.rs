//! Interface tests: the real `.slint` window driven through Slint's testing backend
//! (pointer events, keys, accessible buttons), with mock time for timers. Each flow is
//! its own named case, run one after another on the main thread (Slint's platform is set
//! once per process), so a failure names the flow. `cargo test --test ui -- NAME` runs the
//! flows whose names contain NAME.

mod ui_support;

use halma::Page;
use halma_ai::Level;
use halma_core::session::{GameConfig, Player, Session};
use halma_rules::{parse_hpn, DrawReason, Game, Outcome, Seat, Setup};
use slint::{ComponentHandle, LogicalPosition, Model, SharedString};
use ui_support::{advance, against, engine_command, harness, humans, sq};

fn tap_preview_confirm_a_step() {
    let h = harness("step");
    h.start(Session::new(humans(Setup::TwoPlayers)));
    h.tap(sq("e2"));
    assert_eq!(h.controller.session().interaction().selected, Some(sq("e2")));
    assert!(!h.button_enabled("Confirm"), "nothing to confirm before a preview");
    h.tap(sq("f3"));
    assert_eq!(h.route(), vec![sq("e2"), sq("f3")]);
    assert!(h.game_state().get_view().can_confirm);
    assert!(h.game().history().is_empty(), "a preview moves nothing");
    h.click_button("Confirm");
    assert_eq!(h.game().history().len(), 1);
    assert_eq!(h.game().position().piece_at(sq("f3")), Some(Seat::A));
    assert!(h.route().is_empty());
    // The move is animated hop by hop, then shown in place.
    assert!(h.board().get_view().anim_visible);
    advance(600);
    assert!(!h.board().get_view().anim_visible);
}

/// Two people; A on c3 can jump over d4 to e5, then over f5 to g5, then over g6 to g7.
fn chain_session() -> Session {
    let start = parse_hpn("16/16/16/16/16/16/16/16/16/16/6C9/5C10/3A12/2A1C11/16/15C A 2p 0").expect("hpn");
    Session::with_game(humans(Setup::TwoPlayers), Game::from_position(start)).expect("a 2p game")
}

fn chain_built_hop_by_hop() {
    let h = harness("chain");
    h.start(chain_session());
    h.tap(sq("c3"));
    h.tap(sq("e5"));
    assert_eq!(h.route(), vec![sq("c3"), sq("e5")]);
    h.tap(sq("g5"));
    assert_eq!(h.route(), vec![sq("c3"), sq("e5"), sq("g5")]);
    h.tap(sq("g7"));
    assert_eq!(h.route(), vec![sq("c3"), sq("e5"), sq("g5"), sq("g7")]);
    // Cutting back to an earlier landing.
    h.tap(sq("g5"));
    assert_eq!(h.route(), vec![sq("c3"), sq("e5"), sq("g5")]);
    // A square the chain cannot reach changes nothing.
    h.tap(sq("k11"));
    assert_eq!(h.route(), vec![sq("c3"), sq("e5"), sq("g5")]);
    h.click_button("Confirm");
    let history = h.game().history().to_vec();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].to_string(), "c3-e5-g5");
}

fn drag_moves_nothing() {
    let h = harness("drag");
    h.start(Session::new(humans(Setup::TwoPlayers)));
    let from = h.square_point(sq("e2"));
    let to = LogicalPosition::new(from.x + 150.0, from.y - 150.0);
    h.drag(from, to, 10);
    advance(300);
    assert_eq!(h.controller.session().interaction().selected, None);
    assert!(h.game().history().is_empty());
}

fn pickers_preview_like_taps() {
    let h = harness("pickers");
    h.start(Session::new(humans(Setup::TwoPlayers)));
    let pieces: Vec<String> = h.pickers().get_pieces().iter().map(|s| s.to_string()).collect();
    assert!(!pieces.iter().any(|p| p == "Piece"), "the prompt is not an entry");
    assert_eq!(h.pickers().get_view().piece_index, -1, "nothing chosen: the picker shows its prompt");
    assert!(h.picker_shows_prompt("Piece"));
    let index = pieces.iter().position(|p| p == "b4").expect("b4 can move") as i32;
    h.pickers().invoke_pick_piece(index);
    advance(20);
    assert_eq!(h.controller.session().interaction().selected, Some(sq("b4")));
    let destinations: Vec<String> = h.pickers().get_destinations().iter().map(|s| s.to_string()).collect();
    assert_eq!(destinations, ["b4 → d4", "b4 → c5", "b4 → b6"]);
    assert!(h.picker_shows_prompt("Destination"));
    h.pickers().invoke_pick_destination(2);
    advance(20);
    assert_eq!(h.route(), vec![sq("b4"), sq("b6")]);
    assert_eq!(h.pickers().get_view().destination_index, 2);
    h.click_button("Confirm");
    assert_eq!(h.game().history().len(), 1);
}

fn keyboard_commands() {
    let h = harness("keys");
    h.start(Session::new(against(Player::Computer(Level::Greedy))));
    // Cursor starts on a1: right x3, up x1 → d2.
    for _ in 0..3 {
        h.key(slint::platform::Key::RightArrow);
    }
    h.key(slint::platform::Key::UpArrow);
    assert_eq!(h.controller.session().interaction().cursor, sq("d2"));
    assert!(h.board().get_view().cursor_visible);
    h.key(slint::platform::Key::Return);
    assert_eq!(h.controller.session().interaction().selected, Some(sq("d2")));
    h.key(slint::platform::Key::UpArrow);
    h.key(slint::platform::Key::UpArrow);
    h.key(slint::platform::Key::Return);
    assert_eq!(h.route(), vec![sq("d2"), sq("d4")]);
    // Esc drops the preview, then the selection.
    h.key(slint::platform::Key::Escape);
    assert!(h.route().is_empty());
    assert_eq!(h.controller.session().interaction().selected, Some(sq("d2")));
    h.key(slint::platform::Key::Escape);
    assert_eq!(h.controller.session().interaction().selected, None);
    // The menu key and F10 open the "⋯" menu; Esc or the same key closes it.
    let menu_open =
        || i_slint_backend_testing::ElementHandle::find_by_element_id(&h.window, "GameMenu::card").next().is_some();
    h.key(slint::platform::Key::Menu);
    assert!(menu_open(), "the menu key opens the menu");
    h.key(slint::platform::Key::Escape);
    assert!(!menu_open());
    h.key(slint::platform::Key::F10);
    assert!(menu_open(), "F10 opens the menu");
    h.key(slint::platform::Key::F10);
    assert!(!menu_open());
    // Select, preview, confirm with Enter.
    h.key(slint::platform::Key::DownArrow);
    h.key(slint::platform::Key::DownArrow);
    h.key(slint::platform::Key::Return);
    h.key(slint::platform::Key::UpArrow);
    h.key(slint::platform::Key::UpArrow);
    h.key(slint::platform::Key::Return);
    h.key(slint::platform::Key::Return);
    assert_eq!(h.game().history().len(), 1);
    h.wait_for_actions(2);
    // U undoes the move with the computer's reply, R redoes both.
    h.key("u");
    assert_eq!(h.game().history().len(), 0);
    h.key("r");
    assert_eq!(h.game().history().len(), 2);
    // H asks for a hint, shown as a preview.
    h.key("h");
    h.wait_until("the hint", |h| !h.route().is_empty());
    assert!(h.controller.session().interaction().from_hint);
    // + and - zoom; 0 fits.
    h.key("+");
    assert!((h.board().get_view().zoom - 1.25).abs() < 1e-4);
    h.key("-");
    assert!((h.board().get_view().zoom - 1.0).abs() < 1e-4);
    h.key("+");
    h.key("0");
    assert!((h.board().get_view().zoom - 1.0).abs() < 1e-4);
    // The hint survived the zooming; Enter on its end square plays it.
    let hint = h.route();
    assert!(!hint.is_empty());
    let end = *hint.last().expect("route");
    while h.controller.session().interaction().cursor != end {
        let cursor = h.controller.session().interaction().cursor;
        let key = if cursor.column() < end.column() {
            slint::platform::Key::RightArrow
        } else if cursor.column() > end.column() {
            slint::platform::Key::LeftArrow
        } else if cursor.row() < end.row() {
            slint::platform::Key::UpArrow
        } else {
            slint::platform::Key::DownArrow
        };
        h.key(key);
    }
    h.key(slint::platform::Key::Return);
    assert_eq!(h.game().history().len(), 3);
    assert_eq!(h.game().history()[2].to_string(), halma_rules::Route::new(hint).to_string());
}

fn hint_then_confirm() {
    let h = harness("hint");
    h.start(Session::new(humans(Setup::FourPlayersBothArmies)));
    h.click_button("Hint");
    h.wait_until("the hint", |h| !h.route().is_empty());
    assert!(h.board().get_view().preview_is_hint);
    assert!(h.shows_text("Hint: the computer suggests this move."), "said as a hint, not doubted");
    assert!(h.game().history().is_empty(), "a hint moves nothing");
    let hint = h.route();
    h.click_button("Confirm");
    assert_eq!(h.game().history().len(), 1);
    assert_eq!(h.game().history()[0].to_string(), halma_rules::Route::new(hint).to_string());
}

fn undo_redo_against_the_computer() {
    let h = harness("undo");
    h.start(Session::new(against(Player::Computer(Level::Greedy))));
    h.play_e2_f3();
    assert!(h.game_state().get_view().computer_thinking);
    // Its progress fills over the time it takes for a move, with Undo at hand.
    let progress = || h.progress("is thinking").expect("the computer's progress shows");
    let before = progress();
    advance(150);
    let later = progress();
    assert!(later > before && later <= 100, "the bar fills as it thinks: {before} then {later}");
    assert!(h.button_enabled("Undo"));
    // Undo while the computer thinks: its search is cancelled, the move taken back.
    h.click_button("Undo");
    assert_eq!(h.game().history().len(), 0);
    assert!(!h.controller.is_searching());
    h.click_button("Redo");
    assert_eq!(h.game().history().len(), 1);
    h.wait_for_actions(2);
    h.click_button("Undo");
    assert_eq!(h.game().history().len(), 0, "undo takes the computer's reply with the human move");
    assert!(h.game_state().get_view().human_turn);
    h.click_button("Redo");
    assert_eq!(h.game().history().len(), 2);
}

fn draw_offers() {
    // Accepted: every other seat accepts, in turn order, each in its own dialog.
    let h = harness("draw-yes");
    h.start(Session::new(humans(Setup::ThreePlayers)));
    h.menu("Offer draw");
    assert_eq!(h.game_state().get_view().question, halma::Question::OfferDraw, "the offer is confirmed first");
    assert!(h.shows_text("Offer a draw to every other seat?"));
    h.click_button("Keep playing");
    assert_eq!(h.game_state().get_view().question, halma::Question::None);
    assert!(!h.game_state().get_view().vote_awaited, "no offer was made");
    assert!(h.game().pending_offer().is_none());
    h.menu("Offer draw");
    h.click_button("Offer the draw");
    assert_eq!(h.game_state().get_view().vote_seat, 1, "B answers first");
    assert_eq!(h.game_state().get_view().vote_offerer, 0);
    h.click_button("Accept draw");
    assert_eq!(h.game_state().get_view().vote_seat, 2, "then C");
    h.click_button("Accept draw");
    assert_eq!(h.game().outcome(), Outcome::Draw(DrawReason::Agreement));
    assert_eq!(h.game_state().get_view().outcome, halma::Outcome::DrawByAgreement);
    assert!(h.game().history().is_empty(), "votes are not moves");
    assert!(h.shows_text("Every seat accepted the draw offer."));
    assert!(!h.shows_text("Move 0"), "the end card names no move before the first");
    drop(h);

    // Refused by the second human: the offerer plays on and cannot offer again this turn.
    let h = harness("draw-no");
    h.start(Session::new(humans(Setup::FourPlayersOneArmy)));
    h.menu("Offer draw");
    h.click_button("Offer the draw");
    assert_eq!(h.game_state().get_view().vote_seat, 1);
    h.click_button("Accept draw");
    assert_eq!(h.game_state().get_view().vote_seat, 2);
    h.click_button("Decline");
    assert!(!h.game_state().get_view().vote_awaited);
    assert_eq!(h.game().outcome(), Outcome::Ongoing);
    assert_eq!(h.game().to_move(), Seat::A);
    assert!(!h.game_state().get_view().can_offer_draw);
    assert_eq!(h.game_state().get_view().notice, halma::Notice::DrawRefused);
}

/// The computer judges a draw offer: it declines at the start, where it can still
/// expect to win, and accepts when it is clearly behind.
fn the_computer_declines_an_even_draw_and_accepts_when_behind() {
    let against_computer = against(Player::Computer(Level::Master));
    let h = harness("draw-computer-start");
    h.start(Session::new(against_computer));
    h.menu("Offer draw");
    h.click_button("Offer the draw");
    assert_eq!(h.game().outcome(), Outcome::Ongoing, "declined at the start");
    assert_eq!(h.game_state().get_view().notice, halma::Notice::DrawRefused);
    assert_eq!(h.game_state().get_view().notice_seat, 2, "Purple declined");
    assert_eq!(h.game().to_move(), Seat::A, "and Blue plays on");
    drop(h);

    // Blue needs one step to win; Purple has not left its corner.
    let behind =
        parse_hpn("11AAAAA/11AAAAA/12AAAA/13AAA/14A1/14A1/16/16/16/16/16/16/16/16/CCC13/CCCCCCCCCCCCCCCC A 2p 80");
    let h = harness("draw-computer-behind");
    let game = Game::from_position(behind.expect("hpn"));
    h.start(Session::with_game(against_computer, game).expect("a 2p game"));
    h.menu("Offer draw");
    h.click_button("Offer the draw");
    assert_eq!(h.game().outcome(), Outcome::Draw(DrawReason::Agreement), "a computer far behind accepts");
    assert_eq!(h.game_state().get_view().outcome, halma::Outcome::DrawByAgreement);
}

fn gestures_zoom_and_rotate_without_touching_the_game() {
    let h = harness("gestures");
    h.start(chain_session());
    h.tap(sq("c3"));
    h.tap(sq("e5"));
    h.tap(sq("g5"));
    let preview = h.route();
    assert_eq!(preview, vec![sq("c3"), sq("e5"), sq("g5")]);
    // A pinch over a piece: zooms, and none of its touches counts as a tap.
    let centre = h.square_point(sq("d4"));
    h.two_finger_gesture(centre, 60.0, 180.0, 0.0);
    let zoom = h.board().get_view().zoom;
    assert!(zoom > 1.5, "the pinch zoomed (zoom {zoom})");
    assert_eq!(h.route(), preview, "a pinch is not a tap");
    assert_eq!(h.controller.session().interaction().selected, Some(sq("c3")));
    // A twist turns the board a quarter turn.
    let turns = h.controller.session().view().quarter_turns;
    h.two_finger_gesture(h.board_centre(), 120.0, 120.0, 95.0);
    assert_eq!(h.controller.session().view().quarter_turns, (turns + 1) % 4);
    assert_eq!(h.route(), preview);
    // Buttons and a resize (a device rotation) keep it too.
    h.menu("Rotate right");
    h.menu("Zoom in");
    h.window.window().set_size(slint::LogicalSize::new(420.0, 900.0));
    advance(50);
    assert_eq!(h.route(), preview);
    // The same move is played.
    h.click_button("Confirm");
    assert_eq!(h.game().history().len(), 1);
    assert_eq!(h.game().history()[0].to_string(), "c3-e5-g5");
}

/// A finger resting on a phone's board (22 dp squares at most, less than a finger): after
/// a moment the loupe shows the squares under it and marks the square a release would
/// choose, snapped as a tap is (`tap_target`); sliding moves the mark; the release
/// chooses it as a tap there. A mouse held as long shows none, and a pinch takes it away
/// with none of its touches a tap.
fn a_resting_finger_shows_the_loupe_and_its_release_taps() {
    use i_slint_core::input::TouchPhase;
    use ui_support::touch;
    let h = harness("loupe");
    h.window.window().set_size(slint::LogicalSize::new(360.0, 640.0));
    advance(50);
    h.start(Session::new(humans(Setup::TwoPlayers)));
    let loupe = || i_slint_backend_testing::ElementHandle::find_by_element_id(&h.window, "BoardArea::loupe").next();
    let target = || (h.board().get_view().loupe_target_x, h.board().get_view().loupe_target_y);
    let cell_of = |name: &str| h.controller.session().view().display_cell(sq(name));
    // A mouse held on e2: no loupe; released away from it, a drag that taps nothing.
    let e2 = h.square_point(sq("e2"));
    h.press(e2);
    advance(600);
    assert!(!h.board().get_view().loupe_shown && loupe().is_none(), "no loupe for a mouse");
    h.release(LogicalPosition::new(e2.x + 60.0, e2.y));
    advance(200);
    assert_eq!(h.controller.session().interaction().selected, None);
    // A finger 6 dp left of the empty f2's centre: a moment later the loupe marks e2,
    // the movable piece a tap there means.
    let f2 = h.square_point(sq("f2"));
    let point = LogicalPosition::new(f2.x - 6.0, f2.y);
    touch(&h.window, 0, point, TouchPhase::Started);
    advance(100);
    assert!(!h.board().get_view().loupe_shown, "a quick tap shows no loupe");
    advance(300);
    assert!(h.board().get_view().loupe_shown && loupe().is_some(), "the resting finger shows the loupe");
    assert_eq!(target(), cell_of("e2"));
    // Above the finger, inside the window.
    let Some(shown) = loupe() else { panic!("the loupe") };
    let (at, size) = (shown.absolute_position(), shown.size());
    assert!(
        at.y + size.height < point.y && at.y >= 0.0 && at.x >= 0.0 && at.x + size.width <= 360.0,
        "{at:?} {size:?}"
    );
    // Sliding onto d2's middle marks d2; nothing is chosen yet.
    let d2 = h.square_point(sq("d2"));
    touch(&h.window, 0, d2, TouchPhase::Moved);
    advance(20);
    assert_eq!(target(), cell_of("d2"));
    assert_eq!(h.controller.session().interaction().selected, None);
    // The release chooses it, as a tap there.
    touch(&h.window, 0, d2, TouchPhase::Ended);
    advance(250);
    assert!(!h.board().get_view().loupe_shown && loupe().is_none());
    assert_eq!(h.controller.session().interaction().selected, Some(sq("d2")));
    // A finger resting near the top of the board: the loupe flips below it.
    let top = h.square_point(sq("h16"));
    touch(&h.window, 0, top, TouchPhase::Started);
    advance(400);
    let Some(shown) = loupe() else { panic!("the loupe near the top") };
    assert!(shown.absolute_position().y > top.y, "below the finger near the top edge");
    // A second finger's pinch takes the loupe away; none of its touches is a tap.
    let second = LogicalPosition::new(top.x, top.y + 40.0);
    touch(&h.window, 1, second, TouchPhase::Started);
    advance(16);
    for step in 1..=8 {
        let spread = 40.0 + 15.0 * step as f32;
        touch(&h.window, 0, LogicalPosition::new(top.x, top.y - spread / 2.0 + 20.0), TouchPhase::Moved);
        touch(&h.window, 1, LogicalPosition::new(top.x, top.y + spread / 2.0 + 20.0), TouchPhase::Moved);
        advance(16);
    }
    assert!(!h.board().get_view().loupe_shown && loupe().is_none(), "a pinch cancels the loupe");
    touch(&h.window, 1, second, TouchPhase::Ended);
    advance(16);
    touch(&h.window, 0, top, TouchPhase::Ended);
    advance(300);
    assert!(!h.board().get_view().loupe_shown);
    assert_eq!(h.controller.session().interaction().selected, Some(sq("d2")), "the pinch tapped nothing");
    assert!(h.game().history().is_empty(), "a loupe never plays a move");
}

fn back_button_steps_back_then_lets_android_close() {
    let h = harness("back");
    h.start(Session::new(humans(Setup::TwoPlayers)));
    h.tap(sq("e2"));
    h.tap(sq("f3"));
    let back = || h.key(slint::platform::Key::Back);
    back();
    assert!(h.route().is_empty(), "back drops the preview first");
    assert_eq!(h.controller.session().interaction().selected, Some(sq("e2")));
    back();
    assert_eq!(h.controller.session().interaction().selected, None, "then the selection");
    back();
    assert_eq!(h.navigation().get_page(), Page::NewGame, "then leaves for the new-game screen");
    assert!(h.form().get_view().can_resume, "the game is kept");
    assert!(!h.navigation().invoke_back(), "on the new-game screen Android may close the app");
}

fn quitting_mid_preview_resumes_exactly() {
    let dir = {
        let h = harness("resume");
        h.start(Session::new(against(Player::Computer(Level::Greedy))));
        h.play_e2_f3();
        h.wait_for_actions(2);
        h.tap(sq("d2"));
        h.tap(sq("d4"));
        h.menu("Zoom in");
        h.menu("Rotate right");
        let before = h.controller.session();
        // The selection, the preview and the view are saved within a second of the last tap.
        advance(halma::app::ui::SELECTION_SAVE_DELAY.as_millis() as u64 + 50);
        // Quit: the window goes away without any explicit save.
        (h.quit(), before)
    };
    let (dir, before) = dir;
    let window = halma::AppWindow::new().expect("window");
    let controller = halma::app::ui::Controller::install(&window, Some(halma_core::storage::Store::new(&dir)));
    let after = controller.session();
    assert_eq!(after.game(), before.game());
    assert_eq!(after.interaction(), before.interaction(), "the preview is back");
    assert_eq!(after.view(), before.view(), "zoom and rotation are back");
    assert_eq!(window.global::<halma::Navigation>().get_page(), Page::Game, "straight into the game");
    let _ = std::fs::remove_dir_all(&dir);
}

fn new_game_screen_for_each_player_count() {
    let h = harness("setup");
    assert_eq!(h.navigation().get_page(), Page::NewGame, "no saved game: the new-game screen");
    for (label, setup) in [
        ("2 players", Setup::TwoPlayers),
        ("3 players (19/13/19)", Setup::ThreePlayers),
        ("4 players", Setup::FourPlayersBothArmies),
    ] {
        h.click_button(label);
        assert_eq!(h.form().get_seat_choices().row_count(), setup.seats().len());
        h.click_button("Start");
        assert_eq!(h.navigation().get_page(), Page::Game);
        assert_eq!(h.game().setup(), setup);
        h.menu("Set up…");
        assert_eq!(h.navigation().get_page(), Page::NewGame);
    }
    h.click_button("4 players");
    h.click_button("Teams: one army home wins");
    h.form().invoke_set_seat_player(3, halma::PlayerKind::Master);
    h.form().invoke_set_first_seat(2);
    h.click_button("Start");
    let session = h.controller.session();
    assert_eq!(session.game().setup(), Setup::FourPlayersOneArmy);
    assert_eq!(session.game().first_seat(), Seat::C);
    assert_eq!(session.config().players[Seat::D], Player::Computer(Level::Master));
}

/// The language menu switches at run time, plural forms follow each language's rule,
/// and a preview survives the switch.
fn languages_switch_at_run_time_with_plural_forms() {
    let language = |code: &str| {
        halma_core::locale::LANGUAGES.iter().position(|(c, _)| *c == code).expect("a listed language") as i32
    };
    let h = harness("languages");
    h.start(chain_session());
    h.tap(sq("c3"));
    h.tap(sq("e5"));
    assert!(h.shows_text("1 jump. Confirm plays this route."));
    h.tap(sq("g5"));
    h.tap(sq("g7"));
    assert!(h.shows_text("3 jumps. Confirm"));
    h.preferences().invoke_select_language(language("uk"));
    advance(20);
    assert!(h.shows_text("3 стрибки."), "Ukrainian: 2–4 take the second form");
    assert!(h.shows_text("Ходить Синій (A)"));
    h.tap(sq("e5"));
    assert!(h.shows_text("1 стрибок."), "Ukrainian: 1 takes the first form");
    h.preferences().invoke_select_language(language("fr"));
    advance(20);
    assert!(h.shows_text("1 saut."));
    h.tap(sq("g5"));
    assert!(h.shows_text("2 sauts."));
    assert_eq!(h.route(), vec![sq("c3"), sq("e5"), sq("g5")], "the preview survives the switches");
    h.preferences().invoke_select_language(language("en"));
    advance(20);
    assert!(h.shows_text("2 jumps."));
    h.click_button("Confirm");
    assert_eq!(h.game().history()[0].to_string(), "c3-e5-g5");
    // The new-game screen's choices keep following the settings after the language
    // changed under them (their lists were translated anew).
    // A window tall enough for the settings under the level lines: queries find only
    // what is in view.
    h.window.window().set_size(slint::LogicalSize::new(1000.0, 1000.0));
    h.menu("Set up…");
    // Under Start, one line for each computer level says what to expect from it.
    assert!(h.shows_text("Computer levels"));
    for expect in [
        "Sees only its own move",
        "Also weighs your reply",
        "Looks up to three moves ahead",
        "Thinks as far ahead as it can",
    ] {
        assert!(h.shows_text(expect), "the level line {expect:?}");
    }
    h.preferences().invoke_select_language(language("uk"));
    advance(20);
    assert!(h.combo_shows("Українська") && h.combo_shows("Незмінна орієнтація"));
    assert!(h.shows_text("Рівні комп’ютера") && h.shows_text("Бачить лише свій хід"));
    assert!(!h.shows_text("Sees only its own move"), "the level lines follow the language");
    h.preferences().invoke_select_language(language("en"));
    advance(20);
    h.preferences().invoke_set_turning(halma::BoardTurning::FaceSeatToMove);
    advance(20);
    assert!(h.combo_shows("English") && h.combo_shows("Turn to face the seat to move"));
    h.preferences().invoke_set_turning(halma::BoardTurning::Fixed);
    advance(20);
    assert!(h.combo_shows("Fixed orientation"));
}

/// A damaged save is reported on the new-game screen in the player's words, and OK
/// dismisses the report.
fn damaged_save_is_reported_then_dismissed() {
    ui_support::init();
    let dir = ui_support::fresh_dir("damaged");
    std::fs::create_dir_all(&dir).expect("a folder");
    std::fs::write(dir.join("game.json"), "{ not json").expect("a damaged save");
    let window = halma::AppWindow::new().expect("window");
    window.window().set_size(slint::LogicalSize::new(1000.0, 700.0));
    let controller = halma::app::ui::Controller::install(&window, Some(halma_core::storage::Store::new(&dir)));
    let h = ui_support::Harness { window, controller, dir };
    h.window.show().expect("show");
    advance(20);
    assert_eq!(h.navigation().get_page(), Page::NewGame);
    assert_eq!(h.form().get_load_problems().row_count(), 1);
    assert!(h.shows_text("The saved game could not be loaded and was kept aside: the file"));
    h.click_button("OK");
    assert_eq!(h.form().get_load_problems().row_count(), 0);
    assert!(!h.shows_text("could not be loaded"));
}

/// A start that loads the game and dies before its window shows a frame (a crash while
/// loading) is not repeated: the next start keeps the saves aside, starts on the new-game
/// screen and says why; the start after that is an ordinary one.
fn a_start_cut_short_is_not_repeated() {
    let h = harness("cut-short");
    h.start(Session::new(humans(Setup::TwoPlayers)));
    h.play_e2_f3();
    assert_eq!(h.game().history().len(), 1);
    let dir = h.quit();
    {
        let window = halma::AppWindow::new().expect("window");
        let controller = halma::app::ui::Controller::install(&window, Some(halma_core::storage::Store::new(&dir)));
        assert_eq!(controller.session().game().history().len(), 1, "the game was loaded");
        // Gone before the event loop ever turned: no frame was shown.
    }
    let h = ui_support::open(dir.clone());
    assert_eq!(h.navigation().get_page(), Page::NewGame);
    assert!(h.shows_text("Halma did not finish starting last time."));
    assert!(h.game().history().is_empty(), "a fresh start");
    let kept = std::fs::read_dir(&dir)
        .expect("the folder")
        .flatten()
        .any(|entry| entry.file_name().to_str().is_some_and(|name| name.starts_with("game.damaged-")));
    assert!(kept, "the game that was loading is kept aside, not deleted");
    h.click_button("OK");
    let h = ui_support::open(h.quit());
    assert_eq!(h.form().get_load_problems().row_count(), 0, "this start showed its window: no report");
}

/// New game rotates the first seat through the seats in play and keeps everything else;
/// Restart keeps it; an unfinished game is replaced only after a yes; it all survives a quit.
fn new_game_rotates_the_first_seat() {
    for (setup, cycle) in [
        (Setup::TwoPlayers, [Seat::C, Seat::A, Seat::C]),
        (Setup::ThreePlayers, [Seat::B, Seat::C, Seat::A]),
        (Setup::FourPlayersBothArmies, [Seat::B, Seat::C, Seat::D]),
    ] {
        let h = harness("new-game-rotates");
        let config = GameConfig {
            players: [Player::Human, Player::Human, Player::Human, Player::Human].into(),
            ..humans(setup)
        };
        h.start(Session::new(config));
        for expected in cycle {
            h.menu("New game");
            assert_eq!(h.game_state().get_view().question, halma::Question::None, "nothing to lose: no question");
            let session = h.controller.session();
            assert_eq!(session.game().first_seat(), expected, "{setup:?}");
            assert_eq!(session.game().setup(), setup, "the setup stays");
            assert_eq!(session.config().players, config.players, "the players stay");
            assert_eq!(h.navigation().get_page(), Page::Game, "it acts at once, on the game page");
        }
        let first = h.game().first_seat();
        h.menu("Restart");
        assert_eq!(h.game().first_seat(), first, "Restart keeps the first seat");
    }

    // An unfinished game: New game and Restart ask first, and No changes nothing.
    let h = harness("new-game-asks");
    h.start(Session::new(against(Player::Computer(Level::Master))));
    h.play_e2_f3();
    h.wait_for_actions(2);
    let before = h.controller.session();
    h.menu("New game");
    assert_eq!(h.game_state().get_view().question, halma::Question::NewGame);
    assert!(h.shows_text("Start a new game?"));
    h.click_button("Keep playing");
    assert_eq!(h.controller.session().game(), before.game(), "refused: the game is unchanged");
    h.menu("Restart");
    assert_eq!(h.game_state().get_view().question, halma::Question::Restart);
    h.key(slint::platform::Key::Escape);
    assert_eq!(h.game_state().get_view().question, halma::Question::None, "Esc answers no");
    assert_eq!(h.controller.session().game(), before.game());
    h.menu("New game");
    h.key(slint::platform::Key::Back);
    assert_eq!(h.game_state().get_view().question, halma::Question::None, "Back answers no");
    assert_eq!(h.navigation().get_page(), Page::Game, "and stays on the game page");
    assert_eq!(h.controller.session().game(), before.game());
    h.menu("New game");
    h.click_button("Replace this game");
    let session = h.controller.session();
    assert!(session.game().history().is_empty());
    assert_eq!(session.game().first_seat(), Seat::C, "the next seat moves first");
    assert_eq!(session.config().players, before.config().players);
    h.wait_for_actions(1);
    let expected = h.controller.session();
    let dir = h.quit();
    let window = halma::AppWindow::new().expect("window");
    let controller = halma::app::ui::Controller::install(&window, Some(halma_core::storage::Store::new(&dir)));
    assert_eq!(controller.session().game(), expected.game(), "the new game survives a quit");
    assert_eq!(controller.session().game().first_seat(), Seat::C);
    drop(controller);
    drop(window);

    // Set up… opens the setup screen for a different game, its first seat rotated.
    let h = harness("set-up");
    h.start(Session::new(humans(Setup::ThreePlayers)));
    h.play_e2_f3();
    h.menu("Set up…");
    assert_eq!(h.navigation().get_page(), Page::NewGame);
    assert_eq!(h.form().get_view().players, 3);
    let first_seats: Vec<i32> = h.form().get_first_seats().iter().collect();
    assert_eq!(first_seats[h.form().get_view().first_seat_index as usize], 1, "B, the seat after A");
    assert!(h.form().get_view().can_resume, "the game is kept until a new one starts");
}

/// Nothing moves under the finger: Confirm stays where it was from the moment a piece is
/// selected through the preview, a longer chain and a cut back, on a desktop window and
/// on a phone held either way, in a language of long words too.
fn confirm_stays_in_place_from_selection_to_preview() {
    let h = harness("confirm-place");
    for (width, height, language) in [(1000.0, 700.0, "en"), (393.0, 851.0, "fil"), (851.0, 393.0, "fr")] {
        h.window.window().set_size(slint::LogicalSize::new(width, height));
        let index = halma_core::locale::LANGUAGES.iter().position(|(c, _)| *c == language).expect("listed") as i32;
        h.preferences().invoke_select_language(index);
        advance(20);
        h.start(chain_session());
        h.tap(sq("c3"));
        assert_eq!(h.controller.session().interaction().selected, Some(sq("c3")));
        let selected = h.element_rect("ActionBar::confirm");
        h.tap(sq("e5"));
        assert_eq!(h.route(), vec![sq("c3"), sq("e5")]);
        assert_eq!(h.element_rect("ActionBar::confirm"), selected, "{width}×{height} {language}: a preview");
        h.tap(sq("g5"));
        h.tap(sq("g7"));
        assert_eq!(h.route().len(), 4);
        assert_eq!(h.element_rect("ActionBar::confirm"), selected, "{width}×{height} {language}: a longer chain");
        h.tap(sq("e5"));
        assert_eq!(h.element_rect("ActionBar::confirm"), selected, "{width}×{height} {language}: cut back");
    }
    let english = halma_core::locale::LANGUAGES.iter().position(|(c, _)| *c == "en").expect("listed") as i32;
    h.preferences().invoke_select_language(english);
    advance(20);
}

/// The end of the game is told in the panel; the whole final position stays in view.
fn end_of_game_leaves_the_board_visible() {
    // A can win with one step: every other square of its target camp is filled.
    let start =
        parse_hpn("11AAAAA/11AAAAA/12AAAA/13AAA/14A1/14A1/16/16/16/16/16/16/16/16/CCC13/CCCCCCCCCCCCCCCC A 2p 80");
    let start = start.expect("hpn");
    let h = harness("end");
    h.start(Session::with_game(humans(Setup::TwoPlayers), Game::from_position(start)).expect("a 2p game"));
    h.tap(sq("o11"));
    h.tap(sq("p12"));
    h.click_button("Confirm");
    advance(800);
    assert_eq!(h.game_state().get_view().outcome, halma::Outcome::Win);
    let board = i_slint_backend_testing::ElementHandle::find_by_element_id(&h.window, "GamePage::board")
        .next()
        .expect("the board");
    let card = i_slint_backend_testing::ElementHandle::find_by_element_id(&h.window, "GamePage::end-card")
        .next()
        .expect("the end card");
    let (b, c) = ((board.absolute_position(), board.size()), (card.absolute_position(), card.size()));
    let apart = c.0.x >= b.0.x + b.1.width
        || c.0.y >= b.0.y + b.1.height
        || c.0.x + c.1.width <= b.0.x
        || c.0.y + c.1.height <= b.0.y;
    assert!(apart, "the end card {c:?} does not cover the board {b:?}");
    assert!(h.shows_text("Blue (A) wins!"));
    assert!(h.button_enabled("Undo"), "the last move can be taken back");
    h.click_button("New game");
    assert_eq!(h.game_state().get_view().question, halma::Question::None, "a finished game: no question");
    assert_eq!(h.game().first_seat(), Seat::C);
    assert_eq!(h.game_state().get_view().outcome, halma::Outcome::Ongoing);
}

/// 4 players, both armies: once Blue's army has arrived, Blue moves Purple's pieces, and
/// the prompt and the progress row say so.
fn an_arrived_army_moves_its_partners_pieces() {
    let start = parse_hpn(
        "BBBB8AAAA/BBBB8AAAA/BBB10AAA/BB12AA/16/16/16/16/2CCCCCCC7/2CCCCCC8/16/16/14DD/13DDD/12DDDD/12DDDD A 4p-both 120",
    );
    let h = harness("arrived");
    let game = Game::from_position(start.expect("hpn"));
    h.start(Session::with_game(humans(Setup::FourPlayersBothArmies), game).expect("a 4p game"));
    assert!(h.game_state().get_view().moves_partner);
    assert_eq!(h.game_state().get_view().army_to_move, 2, "Purple's army");
    assert!(h.shows_text("Blue (A) has arrived: it now moves the pieces of its partner Purple (C)."));
    assert!(h.shows_text("Tap a piece of Purple (C) to see where it can go."));
    let arrived: Vec<bool> = h.game_state().get_seats().iter().map(|info| info.arrived).collect();
    assert_eq!(arrived, vec![true, false, false, false], "the progress row marks Blue as arrived");
    h.tap(sq("c8"));
    assert_eq!(h.controller.session().interaction().selected, Some(sq("c8")), "a Purple piece is Blue's to move");
}

/// #47 item 9: four players see who plays with whom, in the set-up before choosing seats
/// and in the game, where each team's two seats stand in one labelled frame.
fn partners_are_shown_in_the_set_up_and_the_game() {
    let h = harness("partners");
    h.click_button("2 players");
    assert!(!h.shows_text("Partners sit opposite"), "no partners with two players");
    h.click_button("4 players");
    assert!(h.shows_text("Partners sit opposite: Blue (A) with Purple (C), Orange (B) with Green (D)."));
    h.click_button("Start");
    // The seat row stands in more than one of the page's layouts: each shows the same teams.
    let mut teams: Vec<String> = h
        .elements_with_role(i_slint_backend_testing::AccessibleRole::Groupbox)
        .iter()
        .filter_map(|frame| frame.accessible_label().map(|label| label.to_string()))
        .filter(|label| label.starts_with("Partners"))
        .collect();
    teams.sort();
    teams.dedup();
    assert_eq!(teams, ["Partners: Blue (A) and Purple (C)", "Partners: Orange (B) and Green (D)"]);
    h.start(Session::new(humans(Setup::ThreePlayers)));
    let frames = h.elements_with_role(i_slint_backend_testing::AccessibleRole::Groupbox);
    assert!(
        frames.iter().all(|frame| !frame.accessible_label().is_some_and(|label| label.starts_with("Partners"))),
        "no teams with three players"
    );
}

/// #47 item 6: on a phone's small squares the coordinate tags stand on empty squares only,
/// so no piece, marker or hint frame along the a-file and row 1 is covered; on a large board
/// every edge square keeps its tag.
fn coordinate_tags_leave_the_pieces_uncovered_on_a_phone() {
    use i_slint_backend_testing::ElementHandle;
    let h = harness("coordinates");
    h.start(Session::new(humans(Setup::TwoPlayers)));
    let squares = h.elements_with_role(i_slint_backend_testing::AccessibleRole::Button);
    let square_under = |tag: &ElementHandle| {
        let (at, size) = (tag.absolute_position(), tag.size());
        let (x, y) = (at.x + size.width / 2.0, at.y + size.height / 2.0);
        squares
            .iter()
            .filter(|square| square.accessible_label().is_some_and(|label| label.contains(", ")))
            .find(|square| {
                let (p, s) = (square.absolute_position(), square.size());
                x >= p.x && x < p.x + s.width && y >= p.y && y < p.y + s.height
            })
            .and_then(|square| square.accessible_label())
            .map(|label| label.to_string())
            .unwrap_or_else(|| panic!("tag at {x},{y} over no square"))
    };
    let tags_over_pieces = |h: &ui_support::Harness| {
        let tags: Vec<ElementHandle> = ElementHandle::find_by_element_type_name(&h.window, "CoordinateTag").collect();
        assert!(!tags.is_empty(), "coordinates are shown");
        tags.iter().map(square_under).filter(|label| label.contains(" piece")).count()
    };
    h.window.window().set_size(slint::LogicalSize::new(1000.0, 1000.0));
    advance(50);
    // Blue's camp fills a1-e1 and a1-a5 (the bottom-left corner as Blue sees the board), one
    // tag each, a1 with two: ten tags over pieces.
    assert_eq!(tags_over_pieces(&h), 10, "large squares: a tag on every edge square");
    for (width, height) in [(360.0, 640.0), (400.0, 740.0), (740.0, 400.0)] {
        h.window.window().set_size(slint::LogicalSize::new(width, height));
        advance(50);
        assert_eq!(tags_over_pieces(&h), 0, "at {width}x{height} no tag covers a piece");
    }
}

/// Back closes an open picker list first, and only then acts on the board.
fn back_closes_an_open_picker_first() {
    let h = harness("back-picker");
    h.start(Session::new(humans(Setup::TwoPlayers)));
    h.tap(sq("e2"));
    let picker = i_slint_backend_testing::ElementQuery::from_root(&h.window)
        .match_descendants()
        .match_accessible_role(i_slint_backend_testing::AccessibleRole::Combobox)
        .find_all()
        .into_iter()
        .find(|e| e.accessible_label().is_some_and(|l| l == "Destination"))
        .expect("the destination picker");
    picker.invoke_accessible_default_action();
    advance(50);
    assert!(h.picker_popup_open(), "the list is open");
    h.key(slint::platform::Key::Back);
    assert!(!h.picker_popup_open(), "Back closed the list");
    assert_eq!(h.controller.session().interaction().selected, Some(sq("e2")), "and nothing else");
    h.key(slint::platform::Key::Back);
    assert_eq!(h.controller.session().interaction().selected, None, "the next Back drops the selection");
    assert_eq!(h.navigation().get_page(), Page::Game);
}

/// Review shows earlier positions read-only and returns exactly to the live game: its
/// preview, view and save untouched.
fn review_steps_through_the_game_and_returns_exactly() {
    let h = harness("review");
    // Large enough that the whole panel, move list included, is in view beside the
    // board: the testing backend's queries find only what is not scrolled out of sight.
    h.window.window().set_size(slint::LogicalSize::new(1800.0, 1500.0));
    advance(20);
    h.start(Session::new(humans(Setup::TwoPlayers)));
    for (from, to) in [("e2", "f3"), ("m15", "l14")] {
        h.tap(sq(from));
        h.tap(sq(to));
        h.click_button("Confirm");
        advance(600);
    }
    h.tap(sq("d2"));
    h.tap(sq("d4"));
    h.menu("Zoom in");
    let before = h.controller.session();
    let saved = std::fs::read(h.dir.join("game.json")).expect("the game is saved");
    let has_piece = |name: &str| h.board().get_cells().row_data(sq(name).index()).is_some_and(|cell| cell.has_piece);
    assert_eq!(h.game_state().get_moves().row_count(), 2, "the move list");
    assert_eq!(h.game_state().get_moves().row_data(0).map(|m| m.text.to_string()), Some("e2-f3".to_string()));

    h.click_button("Previous move");
    assert!(h.game_state().get_view().reviewing);
    assert_eq!(h.game_state().get_view().review_shown, 1);
    assert!(h.shows_text("Reviewing move 1 of 2"));
    assert!(h.shows_text("Purple (C) was to move."));
    assert!(has_piece("m15") && !has_piece("l14"), "the position after Blue's first move");
    assert!(h.board().get_view().route_path.is_empty(), "no preview on an earlier position");
    assert!(!h.button_enabled("Confirm") && !h.button_enabled("Undo"), "the board is read-only");
    h.tap(sq("f3"));
    h.key(slint::platform::Key::Return);
    assert_eq!(h.controller.session(), before, "taps and keys in review change nothing");

    h.click_button("Review from the start");
    assert_eq!(h.game_state().get_view().review_shown, 0);
    assert!(has_piece("e2") && !has_piece("f3"), "the start");
    h.click_button("Next move");
    assert_eq!(h.game_state().get_view().review_shown, 1);
    h.key(slint::platform::Key::PageDown);
    assert_eq!(h.game_state().get_view().review_shown, 2);
    h.key(slint::platform::Key::Home);
    assert_eq!(h.game_state().get_view().review_shown, 0);
    h.key(slint::platform::Key::End);
    assert_eq!(h.game_state().get_view().review_shown, 2);
    h.key(slint::platform::Key::PageUp);
    assert_eq!(h.game_state().get_view().review_shown, 1);
    // An entry of the move list shows the position after it.
    let entry =
        i_slint_backend_testing::ElementHandle::find_by_accessible_label(&h.window, "Round 1, Purple (C): m15-l14")
            .next()
            .expect("the move list's entry");
    entry.invoke_accessible_default_action();
    advance(20);
    assert_eq!(h.game_state().get_view().review_shown, 2);
    // Zoom and rotation work in review.
    h.menu("Rotate right");
    assert!(h.game_state().get_view().reviewing);
    assert_eq!(h.controller.session().view().quarter_turns, 1);
    h.menu("Rotate left");
    assert_eq!(std::fs::read(h.dir.join("game.json")).expect("saved"), saved, "review writes nothing");

    h.click_button("Back to game");
    assert!(!h.game_state().get_view().reviewing);
    assert_eq!(h.controller.session(), before, "exactly the live game: preview, selection and view");
    assert!(!h.board().get_view().route_path.is_empty(), "the preview is back");
    h.key(slint::platform::Key::PageUp);
    assert!(h.game_state().get_view().reviewing, "Page Up enters review");
    h.key(slint::platform::Key::Escape);
    assert!(!h.game_state().get_view().reviewing, "Esc leaves it");
    assert_eq!(h.controller.session(), before);
    drop(h);

    // A finished game opens in review from its last position.
    let won =
        parse_hpn("11AAAAA/11AAAAA/12AAAA/13AAA/14A1/14A1/16/16/16/16/16/16/16/16/CCC13/CCCCCCCCCCCCCCCC A 2p 80");
    let h = harness("review-won");
    h.window.window().set_size(slint::LogicalSize::new(1800.0, 1500.0));
    advance(20);
    h.start(Session::with_game(humans(Setup::TwoPlayers), Game::from_position(won.expect("hpn"))).expect("a 2p game"));
    h.tap(sq("o11"));
    h.tap(sq("p12"));
    h.click_button("Confirm");
    advance(600);
    h.click_button("Review");
    assert!(h.game_state().get_view().reviewing);
    assert_eq!(h.game_state().get_view().review_shown, 1, "from the last position");
    h.click_button("Previous move");
    assert!(has_piece_in(&h, "o11") && !has_piece_in(&h, "p12"), "one step before the win");
}

/// Copy game writes the record (and a file on the desktop); importing it gives the same
/// game; a bad record names its line and leaves the game as it was.
fn records_export_import_and_refuse_bad_text() {
    let h = harness("records");
    h.start(Session::new(against(Player::Computer(Level::Strong))));
    h.play_e2_f3();
    h.wait_for_actions(2);
    let records = h.window.global::<halma::Records>();
    h.menu("Copy game");
    assert!(records.get_view().copied);
    assert!(h.shows_text("The game's record is on the clipboard and saved as"));
    let saved = std::path::PathBuf::from(records.get_view().saved_to.to_string());
    let text = std::fs::read_to_string(&saved).expect("the record file");
    assert!(text.starts_with("[Halma \"1\"]"), "{text}");
    assert!(text.contains("[C \"Computer Strong\"]"), "{text}");
    let before = h.controller.session();

    // Junk: the line and the problem are shown, and the game is untouched.
    h.menu("Import game…");
    assert!(records.get_view().importing);
    let bad = text.replace(" m15", " m15x").replace("e2-f3", "e2-f9");
    records.invoke_import(bad.into(), false);
    advance(20);
    assert!(records.get_view().importing, "the dialog stays open");
    assert!(records.get_view().error_line > 0, "a line is named");
    assert_eq!(records.get_view().trouble, halma::RecordTrouble::IllegalMove);
    assert!(
        h.shows_text(&format!("Line {}: action 1 cannot be played by the rules: e2-f9", records.get_view().error_line)),
        "the line, the action and the move at fault"
    );
    assert_eq!(h.controller.session(), before, "the game is untouched");
    records.invoke_import("".into(), false);
    advance(20);
    assert_eq!(records.get_view().trouble, halma::RecordTrouble::Empty, "empty text is refused");
    assert!(h.shows_text("the text is empty"));
    // A record without [FirstSeat]: the missing tag is named, not its first line of moves
    // taken for a header line that cannot be read.
    let headless = text.lines().filter(|line| !line.starts_with("[FirstSeat")).collect::<Vec<_>>().join("\n");
    records.invoke_import(headless.into(), false);
    advance(20);
    assert_eq!(records.get_view().error_line, 0, "no line is at fault");
    assert!(h.shows_text("This text cannot be read as a game record: the header has no line [FirstSeat"));
    assert!(!h.shows_text("header line cannot be read"));
    records.invoke_import("x".repeat(3 << 20).into(), false);
    advance(20);
    assert_eq!(records.get_view().trouble, halma::RecordTrouble::TooLarge);
    assert_eq!(h.controller.session(), before);
    h.key(slint::platform::Key::Escape);
    assert!(!records.get_view().importing, "Esc closes the dialog");

    // The round trip through the clipboard, as a player does it: Copy game, a new game,
    // then Import game…, paste (Ctrl+V) into the record field and Play on.
    h.menu("Copy game");
    h.menu("New game");
    h.click_button("Replace this game");
    assert!(h.game().history().is_empty());
    h.menu("Import game…");
    paste_into(&h, "Game record");
    h.click_button("Play on");
    assert!(!records.get_view().importing, "the pasted record was read");
    let imported = h.controller.session();
    assert_eq!(imported.game(), before.game(), "the same game");
    assert_eq!(imported.config().players, before.config().players, "the same players");
    assert!(!h.game_state().get_view().reviewing);
    // Or to review from its start.
    h.menu("Import game…");
    records.invoke_import(text.into(), true);
    advance(20);
    // The game played on is unfinished: it is not replaced without a yes.
    assert_eq!(h.game_state().get_view().question, halma::Question::Replace);
    h.game_state().invoke_answer_question(true);
    advance(20);
    assert!(h.game_state().get_view().reviewing);
    assert_eq!(h.game_state().get_view().review_shown, 0);
}

/// The square whose screen-reader label starts with `start` (its name and contents).
fn square_by_label(h: &ui_support::Harness, start: &str) -> i_slint_backend_testing::ElementHandle {
    let squares = i_slint_backend_testing::ElementQuery::from_root(&h.window)
        .match_descendants()
        .match_accessible_role(i_slint_backend_testing::AccessibleRole::Button)
        .find_all();
    let found = squares.into_iter().find(|e| e.accessible_label().is_some_and(|label| label.starts_with(start)));
    found.unwrap_or_else(|| panic!("no square labelled '{start}…'"))
}

fn activate(h: &ui_support::Harness, start: &str) {
    square_by_label(h, start).invoke_accessible_default_action();
    advance(20);
}

/// #47 on the smallest phone: the Games page's "Paste a message…" keeps a button's height
/// (it filled the bottom half of the screen).
fn the_games_page_on_a_phone_keeps_its_button_small() {
    let h = harness("games-phone");
    for (width, height) in [(360.0, 640.0), (800.0, 1280.0)] {
        h.window.window().set_size(slint::LogicalSize::new(width, height));
        h.window.global::<halma::Navigation>().invoke_show(Page::Games);
        advance(20);
        let paste = i_slint_backend_testing::ElementHandle::find_by_accessible_label(&h.window, "Paste a message…")
            .next()
            .expect("the paste button");
        let tall = paste.size().height;
        assert!(tall <= 64.0, "at {width}×{height}: a button's height, not {tall}");
    }
}

/// A whole move and a jump chain played only through what a screen reader sees: the
/// squares' labels, their default actions, and the labelled buttons.
fn a_screen_reader_plays_a_move_and_a_chain() {
    let h = harness("screen-reader");
    h.start(Session::new(humans(Setup::TwoPlayers)));
    assert_eq!(
        square_by_label(&h, "e2,").accessible_label().map(|l| l.to_string()),
        Some("e2, Blue (A) piece, home camp of Blue (A), target camp of Purple (C)".to_string())
    );
    assert!(square_by_label(&h, "p16,").accessible_label().is_some_and(|l| l.contains("target camp of Blue (A)")));
    activate(&h, "e2, Blue (A) piece");
    activate(&h, "f3, empty, legal destination, a step");
    assert!(h.shows_text("One step. Confirm plays it."), "the status says what is previewed");
    assert!(!h.shows_text("ringed square"), "a step has nothing to jump on from or cut back to");
    h.click_button("Confirm");
    advance(600);
    assert_eq!(h.game().history().iter().map(|a| a.to_string()).collect::<Vec<_>>(), vec!["e2-f3"]);
    assert!(h.shows_text("Purple (C) to move"));
    drop(h);

    let h = harness("screen-reader-chain");
    h.start(chain_session());
    activate(&h, "c3, Blue (A) piece");
    assert!(square_by_label(&h, "g5,").accessible_label().is_some_and(|l| l.contains("legal destination, 2 jumps")));
    activate(&h, "e5, empty, legal destination, 1 jump");
    activate(&h, "g5, empty, the chain can jump on here");
    activate(&h, "g7, empty, the chain can jump on here");
    assert!(h.shows_text("3 jumps."));
    h.click_button("Confirm");
    advance(800);
    assert_eq!(h.game().history()[0].to_string(), "c3-e5-g5-g7");
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
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .filter(|name| name.trim_end().starts_with(halma_ai::analysis::THREAD_NAME))
        .count()
        .into()
}

/// Waits (in real time, the analysis runs on threads) until no analysis runs.
fn wait_for_the_analysis(h: &ui_support::Harness) {
    let start = std::time::Instant::now();
    while h.controller.is_analysing() {
        assert!(start.elapsed() < std::time::Duration::from_secs(120), "the analysis never ended");
        advance(50);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// A finished game: Analyse shows the progress and Esc cancels it at once, leaving no
/// thread; analysed, the review opens with the marks, the words, both routes and the
/// graph; tapping and dragging the graph reviews those positions; back in the game
/// nothing changed, and the analysis comes back with the game after a restart.
fn analysing_a_finished_game_reviews_it_and_changes_nothing() {
    let h = harness("analysis");
    let record = halma_record::Record::parse(include_str!("data/analysis-typical-2p.txt")).expect("the record");
    let total = record.game.history().len();
    h.start(Session::with_game(humans(Setup::TwoPlayers), record.game).expect("a 2p game"));
    h.controller.set_analysis_quality(halma_ai::analysis::Quality::QUICK);
    let analysis = h.window.global::<halma::Analysis>();
    assert!(analysis.get_view().can_analyse && !h.game_state().get_view().reviewing, "offered with the end card");
    let before = h.controller.session();

    h.click_button("Analyse");
    assert!(h.controller.is_analysing() && analysis.get_view().running);
    assert!(analysis.get_view().total as usize == total && analysis.get_view().current >= 1);
    assert!(h.shows_text(&format!("of {total}")), "Analysing move N of M");
    // Esc cancels at once: judged by the median of five cancels (a shared machine may stall
    // any one of them), each leaving no thread and changing nothing.
    let mut cancels = Vec::new();
    for sample in 0..5 {
        if sample > 0 {
            h.click_button("Analyse");
            assert!(h.controller.is_analysing());
        }
        let cancelled = std::time::Instant::now();
        h.key(slint::platform::Key::Escape);
        cancels.push(cancelled.elapsed());
        assert!(!h.controller.is_analysing() && !analysis.get_view().running && !analysis.get_view().available);
        assert!(analysis_threads().is_none_or(|threads| threads == 0), "no analysis thread is left");
        assert_eq!(h.controller.session(), before, "cancelling changes nothing");
    }
    cancels.sort();
    assert!(cancels[2] < std::time::Duration::from_millis(100), "cancelled within 100 ms (median): {cancels:?}");

    h.click_button("Analyse");
    wait_for_the_analysis(&h);
    assert!(analysis.get_view().available && !analysis.get_view().can_analyse);
    assert!(analysis_threads().is_none_or(|threads| threads == 0));
    assert!(h.game_state().get_view().reviewing, "the analysed review opens at the end");
    assert_eq!(analysis.get_marks().row_count(), total);
    assert_eq!(analysis.get_view().points as usize, total + 1);
    assert_eq!(analysis.get_summaries().row_count(), 2);
    // On the smallest phone the marked move list stays under the words and the graph (it
    // was gone, leaving a blank gap), and comes back from the summary with them.
    let moves = format!("Moves ({total})");
    h.window.window().set_size(slint::LogicalSize::new(360.0, 640.0));
    advance(20);
    assert!(h.shows_text(&moves), "the move list on a phone in the analysed review");
    h.click_button("Summary");
    assert!(analysis.get_view().summary_open, "the summary in the list's place");
    h.click_button(&moves);
    assert!(!analysis.get_view().summary_open && h.shows_text(&moves), "the move list back from the summary");
    h.window.window().set_size(slint::LogicalSize::new(1000.0, 700.0));
    advance(20);
    let saved = std::fs::read(h.dir.join("game.json")).expect("saved");
    assert!(String::from_utf8_lossy(&saved).contains("steps lost"), "the analysis is saved with the game");

    // The graph: a tap in its middle reviews the middle of the game, a drag follows the finger.
    let graph = i_slint_backend_testing::ElementHandle::find_by_accessible_label(&h.window, "Evaluation graph")
        .next()
        .expect("the graph");
    let (origin, size) = (graph.absolute_position(), graph.size());
    let at =
        |fraction: f32| slint::LogicalPosition::new(origin.x + size.width * fraction, origin.y + size.height / 2.0);
    h.press(at(0.5));
    h.release(at(0.5));
    advance(20);
    let middle = h.game_state().get_view().review_shown;
    assert!((middle - total as i32 / 2).abs() <= 1, "the middle: {middle} of {total}");
    h.drag(at(0.5), at(0.25), 6);
    advance(20);
    let quarter = h.game_state().get_view().review_shown;
    assert!((quarter - total as i32 / 4).abs() <= 1, "a quarter: {quarter} of {total}");

    // A move that was not the best: its class, both routes and the best move in words.
    let marks: Vec<halma::MoveMark> = analysis.get_marks().iter().collect();
    let (index, mark) = marks
        .iter()
        .enumerate()
        .find(|(_, mark)| {
            !matches!(mark.class, halma::MoveClass::Best | halma::MoveClass::ForcedPass | halma::MoveClass::OnlyMove)
        })
        .unwrap_or_else(|| {
            panic!("no move that was not the best: {:?}", marks.iter().map(|mark| mark.class).collect::<Vec<_>>())
        });
    analysis.invoke_show_position(index as i32 + 1);
    advance(20);
    assert_eq!(h.game_state().get_view().review_shown as usize, index + 1);
    assert!(!analysis.get_view().played_path.is_empty() && !analysis.get_view().best_path.is_empty(), "both routes");
    assert!(h.shows_text(&format!("Best was {}.", mark.best)), "the best move in words");
    assert!(h.shows_text("played") && h.shows_text("best"), "the legend");
    let row = i_slint_backend_testing::ElementQuery::from_root(&h.window)
        .match_descendants()
        .match_accessible_role(i_slint_backend_testing::AccessibleRole::ListItem)
        .find_all()
        .into_iter()
        .find_map(|item| item.accessible_description().filter(|text| text.contains(", best was ")));
    assert!(
        row.is_some_and(|text| text.contains("steps lost") || text.contains("step lost")),
        "a screen reader hears it"
    );

    h.click_button("Back to game");
    assert!(!h.game_state().get_view().reviewing);
    let after = h.controller.session();
    assert_eq!(after.game(), before.game(), "the game is unchanged");
    assert_eq!(after.game().history(), before.game().history());
    assert_eq!(std::fs::read(h.dir.join("game.json")).expect("saved"), saved, "review wrote nothing");

    // Re-opened, the analysis is there at once.
    let dir = h.quit();
    let window = halma::AppWindow::new().expect("window");
    let controller = halma::app::ui::Controller::install(&window, Some(halma_core::storage::Store::new(&dir)));
    assert!(controller.session().analysis().is_some(), "the analysis came back with the game");
    assert!(window.global::<halma::Analysis>().get_view().available);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine program at a seat: chosen on the new-game screen with its command line (the
/// `halma-engine` built with the tests) typed into the field, it moves, the status names
/// it, Copy game records it, and after a quit the game and the command line come back.
fn an_engine_program_plays_a_seat() {
    let h = harness("engine-program");
    assert_eq!(h.navigation().get_page(), Page::NewGame);
    assert!(h.form().get_view().programs_offered, "a desktop build offers engine programs");
    h.form().invoke_set_seat_player(2, halma::PlayerKind::Program);
    assert!(h.combo_shows("Engine program…"));
    assert!(h.form().get_view().needs_command, "the command line is asked for");
    assert!(!h.button_enabled("Start"), "not without a command line");
    fill(&h, "Engine program's command line", &engine_command());
    assert!(h.button_enabled("Start"));
    h.click_button("Start");
    assert_eq!(h.navigation().get_page(), Page::Game);
    assert_eq!(h.controller.session().config().player(Seat::C), Player::Program);
    assert!(h.shows_text("Engine: halma-engine"), "the status names the program by its file name");
    h.play_e2_f3();
    assert!(h.game_state().get_view().computer_thinking, "the program thinks");
    h.wait_for_actions(2);
    assert_eq!(h.game().actor(1), Seat::C, "the program moved for C");
    assert!(!h.game_state().get_view().computer_failed);
    let records = h.window.global::<halma::Records>();
    h.menu("Copy game");
    let text = std::fs::read_to_string(records.get_view().saved_to.as_str()).expect("the record file");
    assert!(text.contains(&format!("[C \"Program {}\"]", engine_command())), "{text}");
    let expected = h.controller.session();

    // The game and the command line survive a quit; the program plays on.
    let h = ui_support::open(h.quit());
    assert_eq!(h.controller.session().game(), expected.game(), "the game with a program seat loads again");
    assert_eq!(h.controller.session().config().player(Seat::C), Player::Program);
    h.tap(sq("d2"));
    h.tap(sq("d4"));
    h.click_button("Confirm");
    // Read from the settings, the command starts only when the player says so.
    h.wait_until("the question", |h| h.game_state().get_view().program_awaits_start);
    assert_eq!(h.game_state().get_view().program_command.as_str(), engine_command().as_str());
    h.click_button("Start");
    h.wait_for_actions(4);
    h.menu("Set up…");
    assert_eq!(h.form().get_engine_command(), engine_command().as_str(), "the command line is remembered");
}

/// An engine program that cannot be started: the game page says so in the player's words
/// with Retry, which tries again without hanging; the player takes the move back and
/// plays on against the computer instead.
fn a_bad_engine_command_is_told_and_the_game_goes_on() {
    let h = harness("engine-bad");
    h.form().invoke_set_seat_player(2, halma::PlayerKind::Program);
    h.form().invoke_set_engine_command("/nonexistent/halma-no-such-engine --fast".into());
    advance(20);
    h.click_button("Start");
    h.play_e2_f3();
    h.wait_until("the failure", |h| h.game_state().get_view().computer_failed);
    assert_eq!(h.game_state().get_view().seat_failure, halma::SeatFailure::ProgramCannotStart);
    assert!(h.shows_text("The engine program of Purple (C) could not be started."), "told in words");
    assert!(!h.shows_text("No such file"), "never the system's English");
    assert_eq!(h.game().history().len(), 1);
    h.click_button("Retry");
    h.wait_until("the failure again", |h| h.game_state().get_view().computer_failed);
    assert_eq!(h.game().history().len(), 1, "nothing was played");
    h.click_button("Undo");
    assert!(h.game().history().is_empty() && h.game_state().get_view().human_turn, "the move is taken back");
    assert!(!h.game_state().get_view().computer_failed, "and the failure with it");
    h.menu("Set up…");
    h.form().invoke_set_seat_player(2, halma::PlayerKind::Casual);
    h.form().invoke_set_first_seat(0);
    h.click_button("Start");
    h.play_e2_f3();
    h.wait_for_actions(2);
    assert!(!h.game_state().get_view().computer_failed);
}

/// The data folder of a machine someone else prepared: the settings name a command that
/// writes a file, and the saved game has an engine program to move. Starting Halma runs
/// nothing; the game page shows the whole command line with Start / Change… / Play as a
/// person. Play as a person seats a person and never runs it; Start runs it.
fn a_program_read_from_files_waits_for_the_players_word() {
    let prepared = |name: &str| {
        let dir = ui_support::fresh_dir(name);
        std::fs::create_dir_all(&dir).expect("a folder");
        let proof = dir.join("pwned");
        let command = format!("sh -c 'id > {}'", proof.display());
        let store = halma_core::storage::Store::new(&dir);
        let settings = halma_core::settings::Settings { engine_command: command.clone(), ..Default::default() };
        store.save(halma_core::storage::SETTINGS, &settings).expect("settings saved");
        let first_program = GameConfig { first: Seat::C, ..ui_support::against(Player::Program) };
        store.save(halma_core::storage::SESSION, &Session::new(first_program)).expect("game saved");
        (dir, proof, command)
    };

    // Programs start only synchronously (`EngineProcess::spawn`), so an unchanged count once
    // the question shows means nothing was started, with no waiting for a sign of one.
    let started = halma_engine::engine_client::programs_started;
    let before = started();
    let (dir, proof, command) = prepared("program-from-file-person");
    let h = ui_support::open(dir);
    h.wait_until("the question", |h| h.game_state().get_view().program_awaits_start);
    advance(1000);
    assert_eq!(started(), before, "nothing was started at start");
    assert!(!proof.exists(), "nothing ran at start");
    assert!(!h.game_state().get_view().computer_thinking, "nothing thinks while it waits");
    assert!(h.shows_text(&command), "the whole command line is shown");
    assert!(h.shows_text("Purple (C) is played by an engine program. Start it?"));
    h.click_button("Play as a person");
    assert_eq!(h.controller.session().config().player(Seat::C), Player::Human);
    assert!(h.game_state().get_view().human_turn && !h.game_state().get_view().program_awaits_start);
    h.tap(sq("n14"));
    h.tap(sq("m13"));
    h.click_button("Confirm");
    advance(1000);
    assert_eq!(started(), before, "Play as a person starts nothing");
    assert!(!proof.exists(), "never ran");

    let (dir, proof, _) = prepared("program-from-file-start");
    let h = ui_support::open(dir);
    h.wait_until("the question", |h| h.game_state().get_view().program_awaits_start);
    assert!(!proof.exists(), "nothing ran at start");
    assert_eq!(started(), before, "nothing was started before Start");
    h.click_button("Start");
    assert_eq!(started(), before + 1, "Start starts the program, once");
    h.wait_until("the command ran", |_| proof.exists());
    // It is no engine: it fails as one, with Retry, and the confirmation holds for Retry.
    h.wait_until("the failure", |h| h.game_state().get_view().computer_failed);
    assert!(!h.game_state().get_view().program_awaits_start);
}

/// Train (#41): the puzzle of the day from the "⋯" menu, its answer played by taps and
/// Confirm on the Train page's board, solved; the live game and its save untouched.
fn train_solves_the_puzzle_of_the_day() {
    let h = harness("train");
    h.start(Session::new(humans(Setup::TwoPlayers)));
    h.play_e2_f3();
    advance(1500);
    let saved = std::fs::read(h.dir.join("game.json")).expect("the game is saved");
    h.click_button("More actions");
    h.click_button("Train");
    assert_eq!(h.navigation().get_page(), Page::Train);
    let training = h.controller.state().training.expect("a puzzle");
    let answer = training.puzzle.answer.clone();
    let tap = |square| {
        let element = i_slint_backend_testing::ElementHandle::find_by_element_id(&h.window, "TrainPage::board")
            .next()
            .expect("the Train page's board");
        let (origin, size) = (element.absolute_position(), element.size());
        let shown = h.controller.state().training.expect("a puzzle").session;
        let (x, y) = shown.view().display_cell(square);
        let cell = size.width * h.board().get_view().zoom / 16.0;
        let point = LogicalPosition::new(
            origin.x + h.board().get_content_x() + (x as f32 + 0.5) * cell,
            origin.y + h.board().get_content_y() + (y as f32 + 0.5) * cell,
        );
        h.press(point);
        advance(40);
        h.release(point);
        advance(200);
    };
    // A wrong answer first: told at once, and what it gives away once measured.
    let answer_move = training.puzzle.answer_move();
    let wrong = training.puzzle.position.legal_moves().iter().find(|&mv| mv != answer_move).expect("another move");
    tap(wrong.from);
    tap(wrong.to);
    h.click_button("Confirm");
    advance(1500);
    assert!(h.shows_text("is not the best move"), "the wrong answer is told");
    h.wait_until("what the wrong answer gives away", |h| h.shows_text("gave away"));
    h.click_button("Retry");
    tap(answer.from());
    tap(answer.to());
    assert!(h.button_enabled("Confirm"), "the answer is previewed");
    h.click_button("Confirm");
    advance(1500);
    assert!(h.shows_text("Solved!"), "the solved puzzle is told");
    let progress = h.controller.state().settings.training;
    // Solved on the retry: solved, but the first answer was wrong, so no streak.
    assert_eq!((progress.streak, progress.solved.len()), (0, 1));
    assert_eq!(h.game().history().len(), 1, "the live game is as it was");
    assert_eq!(std::fs::read(h.dir.join("game.json")).expect("saved"), saved, "its save too, byte for byte");
    h.click_button("Back");
    assert_eq!(h.navigation().get_page(), Page::Game);
}

/// Pastes the clipboard into the text field labelled `label`, as a player does (a click
/// into it, then Ctrl+V).
/// Types `value` into the text field labelled `label`, as a screen reader sets it.
fn fill(h: &ui_support::Harness, label: &str, value: &str) {
    let field = i_slint_backend_testing::ElementHandle::find_by_accessible_label(&h.window, label)
        .find(|element| element.accessible_role() == Some(i_slint_backend_testing::AccessibleRole::TextInput))
        .unwrap_or_else(|| panic!("no field '{label}'"));
    field.set_accessible_value(value);
    advance(20);
}

fn paste_into(h: &ui_support::Harness, label: &str) {
    let field = i_slint_backend_testing::ElementHandle::find_by_accessible_label(&h.window, label)
        .next()
        .unwrap_or_else(|| panic!("no field '{label}'"));
    let at = field.absolute_position();
    let centre = LogicalPosition::new(at.x + field.size().width / 2.0, at.y + field.size().height / 2.0);
    h.press(centre);
    h.release(centre);
    advance(20);
    let window = h.window.window();
    window.dispatch_event(slint::platform::WindowEvent::KeyPressed { text: slint::platform::Key::Control.into() });
    window.dispatch_event(slint::platform::WindowEvent::KeyPressed { text: "v".into() });
    window.dispatch_event(slint::platform::WindowEvent::KeyReleased { text: "v".into() });
    window.dispatch_event(slint::platform::WindowEvent::KeyReleased { text: slint::platform::Key::Control.into() });
    advance(20);
}

/// Two devices (two windows, two data folders) play by message (#40): Blue starts with
/// a friend's seat, Send puts the message on the clipboard, Purple pastes it and is
/// asked before the new game starts, and so on; a forged message that rewrites a move is
/// refused with its reason and changes nothing; the Games list switches between the
/// game on this device and the game by message; a restart finds the game again.
fn a_game_by_message_between_two_devices() {
    let blue = harness("by-message-blue");
    let purple = harness("by-message-purple");
    let blue_by = blue.window.global::<halma::ByMessage>();
    let purple_by = purple.window.global::<halma::ByMessage>();

    // Blue: Purple's seat is a friend's, by message.
    assert_eq!(blue.navigation().get_page(), Page::NewGame);
    blue.form().invoke_set_seat_player(2, halma::PlayerKind::Friend);
    advance(20);
    assert!(blue.combo_shows("A friend, by message"));
    blue.click_button("Start");
    assert!(blue_by.get_view().active);
    assert!(!blue_by.get_view().can_send, "Blue moves first");
    blue.play_e2_f3();
    blue.wait_for_actions(1);
    assert!(blue_by.get_view().can_send);
    assert!(blue.shows_text("Send your move, then wait for Purple (C)'s message."));
    blue.click_button("Send");
    assert!(blue.shows_text("Copied. Paste it in a message to your friend. Also saved as"));
    let saved = std::path::PathBuf::from(blue_by.get_view().saved_to.to_string());
    assert!(saved.starts_with(&blue.dir), "in the data folder: {}", saved.display());
    let first = std::fs::read_to_string(&saved).expect("the message's file");
    assert!(first.starts_with("Halma: your move, Purple (C). Open with Halma.\nhalma-by-message 1 game="), "{first}");
    assert!(first.contains(" from=A turn=C\n") && first.contains("1. e2-f3\nend "), "{first}");

    // Purple plays a game of its own on this device first.
    purple.start(Session::new(humans(Setup::TwoPlayers)));
    purple.play_e2_f3();
    purple.wait_for_actions(1);
    let device_game = purple.game();
    // Then pastes Blue's message: a game it does not know is asked about first.
    purple.menu("Receive a move…");
    assert!(purple_by.get_view().receiving);
    paste_into(&purple, "Message");
    purple.click_button("Receive");
    assert!(purple_by.get_view().offered);
    assert!(purple.shows_text("Start this game from Blue (A)?"));
    assert_eq!(purple.game(), device_game, "nothing changes before yes");
    purple.click_button("Start this game");
    assert!(!purple_by.get_view().receiving && purple_by.get_view().active);
    assert_eq!(purple.game().history().len(), 1);
    assert!(purple.shows_text("A new game by message with Blue (A)."));
    assert!(purple.shows_text("Your move."));
    purple.tap(sq("n14"));
    purple.tap(sq("m13"));
    purple.click_button("Confirm");
    purple.wait_for_actions(2);
    purple.click_button("Send");

    // Blue pastes Purple's reply: applied and told.
    blue.menu("Receive a move…");
    paste_into(&blue, "Message");
    blue.click_button("Receive");
    assert!(!blue_by.get_view().receiving);
    assert_eq!(blue.game().history().len(), 2);
    assert!(blue.shows_text("Purple (C) played n14-m13."));
    assert!(blue.shows_text("Your move."));
    assert!(blue.game_state().get_view().human_turn);

    // A forged message rewriting Blue's first move: refused, with its reason; unchanged.
    let mut forged = Game::new(Setup::TwoPlayers, Seat::A);
    assert_eq!(forged.play_text("c3-d4"), Ok(()));
    assert_eq!(forged.play_text("n14-m13"), Ok(()));
    let id =
        halma_core::correspondence::GameId::parse(first.split("game=").nth(1).unwrap_or("").get(..8).unwrap_or(""))
            .expect("the game's identifier");
    let text = halma_core::correspondence::compose(
        "",
        id,
        halma_rules::SeatSet::single(Seat::C),
        &halma_record::Record::new(forged),
    );
    let before = blue.controller.session();
    blue.menu("Receive a move…");
    blue_by.invoke_receive(text.into());
    advance(20);
    assert_eq!(blue_by.get_view().trouble, halma::ReceiveTrouble::Rewritten);
    assert!(blue.shows_text("Refused: the message changes move 1 of the game, which was already played."));
    assert_eq!(blue.controller.session().game(), before.game(), "the game is unchanged");
    blue_by.invoke_receive("Hi! See you tomorrow".into());
    advance(20);
    assert_eq!(blue_by.get_view().trouble, halma::ReceiveTrouble::NotAMessage);
    blue.click_button("Close");
    assert!(!blue_by.get_view().receiving);
    // Undo never takes back what Purple knows.
    assert!(!blue.game_state().get_view().can_undo);

    // Purple's Games list: its own game and the game by message, each as it was.
    purple.menu("Games");
    assert_eq!(purple.navigation().get_page(), Page::Games);
    let rows: Vec<halma::GameRow> = purple_by.get_games().iter().collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!((rows[0].id.as_str(), rows[0].current), ("", false));
    assert_eq!((rows[1].id.as_str(), rows[1].turn, rows[1].seat), (id.as_str(), halma::GameTurn::Theirs, 0));
    assert!(purple.shows_text("The game on this device"));
    assert!(purple.shows_text("Waiting for Blue (A)"));
    purple_by.invoke_open_game("".into());
    advance(20);
    assert_eq!(purple.navigation().get_page(), Page::Game);
    assert_eq!(purple.game(), device_game, "the game on this device, untouched");
    assert!(!purple_by.get_view().active);
    purple_by.invoke_open_game(id.as_str().into());
    advance(20);
    assert_eq!(purple.game().history().len(), 2);

    // Blue quits and comes back: the game by message is in its Games list.
    let dir = blue.quit();
    let blue = ui_support::open(dir);
    let blue_by = blue.window.global::<halma::ByMessage>();
    blue.click_button("Games");
    let rows: Vec<halma::GameRow> = blue_by.get_games().iter().collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!((rows[0].id.as_str(), rows[0].turn, rows[0].moves), (id.as_str(), halma::GameTurn::Yours, 2));
    blue_by.invoke_open_game(id.as_str().into());
    advance(20);
    assert_eq!(blue.game().history().len(), 2);
    assert!(blue.game_state().get_view().human_turn);
}

fn has_piece_in(h: &ui_support::Harness, name: &str) -> bool {
    h.board().get_cells().row_data(sq(name).index()).is_some_and(|cell| cell.has_piece)
}

/// What a game gives to hear and feel (#39), through a sink that records it: a step
/// into the camp that wins, Confirm and each landing felt, a refused tap rejected. The
/// menu's Sound row turns the sounds off (the haptics stay) and is remembered at the next
/// start; the desktop has no Vibration row.
fn sound_and_vibration_follow_the_menu_and_are_remembered() {
    use halma_core::sound::{Cue, Feedback, Haptic};
    use std::cell::RefCell;
    use std::rc::Rc;
    #[derive(Default)]
    struct Felt {
        sounds: Vec<Cue>,
        haptics: Vec<Haptic>,
    }
    struct Recorder(Rc<RefCell<Felt>>);
    impl Feedback for Recorder {
        fn sound(&mut self, cue: Cue) {
            self.0.borrow_mut().sounds.push(cue);
        }
        fn haptic(&mut self, haptic: Haptic) {
            self.0.borrow_mut().haptics.push(haptic);
        }
    }
    let felt = Rc::new(RefCell::new(Felt::default()));
    let take = || std::mem::take(&mut *felt.borrow_mut());
    let h = harness("sound");
    h.controller.set_feedback(Box::new(Recorder(felt.clone())));
    // A wins with one step into the last free square of its target camp.
    let start =
        parse_hpn("11AAAAA/11AAAAA/12AAAA/13AAA/14A1/14A1/16/16/16/16/16/16/16/16/CCC13/CCCCCCCCCCCCCCCC A 2p 80");
    h.start(Session::with_game(humans(Setup::TwoPlayers), Game::from_position(start.expect("hpn"))).expect("2p"));
    h.tap(sq("o11"));
    h.tap(sq("p12"));
    assert!(take().sounds.is_empty(), "a selection and a preview are quiet");
    h.click_button("Confirm");
    advance(800);
    let Felt { sounds, haptics } = take();
    assert_eq!(sounds, [Cue::Step, Cue::ArriveInCamp, Cue::Win]);
    assert_eq!(haptics, [Haptic::Confirm, Haptic::Tick]);
    h.tap(sq("a1"));
    assert_eq!(take().sounds, [Cue::Refused], "the game is over");

    // Tall enough for the whole menu: queries find only what is in view.
    h.window.window().set_size(slint::LogicalSize::new(1000.0, 1600.0));
    h.click_button("More actions");
    assert!(h.combo_shows("On") && h.shows_text("Sound"));
    assert!(!h.preferences().get_vibration_offered() && !h.shows_text("Vibration"), "none on the desktop");
    h.preferences().invoke_set_sound(false);
    advance(20);
    assert!(h.combo_shows("Off") && !h.combo_shows("On"));
    h.key(slint::platform::Key::Escape);
    h.tap(sq("a1"));
    let Felt { sounds, haptics } = take();
    assert_eq!((sounds, haptics), (vec![], vec![Haptic::Reject]), "heard no more, still felt");

    let h = ui_support::open(h.quit());
    assert!(!h.controller.state().settings.sound && h.controller.state().settings.vibration);
    h.window.window().set_size(slint::LogicalSize::new(1000.0, 1600.0));
    h.click_button("More actions");
    assert!(h.combo_shows("Off"), "remembered");
}

/// The first-game guide's step on screen.
fn guide_step(h: &ui_support::Harness) -> Option<halma::GuideStep> {
    let guide = h.window.global::<halma::Guide>();
    guide.get_view().active.then(|| guide.get_view().step)
}

/// A newcomer's first start on an upright phone: the guide greets them on the real board
/// and is walked through by taps on the board, Confirm, Undo and the menu, each step
/// waiting for its own action; then the new-game screen. The guide's game is never saved,
/// and the guide does not come back by itself.
fn a_newcomer_walks_the_whole_guide_by_taps() {
    use halma::GuideStep::*;
    let dir = ui_support::fresh_dir("guide");
    let h = ui_support::open_as_newcomer(dir, slint::LogicalSize::new(360.0, 640.0));
    assert_eq!((h.navigation().get_page(), guide_step(&h)), (Page::Game, Some(Select)));
    assert!(h.shows_text("Step 1 of 10"));
    assert!(h.button_enabled("Skip"));
    h.tap(sq("j9"));
    assert_eq!(guide_step(&h), Some(Select), "an empty square selects nothing");
    h.tap(sq("b2"));
    assert_eq!(guide_step(&h), Some(PreviewStep));
    assert!(!h.button_enabled("Hint"), "no hints in the guide's game");
    h.tap(sq("c3"));
    assert_eq!(guide_step(&h), Some(Confirm));
    assert_eq!(h.window.global::<halma::Guide>().get_view().pointer, halma::GuidePointer::Bar);
    h.click_button("Confirm");
    advance(600);
    assert_eq!(guide_step(&h), Some(Jump));
    h.tap(sq("c3"));
    assert_eq!(guide_step(&h), Some(Jump), "a selection is not a jump");
    h.tap(sq("e5"));
    assert_eq!(guide_step(&h), Some(Chain));
    h.tap(sq("g5"));
    assert_eq!(guide_step(&h), Some(CutBack));
    assert_eq!(h.window.global::<halma::Guide>().get_marks().row_count(), 1, "the first landing, ringed");
    h.tap(sq("e5"));
    // The cut chain stays on the board, and the card asks to play it: the cut is seen.
    assert_eq!(guide_step(&h), Some(CutBack));
    assert!(h.shows_text("Cut back: the chain now ends on the landing you tapped."));
    h.click_button("Confirm");
    advance(600);
    assert_eq!(guide_step(&h), Some(Goal));
    h.tap(sq("m13"));
    h.tap(sq("n14"));
    h.click_button("Confirm");
    advance(600);
    assert_eq!(guide_step(&h), Some(Undo));
    h.click_button("Undo");
    assert_eq!(guide_step(&h), Some(Menu));
    h.click_button("More actions");
    assert_eq!(guide_step(&h), Some(Menu), "the menu is open over the card");
    h.key(slint::platform::Key::Escape);
    assert_eq!(guide_step(&h), Some(Done), "opened and closed again");
    h.click_button("Done");
    assert_eq!((guide_step(&h), h.navigation().get_page()), (None, Page::NewGame), "now a game of their own");
    assert!(h.controller.state().settings.guide_seen);
    assert!(!h.dir.join("game.json").exists(), "the guide's game is never saved");
    let h = ui_support::open_as_newcomer(h.quit(), slint::LogicalSize::new(360.0, 640.0));
    assert_eq!((guide_step(&h), h.navigation().get_page()), (None, Page::NewGame), "once is enough");
}

/// How to play from the menu in the middle of a game, skipped midway (the button, then
/// Esc): the game, its selection and its save are exactly as before, and a computer to
/// move waits for the guide to end.
fn the_guide_skipped_midway_leaves_the_game_unchanged() {
    use halma::GuideStep::*;
    let h = harness("guide-skip");
    h.start(Session::new(humans(Setup::TwoPlayers)));
    h.play_e2_f3();
    advance(600);
    h.tap(sq("l16"));
    advance(halma::app::ui::SELECTION_SAVE_DELAY.as_millis() as u64 + 50);
    let before = h.controller.session();
    let saved = std::fs::read(h.dir.join("game.json")).expect("saved");
    h.menu("How to play");
    assert_eq!(guide_step(&h), Some(Select));
    h.tap(sq("b2"));
    h.tap(sq("c3"));
    assert_eq!(guide_step(&h), Some(Confirm));
    h.click_button("Confirm");
    advance(600);
    assert_eq!(guide_step(&h), Some(Jump));
    h.click_button("Skip");
    assert_eq!((guide_step(&h), h.navigation().get_page()), (None, Page::Game));
    let after = h.controller.session();
    assert_eq!(after.game(), before.game());
    assert_eq!(after.interaction(), before.interaction(), "the selection is back");
    advance(halma::app::ui::SELECTION_SAVE_DELAY.as_millis() as u64 + 50);
    assert_eq!(std::fs::read(h.dir.join("game.json")).expect("saved"), saved, "the save byte for byte");

    // Against the computer: it does not move while the guide runs, and moves after.
    h.start(Session::new(against(Player::Computer(Level::Beginner))));
    h.play_e2_f3();
    h.menu("How to play");
    for _ in 0..40 {
        advance(60);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(h.game().history().len(), 1, "the computer waits for the guide");
    h.key(slint::platform::Key::Escape);
    assert_eq!(guide_step(&h), None, "Esc skips the guide");
    h.wait_for_actions(2);
}

/// Blue hosts a game whose seat C is a player nearby; Purple joins by code and address.
/// Returns the two windows, connected, and the host's address on loopback.
fn host_and_join(blue_seat: halma::PlayerKind, name: &str) -> (ui_support::Harness, ui_support::Harness, String) {
    use halma::{NearbyStatus, NearbyTrouble};
    let blue = harness(&format!("{name}-blue"));
    let purple = harness(&format!("{name}-purple"));
    let (blue_near, purple_near) = (blue.window.global::<halma::Nearby>(), purple.window.global::<halma::Nearby>());
    blue.form().invoke_set_seat_player(0, blue_seat);
    blue.form().invoke_set_seat_player(2, halma::PlayerKind::Nearby);
    advance(20);
    assert!(blue.combo_shows("A player nearby, on the network"));
    blue.click_button("Start");
    blue.wait_until("Blue listens", |h| !h.window.global::<halma::Nearby>().get_view().address.is_empty());
    assert!(blue_near.get_view().active && blue_near.get_view().hosting);
    assert_eq!(blue_near.get_view().status, NearbyStatus::Waiting);
    let code = blue_near.get_view().code.to_string();
    let shown = blue_near.get_view().address.to_string();
    assert!(blue.shows_text(&format!("Join code: {code}. Address: {shown}. Waiting for the other device…")));
    let port = shown.rsplit(':').next().expect("a port").to_string();
    let address = format!("127.0.0.1:{port}");

    // Purple: a wrong code first, refused and told on both devices.
    assert_eq!(purple.navigation().get_page(), Page::NewGame);
    purple.click_button("Join a game nearby…");
    assert!(purple_near.get_view().joining);
    let wrong = if code == "ZZZZZZ" { "YYYYYY" } else { "ZZZZZZ" };
    fill(&purple, "Join code", wrong);
    fill(&purple, "Address", &address);
    purple.click_button("Join");
    purple.wait_until("the wrong code refused", |h| {
        h.window.global::<halma::Nearby>().get_view().join_trouble == NearbyTrouble::WrongCode
    });
    let told = "The join code is wrong. Check it on the other device.";
    assert!(purple.shows_text(told));
    assert!(!purple_near.get_view().active);
    blue.wait_until("Blue told", |h| h.shows_text("Someone tried to join with a wrong code."));
    // The code as people type it: any case, with a dash. Once corrected, the trouble
    // about the wrong one is no longer shown.
    let typed = format!("{}-{}", code[..3].to_lowercase(), &code[3..]);
    fill(&purple, "Join code", &typed);
    assert!(!purple.shows_text(told), "the trouble went with the corrected code");
    fill(&purple, "Address", &format!(" {address} "));
    purple.click_button("Join");
    purple.wait_until("Purple joined", |h| {
        let near = h.window.global::<halma::Nearby>();
        near.get_view().active && near.get_view().status == NearbyStatus::Connected
    });
    assert!(!purple_near.get_view().joining && !purple_near.get_view().hosting);
    assert_eq!(purple.navigation().get_page(), Page::Game);
    blue.wait_until("Blue connected", |h| {
        h.window.global::<halma::Nearby>().get_view().status == NearbyStatus::Connected
    });
    assert_eq!(purple.game(), blue.game());
    (blue, purple, address)
}

/// Two devices (two windows, two data folders) play over loopback TCP (#40): Blue hosts,
/// Purple joins by code (a wrong code is refused); moves travel as soon as they are
/// confirmed and are told; Undo asks the other device, which may refuse or agree; Purple
/// is killed and restarted, finds the game again and gets the move Blue played meanwhile;
/// Leave ends the link and the other seat is played here.
fn a_game_over_the_network_between_two_devices() {
    use halma::{NearbyNote, NearbyStatus};
    let (blue, purple, _) = host_and_join(halma::PlayerKind::Human, "nearby");
    let (blue_near, _) = (blue.window.global::<halma::Nearby>(), purple.window.global::<halma::Nearby>());

    blue.play_e2_f3();
    purple.wait_until("Blue's move", |h| h.game().history().len() == 1 && !h.controller.is_animating());
    assert!(purple.shows_text("Blue (A) played e2-f3."));
    assert!(purple.game_state().get_view().human_turn);
    assert!(!blue.game_state().get_view().human_turn, "Blue does not play Purple's seat");
    purple.tap(sq("n14"));
    purple.tap(sq("m13"));
    purple.click_button("Confirm");
    blue.wait_until("Purple's move", |h| h.game().history().len() == 2 && !h.controller.is_animating());
    assert!(blue.shows_text("Purple (C) played n14-m13."));
    assert!(!blue.button_enabled("Redo"), "no redo while the other device plays too");

    // Undo asks Purple: refused, then agreed; the moves go on both devices only then.
    blue.click_button("Undo");
    assert!(blue.shows_text("Waiting for the other device to agree to take back moves…"));
    purple.wait_until("asked", |h| h.window.global::<halma::Nearby>().get_view().undo_asked);
    assert!(purple.shows_text("The other device asks to take back moves. Agree?"));
    assert_eq!(blue.game().history().len(), 2);
    purple.click_button("Refuse");
    blue.wait_until("refused", |h| h.window.global::<halma::Nearby>().get_view().note == NearbyNote::UndoRefused);
    assert!(blue.shows_text("The other device said no to taking back moves."));
    assert_eq!(blue.game().history().len(), 2);
    blue.click_button("Undo");
    purple.wait_until("asked again", |h| h.window.global::<halma::Nearby>().get_view().undo_asked);
    purple.click_button("Agree");
    blue.wait_until("taken back", |h| h.game().history().is_empty());
    purple.wait_until("taken back", |h| h.game().history().is_empty());
    assert!(blue.shows_text("Moves were taken back on both devices."));

    // Purple's app is killed (nothing saved on the way out) and Blue plays meanwhile.
    blue.play_e2_f3();
    purple.wait_until("Blue's move", |h| h.game().history().len() == 1 && !h.controller.is_animating());
    let purple_dir = purple.quit();
    blue.wait_until("the loss seen", |h| h.window.global::<halma::Nearby>().get_view().status == NearbyStatus::Lost);
    assert!(blue.shows_text("Connection lost. Waiting for the other device to come back…"));
    let purple = ui_support::open(purple_dir);
    let purple_near = purple.window.global::<halma::Nearby>();
    purple.wait_until("Purple back", |h| {
        h.window.global::<halma::Nearby>().get_view().status == NearbyStatus::Connected && h.game().history().len() == 1
    });
    blue.wait_until("Blue sees it back", |h| {
        h.window.global::<halma::Nearby>().get_view().status == NearbyStatus::Connected
    });
    assert_eq!(purple.game(), blue.game());
    assert!(purple.game_state().get_view().human_turn);

    // Leave: the link ends with a goodbye; Blue is told and plays Purple's seat itself.
    purple.click_button("Leave");
    assert!(!purple_near.get_view().active);
    blue.wait_until("told", |h| h.window.global::<halma::Nearby>().get_view().status == NearbyStatus::Ended);
    assert!(blue.shows_text("The other device left the game."));
    assert!(blue_near.get_view().active);
    drop(purple);
    let before = blue.game();
    blue.click_button("Leave");
    assert!(!blue_near.get_view().active);
    assert_eq!(blue.game(), before, "leaving changes no move");
    assert!(blue.game_state().get_view().human_turn, "Purple's seat is played here now");
}

/// A whole game over loopback TCP between the two apps: the computer (Beginner) plays
/// Blue on the host, a person (the test, by taps and Confirm, choosing greedy moves)
/// plays Purple on the guest; both devices end with the same finished game, saved.
fn a_whole_game_over_the_network_with_the_computer_in_a_seat() {
    use halma_ai::{choose_action, SearchRequest};
    let (blue, purple, _) = host_and_join(halma::PlayerKind::Beginner, "nearby-whole");
    let stop = std::sync::atomic::AtomicBool::new(false);
    for turn in 0..2000u64 {
        purple.wait_until("Purple's turn or the end", |h| {
            (h.game_state().get_view().human_turn || h.game().is_over()) && !h.controller.is_animating()
        });
        if purple.game().is_over() {
            break;
        }
        let game = purple.game();
        let request = SearchRequest::new(Level::Greedy).with_seed(turn);
        let action = choose_action(&game, &request, &stop).expect("the game goes on");
        let halma_rules::Action::Move(route) = &action else { panic!("a person never passes by hand") };
        // The piece, then where it goes: the app finds the way (a chain may be previewed
        // along another route to the same square).
        let (from, to) = (route.squares()[0], route.squares()[route.squares().len() - 1]);
        purple.tap(from);
        purple.tap(to);
        assert_eq!(purple.route().last(), Some(&to), "turn {turn}: {action} previewed");
        purple.click_button("Confirm");
        let played = purple.game().history().get(game.history().len()).cloned();
        let ends = |action: &halma_rules::Action| match action {
            halma_rules::Action::Move(route) => (route.squares().first().copied(), route.squares().last().copied()),
            halma_rules::Action::Pass => (None, None),
        };
        assert_eq!(played.as_ref().map(ends), Some((Some(from), Some(to))), "turn {turn}: {action} was played");
    }
    blue.wait_until("the same end on both devices", |h| h.game() == purple.game());
    let game = blue.game();
    assert!(game.is_over(), "the game ended: {:?} after {} actions", game.outcome(), game.history().len());
    eprintln!("a whole game over the network: {:?} after {} actions", game.outcome(), game.history().len());
}

/// A host whose code strangers try draws a new one with one tap (#49): the guest already
/// connected stays and plays on; the screen shows the new code.
fn the_host_draws_a_new_join_code_and_keeps_its_guest() {
    use halma::{NearbyNote, NearbyStatus};
    let (blue, purple, _) = host_and_join(halma::PlayerKind::Human, "new-code");
    let blue_near = blue.window.global::<halma::Nearby>();
    let old = blue_near.get_view().code.to_string();
    blue.click_button("New join code");
    let new = blue_near.get_view().code.to_string();
    assert_ne!(new, old);
    assert_eq!(blue_near.get_view().note, NearbyNote::NewCode);
    assert!(blue.shows_text(&format!("New join code: {new}. The device connected now stays connected.")));
    blue.play_e2_f3();
    purple.wait_until("Blue's move", |h| h.game().history().len() == 1 && !h.controller.is_animating());
    assert_eq!(purple.window.global::<halma::Nearby>().get_view().status, NearbyStatus::Connected);
    assert_eq!(blue_near.get_view().status, NearbyStatus::Connected);
    for (width, height) in [(360.0, 640.0), (1280.0, 800.0)] {
        blue.window.window().set_size(slint::LogicalSize::new(width, height));
        advance(20);
        draw(&blue, &format!("new code {width}"));
    }
}

/// A single line of `chars` characters without a space, as a chat app may put before a
/// message (a link, a pasted blob).
fn long_line(chars: usize) -> String {
    "0123456789abcdefghjkmnpqrstvwxyz".chars().cycle().take(chars).collect()
}

/// Draws the window with the software renderer, as the desktop app does: a panic in the
/// renderer fails the flow. With `HALMA_UI_SHOTS=<folder>` the picture is kept there as a
/// PNG, to look at.
fn draw(h: &ui_support::Harness, what: &str) {
    let started = std::time::Instant::now();
    let picture = h.window.window().take_snapshot().unwrap_or_else(|error| panic!("{what}: no snapshot: {error}"));
    eprintln!("{what}: drawn in {:?}", started.elapsed());
    if let Some(dir) = std::env::var_os("HALMA_UI_SHOTS") {
        let name: String = what.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
        let file = std::fs::File::create(std::path::Path::new(&dir).join(format!("{name}.png"))).expect("a PNG file");
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), picture.width(), picture.height());
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.write_header().and_then(|mut writer| writer.write_image_data(picture.as_bytes())).expect("written");
    }
}

/// Selects all, moves the cursor and scrolls in the text field labelled `label` (as a
/// player does with the keyboard and the wheel), drawing the window after each.
fn select_move_and_scroll(h: &ui_support::Harness, label: &str, what: &str) {
    use slint::platform::{Key, WindowEvent};
    let field = i_slint_backend_testing::ElementHandle::find_by_accessible_label(&h.window, label).next();
    let centre = field.map_or(LogicalPosition::new(500.0, 300.0), |field| {
        let at = field.absolute_position();
        LogicalPosition::new(at.x + field.size().width / 2.0, at.y + field.size().height / 2.0)
    });
    h.press(centre);
    h.release(centre);
    draw(h, &format!("{what}: focused"));
    let window = h.window.window();
    let chord = |key: SharedString| {
        window.dispatch_event(WindowEvent::KeyPressed { text: Key::Control.into() });
        window.dispatch_event(WindowEvent::KeyPressed { text: key.clone() });
        window.dispatch_event(WindowEvent::KeyReleased { text: key });
        window.dispatch_event(WindowEvent::KeyReleased { text: Key::Control.into() });
        advance(20);
    };
    chord("a".into());
    draw(h, &format!("{what}: all selected"));
    for key in [Key::End, Key::Home, Key::RightArrow, Key::DownArrow, Key::PageDown, Key::End, Key::LeftArrow] {
        h.key(key);
        draw(h, &format!("{what}: cursor moved"));
    }
    chord(Key::End.into());
    chord("a".into());
    draw(h, &format!("{what}: all selected at the end"));
    for (dx, dy) in [(0.0, -100_000.0), (-100_000.0, 0.0), (0.0, 100_000.0), (100_000.0, 0.0)] {
        window.dispatch_event(WindowEvent::PointerScrolled { position: centre, delta_x: dx, delta_y: dy });
        advance(20);
        draw(h, &format!("{what}: scrolled"));
    }
}

/// No text can crash the app (#49): a message and a record with a single line of 10 kB and
/// of 1 MB are pasted into the Receive and Import dialogs, all selected, the cursor moved
/// and the field scrolled, with the software renderer drawing each step (Slint 1.18's
/// panics past 32,767 pixels: docs/upstream/). The text is shown wrapped, or past 20,000
/// characters not shown, and is read whole: the message after the long line is received.
fn long_texts_are_shown_safely_and_read_whole() {
    let h = harness("long-texts");
    let by = h.window.global::<halma::ByMessage>();
    let records = h.window.global::<halma::Records>();
    let game = halma_core::correspondence::CorrespondenceGame::new(
        Game::new(Setup::TwoPlayers, Seat::A),
        halma_rules::SeatSet::single(Seat::C),
    )
    .expect("a game by message");
    let message = game.compose("Halma: your move, Blue (A). Open with Halma.");
    for (chars, size) in [(10_000, "10 kB"), (1_000_000, "1 MB")] {
        let text = format!("{}\n{message}", long_line(chars));
        by.invoke_open_receive();
        advance(20);
        assert!(by.get_view().receiving);
        fill(&h, "Message", &text);
        draw(&h, &format!("receive {size}: pasted"));
        assert_eq!(h.shows_text("characters long: it is read whole, but not shown."), chars > 20_000, "{size}");
        select_move_and_scroll(&h, "Message", &format!("receive {size}"));
        h.click_button("Receive");
        assert!(by.get_view().offered, "{size}: the message after the long line is read");
        draw(&h, &format!("receive {size}: offered"));
        h.click_button("Not now");
        by.invoke_close_receive();
        advance(20);

        records.invoke_open_import();
        advance(20);
        assert!(records.get_view().importing);
        let line = long_line(chars);
        fill(&h, "Game record", &line);
        draw(&h, &format!("import {size}: pasted"));
        select_move_and_scroll(&h, "Game record", &format!("import {size}"));
        h.click_button("Play on");
        assert!(records.get_view().importing, "{size}: not a record, the dialog stays");
        assert_eq!(records.get_view().trouble, halma::RecordTrouble::NotARecord, "{size}");
        if chars > 20_000 {
            h.click_button("Clear");
            assert!(!h.shows_text("characters long"), "cleared");
            draw(&h, &format!("import {size}: cleared"));
        }
        records.invoke_close_import();
        advance(20);
    }
    // At a phone's size, in English and in French, with a long text pasted.
    h.window.window().set_size(slint::LogicalSize::new(360.0, 640.0));
    by.invoke_open_receive();
    advance(20);
    fill(&h, "Message", &format!("{}\n{message}", long_line(10_000)));
    draw(&h, "phone receive 10 kB");
    fill(&h, "Message", &long_line(30_000));
    draw(&h, "phone receive 30 kB");
    h.window.global::<halma::Preferences>().invoke_select_language(
        halma_core::locale::LANGUAGES.iter().position(|(code, _)| *code == "fr").expect("French") as i32,
    );
    advance(20);
    draw(&h, "phone receive 30 kB fr");
    h.window.global::<halma::Preferences>().invoke_select_language(0);
    by.invoke_close_receive();
    advance(20);
}

fn main() {
    ui_support::run_flows(&[
        ("tap_preview_confirm_a_step", tap_preview_confirm_a_step),
        ("chain_built_hop_by_hop", chain_built_hop_by_hop),
        ("drag_moves_nothing", drag_moves_nothing),
        ("pickers_preview_like_taps", pickers_preview_like_taps),
        ("keyboard_commands", keyboard_commands),
        ("hint_then_confirm", hint_then_confirm),
        ("undo_redo_against_the_computer", undo_redo_against_the_computer),
        ("draw_offers", draw_offers),
        (
            "the_computer_declines_an_even_draw_and_accepts_when_behind",
            the_computer_declines_an_even_draw_and_accepts_when_behind,
        ),
        ("gestures_zoom_and_rotate_without_touching_the_game", gestures_zoom_and_rotate_without_touching_the_game),
        (
            "a_resting_finger_shows_the_loupe_and_its_release_taps",
            a_resting_finger_shows_the_loupe_and_its_release_taps,
        ),
        ("back_button_steps_back_then_lets_android_close", back_button_steps_back_then_lets_android_close),
        ("quitting_mid_preview_resumes_exactly", quitting_mid_preview_resumes_exactly),
        ("new_game_screen_for_each_player_count", new_game_screen_for_each_player_count),
        ("languages_switch_at_run_time_with_plural_forms", languages_switch_at_run_time_with_plural_forms),
        ("damaged_save_is_reported_then_dismissed", damaged_save_is_reported_then_dismissed),
        ("a_start_cut_short_is_not_repeated", a_start_cut_short_is_not_repeated),
        ("new_game_rotates_the_first_seat", new_game_rotates_the_first_seat),
        ("confirm_stays_in_place_from_selection_to_preview", confirm_stays_in_place_from_selection_to_preview),
        ("end_of_game_leaves_the_board_visible", end_of_game_leaves_the_board_visible),
        ("an_arrived_army_moves_its_partners_pieces", an_arrived_army_moves_its_partners_pieces),
        ("partners_are_shown_in_the_set_up_and_the_game", partners_are_shown_in_the_set_up_and_the_game),
        (
            "coordinate_tags_leave_the_pieces_uncovered_on_a_phone",
            coordinate_tags_leave_the_pieces_uncovered_on_a_phone,
        ),
        ("back_closes_an_open_picker_first", back_closes_an_open_picker_first),
        ("review_steps_through_the_game_and_returns_exactly", review_steps_through_the_game_and_returns_exactly),
        ("records_export_import_and_refuse_bad_text", records_export_import_and_refuse_bad_text),
        (
            "analysing_a_finished_game_reviews_it_and_changes_nothing",
            analysing_a_finished_game_reviews_it_and_changes_nothing,
        ),
        ("a_screen_reader_plays_a_move_and_a_chain", a_screen_reader_plays_a_move_and_a_chain),
        ("the_games_page_on_a_phone_keeps_its_button_small", the_games_page_on_a_phone_keeps_its_button_small),
        ("an_engine_program_plays_a_seat", an_engine_program_plays_a_seat),
        ("a_bad_engine_command_is_told_and_the_game_goes_on", a_bad_engine_command_is_told_and_the_game_goes_on),
        ("a_program_read_from_files_waits_for_the_players_word", a_program_read_from_files_waits_for_the_players_word),
        ("train_solves_the_puzzle_of_the_day", train_solves_the_puzzle_of_the_day),
        ("a_game_by_message_between_two_devices", a_game_by_message_between_two_devices),
        ("a_game_over_the_network_between_two_devices", a_game_over_the_network_between_two_devices),
        (
            "a_whole_game_over_the_network_with_the_computer_in_a_seat",
            a_whole_game_over_the_network_with_the_computer_in_a_seat,
        ),
        (
            "sound_and_vibration_follow_the_menu_and_are_remembered",
            sound_and_vibration_follow_the_menu_and_are_remembered,
        ),
        ("a_newcomer_walks_the_whole_guide_by_taps", a_newcomer_walks_the_whole_guide_by_taps),
        ("the_guide_skipped_midway_leaves_the_game_unchanged", the_guide_skipped_midway_leaves_the_game_unchanged),
        ("long_texts_are_shown_safely_and_read_whole", long_texts_are_shown_safely_and_read_whole),
        ("the_host_draws_a_new_join_code_and_keeps_its_guest", the_host_draws_a_new_join_code_and_keeps_its_guest),
    ]);
}
