//! Pure functions from the session (and the interface's passing state: an animation,
//! a running search) to the plain data the views show. They need no window, so the
//! unit tests below check what a player would see without drawing anything.

use super::worker::COMPUTER_PAUSE;
use crate::{
    BoardTurning, CampOutline, Cell, Mark, MoveEntry, Notice, Outcome, PlayerKind, Question, SaveDamage,
    SaveFailureKind, SaveProblem, SavedFile, SeatChoice, SeatFailure, SeatInfo, SeatRoute, ThemeChoice,
};
use halma_core::animation::Animation;
use halma_core::interface;
use halma_core::jobs::JobKind;
use halma_core::players::FailureKind;
use halma_core::saving::StartProblem;
use halma_core::session::{Notice as SessionNotice, Player, Session, PROGRAMS_OFFERED};
use halma_core::settings::Theme;
use halma_core::setup_form::SetupForm;
use halma_core::storage::{self, Damage, Document, SaveFailure};
use halma_core::view::{BoardView, Orientation};
use halma_rules::{Action, Bitboard, DrawReason, Outcome as GameOutcome, Seat, Setup, Square};
use slint::SharedString;
use std::time::Duration;

/// Clamps a count or an index for the interface's `int` (a huge game's counts stay in range).
pub fn int(value: impl TryInto<i32>) -> i32 {
    value.try_into().unwrap_or(i32::MAX)
}

/// A seat as the interface knows it: an index into the Theme's colours and names.
pub fn seat_index(seat: Seat) -> i32 {
    seat.index() as i32
}

pub fn player_kind(player: Player) -> PlayerKind {
    interface::PlayerKind::from(player).into()
}

pub fn turning(orientation: Orientation) -> BoardTurning {
    interface::BoardTurning::from(orientation).into()
}

pub fn theme_choice(theme: Theme) -> ThemeChoice {
    interface::ThemeChoice::from(theme).into()
}

/// What the board shows.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardPicture {
    /// One cell per square, in square order (a1, b1, ..., p16).
    pub cells: Vec<Cell>,
    pub route_path: SharedString,
    pub last_move_path: SharedString,
    /// With three or four seats, the moves since the seat to move last moved (in place of
    /// the last move alone): the other seats' moves since yours, each in its colour.
    pub round_routes: Vec<SeatRoute>,
    pub preview_is_hint: bool,
    pub cursor: (i32, i32),
    /// The moving piece: its seat and display cell.
    pub moving_piece: Option<(i32, (i32, i32))>,
    /// Each army's target camp as an outline in its colour.
    pub target_outlines: Vec<CampOutline>,
}

/// How far inside its camp an outline runs, in cells: the stroke stays within the
/// camp, and an outline never hides the square's tint of the home camp there.
const OUTLINE_INSET: f32 = 0.07;

/// The border of `camp` as an SVG path in display cells (0..16): one segment for each
/// side of a camp square that does not face another square of the camp.
pub fn camp_outline(view: &BoardView, camp: Bitboard) -> SharedString {
    let inside = |x: i32, y: i32| view.square_at(x, y).is_some_and(|square| camp.contains(square));
    let mut path = String::new();
    for square in Square::all().filter(|&square| camp.contains(square)) {
        let (x, y) = view.display_cell(square);
        let (left, top) = (x as f32, y as f32);
        let (right, bottom) = (left + 1.0, top + 1.0);
        let d = OUTLINE_INSET;
        let sides = [
            (!inside(x - 1, y), (left + d, top), (left + d, bottom)),
            (!inside(x + 1, y), (right - d, top), (right - d, bottom)),
            (!inside(x, y - 1), (left, top + d), (right, top + d)),
            (!inside(x, y + 1), (left, bottom - d), (right, bottom - d)),
        ];
        for (open, from, to) in sides {
            if open {
                path.push_str(&format!("M {} {} L {} {} ", from.0, from.1, to.0, to.1));
            }
        }
    }
    path.trim_end().into()
}

/// The route as an SVG path in board cells (0..16), in display orientation.
pub fn route_path(view: &BoardView, route: &[Square]) -> SharedString {
    let mut path = String::new();
    for (i, &square) in route.iter().enumerate() {
        let (x, y) = view.display_cell(square);
        path.push_str(&format!("{} {} {} ", if i == 0 { "M" } else { "L" }, x as f32 + 0.5, y as f32 + 0.5));
    }
    path.trim_end().into()
}

