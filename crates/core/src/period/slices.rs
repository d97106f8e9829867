//! Arithmetic periods of take-and-break codes that split heaps (hex codes such as 0.8, 0.C or
//! 0.29), proved by cutting the values into slices at a power of two.
//!
//! A code whose moves take at most t tokens and leave at most h heaps of any sizes may grow
//! arithmetically: G(n + P) = G(n) + s. Suppose s = 2^m, n0 >= 1, every value before n0 + P is
//! below s, and the relation holds on the values computed. Put eta(x) = floor((x - n0) / P)
//! for x >= n0 + P and 0 below, and lambda(x) = G(x) mod s: then G(x) = s eta(x) + lambda(x),
//! lambda repeats with period P from n0, and an option's value is s X + L with X the xor of
//! its heaps' eta and L the xor of their lambda. Call [s h, s (h + 1)) the slice h. By
//! induction on N, once the claim holds below N:
//!
//! * No option of N reaches the slice above eta(N): the heaps' eta sum to at most eta(N)
//!   (each big heap spends n0 tokens besides its blocks of P), and a xor is at most the sum.
//! * An option in the top slice eta(N) has eta's with disjoint bits summing to eta(N).
//!   Moving every big heap's blocks onto one big heap keeps X, L and the total: so the top
//!   slice holds exactly the lambdas of the options with one big heap, whose other heaps are
//!   below n0 + P, and of the single heaps N - k in N's block. Adding P to the big heap (or to
//!   N - k) matches these one to one with the top slice of N - P, from N >= n0 + P + t on
//!   (N - P then has a big heap too, and N - P - k >= n0). So the top slice's mex at N is
//!   that of N - P, which is lambda(N - P) = lambda(N).
//! * Every slice below eta(N) is full. A *carried* option has a heap y >= n0 whose other
//!   heaps' eta xor to 0; adding P to y gives an option of N + P worth s more, carried again.
//!   A carried option in slice 0 whose other heaps include two of equal eta, both >= n0,
//!   gives (adding P to both) an option of N + 2P of the same value, of the same kind. So if
//!   for every N in a window [A, A + 2P) the carried options fill every slice below eta(N)
//!   and the paired ones fill slice 0, then by induction the same holds for every N >= A.
//!
//! Hence G(N) = s eta(N) + lambda(N) = G(N - P) + s for every N past the check, which is
//! [`prove`]: the window is searched among the values, and they must reach
//! max(A + 2P, n0 + 2P, n0 + P + t, t + 1). The least period divides P (arithmetic periods
//! are closed under gcd) and one stretch of P heaps decides each divisor.
//!
//! The check is sufficient, not necessary: codes whose first period reaches the saltus
//! (0.8F), whose saltus is not a power of two (0.3F), whose repetition starts at heap 0 (0.FF,
//! G(n) = n), or whose lower slices are filled only by options whose blocks carry between
//! bits are left unproved.

use super::{observe, Criterion, Period};
use crate::game::heap::{HeapRule, MoveBounds};
use crate::game::NimSet;
use crate::game::Nimber;

/// Heaps past the first candidate a window may start at before the search gives up.
const WINDOW_SEARCH: usize = 64;

/// What [`prove`] found: a proof, or how many values a candidate would need.
#[derive(Debug, Default)]
pub struct Outcome {
    pub(crate) proved: Option<Period>,
    /// Values that would decide the candidate the values show (more than they have).
    pub wanted: Option<usize>,
}

/// The repetition the values show, scaled so that its saltus is a power of two above every
/// value before n0 + P; `None` when there is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Candidate {
    n0: usize,
    block: usize,
    saltus: Nimber,
}

impl Candidate {
    fn of(values: &[Nimber]) -> Option<Candidate> {
        let o = observe(values)?;
        let (n0, p, s) = (o.preperiod, o.period, o.saltus);
        if s == 0 || !s.is_power_of_two() || n0 == 0 || values.len() < n0 + p {
            return None;
        }
        // The first period's values must lie below s; the preperiod's below some multiple
        // j s with j a power of two (then P = j p, and every value before n0 + P is below j s).
        if values[n0..n0 + p].iter().any(|&v| v >= s) {
            return None;
        }
        let before = values[..n0].iter().copied().max().unwrap_or(0);
        let mut j: Nimber = 1;
        while before >= j.checked_mul(s)? {
            j *= 2;
        }
        Some(Candidate {
            n0,
            block: j as usize * p,
            saltus: j * s,
        })
    }

