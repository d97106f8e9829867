//! The pairs of a block's heaps with the rare heaps below it, read for the whole block at
//! once: for a rare heap r and the heaps n..n+B of a block, the other heaps n-k-r..n-k-r+B lie
//! side by side ([`enumerate_far`]). The [`super::sieve`] makes these reads before a block, or
//! for the next block on another thread while one is valued.

use super::{Seq, Value};
use crate::game::Nimber;

/// Heaps in order with their values: the rare heaps.
#[derive(Debug, Default)]
pub(super) struct Rare {
    pub(super) heaps: Vec<usize>,
    pub(super) values: Vec<Nimber>,
}

impl Rare {
    /// Index of the first heap at or past `heap`. Asked for every split total of every heap,
    /// which is nearly always past the last rare heap: that case is one comparison (the
    /// binary search was a third of a heap's valuation on `octal:0.354`).
    #[inline]
    pub(super) fn from(&self, heap: usize) -> usize {
        match self.heaps.last() {
            Some(&last) if last < heap => self.heaps.len(),
            _ => self.heaps.partition_point(|&r| r < heap),
        }
    }

    pub(super) fn push(&mut self, heap: usize, value: Nimber) {
        self.heaps.push(heap);
        self.values.push(value);
    }

    /// How many heaps are held.
    pub(super) fn len(&self) -> usize {
        self.heaps.len()
    }
}

/// One row of `len` entries per heap of a block; `stamp` at v in row i: v is an option of the
/// block's heap i. A new stamp for each block forgets the last block's options without a
/// clear.
#[derive(Debug)]
pub(super) struct Table {
    pub(super) seen: Vec<u8>,
    pub(super) stamp: u8,
}

impl Table {
    pub(super) fn new(rows: usize, len: usize) -> Table {
        Table {
            seen: vec![0; rows * len],
            stamp: 0,
        }
    }

