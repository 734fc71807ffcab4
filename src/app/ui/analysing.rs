//! The analysis running in the background (`app::analysing`) as the window sees it: the
//! job, its poll timer, how far it is. Whether an analysis runs is known here only; the
//! actions read it as `Facts::analysing`, and what a poll found reaches them through the
//! controller's dispatch.

use halma_ai::analysis::Quality;
use halma_core::analysing::{self, Analysing, AnalysisJob};
use halma_rules::Game;
use slint::{Timer, TimerMode};
use std::cell::{Cell, RefCell};
use std::time::Duration;

/// How often the running analysis is asked how far it is.
const POLL_TIME: Duration = Duration::from_millis(50);

/// What a poll of the running analysis found that the state must hear.
pub enum Polled {
    /// Nothing new.
    Unchanged,
    /// It moved on to another action.
    Progress,
    Done(Box<halma_ai::analysis::GameAnalysis>),
    Failed(String),
}

/// The analysis running in the background, if any, and its timer.
pub struct AnalysisRunner {
    job: RefCell<Option<AnalysisJob>>,
    timer: Timer,
    /// The action being analysed (from 0) and the game's actions.
    progress: Cell<(usize, usize)>,
    quality: Cell<Quality>,
}

impl Default for AnalysisRunner {
    fn default() -> AnalysisRunner {
        AnalysisRunner {
            job: RefCell::new(None),
            timer: Timer::default(),
            progress: Cell::new((0, 0)),
            quality: Cell::new(Quality::DEFAULT),
        }
    }
}

impl AnalysisRunner {
    /// True while an analysis runs.
    pub fn is_running(&self) -> bool {
        self.job.borrow().is_some()
    }

    /// The action being analysed and the game's actions, while an analysis runs.
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.job.borrow().as_ref().map(|_| self.progress.get())
    }

    /// Starts analysing `game`; `poll` runs on the UI thread until the job ends.
    pub fn start(&self, game: &Game, poll: impl FnMut() + 'static) {
        self.stop();
        let job = AnalysisJob::start(game, analysing::request(self.quality.get()));
        self.progress.set((0, game.history().len()));
        *self.job.borrow_mut() = Some(job);
        self.timer.start(TimerMode::Repeated, POLL_TIME, poll);
    }

    /// Stops the running analysis (its threads have ended on return).
    pub fn stop(&self) {
        self.timer.stop();
        if let Some(job) = self.job.borrow_mut().take() {
            job.cancel();
        }
    }

    /// True when an analysis runs for a game other than `game` (it changed under it).
    pub fn is_stale(&self, game: &Game) -> bool {
        self.job.borrow().as_ref().is_some_and(|job| !job.is_for(game))
    }

    /// Asks the job how far it is; a finished or failed job is stopped.
    pub fn poll(&self) -> Polled {
        let polled = self.job.borrow_mut().as_mut().map(AnalysisJob::poll);
        match polled {
            None => {
                self.stop();
                Polled::Progress
            }
            Some(Analysing::Running { current, total }) => {
                if self.progress.replace((current, total)) != (current, total) {
                    Polled::Progress
                } else {
                    Polled::Unchanged
                }
            }
            Some(Analysing::Done(analysis)) => {
                self.stop();
                Polled::Done(Box::new(analysis))
            }
            Some(Analysing::Failed(reason)) => {
                self.stop();
                Polled::Failed(reason)
            }
        }
    }

    /// The analysis' quality (the app uses `Quality::DEFAULT`; tests may go faster).
    pub fn set_quality(&self, quality: Quality) {
        self.quality.set(quality);
    }
}
