//! Nim sequences of octal games in near-linear time: the rare/common ("sparse space")
//! technique of Flammenkamp.
//!
//! For a mask m, call a value *common* when `(v & m)` has an odd number of bits, *rare*
//! otherwise. In most octal games, for the right mask, almost every heap has a common value.
//! The xor of two values is common exactly when one of them is rare, so:
//!
//! * every common option of a split comes from a pair with a rare heap: enumerating the few
//!   rare heaps finds them all, exactly;
//! * a rare option usually comes from one of the many common-common pairs: one scan of the
//!   pairs looks for every rare value below the candidate and stops once it has them all.
//!
//! The value is then the least common value no enumerated option has (the candidate), unless
//! a smaller rare value has no pair at all (the scan ends without it): that rare value is the
//! heap's. The mask
//! decides only the speed, never the result: it is chosen on a prefix to make rare heaps
//! fewest, and chosen again when they grow many. It serves octal codes with splits into two
//! heaps and Grundy's game.

use super::scan::{scan, smaller_top, witness, Scan, PARALLEL_FROM};
use super::{Seq, Values, ESCAPE};
use crate::game::NimSet;
use crate::game::Nimber;
use crate::with_values;

/// Heaps valued by the definition before a mask is chosen.
const PREFIX: usize = 2048;

/// The mask is chosen again when the rare heaps pass this share of all heaps (1 / RECHOOSE)
/// and have doubled since it was last chosen.
const RECHOOSE: usize = 16;

/// Bytes a heap costs this technique beyond its value's byte ([`Values`]): its share of the
/// rare heaps' lists (16 bytes a rare heap) and of the values kept apart (12 bytes each, see
/// [`super::values::LARGE_SHARE`]). Both are far fewer than one heap in a hundred wherever
/// the technique is fast (Grundy's game to 10^7 heaps: 1 273 rare heaps and one value apart, 256 at heap 7 250 049;
/// 0.354: 131 rare heaps of 10^6 and no value apart), so a sixteenth of a byte a heap is
/// generous. (Rare heaps may pass one in [`RECHOOSE`] until the mask is chosen again, and
/// values apart one in 64 before the values are widened to 2 bytes: runs that slow.)
pub(super) const EXTRA_BYTES_PER_HEAP: f64 = 1.0 / 16.0;

/// Bytes counted once for the rare heaps of the first heaps, where they are a large share
/// (Grundy's game: 1 195 of the first 20 000 heaps, 1 273 of 10^7): 2^16 rare heaps.
pub(super) const EXTRA_BYTES: u64 = 16 << 16;

/// Bytes [`extend_wide`] holds to value heaps 0..=n: the compact values and, at the end,
/// the full-width copy made of them (4 bytes a heap).
pub(super) fn wide_valuation_bytes(n: usize) -> u64 {
    valuation_bytes(n).saturating_add(4 * (n as u64 + 1))
}

/// Bytes this technique holds to value heaps 0..=n: a byte a value,
/// [`EXTRA_BYTES_PER_HEAP`] and [`EXTRA_BYTES`].
pub(super) fn valuation_bytes(n: usize) -> u64 {
    let heaps = n as u64 + 1;
    heaps + (heaps as f64 * EXTRA_BYTES_PER_HEAP) as u64 + EXTRA_BYTES
}

/// The moves of one heap for the sparse technique: the values of its options that are not
/// splits (`plain`), and the totals m whose splits into two heaps are options (`splits`).
pub(super) trait Splits {
    fn options(&self, h: usize, values: &Values, plain: &mut NimSet, splits: &mut Vec<usize>);
    /// Whether the two heaps of a split must differ (Grundy's game).
    fn unequal(&self) -> bool;
    /// A heap `from` and amounts k such that, for every heap h >= `from`, the totals `options`
    /// pushes onto `splits` are exactly h - k for these k, in this order: the pairs of a block
    /// of consecutive heaps are then read together ([`Sieve::enumerate_far`]).
    fn split_takes(&self) -> (usize, Vec<usize>);
}

/// Extends `values` to G(0..=n) for a rule whose moves split into at most two heaps (less
/// when `stop` says so).
pub(super) fn extend<R: Splits + super::HeapRule>(
    rule: &R,
    values: &mut Values,
    n: usize,
    stop: &dyn Fn() -> bool,
) {
    extend_reading(rule, values, n, Tuning::default(), stop);
}

