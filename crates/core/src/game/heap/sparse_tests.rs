//! Tests of the rare/common valuation against the definition.

use super::*;
use crate::with_values;

use crate::game::heap::{never, nim_sequence, GrundysGame, HeapRule, TakeBreak};

fn naive(rule: &TakeBreak, n: usize) -> Vec<Nimber> {
    let mut values = Vec::new();
    crate::game::heap::by_definition(rule, &mut values, n, &never);
    values
}

/// The sparse sequence is the definition's, on games with few rare heaps (0.16, Kayles)
/// and on ones where the mask helps little.
#[test]
fn sparse_values_are_the_definitions() {
    for code in [
        "0.16", "0.77", "0.07", "0.137", "4.07", "0.26", "0.4", "0.356", "0.51",
    ] {
        let rule = TakeBreak::octal("", code).unwrap();
        let mut fast = Values::new();
        extend(&rule, &mut fast, 6000, &never);
        assert_eq!(fast.to_vec(), naive(&rule, 6000), "0.{code}");
    }
    let mut fast = Values::new();
    extend(&GrundysGame, &mut fast, 6000, &never);
    let mut slow = Vec::new();
    crate::game::heap::by_definition(&GrundysGame, &mut slow, 6000, &never);
    assert_eq!(fast.to_vec(), slow, "Grundy's game");
}

/// Unsolved and benchmarked codes, valued in blocks, agree with the definition past
/// several blocks. (A hex code is valued so only without three-heap moves, when it is an
/// octal code.)
#[test]
fn blocks_value_as_the_definition_does() {
    for code in [
        "0.6", "0.04", "0.14", "0.36", "0.64", "0.74", "0.354", "0.56", "0.376", "0.127", "4.7",
    ] {
        let rule = TakeBreak::octal("", code).unwrap();
        assert!(rule.sparse(), "{code}");
        let mut fast = Values::new();
        extend(&rule, &mut fast, 4000, &never);
        assert_eq!(fast.to_vec(), naive(&rule, 4000), "{code}");
    }
}

/// Where every split takes an odd amount, the heaps' parity joins the classes (0.127 and
/// 0.137, whose rare heaps it makes fewer), and the values are still the definition's; where
/// the amounts' parities differ (0.74, 0.64) it never does.
#[test]
fn the_heaps_parity_serves_splits_of_one_parity() {
    for (code, parity) in [("0.127", Some(1)), ("0.137", Some(1)), ("0.16", Some(0))] {
        assert_eq!(TakeBreak::octal("", code).unwrap().split_parity(), parity);
    }
    assert_eq!(GrundysGame.split_parity(), Some(0));
    for code in ["0.127", "0.137"] {
        let rule = TakeBreak::octal("", code).unwrap();
        let mut fast = Values::new();
        let blocks = extend_reading(&rule, &mut fast, 5000, Tuning::default(), &never);
        assert!(blocks.by_parity > 0, "{code}: {blocks:?}");
        assert_eq!(fast.to_vec(), naive(&rule, 5000), "{code}");
        let rarity = rule.rarity(&fast).unwrap();
        assert_eq!(rarity.classes.shift, Some(1), "{code}");
    }
    for code in ["0.74", "0.64"] {
        let rule = TakeBreak::octal("", code).unwrap();
        assert_eq!(rule.split_parity(), None, "{code}");
        let mut fast = Values::new();
        let blocks = extend_reading(&rule, &mut fast, 3000, Tuning::default(), &never);
        assert_eq!(blocks.by_parity, 0, "{code}");
    }
}

/// For heaps from the first that `split_takes` names, its amounts give exactly the totals
/// `options` pushes: the blocks' shared reads rely on it.
#[test]
fn split_takes_are_the_options_splits() {
    fn check(rule: &(impl Splits + std::fmt::Debug), values: &[Nimber]) {
        let values = &Values::from_slice(values);
        let (from, takes) = rule.split_takes();
        for h in from..values.len() {
            let (mut plain, mut splits) = (NimSet::new(), Vec::new());
            with_values!(values, v => rule.options(h, v, &mut plain, &mut splits));
            let want: Vec<usize> = takes.iter().map(|&k| h - k).collect();
            assert_eq!(splits, want, "{rule:?} {h}");
        }
    }
    for code in ["0.16", "0.354", "4.07", "0.6", "0.137", "0.4"] {
        let rule = TakeBreak::octal("", code).unwrap();
        check(&rule, &naive(&rule, 60));
    }
    check(&GrundysGame, &nim_sequence(&GrundysGame, 60));
}

