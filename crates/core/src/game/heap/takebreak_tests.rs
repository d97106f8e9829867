//! Take-and-break rules: the published tables, the fast paths against the definition, bad codes.

use super::*;
use crate::game::heap::{by_definition, nim_sequence};

fn seq(rule: &TakeBreak, n: usize) -> Vec<Nimber> {
    nim_sequence(rule, n)
}

/// Winning Ways' tables: Kayles (0.77) and Dawson's Kayles (0.07), from heap 0.
#[test]
fn kayles_and_dawsons_kayles_match_the_tables() {
    let kayles = TakeBreak::octal("octal:0.77", "0.77").unwrap();
    assert_eq!(seq(&kayles, 12), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
    let dawson = TakeBreak::octal("octal:0.07", "0.07").unwrap();
    assert_eq!(
        seq(&dawson, 17),
        [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2]
    );
}

#[test]
fn subtraction_sets_are_codes_of_threes() {
    let s = TakeBreak::subtraction("subtraction:1,3,4", "1,3,4").unwrap();
    assert_eq!(s.digits, [0, 3, 0, 3, 3]);
    // Period 7: 0 1 0 1 2 3 2, repeated.
    assert_eq!(seq(&s, 13), [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]);
    let all_but = TakeBreak::subtraction("subtraction:all-but:2", "all-but:2").unwrap();
    assert_eq!((all_but.digit(2), all_but.digit(7)), (0, 3));
    // Every amount but 2: heap 2 can only take 1 (to 1, value 1), so 2 has value 0.
    assert_eq!(seq(&all_but, 3)[..3], [0, 1, 0]);
}

#[test]
fn the_fast_options_are_the_moves() {
    for rule in [
        TakeBreak::octal("", "0.77").unwrap(),
        TakeBreak::octal("", "4.07").unwrap(),
        TakeBreak::octal("", "0.137").unwrap(),
        TakeBreak::octal("", "0.16").unwrap(),
        TakeBreak::hex("", "0.F").unwrap(),
        TakeBreak::hex("", "0.8").unwrap(),
        TakeBreak::subtraction("", "all-but:1,3").unwrap(),
    ] {
        let fast = nim_sequence(&rule, 40);
        let mut slow: Vec<Nimber> = Vec::new();
        for n in 0..=40u32 {
            let mut seen = NimSet::new();
            rule.moves(n, &mut |heaps| {
                seen.insert(heaps.iter().fold(0, |x, &h| x ^ slow[h as usize]));
            });
            slow.push(seen.mex());
        }
        assert_eq!(fast, slow, "{rule:?}");
    }
}

/// The closed form counts what the moves list, and a heap whose moves number in the
/// hundreds of millions is counted at once.
#[test]
fn moves_are_counted_without_listing_them() {
    for rule in [
        TakeBreak::octal("", "0.77").unwrap(),
        TakeBreak::octal("", "4.07").unwrap(),
        TakeBreak::hex("", "0.9").unwrap(),
        TakeBreak::hex("", "8.F").unwrap(),
        TakeBreak::subtraction("", "2,5,100").unwrap(),
        TakeBreak::subtraction("", "all-but:1,3").unwrap(),
    ] {
        for n in 0..60 {
            let mut listed = 0;
            rule.moves(n, &mut |_| listed += 1);
            assert_eq!(rule.move_count(n), listed, "{rule:?} {n}");
        }
    }
    // hex:0.9 at 100000: the three heaps summing to 99999.
    let hex = TakeBreak::hex("", "0.9").unwrap();
    assert_eq!(hex.move_count(100_000), 833_316_667);
}

/// Linear-time valuations (sparse codes, all-but sets) agree with the definition.
#[test]
fn fast_valuations_are_the_definitions() {
    for rule in [
        TakeBreak::subtraction("", "3,17,40").unwrap(),
        TakeBreak::subtraction("", "all-but:1").unwrap(),
        TakeBreak::subtraction("", "all-but:2,3,7").unwrap(),
        TakeBreak::subtraction("", "all-but:").unwrap(),
        TakeBreak::octal("", "0.0000000007").unwrap(),
    ] {
        let fast = nim_sequence(&rule, 300);
        // The definition, digit by digit over every amount.
        let mut slow: Vec<Nimber> = Vec::new();
        for n in 0..=300 {
            let mut seen = NimSet::new();
            for k in 0..=n {
                let (d, r) = (rule.digit(k), n - k);
                if d & 1 != 0 && r == 0 && k > 0 {
                    seen.insert(0);
                }
                if d & 2 != 0 && r >= 1 && k > 0 {
                    seen.insert(slow[r]);
                }
                for a in (1..=r / 2).filter(|_| d & 4 != 0) {
                    seen.insert(slow[a] ^ slow[r - a]);
                }
            }
            slow.push(seen.mex());
        }
        assert_eq!(fast, slow, "{rule:?}");
        // Extending in steps gives the same values.
        let mut steps = Vec::new();
        for n in [0, 1, 5, 6, 50, 300] {
            rule.extend(&mut steps, n, &crate::game::heap::never);
        }
        assert_eq!(steps, fast, "{rule:?}");
    }
}

/// Codes that never split a heap are valued in the compact values themselves, in memory and on
/// disk, in steps, as the definition values them; codes that split into three heaps or take
/// any amount are not.
#[test]
fn unsplit_codes_are_valued_in_place() {
    let dir = tempfile::tempdir().unwrap();
    for rule in [
        TakeBreak::subtraction("", "1,3,4").unwrap(),
        TakeBreak::subtraction("", "3,17,40").unwrap(),
        TakeBreak::octal("", "0.123").unwrap(),
        TakeBreak::octal("", "0.0301").unwrap(),
    ] {
        assert!(rule.values_in_place() && !rule.sparse(), "{rule:?}");
        let mut definition = Vec::new();
        by_definition(&rule, &mut definition, 3000, &crate::game::heap::never);
        for mut values in [Values::new(), Values::on_disk(dir.path()).unwrap()] {
            for n in [0, 1, 5, 6, 50, 3000] {
                values.reserve_exact(n + 1 - values.len().min(n + 1));
                rule.extend_values(&mut values, n, &crate::game::heap::never);
            }
            assert_eq!(values.to_vec(), definition, "{rule:?}");
        }
        assert_eq!(rule.compact_valuation_bytes(3000), 3001);
    }
    for rule in [
        TakeBreak::hex("", "0.8").unwrap(),
        TakeBreak::subtraction("", "all-but:2").unwrap(),
    ] {
        assert!(!rule.values_in_place(), "{rule:?}");
    }
    // Past 254 amounts a value may need more than a byte: valued at full width.
    let many: Vec<usize> = (1..=255).collect();
    assert!(!TakeBreak::of_amounts("", &many).values_in_place());
}

#[test]
fn bad_codes_say_what_is_wrong() {
    for (code, needle) in [
        ("0.78", "not an octal digit"),
        ("0.7A", "need a hex code"),
        ("1.07", "take nothing"),
        ("12.3", "one digit before"),
        ("0.00", "no move"),
    ] {
        let e = TakeBreak::octal("", code).unwrap_err().to_string();
        assert!(e.contains(needle), "{code}: {e}");
    }
    assert!(TakeBreak::hex("", "0.G").is_err());
    for (set, needle) in [
        ("1,0", "at least one token"),
        ("1,1", "twice"),
        ("1,x", "not a whole number"),
        ("", "needs amounts"),
        ("99999999", "too large"),
    ] {
        let e = TakeBreak::subtraction("", set).unwrap_err().to_string();
        assert!(e.contains(needle), "{set}: {e}");
    }
}