/// With three or four seats, every move since the seat to move last acted, the latest
/// first (age 0); the move being shown hop by hop is left to its animation. Empty with
/// two seats, whose last move is the round.
fn round_routes(session: &Session, animating: bool) -> Vec<SeatRoute> {
    let game = session.game();
    if game.setup().seats().len() < 3 {
        return Vec::new();
    }
    let to_move = game.position().to_move();
    let history = game.history();
    let since = (0..history.len()).rev().take_while(|&index| game.actor(index) != to_move);
    since
        .skip(usize::from(animating))
        .enumerate()
        .filter_map(|(age, index)| match &history[index] {
            Action::Move(route) => Some(SeatRoute {
                seat: seat_index(game.actor(index)),
                path: route_path(session.view(), route.squares()),
                age: age as i32,
            }),
            _ => None,
        })
        .collect()
}

/// The squares of the last move's route (none after a pass or at the start).
fn last_route(session: &Session) -> Vec<Square> {
    match session.game().history().last() {
        Some(Action::Move(route)) => route.squares().to_vec(),
        _ => Vec::new(),
    }
}

/// For each legal destination of the selected piece, the jumps of its route (0 for a
/// step); 0 elsewhere.
fn destination_jumps(session: &Session) -> Vec<i32> {
    let mut jumps = vec![0; 256];
    for route in session.interaction().destination_routes(session.game()) {
        if let (Some(first), Some(second), Some(last)) = (route.first(), route.get(1), route.last()) {
            let step = (first.column() - second.column()).abs() <= 1 && (first.row() - second.row()).abs() <= 1;
            jumps[last.index()] = if step { 0 } else { route.len() as i32 - 1 };
        }
    }
    jumps
}

/// The move list: every action of the game in notation, with its seat and round.
pub fn moves(session: &Session) -> Vec<MoveEntry> {
    let game = session.game();
    let seats = game.setup().seats().len().max(1);
    game.history()
        .iter()
        .enumerate()
        .map(|(index, action)| MoveEntry {
            index: index as i32,
            round: (index / seats) as i32 + 1,
            first_in_round: index % seats == 0,
            seat: seat_index(game.actor(index)),
            text: action.to_string().into(),
            passed: matches!(action, Action::Pass),
        })
        .collect()
}

/// The mark of every square, from the most important down.
fn marks(session: &Session) -> Vec<Mark> {
    let game = session.game();
    let interaction = session.interaction();
    let destinations = if interaction.has_preview() { Default::default() } else { interaction.destinations(game) };
    let extensions = interaction.extensions(game);
    let last = last_route(session);
    Square::all()
        .map(|square| {
            if interaction.selected == Some(square) {
                Mark::Selected
            } else if interaction.route.iter().skip(1).any(|&s| s == square) {
                Mark::Route
            } else if extensions.contains(square) {
                Mark::Extension
            } else if destinations.contains(square) {
                Mark::Destination
            } else if last.contains(&square) {
                Mark::LastMove
            } else {
                Mark::None
            }
        })
        .collect()
}

/// Coordinate labels of a cell: column letters along the bottom row, row numbers along
/// the left column, swapped when the board lies on its side.
fn coordinate_labels(view: &BoardView, square: Square, (x, y): (i32, i32)) -> (SharedString, SharedString) {
    let (left, bottom) = visible_edges(view);
    let column: SharedString = ((b'a' + square.column() as u8) as char).to_string().into();
    let row: SharedString = (square.row() + 1).to_string().into();
    let (along_bottom, along_left) = if view.quarter_turns.is_multiple_of(2) { (column, row) } else { (row, column) };
    (
        if y == bottom { along_bottom } else { SharedString::new() },
        if x == left { along_left } else { SharedString::new() },
    )
}

/// The display column at the left edge of the visible area and the display row at its
/// bottom (the first and last wholly in view): the coordinates stand there, so that a
/// board zoomed into its middle still names its squares.
fn visible_edges(view: &BoardView) -> (i32, i32) {
    let mut view = *view;
    view.repair();
    let half = 0.5 / view.zoom.max(1.0);
    let from = |centre: f32| (centre - half).clamp(0.0, 1.0 - 2.0 * half);
    let left = ((from(view.centre_x) * 16.0 - 0.01).ceil() as i32).clamp(0, 15);
    let bottom = (((from(view.centre_y) + 2.0 * half) * 16.0 + 0.01).floor() as i32 - 1).clamp(0, 15);
    (left, bottom)
}

