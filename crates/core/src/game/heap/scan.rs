//! The rare/common technique's scan of a heap's splits for rare values ([`super::sparse`]): the
//! pairs of each split total are read in order, sixteen at a time without a branch, and the
//! scan stops once every value looked for has a pair. A long scan (a rare heap's value is
//! proved only by reading every pair) is shared out over rayon's threads in chunks: each
//! chunk reads all of its pairs unless every value has been found, so the values left
//! unfound are exactly those of no pair, for any number of threads.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use rayon::prelude::*;

use super::scan_simd;
use super::{Seq, Value};
use crate::game::Nimber;

/// Pairs the scan reads between two looks at whether any of them hit: the reads and xors of
/// a block run without a branch, and a hit (rare: the scan stops once every value is found)
/// costs one more pass over its block.
const BLOCK: usize = 16;

/// Pairs of one total read on the calling thread before the rest is shared out: most scans
/// end well before (about 3000 pairs a heap on Grundy's game), and a chunk shared out must be
/// long enough to be worth a task.
pub(super) const PARALLEL_FROM: usize = 1 << 16;

/// Pairs in a chunk of a shared scan.
const CHUNK: usize = 1 << 15;

/// The largest smaller heap of a split of `m` into two heaps (different ones, with
/// `unequal`): the pairs (a, m - a) are those of 1 <= a <= this.
pub(super) fn smaller_top(m: usize, unequal: bool) -> usize {
    if unequal {
        m.saturating_sub(1) / 2
    } else {
        m / 2
    }
}

/// The smaller heap `a` of a split as a witness is noted (32 bits: the tables of witnesses are
/// read for every rare value a heap looks for). A split's smaller heap is at most half its
/// total, so every heap up to [`crate::period::MAX_HEAP`] (2^32) has its witnesses below 2^31;
/// a heap past that is refused here rather than noted wrong.
#[inline]
pub(super) fn witness(a: usize) -> u32 {
    u32::try_from(a)
        .expect("a split's smaller heap, at most half the sequence's limit, fits 32 bits")
}

/// What a scan looks for and where it notes what it finds.
pub(super) struct Scan<'a> {
    /// 1 at each value looked for (a power of two long, with room for every xor of two
    /// values); cleared as each is found.
    pub pending: &'a mut [u8],
    /// At a value found: the smaller heap of a pair that gives it.
    pub witnesses: &'a mut [u32],
    /// How many entries of `pending` are 1.
    pub left: u32,
    /// Pairs of a total read alone before the rest is shared out ([`PARALLEL_FROM`]).
    pub parallel_from: usize,
}

impl Scan<'_> {
    /// Reads one pair, of smaller heap `a` and xor `x`, exactly: notes its value when it is
    /// looked for. Whether none is left.
    #[inline]
    fn read_pair(&mut self, x: Nimber, a: usize) -> bool {
        let x = x as usize & (self.pending.len() - 1);
        if self.pending[x] == 1 {
            self.pending[x] = 0;
            self.witnesses[x] = witness(a);
            self.left -= 1;
        }
        self.left == 0
    }
}

/// Clears from `scan.pending` every value that a split of one of the totals `splits` into two
/// heaps (different ones, with `unequal`) has, noting in `witnesses` the smaller heap of a
/// pair that gave it; stops once every value is found. Returns how many are left. One scan
/// serves all the values at once: the pairs that give a rare value are spread thin, and one
/// scan per value took twice as long on Grundy's game (21 s against 10 s for 10^6 heaps).
pub(super) fn scan<'a, S: Seq<'a>>(
    values: S,
    splits: &[usize],
    unequal: bool,
    scan: &mut Scan,
) -> u32 {
    for &m in splits {
        let top = smaller_top(m, unequal);
        let alone = top.min(scan.parallel_from);
        scan.left = scan_range(values, m, 1..alone + 1, scan);
        if scan.left == 0 {
            return 0;
        }
        if alone < top {
            scan.left = scan_shared(values, m, alone + 1..top + 1, scan);
            if scan.left == 0 {
                return 0;
            }
        }
    }
    scan.left
}

