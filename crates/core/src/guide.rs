//! The first-game guide (#39 item 5): a short walk-through on the real board, one step
//! at a time, each waiting for the player to do it: select a piece, preview a step,
//! confirm it, a jump, a chain that turns, cutting a chain back, the goal (a move into
//! the target camp), Undo and the menu.
//!
//! A pure state machine: the guide plays on its own session, built from positions
//! prepared here (every seat a person's), never the player's game and never saved. After
//! each event the interface hands it back and the guide looks at it ([`Guide::observe`]):
//! a step is done when the session shows what the step asks for (a piece selected, a
//! step previewed, a move played...), and a step whose ground went away (the selection
//! dropped) goes back one. No Slint, no I/O.

use super::interaction::Interaction;
use super::session::{GameConfig, Player, Session};
use halma_rules::{parse_hpn, Action, Game, Position, Seat, Setup, Square};

/// The guide's steps, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Tap one of your pieces.
    Select,
    /// Tap a square next to it: a step is previewed, nothing moves.
    PreviewStep,
    /// Confirm plays the preview.
    Confirm,
    /// Preview a jump over a neighbour.
    Jump,
    /// Jump on from the landing, turning.
    Chain,
    /// Tap an earlier landing: the chain is cut back there.
    CutBack,
    /// Move a piece into the target camp (the camps and the goal).
    Goal,
    /// Undo takes the move back.
    Undo,
    /// Open the "⋯" menu, and close it again.
    Menu,
    /// The end: the player is ready.
    Done,
}

impl Step {
    pub const ALL: [Step; 10] = [
        Step::Select,
        Step::PreviewStep,
        Step::Confirm,
        Step::Jump,
        Step::Chain,
        Step::CutBack,
        Step::Goal,
        Step::Undo,
        Step::Menu,
        Step::Done,
    ];

    /// The step's number, from 1.
    pub fn number(self) -> usize {
        Step::ALL.iter().position(|&step| step == self).map_or(1, |index| index + 1)
    }

    /// The lesson (prepared position) the step plays on.
    fn lesson(self) -> Lesson {
        match self {
            Step::Select | Step::PreviewStep | Step::Confirm => Lesson::Moves,
            Step::Jump | Step::Chain | Step::CutBack => Lesson::Jumps,
            Step::Goal | Step::Undo | Step::Menu | Step::Done => Lesson::Goal,
        }
    }
}

/// Where the card points the player: squares of the board, the action bar (Confirm,
/// Undo) or its "⋯" button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pointer {
    Board,
    Bar,
    Menu,
}

/// The prepared positions, two players, Blue (A) to move from the bottom left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lesson {
    /// Three Blue pieces in their home camp with room to step, Red's army at home.
    Moves,
    /// Blue on c3 can jump over d4 to e5, on over f5 to g5 and over g6 to g7: a chain
    /// that turns twice, over Red's pieces.
    Jumps,
    /// Late in a race: Blue's piece on m13 is a step from its target camp.
    Goal,
}

impl Lesson {
    fn hpn(self) -> &'static str {
        match self {
            Lesson::Moves => "11CCCCC/11CCCCC/12CCCC/13CCC/14CC/16/16/16/16/16/16/16/1A14/16/1A1A12/16 A 2p 0",
            Lesson::Jumps => "11CCCCC/11CCCCC/12CCCC/14CC/16/16/16/16/16/16/6C9/5C10/3C12/2A13/16/16 A 2p 0",
            Lesson::Goal => "11AAAAA/14AA/16/12A3/16/16/16/16/16/16/16/16/16/C15/CC14/CCCC12 A 2p 0",
        }
    }

    /// The lesson's game, every seat a person's (nothing thinks, nothing is saved).
    fn session(self) -> Session {
        let config = GameConfig { setup: Setup::TwoPlayers, first: Seat::A, players: [Player::Human; 4].into() };
        let position = parse_hpn(self.hpn()).unwrap_or_else(|_| Position::start(Setup::TwoPlayers, Seat::A));
        Session::with_game(config, Game::from_position(position)).unwrap_or_else(|_| Session::new(config))
    }
}

