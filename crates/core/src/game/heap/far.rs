//! The pairs of a block's heaps with the rare heaps below it, read for the whole block at
//! once: for a rare heap r and the heaps n..n+B of a block, the other heaps n-k-r..n-k-r+B lie
//! side by side ([`enumerate_far`]). The [`super::sieve`] makes these reads before a block, or
//! for the next block on another thread while one is valued.

use super::bit_rows;
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
///
/// Every entry is at most the stamp (a new stamp after 255 clears the rows), so rows join by
/// taking the larger entry.
#[derive(Debug)]
pub(super) struct Table {
    pub(super) seen: Vec<u8>,
    pub(super) stamp: u8,
    /// Rows as `seen`'s, one per split total of a block whose heaps split more than one
    /// total ([`enumerate_far`]), made as they are first needed.
    totals: Vec<u8>,
}

impl Table {
    pub(super) fn new(rows: usize, len: usize) -> Table {
        Table {
            seen: vec![0; rows * len],
            stamp: 0,
            totals: Vec::new(),
        }
    }

    /// A new stamp, for a new block.
    pub(super) fn restamp(&mut self) {
        if self.stamp == u8::MAX {
            self.seen.fill(0);
            self.totals.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
    }
}

/// The rare heaps whose pairs [`enumerate_far`] read for a block, for one amount k (split
/// totals m = h - k): of indices `all` of the rare heaps, less `hole`, those whose other heap
/// m - r lies below the values read (for the rare heaps below the block's rows, only its
/// first rows'); the others each block heap enumerates itself.
#[derive(Clone, Debug)]
pub(super) struct Far {
    pub(super) take: usize,
    pub(super) all: std::ops::Range<usize>,
    pub(super) hole: std::ops::Range<usize>,
    /// For each row: the rare heaps of `all` before this index were not read for it (their
    /// other heap is not among the values the block read).
    pub(super) unread: Vec<usize>,
}

/// The shared reads of a block: the heaps, and the rare heaps read for each amount.
#[derive(Debug)]
pub(super) struct Begun {
    pub(super) heaps: std::ops::Range<usize>,
    pub(super) far: Vec<Far>,
}

/// Marks in `table`, with a new stamp, for each heap `heaps.start` + i of a block whose splits
/// are of totals h - k for k in `takes`, the options of the pairs of a rare heap r with the
/// heap `heaps.start` + i - k - r when that heap lies below `known` (the values read): for one
/// r these are consecutive heaps, read together (all of the block's rows, or its first ones
/// for a rare heap below the rows: `octal:0.56`'s rare heaps are nearly all so, and each
/// block heap read them itself). Returns the rare heaps read, for each k.
///
/// Heaps that split several totals share them: heap h's total h - 3 is heap h + 1's h + 1 - 4.
/// When it costs less, each total of the block is then read once, in rows of its own, and
/// each heap's row joins those of its totals (`octal:0.354`, totals h - 2 and h - 3, read
/// half as many pairs).
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
    let (Some(&least), Some(&most)) = (takes.iter().min(), takes.iter().max()) else {
        return Vec::new();
    };
    // The rare heaps below the first row's least total, start - most, and below `known`.
    let hi = start.saturating_sub(most).min(known);
    let all = 0..rare.from(hi);
    if all.is_empty() {
        // No rare heap qualifies: each heap reads all of its pairs itself.
        return Vec::new();
    }
    // The block's totals, from `first` on.
    let (first, count) = (start - most, rows + most - least);
    // With `unequal`, the rare heaps that are half of a total are left to the block's heaps,
    // which skip the equal split.
    let hole = match unequal {
        true => {
            let (a, b) = (first.div_ceil(2), (first + count - 1) / 2 + 1);
            let h0 = rare.from(a).clamp(all.start, all.end);
            h0..rare.from(b).clamp(h0, all.end)
        }
        false => all.start..all.start,
    };
    let reads = (all.start..hole.start).chain(hole.end..all.end);
    let pairs = all.len() - hole.len();
    let stamp = table.stamp;
    // Joining rows costs about an operation per 16 entries.
    let shared = takes.len() > 1
        && count * pairs + rows * takes.len() * len / 16 < rows * takes.len() * pairs;
    if shared {
        table.totals.resize(count * len, 0);
        let totals = Totals {
            seen: &mut table.totals,
            len,
            count,
            first,
            stamp,
        };
        mark_totals(totals, rare, values, known, reads);
        for (i, row) in table.seen.chunks_exact_mut(len).take(rows).enumerate() {
            let total = |k: usize| &table.totals[(i + most - k) * len..][..len];
            row.copy_from_slice(total(most));
            for &k in takes.iter().filter(|&&k| k != most) {
                for (entry, &other) in row.iter_mut().zip(total(k)) {
                    *entry = (*entry).max(other);
                }
            }
        }
    } else {
        for &k in takes {
            let totals = Totals {
                seen: &mut table.seen,
                len,
                count: rows,
                first: start - k,
                stamp,
            };
            mark_totals(totals, rare, values, known, reads.clone());
        }
    }
    takes
        .iter()
        .map(|&take| {
            // Row i's total m: rare heaps r with m - r >= known, walked once for the rows.
            let mut unread = all.start;
            let rows = (0..rows).map(|i| {
                let from = (start + i - take + 1).saturating_sub(known);
                while unread < all.end && rare.heaps[unread] < from {
                    unread += 1;
                }
                unread
            });
            Far {
                take,
                all: all.clone(),
                hole: hole.clone(),
                unread: rows.collect(),
            }
        })
        .collect()
}

