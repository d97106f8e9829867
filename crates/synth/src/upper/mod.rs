//! Some classifier fast when the shortest one is long: upper bounds, so that the exact
//! shortest-first search only works below them, and so that a run stopped early still answers.
//!
//! Three strategies, tried in turn within their share of the time, the shortest program kept:
//! `decompose` (necessary conditions mined bottom-up and combined by a set cover: the zero
//! set as a conjunction, else a union of two split by a mined predicate, else either with the
//! comparisons `Min`/`Lt` added to the instructions, which the result then names), `lift` (a program for the slice x_v = 0, with x_v combined in),
//! and `stochastic` (a Metropolis walk over programs, the misclassified examples as cost).
//! None of them proves anything; every program they return passes every example.

pub(crate) mod decompose;
pub(crate) mod lift;
pub(crate) mod stochastic;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::lang::{Op, Program};
use super::problem::Problem;
use super::solver::{past, Backend};
use grundy_core::error::Error;

/// How an upper bound was found.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum How {
    /// Lifted from slices: the variables combined in (innermost slice first), and the length
    /// the exact search found for the innermost slice.
    Lifted {
        /// The variables combined in, innermost slice first.
        variables: Vec<usize>,
        /// The length the exact search found for the innermost slice.
        base_length: usize,
    },
    /// The `Or` of necessary conditions (each zero on every zero position) that together are
    /// non-zero on every non-zero position.
    Decomposed {
        /// The conditions, each 0 on every zero position.
        conditions: Vec<Program>,
    },
    /// A union of two decompositions split by a mined predicate (`decompose::unions`).
    Union(decompose::unions::Union),
    /// A stochastic walk over programs, after this many proposals.
    Stochastic {
        /// Proposals made.
        steps: u64,
    },
}

impl How {
    /// The strategy's name, for reports.
    pub fn name(&self) -> &'static str {
        match self {
            How::Lifted { .. } => "lifting",
            How::Decomposed { .. } => "decomposition",
            How::Union(_) => "union of decompositions",
            How::Stochastic { .. } => "stochastic search",
        }
    }
}

/// A program that passes every example, and how it was found.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct UpperBound {
    /// The program, which passes every example.
    pub program: Program,
    /// The strategy that found it.
    pub how: How,
    /// Seconds from the start of the strategies to this program.
    pub seconds: f64,
    /// Instructions the program uses that the asked set lacks: the comparisons (`COMPARISONS`)
    /// decomposition adds when the asked instructions give it nothing. Empty otherwise.
    pub added: Vec<Op>,
}

/// The comparisons decomposition falls back on when the asked instructions give it no cover:
/// characterizations in the literature often say "the smallest heap" or "x <= y", which the
/// thesis's instructions write only at length, if at all.
pub(crate) const COMPARISONS: [Op; 2] = [Op::Min, Op::Lt];

/// The strategies to try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strategies {
    /// Try the `Or` of necessary conditions.
    pub decompose: bool,
    /// Try lifting from slices.
    pub lift: bool,
    /// Try stochastic search.
    pub stochastic: bool,
}

impl Strategies {
    /// Every strategy.
    pub const ALL: Strategies = Strategies {
        decompose: true,
        lift: true,
        stochastic: true,
    };
    /// No strategy: the plain shortest-first search.
    pub const NONE: Strategies = Strategies {
        decompose: false,
        lift: false,
        stochastic: false,
    };
}

impl std::str::FromStr for Strategies {
    type Err = String;

    /// `none`, `all`, or a comma-separated list of `decompose`, `lift`, `stochastic`.
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "none" => return Ok(Strategies::NONE),
            "all" => return Ok(Strategies::ALL),
            _ => {}
        }
        let mut chosen = Strategies::NONE;
        for name in s.split(',') {
            let flag = match name.trim() {
                "decompose" => &mut chosen.decompose,
                "lift" => &mut chosen.lift,
                "stochastic" => &mut chosen.stochastic,
                other => {
                    return Err(format!(
                        "unknown strategy `{other}` (expected none, all, or a list of \
                         decompose, lift, stochastic)"
                    ))
                }
            };
            *flag = true;
        }
        Ok(chosen)
    }
}

/// Dependency bounds above this (four or more variables matter, bound 7) get upper bounds
/// before the exact search; below, the exact search answers in well under a second on the
/// thesis's cases. With four variables they cost about a second at most (path:4) and are all
/// there is on `complex:0-1,1-2,2-0,2-3`, whose lengths from 13 on take minutes each.
pub const FROM_BOUND: usize = 6;

/// Decomposition is skipped when more variables than this matter: a cover must read them all,
/// each condition (at most 8 instructions) reads at most 4, so its `Or` grows long, while
/// lifting suits such games (the stars: star:8's zero target took 13.3 s with decomposition
/// beside lifting, 11.3 s without).
const DECOMPOSE_MAX_VARS: usize = 7;

/// Decomposition's own time limit when the search has none.
const DECOMPOSE_SECONDS: u64 = 20;

