//! The zero set as a conjunction: mine short *necessary conditions* (programs that are 0 on
//! every zero position; with orbits, on some member of every zero orbit), choose a few that
//! together are non-zero on every non-zero position (a weighted set cover, greedy and then
//! exact on the best candidates), and combine them with `Or`, which is 0 exactly where all its
//! operands are. For the indicator target, `BooleanNot BooleanNot` turns that into 0/1.
//!
//! The `sg` target reuses this only where its values on the data are all 0 or 1 (there it *is*
//! the indicator). Elsewhere a conjunction of necessary conditions says where the value is 0
//! and nothing of which non-zero value it is: the `Or` of the conditions outputs whatever
//! non-zero number they happen to give, so the cover would have to be found again for every
//! value, each a zero set of its own with no short conditions known. Lifting and the
//! stochastic walk serve `sg` as they serve the other targets.
//!
//! CN(6,3)'s zero positions are a+b = d+e and b+c = e+f up to rotation: two conditions of 7
//! instructions each, `(x0 + x1) - (x3 + x4)` and `(x1 + x2) - (x4 + x5)`, and one `Or`.
//!
//! Conditions are mined length by length (`mine`), beside the mined predicates
//! (`predicates`: comparisons such as "x0 is the smallest"); after each length with new conditions a
//! cover is sought (`cover`) and checked on all the data (non-zero points it misses join the
//! cover's points, and it is sought again). Mining goes on two lengths past the first cover,
//! and stops where no single longer condition could beat the best cover.

mod cover;
mod mine;
pub(crate) mod minimal;
pub mod predicates;
pub mod unions;

use std::time::Instant;

use crate::interp::run;
use crate::lang::{Op, Program};
use crate::problem::{Example, Problem, Target};
use grundy_core::error::Error;

use cover::Checked;
use mine::Miner;
use minimal::conjunction;

/// The longest condition mined.
const MAX_CONDITION: usize = 8;
/// Non-zero points that rank the conditions: by how many of them each is non-zero on, per
/// instruction.
const RANK_POINTS: usize = 256;
/// Lengths mined past the one where the first cover was found, while the last one took less
/// than [`PAST_COVER_TIME`].
const PAST_FIRST_COVER: usize = 2;
const PAST_COVER_TIME: std::time::Duration = std::time::Duration::from_millis(300);
/// Non-zero points the cover works with (a spread sample of them when there are more).
const COVER_POINTS: usize = 20_000;
/// Zero positions, and zero orbits, conditions are checked on before the cover's check on
/// all the data (a spread sample of them when there are more).
const ZERO_CHECK: usize = 4_000;
/// Times a cover is sought again with the points the last one missed.
const COVER_ROUNDS: usize = 6;

/// Whether a classifier must output exactly 0/1 (`indicator`, and `sg` where every value is
/// 0 or 1) rather than 0/non-zero (`zero`); `None` for `sg` with larger values, which a
/// conjunction of conditions does not describe.
pub(super) fn boolean_output(problem: &Problem) -> Option<bool> {
    match problem.target {
        Target::Zero => Some(false),
        Target::Indicator => Some(true),
        Target::Sg => problem.values.iter().all(|&v| v <= 1).then_some(true),
    }
}

