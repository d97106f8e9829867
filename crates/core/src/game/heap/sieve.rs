//! The state of the rare/common technique ([`super::sparse`]) while a sequence is extended:
//! the classes ([`super::classes`]), the rare heaps, the tables of a block's options, and the
//! valuation of one block of consecutive heaps, with the next block's shared reads
//! ([`super::far`]) made meanwhile on another thread; or the candidates of a stretch of blocks,
//! checked meanwhile on another thread ([`ahead`]).

use super::check::{least_common_missing, Check, Checked, Common, Wanted};
use super::classes::{self, rare_heaps, Classes};
use super::far::{enumerate_far, Begun, Far, Rare, Table};
use super::fresh::Fresh;
use super::sparse::{Splits, RECHOOSE};
use super::{Seq, Values};
use crate::game::NimSet;
use crate::game::Nimber;
use crate::with_values;

#[path = "ahead.rs"]
mod ahead;

/// One heap of a block, as [`Valuing::value`] needs it.
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

/// How a block's valuation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ended {
    /// Every heap of the block was valued.
    Whole,
    /// Asked to stop, before the block's end.
    Stopped,
    /// A value passed the tables, which must be made anew (the block ends there).
    Widened,
    /// A heap valued ahead ([`Sieve::speculate`]) had a rare value below its
    /// candidate: the values past it went, and the valuation goes on after it.
    Cut,
}

/// Where a block's values are read from and put.
enum Place<'v> {
    /// Onto the stored values, when nothing else reads them meanwhile.
    Stored(&'v mut Values),
    /// Into a list of their own beside the stored values, which another thread reads
    /// meanwhile ([`Fresh`]).
    Apart(&'v Values, &'v mut Vec<Nimber>),
}

/// The state of the rare/common split: the classes, the rare heaps with their values, and
/// tables over the values that fit the largest value so far.
///
/// The tables hold a byte per value, not a bit: the hot loops then store and load without
/// reading back a word they just wrote, and none of them is cleared whole per heap.
pub(super) struct Sieve {
    classes: Classes,
    /// The parity of every amount a split takes, when they share one: whether the heaps'
    /// parity may join the classes.
    split_parity: Option<usize>,
    /// Rare heaps from 1 below the block being valued, in order, and their values.
    rare: Rare,
    /// Rare heaps when the mask was last chosen.
    chosen_with: usize,
    /// Every value so far is below `1 << bits`, so is every option (a xor of two values), and
    /// the mask is below it too. The tables cover twice that (`2 << bits` values): the upper
    /// half has common values, none of them an option, so the least common value missing is
    /// always there.
    bits: u32,
    /// 1 at v: v is common, as the value of a heap whose parity flips the count
    /// ([`Classes::flip`]) or not.
    common: [Vec<u8>; 2],
    /// Heaps in a block: as many as keep a table near 32 KiB, from 4 to 64.
    pub(super) rows: usize,
    /// The next block's table, filled while a block is valued.
    next: Table,
    /// What valuing a block changes.
    valuing: Valuing,
    /// The checks of the candidates, and of the parts of a stretch valued ahead
    /// (as many as a stretch has, [`ahead`]), which run at once.
    check: Check,
    parts: Vec<Check>,
    /// Pairs of a total a scan reads alone before sharing the rest out.
    parallel_from: usize,
    /// The rare values wanted by the heaps of the stretch being valued ahead of their checks
    /// ([`Sieve::speculate`]), and by those of the stretch before, not yet checked.
    noting: Wanted,
    unchecked: Wanted,
}

impl Place<'_> {
    /// The same place, borrowed again.
    fn reborrow(&mut self) -> Place<'_> {
        match self {
            Place::Stored(v) => Place::Stored(v),
            Place::Apart(v, fresh) => Place::Apart(v, fresh),
        }
    }
}

/// The part of the [`Sieve`] that valuing a block writes (the rest it only reads).
struct Valuing {
    /// The options of the block's heaps.
    table: Table,
    /// The rare heaps of the block, appended to the sieve's at its end.
    found: Rare,
}

