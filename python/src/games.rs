//! The functions of the native module: games, nimbers, winning moves, tables, periods and
//! proofs, each a thin call of the library answering one JSON object.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use grundy_core::catalog::solve::{by_theorem, solve};
use grundy_core::catalog::spec::{self, Heaps, FAMILIES};
use grundy_core::catalog::sweep::box_values;
use grundy_core::catalog::AnyGame;
use grundy_core::error::{Error, Undecided};
use grundy_core::game::{Grid, Stones};
use grundy_core::period::{analyse_until, words};
use grundy_core::sg::engine::Engine;
use grundy_core::sg::table::TableOptions;
use grundy_core::sg::SearchConfig;
use grundy_synth::lang::Program;
use grundy_synth::prove::{self as prover, Options, Verdict};
use numpy::{IntoPyArray, PyArrayDyn};
use pyo3::prelude::*;
use serde_json::{json, Value};

use crate::errors;
use crate::run::{run, Outcome, Watch};

/// Runs `body`, a library error raised as its exception and a panic as `InternalError`.
fn guarded<T>(py: Python<'_>, body: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(result) => result,
        Err(p) => Err(errors::raise(py, "InternalError", errors::panic_message(p.as_ref()))),
    }
}

/// A library result in Python: its error raised as the exception of its kind.
fn lift<T>(py: Python<'_>, r: Result<T, Error>) -> PyResult<T> {
    r.map_err(|e| errors::to_py(py, &e))
}

/// An engine name as the command line's `--engine` takes it.
fn engine(name: &str) -> Result<Engine, Error> {
    name.parse().map_err(Error::Usage)
}

/// A game and its position; a missing position is bad input that shows how to give one.
fn game_at(spec: &str, words: &[String], function: &str) -> Result<(Arc<dyn AnyGame>, Stones), Error> {
    match spec::game_at(spec, words)? {
        Some((game, p)) => Ok((Arc::from(game), p)),
        None => Err(Error::Usage(format!(
            "{spec} needs a position, e.g. grundy.{function}(\"{spec}\", (3, 0, 3))"
        ))),
    }
}

/// Tabulation options: every core, the default memory limit, progress to `watch`.
fn table_options(watch: &Watch) -> TableOptions {
    TableOptions {
        threads: 0,
        memory_limit: grundy_core::memory::default_limit(),
        progress: watch.progress.clone(),
    }
}

/// A search's time limit passing: what was asked, and the bounds known without search.
fn nimber_undecided(game: &dyn AnyGame, p: &Stones, seconds: f64) -> Error {
    Error::Timeout(Undecided {
        seconds,
        lower_bound: None,
        what: format!(
            "the nimber of {} at {} (from 0 to {}, the number of moves)",
            game.name(),
            game.format_position(p),
            game.move_count(p)
        ),
        table: None,
    })
}

/// Every game family: `{"games": [...], "heap_games": [...], "board_games": [...]}` as
/// `grundy games --json` lists them.
#[pyfunction]
pub fn games() -> String {
    use grundy_core::catalog::spec::Kind;
    let of = |kind: Kind| -> Vec<Value> {
        FAMILIES
            .iter()
            .filter(|f| f.kind() == kind)
            .map(|f| json!({"spec": f.form, "example": f.example, "about": f.about}))
            .collect()
    };
    json!({
        "games": of(Kind::Hypergraph),
        "heap_games": of(Kind::Heap),
        "board_games": of(Kind::Board),
    })
    .to_string()
}

