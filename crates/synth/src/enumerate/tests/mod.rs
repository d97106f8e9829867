//! The enumerator against brute force, level by level and stage by stage, and end to end.

mod support;
mod team;

use std::time::{Duration, Instant};

use self::support::{
    all_programs, backend, operands, random_cases, satisfies, top_and_operand, Rng, WIDTHS,
};
use super::kernel::{pair_allowed, unary, with_binary};
use super::*;
use crate::cegis;
use crate::interp::run;
use crate::lang::{rules, OpSet, Program};
use crate::problem::tests::boxed;
use crate::problem::{Example, Target};

#[test]
fn kernels_agree_with_apply() {
    let mut rng = Rng(7);
    let ops = OpSet::with_edits(1, "+Mod,+Min,+Max,+Lt").unwrap();
    for width in [1, 3, 4, 8, 16, 31, 63, 64] {
        let m = crate::interp::mask(width);
        for _ in 0..300 {
            let pick = |rng: &mut Rng| match rng.below(3) {
                0 => rng.below(width as u64 + 2) & m,
                1 => m - (rng.below(3) & m),
                _ => rng.next() & m,
            };
            let (a, b) = (pick(&mut rng), pick(&mut rng));
            for &op in ops.ops() {
                match op.arity() {
                    1 => assert_eq!(unary(op, a, m), op.apply(a, 0, m), "{op} {a} w{width}"),
                    2 => {
                        let got = with_binary!(op, m, f => f(a, b));
                        assert_eq!(got, op.apply(a, b, m), "{a} {op} {b} w{width}");
                    }
                    _ => {}
                }
            }
        }
    }
}

/// The exactness argument of the module documentation: besides operand order, the rules look
/// at an inner root only to forbid `Not` under `Not`.
#[test]
fn rules_see_only_leaves_and_not() {
    let ops = OpSet::with_edits(3, "+Mod,+Min,+Max,+Lt,+Const(2),+Const(3)").unwrap();
    let (leaves, inner): (Vec<Op>, Vec<Op>) = ops.ops().iter().partition(|o| o.arity() == 0);
    let consts = rules::Constants::of(ops.ops());
    let pair_allowed = |op, l, r| pair_allowed(op, l, r, consts);
    for &op in ops.ops() {
        for &x in &inner {
            if op.arity() == 1 {
                assert_eq!(
                    rules::unary_allowed(op, x, consts),
                    !(op == Op::Not && x == Op::Not)
                );
            }
            if op.arity() != 2 {
                continue;
            }
            for &y in &inner {
                assert!(pair_allowed(op, x, y), "{op} over {x}, {y}");
            }
            for &l in &leaves {
                let first = pair_allowed(op, l, inner[0]);
                assert_eq!(pair_allowed(op, l, x), first, "{op} over {l}, {x}");
                let first = pair_allowed(op, inner[0], l);
                assert_eq!(pair_allowed(op, x, l), first, "{op} over {x}, {l}");
            }
        }
    }
}

/// Enumeration against brute force on random small problems, length by length: without rules
/// the answers agree with all valid programs; with rules they agree with all rule-respecting
/// programs, and the shortest length agrees with all valid programs. Examples are added one
/// at a time to one search per length, as CEGIS does, so groups refuted in earlier solves are
/// skipped in later ones.
#[test]
fn agrees_with_brute_force() {
    const MAX: usize = 5;
    let mut found = [0usize; 2];
    for (case, problem) in random_cases(2024, 64, &WIDTHS) {
        let m = problem.mask();
        let outputs = |ps: &[Program]| -> Vec<Vec<u64>> {
            let run_all = |p: &Program| -> Vec<u64> {
                problem
                    .points
                    .iter()
                    .map(|x| run(p, x, m).unwrap())
                    .collect()
            };
            ps.iter().map(run_all).collect()
        };
        let all = all_programs(problem.ops.ops(), MAX, false);
        let ruled = all_programs(problem.ops.ops(), MAX, true);
        let mut shortest = vec![[None; 2]; problem.examples.len() + 1];
        for len in 1..=MAX {
            let (all, ruled) = (outputs(&all[len]), outputs(&ruled[len]));
            let mut searches = [false, true].map(|prune| {
                let mut s = EnumSearch::new(&problem, len, &backend(2), prune).unwrap();
                if prune {
                    (s.index_min, s.segment_min, s.scan_below) = (0, 1, 0);
                }
                s
            });
            for (k, best) in shortest.iter_mut().enumerate().skip(1) {
                let ex = &problem.examples[..k];
                let exists =
                    |outs: &[Vec<u64>]| outs.iter().any(|o| ex.iter().all(|e| e.holds(|p| o[p])));
                let why = format!("case {case}, length {len}, {ex:?}");
                let mut got = [false; 2];
                for (i, s) in searches.iter_mut().enumerate() {
                    s.add_example(k - 1).unwrap();
                    got[i] = match s.solve(None).unwrap() {
                        Found::Program(p) => {
                            assert_eq!(p.len(), len, "{p}: {why}");
                            let examples: Vec<usize> = (0..k).collect();
                            assert!(satisfies(&problem, &examples, &p), "{p}: {why}");
                            true
                        }
                        Found::Refuted => false,
                        Found::Timeout => panic!("no deadline was given"),
                    };
                }
                assert_eq!(got[0], exists(&all), "without rules: {why}");
                assert_eq!(got[1], exists(&ruled), "with rules: {why}");
                for (b, &g) in best.iter_mut().zip(&got) {
                    if g && b.is_none() {
                        *b = Some(len);
                    }
                }
                found[got[1] as usize] += 1;
            }
        }
        for (k, s) in shortest.iter().enumerate() {
            assert_eq!(s[0], s[1], "shortest length, case {case}, {k} examples");
        }
    }
    // The cases must exercise both answers.
    assert!(found[0] > 50 && found[1] > 50, "{found:?}");
}

