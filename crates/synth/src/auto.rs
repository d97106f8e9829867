//! `--solver auto`: enumeration first, the read-once search at the dependency bound's length,
//! SAT where enumeration would not fit in memory.
//!
//! On the thesis's cases enumeration with observational equivalence answers in milliseconds,
//! while the solvers spend seconds bit-blasting multiplication and division; but the number of
//! distinct output vectors grows quickly with length and examples, so a length whose enumeration
//! would exceed the memory limit is handed to SAT, which gets the examples gathered so far.
//!
//! The dependency bound's own length 2k-1 goes to the read-once search ([`super::readonce`])
//! whenever it applies (width <= 8): there every needed variable is read exactly once, with no
//! constant and no unary step, and searching those trees top-down through inverse images
//! settles the length far sooner than either backend (star:8's indicator: 84 s of SAT for the
//! final refutation against milliseconds). The next length, 2k (exactly one unary step), and
//! the bound's length when the read-once search does not apply, go to SAT from the start when k
//! is large (the bound above `SAT_FIRST_ABOVE`, 9): SAT states the read-once structure
//! outright and combines it with the order of interchangeable variables, while enumeration
//! cannot use either and runs out of memory or time (stars with 5 or more leaves).

use std::sync::Arc;
use std::time::Instant;

use super::problem::Problem;
use super::ranked::on_rank0;
use super::readonce::ReadOnceSearch;
use super::solver::{Backend, Found, LengthSearch, Method};
use grundy_core::cluster::Team;
use grundy_core::error::{Error, Kind};

/// Dependency bounds up to this (k <= 5 needed variables) leave the length 2k (and 2k-1 where
/// the read-once search does not apply) to enumeration. Measured: with the last levels
/// skipped, enumeration refutes CN(5,5)'s indicator lengths 9 and 10 in 0.25 s against SAT's
/// 0.84 s, and is level with SAT on star 4 and CN(5,1) (bound 9); at bound 11 (star 5) it takes
/// 30 s against SAT's 1.3 s.
const SAT_FIRST_ABOVE: usize = 9;

/// Enumeration with a per-length fallback.
pub struct AutoBackend<E, S> {
    /// The backend tried first at each length (enumeration).
    pub first: E,
    /// The backend a length goes to when the first would not fit in memory (SAT).
    pub fallback: S,
    /// The ranks sharing the search: the first backend shares its own work; the fallback and
    /// the read-once search run on rank 0, their answers broadcast (`ranked`).
    pub team: Arc<dyn Team>,
}

struct AutoSearch<'p> {
    current: Box<dyn LengthSearch + 'p>,
    /// The first backend and the fallback.
    methods: [Method; 2],
    switched: bool,
    /// Structure built up front (cheap); examples are replayed on a switch.
    fallback: Option<Box<dyn LengthSearch + 'p>>,
    examples: Vec<usize>,
}

impl<E: Backend, S: Backend> Backend for AutoBackend<E, S> {
    fn method(&self) -> Method {
        Method::Auto
    }

    fn start<'p>(
        &self,
        problem: &'p Problem,
        length: usize,
    ) -> Result<Box<dyn LengthSearch + 'p>, Error> {
        let bound = problem.lower_bound().0;
        let fallback = on_rank0(&self.team, || self.fallback.start(problem, length))?;
        let switched = (length == bound || length == bound + 1) && bound > SAT_FIRST_ABOVE;
        let (current, fallback, switched) = match ReadOnceSearch::start(problem, length) {
            Some(r) => (
                on_rank0(&self.team, || Ok(Box::new(r) as Box<dyn LengthSearch + 'p>))?,
                Some(fallback),
                false,
            ),
            None if switched => (fallback, None, true),
            None => (self.first.start(problem, length)?, Some(fallback), false),
        };
        Ok(Box::new(AutoSearch {
            current,
            fallback,
            methods: [self.first.method(), self.fallback.method()],
            switched,
            examples: Vec::new(),
        }))
    }
}

/// Whether `e` is a resource error, here or, under a team, on the rank that reached it (whose
/// error the others receive with its kind, a resource error having no setting to raise).
fn is_resource(e: &Error) -> bool {
    match e {
        Error::Resource(_) => true,
        Error::Elsewhere { kind, raise, .. } => *kind == Kind::Resource && raise.is_none(),
        _ => false,
    }
}

impl LengthSearch for AutoSearch<'_> {
    fn add_example(&mut self, index: usize) -> Result<(), Error> {
        self.examples.push(index);
        self.current.add_example(index)
    }

    fn solve(&mut self, deadline: Option<Instant>) -> Result<Found, Error> {
        match self.current.solve(deadline) {
            // A resource limit hands the length on; timeouts and bugs are reported as they are.
            Err(e) if is_resource(&e) => match self.fallback.take() {
                Some(mut next) => {
                    for &e in &self.examples {
                        next.add_example(e)?;
                    }
                    self.current = next;
                    self.switched = true;
                    self.current.solve(deadline)
                }
                None => Err(e),
            },
            other => other,
        }
    }

    fn answered_by(&self) -> Option<Method> {
        self.current
            .answered_by()
            .or(Some(self.methods[self.switched as usize]))
    }
}
