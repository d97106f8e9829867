//! A take-and-break code's heaps valued from their definition, the mex of their options, in
//! vector registers: how every code's first heaps are valued, and all of a small code's (the
//! two-digit codes reach their periods' proofs within a few hundred heaps). Called heap by
//! heap, the definition spent more on each heap's set-up (its options named one by one, a
//! set per heap, a loop per split total with its own last pairs and lanes' join) than on
//! reading its pairs.

use crate::game::Nimber;

/// A code's moves as [`extend`] reads them: `amounts` in increasing order, each with its
/// digit in `digits` (bit 1: it may take the whole heap, 2: leave one heap, 4: two). A code
/// whose digits leave three heaps, or that takes unboundedly many tokens, is not one of these.
#[derive(Clone, Copy, Debug)]
pub(super) struct Moves<'a> {
    pub(super) amounts: &'a [usize],
    pub(super) digits: &'a [u8],
}

/// Extends `values` (G(0) at least) heap by heap, while every option of a heap has a value
/// below 64 and `stop` says nothing, up to G(n): how far it went is `values.len()`. Values
/// nothing on a CPU without AVX-512 F; the caller values the heaps left its own way.
pub(super) fn extend(moves: Moves, values: &mut Vec<Nimber>, n: usize, stop: &dyn Fn() -> bool) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has AVX-512 F (just checked).
        unsafe { avx512::extend(moves, values, n, stop) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (moves, values, n, stop);
}

