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
//! heap's. The mask
//! decides only the speed, never the result: it is chosen on a prefix to make rare heaps
//! fewest, and chosen again when they grow many. It serves octal codes with splits into two
//! heaps and Grundy's game.

use crate::game::NimSet;
use crate::game::Nimber;

/// Heaps valued by the definition before a mask is chosen.
const PREFIX: usize = 2048;

/// The mask is chosen again when the rare heaps pass this share of all heaps (1 / RECHOOSE)
/// and have doubled since it was last chosen.
const RECHOOSE: usize = 16;

/// Bytes a heap costs this technique at most: its value (4), its 16-bit copy (2), and its
/// share of the rare heaps' lists (12 bytes a rare heap, twice that while a list grows; rare
/// heaps pass one in [`RECHOOSE`] only until the mask is chosen again, and are most of the
/// time far fewer).
pub(super) const BYTES_PER_HEAP: u64 = 8;

/// The moves of one heap for the sparse technique: the values of its options that are not
/// splits (`plain`), and the totals m whose splits into two heaps are options (`splits`).
pub(super) trait Splits {
    fn options(&self, h: usize, values: &[Nimber], plain: &mut NimSet, splits: &mut Vec<usize>);
    /// Whether the two heaps of a split must differ (Grundy's game).
    fn unequal(&self) -> bool;
}

/// Extends `values` to G(0..=n) for a rule whose moves split into at most two heaps (less
/// when `stop` says so).
pub(super) fn extend<R: Splits + super::HeapRule>(
    rule: &R,
    values: &mut Vec<Nimber>,
    n: usize,
    stop: &dyn Fn() -> bool,
) {
    extend_reading(rule, values, n, true, stop);
}

/// `extend`, reading a 16-bit copy of the values while every value fits when `narrow` (half
/// the memory traffic on the long pair scans), the values themselves otherwise.
fn extend_reading<R: Splits + super::HeapRule>(
    rule: &R,
    values: &mut Vec<Nimber>,
    n: usize,
    narrow: bool,
    stop: &dyn Fn() -> bool,
) {
    super::by_definition(rule, values, n.min(PREFIX), stop);
    if values.len() > n || values.len() <= n.min(PREFIX) {
        return;
    }
    let unequal = rule.unequal();
    let mut narrow: Option<Vec<u16>> = match narrow {
        true => values.iter().map(|&v| u16::try_from(v).ok()).collect(),
        false => None,
    };
    if let Some(small) = &mut narrow {
        small.reserve_exact((n + 1).saturating_sub(small.len()));
    }
    let mut sieve = Sieve::new(values);
    let (mut splits, mut plain) = (Vec::new(), NimSet::new());
    while values.len() <= n && !stop() {
        let h = values.len();
        sieve.rechoose_if_crowded(values);
        plain.clear();
        splits.clear();
        rule.options(h, values, &mut plain, &mut splits);
        let value = match &narrow {
            Some(small) => sieve.value(small, &plain, &splits, unequal),
            None => sieve.value(values, &plain, &splits, unequal),
        };
        if let Some(small) = &mut narrow {
            match u16::try_from(value) {
                Ok(v) => small.push(v),
                Err(_) => narrow = None,
            }
        }
        sieve.push(h, value);
        values.push(value);
    }
}

/// The state of the rare/common split while a sequence is extended: the mask, the rare heaps
/// with their values, and bitsets over the values that fit the largest value so far.
struct Sieve {
    mask: Nimber,
    /// Rare heaps from 1, in order, and their values.
    rare: Vec<usize>,
    rare_values: Vec<Nimber>,
    /// Rare heaps when the mask was last chosen.
    chosen_with: usize,
    /// Every value so far is below `1 << bits`, so is every option (a xor of two values), and
    /// the mask is below it too. The bitsets cover twice that: the upper half has common
    /// values, none of them an option, so the least common value missing is always there.
    bits: u32,
    /// Bit v set: v is common.
    common: Vec<u64>,
    /// Options seen (enumerated pairs and plain moves).
    seen: Vec<u64>,
    /// Rare values below the candidate that no enumerated option has, not yet found.
    pending: Vec<u64>,
}

impl Sieve {
    fn new(values: &[Nimber]) -> Sieve {
        let mut sieve = Sieve {
            mask: 1,
            rare: Vec::new(),
            rare_values: Vec::new(),
            chosen_with: 0,
            bits: 0,
            common: Vec::new(),
            seen: Vec::new(),
            pending: Vec::new(),
        };
        sieve.choose(values);
        sieve
    }

