//! Transposition tables with a capacity and an eviction policy.
//!
//! The pruning paper measures FIFO tables at 1/4, 1/2 and 1 times the state count; we keep FIFO
//! to reproduce it and offer CLOCK (second chance), which keeps entries that keep being hit.

use std::collections::VecDeque;
use std::hash::Hash;

use ahash::AHashMap;

use super::flat::FlatMap;

/// What to evict when a bounded table is full.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    /// Evict the entry stored earliest (the paper's setting).
    Fifo,
    /// Second chance: entries hit since the hand last passed survive one more round.
    #[default]
    Clock,
}

/// What an entry cost to learn, for a full table's choice of which entry gives way: the bits
/// of the number of nodes its search spent ([`weight`]).
pub type Weight = u8;

/// The weight of an entry whose search spent `nodes`.
pub fn weight(nodes: u64) -> Weight {
    (u64::BITS - nodes.leading_zeros()) as Weight
}

/// The weight of an entry whose cost is unknown (one from a file of the first version, or one
/// a bounded table held, which keeps none): as heavy as any, so that it is kept while the
/// search's own entries turn over.
pub const UNKNOWN: Weight = Weight::MAX;

/// A table's size: `None` is unbounded, `Some(0)` is no table at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtConfig {
    /// Entries the table holds at most (`None`: unbounded; `Some(0)`: no table).
    pub capacity: Option<usize>,
    /// What a bounded table evicts when full.
    pub policy: Policy,
    /// Bytes an unbounded table may take (its slots; not what keys point to). Once there it
    /// stops growing and new entries take the place of old ones: a search that would have run
    /// out of memory after hours goes on, slower. `None`: it grows while memory lasts.
    pub memory: Option<u64>,
}

impl Default for TtConfig {
    fn default() -> Self {
        TtConfig {
            capacity: None,
            policy: Policy::Clock,
            memory: None,
        }
    }
}

enum Store<K, V> {
    None,
    /// The unbounded table while small: hashbrown's tag array, a byte per slot, stays in the
    /// cache and answers most look-ups of absent keys without touching the entries. The
    /// weights go with the entries to the flat table.
    Unbounded(AHashMap<K, (V, Weight)>),
    /// The unbounded table once it holds [`FLAT_FROM`] entries: a look-up then waits on memory
    /// whatever it reads, and the flat table reads one place (which a search can prefetch).
    Large(FlatMap<K, V>),
    Fifo {
        map: AHashMap<K, V>,
        order: VecDeque<K>,
        cap: usize,
    },
    Clock {
        index: AHashMap<K, usize>,
        slots: Vec<(K, V, bool)>,
        hand: usize,
        cap: usize,
    },
}

/// Where the unbounded table moves to a [`FlatMap`], and the cut engines start to shape one
/// successor ahead of its look-ups. Measured on Cram side by side: on 5 x 9 (a table of one to
/// two million entries) the flat table and the look-ahead were 12-15% slower than hashbrown; on
/// 7 x 7 (four to seven million) 5-11% faster. The unit tests move at a thousand, so that the
/// engines' cross-checks search through both.
const FLAT_FROM: usize = if cfg!(test) { 1 << 10 } else { 1 << 22 };

/// The engines' hasher, with fixed seeds: a table or cache behaves alike in every run, and a
/// search that settles at once does not wait on the system's random source (Cram 4 x 8's
/// whole search went from 33 us to 20 us).
pub(crate) fn fixed_hasher() -> ahash::RandomState {
    ahash::RandomState::with_seeds(1, 2, 3, 4)
}

/// An empty map hashing with [`fixed_hasher`].
fn map<K, V>() -> AHashMap<K, V> {
    AHashMap::with_hasher(fixed_hasher())
}

/// A map from positions to what engines learned about them, counting every look-up.
pub struct Tt<K, V> {
    store: Store<K, V>,
    lookups: u64,
    /// Entries a bounded table evicted.
    evicted: u64,
    /// The unbounded table's memory limit, and the entries at which it moves to a flat table:
    /// [`FLAT_FROM`], or sooner when a flat table within the limit holds fewer.
    memory: Option<u64>,
    flat_from: usize,
}

