//! Heap games: a nim sequence and its proved period, and surveys of whole families.

use grundy_core::catalog::spec;
use grundy_core::error::Error;
use grundy_core::game::heap::HeapRule;
use grundy_core::period::survey::{Family, Row};
use grundy_core::period::{analyse_kept, check_room, words, Keeping, MAX_HEAP};
use pyo3::prelude::*;

use crate::errors::{self, guarded, lift};
use crate::run::{run, Outcome, Watch};

/// A largest heap as `grundy period` takes it: from 1 to the longest nim sequence valued
/// ([`MAX_HEAP`], 2^32, past the positions' limit), and one whose values fit in the
/// default memory limit, or on the disk of `on_disk` with the rest in memory (checked
/// before any heap is valued, as the command line does).
fn check_max_heap(
    rule: &dyn HeapRule,
    max_heap: usize,
    on_disk: Option<&std::path::Path>,
) -> Result<(), Error> {
    if !(1..=MAX_HEAP).contains(&max_heap) {
        return Err(Error::Usage(format!(
            "max_heap must be between 1 and {MAX_HEAP}, got {max_heap}"
        )));
    }
    check_room(
        rule,
        max_heap,
        grundy_core::memory::default_limit(),
        on_disk,
    )
}

/// [`analyse_kept`] on a pool of threads of the call's own, as `grundy period` runs it: the
/// valuation hands work to a second thread, and a pool that ends with the call leaves no
/// thread behind it (rayon's global pool would stay, its threads named after this one).
fn analyse_in_own_pool(
    rule: &dyn HeapRule,
    max_heap: usize,
    progress: &(dyn grundy_core::progress::Progress + Sync),
    stop: &(dyn Fn() -> bool + Sync),
    keeping: &Keeping,
) -> Result<grundy_core::period::Analysis, Error> {
    let pool = rayon::ThreadPoolBuilder::new()
        .build()
        .map_err(|e| Error::Resource(format!("cannot start the worker threads: {e}")))?;
    pool.install(|| analyse_kept(rule, max_heap, progress, stop, keeping))
}

/// A heap game's nim sequence and its period, proved, as `grundy period --json` reports it,
/// with the theorem and its proof in words (`text`); the values held in a file of `on_disk`
/// rather than in memory, as `grundy period --on-disk` holds them.
#[pyfunction]
#[pyo3(signature = (game, max_heap=1_000_000, timeout=None, on_disk=None, progress=None))]
pub fn period(
    py: Python<'_>,
    game: &str,
    max_heap: usize,
    timeout: Option<f64>,
    on_disk: Option<std::path::PathBuf>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<String> {
    guarded(py, || {
        let g = lift(py, spec::parse_heap(game))?;
        lift(py, check_max_heap(g.rule(), max_heap, on_disk.as_deref()))?;
        let deadline =
            timeout.map(|s| std::time::Instant::now() + std::time::Duration::from_secs_f64(s));
        let work = move |w: Watch| {
            let stop = || w.cancelled() || deadline.is_some_and(|d| std::time::Instant::now() >= d);
            let keeping = Keeping {
                disk: on_disk.as_deref(),
                checkpoint: None,
            };
            let progress = w.progress.as_ref();
            let a = analyse_in_own_pool(g.rule(), max_heap, progress, &stop, &keeping)?;
            let name = g.rule().name();
            // Written as serialized: the values are not held as JSON values first.
            let mut report = words::Report::of(name, &a);
            report
                .fields
                .insert("text".into(), words::text(name, &a).into());
            serde_json::to_string(&report).map_err(|e| Error::internal(e.to_string()))
        };
        match run(py, None, progress.as_ref(), work)? {
            Outcome::Done(text) => Ok(text),
            Outcome::TimedOut => Err(errors::to_py(
                py,
                &Error::internal("timed out without a limit"),
            )),
        }
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
        lift(py, check_max_heap(g.rule(), max_heap, None))?;
        let name = game.to_string();
        let work = move |w: Watch| {
            let stop = || w.cancelled();
            let progress = w.progress.as_ref();
            let a = analyse_in_own_pool(g.rule(), max_heap, progress, &stop, &Keeping::default())?;
            let row = Row::of(&name, &a);
            serde_json::to_string(&row).map_err(|e| Error::internal(e.to_string()))
        };
        match run(py, None, None, work)? {
            Outcome::Done(row) => Ok(row),
            Outcome::TimedOut => Err(errors::to_py(
                py,
                &Error::internal("timed out without a limit"),
            )),
        }
    })
}
