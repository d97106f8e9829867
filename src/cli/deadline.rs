//! A time limit on work that cannot stop itself: the work runs on a thread of its own, which
//! tells a [`Clock`] when it thinks and when it waits for the person at the terminal; once
//! it has thought for longer than the limit at one stretch, the command ends with a timeout
//! (exit 3) and the thread ends with the process. `play` and `best-move` use it.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use grundy_core::error::{Error, Undecided};

/// What the work tells the watch.
enum Heard {
    /// Thinking from now on, about this (for the message, "... is undecided").
    Busy(String),
    /// Waiting for input: the time does not count.
    Idle,
}

/// The work's side of the watch; without a time limit it tells no one.
pub struct Clock(Option<mpsc::Sender<Heard>>);

impl Clock {
    /// Thinking from now on, about `what` (asked only when a time limit watches).
    pub fn busy(&self, what: impl FnOnce() -> String) {
        if let Some(send) = &self.0 {
            let _ = send.send(Heard::Busy(what()));
        }
    }

    /// Waiting for input until the next [`Clock::busy`].
    pub fn idle(&self) {
        if let Some(send) = &self.0 {
            let _ = send.send(Heard::Idle);
        }
    }
}

/// Runs `work`, busy from the start with `what`: on this thread when there is no `limit`;
/// otherwise on a thread of its own, and a timeout once it thinks for more than `limit`
/// seconds at one stretch.
pub fn watched<T: Send + 'static>(
    limit: Option<f64>,
    what: String,
    work: impl FnOnce(&Clock) -> Result<T, Error> + Send + 'static,
) -> Result<T, Error> {
    let Some(limit) = limit else {
        return work(&Clock(None));
    };
    let (tell, heard) = mpsc::channel();
    let (answer, result) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("grundy-watched".into())
        .spawn(move || {
            // The answer is sent before the clock is dropped, which tells the watch it is there.
            let clock = Clock(Some(tell));
            let _ = answer.send(work(&clock));
        });
    if let Err(e) = spawned {
        return Err(Error::Resource(format!("no thread for the work: {e}")));
    }
    let after = |what| {
        let deadline = Instant::now() + Duration::from_secs_f64(limit);
        Some((deadline, what))
    };
    let mut busy = after(what);
    loop {
        let next = match &busy {
            Some((deadline, _)) => {
                heard.recv_timeout(deadline.saturating_duration_since(Instant::now()))
            }
            None => heard.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match next {
            Ok(Heard::Busy(what)) => busy = after(what),
            Ok(Heard::Idle) => busy = None,
            Err(RecvTimeoutError::Timeout) => {
                let what = busy.map(|(_, what)| what).unwrap_or_default();
                return Err(Error::Timeout(Undecided {
                    seconds: limit,
                    lower_bound: None,
                    what,
                    table: None,
                }));
            }
            // The work ended, and its clock with it.
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    result
        .recv()
        .unwrap_or_else(|_| Err(Error::internal("the work ended without an answer")))
}