    /// Chooses the mask for `values` and classifies them again.
    fn choose(&mut self, values: &[Nimber]) {
        self.mask = best_mask(values);
        self.rare = rare_heaps(values, self.mask);
        self.rare_values = self.rare.iter().map(|&r| values[r]).collect();
        self.chosen_with = self.rare.len();
        let top = values.iter().copied().max().unwrap_or(0);
        // The common bitset follows the new mask.
        (self.bits, self.common) = (0, Vec::new());
        self.fit(top);
    }

    /// Chooses the mask again when rare heaps have grown many.
    fn rechoose_if_crowded(&mut self, values: &[Nimber]) {
        let rare = self.rare.len();
        if rare * RECHOOSE > values.len() && rare >= 2 * self.chosen_with.max(1) {
            self.choose(values);
        }
    }

    /// Widens the bitsets to hold `v`.
    fn fit(&mut self, v: Nimber) {
        let bits = Nimber::BITS - v.leading_zeros();
        if bits <= self.bits && !self.common.is_empty() {
            return;
        }
        self.bits = bits.max(self.bits);
        let words = (2usize << self.bits).div_ceil(64);
        self.common = (0..words)
            .map(|w| {
                (0..64)
                    .filter(|&b| self.is_common((w * 64 + b) as Nimber))
                    .fold(0, |word, b| word | 1 << b)
            })
            .collect();
        self.seen = vec![0; words];
        self.pending = vec![0; words];
    }

    fn is_common(&self, v: Nimber) -> bool {
        (v & self.mask).count_ones() % 2 == 1
    }

    /// Records heap `h`'s value.
    fn push(&mut self, h: usize, value: Nimber) {
        self.fit(value);
        if !self.is_common(value) {
            self.rare.push(h);
            self.rare_values.push(value);
        }
    }

    /// The value of the heap whose plain options are `plain` and whose splits are of the
    /// totals in `splits`, over the values so far (`values`, widened to `Nimber` on read).
    fn value<V: Copy + Into<Nimber>>(
        &mut self,
        values: &[V],
        plain: &NimSet,
        splits: &[usize],
        unequal: bool,
    ) -> Nimber {
        let words = self.seen.len();
        self.seen.fill(0);
        for v in plain.iter() {
            // A plain option past the bitsets cannot be the mex, which is at most 1 << bits.
            if (v as usize) < words * 64 {
                self.seen[v as usize / 64] |= 1 << (v % 64);
            }
        }
        // Every pair with a rare heap (either side): all common options, exactly.
        for &m in splits {
            let below = self.rare.partition_point(|&r| r < m);
            for (&r, &x) in self.rare[..below].iter().zip(&self.rare_values) {
                // With `unequal`, the equal split is no move.
                if unequal && 2 * r == m {
                    continue;
                }
                let v = x ^ values[m - r].into();
                self.seen[v as usize / 64] |= 1 << (v % 64);
            }
        }
        // The least common value missing, and the rare values below it that no enumerated
        // option has: one scan of the pairs looks for all of them at once.
        let (w, word) = (0..words)
            .map(|w| (w, self.common[w] & !self.seen[w]))
            .find(|&(_, word)| word != 0)
            .expect("the bitsets hold a common value past every option");
        let candidate = (w * 64) as Nimber + word.trailing_zeros();
        let mut left = 0;
        for i in 0..words {
            let below = match i.cmp(&w) {
                std::cmp::Ordering::Less => u64::MAX,
                std::cmp::Ordering::Equal => (1 << (candidate % 64)) - 1,
                std::cmp::Ordering::Greater => 0,
            };
            self.pending[i] = !self.common[i] & !self.seen[i] & below;
            left += self.pending[i].count_ones();
        }
        if left > 0 {
            scan(values, splits, unequal, &mut self.pending[..=w], left);
            if let Some(i) = self.pending.iter().position(|&word| word != 0) {
                return (i * 64) as Nimber + self.pending[i].trailing_zeros();
            }
        }
        candidate
    }
}

/// Clears from `pending` (`left` bits set) every value that a split of a total in `splits`
/// into two heaps (different ones, with `unequal`) has. One scan serves them all and stops
/// once each has been found: the pairs that give a rare value are spread thin, and one scan
/// per value took twice as long on Grundy's game (21 s against 10 s for 10^6 heaps).
fn scan<V: Copy + Into<Nimber>>(
    values: &[V],
    splits: &[usize],
    unequal: bool,
    pending: &mut [u64],
    mut left: u32,
) {
    let limit = pending.len() * 64;
    for &m in splits {
        let top = if unequal { (m - 1) / 2 } else { m / 2 };
        let (low, high) = (&values[1..=top], &values[m - top..m]);
        for (&a, &b) in low.iter().zip(high.iter().rev()) {
            let x = (a.into() ^ b.into()) as usize;
            if x < limit && pending[x / 64] >> (x % 64) & 1 == 1 {
                pending[x / 64] &= !(1 << (x % 64));
                left -= 1;
                if left == 0 {
                    return;
                }
            }
        }
    }
}

