//! One position searched by several threads that split its options among them ("work stealing
//! over children"): the nodes of the top [`SPLIT_PLIES`] plies hand their options to rayon's
//! threads, an idle thread taking those no other has started, and each option below them is
//! valued whole by the thread that took it, with the plain definition (`naive`) and a memo of
//! its own. Values found on any thread go to one shared table ([`super::shared`]), where the
//! others look first whenever their own memo has nothing.
//!
//! This suits `naive`, which values every option of every node anyway: splitting them adds no
//! node, unlike Lazy SMP ([`super::smp`]), where helpers repeat the main thread's search in
//! another order. Only two threads valuing the same option at once (neither has shared it yet)
//! repeat work. Values are exact whoever found them, so the nimber is the same on any number
//! of threads; the nodes and look-ups are summed over them.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use rayon::prelude::*;

use super::naive::Naive;
use super::shared::{lock, summed, SharedValues, Sharing};
use super::tt::{weight, Weight};
use super::{Hook, Known, SearchConfig, Searcher, Shape, Stats, TtConfig, STACK_BYTES};
use crate::game::{Game, NimSet, Nimber};
use crate::stop::{Stop, Stopped};

/// Plies from the root whose nodes split their options among the threads: enough options for
/// every thread to find one not started (Chomp 12 x 12 has 143 options at the root and about
/// 10 000 two plies down), few enough that the split costs nothing beside the search.
const SPLIT_PLIES: u32 = 2;

/// `naive` on several threads, splitting the options of the top plies among them.
pub struct Split<'g, G: Game> {
    game: &'g G,
    cfg: SearchConfig,
    pool: rayon::ThreadPool,
    /// Every thread's values of weight enough ([`Sharing::publish`]), and those of the top
    /// plies.
    table: Arc<SharedValues<G::Position>>,
    /// One searcher per pool thread, by its index; a thread locks only its own, and never
    /// waits on the pool while it holds it, so the locks are never contended.
    workers: Vec<Mutex<Naive<'g, G>>>,
    /// Nodes of the top plies (the workers count theirs).
    nodes: AtomicU64,
    /// Set once the stop token is seen stopped: the search stays stopped until a new token.
    halted: AtomicBool,
    stop: Stop,
}

impl<'g, G: Game> Split<'g, G> {
    /// `naive` over `game` on `threads` threads, its tables empty; an error when the
    /// threads cannot be started.
    pub fn new(game: &'g G, cfg: SearchConfig, threads: usize) -> Result<Self, String> {
        // Each thread's memo and the shared table take their part of the memory limit.
        let memory = cfg.tt.memory.map(|m| m / (threads as u64 + 1));
        let table = Arc::new(SharedValues::new(threads, memory));
        let each = SearchConfig {
            tt: TtConfig { memory, ..cfg.tt },
            ..cfg
        };
        let workers = (0..threads)
            .map(|index| {
                let share = Sharing {
                    table: Arc::clone(&table),
                    index,
                    threads,
                    plies: u32::MAX,
                };
                Mutex::new(Naive::new(game, each).sharing(share))
            })
            .collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(STACK_BYTES)
            .thread_name(|i| format!("grundy-split-{i}"))
            .build()
            .map_err(|e| e.to_string())?;
        Ok(Split {
            game,
            cfg,
            pool,
            table,
            workers,
            nodes: AtomicU64::new(0),
            halted: AtomicBool::new(false),
            stop: Stop::new(),
        })
    }