/// The induction behind exactness, checked directly: the classes of each level are exactly
/// the distinct output vectors of the programs of that length (all valid programs without
/// rules, rule-respecting ones with), and a class is marked `Not`-only exactly when every
/// such program with its vector is rooted at `Not`.
#[test]
fn levels_are_exactly_the_reachable_vectors() {
    const MAX: usize = 5;
    for (case, problem) in random_cases(99, 24, &WIDTHS) {
        let m = problem.mask();
        for prune in [false, true] {
            let programs = all_programs(problem.ops.ops(), MAX, prune);
            let mut s = EnumSearch::new(&problem, MAX, &backend(2), prune).unwrap();
            s.segment_min = if prune { 1 } else { 1 << 14 };
            for e in 0..problem.examples.len() {
                s.add_example(e).unwrap();
            }
            let (points, classes) = s.classes(MAX);
            for len in 1..=MAX {
                let mut naive: ahash::AHashMap<Vec<u64>, bool> = Default::default();
                for p in &programs[len] {
                    let v: Vec<u64> = points
                        .iter()
                        .map(|&pt| run(p, &problem.points[pt], m).unwrap())
                        .collect();
                    let not = *p.0.last().unwrap() == Op::Not;
                    *naive.entry(v).or_insert(true) &= not;
                }
                let level = &classes[len - 1];
                let why = format!("case {case}, prune {prune}, length {len}");
                let mut seen = ahash::AHashSet::new();
                for (v, not_only) in level {
                    assert!(seen.insert(v.clone()) || len == 1, "duplicate class: {why}");
                    let expect = naive
                        .get(v)
                        .unwrap_or_else(|| panic!("unreachable {v:?}: {why}"));
                    assert_eq!(*not_only, len > 1 && *expect, "{v:?}: {why}");
                }
                assert_eq!(seen.len(), naive.len(), "missing vectors: {why}");
            }
        }
    }
}

/// The last level, checked directly: the output vectors (on the example points) of all the
/// candidates it accepts are exactly those of the rule-respecting programs of that length that
/// satisfy the examples, with the index used everywhere, on many small segments or few large.
#[test]
fn last_level_accepts_exactly_the_solutions() {
    const MAX: usize = 5;
    for (case, problem) in random_cases(5, 32, &WIDTHS) {
        let m = problem.mask();
        let examples: Vec<usize> = (0..problem.examples.len()).collect();
        let mut points: Vec<usize> = problem.examples.iter().flat_map(|e| e.points()).collect();
        points.sort_unstable();
        points.dedup();
        let outputs = |p: &Program| -> Vec<u64> {
            let x = &problem.points;
            points
                .iter()
                .map(|&pt| run(p, &x[pt], m).unwrap())
                .collect()
        };
        let programs = all_programs(problem.ops.ops(), MAX, true);
        for (len, programs) in programs.iter().enumerate().skip(1) {
            let mut s = EnumSearch::new(&problem, len, &backend(2), true).unwrap();
            // Many small segments, or whole levels (long sorted runs for the index walk).
            let segment_min = if case % 2 == 0 { 1 } else { 1 << 14 };
            (s.index_min, s.segment_min, s.scan_below) = (0, segment_min, 0);
            for &e in &examples {
                s.add_example(e).unwrap();
            }
            let hits = s.all_hits();
            for p in &hits {
                assert!(p.len() == len && p.is_valid() && satisfies(&problem, &examples, p));
            }
            let got: ahash::AHashSet<Vec<u64>> = hits.iter().map(outputs).collect();
            let solutions: Vec<&Program> = programs
                .iter()
                .filter(|p| satisfies(&problem, &examples, p))
                .collect();
            let want: ahash::AHashSet<Vec<u64>> = solutions.iter().map(|p| outputs(p)).collect();
            assert_eq!(got, want, "case {case}, length {len}");
            // Finer: every solution's root and its operands' outputs are among the hits' (the
            // hits may have more, the rules being applied to classes).
            let shape = |p: &Program| {
                let (root, ops) = operands(p);
                let mut outs: Vec<Vec<u64>> = ops.iter().map(outputs).collect();
                if root.is_commutative() {
                    outs.sort();
                }
                (root, outs)
            };
            let key = |p: &Program| match operands(p) {
                (g, ops) if g.arity() == 1 => (Some(g), shape(&ops[0])),
                _ => (None, shape(p)),
            };
            let got: ahash::AHashSet<_> = hits.iter().map(key).collect();
            for p in solutions {
                assert!(
                    got.contains(&key(p)),
                    "{p} missed: case {case}, length {len}"
                );
            }
        }
    }
}

