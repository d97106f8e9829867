//! Mined predicates: short programs that are 0 exactly where a simple comparison of the
//! variables holds (x_v = 0, x_v = x_w, x_v <= x_w, x_v the smallest). They tell the cases of
//! a union apart ([`super::unions`]) and, as conditions of a cover, pick the member of an orbit
//! a characterization speaks of ("the smallest heap is x0").
//!
//! Each predicate is written with the instructions the problem has: `x_v <= x_w` is
//! `x_w x_v Lt` (0 unless x_w < x_v) with `Lt`, or `min(x_v, x_w) - x_v` with `Min`, and is
//! left out without either. Every comparison reads values below the word's range only if the
//! data's values are (they are at the widths synthesis uses), and the caller checks every
//! program built from them on all the data anyway.

use crate::lang::{Op, Program};
use crate::problem::Problem;

/// A predicate: `program` is 0 exactly where it holds; `words` says it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Predicate {
    pub(crate) program: Program,
    /// The condition in words, for reports.
    pub words: String,
}

/// The predicates over the variables the zero set depends on that the instruction set can
/// write, shortest first.
pub fn mined(problem: &Problem) -> Vec<Predicate> {
    let ops = problem.ops.ops();
    let has = |op: Op| ops.contains(&op);
    let vars: Vec<u8> = problem
        .lower_bound()
        .1
        .iter()
        .map(|&v| v as u8)
        .filter(|&v| has(Op::Push(v)))
        .collect();
    let mut out = Vec::new();
    let mut add = |program: Vec<Op>, words: String| {
        out.push(Predicate {
            program: Program(program),
            words,
        })
    };
    for &v in &vars {
        add(vec![Op::Push(v)], format!("x{v} = 0"));
    }
    if has(Op::Minus) {
        for (i, &v) in vars.iter().enumerate() {
            for &w in &vars[i + 1..] {
                add(
                    vec![Op::Push(v), Op::Push(w), Op::Minus],
                    format!("x{v} = x{w}"),
                );
            }
        }
    }
    // `le(v, rest)`: 0 exactly where x_v <= `rest`, an operand already written.
    let le = |v: u8, rest: &[Op]| -> Option<Vec<Op>> {
        if has(Op::Lt) {
            let mut p = rest.to_vec();
            p.extend([Op::Push(v), Op::Lt]);
            Some(p)
        } else if has(Op::Min) && has(Op::Minus) {
            let mut p = vec![Op::Push(v)];
            p.extend_from_slice(rest);
            p.extend([Op::Min, Op::Push(v), Op::Minus]);
            Some(p)
        } else {
            None
        }
    };
    for &v in &vars {
        for &w in &vars {
            if v != w {
                if let Some(p) = le(v, &[Op::Push(w)]) {
                    add(p, format!("x{v} <= x{w}"));
                }
            }
        }
    }
    // The smallest: x_v <= min of the others (needs Min to fold them).
    if vars.len() > 2 && has(Op::Min) {
        for &v in &vars {
            let mut others = Vec::new();
            for &w in vars.iter().filter(|&&w| w != v) {
                others.push(Op::Push(w));
                if others.len() > 1 {
                    others.push(Op::Min);
                }
            }
            if let Some(p) = le(v, &others) {
                add(p, format!("x{v} is the smallest"));
            }
        }
    }
    out.sort_by_key(|p| p.program.len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::run;
    use crate::lang::OpSet;
    use crate::problem::tests::boxed;
    use crate::problem::Target;

    /// Every predicate is 0 exactly where its comparison holds, on every point of a box, with
    /// `Lt`, with `Min` alone, and with neither (no comparisons then).
    #[test]
    fn predicates_mean_what_they_say() {
        for (edits, comparisons) in [("+Lt,+Min", true), ("+Min", true), ("", false)] {
            let mut problem = boxed("path:3", 5, Target::Zero, false);
            problem.ops = OpSet::with_edits(3, edits).unwrap();
            let preds = mined(&problem);
            assert_eq!(
                preds.iter().any(|p| p.words.contains("<=")),
                comparisons,
                "{edits}"
            );
            let mask = problem.mask();
            for i in 0..problem.points.len() {
                let x = &problem.points[i];
                for p in &preds {
                    let w: Vec<&str> = p.words.split(' ').collect();
                    let var = |s: &str| x[s[1..].parse::<usize>().unwrap()];
                    let holds = match (w[1], w[2]) {
                        ("=", "0") => var(w[0]) == 0,
                        ("=", b) => var(w[0]) == var(b),
                        ("<=", b) => var(w[0]) <= var(b),
                        ("is", _) => x.iter().all(|&y| var(w[0]) <= y),
                        _ => unreachable!("{}", p.words),
                    };
                    let out = run(&p.program, x, mask).unwrap();
                    assert_eq!(out == 0, holds, "{} at {x:?}", p.words);
                }
            }
        }
    }
}
