//! Long programs fast, by lifting from slices.
//!
//! A program for the slice x_v = 0 of the data, with `x_v` combined in at one place, often
//! classifies the whole data: the star with k leaves is the example, whose slice at a leaf is the
//! star with k-1 leaves, and `x0 | (x1 ^ x2)` becomes `x0 | ((x1 ^ x3) ^ x2)`. Slicing repeats
//! until the problem is small enough for exhaustive search, then each level tries every way of
//! inserting `x_v op` (both operand orders, every binary instruction, every subtree) and keeps the
//! first program that passes every example of its level.
//!
//! Lifting only finds programs. It gives an upper bound that shortest-first search then tries
//! to beat or prove minimal; it never proves anything itself.

use std::time::Instant;

use crate::cegis;
use crate::data::Dataset;
use crate::interp::run;
use crate::lang::{Op, Program};
use crate::problem::Problem;
use crate::solver::{past, Backend};
use grundy_core::error::Error;

/// Problems whose dependency bound is at most this are solved by exhaustive search.
pub(crate) const BASE_BOUND: usize = 7;
/// Variables tried as the slice at each level before giving up on the level.
const TRIES_PER_LEVEL: usize = 2;
/// Examples a candidate must pass before it is checked on all data.
const SAMPLE: usize = 256;

/// A program found by lifting.
#[derive(Clone, Debug)]
pub struct Lifted {
    pub(crate) program: Program,
    /// The variables combined in, innermost slice first.
    pub variables: Vec<usize>,
    /// The length of the program the exhaustive search found for the innermost slice.
    pub base_length: usize,
}

/// A program of at most `max_len` instructions satisfying every example of `problem`, found by
/// lifting, or `None` when lifting finds nothing (or the deadline passes).
pub fn find(
    problem: &Problem,
    backend: &dyn Backend,
    max_len: usize,
    deadline: Option<Instant>,
) -> Result<Option<Lifted>, Error> {
    let (bound, deps) = problem.lower_bound();
    if bound <= BASE_BOUND {
        return match cegis::synthesize(problem, backend, max_len, deadline) {
            Ok(o) => Ok(Some(Lifted {
                base_length: o.program.len(),
                program: o.program,
                variables: Vec::new(),
            })),
            // Out of time, memory or length: lifting has nothing to offer here.
            Err(Error::Resource(_) | Error::Timeout(_) | Error::LengthLimit { .. }) => Ok(None),
            Err(e) => Err(e),
        };
    }
    for &v in deps.iter().rev().take(TRIES_PER_LEVEL) {
        if past(deadline) {
            return Ok(None);
        }
        let sub = slice(problem, v)?;
        let Some(inner) = find(&sub, backend, max_len.saturating_sub(2), deadline)? else {
            continue;
        };
        if let Some(program) = insert(problem, &inner.program, v) {
            let mut variables = inner.variables;
            variables.push(v);
            return Ok(Some(Lifted {
                program,
                variables,
                base_length: inner.base_length,
            }));
        }
    }
    Ok(None)
}

/// The data of `problem` with x_v = 0, as a plain problem (no orbits: a plain classifier is
/// also an orbit classifier, and orbits cut by a slice mean little).
fn slice(problem: &Problem, v: usize) -> Result<Problem, Error> {
    let keep: Vec<usize> = (0..problem.points.len())
        .filter(|&i| problem.points[i][v] == 0)
        .collect();
    let data = Dataset {
        vars: problem.vars(),
        points: keep.iter().map(|&i| &problem.points[i]).collect(),
        values: keep.iter().map(|&i| problem.values[i]).collect(),
        source: format!("{} with x{v} = 0", problem.source),
    };
    Problem::new(
        data,
        problem.ops.clone(),
        problem.width,
        problem.target,
        None,
    )
}

/// For each step, the first step of the subtree it roots.
fn subtree_starts(program: &Program) -> Vec<usize> {
    let mut starts: Vec<usize> = Vec::with_capacity(program.len());
    for (j, op) in program.0.iter().enumerate() {
        let mut s = j;
        for _ in 0..op.arity() {
            s = starts[s - 1];
        }
        starts.push(s);
    }
    starts
}