/// Reading the values at full width, as past 2^16.
const WIDE: Tuning = Tuning {
    min_width: 4,
    parallel_from: PARALLEL_FROM,
    escape_from: ESCAPE,
    ahead_from: AHEAD_FROM,
    ahead_alone: false,
    speculate: Speculate::Quiet,
    stretch: None,
};

/// Values kept apart in a side table (as those of 255 and more are) read the same, on
/// Grundy's game and octal codes whose values pass the small thresholds here early and often.
#[test]
fn values_kept_apart_read_as_the_definition() {
    let apart = |from| Tuning {
        escape_from: from,
        ..Tuning::default()
    };
    for from in [3, 6, 12] {
        let mut fast = Values::new();
        extend_reading(&GrundysGame, &mut fast, 5000, apart(from), &never);
        assert!(fast.escaped() > 100, "{from}");
        let mut slow = Vec::new();
        crate::game::heap::by_definition(&GrundysGame, &mut slow, 5000, &never);
        assert_eq!(fast.to_vec(), slow, "Grundy's game, apart from {from}");
        for code in ["0.354", "0.16", "0.127", "4.7"] {
            let rule = TakeBreak::octal("", code).unwrap();
            let mut fast = Values::new();
            extend_reading(&rule, &mut fast, 4000, apart(from), &never);
            assert_eq!(
                fast.to_vec(),
                naive(&rule, 4000),
                "{code}, apart from {from}"
            );
        }
    }
}

/// Reading the values at full width (as past 2^16) gives the same sequence.
#[test]
fn wide_values_read_the_same() {
    let rule = TakeBreak::octal("", "0.354").unwrap();
    let (mut narrow, mut wide) = (Values::new(), Values::new());
    extend_reading(&rule, &mut narrow, 8000, Tuning::default(), &never);
    extend_reading(&rule, &mut wide, 8000, WIDE, &never);
    assert_eq!((narrow.width(), wide.width()), (1, 4));
    assert_eq!(narrow, wide);
    let (mut narrow, mut wide) = (Values::new(), Values::new());
    extend_reading(&GrundysGame, &mut narrow, 8000, Tuning::default(), &never);
    extend_reading(&GrundysGame, &mut wide, 8000, WIDE, &never);
    assert_eq!(narrow, wide);
}

/// Extending in rounds gives the values of one run.
#[test]
fn rounds_extend_the_same_sequence() {
    let rule = TakeBreak::octal("", "0.16").unwrap();
    let mut once = Values::new();
    extend(&rule, &mut once, 5000, &never);
    let mut rounds = Values::new();
    for n in [100, 2500, 3000, 5000] {
        extend(&rule, &mut rounds, n, &never);
    }
    assert_eq!(once, rounds);
}

