//! Which heaps are rare and which values common, for the rare/common technique
//! ([`super::sparse`]): a mask over the values, and, where every split takes amounts of one
//! parity, the heap's parity besides, chosen to make rare heaps fewest.
//!
//! Write E(h) = 2 G(h) + (h mod 2), and let a class be the parity of the bits of E in a mask
//! M. For a split of heap n into a + b = n - k, E(a) xor E(b) = 2 (G(a) xor G(b)) + ((n - k)
//! mod 2), so the class of an option x of n, read as E would be were x the value of n, is the
//! class of the xor of the two heaps' E shifted by the parity of k when M has its last bit. When
//! every amount k has the same parity, a common class (odd, or even when both M's last bit and
//! k are odd) then makes the xor of two common heaps never common and that of a rare and a
//! common heap always common, which is all the technique needs. Without the heap's parity (M
//! even) this is the plain mask of the values: the classes of Flammenkamp. With it, octal 0.127
//! has 693 rare heaps of 93 166 instead of 2 804 (ogs's RC2 solver finds the same split).
//! [`Classes`] keeps M's other bits as `mask`, over the values, and its last bit as `shift`,
//! the amounts' parity, which folds the class's choice into the count.

use super::{Seq, Values};
use crate::game::Nimber;
use crate::with_values;

/// How values divide into rare and common: a value v of heap h (or a value v that heap h
/// might have) is common when the bits of v in `mask`, plus (h + `shift`) mod 2 when `shift` is
/// set, number odd.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Classes {
    /// The bits of the values that count.
    pub mask: Nimber,
    /// When set, the parity of h + shift counts too: the parity of a heap's split totals.
    pub shift: Option<usize>,
}

impl Classes {
    /// 1 when the heap's parity adds one to the count of heap `h`, else 0.
    #[inline]
    pub(super) fn flip(self, h: usize) -> usize {
        self.shift.map_or(0, |s| (h + s) & 1)
    }

    /// Whether `v` is common as heap `h`'s value.
    #[inline]
    pub(super) fn common(self, h: usize, v: Nimber) -> bool {
        ((v & self.mask).count_ones() as usize + self.flip(h)) % 2 == 1
    }
}

/// Rare heaps and the classes that make them fewest, over `values`: how sparse the sequence is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rarity {
    /// The classes under which the fewest heaps are rare: a heap is rare when its value's bits
    /// in the mask, plus the parity of h + shift when there is a shift, number even.
    #[serde(flatten)]
    pub classes: Classes,
    /// Heaps from 1 whose values are rare.
    pub rare: usize,
}

/// The heaps (from 1) whose values are rare under `classes`, in order.
pub(super) fn rare_heaps(values: &Values, classes: Classes) -> Vec<usize> {
    with_values!(values, v => (1..v.len())
        .filter(|&h| !classes.common(h, v.at(h)))
        .collect())
}