/// Rare heaps and the mask that makes them fewest, over `values`: how sparse the sequence is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rarity {
    /// The mask under which the fewest heaps are rare: a heap is rare when its value and the mask
    ///  share an even number of bits.
    pub mask: Nimber,
    /// Heaps from 1 whose values are rare under the mask.
    pub rare: usize,
}

/// The rarity of a computed sequence.
pub fn rarity(values: &[Nimber]) -> Rarity {
    let mask = best_mask(values);
    Rarity {
        mask,
        rare: rare_heaps(values, mask).len(),
    }
}

/// The heaps (from 1) whose values are rare under `mask`, in order.
fn rare_heaps(values: &[Nimber], mask: Nimber) -> Vec<usize> {
    (1..values.len())
        .filter(|&h| (values[h] & mask).count_ones() % 2 == 0)
        .collect()
}

/// The mask under which the fewest heaps are rare (ties: the smallest mask), over the masks
/// below the next power of two above the largest value.
fn best_mask(values: &[Nimber]) -> Nimber {
    let top = values.iter().copied().max().unwrap_or(0);
    let bits = (Nimber::BITS - top.leading_zeros()).min(12);
    let mut count = vec![0usize; 1 << bits];
    // Heaps per value first: the masks then cost one pass over the distinct values.
    let mut per_value = vec![0usize; 1 << bits];
    for &v in &values[1..] {
        per_value[(v as usize) & ((1 << bits) - 1)] += 1;
    }
    for (mask, c) in count.iter_mut().enumerate() {
        *c = per_value
            .iter()
            .enumerate()
            .filter(|&(v, _)| (v & mask).count_ones() % 2 == 0)
            .map(|(_, &k)| k)
            .sum();
    }
    (1..count.len()).min_by_key(|&m| count[m]).unwrap_or(1) as Nimber
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::game::heap::{never, GrundysGame, TakeBreak};

    fn naive(rule: &TakeBreak, n: usize) -> Vec<Nimber> {
        let mut values = Vec::new();
        crate::game::heap::by_definition(rule, &mut values, n, &never);
        values
    }

    /// The sparse sequence is the definition's, on games with few rare heaps (0.16, Kayles)
    /// and on ones where the mask helps little.
    #[test]
    fn sparse_values_are_the_definitions() {
        for code in [
            "0.16", "0.77", "0.07", "0.137", "4.07", "0.26", "0.4", "0.356", "0.51",
        ] {
            let rule = TakeBreak::octal("", code).unwrap();
            let mut fast = Vec::new();
            extend(&rule, &mut fast, 6000, &never);
            assert_eq!(fast, naive(&rule, 6000), "0.{code}");
        }
        let mut fast = Vec::new();
        extend(&GrundysGame, &mut fast, 6000, &never);
        let mut slow = Vec::new();
        crate::game::heap::by_definition(&GrundysGame, &mut slow, 6000, &never);
        assert_eq!(fast, slow, "Grundy's game");
    }

    /// Reading the values at full width (as past 2^16) gives the same sequence.
    #[test]
    fn wide_values_read_the_same() {
        let rule = TakeBreak::octal("", "0.354").unwrap();
        let (mut narrow, mut wide) = (Vec::new(), Vec::new());
        extend_reading(&rule, &mut narrow, 8000, true, &never);
        extend_reading(&rule, &mut wide, 8000, false, &never);
        assert_eq!(narrow, wide);
        let (mut narrow, mut wide) = (Vec::new(), Vec::new());
        extend_reading(&GrundysGame, &mut narrow, 8000, true, &never);
        extend_reading(&GrundysGame, &mut wide, 8000, false, &never);
        assert_eq!(narrow, wide);
    }

    /// Extending in rounds gives the values of one run.
    #[test]
    fn rounds_extend_the_same_sequence() {
        let rule = TakeBreak::octal("", "0.16").unwrap();
        let mut once = Vec::new();
        extend(&rule, &mut once, 5000, &never);
        let mut rounds = Vec::new();
        for n in [100, 2500, 3000, 5000] {
            extend(&rule, &mut rounds, n, &never);
        }
        assert_eq!(once, rounds);
    }
}
