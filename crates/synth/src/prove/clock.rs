//! The time a proof has left, and the stop a user may ask for, around each z3 check.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use z3::{Model, Params, SatResult, Solver};

use crate::solver::stop_requested;

/// Why a check stopped when a stop was asked for ([`crate::run::request_stop`], Ctrl-C).
const STOPPED: &str = "stopped on request";

/// Why a check did not run: the deadline passed.
const TIME_UP: &str = "the time limit passed";

/// How often a check in progress looks for a stop asked for.
const STOP_POLL: Duration = Duration::from_millis(20);

/// The time left for z3, and whether a stop was asked for.
pub(super) struct Clock {
    /// When the proof must answer, if ever.
    pub(super) deadline: Option<Instant>,
}

/// One satisfiability check's answer.
pub(super) enum Answer {
    Sat(Model),
    Unsat,
    Unknown(String),
}

impl Clock {
    /// A fresh solver, or why there is none: no time is left, or a stop was asked for.
    pub(super) fn solver(&self) -> Result<Solver, String> {
        match self.left_ms() {
            Some(0) => Err(TIME_UP.into()),
            _ if stop_requested() => Err(STOPPED.into()),
            _ => Ok(Solver::new()),
        }
    }

    /// A clock for part of the work: `fraction` of the time left, or `seconds` when there is
    /// no deadline.
    pub(super) fn share(&self, fraction: f64, seconds: f64) -> Clock {
        let now = Instant::now();
        let share = match self.deadline {
            Some(d) => d.saturating_duration_since(now).mul_f64(fraction),
            None => Duration::from_secs_f64(seconds),
        };
        Clock {
            deadline: Some(now + share),
        }
    }

    /// Milliseconds to the deadline, if there is one.
    fn left_ms(&self) -> Option<u128> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()).as_millis())
    }

    /// Checks `s` within the time left (each check gets what is left then, so shrinking a
    /// counterexample never runs past the deadline); a stop asked for meanwhile interrupts it.
    pub(super) fn check(&self, s: &Solver) -> Answer {
        if stop_requested() {
            return Answer::Unknown(STOPPED.into());
        }
        // z3 would catch Ctrl-C itself and answer "unknown" past our handler (and Python's):
        // the stop comes through `stop_requested` instead.
        let mut params = Params::new();
        params.set_bool("ctrl_c", false);
        if let Some(ms) = self.left_ms() {
            if ms == 0 {
                return Answer::Unknown(TIME_UP.into());
            }
            params.set_u32("timeout", ms.min(u32::MAX as u128) as u32);
        }
        s.set_params(&params);
        match interruptible(s) {
            SatResult::Unknown if stop_requested() => Answer::Unknown(STOPPED.into()),
            SatResult::Sat => match s.get_model() {
                Some(m) => Answer::Sat(m),
                None => Answer::Unknown("z3 answered sat without a model".into()),
            },
            SatResult::Unsat => Answer::Unsat,
            SatResult::Unknown => Answer::Unknown(
                s.get_reason_unknown()
                    .unwrap_or_else(|| "z3 gave up".into()),
            ),
        }
    }
}

/// `s.check()`, with a watcher beside it that interrupts z3 once a stop is asked for: z3
/// polls no flag of ours, and a proof may spend minutes in one check.
fn interruptible(s: &Solver) -> SatResult {
    let handle = s.get_context().handle();
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            while !done.load(Ordering::Acquire) {
                if stop_requested() {
                    handle.interrupt();
                    return;
                }
                std::thread::park_timeout(STOP_POLL);
            }
        });
        let answer = s.check();
        done.store(true, Ordering::Release);
        watcher.thread().unpark();
        answer
    })
}
