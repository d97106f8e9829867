//! Proofs over bit-vectors for every position with every heap below 2^B, for programs with
//! no exact linear reading (the xor of sums, shifts, nim's SG value x0 ^ x1).
//!
//! The program is run by z3 on W-bit words exactly as the interpreter runs it. The theorem is
//! about the program itself, not one width of it, only if no step wraps: z3 first shows that
//! for heaps below 2^B every step's word is its ideal value (no carry out of a sum, product or
//! left shift, no difference below 0, no `Not`), so the program gives the same at every width
//! from W up. A difference whose value matters only as zero or not (the last step for the
//! zero target, under `Or` there or under `BooleanNot`) may go below 0: it is 0 exactly when
//! its operands are equal, at every such width, so the zero set is the same. Moves of hypergraph nim keep heaps below 2^B, so the set of such positions is
//! closed under moves and conditions (A), (B) (and (C), (S1), (S2)) on it prove the claim
//! there.

use z3::ast::{Bool, BV};
use z3::{Model, Solver, Tactic};

use super::clock::{Answer, Clock};
use super::target::Domain;
use super::witness::{Goal, Proposer};
use crate::lang::{Op, Program};
use crate::smt::apply;
use grundy_core::error::{Error, OptionKey, Setting};

/// The bound B when none is given and the candidate moves do not prove the program at the
/// widest bound ([`widest_bound`]): every heap below 2^4 = 16 (a universal block over words
/// costs z3 several times more per bit, so larger bounds are asked for explicitly).
pub const DEFAULT_BOUND: u32 = 4;

/// Most candidate moves tried through one face, over every image.
const MAX_PROPOSALS: usize = 256;

/// The widest word: the interpreter's.
pub const MAX_WIDTH: u32 = 64;

/// The program on bit-vectors, for positions with every heap below 2^bound.
pub(super) struct Bits<'a> {
    pub program: &'a Program,
    /// Each image `img` of the positions: the program reads `p[img[j]]` as x_j.
    pub images: &'a [Vec<usize>],
    pub bound: u32,
    pub width: u32,
    /// Whether (B) and (S2) may fall back to a universal block over words (slow past a few
    /// bits) where the candidate moves do not settle them.
    pub universal: bool,
}

/// For each step, whether only its being 0 matters, at every width: the last step for the
/// zero target (`root`), the operand of `BooleanNot`, and the operands of an `Or` that is so
/// itself. A difference a - b there may wrap: with a and b below 2^w, it is 0 mod 2^w exactly
/// when a = b, at every width w at which a and b do not wrap (as the linear reading has it).
fn zero_tested(program: &Program, root: bool) -> Vec<bool> {
    let ops = &program.0;
    let mut args: Vec<Vec<usize>> = Vec::with_capacity(ops.len());
    let mut stack: Vec<usize> = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        let from = stack.len().saturating_sub(op.arity());
        args.push(stack.split_off(from));
        stack.push(i);
    }
    let mut tested = vec![false; ops.len()];
    if let Some(last) = tested.last_mut() {
        *last = root;
    }
    // An operand comes before its step: walking back, a step is settled before its operands.
    for i in (0..ops.len()).rev() {
        if ops[i] == Op::BooleanNot || (ops[i] == Op::Or && tested[i]) {
            args[i].iter().for_each(|&j| tested[j] = true);
        }
    }
    tested
}

/// How many differences of `program` may wrap in a proof over bit-vectors because only their
/// being 0 matters (`zero`: for the zero target), for the claim's wording.
pub fn free_differences(program: &Program, zero: bool) -> usize {
    let free = zero_tested(program, zero);
    (program.0.iter().zip(free))
        .filter(|&(&op, f)| f && op == Op::Minus)
        .count()
}

