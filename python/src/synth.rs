//! Synthesis: the shortest program classifying a game's positions, by the library's one entry
//! ([`grundy_synth::run::synthesize`]) over a [`Task`] built once from typed parts.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use grundy_core::catalog::spec::{self, Heaps};
use grundy_core::catalog::AnyGame;
use grundy_core::error::Error;
use grundy_core::sg::table::TableOptions;
use grundy_synth::cegis::{Answer, State};
use grundy_synth::consts::Consts;
use grundy_synth::lang::{words, Edits, Program};
use grundy_synth::problem::Target;
use grundy_synth::prove::Verdict;
use grundy_synth::run::{self, BackendOptions, Forms, Search, Solver, Synthesis};
use grundy_synth::task::{Parts, Task};
use grundy_synth::theorem::{Proof, ProofStatus};
use grundy_synth::upper::Strategies;
use pyo3::prelude::*;
use serde_json::{json, Value};

use crate::errors::{self, guarded, lift};
use crate::run::{run_stopping, Outcome, Watch};

/// A target by its command-line name.
fn target(name: &str) -> Result<Target, Error> {
    match name {
        "zero" => Ok(Target::Zero),
        "indicator" => Ok(Target::Indicator),
        "sg" => Ok(Target::Sg),
        other => Err(Error::Usage(format!(
            "target must be zero, indicator or sg, got `{other}`"
        ))),
    }
}

/// What the arguments describe, checked once.
#[allow(clippy::too_many_arguments)]
fn task(
    game: Option<&str>,
    max: Option<usize>,
    data: Option<PathBuf>,
    target_name: &str,
    orbits: bool,
    ops: Option<&str>,
    heaps: Option<usize>,
    width: u32,
    consts: Option<&str>,
) -> Result<Task, Error> {
    let game: Option<Arc<dyn AnyGame>> = match game {
        Some(spec) => Some(Arc::from(spec::parse(spec, Heaps::given(heaps))?)),
        None => None,
    };
    let edits: Edits = match ops {
        Some(ops) => ops.parse()?,
        None => Edits::none(),
    };
    let consts: Option<Consts> = match consts {
        Some(text) => Some(text.parse().map_err(Error::Usage)?),
        None => None,
    };
    let task = Task::new(Parts {
        game,
        max,
        data,
        family: None,
        target: target(target_name)?,
        orbits,
        width,
        edits,
    })?;
    let ks = Consts::given_or_default(consts.as_ref(), task.game())?;
    Ok(task.with_constants(ks))
}

/// The prover's outcome, as `grundy synth --prove --json` reports it.
fn proof_json(p: &Proof) -> Value {
    let t = p.theorem.as_ref();
    let counterexample = match t.map(|t| &t.verdict) {
        Some(Verdict::Refuted(c)) if p.status == ProofStatus::Refuted => json!(c),
        _ => Value::Null,
    };
    json!({
        "status": match p.status {
            ProofStatus::Proved => "proved",
            ProofStatus::Refuted => "refuted",
            ProofStatus::Unknown => "unknown",
        },
        "scope": t.map(|t| &t.scope),
        "reading": t.map(|t| &t.reading),
        "automorphisms": t.map(|t| t.automorphisms),
        "counterexample": counterexample,
        "why": p.why,
        "counterexamples": p.history.len(),
        "seconds": t.map(|t| t.seconds),
    })
}