impl<K: Hash + Eq + Clone, V: Clone> Tt<K, V> {
    /// A table as configured.
    pub fn new(config: TtConfig) -> Self {
        let store = match (config.capacity, config.policy) {
            (Some(0), _) => Store::None,
            (None, _) => Store::Unbounded(map()),
            (Some(cap), Policy::Fifo) => Store::Fifo {
                map: map(),
                order: VecDeque::new(),
                cap,
            },
            (Some(cap), Policy::Clock) => Store::Clock {
                index: map(),
                slots: Vec::new(),
                hand: 0,
                cap,
            },
        };
        let flat_from = match config.memory {
            Some(bytes) => FLAT_FROM.min(FlatMap::<K, V>::entries_within(bytes)),
            None => FLAT_FROM,
        };
        Tt {
            store,
            lookups: 0,
            evicted: 0,
            memory: config.memory,
            flat_from,
        }
    }

    /// Whether there is a table at all (capacity above zero).
    pub fn enabled(&self) -> bool {
        !matches!(self.store, Store::None)
    }

    /// Looks `key` up; counted when there is a table.
    pub fn get(&mut self, key: &K) -> Option<V> {
        match &mut self.store {
            Store::None => None,
            Store::Unbounded(map) => {
                self.lookups += 1;
                map.get(key).map(|(v, _)| v.clone())
            }
            Store::Fifo { map, .. } => {
                self.lookups += 1;
                map.get(key).cloned()
            }
            Store::Large(map) => {
                self.lookups += 1;
                map.get(key).cloned()
            }
            Store::Clock { index, slots, .. } => {
                self.lookups += 1;
                let &i = index.get(key)?;
                slots[i].2 = true;
                Some(slots[i].1.clone())
            }
        }
    }

    /// Stores `value` for `key`, which cost `weight` to learn, evicting by policy when full:
    /// a bounded table by its own (updating a key keeps its age), an unbounded one at its
    /// memory limit the lightest entry where the key goes. Returns the value that left the
    /// table, if any: the key's old one, the evicted entry's, or `value` itself when there is
    /// no table (so that a caller can free what it points to).
    pub fn put(&mut self, key: K, value: V, weight: Weight) -> Option<V> {
        match &mut self.store {
            Store::None => Some(value),
            Store::Unbounded(map) if map.len() >= self.flat_from => {
                // As much room as hashbrown had, at once: the tables coexist while it fills, but
                // the new one does not grow meanwhile.
                let room = map.capacity();
                self.go_flat(room);
                self.put(key, value, weight)
            }
            Store::Unbounded(map) => map.insert(key, (value, weight)).map(|(v, _)| v),
            Store::Large(map) => map.insert(key, value, weight),
            Store::Fifo { map, order, cap } => {
                if let Some(slot) = map.get_mut(&key) {
                    return Some(std::mem::replace(slot, value));
                }
                let evicted = match map.len() == *cap {
                    true => order.pop_front().and_then(|old| map.remove(&old)),
                    false => None,
                };
                self.evicted += u64::from(evicted.is_some());
                order.push_back(key.clone());
                map.insert(key, value);
                evicted
            }
            Store::Clock {
                index,
                slots,
                hand,
                cap,
            } => {
                if let Some(&i) = index.get(&key) {
                    return Some(std::mem::replace(&mut slots[i].1, value));
                }
                if slots.len() < *cap {
                    index.insert(key.clone(), slots.len());
                    slots.push((key, value, false));
                    return None;
                }
                while slots[*hand].2 {
                    slots[*hand].2 = false;
                    *hand = (*hand + 1) % slots.len();
                }
                index.remove(&slots[*hand].0);
                index.insert(key.clone(), *hand);
                let (_, evicted, _) = std::mem::replace(&mut slots[*hand], (key, value, false));
                *hand = (*hand + 1) % slots.len();
                self.evicted += 1;
                Some(evicted)
            }
        }
    }