/// What the guide sees of the interface besides its session, after each event.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// The "⋯" menu is open.
    pub menu_open: bool,
    /// A move is being shown hop by hop (the next position waits for it to end).
    pub animating: bool,
}

/// The guide: its step, its own session and what the steps remember.
#[derive(Clone, Debug)]
pub struct Guide {
    step: Step,
    session: Session,
    /// The longest chain previewed since the cut-back step began: a cut is a strict
    /// beginning of it.
    chain: Vec<Square>,
    /// The session's actions when the Undo step began.
    actions_at_step: usize,
    /// The player played a move the step did not ask for: its position was set up again.
    retry: bool,
    /// A lesson's position to set up once the move being shown has arrived.
    waiting: Option<Lesson>,
    /// The menu was opened at the menu step (closing it again ends the step).
    menu_opened: bool,
    /// The chain was cut back: the cut chain is shown until it is played, then the goal.
    cut: bool,
}

impl Default for Guide {
    fn default() -> Guide {
        Guide::new()
    }
}

impl Guide {
    /// The guide at its first step.
    pub fn new() -> Guide {
        Guide {
            step: Step::Select,
            session: Lesson::Moves.session(),
            chain: Vec::new(),
            actions_at_step: 0,
            retry: false,
            waiting: None,
            menu_opened: false,
            cut: false,
        }
    }

    pub fn step(&self) -> Step {
        self.step
    }

    /// True when the last move played was not what the step asked for (its position
    /// was set up again).
    pub fn retry(&self) -> bool {
        self.retry
    }

    /// True at the cut-back step once the chain was cut: the card asks to play the cut chain.
    pub fn cut(&self) -> bool {
        self.step == Step::CutBack && self.cut
    }

    /// The guide's own game: what the board shows and plays while the guide is open.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The guide's game, for the board's actions to run on.
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// Looks at the session after an event: the step is done, or went back, or waits.
    pub fn observe(&mut self, seen: Seen) {
        if let Some(lesson) = self.waiting {
            if !seen.animating {
                self.waiting = None;
                self.set_up(lesson);
            }
            return;
        }
        // One event may do more than one step (a chain that turns is also a jump).
        for _ in 0..Step::ALL.len() {
            if self.waiting.is_some() || !self.advance(seen) {
                break;
            }
        }
    }

    /// One change of step, if the session calls for it; true when the step changed.
    fn advance(&mut self, seen: Seen) -> bool {
        let interaction = self.session.interaction();
        let route = interaction.route.clone();
        let jumps = interaction.preview_jumps();
        let selected = interaction.selected.is_some();
        let previewed = interaction.has_preview();
        let actions = self.session.game().history().len();
        let played = actions > 0;
        let next = match self.step {
            Step::Select | Step::PreviewStep if played => return self.again(),
            Step::Select if selected => Step::PreviewStep,
            Step::PreviewStep if previewed && jumps == 0 => Step::Confirm,
            Step::PreviewStep if !selected => Step::Select,
            Step::Confirm if played => {
                self.waiting = Some(Lesson::Jumps);
                Step::Jump
            }
            Step::Confirm if !previewed => Step::PreviewStep,
            // The cut chain played: the player saw the cut, then the move; the goal next.
            Step::CutBack if played && self.cut => {
                self.cut = false;
                self.waiting = Some(Lesson::Goal);
                Step::Goal
            }
            Step::Jump | Step::Chain | Step::CutBack if played => return self.again(),
            Step::Jump if jumps >= 1 => Step::Chain,
            Step::Chain if turns(&route) => {
                self.chain = route;
                Step::CutBack
            }
            Step::Chain if jumps == 0 => Step::Jump,
            Step::CutBack if route.len() >= 2 && route.len() < self.chain.len() && self.chain.starts_with(&route) => {
                // Cut: the shorter chain stays on the board, to be confirmed.
                self.cut = true;
                return false;
            }
            Step::CutBack if jumps == 0 => {
                self.cut = false;
                Step::Jump
            }
            Step::CutBack => {
                self.cut = false;
                // A longer or another chain: the cut is measured against it.
                if turns(&route) && route != self.chain {
                    self.chain = route;
                }
                return false;
            }
            Step::Goal => match self.session.game().history().last() {
                Some(Action::Move(played)) if target_camp().contains(played.to()) => {
                    self.actions_at_step = actions;
                    Step::Undo
                }
                Some(_) => return self.again(),
                None => return false,
            },
            Step::Undo if actions < self.actions_at_step => Step::Menu,
            Step::Menu if seen.menu_open => {
                self.menu_opened = true;
                return false;
            }
            Step::Menu if self.menu_opened => Step::Done,
            _ => return false,
        };
        self.step = next;
        self.retry = false;
        true
    }

