//! Shortest-first counterexample-guided search: lengths 1, 2, ... each solved against a small
//! example set that grows by the interpreter's counterexamples until a program passes every data
//! point or the length is refuted.
//!
//! The search is *anytime*: upper bounds found first ([`super::upper`]) bound the lengths it
//! tries, and when it stops early (its deadline, or a stop asked for) it still answers with what
//! it established: the best program so far as `shortest found`, or none, as `undecided`, with
//! every length below the lower bound refuted.

use std::collections::BinaryHeap;
use std::time::Instant;

use super::lang::Program;
use super::problem::{Example, Problem};
use super::solver::{past, stop_requested, Backend, Found, Method};
use super::upper::{self, Strategies, UpperBound};
use grundy_core::cluster::{Solo, Team};
use grundy_core::error::{Error, Undecided};

/// Counterexamples added per failed candidate.
const COUNTEREXAMPLES_PER_ROUND: usize = 4;

/// Why a length has no program.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Refutation {
    /// The length refuted.
    pub length: usize,
    /// The dependency bound, or the backend that proved it on `examples` examples.
    pub by: Method,
    /// Examples the refutation used (0 for the dependency bound).
    pub examples: usize,
    /// Wall-clock seconds spent on the length.
    pub seconds: f64,
}

/// What the shortest-first search did, whether or not it found a program.
#[derive(Clone, Debug)]
pub struct Trace {
    /// Why each length below the program (or the lower bound) has none.
    pub refutations: Vec<Refutation>,
    /// Variables the dependency bound found to matter.
    pub dependent_vars: Vec<usize>,
    /// The examples the final solve saw (indices into the problem's examples).
    pub examples: Vec<usize>,
    /// Candidate-and-check rounds over every length: one solve each.
    pub rounds: usize,
    /// Wall-clock seconds of the search, the checks of candidates not counted.
    pub seconds_search: f64,
}

/// The result of a search that found a program.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The program, which passes every example.
    pub program: Program,
    /// Every shorter length was refuted.
    pub minimal: bool,
    /// What the search did on the way.
    pub trace: Trace,
    /// Wall-clock seconds spent checking candidates against every example.
    pub seconds_verify: f64,
    /// The length whose search was stopped, when the program is an upper bound found first.
    pub undecided: Option<usize>,
    /// Why the search stopped there.
    pub stopped: Option<Stop>,
    /// How the program was found, when not by the exact search.
    pub upper: Option<UpperBound>,
}

impl Outcome {
    /// Every length below this is refuted: the program's length when it is minimal.
    pub fn lower_bound(&self) -> usize {
        self.undecided.unwrap_or(self.program.len())
    }
}

/// What a search established when it stopped before finding any program.
#[derive(Clone, Debug)]
pub struct Partial {
    /// Every length below this is refuted.
    pub lower_bound: usize,
    /// What the search did.
    pub trace: Trace,
    /// Why the search stopped.
    pub stopped: Stop,
}

impl Answer {
    /// What the search did.
    pub fn trace(&self) -> &Trace {
        match self {
            Answer::Found(o) => &o.trace,
            Answer::Undecided(p) => &p.trace,
        }
    }
}

/// Why a search stopped before deciding every length below its program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The deadline passed.
    Deadline,
    /// A stop was asked for ([`super::solver::request_stop`], e.g. on Ctrl-C).
    Interrupt,
    /// Every length up to the longest to try was refuted, below a longer upper bound.
    MaxLen,
}

impl Stop {
    /// Deadline or interrupt, whichever it was.
    fn now() -> Self {
        if stop_requested() {
            Stop::Interrupt
        } else {
            Stop::Deadline
        }
    }

    /// For reports: "timed out", "interrupted", "longest length to try reached".
    pub fn text(self) -> &'static str {
        match self {
            Stop::Deadline => "timed out",
            Stop::Interrupt => "interrupted",
            Stop::MaxLen => "longest length to try reached",
        }
    }
}

/// A search's answer: a program (minimal, or the shortest found), or the bounds alone.
#[derive(Clone, Debug)]
pub enum Answer {
    /// A program was found (minimal when every shorter length was refuted).
    Found(Outcome),
    /// The search stopped before any program was found.
    Undecided(Partial),
}

/// What a live display is told: after every round, every length and every upper bound.
#[derive(Clone, Copy, Debug)]
pub struct State<'a> {
    /// The length being searched (0 while upper bounds are sought).
    pub length: usize,
    /// Every length below this is refuted.
    pub lower_bound: usize,
    /// The best program found so far.
    pub best: Option<&'a Program>,
    /// Examples in use at this length.
    pub examples: usize,
    /// Rounds so far, over every length.
    pub rounds: usize,
}

/// How a search runs.
pub struct Options<'a> {
    /// Longest program to try.
    pub max_len: usize,
    /// When to stop and report what is settled (`None`: no time limit).
    pub deadline: Option<Instant>,
    /// Upper-bound strategies to run first ([`Strategies::NONE`]: the plain shortest-first
    /// search), when the dependency bound is above `upper_from` ([`upper::FROM_BOUND`] by
    /// default: below it the exact search is quick).
    pub upper: Strategies,
    /// The dependency bound above which the upper-bound strategies run.
    pub upper_from: usize,
    /// Hears of the search's progress.
    pub watch: &'a (dyn Fn(&State<'_>) + Sync),
    /// The ranks running this same search together (a shared backend's, or [`Solo`]): a
    /// deadline one rank sees pass stops them all at the same step.
    pub team: &'a dyn Team,
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

