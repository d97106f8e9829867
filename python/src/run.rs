//! Long calls from Python: the work runs on a thread of its own while the calling thread,
//! the GIL released, waits for it; every 50 ms it looks for a signal (Ctrl-C raises
//! KeyboardInterrupt), the time limit, and progress to hand to the caller's callback.
//!
//! A stopped call sets the work's cancel flag: work that polls it (period analysis, synthesis,
//! the search of one position through [`Watch::stop`], a table through its progress's
//! `stopped`) ends soon, and the call waits for that end (up to [`SETTLE`]) so that the next
//! call does not share the cores with it. A single position's search inside a table swept by
//! a search engine runs to its end first.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use grundy_core::error::Error;
use grundy_core::progress::Progress;
use pyo3::prelude::*;

use crate::errors;

/// How often the waiting thread looks for a signal, the time limit and progress.
const POLL: Duration = Duration::from_millis(50);

/// How long a stopped call waits for its work to end: a search looks at its stop token every
/// few milliseconds.
const SETTLE: Duration = Duration::from_secs(2);

/// Progress reported by the work, read by the waiting thread.
#[derive(Default)]
pub struct Shared {
    what: Mutex<String>,
    phase: AtomicU64,
    total: AtomicU64,
    done: AtomicU64,
    /// Set when the caller stops waiting: work that reports here (a table) then stops.
    stop: AtomicBool,
}

impl Progress for Shared {
    fn start(&self, what: &str, total: u64) {
        if let Ok(mut w) = self.what.lock() {
            *w = what.to_string();
        }
        self.total.store(total, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
        self.phase.fetch_add(1, Ordering::Relaxed);
    }
    fn advance(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }
    fn finish(&self) {
        self.done
            .store(self.total.load(Ordering::Relaxed), Ordering::Relaxed);
    }
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl Shared {
    /// Sets how many steps of the phase are done (for work that knows where it is rather than
    /// how far it advanced).
    pub fn set(&self, done: u64) {
        self.done.store(done, Ordering::Relaxed);
    }
}

/// What the work is handed: its cancel flag and where it reports progress.
#[derive(Clone)]
pub struct Watch {
    /// Set when the caller stopped waiting (Ctrl-C or the time limit).
    pub cancel: Arc<AtomicBool>,
    /// Where the work says how far it is.
    pub progress: Arc<Shared>,
}

impl Watch {
    /// Whether the caller stopped waiting.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The cancel flag as the search engines' stop token.
    pub fn stop(&self) -> grundy_core::Stop {
        grundy_core::Stop::from_flag(Arc::clone(&self.cancel))
    }
}

/// How a wait ended without an error.
pub enum Outcome<T> {
    /// The work's answer.
    Done(T),
    /// The time limit passed first.
    TimedOut,
}

/// The work's result, once there.
type Slot<T> = Arc<(Mutex<Option<Result<T, Error>>>, Condvar)>;

/// Runs `work` on a thread of its own and waits for it with the GIL released: its answer, or
/// [`Outcome::TimedOut`] once `timeout` seconds pass, or KeyboardInterrupt on Ctrl-C. A panic
/// in the work becomes an internal error. `progress(phase, what, done, total)` hears of its progress.
pub fn run<T, F>(
    py: Python<'_>,
    timeout: Option<f64>,
    progress: Option<&Bound<'_, PyAny>>,
    work: F,
) -> PyResult<Outcome<T>>
where
    T: Send + 'static,
    F: FnOnce(Watch) -> Result<T, Error> + Send + 'static,
{
    run_stopping(py, timeout, progress, &|| {}, work)
}

/// [`run`], calling `stop` when the caller stops waiting, for work that is stopped by a call
/// of its own rather than by the cancel flag (synthesis).
pub fn run_stopping<T, F>(
    py: Python<'_>,
    timeout: Option<f64>,
    progress: Option<&Bound<'_, PyAny>>,
    stop: &dyn Fn(),
    work: F,
) -> PyResult<Outcome<T>>
where
    T: Send + 'static,
    F: FnOnce(Watch) -> Result<T, Error> + Send + 'static,
{
    let watch = Watch {
        cancel: Arc::new(AtomicBool::new(false)),
        progress: Arc::new(Shared::default()),
    };
    let slot: Slot<T> = Arc::new((Mutex::new(None), Condvar::new()));
    let (theirs, mine) = (Arc::clone(&slot), watch.clone());
    std::thread::Builder::new()
        .name("grundy-python".into())
        .spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(|| work(mine)))
                .unwrap_or_else(|p| Err(Error::internal(errors::panic_message(p.as_ref()))));
            let (lock, ready) = &*theirs;
            if let Ok(mut s) = lock.lock() {
                *s = Some(result);
            }
            ready.notify_all();
        })
        .map_err(|e| errors::to_py(py, &Error::Resource(format!("no thread for the work: {e}"))))?;
    let deadline = timeout.map(|s| Instant::now() + Duration::from_secs_f64(s));
    let mut seen = (0, u64::MAX);
    loop {
        let waited = py.detach(|| {
            let (lock, ready) = &*slot;
            let guard = lock.lock().ok()?;
            let (mut guard, _) = ready
                .wait_timeout_while(guard, POLL, |s| s.is_none())
                .ok()?;
            guard.take()
        });
        if let Some(result) = waited {
            report(progress, &watch.progress, &mut seen)?;
            return result.map(Outcome::Done).map_err(|e| errors::to_py(py, &e));
        }
        let cancel = || {
            watch.cancel.store(true, Ordering::Relaxed);
            watch.progress.stop.store(true, Ordering::Relaxed);
            stop();
            settle(py, &slot);
        };
        if let Err(e) = py.check_signals() {
            cancel();
            return Err(e);
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            cancel();
            return Ok(Outcome::TimedOut);
        }
        if let Err(e) = report(progress, &watch.progress, &mut seen) {
            cancel();
            return Err(e);
        }
    }
}

/// Waits, the GIL released, for stopped work to end, [`SETTLE`] at most; its result is dropped.
fn settle<T: Send>(py: Python<'_>, slot: &Slot<T>) {
    py.detach(|| {
        let (lock, ready) = &**slot;
        if let Ok(guard) = lock.lock() {
            let _ = ready.wait_timeout_while(guard, SETTLE, |s| s.is_none());
        }
    });
}

/// Hands new progress to the callback: `(phase, what, done, total)`.
fn report(
    callback: Option<&Bound<'_, PyAny>>,
    shared: &Shared,
    seen: &mut (u64, u64),
) -> PyResult<()> {
    let Some(callback) = callback else {
        return Ok(());
    };
    let now = (
        shared.phase.load(Ordering::Relaxed),
        shared.done.load(Ordering::Relaxed),
    );
    if now == *seen || now.0 == 0 {
        return Ok(());
    }
    *seen = now;
    let what = shared.what.lock().map(|w| w.clone()).unwrap_or_default();
    callback.call1((now.0, what, now.1, shared.total.load(Ordering::Relaxed)))?;
    Ok(())
}
