//! Ctrl-C and SIGTERM: temporary output files are removed before the process ends, so an
//! interrupted `table --out` leaves neither a partial file nor its temporary behind.

/// The exit code of a run ended by a signal (128 + SIGINT, as shells report it).
const INTERRUPTED: i32 = 130;

/// Installs the handler once, at start-up.
pub fn install() {
    // Failing to install (a handler already set by an embedding program) only loses the clean-up.
    let _ = ctrlc::set_handler(|| {
        crate::files::remove_partial();
        eprintln!("grundy: interrupted");
        std::process::exit(INTERRUPTED);
    });
}