/// The board: pieces (the moving one hidden at its destination), camps, marks, routes.
pub fn board(session: &Session, animation: Option<&Animation>) -> BoardPicture {
    let game = session.game();
    let position = game.position();
    let setup = game.setup();
    let view = session.view();
    let hidden = animation.map(Animation::destination);
    let marks = marks(session);
    let jumps = destination_jumps(session);
    let cells = Square::all()
        .map(|square| {
            let display = view.display_cell(square);
            let piece = position.piece_at(square).filter(|_| hidden != Some(square));
            let camp = setup.seats().iter().copied().find(|&s| setup.home_camp(s).contains(square));
            let target = setup.seats().iter().copied().find(|&s| setup.target_camp(s).contains(square));
            let (column_label, row_label) = coordinate_labels(view, square, display);
            Cell {
                x: display.0,
                y: display.1,
                has_piece: piece.is_some(),
                piece: piece.map_or(0, seat_index),
                in_camp: camp.is_some(),
                camp: camp.map_or(0, seat_index),
                mark: marks[square.index()],
                name: square.to_string().into(),
                has_target: target.is_some(),
                target: target.map_or(0, seat_index),
                jumps: jumps[square.index()],
                column_label,
                row_label,
            }
        })
        .collect();
    let interaction = session.interaction();
    BoardPicture {
        cells,
        route_path: route_path(view, &interaction.route),
        last_move_path: if animation.is_some() || setup.seats().len() >= 3 {
            SharedString::new()
        } else {
            route_path(view, &last_route(session))
        },
        round_routes: round_routes(session, animation.is_some()),
        preview_is_hint: interaction.from_hint,
        cursor: view.display_cell(interaction.cursor),
        moving_piece: animation.map(|a| (seat_index(a.seat()), view.display_cell(a.current()))),
        target_outlines: setup
            .seats()
            .iter()
            .map(|&seat| CampOutline { seat: seat_index(seat), path: camp_outline(view, setup.target_camp(seat)) })
            .collect(),
    }
}

/// The game's status: whose turn, the result, the notice, what the player may do.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct StatusPicture {
    pub to_move: i32,
    pub move_number: i32,
    pub seats: Vec<SeatInfo>,
    pub outcome: Outcome,
    pub winner: i32,
    pub winner_partner: i32,
    pub computer_thinking: bool,
    /// How long the seat to move is expected to think, in milliseconds (0: a person's
    /// seat): its progress bar fills over this time.
    pub thinking_time_ms: i32,
    pub hint_thinking: bool,
    pub human_turn: bool,
    pub notice: Notice,
    pub notice_seat: i32,
    pub duty_applies: bool,
    pub has_preview: bool,
    pub preview_jumps: i32,
    pub has_selection: bool,
    pub can_confirm: bool,
    pub can_undo: bool,
    pub can_redo: bool,
    pub can_offer_draw: bool,
    pub can_hint: bool,
    /// The person who must answer a draw offer now, and who offered.
    pub vote: Option<(i32, i32)>,
    /// The question the page asks, and the seats a draw offer would go to.
    pub question: Question,
    pub question_seats: Vec<i32>,
    /// 4 players, both armies: the seat to move has arrived and moves its partner's army.
    pub moves_partner: bool,
    pub army_to_move: i32,
    pub notice_partner: i32,
}

/// The result as the interface names it, with the winning seat(s).
pub fn outcome(setup: Setup, outcome: GameOutcome) -> (Outcome, i32, i32) {
    match outcome {
        GameOutcome::Ongoing => (Outcome::Ongoing, 0, 0),
        GameOutcome::Win(seats) => {
            let mut list = seats.seats();
            let first = list.next().map_or(0, seat_index);
            match list.next() {
                Some(second) if setup == Setup::FourPlayersBothArmies => {
                    (Outcome::TeamWinBothArmies, first, seat_index(second))
                }
                Some(second) => (Outcome::TeamWinOneArmy, first, seat_index(second)),
                None => (Outcome::Win, first, first),
            }
        }
        GameOutcome::Draw(DrawReason::Repetition) => (Outcome::DrawByRepetition, 0, 0),
        GameOutcome::Draw(DrawReason::Agreement) => (Outcome::DrawByAgreement, 0, 0),
    }
}

/// Each seat's progress: pieces home out of its army, who plays it, whose turn.
fn seats(session: &Session) -> Vec<SeatInfo> {
    let game = session.game();
    let setup = game.setup();
    let over = game.is_over();
    setup
        .seats()
        .iter()
        .map(|&seat| SeatInfo {
            seat: seat_index(seat),
            player: player_kind(session.config().player(seat)),
            home: session.pieces_home(seat) as i32,
            total: setup.army_size(seat) as i32,
            to_move: !over && seat == game.position().to_move(),
            arrived: !over && setup == Setup::FourPlayersBothArmies && game.position().has_arrived(seat),
        })
        .collect()
}

