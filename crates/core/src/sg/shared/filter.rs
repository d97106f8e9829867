//! The bits in front of the shared table ([`super::SharedValues`]): one per slot, set when a key
//! whose hash names the slot is stored, so that most look-ups of keys not held miss without
//! taking a lock. The filter grows with the table: a filter of `b` bits holding `n` keys lets
//! about `n / b` of the misses through, and on Cram 5 x 10 a fixed filter of 2^23 bits let 79%
//! of the look-ups through to the stripes' locks once the table held 13 million entries
//! (docs/benchmarks.md, 2026-11-28). A small filter stays in a core's cache while the table is
//! small; a large one costs a cache miss, still less than a lock and a probe of the table.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Bits of the first level (1 MiB), small enough to stay in a core's own cache. At 2^27 bits
/// (16 MiB) from the start, nearly every look-up missed the caches (`perf`: 86% of the
/// look-ups' time on the bit's load), and two threads took 0.81 of one thread's time on Cram
/// 5 x 9 and 0.73 on 4 x 11, against 0.68 and 0.57 at 2^23 (docs/benchmarks.md, 2026-11-28);
/// 2^20 and 2^21 were no faster on 5 x 8.
const FIRST_LOG: u32 = 23;

/// Bits of the largest level (64 MiB): enough for a table of hundreds of millions of entries.
const LAST_LOG: u32 = 29;

/// Each level has 2^STEP times the bits of the one before.
const STEP: u32 = 2;

/// A level is outgrown once it holds a key for every `1 << OUTGROWN` bits (one look-up in
/// eight of keys not held then gets through).
const OUTGROWN: u32 = 3;

/// A filter of one bit per slot that grows by levels, each built whole before it is used.
pub(crate) struct Filter {
    /// Level `i` has `1 << logs[i]` bits; those up to `current` are built. A level once built
    /// stays until the filter is dropped: a look-up may still read the one before.
    levels: Box<[OnceLock<Box<[AtomicU64]>>]>,
    logs: Box<[u32]>,
    current: AtomicUsize,
}

impl Filter {
    /// A filter whose levels together take at most `bytes` (`None`: up to 2^29 bits).
    pub(crate) fn within(bytes: Option<u64>) -> Self {
        // The levels together take less than 4/3 of the largest.
        let last = bytes.map_or(LAST_LOG, |b| (b * 8 * 3 / 4).max(64).ilog2().min(LAST_LOG));
        let first = FIRST_LOG.min(last);
        let logs: Box<[u32]> = (first..=last).step_by(STEP as usize).collect();
        let levels: Box<[_]> = logs.iter().map(|_| OnceLock::new()).collect();
        levels[0].get_or_init(|| words(logs[0]));
        Filter {
            levels,
            logs,
            current: AtomicUsize::new(0),
        }
    }

    /// Bytes every level takes once built.
    pub(crate) fn bytes(&self) -> u64 {
        self.logs.iter().map(|&log| 1u64 << (log - 3)).sum()
    }

    /// Bits of the level in use.
    #[cfg(test)]
    pub(crate) fn bits(&self) -> u64 {
        1 << self.logs[self.current.load(Ordering::Acquire)]
    }

    /// The level in use and its bits' log.
    fn level(&self) -> (&[AtomicU64], u32) {
        let i = self.current.load(Ordering::Acquire);
        let words = self.levels[i]
            .get()
            .expect("a level is built before it is used");
        (words, self.logs[i])
    }

    /// Whether a key of hash `h` may be held: false only when no key of its slot was stored
    /// (or one was, during a growth, which makes its look-ups miss, never answer wrongly).
    #[inline]
    pub(crate) fn may_hold(&self, h: u64) -> bool {
        let (words, log) = self.level();
        let (word, bit) = slot(words, log, h);
        word.load(Ordering::Relaxed) & bit != 0
    }

    /// Marks the slot of a key of hash `h`, stored.
    #[inline]
    pub(crate) fn insert(&self, h: u64) {
        let (words, log) = self.level();
        let (word, bit) = slot(words, log, h);
        word.fetch_or(bit, Ordering::Relaxed);
    }

    /// Whether a table of `entries` keys has outgrown the level in use, and a larger one is
    /// left.
    pub(crate) fn outgrown(&self, entries: usize) -> bool {
        let i = self.current.load(Ordering::Acquire);
        i + 1 < self.logs.len()
            && (entries as u64).saturating_mul(1 << OUTGROWN) > 1 << self.logs[i]
    }

    /// Builds the next level from the hashes of every key held, and uses it from then on. The
    /// caller keeps the table from changing meanwhile (its stripes locked), so that no key is
    /// stored in the old level only.
    pub(crate) fn grow(&self, hashes: impl Iterator<Item = u64>) {
        let next = self.current.load(Ordering::Acquire) + 1;
        let Some(level) = self.levels.get(next) else {
            return;
        };
        let log = self.logs[next];
        let words = level.get_or_init(|| words(log));
        for h in hashes {
            let (word, bit) = slot(words, log, h);
            word.fetch_or(bit, Ordering::Relaxed);
        }
        self.current.store(next, Ordering::Release);
    }
}

/// `1 << log` bits, all clear.
fn words(log: u32) -> Box<[AtomicU64]> {
    (0..1usize << (log - 6))
        .map(|_| AtomicU64::new(0))
        .collect()
}

/// The word and the bit of a hash `h` in a level of `1 << log` bits: its high bits, so that
/// the filter and the stripes (its low bits) do not read the same ones.
#[inline]
fn slot(words: &[AtomicU64], log: u32, h: u64) -> (&AtomicU64, u64) {
    let slot = (h >> (64 - log)) as usize;
    (&words[slot / 64], 1 << (slot % 64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_holds_what_was_inserted_through_every_growth() {
        let f = Filter::within(None);
        assert_eq!(f.bits(), 1 << 23);
        assert_eq!(f.bytes(), (1 << 20) + (1 << 22) + (1 << 24) + (1 << 26));
        let hashes: Vec<u64> = (0..5000u64)
            .map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        hashes.iter().for_each(|&h| f.insert(h));
        assert!(hashes.iter().all(|&h| f.may_hold(h)));
        assert!(!f.outgrown(1 << 20) && f.outgrown((1 << 20) + 1));
        f.grow(hashes.iter().copied());
        assert_eq!(f.bits(), 1 << 25);
        assert!(hashes.iter().all(|&h| f.may_hold(h)));
        // A larger level lets fewer keys not held through.
        let others = (5000..105_000u64).map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        assert!(others.filter(|&h| f.may_hold(h)).count() < 100);
        while f.bits() < 1 << 29 {
            f.grow(hashes.iter().copied());
        }
        assert!(!f.outgrown(usize::MAX >> 8));
        f.grow(hashes.iter().copied());
        assert_eq!(f.bits(), 1 << 29);
    }

    #[test]
    fn a_memory_limit_bounds_every_level_together() {
        for bytes in [64, 4800, 1 << 20, 100 << 20, 1 << 30] {
            let f = Filter::within(Some(bytes));
            assert!(f.bytes() <= bytes, "{bytes}: {}", f.bytes());
            assert!(f.bits() <= 1 << 23);
        }
        assert_eq!(
            Filter::within(Some(1 << 30)).bytes(),
            Filter::within(None).bytes()
        );
    }
}