    /// Makes room for `additional` more entries at once, for a table about to learn them from
    /// a file (keys in another table's bucket order, inserted into a table still growing, pile
    /// up in long runs): how many of them it can hold without giving any up.
    pub fn reserve(&mut self, additional: usize) -> usize {
        match &mut self.store {
            Store::None => 0,
            Store::Unbounded(map) => {
                let want = map.len().saturating_add(additional);
                if want <= self.flat_from {
                    map.reserve(additional);
                    return additional;
                }
                self.go_flat(want);
                self.reserve(additional)
            }
            Store::Large(map) => map.reserve(additional),
            Store::Fifo { map, cap, .. } => cap.saturating_sub(map.len()).min(additional),
            Store::Clock { slots, cap, .. } => cap.saturating_sub(slots.len()).min(additional),
        }
    }

    /// Moves the small unbounded table's entries to a flat table with room for `room`
    /// entries (within the memory limit), which takes its place.
    fn go_flat(&mut self, room: usize) {
        let mut flat = FlatMap::with_capacity(room, self.memory);
        if let Store::Unbounded(map) = &mut self.store {
            for (k, (v, w)) in std::mem::take(map) {
                flat.insert(k, v, w);
            }
        }
        self.store = Store::Large(flat);
    }

    /// Asks for `key`'s place in the table to be brought into the cache, ahead of a look-up
    /// (a large unbounded table only; the others ignore it). Not counted as a look-up.
    pub fn prefetch(&self, key: &K) {
        if let Store::Large(map) = &self.store {
            map.prefetch(key);
        }
    }

    /// Whether [`Self::prefetch`] does anything: only for a large unbounded table.
    pub fn prefetches(&self) -> bool {
        matches!(self.store, Store::Large(_))
    }

    /// Number of entries held.
    pub fn len(&self) -> usize {
        match &self.store {
            Store::None => 0,
            Store::Unbounded(map) => map.len(),
            Store::Fifo { map, .. } => map.len(),
            Store::Large(map) => map.len(),
            Store::Clock { slots, .. } => slots.len(),
        }
    }

    /// Calls `f` on every entry held and its weight, in no particular order (a saved table's
    /// source).
    pub fn for_each(&self, mut f: impl FnMut(&K, &V, Weight)) {
        match &self.store {
            Store::None => {}
            Store::Unbounded(map) => map.iter().for_each(|(k, (v, w))| f(k, v, *w)),
            Store::Fifo { map, .. } => map.iter().for_each(|(k, v)| f(k, v, UNKNOWN)),
            Store::Large(map) => map.iter().for_each(|(k, v, w)| f(k, v, w)),
            Store::Clock { slots, .. } => slots.iter().for_each(|(k, v, _)| f(k, v, UNKNOWN)),
        }
    }

    /// Whether the table holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Look-ups made so far.
    pub fn lookups(&self) -> u64 {
        self.lookups
    }

