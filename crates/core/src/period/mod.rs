//! Periods of nim sequences, proved by a finite check.
//!
//! A take-and-break rule whose moves take at most t tokens and leave at most h heaps has a
//! nim sequence that, once it repeats with period p from n0 on over a long enough stretch,
//! repeats forever. How long is enough ([`Criterion::end`]):
//!
//! * h <= 1 (subtraction games and the like): each value past t is the mex of the t values
//!   before it, so the stretch n0 <= n < n0 + t suffices (max(n0 + t, t + 1) when removing a
//!   whole heap and leaving part of one are not allowed together).
//! * h >= 2 (octal and hex games): the Guy-Smith periodicity theorem, in the form for h
//!   heaps: n0 <= n < h * max(n0, 1) + (h - 1) * p + t. In every option of a heap of n + p the
//!   largest heap left is at least (n + p - t) / h, so taking p off it lands in the checked
//!   range, and the options of n and n + p match one to one. For octal games this is
//!   Winning Ways' 2 n0 + p + t, values compared up to 2 (n0 + p) + t.
//!
//! * Codes that leave three heaps (hex codes) may instead grow arithmetically,
//!   G(n + p) = G(n) + s; when s is a power of two above the first values, [`slices`] proves
//!   it from a window of heaps whose options fill the values below their own.
//!
//! The smallest p whose check passes is the least period, and its n0 the preperiod: a period
//! found this way is a true one, every true period is a multiple of the least, and the
//! preperiod is the same for all of them.

pub mod contraction;
mod limits;
mod repeats;
pub mod report;
pub mod slices;
pub mod state;
pub mod survey;
pub mod values_file;
pub mod words;

use crate::error::Error;
use crate::game::heap::classes::Rarity;
use crate::game::heap::{HeapRule, MoveBounds, Seq, Values};
use crate::game::Nimber;
use crate::progress::Progress;
use crate::with_values;

use limits::valued_in_place;
pub use limits::{check_memory, check_on_disk, check_room, memory_needed};

/// The finite check that proves a period.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "name", rename_all = "kebab-case")]
pub enum Criterion {
    /// No move leaves more than one heap: a window of `take` values repeats.
    Window {
        /// The most tokens a move takes.
        take: usize,
        /// A move's options are heaps of n - k alone, as in subtraction games
        /// ([`MoveBounds::plain_removal`]): the check ends sooner.
        plain_removal: bool,
    },
    /// Moves leave up to `heaps` heaps: the Guy-Smith theorem.
    GuySmith {
        /// The most tokens a move takes.
        take: usize,
        /// The most heaps a move leaves.
        heaps: usize,
    },
    /// Every amount past `window` may be taken and no move splits: the state at heap `at`
    /// recurs at `at + repeat`, with mu grown by `shift` ([`state`]).
    RepeatedState {
        /// Amounts above this may all be taken.
        window: usize,
        /// The heap whose state recurs.
        at: usize,
        /// Heaps until it recurs.
        repeat: usize,
        /// How much mu grows meanwhile.
        shift: Nimber,
    },
    /// Moves take at most `take` tokens and leave at most `heaps` heaps, and from `from` on
    /// the values grow by the power of two `saltus` every `block` heaps, above every value
    /// before `from + block`; the slices below each heap's own are full for the heaps of
    /// `window .. window + 2 block` ([`slices`]). The values read end at `end`.
    Slices {
        /// The most tokens a move takes.
        take: usize,
        /// The most heaps a move leaves.
        heaps: usize,
        /// Where the arithmetic growth starts (n0).
        from: usize,
        /// Heaps per step of growth (the period P).
        block: usize,
        /// The power of two the values grow by each step.
        saltus: Nimber,
        /// The first heap whose slices are checked full.
        window: usize,
        /// Where the values read end.
        end: usize,
    },
}

