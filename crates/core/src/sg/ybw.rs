//! One position searched by several threads with the cut family, as chess engines split
//! alpha-beta ("Young Brothers Wait"): a node of the top `SPLIT_PLIES` plies searches its
//! eldest successor on its own thread, and once that is done and has not settled the node, hands
//! the younger ones to rayon's threads, an idle thread taking one no other has started. Below
//! those plies each successor is searched whole, by the thread that took it, with an engine and
//! table of its own (`CutSearch`); exact values of subtrees of some size go to one shared table
//! (`shared`), where the others look whenever their own table has nothing.
//!
//! The eldest goes first because it most often settles the node (the engine orders successors
//! cheapest first): a node the eldest settles costs what it costs alone, and one it does not
//! needs most of its other successors anyway. Each younger one is asked about the set the node
//! hands its successors as the answers in when it starts leave it (on one thread, the engine's
//! own), which holds the set the node would hand it by the time its answer is taken (sets only
//! lose members): so an answer "not in that set" removes the largest member of the node's set
//! as the engine alone would, whatever order the answers come in. Once the answers settle the
//! node (its set no longer meets what it was asked about), the searches of its other successors
//! are stopped, their answers dropped.
//!
//! Values are exact whoever found them, so the nimber is the same on any number of threads; the
//! nodes and look-ups are summed over them. Only the variants with ETC split so (`cut_cEA`, which
//! `auto` picks for Cram, among them): their successors come out of ETC's pass already shaped.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use rayon::prelude::*;

use super::cut::{child_set, exclude, CutSearch, Etc, Opened, Pruning, Variant};
use super::deal::Deal;
use super::shared::{lock, summed, SharedValues, Sharing};
use super::tt::{weight, Weight};
use super::{Hook, Known, SearchConfig, Searcher, Shape, Stats, TtConfig, STACK_BYTES};
use crate::game::{Game, NimSet, Nimber};
use crate::stop::{Stop, Stopped};

/// Plies from the root whose nodes split their successors among the threads: Cram 5 x 9 has
/// about 40 successors a node near the root once ETC has taken what the table knows, and the
/// subtrees below four plies still take thousands of nodes each, far more than a hand-over.
const SPLIT_PLIES: u32 = 4;

/// Plies from the root below which a thread that deals to another rank hands it the whole
/// subtree: one ply above [`SPLIT_PLIES`], so that a job outweighs the wake-ups of the
/// threads of both ranks that pass it on, which take up to a millisecond on a machine whose
/// cores all search. On two ranks, Cram 5 x 8 and 4 x 11 took 0.79 and 0.64 of one rank's
/// search at 3 plies, 0.84 and 0.75 at 4; 2 plies were no better than 3 (docs/benchmarks.md).
const DEAL_PLIES: u32 = SPLIT_PLIES - 1;

/// Whether the variant `v` splits so: not the resuming ones, which count on one order of the
/// successors at every visit, and only those with ETC.
pub(crate) fn suits(v: Variant) -> bool {
    !v.resume && v.etc != Etc::Off
}

/// A member of the cut family on several threads, splitting the successors of the top plies
/// once the eldest is done.
pub struct Ybw<'g, G: Game> {
    variant: Variant,
    pool: rayon::ThreadPool,
    /// Every thread's values of weight enough ([`Sharing::publish`]), and those of the top
    /// plies.
    table: Arc<SharedValues<G::Position>>,
    /// One searcher per pool thread, by its index; a thread locks only its own, and never
    /// waits on the pool while it holds it, so the locks are never contended.
    workers: Vec<Mutex<CutSearch<'g, G>>>,
    /// Nodes of the top plies (the workers count theirs).
    nodes: AtomicU64,
    /// The sizes of the subtrees searched whole below the top plies.
    spread: Spread,
    stop: Stop,
    /// Under mpirun, the other ranks ([`super::deal`]): the pool's threads past the first
    /// `local` each hand the subtrees they take to a rank of their own.
    remote: Option<Box<dyn Deal<G::Position> + 'g>>,
    local: usize,
}

