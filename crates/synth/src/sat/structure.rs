//! The data-independent part of the encoding: which instruction each step runs, the stack
//! discipline, which earlier step each instruction consumes, and the pruning rules.
//!
//! A valid postfix program is a sequence of expression trees; `start[u][s]` says the subtree
//! rooted at step u begins at step s. The right (or only) operand of step u is step u-1; the left
//! operand of a binary step u is step s-1 where s is the start of the subtree of u-1 (the operand
//! pointer). Validity is "the last subtree starts at step 0" plus "a binary step's right operand
//! does not start at 0". Depth variables are redundant but cut the search early.

use varisat::Lit;

use super::cnf::Cnf;
use crate::lang::{rules, Op};

/// Instruction classes by arity.
pub(crate) const CLASSES: usize = 3;

/// Structure variables of a program of `length` steps over `ops`.
pub(crate) struct Structure {
    pub length: usize,
    pub ops: Vec<Op>,
    /// `op[t][k]`: step t runs `ops[k]` (None when impossible at t).
    pub op: Vec<Vec<Option<Lit>>>,
    /// `class[t][a]`: step t runs an instruction of arity a (None when impossible).
    pub class: Vec<[Option<Lit>; CLASSES]>,
    /// `start[u][s]` for s <= u: the subtree rooted at u begins at s (None when impossible).
    pub start: Vec<Vec<Option<Lit>>>,
    /// `depth[t][d-1]`: the stack holds d values after step t (empty without depth variables).
    pub depth: Vec<Vec<Lit>>,
}

impl Structure {
    /// Makes the variables and constraints; `depth_vars` adds the redundant depth encoding.
    pub fn new(cnf: &mut Cnf, ops: &[Op], length: usize, depth_vars: bool) -> Self {
        assert!(length >= 1);
        let l = length;
        // Depth after step t lies in 1..=min(t+1, L-t): every such depth is reachable and can
        // still be reduced to 1 by the end.
        let max_depth = |t: usize| (t + 1).min(l - t);
        let has = |a: usize| ops.iter().any(|o| o.arity() == a);
        let mut class = Vec::with_capacity(l);
        for t in 0..l {
            let before = if t == 0 { 0..=0 } else { 1..=max_depth(t - 1) };
            let after = 1..=max_depth(t);
            let feasible = |delta: isize| {
                before.clone().any(|d| {
                    let e = d as isize + delta;
                    e >= 1 && after.contains(&(e as usize)) && (delta == 1 || d >= 1)
                })
            };
            let possible = [
                has(0) && feasible(1),
                has(1) && t >= 1 && feasible(0),
                has(2) && t >= 2 && feasible(-1),
            ];
            let mut c = [None; CLASSES];
            for a in 0..CLASSES {
                if possible[a] {
                    c[a] = Some(cnf.fresh());
                }
            }
            class.push(c);
        }
        let mut op = Vec::with_capacity(l);
        for (t, cls) in class.iter().enumerate() {
            let row: Vec<Option<Lit>> = ops
                .iter()
                .map(|o| cls[o.arity()].map(|_| cnf.fresh()))
                .collect();
            let present: Vec<Lit> = row.iter().flatten().copied().collect();
            assert!(!present.is_empty(), "no instruction fits step {t} of {l}");
            cnf.exactly_one(&present);
            let classes: Vec<Lit> = cls.iter().flatten().copied().collect();
            cnf.exactly_one(&classes);
            for (a, &c) in cls.iter().enumerate() {
                let Some(c) = c else { continue };
                let mut members = vec![!c];
                for (k, o) in ops.iter().enumerate() {
                    if o.arity() == a {
                        let v = row[k].expect("class present");
                        cnf.clause(&[!v, c]);
                        members.push(v);
                    }
                }
                cnf.clause(&members);
            }
            op.push(row);
        }
        let mut st = Structure {
            length,
            ops: ops.to_vec(),
            op,
            class,
            start: Vec::new(),
            depth: Vec::new(),
        };
        st.subtrees(cnf);
        if depth_vars {
            st.depths(cnf, max_depth);
        }
        st.rules(cnf);
        st
    }