impl Criterion {
    /// The criterion for a rule's moves.
    pub fn of(bounds: MoveBounds) -> Self {
        if bounds.heaps <= 1 {
            Criterion::Window {
                take: bounds.take,
                plain_removal: bounds.plain_removal,
            }
        } else {
            Criterion::GuySmith {
                take: bounds.take,
                heaps: bounds.heaps,
            }
        }
    }

    /// The end of the stretch n0 <= n < end on which G(n + p) = G(n) must be checked.
    pub fn end(self, n0: usize, p: usize) -> usize {
        match self {
            Criterion::Window {
                take,
                plain_removal: true,
            } => n0 + take,
            Criterion::Window { take, .. } => (n0 + take).max(take + 1),
            Criterion::GuySmith { take, heaps } => heaps * n0.max(1) + (heaps - 1) * p + take,
            // Not a stretch to check but a recurrence; the values it read end there.
            Criterion::RepeatedState { at, repeat, .. } => (at + repeat).max(n0 + p),
            Criterion::Slices { end, .. } => end,
        }
    }

    /// The criterion in words, for the proof.
    pub fn describe(self) -> String {
        match self {
            Criterion::Window { take, .. } => format!(
                "no move leaves more than one heap and none takes more than t = {take} tokens, \
                 so from t on each value is fixed by the t values before it"
            ),
            Criterion::GuySmith { take, heaps } => format!(
                "moves take at most t = {take} tokens and leave at most h = {heaps} heaps \
                 (Guy-Smith periodicity theorem, for h heaps)"
            ),
            Criterion::RepeatedState { window, .. } => format!(
                "every amount above w = {window} may be taken and no move splits a heap, so for \
                 n > w, with mu(n) = mex{{G(m) : m < n - w}}, G(n) - mu(n) is fixed by the \
                 state at n: the values G(m), m < n - w, above mu(n) and the last w values, \
                 each less mu(n) (or marked as below it); and that state fixes the next \
                 state and mu(n + 1) - mu(n)"
            ),
            Criterion::Slices {
                take,
                heaps,
                from,
                block,
                saltus,
                ..
            } => format!(
                "moves take at most t = {take} tokens and leave at most h = {heaps} heaps of \
                 any sizes, and s = {saltus}, a power of two, exceeds every value before \
                 n0 + P (n0 = {from}, P = {block}); so G(x) = s eta(x) + lambda(x), with \
                 eta(x) = floor((x - n0) / P) from n0 + P on (0 before) and lambda < s \
                 repeating with period P from n0, and an option's value is s times the xor \
                 of its heaps' eta plus the xor of their lambda"
            ),
        }
    }

    /// The latest preperiod n0 for which the check of period p ends within `len` values
    /// (`end(n0, p) + p <= len`), if any: values that repeat with period p from there on
    /// prove it. Only for the criteria of a stretch ([`Criterion::Window`],
    /// [`Criterion::GuySmith`]); `None` for the others.
    pub fn latest_start(self, p: usize, len: usize) -> Option<usize> {
        let n0 = match self {
            Criterion::Window {
                take,
                plain_removal,
            } => {
                let least = if plain_removal { 0 } else { take + 1 };
                (least + p <= len).then_some(len.checked_sub(take + p)?)?
            }
            Criterion::GuySmith { take, heaps } => {
                // heaps max(n0, 1) + heaps p + t <= len.
                let room = len.checked_sub(heaps * p + take)? / heaps;
                (room >= 1).then_some(room)?
            }
            _ => return None,
        };
        debug_assert!(self.end(n0, p) + p <= len && self.end(n0 + 1, p) + p > len);
        Some(n0)
    }

