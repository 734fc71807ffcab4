//! The game in progress as the app holds it: who plays each seat, the rules game, the
//! local player's selection and the board view. Pure state with the app's actions
//! (confirm, undo against the computer, restart, draw votes...), saved as one document.

use super::interaction::{Interaction, TapResult};
use super::view::{BoardView, Orientation};
use halma_ai::analysis::{ActionAnalysis, GameAnalysis, Quality};
use halma_ai::Level;
use halma_record::{parse_verdict_comment, verdict_comment, SeatPlayer};
use halma_rules::{Action, BySeat, Game, GameError, Outcome, Seat, SeatSet, Setup, Square, VoteResult};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Player {
    Human,
    Computer(Level),
    /// An engine program speaking `halma-engine`'s protocol (desktop only). Its command
    /// line is a setting ([`Settings::engine_command`](super::settings::Settings::engine_command)), so that a game saved with it
    /// loads again as long as the settings do.
    Program,
    /// A friend on another device, by message (#40): this device never moves for the
    /// seat; its actions arrive in a received message (`app::correspondence`).
    Friend,
    /// A player on another device nearby, over the local network (#40): this device never
    /// moves for the seat; its actions arrive over the link (`app::lan`).
    Nearby,
}

impl Player {
    /// The player as a game record names it; `program` is the engine program's command line.
    pub fn recorded(self, program: &str) -> SeatPlayer {
        match self {
            // A friend by message or nearby is a person, wherever they play.
            Player::Human | Player::Friend | Player::Nearby => SeatPlayer::Human,
            Player::Computer(level) => SeatPlayer::Computer(level),
            Player::Program => SeatPlayer::Program(program.trim().to_string()),
        }
    }
}

/// A record's player as the app can seat it: another program (an arena's `Program`)
/// cannot play in the app and is given back as the error.
impl TryFrom<SeatPlayer> for Player {
    type Error = SeatPlayer;

    fn try_from(player: SeatPlayer) -> Result<Player, SeatPlayer> {
        match player {
            SeatPlayer::Human => Ok(Player::Human),
            SeatPlayer::Computer(level) => Ok(Player::Computer(level)),
            program @ SeatPlayer::Program(_) => Err(program),
        }
    }
}

/// Whether this build offers engine programs as players: on the desktop, not on Android
/// (where an app cannot start other programs).
pub const PROGRAMS_OFFERED: bool = !cfg!(target_os = "android");

/// The choices of the new-game screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameConfig {
    pub setup: Setup,
    pub first: Seat,
    /// Who plays each seat; seats not in play are ignored.
    pub players: BySeat<Player>,
}

impl Default for GameConfig {
    fn default() -> GameConfig {
        GameConfig {
            setup: Setup::TwoPlayers,
            first: Seat::A,
            players: BySeat::new([Player::Human, Player::Human, Player::Computer(Level::Casual), Player::Human]),
        }
    }
}

impl GameConfig {
    pub fn player(&self, seat: Seat) -> Player {
        self.players[seat]
    }

    /// The seats in play that people play.
    pub fn human_seats(&self) -> SeatSet {
        self.players.seats_where(self.setup.seats(), |&player| player == Player::Human)
    }

    /// Where engine programs are not offered (Android), their seats go to people: a
    /// configuration read from a file then plays here.
    pub fn seat_programs_here(&mut self) {
        if !PROGRAMS_OFFERED {
            for player in &mut self.players {
                if *player == Player::Program {
                    *player = Player::Human;
                }
            }
        }
    }

    /// The seats in play that a friend plays by message (none: a game on this device).
    pub fn friend_seats(&self) -> SeatSet {
        self.players.seats_where(self.setup.seats(), |&player| player == Player::Friend)
    }

    /// The seats in play that a player on another device nearby plays (none: no network).
    pub fn nearby_seats(&self) -> SeatSet {
        self.players.seats_where(self.setup.seats(), |&player| player == Player::Nearby)
    }

    pub fn has_computer(&self) -> bool {
        self.setup.seats().iter().any(|&s| self.player(s) != Player::Human)
    }
}

/// Something worth telling the player after an action, shown until the next one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Notice {
    None,
    /// A seat had no legal move and passed.
    Passed(Seat),
    /// A seat refused the draw offer; the offerer's turn goes on.
    DrawRefused(Seat),
    /// Nothing left to undo (for the local players).
    NothingToUndo,
    /// The move was refused by the rules (should not happen through the interface).
    Refused,
    /// An imported record's game came without its analysis: its comments could not be read.
    AnalysisUnreadable,
}

