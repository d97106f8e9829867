//! Ctrl-C, SIGTERM and SIGHUP: temporary output files are removed before the process ends, so
//! an interrupted `table --out` leaves neither a partial file nor its temporary behind. The exit
//! code is 128 plus the signal's number, as shells report it (130 for Ctrl-C); with `--json`
//! the command's one JSON object says so too (`kind` `interrupted`), unless it printed its
//! outcome already.
//!
//! A command that can answer with what it has ([`answer_on_ctrl_c`]: `synth`;
//! [`stop_on_ctrl_c`]: `sg`, whose search stops and reports its bounds, exit 3) takes the first
//! Ctrl-C as "stop and report"; a second one ends the process as above. A search that keeps its
//! table in a file ([`save_on_signal`]: `sg --checkpoint`) saves it first, and the report names
//! it; a second signal does not wait for the save.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::Duration;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use super::output::Out;
use grundy_core::error::SavedTable;

/// Whether the first Ctrl-C asks the search to stop and report rather than ending the process.
static ANSWER_ON_CTRL_C: AtomicBool = AtomicBool::new(false);

/// The exit code of the outcome already reported, or -1 while the command runs.
static ANSWERED: AtomicI32 = AtomicI32::new(-1);

/// Whether the command prints its outcome as JSON (`--json`).
static JSON: AtomicBool = AtomicBool::new(false);

/// How to have the running search save its table: the file, the flag that asks for a save,
/// and the saves made, which grow when one is done.
pub struct SaveOnSignal {
    pub path: PathBuf,
    pub now: Arc<AtomicBool>,
    pub saves: Arc<(Mutex<Saves>, Condvar)>,
}

/// The saves a search made of its table.
#[derive(Default)]
pub struct Saves {
    pub count: u64,
    /// The entries of the last save; `None` when it failed.
    pub entries: Option<u64>,
}

/// The token that stops the running search on the first Ctrl-C, once one registered
/// ([`stop_on_ctrl_c`]).
static STOP: Mutex<Option<grundy_core::Stop>> = Mutex::new(None);

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

/// Asks for a save and ends the process once it is made, on a thread of its own, so that the
/// handler still hears a second signal. False when no search registered.
fn save_then_exit(signal: i32, speak: bool) -> bool {
    let Some(save) = SAVE.lock().ok().and_then(|mut slot| slot.take()) else {
        return false;
    };
    if speak {
        say("grundy: saving the table before ending (again to end now)");
    }
    let spawned = std::thread::Builder::new()
        .name("grundy-last-save".into())
        .spawn(move || {
            let (saves, done) = &*save.saves;
            let Ok(mut s) = saves.lock() else {
                return;
            };
            let before = s.count;
            save.now.store(true, Ordering::Relaxed);
            while s.count == before {
                match done.wait(s) {
                    Ok(next) => s = next,
                    Err(_) => return,
                }
            }
            let table = SavedTable {
                path: save.path,
                entries: s.entries,
            };
            end(signal, Some(table), speak);
        });
    spawned.is_ok()
}

/// Ends the process for `signal`: the partial files removed, a line on standard error and,
/// with `--json`, one object on standard output, unless the command printed its own.
fn end(signal: i32, table: Option<SavedTable>, speak: bool) -> ! {
    grundy_core::files::remove_partial();
    if speak {
        let name = match signal {
            SIGINT => "SIGINT",
            SIGTERM => "SIGTERM",
            SIGHUP => "SIGHUP",
            _ => "a signal",
        };
        let message = match &table {
            Some(table) => format!("interrupted by {name}; {table}"),
            None => format!("interrupted by {name}"),
        };
        say(&format!("grundy: {message}"));
        if JSON.load(Ordering::Relaxed) {
            let mut obj = serde_json::json!({
                "error": message,
                "kind": "interrupted",
                "signal": signal,
            });
            if let Some(table) = table {
                obj["checkpoint"] = serde_json::json!(table);
            }
            print_once(obj);
        }
    }
    std::process::exit(128 + signal);
}

/// Prints `obj` as the command's JSON outcome unless it printed one: on a thread of its own,
/// waited for a second at most, since the command may hold standard output (a table's rows).
fn print_once(obj: serde_json::Value) {
    let (sent, printed) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("grundy-last-words".into())
        .spawn(move || {
            let mut out = Out::new();
            if !out.outcome_printed() {
                let _ = out.json(&obj);
            }
            let _ = sent.send(());
        });
    if spawned.is_ok() {
        let _ = printed.recv_timeout(Duration::from_secs(1));
    }
}

/// The command has reported its outcome, which exits with `code`: a signal from now on ends
/// the process silently with that code. Under mpirun the ranks finish one after another, and
/// mpirun ends the rest with SIGTERM as soon as one exits with an error, possibly after rank 0
/// has written its one line and before it has exited.
pub fn answered(code: i32) {
    ANSWERED.store(code, Ordering::Relaxed);
}

/// The first Ctrl-C from now on stops the searches ([`grundy_synth::solver::request_stop`]),
/// which then report what they established.
pub fn answer_on_ctrl_c() {
    ANSWER_ON_CTRL_C.store(true, Ordering::Relaxed);
}

/// The first Ctrl-C from now on stops the search holding `stop`, which then reports what it
/// knows (and saves its table first, when it keeps one).
pub fn stop_on_ctrl_c(stop: grundy_core::Stop) {
    if let Ok(mut slot) = STOP.lock() {
        *slot = Some(stop);
    }
}

/// Stops the registered search unless it was stopped already: whether it was stopped now.
fn stop_search() -> bool {
    let Ok(slot) = STOP.lock() else {
        return false;
    };
    match slot.as_ref() {
        Some(stop) if !stop.is_stopped() => {
            stop.stop();
            true
        }
        _ => false,
    }
}

/// With `--json`, a signal's report is a JSON object too.
pub fn json_outcome(json: bool) {
    JSON.store(json, Ordering::Relaxed);
}

/// Installs the handler once, at start-up: a thread waits for the signals. `speak` is false
/// on the ranks of an MPI job other than 0, which end silently: when rank 0 exits, mpirun
/// ends the others with SIGTERM, and their last words would add to rank 0's one line.
pub fn install(speak: bool) {
    // Failing to install (no thread, or handlers refused) only loses the clean-up.
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("grundy-signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                if signal == SIGINT
                    && ANSWER_ON_CTRL_C.load(Ordering::Relaxed)
                    && !grundy_synth::solver::stop_requested()
                {
                    grundy_synth::solver::request_stop();
                    if speak {
                        say("grundy: stopping to report what is established (Ctrl-C again quits)");
                    }
                    continue;
                }
                let code = ANSWERED.load(Ordering::Relaxed);
                if code >= 0 {
                    grundy_core::files::remove_partial();
                    std::process::exit(code);
                }
                if signal == SIGINT && stop_search() {
                    if speak {
                        say(
                            "grundy: stopping the search to report its bounds (Ctrl-C again quits)",
                        );
                    }
                    continue;
                }
                if save_then_exit(signal, speak) {
                    continue;
                }
                end(signal, None, speak);
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
