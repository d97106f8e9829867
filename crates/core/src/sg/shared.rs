//! The exact values the threads of one parallel search share ([`super::smp`], [`super::split`],
//! [`super::ybw`]): a hash map cut into stripes, each behind its own lock, so that two threads
//! rarely want the same one, and a filter of one bit per slot that answers most misses without
//! a lock.
//!
//! A thread never waits on a stripe: a look-up that finds it taken counts as a miss and a store
//! is dropped. Both are safe, since a value not found is only searched again, and the table
//! holds nothing but exact values; it never answers wrongly. Once it holds its most entries it
//! takes no more.

use std::hash::Hash;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use ahash::AHashMap;

use super::tt::{fixed_hasher, Weight};
use super::{Known, Searcher, Stats};
use crate::game::{Game, Nimber};

/// Bytes an entry takes in a stripe, about (the key, the value, hashbrown's control byte and
/// its spare room): what the memory limit is divided by.
const ENTRY_BYTES: u64 = 48;

/// One stripe: keys to their exact values and what each cost.
type Stripe<K> = Mutex<AHashMap<K, (Nimber, Weight)>>;

/// Bits of the filter (1 MiB, less under a small memory limit), small enough to stay in a
/// core's own cache: a look-up of a key not held finds its bit set by others with a chance of
/// about n / 2^23 with n entries held (one in four at two million; past about 2^23 entries
/// most look-ups take the stripe's lock, as without a filter). At 2^27 bits (16 MiB) nearly
/// every look-up missed the caches (`perf`: 86% of the look-ups' time on the bit's load), and
/// two threads took 0.81 of one thread's time on Cram 5 x 9 and 0.73 on 4 x 11, against 0.68
/// and 0.57 at 2^23 (docs/benchmarks.md, 2026-11-28); 2^20 and 2^21 were no faster on 5 x 8.
const FILTER_BITS_LOG: u32 = 23;

/// Exact values shared between threads, with what each cost (a saved table keeps both).
pub(crate) struct SharedValues<K> {
    stripes: Box<[Stripe<K>]>,
    /// The bit a key's hash names is set once the key is stored (and stays set). Most look-ups
    /// miss (the cut engines' ETC asks about every successor), and a look-up whose bit is clear
    /// misses without the stripe's lock, whose cache line would otherwise go back and forth
    /// between the cores at every look-up.
    filter: Box<[AtomicU64]>,
    filter_log: u32,
    hasher: ahash::RandomState,
    /// Entries held, and the most it takes.
    len: AtomicUsize,
    cap: usize,
    /// Values stored by [`SharedValues::put`] since the last [`SharedValues::take_outbox`],
    /// when kept: what a rank sends the others ([`super::deal`]).
    outbox: Option<Mutex<Vec<(K, Nimber, Weight)>>>,
}

impl<K: Hash + Eq> SharedValues<K> {
    /// A table for `threads` threads, within `memory` bytes when given.
    pub(crate) fn new(threads: usize, memory: Option<u64>) -> Self {
        // Many more stripes than threads: two threads then rarely meet on one.
        let count = (threads * 64).next_power_of_two();
        let stripes = (0..count)
            .map(|_| Mutex::new(AHashMap::with_hasher(fixed_hasher())))
            .collect();
        // Under a memory limit, the filter takes at most a sixteenth of it (m / 2 bits).
        let filter_log = memory.map_or(FILTER_BITS_LOG, |m| {
            (m / 2).max(64).ilog2().min(FILTER_BITS_LOG)
        });
        let filter_bytes = 1u64 << (filter_log - 3);
        let cap = memory.map_or(usize::MAX, |m| {
            usize::try_from(m.saturating_sub(filter_bytes) / ENTRY_BYTES).unwrap_or(usize::MAX)
        });
        SharedValues {
            stripes,
            filter: (0..1usize << (filter_log - 6))
                .map(|_| AtomicU64::new(0))
                .collect(),
            filter_log,
            hasher: ahash::RandomState::with_seeds(5, 6, 7, 8),
            len: AtomicUsize::new(0),
            cap,
            outbox: None,
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

    /// The word of the filter and the bit in it of a key's hash `h` (its high bits, so that the
    /// filter and the stripes do not read the same ones).
    fn filter_bit(&self, h: u64) -> (&AtomicU64, u64) {
        let slot = (h >> (64 - self.filter_log)) as usize;
        (&self.filter[slot / 64], 1 << (slot % 64))
    }

    /// The value of `key`, when held and its stripe is free.
    #[inline]
    pub(crate) fn get(&self, key: &K) -> Option<Nimber> {
        let h = self.hasher.hash_one(key);
        let (word, bit) = self.filter_bit(h);
        if word.load(Ordering::Relaxed) & bit == 0 {
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
        if new {
            self.len.fetch_add(1, Ordering::Relaxed);
        }
        // After the entry: a look-up that sees the bit before the entry only misses.
        let (word, bit) = self.filter_bit(h);
        word.fetch_or(bit, Ordering::Relaxed);
        new
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
        // 4 800 bytes: a filter of 2 048 bits (256 bytes, at most a sixteenth), and entries
        // in the rest.
        let small = SharedValues::new(2, Some(100 * ENTRY_BYTES));
        assert_eq!(small.filter.len() * 8, 256);
        for k in 0u64..200 {
            small.put(k, 1, 5);
        }
        assert_eq!(small.len(), (4800 - 256) / ENTRY_BYTES as usize);
        assert_eq!(
            (0u64..200).filter(|k| small.get(k).is_some()).count(),
            small.len()
        );
    }
}
