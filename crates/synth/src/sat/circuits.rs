//! Bit-blasted instruction semantics on W-bit words (least significant bit first), exactly as
//! [`Op::apply`]: wrapping arithmetic, division by 0 gives 0, remainder by 0 gives the dividend,
//! shifts by W or more give 0, comparisons give 0 or 1.
//!
//! Circuits that share work are computed once per step and point: Minus and Lt (and Min, Max)
//! share one subtractor, Xor and BooleanEq one row of xors, Div and Mod one restoring divider.

use super::cnf::{Bit, Cnf};
use crate::lang::Op;

/// A word of bits, least significant first.
pub(crate) type Word = Vec<Bit>;

/// The constant `v` as a word of `width` bits.
pub(crate) fn constant(v: u64, width: usize) -> Word {
    (0..width)
        .map(|i| Bit::Const(i < 64 && (v >> i) & 1 == 1))
        .collect()
}

/// A 0/1 flag as a word.
fn flag(b: Bit, width: usize) -> Word {
    let mut w = vec![Bit::Const(false); width];
    w[0] = b;
    w
}

/// `a + b + carry_in`, and the carry out.
fn add(cnf: &mut Cnf, a: &[Bit], b: &[Bit], carry_in: Bit) -> (Word, Bit) {
    let mut c = carry_in;
    let mut out = Vec::with_capacity(a.len());
    for i in 0..a.len() {
        let (s, k) = cnf.full_add(a[i], b[i], c);
        out.push(s);
        c = k;
    }
    (out, c)
}

/// `a - b` and whether it borrowed (`a < b`).
fn sub(cnf: &mut Cnf, a: &[Bit], b: &[Bit]) -> (Word, Bit) {
    let nb: Word = b.iter().map(|&x| !x).collect();
    let (d, carry) = add(cnf, a, &nb, Bit::Const(true));
    (d, !carry)
}

/// The low W bits of `a * b` (shift and add).
fn mul(cnf: &mut Cnf, a: &[Bit], b: &[Bit]) -> Word {
    let w = a.len();
    let mut acc = vec![Bit::Const(false); w];
    for i in 0..w {
        let mut row = vec![Bit::Const(false); w];
        for j in i..w {
            row[j] = cnf.and(a[j - i], b[i]);
        }
        if i == 0 {
            acc = row;
        } else {
            // The low i bits of the row are 0: add only above them.
            let (hi, _) = add(cnf, &acc[i..], &row[i..], Bit::Const(false));
            acc.splice(i.., hi);
        }
    }
    acc
}

/// Unsigned restoring division: (quotient, remainder). With b = 0 every trial subtraction
/// succeeds, so the quotient is all ones and the remainder is `a`.
///
/// After k steps the partial remainder is below 2^k, so step k compares only k bits with b
/// (and fails outright when b has a set bit at k or above): about half a full divider.
fn divmod(cnf: &mut Cnf, a: &[Bit], b: &[Bit]) -> (Word, Word) {
    let w = a.len();
    // high_set[k]: b has a set bit at position k or above.
    let mut high_set = vec![Bit::Const(false); w + 1];
    for k in (0..w).rev() {
        high_set[k] = cnf.or(b[k], high_set[k + 1]);
    }
    let mut r: Word = Vec::new();
    let mut q = vec![Bit::Const(false); w];
    for i in (0..w).rev() {
        let k = w - i;
        // The partial remainder 2r + a_i has k bits.
        let mut shifted = Vec::with_capacity(k);
        shifted.push(a[i]);
        shifted.extend_from_slice(&r);
        let (d, borrow) = sub(cnf, &shifted, &b[..k]);
        let ge = cnf.and(!borrow, !high_set[k]);
        q[i] = ge;
        r = (0..k).map(|j| cnf.mux(ge, d[j], shifted[j])).collect();
    }
    (q, r)
}

