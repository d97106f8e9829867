//! Asking a running computation to stop from another thread: Ctrl-C on the command line, a
//! time limit or KeyboardInterrupt in the Python package, a parallel search whose first thread
//! has the answer. The search engines look at the token where they call their hook, every few
//! thousand nodes, so a token costs nothing on the hot path.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag shared by whoever may ask for a stop and the computations that honour it: cheap to
/// clone, every clone the same flag. A token once stopped stays stopped.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A token nobody has stopped yet.
    pub fn new() -> Self {
        Stop::default()
    }

    /// The token of an existing flag (a front end's own cancel flag): setting either stops.
    pub fn from_flag(flag: Arc<AtomicBool>) -> Self {
        Stop(flag)
    }

    /// Asks every computation holding the token to stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A computation that ended because its [`Stop`] was stopped, before it had its answer: what a
/// search returns instead of a nimber it does not know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stopped before it had its answer")
    }
}

impl std::error::Error for Stopped {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_clone_is_the_same_flag() {
        let a = Stop::new();
        let b = a.clone();
        assert!(!b.is_stopped());
        a.stop();
        assert!(b.is_stopped());
        let flag = Arc::new(AtomicBool::new(false));
        let c = Stop::from_flag(Arc::clone(&flag));
        flag.store(true, Ordering::Relaxed);
        assert!(c.is_stopped());
    }
}
