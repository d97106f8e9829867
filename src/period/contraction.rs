//! Contractions of subtraction sets: the smallest subsets with the same nim sequence, as in
//! the Maple toolkit for subtraction games.
//!
//! Two sequences with proved periods (n0, p) and (n0', p') agree everywhere once they agree
//! below max(n0, n0') + lcm(p, p'): past that both repeat with period lcm(p, p'). So each
//! subset's period is proved first, and equality follows from a finite comparison.

use super::{prove, Criterion, Period};
use crate::game::heap::{HeapRule, TakeBreak};
use crate::game::Nimber;

/// Subsets of more than this many amounts are not searched (2^n of them).
pub const MAX_AMOUNTS: usize = 16;

/// The smallest subsets of `set` whose nim sequence is the set's own (the set itself when no
/// smaller one is), each with its proved period; `None` when a period could not be proved
/// within `max_heap` heaps.
pub fn contractions(set: &[usize], max_heap: usize) -> Option<Vec<(Vec<usize>, Period)>> {
    let whole = sequence_and_period(set, max_heap)?;
    let mut best: Vec<(Vec<usize>, Period)> = Vec::new();
    for size in 1..=set.len() {
        for mask in 0u32..1 << set.len() {
            if mask.count_ones() as usize != size {
                continue;
            }
            let subset: Vec<usize> = (0..set.len())
                .filter(|&i| mask >> i & 1 == 1)
                .map(|i| set[i])
                .collect();
            let Some(sub) = sequence_and_period(&subset, max_heap) else {
                continue;
            };
            if same(&whole, &sub) {
                best.push((subset, sub.1));
            }
        }
        if !best.is_empty() {
            return Some(best);
        }
    }
    None
}

/// The values and proved period of a subtraction set, computed far enough to compare.
fn sequence_and_period(set: &[usize], max_heap: usize) -> Option<(TakeBreak, Period)> {
    let rule = TakeBreak::of_amounts("", set);
    let criterion = Criterion::of(rule.bounds()?);
    let mut values: Vec<Nimber> = Vec::new();
    let mut upto = 64.min(max_heap);
    loop {
        rule.extend(&mut values, upto);
        if let Some(p) = prove(&values, criterion) {
            return Some((rule, p));
        }
        if upto >= max_heap {
            return None;
        }
        upto = (upto * 2).min(max_heap);
    }
}

/// Whether two proved sequences agree everywhere: below max(n0, n0') + lcm(p, p').
fn same(a: &(TakeBreak, Period), b: &(TakeBreak, Period)) -> bool {
    let lcm = a.1.period / gcd(a.1.period, b.1.period) * b.1.period;
    let n = a.1.preperiod.max(b.1.preperiod) + lcm;
    let (mut x, mut y) = (Vec::new(), Vec::new());
    a.0.extend(&mut x, n);
    b.0.extend(&mut y, n);
    x == y
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::heap::nim_sequence;

    /// {1, 2, 3, 4, 5} has none; {1, 3} is all odd amounts up to 3 and so is {1, 3, 5}:
    /// both are 0 1 0 1 ..., and {1} alone is too.
    #[test]
    fn odd_amounts_contract_to_one() {
        let c = contractions(&[1, 3, 5], 1 << 12).unwrap();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].0, [1]);
        let c = contractions(&[1, 2, 3, 4, 5], 1 << 12).unwrap();
        assert_eq!(c[0].0, [1, 2, 3, 4, 5]);
    }

    /// Every contraction found really has the set's values, far past the comparison.
    #[test]
    fn contractions_have_the_same_values() {
        for set in [
            vec![1, 4, 6],
            vec![2, 3, 5, 7],
            vec![1, 2, 4, 8],
            vec![3, 5, 8, 11],
        ] {
            let want = nim_sequence(&TakeBreak::of_amounts("", &set), 3000);
            for (sub, _) in contractions(&set, 1 << 14).unwrap() {
                let got = nim_sequence(&TakeBreak::of_amounts("", &sub), 3000);
                assert_eq!(got, want, "{set:?} -> {sub:?}");
                assert!(sub.len() <= set.len());
            }
        }
    }
}