impl Sieve {
    /// The sieve for `values`, of a rule whose splits take amounts of the parity
    /// `split_parity` (`None`: of both), its scans reading `parallel_from` pairs of a total
    /// alone.
    pub(super) fn new(values: &Values, split_parity: Option<usize>, parallel_from: usize) -> Sieve {
        let mut sieve = Sieve {
            classes: Classes {
                mask: 1,
                shift: None,
            },
            split_parity,
            rare: Rare::default(),
            chosen_with: 0,
            bits: 0,
            common: [Vec::new(), Vec::new()],
            rows: 1,
            next: Table::new(0, 0),
            valuing: Valuing {
                table: Table::new(0, 0),
                found: Rare::default(),
            },
            check: Check::new(0, parallel_from),
            parts: Vec::new(),
            parallel_from,
            noting: Wanted::default(),
            unchecked: Wanted::default(),
        };
        sieve.choose(values);
        sieve
    }

    /// Chooses the classes for `values` and classifies them again.
    fn choose(&mut self, values: &Values) {
        self.classes = classes::rarity(values, self.split_parity).classes;
        let heaps = rare_heaps(values, self.classes);
        let values_of = heaps.iter().map(|&r| values.get(r)).collect();
        self.rare = Rare {
            heaps,
            values: values_of,
        };
        self.chosen_with = self.rare.len();
        let top = values.max();
        // The common tables follow the new classes.
        (self.bits, self.common) = (0, [Vec::new(), Vec::new()]);
        self.fit(top);
    }

    /// Chooses the mask again when rare heaps have grown many; whether it did.
    pub(super) fn rechoose_if_crowded(&mut self, values: &Values) -> bool {
        let rare = self.rare.len();
        let crowded = rare * RECHOOSE > values.len() && rare >= 2 * self.chosen_with.max(1);
        if crowded {
            self.choose(values);
        }
        crowded
    }

    /// Widens the tables to hold `v`; whether they were made anew.
    fn fit(&mut self, v: Nimber) -> bool {
        let bits = Nimber::BITS - v.leading_zeros();
        if bits <= self.bits && !self.common[0].is_empty() {
            return false;
        }
        // The tables reach past the mask's bits too, so that their upper half has values of
        // both classes.
        self.bits = bits
            .max(self.bits)
            .max(Nimber::BITS - self.classes.mask.leading_zeros());
        let len = 2usize << self.bits;
        let mask = self.classes.mask;
        self.common = [0, 1].map(|flip| {
            (0..len)
                .map(|v| u8::from(((v as Nimber & mask).count_ones() + flip) % 2 == 1))
                .collect()
        });
        self.rows = ((32 << 10) / len).clamp(4, 64);
        self.next = Table::new(self.rows, len);
        self.valuing.table = Table::new(self.rows, len);
        self.check = Check::new(len, self.parallel_from);
        // Made as the stretches ask for them.
        self.parts = Vec::new();
        true
    }

    /// Starts a block of the heaps `heaps`, whose splits are of totals h - k for k in
    /// `takes`: reads the pairs of the rare heaps with heaps below it
    /// ([`enumerate_far`]).
    pub(super) fn begin(
        &mut self,
        values: &Values,
        heaps: std::ops::Range<usize>,
        takes: &[usize],
        unequal: bool,
    ) -> Begun {
        let (table, len, known) = (&mut self.valuing.table, self.common[0].len(), values.len());
        let far = with_values!(values, v => {
            enumerate_far(table, &self.rare, len, v, known, heaps.clone(), takes, unequal)
        });
        Begun { heaps, far }
    }

    /// Starts the block `ahead` read while the last one was valued ([`Sieve::value_block`]):
    /// its table becomes the block's.
    pub(super) fn begin_read(&mut self, ahead: Begun) -> Begun {
        std::mem::swap(&mut self.next, &mut self.valuing.table);
        ahead
    }

    /// Whether the classes count the heaps' parity.
    pub(super) fn by_parity(&self) -> bool {
        self.classes.shift.is_some()
    }

    /// The last rare heap below the block being valued (0: none).
    pub(super) fn last_rare(&self) -> usize {
        self.rare.heaps.last().copied().unwrap_or(0)
    }

    /// Every value so far, and every option, is below `1 << bits`.
    pub(super) fn bits(&self) -> u32 {
        self.bits
    }

    /// Rare heaps below the block being valued.
    pub(super) fn rare_count(&self) -> usize {
        self.rare.len()
    }

