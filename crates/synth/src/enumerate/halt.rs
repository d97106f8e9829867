//! Why and when an enumeration stops without an answer: the deadline, the memory limit, or
//! too many classes; the signal every thread polls.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::solver::past;

/// Why a search stopped without an answer.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(super) enum Halt {
    Timeout,
    /// The memory limit stopped level `level` with a `fraction` of its work done; `estimate`
    /// is the bytes the level alone would take, extrapolated when enough of it was done.
    Memory {
        level: usize,
        fraction: f64,
        estimate: Option<u64>,
    },
    /// Level `level` has 2^32 classes or more.
    Ids {
        level: usize,
    },
}

/// The shared stop signal: deadline passed or memory exhausted.
pub(super) struct Stop {
    flag: AtomicBool,
    timed_out: AtomicBool,
    deadline: Option<Instant>,
}

impl Stop {
    pub fn new(deadline: Option<Instant>) -> Self {
        Stop {
            flag: AtomicBool::new(false),
            timed_out: AtomicBool::new(false),
            deadline,
        }
    }

    /// Whether to stop now (checks the clock).
    pub fn poll(&self) -> bool {
        if self.flag.load(Ordering::Relaxed) {
            return true;
        }
        if past(self.deadline) {
            self.timed_out.store(true, Ordering::Relaxed);
            self.flag.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// Whether a stop was signalled (without looking at the clock).
    pub fn raised(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    pub fn raise(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    pub fn timed_out(&self) -> bool {
        self.timed_out.load(Ordering::Relaxed)
    }
}
