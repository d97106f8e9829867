//! The whole instance for one length: structure, value circuits per point, and the examples'
//! requirements on the output.

use ahash::AHashMap;
use varisat::Lit;

use super::circuits::{constant, StepCircuits, Word};
use super::cnf::{Bit, Cnf};
use super::structure::Structure;
use super::{Layout, Options};
use crate::lang::{Op, Program};
use crate::problem::{Example, Problem};
use grundy_core::error::Error;

/// Everything encoded so far for programs of one length.
pub(crate) struct Encoder<'p> {
    pub problem: &'p Problem,
    pub cnf: Cnf,
    pub st: Structure,
    /// Output bits per point index, so a point in two examples is encoded once.
    outputs: AHashMap<usize, Vec<Lit>>,
    /// `guards[t][k]`: the literal that switches on the circuit of `ops[k]` at step t (None:
    /// always on). Shared by every point.
    guards: Vec<Vec<Option<Lit>>>,
    direct_bitwise: bool,
    layout: Layout,
}

impl<'p> Encoder<'p> {
    /// The structure of programs of exactly `length` instructions.
    pub fn new(problem: &'p Problem, length: usize, options: &Options) -> Self {
        let mut cnf = Cnf::default();
        let depth_vars = options.depth_vars || options.layout == Layout::Slots;
        let st = Structure::new(&mut cnf, problem.ops.ops(), length, depth_vars);
        let needed = problem.lower_bound().1;
        st.require_reads(&mut cnf, &needed);
        st.order_twins(&mut cnf, &needed, &problem.twin_runs());
        let guards = if options.guarded {
            guards(&mut cnf, &st)
        } else {
            vec![vec![None; st.ops.len()]; length]
        };
        Encoder {
            problem,
            cnf,
            st,
            outputs: AHashMap::new(),
            guards,
            direct_bitwise: options.direct_bitwise,
            layout: options.layout,
        }
    }

    /// The value bits of every step when the variables are `x`.
    pub fn values(&mut self, x: &[u64]) -> Vec<Vec<Lit>> {
        let w = self.problem.width as usize;
        let mask = self.problem.mask();
        let (cnf, st) = (&mut self.cnf, &self.st);
        let mut vals: Vec<Vec<Lit>> = Vec::with_capacity(st.length);
        // Slots layout: slots[t][j] is the word in stack slot j after step t.
        let mut slots: Vec<Vec<Vec<Lit>>> = Vec::new();
        for t in 0..st.length {
            let v: Vec<Lit> = (0..w).map(|_| cnf.fresh()).collect();
            let set = |cnf: &mut Cnf, sel: Lit, r: &Word| {
                for (&vb, &rb) in v.iter().zip(r) {
                    match rb {
                        Bit::Const(c) => cnf.clause(&[!sel, if c { vb } else { !vb }]),
                        Bit::Lit(r) => {
                            cnf.clause(&[!sel, !r, vb]);
                            cnf.clause(&[!sel, r, !vb]);
                        }
                    }
                }
            };
            for (k, &op) in st.ops.iter().enumerate() {
                let Some(sel) = st.op[t][k] else { continue };
                let value = match op {
                    Op::Push(i) => x[i as usize] & mask,
                    Op::Zero | Op::One | Op::Const(_) => op.constant().expect("constant") & mask,
                    _ => continue,
                };
                set(cnf, sel, &constant(value, w));
            }
            if st.class[t][1].is_some() || st.class[t][2].is_some() {
                let binary = st.class[t][2].is_some();
                let (top, left) = match self.layout {
                    Layout::Pointers => (
                        vals[t - 1].iter().map(|&l| Bit::Lit(l)).collect(),
                        if binary {
                            left_operand(cnf, st, &vals, t, w)
                        } else {
                            Vec::new()
                        },
                    ),
                    Layout::Slots => slot_operands(cnf, st, &slots[t - 1], t, w),
                };
                let mut unary = StepCircuits::new(w, &top, &top);
                let mut binary = StepCircuits::new(w, &left, &top);
                for (k, &op) in st.ops.iter().enumerate() {
                    let Some(sel) = st.op[t][k] else { continue };
                    let c = match op.arity() {
                        0 => continue,
                        1 => &mut unary,
                        _ => &mut binary,
                    };
                    if self.direct_bitwise && matches!(op, Op::And | Op::Or | Op::Xor) {
                        bitwise(cnf, sel, op, &left, &top, &v);
                        continue;
                    }
                    let r = cnf.guarded(self.guards[t][k], |cnf| c.result(cnf, op));
                    set(cnf, sel, &r);
                }
            }
            if self.layout == Layout::Slots {
                let written = write_slots(cnf, st, slots.last(), &v, t);
                slots.push(written);
            }
            vals.push(v);
        }
        vals
    }

