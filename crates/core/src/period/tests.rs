//! Periods against the literature's and against values computed far past their check; the
//! least period and preperiod against a plain search; limits, short values and stops.

use super::*;
use crate::game::heap::{nim_sequence, GrundysGame, TakeBreak};
use crate::progress::Silent;

/// Checks a proved `p` on values computed far past its check: G(n + period) = G(n) +
/// saltus from the preperiod on, not from one heap earlier, and no smaller period holds
/// on the second half of the values.
pub(crate) fn assert_holds_on(name: &str, p: &Period, far: &[Nimber]) {
    let s = p.saltus;
    for n in p.preperiod..far.len() - p.period {
        assert_eq!(far[n + p.period], far[n] + s, "{name} at {n}");
    }
    if p.preperiod > 0 {
        let n = p.preperiod - 1;
        assert_ne!(far[n + p.period], far[n] + s, "{name}");
    }
    let tail = far.len() / 2;
    for d in 1..p.period {
        let c = far[tail + d] as i64 - far[tail] as i64;
        assert!(
            (tail..far.len() - d).any(|n| far[n + d] as i64 - far[n] as i64 != c),
            "{name}: {d} is a smaller period"
        );
    }
}

fn analysed(rule: &dyn HeapRule) -> Period {
    analyse(rule, 1 << 12, &Silent)
        .proved
        .unwrap_or_else(|| panic!("{rule:?}: no period proved"))
}

/// The known facts: S = {1..k} has period k + 1; {1,3,4} period 7; two-element sets
/// {a, b} period a + b, or 2a when b is an odd multiple of a ... ; Kayles (0.77) preperiod
/// 71, period 12; Dawson's Kayles (0.07) preperiod 52, period 34.
#[test]
fn known_periods_are_proved() {
    for k in 1..=6 {
        let set: Vec<String> = (1..=k).map(|i| i.to_string()).collect();
        let rule = TakeBreak::subtraction("", &set.join(",")).unwrap();
        let p = analysed(&rule);
        assert_eq!((p.preperiod, p.period), (0, k + 1), "{set:?}");
    }
    let p = analysed(&TakeBreak::subtraction("", "1,3,4").unwrap());
    assert_eq!((p.preperiod, p.period), (0, 7));
    let p = analysed(&TakeBreak::octal("", "0.77").unwrap());
    assert_eq!((p.preperiod, p.period), (71, 12));
    // Heap n of Dawson's Chess (0.137) plays as heap n + 1 of Dawson's Kayles (0.07), so
    // the preperiods differ by one; tables that index 0.07 by Dawson's Chess say 52.
    let p = analysed(&TakeBreak::octal("", "0.07").unwrap());
    assert_eq!((p.preperiod, p.period), (53, 34));
    assert!(matches!(
        p.criterion,
        Criterion::GuySmith { take: 2, heaps: 2 }
    ));
    assert_eq!(p.checked_up_to, 2 * 53 + 2 * 34 + 2 - 1);
    let p = analysed(&TakeBreak::octal("", "0.137").unwrap());
    assert_eq!((p.preperiod, p.period), (52, 34));
}

/// Two-element sets {a, b} with a < b: period a + b, except when b is an odd multiple of
/// a, where it is 2a.
#[test]
fn two_element_sets_have_the_known_periods() {
    for a in 1..=6usize {
        for b in a + 1..=14 {
            let rule = TakeBreak::subtraction("", &format!("{a},{b}")).unwrap();
            let p = analysed(&rule);
            let want = if b % a == 0 && (b / a) % 2 == 1 {
                2 * a
            } else {
                a + b
            };
            assert_eq!(p.period, want, "{{{a},{b}}}");
        }
    }
}

/// A period the check proves holds far past the values it used.
#[test]
fn proved_periods_hold_beyond_the_check() {
    for rule in [
        TakeBreak::octal("", "0.77").unwrap(),
        TakeBreak::octal("", "4.07").unwrap(),
        TakeBreak::octal("", "0.137").unwrap(),
        TakeBreak::subtraction("", "2,5,7").unwrap(),
    ] {
        let p = analysed(&rule);
        let far = nim_sequence(&rule, p.checked_up_to * 3 + 50);
        for n in p.preperiod..far.len() - p.period {
            assert_eq!(far[n], far[n + p.period], "{rule:?} at {n}");
        }
        // And not from one heap earlier.
        if p.preperiod > 0 {
            let n = p.preperiod - 1;
            assert_ne!(far[n], far[n + p.period], "{rule:?}");
        }
    }
}