/// The program's word on the variables `x`, and for each step that may wrap, the condition
/// under which it does, with the step's text; a difference marked in `free` may wrap (see
/// [`zero_tested`]).
fn run(program: &Program, x: &[BV], w: u32, free: &[bool]) -> (BV, Vec<(Bool, String)>) {
    let zero = || BV::from_u64(0, w);
    let mut stack: Vec<(BV, usize)> = Vec::new();
    let mut wraps = Vec::new();
    for (i, &op) in program.0.iter().enumerate() {
        let (v, start) = match op.arity() {
            0 => {
                let v = match op {
                    Op::Push(j) => x[j as usize].clone(),
                    _ => BV::from_u64(op.constant().expect("a constant"), w),
                };
                (v, i)
            }
            1 => {
                let (b, start) = stack.pop().expect("a valid program");
                (apply(op, &b, &b, w), start)
            }
            _ => {
                let (b, _) = stack.pop().expect("a valid program");
                let (a, start) = stack.pop().expect("a valid program");
                let wide = |v: &BV| v.zero_ext(w);
                let high = |v: BV| v.extract(2 * w - 1, w).eq(BV::from_u64(0, w)).not();
                let wrap = match op {
                    Op::Plus => Some(high(wide(&a).bvadd(wide(&b)))),
                    Op::Minus if free.get(i) == Some(&true) => None,
                    Op::Minus => Some(a.bvult(&b)),
                    Op::Mul => Some(high(wide(&a).bvmul(wide(&b)))),
                    Op::LeftShift => {
                        let out = Bool::or(&[
                            b.bvuge(BV::from_u64(w as u64, w)),
                            high(wide(&a).bvshl(wide(&b))),
                        ]);
                        Some(Bool::and(&[a.eq(zero()).not(), out]))
                    }
                    _ => None,
                };
                if let Some(c) = wrap {
                    wraps.push((c, Program(program.0[start..=i].to_vec()).infix()));
                }
                (apply(op, &a, &b, w), start)
            }
        };
        if op == Op::Not {
            // ~a is -1 - a: below 0 for every natural a.
            wraps.push((
                Bool::from_bool(true),
                Program(program.0[start..=i].to_vec()).infix(),
            ));
        }
        stack.push((v, start));
    }
    (stack.pop().expect("a valid program").0, wraps)
}

/// An upper bound on every step's ideal value for heaps below 2^bound, in bits (`None` past
/// 64 bits or for `Not`, which is negative): the width tried first.
fn bits_needed(program: &Program, bound: u32) -> Option<u32> {
    let cap = 1u128 << 64;
    let mut stack: Vec<u128> = Vec::new();
    let mut most = (1u128 << bound) - 1;
    for &op in &program.0 {
        let v = match op.arity() {
            0 => match op {
                Op::Push(_) => (1u128 << bound) - 1,
                _ => op.constant().expect("a constant") as u128,
            },
            1 => {
                stack.pop()?;
                match op {
                    Op::BooleanNot => 1,
                    _ => return None,
                }
            }
            _ => {
                let b = stack.pop()?;
                let a = stack.pop()?;
                let ones = |v: u128| (1u128 << (128 - v.leading_zeros()).min(127)) - 1;
                match op {
                    Op::Plus => a + b,
                    Op::Mul => a.saturating_mul(b),
                    Op::LeftShift if b >= 64 => cap,
                    Op::LeftShift => a.saturating_mul(1 << b),
                    Op::Minus | Op::Div | Op::RightShift => a,
                    Op::Mod | Op::And | Op::Min => a.min(b),
                    Op::Or | Op::Xor => ones(a.max(b)),
                    Op::Max => a.max(b),
                    _ => 1,
                }
            }
        };
        let v = v.min(cap);
        most = most.max(v);
        stack.push(v);
    }
    let bits = 128 - most.leading_zeros();
    (bits <= MAX_WIDTH).then_some(bits.max(1))
}

/// The largest bound B at which no step of `program` can pass 64 bits for heaps below 2^B
/// (none for a program with `Not`, or one that passes 64 bits even for one-bit heaps).
pub fn widest_bound(program: &Program) -> Option<u32> {
    (1..=MAX_WIDTH)
        .rev()
        .find(|&b| bits_needed(program, b).is_some())
}

