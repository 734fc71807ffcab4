//! Pushes the presenter's pictures into the Slint globals. Nothing is decided here:
//! each function copies one picture into the global of its area.

use super::diagrams::{DiagramPicture, RulesPictures};
use super::presenter::int;
use super::presenter::{BoardPicture, FormPicture, PickerPicture, StatusPicture};
use crate::{
    AppWindow, BoardState, BoardTurning, Cell, Diagram, GameMenuState, GameState, MoveEntry, Navigation, NewGameForm,
    Pickers, Preferences, RecordDetail, RecordTrouble, Records, RulesDiagrams, SaveFailureKind, SaveProblem,
    SeatFailure, ThemeChoice,
};
use halma_core::locale;
use halma_core::record_trouble::Trouble;
use halma_core::saving::StartProblem;
use halma_core::state::Messages;
use halma_core::ui_state::UiState;
use slint::{ComponentHandle, Model, ModelRc, SharedString, VecModel};

/// What never changes while the window lives: the version, the board's cells model (its
/// rows are then written one by one) and the language menu.
pub fn window_start(window: &AppWindow, cells: &std::rc::Rc<VecModel<Cell>>) {
    window.set_version(env!("CARGO_PKG_VERSION").into());
    if cfg!(target_os = "android") {
        // Let Android size text from the system font scale.
        window.set_base_font_size(0.0);
    }
    window.global::<BoardState>().set_cells(ModelRc::from(cells.clone()));
    let names = locale::LANGUAGES.iter().map(|(_, name)| SharedString::from(*name)).collect::<Vec<_>>();
    window.global::<Preferences>().set_language_names(ModelRc::new(VecModel::from(names)));
    window.global::<Preferences>().set_vibration_offered(crate::app::haptics::AVAILABLE);
}

/// The interface state: the page, the import dialog, the cursor, Resume. (The question
/// goes with the status, review with the move list.)
pub fn interface(window: &AppWindow, ui: &UiState) {
    window.global::<Navigation>().set_page(ui.page().into());
    window.global::<Records>().set_importing(ui.import_open());
    window.global::<BoardState>().set_cursor_visible(ui.cursor_shown());
    window.global::<NewGameForm>().set_can_resume(ui.has_game());
    window.global::<GameMenuState>().set_open(ui.menu_open());
    window.global::<crate::Analysis>().set_summary_open(ui.summary_open());
}

/// The loupe under a resting finger: whether it shows and the display cell a release
/// would choose (-1, -1: none).
pub fn loupe(window: &AppWindow, loupe: Option<&halma_core::state::Loupe>) {
    let board = window.global::<BoardState>();
    let (x, y) = loupe.and_then(|l| l.target).unwrap_or((-1, -1));
    board.set_loupe_shown(loupe.is_some());
    board.set_loupe_target_x(x);
    board.set_loupe_target_y(y);
}

/// The messages the window shows until something ends them.
pub fn messages(window: &AppWindow, messages: &Messages) {
    load_problems(window, &messages.load_problems);
    copied(window, messages.copied.as_deref());
    import_trouble(window, messages.import_trouble.as_ref());
    window.global::<crate::Analysis>().set_failed(messages.analysis_failed);
    save_failure(window, super::presenter::save_failure(messages.save_failure.as_ref()));
}

/// What went wrong with the saved files at start (empty once dismissed).
fn load_problems(window: &AppWindow, problems: &[StartProblem]) {
    let form = window.global::<NewGameForm>();
    let problems: Vec<SaveProblem> = problems.iter().map(super::presenter::start_problem).collect();
    if differs(form.get_load_problems(), &problems) {
        form.set_load_problems(ModelRc::new(VecModel::from(problems)));
    }
}

/// Copy game done (`Some`, with the file it was also saved to, or empty), or the game
/// changed since (`None`).
fn copied(window: &AppWindow, saved_to: Option<&str>) {
    let records = window.global::<Records>();
    records.set_copied(saved_to.is_some());
    if let Some(saved_to) = saved_to {
        records.set_saved_to(saved_to.into());
    }
}

