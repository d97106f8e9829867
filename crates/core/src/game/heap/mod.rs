//! Heap games: positions are heaps of tokens, a move plays on one heap (taking tokens, and
//! perhaps splitting what is left), and a position's value is the xor of its heaps' values,
//! the game's *nim sequence*.
//!
//! A rule is a [`HeapRule`]: [`TakeBreak`] covers octal, hex and subtraction codes,
//! [`GrundysGame`] Grundy's game. [`HeapGame`] plays sums of heaps under a rule, for the
//! search engines; [`nim_sequence`] values single heaps directly.

mod bit_rows;
mod check;
pub mod classes;
mod definition;
mod far;
mod fresh;
pub(crate) mod grundys_game;
mod large;
mod room;
mod scan;
mod scan_simd;
mod sieve;
pub mod sparse;
pub(crate) mod takebreak;
mod values;

use std::sync::RwLock;

use smallvec::SmallVec;

use super::{Game, MoveOrder, Nimber, Parts};
use crate::game::NimSet;

pub use grundys_game::GrundysGame;
pub use large::Large;
pub use takebreak::TakeBreak;
pub use values::{width_of, Bytes, Seq, Slice, Value, Values, ESCAPE};

/// How one heap may be played.
pub trait HeapRule: Send + Sync + std::fmt::Debug {
    /// The spec as typed, e.g. `octal:0.77`.
    fn name(&self) -> &str;

    /// Calls `visit` with the heaps each move from one heap of `n` leaves: none, one or more,
    /// each of at least one token.
    fn moves(&self, n: u32, visit: &mut dyn FnMut(&[u32]));

    /// How many times [`HeapRule::moves`] calls `visit` for a heap of `n`, without listing
    /// the moves: a count that bounds a value must not cost what the moves would (a heap of
    /// 100000 under hex:0.9 has 833 million). The default counts the visits; a rule with a
    /// closed form says so.
    fn move_count(&self, n: u32) -> u64 {
        let mut count = 0u64;
        self.moves(n, &mut |_| count += 1);
        count
    }

    /// Inserts into `seen` the value of every option of a heap of `n`, given the values of
    /// the smaller heaps (`values[m]` for m < n). The default plays [`HeapRule::moves`].
    fn option_values(&self, n: usize, values: &[Nimber], seen: &mut NimSet) {
        // [`HeapRule::moves`] names heaps in 32 bits: a rule valued past them lists its
        // options itself (both rules here do), and this default refuses rather than wraps.
        let n = u32::try_from(n).expect("a heap past 32 bits has its rule's own option_values");
        self.moves(n, &mut |heaps| {
            seen.insert(heaps.iter().fold(0, |x, &h| x ^ values[h as usize]));
        });
    }

    /// Extends `values` (G(0), ... as far as computed) up to G(n), or less when `stop` (asked
    /// before each heap) says to stop: a time limit ends a long run with the values so far.
    /// The default values each heap by [`HeapRule::option_values`]; a rule may know a faster
    /// way.
    fn extend(&self, values: &mut Vec<Nimber>, n: usize, stop: &dyn Fn() -> bool) {
        self.extend_by_definition(values, n, stop);
    }

    /// Extends `values` up to G(n) (less when `stop` says so), each heap the mex of its
    /// options: [`by_definition`], unless the rule knows a faster loop.
    fn extend_by_definition(&self, values: &mut Vec<Nimber>, n: usize, stop: &dyn Fn() -> bool) {
        by_definition(self, values, n, stop);
    }

    /// [`HeapRule::extend`] on values held compactly ([`Values`]): what a long run keeps. The
    /// default extends a copy at full width; the rare/common technique works on the compact
    /// values themselves, so that a run holds about a byte or two a heap.
    fn extend_values(&self, values: &mut Values, n: usize, stop: &dyn Fn() -> bool) {
        let mut wide = values.to_vec();
        self.extend(&mut wide, n, stop);
        *values = Values::from_slice(&wide);
    }

    /// Bytes [`HeapRule::extend`] holds to value heaps 0..=n: the values, 4 bytes a heap, and
    /// whatever its method keeps beside them. The default keeps nothing more.
    fn valuation_bytes(&self, n: usize) -> u64 {
        4 * (n as u64 + 1)
    }

    /// Bytes [`HeapRule::extend_values`] holds to value heaps 0..=n. The default extends a
    /// copy at full width: [`HeapRule::valuation_bytes`] and the compact values beside it (a
    /// byte a heap at least).
    fn compact_valuation_bytes(&self, n: usize) -> u64 {
        self.valuation_bytes(n).saturating_add(n as u64 + 1)
    }

