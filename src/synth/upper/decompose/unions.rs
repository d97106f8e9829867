//! Unions of cores: a zero set that no conjunction of short conditions describes may still be
//! the union of two that do, told apart by a variable, Z = (Z with x_v = 0) ∪ (Z with x_v ≠ 0).
//! Each side is decomposed on its own data (a cover `a` of the first side's non-zero
//! positions, `b` of the second's), and the sides are joined:
//!
//! * `x_v | a` is 0 exactly where x_v = 0 and `a` is 0 (the first side's zero positions);
//! * `!x_v | b` is 0 exactly where x_v ≠ 0 and `b` is 0 (the second side's);
//! * `!(!c1 | !c2)` is 0 exactly where `c1` or `c2` is, and 1 elsewhere, which serves the
//!   `zero` and `indicator` targets alike (and `sg` where its values are 0 and 1).
//!
//! A side without zero positions drops its term (the other term alone, `BooleanNot
//! BooleanNot` after it for the indicator), and a side without non-zero positions needs no
//! cover (`c1` is `x_v` alone; `c2`, `!x_v`).

use crate::error::Error;
use crate::synth::lang::{Op, Program};
use crate::synth::problem::{Example, Problem, Target};

/// Problems with more points than this are not split (each side is a copy of the data).
const MAX_POINTS: usize = 1 << 20;

/// Zero positions on both sides of a split by x_v, each side's conditions.
#[derive(Clone, Debug, PartialEq)]
pub struct Union {
    pub variable: usize,
    /// The conditions of the side x_v = 0 and of the side x_v ≠ 0 (empty when the side needs
    /// none).
    pub sides: [Vec<Program>; 2],
}

/// The shortest union over a split by one variable that passes every example, or `None` when
/// the target is `sg` with values above 1, the examples have orbits, an instruction it needs is missing, or no
/// split has both sides decomposed before `stop`.
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
    for v in problem.lower_bound().1 {
        if stop() {
            break;
        }
        if !ops.contains(&Op::Push(v as u8)) {
            continue;
        }
        let mut sides: [Option<Side>; 2] = [None, None];
        for (s, slot) in sides.iter_mut().enumerate() {
            *slot = side(problem, v, s == 1, stop)?;
            if slot.is_none() {
                break;
            }
        }
        let [Some(a), Some(b)] = sides else { continue };
        let program = join(v, &a, &b, boolean);
        if !problem.failures(&program).is_empty() {
            continue;
        }
        if best.as_ref().is_none_or(|(p, _)| program.len() < p.len()) {
            let union = Union {
                variable: v,
                sides: [a.conditions, b.conditions],
            };
            best = Some((program, union));
        }
    }
    Ok(best)
}

/// One side of a split: its cover (None when it has no non-zero positions) and whether it has
/// zero positions at all.
struct Side {
    cover: Option<Program>,
    conditions: Vec<Program>,
    has_zeros: bool,
}

/// The side of the split by x_v where x_v ≠ 0 (`nonzero`) or x_v = 0, decomposed on its own
/// data with the zero target; None when it has no cover.
fn side(
    problem: &Problem,
    v: usize,
    nonzero: bool,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Option<Side>, Error> {
    let on_side = |point: usize| (problem.points[point][v] != 0) == nonzero;
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

/// The program of a split by x_v with sides `a` (x_v = 0) and `b` (x_v ≠ 0).
fn join(v: usize, a: &Side, b: &Side, boolean: bool) -> Program {
    let push = Op::Push(v as u8);
    // c1: 0 exactly on the first side's zero positions.
    let mut c1 = vec![push];
    if let Some(p) = &a.cover {
        c1.extend_from_slice(&p.0);
        c1.push(Op::Or);
    }
    // c2: 0 exactly on the second side's.
    let mut c2 = vec![push, Op::BooleanNot];
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
    use crate::game::Nimber;
    use crate::synth::data::Dataset;
    use crate::synth::lang::OpSet;

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
            assert_eq!(union.variable, 0, "{program}");
            assert!(union.sides.iter().all(|s| !s.is_empty()), "{union:?}");
        }
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