/// The scan that starts a multiple's repetition where its divisor's starts finds what
/// scanning every period from the end finds, on prefixes of real sequences and on
/// periodic ones with late exceptions.
#[test]
fn multiples_start_where_their_divisor_does() {
    fn reference(values: &[Nimber], c: Criterion) -> Option<(usize, usize)> {
        let len = values.len();
        (1..len).find_map(|p| {
            let mut n0 = len - p;
            while n0 > 0 && values[n0 - 1] == values[n0 - 1 + p] {
                n0 -= 1;
            }
            (c.end(n0, p) + p <= len).then_some((n0, p))
        })
    }
    let mut sequences: Vec<(Vec<Nimber>, Criterion)> = Vec::new();
    for code in ["0.07", "0.77", "0.137", "4.07"] {
        let rule = TakeBreak::octal("", code).unwrap();
        let c = Criterion::of(rule.bounds().unwrap());
        for len in [100, 170, 176, 250, 400] {
            sequences.push((nim_sequence(&rule, len - 1), c));
        }
    }
    // Period 5 with exceptions at heaps 300 and 331, seen through a window check of 3.
    let c = Criterion::Window {
        take: 3,
        plain_removal: true,
    };
    for len in [200, 320, 400, 700] {
        let mut v: Vec<Nimber> = (0..len).map(|n| [0, 1, 2, 1, 3][n % 5]).collect();
        for x in [300, 331] {
            if x < len {
                v[x] = 9;
            }
        }
        sequences.push((v, c));
    }
    // Period 7 (0 1 2 3 4 0 1) below heap 140, period 5 (0 1 2 3 4) from there: the 7
    // repetition reaches across the seam, so starting a non-multiple of 5 where the 5
    // repetition starts would "prove" period 7 from heap 0.
    let seam: Vec<Nimber> = (0..250)
        .map(|n| {
            if n < 140 {
                [0, 1, 2, 3, 4, 0, 1][n % 7]
            } else {
                n as Nimber % 5
            }
        })
        .collect();
    sequences.push((seam, Criterion::GuySmith { take: 3, heaps: 2 }));
    // The same values under the other criteria of a stretch: a window that may not start
    // at heap 0, and the check for moves leaving three heaps.
    let others = [
        Criterion::Window {
            take: 3,
            plain_removal: false,
        },
        Criterion::GuySmith { take: 2, heaps: 3 },
    ];
    let more: Vec<(Vec<Nimber>, Criterion)> = sequences
        .iter()
        .flat_map(|(v, _)| others.iter().map(|&c| (v.clone(), c)))
        .collect();
    sequences.extend(more);
    for (v, c) in sequences {
        let got = prove(&v, c).map(|p| (p.preperiod, p.period));
        assert_eq!(got, reference(&v, c), "length {}", v.len());
    }
}

/// A short sequence proves a short period: a limit of a few dozen heaps is enough for
/// {1, 2, 3} (period 4, checked on 3 + 4 values).
#[test]
fn small_limits_still_prove_small_periods() {
    let rule = TakeBreak::subtraction("", "1,2,3").unwrap();
    let a = analyse(&rule, 20, &Silent);
    let p = a.proved.expect("period 4 within 20 heaps");
    assert_eq!((p.preperiod, p.period), (0, 4));
}

#[test]
fn short_values_prove_nothing_and_rules_without_a_check_are_observed() {
    let kayles = TakeBreak::octal("", "0.77").unwrap();
    let c = Criterion::of(kayles.bounds().unwrap());
    assert_eq!(prove(&nim_sequence(&kayles, 100), c), None);
    let a = analyse(&kayles, 100, &Silent);
    assert!(a.proved.is_none() && a.no_criterion.is_none());
    // All-but {1}: take 2 or more; G(n) = floor(n / 2), arithmetic period 2, saltus 1,
    // proved by a repeated state.
    let all_but = TakeBreak::subtraction("", "all-but:1").unwrap();
    let p = analyse(&all_but, 300, &Silent).proved.expect("a proof");
    assert_eq!((p.preperiod, p.period, p.saltus), (0, 2, 1));
    assert!(matches!(p.criterion, Criterion::RepeatedState { .. }));
    let g = analyse(&GrundysGame, 2000, &Silent);
    assert!(g.proved.is_none() && g.no_criterion.is_some());
}