/// A classifier made of necessary conditions, and the conditions; `None` when the target is
/// `sg` with values above 1, the instruction set lacks `Or` (or `BooleanNot` for the indicator), or no cover of
/// the non-zero positions is found within the limits or before `stop` says so.
pub fn find(
    problem: &Problem,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Option<(Program, Vec<Program>)>, Error> {
    let ops = problem.ops.ops();
    let Some(boolean) = boolean_output(problem) else {
        return Ok(None);
    };
    if !ops.contains(&Op::Or) || (boolean && !ops.contains(&Op::BooleanNot)) {
        return Ok(None);
    }
    let split = Split::of(problem);
    if split.nonzero.is_empty() || (split.zeros.is_empty() && split.orbits.is_empty()) {
        return Ok(None);
    }
    let mut miner = Miner::new(problem, &split);
    // The zero examples conditions are checked on (all, up to a cap; those a cover misses
    // join them).
    let mut check = Split {
        zeros: spread(&split.zeros, ZERO_CHECK),
        orbits: spread(&(0..split.orbits.len()).collect::<Vec<_>>(), ZERO_CHECK)
            .into_iter()
            .map(|o| split.orbits[o].clone())
            .collect(),
        nonzero: Vec::new(),
    };
    // Conditions, the best ranked first.
    let mut conditions: Vec<(f64, Program)> = Vec::new();
    let rank_points = spread(&split.nonzero, RANK_POINTS);
    let mut cover_points = spread(&split.nonzero, COVER_POINTS);
    // Mined predicates are candidates too (with orbits, "x_v is the smallest" picks the member
    // a characterization speaks of, and is longer than any mined condition), in a second
    // cover beside the one of mined conditions alone: the greedy cover can pick a predicate
    // that leaves no orbit member for the conditions it needs next.
    let predicates = rank(
        problem,
        &rank_points,
        predicates::mined(problem)
            .into_iter()
            .map(|p| p.program)
            .collect(),
    );
    let mut best: Option<(Program, Vec<Program>)> = None;
    let mut first_cover = None;
    let mut last_took = std::time::Duration::ZERO;
    while miner.length < MAX_CONDITION && !stop() {
        let len = miner.length + 1;
        // A single condition longer than the best cover cannot beat it.
        let extra = if boolean { 2 } else { 0 };
        if best.as_ref().is_some_and(|(p, _)| len + extra >= p.len()) {
            break;
        }
        // Past the first cover, a length is mined only while lengths are cheap (each costs
        // about ten times the one before).
        if first_cover.is_some_and(|f| len > f + PAST_FIRST_COVER || last_took > PAST_COVER_TIME) {
            break;
        }
        // Store this length when a longer one will be mined on it.
        let store = len + 2 <= MAX_CONDITION;
        let started = Instant::now();
        let fresh = miner.next(store, stop);
        let took = started.elapsed();
        if fresh.is_empty() {
            continue;
        }
        conditions.extend(rank(problem, &rank_points, coarse_best(fresh)));
        conditions.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut with_predicates = conditions.clone();
        with_predicates.extend(predicates.iter().cloned());
        with_predicates.sort_by(|a, b| b.0.total_cmp(&a.0));
        for candidates in [&conditions, &with_predicates] {
            let ranked: Vec<Program> = candidates.iter().map(|c| c.1.clone()).collect();
            if let Some(found) = cover_of(
                problem,
                &mut check,
                &ranked,
                &mut cover_points,
                boolean,
                stop,
            )? {
                first_cover.get_or_insert(len);
                if best.as_ref().is_none_or(|(p, _)| found.0.len() < p.len()) {
                    best = Some(found);
                }
            }
        }
        last_took = took;
        if miner.exhausted {
            break;
        }
    }
    Ok(best)
}

/// The conditions of one length ranked exactly, at most: the rest (by the coarse rank on the
/// mining sample) would not reach the cover's [`cover::MAX_CONDITIONS`] anyway.
const RANKED_PER_LENGTH: usize = 20_000;

/// The [`RANKED_PER_LENGTH`] conditions non-zero on the most of the mining sample's non-zero
/// positions.
fn coarse_best(mut fresh: Vec<(Program, u32)>) -> Vec<Program> {
    if fresh.len() > RANKED_PER_LENGTH {
        fresh.select_nth_unstable_by(RANKED_PER_LENGTH, |a, b| b.1.cmp(&a.1));
        fresh.truncate(RANKED_PER_LENGTH);
    }
    fresh.into_iter().map(|(p, _)| p).collect()
}

/// Each condition with its rank: the non-zero points of `points` it is non-zero on, per
/// instruction (and its `Or`).
fn rank(problem: &Problem, points: &[usize], conditions: Vec<Program>) -> Vec<(f64, Program)> {
    use rayon::prelude::*;
    let mask = problem.mask();
    conditions
        .into_par_iter()
        .map(|p| {
            let covered = points
                .iter()
                .filter(|&&pt| run(&p, &problem.points[pt], mask).is_some_and(|v| v != 0))
                .count();
            (covered as f64 / (p.len() + 1) as f64, p)
        })
        .collect()
}

/// The best cover of the conditions, as a program checked on all the data.
fn cover_of(
    problem: &Problem,
    check: &mut Split,
    conditions: &[Program],
    cover_points: &mut Vec<usize>,
    boolean: bool,
    stop: &dyn Fn() -> bool,
) -> Result<Option<(Program, Vec<Program>)>, Error> {
    for _ in 0..COVER_ROUNDS {
        if stop() {
            return Ok(None);
        }
        let Some(checked) = Checked::new(problem, check, conditions, cover_points, stop) else {
            return Ok(None);
        };
        let Some(chosen) = checked.cover() else {
            return Ok(None);
        };
        let parts: Vec<Program> = chosen
            .iter()
            .map(|&c| checked.programs[c].clone())
            .collect();
        let program = conjunction(&parts, boolean);
        let failures = problem.failures(&program);
        if failures.is_empty() {
            // The cover was chosen on a sample: drop what the whole data shows redundant.
            let parts = minimal::minimal(problem, &parts, boolean);
            return Ok(Some((conjunction(&parts, boolean), parts)));
        }
        // Only examples the conditions were not checked on can fail: add them.
        let before = (cover_points.len(), check.zeros.len(), check.orbits.len());
        for e in failures {
            match &problem.examples[e] {
                Example::Equals { point, value: 0 } => {
                    if !check.zeros.contains(point) {
                        check.zeros.push(*point)
                    }
                }
                Example::SomeZero { points, .. } => {
                    if !check.orbits.contains(points) {
                        check.orbits.push(points.clone())
                    }
                }
                Example::NonZero { point } | Example::Equals { point, .. } => {
                    if !cover_points.contains(point) {
                        cover_points.push(*point);
                    }
                }
            }
        }
        if (cover_points.len(), check.zeros.len(), check.orbits.len()) == before {
            return Err(Error::internal(
                "a cover of necessary conditions fails the data where it was checked",
            ));
        }
    }
    Ok(None)
}

/// The examples, sorted by what a condition must do there.
struct Split {
    /// Zero positions (each must give 0).
    zeros: Vec<usize>,
    /// Zero orbits (some member must give 0), as their members.
    orbits: Vec<Vec<usize>>,
    /// Non-zero positions (the Or must be non-zero: some condition non-zero).
    nonzero: Vec<usize>,
}

impl Split {
    pub(super) fn of(problem: &Problem) -> Self {
        let mut split = Split {
            zeros: Vec::new(),
            orbits: Vec::new(),
            nonzero: Vec::new(),
        };
        for e in &problem.examples {
            match e {
                Example::Equals { point, value: 0 } => split.zeros.push(*point),
                Example::SomeZero { points, .. } => split.orbits.push(points.clone()),
                Example::NonZero { point } | Example::Equals { point, .. } => {
                    split.nonzero.push(*point)
                }
            }
        }
        split
    }
}

/// `count` items spread evenly over `items` (all of them when there are fewer).
fn spread(items: &[usize], count: usize) -> Vec<usize> {
    let step = items.len().div_ceil(count.max(1)).max(1);
    items.iter().copied().step_by(step).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::tests::boxed;

    /// CN(4,2)'s zero positions are x0 = x2 and x1 = x3 (Dufour & Heubach): two conditions of
    /// three instructions, and the cover needs both.
    #[test]
    fn circular_nim_is_a_conjunction_of_equalities() {
        for target in [Target::Zero, Target::Indicator] {
            let problem = boxed("circular:4,2", 5, target, false);
            let (program, parts) = find(&problem, &|| false).unwrap().expect("a cover");
            assert!(problem.failures(&program).is_empty(), "{program}");
            assert_eq!(parts.len(), 2, "{program}");
            assert!(parts.iter().all(|p| p.len() == 3), "{program}");
            let extra = if target == Target::Indicator { 2 } else { 0 };
            assert_eq!(program.len(), 3 + 3 + 1 + extra, "{program}");
        }
    }

    /// With orbits, the conditions must vanish on a common member of every zero orbit.
    #[test]
    fn orbit_covers_keep_a_common_member() {
        let problem = boxed("circular:4,2", 5, Target::Zero, true);
        let (program, _) = find(&problem, &|| false).unwrap().expect("a cover");
        assert!(problem.failures(&program).is_empty(), "{program}");
    }

    /// Where every SG value is 0 or 1 the sg target is the indicator, and decomposes as it does.
    #[test]
    fn sg_values_of_0_and_1_decompose_as_the_indicator() {
        let indicator = boxed("circular:4,2", 5, Target::Indicator, false);
        let mut values = indicator.values.clone();
        for v in &mut values {
            *v = (*v != 0).into();
        }
        let data = crate::data::Dataset {
            vars: 4,
            points: indicator.points.clone(),
            values,
            source: "CN(4,2)'s indicator as SG values".into(),
        };
        let sg = Problem::new(data, indicator.ops.clone(), 8, Target::Sg, None).unwrap();
        let (program, _) = find(&sg, &|| false).unwrap().expect("a cover");
        assert!(sg.failures(&program).is_empty(), "{program}");
        assert_eq!(program.len(), 3 + 3 + 1 + 2, "{program}");
    }

    #[test]
    fn the_sg_target_and_sets_without_or_have_no_decomposition() {
        let never = || false;
        assert!(find(&boxed("shriek", 4, Target::Sg, false), &never)
            .unwrap()
            .is_none());
        let mut p = boxed("circular:4,2", 4, Target::Zero, false);
        p.ops = crate::lang::OpSet::with_edits(4, "-Or").unwrap();
        assert!(find(&p, &never).unwrap().is_none());
    }
}