/// The rarity of a computed sequence whose splits take amounts of the parity `parity` (`None`:
/// of both parities): the classes under which the fewest heaps are rare, over the masks below
/// the next power of two above the largest value, with the heaps' parity when the split
/// amounts all have the parity `parity`. Ties go to the plain mask, then to the smallest.
pub fn rarity(values: &Values, parity: Option<usize>) -> Rarity {
    let top = values.max();
    let bits = (Nimber::BITS - top.leading_zeros()).min(12);
    let width = 1usize << bits;
    // Heaps per value and heap parity first: the masks then cost one pass over the values.
    let mut per_value = vec![[0usize; 2]; width];
    with_values!(values, v => {
        for h in 1.min(v.len())..v.len() {
            per_value[(v.at(h) as usize) & (width - 1)][h & 1] += 1;
        }
    });
    let mut best = (
        usize::MAX,
        Classes {
            mask: 1,
            shift: None,
        },
    );
    for mask in 1..width.max(2) {
        // Heaps of each parity whose values have an even count of bits in the mask, and odd.
        let mut by = [[0usize; 2]; 2];
        for (v, counts) in per_value.iter().enumerate() {
            let odd = ((v as Nimber & mask as Nimber).count_ones() % 2) as usize;
            by[odd][0] += counts[0];
            by[odd][1] += counts[1];
        }
        // Rare: an even count; with the shift s, the count plus (h + s) mod 2 even.
        let shifted = parity.map(|s| (by[s][0] + by[1 - s][1], Some(s)));
        for (rare, shift) in std::iter::once((by[0][0] + by[0][1], None)).chain(shifted) {
            // Ties go to the plain mask, then to the smallest (the first met).
            if (rare, shift.is_some()) < (best.0, best.1.shift.is_some()) {
                best = (
                    rare,
                    Classes {
                        mask: mask as Nimber,
                        shift,
                    },
                );
            }
        }
    }
    Rarity {
        classes: best.1,
        rare: best.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain mask is the values' parity in it; with a shift, the heap's parity flips it.
    #[test]
    fn classes_count_the_bits_and_the_parity() {
        let plain = Classes {
            mask: 0b110,
            shift: None,
        };
        assert!(plain.common(7, 0b010) && plain.common(8, 0b011));
        assert!(!plain.common(7, 0b110) && !plain.common(7, 0b001));
        let shifted = Classes {
            mask: 0b1,
            shift: Some(1),
        };
        // h + 1 odd for even h: one more.
        assert!(shifted.common(3, 1) && !shifted.common(4, 1));
        assert!(!shifted.common(3, 0) && shifted.common(4, 0));
    }

    /// Values that follow the heap's parity, split by odd amounts: all common under the shift,
    /// half rare under a plain mask alone (and under the shift of even amounts, which the
    /// choice then leaves).
    #[test]
    fn the_heaps_parity_is_taken_when_it_makes_fewer_rare_heaps() {
        // G(h) = h mod 2 for h >= 1, and G(0) = 0.
        let values = Values::from_slice(&(0..100).map(|h| (h % 2) as Nimber).collect::<Vec<_>>());
        for parity in [None, Some(0)] {
            let classes = rarity(&values, parity).classes;
            assert_eq!(classes.shift, None, "{parity:?}");
            assert_eq!(rarity(&values, parity).rare, 49, "the even heaps");
        }
        let shifted = rarity(&values, Some(1)).classes;
        assert_eq!(
            shifted,
            Classes {
                mask: 1,
                shift: Some(1)
            }
        );
        assert!(rare_heaps(&values, shifted).is_empty());
    }

    /// The choice counted per value and parity is the least count of rare heaps, heap by heap,
    /// over every mask with and without the shift, and prefers the plain mask, then the
    /// smallest, among equals.
    #[test]
    fn the_choice_is_the_fewest_rare_heaps_counted_one_by_one() {
        use crate::game::heap::{nim_sequence, TakeBreak};
        for (code, parity) in [("0.127", Some(1)), ("0.16", Some(0)), ("0.137", Some(1))] {
            let rule = TakeBreak::octal("", code).unwrap();
            let values = Values::from_slice(&nim_sequence(&rule, 3000));
            let width = 1 << (Nimber::BITS - values.max().leading_zeros());
            let mut all = Vec::new();
            for shift in [None].into_iter().chain(parity.map(Some)) {
                for mask in 1..width {
                    let classes = Classes { mask, shift };
                    all.push((rare_heaps(&values, classes).len(), shift.is_some(), mask));
                }
            }
            let (rare, shifted, mask) = *all.iter().min().unwrap();
            let chosen = rarity(&values, parity).classes;
            assert_eq!(
                (chosen.mask, chosen.shift.is_some()),
                (mask, shifted),
                "{code}"
            );
            assert_eq!(rarity(&values, parity).rare, rare, "{code}");
        }
    }
}