/// The last stages without their levels (`deep.rs`) against the same stages over built levels,
/// which the test above checks against brute force: per top (the instructions around the
/// operand `v` of the skipped level), the same vectors of `v` pass. Random problems at widths
/// up to 8 bits, skipping level L-2 (lengths 5-7) or levels L-2 and L-3 (lengths 7-8).
#[test]
fn deep_stage_finds_what_the_built_level_finds() {
    let mut compared = [0; 2];
    for (case, problem) in random_cases(77, crate::testing::cases(20, 120), &[1, 2, 3, 4, 8]) {
        let m = problem.mask();
        let mut points: Vec<usize> = problem.examples.iter().flat_map(|e| e.points()).collect();
        points.sort_unstable();
        points.dedup();
        let outputs = |p: &[Op]| -> Vec<u64> {
            let p = Program(p.to_vec());
            let x = &problem.points;
            points
                .iter()
                .map(|&pt| run(&p, &x[pt], m).unwrap())
                .collect()
        };
        for (stages, lens) in [(1, 5..=7), (2, 7..=8)] {
            for len in lens {
                let mut s = EnumSearch::new(&problem, len, &backend(2), true).unwrap();
                (s.index_min, s.segment_min, s.scan_below, s.deep_from) = (0, 1, 0, 0);
                for e in 0..problem.examples.len() {
                    s.add_example(e).unwrap();
                }
                let examples: Vec<usize> = (0..problem.examples.len()).collect();
                let split = |p: &Program| top_and_operand(p, &outputs);
                let [built, deep] = [false, true].map(|deep| {
                    let hits = s.top_stage_hits(stages, deep);
                    for p in &hits {
                        assert!(p.len() == len && p.is_valid());
                        assert!(satisfies(&problem, &examples, p), "{p}");
                    }
                    hits.iter().map(split).collect::<ahash::AHashSet<_>>()
                });
                assert_eq!(built, deep, "case {case}, length {len}, {stages} stages");
                compared[stages - 1] += built.len();
            }
        }
    }
    assert!(
        compared.iter().all(|&c| c > 100),
        "the cases must have hits to compare: {compared:?}"
    );
}

/// P3 on [0,6)^3: with the zero target `x1 + (x0 ^ x2)` (length 5, the dependency bound) is a
/// classifier, since nothing wraps at width 8; the thesis's 0/1 criterion needs length 6.
#[test]
fn p3_and_shriek() {
    for (target, length) in [(Target::Zero, 5), (Target::Indicator, 6)] {
        let p3 = boxed("path:3", 6, target, false);
        let out = cegis::synthesize(&p3, &backend(2), 8, None).unwrap();
        assert_eq!(out.program.len(), length, "{target:?}: {}", out.program);
        assert!(out.minimal);
        assert!(p3.failures(&out.program).is_empty());
    }
    let shriek = boxed("shriek", 6, Target::Sg, false);
    let out = cegis::synthesize(&shriek, &backend(2), 8, None).unwrap();
    assert_eq!(out.program.len(), 5, "{}", out.program);
    assert!(out.minimal);
}

