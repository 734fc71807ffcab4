//! What a wrong answer on the Train page gives away, measured at the puzzles' verification
//! depth on a background thread: in a debug build the search takes too long for the
//! interface's thread, and the player sees the verdict at once and the figure a moment later.

use halma_ai::puzzles::{Puzzle, WrongAnswer, VERIFY_DEPTH};
use halma_rules::{Move, Route};
use slint::{Timer, TimerMode};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// How often the interface's thread looks for the answer.
const POLL_TIME: Duration = Duration::from_millis(40);

/// The measure of one wrong answer: which puzzle and move it is for, and its answer.
pub struct Measured {
    pub puzzle_id: String,
    pub played: Route,
    /// `None`: nothing to tell (a forced result in the way, or no loss at this depth).
    pub loss: Option<WrongAnswer>,
}

struct Job {
    puzzle_id: String,
    played: Route,
    stop: Arc<AtomicBool>,
    answer: mpsc::Receiver<Option<WrongAnswer>>,
}

impl Drop for Job {
    /// A measure no one waits for any more stops its search.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// At most one measure at a time: a newer wrong answer replaces the older's.
#[derive(Default)]
pub struct LossMeasure {
    job: RefCell<Option<Job>>,
    timer: Timer,
}

impl LossMeasure {
    /// Starts measuring `played` in `puzzle`; `poll` runs on the interface's thread until
    /// [`LossMeasure::take_finished`] gives the answer.
    pub fn start(&self, puzzle: Puzzle, played: Route, poll: impl FnMut() + 'static) {
        let stop = Arc::new(AtomicBool::new(false));
        let (sender, answer) = mpsc::channel();
        let job = Job { puzzle_id: puzzle.id.clone(), played: played.clone(), stop: Arc::clone(&stop), answer };
        let mv = Move { from: played.from(), to: played.to() };
        let spawned = std::thread::Builder::new().name("puzzle-loss".into()).spawn(move || {
            let loss = puzzle.loss_of(mv, VERIFY_DEPTH, &stop).filter(|wrong| wrong.loss.0 > 0);
            // The page may have moved on: no one listening is not an error.
            let _ = sender.send(loss);
        });
        if spawned.is_err() {
            // No thread: the verdict stands without its figure.
            return;
        }
        *self.job.borrow_mut() = Some(job);
        self.timer.start(TimerMode::Repeated, POLL_TIME, poll);
    }

    /// The finished measure, once it is there.
    pub fn take_finished(&self) -> Option<Measured> {
        let mut job = self.job.borrow_mut();
        let answer = match job.as_ref()?.answer.try_recv() {
            Ok(loss) => loss,
            Err(mpsc::TryRecvError::Empty) => return None,
            Err(mpsc::TryRecvError::Disconnected) => None,
        };
        self.timer.stop();
        let done = job.take()?;
        Some(Measured { puzzle_id: done.puzzle_id.clone(), played: done.played.clone(), loss: answer })
    }
}