/// The notice, its seat, and (for a pass for a partner) the partner.
fn notice(session: &Session) -> (Notice, i32, i32) {
    let (notice, seat) = match session.notice() {
        SessionNotice::None | SessionNotice::Refused => (Notice::None, Seat::A),
        SessionNotice::AnalysisUnreadable => (Notice::AnalysisUnreadable, Seat::A),
        // An arrived army stays arrived: the seat passed because its partner's army was stuck.
        SessionNotice::Passed(seat)
            if session.game().setup() == Setup::FourPlayersBothArmies
                && session.game().position().has_arrived(seat) =>
        {
            (Notice::PassedForPartner, seat)
        }
        SessionNotice::Passed(seat) => (Notice::Passed, seat),
        SessionNotice::DrawRefused(seat) => (Notice::DrawRefused, seat),
        SessionNotice::NothingToUndo => (Notice::NothingToUndo, Seat::A),
    };
    (notice, seat_index(seat), seat_index(seat.opposite()))
}

/// How long a seat's driver takes for a move as the player sees it: a level's own time
/// or the engine program's (`program_move`), and never less than the computer's visible pause.
fn thinking_time_ms(player: Player, program_move: Duration) -> i32 {
    let time = match player {
        Player::Human | Player::Friend | Player::Nearby => Duration::ZERO,
        Player::Computer(level) => level.movetime().max(COMPUTER_PAUSE),
        Player::Program => program_move.max(COMPUTER_PAUSE),
    };
    i32::try_from(time.as_millis()).unwrap_or(i32::MAX)
}

impl StatusPicture {
    /// The status while the engine program to move waits for the player's confirmation:
    /// nothing thinks yet.
    pub fn waiting_to_start(self) -> StatusPicture {
        StatusPicture { computer_thinking: false, thinking_time_ms: 0, ..self }
    }

    /// The status with Undo (`no_undo`) or Redo (`no_redo`) taken away: what another
    /// device already knows or also plays is not for this one to take back alone.
    pub fn limited(self, no_undo: bool, no_redo: bool) -> StatusPicture {
        StatusPicture { can_undo: self.can_undo && !no_undo, can_redo: self.can_redo && !no_redo, ..self }
    }
}

/// The status panel, given which search (if any) is running, the question asked and an
/// engine program's time for a move.
pub fn status(session: &Session, busy: Option<JobKind>, question: Question, program_move: Duration) -> StatusPicture {
    let game = session.game();
    let position = game.position();
    let interaction = session.interaction();
    let human = session.human_can_act();
    let (outcome, winner, winner_partner) = outcome(game.setup(), game.outcome());
    let (notice, notice_seat, notice_partner) = notice(session);
    StatusPicture {
        to_move: seat_index(position.to_move()),
        // The move being played; once the game is over, the last one played (a 217-move
        // game ends at "Move 217").
        move_number: position.plies() as i32 + i32::from(!game.is_over()),
        seats: seats(session),
        outcome,
        winner,
        winner_partner,
        computer_thinking: busy == Some(JobKind::Computer)
            || session.driven_to_move().is_some_and(|player| !matches!(player, Player::Friend | Player::Nearby)),
        thinking_time_ms: session.driven_to_move().map_or(0, |player| thinking_time_ms(player, program_move)),
        hint_thinking: busy == Some(JobKind::Hint),
        human_turn: human,
        notice,
        notice_seat,
        duty_applies: human && position.duty_applies(),
        has_preview: interaction.has_preview(),
        preview_jumps: interaction.preview_jumps() as i32,
        has_selection: interaction.selected.is_some(),
        can_confirm: human && interaction.can_confirm(game),
        can_undo: session.can_undo(),
        can_redo: game.can_redo(),
        can_offer_draw: human && game.can_offer_draw(),
        can_hint: human && busy.is_none(),
        vote: session
            .human_vote_awaited()
            .map(|seat| (seat_index(seat), game.pending_offer().map_or(0, |offer| seat_index(offer.offerer)))),
        question,
        question_seats: game
            .setup()
            .seats()
            .iter()
            .filter(|&&seat| seat != position.to_move())
            .map(|&seat| seat_index(seat))
            .collect(),
        moves_partner: !game.is_over() && position.army_to_move() != position.to_move(),
        army_to_move: seat_index(position.army_to_move()),
        notice_partner,
    }
}

/// The pickers: the movable pieces and the selected piece's routes, with the chosen
/// entry of each (-1 for none).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PickerPicture {
    pub pieces: Vec<SharedString>,
    pub piece_index: i32,
    pub destinations: Vec<SharedString>,
    pub destination_index: i32,
}

/// Route text for the destination picker: "c3 → e5 → g5".
fn route_label(route: &[Square]) -> SharedString {
    route.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" → ").into()
}

