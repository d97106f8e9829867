//! The large unbounded transposition table: open addressing, keys and values in one array.
//!
//! A general hash map (hashbrown's SwissTable) keeps a tag array beside the entries, so once
//! both are far larger than the cache a look-up waits on memory twice: once for the tags, once
//! for the entry. Here a look-up reads the bucket the hash names, one cache line of four slots
//! (and the next bucket when that one is full): one wait. No slot is ever emptied again (the
//! unbounded table only grows, or replaces), which keeps the probing simple.
//! [`FlatMap::prefetch`] lets a search ask for the line of a key it will look up soon, so that
//! the wait passes meanwhile.
//!
//! A map may be capped at a number of buckets (a memory limit). Once full there, it stops
//! growing and a new key takes the place of an entry on its own probe path, in its home bucket,
//! which leaves no hole in any other key's path: the map stays a correct cache, only a forgetful
//! one, and never fills up (a probe always ends). The entry that gives way is the one that cost
//! least to learn ([`Weight`]): on Cram 5 x 9 in a table of 0.01 GiB, giving up the last one
//! instead took three times the nodes.

use std::hash::Hash;

use super::tt::Weight;

/// A map that only grows, for keys and values small enough to sit in the slot array.
pub(crate) struct FlatMap<K, V> {
    /// A power of two of buckets (or none before the first insert).
    buckets: Vec<Bucket<K, V>>,
    len: usize,
    hasher: ahash::RandomState,
    /// The most buckets the map may grow to (a power of two).
    max_buckets: usize,
    /// Entries given up for a new key since the map stopped growing.
    evicted: u64,
}

/// Slots per bucket: four entries of a one-word key and a four-byte value fill a cache line.
const WIDTH: usize = 4;

