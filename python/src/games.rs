//! Games, nimbers, winning moves and tables: thin calls of grundy-core answering one JSON
//! object (a numpy array beside it for tables).

use std::sync::Arc;

use grundy_core::catalog::solve::{by_theorem, nimber_undecided, solve_kept, Control};
use grundy_core::catalog::spec::{self, Heaps, FAMILIES};
use grundy_core::catalog::sweep::box_values;
use grundy_core::catalog::AnyGame;
use grundy_core::error::Error;
use grundy_core::game::{Grid, Stones};
use grundy_core::sg::engine::Engine;
use grundy_core::sg::table::TableOptions;
use grundy_core::sg::SearchConfig;
use numpy::{IntoPyArray, PyArrayDyn};
use pyo3::prelude::*;
use serde_json::{json, Value};

use crate::errors::{self, guarded, lift};
use crate::run::{run, Outcome, Watch};

/// An engine name as the command line's `--engine` takes it.
fn engine(name: &str) -> Result<Engine, Error> {
    name.parse().map_err(Error::Usage)
}

/// A game and its position; a missing position is bad input that shows how to give one.
fn game_at(
    spec: &str,
    words: &[String],
    function: &str,
) -> Result<(Arc<dyn AnyGame>, Stones), Error> {
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
        // One position searched on one thread, as the command line does by default.
        let cfg = SearchConfig::default();
        // What a theorem answers takes no time, whatever the limit.
        let s = match by_theorem(g.as_ref(), &p, e, &cfg, moves) {
            Some(s) => s,
            None => {
                let (searched, at) = (Arc::clone(&g), p.clone());
                // The search stops once the call does (KeyboardInterrupt, the time limit).
                let work = move |w: Watch| {
                    let ctl = Control {
                        plan: None,
                        stop: w.stop(),
                    };
                    let opts = table_options(&w);
                    solve_kept(searched.as_ref(), &at, e, cfg, &opts, moves, &ctl)
                };
                match run(py, timeout, progress.as_ref(), work)? {
                    Outcome::Done(s) => s,
                    Outcome::TimedOut => {
                        let limit = timeout.unwrap_or_default();
                        return Err(errors::to_py(
                            py,
                            &Error::Timeout(nimber_undecided(g.as_ref(), &p, limit)),
                        ));
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
            return Err(errors::to_py(
                py,
                &Error::Usage("max must be at least 1".into()),
            ));
        }
        let e = lift(py, engine(engine_name))?;
        let grid = lift(py, Grid::cube(g.variables(), max))?;
        let (searched, box_) = (Arc::clone(&g), grid.clone());
        let work = move |w: Watch| {
            box_values(
                searched.as_ref(),
                &box_,
                e,
                SearchConfig::default(),
                &table_options(&w),
            )
        };
        let Outcome::Done((ran, stats, t)) = run(py, None, progress.as_ref(), work)? else {
            return Err(errors::to_py(
                py,
                &Error::internal("a table without a time limit timed out"),
            ));
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