    /// A move the step did not ask for: the lesson's position again from its first step,
    /// once the move has been shown.
    fn again(&mut self) -> bool {
        let lesson = self.step.lesson();
        self.step = match lesson {
            Lesson::Moves => Step::Select,
            Lesson::Jumps => Step::Jump,
            Lesson::Goal => Step::Goal,
        };
        self.waiting = Some(lesson);
        self.retry = true;
        self.cut = false;
        false
    }

    /// The lesson's position, seen through the board's view as the player left it.
    fn set_up(&mut self, lesson: Lesson) {
        let view = *self.session.view();
        self.session = lesson.session().with_view(view);
        self.chain.clear();
    }

    /// The squares the card points at: the pieces to select, the jump to make, where a
    /// chain goes on, the landings to cut back to, the piece to bring home.
    pub fn marks(&self) -> Vec<Square> {
        if self.waiting.is_some() {
            return Vec::new();
        }
        let session = &self.session;
        let game = session.game();
        let interaction = session.interaction();
        match self.step {
            Step::Select => Interaction::movable_pieces(game),
            Step::Jump => {
                let position = game.position();
                let jumper = Interaction::movable_pieces(game)
                    .into_iter()
                    .find(|&from| !position.jump_destinations(from).is_empty());
                jumper
                    .into_iter()
                    .flat_map(|from| [Some(from), position.jump_destinations(from).first()])
                    .flatten()
                    .collect()
            }
            Step::Chain => interaction.extensions(game).squares().collect(),
            Step::CutBack if self.cut => Vec::new(),
            Step::CutBack => {
                let route = &interaction.route;
                route.get(1..route.len().saturating_sub(1)).map(<[Square]>::to_vec).unwrap_or_default()
            }
            Step::Goal if game.history().is_empty() => {
                let home = target_camp();
                game.position().pieces(Seat::A).squares().filter(|&square| !home.contains(square)).collect()
            }
            _ => Vec::new(),
        }
    }

    /// What the card points at now.
    pub fn pointer(&self) -> Pointer {
        match self.step {
            Step::Confirm | Step::Undo => Pointer::Bar,
            Step::CutBack if self.cut => Pointer::Bar,
            Step::Menu => Pointer::Menu,
            _ => Pointer::Board,
        }
    }
}

/// Blue's target camp: the corner across the board.
fn target_camp() -> halma_rules::Bitboard {
    Setup::TwoPlayers.target_camp(Seat::A)
}