    /// Values the heaps of `block` (begun by [`Sieve::begin`] or [`Sieve::begin_read`]), in
    /// order, until the block ends, a value passes the tables or `stop` says so; returns how
    /// it ended. With `ahead` (heaps and amounts), meanwhile, on another of rayon's threads
    /// when one is free, reads the shared pairs of that block from the values below `block`,
    /// which do not change: for [`Sieve::begin_read`], when the block was valued whole.
    ///
    /// The stored values are then not pushed onto meanwhile (they are read across threads):
    /// the block's go into `fresh` (empty), and onto `values` when it ends. Its rare heaps go
    /// onto the sieve's at its end, and the tables widen when a value passed them.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn value_block<R: Splits>(
        &mut self,
        rule: &R,
        values: &mut Values,
        fresh: &mut Vec<Nimber>,
        block: &Begun,
        unequal: bool,
        stop: &dyn Fn() -> bool,
        ahead: Option<(std::ops::Range<usize>, &[usize])>,
    ) -> (Ended, Option<Begun>) {
        debug_assert!(!self.ahead(), "a stretch valued ahead is checked first");
        let Sieve {
            classes,
            rare,
            bits,
            common,
            next,
            valuing,
            check,
            ..
        } = self;
        let len = common[0].len();
        let rare = &*rare;
        let context = Context {
            common: Common {
                tables: common,
                classes: *classes,
            },
            rare,
            bits: *bits,
            unequal,
        };
        let mut read = None;
        let (ended, top) = match ahead {
            None => valuing.value_heaps(
                rule,
                Place::Stored(values),
                block,
                context,
                Then::Settle(check),
                stop,
            ),
            Some((heaps, takes)) => {
                let stored = &*values;
                let known = stored.len();
                // A scope run in place, not `rayon::join`: the valuation asks `stop`, which
                // need not be shared across threads. On one thread the reads run after it.
                let ended = rayon::in_place_scope(|s| {
                    let read = &mut read;
                    s.spawn(move |_| {
                        let far = with_values!(stored, v => {
                            enumerate_far(next, rare, len, v, known, heaps.clone(), takes, unequal)
                        });
                        *read = Some(Begun { heaps, far });
                    });
                    let place = Place::Apart(stored, fresh);
                    valuing.value_heaps(rule, place, block, context, Then::Settle(check), stop)
                });
                values.extend(fresh.drain(..));
                ended
            }
        };
        let found = std::mem::take(&mut self.valuing.found);
        self.rare.heaps.extend(found.heaps);
        self.rare.values.extend(found.values);
        let widened = self.fit(top);
        debug_assert_eq!(widened, ended == Ended::Widened);
        (ended, read)
    }
}

/// What a heap's valuation does once it has its candidate.
enum Then<'c> {
    /// Checks it: the heap's value is found.
    Settle(&'c mut Check),
    /// Notes the rare values it looks for: the heap gets its candidate, to be checked later.
    Note(&'c mut Wanted),
}

impl Then<'_> {
    /// The same, borrowed again for one heap.
    fn reborrow(&mut self) -> Then<'_> {
        match self {
            Then::Settle(check) => Then::Settle(check),
            Then::Note(wanted) => Then::Note(wanted),
        }
    }
}

/// What a block's heaps read in common.
#[derive(Clone, Copy)]
struct Context<'s> {
    common: Common<'s>,
    rare: &'s Rare,
    bits: u32,
    unequal: bool,
}

impl Valuing {
    /// [`Sieve::value_block`]'s valuation, on this thread, reading and putting the values in
    /// `place`; how it ended, and the largest value of the block. Each heap is checked or
    /// noted to be, as `then` says.
    fn value_heaps<R: Splits>(
        &mut self,
        rule: &R,
        mut place: Place,
        block: &Begun,
        context: Context,
        mut then: Then,
        stop: &dyn Fn() -> bool,
    ) -> (Ended, Nimber) {
        let Context {
            common,
            rare,
            bits,
            unequal,
        } = context;
        let (mut splits, mut plain) = (Vec::new(), NimSet::new());
        let start = block.heaps.start;
        let mut top = 0;
        for h in block.heaps.clone() {
            if h > start && stop() {
                return (Ended::Stopped, top);
            }
            plain.clear();
            splits.clear();
            let heap = |plain, splits| Heap {
                h,
                row: h - start,
                plain,
                splits,
                unequal,
                far: &block.far,
            };
            let value = match &mut place {
                Place::Apart(values, fresh) => with_values!(values, v => {
                    let seq = Fresh::new(v, fresh);
                    rule.options(h, seq, &mut plain, &mut splits);
                    self.value(common.of(h), rare, seq, &heap(&plain, &splits), then.reborrow())
                }),
                Place::Stored(values) => with_values!(values, v => {
                    rule.options(h, v, &mut plain, &mut splits);
                    self.value(common.of(h), rare, v, &heap(&plain, &splits), then.reborrow())
                }),
            };
            // The classes count the heap's parity only for splits of one parity of amounts.
            debug_assert!(common
                .classes
                .shift
                .is_none_or(|k| splits.iter().all(|&m| (h - m) & 1 == k)));
            match &mut place {
                Place::Apart(_, fresh) => fresh.push(value),
                Place::Stored(values) => values.push(value),
            }
            top = top.max(value);
            // Every value is at most its heap's candidate, in the tables.
            if common.of(h)[value as usize] == 0 {
                self.found.push(h, value);
            }
            if value >> bits != 0 {
                return (Ended::Widened, top);
            }
        }
        (Ended::Whole, top)
    }