/// How the work below the top plies came in pieces: what bounds the threads (or ranks) that
/// can share it, and how evenly. Bucket `b` counts the subtrees of 2^b to 2^(b+1) - 1 nodes.
#[derive(Debug)]
pub struct Spread {
    /// Subtrees per bucket.
    pub count: [AtomicU64; 64],
    /// Their nodes per bucket.
    pub nodes: [AtomicU64; 64],
    /// The largest subtree's nodes.
    pub largest: AtomicU64,
    /// Nanoseconds the threads spent searching these subtrees: against the threads times the
    /// wall time, how much of the pool was busy below the split plies.
    pub busy_nanos: AtomicU64,
    /// Nodes of the subtrees whose search was stopped because their node was settled by
    /// another successor first: the work a second thread spent for nothing.
    pub stopped: AtomicU64,
}

impl Spread {
    fn new() -> Self {
        Spread {
            count: std::array::from_fn(|_| AtomicU64::new(0)),
            nodes: std::array::from_fn(|_| AtomicU64::new(0)),
            largest: AtomicU64::new(0),
            busy_nanos: AtomicU64::new(0),
            stopped: AtomicU64::new(0),
        }
    }

    /// Counts a subtree of `nodes` nodes searched in `time`, `stopped` before its answer.
    fn add(&self, nodes: u64, time: std::time::Duration, stopped: bool) {
        let nanos = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
        self.busy_nanos.fetch_add(nanos, Ordering::Relaxed);
        if stopped {
            self.stopped.fetch_add(nodes, Ordering::Relaxed);
        }
        let b = nodes.max(1).ilog2() as usize;
        self.count[b].fetch_add(1, Ordering::Relaxed);
        self.nodes[b].fetch_add(nodes, Ordering::Relaxed);
        self.largest.fetch_max(nodes, Ordering::Relaxed);
    }
}

impl<'g, G: Game> Ybw<'g, G> {
    /// The variant `variant` (one that `suits`) over `game` on `threads` threads, its tables
    /// empty; an error when the threads cannot be started.
    pub fn new(
        game: &'g G,
        variant: Variant,
        cfg: SearchConfig,
        threads: usize,
    ) -> Result<Self, String> {
        Self::build(game, variant, cfg, threads, None)
    }

    /// The same on rank 0 of an MPI job: `threads` threads search here, and one more thread
    /// per other rank deals it the subtrees it takes.
    pub(crate) fn dealing(
        game: &'g G,
        variant: Variant,
        cfg: SearchConfig,
        threads: usize,
        remote: Box<dyn Deal<G::Position> + 'g>,
    ) -> Result<Self, String> {
        Self::build(game, variant, cfg, threads, Some(remote))
    }

    fn build(
        game: &'g G,
        variant: Variant,
        cfg: SearchConfig,
        local: usize,
        remote: Option<Box<dyn Deal<G::Position> + 'g>>,
    ) -> Result<Self, String> {
        debug_assert!(suits(variant), "{variant} does not split");
        let threads = local + remote.as_ref().map_or(0, |r| r.ranks() - 1);
        // Each thread's table and the shared one take their part of the memory limit. A
        // thread that deals to a rank searches only the top plies here: its table stays small,
        // and is not counted.
        let memory = cfg.tt.memory.map(|m| m / (local as u64 + 1));
        let table = SharedValues::new(threads, memory);
        // What the other ranks are sent: every value shared here.
        let table = Arc::new(match remote {
            Some(_) => table.with_outbox(),
            None => table,
        });
        let each = SearchConfig {
            tt: TtConfig { memory, ..cfg.tt },
            ..cfg
        };
        let workers = (0..threads)
            .map(|index| {
                // Every thread takes the successors in the engine's order (`plies: 0`).
                let share = Sharing {
                    table: Arc::clone(&table),
                    index,
                    threads,
                    plies: 0,
                };
                Mutex::new(CutSearch::new(game, variant, each).sharing(share))
            })
            .collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(STACK_BYTES)
            .thread_name(|i| format!("grundy-ybw-{i}"))
            .build()
            .map_err(|e| e.to_string())?;
        Ok(Ybw {
            variant,
            pool,
            table,
            workers,
            nodes: AtomicU64::new(0),
            spread: Spread::new(),
            stop: Stop::new(),
            remote,
            local,
        })
    }