/// The pairs (a, m - a) for a in `smaller`, read on this thread; how many values are left.
/// The runs of pairs between those with a value kept apart ([`Seq::escaped_from`]) read the
/// stored values directly; those pairs are read one by one, exactly.
fn scan_range<'a, S: Seq<'a>>(
    values: S,
    m: usize,
    smaller: std::ops::Range<usize>,
    scan: &mut Scan,
) -> u32 {
    let mut a = smaller.start;
    // The pairs whose larger heap is a new value of the block ([`Seq::apart_from`]) come
    // first (smallest a first), each read one by one.
    let apart = (m + 1).saturating_sub(values.apart_from()).min(smaller.end);
    while a < apart {
        if scan.read_pair(values.at(a) ^ values.at(m - a), a) {
            return 0;
        }
        a += 1;
    }
    while a < smaller.end {
        let low = values.escaped_from(a);
        let high = values
            .escaped_below(m - a + 1)
            .map_or(usize::MAX, |h| m - h);
        let stop = low.min(high).min(smaller.end);
        if a < stop {
            // (Past the stored values, when new ones are read apart, the range is empty.)
            scan.left = scan_raw(values.raw(), m, a..stop, scan);
        }
        if scan.left == 0 || stop == smaller.end {
            return scan.left;
        }
        if scan.read_pair(values.at(stop) ^ values.at(m - stop), stop) {
            return 0;
        }
        a = stop + 1;
    }
    scan.left
}

/// The pairs (a, m - a) for a in `smaller`, none with a value kept apart, read from the stored
/// values; how many values are left. Bytes are tested 64 pairs a step where the CPU can
/// ([`scan_bytes`]); any other width, or any other CPU, a block of [`BLOCK`] at a time.
fn scan_raw<V: Value>(
    values: &[V],
    m: usize,
    smaller: std::ops::Range<usize>,
    scan: &mut Scan,
) -> u32 {
    if let Some(bytes) = V::as_bytes(values).filter(|_| scan_simd::available()) {
        return scan_bytes(bytes, m, smaller, scan);
    }
    scan_blocks(values, m, smaller, scan)
}

/// [`scan_raw`] on bytes with AVX2 or AVX-512: each block of 64 pairs is tested without a
/// branch a pair ([`scan_simd::hits`]), and the pairs of a block that give a value looked for
/// are read in order, exactly, as [`scan_blocks`] reads them: the same values are found, with
/// the same witnesses (for each value, the first pair that gives it).
fn scan_bytes(values: &[u8], m: usize, smaller: std::ops::Range<usize>, scan: &mut Scan) -> u32 {
    let n = smaller.len();
    let last = scan.pending.len() - 1;
    let low = &values[smaller.clone()];
    let high = &values[m + 1 - smaller.end..m + 1 - smaller.start];
    let mut read = Reading {
        pending: &mut *scan.pending,
        witnesses: &mut *scan.witnesses,
        first: smaller.start,
        last,
        left: scan.left,
    };
    let set = scan_simd::ByteSet::of(read.pending);
    let Some(o) = scan_simd::hits(low, high, set, &mut read) else {
        return 0;
    };
    // The pairs past the last whole block.
    for i in o..n {
        if read.hit(i, low[i] ^ high[n - 1 - i]) {
            return 0;
        }
    }
    read.left
}

/// [`scan_bytes`]'s reading of the pairs that hit: pair i is `low[i]` with
/// `high[len - 1 - i]`, the smaller heap `first + i`.
struct Reading<'s> {
    pending: &'s mut [u8],
    witnesses: &'s mut [u32],
    first: usize,
    /// `pending`'s length less one (a power of two less one).
    last: usize,
    /// Values still looked for.
    left: u32,
}

impl Reading<'_> {
    /// Notes pair i's value x when it is looked for; whether none is left.
    #[inline(always)]
    fn hit(&mut self, i: usize, x: u8) -> bool {
        let x = usize::from(x) & self.last;
        if self.pending[x] == 1 {
            self.pending[x] = 0;
            self.witnesses[x] = witness(self.first + i);
            self.left -= 1;
        }
        self.left == 0
    }
}

impl scan_simd::Hit for Reading<'_> {
    /// Without a branch: each pair told of was looked for at its block's start, so it is
    /// noted found, its pair the witness, and counted once (the first time, its entry in
    /// `pending` still 1); the first pair of a value met twice is told of last, so it stays
    /// the witness, as when read in order. A pair past the one that found the last value
    /// finds nothing more.
    #[inline(always)]
    fn note(&mut self, i: usize, x: u8) {
        let x = usize::from(x) & self.last;
        self.left -= u32::from(self.pending[x]);
        self.pending[x] = 0;
        self.witnesses[x] = witness(self.first + i);
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.left == 0
    }
}