/// A stop cuts the run short with the values so far, which are right as far as they go,
/// and says so; a stop that comes after the proof changes nothing.
#[test]
fn stops_keep_the_values_so_far() {
    use std::cell::Cell;
    let after = |n: usize| {
        let asked = Cell::new(0);
        move || {
            asked.set(asked.get() + 1);
            asked.get() > n
        }
    };
    for rule in [
        Box::new(TakeBreak::octal("", "0.77").unwrap()) as Box<dyn HeapRule>,
        Box::new(TakeBreak::hex("", "0.9").unwrap()),
        Box::new(GrundysGame),
    ] {
        let a = analyse_until(rule.as_ref(), 1 << 12, &Silent, &after(100));
        assert!(a.stopped && a.proved.is_none(), "{rule:?}");
        assert_eq!(
            a.values.to_vec(),
            nim_sequence(rule.as_ref(), a.values.len() - 1)
        );
        assert!((50..=101).contains(&a.values.len()), "{}", a.values.len());
    }
    let kayles = TakeBreak::octal("", "0.77").unwrap();
    let a = analyse_until(&kayles, 1 << 12, &Silent, &after(1 << 20));
    assert!(!a.stopped);
    assert_eq!(a.proved.map(|p| (p.preperiod, p.period)), Some((71, 12)));
    let never = analyse_until(&kayles, 100, &Silent, &after(0));
    assert_eq!((never.values.len(), never.stopped), (1, true));
}

/// A run stopped part way with a checkpoint, then run again on the same file, ends with the
/// values and answer of a run straight through, and so does a run resumed from more values
/// than its proof needs (Kayles' period is proved from values read up to its round's end).
#[test]
fn resumed_runs_answer_as_runs_straight_through() {
    use std::cell::Cell;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grundy.values");
    let checkpoint = Checkpoint {
        path: &path,
        every: std::time::Duration::from_secs(600),
    };
    let asked = Cell::new(0usize);
    let stop = || {
        asked.set(asked.get() + 1);
        asked.get() > 2500
    };
    // The first run holds its values on disk; the resumed ones in memory.
    let keeping = |checkpoint| Keeping {
        disk: None,
        checkpoint: Some(checkpoint),
    };
    let on_disk = Keeping {
        disk: Some(dir.path()),
        ..keeping(checkpoint)
    };
    let first = analyse_kept(&GrundysGame, 5000, &Silent, &stop, &on_disk).unwrap();
    assert_eq!(first.values.disk(), Some(dir.path()));
    assert!(first.stopped && first.values.len() < 5000);
    let kept = values_file::read(&path).unwrap();
    assert_eq!(kept.values, first.values);
    let resumed = analyse_kept(
        &GrundysGame,
        5000,
        &Silent,
        &crate::game::heap::never,
        &keeping(checkpoint),
    )
    .unwrap();
    let straight = analyse(&GrundysGame, 5000, &Silent);
    assert_eq!(resumed.values, straight.values);
    assert!(!resumed.stopped);
    assert_eq!(values_file::read(&path).unwrap().values, straight.values);

    let kayles = TakeBreak::octal("octal:0.77", "0.77").unwrap();
    let path = dir.path().join("kayles.values");
    values_file::write(&path, "octal:0.77", &nim_sequence(&kayles, 3000).into()).unwrap();
    let checkpoint = Checkpoint {
        path: &path,
        ..checkpoint
    };
    let resumed = analyse_kept(
        &kayles,
        1 << 12,
        &Silent,
        &crate::game::heap::never,
        &keeping(checkpoint),
    )
    .unwrap();
    let straight = analyse(&kayles, 1 << 12, &Silent);
    assert_eq!(resumed.values, straight.values);
    assert_eq!(resumed.proved, straight.proved);
    assert!(resumed.values.len() < 3000);
    // Another game's checkpoint is refused.
    let err = analyse_kept(
        &GrundysGame,
        100,
        &Silent,
        &crate::game::heap::never,
        &keeping(checkpoint),
    )
    .unwrap_err();
    assert!(matches!(err, crate::error::Error::Data { .. }));
}

