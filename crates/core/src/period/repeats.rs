//! Repetitions at the end of a nim sequence, the candidate periods of [`super::prove`]: found
//! in time linear in the values and in memory independent of them.

use crate::game::heap::Seq;
#[cfg(test)]
use crate::game::Nimber;

/// The modulus of the rolling hash: a Mersenne prime, so products fit in 128 bits.
const MODULUS: u64 = (1 << 61) - 1;

/// The hash's base (any number below the modulus but 0 and 1 would do).
const BASE: u64 = 0x1f35_a7bd_4c21_9e87 % MODULUS;

/// a b mod the modulus, for a and b below it: the product's high bits fold onto its low ones
/// (2^61 = 1 mod 2^61 - 1), which a 128-bit division (`__umodti3`, 6% of a run of
/// `octal:0.56`) would cost tens of cycles to do.
fn mul(a: u64, b: u64) -> u64 {
    let x = u128::from(a) * u128::from(b);
    reduce((x as u64 & MODULUS) + (x >> 61) as u64)
}

/// x mod the modulus, for x below 2^63.
fn reduce(x: u64) -> u64 {
    let x = (x & MODULUS) + (x >> 61);
    if x >= MODULUS {
        x - MODULUS
    } else {
        x
    }
}

/// Stored entries [`least_suffix_repeat`] compares, per value held, before it hands the
/// periods left to the rolling hash: windows that differ nearly always do so at their first
/// entries, but a sequence that nearly repeats could make the comparisons quadratic.
const COMPARED_PER_VALUE: usize = 8;

/// Entries of two windows compared first, at once (a window that differs mostly does so
/// there: `octal:0.16`'s few values met the first entry alone one time in a few).
const HEAD: usize = 8;

/// Entries of two windows compared at once after their [`HEAD`].
const CHUNK: usize = 64;

/// The least p in `periods` for which the last `n` values equal the `n` values p before them
/// (G(i) = G(i + p) for len - n - p <= i < len - p), if any; needs `periods.end - 1 + n` at
/// most the values' length. The two windows' stored entries are compared from their start
/// (a window that differs mostly does so at once), and every window whose entries agree is
/// compared value by value (large values share an escape entry), so the answer is exact.
/// Past [`COMPARED_PER_VALUE`] entries a value held, the periods left go to a rolling hash,
/// linear in the values whatever they are. (The hash alone was a tenth of `octal:0.354`'s
/// time, on the thread the others wait for between rounds.)
pub(super) fn least_suffix_repeat<'a, S: Seq<'a>>(
    values: S,
    n: usize,
    periods: std::ops::Range<usize>,
) -> Option<usize> {
    least_suffix_repeat_within(values, n, periods, COMPARED_PER_VALUE * values.len())
}

/// [`least_suffix_repeat`], comparing at most about `budget` stored entries before hashing.
fn least_suffix_repeat_within<'a, S: Seq<'a>>(
    values: S,
    n: usize,
    periods: std::ops::Range<usize>,
    mut budget: usize,
) -> Option<usize> {
    let len = values.len();
    if periods.is_empty() {
        return None;
    }
    assert!(periods.start >= 1 && periods.end - 1 + n <= len);
    if n == 0 {
        return Some(periods.start);
    }
    let raw = values.raw();
    let last = &raw[len - n..];
    for p in periods.clone() {
        match entries_agree(last, &raw[len - n - p..len - p], &mut budget) {
            Some(false) => {}
            Some(true) => {
                if repeats(values, n, p) {
                    return Some(p);
                }
            }
            None => return hashed(values, n, p..periods.end),
        }
    }
    None
}

/// Whether the last `n` values equal the `n` values p before them, value by value: the exact
/// answer for a window whose entries or hash agree.
fn repeats<'a, S: Seq<'a>>(values: S, n: usize, p: usize) -> bool {
    let len = values.len();
    (len - n..len).all(|i| values.at(i) == values.at(i - p))
}

/// Whether two equally long windows of stored entries agree, read from their start: the first
/// [`HEAD`] entries at once (one word for bytes), then [`CHUNK`] at a time, each entry read
/// counted off `budget`; `None` once the budget would not cover the next.
fn entries_agree<V: PartialEq>(a: &[V], b: &[V], budget: &mut usize) -> Option<bool> {
    let head = a.len().min(HEAD);
    *budget = budget.checked_sub(head)?;
    let same = match (a.first_chunk::<HEAD>(), b.first_chunk::<HEAD>()) {
        (Some(x), Some(y)) => x == y,
        _ => a[..head] == b[..head],
    };
    if !same {
        return Some(false);
    }
    for (x, y) in a[head..].chunks(CHUNK).zip(b[head..].chunks(CHUNK)) {
        *budget = budget.checked_sub(x.len())?;
        if x != y {
            return Some(false);
        }
    }
    Some(true)
}

/// [`least_suffix_repeat`] by a rolling hash of the window sliding back one value a period,
/// compared with the last window's; every window whose hash agrees is compared value by
/// value (a hash only saves reading windows that differ). Needs `n` at least 1.
fn hashed<'a, S: Seq<'a>>(values: S, n: usize, periods: std::ops::Range<usize>) -> Option<usize> {
    let len = values.len();
    // hash(w) = sum of (w[j] + 1) BASE^j.
    let term = |i: usize| u64::from(values.at(i)) + 1;
    let hash = |from: usize| {
        (from..from + n)
            .rev()
            .fold(0, |h, i| (mul(h, BASE) + term(i)) % MODULUS)
    };
    let top = (1..n).fold(1, |b, _| mul(b, BASE));
    let last = hash(len - n);
    let mut window = hash(len - n - periods.start);
    for p in periods.clone() {
        if window == last && repeats(values, n, p) {
            return Some(p);
        }
        if p + 1 < periods.end {
            // The window [s, s + n) becomes [s - 1, s + n - 1).
            let s = len - n - p;
            let dropped = mul(term(s + n - 1), top);
            let kept = (window + MODULUS - dropped) % MODULUS;
            window = (mul(kept, BASE) + term(s - 1)) % MODULUS;
        }
    }
    None
}

