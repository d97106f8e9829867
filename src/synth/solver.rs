//! The interface every search backend (SAT, SMT, enumeration) implements.

use std::time::Instant;

use super::lang::Program;
use super::problem::Problem;
use crate::error::Error;

/// What a search for programs of one length found.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    fn answered_by(&self) -> Option<&'static str> {
        None
    }
}

/// A family of searches: one per length.
pub trait Backend: Sync {
    /// The name `--solver` uses.
    fn name(&self) -> &'static str;
    /// A search over programs of exactly `length` instructions for `problem`.
    fn start<'p>(
        &self,
        problem: &'p Problem,
        length: usize,
    ) -> Result<Box<dyn LengthSearch + 'p>, Error>;
}
