//! The z3 terms of one length's encoding, shared by the backend and the SMT-LIB export so the
//! two cannot drift. See the parent module for the design.

use std::collections::HashMap;

use z3::ast::{Bool, BV};
use z3::{Model, Solver};

use crate::lang::{rules, Op, Program};
use crate::problem::{Example, Problem};
use grundy_core::error::Error;

/// Structure variables and per-point value terms for programs of exactly `length` instructions,
/// asserted into `solver` as they are built.
pub(super) struct Encoding<'p> {
    problem: &'p Problem,
    pub(super) solver: Solver,
    length: usize,
    /// `op_t`: the code (index in `problem.ops.ops()`) of step t's instruction.
    pub(super) code: Vec<BV>,
    /// `is[t][k]`: step t runs instruction k; `None` where the stack depth rules k out.
    is: Vec<Vec<Option<Bool>>>,
    /// `left[t][s]`: step s produced the left operand of step t (meaningful when t is binary).
    left: Vec<Vec<Option<Bool>>>,
    /// The value of every step on each point added so far.
    values: HashMap<usize, Vec<BV>>,
}

/// Largest stack depth after step t (0-based) of a valid program of `length` steps: at most t+1
/// values exist, and each remaining step removes at most one.
fn max_depth(t: usize, length: usize) -> usize {
    (t + 1).min(length - t)
}

/// Whether an instruction of `arity` can run at step t without breaking those bounds.
fn arity_fits(arity: usize, t: usize, length: usize) -> bool {
    match (t, arity) {
        (0, a) => a == 0,
        (_, 0) => max_depth(t, length) >= 2,
        (_, 1) => true,
        (_, _) => max_depth(t - 1, length) >= 2,
    }
}

/// The disjunction of `terms`; `false` when empty (an `(or)` without arguments is not SMT-LIB).
fn or_of<T: Into<Bool> + Clone>(terms: &[T]) -> Bool {
    match terms {
        [] => Bool::from_bool(false),
        [one] => one.clone().into(),
        _ => Bool::or(terms),
    }
}

/// The conjunction of `terms`; `true` when empty.
fn and_of<T: Into<Bool> + Clone>(terms: &[T]) -> Bool {
    match terms {
        [] => Bool::from_bool(true),
        [one] => one.clone().into(),
        _ => Bool::and(terms),
    }
}

/// Bits of the opcode variables: enough for every code, at least one.
pub(super) fn code_bits(instructions: usize) -> u32 {
    (usize::BITS - instructions.saturating_sub(1).leading_zeros()).max(1)
}

impl<'p> Encoding<'p> {
    /// Asserts the structure: opcodes, depths, operand pointers and, with `prune`, the pruning
    /// rules of [`rules`].
    pub(super) fn new(
        problem: &'p Problem,
        length: usize,
        prune: bool,
        solver: Solver,
    ) -> Result<Self, Error> {
        if length == 0 {
            return Err(Error::Usage(
                "programs have at least one instruction".into(),
            ));
        }
        let ops = problem.ops.ops();
        let bits = code_bits(ops.len());
        let mut enc = Encoding {
            problem,
            solver,
            length,
            code: Vec::with_capacity(length),
            is: Vec::with_capacity(length),
            left: Vec::with_capacity(length),
            values: HashMap::new(),
        };
        for t in 0..length {
            let code = BV::new_const(format!("op_{t}"), bits);
            let is: Vec<Option<Bool>> = (0..ops.len())
                .map(|k| arity_fits(ops[k].arity(), t, length).then(|| code.eq(k as u64)))
                .collect();
            let any: Vec<&Bool> = is.iter().flatten().collect();
            enc.solver.assert(or_of(&any));
            enc.code.push(code);
            enc.is.push(is);
        }
        let depth = enc.depths();
        enc.pointers(&depth);
        if prune {
            enc.prune();
        }
        Ok(enc)
    }

