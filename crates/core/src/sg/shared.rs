//! The exact values the threads of one parallel search share ([`super::smp`], [`super::split`],
//! [`super::ybw`]): a hash map cut into stripes, each behind its own lock, so that two threads
//! rarely want the same one, and a filter of one bit per slot that answers most misses without
//! a lock; and beside them the positions the threads are expanding now ([`searching`]).
//!
//! A thread never waits on a stripe: a look-up that finds it taken counts as a miss and a store
//! is dropped. Both are safe, since a value not found is only searched again, and the table
//! holds nothing but exact values; it never answers wrongly. Once it holds its most entries it
//! takes no more.

mod filter;
mod searching;

use std::hash::Hash;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use ahash::AHashMap;

use super::tt::{fixed_hasher, Weight};
use super::{Known, Searcher, Stats};
use crate::game::{Game, Nimber};
use filter::Filter;
pub(crate) use searching::Mark;
use searching::Searching;

/// Bytes an entry takes in a stripe, about (the key, the value, hashbrown's control byte and
/// its spare room): what the memory limit is divided by.
const ENTRY_BYTES: u64 = 48;

/// One stripe: keys to their exact values and what each cost.
type Stripe<K> = Mutex<AHashMap<K, (Nimber, Weight)>>;

/// Exact values shared between threads, with what each cost (a saved table keeps both).
pub(crate) struct SharedValues<K> {
    stripes: Box<[Stripe<K>]>,
    /// Most look-ups miss (the cut engines' ETC asks about every successor), and a look-up
    /// the filter turns away misses without the stripe's lock, whose cache line would
    /// otherwise go back and forth between the cores at every look-up.
    filter: Filter,
    /// Held by the thread that grows the filter.
    growing: Mutex<()>,
    hasher: ahash::RandomState,
    /// Entries held, and the most it takes.
    len: AtomicUsize,
    cap: usize,
    /// Values stored by [`SharedValues::put`] since the last [`SharedValues::take_outbox`],
    /// when kept: what a rank sends the others ([`super::deal`]).
    outbox: Option<Mutex<Vec<(K, Nimber, Weight)>>>,
    /// The positions the threads are expanding now, near the top of their searches.
    searching: Searching,
}

impl<K: Hash + Eq> SharedValues<K> {
    /// A table for `threads` threads, within `memory` bytes when given.
    pub(crate) fn new(threads: usize, memory: Option<u64>) -> Self {
        // Many more stripes than threads: two threads then rarely meet on one.
        let count = (threads * 64).next_power_of_two();
        let stripes = (0..count)
            .map(|_| Mutex::new(AHashMap::with_hasher(fixed_hasher())))
            .collect();
        // Under a memory limit, the filter takes at most a sixteenth of it.
        let filter = Filter::within(memory.map(|m| m / 16));
        let cap = memory.map_or(usize::MAX, |m| {
            usize::try_from(m.saturating_sub(filter.bytes()) / ENTRY_BYTES).unwrap_or(usize::MAX)
        });
        SharedValues {
            stripes,
            filter,
            growing: Mutex::new(()),
            hasher: ahash::RandomState::with_seeds(5, 6, 7, 8),
            len: AtomicUsize::new(0),
            cap,
            outbox: None,
            searching: Searching::new(),
        }
    }

    /// The same table, keeping what [`SharedValues::put`] stores for
    /// [`SharedValues::take_outbox`].
    pub(crate) fn with_outbox(self) -> Self {
        SharedValues {
            outbox: Some(Mutex::new(Vec::new())),
            ..self
        }
    }

    /// The values stored since the last call (none without an outbox).
    pub(crate) fn take_outbox(&self) -> Vec<(K, Nimber, Weight)> {
        self.outbox
            .as_ref()
            .map(|o| std::mem::take(&mut *lock(o)))
            .unwrap_or_default()
    }

    /// The stripe of a key's hash `h` (its low bits).
    fn stripe(&self, h: u64) -> &Stripe<K> {
        &self.stripes[(h as usize) & (self.stripes.len() - 1)]
    }

    /// Marks `key` as expanded by the calling thread, unless its slot is taken.
    pub(crate) fn enter(&self, key: &K) -> Option<Mark> {
        self.searching.enter(self.hasher.hash_one(key))
    }

    /// Clears a mark of [`SharedValues::enter`].
    pub(crate) fn leave(&self, mark: Mark) {
        self.searching.leave(mark);
    }