/// The deep-stage comparison above at the scale where skipping two levels matters: CN(4,3)'s
/// indicator at length 10, on the first 12 of the examples that decide its minimal length (the
/// built path stores levels up to 8 there, the skipping one up to 6).
#[test]
fn deep_stages_agree_at_scale() {
    let problem = boxed("circular:4,3", 6, Target::Indicator, false);
    let out = cegis::synthesize(&problem, &backend(2), 12, None).unwrap();
    let (len, examples) = (10, &out.trace.examples[..12]);
    let mut s = EnumSearch::new(&problem, len, &backend(2), true).unwrap();
    s.deep_from = 0;
    for &e in examples {
        s.add_example(e).unwrap();
    }
    let m = problem.mask();
    let outputs = |p: &[Op]| -> Vec<u64> {
        let p = Program(p.to_vec());
        let points = examples.iter();
        let points = points.flat_map(|&e| problem.examples[e].points());
        points
            .map(|pt| run(&p, &problem.points[pt], m).unwrap())
            .collect()
    };
    let [built, deep] = [false, true].map(|deep| {
        let hits = s.top_stage_hits(2, deep);
        let split = hits.iter().map(|p| top_and_operand(p, &outputs));
        split.collect::<ahash::AHashSet<_>>()
    });
    assert!(!built.is_empty(), "the stages must have hits to compare");
    assert_eq!(built, deep);
}

#[test]
fn same_program_on_any_thread_count() {
    let p3 = boxed("path:3", 6, Target::Zero, false);
    let one = cegis::synthesize(&p3, &backend(1), 8, None).unwrap();
    let two = cegis::synthesize(&p3, &backend(2), 8, None).unwrap();
    assert_eq!(one.program, two.program);
}

/// `problem` with two more examples that contradict each other, and a search of `length`
/// on them and `k` more examples: it finds nothing, so it builds every level.
fn hopeless<'p>(
    problem: &'p mut Problem,
    length: usize,
    k: usize,
    limit: u64,
) -> impl LengthSearch + 'p {
    let n = problem.examples.len();
    problem
        .examples
        .push(Example::Equals { point: 0, value: 0 });
    problem
        .examples
        .push(Example::Equals { point: 0, value: 1 });
    let backend = EnumBackend::new(2, limit);
    let mut s = EnumSearch::new(problem, length, &backend, true).unwrap();
    for e in (0..k).map(|i| i * n / k).chain([n, n + 1]) {
        s.add_example(e).unwrap();
    }
    s
}

/// Without examples any program of the length does; lengths no program has are refuted.
#[test]
fn no_examples_and_impossible_lengths() {
    let p3 = boxed("path:3", 6, Target::Zero, false);
    for len in 1..=7 {
        let Found::Program(p) = backend(2).start(&p3, len).unwrap().solve(None).unwrap() else {
            panic!("length {len}");
        };
        assert!(p.len() == len && p.is_valid(), "{p}");
    }
    let mut binary_only = p3.clone();
    binary_only.ops = OpSet::with_edits(3, "-Not,-BooleanNot").unwrap();
    for (len, exists) in [(1, true), (2, false), (3, true), (4, false), (5, true)] {
        let found = backend(2)
            .start(&binary_only, len)
            .unwrap()
            .solve(None)
            .unwrap();
        assert_eq!(matches!(found, Found::Program(_)), exists, "length {len}");
    }
}

#[test]
fn too_little_memory_is_an_error() {
    let mut p3 = boxed("path:3", 6, Target::Zero, false);
    let tight = EnumBackend::new(2, 4 << 10);
    let err = cegis::synthesize(&p3, &tight, 8, None).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, Error::Resource(_)), "{msg}");
    assert!(msg.contains("the limit of 4.0 KiB"), "{msg}");
    // A limit that the first levels fit in stops a later one, with an estimate.
    let mut s = hopeless(&mut p3, 9, 100, 1 << 20);
    let msg = s.solve(None).unwrap_err().to_string();
    assert!(
        msg.contains("% built") && msg.contains("the limit of 1.0 MiB"),
        "{msg}"
    );
}

#[test]
fn deadlines_are_kept() {
    // Length 9 is refuted for star:4 (its shortest classifier has 10) on the examples CEGIS
    // ends with, by an exhaustive search of a few hundred milliseconds at least.
    let star = boxed("star:4", 6, Target::Indicator, false);
    let examples = cegis::synthesize(&star, &backend(2), 10, None)
        .unwrap()
        .trace
        .examples;
    let mut s = backend(2).start(&star, 9).unwrap();
    for &e in &examples {
        s.add_example(e).unwrap();
    }
    let past = Instant::now() - Duration::from_millis(1);
    assert_eq!(s.solve(Some(past)).unwrap(), Found::Timeout);
    // How soon the search stops is measured by `cargo bench --bench synth -- deadlines`.
    let r = s
        .solve(Some(Instant::now() + Duration::from_millis(20)))
        .unwrap();
    assert_eq!(r, Found::Timeout);
    assert_eq!(s.solve(None).unwrap(), Found::Refuted);
}