/// A step that wraps and a position where it does, none, or z3's reason for giving up.
type Wrap = Result<Option<(String, Vec<u64>)>, String>;

/// Whether some step wraps at width `w` for a position below 2^bound (a difference marked in
/// `free` may): the step and position, none, or z3's reason for giving up.
fn wrap_at(
    program: &Program,
    n: usize,
    bound: u32,
    w: u32,
    free: &[bool],
    clock: &Clock,
) -> Result<Wrap, Error> {
    let s = match clock.solver() {
        Ok(s) => s,
        Err(why) => return Ok(Err(why)),
    };
    let x: Vec<BV> = (0..n).map(|i| BV::new_const(format!("x{i}"), w)).collect();
    for v in &x {
        s.assert(below(v, bound, w));
    }
    let (_, wraps) = run(program, &x, w, free);
    let any: Vec<Bool> = wraps.iter().map(|(c, _)| c.clone()).collect();
    s.assert(Bool::or(&any));
    Ok(match clock.check(&s) {
        Answer::Sat(m) => {
            let step = wraps
                .iter()
                .find(|(c, _)| m.eval(c, true).and_then(|b| b.as_bool()) == Some(true))
                .map_or_else(String::new, |(_, t)| t.clone());
            let at = x.iter().map(|v| read(&m, v)).collect::<Result<_, _>>()?;
            Ok(Some((step, at)))
        }
        Answer::Unsat => Ok(None),
        Answer::Unknown(why) => Err(why),
    })
}

fn below(x: &BV, bound: u32, w: u32) -> Bool {
    match bound >= w {
        true => Bool::from_bool(true),
        false => x.bvult(BV::from_u64(1 << bound, w)),
    }
}

fn read(m: &Model, x: &BV) -> Result<u64, Error> {
    m.eval(x, true)
        .and_then(|v| v.as_u64())
        .ok_or_else(|| Error::Internal("z3's model has no value for a word".into()))
}

/// A bound B of heaps below 2^B that a proof over bit-vectors takes, or why not (a usage
/// error, checked before any search that would ask for one).
pub fn check_bound(bound: u32) -> Result<(), Error> {
    match (1..=MAX_WIDTH).contains(&bound) {
        true => Ok(()),
        false => Err(Error::refused(
            OptionKey::Bound,
            format!(" {bound}: a bound from 1 to {MAX_WIDTH} (heaps below 2^B)"),
        )),
    }
}

/// The width of the proof: `asked`, or the least width the step bounds allow, after z3 has
/// shown no step wraps at it for heaps below 2^bound (for the zero target, `zero`, only the
/// program's zero set need not depend on the width). `Ok(Err)` is z3's reason for giving up;
/// a width at which the program wraps is refused with the width it needs.
pub(super) fn width(
    program: &Program,
    n: usize,
    bound: u32,
    asked: Option<u32>,
    zero: bool,
    clock: &Clock,
) -> Result<Result<u32, String>, Error> {
    check_bound(bound)?;
    let free = zero_tested(program, zero);
    let w = match asked {
        Some(w) if !(1..=MAX_WIDTH).contains(&w) => {
            return Err(Error::refused(
                OptionKey::Width,
                format!(" {w}: a width from 1 to {MAX_WIDTH} bits"),
            ))
        }
        Some(w) if w < bound => {
            return Err(Error::refused(
                OptionKey::Width,
                format!(" {w} is below the bound {bound}: heaps below 2^{bound} need {bound} bits"),
            ))
        }
        Some(w) => w,
        None => bits_needed(program, bound).unwrap_or(MAX_WIDTH).max(bound),
    };
    if let Some(k) = program.constant_wider_than(crate::interp::mask(w)) {
        return Err(Error::limit(
            Setting::Width,
            format!("constant {k} does not fit in {w} bits"),
        ));
    }
    let (step, at) = match wrap_at(program, n, bound, w, &free, clock)? {
        Ok(None) => return Ok(Ok(w)),
        Ok(Some(found)) => found,
        Err(why) => return Ok(Err(why)),
    };
    let at: Vec<String> = at.iter().map(|v| v.to_string()).collect();
    let at = at.join(",");
    if wrap_at(program, n, bound, MAX_WIDTH, &free, clock)? != Ok(None) {
        return Err(Error::Usage(format!(
            "the step `{step}` wraps (goes below 0 or past 2^{MAX_WIDTH}) for heaps below \
             2^{bound} (at {at}), so its value depends on the width: no proof over bit-vectors"
        )));
    }
    // The least wider width with no wrap: it wraps at lo and not at hi (no wrap at a width
    // means none at any wider one), and an undecided width counts as wrapping.
    let (mut lo, mut hi) = (w, MAX_WIDTH);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        match wrap_at(program, n, bound, mid, &free, clock)? {
            Ok(None) => hi = mid,
            _ => lo = mid,
        }
    }
    Err(Error::limit(
        Setting::Width,
        format!(
            "at width {w} the step `{step}` wraps for heaps below 2^{bound} (at {at}); the \
             program needs {hi} bits"
        ),
    ))
}

