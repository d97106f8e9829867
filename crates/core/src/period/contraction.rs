//! Contractions of subtraction sets: the smallest subsets with the same nim sequence, as in
//! the Maple toolkit for subtraction games.
//!
//! Two sequences with proved periods (n0, p) and (n0', p') agree everywhere once they agree
//! below max(n0, n0') + lcm(p, p'): past that both repeat with period lcm(p, p'). So each
//! subset's period is proved first, and equality follows from a finite comparison.

use super::{analyse, Period};
use crate::error::Error;
use crate::game::heap::{HeapRule, TakeBreak};
use crate::game::Nimber;
use crate::progress::Silent;

/// Subsets of more than this many amounts are not searched (2^n of them).
pub const MAX_AMOUNTS: usize = 16;

/// A contraction: a subset of the amounts, and its proved period.
pub type Contraction = (Vec<usize>, Period);

/// A subtraction set with its values and proved period.
struct Proved {
    rule: TakeBreak,
    values: Vec<Nimber>,
    period: Period,
}

/// The smallest subsets of `set` whose nim sequence is the set's own (the set itself when no
/// smaller one is), each with its proved period; `Ok(None)` when a period could not be proved
/// within `max_heap` heaps. More than [`MAX_AMOUNTS`] amounts is a resource error.
pub fn contractions(set: &[usize], max_heap: usize) -> Result<Option<Vec<Contraction>>, Error> {
    if set.len() > MAX_AMOUNTS {
        return Err(Error::Resource(format!(
            "contractions search the 2^n subsets: at most {MAX_AMOUNTS} amounts, got {}",
            set.len()
        )));
    }
    let Some(whole) = proved(set, max_heap) else {
        return Ok(None);
    };
    for size in 1..=set.len() {
        let mut best = Vec::new();
        for mask in 0u32..1 << set.len() {
            if mask.count_ones() as usize != size {
                continue;
            }
            let subset: Vec<usize> = (0..set.len())
                .filter(|&i| mask >> i & 1 == 1)
                .map(|i| set[i])
                .collect();
            let Some(sub) = proved(&subset, max_heap) else {
                return Ok(None);
            };
            if same(&whole, &sub) {
                best.push((subset, sub.period));
            }
        }
        if !best.is_empty() {
            return Ok(Some(best));
        }
    }
    unreachable!("the set itself has its own nim sequence")
}

/// A subtraction set's values and proved period, `None` when `max_heap` heaps do not settle it.
fn proved(set: &[usize], max_heap: usize) -> Option<Proved> {
    let rule = TakeBreak::of_amounts("", set);
    let a = analyse(&rule, max_heap, &Silent);
    Some(Proved {
        period: a.proved?,
        values: a.values.to_vec(),
        rule,
    })
}

/// Whether two proved sequences agree everywhere: below max(n0, n0') + lcm(p, p').
fn same(a: &Proved, b: &Proved) -> bool {
    let (p, q) = (a.period.period, b.period.period);
    let n = a.period.preperiod.max(b.period.preperiod) + p / gcd(p, q) * q;
    values_to(a, n) == values_to(b, n)
}

/// G(0..n) of a proved set: its computed values, extended when they are shorter.
fn values_to(a: &Proved, n: usize) -> std::borrow::Cow<'_, [Nimber]> {
    if a.values.len() >= n {
        return a.values[..n].into();
    }
    let mut values = a.values.clone();
    a.rule.extend(&mut values, n - 1, &crate::game::heap::never);
    values.into()
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
        let c = contractions(&[1, 3, 5], 1 << 12).unwrap().unwrap();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].0, [1]);
        let c = contractions(&[1, 2, 3, 4, 5], 1 << 12).unwrap().unwrap();
        assert_eq!(c[0].0, [1, 2, 3, 4, 5]);
        let many: Vec<usize> = (1..=MAX_AMOUNTS + 1).collect();
        assert!(contractions(&many, 1 << 12).is_err());
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
            for (sub, _) in contractions(&set, 1 << 14).unwrap().unwrap() {
                let got = nim_sequence(&TakeBreak::of_amounts("", &sub), 3000);
                assert_eq!(got, want, "{set:?} -> {sub:?}");
                assert!(sub.len() <= set.len());
            }
        }
    }
}