/// The memory counted before a run covers what a run holds: the values (a byte each, the
/// large ones apart) and the rare heaps' lists, on Grundy's game (values apart from 255 on
/// would need far more heaps; see the valuation's tests for those) and octal codes.
#[test]
fn memory_needed_covers_the_values_held() {
    let rules: Vec<Box<dyn HeapRule>> = vec![
        Box::new(GrundysGame),
        Box::new(TakeBreak::octal("", "0.354").unwrap()),
        Box::new(TakeBreak::octal("", "0.16").unwrap()),
    ];
    for rule in rules {
        let n = 20_000;
        let a = analyse(rule.as_ref(), n, &Silent);
        let rare = a.rarity.expect("valued by the rare/common technique").rare as u64;
        let held = a.values.bytes() + 16 * rare;
        let counted = memory_needed(rule.as_ref(), n);
        assert!(held <= counted, "{rule:?}: {held} held, {counted} counted");
        // And not far past it: a byte a heap and a sixteenth, and 1 MiB.
        assert!(
            counted <= (n as u64 + 1) * 17 / 16 + (1 << 20) + 1,
            "{rule:?}: {counted}"
        );
    }
    // At the sequence's limit the count is made in 64 bits, past 2^32 bytes, not wrapped:
    // a byte for each of the 2^32 + 1 values, a sixteenth more and 1 MiB.
    let top = MAX_HEAP as u64 + 1;
    assert_eq!(
        memory_needed(&GrundysGame, MAX_HEAP),
        top + top / 16 + (1 << 20)
    );
}

/// Values held on disk are those held in memory, on one thread and on two (whose blocks and
/// long scans read the mapped file from both), for Grundy's game and octal codes that split
/// heaps; a checkpoint resumes into values on disk.
#[test]
fn values_on_disk_are_those_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let rules: Vec<Box<dyn HeapRule>> = vec![
        Box::new(GrundysGame),
        Box::new(TakeBreak::octal("octal:0.16", "0.16").unwrap()),
        Box::new(TakeBreak::octal("octal:0.354", "0.354").unwrap()),
    ];
    let on_disk = Keeping {
        disk: Some(dir.path()),
        checkpoint: None,
    };
    for rule in &rules {
        let n = 40_000;
        let memory = analyse(rule.as_ref(), n, &Silent);
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let never = crate::game::heap::never;
            let disk = pool
                .install(|| analyse_kept(rule.as_ref(), n, &Silent, &never, &on_disk))
                .unwrap();
            assert_eq!(disk.values.disk(), Some(dir.path()));
            assert_eq!(disk.values, memory.values, "{rule:?} on {threads} threads");
            assert_eq!(
                (disk.proved, disk.observed, disk.rarity),
                (
                    memory.proved.clone(),
                    memory.observed.clone(),
                    memory.rarity
                )
            );
        }
    }
    // Resumed from a checkpoint into values on disk.
    let path = dir.path().join("grundy.values");
    let straight = analyse(&GrundysGame, 30_000, &Silent);
    let start = Values::from_slice(&straight.values.range_to_vec(0..10_000));
    values_file::write(&path, "grundy-game", &start).unwrap();
    let keeping = Keeping {
        checkpoint: Some(Checkpoint {
            path: &path,
            every: std::time::Duration::from_secs(600),
        }),
        ..on_disk
    };
    let never = crate::game::heap::never;
    let resumed = analyse_kept(&GrundysGame, 30_000, &Silent, &never, &keeping).unwrap();
    assert_eq!(resumed.values.disk(), Some(dir.path()));
    assert_eq!(resumed.values, straight.values);
    // The files held no name: the directory holds the checkpoint alone.
    drop(resumed);
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
}