    /// The end of the checked stretch as a formula in n0, p and t, e.g. `2 max(n0, 1) + p + t`.
    pub fn formula(self) -> String {
        match self {
            Criterion::Window {
                plain_removal: true,
                ..
            } => "n0 + t".into(),
            Criterion::Window { .. } => "max(n0 + t, t + 1)".into(),
            Criterion::GuySmith { heaps, .. } => {
                let p = if heaps == 2 {
                    "p".to_string()
                } else {
                    format!("{} p", heaps - 1)
                };
                format!("{heaps} max(n0, 1) + {p} + t")
            }
            Criterion::RepeatedState { .. } => "the repeated state".into(),
            Criterion::Slices { .. } => "max(A + 2 P, n0 + 2 P, n0 + P + t, t + 1)".into(),
        }
    }
}

/// A proved period: G(n + period) = G(n) + saltus for every n >= preperiod (saltus 0: plain
/// periodicity).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Period {
    /// The first heap from which the values repeat.
    pub preperiod: usize,
    /// The length of the repetition, in heaps (at least 1).
    pub period: usize,
    /// What the values grow by each period (0: plain periodicity).
    pub saltus: Nimber,
    /// The finite check that proves it.
    pub criterion: Criterion,
    /// The largest heap whose value the check compared.
    pub checked_up_to: usize,
}

/// The least period that `values` (G(0), G(1), ...) prove under `criterion`, if any.
pub fn prove(values: &[Nimber], criterion: Criterion) -> Option<Period> {
    examine(values, criterion).0
}

/// A repetition counts as a candidate for the next round's length once it holds over this
/// many heaps, or over a quarter of the values when they are fewer than four times that (the
/// short first rounds: Kayles is proved with 168 values, the round after 128 asks for them).
const CANDIDATE_MATCH: usize = 64;

/// The least proved period, if any; otherwise how many values would settle the least period
/// that repeats over [`CANDIDATE_MATCH`] heaps at the end of `values` (a hint: more values
/// may move its preperiod).
fn examine<'a, S: Seq<'a>>(values: S, criterion: Criterion) -> (Option<Period>, Option<usize>) {
    let len = values.len();
    // A period p is proved once the values repeat with it from its latest start n0 on (the
    // check then ends within the values): the last len - p - n0 values equal those p before
    // them. That count is the same for every p under these criteria, so one rolling hash
    // of a window sliding back finds the least such p in time linear in the values, with no
    // memory per period (a count per period was 2 bytes a heap).
    let need = |p: usize| criterion.latest_start(p, len).map(|n0| len - p - n0);
    let mut p = 1;
    while let Some(n) = need(p) {
        let mut last = p;
        while need(last + 1) == Some(n) {
            last += 1;
        }
        if let Some(p) = repeats::least_suffix_repeat(values, n, p..last + 1) {
            // n0: where the repetition with period p starts, as far as the values show.
            let matched = (0..len - p)
                .rev()
                .take_while(|&i| values.at(i) == values.at(i + p))
                .count();
            let n0 = len - p - matched;
            let end = criterion.end(n0, p);
            assert!(end + p <= len, "period {p} repeats far enough to be proved");
            let period = Period {
                preperiod: n0,
                period: p,
                saltus: 0,
                criterion,
                checked_up_to: end + p - 1,
            };
            return (Some(period), None);
        }
        p = last + 1;
    }
    // Nothing proved: the least period that repeats over the last CANDIDATE_MATCH heaps at
    // least is worth values enough to check it.
    let least = (len / 4).clamp(1, CANDIDATE_MATCH);
    let hint = repeats::first_repeat_from(values, 1, least)
        .map(|(p, matched)| criterion.end(len - p - matched, p) + p);
    (None, hint)
}