/// [`scan_raw`] a block of [`BLOCK`] pairs at a time.
fn scan_blocks<V: Value>(
    values: &[V],
    m: usize,
    smaller: std::ops::Range<usize>,
    scan: &mut Scan,
) -> u32 {
    let mut left = scan.left;
    let (pending, witnesses) = (&mut *scan.pending, &mut *scan.witnesses);
    let last = pending.len() - 1;
    let at = |a: V, b: V| (a.into() ^ b.into()) as usize & last;
    let first = smaller.start;
    // low[i] = G(first + i) pairs with high[len - 1 - i] = G(m - first - i).
    let low = &values[smaller.clone()];
    let high = &values[m + 1 - smaller.end..m + 1 - smaller.start];
    // Block k pairs low[k B..] with high[..len - k B] from its end.
    for (k, (low, high)) in low.chunks(BLOCK).zip(high.rchunks(BLOCK)).enumerate() {
        let hit = low
            .iter()
            .zip(high.iter().rev())
            .fold(0, |hit, (&a, &b)| hit | pending[at(a, b)]);
        if hit == 0 {
            continue;
        }
        for (i, (&a, &b)) in low.iter().zip(high.iter().rev()).enumerate() {
            let x = at(a, b);
            if pending[x] == 1 {
                pending[x] = 0;
                witnesses[x] = witness(first + k * BLOCK + i);
                left -= 1;
                if left == 0 {
                    return 0;
                }
            }
        }
    }
    left
}

