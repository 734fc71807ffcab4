//! Pushes the presenter's pictures into the Slint globals. Nothing is decided here:
//! each function copies one picture into the global of its area.

use super::diagrams::{DiagramPicture, RulesPictures};
use super::presenter::int;
use super::presenter::{BoardPicture, FormPicture, PickerPicture, StatusPicture};
use crate::{
    AnalysisView, AppWindow, BoardDisplay, BoardState, Cell, Diagram, FormView, GameMenuState, GameState, GameView,
    MoveEntry, Navigation, NewGameForm, Pickers, PickersView, Preferences, PreferencesView, RecordDetail,
    RecordTrouble, Records, RecordsView, RulesDiagrams, SaveFailureKind, SaveProblem, SeatFailure,
};
use halma_core::locale;
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

/// The page shown.
pub fn navigation(window: &AppWindow, page: crate::Page) {
    window.global::<Navigation>().set_page(page);
}

/// The game page's "⋯" menu, open or closed.
pub fn game_menu(window: &AppWindow, open: bool) {
    window.global::<GameMenuState>().set_open(open);
}

/// Game records: the import dialog, why a pasted record was refused, Copy game done.
pub fn records(window: &AppWindow, ui: &UiState, messages: &Messages) {
    let mut view = RecordsView {
        importing: ui.import_open(),
        error_line: -1,
        trouble: RecordTrouble::None,
        detail: RecordDetail::Text,
        copied: messages.copied.is_some(),
        saved_to: messages.copied.as_deref().unwrap_or_default().into(),
        ..RecordsView::default()
    };
    if let Some((line, trouble)) = &messages.import_trouble {
        view.error_line = int(*line);
        view.trouble = trouble.kind.into();
        view.detail = trouble.detail.into();
        view.error = trouble.text.as_str().into();
        view.error_action = int(trouble.action);
        view.detail_row = trouble.row;
        view.detail_count = trouble.count;
        view.detail_limit = trouble.limit;
    }
    let records = window.global::<Records>();
    if records.get_view() != view {
        records.set_view(view);
    }
}

/// The player's settings: the language menu's choice, the board turning, the theme, Sound
/// and Vibration.
pub fn preferences(window: &AppWindow, view: PreferencesView) {
    let preferences = window.global::<Preferences>();
    if preferences.get_view() != view {
        preferences.set_view(view);
    }
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

/// The board: its display (routes, cursor, zoom, the moving piece, the loupe), and only
/// the cells that changed, so Slint redraws only those; the lists only when they changed
/// (a new model rebuilds the outlines: a turn of the board).
pub fn board(
    window: &AppWindow,
    cells: &VecModel<Cell>,
    picture: BoardPicture,
    cursor_visible: bool,
    loupe: Option<&halma_core::state::Loupe>,
) {
    for (index, cell) in picture.cells.into_iter().enumerate() {
        if cells.row_data(index).as_ref() != Some(&cell) {
            cells.set_row_data(index, cell);
        }
    }
    let board = window.global::<BoardState>();
    let before = board.get_view();
    let (loupe_x, loupe_y) = loupe.and_then(|l| l.target).unwrap_or((-1, -1));
    let ((anim_x, anim_y), anim_seat) = match picture.moving_piece {
        Some((seat, (x, y))) => ((x as f32, y as f32), seat),
        // The last piece's place and colour stay while it hides.
        None => ((before.anim_x, before.anim_y), before.anim_seat),
    };
    let view = BoardDisplay {
        route_path: picture.route_path,
        last_move_path: picture.last_move_path,
        preview_is_hint: picture.preview_is_hint,
        cursor_x: picture.cursor.0,
        cursor_y: picture.cursor.1,
        cursor_visible,
        zoom: before.zoom,
        anim_visible: picture.moving_piece.is_some(),
        anim_seat,
        anim_x,
        anim_y,
        loupe_shown: loupe.is_some(),
        loupe_target_x: loupe_x,
        loupe_target_y: loupe_y,
    };
    if before != view {
        board.set_view(view);
    }
    set_list_if_changed(board.get_round_routes(), picture.round_routes, |list| board.set_round_routes(list));
    set_list_if_changed(board.get_target_outlines(), picture.target_outlines, |list| board.set_target_outlines(list));
}

/// Writes `wanted` through `set` when `shown` does not hold exactly it: a list is replaced
/// only then, since a new model rebuilds every element that shows it.
fn set_list_if_changed<T: Clone + PartialEq + 'static>(
    shown: ModelRc<T>,
    wanted: Vec<T>,
    set: impl FnOnce(ModelRc<T>),
) {
    if !shown.iter().eq(wanted.iter().cloned()) {
        set(ModelRc::new(VecModel::from(wanted)));
    }
}