/// The least divisor d of `repeat` with G(n + d) - G(n) constant over from <= n < from +
/// repeat, that constant, and how far below `from` the relation goes on holding: for values
/// whose differences G(n + repeat) - G(n) are proved constant from `from` on, the least
/// arithmetic period (periods are closed under gcd, so it divides `repeat`; the differences
/// G(n + d) - G(n) repeat with period `repeat`, so one stretch decides each divisor) and its
/// preperiod. Returns (preperiod, period, saltus).
fn least_divisor(values: &[Nimber], from: usize, repeat: usize) -> (usize, usize, Nimber) {
    let diff = |n: usize, d: usize| values[n + d] as i64 - values[n] as i64;
    let (period, step) = (1..=repeat)
        .filter(|d| repeat.is_multiple_of(*d))
        .find_map(|d| {
            let step = diff(from, d);
            (from..from + repeat)
                .all(|n| diff(n, d) == step)
                .then_some((d, step))
        })
        .expect("the repeat itself is a period");
    let mut preperiod = from;
    while preperiod > 0 && diff(preperiod - 1, period) == step {
        preperiod -= 1;
    }
    let saltus = Nimber::try_from(step).expect("the values grow by a share of the repeat's");
    (preperiod, period, saltus)
}

/// A repetition the values show but nothing proves: G(n + period) = G(n) + saltus for
/// preperiod <= n < the values' end (saltus 0: plain periodicity).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Observed {
    /// The first heap from which the values repeat.
    pub preperiod: usize,
    /// The length of the repetition, in heaps (at least 1).
    pub period: usize,
    /// What the values grow by each period (0: plain periodicity).
    pub saltus: Nimber,
}

/// The shortest (arithmetic) period that holds over at least the last half of `values` and
/// repeats at least three times, if any.
pub fn observe<'a, S: Seq<'a>>(values: S) -> Option<Observed> {
    let len = values.len();
    let g = |n: usize| values.at(n);
    for p in 1..=len / 3 {
        let saltus = g(len - 1).wrapping_sub(g(len - 1 - p));
        let mut n0 = len - p;
        while n0 > 0 && g(n0 - 1).wrapping_add(saltus) == g(n0 - 1 + p) {
            n0 -= 1;
        }
        if n0 <= len / 2 && len - n0 >= 3 * p {
            return Some(Observed {
                preperiod: n0,
                period: p,
                saltus,
            });
        }
    }
    None
}

/// What `grundy period` establishes for a rule from the values up to some heap.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Analysis {
    /// G(0), ..., G(computed - 1), held compactly.
    pub values: Values,
    /// The proved period, when the values settle it.
    pub proved: Option<Period>,
    /// When nothing is proved: a repetition the values show.
    pub observed: Option<Observed>,
    /// When nothing can be proved for this rule, why.
    pub no_criterion: Option<&'static str>,
    /// For rules valued by the rare/common technique: the rare heaps among those valued.
    pub rarity: Option<Rarity>,
    /// Whether the run was stopped (a time limit) before the values settled anything or
    /// reached the largest heap asked for.
    pub stopped: bool,
}

/// Heaps the first round values; each further round doubles it. Small, so that a code proved
/// within a few dozen heaps is valued no further (the definition's rounds cost the square of
/// their heaps: `octal:0.53`, proved with 42 values, took 27 us with a first round of 256
/// and takes 4 us).
const FIRST_ROUND: usize = 16;

/// The largest heap [`analyse`] values: 2^32 (heaps 0 to 2^32 inclusive). A nim sequence is
/// one value for each heap, so it has a limit of its own, apart from the heap games' positions
/// ([`crate::catalog::spec::MAX_HEAP`], where sums of heaps are tabled). Heap numbers are
/// `usize` throughout the valuation, the scan notes the smaller heap of a split (at most half
/// of this) in 32 bits, and values files count in 64 bits; a run this long is still refused
/// when its values would not fit in memory ([`check_memory`]).
pub const MAX_HEAP: usize = (u32::MAX as usize).saturating_add(1);

/// Computes the nim sequence of `rule`, doubling its length from 256 heaps up to `max_heap`
/// (or extending it just as far as a candidate period's check needs)
/// until a period is proved (or, for rules no finite check applies to, to `max_heap`).
/// `progress` hears of the heaps valued.
pub fn analyse(rule: &dyn HeapRule, max_heap: usize, progress: &dyn Progress) -> Analysis {
    analyse_until(rule, max_heap, progress, &crate::game::heap::never)
}