/// Rows that [`mark_totals`] marks: the first `count` of `seen` (rows of `len` entries), row
/// t for the split total `first` + t, each option marked with `stamp`.
struct Totals<'t> {
    seen: &'t mut [u8],
    len: usize,
    count: usize,
    first: usize,
    stamp: u8,
}

/// Marks in `rows` the options of the pairs of each rare heap r of `reads` with the heaps
/// `first` + t - r below `known` (those of the first rows, all of them for r far enough).
///
/// Inlined where it is called, as the code it was part of was: called, it left the reads'
/// closure and the values' look-ups uninlined (Grundy's game 7% slower).
#[inline(always)]
fn mark_totals<'a, S: Seq<'a>>(
    rows: Totals,
    rare: &Rare,
    values: S,
    known: usize,
    reads: impl Iterator<Item = usize>,
) {
    let Totals {
        seen,
        len,
        count,
        first,
        stamp,
    } = rows;
    let last = len - 1;
    // Rows of 32 entries or more read fast (below), the rest exactly, each on its own.
    let mut exact = Vec::new();
    let fast = Fast {
        seen: &mut *seen,
        len,
        rows: count,
        stamp,
    };
    let others = |raw| Others {
        rare,
        values,
        raw,
        first,
        known,
        count,
    };
    match S::Raw::as_bytes(values.raw()) {
        Some(raw) => match len {
            2048 => fast.mark::<_, 2048>(reads, &others(raw), &mut exact),
            1024 => fast.mark::<_, 1024>(reads, &others(raw), &mut exact),
            512 => fast.mark::<_, 512>(reads, &others(raw), &mut exact),
            256 => fast.mark::<_, 256>(reads, &others(raw), &mut exact),
            128 => fast.mark::<_, 128>(reads, &others(raw), &mut exact),
            64 => fast.mark::<_, 64>(reads, &others(raw), &mut exact),
            32 => fast.mark::<_, 32>(reads, &others(raw), &mut exact),
            4096.. => fast.mark_any(reads, &others(raw), &mut exact),
            _ => exact.extend(reads),
        },
        None => exact.extend(reads),
    }
    let reach = others(&[]);
    for i in exact {
        let (r, x) = (rare.heaps[i], rare.values[i]);
        let (from, n) = (first - r, reach.reach(r));
        if n == 0 {
            continue;
        }
        let rows = seen.chunks_exact_mut(len).take(n);
        if values.escaped_from(from) < from + n {
            // A value kept apart among them: each read exactly.
            for (t, row) in rows.enumerate() {
                row[(x ^ values.at(from + t)) as usize & last] = stamp;
            }
            continue;
        }
        for (row, &y) in rows.zip(&values.raw()[from..from + n]) {
            row[(x ^ y.into()) as usize & last] = stamp;
        }
    }
}

/// Where [`Fast::mark`] finds, for a rare heap r, the values of the heaps it pairs with: those
/// of `first` + t - r for the first rows t whose heap is below `known` (of `count`), read from
/// the stored bytes `raw` or from the new values kept apart.
struct Others<'r, 'a, S> {
    rare: &'r Rare,
    values: S,
    raw: &'a [u8],
    first: usize,
    known: usize,
    count: usize,
}

