//! The index over stored levels: at width <= 8, segments are sorted by their classes' values at
//! a few example points with wanted values, and for an outer operand the inner operands that
//! can give every wanted value are found by walking that order point by point.

use super::kernel::{Want, Word};
use super::search::Gen;
use super::store::Segment;

/// Columns with wanted values, at most this many, sort the classes of stored levels.
pub(super) const INDEX_COLUMNS: usize = 8;

/// Columns where the examples ask for exact values, then columns that must not give 0 (where
/// `BooleanEq` and roots under `BooleanNot` are exact), at width <= 8. Stored segments are
/// sorted by their classes' values at these columns, first column first, and bucketed by the
/// value at the first, so for an outer operand the inner operands that can give every wanted
/// value are found by walking the sorted order column by column
/// ([`Gen::pairs`](super::search::Gen::pairs)) instead of checking every pair.
#[derive(Clone, Copy, Debug)]
pub(super) struct Index {
    pub cols: [usize; INDEX_COLUMNS],
    pub wants: [Want; INDEX_COLUMNS],
    pub len: usize,
}

impl Index {
    /// The sort key of vector `v`: its values at the columns, the first in the top byte.
    #[inline(always)]
    pub fn key<T: Word>(&self, v: &[T]) -> u64 {
        (0..INDEX_COLUMNS).fold(0, |k, j| {
            let x = if j < self.len {
                v[self.cols[j]].get()
            } else {
                0
            };
            (k << 8) | (x & 0xff)
        })
    }

    /// The bucket of a sort key: the value at the first column.
    #[inline(always)]
    pub fn bucket(key: u64) -> usize {
        (key >> (8 * (INDEX_COLUMNS - 1))) as usize
    }
}

/// For one root form over an outer and an inner operand: per index column `j` and outer value
/// `x`, the set of inner values `y` (256 bits) with `h(x, y)` what the column wants.
pub(super) struct IndexTable {
    /// `masks[slot[j] * 256 + x]`: one slot per distinct wanted value.
    masks: Vec<[u64; 4]>,
    slot: [usize; INDEX_COLUMNS],
}

impl IndexTable {
    /// The table of `h` (outer value first) at width `mask` <= 0xff.
    pub fn new(ix: &Index, mask: u64, h: impl Fn(u64, u64) -> u64) -> Self {
        let mut wants: Vec<Want> = Vec::new();
        let mut slot = [0; INDEX_COLUMNS];
        for (s, &w) in slot.iter_mut().zip(&ix.wants[..ix.len]) {
            *s = wants.iter().position(|&v| v == w).unwrap_or_else(|| {
                wants.push(w);
                wants.len() - 1
            });
        }
        let mut masks = vec![[0u64; 4]; wants.len() * 256];
        for (k, &want) in wants.iter().enumerate() {
            for x in 0..=mask {
                let m = &mut masks[k * 256 + x as usize];
                for y in 0..=mask {
                    if want.admits(h(x, y)) {
                        m[(y / 64) as usize] |= 1 << (y % 64);
                    }
                }
            }
        }
        IndexTable { masks, slot }
    }

    /// The inner values allowed at index column `j` with outer value `x` there.
    #[inline(always)]
    pub fn allowed(&self, j: usize, x: u64) -> &[u64; 4] {
        &self.masks[self.slot[j] * 256 + x as usize]
    }
}

/// The least member of `set` that is at least `from`.
#[inline(always)]
pub(super) fn next_in(set: &[u64; 4], from: u64) -> Option<u64> {
    let mut w = (from / 64) as usize;
    if w >= 4 {
        return None;
    }
    let mut bits = set[w] & (u64::MAX << (from % 64));
    loop {
        if bits != 0 {
            return Some(w as u64 * 64 + bits.trailing_zeros() as u64);
        }
        w += 1;
        if w == 4 {
            return None;
        }
        bits = set[w];
    }
}

/// The end of the prefix of `lo..hi` where `pred` holds (it holds on a prefix): doubling steps
/// from `lo`, then bisection, so a short prefix costs few probes.
fn gallop(lo: usize, hi: usize, pred: impl Fn(usize) -> bool) -> usize {
    let (mut a, mut step) = (lo, 1);
    let mut b = loop {
        let k = a + step - 1;
        if k >= hi {
            break hi;
        }
        if !pred(k) {
            break k;
        }
        a = k + 1;
        step *= 2;
    };
    while a < b {
        let mid = a + (b - a) / 2;
        if pred(mid) {
            a = mid + 1;
        } else {
            b = mid;
        }
    }
    a
}

impl<T: Word> Gen<'_, T> {
    /// Calls `scan(from, to)` on the ranges of inner segment `si` (sorted by [`Index::key`])
    /// whose values at every index column are allowed by `t` with the outer vector `ov`: the
    /// first column through the buckets, then column by column, leaping in the sorted order to
    /// the next allowed value. Ranges of a few classes are scanned whole.
    pub(super) fn walk(
        &self,
        si: &Segment<T>,
        t: &IndexTable,
        ov: &[T],
        scan: &mut impl FnMut(usize, usize) -> bool,
    ) -> bool {
        let ix = self.index.as_ref().expect("index columns");
        let first = t.allowed(0, ov[ix.cols[0]].get());
        for (w, &bits) in first.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let y = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (lo, hi) = (si.buckets[y] as usize, si.buckets[y + 1] as usize);
                if lo < hi && !self.descend(si, t, ov, 1, (lo, hi), scan) {
                    return false;
                }
            }
        }
        true
    }

    /// [`Self::walk`] from index column `j` within `range`, where the earlier columns are equal.
    fn descend(
        &self,
        si: &Segment<T>,
        t: &IndexTable,
        ov: &[T],
        j: usize,
        (lo, hi): (usize, usize),
        scan: &mut impl FnMut(usize, usize) -> bool,
    ) -> bool {
        let ix = self.index.as_ref().expect("index columns");
        if j == ix.len || hi - lo <= self.scan_below {
            return scan(lo, hi);
        }
        let (c, n) = (ix.cols[j], self.n);
        let allowed = t.allowed(j, ov[c].get());
        let val = |k: usize| si.vecs[k * n + c].get();
        let mut i = lo;
        while i < hi {
            let Some(y) = next_in(allowed, val(i)) else {
                break;
            };
            i = gallop(i, hi, |k| val(k) < y);
            if i == hi || val(i) != y {
                continue;
            }
            let end = gallop(i, hi, |k| val(k) == y);
            if !self.descend(si, t, ov, j + 1, (i, end), scan) {
                return false;
            }
            i = end;
        }
        true
    }
}