/// Searches lengths 1..=max_len with `backend`; an undecided search is an
/// [`Error::Timeout`], and every length up to `max_len` refuted a resource error.
pub fn synthesize(
    problem: &Problem,
    backend: &dyn Backend,
    max_len: usize,
    deadline: Option<Instant>,
) -> Result<Outcome, Error> {
    let opts = Options {
        max_len,
        deadline,
        upper: Strategies::NONE,
        upper_from: upper::FROM_BOUND,
        watch: &|_| {},
        team: &Solo,
    };
    found(run(problem, backend, &opts)?)
}

/// The outcome of an answer that has a program; an undecided one as a timeout error.
fn found(answer: Answer) -> Result<Outcome, Error> {
    match answer {
        Answer::Found(o) => Ok(o),
        Answer::Undecided(p) => Err(Error::Timeout(Undecided {
            seconds: p.trace.seconds_search,
            lower_bound: Some(p.lower_bound),
            what: format!("length {}", p.lower_bound),
            table: None,
        })),
    }
}

/// When the upper bounds must give up: half way to the deadline, so that the shortest-first
/// search still gets its turn on games they do not suit (path:5 with `--timeout 60`: lifting
/// took all of it and left the bound's length 9 undecided; without it, lengths 9-12 are refuted).
fn upper_deadline(start: Instant, deadline: Option<Instant>) -> Option<Instant> {
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
    /// What the search did, up to now.
    fn trace(self) -> Trace {
        Trace {
            refutations: self.refutations,
            dependent_vars: self.deps,
            examples: self.examples,
            rounds: self.rounds,
            seconds_search: self.start.elapsed().as_secs_f64() - self.verify_seconds,
        }
    }

    fn finish(
        self,
        program: Program,
        undecided: Option<(usize, Stop)>,
        upper: Option<UpperBound>,
    ) -> Answer {
        let seconds_verify = self.verify_seconds;
        let trace = self.trace();
        Answer::Found(Outcome {
            minimal: undecided.is_none() && trace.refutations.len() == program.len() - 1,
            program,
            trace,
            seconds_verify,
            undecided: undecided.map(|u| u.0),
            stopped: undecided.map(|u| u.1),
            upper,
        })
    }

    /// Stopped at `length`: the best program so far, or the bounds alone.
    fn stopped(self, length: usize, upper: Option<UpperBound>) -> Answer {
        match upper {
            Some(u) => self.finish(u.program.clone(), Some((length, Stop::now())), Some(u)),
            None => Answer::Undecided(Partial {
                lower_bound: length,
                trace: self.trace(),
                stopped: Stop::now(),
            }),
        }
    }
}

/// The anytime search: upper bounds first when asked for and the bound is long, then every
/// length below the best program, shortest first.
pub fn run(problem: &Problem, backend: &dyn Backend, opts: &Options<'_>) -> Result<Answer, Error> {
    let start = Instant::now();
    let (bound, deps) = problem.lower_bound();
    let watch = |length, lower_bound, best: Option<&UpperBound>, examples, rounds| {
        (opts.watch)(&State {
            length,
            lower_bound,
            best: best.map(|b| &b.program),
            examples,
            rounds,
        })
    };
    // Under a team, rank 0 runs the strategies alone (they race threads against the clock, so
    // two ranks could find different programs) and tells the others what it found.
    let upper = if opts.upper != Strategies::NONE && bound > opts.upper_from {
        let found = match opts.team.is_root() {
            true => upper::find(
                problem,
                backend.alone().unwrap_or(backend),
                opts.max_len,
                upper_deadline(start, opts.deadline),
                opts.upper,
                &mut |u| watch(0, bound, Some(u), 0, 0),
            ),
            false => Ok(None),
        };
        opts.team.share(found)?
    } else {
        None
    };
    let deadline = opts.deadline;
    let mut run = Run {
        start,
        deps,
        refutations: Vec::new(),
        examples: initial_examples(problem),
        rounds: 0,
        verify_seconds: 0.0,
    };
    let upto = upper
        .as_ref()
        .map_or(opts.max_len, |u| u.program.len() - 1)
        .min(opts.max_len);
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
            watch(
                length,
                length,
                upper.as_ref(),
                run.examples.len(),
                run.rounds,
            );
            // Past the deadline no example is added, so a backend that answers at once would
            // return the same candidate forever.
            let found = if opts.team.any(past(deadline)) {
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
                Found::Timeout => return Ok(run.stopped(length, upper)),
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
                        if opts.team.any(past(deadline)) {
                            break;
                        }
                        search.add_example(e)?;
                        run.examples.push(e);
                    }
                }
            }
        }
    }
    match upper {
        Some(u) => {
            // The strategies checked it on every example; check again here, where results
            // are made.
            let v = Instant::now();
            let ok = problem.failures(&u.program).is_empty();
            run.verify_seconds += v.elapsed().as_secs_f64();
            if !ok {
                return Err(Error::internal(format!(
                    "{} returned `{}`, which fails the data",
                    u.how.name(),
                    u.program
                )));
            }
            // Below a program longer than the longest length to try, the lengths between are
            // open.
            let open = (upto < u.program.len() - 1).then_some((upto + 1, Stop::MaxLen));
            Ok(run.finish(u.program.clone(), open, Some(u)))
        }
        None => Err(Error::LengthLimit {
            max_len: opts.max_len,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::tests::boxed;
    use crate::problem::Target;

    #[test]
    fn upper_bounds_get_half_the_time() {
        let start = Instant::now();
        let d = start + std::time::Duration::from_secs(10);
        assert_eq!(
            upper_deadline(start, Some(d)),
            Some(start + std::time::Duration::from_secs(5))
        );
        assert_eq!(upper_deadline(start, None), None);
        // A deadline already past stays past.
        assert_eq!(upper_deadline(d, Some(start)), Some(d));
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
