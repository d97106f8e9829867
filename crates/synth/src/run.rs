//! One synthesis without input or output, as `grundy synth` runs it and any other front end
//! (the Python package, tests) may: the backend a solver name stands for ([`backend`]), the
//! choice between the plain and the orbit form ([`form`]), the shortest-first search
//! ([`cegis`]), and with `prove` the prover's loop ([`theorem`]), over a [`Task`]'s data.
//!
//! Progress reaches [`Search::watch`] after every round. A search stops at its deadline, or when
//! [`request_stop`] is called from any thread (the command line calls it on Ctrl-C): it then
//! answers with what it established. The stop is process-wide and stays asked for until
//! [`clear_stop`]; a front end that runs several searches clears it before each.

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

use super::auto::AutoBackend;
use super::cegis::{self, Answer, Options, State};
use super::enumerate::EnumBackend;
use super::form::{self, Choice, Form, Limits};
use super::problem::Problem;
use super::ranked::{Rank0, Ranked};
use super::sat::SatBackend;
use super::smt::SmtBackend;
use super::solver::Backend;
use super::task::Task;
use super::theorem::{self, Proof, ProverGame};
use super::upper::{self, Strategies};
use grundy_core::cluster::{Solo, Team};
use grundy_core::error::{Error, OptionKey};

/// The share of a time limit that a search followed by a proof leaves to the proof (and to
/// the proofs after a refutation): 12 s of a minute.
const PROOF_SHARE: f64 = 0.2;

pub use super::solver::{clear_stop, request_stop, stop_requested};

/// Which backend searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    /// Enumeration; the read-once search at the dependency bound's length; SAT for lengths
    /// enumeration cannot hold in memory (SAT alone when proofs are kept).
    Auto,
    /// CNF solved by varisat in a counterexample-guided loop.
    Sat,
    /// Bit-vector formulas solved by z3 in the same loop.
    Smt,
    /// Bottom-up enumeration keeping one program per distinct output vector on the examples.
    Enum,
}

impl FromStr for Solver {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(Solver::Auto),
            "sat" => Ok(Solver::Sat),
            "smt" => Ok(Solver::Smt),
            "enum" => Ok(Solver::Enum),
            _ => Err(format!("unknown solver `{s}`: auto, sat, smt or enum")),
        }
    }
}

/// What a backend is built with.
#[derive(Clone)]
pub struct BackendOptions {
    /// Worker threads for enumeration and cubes (0: every core).
    pub threads: usize,
    /// Bytes enumeration may hold.
    pub memory_limit: u64,
    /// Keep DRAT proofs of refuted lengths under this name (SAT only; `auto` then is SAT).
    pub proof: Option<PathBuf>,
    /// Split SAT lengths into cubes solved on `threads` solvers.
    pub cubes: bool,
    /// The ranks sharing enumeration's work ([`Solo`] for one process).
    pub team: Arc<dyn Team>,
}

impl BackendOptions {
    /// One process on every core, within `memory_limit` bytes, no proofs, no cubes.
    pub fn new(memory_limit: u64) -> Self {
        BackendOptions {
            threads: 0,
            memory_limit,
            proof: None,
            cubes: false,
            team: Arc::new(Solo),
        }
    }
}

/// The backend `solver` names, built with `opts`. With a team of several ranks, every search
/// is the team's (enumeration split among the ranks, the others run on rank 0: `ranked`), and
/// the backend's twin for one process serves what rank 0 does alone.
pub fn backend(solver: Solver, opts: &BackendOptions) -> Box<dyn Backend> {
    if opts.team.size() == 1 {
        return build(solver, opts);
    }
    let alone = BackendOptions {
        team: Arc::new(Solo),
        ..opts.clone()
    };
    Box::new(Ranked {
        shared: build(solver, opts),
        alone: build(solver, &alone),
    })
}

/// The backend `solver` names for `opts`'s team.
fn build(solver: Solver, opts: &BackendOptions) -> Box<dyn Backend> {
    let team = opts.team.clone();
    let rank0 = |inner: Box<dyn Backend>| -> Box<dyn Backend> {
        match team.size() {
            1 => inner,
            _ => Box::new(Rank0 {
                inner,
                team: team.clone(),
            }),
        }
    };
    let sat = SatBackend {
        proof: opts.proof.clone(),
        cubes: opts.cubes.then(|| match opts.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }),
        ..SatBackend::default()
    };
    match solver {
        Solver::Sat => rank0(Box::new(sat)),
        Solver::Smt => rank0(Box::new(SmtBackend)),
        Solver::Enum => Box::new(EnumBackend {
            team: opts.team.clone(),
            ..EnumBackend::new(opts.threads, opts.memory_limit)
        }),
        // Proofs come from SAT only; otherwise enumeration, with SAT for lengths it cannot hold.
        Solver::Auto if opts.proof.is_some() => rank0(Box::new(sat)),
        Solver::Auto => Box::new(AutoBackend {
            first: EnumBackend {
                team: opts.team.clone(),
                ..EnumBackend::new(opts.threads, opts.memory_limit)
            },
            fallback: sat,
            team: opts.team.clone(),
        }),
    }
}