impl<'a, S: Seq<'a>> Others<'_, 'a, S> {
    /// How many rows have rare heap r's other heap below `known`.
    #[inline(always)]
    fn reach(&self, r: usize) -> usize {
        (self.known + r).saturating_sub(self.first).min(self.count)
    }

    /// For the rare heap of index i: its other heaps' values (raw unless one is kept apart,
    /// or from the new values when all are new) and its own value; `None` when they must be
    /// read exactly. (A method, not a closure: the closure was not inlined into the loop.)
    #[inline(always)]
    fn of(&self, i: usize) -> Option<(Ys<'a>, usize)> {
        let (r, x) = (self.rare.heaps[i], self.rare.values[i]);
        let (from, n) = (self.first - r, self.reach(r));
        if n == 0 {
            return Some((Ys::Bytes(&[]), 0));
        }
        let values = self.values;
        let ys = match from.checked_sub(values.apart_from()) {
            Some(new) => Ys::Wide(&values.apart()[new..new + n]),
            None if values.escaped_from(from) >= from + n => Ys::Bytes(&self.raw[from..from + n]),
            None => return None,
        };
        Some((ys, x as usize))
    }
}

/// The values of the heaps a rare heap pairs with, for a block's rows.
enum Ys<'v> {
    /// Stored, a byte each.
    Bytes(&'v [u8]),
    /// New, beside the stored ones ([`Seq::apart`]).
    Wide(&'v [Nimber]),
}

/// The rows of a block's table, read fast: rows of `N` entries (`N` the tables' length),
/// indexed by the xor of two values masked to `N`, which changes nothing (every value so far,
/// new ones included, and so every xor of two, is below the tables' half, [`super::sieve`]),
/// so unchecked.
struct Fast<'t> {
    seen: &'t mut [u8],
    len: usize,
    rows: usize,
    stamp: u8,
}

