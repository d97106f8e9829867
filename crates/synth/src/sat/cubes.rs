//! Cube-and-conquer's split: one length's instance divided into cubes, each a set of
//! assumptions fixing the program's top instructions.
//!
//! A cube fixes the instruction of the last step (the root) and of the step before it (the
//! root of the right, or only, operand). The structure makes exactly one instruction true per
//! step, so the cubes over every pair of instructions possible at those steps are disjoint
//! and together cover every program: the instance is unsatisfiable exactly when every cube
//! is. Pairs the pruning rules exclude outright (a unary rule over the two steps) are left
//! out, as no model can take them.

use std::fmt::Write;

use varisat::Lit;

use super::encode::Encoder;
use super::structure::Structure;
use crate::lang::{rules, Op};

/// Assumptions on the top instructions of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cube {
    /// The literals assumed true.
    pub lits: Vec<Lit>,
    /// What they fix: (step, instruction), the root last.
    pub top: Vec<(usize, Op)>,
}

impl Cube {
    /// The cube as `step 9 x3, step 10 Plus`.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self
            .top
            .iter()
            .map(|(t, op)| format!("step {t} {op}"))
            .collect();
        parts.join(", ")
    }
}

/// The cubes of the instance whose structure is `st`: every pair of instructions at the last
/// two steps (just the root when the program has one step).
pub(crate) fn split(st: &Structure) -> Vec<Cube> {
    let l = st.length;
    let at = |t: usize| -> Vec<(Op, Lit)> {
        st.ops
            .iter()
            .zip(&st.op[t])
            .filter_map(|(&o, lit)| lit.map(|l| (o, l)))
            .collect()
    };
    if l == 1 {
        return at(0)
            .into_iter()
            .map(|(o, x)| Cube {
                lits: vec![x],
                top: vec![(0, o)],
            })
            .collect();
    }
    let consts = rules::Constants::of(&st.ops);
    let mut out = Vec::new();
    for (root, r) in at(l - 1) {
        for (below, b) in at(l - 2) {
            if root.arity() == 1 && !rules::unary_allowed(root, below, consts) {
                continue;
            }
            out.push(Cube {
                lits: vec![b, r],
                top: vec![(l - 2, below), (l - 1, root)],
            });
        }
    }
    out
}

/// What a solver said of one instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A model: the instance has a solution.
    Satisfiable,
    /// Refuted: the instance has none.
    Unsatisfiable,
    /// No verdict: an empty file, a solver stopped by its time limit, `s UNKNOWN`.
    Unknown,
}

/// The verdict of a solver's output: the competition's `s SATISFIABLE` / `s UNSATISFIABLE`
/// line, or MiniSat's result file (`SAT` / `UNSAT` first).
pub fn verdict(answer: &str) -> Verdict {
    for line in answer.lines().map(str::trim) {
        match line {
            "s SATISFIABLE" | "SAT" => return Verdict::Satisfiable,
            "s UNSATISFIABLE" | "UNSAT" => return Verdict::Unsatisfiable,
            _ => {}
        }
    }
    Verdict::Unknown
}

/// The cubes (`a` lines) of an iCNF.
pub fn cube_count(icnf: &str) -> usize {
    icnf.lines().filter(|l| l.starts_with("a ")).count()
}

/// The cubes' answers taken together: what one solve of the whole instance would have said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Merged {
    /// Cube `cube` (the lowest satisfied) has a model: the length has a program.
    Satisfied {
        /// The cube's index.
        cube: usize,
    },
    /// Every one of the `cubes` cubes is unsatisfiable: the length is refuted (the cubes
    /// cover every program).
    Refuted {
        /// Cubes in all.
        cubes: usize,
    },
    /// No cube is satisfied and these have no verdict yet: the length is open.
    Open {
        /// The cubes with no verdict.
        undecided: Vec<usize>,
        /// Cubes in all.
        cubes: usize,
    },
}

/// Merges the verdicts of the `cubes` cubes of one iCNF; `verdict_of(k)` is cube `k`'s (from
/// 0, in the order of the `a` lines), `Unknown` when it has no answer.
pub fn merge(cubes: usize, verdict_of: impl Fn(usize) -> Verdict) -> Merged {
    let mut undecided = Vec::new();
    for k in 0..cubes {
        match verdict_of(k) {
            Verdict::Satisfiable => return Merged::Satisfied { cube: k },
            Verdict::Unsatisfiable => {}
            Verdict::Unknown => undecided.push(k),
        }
    }
    if undecided.is_empty() {
        Merged::Refuted { cubes }
    } else {
        Merged::Open { undecided, cubes }
    }
}

/// The instance `enc` holds as iCNF (`p inccnf`, the clauses, then one `a <lits> 0` line per
/// cube), after the same comment lines as the DIMACS export plus one `c cube <k> <top>` line
/// per cube, so `grundy decode` reads a model of any cube back.
pub(crate) fn write_icnf(enc: &Encoder, notes: &[String], cubes: &[Cube]) -> String {
    let dimacs = super::dimacs::write(enc, notes);
    let (comments, body) = dimacs
        .split_once("\np cnf ")
        .expect("the DIMACS writer emits a problem line");
    let mut s = String::with_capacity(dimacs.len() + 32 * cubes.len());
    s.push_str(comments);
    s.push('\n');
    let _ = writeln!(
        s,
        "c cubes: {} of them, `a` lines in this order; each fixes the top instructions; \
         together they cover every program of this length",
        cubes.len()
    );
    for (k, c) in cubes.iter().enumerate() {
        let _ = writeln!(s, "c cube {k} {}", c.describe());
    }
    s.push_str("p inccnf\n");
    // The clauses, without the counts line that `p inccnf` has no room for.
    let clauses = body.split_once('\n').map_or("", |(_, rest)| rest);
    s.push_str(clauses);
    for c in cubes {
        s.push('a');
        for l in &c.lits {
            let _ = write!(s, " {}", l.to_dimacs());
        }
        s.push_str(" 0\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_are_read_from_either_format() {
        assert_eq!(
            verdict("c hi\ns SATISFIABLE\nv 1 -2 0\n"),
            Verdict::Satisfiable
        );
        assert_eq!(verdict("s UNSATISFIABLE\n"), Verdict::Unsatisfiable);
        assert_eq!(verdict("UNSAT\n"), Verdict::Unsatisfiable);
        assert_eq!(verdict("SAT\n1 -2 0\n"), Verdict::Satisfiable);
        assert_eq!(verdict("s UNKNOWN\n"), Verdict::Unknown);
        assert_eq!(verdict(""), Verdict::Unknown);
    }

    #[test]
    fn a_length_is_refuted_only_when_every_cube_is() {
        use Verdict::*;
        let all = |v: Verdict| move |_| v;
        assert_eq!(merge(3, all(Unsatisfiable)), Merged::Refuted { cubes: 3 });
        let some = |k: usize| [Unsatisfiable, Unknown, Satisfiable, Unknown][k];
        assert_eq!(merge(4, some), Merged::Satisfied { cube: 2 });
        let open = |k: usize| [Unsatisfiable, Unknown, Unsatisfiable, Unknown][k];
        assert_eq!(
            merge(4, open),
            Merged::Open {
                undecided: vec![1, 3],
                cubes: 4
            }
        );
        // An iCNF without cubes has nothing to merge: refuted would be vacuous, so callers
        // refuse it (see `grundy decode --answers`).
        assert_eq!(cube_count("p inccnf\n1 0\n"), 0);
        assert_eq!(cube_count("p inccnf\n1 0\na 1 0\na -1 0\n"), 2);
    }
}