/// Which forms a search may return.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forms {
    /// Both, when the game's automorphism group is small and non-trivial and nothing else
    /// fixes the form (`form::try_both`); else the task's.
    Choose,
    /// The task's form only, because of what this says (e.g. "exports record one form"):
    /// reported as the reason when both would otherwise have been tried.
    Fixed(String),
    /// The task's form only, asked for: this is the whole reason reported.
    Given(String),
}

/// How one synthesis runs.
pub struct Search<'a> {
    /// Longest program to try.
    pub max_len: usize,
    /// When to stop and answer with what is established (`None`: no time limit).
    pub deadline: Option<Instant>,
    /// Upper-bound strategies to run first.
    pub upper: Strategies,
    /// The dependency bound above which they run ([`upper::FROM_BOUND`], or 0 for always).
    pub upper_from: usize,
    /// Which forms may be returned.
    pub forms: Forms,
    /// Prove the program for every position, searching again on the prover's
    /// counterexamples (`theorem::prove_and_search`).
    pub prove: bool,
    /// With `prove`, the bit-vector bound for hypergraph nim programs with no linear reading.
    pub bound: Option<u32>,
    /// Hears of the search's progress after every round.
    pub watch: &'a (dyn Fn(&State<'_>) + Sync),
    /// The ranks running this same search ([`Solo`] for one process).
    pub team: &'a dyn Team,
}

impl Search<'static> {
    /// Up to `max_len` instructions, no deadline, every upper-bound strategy from the
    /// default bound, both forms when they apply, no proof, no progress, one process.
    pub fn new(max_len: usize) -> Self {
        Search {
            max_len,
            deadline: None,
            upper: Strategies::ALL,
            upper_from: upper::FROM_BOUND,
            forms: Forms::Choose,
            prove: false,
            bound: None,
            watch: &|_| {},
            team: &Solo,
        }
    }
}

/// What a synthesis came to.
#[derive(Clone, Debug)]
pub struct Synthesis {
    /// The task of the form returned (its criterion the answer's).
    pub task: Task,
    /// The examples the answer holds on: the form's, and with `prove` the data the prover's
    /// counterexamples enlarged.
    pub problem: Problem,
    /// The program (minimal, or the shortest found), or the bounds alone.
    pub answer: Answer,
    /// The form returned, and why.
    pub form: Choice,
    /// What the prover established, with `prove`.
    pub proof: Option<Proof>,
}

/// Whether both forms are tried for `task` under `forms`, or why not (the report's words).
pub(crate) fn try_both(task: &Task, forms: &Forms) -> Result<(), String> {
    match forms {
        Forms::Given(why) => Err(why.clone()),
        Forms::Fixed(why) => form::try_both(task.game(), task, Some(why)),
        Forms::Choose => form::try_both(task.game(), task, None),
    }
}

/// Refuses, before any search, a proof that cannot run on `task` (the game's kind, the
/// target, a family), or a `bound` it does not take.
pub fn check_prove(task: &Task, bound: Option<u32>) -> Result<(), Error> {
    let g = theorem::prover_game(task)?;
    if let Some(b) = bound {
        if let ProverGame::Heaps(_) = g {
            return Err(Error::refused(
                OptionKey::Bound,
                ": heap games are proved over unbounded naturals only",
            ));
        }
        super::prove::bitvec::check_bound(b)?;
    }
    Ok(())
}