/// Scans shared out over threads from the 40th pair of a total on (so that short runs share
/// many), on pools of 1, 2 and 3 threads, give the definition's values, narrow and wide.
#[test]
fn shared_scans_value_as_the_definition_does() {
    let mut grundy = Vec::new();
    crate::game::heap::by_definition(&GrundysGame, &mut grundy, 3000, &never);
    let octal: Vec<(TakeBreak, Vec<Nimber>)> = ["0.6", "0.354", "0.137", "4.07", "0.16"]
        .iter()
        .map(|code| {
            let rule = TakeBreak::octal(code, code).unwrap();
            let want = naive(&rule, 3000);
            (rule, want)
        })
        .collect();
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let speculate = [Speculate::Quiet, Speculate::Always, Speculate::Always];
        for ((min_width, escape_from), speculate) in [(1, ESCAPE), (4, ESCAPE), (1, 5)]
            .into_iter()
            .zip(speculate)
        {
            let tuning = Tuning {
                min_width,
                parallel_from: 40,
                escape_from,
                ahead_from: 0,
                ahead_alone: true,
                speculate,
                stretch: None,
            };
            let mut fast = Values::new();
            pool.install(|| extend_reading(&GrundysGame, &mut fast, 3000, tuning, &never));
            assert_eq!(fast.to_vec(), grundy, "Grundy's game, {threads} threads");
            for (rule, want) in &octal {
                let mut fast = Values::new();
                pool.install(|| extend_reading(rule, &mut fast, 3000, tuning, &never));
                assert_eq!(&fast.to_vec(), want, "{}, {threads} threads", rule.name());
            }
        }
    }
}

/// Grundy's game to heap 30 000 (and to 6 000 with the values from 6 on kept apart), and the
/// octal `codes` to heap 10 000, valued with `tuning` (given where values are kept apart from)
/// on pools of one thread and of two: each as the definition says. Returns, for each pool, a
/// count of how the runs' blocks went: `count` summed over them.
fn as_the_definition(tuning: impl Fn(u8) -> Tuning + Sync, codes: &[&str]) -> Vec<Sums> {
    let mut grundy = Vec::new();
    crate::game::heap::by_definition(&GrundysGame, &mut grundy, 30000, &never);
    let octal: Vec<(TakeBreak, Vec<Nimber>)> = codes
        .iter()
        .map(|code| {
            let rule = TakeBreak::octal(code, code).unwrap();
            let want = naive(&rule, 10000);
            (rule, want)
        })
        .collect();
    let mut sums = Vec::new();
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut all = Vec::new();
        pool.install(|| {
            for (n, escape_from) in [(30000, ESCAPE), (6000, 6)] {
                let mut fast = Values::new();
                let blocks =
                    extend_reading(&GrundysGame, &mut fast, n, tuning(escape_from), &never);
                all.push(blocks);
                let want = &grundy[..=n];
                assert_eq!(fast.to_vec(), want, "{threads} threads, {escape_from}");
            }
            for (rule, want) in &octal {
                let mut fast = Values::new();
                all.push(extend_reading(
                    rule,
                    &mut fast,
                    10000,
                    tuning(ESCAPE),
                    &never,
                ));
                assert_eq!(&fast.to_vec(), want, "{}, {threads} threads", rule.name());
            }
        });
        eprintln!("{threads} threads: {all:?}");
        sums.push(Sums(all));
    }
    sums
}

/// How the blocks of several runs went.
struct Sums(Vec<Blocks>);

impl Sums {
    fn of(&self, count: fn(&Blocks) -> usize) -> usize {
        self.0.iter().map(count).sum()
    }
}

/// Blocks whose shared reads were made while the block before was valued (here every block's,
/// on pools of one thread and of two) value as the definition does and as reading nothing
/// ahead does: on Grundy's game past widened tables and new masks (the reads made ahead then
/// dropped and made again), with values kept apart from small ones, and on octal codes.
#[test]
fn reads_ahead_value_as_the_definition_does() {
    let mut grundy = Vec::new();
    crate::game::heap::by_definition(&GrundysGame, &mut grundy, 30000, &never);
    let mut alone = Values::new();
    let tuning = Tuning {
        ahead_from: usize::MAX,
        ..Tuning::default()
    };
    let blocks = extend_reading(&GrundysGame, &mut alone, 30000, tuning, &never);
    assert_eq!((alone.to_vec(), blocks.read_ahead), (grundy, 0));
    let ahead = |escape_from| Tuning {
        ahead_from: 0,
        ahead_alone: true,
        escape_from,
        ..Tuning::default()
    };
    let codes = ["0.04", "0.64", "0.127", "0.354", "0.56", "4.7"];
    for sums in as_the_definition(ahead, &codes) {
        assert!(sums.of(|b| b.read_ahead) > 1000);
        assert!(sums.of(|b| b.widened) >= 3 && sums.of(|b| b.rechosen) >= 3);
        assert!(sums.of(|b| b.dropped) >= 6);
    }
}

