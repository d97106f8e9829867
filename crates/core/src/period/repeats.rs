//! How far the nim sequence repeats with each period, counted back from its last value: the
//! candidate periods of [`super::prove`], all at once in linear time.

use crate::game::Nimber;

/// For each p in 1..len, how many n below len - p, counted down from there, have G(n) =
/// G(n + p) without a break (entry 0 unused): the Z-function of the values read backwards.
pub(super) fn repeats_at_end(values: &[Nimber]) -> Vec<u32> {
    let len = values.len();
    let back = |i: usize| values[len - 1 - i];
    let mut z = vec![0u32; len];
    // [l, r): the rightmost stretch found that matches the start of the reversed values.
    let (mut l, mut r) = (0, 0);
    for i in 1..len {
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
            let z = repeats_at_end(&values);
            for p in 1..len {
                let count = (0..len - p)
                    .rev()
                    .take_while(|&n| values[n] == values[n + p])
                    .count();
                assert_eq!(z[p] as usize, count, "{values:?} period {p}");
            }
        }
    }
}