    /// A new stamp, for a new block.
    pub(super) fn restamp(&mut self) {
        if self.stamp == u8::MAX {
            self.seen.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
    }
}

/// The rare heaps whose pairs [`enumerate_far`] read for a whole block, for one amount k
/// (split totals h - k): indices `all` of the rare heaps, less `hole`, whose heaps each block
/// heap enumerates itself.
#[derive(Clone, Debug)]
pub(super) struct Far {
    pub(super) take: usize,
    pub(super) all: std::ops::Range<usize>,
    pub(super) hole: std::ops::Range<usize>,
}

/// The shared reads of a block: the heaps, and the rare heaps read for each amount.
#[derive(Debug)]
pub(super) struct Begun {
    pub(super) heaps: std::ops::Range<usize>,
    pub(super) far: Vec<Far>,
}

/// Marks in `table`, with a new stamp, for each heap `heaps.start` + i of a block whose splits
/// are of totals h - k for k in `takes`, the options of the pairs of a rare heap r with the
/// heap `heaps.start` + i - k - r, for those r (below `known`) whose other heaps all lie below
/// `known` (the values read): for one r these are consecutive heaps, read together. Returns
/// the rare heaps read, for each k.
#[allow(clippy::too_many_arguments)]
pub(super) fn enumerate_far<'a, S: Seq<'a>>(
    table: &mut Table,
    rare: &Rare,
    len: usize,
    values: S,
    known: usize,
    heaps: std::ops::Range<usize>,
    takes: &[usize],
    unequal: bool,
) -> Vec<Far> {
    table.restamp();
    let (start, rows) = (heaps.start, heaps.len());
    let last = len - 1;
    let mut far = Vec::with_capacity(takes.len());
    for &k in takes {
        // The other heap of the last row, start + rows - 1 - k - r, below `known`; that of
        // the first, start - k - r, at least 1; r itself below `known`.
        let lo = (start + rows).saturating_sub(k + known).max(1);
        let hi = start.saturating_sub(k).min(known);
        if hi <= lo {
            // No rare heap qualifies: each heap reads all of its pairs itself.
            continue;
        }
        let all = rare.from(lo)..rare.from(hi);
        // With `unequal`, the rare heaps that are half of a block heap's total are left to
        // that heap, which skips the equal split.
        let hole = match unequal {
            true => {
                let (a, b) = ((start - k).div_ceil(2), (start - k + rows - 1) / 2 + 1);
                let h0 = rare.from(a).clamp(all.start, all.end);
                h0..rare.from(b).clamp(h0, all.end)
            }
            false => all.start..all.start,
        };
        let stamp = table.stamp;
        let reads = (all.start..hole.start).chain(hole.end..all.end);
        // Byte values read fast (below), the rest exactly, each on its own.
        let mut exact = Vec::new();
        let fast = Fast {
            seen: &mut table.seen,
            len,
            rows,
            stamp,
        };
        match S::Raw::as_bytes(values.raw()) {
            Some(raw) => {
                // The other heaps' values, read raw unless one is kept apart, or from the new
                // values when all are new; and the rare heap's, if it is below the rows' first
                // entries read (all of a row's, or 256).
                let marks = |i: usize| {
                    let (r, x) = (rare.heaps[i], rare.values[i]);
                    let from = start - k - r;
                    let ys = match from.checked_sub(values.apart_from()) {
                        // (New values pass 255 only when the rows are wider than 256.)
                        Some(new) if len <= 256 => Ys::Wide(&values.apart()[new..new + rows]),
                        Some(_) => return None,
                        None if values.escaped_from(from) >= from + rows => {
                            Ys::Bytes(&raw[from..from + rows])
                        }
                        None => return None,
                    };
                    ((x as usize) < len.min(256)).then_some((ys, x as u8))
                };
                match len {
                    256.. => fast.mark::<256>(reads, marks, &mut exact),
                    128 => fast.mark::<128>(reads, marks, &mut exact),
                    64 => fast.mark::<64>(reads, marks, &mut exact),
                    32 => fast.mark::<32>(reads, marks, &mut exact),
                    _ => exact.extend(reads),
                }
            }
            None => exact.extend(reads),
        }
        for i in exact {
            let (r, x) = (rare.heaps[i], rare.values[i]);
            let from = start - k - r;
            let rows = table.seen.chunks_exact_mut(len).take(rows);
            if values.escaped_from(from) < from + heaps.len() {
                // A value kept apart among them: each read exactly.
                for (i, row) in rows.enumerate() {
                    row[(x ^ values.at(from + i)) as usize & last] = stamp;
                }
                continue;
            }
            for (row, &y) in rows.zip(&values.raw()[from..from + heaps.len()]) {
                row[(x ^ y.into()) as usize & last] = stamp;
            }
        }
        far.push(Far { take: k, all, hole });
    }
    far
}

/// The values of the heaps a rare heap pairs with, for a block's rows.
enum Ys<'v> {
    /// Stored, a byte each.
    Bytes(&'v [u8]),
    /// New, beside the stored ones ([`Seq::apart`]).
    Wide(&'v [Nimber]),
}

/// The rows of a block's table, read fast: each row's first `N` entries (all of them, or 256),
/// indexed by the xor of two values below `N` masked to `N`, which changes nothing (every value
/// so far, and so every xor of two, is below the tables' half, [`super::sieve`]; a byte read is
/// below 255), so unchecked.
struct Fast<'t> {
    seen: &'t mut [u8],
    len: usize,
    rows: usize,
    stamp: u8,
}

impl Fast<'_> {
    /// Marks, for each read i whose `marks(i)` gives the other heaps' values ys and the rare
    /// heap's value x, x ^ ys[j] in row j; pushes the others onto `exact`.
    fn mark<'v, const N: usize>(
        self,
        reads: impl Iterator<Item = usize>,
        marks: impl Fn(usize) -> Option<(Ys<'v>, u8)>,
        exact: &mut Vec<usize>,
    ) {
        let mut firsts: Vec<&mut [u8; N]> = self
            .seen
            .chunks_exact_mut(self.len)
            .take(self.rows)
            .map(|row| row.first_chunk_mut().expect("rows of N entries or more"))
            .collect();
        for i in reads {
            let Some((ys, x)) = marks(i) else {
                exact.push(i);
                continue;
            };
            match ys {
                Ys::Bytes(ys) => {
                    for (row, &y) in firsts.iter_mut().zip(ys) {
                        row[usize::from(x ^ y) & (N - 1)] = self.stamp;
                    }
                }
                Ys::Wide(ys) => {
                    for (row, &y) in firsts.iter_mut().zip(ys) {
                        row[(Nimber::from(x) ^ y) as usize & (N - 1)] = self.stamp;
                    }
                }
            }
        }
    }
}