/// Runs the strategies until `deadline` and returns the shortest program found:
/// decomposition and lifting side by side (on two threads: they suit different games, and
/// either may take long), then, when neither found one, the stochastic walk. Lifting and the
/// walk look for at most `max_len` instructions; a cover may be longer (a long classifier is
/// still an answer). `report` hears of each new best.
pub fn find(
    problem: &Problem,
    backend: &dyn Backend,
    max_len: usize,
    deadline: Option<Instant>,
    strategies: Strategies,
    report: &mut dyn FnMut(&UpperBound),
) -> Result<Option<UpperBound>, Error> {
    let start = Instant::now();
    let seconds = || start.elapsed().as_secs_f64();
    let decompose_deadline =
        Some(deadline.unwrap_or(start + std::time::Duration::from_secs(DECOMPOSE_SECONDS)));
    // Set once lifting has a program: decomposition, which then rarely beats it, stops.
    let lifted_one = AtomicBool::new(false);
    let (decomposed, lifted) = std::thread::scope(|s| {
        let decomposed = s.spawn(|| -> Result<Option<UpperBound>, Error> {
            let read = problem.lower_bound().1.len();
            if !strategies.decompose || read > DECOMPOSE_MAX_VARS || past(decompose_deadline) {
                return Ok(None);
            }
            let stop = || past(decompose_deadline) || lifted_one.load(Ordering::Relaxed);
            let missing: Vec<Op> = COMPARISONS
                .into_iter()
                .filter(|op| !problem.ops.ops().contains(op))
                .collect();
            // With comparisons to fall back on, the asked instructions get half the time (a
            // union in them can take all of it, and come out longer).
            let asked_deadline = match decompose_deadline {
                Some(d) if !missing.is_empty() => {
                    let now = Instant::now();
                    Some(now + d.saturating_duration_since(now) / 2)
                }
                d => d,
            };
            let asked_stop = || past(asked_deadline) || stop();
            if let Some(found) = decompose_in(problem, &asked_stop, &seconds)? {
                return Ok(Some(found));
            }
            // Nothing with the asked instructions: the comparisons may say what they cannot.
            if missing.is_empty() || stop() {
                return Ok(None);
            }
            let mut wider = problem.clone();
            wider.ops = problem.ops.plus(&missing);
            Ok(decompose_in(&wider, &stop, &seconds)?.map(|mut found| {
                found.added = missing
                    .into_iter()
                    .filter(|op| found.program.0.contains(op))
                    .collect();
                found
            }))
        });
        let lifted = (|| -> Result<Option<UpperBound>, Error> {
            if !strategies.lift || past(deadline) || problem.lower_bound().0 <= lift::BASE_BOUND {
                return Ok(None);
            }
            let lifted = lift::find(problem, backend, max_len, deadline)?;
            lifted_one.store(lifted.is_some(), Ordering::Relaxed);
            Ok(lifted.map(|l| UpperBound {
                program: l.program,
                how: How::Lifted {
                    variables: l.variables,
                    base_length: l.base_length,
                },
                seconds: seconds(),
                added: Vec::new(),
            }))
        })();
        let decomposed = decomposed
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e));
        (decomposed, lifted)
    });
    let mut best: Option<UpperBound> = None;
    let mut consider = |found: UpperBound, best: &mut Option<UpperBound>| {
        let shorter = best
            .as_ref()
            .is_none_or(|b| found.program.len() < b.program.len());
        if shorter && problem.failures(&found.program).is_empty() {
            report(&found);
            *best = Some(found);
        }
    };
    // The first found first, so that the report's order is the order of finding.
    let mut found: Vec<UpperBound> = [decomposed?, lifted?].into_iter().flatten().collect();
    found.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
    for f in found {
        consider(f, &mut best);
    }
    // The walk is the last resort: it runs when the others found nothing.
    if strategies.stochastic && best.is_none() && !past(deadline) {
        if let Some((program, steps)) = stochastic::find(problem, max_len, deadline) {
            let found = UpperBound {
                program,
                how: How::Stochastic { steps },
                seconds: seconds(),
                added: Vec::new(),
            };
            consider(found, &mut best);
        }
    }
    Ok(best)
}

/// Decomposition in `problem`'s instructions: a conjunction of necessary conditions first,
/// then (none found) a union of two split by a mined predicate.
fn decompose_in(
    problem: &Problem,
    stop: &(dyn Fn() -> bool + Sync),
    seconds: &dyn Fn() -> f64,
) -> Result<Option<UpperBound>, Error> {
    if let Some((program, conditions)) = decompose::find(problem, stop)? {
        return Ok(Some(UpperBound {
            program,
            how: How::Decomposed { conditions },
            seconds: seconds(),
            added: Vec::new(),
        }));
    }
    Ok(
        decompose::unions::find(problem, stop)?.map(|(program, union)| UpperBound {
            program,
            how: How::Union(union),
            seconds: seconds(),
            added: Vec::new(),
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategies_are_named_in_lists() {
        assert_eq!("all".parse(), Ok(Strategies::ALL));
        assert_eq!("none".parse(), Ok(Strategies::NONE));
        assert_eq!(
            "lift, decompose".parse(),
            Ok(Strategies {
                decompose: true,
                lift: true,
                stochastic: false
            })
        );
        let err = "decompose,annealing".parse::<Strategies>().unwrap_err();
        assert!(err.contains("`annealing`"), "{err}");
    }
}