/// Why the session refused an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// The game is over: nothing more can be played or offered.
    GameOver,
    /// It is not a local person's turn: a computer seat moves, or a draw vote is pending.
    NotYourTurn,
    /// Nothing is previewed, or the previewed route cannot end the move here.
    NothingToConfirm,
    /// The seats given do not match the game's setup.
    SeatsDoNotMatch,
    /// The rules refused it.
    Rules(GameError),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::GameOver => f.write_str("the game is over"),
            SessionError::NotYourTurn => f.write_str("it is not a local player's turn"),
            SessionError::NothingToConfirm => f.write_str("no complete move is previewed"),
            SessionError::SeatsDoNotMatch => f.write_str("the seats do not match the game's setup"),
            SessionError::Rules(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for SessionError {}

impl From<GameError> for SessionError {
    fn from(error: GameError) -> SessionError {
        match error {
            GameError::GameOver => SessionError::GameOver,
            other => SessionError::Rules(other),
        }
    }
}

/// The game in progress. The fields are private so that every change goes through
/// the methods below, which keep the selection, the notice and the forced passes in
/// step with the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Session {
    config: GameConfig,
    game: Game,
    interaction: Interaction,
    view: BoardView,
    #[serde(default = "no_notice")]
    notice: Notice,
    /// The game's analysis as it is saved: each action's verdict in the words of a game
    /// record's comments (docs/RECORDS.md). Older saves have none.
    #[serde(default, rename = "analysis", skip_serializing_if = "Option::is_none")]
    kept: Option<KeptAnalysis>,
    /// The game's analysis, whole (rebuilt from `kept` by `validated` after loading);
    /// always of the game as it is: a change to the history drops it.
    #[serde(skip)]
    analysis: Option<GameAnalysis>,
    /// An analysis that an undo set aside, as saved: it comes back when redo (or the same
    /// moves played again) makes the history its game's again.
    #[serde(default, rename = "analysis_set_aside", skip_serializing_if = "Option::is_none")]
    kept_aside: Option<KeptAnalysis>,
    /// The analysis set aside, whole; dropped once the history leaves its game's path.
    #[serde(skip)]
    aside: Option<GameAnalysis>,
}

fn no_notice() -> Notice {
    Notice::None
}

/// An analysis in the save: its depth and one verdict per action, as a record's comment
/// states it (`mistake, 7.0 steps lost, best n15-l13-j15, before +12.0, after +5.0`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct KeptAnalysis {
    depth: u32,
    verdicts: Vec<String>,
}

impl KeptAnalysis {
    fn of(analysis: &GameAnalysis) -> KeptAnalysis {
        KeptAnalysis {
            depth: analysis.quality.depth,
            verdicts: analysis.actions.iter().map(|entry| verdict_comment(&entry.verdict)).collect(),
        }
    }

    /// The whole analysis of `game` these verdicts state, if they fit it.
    fn rebuild(&self, game: &Game) -> Option<GameAnalysis> {
        let history = game.history();
        if self.verdicts.len() != history.len() {
            return None;
        }
        let mut actions = Vec::with_capacity(history.len());
        for (index, (action, text)) in history.iter().zip(&self.verdicts).enumerate() {
            let verdict = parse_verdict_comment(text)?;
            actions.push(ActionAnalysis { index, seat: game.actor(index), action: action.clone(), verdict });
        }
        GameAnalysis::from_verdicts(game, Quality { depth: self.depth }, actions)
    }
}

impl Session {
    /// A new game as configured; the seat-to-move's forced passes are played.
    pub fn new(config: GameConfig) -> Session {
        let first = if config.setup.has_seat(config.first) { config.first } else { config.setup.seats()[0] };
        Session::playing(GameConfig { first, ..config }, Game::new(config.setup, first))
    }

    /// A game already under way (a position reached elsewhere), played by `config`'s
    /// seats. The configuration's setup and first seat must be the game's.
    pub fn with_game(config: GameConfig, game: Game) -> Result<Session, SessionError> {
        if config.setup != game.setup() {
            return Err(SessionError::SeatsDoNotMatch);
        }
        Ok(Session::playing(GameConfig { first: game.first_seat(), ..config }, game))
    }