/// [`extend`] on values at full width, as [`super::HeapRule::extend`] holds them.
pub(super) fn extend_wide<R: Splits + super::HeapRule>(
    rule: &R,
    values: &mut Vec<Nimber>,
    n: usize,
    stop: &dyn Fn() -> bool,
) {
    // The full-width values go while the compact ones are extended.
    let mut compact = Values::from_slice(&std::mem::take(values));
    extend(rule, &mut compact, n, stop);
    *values = compact.to_vec();
}

/// How [`extend_reading`] goes about it; any choice gives the same values.
#[derive(Clone, Copy, Debug)]
struct Tuning {
    /// The fewest bytes a value is held in (1: as few as the values need; 4: as past 2^16).
    min_width: u32,
    /// Pairs of a total a scan reads alone before it shares the rest out over rayon's threads.
    parallel_from: usize,
    /// Values held a byte each keep those from this one on apart ([`ESCAPE`]: as a run does;
    /// less in tests, which reach the side table with small values).
    escape_from: u8,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            min_width: 1,
            parallel_from: PARALLEL_FROM,
            escape_from: ESCAPE,
        }
    }
}

/// `extend`, as `tuning` says.
///
/// Heaps are valued in blocks of consecutive heaps: the pairs of a rare heap with a heap
/// below the block are read for the whole block at once ([`Sieve::enumerate_far`]), and each
/// heap then adds the pairs that reach into the block, finds its candidate and scans, in
/// order, exactly as alone.
fn extend_reading<R: Splits + super::HeapRule>(
    rule: &R,
    values: &mut Values,
    n: usize,
    tuning: Tuning,
    stop: &dyn Fn() -> bool,
) {
    if values.len() <= n.min(PREFIX) || values.width() < tuning.min_width {
        let mut wide = values.to_vec();
        super::by_definition(rule, &mut wide, n.min(PREFIX), stop);
        *values = match tuning.escape_from {
            ESCAPE => Values::from_slice_at_least(&wide, tuning.min_width),
            from => {
                let mut apart = Values::escaping_from(from);
                apart.extend(wide);
                apart
            }
        };
        values.reserve_exact((n + 1).saturating_sub(values.len()));
    }
    if values.len() > n || values.len() <= n.min(PREFIX) {
        return;
    }
    let unequal = rule.unequal();
    let (from, takes) = rule.split_takes();
    let mut sieve = Sieve::new(values);
    sieve.parallel_from = tuning.parallel_from;
    let (mut splits, mut plain) = (Vec::new(), NimSet::new());
    while values.len() <= n && !stop() {
        sieve.rechoose_if_crowded(values);
        let start = values.len();
        let end = (start + sieve.rows).min(n + 1);
        let block_takes = if start >= from { &takes[..] } else { &[] };
        let far =
            with_values!(values, v => sieve.enumerate_far(v, start..end, block_takes, unequal));
        for h in start..end {
            if h > start && stop() {
                break;
            }
            plain.clear();
            splits.clear();
            rule.options(h, values, &mut plain, &mut splits);
            let heap = Heap {
                h,
                row: h - start,
                plain: &plain,
                splits: &splits,
                unequal,
                far: &far,
            };
            let value = with_values!(values, v => sieve.value(v, &heap));
            values.push(value);
            if sieve.push(h, value) {
                // The tables were widened and forgot the block's pairs: a new block.
                break;
            }
        }
    }
}

/// The rare heaps whose pairs [`Sieve::enumerate_far`] read for a whole block, for one amount
/// k (split totals h - k): indices `all` of the rare heaps, less `hole`, whose heaps each
/// block heap enumerates itself.
#[derive(Clone, Debug)]
struct Far {
    take: usize,
    all: std::ops::Range<usize>,
    hole: std::ops::Range<usize>,
}

/// One heap of a block, as [`Sieve::value`] needs it.
struct Heap<'a> {
    /// The heap.
    h: usize,
    /// Its place in its block.
    row: usize,
    /// The values of its options that are not splits.
    plain: &'a NimSet,
    /// The totals it may split.
    splits: &'a [usize],
    /// Whether a split's two heaps must differ.
    unequal: bool,
    /// The pairs already read for its block.
    far: &'a [Far],
}

