//! The actions: what each thing the player does (or a background job reports) does to
//! the [`AppState`], as plain functions `fn(&mut AppState, …) -> Effects`, grouped by
//! area, with no Slint in them and tested without a window. The controller turns each
//! Slint callback into an [`Event`] and hands it to [`update`] through its one dispatch,
//! which keeps review's gate ([`Event::plays_on_live_game`]) and carries out the effects.

mod analysis;
mod board;
mod correspondence;
mod guide;
mod nearby;
mod pages;
mod play;
mod records;
mod review;
mod train;

pub use train::{
    mistakes_of, puzzle_rating, puzzle_set, solved_in_set, Outcome as TrainOutcome, Source as TrainSource, Training,
};

use super::effects::{Effects, Redraw, Save};
use super::state::{AppState, Facts, Replacement};
use crate::interface::{BoardTurning, Page, PlayerKind, ReviewStep, ThemeChoice};
use crate::jobs::Finished;
use crate::jobs::JobKind;
use crate::players::Driven;
use crate::saving::Started;
use crate::session::{HistoryKey, Player, Session};
use crate::sound::Cue;
use halma_ai::analysis::GameAnalysis;
use std::time::Duration;

/// Everything that can happen to the app: the player's input, and what background jobs
/// and timers report.
#[derive(Debug)]
pub enum Event {
    // ----- Start -----
    /// The saved settings and game were read at start.
    Restored(Box<Started>),
    /// A session to play from its position (tests and tools: as if chosen on the
    /// new-game screen).
    Begin(Box<Session>),

    // ----- Pages, Back, Esc -----
    ShowPage(Page),
    /// From the rules or about page back to where the player came from.
    GoBack,
    Escape,
    /// Android's Back button.
    Back,
    SetMenuOpen(bool),
    SetSummaryOpen(bool),

    // ----- The board -----
    /// A tap on display cell (x, y) that no pinch claimed, or a screen reader's activation.
    Tap {
        x: i32,
        y: i32,
    },
    /// A finger's tap that no pinch claimed, at (x, y) dp from the board's top-left
    /// corner as displayed, with squares of `square_dp`: snapped to what it most
    /// plausibly meant (`app::tap_target`).
    TouchTap {
        x: f32,
        y: f32,
        square_dp: f32,
    },
    /// A finger rests (or slides while resting) at (x, y) dp on the board with squares of
    /// `square_dp`: the loupe shows the square a release there would choose.
    TouchHold {
        x: f32,
        y: f32,
        square_dp: f32,
    },
    /// The resting finger lifted, or a pan or a pinch took it: the loupe goes.
    TouchHoldEnded,
    Arrow {
        dx: i32,
        dy: i32,
    },
    Enter,
    /// One zoom step in or out around a point given as fractions of the view.
    Zoom {
        zoom_in: bool,
        anchor_x: f32,
        anchor_y: f32,
    },
    ZoomFit,
    Rotate {
        clockwise: bool,
    },
    Panned {
        x: f32,
        y: f32,
        width: f32,
        height: f32,
    },
    ViewportResized {
        width: f32,
        height: f32,
    },
    /// A step of a two-finger gesture: its zoom and perhaps a quarter turn.
    Pinch {
        zoom_factor: f32,
        quarter_turn: Option<bool>,
        anchor_x: f32,
        anchor_y: f32,
    },
    GestureEnded,

    // ----- The game -----
    Confirm,
    Cancel,
    Hint,
    Undo,
    Redo,
    OfferDraw,
    AnswerDraw(bool),
    Restart,
    NewGame,
    AnswerQuestion(bool),
    PickPiece(i32),
    PickDestination(i32),
    /// Retry after the computer's (or program's) search failed.
    RetryComputer,
    /// Start: the player allows the engine program waiting to move to start.
    StartProgram,
    /// Play as a person: the engine program's seat to move goes to the people here.
    PlayProgramSeat,
    /// A seat's search or the hint's finished.
    SearchFinished(Finished),
    /// The animation's timer: the next hop.
    AnimationStep,
    /// The waiting save is due (the taps stopped, the app pauses or closes).
    SaveDue,
    /// A save was written (`None`), or failed: told until a later save succeeds.
    Saved(Option<crate::storage::SaveFailure>),
    /// Copy game's record went to the clipboard, and on the desktop to this file (empty:
    /// none).
    RecordCopied {
        saved_to: String,
    },
    /// Send's message went to the clipboard or the share sheet, and on the desktop to this
    /// file (empty: none).
    MessageShared {
        saved_to: String,
    },