    /// `game` played by `config`'s seats, with a fresh selection and view.
    fn playing(config: GameConfig, game: Game) -> Session {
        let mut session = Session {
            config,
            game,
            interaction: Interaction::default(),
            view: BoardView::default(),
            notice: Notice::None,
            kept: None,
            analysis: None,
            kept_aside: None,
            aside: None,
        };
        session.after_change();
        session
    }

    /// Checks a session read from a file: its game was already replayed and checked
    /// move by move when it was parsed; the rest must fit it.
    ///
    /// Everything that can be repaired is: the view is brought back into range
    /// ([`BoardView::repair`]), the first seat is the game's, a notice about a seat not in
    /// play is dropped, and a selection or preview that does not fit the position is
    /// dropped (as after any change); where engine programs are not offered (Android), a
    /// program's seat goes to a person. A setup that is not the game's cannot be repaired.
    pub fn validated(mut self) -> Result<Session, SessionError> {
        if self.config.setup != self.game.setup() {
            return Err(SessionError::SeatsDoNotMatch);
        }
        self.config.first = self.game.first_seat();
        self.config.seat_programs_here();
        self.view.repair();
        let setup = self.config.setup;
        self.notice = match self.notice {
            Notice::Passed(seat) | Notice::DrawRefused(seat) if !setup.has_seat(seat) => Notice::None,
            notice => notice,
        };
        let can_act = self.human_can_act();
        self.interaction.revalidate(&self.game, can_act);
        // An analysis that does not fit the game is dropped, not the game.
        self.analysis = self.kept.as_ref().and_then(|kept| kept.rebuild(&self.game));
        if self.analysis.is_none() {
            self.kept = None;
        }
        // A set-aside analysis is of the game with its redo list played again.
        let mut redone = self.game.clone();
        while redone.redo() {}
        self.aside = self.kept_aside.as_ref().and_then(|kept| kept.rebuild(&redone));
        self.aside = self.aside.take().filter(|aside| analysis_continues(aside, &self.game));
        if self.aside.is_none() {
            self.kept_aside = None;
        }
        Ok(self)
    }

    /// The game as it stood after its first `actions` actions, for review. It is a copy:
    /// the game, its undo/redo history, the preview and the save are untouched; the view
    /// (zoom, rotation) is shared, so that it works in review too.
    pub fn reviewing(&self, actions: usize) -> Session {
        let mut game = self.game.clone();
        while game.history().len() > actions && game.undo() {}
        Session {
            config: self.config,
            game,
            interaction: Interaction::default(),
            view: self.view,
            notice: Notice::None,
            kept: None,
            analysis: None,
            kept_aside: None,
            aside: None,
        }
    }

    /// The analysis of the game as it is, if there is one.
    pub fn analysis(&self) -> Option<&GameAnalysis> {
        self.analysis.as_ref()
    }

    /// Keeps `analysis` with the game (and in its save) when it is this game's: one
    /// verdict for each action of its history. Returns whether it was kept.
    pub fn set_analysis(&mut self, analysis: GameAnalysis) -> bool {
        if !analysis_fits(&analysis, &self.game) {
            return false;
        }
        self.kept = Some(KeptAnalysis::of(&analysis));
        self.analysis = Some(analysis);
        true
    }

    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The local player's selection, preview and keyboard cursor.
    pub fn interaction(&self) -> &Interaction {
        &self.interaction
    }

    pub fn view(&self) -> &BoardView {
        &self.view
    }

    pub fn notice(&self) -> Notice {
        self.notice
    }

    /// Tells the player, until the next action, that an imported game's analysis could
    /// not be read.
    pub fn note_unreadable_analysis(&mut self) {
        self.notice = Notice::AnalysisUnreadable;
    }

    /// The same session seen through `view` (a new game keeps the player's zoom and turn).
    pub fn with_view(self, view: BoardView) -> Session {
        Session { view, ..self }
    }

    /// Sees the session through `view` from now on.
    pub fn set_view(&mut self, view: BoardView) {
        self.view = view;
    }

    /// The seat to move, or `None` when the game is over.
    pub fn seat_to_move(&self) -> Option<Seat> {
        (!self.game.is_over()).then(|| self.game.to_move())
    }