/// The nimber of a position, as `grundy sg --json` reports it.
#[pyfunction]
#[pyo3(signature = (game, position, engine_name="auto", moves=false, timeout=None, progress=None))]
pub fn sg(
    py: Python<'_>,
    game: &str,
    position: Vec<String>,
    engine_name: &str,
    moves: bool,
    timeout: Option<f64>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    guarded(py, || {
        let (g, p) = lift(py, game_at(game, &position, "sg"))?;
        let e = lift(py, engine(engine_name))?;
        let cfg = SearchConfig::default();
        // What a theorem answers takes no time, whatever the limit.
        let s = match by_theorem(g.as_ref(), &p, e, &cfg, moves) {
            Some(s) => s,
            None => {
                let (searched, at) = (Arc::clone(&g), p.clone());
                let work = move |w: Watch| {
                    solve(searched.as_ref(), &at, e, cfg, &table_options(&w), moves)
                };
                match run(py, timeout, progress.as_ref(), work)? {
                    Outcome::Done(s) => s,
                    Outcome::TimedOut => {
                        let limit = timeout.unwrap_or_default();
                        return Err(errors::to_py(py, &nimber_undecided(g.as_ref(), &p, limit)));
                    }
                }
            }
        };
        let mut obj = json!({
            "game": g.name(),
            "position": p.to_vec(),
            "position_text": g.format_position(&p),
            "nimber": s.nimber,
            "engine": s.engine,
            "engine_reason": s.reason,
            "nodes": s.stats.nodes,
            "seconds": s.seconds,
        });
        if let Some(m) = &s.winning_moves {
            obj["winning_moves"] = m.iter().map(|q| q.to_vec()).collect::<Vec<_>>().into();
            obj["winning_moves_text"] = m
                .iter()
                .map(|q| g.format_position(q))
                .collect::<Vec<_>>()
                .into();
            obj["moves"] = m
                .iter()
                .map(|q| g.describe_move(&p, q))
                .collect::<Vec<_>>()
                .into();
        }
        Ok(obj.to_string())
    })
}

/// The values of every position of the box [0, max)^n: a numpy array (-1 where a point is no
/// position of the game) and what `grundy table --json` says of the run.
#[pyfunction]
#[pyo3(signature = (game, max, heaps=None, engine_name="auto", progress=None))]
pub fn table<'py>(
    py: Python<'py>,
    game: &str,
    max: usize,
    heaps: Option<usize>,
    engine_name: &str,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyArrayDyn<i64>>, String)> {
    guarded(py, || {
        let g: Arc<dyn AnyGame> = Arc::from(lift(py, spec::parse(game, Heaps::given(heaps)))?);
        if max == 0 {
            return Err(errors::to_py(py, &Error::Usage("max must be at least 1".into())));
        }
        let e = lift(py, engine(engine_name))?;
        let grid = lift(py, Grid::cube(g.variables(), max))?;
        let (searched, box_) = (Arc::clone(&g), grid.clone());
        let work = move |w: Watch| {
            box_values(searched.as_ref(), &box_, e, SearchConfig::default(), &table_options(&w))
        };
        let Outcome::Done((ran, stats, t)) = run(py, None, progress.as_ref(), work)? else {
            return Err(errors::to_py(py, &Error::internal("a table without a time limit timed out")));
        };
        let values: Vec<i64> = t.entries().map(|v| v.map_or(-1, i64::from)).collect();
        let shape = ndarray::IxDyn(grid.sides());
        let array = lift(
            py,
            ndarray::ArrayD::from_shape_vec(shape, values)
                .map_err(|e| Error::internal(format!("the table's shape: {e}"))),
        )?;
        let meta = json!({
            "game": g.name(),
            "box": grid.to_string(),
            "engine": ran,
            "positions": t.position_count(),
            "nodes": stats.nodes,
        });
        Ok((array.into_pyarray(py), meta.to_string()))
    })
}

/// A winning move from a position, as `grundy best-move --json` reports it.
#[pyfunction]
#[pyo3(signature = (game, position, engine_name="auto", timeout=None, progress=None))]
pub fn best_move(
    py: Python<'_>,
    game: &str,
    position: Vec<String>,
    engine_name: &str,
    timeout: Option<f64>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    let answer: Value = serde_json::from_str(&sg(
        py,
        game,
        position,
        engine_name,
        true,
        timeout,
        progress,
    )?)
    .map_err(|e| errors::to_py(py, &Error::internal(e.to_string())))?;
    let first = |key: &str| answer[key].get(0).cloned().unwrap_or(Value::Null);
    Ok(json!({
        "game": answer["game"],
        "from": answer["position"],
        "from_text": answer["position_text"],
        "nimber": answer["nimber"],
        "move": first("moves"),
        "position": first("winning_moves"),
        "position_text": first("winning_moves_text"),
        "winning_moves": answer["winning_moves"].as_array().map_or(0, |m| m.len()),
    })
    .to_string())
}