/// A cache line of slots, filled from the first: the first empty slot ends a probe.
#[repr(align(64))]
struct Bucket<K, V>([Option<(K, V, Weight)>; WIDTH]);

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
            max_buckets: usize::MAX,
            evicted: 0,
        }
    }

    /// An empty map with room for `n` entries before it grows, and that stays within `bytes`
    /// (when given) even while it grows: once it can grow no more, its buckets take a third to
    /// two thirds of `bytes`.
    pub(crate) fn with_capacity(n: usize, bytes: Option<u64>) -> Self {
        let mut map = FlatMap::new();
        if let Some(bytes) = bytes {
            map.max_buckets = Self::buckets_within(bytes);
        }
        let mut size = FIRST_BUCKETS;
        while LOAD.1 * n > LOAD.0 * WIDTH * size && size < map.max_buckets {
            size *= 2;
        }
        map.buckets.resize_with(size, Bucket::empty);
        map
    }

    /// The most buckets (a power of two, at least the first size) such that growing to them,
    /// half as many still held, takes at most `bytes`: the map then holds a third to two
    /// thirds of them.
    fn buckets_within(bytes: u64) -> usize {
        let bucket = std::mem::size_of::<Bucket<K, V>>() as u64;
        let mut size = FIRST_BUCKETS;
        while 3 * (2 * size as u64) * bucket <= 2 * bytes {
            size *= 2;
        }
        size
    }

    /// The most entries a map within `bytes` holds before it stops growing.
    pub(crate) fn entries_within(bytes: u64) -> usize {
        LOAD.0 * WIDTH * Self::buckets_within(bytes) / LOAD.1
    }

    /// Entries held.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Entries given up for new keys once the map could grow no more.
    pub(crate) fn evicted(&self) -> u64 {
        self.evicted
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
                    Some((k, _, _)) if k != key => {}
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
        self.buckets[b].0[i].as_ref().map(|(_, v, _)| v)
    }

    /// Stores `value` for `key`, which cost `weight` to learn; returns the value it replaces:
    /// `key`'s old one or, once the map can grow no more, the one of the entry it evicted.
    pub(crate) fn insert(&mut self, key: K, value: V, weight: Weight) -> Option<V> {
        let mut full = LOAD.1 * (self.len + 1) > LOAD.0 * WIDTH * self.buckets.len();
        if full && self.buckets.len() < self.max_buckets {
            self.grow();
            full = false;
        }
        let (mut b, mut i) = self.find(&key);
        if full && self.buckets[b].0[i].is_none() {
            // The probe path from the home bucket to here is all taken. The home bucket's
            // lightest entry gives way (the last of equals), so the entries that cost most stay
            // and every key just stored is found. An empty home bucket takes the key on its
            // first slot instead, one entry past the load; as only empty buckets ever take one,
            // some always stay empty.
            let home = self.home(&key);
            if b != home || i > 0 {
                let taken = if b == home { i } else { WIDTH };
                let slots = &self.buckets[home].0[..taken];
                let lightest = (0..taken)
                    .rev()
                    .min_by_key(|&j| slots[j].as_ref().map(|(_, _, w)| *w))
                    .expect("a taken slot");
                (b, i) = (home, lightest);
                self.evicted += 1;
            }
        }
        let old = self.buckets[b].0[i]
            .replace((key, value, weight))
            .map(|(_, v, _)| v);
        if old.is_none() {
            self.len += 1;
        }
        old
    }

    /// Grows at once to room for `additional` more entries (up to its cap). Entries inserted in
    /// the order of another table's buckets must find that room ready: filling a smaller table
    /// first, that order piles them up in one run that every later key walks through (58
    /// million entries learned from a file had not gone in after ten minutes; with the room
    /// made first, 2.5 seconds).
    /// Returns how many it can take before it stops growing.
    pub(crate) fn reserve(&mut self, additional: usize) -> usize {
        let want = self.len.saturating_add(additional);
        let mut size = self.buckets.len().max(FIRST_BUCKETS);
        while LOAD.1.saturating_mul(want) > LOAD.0 * WIDTH * size && size < self.max_buckets {
            size *= 2;
        }
        if size > self.buckets.len() {
            self.resize(size);
        }
        let most = match self.buckets.len() < self.max_buckets {
            true => usize::MAX,
            false => LOAD.0 * WIDTH * self.buckets.len() / LOAD.1,
        };
        most.saturating_sub(self.len).min(additional)
    }

    /// Doubles the buckets and places every entry again.
    fn grow(&mut self) {
        self.resize((2 * self.buckets.len()).max(FIRST_BUCKETS));
    }

    /// Takes `size` buckets, more than now, and places every entry again.
    fn resize(&mut self, size: usize) {
        let old = std::mem::replace(&mut self.buckets, Vec::with_capacity(size));
        self.buckets.resize_with(size, Bucket::empty);
        for (k, v, w) in old.into_iter().flat_map(|b| b.0).flatten() {
            let (b, i) = self.find(&k);
            self.buckets[b].0[i] = Some((k, v, w));
        }
    }

    /// Every entry and its weight, in no particular order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&K, &V, Weight)> {
        self.buckets
            .iter()
            .flat_map(|b| b.0.iter().flatten().map(|(k, v, w)| (k, v, *w)))
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

    /// Room made at once is room kept: no growth while it fills, even in the order of another
    /// map's buckets; a capped map says how much it can take.
    #[test]
    fn reserve_makes_the_room_at_once() {
        let mut big = FlatMap::new();
        for k in 0..50_000u64 {
            big.insert(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), k, 0);
        }
        let mut m = FlatMap::new();
        m.insert(1, 1, 0);
        assert_eq!(m.reserve(big.len()), big.len());
        let buckets = m.buckets.len();
        for (&k, &v, w) in big.iter() {
            m.insert(k, v, w);
        }
        assert_eq!(m.buckets.len(), buckets, "no growth while it filled");
        assert_eq!(m.len(), big.len() + 1);
        let mut capped = FlatMap::<u64, u64>::with_capacity(0, Some(1 << 16));
        let room = capped.reserve(1 << 20);
        assert_eq!(room, FlatMap::<u64, u64>::entries_within(1 << 16));
        for k in 0..room as u64 {
            capped.insert(k, k, 0);
        }
        assert_eq!(
            capped.evicted(),
            0,
            "the room it named holds without evictions"
        );
        assert_eq!(capped.reserve(5), 0);
    }

    /// The cut engines' entries (a board word, a four-byte entry with a niche, a weight) fill
    /// a bucket of one cache line: the weight sits in what was padding.
    #[test]
    fn a_bucket_of_board_entries_is_one_cache_line() {
        use std::num::NonZeroU32;
        assert_eq!(std::mem::size_of::<Bucket<u64, NonZeroU32>>(), 64);
    }

    #[test]
    fn holds_what_it_was_given_through_growth() {
        let mut m = FlatMap::new();
        assert_eq!(m.get(&7u64), None, "an empty map has no slots yet");
        for k in 0..10_000u64 {
            assert_eq!(m.insert(k * 977, k, 0), None);
        }
        assert_eq!(m.len(), 10_000);
        assert_eq!(
            m.insert(977, 5, 0),
            Some(1),
            "an update returns the old value"
        );
        assert_eq!(m.len(), 10_000, "and adds no entry");
        for k in 0..10_000u64 {
            let want = if k == 1 { 5 } else { k };
            assert_eq!(m.get(&(k * 977)), Some(&want));
            assert_eq!(m.get(&(k * 977 + 1)), None);
        }
        let mut all: Vec<(u64, u64)> = m.iter().map(|(&k, &v, _)| (k, v)).collect();
        all.sort_unstable();
        let want: Vec<(u64, u64)> = (0..10_000u64)
            .map(|k| (k * 977, if k == 1 { 5 } else { k }))
            .collect();
        assert_eq!(all, want, "iter yields every entry once");
        m.prefetch(&3);
        let room = FlatMap::<u64, u64>::with_capacity(10_000, None)
            .buckets
            .len();
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

    /// A map at its memory limit stops growing: every key just stored is found, no key is ever
    /// found with another's value, what an insert returns is the value of the entry it gave
    /// up, the probes still end (some slots stay empty), and the entries that cost most stay:
    /// one key in ten is heavy, and they come to hold most of the map.
    #[test]
    fn at_its_limit_it_forgets_but_never_lies() {
        let bucket = std::mem::size_of::<Bucket<u64, u64>>();
        let bytes = (3 * 64 * bucket) as u64;
        let most = FlatMap::<u64, u64>::entries_within(bytes);
        let mut m = FlatMap::with_capacity(0, Some(bytes));
        let mut held = std::collections::HashMap::new();
        for k in 0..20_000u64 {
            let key = k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let weight = if k % 10 == 0 { 200 } else { (k % 5) as Weight };
            if let Some(v) = m.insert(key, k, weight) {
                // The value of some key given earlier, which is gone now.
                let gone = key_of(v);
                assert_eq!(held.remove(&gone), Some(v), "{k}");
                assert_eq!(m.get(&gone), None, "{k}");
            }
            held.insert(key, k);
            assert_eq!(m.get(&key), Some(&k));
        }
        assert_eq!(m.buckets.len(), 128, "as many buckets as fit");
        assert_eq!(m.len(), held.len());
        assert!(m.len() < WIDTH * m.buckets.len(), "some slot stays empty");
        assert!(m.len() >= most, "it filled to its load first");
        assert_eq!(m.evicted(), 20_000 - m.len() as u64);
        for (key, v) in &held {
            assert_eq!(m.get(key), Some(v));
        }
        let heavy = held.values().filter(|&&k| k % 10 == 0).count();
        // About three in four: a bucket keeps its heavy entries, and its newest light one
        // (where giving up the last slot would keep the first keys, one in ten heavy).
        assert!(2 * heavy >= m.len(), "{heavy} heavy of {}", m.len());
        fn key_of(k: u64) -> u64 {
            k.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        }
    }
}
