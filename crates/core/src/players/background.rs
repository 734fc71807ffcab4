//! A search on a thread of its own, polled without blocking: the computer's moves and the
//! interface's hints. A panic ends that search only and is reported as a failure.

use super::{Failure, FailureKind, Turn};
use halma_rules::Action;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::Arc;

/// A search running on its thread; dropping it stops the search.
pub struct Background {
    stop: Arc<AtomicBool>,
    answer: Receiver<Result<Option<Action>, String>>,
}

impl Background {
    /// Runs `search` on a new thread; it should return soon once its flag is raised.
    pub fn spawn(search: impl FnOnce(&AtomicBool) -> Result<Option<Action>, String> + Send + 'static) -> Background {
        let stop = Arc::new(AtomicBool::new(false));
        let (sender, answer) = mpsc::sync_channel(1);
        let thread_stop = Arc::clone(&stop);
        let spawned = std::thread::Builder::new().name("halma-search".into()).stack_size(8 << 20).spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| search(&thread_stop)))
                .unwrap_or_else(|_| Err("the search panicked".into()));
            // Nobody waits any more after a cancel: nothing to tell.
            let _ = sender.send(result);
        });
        if let Err(error) = spawned {
            // The sender is gone with the closure: the first poll reports a failure.
            eprintln!("halma: could not start a search thread: {error}");
        }
        Background { stop, answer }
    }

    /// The answer once the thread has one; `Failed` if the thread ended without one.
    pub fn poll(&self) -> Turn {
        match self.answer.try_recv() {
            Ok(Ok(Some(action))) => Turn::Chose(action),
            // The seat to move has an action (passes are played for it): finding none is
            // an error to tell, not a reason to think again forever.
            Ok(Ok(None)) => Turn::Failed(Failure::new(FailureKind::Search, "the search found no action")),
            Ok(Err(reason)) => Turn::Failed(Failure::new(FailureKind::Search, reason)),
            Err(TryRecvError::Empty) => Turn::Thinking,
            Err(TryRecvError::Disconnected) => {
                Turn::Failed(Failure::new(FailureKind::Search, "the search thread ended without an answer"))
            }
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn wait(search: &Background) -> Turn {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            match search.poll() {
                Turn::Thinking if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
                turn => return turn,
            }
        }
    }

    #[test]
    fn a_search_that_panics_is_reported_as_failed_not_as_thinking() {
        let failing = Background::spawn(|_| panic!("a search that fails"));
        assert_eq!(wait(&failing), Turn::Failed(Failure::new(FailureKind::Search, "the search panicked")));
        let passing = Background::spawn(|_| Ok(Some(Action::Pass)));
        assert_eq!(wait(&passing), Turn::Chose(Action::Pass));
        let empty = Background::spawn(|_| Ok(None));
        assert_eq!(wait(&empty), Turn::Failed(Failure::new(FailureKind::Search, "the search found no action")));
    }

    #[test]
    fn dropping_a_search_stops_it() {
        let (sender, stopped) = mpsc::channel();
        let search = Background::spawn(move |stop| {
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let _ = sender.send(());
            Ok(None)
        });
        assert_eq!(search.poll(), Turn::Thinking);
        drop(search);
        assert_eq!(stopped.recv_timeout(Duration::from_secs(5)), Ok(()));
    }
}
