//! The Analyse action: the game's analysis runs in the background (`app::analysing`),
//! polled on a timer while the board and review stay usable; Cancel, Back and Esc stop
//! it, and a change to the game drops it, so an analysis is only ever shown with the
//! game it is of (the session keeps and saves it).

use super::controller::Controller;
use super::ui_state::UiState;
use crate::ai::analysis::Quality;
use crate::app::analysing::{self, Analysing, AnalysisJob};
use slint::{ComponentHandle, Timer, TimerMode};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

/// How often the running analysis is asked how far it is.
const POLL_TIME: Duration = Duration::from_millis(50);

/// The analysis running in the background, if any, and its timer.
pub(super) struct AnalysisRunner {
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
    /// The action being analysed and the game's actions, while an analysis runs.
    pub(super) fn progress(&self) -> Option<(usize, usize)> {
        self.job.borrow().as_ref().map(|_| self.progress.get())
    }

    /// Stops the running analysis (its threads have ended on return).
    fn stop(&self) -> bool {
        self.timer.stop();
        let job = self.job.borrow_mut().take();
        job.map(AnalysisJob::cancel).is_some()
    }
}

impl Controller {
    /// Analyse: starts the analysis of the game (as far as it is played), unless it has
    /// one or one runs.
    pub(super) fn analyse(self: &Rc<Self>) {
        let session = self.session.borrow();
        let game = session.game();
        if self.analysis.job.borrow().is_some() || session.analysis().is_some() || game.history().is_empty() {
            return;
        }
        let job = AnalysisJob::start(game, analysing::request(self.analysis.quality.get()));
        self.analysis.progress.set((0, game.history().len()));
        drop(session);
        *self.analysis.job.borrow_mut() = Some(job);
        self.with_ui(UiState::analysis_started);
        self.set_analysis_failed(false);
        let weak = Rc::downgrade(self);
        self.analysis.timer.start(TimerMode::Repeated, POLL_TIME, move || {
            if let Some(controller) = weak.upgrade() {
                controller.poll_analysis();
            }
        });
        self.refresh();
    }

    /// Cancel (and Back, Esc): the analysis stops; nothing of it is kept.
    pub(super) fn cancel_analysis(&self) {
        self.analysis.stop();
        self.with_ui(UiState::analysis_ended);
        self.refresh();
    }

    /// The game changed under a running analysis (undo, new game, import): it is dropped.
    pub(super) fn drop_stale_analysis(&self) {
        let stale = self.analysis.job.borrow().as_ref().is_some_and(|job| !job.is_for(self.session.borrow().game()));
        if stale {
            self.analysis.stop();
            self.with_ui(UiState::analysis_ended);
        }
    }

    fn poll_analysis(self: &Rc<Self>) {
        self.drop_stale_analysis();
        let polled = self.analysis.job.borrow_mut().as_mut().map(AnalysisJob::poll);
        match polled {
            None => {
                self.analysis.timer.stop();
                self.with_ui(UiState::analysis_ended);
                self.refresh();
            }
            Some(Analysing::Running { current, total }) => {
                if self.analysis.progress.replace((current, total)) != (current, total) {
                    self.refresh();
                }
            }
            Some(Analysing::Done(analysis)) => {
                self.analysis.stop();
                self.with_ui(UiState::analysis_ended);
                if self.with_session(|session| session.set_analysis(analysis)) {
                    self.save();
                    // Shown at once: the review of the game's end, with its graph.
                    let total = self.session.borrow().game().history().len();
                    self.with_ui(|ui| {
                        if !ui.in_review() {
                            ui.review_position(total, total);
                        }
                    });
                }
                self.refresh();
            }
            Some(Analysing::Failed(reason)) => {
                eprintln!("halma: the analysis failed: {reason}");
                // The player is told, in the interface's language, under Analyse.
                self.set_analysis_failed(true);
                self.analysis.stop();
                self.with_ui(UiState::analysis_ended);
                self.refresh();
            }
        }
    }

    /// Whether the failure of the last analysis is told under Analyse.
    fn set_analysis_failed(&self, failed: bool) {
        self.with_window(|window| window.global::<crate::Analysis>().set_failed(failed));
    }

    // ----- For tests and tools -----

    /// The analysis' quality (the app uses `Quality::DEFAULT`; tests may go faster).
    pub fn set_analysis_quality(&self, quality: Quality) {
        self.analysis.quality.set(quality);
    }

    /// True while an analysis runs in the background.
    pub fn is_analysing(&self) -> bool {
        self.analysis.job.borrow().is_some()
    }
}