    /// Whether a thread is expanding `key` now (marked by [`SharedValues::enter`]).
    pub(crate) fn searched(&self, key: &K) -> bool {
        self.searching.holds(self.hasher.hash_one(key))
    }

    /// The value of `key`, when held and its stripe is free.
    #[inline]
    pub(crate) fn get(&self, key: &K) -> Option<Nimber> {
        let h = self.hasher.hash_one(key);
        if !self.filter.may_hold(h) {
            return None;
        }
        let map = self.stripe(h).try_lock().ok()?;
        map.get(key).map(|&(v, _)| v)
    }

    /// Stores the exact value `v` of `key`, which cost `w`, unless its stripe is taken or the
    /// table is full; a new entry goes to the outbox too, when the table keeps one.
    pub(crate) fn put(&self, key: K, v: Nimber, w: Weight)
    where
        K: Clone,
    {
        match &self.outbox {
            None => {
                self.store(key, v, w);
            }
            Some(outbox) => {
                if self.store(key.clone(), v, w) {
                    lock(outbox).push((key, v, w));
                }
            }
        }
    }

    /// [`SharedValues::put`] without the outbox: for values that came from the outbox of
    /// another rank's table.
    pub(crate) fn put_quiet(&self, key: K, v: Nimber, w: Weight) {
        self.store(key, v, w);
    }

    /// Stores the entry; whether it is new.
    fn store(&self, key: K, v: Nimber, w: Weight) -> bool {
        if self.len.load(Ordering::Relaxed) >= self.cap {
            return false;
        }
        let h = self.hasher.hash_one(&key);
        let Ok(mut map) = self.stripe(h).try_lock() else {
            return false;
        };
        let new = map.insert(key, (v, w)).is_none();
        // Under the stripe's lock: a growth of the filter, which takes every stripe, finds the
        // key held or its bit set in the level it grows to.
        self.filter.insert(h);
        drop(map);
        if new {
            let len = self.len.fetch_add(1, Ordering::Relaxed) + 1;
            if self.filter.outgrown(len) {
                self.grow_filter();
            }
        }
        new
    }

    /// Builds the filter's next level with every stripe locked: the other threads meanwhile
    /// miss the table and store nothing in it, as at any stripe taken. One thread grows it at
    /// a time; the others go on.
    #[cold]
    fn grow_filter(&self) {
        let Ok(_alone) = self.growing.try_lock() else {
            return;
        };
        let held: Vec<_> = self.stripes.iter().map(lock).collect();
        if self.filter.outgrown(self.len()) {
            let hashes = held.iter().flat_map(|map| map.keys());
            self.filter.grow(hashes.map(|k| self.hasher.hash_one(k)));
        }
    }

    /// Entries held.
    pub(crate) fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    /// Entries it takes before it is full.
    pub(crate) fn room(&self) -> usize {
        self.cap.saturating_sub(self.len())
    }
}

/// Every value held, each stripe read under its lock (the threads that want it meanwhile miss).
impl<K: Hash + Eq + Send> Known<K> for SharedValues<K> {
    fn each_known(&self, f: &mut dyn FnMut(&K, Nimber, Weight)) {
        for stripe in self.stripes.iter() {
            each_entry(&lock(stripe), f);
        }
    }

    /// Every stripe locked at once: the other threads go on, missing the table meanwhile as
    /// at any stripe taken, and store nothing in it.
    fn held_still(&self, f: &mut dyn FnMut(&dyn Known<K>)) {
        f(&Still(self.stripes.iter().map(lock).collect()))
    }
}

/// A table's stripes, all locked: it does not change while held.
struct Still<'t, K>(Vec<MutexGuard<'t, AHashMap<K, (Nimber, Weight)>>>);

impl<K> Known<K> for Still<'_, K> {
    fn each_known(&self, f: &mut dyn FnMut(&K, Nimber, Weight)) {
        for map in &self.0 {
            each_entry(map, f);
        }
    }

    fn held_still(&self, f: &mut dyn FnMut(&dyn Known<K>)) {
        f(self)
    }
}

/// Calls `f` on each entry of one stripe.
fn each_entry<K>(map: &AHashMap<K, (Nimber, Weight)>, f: &mut dyn FnMut(&K, Nimber, Weight)) {
    for (k, &(v, w)) in map {
        f(k, v, w);
    }
}