    /// The output bits at data point `point`.
    fn output(&mut self, point: usize) -> Vec<Lit> {
        if let Some(o) = self.outputs.get(&point) {
            return o.clone();
        }
        let problem = self.problem;
        let out = self
            .values(&problem.points[point])
            .pop()
            .expect("length >= 1");
        self.outputs.insert(point, out.clone());
        out
    }

    /// Adds `problem.examples[index]`: its points' circuits and its requirement.
    pub fn add_example(&mut self, index: usize) -> Result<(), Error> {
        let ex = self.problem.examples.get(index).ok_or_else(|| {
            Error::Usage(format!(
                "example {index} does not exist ({} examples)",
                self.problem.examples.len()
            ))
        })?;
        match ex.clone() {
            Example::Equals { point, value } => {
                let out = self.output(point);
                if value > self.problem.mask() {
                    self.cnf.clause(&[]);
                    return Ok(());
                }
                for (b, &l) in out.iter().enumerate() {
                    let one = b < 64 && (value >> b) & 1 == 1;
                    self.cnf.clause(&[if one { l } else { !l }]);
                }
            }
            Example::NonZero { point } => {
                let out = self.output(point);
                self.cnf.clause(&out);
            }
            Example::SomeZero { points, boolean } => {
                let mut some = Vec::with_capacity(points.len());
                for &p in &points {
                    let out = self.output(p);
                    if boolean {
                        for &l in &out[1..] {
                            self.cnf.clause(&[!l]);
                        }
                    }
                    // zero: this member outputs 0.
                    let zero = self.cnf.fresh();
                    for &l in &out {
                        self.cnf.clause(&[!zero, !l]);
                    }
                    some.push(zero);
                }
                self.cnf.clause(&some);
            }
        }
        Ok(())
    }

    /// The program a model (given as "is this literal true") describes.
    pub fn decode(&self, truth: impl Fn(Lit) -> bool) -> Result<Program, Error> {
        let mut prog = Vec::with_capacity(self.st.length);
        for t in 0..self.st.length {
            let chosen: Vec<Op> = (0..self.st.ops.len())
                .filter(|&k| self.st.op[t][k].is_some_and(&truth))
                .map(|k| self.st.ops[k])
                .collect();
            match chosen[..] {
                [op] => prog.push(op),
                _ => {
                    return Err(Error::internal(format!(
                        "the SAT model chooses {} instructions at step {t}",
                        chosen.len()
                    )))
                }
            }
        }
        Ok(Program(prog))
    }
}

/// `sel → v = a op b` bit by bit for And, Or, Xor, without gate variables.
fn bitwise(cnf: &mut Cnf, sel: Lit, op: Op, a: &[Bit], b: &[Bit], v: &[Lit]) {
    for i in 0..v.len() {
        let (Bit::Lit(x), Bit::Lit(y)) = (a[i], b[i]) else {
            unreachable!("operands are variables")
        };
        let o = v[i];
        match op {
            Op::And => {
                cnf.clause(&[!sel, !o, x]);
                cnf.clause(&[!sel, !o, y]);
                cnf.clause(&[!sel, o, !x, !y]);
            }
            Op::Or => {
                cnf.clause(&[!sel, o, !x]);
                cnf.clause(&[!sel, o, !y]);
                cnf.clause(&[!sel, !o, x, y]);
            }
            _ => {
                cnf.clause(&[!sel, !o, x, y]);
                cnf.clause(&[!sel, !o, !x, !y]);
                cnf.clause(&[!sel, o, !x, y]);
                cnf.clause(&[!sel, o, x, !y]);
            }
        }
    }
}

/// Instructions whose circuits share parts (see [`StepCircuits`]) share one guard.
fn family(op: Op) -> Option<u8> {
    match op {
        Op::Minus | Op::Lt | Op::Min | Op::Max => Some(0),
        Op::Xor | Op::BooleanEq => Some(1),
        Op::Div | Op::Mod => Some(2),
        _ => None,
    }
}

