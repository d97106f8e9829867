//! Unions of cores: a zero set that no conjunction of short conditions describes may still be
//! the union of two that do, told apart by a mined predicate P (x_v = 0, x_v = x_w, x_v <= x_w,
//! x_v the smallest: [`super::predicates`]), Z = (Z where P holds) ∪ (Z where it does not).
//! This is the divide-and-conquer of enumerative synthesizers (EUSolver's decision trees over
//! conditions, one level deep): each side is decomposed on its own data (a cover `a` of the
//! first side's non-zero positions, `b` of the second's), and with `p` the predicate's program
//! (0 exactly where P holds) the sides are joined:
//!
//! * `p | a` is 0 exactly where P holds and `a` is 0 (the first side's zero positions);
//! * `!p | b` is 0 exactly where P fails and `b` is 0 (the second side's);
//! * `!(!c1 | !c2)` is 0 exactly where `c1` or `c2` is, and 1 elsewhere, which serves the
//!   `zero` and `indicator` targets alike (and `sg` where its values are 0 and 1).
//!
//! A side without zero positions drops its term (the other term alone, `BooleanNot
//! BooleanNot` after it for the indicator), and a side without non-zero positions needs no
//! cover (`c1` is `p` alone; `c2`, `!p`).
//!
//! Predicates are tried best first by a cheap score: per side, the non-zero positions that no
//! short linear equality (`Σ x_S = Σ x_T`, at most two variables a side) true on all the
//! side's zero positions tells apart from them. Sides that such equalities already separate
//! are the ones a cover of mined conditions is likely to describe.

use crate::interp::run;
use crate::lang::{Op, Program};
use crate::problem::{Example, Problem, Target};
use grundy_core::error::Error;

use super::predicates::{self, Predicate};

/// Problems with more points than this are not split (each side is a copy of the data).
const MAX_POINTS: usize = 1 << 20;
/// Predicates tried, the best ranked first: each costs two decompositions.
const MAX_SPLITS: usize = 12;
/// Problems with more points than this rank predicates by length alone (the linear
/// equalities' values are kept for every point).
const RANK_MAX_POINTS: usize = 1 << 16;

/// Zero positions on both sides of a split by a predicate, each side's conditions.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Union {
    /// The predicate: the first side is where it holds.
    pub split: Predicate,
    /// The conditions of the side where the predicate holds and of the side where it fails
    /// (empty when the side needs none).
    pub sides: [Vec<Program>; 2],
}

impl Union {
    /// The variable when the split is by x_v = 0 (the only split before predicates were
    /// mined; JSON keeps naming it).
    pub fn variable(&self) -> Option<usize> {
        match self.split.program.0[..] {
            [Op::Push(v)] => Some(v as usize),
            _ => None,
        }
    }
}