    /// The sizes of the subtrees searched whole so far (every position's).
    pub fn spread(&self) -> &Spread {
        &self.spread
    }

    /// The searcher of the pool thread this runs on.
    fn worker(&self) -> MutexGuard<'_, CutSearch<'g, G>> {
        let i = rayon::current_thread_index().expect("the search runs in its pool");
        lock(&self.workers[i])
    }

    /// What [`CutSearch::search`] answers for `s` against `r`, `ply` moves below the root.
    /// Once `stop` is stopped the answer means nothing (the caller drops it).
    fn node(&self, s: G::Position, r: Option<&NimSet>, ply: u32, stop: &Stop) -> Option<Nimber> {
        self.nodes.fetch_add(1, Ordering::Relaxed);
        // The guard goes at the end of the statement: the pool may hand this thread other
        // successors while it waits below, and their search locks it again.
        let shape = self.worker().shape_whole(s);
        match shape {
            Shape::Known(v) => Some(v),
            Shape::Sum(x, parts) => self.sum(x, &parts, r, ply, stop),
            Shape::Plain(c) => self.plain(c, r, ply, stop),
        }
    }

    /// The sum of `x` and the plain `parts` (the heaviest last) against `r`: below the top
    /// plies, searched whole by this thread's engine (or, from [`DEAL_PLIES`] on, by the rank
    /// this thread deals to); above, every part but the heaviest valued exactly and the
    /// heaviest asked about `r` shifted by their nim-sum, as the engine does.
    fn sum(
        &self,
        mut x: Nimber,
        parts: &[G::Position],
        r: Option<&NimSet>,
        ply: u32,
        stop: &Stop,
    ) -> Option<Nimber> {
        if ply >= DEAL_PLIES {
            if let Some(got) = self.deal(x, parts, r, stop) {
                return got;
            }
        }
        if ply >= SPLIT_PLIES {
            let mut w = self.worker();
            w.set_stop(stop.clone());
            let (before, start) = (w.stats().nodes, std::time::Instant::now());
            let got = w.search_parts(x, parts, r);
            let nodes = w.stats().nodes - before;
            self.spread.add(nodes, start.elapsed(), stop.is_stopped());
            return got;
        }
        let (last, rest) = parts.split_last().expect("a sum has parts");
        for c in rest {
            self.nodes.fetch_add(1, Ordering::Relaxed);
            x ^= self.plain(c.clone(), None, ply, stop).unwrap_or(0);
        }
        self.nodes.fetch_add(1, Ordering::Relaxed);
        let shifted = r.map(|r| r.xor_each(x));
        self.plain(last.clone(), shifted.as_ref(), ply, stop)
            .map(|v| v ^ x)
    }

    /// The subtree handed to another rank, when this thread deals to one: its answer.
    fn deal(
        &self,
        x: Nimber,
        parts: &[G::Position],
        r: Option<&NimSet>,
        stop: &Stop,
    ) -> Option<Option<Nimber>> {
        let remote = self.remote.as_ref()?;
        let i = rayon::current_thread_index().expect("the search runs in its pool");
        let rank = (i + 1).checked_sub(self.local).filter(|&r| r > 0)?;
        let start = std::time::Instant::now();
        let (got, nodes) = remote.search(rank, (x, parts, r), &self.table, &self.stop);
        self.spread.add(nodes, start.elapsed(), stop.is_stopped());
        Some(got)
    }

