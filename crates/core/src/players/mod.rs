//! Who moves for a seat that no person plays at this screen: the built-in computer at a
//! level ([`Computer`]), or an engine program speaking `halma-engine`'s protocol
//! ([`Program`], docs/PROTOCOL.md). Both are [`SeatDriver`]s: started on a game, polled
//! until they answer, cancelled when the game changes under them. Nothing here knows the
//! window: the interface polls on its timer, tests poll in a loop.

mod background;
mod computer;
mod program;

pub use background::Background;
pub use computer::Computer;
pub use program::{program_name, Program};

use halma_ai::{Level, SearchMemory};
use halma_rules::{Action, Game, Seat};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// Why a seat's driver gave up, as the player hears it (translated in the window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The built-in computer's search ended without an action.
    Search,
    /// The engine program could not be started (no such program, no command line…).
    CannotStart,
    /// The engine program ended, or stopped reading or writing.
    Ended,
    /// The engine program answered something that is not a legal action here: an
    /// `error` line, a malformed line or a move the rules refuse.
    WrongAnswer,
    /// The engine program did not answer within its time and the grace after it.
    TooSlow,
}

/// A driver's failure: its kind for the player, and the details for the log (English,
/// never shown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub kind: FailureKind,
    pub reason: String,
}

impl Failure {
    pub fn new(kind: FailureKind, reason: impl Into<String>) -> Failure {
        Failure { kind, reason: reason.into() }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

/// Where a driver stands after a poll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Not started, or cancelled.
    Idle,
    Thinking,
    /// The action for the game it was started on (not yet checked against the rules by
    /// the caller, who plays it).
    Chose(Action),
    /// No answer will come: the seat waits for the player's Retry instead of thinking
    /// forever. The kind is told to the player, the reason goes to the log.
    Failed(Failure),
}

/// A seat's driver: one search or question at a time.
pub trait SeatDriver {
    /// Starts choosing the action of `game`'s seat to move, within `limit` (None: the
    /// driver's own budget). Anything still running is cancelled first.
    fn start(&mut self, game: &Game, limit: Option<Duration>);
    /// The answer once there; `Thinking` until then.
    fn poll(&mut self) -> Turn;
    /// Stops the running search; its answer, if one still comes, is dropped.
    fn cancel(&mut self);
}

/// Who drives a seat, as the game's configuration and the settings say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Driven {
    Computer(Level),
    /// An engine program, by its command line, with its time for each move.
    Program {
        command: String,
        move_time: Duration,
    },
}

/// The drivers of the seats of one window or tool: at most one thinks at a time. A
/// driver stays from move to move while its seat keeps the same player (the computer's
/// kept table, the program's process).
#[derive(Default)]
pub struct Seats {
    drivers: [Option<(Driven, Box<dyn SeatDriver>)>; 4],
    /// Master's transposition table, shared by the computer seats.
    memory: Arc<SearchMemory>,
    /// The seat thinking and the number of actions in the game it thinks about.
    thinking: Option<(Seat, usize)>,
}

impl Seats {
    /// Starts `driven` on `game` for its seat to move.
    pub fn start(&mut self, driven: Driven, game: &Game) {
        self.cancel();
        let seat = game.to_move();
        let slot = &mut self.drivers[seat.index()];
        if slot.as_ref().is_none_or(|(current, _)| *current != driven) {
            let driver: Box<dyn SeatDriver> = match &driven {
                Driven::Computer(level) => Box::new(Computer::new(*level, Arc::clone(&self.memory))),
                Driven::Program { command, .. } => Box::new(Program::new(command)),
            };
            *slot = Some((driven, driver));
        }
        if let Some((driven, driver)) = slot {
            let limit = match driven {
                Driven::Program { move_time, .. } => Some(*move_time),
                Driven::Computer(_) => None,
            };
            driver.start(game, limit);
            self.thinking = Some((seat, game.history().len()));
        }
    }

    /// The seat thinking, if any.
    pub fn thinking(&self) -> Option<Seat> {
        self.thinking.map(|(seat, _)| seat)
    }

    /// The thinking seat's answer once there, with the number of actions the game had
    /// when it started (the caller drops an answer for a position that has changed).
    pub fn poll(&mut self) -> Option<(usize, Turn)> {
        let (seat, plies) = self.thinking?;
        let (_, driver) = self.drivers[seat.index()].as_mut()?;
        match driver.poll() {
            Turn::Thinking => None,
            turn => {
                self.thinking = None;
                Some((plies, turn))
            }
        }
    }

    /// Stops whatever thinks (undo, a new game, leaving the game).
    pub fn cancel(&mut self) {
        if let Some((seat, _)) = self.thinking.take() {
            if let Some((_, driver)) = self.drivers[seat.index()].as_mut() {
                driver.cancel();
            }
        }
    }
}
