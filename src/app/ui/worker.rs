//! The UI thread's side of thinking: a timer that polls the seats' drivers
//! (`app::players`) and the hint's search, so the window stays responsive. What thinks
//! and how lives in `app::players`; here is only when to look, and the computer's
//! visible pause.
use halma_core::jobs::{Finished, JobKind};
use halma_core::players::{Background, Driven, Seats, Turn};
use halma_rules::Game;
use slint::{Timer, TimerMode};
use std::cell::{Cell, RefCell};
use std::time::Duration;

/// The computer waits at least this long before moving, so a person sees it coming.
pub const COMPUTER_PAUSE: Duration = Duration::from_millis(450);
/// How often a running search is checked for its result.
const POLL_TIME: Duration = Duration::from_millis(25);

/// At most one search at a time (a seat's or the hint's), polled by a timer.
#[derive(Default)]
pub struct Worker {
    seats: RefCell<Seats>,
    hint: RefCell<Option<(usize, Background)>>,
    /// Polls left before a seat's answer may be played (its visible pause).
    pause_polls: Cell<u32>,
    timer: Timer,
}

impl Worker {
    /// Which search is running, if any.
    pub fn busy(&self) -> Option<JobKind> {
        if self.seats.borrow().thinking().is_some() {
            Some(JobKind::Computer)
        } else {
            self.hint.borrow().as_ref().map(|_| JobKind::Hint)
        }
    }

    /// Starts the driver of `game`'s seat to move; `poll` runs on the UI thread every few
    /// milliseconds until the answer is taken or the search cancelled.
    pub fn start_seat(&self, driven: Driven, game: &Game, poll: impl FnMut() + 'static) {
        self.cancel();
        self.seats.borrow_mut().start(driven, game);
        self.pause_polls.set((COMPUTER_PAUSE.as_millis() / POLL_TIME.as_millis()) as u32);
        self.timer.start(TimerMode::Repeated, POLL_TIME, poll);
    }

    /// Starts the hint's search for `game`'s seat to move.
    pub fn start_hint(&self, game: Game, poll: impl FnMut() + 'static) {
        self.cancel();
        let plies = game.history().len();
        let search = Background::spawn(move |stop| Ok(halma_ai::hint(&game, stop)));
        *self.hint.borrow_mut() = Some((plies, search));
        self.pause_polls.set(0);
        self.timer.start(TimerMode::Repeated, POLL_TIME, poll);
    }

    /// Stops the running search, if any.
    pub fn cancel(&self) {
        self.seats.borrow_mut().cancel();
        self.hint.borrow_mut().take();
        self.timer.stop();
    }

    /// The finished search's result, once it is there and the computer's pause is over.
    pub fn take_finished(&self) -> Option<Finished> {
        self.pause_polls.set(self.pause_polls.get().saturating_sub(1));
        if self.pause_polls.get() > 0 {
            return None;
        }
        let finished = if let Some((plies, turn)) = self.seats.borrow_mut().poll() {
            Some(Finished { kind: JobKind::Computer, plies, turn })
        } else {
            let mut hint = self.hint.borrow_mut();
            match hint.as_ref().map(|(plies, search)| (*plies, search.poll())) {
                Some((_, Turn::Thinking)) => None,
                Some((plies, turn)) => {
                    hint.take();
                    Some(Finished { kind: JobKind::Hint, plies, turn })
                }
                None => None,
            }
        };
        if finished.is_some() || self.busy().is_none() {
            self.timer.stop();
        }
        finished
    }
}
