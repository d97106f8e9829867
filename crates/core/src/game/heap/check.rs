//! The second half of a heap's valuation by the rare/common technique ([`super::sparse`]):
//! given its candidate (the least common value that no pair with a rare heap gives), the rare
//! values below it that no enumerated option has must each have a pair of common heaps, or
//! the least of those without one is the heap's value. One [`scan`] looks for all of them.
//!
//! A heap's check reads only the values below it and its own row of options, so the checks
//! of a block may run after the block's candidates were found, on another thread
//! ([`super::sieve::Sieve::speculate`]).

use std::ops::Range;

use super::classes::Classes;
use super::scan::{scan, Scan};
use super::sparse::Splits;
use super::{Seq, Values};
use crate::game::NimSet;
use crate::game::Nimber;
use crate::with_values;

/// The common tables, and the classes that pick one for each heap.
#[derive(Clone, Copy)]
pub(super) struct Common<'t> {
    pub(super) tables: &'t [Vec<u8>; 2],
    pub(super) classes: Classes,
}

impl<'t> Common<'t> {
    /// Heap `h`'s table: 1 at v when v is common as its value (or its option's).
    pub(super) fn of(self, h: usize) -> &'t [u8] {
        &self.tables[self.classes.flip(h)]
    }
}

/// Whether a value below the candidate is looked for by the scan: rare (0 in the heap's common
/// table) and no enumerated option (its row's entry not `stamp`). [`Check::settle`] checks such
/// values at once, [`Wanted::note`] notes them for later.
#[inline]
fn wanted(common: u8, seen: u8, stamp: u8) -> bool {
    common == 0 && seen != stamp
}

/// The least v with `common[v]` 1 and `row[v]` not `stamp` (the least common value no
/// enumerated option has: a heap's candidate), if any. Eight entries a step, as words: the
/// entry-by-entry search was a tenth of a heap's valuation on `octal:0.354`.
pub(super) fn least_common_missing(common: &[u8], row: &[u8], stamp: u8) -> Option<usize> {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let stamps = u64::from_ne_bytes([stamp; 8]);
    let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().expect("8 entries"));
    let (commons, rows) = (common.chunks_exact(8), row.chunks_exact(8));
    let done = commons.len() * 8;
    for (k, (c, r)) in commons.zip(rows).enumerate() {
        // Bit 7 of each byte: the row's entry is not the stamp (a byte of `r` is nonzero).
        let r = word(r) ^ stamps;
        let unstamped = ((r & LOW7).wrapping_add(LOW7) | r) & HIGH;
        // Common entries are 0 or 1: shifted, each stays within its byte.
        let found = unstamped & (word(c) << 7);
        if found != 0 {
            return Some(8 * k + found.trailing_zeros() as usize / 8);
        }
    }
    (done..common.len().min(row.len())).find(|&v| common[v] == 1 && row[v] != stamp)
}

/// One heap's splits, as its check needs them.
pub(super) struct Checked<'a> {
    /// The totals it may split.
    pub(super) splits: &'a [usize],
    /// Whether a split's two heaps must differ.
    pub(super) unequal: bool,
}

/// What checking a heap writes: the rare values it looks for, and the pairs that gave them.
pub(super) struct Check {
    /// 1 at v: v is a rare value below the candidate that no enumerated option has, not yet
    /// found; all 0 between heaps.
    pending: Vec<u8>,
    /// At v: the smaller heap of a pair that gave v to the last heap that looked for it
    /// ([`Scan::witnesses`]).
    witnesses: Vec<u32>,
    /// Pairs of a total a scan reads alone before sharing the rest out.
    parallel_from: usize,
}

impl Check {
    /// A check over tables of `len` values, its scans reading `parallel_from` pairs of a
    /// total alone.
    pub(super) fn new(len: usize, parallel_from: usize) -> Check {
        Check {
            pending: vec![0; len],
            witnesses: vec![0; len],
            parallel_from,
        }
    }

    /// The value of `heap`, whose candidate is `candidate`: `row` holds `stamp` at each option
    /// enumerated, `common` 1 at each common value (of the heap's class).
    pub(super) fn settle<'a, S: Seq<'a>>(
        &mut self,
        common: &[u8],
        (row, stamp): (&[u8], u8),
        values: S,
        heap: &Checked,
        candidate: usize,
    ) -> Nimber {
        let mut left = 0;
        let below = common[..candidate].iter().zip(&row[..candidate]);
        for (pending, (&common, &seen)) in self.pending.iter_mut().zip(below) {
            *pending = u8::from(wanted(common, seen, stamp));
            left += u32::from(*pending);
        }
        self.resolve(values, heap, candidate, left)
    }

    /// The value of `heap`, whose candidate is `candidate`, given the rare values below it that
    /// no enumerated option has (`wanted`, noted by [`Wanted::note`]).
    fn settle_wanted<'a, S: Seq<'a>>(
        &mut self,
        values: S,
        heap: &Checked,
        candidate: usize,
        wanted: &[Nimber],
    ) -> Nimber {
        for &v in wanted {
            self.pending[v as usize] = 1;
        }
        self.resolve(values, heap, candidate, wanted.len() as u32)
    }

