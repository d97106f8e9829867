//! The values of a byte store kept apart (255 and more): the heaps whose byte is the escape,
//! their values, and an index of buckets that finds the next such heap without a search of all.

use super::values::ESCAPE;
use crate::game::Nimber;

/// Values kept apart stay bytes while at most one heap in this many has one (beyond
/// [`LARGE_FREE`]): each costs 12 bytes and every scan steps over it, so past that share two
/// bytes a value are cheaper.
pub const LARGE_SHARE: usize = 64;

/// Values kept apart that never make the values wider, however few the heaps.
pub(super) const LARGE_FREE: usize = 1 << 12;

/// Heaps a bucket of [`Large`]'s index covers.
const BUCKET_BITS: u32 = 12;

/// The values kept apart from a byte store: the heaps (in order) whose byte is [`ESCAPE`], and
/// their values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Large {
    pub(super) heaps: Vec<usize>,
    pub(super) values: Vec<Nimber>,
    /// For each bucket of 2^[`BUCKET_BITS`] heaps up to the last one's, how many heaps
    /// below it are kept apart: a scan asks where the next one is once a block and rare
    /// heap, and a search of every heap apart (thousands, far past 10^8 heaps of Grundy's
    /// game) cost more than the block's own reads.
    starts: Vec<u32>,
    /// Values from this one on are kept apart (255 but in tests, which reach the side table
    /// with small values).
    pub(super) from: Nimber,
    /// Whether many values kept apart make the store wider (always but in tests).
    pub(super) widens: bool,
}

impl Default for Large {
    fn default() -> Self {
        Large {
            heaps: Vec::new(),
            values: Vec::new(),
            starts: Vec::new(),
            from: Nimber::from(ESCAPE),
            widens: true,
        }
    }
}

impl Large {
    /// None yet, values from `from` on kept apart and never widened: the side table's paths,
    /// reached by small values in tests.
    pub(super) fn escaping_from(from: Nimber) -> Large {
        Large {
            from,
            widens: false,
            ..Large::default()
        }
    }

    /// How many heaps below `i` are kept apart (the index of the first at or past it).
    #[inline]
    pub(super) fn below(&self, i: usize) -> usize {
        let b = i >> BUCKET_BITS;
        let Some(&first) = self.starts.get(b) else {
            // Past the last one's bucket: every one is below.
            return self.heaps.len();
        };
        let (first, end) = (first as usize, self.starts.get(b + 1));
        let end = end.map_or(self.heaps.len(), |&e| e as usize);
        first + self.heaps[first..end].partition_point(|&h| h < i)
    }

    /// The value of escaped heap `i`.
    #[inline]
    pub(super) fn get(&self, i: usize) -> Nimber {
        let k = self.below(i);
        debug_assert_eq!(self.heaps.get(k), Some(&i), "heap {i} is escaped");
        self.values[k]
    }

    /// Keeps `value` of heap `heap`, past every heap kept so far.
    pub(super) fn push(&mut self, heap: usize, value: Nimber) {
        let count = u32::try_from(self.heaps.len()).expect("fewer than 2^32 values apart");
        let bucket = heap >> BUCKET_BITS;
        if self.starts.len() <= bucket {
            self.starts.resize(bucket + 1, count);
        }
        self.heaps.push(heap);
        self.values.push(value);
    }

    /// Keeps those of heaps below `len`.
    pub(super) fn truncate(&mut self, len: usize) {
        let keep = self.below(len);
        self.heaps.truncate(keep);
        self.values.truncate(keep);
        let buckets = self.heaps.last().map_or(0, |&h| (h >> BUCKET_BITS) + 1);
        self.starts.truncate(buckets);
    }

    /// Whether values kept apart have grown too many to stay bytes, for `len` values.
    pub(super) fn crowded(&self, len: usize) -> bool {
        self.widens && self.heaps.len() > LARGE_FREE && self.heaps.len() * LARGE_SHARE > len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The buckets' index finds the heaps kept apart as a search of all of them does:
    /// several in a bucket, buckets without any, across truncations.
    #[test]
    fn the_index_of_values_apart_finds_them() {
        let bucket = 1usize << BUCKET_BITS;
        let mut large = Large::default();
        let mut heaps: Vec<usize> = [3, 5, bucket - 1, bucket, 3 * bucket + 7, 3 * bucket + 9]
            .into_iter()
            .chain((0..40).map(|i| 7 * bucket + 13 * i * bucket / 10))
            .collect();
        heaps.dedup();
        for &h in &heaps {
            large.push(h, 300);
        }
        let check = |large: &Large, heaps: &[usize]| {
            for i in 0..heaps.last().map_or(10, |h| h + 2 * bucket) {
                let want = heaps.partition_point(|&h| h < i);
                assert_eq!(large.below(i), want, "heap {i}");
            }
        };
        check(&large, &heaps);
        for len in [20 * bucket + 1, 3 * bucket + 8, bucket, 4, 0] {
            large.truncate(len);
            heaps.retain(|&h| h < len);
            check(&large, &heaps);
        }
        large.push(2 * bucket, 300);
        check(&large, &[2 * bucket]);
    }
}
