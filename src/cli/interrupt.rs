//! Ctrl-C, SIGTERM and SIGHUP: temporary output files are removed before the process ends, so
//! an interrupted `table --out` leaves neither a partial file nor its temporary behind. The exit
//! code is 128 plus the signal's number, as shells report it (130 for Ctrl-C).

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// Installs the handler once, at start-up: a thread waits for the signals.
pub fn install() {
    // Failing to install (no thread, or handlers refused) only loses the clean-up.
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("grundy-signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                crate::files::remove_partial();
                eprintln!("grundy: interrupted");
                std::process::exit(128 + signal);
            }
        });
}