/// The state of the rare/common split while a sequence is extended: the mask, the rare heaps
/// with their values, and tables over the values that fit the largest value so far.
///
/// The tables hold a byte per value, not a bit: the hot loops then store and load without
/// reading back a word they just wrote, and none of them is cleared whole per heap.
struct Sieve {
    mask: Nimber,
    /// Rare heaps from 1, in order, and their values.
    rare: Vec<usize>,
    rare_values: Vec<Nimber>,
    /// Rare heaps when the mask was last chosen.
    chosen_with: usize,
    /// Every value so far is below `1 << bits`, so is every option (a xor of two values), and
    /// the mask is below it too. The tables cover twice that (`2 << bits` values): the upper
    /// half has common values, none of them an option, so the least common value missing is
    /// always there.
    bits: u32,
    /// 1 at v: v is common.
    common: Vec<u8>,
    /// Heaps in a block: as many as keep `seen` near 32 KiB, from 4 to 64.
    rows: usize,
    /// One row of `2 << bits` entries per heap of the block; `stamp` at v in row i: v is an
    /// option of the block's heap i. A new stamp for each block forgets the last block's
    /// options without a clear.
    seen: Vec<u8>,
    stamp: u8,
    /// 1 at v: v is a rare value below the candidate that no enumerated option has, not yet
    /// found; all 0 between heaps.
    pending: Vec<u8>,
    /// Row h mod [`WITNESSES`], entry v: the smaller heap of a pair that gave v as an option
    /// of heap h (0: none yet). Tried before the scan: where the values repeat locally with a
    /// short period, heap h's pair often serves heap h + 1, 2 or 3 as well.
    witnesses: Vec<u32>,
    /// Pairs of a total a scan reads alone before sharing the rest out ([`Tuning`]).
    parallel_from: usize,
}

/// Recent heaps whose pairs [`Sieve::try_witnesses`] tries again.
const WITNESSES: usize = 4;

impl Sieve {
    fn new(values: &Values) -> Sieve {
        let mut sieve = Sieve {
            mask: 1,
            rare: Vec::new(),
            rare_values: Vec::new(),
            chosen_with: 0,
            bits: 0,
            common: Vec::new(),
            rows: 1,
            seen: Vec::new(),
            stamp: 0,
            pending: Vec::new(),
            witnesses: Vec::new(),
            parallel_from: PARALLEL_FROM,
        };
        sieve.choose(values);
        sieve
    }

    /// Chooses the mask for `values` and classifies them again.
    fn choose(&mut self, values: &Values) {
        self.mask = best_mask(values);
        self.rare = rare_heaps(values, self.mask);
        self.rare_values = self.rare.iter().map(|&r| values.get(r)).collect();
        self.chosen_with = self.rare.len();
        let top = values.max();
        // The common table follows the new mask.
        (self.bits, self.common) = (0, Vec::new());
        self.fit(top);
    }

    /// Chooses the mask again when rare heaps have grown many.
    fn rechoose_if_crowded(&mut self, values: &Values) {
        let rare = self.rare.len();
        if rare * RECHOOSE > values.len() && rare >= 2 * self.chosen_with.max(1) {
            self.choose(values);
        }
    }

    /// Widens the tables to hold `v`; whether they were made anew.
    fn fit(&mut self, v: Nimber) -> bool {
        let bits = Nimber::BITS - v.leading_zeros();
        if bits <= self.bits && !self.common.is_empty() {
            return false;
        }
        self.bits = bits.max(self.bits);
        let len = 2usize << self.bits;
        self.common = (0..len)
            .map(|v| u8::from(self.is_common(v as Nimber)))
            .collect();
        self.rows = ((32 << 10) / len).clamp(4, 64);
        (self.seen, self.stamp) = (vec![0; self.rows * len], 0);
        self.pending = vec![0; len];
        self.witnesses = vec![0; WITNESSES * len];
        true
    }

    fn is_common(&self, v: Nimber) -> bool {
        (v & self.mask).count_ones() % 2 == 1
    }

    /// Records heap `h`'s value; whether the tables were made anew for it.
    fn push(&mut self, h: usize, value: Nimber) -> bool {
        let widened = self.fit(value);
        if !self.is_common(value) {
            self.rare.push(h);
            self.rare_values.push(value);
        }
        widened
    }