/// A heap game's nim sequence and its period, proved, as `grundy period --json` reports it,
/// with the theorem and its proof in words (`text`).
#[pyfunction]
#[pyo3(signature = (game, max_heap=1_000_000, timeout=None, progress=None))]
pub fn period(
    py: Python<'_>,
    game: &str,
    max_heap: usize,
    timeout: Option<f64>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    guarded(py, || {
        let g = lift(py, spec::parse_heap(game))?;
        if max_heap < 1 || max_heap > spec::MAX_HEAP {
            return Err(errors::to_py(
                py,
                &Error::Usage(format!(
                    "max_heap must be between 1 and {}, got {max_heap}",
                    spec::MAX_HEAP
                )),
            ));
        }
        let deadline =
            timeout.map(|s| std::time::Instant::now() + std::time::Duration::from_secs_f64(s));
        let work = move |w: Watch| {
            let stop = || w.cancelled() || deadline.is_some_and(|d| std::time::Instant::now() >= d);
            let a = analyse_until(g.rule(), max_heap, w.progress.as_ref(), &stop);
            let name = g.rule().name();
            let shown = match &a.proved {
                Some(p) => p.preperiod + p.period,
                None => a.values.len(),
            };
            Ok(json!({
                "game": name,
                "status": if a.proved.is_some() { "proved" } else { "unsettled" },
                "preperiod": a.proved.as_ref().map(|p| p.preperiod),
                "period": a.proved.as_ref().map(|p| p.period),
                "saltus": a.proved.as_ref().map(|p| p.saltus),
                "values": &a.values[..shown.min(a.values.len())],
                "computed": a.values.len(),
                "checked_up_to": a.proved.as_ref().map(|p| p.checked_up_to),
                "criterion": a.proved.as_ref().map(|p| p.criterion),
                "observed": a.observed,
                "rarity": a.rarity,
                "timed_out": a.stopped,
                "note": a.proved.is_none().then(|| words::unsettled(&a)),
                "text": words::text(name, &a),
            }))
        };
        match run(py, None, progress.as_ref(), work)? {
            Outcome::Done(obj) => Ok(obj.to_string()),
            Outcome::TimedOut => Err(errors::to_py(py, &Error::internal("timed out without a limit"))),
        }
    })
}

/// What z3 proves of a program's reading for every position, as `grundy prove --json`
/// reports it.
#[pyfunction]
#[pyo3(signature = (game, program, orbits=false, target="zero", heaps=None, width=None, bound=None, timeout=None))]
#[allow(clippy::too_many_arguments)]
pub fn prove(
    py: Python<'_>,
    game: &str,
    program: &str,
    orbits: bool,
    target: &str,
    heaps: Option<usize>,
    width: Option<u32>,
    bound: Option<u32>,
    timeout: Option<f64>,
) -> PyResult<String> {
    guarded(py, || {
        let parsed: Program = lift(py, program.parse())?;
        let target = match target {
            "zero" => prover::Target::Zero,
            "indicator" => prover::Target::Indicator,
            "sg" => prover::Target::Sg,
            other => {
                let msg = format!("target must be zero, indicator or sg, got `{other}`");
                return Err(errors::to_py(py, &Error::Usage(msg)));
            }
        };
        let g = lift(py, spec::parse(game, Heaps::given(heaps)))?;
        let opts = Options {
            orbits,
            timeout,
            target,
            bound,
            width,
            fallback_bound: None,
        };
        let (spec_name, at) = (game.to_string(), parsed.clone());
        let work = move |_: Watch| {
            let found = prover::prove_game(g.as_ref(), &at, &opts)?;
            found.ok_or_else(|| {
                Error::Usage(format!(
                    "{spec_name} is a board game; grundy.prove handles games of hypergraph nim \
                     and heap games"
                ))
            })
        };
        let Outcome::Done((t, takes)) = run(py, None, None, work)? else {
            return Err(errors::to_py(py, &Error::internal("timed out without a limit")));
        };
        let (status, counterexample, undecided) = match &t.verdict {
            Verdict::Proved => ("proved", Value::Null, None),
            Verdict::Refuted(c) => ("refuted", json!(c), None),
            Verdict::Unknown(why) => ("unknown", Value::Null, Some(why.clone())),
        };
        Ok(json!({
            "status": status,
            "scope": t.scope,
            "target": t.target,
            "bound": t.bound,
            "width": t.width,
            "no_linear_reading": t.no_linear_reading,
            "game": game,
            "program": parsed.names(),
            "expression": parsed.infix(),
            "orbits": orbits,
            "automorphisms": t.automorphisms,
            "faces": t.faces,
            "heaps": takes.as_ref().map(|_| t.faces),
            "reading": t.reading,
            "counterexample": counterexample,
            "undecided": undecided,
            "seconds": t.seconds,
        })
        .to_string())
    })
}