/// [`analyse`], stopped early when `stop` (asked before each heap is valued) says so: the
/// values computed by then are examined as a last round, and [`Analysis::stopped`] is set
/// unless they prove a period.
pub fn analyse_until(
    rule: &dyn HeapRule,
    max_heap: usize,
    progress: &dyn Progress,
    stop: &dyn Fn() -> bool,
) -> Analysis {
    analyse_from(rule, Values::new(), max_heap, progress, stop, None).expect("nothing is saved")
}

/// A file that a long run keeps its values in as it goes ([`values_file`]), so that a run
/// stopped (by a time limit, a signal or a crash) resumes from it.
#[derive(Clone, Copy, Debug)]
pub struct Checkpoint<'a> {
    /// The file: read first when it exists, then saved.
    pub path: &'a std::path::Path,
    /// How often the values are saved while heaps are valued (and once at the end).
    pub every: std::time::Duration,
}

/// Where a long run keeps its values: in a file mapped into memory rather than in memory,
/// and in a checkpoint file as they are computed.
#[derive(Clone, Copy, Debug, Default)]
pub struct Keeping<'a> {
    /// The directory of the file holding the values ([`Values::on_disk`]), when they are not
    /// held in memory ([`check_on_disk`] says whether the rule allows it).
    pub disk: Option<&'a std::path::Path>,
    /// The checkpoint file, when there is one.
    pub checkpoint: Option<Checkpoint<'a>>,
}

/// [`analyse_until`], with the values held where `keeping` says: on disk, and resumed from
/// the values in the checkpoint's file when it exists (they must be `rule`'s), saved there
/// every so often and at the end. The values, and so the answer, are those of a run straight
/// through: each round examines the values up to its own end, as such a run would, however
/// many were read.
pub fn analyse_kept(
    rule: &dyn HeapRule,
    max_heap: usize,
    progress: &dyn Progress,
    stop: &dyn Fn() -> bool,
    keeping: &Keeping,
) -> Result<Analysis, Error> {
    let room = match keeping.disk {
        Some(dir) => {
            valued_in_place(rule)?;
            Values::on_disk(dir).map_err(|e| Error::io(dir, e))?
        }
        None => Values::new(),
    };
    let Some(checkpoint) = &keeping.checkpoint else {
        return analyse_from(rule, room, max_heap, progress, stop, None);
    };
    let path = checkpoint.path;
    let mut start = match path.exists() {
        true => {
            let kept = values_file::read_into(path, room)?;
            if kept.game != rule.name() {
                return Err(Error::Data {
                    path: path.to_path_buf(),
                    msg: format!("a checkpoint of {}, not of {}", kept.game, rule.name()),
                });
            }
            kept.values
        }
        false => room,
    };
    start.truncate(max_heap + 1);
    analyse_from(rule, start, max_heap, progress, stop, Some(checkpoint))
}

