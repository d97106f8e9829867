//! Asking a running computation to stop from another thread: Ctrl-C on the command line, a
//! time limit or KeyboardInterrupt in the Python package, a parallel search whose first thread
//! has the answer. The search engines look at the token where they call their hook, every few
//! thousand nodes, so a token costs nothing on the hot path.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag shared by whoever may ask for a stop and the computations that honour it: cheap to
/// clone, every clone the same flag. A token once stopped stays stopped.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    own: Arc<AtomicBool>,
    /// The token this one was made from ([`Stop::child`]): stopping it stops this one too.
    parent: Option<Arc<Stop>>,
}

impl Stop {
    /// A token nobody has stopped yet.
    pub fn new() -> Self {
        Stop::default()
    }

    /// The token of an existing flag (a front end's own cancel flag): setting either stops.
    pub fn from_flag(flag: Arc<AtomicBool>) -> Self {
        Stop {
            own: flag,
            parent: None,
        }
    }

    /// A token stopped by its own [`Stop::stop`] or by this one's, while stopping it leaves
    /// this one running: a part of a computation (the threads of one parallel search) that
    /// may end on its own.
    pub fn child(&self) -> Stop {
        Stop {
            own: Arc::new(AtomicBool::new(self.is_stopped())),
            parent: Some(Arc::new(self.clone())),
        }
    }

    /// Asks every computation holding the token to stop.
    pub fn stop(&self) {
        self.own.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.own.load(Ordering::Relaxed) || self.parent.as_ref().is_some_and(|p| p.is_stopped())
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

    #[test]
    fn a_child_stops_with_its_parent_but_not_the_other_way() {
        let parent = Stop::new();
        let child = parent.child();
        child.stop();
        assert!(child.is_stopped() && !parent.is_stopped());
        let other = parent.child();
        parent.stop();
        assert!(other.is_stopped());
    }
}