    /// [`Check::settle`] once `pending` holds the `left` rare values wanted: one scan of the
    /// pairs looks for all of them at once. (Trying first the pairs that served the last heaps
    /// found a tenth of the values on Grundy's game and cost more than it saved: 4.3 s against
    /// 3.7 s to 4 * 10^6 heaps.)
    fn resolve<'a, S: Seq<'a>>(
        &mut self,
        values: S,
        heap: &Checked,
        candidate: usize,
        left: u32,
    ) -> Nimber {
        let mut value = candidate as Nimber;
        if left > 0 {
            let mut found = Scan {
                pending: &mut self.pending,
                witnesses: &mut self.witnesses,
                left,
                parallel_from: self.parallel_from,
            };
            // Every value found (nearly always) leaves `pending` clear.
            if scan(values, heap.splits, heap.unequal, &mut found) > 0 {
                if let Some(v) = self.pending[..candidate].iter().position(|&p| p == 1) {
                    value = v as Nimber;
                }
                self.pending[..candidate].fill(0);
            }
        }
        value
    }

    /// Checks the heaps `heaps` of those noted in `wanted`, whose values in `values` are their
    /// candidates: the first heap whose value is less, with that value, or `None` when every
    /// candidate stands.
    pub(super) fn check_wanted<R: Splits>(
        &mut self,
        rule: &R,
        values: &Values,
        wanted: &Wanted,
        heaps: Range<usize>,
        unequal: bool,
    ) -> Option<(usize, Nimber)> {
        let (mut splits, mut plain) = (Vec::new(), NimSet::new());
        let first = wanted.start;
        // The totals a heap splits, from `from` on, without its other options (which the
        // check does not read).
        let (from, takes) = rule.split_takes();
        with_values!(values, v => {
            for h in heaps.clone() {
                let i = h - first;
                let candidate = v.at(h);
                let looked_for = wanted.of(i);
                if looked_for.is_empty() {
                    continue;
                }
                splits.clear();
                match h >= from {
                    true => splits.extend(takes.iter().map(|&k| h - k)),
                    false => {
                        plain.clear();
                        rule.options(h, v.prefix(h), &mut plain, &mut splits);
                    }
                }
                let heap = Checked {
                    splits: &splits,
                    unequal,
                };
                let value = self.settle_wanted(v.prefix(h), &heap, candidate as usize, looked_for);
                if value != candidate {
                    return Some((h, value));
                }
            }
            None
        })
    }
}

/// The rare values that each heap of a stretch valued ahead looks for, noted when its
/// candidate was found ([`Check::check_wanted`] looks for them later).
#[derive(Debug, Default)]
pub(super) struct Wanted {
    /// The first heap noted.
    start: usize,
    /// The values of every heap, in order.
    values: Vec<Nimber>,
    /// Where each heap's values end in `values`.
    ends: Vec<usize>,
}

impl Wanted {
    /// Forgets every heap noted; the next is `start`.
    pub(super) fn restart(&mut self, start: usize) {
        self.start = start;
        self.values.clear();
        self.ends.clear();
    }

    /// Notes the next heap's values wanted: the rare values below `candidate` that no option
    /// in `row` (`stamp` at each) has, as [`Check::settle`] counts them.
    pub(super) fn note(&mut self, common: &[u8], (row, stamp): (&[u8], u8), candidate: usize) {
        let below = common[..candidate].iter().zip(&row[..candidate]);
        for (v, (&common, &seen)) in below.enumerate() {
            if wanted(common, seen, stamp) {
                self.values.push(v as Nimber);
            }
        }
        self.ends.push(self.values.len());
    }

    /// The heaps noted.
    pub(super) fn heaps(&self) -> Range<usize> {
        self.start..self.start + self.ends.len()
    }

    /// The values wanted by the `i`-th heap noted.
    fn of(&self, i: usize) -> &[Nimber] {
        let from = i.checked_sub(1).map_or(0, |j| self.ends[j]);
        &self.values[from..self.ends[i]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eight entries a step find what the entry-by-entry search finds: over pseudo-random
    /// tables of every length up to 70 (not multiples of 8 too), rows of few distinct bytes
    /// (so the stamp is often met) and every kind of stamp, the edges 0 and 255 included.
    #[test]
    fn words_find_the_least_common_missing_as_entries_do() {
        let mut next = crate::testing::xorshift(0x5851_f42d);
        for round in 0..3000 {
            let len = round % 71;
            let stamp: u8 = [0, 1, 254, 255, 7][round % 5];
            let common: Vec<u8> = (0..len)
                .map(|_| u8::from(next().is_multiple_of(3)))
                .collect();
            let row: Vec<u8> = (0..len)
                .map(|_| match next() % 4 {
                    0 => stamp.wrapping_add(1),
                    1 => stamp ^ 0x80,
                    _ => stamp,
                })
                .collect();
            let plain = (0..len).find(|&v| common[v] == 1 && row[v] != stamp);
            assert_eq!(
                least_common_missing(&common, &row, stamp),
                plain,
                "round {round}"
            );
        }
    }
}
