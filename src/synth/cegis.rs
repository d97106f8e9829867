//! Shortest-first counterexample-guided search: lengths 1, 2, ... each solved against a small
//! example set that grows by the interpreter's counterexamples until a program passes every data
//! point or the length is refuted.

use std::time::Instant;

use super::lang::Program;
use super::problem::Problem;
use super::solver::{Backend, Found};
use crate::error::Error;

/// Counterexamples added per failed candidate.
const COUNTEREXAMPLES_PER_ROUND: usize = 4;

/// Why a length has no program.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Refutation {
    pub length: usize,
    /// `dependency bound`, or the backend that proved it on `examples` examples.
    pub by: String,
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
}

/// A few examples of each kind, spread over the data, to start from.
fn initial_examples(problem: &Problem) -> Vec<usize> {
    let (zero, other): (Vec<usize>, Vec<usize>) =
        (0..problem.examples.len()).partition(|&e| problem.examples[e].is_zero());
    let spread = |v: &[usize], k: usize| -> Vec<usize> {
        if v.is_empty() {
            return Vec::new();
        }
        let step = (v.len() / k).max(1);
        v.iter().step_by(step).take(k).copied().collect()
    };
    let mut out = spread(&zero, 3);
    out.extend(spread(&other, 3));
    out
}

/// Spread picks from the failures, so one round does not add near-duplicates.
fn pick(failures: &[usize], k: usize) -> Vec<usize> {
    let step = (failures.len() / k).max(1);
    failures.iter().step_by(step).take(k).copied().collect()
}

/// Searches lengths 1..=max_len with `backend`; fails with a clear message on timeout or when
/// every length up to `max_len` is refuted.
pub fn synthesize(
    problem: &Problem,
    backend: &dyn Backend,
    max_len: usize,
    deadline: Option<Instant>,
) -> Result<Outcome, Error> {
    let start = Instant::now();
    let (bound, deps) = problem.lower_bound();
    let mut refutations = Vec::new();
    let mut examples = initial_examples(problem);
    let mut verify_seconds = 0.0;
    let mut rounds = 0;
    for length in 1..=max_len {
        let t = Instant::now();
        if length < bound {
            refutations.push(Refutation {
                length,
                by: "dependency bound".into(),
                examples: 0,
                seconds: 0.0,
            });
            continue;
        }
        let mut search = backend.start(problem, length)?;
        for &e in &examples {
            search.add_example(e)?;
        }
        loop {
            rounds += 1;
            match search.solve(deadline)? {
                Found::Refuted => {
                    refutations.push(Refutation {
                        length,
                        by: backend.name().to_string(),
                        examples: examples.len(),
                        seconds: t.elapsed().as_secs_f64(),
                    });
                    break;
                }
                Found::Timeout => {
                    return Err(Error::Resource(format!(
                        "timed out after {:.1} s: lengths below {length} are refuted, {length} is undecided",
                        start.elapsed().as_secs_f64()
                    )));
                }
                Found::Program(p) => {
                    if p.len() != length || !p.is_valid() {
                        return Err(Error::Resource(format!(
                            "{} returned `{p}` for length {length}: a bug",
                            backend.name()
                        )));
                    }
                    let v = Instant::now();
                    let failures = problem.failures(&p);
                    verify_seconds += v.elapsed().as_secs_f64();
                    if failures.is_empty() {
                        return Ok(Outcome {
                            program: p,
                            minimal: refutations.len() == length - 1,
                            refutations,
                            dependent_vars: deps,
                            examples,
                            rounds,
                            seconds_search: start.elapsed().as_secs_f64() - verify_seconds,
                            seconds_verify: verify_seconds,
                        });
                    }
                    let fresh: Vec<usize> = failures
                        .iter()
                        .copied()
                        .filter(|e| !examples.contains(e))
                        .collect();
                    if fresh.is_empty() {
                        return Err(Error::Resource(format!(
                            "{} returned `{p}`, which fails examples it was given: a bug",
                            backend.name()
                        )));
                    }
                    for e in pick(&fresh, COUNTEREXAMPLES_PER_ROUND) {
                        search.add_example(e)?;
                        examples.push(e);
                    }
                }
            }
        }
    }
    Err(Error::Resource(format!(
        "no program of length at most {max_len} exists (every length was refuted); raise --max-len"
    )))
}