impl Fast<'_> {
    /// Marks, for each read i whose `others.of(i)` gives the other heaps' values ys and the
    /// rare heap's value x, x ^ ys[j] in row j; pushes the others onto `exact`.
    fn mark<'a, S: Seq<'a>, const N: usize>(
        self,
        reads: impl Iterator<Item = usize>,
        others: &Others<'_, 'a, S>,
        exact: &mut Vec<usize>,
    ) {
        assert_eq!(self.len, N, "rows of N entries");
        // Tables of 64 to 256 entries: the reads listed, then their options gathered as bits
        // all at once ([`bit_rows::words_for`]), new values too.
        let mut bits = bit_rows::words_for(N)
            .filter(|_| bit_rows::available())
            .map(|words| bit_rows::BitRows::new(self.rows, words));
        let rows = &mut self.seen.as_chunks_mut::<N>().0[..self.rows];
        let (mut bytes, mut wide) = (Vec::new(), Vec::new());
        for i in reads {
            let Some((ys, x)) = others.of(i) else {
                exact.push(i);
                continue;
            };
            match (ys, &mut bits) {
                (Ys::Bytes(ys), Some(_)) => bytes.push((ys, x)),
                (Ys::Wide(ys), Some(_)) => wide.push((ys, x)),
                (Ys::Bytes(ys), None) => {
                    for (row, &y) in rows.iter_mut().zip(ys) {
                        row[(x ^ usize::from(y)) & (N - 1)] = self.stamp;
                    }
                }
                (Ys::Wide(ys), None) => {
                    for (row, &y) in rows.iter_mut().zip(ys) {
                        row[(x ^ y as usize) & (N - 1)] = self.stamp;
                    }
                }
            }
        }
        if let Some(mut bits) = bits {
            bits.or_all(&bytes);
            bits.or_all(&wide);
            bits.stamp(rows.as_flattened_mut(), N, self.stamp);
        }
    }

    /// [`Fast::mark`] for rows of any length (a power of two), each entry's index checked:
    /// tables past 2048 entries (values past 1023) are rare enough not to need their own code.
    fn mark_any<'a, S: Seq<'a>>(
        self,
        reads: impl Iterator<Item = usize>,
        others: &Others<'_, 'a, S>,
        exact: &mut Vec<usize>,
    ) {
        let last = self.len - 1;
        for i in reads {
            let Some((ys, x)) = others.of(i) else {
                exact.push(i);
                continue;
            };
            let rows = self.seen.chunks_exact_mut(self.len).take(self.rows);
            match ys {
                Ys::Bytes(ys) => {
                    for (row, &y) in rows.zip(ys) {
                        row[(x ^ usize::from(y)) & last] = self.stamp;
                    }
                }
                Ys::Wide(ys) => {
                    for (row, &y) in rows.zip(ys) {
                        row[(x ^ y as usize) & last] = self.stamp;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::heap::fresh::Fresh;
    use crate::game::heap::{Values, ESCAPE};
    use crate::with_values;

    /// After a block's reads, each row holds the stamp exactly at the options of the pairs the
    /// reads name whose other heap is below the values known (rare heap r, total h - k, other
    /// heap h - k - r, never an equal split with `unequal`), whether the totals were read once
    /// each or per amount:
    /// over pseudo-random values (some kept apart, some new beside the stored ones), tables of
    /// 32 to 4096 entries a row, rare heaps, amounts, rows, tables reused across blocks and
    /// stamps past 255.
    #[test]
    fn rows_hold_exactly_the_pairs_read() {
        let mut draw = crate::testing::xorshift(0x2545_f491);
        let mut next = move || draw() as usize;
        let takes: [&[usize]; 4] = [&[2], &[2, 3], &[1, 2, 3], &[1, 4]];
        let mut tables = std::collections::HashMap::new();
        let (mut shared, mut apart, mut wide_new) = (0, 0, 0);
        for round in 0..400 {
            let len = [32, 64, 128, 256, 512, 1024, 2048, 4096][round % 8];
            let rows = [4, 16, 64][round % 3];
            let (takes, unequal) = (takes[round % 4], round % 7 < 3);
            let start = 2000 + next() % 500;
            let known = start - (next() % 2) * rows;
            // Every fifth round the last values are new ones beside the stored ones
            // ([`Fresh`]), which are bytes (values past them kept apart, as in a run).
            let new_values = round % 5 == 1;
            let stored = match new_values {
                true => known - next() % 600,
                false => known,
            };
            let values: Vec<Nimber> = (0..3000)
                .map(|i| match new_values && i < stored && next() % 50 != 0 {
                    true => next() % (len / 2).min(255),
                    false => next() % (len / 2),
                } as Nimber)
                .collect();
            // Few rare heaps too, so that rows are far from full and each mark shows.
            let density = [20, 5, 2, 300, 100][round % 5];
            let heaps: Vec<usize> = (1..2000).filter(|_| next() % density == 0).collect();
            let rare = Rare {
                values: heaps.iter().map(|&h| values[h]).collect(),
                heaps,
            };
            let held = match (round % 4, new_values, u8::try_from(len / 4)) {
                (0, false, Ok(from)) => {
                    let mut held = Values::escaping_from(from);
                    held.extend(values[..known].iter().copied());
                    apart += usize::from(held.escaped() > 0);
                    held
                }
                (_, true, _) => {
                    let mut held = Values::escaping_from(ESCAPE);
                    held.extend(values[..stored].iter().copied());
                    held
                }
                _ => Values::from_slice(&values[..stored]),
            };
            wide_new += usize::from(stored < known && len > 256);
            let table = tables
                .entry((len, rows))
                .or_insert_with(|| Table::new(rows, len));
            for _ in 0..next() % 300 {
                table.restamp();
            }
            // Every other round the totals' rows are made anew, to see whether they are used.
            let fresh = round % 2 == 0;
            if fresh {
                table.totals = Vec::new();
            }
            let block = start..start + rows;
            let far = with_values!(held, v => {
                let v = Fresh::new(v, &values[stored..known]);
                enumerate_far(table, &rare, len, v, known, block.clone(), takes, unequal)
            });
            shared += usize::from(fresh && !table.totals.is_empty());
            for i in 0..rows {
                let mut want = vec![false; len];
                for f in &far {
                    let m = start + i - f.take;
                    for j in (f.all.start..f.hole.start).chain(f.hole.end..f.all.end) {
                        let (r, v) = (rare.heaps[j], rare.values[j]);
                        assert!(r < m, "round {round}: {r} of {m}");
                        assert_eq!(j >= f.unread[i], m - r < known, "round {round}: {r} of {m}");
                        if m - r < known {
                            assert!(!unequal || 2 * r != m, "round {round}: {r} of {m}");
                            want[(v ^ values[m - r]) as usize] = true;
                        }
                    }
                }
                let row = &table.seen[i * len..(i + 1) * len];
                let got: Vec<bool> = row.iter().map(|&e| e == table.stamp).collect();
                assert_eq!(got, want, "round {round}, row {i}");
            }
        }
        assert!(
            shared > 20 && apart > 20 && wide_new > 20,
            "{shared} {apart} {wide_new}"
        );
    }
}