/// Shifts `a` left (or right) by `b`; amounts of W or more give 0.
fn shift(cnf: &mut Cnf, a: &[Bit], b: &[Bit], left: bool) -> Word {
    let w = a.len();
    let mut cur = a.to_vec();
    let mut overflow = Vec::new();
    for (j, &bj) in b.iter().enumerate() {
        let amount = if j < 63 { 1usize << j } else { usize::MAX };
        if amount >= w {
            overflow.push(bj);
            continue;
        }
        let moved: Word = (0..w)
            .map(|i| {
                let from = if left {
                    i.checked_sub(amount)
                } else {
                    Some(i + amount).filter(|&k| k < w)
                };
                from.map_or(Bit::Const(false), |k| cur[k])
            })
            .collect();
        cur = (0..w).map(|i| cnf.mux(bj, moved[i], cur[i])).collect();
    }
    let over = cnf.or_many(&overflow);
    cur.into_iter().map(|x| cnf.and(!over, x)).collect()
}

/// Results of the instructions for one step and point, computed on demand and shared.
pub(crate) struct StepCircuits<'a> {
    width: usize,
    a: &'a [Bit],
    b: &'a [Bit],
    sub: Option<(Word, Bit)>,
    xor: Option<Word>,
    divmod: Option<(Word, Word)>,
}

impl<'a> StepCircuits<'a> {
    /// Operands: `a` the left (for unary instructions the only) one, `b` the top.
    pub fn new(width: usize, a: &'a [Bit], b: &'a [Bit]) -> Self {
        StepCircuits {
            width,
            a,
            b,
            sub: None,
            xor: None,
            divmod: None,
        }
    }

    fn sub(&mut self, cnf: &mut Cnf) -> (Word, Bit) {
        if self.sub.is_none() {
            self.sub = Some(sub(cnf, self.a, self.b));
        }
        self.sub.clone().expect("just made")
    }

    fn xor(&mut self, cnf: &mut Cnf) -> Word {
        if self.xor.is_none() {
            let x = (0..self.width)
                .map(|i| cnf.xor(self.a[i], self.b[i]))
                .collect();
            self.xor = Some(x);
        }
        self.xor.clone().expect("just made")
    }

    fn divmod(&mut self, cnf: &mut Cnf) -> (Word, Word) {
        if self.divmod.is_none() {
            self.divmod = Some(divmod(cnf, self.a, self.b));
        }
        self.divmod.clone().expect("just made")
    }

    /// The result of the unary or binary `op`.
    pub fn result(&mut self, cnf: &mut Cnf, op: Op) -> Word {
        let (a, b, w) = (self.a, self.b, self.width);
        match op {
            Op::Push(_) | Op::Zero | Op::One | Op::Const(_) => {
                unreachable!("nullary instructions have no circuit")
            }
            Op::Not => a.iter().map(|&x| !x).collect(),
            Op::BooleanNot => {
                let any = cnf.or_many(a);
                flag(!any, w)
            }
            Op::Plus => add(cnf, a, b, Bit::Const(false)).0,
            Op::Minus => self.sub(cnf).0,
            Op::Lt => flag(self.sub(cnf).1, w),
            Op::Min | Op::Max => {
                let lt = self.sub(cnf).1;
                let (x, y) = if op == Op::Min { (a, b) } else { (b, a) };
                (0..w).map(|i| cnf.mux(lt, x[i], y[i])).collect()
            }
            Op::Mul => mul(cnf, a, b),
            Op::Div => {
                let q = self.divmod(cnf).0;
                let nonzero = cnf.or_many(b);
                q.into_iter().map(|x| cnf.and(nonzero, x)).collect()
            }
            Op::Mod => self.divmod(cnf).1,
            Op::And => (0..w).map(|i| cnf.and(a[i], b[i])).collect(),
            Op::Or => (0..w).map(|i| cnf.or(a[i], b[i])).collect(),
            Op::Xor => self.xor(cnf),
            Op::BooleanEq => {
                let x = self.xor(cnf);
                let any = cnf.or_many(&x);
                flag(!any, w)
            }
            Op::LeftShift => shift(cnf, a, b, true),
            Op::RightShift => shift(cnf, a, b, false),
        }
    }
}
