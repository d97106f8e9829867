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

use crate::game::Nimber;
use crate::sg::nimset::NimSet;

/// Heaps valued by the definition before a mask is chosen.
const PREFIX: usize = 2048;

/// The mask is chosen again when the rare heaps pass this share of all heaps (1 / RECHOOSE)
/// and have doubled since it was last chosen.
const RECHOOSE: usize = 16;

/// The moves of one heap for the sparse technique: the values of its options that are not
/// splits (`plain`), and the totals m whose splits into two heaps are options (`splits`).
pub(super) trait Splits {
    fn options(&self, h: usize, values: &[Nimber], plain: &mut NimSet, splits: &mut Vec<usize>);
    /// Whether the two heaps of a split must differ (Grundy's game).
    fn unequal(&self) -> bool;
}

/// Extends `values` to G(0..=n) for a rule whose moves split into at most two heaps.
pub(super) fn extend<R: Splits + super::HeapRule>(rule: &R, values: &mut Vec<Nimber>, n: usize) {
    super::by_definition(rule, values, n.min(PREFIX));
    if values.len() > n {
        return;
    }
    let unequal = rule.unequal();
    let mut mask = best_mask(values);
    let mut rare: Vec<usize> = rare_heaps(values, mask);
    let mut chosen_with = rare.len();
    // Buffers reused from heap to heap.
    let (mut splits, mut needed, mut pending) = (Vec::new(), Vec::new(), Vec::new());
    let mut options = NimSet::new();
    while values.len() <= n {
        let h = values.len();
        if rare.len() * RECHOOSE > h && rare.len() >= 2 * chosen_with.max(1) {
            mask = best_mask(values);
            rare = rare_heaps(values, mask);
            chosen_with = rare.len();
        }
        options.clear();
        splits.clear();
        rule.options(h, values, &mut options, &mut splits);
        for &m in &splits {
            // Every pair with a rare heap (either side): all common options, exactly.
            let below = &rare[..rare.partition_point(|&r| r < m)];
            // With `unequal`, the equal split is no move.
            let equal = match below.binary_search(&(m / 2)) {
                Ok(i) if unequal && m % 2 == 0 => i,
                _ => below.len(),
            };
            for &r in below[..equal]
                .iter()
                .chain(below.get(equal + 1..).unwrap_or(&[]))
            {
                options.insert(values[r] ^ values[m - r]);
            }
        }
        let is_common = |v: Nimber| (v & mask).count_ones() % 2 == 1;
        // The least common value missing, and the rare values below it that no enumerated
        // option has: one scan of the pairs looks for all of them at once.
        let candidate = (0..)
            .find(|&v| is_common(v) && !options.contains(v))
            .unwrap_or(0);
        needed.clear();
        needed.extend((0..candidate).filter(|&v| !is_common(v) && !options.contains(v)));
        let missing = still_missing(values, &splits, &needed, unequal, &mut pending);
        let value = missing.unwrap_or(candidate);
        if !is_common(value) {
            rare.push(h);
        }
        values.push(value);
    }
}

/// Rare heaps and the mask that makes them fewest, over `values`: how sparse the sequence is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rarity {
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

/// The least of the `needed` values that no split of a total in `splits` into two heaps
/// (different ones, with `unequal`) has, if any. One scan serves them all and stops once
/// each has been found: the pairs that give a rare value are spread thin, and one scan per
/// value took twice as long on Grundy's game (21 s against 10 s for 10^6 heaps).
fn still_missing(
    values: &[Nimber],
    splits: &[usize],
    needed: &[Nimber],
    unequal: bool,
    pending: &mut Vec<u64>,
) -> Option<Nimber> {
    let &top_value = needed.last()?;
    // Bit x set: x is needed and not found yet.
    pending.clear();
    pending.resize(top_value as usize / 64 + 1, 0);
    for &v in needed {
        pending[v as usize / 64] |= 1 << (v % 64);
    }
    let mut left = needed.len();
    'scan: for &m in splits {
        let top = if unequal { (m - 1) / 2 } else { m / 2 };
        for a in 1..=top {
            let x = values[a] ^ values[m - a];
            if x <= top_value && pending[x as usize / 64] >> (x % 64) & 1 == 1 {
                pending[x as usize / 64] &= !(1 << (x % 64));
                left -= 1;
                if left == 0 {
                    break 'scan;
                }
            }
        }
    }
    needed
        .iter()
        .copied()
        .find(|&v| pending[v as usize / 64] >> (v % 64) & 1 == 1)
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

    use crate::game::heap::{GrundysGame, TakeBreak};

    fn naive(rule: &TakeBreak, n: usize) -> Vec<Nimber> {
        let mut values = Vec::new();
        crate::game::heap::by_definition(rule, &mut values, n);
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
            extend(&rule, &mut fast, 6000);
            assert_eq!(fast, naive(&rule, 6000), "0.{code}");
        }
        let mut fast = Vec::new();
        extend(&GrundysGame, &mut fast, 6000);
        let mut slow = Vec::new();
        crate::game::heap::by_definition(&GrundysGame, &mut slow, 6000);
        assert_eq!(fast, slow, "Grundy's game");
    }

    /// Extending in rounds gives the values of one run.
    #[test]
    fn rounds_extend_the_same_sequence() {
        let rule = TakeBreak::octal("", "0.16").unwrap();
        let mut once = Vec::new();
        extend(&rule, &mut once, 5000);
        let mut rounds = Vec::new();
        for n in [100, 2500, 3000, 5000] {
            extend(&rule, &mut rounds, n);
        }
        assert_eq!(once, rounds);
    }
}