/// Whether [`extend`] values heaps on this machine.
#[cfg(test)]
fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::Moves;
    use crate::game::Nimber;
    use std::arch::x86_64::*;

    /// [`super::extend`]; the caller makes sure the CPU has AVX-512 F.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn extend(
        moves: Moves,
        values: &mut Vec<Nimber>,
        n: usize,
        stop: &dyn Fn() -> bool,
    ) {
        assert_eq!(moves.amounts.len(), moves.digits.len(), "a digit an amount");
        assert!(!values.is_empty(), "G(0) is known");
        values.reserve_exact((n + 1).saturating_sub(values.len()));
        let one = _mm512_set1_epi32(1);
        let k32 = _mm512_set1_epi32(32);
        let k63 = _mm512_set1_epi32(63);
        // Lane j: -j, so that count - 1 - j picks b's value for pair j.
        let down = _mm512_set_epi32(
            -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0,
        );
        while values.len() <= n && !stop() {
            let h = values.len();
            // The options below 64 as bits: those of one heap or none in `low`, the splits'
            // in the lanes of `below` (v < 32) and `above` (32 <= v < 64).
            let mut low = 0u64;
            let (mut below, mut above) = (_mm512_setzero_si512(), _mm512_setzero_si512());
            // Lanes (or one heap's option) whose value is 64 or more.
            let mut large: __mmask16 = 0;
            let taken = moves.amounts.iter().zip(moves.digits);
            for (&k, &d) in taken.take_while(|&(&k, _)| k <= h) {
                let rest = h - k;
                if d & 1 != 0 && rest == 0 && k > 0 {
                    low |= 1;
                }
                if d & 2 != 0 && rest >= 1 && k > 0 {
                    let v = values[rest];
                    large |= __mmask16::from(v >= 64);
                    low |= 1u64.checked_shl(v).unwrap_or(0);
                }
                if d & 4 != 0 && rest >= 2 {
                    // Pairs (a, rest - a) for a in 1..=half: a's values from 1, the others'
                    // read backwards from rest - 1, sixteen a step, the last step masked.
                    let half = rest / 2;
                    let (a, b) = (&values[1..=half], &values[rest - half..rest]);
                    let mut i = 0;
                    while i < half {
                        let count = (half - i).min(16);
                        let lanes = ((1u32 << count) - 1) as __mmask16;
                        // SAFETY: the lanes read are i..i + count of a and half - i -
                        // count..half - i of b, within both.
                        let (x, y) = unsafe {
                            (
                                _mm512_maskz_loadu_epi32(lanes, a.as_ptr().add(i).cast()),
                                _mm512_maskz_loadu_epi32(
                                    lanes,
                                    b.as_ptr().add(half - i - count).cast(),
                                ),
                            )
                        };
                        let at = _mm512_add_epi32(_mm512_set1_epi32(count as i32 - 1), down);
                        let v = _mm512_xor_si512(x, _mm512_permutexvar_epi32(at, y));
                        // Shifts by 32 or more give 0.
                        let bit = _mm512_sllv_epi32(one, v);
                        below = _mm512_mask_or_epi32(below, lanes, below, bit);
                        let bit = _mm512_sllv_epi32(one, _mm512_sub_epi32(v, k32));
                        above = _mm512_mask_or_epi32(above, lanes, above, bit);
                        large |= _mm512_mask_cmpgt_epu32_mask(lanes, v, k63);
                        i += count;
                    }
                }
            }
            if large != 0 {
                // Left to the caller.
                return;
            }
            let both = _mm512_or_si512(
                _mm512_unpacklo_epi32(below, above),
                _mm512_unpackhi_epi32(below, above),
            );
            let seen = low | _mm512_reduce_or_epi64(both) as u64;
            values.push(seen.trailing_ones());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::heap::{by_definition, never, HeapRule, TakeBreak};

    /// The plain definition's values of `code` up to heap `n`.
    fn plain(code: &str, n: usize) -> Vec<Nimber> {
        let rule = TakeBreak::octal(code, code).unwrap();
        let mut values = Vec::new();
        by_definition(&rule, &mut values, n, &never);
        values
    }

    /// Every code of one or two digits after the point and each of 0..8 before the last
    /// (with 4 before the point too: splits that take nothing), and a spread of three-digit
    /// ones, valued through the rule (this loop, then the plain one), from G(0) and resumed
    /// midway: the plain definition's values.
    #[test]
    fn the_vector_loop_values_heaps_as_the_definition_does() {
        let mut codes: Vec<String> = Vec::new();
        for d1 in 0..8 {
            for d2 in 0..8 {
                codes.push(format!("0.{d1}{d2}"));
                codes.push(format!("4.{d1}{d2}"));
                codes.push(format!("0.{d1}{}{d2}", (d1 * 3 + d2) % 8));
            }
        }
        for code in codes.iter().filter(|c| c.trim_end_matches('0') != "0.") {
            let Ok(rule) = TakeBreak::octal(code, code) else {
                continue;
            };
            let want = plain(code, 300);
            for resume in [1, 37, 300] {
                let mut values = want[..resume].to_vec();
                rule.extend_by_definition(&mut values, 300, &never);
                assert_eq!(values, want, "{code} from heap {resume}");
            }
        }
    }

    /// The first heap with an option of 64 or more stops the loop (0.354: the first value
    /// past 63 is at heap 399), every value before it the definition's; the rule goes on the
    /// plain way from there.
    #[test]
    fn the_loop_stops_at_the_first_large_option() {
        use crate::game::NimSet;
        let want = plain("0.354", 1000);
        let rule = TakeBreak::octal("0.354", "0.354").unwrap();
        let large = (1..=1000)
            .find(|&h| {
                let mut seen = NimSet::new();
                rule.option_values(h, &want, &mut seen);
                seen.max() >= Some(64)
            })
            .unwrap();
        assert!(large > 399, "past the first value of 64 or more");
        let mut values = vec![0];
        extend(rule.listed_moves().unwrap(), &mut values, 1000, &never);
        if available() {
            assert_eq!(values, want[..large]);
        }
        let mut values = vec![0];
        rule.extend_by_definition(&mut values, 1000, &never);
        assert_eq!(values, want);
    }

    /// One heap after a made-up prefix of values (some of 64 or more, so that splits of
    /// heaps below 64 may give one): valued as the mex of its options when all are below 64,
    /// else left, over pseudo-random codes and prefixes.
    #[test]
    fn a_heap_is_valued_when_its_options_are_below_64_and_left_otherwise() {
        use crate::game::NimSet;
        if !available() {
            return;
        }
        let mut next = crate::testing::xorshift(0x9e37_79b9);
        let (mut valued, mut left) = (0, 0);
        for round in 0..3000 {
            let code = format!("0.{}{}{}", next() % 8, next() % 8, 1 + next() % 7);
            let rule = TakeBreak::octal(&code, &code).unwrap();
            let top = [8, 64, 70, 200][round % 4];
            let len = 1 + (next() % 150) as usize;
            let mut values: Vec<Nimber> = (0..len).map(|_| next() % top).collect();
            let mut seen = NimSet::new();
            rule.option_values(len, &values, &mut seen);
            extend(rule.listed_moves().unwrap(), &mut values, len, &never);
            if seen.max() >= Some(64) {
                assert_eq!(values.len(), len, "{code}, round {round}: left");
                left += 1;
            } else {
                assert_eq!(values.len(), len + 1, "{code}, round {round}: valued");
                assert_eq!(values[len], seen.mex(), "{code}, round {round}");
                valued += 1;
            }
        }
        assert!(valued > 500 && left > 500, "{valued} valued, {left} left");
    }

    /// `stop` ends the loop with the heaps valued so far.
    #[test]
    fn stop_ends_the_loop() {
        let rule = TakeBreak::octal("0.77", "0.77").unwrap();
        let asked = std::cell::Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() > 50
        };
        let mut values = vec![0];
        rule.extend_by_definition(&mut values, 300, &stop);
        assert_eq!(values, plain("0.77", 300)[..values.len()]);
        assert!(values.len() < 300);
    }
}
