//! Shortest-first counterexample-guided search: lengths 1, 2, ... each solved against a small
//! example set that grows by the interpreter's counterexamples until a program passes every data
//! point or the length is refuted.

use std::collections::BinaryHeap;
use std::time::Instant;

use super::lang::Program;
use super::lift::{self, Lifted};
use super::problem::{Example, Problem};
use super::solver::{Backend, Found, Method};
use crate::error::{Error, Undecided};

/// Counterexamples added per failed candidate.
const COUNTEREXAMPLES_PER_ROUND: usize = 4;

/// Why a length has no program.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Refutation {
    pub length: usize,
    /// The dependency bound, or the backend that proved it on `examples` examples.
    pub by: Method,
    pub examples: usize,
    pub seconds: f64,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub program: Program,
    /// Every shorter length was refuted.
    pub minimal: bool,
    pub refutations: Vec<Refutation>,
    /// Variables the dependency bound found to matter.
    pub dependent_vars: Vec<usize>,
    /// The examples the final solve saw (indices into the problem's examples).
    pub examples: Vec<usize>,
    pub rounds: usize,
    pub seconds_search: f64,
    pub seconds_verify: f64,
    /// The length whose search timed out, when the program is the lifted one.
    pub undecided: Option<usize>,
    /// How the program was lifted, when it was.
    pub lifted: Option<Lifted>,
}

/// Examples are picked among this many times as many of the cheapest candidates.
const POOL_PER_PICK: usize = 8;

/// What an example costs a solver, cheapest first: its number of points (the SAT encoding
/// repeats the program's circuit for every member of an orbit), then the sum of their
/// coordinates. Small positions are also where the zero positions' pattern is most regular, so
/// they refute sooner: measured on stars with 6-8 leaves at the bound's length, preferring
/// them turned runs that timed out after 150 s into refutations (star:6 indicator --orbits)
/// and cut star:7's indicator refutation from 40 s to 30 s.
fn cost(problem: &Problem, e: usize) -> (usize, u64) {
    let n = problem.vars();
    let size = |p: usize| {
        problem.points.flat()[p * n..(p + 1) * n]
            .iter()
            .sum::<u64>()
    };
    match &problem.examples[e] {
        Example::Equals { point, .. } | Example::NonZero { point } => (1, size(*point)),
        Example::SomeZero { points, .. } => (points.len(), points.iter().map(|&p| size(p)).sum()),
    }
}

/// `k` examples from `candidates`: spread over the cheapest few ([`cost`]), so one round does
/// not add near-duplicates nor an orbit of thousands of members when a small one would do.
fn pick(problem: &Problem, candidates: impl IntoIterator<Item = usize>, k: usize) -> Vec<usize> {
    // The cheapest `keep` so far, most expensive on top (candidates may be millions of points).
    let keep = k * POOL_PER_PICK;
    let mut pool: BinaryHeap<(usize, u64, usize)> = BinaryHeap::with_capacity(keep + 1);
    for e in candidates {
        let (points, size) = cost(problem, e);
        pool.push((points, size, e));
        if pool.len() > keep {
            pool.pop();
        }
    }
    let pool = pool.into_sorted_vec();
    let step = (pool.len() / k.max(1)).max(1);
    pool.iter().step_by(step).take(k).map(|c| c.2).collect()
}

/// A few of the cheapest examples of each kind to start from.
fn initial_examples(problem: &Problem) -> Vec<usize> {
    let mut out = Vec::new();
    for kind in [true, false] {
        let of_kind =
            (0..problem.examples.len()).filter(|&e| problem.examples[e].is_zero() == kind);
        out.extend(pick(problem, of_kind, 3));
    }
    out
}

/// Searches lengths 1..=max_len with `backend`; fails with a clear message on timeout or when
/// every length up to `max_len` is refuted.
pub fn synthesize(
    problem: &Problem,
    backend: &dyn Backend,
    max_len: usize,
    deadline: Option<Instant>,
) -> Result<Outcome, Error> {
    search(problem, backend, max_len, deadline, false)
}

/// As [`synthesize`], but when the dependency bound is long, first finds a program by lifting
/// from slices ([`lift`]) and then searches only the shorter lengths, shortest first: a length
/// found there wins, refuting them all makes the lifted program minimal, and on timeout the
/// lifted program is reported as shortest found with the undecided length named.
pub fn synthesize_lifting(
    problem: &Problem,
    backend: &dyn Backend,
    max_len: usize,
    deadline: Option<Instant>,
) -> Result<Outcome, Error> {
    search(problem, backend, max_len, deadline, true)
}

/// When lifting must give up: half way to the deadline, so that on games lifting does not suit
/// the shortest-first search still gets its turn (path:5 with `--timeout 60`: lifting took all
/// of it and left the bound's length 9 undecided; without lifting, lengths 9-12 are refuted).
fn lifting_deadline(start: Instant, deadline: Option<Instant>) -> Option<Instant> {
    deadline.map(|d| start + d.saturating_duration_since(start) / 2)
}

/// What a search has gathered so far.
struct Run {
    start: Instant,
    deps: Vec<usize>,
    refutations: Vec<Refutation>,
    examples: Vec<usize>,
    rounds: usize,
    verify_seconds: f64,
}

impl Run {
    fn finish(self, program: Program, undecided: Option<usize>, lifted: Option<Lifted>) -> Outcome {
        Outcome {
            minimal: undecided.is_none() && self.refutations.len() == program.len() - 1,
            program,
            refutations: self.refutations,
            dependent_vars: self.deps,
            examples: self.examples,
            rounds: self.rounds,
            seconds_search: self.start.elapsed().as_secs_f64() - self.verify_seconds,
            seconds_verify: self.verify_seconds,
            undecided,
            lifted,
        }
    }
}