/// Why a pasted record was refused, at which line; `None` clears it.
fn import_trouble(window: &AppWindow, trouble: Option<&(usize, Trouble)>) {
    let records = window.global::<Records>();
    let Some((line, trouble)) = trouble else {
        records.set_error_line(-1);
        records.set_trouble(RecordTrouble::None);
        records.set_detail(RecordDetail::Text);
        records.set_error(SharedString::new());
        return;
    };
    records.set_error_line(int(*line));
    records.set_trouble(trouble.kind.into());
    records.set_detail(trouble.detail.into());
    records.set_error(trouble.text.as_str().into());
    records.set_error_action(int(trouble.action));
    records.set_detail_row(trouble.row);
    records.set_detail_count(trouble.count);
    records.set_detail_limit(trouble.limit);
}

/// The language menu's choice.
pub fn language_index(window: &AppWindow, index: i32) {
    window.global::<Preferences>().set_language_index(index);
}

/// The board-turning setting.
pub fn turning(window: &AppWindow, turning: BoardTurning) {
    window.global::<Preferences>().set_turning(turning);
}

/// The theme setting (the window turns it into colours).
pub fn theme(window: &AppWindow, theme: ThemeChoice) {
    window.global::<Preferences>().set_theme(theme);
}

/// The Sound and Vibration settings.
pub fn feedback(window: &AppWindow, sound: bool, vibration: bool) {
    let preferences = window.global::<Preferences>();
    preferences.set_sound(sound);
    preferences.set_vibration(vibration);
}

/// Asks for the whole window at the next frame. Slint 1.18.1's software renderer draws a
/// `Path` (the board's routes and camp outlines, the pieces' markers, the evaluation
/// graph) whole, beyond the dirty region of a partial redraw: `RenderToBuffer`'s
/// `process_filled_path`/`process_stroked_path` clip to the item, where every other
/// primitive goes through `foreach_ranges` and the region. Over the kept frame its
/// half-covered edge pixels were blended a second time and it covered what lies above it
/// there: the stray lines until a resize (#47 item 3). A frame after a change the app made
/// is therefore whole (10 ms at the app's window, benches/render); the frames of Slint's
/// own animations stay partial. Other renderers ignore the request.
pub fn whole_window_dirty(window: &AppWindow) {
    let window = window.window();
    let size = window.size().to_logical(window.scale_factor());
    let whole =
        i_slint_core::lengths::LogicalRect::from_size(i_slint_core::lengths::LogicalSize::new(size.width, size.height));
    i_slint_core::window::WindowInner::from_pub(window).window_adapter().renderer().mark_dirty_region(whole.into());
}

/// The board; only the cells that changed are written, so Slint redraws only those.
pub fn board(window: &AppWindow, cells: &VecModel<Cell>, picture: BoardPicture) {
    for (index, cell) in picture.cells.into_iter().enumerate() {
        if cells.row_data(index).as_ref() != Some(&cell) {
            cells.set_row_data(index, cell);
        }
    }
    let board = window.global::<BoardState>();
    board.set_route_path(picture.route_path);
    board.set_last_move_path(picture.last_move_path);
    if differs(board.get_round_routes(), &picture.round_routes) {
        board.set_round_routes(ModelRc::new(VecModel::from(picture.round_routes)));
    }
    board.set_preview_is_hint(picture.preview_is_hint);
    // A new model rebuilds the outlines: only when they changed (a turn of the board).
    if differs(board.get_target_outlines(), &picture.target_outlines) {
        board.set_target_outlines(ModelRc::new(VecModel::from(picture.target_outlines)));
    }
    board.set_cursor_x(picture.cursor.0);
    board.set_cursor_y(picture.cursor.1);
    match picture.moving_piece {
        Some((seat, (x, y))) => {
            board.set_anim_visible(true);
            board.set_anim_seat(seat);
            board.set_anim_x(x as f32);
            board.set_anim_y(y as f32);
        }
        None => board.set_anim_visible(false),
    }
}

