//! Ctrl-C, SIGTERM and SIGHUP: temporary output files are removed before the process ends, so
//! an interrupted `table --out` leaves neither a partial file nor its temporary behind. The exit
//! code is 128 plus the signal's number, as shells report it (130 for Ctrl-C).
//!
//! A command that can answer with what it has ([`answer_on_ctrl_c`]: `synth`) takes the first
//! Ctrl-C as "stop and report"; a second one ends the process as above. A search that keeps its
//! table in a file ([`save_on_signal`]: `sg --checkpoint`) saves it first; a second signal does
//! not wait for the save.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// Whether the first Ctrl-C asks the search to stop and report rather than ending the process.
static ANSWER_ON_CTRL_C: AtomicBool = AtomicBool::new(false);

/// The exit code of the outcome already reported, or -1 while the command runs.
static ANSWERED: AtomicI32 = AtomicI32::new(-1);

/// How to have the running search save its table: the flag that asks for a save, and a
/// count of the saves made, which grows when one is done.
pub struct SaveOnSignal {
    pub now: Arc<AtomicBool>,
    pub saves: Arc<(Mutex<u64>, Condvar)>,
}

/// The search's way to save, once one registered ([`save_on_signal`]).
static SAVE: Mutex<Option<SaveOnSignal>> = Mutex::new(None);

/// A signal from now on first has the search save its table, then ends the process.
pub fn save_on_signal(save: SaveOnSignal) {
    if let Ok(mut slot) = SAVE.lock() {
        *slot = Some(save);
    }
}

/// Signals end the process at once again: the search that would save has ended.
pub fn no_save_on_signal() {
    if let Ok(mut slot) = SAVE.lock() {
        *slot = None;
    }
}

/// Asks for a save and ends the process with `code` once it is made, on a thread of its own,
/// so that the handler still hears a second signal. False when no search registered.
fn save_then_exit(code: i32, tell: impl Fn(&str) + Send + 'static) -> bool {
    let Some(save) = SAVE.lock().ok().and_then(|mut slot| slot.take()) else {
        return false;
    };
    tell("grundy: saving the table before ending (again to end now)");
    let spawned = std::thread::Builder::new()
        .name("grundy-last-save".into())
        .spawn(move || {
            let (count, done) = &*save.saves;
            let Ok(mut n) = count.lock() else {
                return;
            };
            let before = *n;
            save.now.store(true, Ordering::Relaxed);
            while *n == before {
                match done.wait(n) {
                    Ok(next) => n = next,
                    Err(_) => return,
                }
            }
            crate::files::remove_partial();
            tell("grundy: interrupted");
            std::process::exit(code);
        });
    spawned.is_ok()
}

/// The command has reported its outcome, which exits with `code`: a signal from now on ends
/// the process silently with that code. Under mpirun the ranks finish one after another, and
/// mpirun ends the rest with SIGTERM as soon as one exits with an error, possibly after rank 0
/// has written its one line and before it has exited.
pub fn answered(code: i32) {
    ANSWERED.store(code, Ordering::Relaxed);
}

/// The first Ctrl-C from now on stops the searches ([`crate::synth::solver::request_stop`]),
/// which then report what they established.
pub fn answer_on_ctrl_c() {
    ANSWER_ON_CTRL_C.store(true, Ordering::Relaxed);
}

/// Installs the handler once, at start-up: a thread waits for the signals. `speak` is false
/// on the ranks of an MPI job other than 0, which end silently: when rank 0 exits, mpirun
/// ends the others with SIGTERM, and their last words would add to rank 0's one line.
pub fn install(speak: bool) {
    // Failing to install (no thread, or handlers refused) only loses the clean-up.
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    let tell = move |line: &str| {
        if speak {
            say(line);
        }
    };
    let _ = std::thread::Builder::new()
        .name("grundy-signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                if signal == SIGINT
                    && ANSWER_ON_CTRL_C.load(Ordering::Relaxed)
                    && !crate::synth::solver::stop_requested()
                {
                    crate::synth::solver::request_stop();
                    tell("grundy: stopping to report what is established (Ctrl-C again quits)");
                    continue;
                }
                let code = ANSWERED.load(Ordering::Relaxed);
                if code < 0 && save_then_exit(128 + signal, tell) {
                    continue;
                }
                crate::files::remove_partial();
                if code >= 0 {
                    std::process::exit(code);
                }
                tell("grundy: interrupted");
                std::process::exit(128 + signal);
            }
        });
}

/// Writes a line to standard error, ignoring failure: `eprintln!` panics when stderr is a
/// closed pipe (`grundy ... 2>&1 | head`), and a panic here would end this thread, leaving
/// every later signal caught and ignored.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}