/// The shortest union over a split by one predicate that passes every example, or `None` when
/// the target is `sg` with values above 1, the examples have orbits, an instruction it needs
/// is missing, or no split has both sides decomposed before `stop`.
pub fn find(
    problem: &Problem,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Option<(Program, Union)>, Error> {
    let Some(boolean) = super::boolean_output(problem) else {
        return Ok(None);
    };
    let ops = problem.ops.ops();
    let needed = [Op::Or, Op::BooleanNot];
    if problem.orbits
        || problem.points.len() > MAX_POINTS
        || !needed.iter().all(|o| ops.contains(o))
    {
        return Ok(None);
    }
    let mut best: Option<(Program, Union)> = None;
    for (pred, holds) in ranked(problem).into_iter().take(MAX_SPLITS) {
        if stop() {
            break;
        }
        let Some((program, union)) = split_by(problem, pred, &holds, boolean, stop)? else {
            continue;
        };
        if best.as_ref().is_none_or(|(p, _)| program.len() < p.len()) {
            best = Some((program, union));
        }
    }
    Ok(best)
}

/// The union over the split by `pred` (which holds at the points `holds` marks), when both
/// sides decompose and the joined program passes every example.
fn split_by(
    problem: &Problem,
    pred: Predicate,
    holds: &[bool],
    boolean: bool,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Option<(Program, Union)>, Error> {
    let mut sides: [Option<Side>; 2] = [None, None];
    for (s, slot) in sides.iter_mut().enumerate() {
        *slot = side(problem, holds, s == 0, stop)?;
        if slot.is_none() {
            return Ok(None);
        }
    }
    let [Some(a), Some(b)] = sides else {
        return Ok(None);
    };
    let program = join(&pred.program, &a, &b, boolean);
    if !problem.failures(&program).is_empty() {
        return Ok(None);
    }
    let union = Union {
        split: pred,
        sides: [a.conditions, b.conditions],
    };
    Ok(Some((program, union)))
}

/// The mined predicates that split the data (both sides hold points), each with where it
/// holds (per point), best first: fewest non-zero positions no short linear equality
/// separates from their side's zero positions, then shortest.
fn ranked(problem: &Problem) -> Vec<(Predicate, Vec<bool>)> {
    let mask = problem.mask();
    let n = problem.points.len();
    let mut zero = vec![false; n];
    let mut nonzero = vec![false; n];
    for e in &problem.examples {
        match *e {
            Example::Equals { point, value: 0 } => zero[point] = true,
            Example::Equals { point, .. } | Example::NonZero { point } => nonzero[point] = true,
            Example::SomeZero { .. } => {}
        }
    }
    let atoms = if n <= RANK_MAX_POINTS {
        linear_atoms(problem)
    } else {
        Vec::new()
    };
    let mut out: Vec<(usize, Predicate, Vec<bool>)> = Vec::new();
    for pred in predicates::mined(problem) {
        let holds: Vec<bool> = (0..n)
            .map(|i| run(&pred.program, &problem.points[i], mask) == Some(0))
            .collect();
        let count = holds.iter().filter(|&&h| h).count();
        if count == 0 || count == n {
            continue;
        }
        let missed: usize = [true, false]
            .into_iter()
            .map(|side| {
                let on = |i: usize| holds[i] == side;
                // Equalities true on every zero position of the side.
                let kept: Vec<&Vec<i64>> = atoms
                    .iter()
                    .filter(|a| (0..n).all(|i| !(on(i) && zero[i]) || a[i] == 0))
                    .collect();
                (0..n)
                    .filter(|&i| on(i) && nonzero[i] && kept.iter().all(|a| a[i] == 0))
                    .count()
            })
            .sum();
        out.push((missed, pred, holds));
    }
    out.sort_by_key(|(missed, p, _)| (*missed, p.program.len()));
    out.into_iter().map(|(_, p, h)| (p, h)).collect()
}

/// The values of `Σ x_S - Σ x_T` on every point, for disjoint S and T of at most two of the
/// variables the zero set depends on (S not empty, and each pair {S, T} once).
fn linear_atoms(problem: &Problem) -> Vec<Vec<i64>> {
    let vars = problem.lower_bound().1.clone();
    let mut subsets: Vec<Vec<usize>> = vec![Vec::new()];
    for (i, &v) in vars.iter().enumerate() {
        subsets.push(vec![v]);
        for &w in &vars[i + 1..] {
            subsets.push(vec![v, w]);
        }
    }
    let mut atoms = Vec::new();
    for (i, s) in subsets.iter().enumerate().skip(1) {
        for t in subsets[..i].iter() {
            if t.iter().any(|v| s.contains(v)) {
                continue;
            }
            atoms.push(
                (0..problem.points.len())
                    .map(|p| {
                        let x = &problem.points[p];
                        let sum = |set: &[usize]| set.iter().map(|&v| x[v] as i64).sum::<i64>();
                        sum(s) - sum(t)
                    })
                    .collect(),
            );
        }
    }
    atoms
}

/// One side of a split: its cover (None when it has no non-zero positions) and whether it has
/// zero positions at all.
struct Side {
    cover: Option<Program>,
    conditions: Vec<Program>,
    has_zeros: bool,
}

/// The side of the split where the predicate holds (`first`) or fails, decomposed on its own
/// data with the zero target; None when it has no cover.
fn side(
    problem: &Problem,
    holds: &[bool],
    first: bool,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Option<Side>, Error> {
    let on_side = |point: usize| holds[point] == first;
    let examples: Vec<Example> = problem
        .examples
        .iter()
        .filter_map(|e| match *e {
            Example::Equals { point, value } if on_side(point) => Some(if value == 0 {
                Example::Equals { point, value: 0 }
            } else {
                Example::NonZero { point }
            }),
            Example::NonZero { point } if on_side(point) => Some(Example::NonZero { point }),
            _ => None,
        })
        .collect();
    let has_zeros = examples
        .iter()
        .any(|e| matches!(e, Example::Equals { value: 0, .. }));
    let has_nonzero = examples
        .iter()
        .any(|e| matches!(e, Example::NonZero { .. }));
    if !has_zeros || !has_nonzero {
        // Nothing to keep at 0 (the side's term is dropped), or nothing to keep away from it
        // (x_v alone tells the side): no cover either way.
        return Ok(Some(Side {
            cover: None,
            conditions: Vec::new(),
            has_zeros,
        }));
    }
    let mut sub = problem.clone();
    sub.target = Target::Zero;
    sub.examples = examples;
    sub.bound = Default::default();
    sub.twins = Default::default();
    Ok(super::find(&sub, stop)?.map(|(cover, conditions)| Side {
        cover: Some(cover),
        conditions,
        has_zeros,
    }))
}

/// The program of a split by the predicate `p` (0 where it holds) with sides `a` (where it
/// holds) and `b` (where it fails).
fn join(p: &Program, a: &Side, b: &Side, boolean: bool) -> Program {
    // c1: 0 exactly on the first side's zero positions.
    let mut c1 = p.0.clone();
    if let Some(p) = &a.cover {
        c1.extend_from_slice(&p.0);
        c1.push(Op::Or);
    }
    // c2: 0 exactly on the second side's.
    let mut c2 = p.0.clone();
    c2.push(Op::BooleanNot);
    if let Some(p) = &b.cover {
        c2.extend_from_slice(&p.0);
        c2.push(Op::Or);
    }
    let mut out = match (a.has_zeros, b.has_zeros) {
        (true, true) => {
            let mut out = c1;
            out.push(Op::BooleanNot);
            out.extend(c2);
            out.extend([Op::BooleanNot, Op::Or, Op::BooleanNot]);
            return Program(out);
        }
        (true, false) => c1,
        (false, true) => c2,
        // No zero positions at all: 1 everywhere.
        (false, false) => vec![Op::One],
    };
    if boolean && out != [Op::One] {
        out.extend([Op::BooleanNot, Op::BooleanNot]);
    }
    Program(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::lang::OpSet;
    use grundy_core::game::Nimber;

    /// Zero positions: x0 = 0 and x1 = x2, or x0 ≠ 0 and x1 = 0; the split by x0 sees two
    /// conjunctions of one condition each. The other positions have the value `high`.
    fn union_problem(target: Target, high: Nimber) -> Problem {
        let mut rows = Vec::new();
        let mut values = Vec::new();
        for x0 in 0..5u64 {
            for x1 in 0..5u64 {
                for x2 in 0..5u64 {
                    let zero = if x0 == 0 { x1 == x2 } else { x1 == 0 };
                    rows.push(vec![x0, x1, x2]);
                    values.push(if zero { 0 } else { high });
                }
            }
        }
        let data = Dataset {
            vars: 3,
            points: rows.into_iter().collect(),
            values,
            source: "a union".into(),
        };
        Problem::new(data, OpSet::thesis(3), 8, target, None).unwrap()
    }

    #[test]
    fn a_union_of_two_conjunctions_is_found_by_splitting() {
        // Values 0 and 1 make the sg target the indicator's.
        for target in [Target::Zero, Target::Indicator, Target::Sg] {
            let problem = union_problem(target, 1);
            let (program, union) = find(&problem, &|| false).unwrap().expect("a union");
            assert!(problem.failures(&program).is_empty(), "{program}");
            assert_eq!(union.variable(), Some(0), "{program}");
            assert!(union.sides.iter().all(|s| !s.is_empty()), "{union:?}");
        }
    }

    /// Zero positions: x2 = min(x0, x1). Split by x0 <= x1, each side is one equality.
    fn min_problem() -> Problem {
        let mut rows = Vec::new();
        let mut values = Vec::new();
        for x in 0..125u64 {
            let (x0, x1, x2) = (x % 5, x / 5 % 5, x / 25);
            rows.push(vec![x0, x1, x2]);
            values.push(if x2 == x0.min(x1) { 0 } else { 1 });
        }
        let data = Dataset {
            vars: 3,
            points: rows.into_iter().collect(),
            values,
            source: "x2 = min(x0, x1)".into(),
        };
        Problem::new(
            data,
            OpSet::with_edits(3, "+Lt").unwrap(),
            8,
            Target::Zero,
            None,
        )
        .unwrap()
    }

    /// The ranking puts first the comparison whose sides short equalities describe.
    #[test]
    fn the_comparison_that_separates_the_cases_ranks_first() {
        let problem = min_problem();
        let first = &ranked(&problem)[0].0;
        assert!(
            ["x0 <= x1", "x1 <= x0"].contains(&first.words.as_str()),
            "{first:?}"
        );
    }

    /// A split by x0 <= x1 (`x1 x0 Lt`, 0 where it holds): x2 - x0 on one side, x2 - x1 on
    /// the other, joined into a program that passes every example.
    #[test]
    fn a_split_by_a_comparison_joins_two_conjunctions() {
        let problem = min_problem();
        let (pred, holds) = ranked(&problem)
            .into_iter()
            .find(|(p, _)| p.words == "x0 <= x1")
            .expect("the comparison is mined");
        let (program, union) = split_by(&problem, pred, &holds, false, &|| false)
            .unwrap()
            .expect("both sides decompose");
        assert!(problem.failures(&program).is_empty(), "{program}");
        assert_eq!(union.variable(), None);
        assert!(
            union.sides.iter().all(|s| s.len() == 1 && s[0].len() == 3),
            "{union:?}"
        );
        // (p | a) and (!p | b), each negated, Or-ed and negated: 7 + 1 + 8 + 3.
        assert_eq!(program.len(), 19, "{program}");
        let (found, _) = find(&problem, &|| false).unwrap().expect("a union");
        assert!(found.len() <= program.len(), "{found}");
    }

    #[test]
    fn orbits_and_sg_values_above_1_are_not_split() {
        let mut problem = union_problem(Target::Zero, 1);
        problem.orbits = true;
        assert!(find(&problem, &|| false).unwrap().is_none());
        let problem = union_problem(Target::Sg, 2);
        assert!(find(&problem, &|| false).unwrap().is_none());
    }
}