fn search(
    problem: &Problem,
    backend: &dyn Backend,
    max_len: usize,
    deadline: Option<Instant>,
    lifting: bool,
) -> Result<Outcome, Error> {
    let start = Instant::now();
    let (bound, deps) = problem.lower_bound();
    let lifted = if lifting && bound > lift::BASE_BOUND {
        lift::find(problem, backend, max_len, lifting_deadline(start, deadline))?
    } else {
        None
    };
    let mut run = Run {
        start,
        deps,
        refutations: Vec::new(),
        examples: initial_examples(problem),
        rounds: 0,
        verify_seconds: 0.0,
    };
    let upto = lifted
        .as_ref()
        .map_or(max_len, |l| l.program.len() - 1)
        .min(max_len);
    for length in 1..=upto {
        let t = Instant::now();
        if length < bound {
            run.refutations.push(Refutation {
                length,
                by: Method::DependencyBound,
                examples: 0,
                seconds: 0.0,
            });
            continue;
        }
        let mut search = backend.start(problem, length)?;
        for &e in &run.examples {
            search.add_example(e)?;
        }
        loop {
            run.rounds += 1;
            // Past the deadline no example is added, so a backend that answers at once would
            // return the same candidate forever.
            let found = if deadline.is_some_and(|d| Instant::now() >= d) {
                Found::Timeout
            } else {
                search.solve(deadline)?
            };
            match found {
                Found::Refuted => {
                    run.refutations.push(Refutation {
                        length,
                        by: search.answered_by().unwrap_or(backend.method()),
                        examples: run.examples.len(),
                        seconds: t.elapsed().as_secs_f64(),
                    });
                    break;
                }
                Found::Timeout => {
                    if let Some(l) = lifted {
                        return Ok(run.finish(l.program.clone(), Some(length), Some(l)));
                    }
                    return Err(Error::Timeout(Undecided {
                        seconds: start.elapsed().as_secs_f64(),
                        lower_bound: Some(length),
                        what: format!("length {length}"),
                    }));
                }
                Found::Program(p) => {
                    if p.len() != length || !p.is_valid() {
                        return Err(Error::internal(format!(
                            "{} returned `{p}` for length {length}",
                            backend.method()
                        )));
                    }
                    let v = Instant::now();
                    let failures = problem.failures(&p);
                    run.verify_seconds += v.elapsed().as_secs_f64();
                    if failures.is_empty() {
                        return Ok(run.finish(p, None, None));
                    }
                    let fresh: Vec<usize> = failures
                        .iter()
                        .copied()
                        .filter(|e| !run.examples.contains(e))
                        .collect();
                    if fresh.is_empty() {
                        return Err(Error::internal(format!(
                            "{} returned `{p}`, which fails examples it was given",
                            backend.method()
                        )));
                    }
                    for e in pick(problem, fresh, COUNTEREXAMPLES_PER_ROUND) {
                        // An orbit of thousands of members takes seconds to encode; past the
                        // deadline the next solve reports the timeout at once.
                        if deadline.is_some_and(|d| Instant::now() >= d) {
                            break;
                        }
                        search.add_example(e)?;
                        run.examples.push(e);
                    }
                }
            }
        }
    }
    match lifted {
        Some(l) => {
            // Lifting checked it on every example; check again here, where results are made.
            let v = Instant::now();
            let ok = problem.failures(&l.program).is_empty();
            run.verify_seconds += v.elapsed().as_secs_f64();
            if !ok {
                return Err(Error::internal(format!(
                    "lifting returned `{}`, which fails the data",
                    l.program
                )));
            }
            Ok(run.finish(l.program.clone(), None, Some(l)))
        }
        None => Err(Error::Resource(format!(
            "no program of length at most {max_len} exists (every length was refuted); raise --max-len"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::problem::tests::boxed;
    use crate::synth::problem::Target;

    #[test]
    fn lifting_gets_half_the_time() {
        let start = Instant::now();
        let d = start + std::time::Duration::from_secs(10);
        assert_eq!(
            lifting_deadline(start, Some(d)),
            Some(start + std::time::Duration::from_secs(5))
        );
        assert_eq!(lifting_deadline(start, None), None);
        // A deadline already past stays past.
        assert_eq!(lifting_deadline(d, Some(start)), Some(d));
    }

    #[test]
    fn picks_are_the_cheapest_examples_spread_out() {
        let problem = boxed("star:3", 4, Target::Indicator, true);
        let all: Vec<usize> = (0..problem.examples.len()).collect();
        let costs: Vec<(usize, u64)> = all.iter().map(|&e| cost(&problem, e)).collect();
        assert!(
            costs.iter().any(|c| c.0 > 1),
            "star:3 has orbits of several members, so the order is not trivial"
        );
        let k = 2;
        let picked = pick(&problem, all.iter().copied(), k);
        assert_eq!(picked.len(), k);
        let mut sorted = costs.clone();
        sorted.sort_unstable();
        let pool_worst = sorted[(k * POOL_PER_PICK).min(sorted.len()) - 1];
        for &e in &picked {
            assert!(
                cost(&problem, e) <= pool_worst,
                "{e} is not among the cheapest"
            );
        }
        assert_ne!(picked[0], picked[1], "picks are distinct");
        assert_eq!(
            cost(&problem, picked[0]),
            sorted[0],
            "the cheapest example comes first"
        );
        // Every kind is represented at the start, cheapest first.
        let start = initial_examples(&problem);
        assert!(start.iter().any(|&e| problem.examples[e].is_zero()));
        assert!(start.iter().any(|&e| !problem.examples[e].is_zero()));
    }
}