/// True when `shown` does not hold exactly `wanted`: a list is replaced only then, since
/// a new model rebuilds every element that shows it.
fn differs<T: Clone + PartialEq + 'static>(shown: ModelRc<T>, wanted: &[T]) -> bool {
    !shown.iter().eq(wanted.iter().cloned())
}

/// The view's zoom and the Flickable's offset.
pub fn view(window: &AppWindow, zoom: f32, (content_x, content_y): (f32, f32)) {
    let board = window.global::<BoardState>();
    board.set_zoom(zoom);
    board.set_content_x(content_x);
    board.set_content_y(content_y);
}

/// Why the seat to move's computer or engine program failed (its seat waits for Retry),
/// or `SeatFailure::None`.
pub fn seat_failure(window: &AppWindow, failure: SeatFailure) {
    let game = window.global::<GameState>();
    game.set_computer_failed(failure != SeatFailure::None);
    if failure != SeatFailure::None {
        game.set_seat_failure(failure);
    }
}

/// The full command line of the engine program to move while it waits for the player's
/// confirmation (Start / Change / Play as a person), or `None`.
pub fn program_confirmation(window: &AppWindow, command: Option<&str>) {
    let game = window.global::<GameState>();
    game.set_program_awaits_start(command.is_some());
    game.set_program_command(command.unwrap_or_default().into());
}

/// The file name of the engine program that plays the program seats.
pub fn program_name(window: &AppWindow, name: &str) {
    window.global::<GameState>().set_program_name(name.into());
}

/// Why the game could not be saved, or `SaveFailureKind::None`.
fn save_failure(window: &AppWindow, failure: SaveFailureKind) {
    window.global::<GameState>().set_save_failure(failure);
}

pub fn status(window: &AppWindow, picture: StatusPicture) {
    let game = window.global::<GameState>();
    game.set_to_move(picture.to_move);
    game.set_move_number(picture.move_number);
    game.set_seats(ModelRc::new(VecModel::from(picture.seats)));
    game.set_outcome(picture.outcome);
    game.set_winner(picture.winner);
    game.set_winner_partner(picture.winner_partner);
    game.set_computer_thinking(picture.computer_thinking);
    game.set_thinking_time_ms(picture.thinking_time_ms);
    game.set_hint_thinking(picture.hint_thinking);
    game.set_human_turn(picture.human_turn);
    game.set_notice(picture.notice);
    game.set_notice_seat(picture.notice_seat);
    game.set_duty_applies(picture.duty_applies);
    game.set_has_preview(picture.has_preview);
    game.set_preview_jumps(picture.preview_jumps);
    game.set_has_selection(picture.has_selection);
    game.set_can_confirm(picture.can_confirm);
    game.set_can_undo(picture.can_undo);
    game.set_can_redo(picture.can_redo);
    game.set_can_offer_draw(picture.can_offer_draw);
    game.set_can_hint(picture.can_hint);
    game.set_question(picture.question);
    game.set_question_seats(ModelRc::new(VecModel::from(picture.question_seats)));
    game.set_moves_partner(picture.moves_partner);
    game.set_army_to_move(picture.army_to_move);
    game.set_notice_partner(picture.notice_partner);
    game.set_vote_awaited(picture.vote.is_some());
    if let Some((seat, offerer)) = picture.vote {
        game.set_vote_seat(seat);
        game.set_vote_offerer(offerer);
    }
}

/// The move list (replaced only when it changed) and the review state.
pub fn review(window: &AppWindow, moves: Option<Vec<MoveEntry>>, shown: Option<(usize, i32)>) {
    let game = window.global::<GameState>();
    // None: the history did not change since the list was last given.
    if let Some(moves) = moves.filter(|moves| differs(game.get_moves(), moves)) {
        game.set_moves(ModelRc::new(VecModel::from(moves)));
    }
    game.set_reviewing(shown.is_some());
    game.set_review_shown(shown.map_or(-1, |(shown, _)| shown as i32));
    game.set_review_to_move(shown.map_or(0, |(_, seat)| seat));
}

