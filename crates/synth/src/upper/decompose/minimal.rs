//! Minimal covers: a cover chosen on a sample of the non-zero points (and, with orbits, under
//! the orbit members it keeps) can hold a condition the others already make redundant on all
//! the data. Each condition is dropped in turn, the longest first, and the drop is kept when
//! the `Or` of the rest still passes every example: no condition of the result can be left out.

use crate::lang::{Op, Program};
use crate::problem::Problem;

/// The `Or` of `parts` (0 exactly where every part is 0), made 0/1 by `BooleanNot BooleanNot`
/// when the target needs a `boolean` output.
pub(crate) fn conjunction(parts: &[Program], boolean: bool) -> Program {
    let mut out = parts[0].0.clone();
    for p in &parts[1..] {
        out.extend_from_slice(&p.0);
        out.push(Op::Or);
    }
    if boolean {
        out.extend([Op::BooleanNot, Op::BooleanNot]);
    }
    Program(out)
}

/// `parts` without the conditions that the others make redundant on the whole data: every
/// condition is tried for a drop, the longest first (ties: the later one), and left out when
/// the conjunction of the rest passes every example. The order of the kept parts is kept.
pub(crate) fn minimal(problem: &Problem, parts: &[Program], boolean: bool) -> Vec<Program> {
    let mut keep = vec![true; parts.len()];
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by(|&a, &b| parts[b].len().cmp(&parts[a].len()).then(b.cmp(&a)));
    for drop in order {
        if keep.iter().filter(|&&k| k).count() == 1 {
            break;
        }
        keep[drop] = false;
        let rest: Vec<Program> = kept(parts, &keep);
        if !problem.failures(&conjunction(&rest, boolean)).is_empty() {
            keep[drop] = true;
        }
    }
    kept(parts, &keep)
}

fn kept(parts: &[Program], keep: &[bool]) -> Vec<Program> {
    parts
        .iter()
        .zip(keep)
        .filter(|(_, &k)| k)
        .map(|(p, _)| p.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::tests::boxed;
    use crate::problem::Target;

    fn programs(texts: &[&str]) -> Vec<Program> {
        texts.iter().map(|t| t.parse().unwrap()).collect()
    }

    /// CN(4,2)'s zero positions are x0 = x2 and x1 = x3; a third condition that both imply
    /// (x0 + x1 = x2 + x3) is redundant and is dropped, the two equalities are not.
    #[test]
    fn a_condition_the_others_imply_is_dropped() {
        for target in [Target::Zero, Target::Indicator] {
            let problem = boxed("circular:4,2", 5, target, false);
            let boolean = target == Target::Indicator;
            let parts = programs(&[
                "Push(0) Push(2) Minus",
                "Push(0) Push(1) Plus Push(2) Push(3) Plus Minus",
                "Push(1) Push(3) Minus",
            ]);
            assert!(problem.failures(&conjunction(&parts, boolean)).is_empty());
            let kept = minimal(&problem, &parts, boolean);
            assert_eq!(
                kept,
                programs(&["Push(0) Push(2) Minus", "Push(1) Push(3) Minus"])
            );
            // Minimal: no condition left can be dropped.
            for i in 0..kept.len() {
                let mut rest = kept.clone();
                rest.remove(i);
                assert!(!problem.failures(&conjunction(&rest, boolean)).is_empty());
            }
        }
    }
}