    // ----- Review and analysis -----
    ReviewStep(ReviewStep),
    /// The move list's entry `index`.
    ReviewAt(i32),
    /// The position after the game's first `n` actions (the evaluation graph's points).
    ShowPosition(i32),
    /// The position after the next move the analysis calls a mistake or a blunder.
    NextMistake,
    Analyse,
    CancelAnalysis,
    /// The running analysis moved on to another action.
    AnalysisProgress,
    AnalysisDone(Box<GameAnalysis>),
    AnalysisFailed,

    // ----- New game and settings -----
    /// The new-game screen, to set up another game (this one is kept).
    SetUp,
    SetPlayers(i32),
    SetBothArmies(bool),
    SetSeatPlayer(i32, PlayerKind),
    SetFirstSeat(i32),
    SetEngineCommand(String),
    SetEngineMoveTime(i32),
    Start,
    Resume,
    DismissLoadProblems,
    SelectLanguage(i32),
    /// The system's language changed (a locale tag).
    SystemLanguage(String),
    SetTurning(BoardTurning),
    SetTheme(ThemeChoice),
    SetSound(bool),
    SetVibration(bool),

    // ----- Records -----
    /// Copy game, at this Unix time (the record's date and file name).
    CopyGame {
        unix_time: u64,
    },
    OpenImport,
    CloseImport,
    Import {
        text: String,
        review: bool,
    },

    // ----- Play by message (#40) -----
    /// The games by message read at start.
    GamesLoaded(Vec<crate::correspondence::CorrespondenceGame>),
    /// Send: the shown game's message with this first line, at this Unix time.
    SendMessage {
        header: String,
        unix_time: u64,
    },
    OpenReceive,
    CloseReceive,
    /// A pasted or shared text.
    Receive(String),
    /// The answer to "Start this game from …?".
    AnswerOffer(bool),
    /// The Games list's entry: a game by message's identifier, or empty for the game on
    /// this device.
    OpenGame(String),

    // ----- Play over the local network (#40) -----
    /// What the network game's link reported (the other device's moves, votes, undo
    /// requests, the connection).
    Nearby(Vec<crate::lan::LanEvent>),
    /// Join a game nearby…
    OpenJoin,
    CloseJoin,
    /// The hosts found on the network: their game and address.
    HostsFound(Vec<(crate::correspondence::GameId, std::net::SocketAddr)>),
    /// Join, with the code and the host's address as typed.
    JoinNearby {
        code: String,
        address: String,
    },
    /// The answer to the other device's request to take back moves.
    AnswerUndo(bool),
    /// Leave the network game: its other seats are played here.
    LeaveNearby,
    /// The host draws a new join code (#49).
    NewJoinCode,
    /// The host could not listen on the network (why).
    NearbyUnavailable(String),

    // ----- Train (#41): its board events are the board's, on the puzzle's own game -----
    /// The Train page, at the puzzle shown before or else the puzzle of the day (the UTC
    /// date: the same puzzle on every device at the same moment).
    OpenTrain {
        year: i32,
        month: u32,
        day: u32,
    },
    /// The puzzle of the day (the UTC date).
    TrainDaily {
        year: i32,
        month: u32,
        day: u32,
    },
    TrainNext(halma_ai::puzzles::Difficulty),
    TrainRetry,
    TrainHint,
    /// Practise your mistakes: the analysed game's mistakes as puzzles.
    PractiseMistakes,
    TrainNextMistake,
    /// What a wrong answer gives away, measured in the background.
    TrainLossMeasured {
        puzzle_id: String,
        played: halma_rules::Route,
        loss: Option<halma_ai::puzzles::WrongAnswer>,
    },

    // ----- The first-game guide (#39): its board events play the guide's own game -----
    /// How to play, from the menu (at a newcomer's first start it opens by itself).
    OpenGuide,
    SkipGuide,
    /// Done, at the guide's last step.
    FinishGuide,
}