    /// The built-in computer's level when it should think now.
    pub fn computer_to_move(&self) -> Option<Level> {
        match self.driven_to_move()? {
            Player::Computer(level) => Some(level),
            Player::Human | Player::Program | Player::Friend | Player::Nearby => None,
        }
    }

    /// The player of the seat to move when no person plays it and it should act now
    /// (the built-in computer or an engine program).
    pub fn driven_to_move(&self) -> Option<Player> {
        if self.game.is_over() || self.game.pending_offer().is_some() {
            return None;
        }
        Some(self.config.player(self.game.to_move())).filter(|&player| player != Player::Human)
    }

    /// The seat to move, if an engine program plays it, goes to a person here (the player
    /// chose to play it rather than start the program). True if it changed.
    pub fn seat_person_to_move(&mut self) -> bool {
        let seat = self.game.to_move();
        if self.config.player(seat) != Player::Program {
            return false;
        }
        self.config.players[seat] = Player::Human;
        self.after_change();
        true
    }

    /// Every seat `away` plays goes to the people here (a network game whose other device
    /// left, or that lost its link).
    pub fn seat_people_here(&mut self, away: Player) {
        for player in &mut self.config.players {
            if *player == away {
                *player = Player::Human;
            }
        }
        self.after_change();
    }

    /// True when the local player may select and move pieces now.
    pub fn human_can_act(&self) -> bool {
        !self.game.is_over()
            && self.game.pending_offer().is_none()
            && self.config.player(self.game.to_move()) == Player::Human
    }

    /// The human seat whose draw vote is awaited, if any.
    pub fn human_vote_awaited(&self) -> Option<Seat> {
        let offer = self.game.pending_offer()?;
        (self.config.player(offer.awaiting) == Player::Human).then_some(offer.awaiting)
    }

    /// The computer seat whose draw vote is awaited, if any (a friend's vote comes by
    /// message).
    pub fn computer_vote_awaited(&self) -> Option<Seat> {
        let offer = self.game.pending_offer()?;
        matches!(self.config.player(offer.awaiting), Player::Computer(_) | Player::Program).then_some(offer.awaiting)
    }

    /// Plays forced passes and keeps the selection consistent. Call after any change.
    fn after_change(&mut self) {
        let before = self.game.history().len();
        if self.game.play_forced_passes() > 0 {
            if let Some(index) = (before..self.game.history().len()).last() {
                self.notice = Notice::Passed(self.game.actor(index));
            }
        }
        let can_act = self.human_can_act();
        self.interaction.revalidate(&self.game, can_act);
        if self.analysis.as_ref().is_some_and(|analysis| !analysis_fits(analysis, &self.game)) {
            // Undone moves: the analysis waits for redo. Anything else ends it.
            self.aside = self.analysis.take();
            self.kept_aside = self.kept.take();
        }
        if self.aside.as_ref().is_some_and(|aside| analysis_fits(aside, &self.game)) {
            self.analysis = self.aside.take();
            self.kept = self.kept_aside.take();
        } else if self.aside.as_ref().is_some_and(|aside| !analysis_continues(aside, &self.game)) {
            self.aside = None;
        }
        if self.aside.is_none() {
            self.kept_aside = None;
        }
    }

    /// Turns the board to face the seat to move when that option is on.
    pub fn apply_orientation(&mut self, orientation: Orientation) {
        if orientation == Orientation::FaceSeatToMove {
            let seat = self.game.to_move();
            self.view.set_quarter_turns(BoardView::quarter_turns_facing(seat));
        }
    }

    /// A tap on a board square.
    pub fn tap(&mut self, square: Square) -> TapResult {
        let can_act = self.human_can_act();
        self.interaction.tap(&self.game, square, can_act)
    }

    /// Enter on the keyboard cursor's square: the same as a tap there.
    pub fn enter(&mut self) -> TapResult {
        let can_act = self.human_can_act();
        self.interaction.enter(&self.game, can_act)
    }

    /// Moves the keyboard cursor by an arrow key's direction on screen.
    pub fn move_cursor(&mut self, screen_dx: i32, screen_dy: i32) {
        let (columns, rows) = self.view.screen_to_board_direction(screen_dx, screen_dy);
        self.interaction.move_cursor(columns, rows);
    }

