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

/// A fixed pseudo-random sequence for the tests that draw their data (Marsaglia's xorshift32
/// from `seed`, not 0): the same data on every run and machine, so a failure is reproduced
/// by running the test again.
pub fn xorshift(seed: u32) -> impl FnMut() -> u32 {
    assert_ne!(seed, 0, "xorshift stays at 0");
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    }
}