    /// The `start` variables and validity.
    fn subtrees(&mut self, cnf: &mut Cnf) {
        let l = self.length;
        for u in 0..l {
            let mut row: Vec<Option<Lit>> = vec![None; u + 1];
            row[u] = self.class[u][0];
            let compound = self.class[u][1].is_some() || self.class[u][2].is_some();
            if compound {
                for (s, slot) in row.iter_mut().enumerate().take(u) {
                    // The subtree must begin with a push or constant.
                    if self.class[s][0].is_some() {
                        *slot = Some(cnf.fresh());
                    }
                }
            }
            let present: Vec<Lit> = row.iter().flatten().copied().collect();
            cnf.exactly_one(&present);
            for (s, &v) in row.iter().enumerate().take(u) {
                if let (Some(v), Some(n)) = (v, self.class[s][0]) {
                    cnf.clause(&[!v, n]);
                }
            }
            self.start.push(row);
            // Definitions: unary keeps the operand's start, binary takes the left operand's.
            if let Some(un) = self.class[u][1] {
                for s in 0..u {
                    if let Some(prev) = self.start[u - 1][s] {
                        let here = self.start[u][s].expect("unary step keeps starts");
                        cnf.clause(&[!un, !prev, here]);
                    }
                }
            }
            if let Some(bin) = self.class[u][2] {
                if let Some(whole) = self.start[u - 1][0] {
                    cnf.clause(&[!bin, !whole]);
                }
                for m in 1..u {
                    let Some(right) = self.start[u - 1][m] else {
                        continue;
                    };
                    for s in 0..m {
                        let Some(left) = self.start[m - 1][s] else {
                            continue;
                        };
                        match self.start[u][s] {
                            Some(here) => cnf.clause(&[!bin, !right, !left, here]),
                            None => cnf.clause(&[!bin, !right, !left]),
                        }
                    }
                }
            }
        }
        match self.start[l - 1][0] {
            Some(v) => cnf.clause(&[v]),
            None => cnf.clause(&[]),
        }
    }

    /// Redundant depth variables: one-hot depth per step, moved by the class, tied to subtrees.
    fn depths(&mut self, cnf: &mut Cnf, max_depth: impl Fn(usize) -> usize) {
        let l = self.length;
        // depth[t][d-1]: depth after step t is d.
        let depth: Vec<Vec<Lit>> = (0..l)
            .map(|t| (0..max_depth(t)).map(|_| cnf.fresh()).collect())
            .collect();
        for t in 0..l {
            cnf.exactly_one(&depth[t]);
            if t == 0 {
                cnf.clause(&[depth[0][0]]);
                continue;
            }
            for (i, &d) in depth[t - 1].iter().enumerate() {
                for (a, delta) in [(0usize, 1isize), (1, 0), (2, -1)] {
                    let Some(c) = self.class[t][a] else { continue };
                    let e = i as isize + delta;
                    match depth[t].get(e as usize).filter(|_| e >= 0) {
                        Some(&next) => cnf.clause(&[!c, !d, next]),
                        None => cnf.clause(&[!c, !d]),
                    }
                }
            }
        }
        cnf.clause(&[depth[l - 1][0]]);
        // A subtree over s..=u leaves the depth one above what it was before s.
        for u in 0..l {
            for s in 0..u {
                let Some(v) = self.start[u][s] else { continue };
                if s == 0 {
                    cnf.clause(&[!v, depth[u][0]]);
                    continue;
                }
                for (i, &d) in depth[u].iter().enumerate() {
                    match depth[s - 1].get(i.wrapping_sub(1)).filter(|_| i >= 1) {
                        Some(&before) => cnf.clause(&[!v, !d, before]),
                        None => cnf.clause(&[!v, !d]),
                    }
                }
            }
        }
        self.depth = depth;
    }

    /// Every variable in `needed` is pushed at some step: the dependency bound's argument as
    /// clauses, sound for the whole data because `needed` comes from all of it. A program with
    /// p leaves and u unary steps has length 2p - 1 + u, and p >= k = |needed|. At the bound's
    /// own length 2k-1 that leaves room for nothing but one push of each needed variable and
    /// binary instructions; at 2k, for one push of each and exactly one unary step. Saying so
    /// outright lets propagation see it at once.
    pub fn require_reads(&self, cnf: &mut Cnf, needed: &[usize]) {
        let step_lits =
            |k: usize| -> Vec<Lit> { (0..self.length).filter_map(|t| self.op[t][k]).collect() };
        let push = |v: usize| self.ops.iter().position(|&o| o == Op::Push(v as u8));
        for &v in needed {
            match push(v) {
                Some(k) => cnf.clause(&step_lits(k)),
                None => cnf.clause(&[]),
            }
        }
        let Some(unary) = self.reads_once(needed) else {
            return;
        };
        for (k, &o) in self.ops.iter().enumerate() {
            let kept = o.arity() == 2
                || (o.arity() == 1 && unary)
                || matches!(o, Op::Push(v) if needed.contains(&(v as usize)));
            let lits = step_lits(k);
            if !kept {
                for l in lits {
                    cnf.clause(&[!l]);
                }
            } else if o.arity() == 0 {
                for i in 0..lits.len() {
                    for j in i + 1..lits.len() {
                        cnf.clause(&[!lits[i], !lits[j]]);
                    }
                }
            }
        }
        if unary {
            let steps: Vec<Lit> = self.class.iter().filter_map(|c| c[1]).collect();
            cnf.clause(&steps);
            for i in 0..steps.len() {
                for j in i + 1..steps.len() {
                    cnf.clause(&[!steps[i], !steps[j]]);
                }
            }
        }
    }

