//! Valuing heaps ahead of their checks ([`Sieve::speculate`]): a heap's candidate is its value
//! unless a rare value below it has no pair, which happens only at the rare heaps, and those
//! grow few where the rare/common technique is fast. So one thread finds the candidates of a
//! stretch of blocks while another checks the stretch before (in parts, which the first thread
//! shares once done); a candidate that fails puts its heap's value in its place and the values
//! past it go.

use super::{Context, Ended, Place, Sieve, Then, Valuing};
use crate::game::heap::check::{Check, Common, Wanted};
use crate::game::heap::far::{enumerate_far, Begun, Table};
use crate::game::heap::fresh::Fresh;
use crate::game::heap::sparse::Splits;
use crate::game::heap::Values;
use crate::game::Nimber;
use crate::with_values;

/// Heaps in a part of a stretch checked at once: the thread that values the next stretch
/// takes the parts left when it is done, and then waits for the last part the other thread
/// has taken, so parts are short (two blocks of 64 heaps).
const PART: usize = 128;

impl Sieve {
    /// Values the heaps `heaps`, a stretch of blocks, ahead of their checks: each gets its
    /// candidate, as if no rare value below it lacked a pair (true of all but the rare heaps,
    /// which grow few where the technique is fast), and the rare values it looks for are noted
    /// ([`Wanted`]). Meanwhile, on another of rayon's threads when one is free, the stretch
    /// valued so before is checked in parts
    /// ([`Check::check_wanted`](crate::game::heap::check::Check::check_wanted)), and, where
    /// few rare heaps lie between one and two blocks' rows, each block's shared reads are made
    /// while the block before is valued. Splits are of
    /// totals h - k for k in `takes`. A stretch ends early where a block does (a value passes
    /// the tables, or a stop).
    ///
    /// When a candidate of the stretch before fails, its heap's value is put in its place and
    /// the values past it go (this stretch's too): [`Ended::Cut`]. Else this stretch's values
    /// go onto `values` and wait to be checked: by the next call, or by
    /// [`Sieve::check_ahead`], which must run before the values are used or a block is valued
    /// otherwise. A value that passes the tables has its stretch checked at once, before the
    /// tables widen.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::game::heap) fn speculate<R: Splits>(
        &mut self,
        rule: &R,
        values: &mut Values,
        fresh: &mut Vec<Nimber>,
        heaps: std::ops::Range<usize>,
        takes: &[usize],
        unequal: bool,
        stop: &dyn Fn() -> bool,
    ) -> Ended {
        let Sieve {
            classes,
            rare,
            bits,
            common,
            rows,
            next,
            valuing,
            parts,
            noting,
            unchecked,
            parallel_from,
            ..
        } = self;
        let (len, rows) = (common[0].len(), *rows);
        let common = Common {
            tables: common,
            classes: *classes,
        };
        let context = Context {
            common,
            rare,
            bits: *bits,
            unequal,
        };
        noting.restart(heaps.start);
        // The blocks of the stretch, each read for the pairs of the rare heaps below it.
        let candidates = |valuing: &mut Valuing, noting: &mut Wanted, mut place: Place| {
            let mut top = 0;
            for start in heaps.clone().step_by(rows) {
                let block = start..(start + rows).min(heaps.end);
                let table = &mut valuing.table;
                let far = match &place {
                    Place::Stored(stored) => with_values!(stored, v => {
                        enumerate_far(table, rare, len, v, start, block.clone(), takes, unequal)
                    }),
                    Place::Apart(stored, fresh) => with_values!(stored, v => {
                        let v = Fresh::new(v, fresh);
                        enumerate_far(table, rare, len, v, start, block.clone(), takes, unequal)
                    }),
                };
                let block = Begun { heaps: block, far };
                let then = Then::Note(&mut *noting);
                let (ended, block_top) =
                    valuing.value_heaps(rule, place.reborrow(), &block, context, then, stop);
                top = top.max(block_top);
                if ended != Ended::Whole {
                    return (ended, top);
                }
            }
            (Ended::Whole, top)
        };
        // The same beside a stretch's check: each block's shared reads are made while the
        // block before is valued, as a task another thread takes once its checks are done,
        // from the values up to that block (the rest each heap reads itself), read from a
        // copy of the stretch's new values kept a block behind.
        let candidates_apart = |valuing: &mut Valuing,
                                noting: &mut Wanted,
                                next: &mut Table,
                                stored: &Values,
                                fresh: &mut Vec<Nimber>| {
            let mut top = 0;
            let mut behind: Vec<Nimber> = Vec::new();
            let read = |table: &mut Table, behind: &[Nimber], known: usize, block| {
                with_values!(stored, v => {
                    let v = Fresh::new(v, behind);
                    enumerate_far(table, rare, len, v, known, block, takes, unequal)
                })
            };
            let first = heaps.start..(heaps.start + rows).min(heaps.end);
            let mut far = read(&mut valuing.table, &behind, heaps.start, first);
            for start in heaps.clone().step_by(rows) {
                let block = Begun {
                    heaps: start..(start + rows).min(heaps.end),
                    far,
                };
                let after = block.heaps.end..(block.heaps.end + rows).min(heaps.end);
                let mut ahead = None;
                let (ended, block_top) = rayon::in_place_scope(|s| {
                    if !after.is_empty() {
                        let (ahead, behind) = (&mut ahead, &behind[..]);
                        let table = &mut *next;
                        s.spawn(move |_| *ahead = Some(read(table, behind, start, after)));
                    }
                    let then = Then::Note(&mut *noting);
                    let place = Place::Apart(stored, fresh);
                    valuing.value_heaps(rule, place, &block, context, then, stop)
                });
                top = top.max(block_top);
                match (ended, ahead) {
                    (Ended::Whole, Some(read)) => far = read,
                    (ended, _) => return (ended, top),
                }
                behind.extend_from_slice(&fresh[behind.len()..]);
                std::mem::swap(&mut valuing.table, next);
            }
            // (A stretch of no heaps.)
            (Ended::Whole, top)
        };
        let (mut ended, top) = match unchecked.heaps().is_empty() {
            true => candidates(valuing, noting, Place::Stored(values)),
            false => {
                let stored = &*values;
                // The stretch before, checked in parts: whichever thread is free takes the
                // next, the one valuing this stretch too once it is done.
                let heaps = unchecked.heaps();
                let count = heaps.len().div_ceil(PART);
                if parts.len() < count {
                    parts.resize_with(count, || Check::new(len, *parallel_from));
                }
                let mut cuts = vec![None; count];
                let ended = rayon::in_place_scope(|s| {
                    let unchecked = &*unchecked;
                    let starts = heaps.clone().step_by(PART);
                    for ((check, cut), from) in parts.iter_mut().zip(&mut cuts).zip(starts) {
                        let part = from..(from + PART).min(heaps.end);
                        s.spawn(move |_| {
                            *cut = check.check_wanted(rule, stored, unchecked, part, unequal);
                        });
                    }
                    // Read a block behind, the rare heaps of rows to 2 rows have pairs a heap
                    // reads itself: worth it where they are few (0.127, 0.16: -10%, -5%; not
                    // 0.56, +5%, with a fifth of its rare heaps there).
                    match rare.from(2 * rows) - rare.from(rows) <= rare.len() / 8 {
                        true => candidates_apart(valuing, noting, next, stored, fresh),
                        false => candidates(valuing, noting, Place::Apart(stored, fresh)),
                    }
                });
                // The first part's cut: the parts before it stand, the ones after read values
                // that go.
                let cut = cuts.into_iter().flatten().next();
                if let Some((h, value)) = cut {
                    fresh.clear();
                    self.unchecked.restart(0);
                    self.cut(values, h, value);
                    return Ended::Cut;
                }
                values.extend(fresh.drain(..));
                ended
            }
        };
        debug_assert!(self.valuing.found.len() == 0, "a candidate is never rare");
        std::mem::swap(&mut self.noting, &mut self.unchecked);
        if ended == Ended::Widened {
            if self.check_ahead(rule, values, unequal) {
                ended = Ended::Cut;
            }
            self.fit(top);
        }
        ended
    }

    /// Whether a stretch valued ahead waits for its check.
    pub(in crate::game::heap) fn ahead(&self) -> bool {
        !self.unchecked.heaps().is_empty()
    }

    /// Checks the stretch valued ahead, if any, on this thread; whether a candidate failed
    /// (its heap's value then stands in its place, the values past it gone).
    pub(in crate::game::heap) fn check_ahead<R: Splits>(
        &mut self,
        rule: &R,
        values: &mut Values,
        unequal: bool,
    ) -> bool {
        let heaps = self.unchecked.heaps();
        let cut = self
            .check
            .check_wanted(rule, values, &self.unchecked, heaps, unequal);
        self.unchecked.restart(0);
        if let Some((h, value)) = cut {
            self.cut(values, h, value);
        }
        cut.is_some()
    }

    /// Puts `value`, a rare value below its candidate, as heap `h`'s, the values past it gone.
    fn cut(&mut self, values: &mut Values, h: usize, value: Nimber) {
        values.truncate(h);
        values.push(value);
        self.rare.push(h, value);
    }
}