    /// [`CutSearch::expand`] of the plain position `s` with its successors split among the
    /// threads once the eldest is done.
    fn plain(&self, s: G::Position, r: Option<&NimSet>, ply: u32, stop: &Stop) -> Option<Nimber> {
        if stop.is_stopped() {
            return Some(0);
        }
        let pruning = self.variant.pruning;
        let max_r = r.map(|r| r.max().unwrap_or(0));
        let disjoint = |p: &NimSet| r.is_some_and(|r| p.is_disjoint(r));
        let opened = self.worker().open(&s, r);
        let (mut p, rest) = match opened {
            Opened::Known(v) => return Some(v),
            Opened::CutOff => return None,
            Opened::Open(p, rest) => (p, rest),
        };
        // With `cut`, a successor's "not in R" may hide a value above max R, after which P
        // is only accurate up to max R.
        let mut exact = true;
        let mut rest = rest.into_iter();
        if let Some((x, parts)) = rest.next() {
            if disjoint(&p) {
                return None;
            }
            let child_r = child_set(&p, pruning, max_r);
            let got = self.sum(x, &parts, child_r.as_ref(), ply + 1, stop);
            if stop.is_stopped() {
                return Some(0);
            }
            exact &= got.is_some() || pruning != Pruning::Cut;
            exclude(&mut p, got);
        }
        let younger: Vec<_> = rest.collect();
        if !younger.is_empty() {
            if disjoint(&p) {
                return None;
            }
            // Stopped once the node is settled, or with `stop`.
            let settled = stop.child();
            let state = Mutex::new((p, exact));
            younger.into_par_iter().for_each(|(x, parts)| {
                // The set as the answers in so far leave it: on one thread, the engine's own.
                let child_r = {
                    let held = lock(&state);
                    if settled.is_stopped() {
                        return;
                    }
                    child_set(&held.0, pruning, max_r)
                };
                let got = self.sum(x, &parts, child_r.as_ref(), ply + 1, &settled);
                // An answer of a stopped search means nothing; one found before is sound
                // (a stop stays), though the node may no longer need it.
                if settled.is_stopped() {
                    return;
                }
                let mut held = lock(&state);
                held.1 &= got.is_some() || pruning != Pruning::Cut;
                exclude(&mut held.0, got);
                if disjoint(&held.0) {
                    settled.stop();
                }
            });
            if stop.is_stopped() {
                return Some(0);
            }
            (p, exact) = state.into_inner().unwrap_or_else(|e| e.into_inner());
            if disjoint(&p) {
                return None;
            }
        }
        let result = p.only().expect("after every successor P has one member");
        if exact || max_r.is_none_or(|mr| result <= mr) {
            // The top plies' values cost the most of all.
            self.table.put(s, result, weight(u64::MAX));
            Some(result)
        } else {
            None
        }
    }
}

impl<G: Game> Searcher<G> for Ybw<'_, G> {
    fn try_nimber(&mut self, p: G::Position) -> Result<Nimber, Stopped> {
        let stop = self.stop.clone();
        let v = self.pool.install(|| match self.variant.aspiration {
            false => self.node(p, None, 0, &stop).unwrap_or(0),
            // As the engine alone: "is it 0?", "is it 1?", ...
            true => (0..)
                .find_map(|c| match stop.is_stopped() {
                    true => Some(0),
                    false => self.node(p.clone(), Some(&NimSet::singleton(c)), 0, &stop),
                })
                .expect("some aspiration set holds the value"),
        });
        match stop.is_stopped() {
            true => Err(Stopped),
            false => Ok(v),
        }
    }

    /// Every thread's and every rank's work.
    fn stats(&self) -> Stats {
        let mut sum = summed(self.nodes.load(Ordering::Relaxed), &self.workers);
        if let Some(remote) = &self.remote {
            sum += remote.stats();
        }
        sum
    }

    fn learn(&mut self, p: G::Position, v: Nimber, w: Weight) {
        self.table.put(p, v, w);
    }

    fn reserve(&mut self, additional: usize) -> usize {
        additional.min(self.table.room())
    }

    /// The hook runs on whichever thread is due first, with the shared table: what a saved
    /// table keeps. A thread that finds another running it goes on without.
    fn set_hook(&mut self, hook: Hook<G::Position>) {
        let hook = Arc::new(Mutex::new(hook));
        for w in &self.workers {
            let (table, hook) = (Arc::clone(&self.table), Arc::clone(&hook));
            lock(w).set_hook(Box::new(move |_| {
                if let Ok(mut hook) = hook.try_lock() {
                    hook(&*table);
                }
            }));
        }
    }

    fn set_stop(&mut self, stop: Stop) {
        self.stop = stop;
    }

    fn known(&self) -> &dyn Known<G::Position> {
        &*self.table
    }
}

#[cfg(test)]
mod tests;