impl Event {
    /// The event a button with no value sends by `name` (`Commands.run(name)` in a view),
    /// or `None` for a name no event has. Adding a button: ARCHITECTURE.md.
    pub fn command(name: &str) -> Option<Event> {
        COMMANDS.iter().find(|(known, _)| *known == name).map(|(_, event)| event())
    }

    /// True for what plays on the live game from the board: in review the board shows an
    /// earlier position and takes no moves, so the dispatch drops these. Listed without a
    /// catch-all, so that a new event must be placed on one side.
    pub fn plays_on_live_game(&self) -> bool {
        use Event::*;
        match self {
            Tap { .. } | Arrow { .. } | Enter | Confirm | Cancel | Hint | Undo | Redo | OfferDraw | AnswerDraw(_) => {
                true
            }
            TouchTap { .. } => true,
            // Only shows what a tap would choose.
            TouchHold { .. } | TouchHoldEnded => false,
            PickPiece(_) | PickDestination(_) => true,
            // They replace the game (review ends with it), look at it, or run beside it.
            Restored(_) | Begin(_) | ShowPage(_) | GoBack | Escape | Back | SetMenuOpen(_) | SetSummaryOpen(_) => false,
            Zoom { .. } | ZoomFit | Rotate { .. } | Panned { .. } | ViewportResized { .. } | Pinch { .. } => false,
            GestureEnded | Restart | NewGame | AnswerQuestion(_) | RetryComputer | StartProgram | PlayProgramSeat => {
                false
            }
            SearchFinished(_) | AnimationStep | SaveDue | Saved(_) | ReviewStep(_) | ReviewAt(_) | ShowPosition(_) => {
                false
            }
            NextMistake => false,
            Analyse | CancelAnalysis | AnalysisProgress | AnalysisDone(_) | AnalysisFailed => false,
            SetUp | SetPlayers(_) | SetBothArmies(_) | SetSeatPlayer(..) | SetFirstSeat(_) => false,
            SetEngineCommand(_) | SetEngineMoveTime(_) | Start | Resume | DismissLoadProblems => false,
            SelectLanguage(_) | SystemLanguage(_) | SetTurning(_) | SetTheme(_) => false,
            SetSound(_) | SetVibration(_) => false,
            CopyGame { .. } | RecordCopied { .. } | OpenImport | CloseImport | Import { .. } => false,
            // Received moves replace the game; Send reads it.
            GamesLoaded(_) | SendMessage { .. } | MessageShared { .. } | OpenReceive | CloseReceive | Receive(_) => {
                false
            }
            AnswerOffer(_) | OpenGame(_) => false,
            // The other device's news applies whatever this one shows.
            Nearby(_) | OpenJoin | CloseJoin | HostsFound(_) | JoinNearby { .. } | AnswerUndo(_) | LeaveNearby => false,
            NewJoinCode => false,
            NearbyUnavailable(_) => false,
            // The puzzle has its own game.
            OpenTrain { .. } | TrainDaily { .. } | TrainNext(_) | TrainRetry | TrainHint => false,
            PractiseMistakes | TrainNextMistake | TrainLossMeasured { .. } => false,
            // The guide has its own game.
            OpenGuide | SkipGuide | FinishGuide => false,
        }
    }
}