/// Per step and instruction, the guard of its circuit: the opcode itself, or for a family of
/// instructions sharing a circuit a literal implied by each member.
fn guards(cnf: &mut Cnf, st: &Structure) -> Vec<Vec<Option<Lit>>> {
    let mut out = Vec::with_capacity(st.length);
    for t in 0..st.length {
        let mut row: Vec<Option<Lit>> = vec![None; st.ops.len()];
        for (k, &op) in st.ops.iter().enumerate() {
            let Some(sel) = st.op[t][k] else { continue };
            if op.arity() == 0 || row[k].is_some() {
                continue;
            }
            let members: Vec<usize> = match family(op) {
                None => vec![k],
                Some(f) => (0..st.ops.len())
                    .filter(|&j| family(st.ops[j]) == Some(f) && st.op[t][j].is_some())
                    .collect(),
            };
            let guard = match members[..] {
                [_] => sel,
                _ => {
                    let g = cnf.fresh();
                    for &j in &members {
                        cnf.clause(&[!st.op[t][j].expect("present"), g]);
                    }
                    g
                }
            };
            for j in members {
                row[j] = Some(guard);
            }
        }
        out.push(row);
    }
    out
}

/// A word equal to the candidate whose selector is true (selectors are exclusive).
fn select(cnf: &mut Cnf, cands: &[(Lit, &[Lit])], w: usize) -> Word {
    if let [(_, word)] = cands {
        return word.iter().map(|&l| Bit::Lit(l)).collect();
    }
    let a: Vec<Lit> = (0..w).map(|_| cnf.fresh()).collect();
    for &(sel, word) in cands {
        for b in 0..w {
            cnf.clause(&[!sel, !word[b], a[b]]);
            cnf.clause(&[!sel, word[b], !a[b]]);
        }
    }
    a.into_iter().map(Bit::Lit).collect()
}

/// The left operand of binary step `t`: a multiplexer over the steps it may point to.
fn left_operand(cnf: &mut Cnf, st: &Structure, vals: &[Vec<Lit>], t: usize, w: usize) -> Word {
    let cands: Vec<(Lit, &[Lit])> = (0..t)
        .filter_map(|s| st.left_selector(t, s).map(|l| (l, &vals[s][..])))
        .collect();
    select(cnf, &cands, w)
}

/// Slots layout: the top and second words of the stack before step `t`, muxed on the depth.
fn slot_operands(
    cnf: &mut Cnf,
    st: &Structure,
    prev: &[Vec<Lit>],
    t: usize,
    w: usize,
) -> (Word, Word) {
    let depth = &st.depth[t - 1];
    let top: Vec<(Lit, &[Lit])> = (0..depth.len()).map(|i| (depth[i], &prev[i][..])).collect();
    let second: Vec<(Lit, &[Lit])> = (1..depth.len())
        .map(|i| (depth[i], &prev[i - 1][..]))
        .collect();
    let top = select(cnf, &top, w);
    let second = if st.class[t][2].is_some() {
        select(cnf, &second, w)
    } else {
        Vec::new()
    };
    (top, second)
}

/// Slots layout: the stack after step `t`, whose result `v` lands in the top slot and whose
/// lower slots are copied from before.
fn write_slots(
    cnf: &mut Cnf,
    st: &Structure,
    prev: Option<&Vec<Vec<Lit>>>,
    v: &[Lit],
    t: usize,
) -> Vec<Vec<Lit>> {
    let w = v.len();
    let depth = &st.depth[t];
    let new: Vec<Vec<Lit>> = (0..depth.len())
        .map(|_| (0..w).map(|_| cnf.fresh()).collect())
        .collect();
    for (i, &d) in depth.iter().enumerate() {
        // Depth i+1: slot i holds v, slots below are unchanged.
        let copies = (0..i).map(|j| (&new[j], &prev.expect("a stack below")[j][..]));
        for (to, from) in std::iter::once((&new[i], v)).chain(copies) {
            for b in 0..w {
                cnf.clause(&[!d, !from[b], to[b]]);
                cnf.clause(&[!d, from[b], !to[b]]);
            }
        }
    }
    new
}
