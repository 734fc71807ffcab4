//! A game's analysis running in the background (`ai::analysis::analyse` on every core),
//! polled without blocking: the interface asks how far it is and takes the result when
//! it is there. Nothing here knows the window; tests poll in a loop.

use halma_ai::analysis::{self, AnalysisRequest, GameAnalysis, Quality};
use halma_rules::{Action, Game};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Where a running analysis stands after a poll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Analysing {
    /// The action at `current` (from 0) of `total` is being analysed.
    Running { current: usize, total: usize },
    /// Finished: the analysis of the game the job was started on.
    Done(GameAnalysis),
    /// No analysis will come (a thread failed); the reason is for the log.
    Failed(String),
}

/// The request the app makes: `quality` on every core.
pub fn request(quality: Quality) -> AnalysisRequest {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    AnalysisRequest::new(quality).with_threads(cores)
}

/// An analysis on a thread of its own. Dropping or cancelling it stops the analysis and
/// waits for its threads to end (a few milliseconds), so none outlives it.
pub struct AnalysisJob {
    /// The history analysed: the result is for this game only.
    history: Vec<Action>,
    stop: Arc<AtomicBool>,
    /// The action being analysed (from 0).
    current: Arc<AtomicUsize>,
    total: usize,
    answer: Receiver<Result<GameAnalysis, String>>,
    thread: Option<JoinHandle<()>>,
    /// The result once taken from the channel.
    finished: Option<Analysing>,
}

impl AnalysisJob {
    /// Starts analysing `game` as `request` says.
    pub fn start(game: &Game, request: AnalysisRequest) -> AnalysisJob {
        let stop = Arc::new(AtomicBool::new(false));
        let current = Arc::new(AtomicUsize::new(0));
        let (sender, answer) = mpsc::sync_channel(1);
        let (thread_stop, thread_current) = (Arc::clone(&stop), Arc::clone(&current));
        let analysed = game.clone();
        let spawned = std::thread::Builder::new().name(format!("{}-job", analysis::THREAD_NAME)).spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                analysis::analyse(&analysed, &request, &thread_stop, &mut |index, _| {
                    thread_current.store(index, Ordering::Relaxed)
                })
            }));
            let result = match result {
                Ok(Ok(analysis)) => Ok(analysis),
                Ok(Err(error)) => Err(error.to_string()),
                Err(_) => Err("the analysis panicked".to_string()),
            };
            // Nobody waits any more after a cancel: nothing to tell.
            let _ = sender.send(result);
        });
        let thread = match spawned {
            Ok(thread) => Some(thread),
            Err(error) => {
                // The sender is gone with the closure: the first poll reports a failure.
                eprintln!("halma: could not start the analysis: {error}");
                None
            }
        };
        AnalysisJob {
            history: game.history().to_vec(),
            stop,
            current,
            total: game.history().len(),
            answer,
            thread,
            finished: None,
        }
    }

    /// True when the job analyses `game` as it is now (the same actions).
    pub fn is_for(&self, game: &Game) -> bool {
        self.history == game.history()
    }

    /// How far the analysis is, or its result.
    pub fn poll(&mut self) -> Analysing {
        if let Some(finished) = &self.finished {
            return finished.clone();
        }
        let finished = match self.answer.try_recv() {
            Ok(Ok(analysis)) => Analysing::Done(analysis),
            Ok(Err(reason)) => Analysing::Failed(reason),
            Err(TryRecvError::Empty) => {
                let current = self.current.load(Ordering::Relaxed).min(self.total.saturating_sub(1));
                return Analysing::Running { current, total: self.total };
            }
            Err(TryRecvError::Disconnected) => Analysing::Failed("the analysis ended without an answer".into()),
        };
        self.join();
        self.finished = Some(finished.clone());
        finished
    }

    /// Stops the analysis and waits for its threads to end.
    pub fn cancel(mut self) {
        self.stop_and_join();
    }

    fn stop_and_join(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.join();
    }

    fn join(&mut self) {
        if let Some(thread) = self.thread.take() {
            if thread.join().is_err() {
                eprintln!("halma: the analysis thread failed");
            }
            give_back_freed_memory();
        }
    }
}

/// Returns the memory the allocator keeps after a large job (the analysis threads' tables
/// and scratch, freed into their own heaps) to the system, so the app's resident size
/// comes back down when the job ends (docs/MEMORY.md). glibc keeps such memory for reuse;
/// elsewhere the allocator decides.
pub fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of glibc's heaps; it takes no pointer
    // and is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

impl Drop for AnalysisJob {
    fn drop(&mut self) {
        self.stop_and_join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn game(moves: usize) -> Game {
        let mut game = Game::new(halma_rules::Setup::TwoPlayers, halma_rules::Seat::A);
        for _ in 0..moves {
            let Some(first) = game.legal_moves().iter().next() else { break };
            assert!(game.play_move(first).is_ok());
        }
        game
    }

    #[test]
    fn a_job_reports_its_progress_then_the_analysis_of_its_game() {
        let game = game(6);
        let mut job = AnalysisJob::start(&game, request(Quality::QUICK));
        assert!(job.is_for(&game));
        assert!(!job.is_for(&self::game(5)));
        let deadline = Instant::now() + Duration::from_secs(60);
        let analysis = loop {
            match job.poll() {
                Analysing::Running { current, total } => {
                    assert!(current < total && total == 6);
                    assert!(Instant::now() < deadline, "the analysis never ended");
                    std::thread::sleep(Duration::from_millis(5));
                }
                Analysing::Done(analysis) => break analysis,
                Analysing::Failed(reason) => panic!("{reason}"),
            }
        };
        assert_eq!(analysis.actions.len(), 6);
        assert_eq!(job.poll(), Analysing::Done(analysis), "the result stays until the job goes");
    }
}
