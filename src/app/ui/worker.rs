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
    pub action: Option<Action>,
}

/// A search running on a worker thread.
struct Job {
    kind: JobKind,
    stop: Arc<AtomicBool>,
    result: Arc<Mutex<Option<Option<Action>>>>,
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
        let result = Arc::new(Mutex::new(None));
        let plies = game.history().len();
        let (thread_stop, thread_result) = (stop.clone(), result.clone());
        let spawned = std::thread::Builder::new().name("halma-search".into()).stack_size(8 << 20).spawn(move || {
            let action = search(game, thread_stop);
            if let Ok(mut slot) = thread_result.lock() {
                *slot = Some(action);
            }
        });
        if let Err(error) = spawned {
            eprintln!("halma: could not start a search thread: {error}");
            return;
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
        // A poisoned lock means the search thread panicked: finish with no action.
        let ready = job.result.lock().map(|mut result| result.take()).unwrap_or(Some(None));
        let action = ready?;
        let finished = Finished { kind: job.kind, plies: job.plies, action };
        slot.take();
        self.poll_timer.stop();
        Some(finished)
    }
}