    /// Index of the first rare heap at or past `heap`.
    fn rare_from(&self, heap: usize) -> usize {
        self.rare.partition_point(|&r| r < heap)
    }

    /// Starts a block of the heaps `block` whose splits are of totals h - k for k in `takes`:
    /// takes a new stamp and marks, in each heap's row, the options of the pairs of a rare
    /// heap r with a heap below the block (for heap `block.start` + i, the heap
    /// `block.start` + i - k - r). For one r these are consecutive heaps, read together.
    /// Returns the rare heaps read, for each k.
    fn enumerate_far<'a, S: Seq<'a>>(
        &mut self,
        values: S,
        block: std::ops::Range<usize>,
        takes: &[usize],
        unequal: bool,
    ) -> Vec<Far> {
        if self.stamp == u8::MAX {
            self.seen.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        let (start, rows) = (block.start, block.len());
        let len = self.common.len();
        let last = len - 1;
        let mut far = Vec::with_capacity(takes.len());
        for &k in takes {
            // r >= rows - k keeps the other heap below the block, r < start - k below every
            // total.
            let (lo, hi) = (rows.saturating_sub(k).max(1), start.saturating_sub(k));
            if hi <= lo {
                // No rare heap qualifies: each heap reads all of its pairs itself.
                continue;
            }
            let all = self.rare_from(lo)..self.rare_from(hi);
            // With `unequal`, the rare heaps that are half of a block heap's total are left to
            // that heap, which skips the equal split.
            let hole = match unequal {
                true => {
                    let (a, b) = ((start - k).div_ceil(2), (start - k + rows - 1) / 2 + 1);
                    let h0 = self.rare_from(a).clamp(all.start, all.end);
                    h0..self.rare_from(b).clamp(h0, all.end)
                }
                false => all.start..all.start,
            };
            let stamp = self.stamp;
            for i in (all.start..hole.start).chain(hole.end..all.end) {
                let (r, x) = (self.rare[i], self.rare_values[i]);
                let from = start - k - r;
                let rows = self.seen.chunks_exact_mut(len).take(rows);
                if values.escaped_from(from) < from + block.len() {
                    // A value kept apart among them: each read exactly.
                    for (i, row) in rows.enumerate() {
                        row[(x ^ values.at(from + i)) as usize & last] = stamp;
                    }
                    continue;
                }
                for (row, &y) in rows.zip(&values.raw()[from..from + block.len()]) {
                    row[(x ^ y.into()) as usize & last] = stamp;
                }
            }
            far.push(Far { take: k, all, hole });
        }
        far
    }

    /// The value of a heap of the block begun by [`Sieve::enumerate_far`], over the values
    /// so far (`values`, widened to `Nimber` on read).
    fn value<'a, S: Seq<'a>>(&mut self, values: S, heap: &Heap) -> Nimber {
        let (len, stamp) = (self.common.len(), self.stamp);
        let last = len - 1;
        let row = &mut self.seen[heap.row * len..(heap.row + 1) * len];
        for v in heap.plain.iter() {
            // A plain option past the tables cannot be the mex, which is at most 1 << bits.
            if let Some(s) = row.get_mut(v as usize) {
                *s = stamp;
            }
        }
        // Every pair with a rare heap (either side): all common options, exactly. The block
        // read those of the rare heaps in `far`; the others are read here.
        for &m in heap.splits {
            let below = self.rare.partition_point(|&r| r < m);
            let read = heap.far.iter().find(|f| f.take + m == heap.h);
            let ranges = match read {
                Some(f) => [0..f.all.start, f.hole.clone(), f.all.end..below],
                None => [0..below, 0..0, 0..0],
            };
            for range in ranges {
                let (heaps, heap_values) = (&self.rare[range.clone()], &self.rare_values[range]);
                let (Some(&first), Some(&last_rare)) = (heaps.first(), heaps.last()) else {
                    continue;
                };
                // The other heaps, m - r, read raw unless one of them has a value apart.
                let raw = values.escaped_from(m - last_rare) > m - first;
                let stored = values.raw();
                for (&r, &x) in heaps.iter().zip(heap_values) {
                    // With `unequal`, the equal split is no move.
                    if heap.unequal && 2 * r == m {
                        continue;
                    }
                    let y = match raw {
                        true => stored[m - r].into(),
                        false => values.at(m - r),
                    };
                    row[(x ^ y) as usize & last] = stamp;
                }
            }
        }
        debug_assert!(heap
            .far
            .iter()
            .all(|f| heap.splits.contains(&(heap.h - f.take))));
        // The least common value missing, and the rare values below it that no enumerated
        // option has: one scan of the pairs looks for all of them at once.
        let candidate = (0..len)
            .find(|&v| self.common[v] == 1 && row[v] != stamp)
            .expect("the tables hold a common value past every option");
        let mut left = 0;
        let below = self.common[..candidate].iter().zip(&row[..candidate]);
        for (pending, (&common, &seen)) in self.pending.iter_mut().zip(below) {
            *pending = u8::from(common == 0 && seen != stamp);
            left += u32::from(*pending);
        }
        let mut value = candidate as Nimber;
        if left > 0 {
            left = self.try_witnesses(values, heap, candidate, left);
        }
        if left > 0 {
            let row = heap.h % WITNESSES * len;
            let witnesses = &mut self.witnesses[row..row + len];
            let mut found = Scan {
                pending: &mut self.pending,
                witnesses,
                left,
                parallel_from: self.parallel_from,
            };
            scan(values, heap.splits, heap.unequal, &mut found);
            if let Some(v) = self.pending[..candidate].iter().position(|&p| p == 1) {
                value = v as Nimber;
            }
            self.pending[..candidate].fill(0);
        }
        value
    }

    /// Clears from `pending` the values below `candidate` that a pair remembered from the last
    /// heaps gives this heap too (each pair checked here); how many are left.
    fn try_witnesses<'a, S: Seq<'a>>(
        &mut self,
        values: S,
        heap: &Heap,
        candidate: usize,
        mut left: u32,
    ) -> u32 {
        let len = self.common.len();
        let row = heap.h % WITNESSES * len;
        for y in 0..candidate {
            if self.pending[y] == 0 {
                continue;
            }
            let found = (0..WITNESSES).find_map(|w| {
                let a = self.witnesses[w * len + y] as usize;
                let gives = |&m: &usize| {
                    (1..=smaller_top(m, heap.unequal)).contains(&a)
                        && (values.at(a) ^ values.at(m - a)) as usize == y
                };
                heap.splits.iter().any(gives).then_some(a)
            });
            if let Some(a) = found {
                self.pending[y] = 0;
                self.witnesses[row + y] = witness(a);
                left -= 1;
            }
        }
        left
    }
}

/// Rare heaps and the mask that makes them fewest, over `values`: how sparse the sequence is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rarity {
    /// The mask under which the fewest heaps are rare: a heap is rare when its value and the mask
    ///  share an even number of bits.
    pub mask: Nimber,
    /// Heaps from 1 whose values are rare under the mask.
    pub rare: usize,
}