    /// The value of a heap of the block begun, over the values so far (`values`, widened to
    /// `Nimber` on read), with the rare heaps `rare` and those of the block so far, or its
    /// candidate, as `then` says.
    fn value<'a, S: Seq<'a>>(
        &mut self,
        common: &[u8],
        rare: &Rare,
        values: S,
        heap: &Heap,
        then: Then,
    ) -> Nimber {
        let (len, stamp) = (common.len(), self.table.stamp);
        let last = len - 1;
        let row = &mut self.table.seen[heap.row * len..(heap.row + 1) * len];
        for v in heap.plain.iter() {
            // A plain option past the tables cannot be the mex, which is at most 1 << bits.
            if let Some(s) = row.get_mut(v as usize) {
                *s = stamp;
            }
        }
        // Every pair with a rare heap (either side): all common options, exactly. The block
        // read those of the rare heaps in `far`; the others are read here, from the rare
        // heaps below the block and then those in it (indices past `rare`'s).
        let found = &self.found;
        for &m in heap.splits {
            let below = rare.from(m) + found.from(m);
            let read = heap.far.iter().find(|f| f.take + m == heap.h);
            let ranges = match read {
                // Those of `all` with the other heap m - r not below what the block read.
                Some(f) => [0..f.unread[heap.row], f.hole.clone(), f.all.end..below],
                None => [0..below, 0..0, 0..0],
            };
            let split = rare.len();
            for range in ranges.into_iter().filter(|range| !range.is_empty()) {
                // The part of the range in `rare`, then the part past it, in `found`.
                let in_rare = range.start.min(split)..range.end.min(split);
                let in_found = range.start.max(split) - split..range.end.max(split) - split;
                if !in_rare.is_empty() {
                    let part = (&rare.heaps[in_rare.clone()], &rare.values[in_rare]);
                    mark_near(row, (stamp, last), values, (m, heap.unequal), part);
                }
                if !in_found.is_empty() {
                    let part = (&found.heaps[in_found.clone()], &found.values[in_found]);
                    mark_near(row, (stamp, last), values, (m, heap.unequal), part);
                }
            }
        }
        debug_assert!(heap
            .far
            .iter()
            .all(|f| heap.splits.contains(&(heap.h - f.take))));
        // The least common value missing.
        let candidate = least_common_missing(common, row, stamp)
            .expect("the tables hold a common value past every option");
        match then {
            Then::Note(wanted) => {
                wanted.note(common, (row, stamp), candidate);
                candidate as Nimber
            }
            Then::Settle(check) => {
                let checked = Checked {
                    splits: heap.splits,
                    unequal: heap.unequal,
                };
                check.settle(common, (row, stamp), values, &checked, candidate)
            }
        }
    }
}

/// Marks in `row` (`stamp`; its length `last` + 1) the options of the pairs (r, m - r) of the
/// rare heaps r of `heaps` with their values `heap_values` (ascending), except
/// the equal split with `unequal`; the other heaps' values from `values`, raw unless one of
/// them has a value apart.
#[inline]
fn mark_near<'a, S: Seq<'a>>(
    row: &mut [u8],
    (stamp, last): (u8, usize),
    values: S,
    (m, unequal): (usize, bool),
    (heaps, heap_values): (&[usize], &[Nimber]),
) {
    let (Some(&first), Some(&last_rare)) = (heaps.first(), heaps.last()) else {
        return;
    };
    let raw = values.escaped_from(m - last_rare) > m - first;
    let stored = values.raw();
    for (&r, &x) in heaps.iter().zip(heap_values) {
        // With `unequal`, the equal split is no move.
        if unequal && 2 * r == m {
            continue;
        }
        let y = match raw {
            true => stored[m - r].into(),
            false => values.at(m - r),
        };
        row[(x ^ y) as usize & last] = stamp;
    }
}