fn index_or_none(index: Option<usize>) -> i32 {
    index.map_or(-1, |i| i as i32)
}

pub fn pickers(session: &Session) -> PickerPicture {
    if !session.human_can_act() {
        return PickerPicture { piece_index: -1, destination_index: -1, ..Default::default() };
    }
    let game = session.game();
    let interaction = session.interaction();
    let pieces = halma_core::interaction::Interaction::movable_pieces(game);
    let routes = interaction.destination_routes(game);
    let end = interaction.preview_move().map(|m| m.to);
    PickerPicture {
        pieces: pieces.iter().map(|s| s.to_string().into()).collect(),
        piece_index: index_or_none(interaction.selected.and_then(|s| pieces.iter().position(|&p| p == s))),
        destinations: routes.iter().map(|r| route_label(r)).collect(),
        destination_index: index_or_none(end.and_then(|to| routes.iter().position(|r| r.last() == Some(&to)))),
    }
}

/// The new-game form.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct FormPicture {
    pub players: i32,
    pub both_armies: bool,
    pub seat_choices: Vec<SeatChoice>,
    pub first_seats: Vec<i32>,
    pub first_seat_index: i32,
    /// Engine programs are offered as players (desktop builds).
    pub programs_offered: bool,
    /// A seat in play is an engine program's: its command line is asked for.
    pub needs_command: bool,
    pub command: SharedString,
    /// Which of the offered times per move the engine program has.
    pub move_time_index: i32,
    pub can_start: bool,
}

/// The new-game form as `form` holds it.
pub fn form(form: &SetupForm) -> FormPicture {
    let config = form.config();
    let seats = config.setup.seats();
    FormPicture {
        players: seats.len() as i32,
        both_armies: form.both_armies(),
        programs_offered: PROGRAMS_OFFERED,
        needs_command: form.needs_command(),
        command: form.command().into(),
        move_time_index: form.move_time_index() as i32,
        can_start: form.can_start(),
        seat_choices: seats
            .iter()
            .map(|&seat| SeatChoice { seat: seat_index(seat), player: player_kind(config.player(seat)) })
            .collect(),
        first_seats: seats.iter().copied().map(seat_index).collect(),
        first_seat_index: config.setup.turn_index(config.first).unwrap_or(0) as i32,
    }
}

/// What the player hears about a problem found at start. Only typed reasons cross the
/// seam, each translated in the window; the system's own text (always English) goes to
/// the log (`StartProblem::log_line`).
pub fn start_problem(problem: &StartProblem) -> SaveProblem {
    let file = |document: Document| if document == storage::SETTINGS { SavedFile::Settings } else { SavedFile::Game };
    let (file, damage) = match problem {
        StartProblem::Damaged { document, problem, .. } => (file(*document), save_damage(problem)),
        StartProblem::FromNewerVersion { document } => (file(*document), SaveDamage::NewerVersion),
        StartProblem::LastStartFailed { .. } => (SavedFile::Game, SaveDamage::LastStartFailed),
        StartProblem::AlreadyOpen => (SavedFile::Game, SaveDamage::AlreadyOpen),
    };
    SaveProblem { file, damage }
}

/// The kind of damage, as the window names it.
fn save_damage(damage: &Damage) -> SaveDamage {
    match damage {
        Damage::Unreadable(_) => SaveDamage::Unreadable,
        Damage::Empty => SaveDamage::Empty,
        Damage::TooLarge { .. } => SaveDamage::TooLarge,
        Damage::Truncated => SaveDamage::Truncated,
        Damage::NotJson(_) => SaveDamage::NotJson,
        Damage::Foreign { .. } => SaveDamage::Foreign,
        Damage::NewerVersion { .. } => SaveDamage::NewerVersion,
        Damage::Invalid(_) => SaveDamage::Invalid,
    }
}

/// Why the seat to move's driver gave up, as the window names it.
pub fn seat_failure(failure: Option<FailureKind>) -> SeatFailure {
    match failure {
        None => SeatFailure::None,
        Some(FailureKind::Search) => SeatFailure::Search,
        Some(FailureKind::CannotStart) => SeatFailure::ProgramCannotStart,
        Some(FailureKind::Ended) => SeatFailure::ProgramEnded,
        Some(FailureKind::WrongAnswer) => SeatFailure::ProgramWrongAnswer,
        Some(FailureKind::TooSlow) => SeatFailure::ProgramTooSlow,
    }
}

