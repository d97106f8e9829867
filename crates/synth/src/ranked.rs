//! Backends under a team of several ranks (`mpirun`): which searches rank 0 runs alone, and how
//! the other ranks learn their answers, so that every rank takes the CEGIS loop's steps in the
//! same order and comes to the answer one process would.
//!
//! Enumeration shares its own work among the ranks (`enumerate::share`). The other searches
//! (SAT, SMT, the read-once search) are not split: rank 0 runs them and broadcasts each answer
//! ([`Rank0`], `on_rank0`) while the others wait. What rank 0 does by itself, the upper-bound
//! strategies, searches with [`Ranked`]'s `alone` backend, which takes no collective step.

use std::sync::Arc;
use std::time::Instant;

use super::problem::Problem;
use super::solver::{Backend, Found, LengthSearch, Method};
use grundy_core::cluster::Team;
use grundy_core::error::Error;

/// A backend whose work is shared among ranks, with its twin for one process.
pub struct Ranked {
    /// The backend every rank runs together.
    pub shared: Box<dyn Backend>,
    /// The same backend with no team, for work rank 0 does alone.
    pub alone: Box<dyn Backend>,
}

impl Backend for Ranked {
    fn method(&self) -> Method {
        self.shared.method()
    }

    fn start<'p>(
        &self,
        problem: &'p Problem,
        length: usize,
    ) -> Result<Box<dyn LengthSearch + 'p>, Error> {
        self.shared.start(problem, length)
    }

    fn alone(&self) -> Option<&dyn Backend> {
        Some(&*self.alone)
    }
}

/// A backend that searches on rank 0 only, its answers broadcast to the other ranks.
pub struct Rank0 {
    /// The backend rank 0 runs.
    pub inner: Box<dyn Backend>,
    /// The ranks that learn its answers.
    pub team: Arc<dyn Team>,
}

impl Backend for Rank0 {
    fn method(&self) -> Method {
        self.inner.method()
    }

    fn start<'p>(
        &self,
        problem: &'p Problem,
        length: usize,
    ) -> Result<Box<dyn LengthSearch + 'p>, Error> {
        on_rank0(&self.team, || self.inner.start(problem, length))
    }
}

/// The search `start` builds, run on rank 0 alone when the team has several ranks (every rank
/// calls this at the same step; a failure to start on rank 0 is every rank's error).
pub(crate) fn on_rank0<'p>(
    team: &Arc<dyn Team>,
    start: impl FnOnce() -> Result<Box<dyn LengthSearch + 'p>, Error>,
) -> Result<Box<dyn LengthSearch + 'p>, Error> {
    if team.size() == 1 {
        return start();
    }
    let inner = match team.is_root() {
        true => Some(team.settle(start())?),
        false => {
            team.settle(Ok(()))?;
            None
        }
    };
    Ok(Box::new(Rank0Search {
        team: team.clone(),
        inner,
        pending: None,
        answered_by: None,
    }))
}

/// Rank 0's search (none on the other ranks) and what it last answered.
struct Rank0Search<'p> {
    team: Arc<dyn Team>,
    inner: Option<Box<dyn LengthSearch + 'p>>,
    /// An example rank 0 failed to add: reported by the next solve, which every rank takes,
    /// rather than by `add_example`, which would leave the others waiting.
    pending: Option<Error>,
    answered_by: Option<Method>,
}

impl LengthSearch for Rank0Search<'_> {
    fn add_example(&mut self, index: usize) -> Result<(), Error> {
        if let (Some(s), None) = (&mut self.inner, &self.pending) {
            if let Err(e) = s.add_example(index) {
                self.pending = Some(e);
            }
        }
        Ok(())
    }

    fn solve(&mut self, deadline: Option<Instant>) -> Result<Found, Error> {
        let mine = match (&mut self.inner, self.pending.take()) {
            (_, Some(e)) => Err(e),
            (Some(s), None) => s.solve(deadline).map(|f| (f, s.answered_by())),
            // Replaced by rank 0's answer.
            (None, None) => Ok((Found::Timeout, None)),
        };
        let (found, by) = self.team.share(mine)?;
        self.answered_by = by;
        Ok(found)
    }

    fn answered_by(&self) -> Option<Method> {
        self.answered_by
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::tests::boxed;
    use crate::problem::Target;
    use crate::sat::SatBackend;
    use grundy_core::cluster::threads;

    #[test]
    fn every_rank_hears_rank_0s_answers() {
        let problem = boxed("nim:2", 4, Target::Zero, false);
        let answers = threads::run(3, |team| {
            let b = Rank0 {
                inner: Box::new(SatBackend::default()),
                team,
            };
            let mut out = Vec::new();
            for length in 1..=3 {
                let mut s = b.start(&problem, length).unwrap();
                for e in 0..problem.examples.len() {
                    s.add_example(e).unwrap();
                }
                out.push((s.solve(None).unwrap(), s.answered_by()));
            }
            out
        });
        assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
        assert_eq!(answers[0][0].0, Found::Refuted);
        assert!(matches!(answers[0][2].0, Found::Program(_)));
    }

    /// A backend whose searches fail to add examples.
    struct Failing;
    struct FailingSearch;

    impl LengthSearch for FailingSearch {
        fn add_example(&mut self, _: usize) -> Result<(), Error> {
            Err(Error::Resource("no room".into()))
        }
        fn solve(&mut self, _: Option<Instant>) -> Result<Found, Error> {
            Ok(Found::Refuted)
        }
    }

    impl Backend for Failing {
        fn method(&self) -> Method {
            Method::Sat
        }
        fn start<'p>(&self, _: &'p Problem, _: usize) -> Result<Box<dyn LengthSearch + 'p>, Error> {
            Ok(Box::new(FailingSearch))
        }
    }

    #[test]
    fn rank_0s_failure_is_every_ranks_at_the_next_solve() {
        let problem = boxed("nim:2", 3, Target::Zero, false);
        let kinds = threads::run(2, |team| {
            let b = Rank0 {
                inner: Box::new(Failing),
                team,
            };
            let mut s = b.start(&problem, 1).unwrap();
            s.add_example(0).unwrap();
            s.solve(None).unwrap_err().kind()
        });
        assert_eq!(kinds, vec![grundy_core::error::Kind::Resource; 2]);
    }
}
