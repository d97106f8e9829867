//! The interface every search backend (SAT, SMT, enumeration) implements.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::lang::Program;
use super::problem::Problem;
use grundy_core::error::Error;

/// Set when the user asks the searches to stop (Ctrl-C): every deadline then counts as passed,
/// and a search reports what it established, as at its time limit.
static STOP_REQUESTED: AtomicBool = AtomicBool::new(false);

/// Asks every running search to stop at its next look at the clock.
pub fn request_stop() {
    STOP_REQUESTED.store(true, Ordering::Relaxed);
}

/// Withdraws a stop asked for, so that the next search runs to its deadline: for a front end
/// that runs several searches in one process.
pub fn clear_stop() {
    STOP_REQUESTED.store(false, Ordering::Relaxed);
}

/// Whether a stop was asked for.
pub fn stop_requested() -> bool {
    STOP_REQUESTED.load(Ordering::Relaxed)
}

/// Whether a search must stop now: its deadline passed, or a stop was asked for. Every
/// backend's look at the clock goes through here.
pub fn past(deadline: Option<Instant>) -> bool {
    stop_requested() || deadline.is_some_and(|d| Instant::now() >= d)
}

/// What settles a length: the dependency bound, or the backend whose exhaustive search did.
///
/// Reports group refutations by it and `auto` credits each length to the backend that proved
/// it, so it is a type, not a string compared against names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Method {
    /// Every program shorter than 2k-1 misses one of the k variables the data depends on.
    #[serde(rename = "dependency bound")]
    DependencyBound,
    /// CNF solved by varisat.
    #[serde(rename = "sat")]
    Sat,
    /// Bit-vectors solved by z3.
    #[serde(rename = "smt")]
    Smt,
    /// Bottom-up enumeration with observational equivalence.
    #[serde(rename = "enum")]
    Enum,
    /// The top-down search of read-once trees at the dependency bound's length.
    #[serde(rename = "read-once")]
    ReadOnce,
    /// The `auto` backend, before it says which of its parts answered.
    #[serde(rename = "auto")]
    Auto,
}

impl Method {
    /// The name `--solver` and reports use.
    pub fn name(self) -> &'static str {
        match self {
            Method::DependencyBound => "dependency bound",
            Method::Sat => "sat",
            Method::Smt => "smt",
            Method::Enum => "enum",
            Method::ReadOnce => "read-once",
            Method::Auto => "auto",
        }
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a search for programs of one length found.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Found {
    /// A valid program of exactly this length satisfying every example added so far.
    Program(Program),
    /// Proof that no valid program of this length satisfies all the data: usually because none
    /// satisfies the examples added so far, but searches may also use facts of the whole data
    /// (the variables every program reads, interchangeable variables), so a program outside
    /// those facts may still satisfy the examples alone.
    Refuted,
    /// The deadline passed first.
    Timeout,
}

/// A search over programs of one exact length against a growing set of examples; kept between
/// rounds so an incremental solver keeps what it learned.
pub trait LengthSearch {
    /// Adds `problem.examples[index]`.
    fn add_example(&mut self, index: usize) -> Result<(), Error>;
    /// Searches until an answer or the deadline.
    fn solve(&mut self, deadline: Option<Instant>) -> Result<Found, Error>;
    /// The backend answering now, when it is not the one that started the search (`auto`
    /// hands lengths on), so refutations are credited to what proved them.
    fn answered_by(&self) -> Option<Method> {
        None
    }
}

/// A family of searches: one per length.
pub trait Backend: Sync {
    /// The backend, as `--solver` names it.
    fn method(&self) -> Method;
    /// A search over programs of exactly `length` instructions for `problem`.
    fn start<'p>(
        &self,
        problem: &'p Problem,
        length: usize,
    ) -> Result<Box<dyn LengthSearch + 'p>, Error>;
    /// The same backend for this process alone, when this one shares its work with other
    /// ranks: for what rank 0 does by itself (the upper-bound strategies), whose searches must
    /// take no collective step. `None`: this backend already runs alone.
    fn alone(&self) -> Option<&dyn Backend> {
        None
    }
}