/// Why saving failed, as the window names it.
pub fn save_failure(failure: Option<&SaveFailure>) -> SaveFailureKind {
    match failure {
        None => SaveFailureKind::None,
        Some(SaveFailure::DiskFull) => SaveFailureKind::DiskFull,
        Some(SaveFailure::NotAllowed) => SaveFailureKind::NotAllowed,
        Some(SaveFailure::FolderMissing) => SaveFailureKind::FolderMissing,
        Some(SaveFailure::Other(_)) => SaveFailureKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use halma_core::session::GameConfig;
    use halma_rules::sq;

    /// The engine program's time for a move in these tests.
    const PROGRAM_MOVE: Duration = Duration::from_millis(2500);

    fn two_people() -> Session {
        Session::new(GameConfig { players: [Player::Human; 4].into(), ..GameConfig::default() })
    }

    fn cell(picture: &BoardPicture, name: &str) -> Cell {
        picture.cells[sq(name).index()].clone()
    }

    #[test]
    fn the_start_shows_both_armies_in_their_tinted_camps() {
        let picture = board(&two_people(), None);
        assert_eq!(picture.cells.len(), 256);
        assert_eq!(picture.cells.iter().filter(|c| c.has_piece).count(), 38);
        let a1 = cell(&picture, "a1");
        assert!(a1.has_piece && a1.in_camp);
        assert_eq!((a1.piece, a1.camp, a1.x, a1.y), (0, 0, 0, 15));
        assert_eq!((a1.column_label.as_str(), a1.row_label.as_str()), ("a", "1"));
        let p16 = cell(&picture, "p16");
        assert_eq!((p16.piece, p16.camp, p16.x, p16.y), (2, 2, 15, 0));
        assert!(!cell(&picture, "h8").in_camp && !cell(&picture, "h8").has_piece);
        assert!(picture.cells.iter().all(|c| c.mark == Mark::None));
        assert_eq!(picture.route_path, "");
    }

    #[test]
    fn zoomed_into_the_middle_the_coordinates_stand_at_the_visible_edges() {
        let mut session = two_people();
        session.zoom_view(4.0, 0.5, 0.5);
        let view = *session.view();
        assert_eq!(visible_edges(&view), (6, 9), "columns 6 to 9 and rows 6 to 9 in view");
        let picture = board(&session, None);
        let labelled = |rows: bool| {
            let mut cells: Vec<(i32, i32, String)> = picture
                .cells
                .iter()
                .map(|c| (c.x, c.y, if rows { c.row_label.to_string() } else { c.column_label.to_string() }))
                .filter(|(_, _, label)| !label.is_empty())
                .collect();
            cells.sort();
            cells
        };
        let rows = labelled(true);
        assert_eq!(rows.len(), 16);
        assert!(rows.iter().all(|(x, _, _)| *x == 6), "{rows:?}");
        assert_eq!(rows.iter().find(|(_, y, _)| *y == 9).map(|r| r.2.as_str()), Some("7"));
        let columns = labelled(false);
        assert!(columns.iter().all(|(_, y, _)| *y == 9), "{columns:?}");
        assert_eq!(columns.iter().find(|(x, _, _)| *x == 6).map(|c| c.2.as_str()), Some("g"));
        // The whole board in view: the edges.
        assert_eq!(visible_edges(&BoardView::default()), (0, 15));
    }

    #[test]
    fn a_selection_marks_its_destinations_and_a_preview_its_route() {
        let mut session = two_people();
        session.tap(sq("c3"));
        let picture = board(&session, None);
        assert_eq!(cell(&picture, "c3").mark, Mark::Selected);
        let destinations: Vec<Square> =
            Square::all().filter(|&s| picture.cells[s.index()].mark == Mark::Destination).collect();
        let expected = session.interaction().destinations(session.game());
        assert_eq!(destinations, Square::all().filter(|&s| expected.contains(s)).collect::<Vec<_>>());
        session.tap(sq("d4"));
        let picture = board(&session, None);
        assert_eq!(cell(&picture, "d4").mark, Mark::Route);
        assert_eq!(picture.route_path, "M 2.5 13.5 L 3.5 12.5");
        assert!(!picture.preview_is_hint);
    }

    #[test]
    fn the_status_follows_turns_previews_and_the_end() {
        let mut session = two_people();
        let status = status(&session, None, Question::None, PROGRAM_MOVE);
        assert_eq!((status.to_move, status.move_number, status.outcome), (0, 1, Outcome::Ongoing));
        assert!(status.human_turn && status.can_hint && !status.can_confirm && !status.can_undo);
        assert_eq!(
            status.seats.iter().map(|s| (s.seat, s.total, s.to_move)).collect::<Vec<_>>(),
            vec![(0, 19, true), (2, 19, false)]
        );
        session.tap(sq("e2"));
        session.tap(sq("f3"));
        let previewing = super::status(&session, Some(JobKind::Hint), Question::None, PROGRAM_MOVE);
        assert!(previewing.has_preview && previewing.can_confirm && previewing.hint_thinking && !previewing.can_hint);
        assert_eq!(previewing.preview_jumps, 0);
        assert!(session.confirm().is_ok());
        let after = super::status(&session, None, Question::None, PROGRAM_MOVE);
        assert_eq!((after.to_move, after.move_number), (2, 2));
        assert!(after.can_undo);
        assert_eq!(
            outcome(Setup::FourPlayersBothArmies, GameOutcome::Draw(DrawReason::Agreement)).0,
            Outcome::DrawByAgreement
        );
    }

    #[test]
    fn with_three_seats_the_board_shows_every_move_since_the_seat_to_move_last_moved() {
        let setup = Setup::ThreePlayers;
        let mut session =
            Session::new(GameConfig { setup, first: setup.seats()[0], players: [Player::Human; 4].into() });
        for _ in 0..3 {
            let mv = session.game().legal_moves().iter().next().expect("a legal move");
            session.tap(mv.from);
            session.tap(mv.to);
            assert!(session.confirm().is_ok());
        }
        let picture = board(&session, None);
        let game = session.game();
        assert_eq!(picture.last_move_path, "", "the round's routes show it");
        let shown: Vec<(i32, i32)> = picture.round_routes.iter().map(|r| (r.seat, r.age)).collect();
        assert_eq!(shown, [(seat_index(game.actor(2)), 0), (seat_index(game.actor(1)), 1)]);
        let Action::Move(latest) = &game.history()[2] else { panic!("a move") };
        assert_eq!(picture.round_routes[0].path, route_path(session.view(), latest.squares()));
        // Two seats: the last move alone, as before.
        let mut two = two_people();
        two.tap(sq("e2"));
        two.tap(sq("f3"));
        assert!(two.confirm().is_ok());
        let picture = board(&two, None);
        assert!(picture.round_routes.is_empty() && !picture.last_move_path.is_empty());
    }

    #[test]
    fn a_finished_game_is_numbered_by_its_last_move() {
        let record = halma_record::Record::parse(include_str!("../../../tests/data/analysis-typical-2p.txt"));
        let game = record.expect("the record").game;
        assert!(game.is_over());
        let plies = game.position().plies() as i32;
        let config = GameConfig { players: [Player::Human; 4].into(), ..GameConfig::default() };
        let session = Session::with_game(config, game).expect("a 2p game");
        assert_eq!(status(&session, None, Question::None, PROGRAM_MOVE).move_number, plies);
    }

    #[test]
    fn pickers_list_pieces_then_routes_with_nothing_chosen_as_minus_one() {
        let mut session = two_people();
        let picture = pickers(&session);
        assert_eq!(picture.piece_index, -1);
        assert_eq!(picture.destination_index, -1);
        assert!(picture.destinations.is_empty());
        let b4 = picture.pieces.iter().position(|p| p == "b4").unwrap_or(usize::MAX);
        session.pick_piece(b4);
        let picture = pickers(&session);
        assert_eq!(picture.piece_index, b4 as i32);
        assert!(!picture.destinations.is_empty());
        session.pick_destination(0);
        assert_eq!(pickers(&session).destination_index, 0);
    }

    #[test]
    fn the_form_offers_the_seats_in_play_in_turn_order() {
        let config = GameConfig { setup: Setup::ThreePlayers, first: Seat::C, ..GameConfig::default() };
        let picture = form(&SetupForm::from_config(config, "", 1000));
        assert_eq!(picture.players, 3);
        assert_eq!(picture.first_seats, vec![0, 1, 2]);
        assert_eq!(picture.first_seat_index, 2);
        assert_eq!(picture.seat_choices[2].player, PlayerKind::Casual);
        assert!(!picture.needs_command && picture.can_start);
        assert_eq!(picture.programs_offered, cfg!(not(feature = "android")));
    }

    #[test]
    fn the_form_asks_for_the_engine_programs_command_line() {
        let mut setup = SetupForm::default();
        setup.set_player(Seat::C, Player::Program);
        let picture = form(&setup);
        assert_eq!(picture.seat_choices[1].player, PlayerKind::Program);
        assert!(picture.needs_command && !picture.can_start, "no command line yet");
        setup.set_command("halma-engine --threads 1");
        let picture = form(&setup);
        assert!(picture.needs_command && picture.can_start);
        assert_eq!(picture.command, "halma-engine --threads 1");
    }

    #[test]
    fn an_engine_program_to_move_shows_as_thinking() {
        let config = GameConfig {
            players: [Player::Human, Player::Human, Player::Program, Player::Human].into(),
            first: Seat::C,
            ..GameConfig::default()
        };
        let session = Session::new(config);
        assert_eq!(session.driven_to_move(), Some(Player::Program));
        assert_eq!(session.computer_to_move(), None, "not the built-in computer");
        let status = status(&session, None, Question::None, PROGRAM_MOVE);
        assert!(status.computer_thinking && !status.human_turn);
        assert_eq!(status.seats[1].player, PlayerKind::Program);
        assert_eq!(status.thinking_time_ms, 2500, "its bar fills in its time");
    }

    #[test]
    fn a_computer_seat_to_move_says_how_long_it_thinks() {
        let config = GameConfig {
            players: [Player::Computer(halma_ai::Level::Master), Player::Human, Player::Human, Player::Human].into(),
            ..GameConfig::default()
        };
        let session = Session::new(config);
        // Its own time when longer than the visible pause, else the pause.
        let master = status(&session, Some(JobKind::Computer), Question::None, PROGRAM_MOVE);
        assert_eq!(master.thinking_time_ms, halma_ai::Level::Master.movetime().max(COMPUTER_PAUSE).as_millis() as i32);
        assert_eq!(master.thinking_time_ms, 450);
        let mut game = session.game().clone();
        assert!(game.play_text("e2-f3").is_ok());
        let Ok(session) = Session::with_game(config, game) else { panic!("a 2-player game") };
        let person = status(&session, None, Question::None, PROGRAM_MOVE);
        assert!(person.human_turn);
        assert_eq!(person.thinking_time_ms, 0, "a person's seat has no bar");
    }

    #[test]
    fn seat_failures_keep_their_kind() {
        assert_eq!(seat_failure(None), SeatFailure::None);
        assert_eq!(seat_failure(Some(FailureKind::Search)), SeatFailure::Search);
        assert_eq!(seat_failure(Some(FailureKind::CannotStart)), SeatFailure::ProgramCannotStart);
        assert_eq!(seat_failure(Some(FailureKind::Ended)), SeatFailure::ProgramEnded);
        assert_eq!(seat_failure(Some(FailureKind::WrongAnswer)), SeatFailure::ProgramWrongAnswer);
        assert_eq!(seat_failure(Some(FailureKind::TooSlow)), SeatFailure::ProgramTooSlow);
    }

    #[test]
    fn start_problems_keep_their_kind_for_translation() {
        let damaged = StartProblem::Damaged {
            document: storage::SESSION,
            problem: Damage::NotJson("line 1".into()),
            kept_as: None,
        };
        assert_eq!(start_problem(&damaged), SaveProblem { file: SavedFile::Game, damage: SaveDamage::NotJson });
        let newer = StartProblem::FromNewerVersion { document: storage::SETTINGS };
        assert_eq!(start_problem(&newer), SaveProblem { file: SavedFile::Settings, damage: SaveDamage::NewerVersion });
        let crashed = StartProblem::LastStartFailed { kept: Vec::new() };
        assert_eq!(start_problem(&crashed).damage, SaveDamage::LastStartFailed);
        assert_eq!(start_problem(&StartProblem::AlreadyOpen).damage, SaveDamage::AlreadyOpen);
        assert!(damaged.log_line().contains("line 1"), "the detail is kept for the log");
    }

    #[test]
    fn save_failures_keep_their_kind() {
        assert_eq!(save_failure(None), SaveFailureKind::None);
        assert_eq!(save_failure(Some(&SaveFailure::DiskFull)), SaveFailureKind::DiskFull);
        assert_eq!(save_failure(Some(&SaveFailure::Other("EIO".into()))), SaveFailureKind::Other);
    }

    #[test]
    fn levels_and_turning_cross_the_seam_both_ways() {
        for kind in [
            PlayerKind::Human,
            PlayerKind::Beginner,
            PlayerKind::Casual,
            PlayerKind::Strong,
            PlayerKind::Master,
            PlayerKind::Program,
            PlayerKind::Friend,
            PlayerKind::Nearby,
        ] {
            assert_eq!(player_kind(interface::PlayerKind::from(kind).into()), kind);
        }
        for turning in [BoardTurning::Fixed, BoardTurning::FaceSeatToMove] {
            assert_eq!(super::turning(interface::BoardTurning::from(turning).into()), turning);
        }
        for choice in [ThemeChoice::System, ThemeChoice::Light, ThemeChoice::Dark] {
            assert_eq!(theme_choice(interface::ThemeChoice::from(choice).into()), choice);
        }
    }
}