    /// Whether every needed variable is read exactly once at this length (2k-1 or 2k), and if
    /// so whether the program has its one unary step (at 2k).
    fn reads_once(&self, needed: &[usize]) -> Option<bool> {
        let k = needed.len();
        match self.length {
            _ if k == 0 => None,
            l if l == 2 * k - 1 => Some(false),
            l if l == 2 * k => Some(true),
            _ => None,
        }
    }

    /// At lengths 2k-1 and 2k (after [`Structure::require_reads`]) every needed variable is
    /// pushed exactly once, so a solution with the members of a twin run relabelled in the
    /// order they are pushed is a solution too, and it still obeys the pruning rules: a run
    /// holds consecutive indices, so no comparison with a variable outside it changes, two
    /// pushed leaves of one commutative instruction come left first, and the unary rules do
    /// not look at which variable a push reads. Hence each run may be pushed in increasing
    /// index order, which divides the search by the runs' factorials. Does nothing at other
    /// lengths, where a variable may be pushed twice.
    pub fn order_twins(&self, cnf: &mut Cnf, needed: &[usize], runs: &[Vec<usize>]) {
        if self.reads_once(needed).is_none() {
            return;
        }
        let push = |v: usize| self.ops.iter().position(|&o| o == Op::Push(v as u8));
        for run in runs {
            let members: Vec<usize> = run.iter().copied().filter(|v| needed.contains(v)).collect();
            for pair in members.windows(2) {
                let (Some(a), Some(b)) = (push(pair[0]), push(pair[1])) else {
                    continue;
                };
                // b at step t means a at some step before t.
                for t in 0..self.length {
                    let Some(bt) = self.op[t][b] else { continue };
                    let mut c = vec![!bt];
                    c.extend((0..t).filter_map(|u| self.op[u][a]));
                    cnf.clause(&c);
                }
            }
        }
    }

    /// The literal selecting step s as the left operand of binary step u.
    pub fn left_selector(&self, u: usize, s: usize) -> Option<Lit> {
        if u < 2 || s + 1 >= u {
            return None;
        }
        self.start[u - 1][s + 1]
    }

    /// The pruning rules of [`rules`], as clauses over roots of operands.
    fn rules(&self, cnf: &mut Cnf) {
        let n = self.ops.len();
        let consts = rules::Constants::of(&self.ops);
        let unary_bad: Vec<(usize, usize)> = (0..n)
            .filter(|&k| self.ops[k].arity() == 1)
            .flat_map(|k| (0..n).map(move |a| (k, a)))
            .filter(|&(k, a)| !rules::unary_allowed(self.ops[k], self.ops[a], consts))
            .collect();
        let binary_bad: Vec<(usize, usize, usize)> = forbidden_triples(&self.ops);
        for u in 1..self.length {
            for &(k, a) in &unary_bad {
                if let (Some(x), Some(y)) = (self.op[u][k], self.op[u - 1][a]) {
                    cnf.clause(&[!x, !y]);
                }
            }
            if self.class[u][2].is_none() {
                continue;
            }
            // left_root[l]: the left operand of u is rooted at ops[l] (one direction suffices).
            let mut left_root: Vec<Option<Lit>> = vec![None; n];
            let needed: Vec<bool> = (0..n)
                .map(|l| binary_bad.iter().any(|t| t.1 == l))
                .collect();
            for s in 0..u {
                let Some(sel) = self.left_selector(u, s) else {
                    continue;
                };
                for l in 0..n {
                    let Some(root) = self.op[s][l] else { continue };
                    if !needed[l] {
                        continue;
                    }
                    let v = *left_root[l].get_or_insert_with(|| cnf.fresh());
                    cnf.clause(&[!sel, !root, v]);
                }
            }
            for &(k, l, r) in &binary_bad {
                if let (Some(x), Some(lv), Some(rv)) =
                    (self.op[u][k], left_root[l], self.op[u - 1][r])
                {
                    cnf.clause(&[!x, !lv, !rv]);
                }
            }
        }
    }
}

/// `(op, left, right)` indices into `ops` that [`rules::binary_allowed`] rejects.
pub(crate) fn forbidden_triples(ops: &[Op]) -> Vec<(usize, usize, usize)> {
    let n = ops.len();
    let consts = rules::Constants::of(ops);
    let mut out = Vec::new();
    for k in (0..n).filter(|&k| ops[k].arity() == 2) {
        for l in 0..n {
            for r in 0..n {
                if !rules::binary_allowed(ops[k], ops[l], ops[r], consts) {
                    out.push((k, l, r));
                }
            }
        }
    }
    out
}