/// Searches `problem` (the data of `task`, [`Task::problem`]) with `backend`: both forms when
/// `search.forms` allows, then with `search.prove` the prover's loop. A search stopped (its
/// deadline, [`request_stop`]) answers with what it established; an error is the search's or
/// the prover's.
pub fn synthesize(
    task: &Task,
    problem: Problem,
    backend: &dyn Backend,
    search: &Search<'_>,
) -> Result<Synthesis, Error> {
    if search.prove {
        check_prove(task, search.bound)?;
    }
    let both = try_both(task, &search.forms);
    let mut chosen = Choice {
        form: if task.orbits() {
            Form::Orbits
        } else {
            Form::Plain
        },
        why: both.clone().err().unwrap_or_default(),
    };
    let mut one = |p: &Problem, l: &Limits| {
        let opts = Options {
            max_len: l.max_len,
            deadline: l.deadline,
            upper: if l.upper {
                search.upper
            } else {
                Strategies::NONE
            },
            upper_from: search.upper_from,
            watch: search.watch,
            team: search.team,
        };
        cegis::run(p, backend, &opts)
    };
    // With a proof to come, an anytime search that would run to the deadline leaves the proof
    // its share of the time, so the program it found is proved rather than timed out.
    let search_deadline = match (search.prove, search.deadline) {
        (true, Some(d)) => {
            let now = Instant::now();
            Some(now + d.saturating_duration_since(now).mul_f64(1.0 - PROOF_SHARE))
        }
        (_, d) => d,
    };
    let limits = Limits {
        max_len: search.max_len,
        deadline: search_deadline,
        upper: true,
    };
    let (mut problem, mut answer) = match (&both, task.game()) {
        (Ok(()), Some(g)) => {
            let (p, a, c) = form::choose(task, g, problem, limits, &mut one)?;
            chosen = c;
            (p, a)
        }
        _ => {
            let a = one(&problem, &limits)?;
            (problem, a)
        }
    };
    // What follows (the proof, a cross-check) is about the form returned.
    let task = task.with_orbits(problem.orbits);
    let mut proof = None;
    if search.prove {
        let g = theorem::prover_game(&task)?;
        let mut again = |p: &Problem| one(p, &limits);
        let (p, a, found) = theorem::prove_and_search(
            g,
            &task,
            problem,
            answer,
            search.deadline,
            search.bound,
            search.team,
            &mut again,
        )?;
        problem = p;
        answer = a;
        if !found.history.is_empty() && both.is_ok() {
            chosen.why += ", on the first data, before the prover's positions";
        }
        proof = Some(found);
    }
    Ok(Synthesis {
        task,
        problem,
        answer,
        form: chosen,
        proof,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::Setup;
    use crate::theorem::ProofStatus;
    use grundy_core::sg::table::TableOptions;

    fn task(game: &str, max: usize) -> Task {
        Setup {
            game: Some(game.into()),
            max: Some(max),
            ..Setup::default()
        }
        .task()
        .unwrap()
    }

    fn enumeration() -> Box<dyn Backend> {
        backend(Solver::Enum, &BackendOptions::new(1 << 30))
    }

    #[test]
    fn both_forms_are_tried_and_the_shorter_returned() {
        // path:4 on [0,3)^4: 7 instructions under the flip, none of 8 or less plainly.
        let t = task("path:4", 3);
        let problem = t.problem(&TableOptions::default()).unwrap();
        let s = synthesize(&t, problem, enumeration().as_ref(), &Search::new(8)).unwrap();
        assert_eq!(s.form.form, Form::Orbits, "{}", s.form.why);
        assert!(s.task.orbits() && s.problem.orbits);
        let Answer::Found(o) = &s.answer else {
            panic!("no program")
        };
        assert!(o.minimal && o.program.len() == 7);
        assert!(s.problem.failures(&o.program).is_empty());
        // Fixed to the plain form, the exact search finds none that short.
        let fixed = Search {
            forms: Forms::Given("asked for".into()),
            upper: Strategies::NONE,
            ..Search::new(8)
        };
        let problem = t.problem(&TableOptions::default()).unwrap();
        let r = synthesize(&t, problem, enumeration().as_ref(), &fixed);
        assert!(matches!(r, Err(Error::LengthLimit { .. })), "{r:?}");
    }

    #[test]
    fn the_prover_proves_what_the_search_found() {
        let t = task("nim:2", 3);
        let problem = t.problem(&TableOptions::default()).unwrap();
        let search = Search {
            prove: true,
            ..Search::new(6)
        };
        let s = synthesize(&t, problem, enumeration().as_ref(), &search).unwrap();
        let proof = s.proof.expect("proved");
        assert_eq!(proof.status, ProofStatus::Proved, "{:?}", proof.why);
        // A proof that cannot run is refused before the search.
        let sg = Setup {
            game: Some("nim:2".into()),
            max: Some(3),
            target: crate::problem::Target::Sg,
            orbits: true,
            ..Setup::default()
        };
        let sg = sg.task();
        assert!(sg.is_err() || check_prove(&sg.unwrap(), None).is_err());
    }
}
