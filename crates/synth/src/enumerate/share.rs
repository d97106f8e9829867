//! The last level's jobs shared among the ranks of a [`Team`], and the ranks' agreement on
//! what each stretch of a search came to.
//!
//! Every rank builds the same stored levels (ids do not depend on thread timing) and so lists
//! the same jobs in the same order. A rank runs the jobs dealt to it, round robin by index, in
//! rounds of growing length; after each round the ranks exchange their earliest hit and whether
//! a stop was raised, and every rank keeps the earliest hit of all. The search ends with the
//! first round that has a hit: every job before that hit was searched without one on the rank
//! it was dealt to, so the answer is the hit of the earliest job with one, the same as a single
//! process finds. A group of jobs counts as refuted only when every rank ran its part of it to
//! the end. Alone, all jobs are one round and nothing is exchanged.
//!
//! Rounds start at one job per thread of each rank and double: a hit (the usual outcome of
//! CEGIS's early rounds, often in the first jobs) ends every rank's search after at most about
//! twice the jobs a single process runs to find it, and a refutation waits for the slowest rank
//! only about log2(jobs) times.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;
use rayon::ThreadPool;
use serde::{Deserialize, Serialize};

use super::halt::{Halt, Stop};
use crate::lang::Program;
use grundy_core::cluster::Team;

/// The earliest hit among the jobs run so far, by job index.
pub(super) struct Hits {
    best: AtomicUsize,
    hit: Mutex<Option<(usize, Program)>>,
}

impl Hits {
    pub fn new() -> Self {
        Hits {
            best: AtomicUsize::new(usize::MAX),
            hit: Mutex::new(None),
        }
    }

    /// Whether job `k` can be skipped: an earlier job has a hit.
    pub fn beaten(&self, k: usize) -> bool {
        self.best.load(Ordering::Relaxed) < k
    }

    /// Records `p`, found by job `k`; of several, the earliest job's is kept.
    pub fn record(&self, k: usize, p: Program) {
        let mut h = self.hit.lock().unwrap_or_else(|e| e.into_inner());
        if h.as_ref().is_none_or(|(j, _)| k < *j) {
            *h = Some((k, p));
            self.best.fetch_min(k, Ordering::Relaxed);
        }
    }

    fn current(&self) -> Option<(usize, Program)> {
        self.hit.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn into_program(self) -> Option<Program> {
        let hit = self.hit.into_inner().unwrap_or_else(|e| e.into_inner());
        hit.map(|(_, p)| p)
    }
}

/// Whether job `k` is dealt to this rank.
pub(super) fn takes(team: &dyn Team, k: usize) -> bool {
    k % team.size() == team.rank()
}

/// What a rank reports at the end of a round.
#[derive(Serialize, Deserialize)]
struct Round {
    hit: Option<(usize, Program)>,
    stopped: bool,
}

/// Runs `job(k)` for this rank's share of the jobs `0..count` on `pool`, as the module says,
/// until every job ran, a hit is known, or a stop was raised on some rank (then raised here
/// too). Every rank must call it at the same step with the same `count`.
pub(super) fn run_jobs(
    team: &dyn Team,
    pool: &ThreadPool,
    count: usize,
    hits: &Hits,
    stop: &Stop,
    job: impl Fn(usize) + Sync,
) {
    let size = team.size();
    if size == 1 {
        pool.install(|| (0..count).into_par_iter().for_each(&job));
        return;
    }
    let threads = pool.current_num_threads().max(1);
    let mut start: usize = 0;
    let mut per_thread: usize = 1;
    loop {
        let end = count.min(start.saturating_add(size * threads * per_thread));
        let mine = (start..end).filter(|&k| takes(team, k)).collect::<Vec<_>>();
        pool.install(|| mine.into_par_iter().for_each(&job));
        let round = Round {
            hit: hits.current(),
            stopped: stop.raised(),
        };
        let bytes = serde_json::to_vec(&round).unwrap_or_default();
        for theirs in team.all_gather(&bytes) {
            // A report that does not decode (it cannot, from this same program) stops the
            // search rather than passing for a refutation.
            match serde_json::from_slice::<Round>(&theirs) {
                Ok(r) => {
                    if let Some((k, p)) = r.hit {
                        hits.record(k, p);
                    }
                    if r.stopped {
                        stop.raise();
                    }
                }
                Err(_) => stop.raise(),
            }
        }
        if end == count || stop.raised() || hits.beaten(count) {
            return;
        }
        start = end;
        per_thread = per_thread.saturating_mul(2);
    }
}

/// The indices of `0..count` that every rank reports in `mine`: the groups searched to the end
/// on every rank.
pub(super) fn on_every_rank(team: &dyn Team, mine: Vec<usize>, count: usize) -> Vec<usize> {
    if team.size() == 1 {
        return mine;
    }
    let mut votes = vec![0; count];
    let bytes = serde_json::to_vec(&mine).unwrap_or_default();
    for theirs in team.all_gather(&bytes) {
        let theirs: Vec<usize> = serde_json::from_slice(&theirs).unwrap_or_default();
        for i in theirs.into_iter().filter(|&i| i < count) {
            votes[i] += 1;
        }
    }
    (0..count).filter(|&i| votes[i] == team.size()).collect()
}

/// `outcome` on every rank when every rank's is `Ok`; otherwise the lowest failing rank's
/// halt, on every rank: a level one rank could not build (its clock, its memory limit) stops
/// them all at the same step.
pub(super) fn settle(team: &dyn Team, outcome: Result<(), Halt>) -> Result<(), Halt> {
    if team.size() == 1 {
        return outcome;
    }
    let mine = match &outcome {
        Ok(()) => Vec::new(),
        Err(h) => serde_json::to_vec(h).unwrap_or_default(),
    };
    let first = team.all_gather(&mine).into_iter().find(|b| !b.is_empty());
    match first {
        None => Ok(()),
        Some(b) => Err(serde_json::from_slice(&b).unwrap_or(Halt::Timeout)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Op;
    use grundy_core::cluster::Solo;

    #[test]
    fn the_earliest_jobs_hit_is_kept() {
        let hits = Hits::new();
        assert!(!hits.beaten(0));
        hits.record(7, Program(vec![Op::One]));
        hits.record(9, Program(vec![Op::Zero]));
        assert!(hits.beaten(8) && !hits.beaten(7));
        hits.record(3, Program(vec![Op::Zero]));
        assert_eq!(hits.into_program(), Some(Program(vec![Op::Zero])));
    }

    #[test]
    fn alone_every_job_runs_in_one_round() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let ran = Mutex::new(Vec::new());
        let (hits, stop) = (Hits::new(), Stop::new(None));
        run_jobs(&Solo, &pool, 10, &hits, &stop, |k| {
            ran.lock().unwrap().push(k)
        });
        let mut ran = ran.into_inner().unwrap();
        ran.sort();
        assert_eq!(ran, (0..10).collect::<Vec<_>>());
        assert_eq!(on_every_rank(&Solo, vec![1, 4], 5), vec![1, 4]);
        assert!(settle(&Solo, Err(Halt::Timeout)).is_err());
    }
}