    /// How many blocks of P past n0 + P a heap is (0 before).
    fn eta(&self, x: usize) -> usize {
        if x < self.n0 + self.block {
            0
        } else {
            (x - self.n0) / self.block
        }
    }
}

/// Whether the carried options of a heap of `n` fill every slice below its own, and the paired
/// ones slice 0 (the window's condition, see the module's doc).
fn fills(rule: &dyn HeapRule, values: &[Nimber], c: &Candidate, n: usize) -> bool {
    let (mut carried, mut paired) = (NimSet::new(), NimSet::new());
    let mut etas: Vec<usize> = Vec::with_capacity(4);
    rule.moves(n as u32, &mut |heaps| {
        etas.clear();
        etas.extend(heaps.iter().map(|&h| c.eta(h as usize)));
        let all = etas.iter().fold(0, |x, &e| x ^ e);
        let value = heaps.iter().fold(0, |x, &h| x ^ values[h as usize]);
        for (i, &y) in heaps.iter().enumerate() {
            if (y as usize) < c.n0 || all ^ etas[i] != 0 {
                continue;
            }
            carried.insert(value);
            if etas[i] == 0 && pair_among(heaps, &etas, i, c.n0) {
                paired.insert(value);
            }
        }
    });
    let below = c.saltus as usize * c.eta(n);
    (0..below).all(|v| carried.contains(v as Nimber)) && (0..c.saltus).all(|v| paired.contains(v))
}

/// Whether two heaps other than the `skip`-th, both at least `n0`, have equal eta.
fn pair_among(heaps: &[u32], etas: &[usize], skip: usize, n0: usize) -> bool {
    let big = |i: usize| i != skip && heaps[i] as usize >= n0;
    (0..heaps.len()).any(|i| big(i) && (i + 1..heaps.len()).any(|j| big(j) && etas[i] == etas[j]))
}