/// A run on disk is refused before it starts for a rule valued at full width in memory (by
/// the check and by the analysis), and when memory lacks room for the rest; the values' byte a heap is not counted as memory.
#[test]
fn runs_on_disk_are_checked_first() {
    use crate::error::{Error, OptionKey, Setting};
    let dir = tempfile::tempdir().unwrap();
    let kayles = TakeBreak::octal("octal:0.77", "0.77").unwrap();
    let plain = TakeBreak::hex("hex:0.8", "0.8").unwrap();
    assert!(kayles.values_in_place() && !plain.values_in_place());
    let refused = |err: &Error| {
        matches!(
            err,
            Error::Refused {
                key: OptionKey::OnDisk,
                ..
            }
        )
    };
    let err = check_on_disk(&plain, 1000, u64::MAX, dir.path()).unwrap_err();
    assert!(refused(&err), "{err}");
    // And by the analysis itself, which would otherwise hold them in memory unasked.
    let on_disk = Keeping {
        disk: Some(dir.path()),
        checkpoint: None,
    };
    let never = crate::game::heap::never;
    let err = analyse_kept(&plain, 1000, &Silent, &never, &on_disk).unwrap_err();
    assert!(refused(&err), "{err}");
    let n = 1 << 28;
    let needed = memory_needed(&GrundysGame, n);
    assert!(check_memory(&GrundysGame, n, needed - (n as u64)).is_err());
    check_on_disk(&GrundysGame, n, needed - (n as u64), dir.path()).unwrap();
    let err = check_on_disk(&GrundysGame, n, (1 << 20) - 1, dir.path()).unwrap_err();
    assert_eq!(err.raise(), Some(Setting::MemoryLimit), "{err}");
    let gone = dir.path().join("gone");
    assert!(matches!(
        check_on_disk(&GrundysGame, n, u64::MAX, &gone).unwrap_err(),
        Error::Io { .. }
    ));
}

/// A checkpoint is saved every so often across rounds: rounds each shorter than the interval
/// still get a save once it has passed (here the run stops at the first save it sees).
#[test]
fn checkpoints_fall_due_across_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grundy.values");
    let keeping = Keeping {
        disk: None,
        checkpoint: Some(Checkpoint {
            path: &path,
            every: std::time::Duration::from_millis(200),
        }),
    };
    // The first heaps are valued by the definition, which asks before each heap: a pause
    // of 120 ms at the 200th question falls in the round to 256 heaps, one at the 400th in
    // the round to 512. Each round is shorter than the interval, the two together longer.
    let asked = std::cell::Cell::new(0);
    let saved = || {
        asked.set(asked.get() + 1);
        if asked.get() % 200 == 0 && asked.get() <= 400 {
            std::thread::sleep(std::time::Duration::from_millis(120));
        }
        path.exists()
    };
    let a = analyse_kept(&GrundysGame, 2048, &Silent, &saved, &keeping).unwrap();
    assert!(a.stopped && a.values.len() < 2049, "{}", a.values.len());
    assert_eq!(values_file::read(&path).unwrap().values, a.values);
}

/// A report writes its values from the analysis as it goes, in their key's place among the
/// fields a front end added, and reads back as the JSON object [`words::json`] builds: the
/// values of a run unsettled, the preperiod and period of one proved.
#[test]
fn reports_write_the_values_in_their_place() {
    use serde_json::{json, Value};
    let unsettled = analyse(&GrundysGame, 3000, &Silent);
    let kayles = analyse(
        &TakeBreak::octal("octal:0.77", "0.77").unwrap(),
        1000,
        &Silent,
    );
    for (name, a) in [("grundy-game", &unsettled), ("octal:0.77", &kayles)] {
        let mut report = words::Report::of(name, a);
        report.fields.insert("contractions".into(), Value::Null);
        report.fields.insert("zeta".into(), json!(1));
        let text = serde_json::to_string(&report).unwrap();
        let read: Value = serde_json::from_str(&text).unwrap();
        let shown = a
            .proved
            .as_ref()
            .map_or(a.values.len(), |p| p.preperiod + p.period);
        assert_eq!(
            read["values"],
            json!(a.values.range_to_vec(0..shown)),
            "{name}"
        );
        assert_eq!(
            (&read["contractions"], &read["zeta"]),
            (&Value::Null, &json!(1))
        );
        let at = |key: &str| text.find(&format!("\"{key}\":")).unwrap();
        assert!(
            at("timed_out") < at("values") && at("values") < at("zeta"),
            "{text}"
        );
        let mut built = words::json(name, a);
        built["contractions"] = Value::Null;
        built["zeta"] = json!(1);
        assert_eq!(read, built, "{name}");
    }
    assert_eq!(unsettled.values.len(), 3001);
    assert!(kayles.proved.is_some());
}
