//! Proofs: what z3 establishes of a program's reading, for every position.

use grundy_core::catalog::spec::{self, Heaps};
use grundy_core::error::Error;
use grundy_synth::lang::Program;
use grundy_synth::prove::{self as prover, Options};
use pyo3::prelude::*;

use crate::errors::{self, guarded, lift};
use grundy_synth::run as synthesis;

use crate::run::{run_stopping, Outcome, Watch};

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
        // Ctrl-C interrupts z3 through the process-wide stop, as in synthesis.
        synthesis::clear_stop();
        let Outcome::Done(found) = run_stopping(py, None, None, &synthesis::request_stop, work)?
        else {
            return Err(errors::to_py(
                py,
                &Error::internal("timed out without a limit"),
            ));
        };
        Ok(prover::json(&found, game, &parsed, orbits).to_string())
    })
}