    /// Picks entry `index` of the movable pieces' list (as a tap on that piece).
    pub fn pick_piece(&mut self, index: usize) -> TapResult {
        if !self.human_can_act() {
            return TapResult::Nothing;
        }
        self.interaction.pick_piece(&self.game, index)
    }

    /// Picks entry `index` of the selected piece's destinations (previews its route).
    pub fn pick_destination(&mut self, index: usize) -> TapResult {
        if !self.human_can_act() {
            return TapResult::Nothing;
        }
        self.interaction.pick_destination(&self.game, index)
    }

    /// Drops the preview, or else the selection; false when there was neither.
    pub fn cancel(&mut self) -> bool {
        self.interaction.cancel()
    }

    /// Drops the selection and the preview.
    pub fn clear_selection(&mut self) {
        self.interaction.clear();
    }

    /// Shows a hint's route as a preview labelled as a suggestion.
    pub fn show_hint(&mut self, route: &[Square]) -> bool {
        self.human_can_act() && self.interaction.show_hint(&self.game, route)
    }

    /// Zooms by `factor` around a point given as fractions of the view.
    pub fn zoom_view(&mut self, factor: f32, anchor_x: f32, anchor_y: f32) {
        self.view.zoom_around(factor, anchor_x, anchor_y);
    }

    /// The whole board in view.
    pub fn fit_view(&mut self) {
        self.view.fit();
    }

    /// Turns the board a quarter turn.
    pub fn rotate_view(&mut self, clockwise: bool) {
        self.view.rotate(clockwise);
    }

    /// The view was panned: the content offset and the viewport's size.
    pub fn pan_view(&mut self, content_x: f32, content_y: f32, width: f32, height: f32) {
        self.view.set_content_offset(content_x, content_y, width, height);
    }

    /// Plays the previewed move (the "confirm ends the jump chain" rule).
    pub fn confirm(&mut self) -> Result<Action, SessionError> {
        if self.game.is_over() {
            return Err(SessionError::GameOver);
        }
        if !self.human_can_act() {
            return Err(SessionError::NotYourTurn);
        }
        if !self.interaction.can_confirm(&self.game) {
            return Err(SessionError::NothingToConfirm);
        }
        let route = self.interaction.route.clone();
        self.play_route(&route)
    }

    /// Plays a route for the seat to move (human confirm or computer move).
    pub fn play_route(&mut self, route: &[Square]) -> Result<Action, SessionError> {
        self.game.play_route(route)?;
        self.notice = Notice::None;
        self.interaction.clear();
        let action = self.game.history().last().cloned().unwrap_or(Action::Pass);
        self.after_change();
        Ok(action)
    }

    /// Plays an action chosen by a computer seat.
    pub fn play_action(&mut self, action: &Action) -> Result<(), SessionError> {
        match action {
            Action::Move(route) => self.play_route(route.squares()).map(|_| ()),
            Action::Pass => {
                self.game.pass()?;
                self.notice = Notice::Passed(self.game.actor(self.game.history().len().saturating_sub(1)));
                self.after_change();
                Ok(())
            }
        }
    }

    /// Undo as docs/RULES.md says ("Undo and redo"): against the computer, back to just before the last
    /// human action (the computer's replies go too); otherwise one action. Forced
    /// passes are skipped so the player lands where they can move again.
    pub fn undo(&mut self) -> bool {
        let humans = self.config.human_seats();
        let grouped = self.config.has_computer() && !humans.is_empty();
        let mut changed = false;
        loop {
            let step = if grouped { self.game.undo_for(humans) } else { self.game.undo() };
            if !step {
                break;
            }
            changed = true;
            let forced_pass = self.game.must_pass();
            if !forced_pass {
                break;
            }
        }
        self.notice = if changed { Notice::None } else { Notice::NothingToUndo };
        self.interaction.clear();
        self.after_change();
        changed
    }

    /// Redo: one action; against the computer, up to the next human turn.
    pub fn redo(&mut self) -> bool {
        if !self.game.redo() {
            return false;
        }
        while self.config.has_computer() && !self.human_can_act() && self.game.redo() {}
        self.notice = Notice::None;
        self.interaction.clear();
        self.after_change();
        true
    }

    pub fn can_undo(&self) -> bool {
        let humans = self.config.human_seats();
        if self.config.has_computer() && !humans.is_empty() {
            (0..self.game.history().len()).any(|i| humans.contains(self.game.actor(i)))
                || self.game.pending_offer().is_some()
        } else {
            self.game.can_undo()
        }
    }