pub fn pickers(window: &AppWindow, picture: PickerPicture) {
    let pickers = window.global::<Pickers>();
    pickers.set_pieces(ModelRc::new(VecModel::from(picture.pieces)));
    pickers.set_piece_index(picture.piece_index);
    pickers.set_destinations(ModelRc::new(VecModel::from(picture.destinations)));
    pickers.set_destination_index(picture.destination_index);
}

pub fn form(window: &AppWindow, picture: FormPicture) {
    let form = window.global::<NewGameForm>();
    form.set_players(picture.players);
    form.set_both_armies(picture.both_armies);
    form.set_seat_choices(ModelRc::new(VecModel::from(picture.seat_choices)));
    form.set_first_seats(ModelRc::new(VecModel::from(picture.first_seats)));
    form.set_first_seat_index(picture.first_seat_index);
    form.set_programs_offered(picture.programs_offered);
    form.set_needs_command(picture.needs_command);
    form.set_can_start(picture.can_start);
    form.set_engine_move_time_index(picture.move_time_index);
    // Written only when it differs, so the text field keeps its cursor while typing.
    if form.get_engine_command() != picture.command {
        form.set_engine_command(picture.command);
    }
}

/// The Rules page's diagrams (once, at start: they never change).
pub fn rules_diagrams(window: &AppWindow, pictures: RulesPictures) {
    let model = |pictures: Vec<DiagramPicture>| {
        let diagrams: Vec<Diagram> = pictures
            .into_iter()
            .map(|picture| Diagram {
                caption: picture.caption,
                columns: picture.frame.columns,
                rows: picture.frame.rows,
                cells: ModelRc::new(VecModel::from(picture.cells)),
                route_path: picture.route_path,
                refused_path: picture.refused_path,
                outlines: ModelRc::new(VecModel::from(picture.outlines)),
            })
            .collect();
        ModelRc::new(VecModel::from(diagrams))
    };
    let global = window.global::<RulesDiagrams>();
    global.set_camps(model(pictures.camps));
    global.set_turn(model(pictures.turn));
    global.set_duty(model(pictures.duty));
    global.set_teams(model(pictures.teams));
}

/// The game's analysis (marks, the reviewed move, the routes, the graph, the summary),
/// the running analysis' progress (the action being analysed from 0, of how many), and
/// whether Analyse is offered now (in review or after the end, with no analysis yet).
/// The analysis: `history` (the marks, the graph, the summary) only when the game's
/// history changed since it was last given, the reviewed move's part every time.
pub fn analysis(
    window: &AppWindow,
    history: Option<super::analysis_presenter::AnalysisPicture>,
    (shown, routes): (super::analysis_presenter::ShownPicture, super::analysis_presenter::RoutesPicture),
    progress: Option<(usize, usize)>,
    offered: bool,
) {
    let global = window.global::<crate::Analysis>();
    global.set_running(progress.is_some());
    if let Some((current, total)) = progress {
        global.set_current(int(current + 1));
        global.set_total(int(total));
    }
    if let Some(picture) = history {
        analysis_history(window, picture);
    }
    global.set_can_analyse(offered && !global.get_available());
    global.set_shown_judged(shown.judged);
    global.set_shown_seat(shown.seat);
    global.set_shown_mark(shown.mark);
    global.set_shown_before(shown.before.0);
    global.set_shown_before_value(shown.before.1);
    global.set_shown_after(shown.after.0);
    global.set_shown_after_value(shown.after.1);
    global.set_played_path(routes.played);
    global.set_best_path(routes.best);
    global.set_best_markers(routes.best_markers);
}