impl Domain for Bits<'_> {
    type N = BV;

    /// Universal blocks over words by quantifier elimination first: z3's default instantiation
    /// of them takes many times longer.
    fn solver(&self, clock: &Clock, quantified: bool) -> Result<Solver, String> {
        let plain = clock.solver()?;
        Ok(match quantified {
            true => Tactic::new("simplify")
                .and_then(&Tactic::new("qe"))
                .and_then(&Tactic::new("smt"))
                .solver(),
            false => plain,
        })
    }

    fn number(&self, name: &str) -> BV {
        BV::new_const(name, self.width)
    }

    fn konst(&self, c: u64) -> BV {
        BV::from_u64(c, self.width)
    }

    fn in_scope(&self, x: &BV) -> Bool {
        below(x, self.bound, self.width)
    }

    fn le(&self, a: &BV, b: &BV) -> Bool {
        a.bvule(b)
    }

    fn lt(&self, a: &BV, b: &BV) -> Bool {
        a.bvult(b)
    }

    fn sub(&self, a: &BV, b: &BV) -> BV {
        a.bvsub(b)
    }

    fn total_below(&self, p: &[BV], t: u64) -> Bool {
        // 16 more bits hold the sum of up to 2^16 heaps without wrapping.
        let wide: Vec<BV> = p.iter().map(|x| x.zero_ext(16)).collect();
        let sum = wide[1..].iter().fold(wide[0].clone(), |s, x| s.bvadd(x));
        match t >= 1u64.checked_shl(self.width + 16).unwrap_or(u64::MAX) {
            true => Bool::from_bool(true),
            false => sum.bvult(BV::from_u64(t, self.width + 16)),
        }
    }

    fn eq(&self, a: &BV, b: &BV) -> Bool {
        a.eq(b)
    }

    fn read(&self, m: &Model, x: &BV) -> Result<u64, Error> {
        read(m, x)
    }

    fn zero(&self, p: &[BV]) -> Bool {
        let parts: Vec<Bool> = self
            .images
            .iter()
            .map(|img| {
                let x: Vec<BV> = img.iter().map(|&v| p[v].clone()).collect();
                run(self.program, &x, self.width, &[]).0.eq(self.konst(0))
            })
            .collect();
        Bool::or(&parts)
    }

    fn value(&self, p: &[BV]) -> BV {
        run(self.program, p, self.width, &[]).0
    }

    fn proposals(&self, p: &[BV], face: &[usize], goal: &Goal<BV>) -> Vec<Vec<BV>> {
        let proposer = Proposer::new(self.program, self.width);
        let mut all = Vec::new();
        for img in self.images {
            all.extend(proposer.moves(p, img, face, goal));
            if all.len() >= MAX_PROPOSALS {
                break;
            }
        }
        all
    }

    fn universal(&self) -> bool {
        self.universal
    }
}
