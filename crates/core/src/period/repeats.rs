//! How far the nim sequence repeats with each period, counted back from its last value: the
//! candidate periods of [`super::prove`], all at once in linear time.

use crate::game::heap::Seq;
#[cfg(test)]
use crate::game::Nimber;

/// For each p in 1..upto (at most the values' length), how many n below len - p, counted
/// down from there, have G(n) = G(n + p) without a break (entry 0 unused): the Z-function of
/// the values read backwards. Each entry reads only entries before it, so the periods a
/// proof can have (below len / 2 for splitting games) cost a count each, not every heap.
pub(super) fn repeats_at_end<'a, S: Seq<'a>>(values: S, upto: usize) -> Vec<u32> {
    let len = values.len();
    let back = |i: usize| values.at(len - 1 - i);
    let mut z = vec![0u32; upto.min(len)];
    // [l, r): the rightmost stretch found that matches the start of the reversed values.
    let (mut l, mut r) = (0, 0);
    for i in 1..z.len() {
        let mut k = if i < r {
            (r - i).min(z[i - l] as usize)
        } else {
            0
        };
        while i + k < len && back(k) == back(i + k) {
            k += 1;
        }
        z[i] = u32::try_from(k).expect("heaps are counted in 32 bits");
        if i + k > r {
            (l, r) = (i, i + k);
        }
    }
    z
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
    let back = |i: usize| values.at(len - 1 - i);
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

    /// Each entry against a count made pair by pair, on sequences with runs that nearly repeat
    /// (where a scan that restarts at each period is quadratic).
    #[test]
    fn repeats_are_counted_as_pair_by_pair() {
        let sequences: [Vec<Nimber>; 3] = [
            (0..60).map(|n| n % 7).collect(),
            (0..80).map(|n| u32::from(n % 13 == 0) + n % 3).collect(),
            vec![1, 1, 1, 2, 1, 1, 1, 2, 1, 1, 1],
        ];
        for values in sequences {
            let len = values.len();
            let z = repeats_at_end(&values[..], len);
            let half = repeats_at_end(&values[..], len / 2);
            let count = |p: usize| {
                (0..len - p)
                    .rev()
                    .take_while(|&n| values[n] == values[n + p])
                    .count()
            };
            for p in 1..len {
                assert_eq!(z[p] as usize, count(p), "{values:?} period {p}");
                if p < len / 2 {
                    assert_eq!(half[p], z[p], "{values:?} period {p}, half");
                }
            }
            for from in 1..len {
                for least in [1, 3, 5] {
                    let want = (from..len)
                        .find(|&p| count(p) >= least)
                        .map(|p| (p, count(p)));
                    let got = first_repeat_from(&values[..], from, least);
                    assert_eq!(got, want, "{values:?} from {from}, {least}");
                }
            }
        }
    }
}