    /// The instructions.
    fn ops(&self) -> &'p [Op] {
        self.problem.ops.ops()
    }

    /// Whether step t runs some instruction of `arity`.
    fn has_arity(&self, t: usize, arity: usize) -> Option<Bool> {
        let ops = self.ops();
        let terms: Vec<&Bool> = (0..ops.len())
            .filter(|&k| ops[k].arity() == arity)
            .filter_map(|k| self.is[t][k].as_ref())
            .collect();
        (!terms.is_empty()).then(|| or_of(&terms))
    }

    /// `d_t_k`: the stack holds k values after step t, for k in 1..=max_depth(t); index 0 unused.
    /// Each is defined from the previous step's depth and this step's arity; at least one must
    /// hold, which rules out underflow and, at the last step, a final depth other than 1.
    fn depths(&mut self) -> Vec<Vec<Option<Bool>>> {
        let mut depth: Vec<Vec<Option<Bool>>> = Vec::with_capacity(self.length);
        for t in 0..self.length {
            let arity: Vec<Option<Bool>> = (0..3).map(|a| self.has_arity(t, a)).collect();
            let mut row = vec![None];
            for k in 1..=max_depth(t, self.length) {
                let mut ways = Vec::new();
                for (a, is_a) in arity.iter().enumerate() {
                    let Some(is_a) = is_a else { continue };
                    // The stack is empty before step 0.
                    match t.checked_sub(1) {
                        None if k + a == 1 => ways.push(is_a.clone()),
                        None => {}
                        Some(p) => {
                            if let Some(Some(before)) = depth[p].get(k + a - 1) {
                                ways.push(and_of(&[before, is_a]));
                            }
                        }
                    }
                }
                let d = Bool::new_const(format!("d_{t}_{k}"));
                self.solver.assert(d.iff(or_of(&ways)));
                row.push(Some(d));
            }
            let any: Vec<&Bool> = row.iter().flatten().collect();
            self.solver.assert(or_of(&any));
            depth.push(row);
        }
        depth
    }

    /// `l_t_s`: the left operand of step t is step s, the last step before t-1 after which the
    /// stack was one shallower than before step t.
    fn pointers(&mut self, depth: &[Vec<Option<Bool>>]) {
        let at = |u: usize, k: usize| depth[u].get(k).cloned().flatten();
        for t in 0..self.length {
            let mut row = vec![None; t];
            if t >= 2 && arity_fits(2, t, self.length) {
                for (s, slot) in row.iter_mut().enumerate().take(t - 1) {
                    let mut ways = Vec::new();
                    for k in 1..depth[s].len() {
                        let (Some(here), Some(top)) = (at(s, k), at(t - 1, k + 1)) else {
                            continue;
                        };
                        let mut all = vec![here, top];
                        all.extend(((s + 1)..(t - 1)).filter_map(|u| at(u, k)).map(|d| d.not()));
                        ways.push(and_of(&all));
                    }
                    if ways.is_empty() {
                        continue;
                    }
                    let l = Bool::new_const(format!("l_{t}_{s}"));
                    self.solver.assert(l.iff(or_of(&ways)));
                    *slot = Some(l);
                }
            }
            self.left.push(row);
        }
    }

    /// Forbids exactly the shapes `rules::unary_allowed` and `rules::binary_allowed` reject.
    fn prune(&mut self) {
        let ops = self.ops();
        let n = ops.len();
        let consts = rules::Constants::of(ops);
        for t in 1..self.length {
            let mut left_in: HashMap<Vec<usize>, Bool> = HashMap::new();
            for k in (0..n).filter(|&k| self.is[t][k].is_some()) {
                let op = ops[k];
                let this = self.is[t][k].as_ref().expect("feasible");
                for r in (0..n).filter(|&r| self.is[t - 1][r].is_some()) {
                    let right = self.is[t - 1][r].as_ref().expect("feasible");
                    match op.arity() {
                        1 if !rules::unary_allowed(op, ops[r], consts) => {
                            self.solver.assert(and_of(&[this, right]).not());
                        }
                        2 => {
                            let bad: Vec<usize> = (0..n)
                                .filter(|&l| !rules::binary_allowed(op, ops[l], ops[r], consts))
                                .collect();
                            if bad.is_empty() {
                                continue;
                            }
                            let root = left_in
                                .entry(bad.clone())
                                .or_insert_with(|| self.left_root_in(t, &bad));
                            self.solver.assert(and_of(&[this, right, root]).not());
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    /// Whether the instruction computing step t's left operand is one of `set`.
    fn left_root_in(&self, t: usize, set: &[usize]) -> Bool {
        let mut ways = Vec::new();
        for (s, l) in self.left[t].iter().enumerate() {
            let Some(l) = l else { continue };
            let roots: Vec<&Bool> = set.iter().filter_map(|&k| self.is[s][k].as_ref()).collect();
            if !roots.is_empty() {
                ways.push(and_of(&[l, &or_of(&roots)]));
            }
        }
        or_of(&ways)
    }

    /// `v_p_t`: the value of every step on point p (built once per point).
    pub(super) fn values(&mut self, point: usize) -> &[BV] {
        if !self.values.contains_key(&point) {
            let vals = self.build_values(point);
            self.values.insert(point, vals);
        }
        &self.values[&point]
    }

    fn build_values(&self, point: usize) -> Vec<BV> {
        let w = self.problem.width;
        let mask = self.problem.mask();
        let x = &self.problem.points[point];
        let ops = self.ops();
        let mut vals: Vec<BV> = Vec::with_capacity(self.length);
        for t in 0..self.length {
            let right = t.checked_sub(1).map(|s| vals[s].clone());
            let mut left: Option<BV> = None;
            for (s, l) in self.left[t].iter().enumerate() {
                if let Some(l) = l {
                    left = Some(match left {
                        None => vals[s].clone(),
                        Some(rest) => l.ite(&vals[s], &rest),
                    });
                }
            }
            let mut arms: Vec<(&Bool, BV)> = Vec::new();
            for (k, is) in self.is[t].iter().enumerate() {
                let Some(is) = is else { continue };
                let v = match (ops[k], &left, &right) {
                    (Op::Push(i), _, _) => {
                        BV::from_u64(x.get(i as usize).copied().unwrap_or(0) & mask, w)
                    }
                    (op, _, _) if op.arity() == 0 => {
                        BV::from_u64(op.constant().expect("a constant") & mask, w)
                    }
                    (op, _, Some(b)) if op.arity() == 1 => apply(op, b, b, w),
                    (op, Some(a), Some(b)) => apply(op, a, b, w),
                    // No operand can exist (cannot happen for arity-feasible steps): keep the
                    // encoding exact by ruling the instruction out.
                    _ => {
                        self.solver.assert(is.not());
                        continue;
                    }
                };
                arms.push((is, v));
            }
            // No instruction fits step t at all: the structure is already unsatisfiable.
            let last = arms.pop().map_or_else(|| BV::from_u64(0, w), |(_, v)| v);
            let mux = arms
                .into_iter()
                .rev()
                .fold(last, |acc, (c, v)| c.ite(&v, &acc));
            let v = BV::new_const(format!("v_{point}_{t}"), w);
            self.solver.assert(v.eq(&mux));
            vals.push(v);
        }
        vals
    }

    /// The program's output on `point`.
    pub(super) fn output(&mut self, point: usize) -> BV {
        self.values(point).last().expect("length >= 1").clone()
    }

    /// Asserts `problem.examples[index]`.
    pub(super) fn require(&mut self, index: usize) -> Result<(), Error> {
        let w = self.problem.width;
        let zero = BV::from_u64(0, w);
        let ex = self.problem.examples.get(index).ok_or_else(|| {
            Error::Usage(format!(
                "example {index} does not exist (the problem has {})",
                self.problem.examples.len()
            ))
        })?;
        let term = match ex.clone() {
            Example::Equals { point, value } => self.output(point).eq(BV::from_u64(value, w)),
            Example::NonZero { point } => self.output(point).eq(&zero).not(),
            Example::SomeZero { points, boolean } => {
                let outs: Vec<BV> = points.iter().map(|&p| self.output(p)).collect();
                let zeros: Vec<Bool> = outs.iter().map(|o| o.eq(&zero)).collect();
                let mut all = vec![or_of(&zeros)];
                if boolean {
                    all.extend(outs.iter().map(|o| o.bvule(BV::from_u64(1, w))));
                }
                and_of(&all)
            }
        };
        self.solver.assert(term);
        Ok(())
    }

    /// Fixes the opcodes to `program`'s (for tests and for checking a known program).
    #[cfg(test)]
    pub(super) fn fix(&self, program: &Program) {
        for (t, op) in program.0.iter().enumerate() {
            let k = self.ops().iter().position(|o| o == op);
            match k.and_then(|k| self.is[t][k].clone()) {
                Some(is) => self.solver.assert(is),
                None => self.solver.assert(Bool::from_bool(false)),
            }
        }
    }

    /// Reads the program off a model.
    pub(super) fn decode(&self, model: &Model) -> Result<Program, Error> {
        let ops = self.ops();
        let mut program = Vec::with_capacity(self.length);
        for (t, code) in self.code.iter().enumerate() {
            let k = model
                .eval(code, true)
                .and_then(|v| v.as_u64())
                .filter(|&k| (k as usize) < ops.len())
                .ok_or_else(|| {
                    Error::Resource(format!("z3's model has no valid opcode for step {t}"))
                })?;
            program.push(ops[k as usize]);
        }
        Ok(Program(program))
    }
}

/// One instruction on W-bit terms, matching [`Op::apply`] (unary instructions read `b`, the
/// top of the stack).
pub(crate) fn apply(op: Op, a: &BV, b: &BV, w: u32) -> BV {
    let zero = || BV::from_u64(0, w);
    let one = || BV::from_u64(1, w);
    let flag = |c: Bool| c.ite(&one(), &zero());
    match op {
        Op::Not => b.bvnot(),
        Op::BooleanNot => flag(b.eq(zero())),
        Op::Plus => a.bvadd(b),
        Op::Minus => a.bvsub(b),
        Op::Mul => a.bvmul(b),
        // SMT-LIB's x / 0 is all ones; ours is 0.
        Op::Div => b.eq(zero()).ite(&zero(), &a.bvudiv(b)),
        // SMT-LIB's x % 0 is x, as ours.
        Op::Mod => a.bvurem(b),
        Op::And => a.bvand(b),
        Op::Or => a.bvor(b),
        Op::Xor => a.bvxor(b),
        // Shifts by W or more give 0 in SMT-LIB, as ours.
        Op::LeftShift => a.bvshl(b),
        Op::RightShift => a.bvlshr(b),
        Op::BooleanEq => flag(a.eq(b)),
        Op::Min => a.bvule(b).ite(a, b),
        Op::Max => a.bvule(b).ite(b, a),
        Op::Lt => flag(a.bvult(b)),
        Op::Push(_) | Op::Zero | Op::One | Op::Const(_) => {
            unreachable!("nullary instructions take no operands")
        }
    }
}