/// `octal:0.354` to heap 8000 on a pool of `threads` threads, stopped every 37th time the run
/// asks and taken up again until done: the values, and how each piece's blocks went.
fn in_pieces(tuning: Tuning, threads: usize) -> (Values, Vec<Blocks>) {
    let rule = TakeBreak::octal("", "0.354").unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let asked = std::sync::atomic::AtomicUsize::new(1);
    let stop = || {
        asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            .is_multiple_of(37)
    };
    let (mut pieces, mut blocks) = (Values::new(), Vec::new());
    pool.install(|| {
        while pieces.len() <= 8000 {
            blocks.push(extend_reading(&rule, &mut pieces, 8000, tuning, &stop));
        }
    });
    (pieces, blocks)
}

/// `octal:0.354` to heap 8000 in one run.
fn at_once(tuning: Tuning, threads: usize) -> (Values, Blocks) {
    let rule = TakeBreak::octal("", "0.354").unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut once = Values::new();
    let blocks = pool.install(|| extend_reading(&rule, &mut once, 8000, tuning, &never));
    (once, blocks)
}

/// A run stopped every few heaps (within blocks, with their next blocks' reads under way) and
/// taken up again values as one run does, on one thread and on two.
#[test]
fn stops_within_blocks_read_ahead_lose_nothing() {
    let tuning = Tuning {
        ahead_from: 0,
        ahead_alone: true,
        ..Tuning::default()
    };
    let (once, _) = at_once(tuning, 1);
    for threads in [1, 2] {
        let (pieces, blocks) = in_pieces(tuning, threads);
        let dropped: usize = blocks.iter().map(|b| b.dropped).sum();
        assert!(dropped > 10, "{dropped}");
        assert_eq!(pieces, once, "{threads} threads");
    }
}

/// Blocks valued ahead of their checks (here all of them, on pools of one thread and of two)
/// value as the definition does: on Grundy's game, whose many rare heaps among the first cut
/// the values valued ahead again and again, past widened tables and new masks, with values
/// kept apart from small ones (and stretches longer than the least), and on octal codes
/// (0.127 and 0.137 with the heaps' parity).
#[test]
fn values_ahead_of_their_checks_are_the_definitions() {
    // Grundy's game with values kept apart in stretches of 40 blocks (checked in 20 parts).
    let ahead = |escape_from| Tuning {
        speculate: Speculate::Always,
        escape_from,
        stretch: (escape_from != ESCAPE).then_some(40),
        ..Tuning::default()
    };
    let codes = ["0.04", "0.64", "0.127", "0.137", "0.354", "4.7"];
    for sums in as_the_definition(ahead, &codes) {
        assert!(sums.of(|b| b.speculated) > 100 && sums.of(|b| b.cut) > 100);
        assert!(sums.of(|b| b.widened) >= 3 && sums.of(|b| b.rechosen) >= 3);
        assert!(sums.of(|b| b.by_parity) > 0);
    }
}

/// A run valued ahead of its checks, stopped every few heaps (within stretches, with the
/// stretch before unchecked) and taken up again, values as one run does; so does a run that
/// values ahead only where no rare heap was found for a while, as runs do by default.
#[test]
fn stops_while_values_wait_for_their_checks_lose_nothing() {
    let (once, _) = at_once(Tuning::default(), 1);
    let always = Tuning {
        speculate: Speculate::Always,
        ..Tuning::default()
    };
    for threads in [1, 2] {
        let (pieces, blocks) = in_pieces(always, threads);
        let speculated: usize = blocks.iter().map(|b| b.speculated).sum();
        assert!(speculated > 10, "{speculated}");
        assert_eq!(pieces, once, "{threads} threads");
        let (quiet, blocks) = at_once(Tuning::default(), threads);
        assert_eq!(quiet, once, "{threads} threads");
        assert_eq!(blocks.speculated > 0, threads > 1, "{blocks:?}");
    }
}