/// True for a chain of two jumps or more that changes direction at a landing.
fn turns(route: &[Square]) -> bool {
    let direction =
        |from: Square, to: Square| ((to.column() - from.column()).signum(), (to.row() - from.row()).signum());
    route.len() >= 3 && route.windows(3).any(|hops| direction(hops[0], hops[1]) != direction(hops[1], hops[2]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use halma_rules::sq;

    fn still() -> Seen {
        Seen::default()
    }

    fn tap(guide: &mut Guide, name: &str) {
        guide.session_mut().tap(sq(name));
        guide.observe(still());
    }

    fn confirm(guide: &mut Guide) {
        assert!(guide.session_mut().confirm().is_ok(), "confirmed at {:?}", guide.step());
        // The move is shown hop by hop first: the next position waits for it.
        guide.observe(Seen { animating: true, ..still() });
        guide.observe(still());
    }

    /// Every prepared position is what its lesson says.
    #[test]
    fn the_lessons_positions_parse_and_offer_what_they_teach() {
        for lesson in [Lesson::Moves, Lesson::Jumps, Lesson::Goal] {
            assert!(parse_hpn(lesson.hpn()).is_ok(), "{lesson:?}");
        }
        let moves = Lesson::Moves.session();
        let position = moves.game().position();
        assert_eq!(Interaction::movable_pieces(moves.game()), vec![sq("b2"), sq("d2"), sq("b4")]);
        for piece in [sq("b2"), sq("d2"), sq("b4")] {
            assert!(position.jump_destinations(piece).is_empty(), "only steps in the first lesson");
            assert!(!position.step_destinations(piece).is_empty());
        }
        let jumps = Lesson::Jumps.session();
        let position = jumps.game().position();
        assert_eq!(position.jump_destinations(sq("c3")).squares().collect::<Vec<_>>(), [sq("e5"), sq("g5"), sq("g7")]);
        let goal = Lesson::Goal.session();
        assert_eq!(goal.game().position().pieces(Seat::A).count(), 8);
        assert!(goal.game().position().winners().is_none());
    }

    /// The whole guide, done as a newcomer does it.
    #[test]
    fn each_step_is_done_by_its_own_action() {
        let mut guide = Guide::new();
        assert_eq!((guide.step(), guide.marks()), (Step::Select, vec![sq("b2"), sq("d2"), sq("b4")]));
        // An empty square does nothing.
        tap(&mut guide, "h8");
        assert_eq!(guide.step(), Step::Select);
        tap(&mut guide, "d2");
        assert_eq!(guide.step(), Step::PreviewStep);
        tap(&mut guide, "e3");
        assert_eq!((guide.step(), guide.pointer()), (Step::Confirm, Pointer::Bar));
        confirm(&mut guide);
        assert_eq!(guide.step(), Step::Jump);
        assert!(guide.session().game().history().is_empty(), "the jumps' own position");
        assert_eq!(guide.marks(), [sq("c3"), sq("e5")]);
        tap(&mut guide, "c3");
        assert_eq!(guide.step(), Step::Jump, "a selection is not a jump");
        tap(&mut guide, "e5");
        assert_eq!((guide.step(), guide.marks()), (Step::Chain, vec![sq("g5")]));
        tap(&mut guide, "g5");
        assert_eq!(guide.step(), Step::CutBack);
        tap(&mut guide, "g7");
        assert_eq!((guide.step(), guide.marks()), (Step::CutBack, vec![sq("e5"), sq("g5")]), "a longer chain");
        tap(&mut guide, "g5");
        // The cut chain stays on the board until it is played: the cut is seen.
        assert_eq!((guide.step(), guide.cut(), guide.pointer()), (Step::CutBack, true, Pointer::Bar));
        assert_eq!(guide.session().interaction().route, [sq("c3"), sq("e5"), sq("g5")]);
        confirm(&mut guide);
        assert_eq!(guide.step(), Step::Goal);
        assert_eq!(guide.marks(), [sq("m13")]);
        tap(&mut guide, "m13");
        tap(&mut guide, "n14");
        confirm(&mut guide);
        assert_eq!((guide.step(), guide.pointer()), (Step::Undo, Pointer::Bar));
        assert!(guide.session_mut().undo());
        guide.observe(still());
        assert_eq!((guide.step(), guide.pointer()), (Step::Menu, Pointer::Menu));
        guide.observe(still());
        assert_eq!(guide.step(), Step::Menu, "waits for the menu");
        guide.observe(Seen { menu_open: true, ..still() });
        assert_eq!(guide.step(), Step::Menu, "open: the card waits under it");
        guide.observe(still());
        assert_eq!(guide.step(), Step::Done, "closed again");
        assert_eq!(Step::Done.number(), Step::ALL.len());
    }

    /// A step whose ground went away goes back; moves the step did not ask for set its
    /// position up again.
    #[test]
    fn steps_go_back_and_wrong_moves_are_tried_again() {
        let mut guide = Guide::new();
        tap(&mut guide, "b2");
        tap(&mut guide, "b2");
        assert_eq!(guide.step(), Step::Select, "the piece put down again");
        tap(&mut guide, "b2");
        tap(&mut guide, "c3");
        assert_eq!(guide.step(), Step::Confirm);
        assert!(guide.session_mut().cancel());
        guide.observe(still());
        assert_eq!(guide.step(), Step::PreviewStep, "the preview dropped");

        // Straight to a far landing: a jump and a chain that turns at once.
        let mut guide = Guide::new();
        tap(&mut guide, "b2");
        tap(&mut guide, "c3");
        confirm(&mut guide);
        tap(&mut guide, "c3");
        tap(&mut guide, "g7");
        assert_eq!(guide.step(), Step::CutBack);
        // Cutting back to the start drops the chain: the jump again.
        tap(&mut guide, "c3");
        assert_eq!(guide.step(), Step::Jump);
        // A step played instead of a jump (c3 is still selected): the position again, told.
        tap(&mut guide, "c4");
        confirm(&mut guide);
        assert_eq!((guide.step(), guide.retry()), (Step::Jump, true));
        assert!(guide.session().game().history().is_empty());
        tap(&mut guide, "c3");
        tap(&mut guide, "e5");
        assert_eq!((guide.step(), guide.retry()), (Step::Chain, false));
        tap(&mut guide, "g5");
        tap(&mut guide, "e5");
        assert_eq!((guide.step(), guide.cut()), (Step::CutBack, true), "cut back to the first landing");
        confirm(&mut guide);
        assert_eq!(guide.step(), Step::Goal);
        // A move that stays outside the target camp.
        tap(&mut guide, "m13");
        tap(&mut guide, "l12");
        confirm(&mut guide);
        assert_eq!((guide.step(), guide.retry()), (Step::Goal, true));
        assert_eq!(guide.session().game().position().piece_at(sq("m13")), Some(Seat::A));
    }

    /// A settings file from before the guide has no `guide_seen`: not seen (the start then
    /// opens the guide only for a player without a saved game).
    #[test]
    fn settings_from_before_the_guide_read_as_not_seen() {
        let old: Result<crate::settings::Settings, _> = serde_json::from_str(r#"{"language": "fr"}"#);
        assert!(old.is_ok_and(|settings| !settings.guide_seen));
        let seen = crate::settings::Settings { guide_seen: true, ..Default::default() };
        let text = serde_json::to_string(&seen).unwrap_or_default();
        let back: Result<crate::settings::Settings, _> = serde_json::from_str(&text);
        assert!(back.is_ok_and(|settings| settings.guide_seen));
    }

    #[test]
    fn a_chain_turns_only_where_its_direction_changes() {
        let route = |names: &[&str]| names.iter().map(|name| sq(name)).collect::<Vec<_>>();
        assert!(turns(&route(&["c3", "e5", "g5"])));
        assert!(!turns(&route(&["c3", "e5", "g7"])));
        assert!(!turns(&route(&["c3", "d4"])));
    }

    #[test]
    fn the_view_is_kept_from_lesson_to_lesson() {
        let mut guide = Guide::new();
        guide.session_mut().rotate_view(true);
        let view = *guide.session().view();
        tap(&mut guide, "b2");
        tap(&mut guide, "c3");
        confirm(&mut guide);
        assert_eq!(guide.step(), Step::Jump);
        assert_eq!(*guide.session().view(), view);
    }
}