/// The least p >= `from` whose repetition at the end reaches `least` heaps (the last `least`
/// values equal the `least` before them p back), and how far it reaches: found by a
/// Knuth-Morris-Pratt search for the last values, read backwards, in memory of `least` counts.
pub(super) fn first_repeat_from<'a, S: Seq<'a>>(
    values: S,
    from: usize,
    least: usize,
) -> Option<(usize, usize)> {
    let len = values.len();
    if least == 0 || from + least > len {
        return None;
    }
    // Stored entries are the values themselves when none is kept apart: read directly.
    match values.escaped_from(0) {
        usize::MAX => {
            let raw = values.raw();
            kmp_back(len, from, least, |i| raw[len - 1 - i])
        }
        _ => kmp_back(len, from, least, |i| values.at(len - 1 - i)),
    }
}

/// [`first_repeat_from`] over the `len` values read backwards by `back`.
fn kmp_back<T: PartialEq>(
    len: usize,
    from: usize,
    least: usize,
    back: impl Fn(usize) -> T,
) -> Option<(usize, usize)> {
    // fail[j]: the longest proper border of the pattern's first j + 1 values.
    let mut fail = vec![0usize; least];
    let mut k = 0;
    for j in 1..least {
        while k > 0 && back(j) != back(k) {
            k = fail[k - 1];
        }
        if back(j) == back(k) {
            k += 1;
        }
        fail[j] = k;
    }
    let mut k = 0;
    for i in from..len {
        while k > 0 && back(i) != back(k) {
            k = fail[k - 1];
        }
        if back(i) == back(k) {
            k += 1;
        }
        if k == least {
            let p = i + 1 - least;
            let reach = (0..len - p).take_while(|&j| back(j) == back(p + j)).count();
            return Some((p, reach));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::heap::Values;
    use crate::with_values;

    /// The folded product is the remainder of the 128-bit product, at the edges and between.
    #[test]
    fn products_reduce_as_by_division() {
        let edges = [
            0,
            1,
            2,
            BASE,
            MODULUS - 2,
            MODULUS - 1,
            1 << 60,
            (1 << 60) + 1,
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut spread = Vec::new();
        for _ in 0..1000 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            spread.push(x % MODULUS);
        }
        for &a in edges.iter().chain(&spread) {
            for &b in edges.iter().chain(&spread[..50]) {
                let want = (u128::from(a) * u128::from(b) % u128::from(MODULUS)) as u64;
                assert_eq!(mul(a, b), want, "{a} * {b}");
            }
        }
        for x in [
            0,
            MODULUS - 1,
            MODULUS,
            MODULUS + 1,
            2 * MODULUS,
            (1 << 63) - 1,
        ] {
            assert_eq!(reduce(x), x % MODULUS, "{x}");
        }
    }

    /// Each answer against a count made pair by pair, on sequences with runs that nearly
    /// repeat (where a scan that restarts at each period is quadratic), whenever the
    /// comparison of stored entries hands over to the hash, and with values kept apart.
    #[test]
    fn repeats_are_found_as_pair_by_pair() {
        let sequences: [Vec<Nimber>; 4] = [
            (0..60).map(|n| n % 7).collect(),
            (0..80).map(|n| u32::from(n % 13 == 0) + n % 3).collect(),
            vec![1, 1, 1, 2, 1, 1, 1, 2, 1, 1, 1],
            (0..300)
                .map(|n| u32::from(n % 50 == 49) * 300 + n % 2)
                .collect(),
        ];
        for values in sequences {
            let len = values.len();
            let mut apart = Values::escaping_from(2);
            apart.extend(values.iter().copied());
            assert!(apart.escaped() > 0);
            let count = |p: usize| {
                (0..len - p)
                    .rev()
                    .take_while(|&n| values[n] == values[n + p])
                    .count()
            };
            for n in [0, 1, 4, 9, len / 3, len / 2] {
                for start in [1, 2, 5] {
                    for end in [start, start + 3, len - n + 1]
                        .into_iter()
                        .filter(|&e| e <= len - n + 1)
                    {
                        let want = (start..end).find(|&p| count(p) >= n);
                        let got = least_suffix_repeat(&values[..], n, start..end);
                        assert_eq!(got, want, "{values:?} n {n}, {start}..{end}");
                        // Handed to the hash at once, midway or never; and with most
                        // values apart, their stored entries one escape.
                        for budget in [0, 7, 90, usize::MAX] {
                            let got =
                                least_suffix_repeat_within(&values[..], n, start..end, budget);
                            assert_eq!(got, want, "{values:?} n {n}, {start}..{end}, {budget}");
                            let got = with_values!(apart, v => {
                                least_suffix_repeat_within(v, n, start..end, budget)
                            });
                            assert_eq!(got, want, "apart: n {n}, {start}..{end}, {budget}");
                        }
                    }
                }
            }
            for from in 1..len {
                for least in [1, 3, 5] {
                    let want = (from..len)
                        .find(|&p| count(p) >= least)
                        .map(|p| (p, count(p)));
                    let got = first_repeat_from(&values[..], from, least);
                    assert_eq!(got, want, "{values:?} from {from}, {least}");
                    // Stored entries that are not the values (escapes) are not read.
                    let got = with_values!(apart, v => first_repeat_from(v, from, least));
                    assert_eq!(got, want, "apart: from {from}, {least}");
                }
            }
        }
    }
}