/// Every program made from `inner` by combining one subtree with `Push(v)` under a binary
/// instruction of the problem, in both operand orders.
fn candidates(problem: &Problem, inner: &Program, v: usize) -> Vec<Program> {
    let x = Op::Push(v as u8);
    let starts = subtree_starts(inner);
    let ops = &inner.0;
    let mut out = Vec::new();
    for op in problem.ops.ops().iter().copied().filter(|o| o.arity() == 2) {
        for j in (0..ops.len()).rev() {
            let s = starts[j];
            // (subtree) x op
            let mut a = ops[..=j].to_vec();
            a.extend([x, op]);
            a.extend_from_slice(&ops[j + 1..]);
            out.push(Program(a));
            if !op.is_commutative() {
                // x (subtree) op
                let mut b = ops[..s].to_vec();
                b.push(x);
                b.extend_from_slice(&ops[s..=j]);
                b.push(op);
                b.extend_from_slice(&ops[j + 1..]);
                out.push(Program(b));
            }
        }
    }
    out
}

/// The first candidate that passes every example of `problem`: a spread sample first, then all
/// the data; a candidate failing on the data adds its first failure to the sample.
fn insert(problem: &Problem, inner: &Program, v: usize) -> Option<Program> {
    let n = problem.examples.len();
    let step = (n / SAMPLE).max(1);
    let mut sample: Vec<usize> = (0..n).step_by(step).collect();
    let mask = problem.mask();
    let passes = |p: &Program, e: usize| {
        problem.examples[e].holds(|pt| run(p, &problem.points[pt], mask).unwrap_or(u64::MAX))
    };
    for cand in candidates(problem, inner, v) {
        if !sample.iter().all(|&e| passes(&cand, e)) {
            continue;
        }
        match problem.failures(&cand).first() {
            None => return Some(cand),
            Some(&e) => sample.push(e),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enumerate::EnumBackend;
    use crate::lang::OpSet;
    use crate::problem::Target;
    use grundy_core::catalog::spec;
    use grundy_core::sg::table::TableOptions;

    fn star(k: usize, max: usize, target: Target) -> Problem {
        boxed(&format!("star:{k}"), k + 1, max, target)
    }

    fn boxed(game: &str, vars: usize, max: usize, target: Target) -> Problem {
        let game = spec::parse_hypergraph(game).unwrap();
        let data = Dataset::from_box(&game, max, &TableOptions::default()).unwrap();
        Problem::new(data, OpSet::thesis(vars), 8, target, None).unwrap()
    }

    #[test]
    fn subtree_starts_follow_the_stack() {
        let p: Program = "Push(0) Push(1) Push(2) Xor Or Not".parse().unwrap();
        assert_eq!(subtree_starts(&p), vec![0, 1, 2, 1, 0, 0]);
    }

    #[test]
    fn candidates_are_valid_and_two_longer() {
        let pr = star(2, 3, Target::Zero);
        let p: Program = "Push(0) Push(1) Or".parse().unwrap();
        let c = candidates(&pr, &p, 2);
        assert!(c.iter().all(|q| q.is_valid() && q.len() == 5));
        let want: Program = "Push(0) Push(1) Push(2) Xor Or".parse().unwrap();
        assert!(c.contains(&want));
    }

    #[test]
    fn stars_lift_from_smaller_stars() {
        let backend = EnumBackend::new(2, 1 << 30);
        for target in [Target::Zero, Target::Indicator] {
            let pr = star(5, 4, target);
            let lifted = find(&pr, &backend, 16, None).unwrap().expect("a lift");
            assert!(
                pr.failures(&lifted.program).is_empty(),
                "{}",
                lifted.program
            );
            // Two slices down to the 3-leaf star, each adding two instructions.
            assert_eq!(lifted.variables.len(), 2);
            assert_eq!(lifted.program.len(), lifted.base_length + 4);
        }
    }

    /// A length limit below the slices' programs leaves lifting with nothing to offer, as
    /// time and memory limits do: no lift, not an error.
    #[test]
    fn a_length_limit_is_no_lift_rather_than_an_error() {
        let backend = EnumBackend::new(2, 1 << 30);
        let pr = star(5, 4, Target::Zero);
        assert!(find(&pr, &backend, 6, None).unwrap().is_none());
    }

    /// The sg target lifts too: a lone heap x4 beside two edges is nim-summed in.
    #[test]
    fn sg_values_lift_a_lone_heap() {
        let backend = EnumBackend::new(2, 1 << 30);
        let pr = boxed("complex:0-1,2-3,4", 5, 4, Target::Sg);
        let lifted = find(&pr, &backend, 12, None).unwrap().expect("a lift");
        assert!(
            pr.failures(&lifted.program).is_empty(),
            "{}",
            lifted.program
        );
        assert_eq!(lifted.variables, vec![4], "{}", lifted.program);
        assert_eq!(lifted.program.len(), lifted.base_length + 2);
    }
}