/// The view's zoom and the Flickable's offset (two-way with the Flickable, so written
/// apart from the board's picture, after it and whenever the viewport changes).
pub fn view(window: &AppWindow, zoom: f32, (content_x, content_y): (f32, f32)) {
    let board = window.global::<BoardState>();
    let mut view = board.get_view();
    if view.zoom != zoom {
        view.zoom = zoom;
        board.set_view(view);
    }
    board.set_content_x(content_x);
    board.set_content_y(content_y);
}

/// Everything the game's global (`GameState`) shows, from the presenter's pictures.
pub struct GamePicture {
    pub status: StatusPicture,
    /// Why the seat to move's computer or engine program failed, or `SeatFailure::None`.
    pub failure: SeatFailure,
    /// The full command line of the engine program to move while it waits for the
    /// player's confirmation, or `None`.
    pub confirmation: Option<String>,
    /// The file name of the engine program that plays the program seats.
    pub program_name: String,
    pub save_failure: SaveFailureKind,
    /// In review: the actions shown and the seat that was to move there.
    pub review: Option<(usize, i32)>,
    /// The move list, `None` when the history did not change since it was last given.
    pub moves: Option<Vec<MoveEntry>>,
}

/// The game's global: one view, and its lists each only when it changed.
pub fn game_state(window: &AppWindow, picture: GamePicture) {
    let game = window.global::<GameState>();
    let before = game.get_view();
    let status = picture.status;
    let failed = picture.failure != SeatFailure::None;
    let view = GameView {
        to_move: status.to_move,
        move_number: status.move_number,
        outcome: status.outcome,
        winner: status.winner,
        winner_partner: status.winner_partner,
        computer_thinking: status.computer_thinking,
        thinking_time_ms: status.thinking_time_ms,
        computer_failed: failed,
        // The words of the last failure stay while its panel goes.
        seat_failure: if failed { picture.failure } else { before.seat_failure },
        program_name: picture.program_name.into(),
        program_awaits_start: picture.confirmation.is_some(),
        program_command: picture.confirmation.unwrap_or_default().into(),
        save_failure: picture.save_failure,
        hint_thinking: status.hint_thinking,
        human_turn: status.human_turn,
        moves_partner: status.moves_partner,
        army_to_move: status.army_to_move,
        notice: status.notice,
        notice_seat: status.notice_seat,
        notice_partner: status.notice_partner,
        duty_applies: status.duty_applies,
        has_preview: status.has_preview,
        preview_jumps: status.preview_jumps,
        has_selection: status.has_selection,
        can_confirm: status.can_confirm,
        can_undo: status.can_undo,
        can_redo: status.can_redo,
        can_offer_draw: status.can_offer_draw,
        can_hint: status.can_hint,
        vote_awaited: status.vote.is_some(),
        // The last vote's seats stay while its dialog goes.
        vote_seat: status.vote.map_or(before.vote_seat, |(seat, _)| seat),
        vote_offerer: status.vote.map_or(before.vote_offerer, |(_, offerer)| offerer),
        question: status.question,
        reviewing: picture.review.is_some(),
        review_shown: picture.review.map_or(-1, |(shown, _)| shown as i32),
        review_to_move: picture.review.map_or(0, |(_, seat)| seat),
    };
    if before != view {
        game.set_view(view);
    }
    set_list_if_changed(game.get_seats(), status.seats, |list| game.set_seats(list));
    set_list_if_changed(game.get_question_seats(), status.question_seats, |list| game.set_question_seats(list));
    if let Some(moves) = picture.moves {
        set_list_if_changed(game.get_moves(), moves, |list| game.set_moves(list));
    }
}

/// The pickers of movable pieces and of the selected piece's destinations.
pub fn pickers(window: &AppWindow, picture: PickerPicture) {
    let pickers = window.global::<Pickers>();
    set_list_if_changed(pickers.get_pieces(), picture.pieces, |list| pickers.set_pieces(list));
    set_list_if_changed(pickers.get_destinations(), picture.destinations, |list| pickers.set_destinations(list));
    let view = PickersView { piece_index: picture.piece_index, destination_index: picture.destination_index };
    if pickers.get_view() != view {
        pickers.set_view(view);
    }
}