    /// Whether [`HeapRule::extend_values`] values heaps in the compact values themselves,
    /// about a byte a value and no copy at full width, so that they may be held on disk
    /// ([`Values::on_disk`]): the rare/common technique does.
    fn values_in_place(&self) -> bool {
        self.sparse()
    }

    /// Whether [`HeapRule::extend`] uses the rare/common technique ([`sparse`]), so that the
    /// rare heaps are worth reporting.
    fn sparse(&self) -> bool {
        false
    }

    /// The rare heaps of `values` under the classes that make them fewest, when
    /// [`HeapRule::sparse`].
    fn rarity(&self, _values: &Values) -> Option<classes::Rarity> {
        None
    }

    /// The amounts, when the rule is a finite subtraction set (for its contractions).
    fn subtraction_set(&self) -> Option<Vec<usize>> {
        None
    }

    /// What a finite periodicity check needs to know of the moves, or `None` when no such
    /// check applies (a move may take unboundedly many tokens, or the rule is not
    /// take-and-break). `Some` promises a take-and-break code: whether a move may take k
    /// tokens and leave h heaps depends on k and h alone, never on the heaps' sizes, which
    /// the checks' proofs rely on (they move tokens between the heaps an option leaves).
    fn bounds(&self) -> Option<MoveBounds>;

    /// For rules that take any amount past some w and never split (all-but subtraction
    /// sets): w and the amounts up to it, which the repeated-state proof of an arithmetic
    /// period needs ([`crate::period::state`]).
    fn open_tail(&self) -> Option<OpenTail> {
        None
    }
}

/// The moves of a rule with an open tail: from a heap of n > `window`, every amount above
/// `window` may be taken (leaving one heap, or none when it is all of n), and of the amounts
/// up to `window` those in `leave_one`; no move splits a heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenTail {
    pub(crate) window: usize,
    pub(crate) leave_one: Vec<usize>,
}

/// The reach of a take-and-break rule's moves, which sets how far a period must be checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBounds {
    /// The most tokens a move takes (t).
    pub take: usize,
    /// The most heaps a move leaves.
    pub heaps: usize,
    /// Whether removing a whole heap of k and leaving n - k of it are allowed together, for
    /// every k (subtraction games): the options are then "a heap of n - k >= 0" alone.
    pub plain_removal: bool,
}

/// G(0), ..., G(n) of a rule, computed the rule's fastest way ([`HeapRule::extend`]).
pub fn nim_sequence(rule: &dyn HeapRule, n: usize) -> Vec<Nimber> {
    let mut values = Vec::with_capacity(n + 1);
    rule.extend(&mut values, n, &never);
    values
}

/// The `stop` of a run that goes to the end: [`HeapRule::extend`] without a time limit.
pub fn never() -> bool {
    false
}

/// Extends `values` up to G(n), each heap the mex of its options (less when `stop` says so).
pub fn by_definition<R: HeapRule + ?Sized>(
    rule: &R,
    values: &mut Vec<Nimber>,
    n: usize,
    stop: &dyn Fn() -> bool,
) {
    values.reserve_exact((n + 1).saturating_sub(values.len()));
    // One set for every heap: its words stay allocated between them.
    let mut seen = NimSet::new();
    while values.len() <= n && !stop() {
        seen.clear();
        rule.option_values(values.len(), values, &mut seen);
        values.push(seen.mex());
    }
}

/// A sum of heaps under one rule. Positions are heap sizes; a heap of 0 is no heap.
#[derive(Debug)]
pub struct HeapGame {
    rule: Box<dyn HeapRule>,
    /// The nim sequence as far as it was needed ([`HeapGame::value`]).
    sequence: RwLock<Vec<Nimber>>,
}

/// A position of a heap game: the sizes of its heaps.
pub type Heaps = SmallVec<[u32; 8]>;

impl HeapGame {
    pub(crate) fn new(rule: Box<dyn HeapRule>) -> Self {
        HeapGame {
            rule,
            sequence: RwLock::new(Vec::new()),
        }
    }

    /// The rule every heap is played by.
    pub fn rule(&self) -> &dyn HeapRule {
        self.rule.as_ref()
    }

    /// G(n) for one heap, from the nim sequence (computed up to n once, then kept).
    pub fn value(&self, n: u32) -> Nimber {
        let n = n as usize;
        if let Some(&v) = self.sequence.read().expect("no panic holds it").get(n) {
            return v;
        }
        let mut seq = self.sequence.write().expect("no panic holds it");
        // Room for exactly the values wanted: growing by doubling would hold half as much
        // again while it copies ([`HeapGame::check_memory`] counts the values once).
        let more = (n + 1).saturating_sub(seq.len());
        seq.reserve_exact(more);
        self.rule.extend(&mut seq, n, &never);
        seq[n]
    }

