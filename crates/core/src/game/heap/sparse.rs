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
//! heap's. The mask (with the heap's parity, where the splits allow it: [`super::classes`])
//! decides only the speed, never the result: it is chosen on a prefix to make rare heaps
//! fewest, and chosen again when they grow many. It serves octal codes with splits into two
//! heaps and Grundy's game.

use super::far::Begun;
use super::scan::PARALLEL_FROM;
use super::sieve::{Ended, Sieve};
use super::{Seq, Values, ESCAPE};
use crate::game::NimSet;
use crate::game::Nimber;

/// Heaps valued by the definition before a mask is chosen.
const PREFIX: usize = 2048;

/// The mask is chosen again when the rare heaps pass this share of all heaps (1 / RECHOOSE)
/// and have doubled since it was last chosen.
pub(super) const RECHOOSE: usize = 16;

/// Bytes a heap costs this technique beyond its value's byte ([`Values`]): its share of the
/// rare heaps' lists (16 bytes a rare heap) and of the values kept apart (12 bytes each, see
/// [`super::large::LARGE_SHARE`]). Both are far fewer than one heap in a hundred wherever
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
pub(super) trait Splits: Sync {
    /// Inserts into `plain` the values of heap `h`'s options that are not splits and pushes
    /// onto `splits` the totals it may split, given the values below `h`.
    fn options<'a, S: Seq<'a>>(
        &self,
        h: usize,
        values: S,
        plain: &mut NimSet,
        splits: &mut Vec<usize>,
    );
    /// Whether the two heaps of a split must differ (Grundy's game).
    fn unequal(&self) -> bool;
    /// A heap `from` and amounts k such that, for every heap h >= `from`, the totals `options`
    /// pushes onto `splits` are exactly h - k for these k, in this order: the pairs of a block
    /// of consecutive heaps are then read together ([`Sieve::begin`]).
    fn split_takes(&self) -> (usize, Vec<usize>);
    /// The parity of every amount a split takes, when they all have one (below `from`, the
    /// totals are h - k for some of the amounts): the heaps' parity may then join the mask
    /// ([`super::classes`]).
    fn split_parity(&self) -> Option<usize> {
        let (_, takes) = self.split_takes();
        let parity = takes.first()? & 1;
        takes.iter().all(|k| k & 1 == parity).then_some(parity)
    }
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
    /// Reads of pairs (rare heaps times rows) from which a block's shared reads are made
    /// while the block before it is valued ([`AHEAD_FROM`]; 0 in tests, for every block).
    ahead_from: usize,
    /// Whether the reads are made ahead on one thread too (in tests). A run on one thread
    /// makes them just before the block instead, into the table the block before has just
    /// left in the cache: Grundy's game to 10^7 took 43 s read ahead, 35 s not.
    ahead_alone: bool,
    /// When blocks are valued ahead of their checks ([`Sieve::speculate`]).
    speculate: Speculate,
    /// Blocks of each stretch valued ahead (`None`: as many as [`stretch`] says; a number in
    /// tests, for long stretches among many rare heaps).
    stretch: Option<usize>,
}

/// When [`extend_reading`] values blocks ahead of their checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
enum Speculate {
    /// On more than one thread, once no rare heap was found for [`QUIET_BLOCKS`] blocks.
    Quiet,
    /// Every block, on any number of threads (in tests).
    Always,
}

/// Blocks without a rare heap after which blocks are valued ahead of their checks: each rare
/// heap found so costs the candidates of up to two stretches, found again.
const QUIET_BLOCKS: usize = 4 * STRETCH.start;

/// Blocks valued ahead at a time, while the stretch before is checked: a sixteenth of the
/// blocks since the last rare heap, within these bounds, so that a rare heap found costs at
/// most an eighth of the quiet heaps before it. A stretch is handed to the other thread at a
/// cost of microseconds and a block of Grundy's game takes tens, but the threads also wait
/// for each other at each hand-over: Grundy's game to 2 * 10^7 heaps took 10.0-10.15 s in
/// stretches of 16 blocks, 9.66-9.80 s in these.
const STRETCH: std::ops::Range<usize> = 16..256;

/// The blocks of the next stretch, `since` blocks after the last rare heap.
fn stretch(since: usize) -> usize {
    (since / 16).clamp(STRETCH.start, STRETCH.end)
}

/// Reads of pairs (rare heaps times rows) from which a block's shared reads are made ahead,
/// as a task of their own: below this they cost less than handing them to a second thread.
/// (At 2^12, `octal:0.56`, 45 rare heaps, 5 760 reads a block, took 0.56-0.67 s of CPU on
/// two threads against 0.45-0.48 on one; Grundy's game reads 40 000 to 80 000 a block.)
const AHEAD_FROM: usize = 1 << 15;

/// How the blocks of [`extend_reading`] went: what the tests check was exercised.
#[derive(Clone, Copy, Debug, Default)]
struct Blocks {
    /// Blocks begun from the reads made while the block before was valued.
    read_ahead: usize,
    /// Reads made ahead and dropped: the block before ended early, or the mask was chosen
    /// again.
    dropped: usize,
    /// Times the tables were widened after a block.
    widened: usize,
    /// Times the mask was chosen again.
    rechosen: usize,
    /// Blocks valued under classes that count the heaps' parity.
    by_parity: usize,
    /// Stretches of blocks valued ahead of their checks.
    speculated: usize,
    /// Checks that found a rare heap among the heaps valued ahead.
    cut: usize,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            min_width: 1,
            parallel_from: PARALLEL_FROM,
            escape_from: ESCAPE,
            ahead_from: AHEAD_FROM,
            ahead_alone: false,
            speculate: Speculate::Quiet,
            stretch: None,
        }
    }
}

