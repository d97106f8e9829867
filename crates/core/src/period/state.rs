//! Arithmetic periods of rules with an open tail (all-but subtraction sets), proved by a
//! repeated state.
//!
//! Past some w every amount may be taken, and no move splits a heap ([`OpenTail`]). So the
//! options of a heap n > w are every G(m) with m < n - w, and G(n - k) for the allowed
//! k <= w. Let mu(n) = mex{G(m) : m < n - w}; then G(n) >= mu(n), and G(n) - mu(n) is the mex
//! of a set known from the *state* at n: the values of {G(m) : m < n - w} above mu(n), and
//! the last w values, each less mu(n) (a value below mu(n) is an option anyway, so it is
//! kept only as "below"). The state at n + 1 and mu(n + 1) - mu(n) follow from the state at
//! n alone. Hence if the states at n1 and n1 + q are equal, then by induction
//! G(n + q) = G(n) + mu(n1 + q) - mu(n1) for every n >= n1: an arithmetic period, proved.
//!
//! Such periods are closed under gcd (a combination of two holds from some heap on), so the
//! least one divides q; the differences G(n + d) - G(n) repeat with period q from n1 on, so
//! one stretch of q heaps decides whether a divisor d of q is a period, and with what saltus.

use ahash::AHashMap;

use super::{Criterion, Period};
use crate::game::heap::OpenTail;
use crate::game::Nimber;

/// A state's values below mu, which matter only as "below".
const BELOW: Nimber = Nimber::MAX;

/// The least arithmetic period that `values` (G(0), G(1), ...) prove for a rule with this
/// open tail, if they reach far enough: two equal states and one more stretch of the repeat.
pub fn prove(values: &[Nimber], tail: &OpenTail) -> Option<Period> {
    let (from, repeat, shift) = repeated_state(values, tail)?;
    let len = values.len();
    if len < from + 2 * repeat {
        return None;
    }
    let (preperiod, period, saltus) = super::least_divisor(values, from, repeat);
    Some(Period {
        preperiod,
        period,
        saltus,
        criterion: Criterion::RepeatedState {
            window: tail.window,
            at: from,
            repeat,
            shift,
        },
        checked_up_to: from + repeat + period - 1,
    })
}

/// The first heap n1 whose state recurs, the distance q to its recurrence and the growth
/// mu(n1 + q) - mu(n1), if the values show one.
fn repeated_state(values: &[Nimber], tail: &OpenTail) -> Option<(usize, usize, Nimber)> {
    let w = tail.window;
    // Values of G(m), m < n - w: which occur, and mu.
    let mut present: Vec<bool> = Vec::new();
    let mut mu: Nimber = 0;
    // The state at n -> (n, mu(n)).
    let mut seen: AHashMap<Vec<Nimber>, (usize, Nimber)> = AHashMap::new();
    let mut key = Vec::new();
    for n in w + 1..values.len() {
        let entering = values[n - w - 1] as usize;
        if entering >= present.len() {
            present.resize(entering + 1, false);
        }
        present[entering] = true;
        while present.get(mu as usize) == Some(&true) {
            mu += 1;
        }
        key.clear();
        key.extend(
            (mu as usize + 1..present.len())
                .filter(|&v| present[v])
                .map(|v| v as Nimber - mu),
        );
        // The count of values above mu first: the key reads back unambiguously.
        key.insert(0, key.len() as Nimber);
        key.extend((1..=w).map(|k| values[n - k].checked_sub(mu).unwrap_or(BELOW)));
        debug_assert_eq!(values[n], mex_of_state(&key, tail, mu), "heap {n}");
        match seen.get(&key) {
            Some(&(first, mu_first)) => return Some((first, n - first, mu - mu_first)),
            None => {
                seen.insert(key.clone(), (n, mu));
            }
        }
    }
    None
}

/// G(n) recomputed from the state at n (a check, in debug builds, that the state holds what
/// the options do).
fn mex_of_state(key: &[Nimber], tail: &OpenTail, mu: Nimber) -> Nimber {
    let above = key[0] as usize;
    let window = &key[1 + above..];
    let options: Vec<Nimber> = key[1..1 + above]
        .iter()
        .copied()
        .chain(tail.leave_one.iter().map(|&k| window[k - 1]))
        .filter(|&v| v != BELOW)
        .collect();
    (0..).find(|v| !options.contains(v)).expect("a finite set") + mu
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::heap::{nim_sequence, HeapRule, TakeBreak};

    fn proved(set: &str, n: usize) -> (Period, Vec<Nimber>) {
        let rule = TakeBreak::subtraction("", set).unwrap();
        let values = nim_sequence(&rule, n);
        let p = prove(&values, &rule.open_tail().unwrap())
            .unwrap_or_else(|| panic!("{set}: nothing proved from {n} heaps"));
        (p, values)
    }

    /// Taking anything: G(n) = n. Taking 2 or more: G(n) = floor(n / 2).
    #[test]
    fn the_simplest_open_tails_have_their_known_formulas() {
        let (p, _) = proved("all-but:", 50);
        assert_eq!((p.preperiod, p.period, p.saltus), (0, 1, 1));
        let (p, _) = proved("all-but:1", 50);
        assert_eq!((p.preperiod, p.period, p.saltus), (0, 2, 1));
    }

    /// A proved arithmetic period holds far past the heaps that proved it, and not from one
    /// heap earlier; no smaller period holds on the far values.
    #[test]
    fn proved_arithmetic_periods_hold_beyond_the_check() {
        for set in [
            "all-but:1,2",
            "all-but:2",
            "all-but:1,3",
            "all-but:2,3,5",
            "all-but:1,4,5,9",
            "all-but:3,4,6,10",
        ] {
            let (p, _) = proved(set, 400);
            assert!(p.checked_up_to < 400, "{set}");
            let rule = TakeBreak::subtraction("", set).unwrap();
            let far = nim_sequence(&rule, 3 * p.checked_up_to + 200);
            crate::period::tests::assert_holds_on(set, &p, &far);
        }
    }

    /// Too few values prove nothing rather than something wrong.
    #[test]
    fn short_sequences_prove_nothing() {
        let rule = TakeBreak::subtraction("", "all-but:1,4,5,9").unwrap();
        let values = nim_sequence(&rule, 12);
        assert_eq!(prove(&values, &rule.open_tail().unwrap()), None);
    }
}
