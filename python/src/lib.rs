//! `grundy._grundy`, the native half of the Python package `grundy`: each function parses its
//! arguments as the command line does, calls grundy-core or grundy-synth on a thread of its own
//! (`run`) and answers one JSON object (a numpy array beside it for tables), which
//! `grundy/__init__.py` turns into Python results. Errors raise the exceptions of
//! `grundy/_errors.py` by their kind (`errors`); a panic raises `grundy.InternalError`.

mod errors;
mod games;
mod heaps;
mod prove;
mod run;
mod synth;

use pyo3::prelude::*;

/// The module: the functions of [`games`], [`heaps`], [`prove`] and [`synth`].
#[pymodule]
fn _grundy(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games::games, m)?)?;
    m.add_function(wrap_pyfunction!(games::sg, m)?)?;
    m.add_function(wrap_pyfunction!(games::best_move, m)?)?;
    m.add_function(wrap_pyfunction!(games::table, m)?)?;
    m.add_function(wrap_pyfunction!(heaps::period, m)?)?;
    m.add_function(wrap_pyfunction!(prove::prove, m)?)?;
    m.add_function(wrap_pyfunction!(synth::synth, m)?)?;
    m.add_function(wrap_pyfunction!(heaps::survey_members, m)?)?;
    m.add_function(wrap_pyfunction!(heaps::survey_row, m)?)?;
    m.add_function(wrap_pyfunction!(errors::panic_for_tests, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