/// Entries lighter than this (subtrees of fewer than 2^(weight - 1) nodes) are not shared: a
/// thread finds them again sooner than it takes the lock.
const PUBLISH_WEIGHT: Weight = 4;

/// Plies from the root at which a Lazy SMP helper takes the moves in its own order.
pub(crate) const DIVERGE_PLIES: u32 = 3;

/// One thread's part in a parallel search: the shared table, and which thread it is.
pub(crate) struct Sharing<K> {
    pub(crate) table: Arc<SharedValues<K>>,
    /// 0 for the main thread, which searches as alone; 1.. for the helpers.
    pub(crate) index: usize,
    pub(crate) threads: usize,
    /// Plies from the root (of the thread's own search) at which it takes the moves in its
    /// own order.
    pub(crate) plies: u32,
}

impl<K: Hash + Eq + Clone> Sharing<K> {
    /// The value another thread found for `key`.
    #[inline]
    pub(crate) fn get(&self, key: &K) -> Option<Nimber> {
        self.table.get(key)
    }

    /// Shares the exact value `v` of `key`, which cost `w`, when it is worth it.
    #[inline]
    pub(crate) fn publish(&self, key: &K, v: Nimber, w: Weight) {
        if w >= PUBLISH_WEIGHT {
            self.table.put(key.clone(), v, w);
        }
    }

    /// A helper's own order of the moves of a node `ply` moves below the root: rotated by its
    /// share of them, so that the threads start on different subtrees and meet in the table.
    pub(crate) fn diverge<T>(&self, ply: u32, moves: &mut [T]) {
        if self.index > 0 && ply < self.plies && moves.len() > 1 {
            let by = moves.len() * self.index / self.threads;
            moves.rotate_left(by % moves.len());
        }
    }
}

/// A lock, whether or not a thread panicked holding it (the panic goes on to the caller).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The cost of a search split among `workers`: theirs summed, beside the `nodes` the split
/// plies expanded themselves.
pub(crate) fn summed<G: Game, S: Searcher<G>>(nodes: u64, workers: &[Mutex<S>]) -> Stats {
    let mut sum = Stats {
        nodes,
        ..Stats::default()
    };
    for w in workers {
        sum += lock(w).stats();
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_keeps_what_it_is_given_up_to_its_limit() {
        let t = SharedValues::new(2, None);
        for k in 0u64..1000 {
            t.put(k, (k % 7) as Nimber, 5);
        }
        assert_eq!(t.len(), 1000);
        assert!((0u64..1000).all(|k| t.get(&k) == Some((k % 7) as Nimber)));
        assert_eq!(t.get(&1000), None);
        let mut seen = 0;
        t.each_known(&mut |&k, v, w| {
            assert_eq!((v, w), ((k % 7) as Nimber, 5));
            seen += 1;
        });
        assert_eq!(seen, 1000);
        // 4 800 bytes: a filter of 1 024 bits (128 bytes, at most a sixteenth), and entries
        // in the rest.
        let small = SharedValues::new(2, Some(100 * ENTRY_BYTES));
        assert_eq!(small.filter.bytes(), 128);
        for k in 0u64..200 {
            small.put(k, 1, 5);
        }
        assert_eq!(small.len(), (4800 - 128) / ENTRY_BYTES as usize);
        assert_eq!(
            (0u64..200).filter(|k| small.get(k).is_some()).count(),
            small.len()
        );
    }

    #[test]
    fn what_two_threads_store_while_the_filter_grows_is_found() {
        let t = SharedValues::new(2, None);
        let stored: Vec<Vec<u64>> = std::thread::scope(|scope| {
            let t = &t;
            let each = |from: u64| {
                move || {
                    (from..from + 700_000)
                        .filter(|&k| t.store(k, (k % 5) as Nimber, 5))
                        .collect()
                }
            };
            let a = scope.spawn(each(0));
            let b = scope.spawn(each(1 << 40));
            vec![a.join().unwrap(), b.join().unwrap()]
        });
        assert!(t.filter.bits() > 1 << 23, "{} entries", t.len());
        assert_eq!(t.len(), stored.iter().map(Vec::len).sum::<usize>());
        assert!(stored
            .iter()
            .flatten()
            .all(|&k| t.get(&k) == Some((k % 5) as Nimber)));
    }
}