/// The least arithmetic period that `values` (G(0), G(1), ...) prove for a take-and-break code
/// with these bounds (a rule whose [`HeapRule::bounds`] is `Some`), by the slices' check;
/// `stop` (asked before each heap's options are examined) cuts the search short.
pub fn prove(
    rule: &dyn HeapRule,
    bounds: MoveBounds,
    values: &[Nimber],
    stop: &dyn Fn() -> bool,
) -> Outcome {
    let Some(c) = Candidate::of(values) else {
        return Outcome::default();
    };
    let (n0, block, t, len) = (c.n0, c.block, bounds.take, values.len());
    let holds = |x: usize| values[x + block] == values[x] + c.saltus;
    if !(n0..len.saturating_sub(block)).all(holds) {
        return Outcome::default();
    }
    // The window [from, from + 2P): the first run of 2P heaps that fill their slices.
    let first = n0 + block;
    let mut run = 0;
    let mut from = None;
    for n in first..len {
        if stop() {
            return Outcome::default();
        }
        if fills(rule, values, &c, n) {
            run += 1;
            if run == 2 * block {
                from = Some(n + 1 - run);
                break;
            }
        } else {
            run = 0;
            if n >= first + WINDOW_SEARCH + 2 * block {
                return Outcome::default();
            }
        }
    }
    let Some(from) = from else {
        return Outcome {
            proved: None,
            wanted: Some(first + WINDOW_SEARCH + 4 * block),
        };
    };
    let end = (from + 2 * block)
        .max(n0 + 2 * block)
        .max(n0 + block + t)
        .max(t + 1);
    if end > len {
        return Outcome {
            proved: None,
            wanted: Some(end),
        };
    }
    // The least period divides P: one stretch of P heaps from n0 decides each divisor.
    let (preperiod, period, saltus) = super::least_divisor(values, n0, block);
    Outcome {
        proved: Some(Period {
            preperiod,
            period,
            saltus,
            criterion: Criterion::Slices {
                take: t,
                heaps: bounds.heaps,
                from: n0,
                block,
                saltus: c.saltus,
                window: from,
                end,
            },
            checked_up_to: end - 1,
        }),
        wanted: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::heap::{never, nim_sequence, TakeBreak};

    fn proof(code: &str, n: usize) -> Option<Period> {
        let rule = TakeBreak::hex("", code).unwrap();
        let values = nim_sequence(&rule, n);
        prove(&rule, rule.bounds().unwrap(), &values, &never).proved
    }

    /// 0.8 (take one, leave three heaps): G(n) = floor((n - 1) / 3) from n = 1; 0.C (take one,
    /// leave two or three): floor((n - 1) / 2).
    #[test]
    fn the_simplest_codes_have_their_formulas() {
        let p = proof("0.8", 200).expect("0.8 proved");
        assert_eq!((p.preperiod, p.period, p.saltus), (1, 3, 1));
        let p = proof("0.C", 200).expect("0.C proved");
        assert_eq!((p.preperiod, p.period, p.saltus), (1, 2, 1));
        assert!(matches!(p.criterion, Criterion::Slices { .. }));
    }

    /// Every period the check proves holds far past the heaps it used (values from the
    /// definition), and not from one heap earlier, and no smaller period holds on the far
    /// values: every hex code of one or two digits (40 of them are proved), and with
    /// `--full` a fifth of those of three digits.
    #[test]
    fn proved_periods_hold_beyond_the_check() {
        let digits = "0123456789ABCDEF";
        let mut codes: Vec<String> = digits[1..].chars().map(|a| format!("0.{a}")).collect();
        for a in digits.chars() {
            codes.extend(digits[1..].chars().map(|b| format!("0.{a}{b}")));
        }
        if crate::testing::full() {
            // And a fifth of the three-digit codes.
            let three = digits.chars().flat_map(|a| {
                digits
                    .chars()
                    .flat_map(move |b| digits[1..].chars().map(move |c| format!("0.{a}{b}{c}")))
            });
            codes.extend(three.step_by(5));
        }
        let mut proved = 0;
        for code in &codes {
            let Some(p) = proof(code, 300) else {
                continue;
            };
            proved += 1;
            let rule = TakeBreak::hex("", code).unwrap();
            let far = nim_sequence(&rule, (2 * p.checked_up_to).max(400));
            crate::period::tests::assert_holds_on(code, &p, &far);
        }
        assert!(proved >= 40, "only {proved} codes proved");
    }

    /// 0.29's period of 53 heaps with saltus 16 (values up to 15 before it) is proved from
    /// the values alone.
    #[test]
    fn a_long_period_is_proved() {
        let p = proof("0.29", 400).expect("0.29 proved");
        assert_eq!((p.preperiod, p.period, p.saltus), (1, 53, 16));
    }

    /// What the check cannot settle it leaves alone: a first period reaching the saltus
    /// (0.8F), plain periodic codes (0.F), sequences with no repetition yet (0.9), G(n) = n
    /// (0.FF: preperiod 0), and too few values.
    #[test]
    fn what_it_cannot_settle_stays_unproved() {
        for code in ["0.8F", "0.F", "0.9", "0.FF"] {
            assert_eq!(proof(code, 300), None, "{code}");
        }
        // 0.29 needs G(0), ..., G(159): the repetition shows three times from heap 1 on.
        assert_eq!(proof("0.29", 158), None);
        assert!(proof("0.29", 159).is_some());
    }

    /// The window's condition is not met by every heap: at heaps 1 to 3 the paired options of
    /// 0.8 (two heaps of equal eta besides the carried one) do not exist yet, and the window
    /// begins after them.
    #[test]
    fn the_window_starts_where_the_slices_fill() {
        let rule = TakeBreak::hex("", "0.8").unwrap();
        let values = nim_sequence(&rule, 200);
        let c = Candidate::of(&values).unwrap();
        assert_eq!((c.n0, c.block, c.saltus), (1, 3, 1));
        let open: Vec<usize> = (1..40).filter(|&n| !fills(&rule, &values, &c, n)).collect();
        assert!(!open.is_empty());
        let Some(Criterion::Slices { window, .. }) =
            prove(&rule, rule.bounds().unwrap(), &values, &never)
                .proved
                .map(|p| p.criterion)
        else {
            panic!("0.8 proved by slices");
        };
        assert!(open.iter().all(|&n| n < window), "{open:?} {window}");
    }
}