/// The specs of a survey's family of heap games, in the survey's order (`grundy survey`'s
/// `--family` with `--size`/`--max-element` or `--digits`).
#[pyfunction]
#[pyo3(signature = (family, size=None, max_element=None, digits=None))]
pub fn survey_members(
    py: Python<'_>,
    family: &str,
    size: Option<usize>,
    max_element: Option<usize>,
    digits: Option<usize>,
) -> PyResult<Vec<String>> {
    use grundy_core::period::survey::Family;
    guarded(py, || {
        let need = |x: Option<usize>, name: &str| {
            x.ok_or_else(|| Error::Usage(format!("the {family} family needs {name}")))
        };
        let f = match (family, size, max_element, digits) {
            ("subtraction", _, _, None) => Family::Subtraction {
                size: lift(py, need(size, "size"))?,
                max_element: lift(py, need(max_element, "max_element"))?,
            },
            ("octal", None, None, _) => Family::Octal {
                digits: lift(py, need(digits, "digits"))?,
            },
            ("hex", None, None, _) => Family::Hex {
                digits: lift(py, need(digits, "digits"))?,
            },
            ("subtraction" | "octal" | "hex", ..) => {
                let msg = "subtraction takes size and max_element; octal and hex take digits";
                return Err(errors::to_py(py, &Error::Usage(msg.into())));
            }
            (other, ..) => {
                let msg = format!("family must be subtraction, octal or hex, got `{other}`");
                return Err(errors::to_py(py, &Error::Usage(msg)));
            }
        };
        lift(py, f.members())
    })
}

/// One survey row: the period analysis of `game` up to `max_heap`, as `grundy survey` writes
/// it (`status` proved, observed or unsettled).
#[pyfunction]
pub fn survey_row(py: Python<'_>, game: &str, max_heap: usize) -> PyResult<String> {
    guarded(py, || {
        let g = lift(py, spec::parse_heap(game))?;
        if max_heap < 1 || max_heap > spec::MAX_HEAP {
            let msg = format!("max_heap must be between 1 and {}, got {max_heap}", spec::MAX_HEAP);
            return Err(errors::to_py(py, &Error::Usage(msg)));
        }
        let name = game.to_string();
        let work = move |w: Watch| {
            let stop = || w.cancelled();
            let a = analyse_until(g.rule(), max_heap, w.progress.as_ref(), &stop);
            let row = grundy_core::period::survey::Row::of(&name, &a);
            serde_json::to_string(&row).map_err(|e| Error::internal(e.to_string()))
        };
        match run(py, None, None, work)? {
            Outcome::Done(row) => Ok(row),
            Outcome::TimedOut => Err(errors::to_py(py, &Error::internal("timed out without a limit"))),
        }
    })
}
