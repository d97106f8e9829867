//! How long computations say how far they are, without knowing who listens: the command line
//! draws a progress bar, tests and library users pass [`Silent`].

/// A listener for one computation's progress, from any thread.
pub trait Progress: Send + Sync {
    /// A new phase of `total` steps of `what` (a plural noun: "positions").
    fn start(&self, what: &str, total: u64);
    /// `n` more steps are done.
    fn advance(&self, n: u64);
    /// The phase is over.
    fn finish(&self);
    /// Whether the listener asks the work to stop (a front end's Ctrl-C or time limit): long
    /// work looks where it reports and then ends with an error instead of its result.
    fn stopped(&self) -> bool {
        false
    }
}

/// Progress nobody watches.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {
    fn start(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
    fn finish(&self) {}
}
