//! How much the random and agreement tests run: a default that keeps `scripts/test` short, and
//! `scripts/test --full` (which sets `GRUNDY_FULL`) for the long runs.

/// Whether the long agreement runs were asked for.
pub fn full() -> bool {
    std::env::var_os("GRUNDY_FULL").is_some()
}

/// `default` cases in the default run, `full` with `--full`.
pub fn cases(default: usize, full: usize) -> usize {
    if self::full() {
        full
    } else {
        default
    }
}