/// `extend`, as `tuning` says.
///
/// Heaps are valued in blocks of consecutive heaps: the pairs of a rare heap with a heap
/// below the block are read for the whole block at once ([`Sieve::begin`]), and each heap
/// then adds the pairs that reach into the block, finds its candidate and scans, in order,
/// exactly as alone. While a block is valued, another thread reads those pairs for the next
/// block whose other heaps lie below this one ([`Sieve::value_block`]); the next block adds
/// the rest itself. The reads are used only when the block before ended whole with the same
/// tables and mask, else made again: the values are those of one thread, on any number. (On
/// one thread each block's reads are made just before it, unless [`Tuning`] says otherwise.)
///
/// Where no rare heap was found for a while, on more than one thread, stretches of blocks are
/// valued ahead of their checks instead ([`Sieve::speculate`]): each heap gets its candidate,
/// and the stretch is checked while the next one is valued. A stretch waiting for its check is
/// checked before anything else happens to the values, and before this returns.
fn extend_reading<R: Splits + super::HeapRule>(
    rule: &R,
    values: &mut Values,
    n: usize,
    tuning: Tuning,
    stop: &dyn Fn() -> bool,
) -> Blocks {
    let mut blocks = Blocks::default();
    if values.len() <= n.min(PREFIX) || values.width() < tuning.min_width {
        // Room for the heaps to value at once (not grown as they are).
        let mut wide = Vec::with_capacity(n.min(PREFIX) + 1);
        values.append_to(&mut wide);
        rule.extend_by_definition(&mut wide, n.min(PREFIX), stop);
        *values = match tuning.escape_from {
            // In the same room (on disk, when the values are held there).
            ESCAPE if values.width() >= tuning.min_width => {
                // The values held are the first of `wide`: only the new ones are added.
                let held = values.len();
                values.extend_from_slice(&wide[held..]);
                std::mem::take(values)
            }
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
        return blocks;
    }
    let unequal = rule.unequal();
    let (from, takes) = rule.split_takes();
    let takes_at = |start: usize| if start >= from { &takes[..] } else { &[][..] };
    let threads = rayon::current_num_threads();
    let mut sieve = Sieve::new(values, rule.split_parity(), tuning.parallel_from);
    let mut fresh = Vec::new();
    // The next block's shared reads, made while the last block was valued.
    let mut ahead: Option<Begun> = None;
    loop {
        let start = values.len();
        let quiet = start >= sieve.last_rare() + QUIET_BLOCKS * sieve.rows;
        let speculate = match tuning.speculate {
            Speculate::Quiet => threads > 1 && quiet,
            Speculate::Always => true,
        };
        // Values are final, and another block is valued otherwise, only once checked.
        let done = start > n || stop();
        if sieve.ahead() && (done || !speculate) {
            blocks.cut += usize::from(sieve.check_ahead(rule, values, unequal));
            continue;
        }
        if done {
            break;
        }
        if !sieve.ahead() && sieve.rechoose_if_crowded(values) {
            // Read with the rare heaps of the mask before.
            blocks.rechosen += 1;
            blocks.dropped += usize::from(ahead.take().is_some());
        }
        blocks.by_parity += usize::from(sieve.by_parity());
        if speculate {
            blocks.dropped += usize::from(ahead.take().is_some());
            blocks.speculated += 1;
            // The amounts are the same for the whole stretch (its first block's, or none).
            let end = match start < from {
                true => from.min(start + sieve.rows),
                false => {
                    let since = (start - sieve.last_rare()) / sieve.rows;
                    start + tuning.stretch.unwrap_or_else(|| stretch(since)) * sieve.rows
                }
            };
            let heaps = start..end.min(n + 1);
            let takes = takes_at(start);
            let bits = sieve.bits();
            let ended = sieve.speculate(rule, values, &mut fresh, heaps, takes, unequal, stop);
            blocks.cut += usize::from(ended == Ended::Cut);
            // (A value that passed the tables may have been cut since.)
            blocks.widened += usize::from(sieve.bits() > bits);
            continue;
        }
        let heaps = start..(start + sieve.rows).min(n + 1);
        let block = match ahead.take() {
            Some(read) if read.heaps == heaps => {
                blocks.read_ahead += 1;
                sieve.begin_read(read)
            }
            read => {
                blocks.dropped += usize::from(read.is_some());
                sieve.begin(values, heaps, takes_at(start), unequal)
            }
        };
        let next = block.heaps.end..(block.heaps.end + sieve.rows).min(n + 1);
        let next_takes = takes_at(next.start);
        let pairs = sieve.rare_count() * next.len() * next_takes.len();
        let worth = pairs >= tuning.ahead_from && (tuning.ahead_alone || threads > 1);
        let read_ahead = (!next.is_empty() && worth).then_some((next, next_takes));
        let (ended, read) =
            sieve.value_block(rule, values, &mut fresh, &block, unequal, stop, read_ahead);
        blocks.widened += usize::from(ended == Ended::Widened);
        // A block cut short (a table widened, or a stop) makes the next start elsewhere or
        // with other tables: its reads go.
        ahead = match ended {
            Ended::Whole => read,
            _ => {
                blocks.dropped += usize::from(read.is_some());
                None
            }
        };
    }
    blocks
}

#[cfg(test)]
#[path = "sparse_tests.rs"]
mod tests;