    /// True while the game has moves to lose: started and not over. Restart and New
    /// game ask before replacing such a game.
    pub fn is_unfinished(&self) -> bool {
        !self.game.is_over() && !self.game.history().is_empty()
    }

    /// True when the person to move may offer a draw now.
    pub fn can_offer_draw(&self) -> bool {
        self.human_can_act() && self.game.can_offer_draw()
    }

    /// The configuration that New game starts: this one with the first seat rotated.
    pub fn next_config(&self) -> GameConfig {
        GameConfig { first: self.config.setup.next_seat(self.game.first_seat()), ..self.config }
    }

    /// The same setup from its start, same first seat.
    pub fn restart(&mut self) {
        let view = self.view;
        *self = Session::new(self.config);
        self.view = view;
    }

    /// The same setup with the first seat rotated to the next seat in play.
    pub fn new_game(&mut self) {
        let view = self.view;
        *self = Session::new(self.next_config());
        self.view = view;
    }

    /// The human seat to move offers a draw.
    pub fn offer_draw(&mut self) -> Result<(), SessionError> {
        if self.game.is_over() {
            return Err(SessionError::GameOver);
        }
        if !self.human_can_act() {
            return Err(SessionError::NotYourTurn);
        }
        self.game.offer_draw()?;
        self.interaction.clear();
        self.notice = Notice::None;
        Ok(())
    }

    /// A computer seat to move offers a draw when `wants` says the game is stuck
    /// (once per turn). True when the offer was made.
    pub fn computer_offers_draw(&mut self, wants: impl Fn(&Game) -> bool) -> bool {
        if self.computer_to_move().is_none() || !self.game.can_offer_draw() || !wants(&self.game) {
            return false;
        }
        self.game.offer_draw().is_ok()
    }

    /// The seat to move offers a draw from another device (its player is not here).
    pub fn remote_offers_draw(&mut self) -> Result<(), SessionError> {
        self.game.offer_draw()?;
        self.interaction.clear();
        self.notice = Notice::None;
        Ok(())
    }

    /// Takes back actions until `to` remain, as the two devices of a network game agreed
    /// (the position is replayed from the start: nothing of the undone moves is kept).
    pub fn take_back_to(&mut self, to: usize) -> Result<(), SessionError> {
        let mut game = Game::from_position(*self.game.start_position());
        for action in self.game.history().iter().take(to) {
            game.play_action(action)?;
        }
        self.game = game;
        self.notice = Notice::None;
        self.interaction.clear();
        self.after_change();
        Ok(())
    }

    /// A seat answers the pending offer.
    pub fn answer_draw(&mut self, seat: Seat, accept: bool) -> Result<VoteResult, SessionError> {
        let result = self.game.answer_draw(seat, accept)?;
        if result == VoteResult::Refused {
            self.notice = Notice::DrawRefused(seat);
        }
        self.after_change();
        Ok(result)
    }

    /// Lets computer seats answer a pending offer by `judge` (accept?), in turn order,
    /// until a human must answer or the vote is over.
    pub fn resolve_computer_votes(&mut self, judge: impl Fn(&Game, Seat) -> bool) {
        while let Some(seat) = self.computer_vote_awaited() {
            let accept = judge(&self.game, seat);
            if self.answer_draw(seat, accept).is_err() {
                break;
            }
        }
    }

    /// Pieces of `seat`'s army standing in its target camp.
    pub fn pieces_home(&self, seat: Seat) -> u32 {
        let position = self.game.position();
        (position.pieces(seat) & self.config.setup.target_camp(seat)).count()
    }

    pub fn outcome(&self) -> Outcome {
        self.game.outcome()
    }
}

/// True when `game`'s history is the start of `analysis`'s game: undone moves, that redo
/// or the same moves again would complete.
fn analysis_continues(analysis: &GameAnalysis, game: &Game) -> bool {
    analysis.actions.len() > game.history().len()
        && analysis.actions.iter().zip(game.history()).all(|(entry, action)| entry.action == *action)
}

/// True when `analysis` has one verdict for each action of `game`'s history, in order.
fn analysis_fits(analysis: &GameAnalysis, game: &Game) -> bool {
    analysis.actions.len() == game.history().len()
        && analysis.actions.iter().zip(game.history()).all(|(entry, action)| entry.action == *action)
}