/// A name a view sends through `Commands.run`, and the event it stands for.
pub type Command = (&'static str, fn() -> Event);

/// The events the views send by name through `Commands.run` ([`Event::command`]).
pub const COMMANDS: &[Command] = &[("next-mistake", || Event::NextMistake)];

/// What `event` does to `state`, given what runs in the background (`facts`), and then
/// what every change brings ([`settle`]). Review's gate is the dispatch's, not this
/// function's.
pub fn update(state: &mut AppState, facts: &Facts, event: Event) -> Effects {
    let before = HistoryKey::of(&state.session);
    let effects = if state.guide.is_some() { guide::on_event(state, facts, event) } else { act(state, facts, event) };
    settle(state, facts, before, effects)
}

/// The tail of every event: the computers answer a draw offer, the board turns to the
/// seat to move, a copied record no longer speaks of a changed game, the shown game by
/// message takes the session's moves, and the seat to move is started when no person
/// plays it (a computer seat may first offer a draw when the game is stuck). An end that
/// the computers' votes bring is heard (the actions give the cues of their own ends).
fn settle(state: &mut AppState, facts: &Facts, before: HistoryKey, effects: Effects) -> Effects {
    let mut effects = effects;
    let was_over = state.session.game().is_over();
    state.session.resolve_computer_votes(halma_ai::should_accept_draw);
    let orientation = state.settings.orientation;
    state.session.apply_orientation(orientation);
    let searching = if effects.stop_search { None } else { facts.busy };
    if let Some(driven) = seat_to_start(state, searching == Some(JobKind::Computer), &mut effects) {
        effects.start_seat = Some(driven);
    }
    if HistoryKey::of(&state.session) != before {
        state.messages.copied = None;
    }
    state.by_message.sync(&state.session);
    if !was_over {
        effects.cues.extend(Cue::of_ending(state.session.game().outcome()));
    }
    effects
}

/// The driver to start for the seat to move, if no person plays it and nothing stops it
/// (a move being shown, a search of its own running, a failure waiting for Retry, the
/// guide, an engine program waiting for the player's Start). A computer seat may first
/// offer a draw when the game is stuck: the game then changed and is saved.
fn seat_to_start(state: &mut AppState, computer_searching: bool, effects: &mut Effects) -> Option<Driven> {
    let idle = state.animation.is_none() && !computer_searching;
    // The guide leaves the live game as it was: its seat waits for the guide to end.
    if !idle || !state.ui.has_game() || state.seat_failure.is_some() || state.guide.is_some() {
        return None;
    }
    if state.session.driven_to_move().is_none() || state.program_awaits_confirmation().is_some() {
        return None;
    }
    if state.session.computer_offers_draw(halma_ai::wants_draw) {
        state.session.resolve_computer_votes(halma_ai::should_accept_draw);
        effects.save = Save::Now;
        effects.redraw = Redraw::All;
    }
    // A person answers first (or everyone accepted).
    match state.session.driven_to_move() {
        Some(Player::Computer(level)) => Some(Driven::Computer(level)),
        Some(Player::Program) => Some(Driven::Program {
            command: state.settings.engine_command.clone(),
            move_time: Duration::from_millis(state.settings.engine_move_ms.into()),
        }),
        // A friend's move comes by message (`Event::Receive`), a nearby player's over the
        // network (`Event::Nearby`).
        Some(Player::Human | Player::Friend | Player::Nearby) | None => None,
    }
}

/// What `event` does, the guide aside (the guide runs its board's events through this).
fn act(state: &mut AppState, facts: &Facts, event: Event) -> Effects {
    use Event::*;
    if state.ui.page() == Page::Train && state.training.is_some() && train::is_board_event(&event) {
        return train::on_board(state, facts, event);
    }
    match event {
        Restored(started) => {
            let saved_game = started.session.is_some();
            let effects = pages::restored(state, *started).and(nearby::restored(state));
            effects.and(guide::at_start(state, saved_game))
        }
        Begin(session) => pages::begin_playing(state, *session),
        ShowPage(page) => pages::show_page(state, page),
        GoBack => pages::go_back(state),
        Escape => pages::escape(state, facts),
        Back => pages::back(state, facts),
        SetMenuOpen(open) => review::set_menu_open(state, open),
        SetSummaryOpen(open) => review::set_summary_open(state, open),

        Tap { x, y } => board::tap(state, x, y),
        TouchTap { x, y, square_dp } => board::touch_tap(state, x, y, square_dp),
        TouchHold { x, y, square_dp } => board::touch_hold(state, x, y, square_dp),
        TouchHoldEnded => board::touch_hold_ended(state),
        Arrow { dx, dy } => board::arrow(state, dx, dy),
        Enter => board::enter(state),
        Zoom { zoom_in, anchor_x, anchor_y } => board::zoom(state, zoom_in, anchor_x, anchor_y),
        ZoomFit => board::zoom_fit(state),
        Rotate { clockwise } => board::rotate(state, clockwise),
        Panned { x, y, width, height } => board::panned(state, x, y, width, height),
        ViewportResized { width, height } => board::viewport_resized(state, width, height),
        Pinch { zoom_factor, quarter_turn, anchor_x, anchor_y } => {
            board::pinch(state, zoom_factor, quarter_turn, anchor_x, anchor_y)
        }
        GestureEnded => board::gesture_ended(),

        Confirm => play::confirm(state),
        Cancel => play::cancel(state),
        Hint => play::hint(state, facts),
        Undo => undo(state),
        Redo => play::redo(state),
        OfferDraw => play::offer_draw(state),
        AnswerDraw(accept) => play::answer_draw(state, accept),
        // A game by message cannot start again: the other side knows its moves.
        Restart if state.by_message.active.is_some() => Effects::none(),
        NewGame if state.by_message.active.is_some() => pages::set_up(state),
        // Nor a network game: the other device plays it too. Once its link ended, its other
        // seats are played here first.
        Restart if state.nearby.as_ref().is_some_and(|nearby| nearby.is_live()) => Effects::none(),
        NewGame if state.nearby.as_ref().is_some_and(|nearby| nearby.is_live()) => pages::set_up(state),
        Restart if state.nearby.is_some() => nearby::leave(state).and(act(state, facts, Restart)),
        NewGame if state.nearby.is_some() => nearby::leave(state).and(act(state, facts, NewGame)),
        Restart => play::ask_unless_nothing_is_lost(state, crate::interface::Question::Restart),
        NewGame => play::ask_unless_nothing_is_lost(state, crate::interface::Question::NewGame),
        AnswerQuestion(yes) => play::answer_question(state, yes),
        PickPiece(index) => play::pick_piece(state, index),
        PickDestination(index) => play::pick_destination(state, index),
        RetryComputer => play::retry_computer(state),
        StartProgram => play::start_program(state),
        PlayProgramSeat => play::play_program_seat(state),
        SearchFinished(finished) => play::search_finished(state, finished),
        AnimationStep => play::animation_step(state),
        SaveDue => Effects::saved(),
        Saved(failure) => records::saved(state, failure),
        RecordCopied { saved_to } => records::copied(state, saved_to),
        MessageShared { saved_to } => correspondence::shared(state, saved_to),

        ReviewStep(step) => review::step(state, step),
        ReviewAt(index) => review::show_position(state, index.saturating_add(1)),
        ShowPosition(position) => review::show_position(state, position),
        NextMistake => review::next_mistake(state),
        Analyse => analysis::analyse(state, facts),
        CancelAnalysis => analysis::cancel(),
        AnalysisProgress => Effects::redraw(),
        AnalysisDone(analysed) => analysis::done(state, *analysed),
        AnalysisFailed => analysis::failed(state),

        SetUp => pages::set_up(state),
        SetPlayers(players) => pages::edit_form(state, |form| form.set_players(players)),
        SetBothArmies(both) => pages::edit_form(state, |form| form.set_both_armies(both)),
        SetSeatPlayer(seat, kind) => pages::set_seat_player(state, seat, kind),
        SetFirstSeat(index) => pages::set_first_seat(state, index),
        SetEngineCommand(command) => pages::edit_form(state, |form| form.set_command(&command)),
        SetEngineMoveTime(index) => pages::set_engine_move_time(state, index),
        Start => pages::start(state),
        Resume => pages::resume(state),
        DismissLoadProblems => pages::dismiss_load_problems(state),
        SelectLanguage(index) => pages::select_language(state, index),
        SystemLanguage(tag) => pages::system_language(state, &tag),
        SetTurning(turning) => pages::set_turning(state, turning),
        SetTheme(theme) => pages::set_theme(state, theme),
        SetSound(on) => pages::set_sound(state, on),
        SetVibration(on) => pages::set_vibration(state, on),

        CopyGame { unix_time } => records::copy_game(state, unix_time),
        OpenImport => records::open_import(state),
        CloseImport => records::close_import(state),
        Import { text, review } => records::import(state, &text, review),

        GamesLoaded(games) => correspondence::loaded(state, games),
        SendMessage { header, unix_time } => correspondence::send(state, &header, unix_time),
        OpenReceive => correspondence::open_receive(state),
        CloseReceive => correspondence::close_receive(state),
        Receive(text) => correspondence::receive(state, &text),
        AnswerOffer(yes) => correspondence::answer_offer(state, yes),
        OpenGame(id) => correspondence::open_game(state, &id),

        Nearby(events) => nearby::on_events(state, events),
        OpenJoin => nearby::open_join(state),
        CloseJoin => nearby::close_join(state),
        HostsFound(hosts) => nearby::hosts_found(state, hosts),
        JoinNearby { code, address } => nearby::join(state, &code, &address),
        AnswerUndo(yes) => nearby::answer_undo(state, yes),
        LeaveNearby => nearby::leave(state),
        NewJoinCode => nearby::new_code(state),
        NearbyUnavailable(why) => nearby::unavailable(state, &why),

        OpenTrain { year, month, day } => train::open(state, year, month, day, true),
        TrainDaily { year, month, day } => train::open(state, year, month, day, false),
        TrainNext(difficulty) => train::next(state, difficulty),
        TrainRetry => train::retry(state),
        TrainHint => train::hint(state),
        PractiseMistakes => train::practise(state),
        TrainNextMistake => train::next_mistake(state),
        TrainLossMeasured { puzzle_id, played, loss } => train::loss_measured(state, &puzzle_id, &played, loss),

        OpenGuide => guide::open(state),
        SkipGuide | FinishGuide => guide::close(state),
    }
}

/// Stops whatever moves or thinks before the game changes under it; a failed search was
/// for the position that goes.
fn interrupt(state: &mut AppState) -> Effects {
    state.animation = None;
    state.seat_failure = None;
    Effects { stop_search: true, ..Effects::none() }
}

/// Undo, by who else knows the game: a live network game asks the other device first, a
/// game by message keeps what the other side may know, any other takes back as ever.
fn undo(state: &mut AppState) -> Effects {
    if state.nearby.as_ref().is_some_and(crate::nearby::Nearby::is_live) {
        nearby::undo(state)
    } else if state.by_message.active.is_some() {
        correspondence::undo(state)
    } else {
        play::undo(state)
    }
}

/// The player said yes to replacing the unfinished game: what was held is done now.
fn replace_agreed(state: &mut AppState, replacement: Option<Replacement>) -> Effects {
    match replacement {
        Some(Replacement::Import { session, review }) => records::take_place(state, *session, review),
        Some(Replacement::Start) => pages::start_agreed(state),
        Some(Replacement::Join { code, addr }) => nearby::join_agreed(state, code, addr),
        None => Effects::redraw(),
    }
}

/// The network game's link ends (another game takes the board): its other seats are
/// played here from now on.
fn end_network_game(state: &mut AppState) -> Effects {
    nearby::detach(state)
}

/// Another game replaces the shown one (Start, an import, a tool's session): the game on
/// this device from now on; the games by message stay, a network game's link ends.
fn leave_other_devices(state: &mut AppState) -> Effects {
    correspondence::detach(state);
    nearby::detach(state)
}

/// Replaces the game by `session`, keeping the player's view of the board.
fn begin(state: &mut AppState, session: Session) -> Effects {
    let effects = interrupt(state);
    let view = *state.session.view();
    state.session = session.with_view(view);
    state.ui.game_begun();
    effects
}

/// Puts `session` over the shown game (`cover`, see `boards`), keeping the player's view
/// of the board: the game below waits untouched.
fn begin_covering(state: &mut AppState, cover: crate::boards::Cover, session: Session) -> Effects {
    let effects = interrupt(state);
    let view = *state.session.view();
    state.cover(cover, session.with_view(view));
    state.ui.game_begun();
    effects
}

/// Takes the game covering by `cover` off: the one below is shown again, seen through the
/// player's view of the board. Nothing happens when `cover` is not on top.
fn end_covering(state: &mut AppState, cover: crate::boards::Cover) -> Option<Effects> {
    let view = *state.session.view();
    state.boards.top_cover().filter(|&top| top == cover)?;
    let effects = interrupt(state);
    state.uncover(cover)?;
    state.session.set_view(view);
    state.ui.game_begun();
    Some(effects)
}

#[cfg(test)]
mod cue_tests;
#[cfg(test)]
mod tests;