/// The rarity of a computed sequence.
pub fn rarity(values: &Values) -> Rarity {
    let mask = best_mask(values);
    Rarity {
        mask,
        rare: rare_heaps(values, mask).len(),
    }
}

/// The heaps (from 1) whose values are rare under `mask`, in order.
fn rare_heaps(values: &Values, mask: Nimber) -> Vec<usize> {
    with_values!(values, v => (1..v.len())
        .filter(|&h| (v.at(h) & mask).count_ones() % 2 == 0)
        .collect())
}

/// The mask under which the fewest heaps are rare (ties: the smallest mask), over the masks
/// below the next power of two above the largest value.
fn best_mask(values: &Values) -> Nimber {
    let top = values.max();
    let bits = (Nimber::BITS - top.leading_zeros()).min(12);
    let mut count = vec![0usize; 1 << bits];
    // Heaps per value first: the masks then cost one pass over the distinct values.
    let mut per_value = vec![0usize; 1 << bits];
    with_values!(values, v => {
        for h in 1.min(v.len())..v.len() {
            per_value[(v.at(h) as usize) & ((1 << bits) - 1)] += 1;
        }
    });
    for (mask, c) in count.iter_mut().enumerate() {
        *c = per_value
            .iter()
            .enumerate()
            .filter(|&(v, _)| (v & mask).count_ones() % 2 == 0)
            .map(|(_, &k)| k)
            .sum();
    }
    (1..count.len()).min_by_key(|&m| count[m]).unwrap_or(1) as Nimber
}

#[cfg(test)]
#[path = "sparse_tests.rs"]
mod tests;