/// Which history a picture was made for: its length, the Zobrist keys of its first and
/// last positions, and which analysis of it there is (its depth). Two histories of one
/// length between the same two positions are told apart by chance alone (64-bit keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryKey {
    actions: usize,
    start: u64,
    end: u64,
    analysis: Option<u32>,
}

impl HistoryKey {
    pub fn of(session: &Session) -> HistoryKey {
        let game = session.game();
        HistoryKey {
            actions: game.history().len(),
            start: game.start_position().hash(),
            end: game.position().hash(),
            analysis: session.analysis().map(|analysis| analysis.quality.depth),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use halma_rules::sq;

    fn versus_computer() -> Session {
        Session::new(GameConfig {
            setup: Setup::TwoPlayers,
            first: Seat::A,
            players: [Player::Human, Player::Human, Player::Computer(Level::Greedy), Player::Human].into(),
        })
    }

    #[test]
    fn undo_against_the_computer_takes_its_reply_too() {
        let mut session = versus_computer();
        session.tap(sq("e2"));
        session.tap(sq("f3"));
        assert!(session.confirm().is_ok());
        assert_eq!(session.computer_to_move(), Some(Level::Greedy));
        assert!(session.play_action(&Action::Move(halma_rules::Route::new(vec![sq("m15"), sq("m13")]))).is_ok());
        assert_eq!(session.game.history().len(), 2);
        assert!(session.undo());
        assert_eq!(session.game.history().len(), 0);
        assert!(session.human_can_act());
        assert!(!session.undo());
        assert_eq!(session.notice, Notice::NothingToUndo);
        assert!(session.redo());
        assert_eq!(session.game.history().len(), 2, "redo replays up to the human's next turn");
    }

    #[test]
    fn review_shows_an_earlier_position_and_changes_nothing() {
        let mut session = Session::new(GameConfig { setup: Setup::TwoPlayers, ..GameConfig::default() });
        for (from, to) in [("e2", "f3"), ("m15", "l14"), ("d2", "d4")] {
            assert!(session.play_route(&[sq(from), sq(to)]).is_ok(), "{from}-{to}");
        }
        let before = session.clone();
        let shown = session.reviewing(1);
        assert_eq!(shown.game().history().len(), 1);
        assert_eq!(shown.game().history()[0].to_string(), "e2-f3");
        assert_eq!(shown.game().to_move(), Seat::C, "C was to move after A's first move");
        assert_eq!(shown.view(), session.view());
        assert_eq!(session, before, "the game is untouched");
        assert_eq!(session.reviewing(0).game().position(), session.game().start_position());
        assert_eq!(session.reviewing(99).game(), session.game(), "past the end: the live game");
    }

    #[test]
    fn new_game_rotates_the_first_seat_and_restart_keeps_it() {
        let mut session = Session::new(GameConfig { setup: Setup::ThreePlayers, first: Seat::B, ..Default::default() });
        session.restart();
        assert_eq!(session.game.first_seat(), Seat::B);
        session.new_game();
        assert_eq!(session.game.first_seat(), Seat::C);
        session.new_game();
        assert_eq!(session.game.first_seat(), Seat::A);
    }

    #[test]
    fn computer_votes_follow_the_judge() {
        let mut session = Session::new(GameConfig {
            setup: Setup::ThreePlayers,
            first: Seat::A,
            players: [Player::Human, Player::Computer(Level::Greedy), Player::Human, Player::Human].into(),
        });
        assert!(session.offer_draw().is_ok());
        session.resolve_computer_votes(|_, _| true);
        assert_eq!(session.human_vote_awaited(), Some(Seat::C));
        assert_eq!(session.answer_draw(Seat::C, false), Ok(VoteResult::Refused));
        assert_eq!(session.notice, Notice::DrawRefused(Seat::C));
        assert!(session.human_can_act());
        assert!(session.offer_draw().is_err(), "one offer per turn");
    }

    /// A friend by message is a person elsewhere: nothing here moves or votes for them.
    #[test]
    fn a_friends_seat_waits_for_their_message() {
        let mut session = Session::new(GameConfig {
            setup: Setup::TwoPlayers,
            first: Seat::A,
            players: [Player::Human, Player::Human, Player::Friend, Player::Human].into(),
        });
        assert_eq!(session.config().friend_seats(), SeatSet::single(Seat::C));
        assert_eq!(Player::Friend.recorded(""), SeatPlayer::Human);
        assert!(session.offer_draw().is_ok());
        session.resolve_computer_votes(|_, _| true);
        assert_eq!(session.computer_vote_awaited(), None);
        assert_eq!(session.game().pending_offer().map(|offer| offer.awaiting), Some(Seat::C), "still awaited");
        assert_eq!(session.answer_draw(Seat::C, false), Ok(VoteResult::Refused));
        assert_eq!(session.computer_to_move(), None);
        assert!(session.human_can_act());
    }

    /// The analysis is saved with the game, rebuilt whole on loading, dropped when the
    /// game changes under it or when the save's verdicts do not fit the game.
    #[test]
    fn the_analysis_is_kept_with_its_game_only() {
        use halma_ai::analysis::{self, AnalysisRequest};
        let mut session = Session::new(GameConfig { setup: Setup::TwoPlayers, ..GameConfig::default() });
        for (from, to) in [("e2", "f3"), ("m15", "l14"), ("d2", "d4")] {
            assert!(session.play_route(&[sq(from), sq(to)]).is_ok(), "{from}-{to}");
        }
        let request = AnalysisRequest::new(Quality::QUICK).with_threads(1);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let analysis = analysis::analyse(session.game(), &request, &stop, &mut |_, _| {});
        let analysis = analysis.unwrap_or_else(|error| panic!("{error}"));
        let mut other = session.clone();
        assert!(other.undo());
        assert!(!other.set_analysis(analysis.clone()), "another game's analysis is refused");
        assert!(session.set_analysis(analysis.clone()));
        let text = serde_json::to_string(&session).unwrap_or_default();
        assert!(text.contains("steps lost"), "saved in the record's words: {text}");
        let back: Result<Session, _> = serde_json::from_str(&text);
        let back = back.ok().and_then(|back| back.validated().ok());
        assert_eq!(back.as_ref().and_then(Session::analysis), Some(&analysis));
        assert_eq!(back, Some(session.clone()));
        let broken = text.replacen("steps lost", "steps", 1);
        let back: Result<Session, _> = serde_json::from_str(&broken);
        let back = back.ok().and_then(|back| back.validated().ok());
        assert_eq!(back.map(|back| (back.analysis().is_none(), back.game().history().len())), Some((true, 3)));
        let old = serde_json::to_string(&Session::new(GameConfig::default())).unwrap_or_default();
        assert!(!old.contains("analysis"), "no analysis, nothing written");
        assert!(session.undo());
        assert_eq!(session.analysis(), None, "undo sets it aside: it is not of this game");
        let aside = serde_json::to_string(&session).unwrap_or_default();
        assert!(aside.contains("analysis_set_aside") && !aside.contains("\"analysis\""), "{aside}");
        // Redo brings it back, also after a restart in between.
        let mut restarted: Session = serde_json::from_str::<Session>(&aside)
            .ok()
            .and_then(|back| back.validated().ok())
            .unwrap_or_else(|| Session::new(GameConfig::default()));
        assert_eq!(restarted.game().history().len(), 2);
        for session in [&mut session, &mut restarted] {
            assert!(session.redo());
            assert_eq!(session.analysis(), Some(&analysis), "redo restores it");
            assert!(serde_json::to_string(&*session).unwrap_or_default().contains("\"analysis\""));
        }
        // Another move than the analysed one leaves its game for good.
        assert!(session.undo());
        assert!(session.play_route(&[sq("d2"), sq("e3")]).is_ok());
        assert_eq!(session.analysis(), None);
        assert!(session.undo());
        assert!(session.play_route(&[sq("d2"), sq("d4")]).is_ok());
        assert_eq!(session.analysis(), None, "dropped once the history left its game");
        assert!(!serde_json::to_string(&session).unwrap_or_default().contains("analysis"));
    }

    #[test]
    fn sessions_round_trip_through_json() {
        let mut session = versus_computer();
        session.tap(sq("e2"));
        session.tap(sq("f3"));
        session.view.zoom_around(2.0, 0.3, 0.7);
        let text = serde_json::to_string(&session).unwrap_or_default();
        let back: Result<Session, _> = serde_json::from_str(&text);
        assert_eq!(back.ok(), Some(session));
    }
}