/// A synthesis as one JSON object, with the fields `grundy synth --json` gives them.
fn answer_json(s: &Synthesis) -> Value {
    let (program, status, lower_bound, stopped): (Option<&Program>, &str, usize, Option<&str>) =
        match &s.answer {
            Answer::Found(o) => (
                Some(&o.program),
                if o.minimal {
                    "minimal"
                } else {
                    "shortest found"
                },
                o.lower_bound(),
                o.stopped.map(|s| s.text()),
            ),
            Answer::Undecided(p) => (None, "undecided", p.lower_bound, Some(p.stopped.text())),
        };
    let problem = &s.problem;
    let words = match (problem.target, program) {
        (Target::Zero | Target::Indicator, Some(p)) => words::zero_set(p, problem.mask()),
        _ => None,
    };
    json!({
        "status": status,
        "program": program.map(Program::names),
        "expression": program.map(Program::infix),
        "latex": program.map(Program::latex),
        "words": words,
        "length": program.map(Program::len),
        "lower_bound": lower_bound,
        "upper_bound": program.map(Program::len),
        "minimal": status == "minimal",
        "stopped": stopped,
        "target": match problem.target {
            Target::Zero => "zero",
            Target::Indicator => "indicator",
            Target::Sg => "sg",
        },
        "orbits": problem.orbits,
        "width": problem.width,
        "form": s.form.form.name(),
        "form_why": s.form.why,
        "instructions": problem.ops.describe(),
        "data": problem.source,
        "data_points": problem.points.len(),
        "examples": problem.examples.len(),
        "rounds": s.answer.trace().rounds,
        "proof": s.proof.as_ref().map(proof_json),
    })
}

/// The shortest program for a game's box or a table file, as `grundy synth --json` reports
/// it. A time limit or Ctrl-C stops the search, which answers with what it established.
#[pyfunction]
#[pyo3(signature = (game=None, max=None, data=None, target_name="zero", orbits=false, timeout=None, ops=None, heaps=None, width=8, max_len=20, solver="auto", plain=false, prove=false, bound=None, consts=None, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn synth(
    py: Python<'_>,
    game: Option<&str>,
    max: Option<usize>,
    data: Option<PathBuf>,
    target_name: &str,
    orbits: bool,
    timeout: Option<f64>,
    ops: Option<&str>,
    heaps: Option<usize>,
    width: u32,
    max_len: usize,
    solver: &str,
    plain: bool,
    prove: bool,
    bound: Option<u32>,
    consts: Option<&str>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    guarded(py, || {
        let task = lift(
            py,
            task(
                game,
                max,
                data,
                target_name,
                orbits,
                ops,
                heaps,
                width,
                consts,
            ),
        )?;
        let solver: Solver = lift(py, solver.parse().map_err(Error::Usage))?;
        if prove {
            lift(py, run::check_prove(&task, bound))?;
        }
        let deadline = timeout.map(|s| Instant::now() + Duration::from_secs_f64(s));
        let work = move |w: Watch| {
            let memory = grundy_core::memory::default_limit();
            let problem = task.problem(&TableOptions {
                threads: 0,
                memory_limit: memory,
                progress: w.progress.clone(),
            })?;
            let backend = run::backend(solver, &BackendOptions::new(memory));
            let started = std::sync::atomic::AtomicBool::new(false);
            let watch = |s: &State<'_>| {
                use grundy_core::progress::Progress;
                if !started.swap(true, std::sync::atomic::Ordering::Relaxed) {
                    w.progress.start("lengths refuted", max_len as u64);
                }
                w.progress.set(s.lower_bound.saturating_sub(1) as u64);
            };
            let search = Search {
                deadline,
                upper: match solver {
                    Solver::Auto => Strategies::ALL,
                    _ => Strategies::NONE,
                },
                forms: if plain {
                    Forms::Given("plain=True".into())
                } else {
                    Forms::Choose
                },
                prove,
                bound,
                watch: &watch,
                ..Search::new(max_len)
            };
            run::synthesize(&task, problem, backend.as_ref(), &search)
        };
        // The stop is process-wide: one search at a time hears it.
        run::clear_stop();
        match run_stopping(py, None, progress.as_ref(), &run::request_stop, work)? {
            Outcome::Done(s) => Ok(answer_json(&s).to_string()),
            Outcome::TimedOut => Err(errors::to_py(
                py,
                &Error::internal("timed out without a limit"),
            )),
        }
    })
}
