//! The state of the rare/common technique ([`super::sparse`]) while a sequence is extended:
//! the classes ([`super::classes`]), the rare heaps, the tables of a block's options, and the
//! valuation of one block of consecutive heaps, with the next block's shared reads
//! ([`super::far`]) made meanwhile on another thread.

use super::classes::{self, rare_heaps, Classes};
use super::far::{enumerate_far, Begun, Far, Rare, Table};
use super::fresh::Fresh;
use super::scan::{scan, smaller_top, witness, Scan};
use super::sparse::{Splits, RECHOOSE};
use super::{Seq, Values};
use crate::game::NimSet;
use crate::game::Nimber;
use crate::with_values;

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
}

/// The common tables, and the classes that pick one for each heap.
#[derive(Clone, Copy)]
struct Common<'t> {
    tables: &'t [Vec<u8>; 2],
    classes: Classes,
}

impl<'t> Common<'t> {
    /// Heap `h`'s table: 1 at v when v is common as its value (or its option's).
    fn of(self, h: usize) -> &'t [u8] {
        &self.tables[self.classes.flip(h)]
    }
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
}

/// The part of the [`Sieve`] that valuing a block writes (the rest it only reads).
struct Valuing {
    /// The options of the block's heaps.
    table: Table,
    /// The rare heaps of the block, appended to the sieve's at its end.
    found: Rare,
    /// 1 at v: v is a rare value below the candidate that no enumerated option has, not yet
    /// found; all 0 between heaps.
    pending: Vec<u8>,
    /// Row h mod [`WITNESSES`], entry v: the smaller heap of a pair that gave v as an option
    /// of heap h (0: none yet). Tried before the scan: where the values repeat locally with a
    /// short period, heap h's pair often serves heap h + 1, 2 or 3 as well.
    witnesses: Vec<u32>,
    /// Pairs of a total a scan reads alone before sharing the rest out.
    parallel_from: usize,
}

/// Recent heaps whose pairs [`Valuing::try_witnesses`] tries again.
const WITNESSES: usize = 4;

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
                pending: Vec::new(),
                witnesses: Vec::new(),
                parallel_from,
            },
        };
        sieve.choose(values);
        sieve
    }

    /// Chooses the classes for `values` and classifies them again.
    fn choose(&mut self, values: &Values) {
        self.classes = classes::best(values, self.split_parity);
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
        let valuing = &mut self.valuing;
        valuing.table = Table::new(self.rows, len);
        valuing.pending = vec![0; len];
        valuing.witnesses = vec![0; WITNESSES * len];
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
        let Sieve {
            classes,
            rare,
            bits,
            common,
            next,
            valuing,
            ..
        } = self;
        let (rare, bits, len) = (&*rare, *bits, common[0].len());
        let common = Common {
            tables: common,
            classes: *classes,
        };
        let mut read = None;
        let (ended, top) = match ahead {
            None => valuing.value_heaps(
                rule,
                Place::Stored(values),
                block,
                unequal,
                common,
                rare,
                bits,
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
                    valuing.value_heaps(rule, place, block, unequal, common, rare, bits, stop)
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

impl Valuing {
    /// [`Sieve::value_block`]'s valuation, on this thread, reading and putting the values in
    /// `place`; how it ended, and the largest value of the block.
    #[allow(clippy::too_many_arguments)]
    fn value_heaps<R: Splits>(
        &mut self,
        rule: &R,
        mut place: Place,
        block: &Begun,
        unequal: bool,
        common: Common,
        rare: &Rare,
        bits: u32,
        stop: &dyn Fn() -> bool,
    ) -> (Ended, Nimber) {
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
                    self.value(common.of(h), rare, seq, &heap(&plain, &splits))
                }),
                Place::Stored(values) => with_values!(values, v => {
                    rule.options(h, v, &mut plain, &mut splits);
                    self.value(common.of(h), rare, v, &heap(&plain, &splits))
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
    /// `Nimber` on read), with the rare heaps `rare` and those of the block so far.
    fn value<'a, S: Seq<'a>>(
        &mut self,
        common: &[u8],
        rare: &Rare,
        values: S,
        heap: &Heap,
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
                Some(f) => [0..f.all.start, f.hole.clone(), f.all.end..below],
                None => [0..below, 0..0, 0..0],
            };
            let split = rare.len();
            for range in ranges {
                // The part of the range in `rare`, then the part past it, in `found`.
                let old = range.start.min(split)..range.end.min(split);
                let new = range.start.max(split) - split..range.end.max(split) - split;
                let parts = [
                    (&rare.heaps[old.clone()], &rare.values[old]),
                    (&found.heaps[new.clone()], &found.values[new]),
                ];
                for (heaps, heap_values) in parts {
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
        }
        debug_assert!(heap
            .far
            .iter()
            .all(|f| heap.splits.contains(&(heap.h - f.take))));
        // The least common value missing, and the rare values below it that no enumerated
        // option has: one scan of the pairs looks for all of them at once.
        let candidate = (0..len)
            .find(|&v| common[v] == 1 && row[v] != stamp)
            .expect("the tables hold a common value past every option");
        let mut left = 0;
        let below = common[..candidate].iter().zip(&row[..candidate]);
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
        let len = self.pending.len();
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