    /// The searcher of the pool thread this runs on.
    fn worker(&self) -> MutexGuard<'_, Naive<'g, G>> {
        let i = rayon::current_thread_index().expect("the search runs in its pool");
        self.workers[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the search was stopped (its values mean nothing from then on).
    fn halted(&self) -> bool {
        if self.halted.load(Ordering::Relaxed) || self.stop.is_stopped() {
            self.halted.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// The value of `p`, `ply` moves below the root: its options split among the threads
    /// above [`SPLIT_PLIES`], valued whole by this thread's searcher below.
    fn value(&self, p: G::Position, ply: u32) -> Nimber {
        if ply >= SPLIT_PLIES {
            return self.worker().value(p);
        }
        self.nodes.fetch_add(1, Ordering::Relaxed);
        if self.halted() {
            return 0;
        }
        // The guard goes at the end of the statement: the pool may hand this thread other
        // options while it waits below, and their search locks it again.
        let shape = self.worker().shape(p);
        match shape {
            Shape::Known(v) => v,
            Shape::Sum(x, parts) => parts.into_iter().fold(x, |x, c| {
                self.nodes.fetch_add(1, Ordering::Relaxed);
                x ^ self.plain_value(c, ply)
            }),
            Shape::Plain(c) => self.plain_value(c, ply),
        }
    }

    /// The value of a position already shaped, its options valued in parallel.
    fn plain_value(&self, p: G::Position, ply: u32) -> Nimber {
        if let Some(v) = self.table.get(&p) {
            return v;
        }
        let mut moves = Vec::new();
        super::list_moves(self.game, &self.cfg, &p, &mut moves);
        let values: Vec<Nimber> = moves
            .into_par_iter()
            .map(|q| self.value(q, ply + 1))
            .collect();
        let mut seen = NimSet::new();
        for v in values {
            seen.insert(v);
        }
        let v = seen.mex();
        if !self.halted() {
            // The top plies' values cost the most of all.
            self.table.put(p, v, weight(u64::MAX));
        }
        v
    }
}

impl<G: Game> Searcher<G> for Split<'_, G> {
    fn try_nimber(&mut self, p: G::Position) -> Result<Nimber, Stopped> {
        let v = self.pool.install(|| self.value(p, 0));
        let stopped = self.halted() || self.workers.iter().any(|w| lock(w).stopped());
        match stopped {
            true => Err(Stopped),
            false => Ok(v),
        }
    }

    fn stats(&self) -> Stats {
        summed(self.nodes.load(Ordering::Relaxed), &self.workers)
    }

    fn learn(&mut self, p: G::Position, v: Nimber, w: Weight) {
        self.table.put(p, v, w);
    }

    fn reserve(&mut self, additional: usize) -> usize {
        additional.min(self.table.room())
    }

    /// The hook runs on the first thread, with the shared table: what a saved table keeps.
    fn set_hook(&mut self, mut hook: Hook<G::Position>) {
        let table = Arc::clone(&self.table);
        lock(&self.workers[0]).set_hook(Box::new(move |_| hook(&*table)));
    }

    fn set_stop(&mut self, stop: Stop) {
        for w in &self.workers {
            lock(w).set_stop(stop.clone());
        }
        self.halted.store(false, Ordering::Relaxed);
        self.stop = stop;
    }

    fn known(&self) -> &dyn Known<G::Position> {
        &*self.table
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::Chomp;

    /// What the shared table holds after a search is exact, and it holds the root.
    #[test]
    fn its_table_holds_exact_values() {
        let chomp = Chomp::new("chomp", 5, 6).unwrap();
        let start = chomp.pack(&[5; 6]);
        let mut alone = Naive::new(&chomp, SearchConfig::default());
        let mut s = Split::new(&chomp, SearchConfig::default(), 2).unwrap();
        assert_eq!(s.nimber(start), alone.nimber(start));
        let mut known = Vec::new();
        s.known().each_known(&mut |p, v, _| known.push((*p, v)));
        assert!(known.iter().any(|&(p, _)| p == start));
        for (p, v) in known {
            assert_eq!(alone.nimber(p), v, "{p:?}");
        }
    }

    /// A split search stops with its token, stays stopped, and runs again with a new one.
    #[test]
    fn a_stopped_split_search_says_so() {
        let chomp = Chomp::new("chomp", 4, 5).unwrap();
        let start = chomp.pack(&[4; 5]);
        let mut s = Split::new(&chomp, SearchConfig::default(), 2).unwrap();
        let stop = Stop::new();
        stop.stop();
        s.set_stop(stop);
        assert_eq!(s.try_nimber(start), Err(Stopped));
        assert_eq!(s.try_nimber(start), Err(Stopped));
        s.set_stop(Stop::new());
        let mut alone = Naive::new(&chomp, SearchConfig::default());
        assert_eq!(s.try_nimber(start), Ok(alone.nimber(start)));
    }
}
