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
use crate::synth::lang::{rules, Op};

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