/// The new-game form, Resume (when there is a game) and what went wrong with the saved
/// files at start (empty once dismissed).
pub fn form(window: &AppWindow, picture: FormPicture, can_resume: bool, problems: &[StartProblem]) {
    let form = window.global::<NewGameForm>();
    let view = FormView {
        players: picture.players,
        both_armies: picture.both_armies,
        first_seat_index: picture.first_seat_index,
        can_resume,
        programs_offered: picture.programs_offered,
        needs_command: picture.needs_command,
        engine_move_time_index: picture.move_time_index,
        can_start: picture.can_start,
    };
    if form.get_view() != view {
        form.set_view(view);
    }
    set_list_if_changed(form.get_seat_choices(), picture.seat_choices, |list| form.set_seat_choices(list));
    set_list_if_changed(form.get_first_seats(), picture.first_seats, |list| form.set_first_seats(list));
    let problems: Vec<SaveProblem> = problems.iter().map(super::presenter::start_problem).collect();
    set_list_if_changed(form.get_load_problems(), problems, |list| form.set_load_problems(list));
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

/// The game's analysis (marks, the reviewed move, the routes, the graph, the summary):
/// `history` (the marks, the graph, the summary) only when the game's history changed
/// since it was last given, the reviewed move's part every time; the running analysis'
/// progress (the action being analysed from 0, of how many); whether Analyse is offered
/// now (in review or after the end, with no analysis yet); whether the last one failed and
/// whether the summary shows.
pub struct AnalysisState {
    pub progress: Option<(usize, usize)>,
    pub offered: bool,
    pub failed: bool,
    pub summary_open: bool,
}

/// The analysis' global: one view, and its lists each only when they changed.
pub fn analysis(
    window: &AppWindow,
    history: Option<super::analysis_presenter::AnalysisPicture>,
    (shown, routes): (super::analysis_presenter::ShownPicture, super::analysis_presenter::RoutesPicture),
    state: AnalysisState,
) {
    let global = window.global::<crate::Analysis>();
    let before = global.get_view();
    let mut view = AnalysisView {
        running: state.progress.is_some(),
        failed: state.failed,
        summary_open: state.summary_open,
        shown_judged: shown.judged,
        shown_seat: shown.seat,
        shown_mark: shown.mark,
        shown_before: shown.before.0,
        shown_before_value: shown.before.1,
        shown_after: shown.after.0,
        shown_after_value: shown.after.1,
        played_path: routes.played,
        best_path: routes.best,
        best_markers: routes.best_markers,
        ..before.clone()
    };
    if let Some((current, total)) = state.progress {
        view.current = int(current + 1);
        view.total = int(total);
    }
    if let Some(picture) = history {
        view.available = picture.available;
        view.points = picture.points;
        view.scale = picture.scale;
        (view.draw_vote, view.draw_offerer) = picture.draw;
        set_list_if_changed(global.get_marks(), picture.marks, |list| global.set_marks(list));
        set_list_if_changed(global.get_lines(), picture.lines, |list| global.set_lines(list));
        set_list_if_changed(global.get_summaries(), picture.summaries, |list| global.set_summaries(list));
    }
    view.can_analyse = state.offered && !view.available;
    if before != view {
        global.set_view(view);
    }
}

/// The Train page's puzzle, outcome and progress.
pub fn train(window: &AppWindow, info: crate::TrainInfo) {
    let train = window.global::<crate::Train>();
    if train.get_info() != info {
        train.set_info(info);
    }
}

/// The games by message (#40): Send, the receive dialog, the told lines, the Games list.
pub fn by_message(window: &AppWindow, picture: super::by_message_presenter::Picture) {
    let global = window.global::<crate::ByMessage>();
    if global.get_view() != picture.view {
        global.set_view(picture.view);
    }
    set_list_if_changed(global.get_played(), picture.played, |list| global.set_played(list));
    set_list_if_changed(global.get_games(), picture.games, |list| global.set_games(list));
}

/// The network game (#40): its panel on the game page and the join dialog.
pub fn nearby(window: &AppWindow, picture: super::nearby_presenter::Picture) {
    let global = window.global::<crate::Nearby>();
    if global.get_view() != picture.view {
        global.set_view(picture.view);
    }
    set_list_if_changed(global.get_hosts(), picture.hosts, |list| global.set_hosts(list));
}

/// The first-game guide's card and marks (the marks' list only when it changed).
pub fn guide(window: &AppWindow, picture: super::guide_presenter::GuidePicture) {
    let guide = window.global::<crate::Guide>();
    if guide.get_view() != picture.view {
        guide.set_view(picture.view);
    }
    set_list_if_changed(guide.get_marks(), picture.marks, |list| guide.set_marks(list));
}