/// The rounds of [`analyse_until`] from the values `values` (at least G(0)), saving them to
/// `checkpoint` when there is one.
fn analyse_from(
    rule: &dyn HeapRule,
    mut values: Values,
    max_heap: usize,
    progress: &dyn Progress,
    stop: &dyn Fn() -> bool,
    checkpoint: Option<&Checkpoint>,
) -> Result<Analysis, Error> {
    let bounds = rule.bounds();
    let criterion = bounds.map(Criterion::of);
    let open_tail = rule.open_tail();
    let save = |values: &Values| match checkpoint {
        Some(c) => values_file::save(c.path, rule.name(), values),
        None => Ok(()),
    };
    let mut upto = FIRST_ROUND.min(max_heap);
    // When the values are next saved: every so often across rounds, not from each round's
    // start (rounds shorter than that would never be saved).
    let mut due = checkpoint.map(|c| std::time::Instant::now() + c.every);
    progress.start("heaps valued", max_heap as u64 + 1);
    progress.advance(values.len() as u64);
    if values.is_empty() {
        rule.extend_values(&mut values, 0, &crate::game::heap::never);
    }
    let (stopped, seen) = loop {
        if values.len() <= upto {
            let before = values.len();
            // Room for exactly this round (not all of `max_heap`'s at once: a short run with a
            // far limit would ask for memory it never uses).
            let more = upto + 1 - values.len();
            values
                .try_reserve_exact(more)
                .map_err(|e| values_file::room_error(&values, more, e))?;
            extend_saving(rule, &mut values, upto, stop, checkpoint, &save, &mut due)?;
            progress.advance((values.len() - before) as u64);
        }
        let stopped = values.len() <= upto;
        // A resumed run holds values past this round's end: the round reads as far as its end.
        let seen = values.len().min(upto + 1);
        let round = || values.range_to_vec(0..seen);
        let mut hint = None;
        let proved = if let (Some(c), Some(b)) = (criterion, bounds) {
            let (proved, wanted) = with_values!(values, v => examine(v.prefix(seen), c));
            hint = wanted;
            // A code that leaves three heaps may grow arithmetically instead: the slices'
            // check. (Finite octal codes never do: Horrocks & Nowakowski, INTEGERS 3, 2003.)
            proved.or_else(|| {
                if b.heaps < 3 {
                    return None;
                }
                let grows = slices::prove(rule, b, &round(), stop);
                hint = match (hint, grows.wanted) {
                    (Some(a), Some(w)) => Some(a.min(w)),
                    (a, w) => a.or(w),
                };
                grows.proved
            })
        } else {
            open_tail.as_ref().and_then(|t| state::prove(&round(), t))
        };
        if let Some(proved) = proved {
            progress.finish();
            save(&values)?;
            values.truncate(seen);
            return Ok(Analysis {
                rarity: rule.rarity(&values),
                values,
                proved: Some(proved),
                observed: None,
                no_criterion: None,
                stopped: false,
            });
        }
        if stopped || upto >= max_heap {
            break (stopped, seen);
        }
        // Twice as far, or just far enough for a candidate period's check when that is less.
        let next = match hint {
            Some(len) if len - 1 > upto && len - 1 < 2 * upto => len - 1,
            _ => 2 * upto,
        };
        upto = next.min(max_heap);
    };
    progress.finish();
    save(&values)?;
    values.truncate(seen);
    Ok(Analysis {
        rarity: rule.rarity(&values),
        observed: with_values!(values, v => observe(v)),
        values,
        proved: None,
        no_criterion: (criterion.is_none() && open_tail.is_none()).then_some(
            "no finite check is known to prove a period of this rule (a move may take \
             unboundedly many tokens and split heaps, or the rule is not take-and-break)",
        ),
        stopped,
    })
}

/// Extends `values` up to G(upto) (less when `stop` says so), saving them to `checkpoint`
/// when `due` and then every so often on the way.
fn extend_saving(
    rule: &dyn HeapRule,
    values: &mut Values,
    upto: usize,
    stop: &dyn Fn() -> bool,
    checkpoint: Option<&Checkpoint>,
    save: &dyn Fn(&Values) -> Result<(), Error>,
    due: &mut Option<std::time::Instant>,
) -> Result<(), Error> {
    let (Some(every), Some(at)) = (checkpoint.map(|c| c.every), due.as_mut()) else {
        rule.extend_values(values, upto, stop);
        return Ok(());
    };
    loop {
        let until = *at;
        rule.extend_values(values, upto, &|| {
            stop() || std::time::Instant::now() >= until
        });
        if values.len() > upto || stop() {
            return Ok(());
        }
        save(values)?;
        *at = std::time::Instant::now() + every;
    }
}

#[cfg(test)]
mod tests;
