//! The large unbounded transposition table: open addressing, keys and values in one array.
//!
//! A general hash map (hashbrown's SwissTable) keeps a tag array beside the entries, so once
//! both are far larger than the cache a look-up waits on memory twice: once for the tags, once
//! for the entry. Here a look-up reads the bucket the hash names, one cache line of four slots
//! (and the next bucket when that one is full): one wait. Entries are never removed (the
//! unbounded table only grows), which keeps the probing simple. [`FlatMap::prefetch`] lets a
//! search ask for the line of a key it will look up soon, so that the wait passes meanwhile.

use std::hash::Hash;

/// A map that only grows, for keys and values small enough to sit in the slot array.
pub(crate) struct FlatMap<K, V> {
    /// A power of two of buckets (or none before the first insert).
    buckets: Vec<Bucket<K, V>>,
    len: usize,
    hasher: ahash::RandomState,
}

/// Slots per bucket: four entries of a one-word key and a four-byte value fill a cache line.
const WIDTH: usize = 4;

/// A cache line of slots, filled from the first: the first empty slot ends a probe.
#[repr(align(64))]
struct Bucket<K, V>([Option<(K, V)>; WIDTH]);

impl<K, V> Bucket<K, V> {
    fn empty() -> Self {
        Bucket(std::array::from_fn(|_| None))
    }
}

/// The first number of buckets.
const FIRST_BUCKETS: usize = 16;

/// The most entries per slot, as a fraction: hashbrown's, which four-slot buckets bear (on Cram
/// 7 x 7 it ran as fast as three quarters).
const LOAD: (usize, usize) = (7, 8);

impl<K: Hash + Eq, V> FlatMap<K, V> {
    /// An empty map; it allocates on the first insert.
    pub(crate) fn new() -> Self {
        FlatMap {
            buckets: Vec::new(),
            len: 0,
            hasher: super::tt::fixed_hasher(),
        }
    }

    /// An empty map with room for `n` entries before it grows.
    pub(crate) fn with_capacity(n: usize) -> Self {
        let mut size = FIRST_BUCKETS;
        while LOAD.1 * n > LOAD.0 * WIDTH * size {
            size *= 2;
        }
        let mut map = FlatMap::new();
        map.buckets.resize_with(size, Bucket::empty);
        map
    }

    /// Entries held.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The bucket where the probe for `key` starts.
    fn home(&self, key: &K) -> usize {
        self.hasher.hash_one(key) as usize & (self.buckets.len() - 1)
    }

    /// The bucket and slot holding `key`, or the empty slot where it would go (there is always
    /// one: the map is never full).
    fn find(&self, key: &K) -> (usize, usize) {
        let mask = self.buckets.len() - 1;
        let mut b = self.home(key);
        loop {
            for (i, slot) in self.buckets[b].0.iter().enumerate() {
                match slot {
                    Some((k, _)) if k != key => {}
                    _ => return (b, i),
                }
            }
            b = (b + 1) & mask;
        }
    }

    /// The value held for `key`.
    pub(crate) fn get(&self, key: &K) -> Option<&V> {
        if self.buckets.is_empty() {
            return None;
        }
        let (b, i) = self.find(key);
        self.buckets[b].0[i].as_ref().map(|(_, v)| v)
    }

    /// Stores `value` for `key`; returns the value it replaces.
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        if LOAD.1 * (self.len + 1) > LOAD.0 * WIDTH * self.buckets.len() {
            self.grow();
        }
        let (b, i) = self.find(&key);
        let old = self.buckets[b].0[i].replace((key, value)).map(|(_, v)| v);
        if old.is_none() {
            self.len += 1;
        }
        old
    }

    /// Doubles the buckets and places every entry again.
    fn grow(&mut self) {
        let size = (2 * self.buckets.len()).max(FIRST_BUCKETS);
        let old = std::mem::replace(&mut self.buckets, Vec::with_capacity(size));
        self.buckets.resize_with(size, Bucket::empty);
        for (k, v) in old.into_iter().flat_map(|b| b.0).flatten() {
            let (b, i) = self.find(&k);
            self.buckets[b].0[i] = Some((k, v));
        }
    }

    /// Asks the processor to bring `key`'s first bucket into the cache, without waiting: a
    /// look-up of it soon after then costs little. It changes nothing else.
    pub(crate) fn prefetch(&self, key: &K) {
        #[cfg(target_arch = "x86_64")]
        if !self.buckets.is_empty() {
            let bucket: *const Bucket<K, V> = &self.buckets[self.home(key)];
            // SAFETY: a prefetch is a hint; it reads nothing and cannot fault.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    bucket.cast(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_what_it_was_given_through_growth() {
        let mut m = FlatMap::new();
        assert_eq!(m.get(&7u64), None, "an empty map has no slots yet");
        for k in 0..10_000u64 {
            assert_eq!(m.insert(k * 977, k), None);
        }
        assert_eq!(m.len(), 10_000);
        assert_eq!(m.insert(977, 5), Some(1), "an update returns the old value");
        assert_eq!(m.len(), 10_000, "and adds no entry");
        for k in 0..10_000u64 {
            let want = if k == 1 { 5 } else { k };
            assert_eq!(m.get(&(k * 977)), Some(&want));
            assert_eq!(m.get(&(k * 977 + 1)), None);
        }
        m.prefetch(&3);
        let room = FlatMap::<u64, u64>::with_capacity(10_000).buckets.len();
        assert_eq!(
            room,
            m.buckets.len(),
            "the room a map grew to for as many entries"
        );
        assert!(
            LOAD.1 * m.len() <= LOAD.0 * WIDTH * m.buckets.len(),
            "never past the load"
        );
    }
}