/// The pairs (a, m - a) for a in `smaller`, in chunks over rayon's threads; how many values
/// are left. Each chunk reads a copy of the values still looked for; a value is found once,
/// by whichever chunk claims it first.
fn scan_shared<'a, S: Seq<'a>>(
    values: S,
    m: usize,
    smaller: std::ops::Range<usize>,
    scan: &mut Scan,
) -> u32 {
    let found: Vec<AtomicBool> = scan
        .pending
        .iter()
        .map(|&p| AtomicBool::new(p == 0))
        .collect();
    let left = AtomicU32::new(scan.left);
    let len = scan.pending.len();
    let starts: Vec<usize> = smaller.clone().step_by(CHUNK).collect();
    let claims: Vec<(usize, u32)> = starts
        .par_iter()
        .flat_map_iter(|&start| {
            if left.load(Ordering::Relaxed) == 0 {
                return Vec::new();
            }
            let chunk = start..(start + CHUNK).min(smaller.end);
            let mut pending: Vec<u8> = found
                .iter()
                .map(|f| u8::from(!f.load(Ordering::Relaxed)))
                .collect();
            let mut witnesses = vec![0u32; len];
            let mine = pending.iter().map(|&p| u32::from(p)).sum();
            let mut local = Scan {
                pending: &mut pending,
                witnesses: &mut witnesses,
                left: mine,
                parallel_from: usize::MAX,
            };
            if mine > 0 {
                scan_range(values, m, chunk, &mut local);
            }
            // Claim what this chunk found and nobody had.
            let mut claims = Vec::new();
            for (x, f) in found.iter().enumerate() {
                let this = local.pending[x] == 0 && local.witnesses[x] != 0;
                if this && !f.swap(true, Ordering::Relaxed) {
                    left.fetch_sub(1, Ordering::Relaxed);
                    claims.push((x, local.witnesses[x]));
                }
            }
            claims
        })
        .collect();
    for (x, a) in claims {
        scan.pending[x] = 0;
        scan.witnesses[x] = a;
    }
    left.into_inner()
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::heap::Values;
    use crate::game::Nimber;
    use crate::with_values;

    /// At the sequence's limit (heap 2^32) the largest split's smaller heap is noted exactly as
    /// a witness, with and without equal splits; a heap number past 32 bits is refused, never
    /// wrapped.
    #[test]
    fn witnesses_at_the_largest_heap_are_exact() {
        let max = crate::period::MAX_HEAP;
        assert_eq!(max as u64, 1 << 32);
        let half = 1usize << 31;
        let cases = [
            (max, false, half),
            (max, true, half - 1),
            (max - 1, false, half - 1),
            (max - 1, true, half - 1),
            (max + 1, true, half),
            (3, true, 1),
            (2, true, 0),
            (1, false, 0),
        ];
        for (m, unequal, top) in cases {
            assert_eq!(smaller_top(m, unequal), top, "{m} {unequal}");
            assert_eq!(witness(top) as usize, top, "{m} {unequal}");
        }
        assert!(std::panic::catch_unwind(|| witness(max)).is_err());
    }

    /// Bytes tested 64 pairs a step find the same values with the same witnesses, and
    /// leave as many, as blocks of 16 do: over pseudo-random bytes, totals and sets looked for
    /// (tables of 256 and of 1024 values), ranges of any length and start.
    #[test]
    fn byte_scans_agree_with_block_scans() {
        if !scan_simd::available() {
            return;
        }
        let mut next = crate::testing::xorshift(0x1234_5679);
        let values: Vec<u8> = (0..5000).map(|_| (next() % 200) as u8).collect();
        for round in 0..300 {
            let m = 100 + (next() % 4800) as usize;
            let start = 1 + (next() % 40) as usize;
            let end = (start + (next() % 3000) as usize).min(m / 2 + 1).max(start);
            let len = if round % 2 == 0 { 256 } else { 1024 };
            let mut pending = vec![0u8; len];
            for _ in 0..1 + round % 40 {
                pending[(next() % 256) as usize] = 1;
            }
            let left: u32 = pending.iter().map(|&p| u32::from(p)).sum();
            let run = |bytes: bool| {
                let mut pending = pending.clone();
                let mut witnesses = vec![0u32; len];
                let mut s = Scan {
                    pending: &mut pending,
                    witnesses: &mut witnesses,
                    left,
                    parallel_from: usize::MAX,
                };
                let left = match bytes {
                    true => scan_bytes(&values, m, start..end, &mut s),
                    false => scan_blocks(&values[..], m, start..end, &mut s),
                };
                (left, pending, witnesses)
            };
            assert_eq!(run(true), run(false), "round {round}: {m} {start}..{end}");
        }
    }

    /// Whatever number of values is looked for, the scan finds exactly the values some pair
    /// gives, each with a pair that gives it, and counts the rest: on values a byte each, on
    /// values many of which are kept apart (from 40 on), alone and shared out.
    #[test]
    fn scans_find_exactly_the_values_of_some_pair() {
        // A fixed pseudo-random sequence of small values.
        let mut next = crate::testing::xorshift(0x2545_f491);
        let values: Vec<Nimber> = (0..3000).map(|_| next() % 61).collect();
        let m = 2999;
        let gives = |y: usize| (1..=m / 2).any(|a| (values[a] ^ values[m - a]) as usize == y);
        let apart = || {
            let mut held = Values::escaping_from(40);
            held.extend(values.iter().copied());
            held
        };
        assert!(apart().escaped() > 500);
        let cases = [
            (Values::from_slice(&values), usize::MAX),
            (apart(), usize::MAX),
            (apart(), 100),
        ];
        for (held, parallel_from) in cases {
            for wanted in [1usize, 2, 3, 5, 9, 20] {
                for offset in [0usize, 7, 30] {
                    let looked: Vec<usize> = (0..wanted).map(|i| (offset + 13 * i) % 128).collect();
                    let mut pending = vec![0u8; 128];
                    for &y in &looked {
                        pending[y] = 1;
                    }
                    let left0 = pending.iter().map(|&p| u32::from(p)).sum();
                    let mut witnesses = vec![0u32; 128];
                    let mut s = Scan {
                        pending: &mut pending,
                        witnesses: &mut witnesses,
                        left: left0,
                        parallel_from,
                    };
                    let left = with_values!(held, v => scan(v, &[m], false, &mut s));
                    let mut unfound = 0;
                    for &y in &looked {
                        if pending[y] == 1 {
                            unfound += 1;
                            assert!(!gives(y), "{y} has a pair ({wanted} looked for)");
                        } else {
                            let a = witnesses[y] as usize;
                            assert_eq!((values[a] ^ values[m - a]) as usize, y);
                        }
                    }
                    // A scan stops once all are found; otherwise every value left has no pair.
                    assert_eq!(left, unfound, "{wanted} looked for from {offset}");
                }
            }
        }
    }
}