/// The parts of the analysis that depend on the game's history alone.
fn analysis_history(window: &AppWindow, picture: super::analysis_presenter::AnalysisPicture) {
    let global = window.global::<crate::Analysis>();
    global.set_available(picture.available);
    if differs(global.get_marks(), &picture.marks) {
        global.set_marks(ModelRc::new(VecModel::from(picture.marks)));
    }
    if differs(global.get_lines(), &picture.lines) {
        global.set_lines(ModelRc::new(VecModel::from(picture.lines)));
    }
    global.set_points(picture.points);
    global.set_scale(picture.scale);
    if differs(global.get_summaries(), &picture.summaries) {
        global.set_summaries(ModelRc::new(VecModel::from(picture.summaries)));
    }
    global.set_draw_vote(picture.draw.0);
    global.set_draw_offerer(picture.draw.1);
}

/// The Train page's puzzle, outcome and progress.
pub fn train(window: &AppWindow, info: crate::TrainInfo) {
    let train = window.global::<crate::Train>();
    if train.get_info() != info {
        train.set_info(info);
    }
}

/// The games by message (#40): Send, the receive dialog, the told lines, the Games list.
/// Undo stops at what the other side may know.
pub fn by_message(window: &AppWindow, picture: super::by_message_presenter::Picture) {
    let global = window.global::<crate::ByMessage>();
    global.set_active(picture.active);
    global.set_can_send(picture.can_send);
    global.set_header_seat(picture.header_seat);
    global.set_waiting_seat(picture.waiting_seat);
    global.set_receiving(picture.receiving);
    global.set_trouble(picture.trouble);
    global.set_trouble_number(picture.trouble_number);
    global.set_trouble_seat(picture.trouble_seat);
    global.set_offered(picture.offered.is_some());
    if let Some((from, players, moves)) = picture.offered {
        global.set_offered_from(from);
        global.set_offered_players(players);
        global.set_offered_moves(moves);
    } else if let Some(from) = picture.started_from {
        global.set_offered_from(from);
    }
    global.set_note(picture.note);
    if differs(global.get_played(), &picture.played) {
        global.set_played(ModelRc::new(VecModel::from(picture.played)));
    }
    global.set_your_move(picture.your_move);
    global.set_saved_to(picture.saved_to.into());
    if differs(global.get_games(), &picture.games) {
        global.set_games(ModelRc::new(VecModel::from(picture.games)));
    }
    if picture.undo_blocked {
        window.global::<GameState>().set_can_undo(false);
    }
}

/// The network game (#40): its panel on the game page and the join dialog. Redo and
/// Restart do not apply while the other device plays too; Undo asks it first.
pub fn nearby(window: &AppWindow, picture: super::nearby_presenter::Picture) {
    let global = window.global::<crate::Nearby>();
    global.set_active(picture.active);
    global.set_hosting(picture.hosting);
    global.set_code(picture.code.into());
    global.set_address(picture.address.into());
    global.set_status(picture.status);
    global.set_ending(picture.ending);
    global.set_note(picture.note);
    global.set_note_seat(picture.note_seat);
    global.set_note_action(picture.note_action.into());
    global.set_taken_back(picture.taken_back);
    global.set_gained(picture.gained);
    global.set_undo_asked(picture.undo_asked);
    global.set_undo_pending(picture.undo_pending);
    global.set_joining(picture.joining);
    global.set_join_connecting(picture.join_connecting);
    global.set_join_trouble(picture.join_trouble);
    if differs(global.get_hosts(), &picture.hosts) {
        global.set_hosts(ModelRc::new(VecModel::from(picture.hosts)));
    }
    if picture.shared {
        let game = window.global::<GameState>();
        game.set_can_redo(false);
        if picture.undo_pending {
            game.set_can_undo(false);
        }
    }
}

/// The first-game guide's card and marks (the marks' list only when it changed).
pub fn guide(window: &AppWindow, picture: super::guide_presenter::GuidePicture) {
    let guide = window.global::<crate::Guide>();
    guide.set_active(picture.active);
    guide.set_step(picture.step);
    guide.set_number(picture.number);
    guide.set_total(picture.total);
    guide.set_retry(picture.retry);
    guide.set_cut(picture.cut);
    guide.set_pointer(picture.pointer);
    if differs(guide.get_marks(), &picture.marks) {
        guide.set_marks(ModelRc::new(VecModel::from(picture.marks)));
    }
}