    /// Refuses to value heaps up to `n` when that needs more than `limit` bytes
    /// ([`HeapRule::valuation_bytes`]), before any is valued.
    pub fn check_memory(&self, n: usize, limit: u64) -> Result<(), crate::error::Error> {
        let bytes = self.rule.valuation_bytes(n);
        if bytes <= limit {
            return Ok(());
        }
        use crate::units::format_bytes;
        Err(crate::error::Error::limit(
            crate::error::Setting::MemoryLimit,
            format!(
                "valuing the heaps of {} up to {n} needs {}; the memory limit is {}",
                self.rule.name(),
                format_bytes(bytes),
                format_bytes(limit)
            ),
        ))
    }

    /// G(0), ..., G(n) (computed as far as needed).
    pub fn sequence(&self, n: usize) -> Vec<Nimber> {
        self.value(n as u32);
        self.sequence.read().expect("no panic holds it")[..=n].to_vec()
    }

    /// The value of a sum of heaps: the xor of theirs.
    pub fn nimber(&self, heaps: &[u32]) -> Nimber {
        if let Some(&max) = heaps.iter().max() {
            self.value(max);
        }
        heaps.iter().fold(0, |x, &h| x ^ self.value(h))
    }
}

impl Game for HeapGame {
    type Position = Heaps;

    fn moves(&self, p: &Heaps, order: MoveOrder, out: &mut Vec<Heaps>) {
        let start = out.len();
        for (i, &h) in p.iter().enumerate() {
            if h == 0 || p[..i].contains(&h) {
                // An equal heap earlier in the list has the same moves.
                continue;
            }
            self.rule.moves(h, &mut |left| {
                let mut q: Heaps = p
                    .iter()
                    .copied()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, x)| x)
                    .collect();
                q.extend(left.iter().copied());
                q.retain(|x| *x > 0);
                q.sort_unstable();
                out.push(q);
            });
        }
        if order == MoveOrder::Heuristic {
            // Fewest tokens left first: small subtrees first.
            out[start..].sort_by_key(|q| q.iter().map(|&x| x as u64).sum::<u64>());
        }
    }

    /// The moves of each distinct heap, counted by the rule without listing them.
    fn move_count(&self, p: &Heaps) -> usize {
        let count = p
            .iter()
            .enumerate()
            .filter(|&(i, &h)| h > 0 && !p[..i].contains(&h))
            .fold(0u64, |c, (_, &h)| c.saturating_add(self.rule.move_count(h)));
        usize::try_from(count).unwrap_or(usize::MAX)
    }

    fn split(&self, p: &Heaps) -> Option<Parts<Heaps>> {
        let heaps: Parts<Heaps> = p
            .iter()
            .filter(|&&h| h > 0)
            .map(|&h| Heaps::from_slice(&[h]))
            .collect();
        (heaps.len() > 1).then_some(heaps)
    }

    fn canonicalize(&self, p: &mut Heaps) {
        p.retain(|x| *x > 0);
        p.sort_unstable();
    }

    fn known_value(&self, p: &Heaps) -> Option<Nimber> {
        // A lone heap is the nim sequence's business.
        match p.iter().filter(|&&h| h > 0).count() {
            0 => Some(0),
            1 => Some(self.nimber(p)),
            _ => None,
        }
    }

    fn weight(&self, p: &Heaps) -> u64 {
        p.iter().map(|&h| h as u64).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sg::naive::Naive;
    use crate::sg::{SearchConfig, Searcher};

    /// The search engine on sums, without the sequence or splitting, agrees with the xor of
    /// the sequence's values (the Sprague-Grundy theorem, checked).
    #[test]
    fn searched_sums_are_xors_of_the_sequence() {
        let rules: Vec<Box<dyn HeapRule>> = vec![
            Box::new(TakeBreak::subtraction("subtraction:1,3,4", "1,3,4").unwrap()),
            Box::new(TakeBreak::octal("octal:0.77", "0.77").unwrap()),
            Box::new(TakeBreak::octal("octal:4.07", "4.07").unwrap()),
            Box::new(GrundysGame),
        ];
        for rule in rules {
            let game = HeapGame::new(rule);
            let mut bare = Naive::new(&game, SearchConfig::bare());
            for p in [[3u32, 5, 7], [1, 2, 9], [6, 6, 4], [0, 8, 11]] {
                let want = game.nimber(&p);
                assert_eq!(
                    bare.nimber(Heaps::from_slice(&p)),
                    want,
                    "{:?} {p:?}",
                    game.rule()
                );
            }
        }
    }
}
