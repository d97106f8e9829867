//! grundy's errors as Python exceptions: the class by the error's kind (never by its text),
//! the message the command line prints, with the keyword argument that raises a limit in place
//! of the command line's flag.

use std::panic::{catch_unwind, AssertUnwindSafe};

use grundy_core::error::{Error, Kind, Setting};
use pyo3::prelude::*;

/// The exception class of `grundy/_errors.py` that a failure of this kind raises.
fn class_name(kind: Kind) -> &'static str {
    match kind {
        Kind::BadInput => "InputError",
        Kind::Io => "FileError",
        Kind::Resource => "LimitError",
        Kind::Timeout => "TimedOut",
        Kind::Counterexample => "Error",
        Kind::Internal => "InternalError",
    }
}

/// The keyword argument behind a library setting, as advice.
fn raise_hint(setting: Setting) -> &'static str {
    match setting {
        Setting::MemoryLimit => "raise mem_limit",
        Setting::MaxLength => "raise max_len",
        Setting::Width => "raise width",
        Setting::Heaps => "more heaps with heaps=",
        Setting::Engine => "pick engine=\"naive\" to search anyway",
        Setting::Orbits => "drop orbits=True",
        Setting::TableRoom => "give the table more room",
        Setting::DiskRoom => "free room on the disk, or hold the values elsewhere",
    }
}

/// The one-line message of `e`: the library's words, and the argument that gets past a limit.
pub fn message(e: &Error) -> String {
    match e.raise() {
        Some(setting) => format!("{e}; {}", raise_hint(setting)),
        None => e.to_string(),
    }
}

/// `e` as the Python exception of its kind.
pub fn to_py(py: Python<'_>, e: &Error) -> PyErr {
    raise(py, class_name(e.kind()), message(e))
}

/// An exception of the class `name` of `grundy._errors` with `msg`; a failure to build it
/// (the package half-installed) is the error instead.
pub fn raise(py: Python<'_>, name: &str, msg: String) -> PyErr {
    let built = py
        .import("grundy._errors")
        .and_then(|m| m.getattr(name))
        .and_then(|class| class.call1((msg,)));
    match built {
        Ok(exception) => PyErr::from_value(exception),
        Err(e) => e,
    }
}

/// What a panic said, for the message of the `InternalError` it becomes.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into());
    format!("internal error (a bug in grundy): {what}")
}

/// Runs `body`, a library error raised as its exception and a panic as `InternalError`.
pub fn guarded<T>(py: Python<'_>, body: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(result) => result,
        Err(p) => Err(raise(py, "InternalError", panic_message(p.as_ref()))),
    }
}

/// A library result in Python: its error raised as the exception of its kind.
pub fn lift<T>(py: Python<'_>, r: Result<T, Error>) -> PyResult<T> {
    r.map_err(|e| to_py(py, &e))
}

/// Panics with `message`, on the calling thread or (`on_worker`) on a worker thread as long
/// calls run: it exists so that the tests can check that a panic becomes `InternalError`
/// rather than a crash of the interpreter.
#[pyfunction(name = "_panic")]
#[pyo3(signature = (message, on_worker=false))]
pub fn panic_for_tests(py: Python<'_>, message: String, on_worker: bool) -> PyResult<()> {
    guarded(py, || {
        if !on_worker {
            panic!("{message}");
        }
        let work = move |_: crate::run::Watch| -> Result<(), grundy_core::error::Error> {
            panic!("{message}")
        };
        crate::run::run(py, None, None, work).map(|_| ())
    })
}
