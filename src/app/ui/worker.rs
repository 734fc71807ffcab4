//! Searches (the computer's moves and hints) on a worker thread, so that the interface
//! stays responsive. A search is stopped when its job is dropped: undo, a new game or
//! leaving the game cancel it, and a result for a position that has changed is dropped.

use crate::ai;
use crate::rules::{Action, Game};
use slint::{Timer, TimerMode};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The computer waits at least this long before moving, so a person sees it coming.
const COMPUTER_PAUSE: Duration = Duration::from_millis(450);
/// How often a running search is checked for its result.
const POLL_TIME: Duration = Duration::from_millis(25);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// A computer seat chooses its action.
    Computer,
    /// A hint for the person to move.
    Hint,
}

/// The result of a search that has finished.
pub struct Finished {
    pub kind: JobKind,
    /// Number of actions in the game when the search started.
    pub plies: usize,
    /// The action found (`None`: the search found none), or `Err` when the search
    /// failed (it panicked): the caller tells the player instead of waiting forever.
    pub action: Result<Option<Action>, SearchFailed>,
}

/// A search ended without an answer because its thread failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchFailed;

/// What a search thread leaves for the UI thread.
type Slot = Arc<Mutex<Option<Result<Option<Action>, SearchFailed>>>>;

/// A search running on a worker thread.
struct Job {
    kind: JobKind,
    stop: Arc<AtomicBool>,
    result: Slot,
    plies: usize,
    /// Polls left before the computer may move (its visible pause).
    pause_polls: u32,
}

impl Drop for Job {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// At most one search at a time, polled from the UI thread by a timer.
#[derive(Default)]
pub struct Worker {
    job: RefCell<Option<Job>>,
    poll_timer: Timer,
    /// Master's transposition table, kept from one computer move to the next.
    memory: Arc<ai::SearchMemory>,
}

impl Worker {
    /// Which search is running, if any.
    pub fn busy(&self) -> Option<JobKind> {
        self.job.borrow().as_ref().map(|job| job.kind)
    }

    /// Starts `search` on `game` on a new thread; `poll` is called on the UI thread
    /// every few milliseconds until the job is taken or cancelled.
    pub fn start(
        &self,
        kind: JobKind,
        game: Game,
        search: impl FnOnce(Game, Arc<AtomicBool>) -> Option<Action> + Send + 'static,
        poll: impl FnMut() + 'static,
    ) {
        let stop = Arc::new(AtomicBool::new(false));
        let result: Slot = Arc::new(Mutex::new(None));
        let plies = game.history().len();
        let (thread_stop, thread_result) = (stop.clone(), result.clone());
        let spawned = std::thread::Builder::new().name("halma-search".into()).stack_size(8 << 20).spawn(move || {
            // A panic ends this search only: it is reported as a failure, never as
            // "still thinking".
            let action = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| search(game, thread_stop)))
                .map_err(|_| SearchFailed);
            if let Ok(mut slot) = thread_result.lock() {
                *slot = Some(action);
            }
        });
        if let Err(error) = spawned {
            eprintln!("halma: could not start a search thread: {error}");
            // Reported as a failed search at the first poll.
            if let Ok(mut slot) = result.lock() {
                *slot = Some(Err(SearchFailed));
            }
        }
        let pause_polls =
            if kind == JobKind::Computer { (COMPUTER_PAUSE.as_millis() / POLL_TIME.as_millis()) as u32 } else { 0 };
        *self.job.borrow_mut() = Some(Job { kind, stop, result, plies, pause_polls });
        self.poll_timer.start(TimerMode::Repeated, POLL_TIME, poll);
    }

    /// Starts the computer's search for the seat to move in `game`.
    pub fn start_computer(&self, game: Game, level: ai::Level, poll: impl FnMut() + 'static) {
        let seed = game.history().len() as u64;
        let memory = Arc::clone(&self.memory);
        self.start(
            JobKind::Computer,
            game,
            move |game, stop| {
                let request = ai::SearchRequest { seed, ..ai::SearchRequest::new(level) };
                ai::choose_action_remembering(&game, &request, &stop, &memory, &mut |_| {})
            },
            poll,
        );
    }

    /// Stops the running search, if any.
    pub fn cancel(&self) {
        self.job.borrow_mut().take();
        self.poll_timer.stop();
    }

    /// The finished search's result, once it is there and the computer's pause is over.
    pub fn take_finished(&self) -> Option<Finished> {
        let mut slot = self.job.borrow_mut();
        let Some(job) = slot.as_mut() else {
            self.poll_timer.stop();
            return None;
        };
        job.pause_polls = job.pause_polls.saturating_sub(1);
        if job.pause_polls > 0 {
            return None;
        }
        // A poisoned lock means the search thread panicked: a failed search.
        let ready = job.result.lock().map(|mut result| result.take()).unwrap_or(Some(Err(SearchFailed)));
        let action = ready?;
        let finished = Finished { kind: job.kind, plies: job.plies, action };
        slot.take();
        self.poll_timer.stop();
        Some(finished)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Seat, Setup};
    use std::time::Instant;

    /// Polls `worker` as its timer would, for at most five seconds.
    fn wait_for(worker: &Worker) -> Option<Finished> {
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Some(finished) = worker.take_finished() {
                return Some(finished);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    }

    #[test]
    fn a_search_that_panics_is_reported_as_failed_not_as_thinking() {
        i_slint_backend_testing::init_no_event_loop();
        let worker = Worker::default();
        let game = Game::new(Setup::TwoPlayers, Seat::A);
        worker.start(JobKind::Hint, game.clone(), |_, _| panic!("a search that fails"), || {});
        assert_eq!(worker.busy(), Some(JobKind::Hint));
        let finished = wait_for(&worker).map(|finished| (finished.kind, finished.action));
        assert_eq!(finished, Some((JobKind::Hint, Err(SearchFailed))));
        assert_eq!(worker.busy(), None, "nothing is left thinking");

        // The next search on the same worker runs as usual.
        worker.start(JobKind::Hint, game, |_, _| Some(Action::Pass), || {});
        let finished = wait_for(&worker).map(|finished| finished.action);
        assert_eq!(finished, Some(Ok(Some(Action::Pass))));
    }
}