    /// Entries given up to make room so far: by a bounded table, or by an unbounded one at its
    /// memory limit.
    pub fn evicted(&self) -> u64 {
        match &self.store {
            Store::Large(map) => map.evicted(),
            _ => self.evicted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifo_evicts_the_oldest() {
        let mut t = Tt::new(TtConfig {
            capacity: Some(2),
            policy: Policy::Fifo,
            memory: None,
        });
        t.put(1, 'a', 0);
        t.put(2, 'b', 0);
        assert_eq!(t.get(&1), Some('a'));
        assert_eq!(t.put(3, 'c', 0), Some('a'), "the evicted value comes back");
        assert_eq!(
            t.put(3, 'd', 0),
            Some('c'),
            "and so does an overwritten one"
        );
        assert_eq!(
            t.get(&1),
            None,
            "1 was stored first, so it goes first even though it was hit"
        );
        assert_eq!(t.get(&2), Some('b'));
        assert_eq!(t.len(), 2);
        assert_eq!(t.lookups(), 3);
    }

    #[test]
    fn clock_keeps_entries_that_are_hit() {
        let mut t = Tt::new(TtConfig {
            capacity: Some(2),
            policy: Policy::Clock,
            memory: None,
        });
        t.put(1, 'a', 0);
        t.put(2, 'b', 0);
        assert_eq!(t.get(&1), Some('a'));
        assert_eq!(t.put(3, 'c', 0), Some('b'));
        assert_eq!(t.get(&1), Some('a'));
        assert_eq!(t.get(&2), None);
        assert_eq!(t.get(&3), Some('c'));
    }

    /// `for_each` visits what `get` finds, once each, in every kind of table.
    #[test]
    fn every_table_shows_what_it_holds() {
        let kinds = [
            (Some(0), Policy::Fifo),
            (Some(50), Policy::Fifo),
            (Some(50), Policy::Clock),
            (None, Policy::Clock),
        ];
        for (capacity, policy) in kinds {
            let mut t = Tt::new(TtConfig {
                capacity,
                policy,
                memory: None,
            });
            // Past the flat table's threshold, so the unbounded one moves.
            for i in 0..2 * FLAT_FROM as u64 {
                t.put(i, i * 3, 0);
            }
            let mut seen = Vec::new();
            t.for_each(|&k, &v, _| seen.push((k, v)));
            assert_eq!(seen.len(), t.len(), "{capacity:?}");
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), t.len(), "{capacity:?}: once each");
            for (k, v) in seen {
                assert_eq!(t.get(&k), Some(v));
            }
        }
    }

    /// Each table names the room it has: all of it when unbounded (a large reservation moves
    /// it to the flat table at once), what is left of a capacity otherwise.
    #[test]
    fn tables_name_their_room() {
        let mut t = Tt::new(TtConfig::default());
        t.put(0u64, 0u64, 0);
        assert_eq!(t.reserve(10), 10);
        assert!(matches!(t.store, Store::Unbounded(_)));
        assert_eq!(t.reserve(2 * FLAT_FROM), 2 * FLAT_FROM);
        assert!(matches!(t.store, Store::Large(_)));
        assert_eq!(t.get(&0), Some(0), "what it held moved with it");
        for (capacity, room) in [(Some(0), 0), (Some(5), 4), (Some(500), 99)] {
            let mut t = Tt::new(TtConfig {
                capacity,
                policy: Policy::Fifo,
                memory: None,
            });
            t.put(1u64, 1u64, 0);
            assert_eq!(t.reserve(99), room, "{capacity:?}");
        }
    }

    #[test]
    fn zero_capacity_is_no_table() {
        let mut t = Tt::new(TtConfig {
            capacity: Some(0),
            policy: Policy::Fifo,
            memory: None,
        });
        assert_eq!(t.put(1, 1, 0), Some(1), "nothing is kept");
        assert_eq!(t.get(&1), None);
        assert!(!t.enabled());
        assert_eq!(t.lookups(), 0);
    }

    #[test]
    fn unbounded_keeps_everything() {
        let mut t = Tt::new(TtConfig::default());
        for i in 0..1000 {
            t.put(i, i, 0);
        }
        assert_eq!(t.len(), 1000);
        assert_eq!(t.get(&0), Some(0));
    }

    #[test]
    fn a_large_unbounded_table_turns_flat_and_keeps_everything() {
        let mut t = Tt::new(TtConfig::default());
        for i in 0..FLAT_FROM {
            assert_eq!(t.put(i, i, 0), None);
        }
        assert!(matches!(t.store, Store::Unbounded(_)));
        assert_eq!(
            t.put(7, 70, 0),
            Some(7),
            "the move happens on this put, an update"
        );
        assert!(matches!(t.store, Store::Large(_)));
        let n = 3 * FLAT_FROM;
        for i in FLAT_FROM..n {
            assert_eq!(t.put(i, i, 0), None);
        }
        assert_eq!(t.len(), n);
        for i in 0..n {
            t.prefetch(&i);
            assert_eq!(t.get(&i), Some(if i == 7 { 70 } else { i }));
        }
        assert_eq!(t.get(&n), None);
        assert_eq!(t.lookups(), n as u64 + 1);
    }
}
