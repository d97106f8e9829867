//! Linear integer arithmetic over the heap sizes x0, x1, ...: the language a program's
//! reading is written in. One tree serves three ends that must agree: it is evaluated exactly
//! (to re-check counterexamples and to test the reading rules), printed (the statement a
//! proof proves, in words, infix and LaTeX), and handed to z3.

use z3::ast::{Bool, Int};

/// An integer-valued term; every operation is one z3's linear arithmetic decides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// Heap size i (counting from 0).
    Var(u8),
    /// An integer constant.
    Const(i128),
    /// The sum.
    Add(Box<Term>, Box<Term>),
    /// The difference (may be negative).
    Sub(Box<Term>, Box<Term>),
    /// A constant multiple.
    Scale(i128, Box<Term>),
    /// Floor division by a positive constant.
    Div(Box<Term>, u64),
    /// The remainder (0 <= r < m) by a positive constant m, also of negative numbers.
    Mod(Box<Term>, u64),
    /// `then` where the condition holds, else `otherwise`.
    Ite(Box<Formula>, Box<Term>, Box<Term>),
    /// A bitwise operation of two terms whose values lie in [0, 2^bits) wherever the heap
    /// sizes are naturals ([`bitwise`] builds it only then): z3 sees it through the operands'
    /// binary digits, `bits` of each, which is exact on that range.
    Bitwise(BitOp, Box<Term>, Box<Term>, u32),
}

/// The bitwise operations a [`Term::Bitwise`] takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitOp {
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or (nim sum).
    Xor,
}

/// Most binary digits a [`Term::Bitwise`] spells out for z3 (each is a quotient and a
/// remainder in every formula the term is in).
pub const MAX_BITS: u32 = 16;

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Less than.
    Lt,
    /// Less than or equal.
    Le,
    /// Greater than.
    Gt,
    /// Greater than or equal.
    Ge,
}

/// A condition on the heap sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Formula {
    /// Always (`true`) or never (`false`).
    Const(bool),
    /// Two terms compared.
    Cmp(Rel, Term, Term),
    /// Every one holds (the empty `And` always).
    And(Vec<Formula>),
    /// Some one holds (the empty `Or` never).
    Or(Vec<Formula>),
}

/// How a formula is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// "x2 = x0 and x1 = 0"
    Words,
    /// "x2 == x0 && x1 == 0"
    Infix,
    /// "x_{2} = x_{0} \land x_{1} = 0"
    Latex,
}

impl Rel {
    fn negated(self) -> Rel {
        match self {
            Rel::Eq => Rel::Ne,
            Rel::Ne => Rel::Eq,
            Rel::Lt => Rel::Ge,
            Rel::Le => Rel::Gt,
            Rel::Gt => Rel::Le,
            Rel::Ge => Rel::Lt,
        }
    }

    fn holds(self, a: i128, b: i128) -> bool {
        match self {
            Rel::Eq => a == b,
            Rel::Ne => a != b,
            Rel::Lt => a < b,
            Rel::Le => a <= b,
            Rel::Gt => a > b,
            Rel::Ge => a >= b,
        }
    }

    fn symbol(self, style: Style) -> &'static str {
        match (self, style) {
            (Rel::Eq, Style::Infix) => "==",
            (Rel::Eq, _) => "=",
            (Rel::Ne, Style::Latex) => "\\neq",
            (Rel::Ne, _) => "!=",
            (Rel::Lt, _) => "<",
            (Rel::Le, Style::Latex) => "\\leq",
            (Rel::Le, _) => "<=",
            (Rel::Gt, _) => ">",
            (Rel::Ge, Style::Latex) => "\\geq",
            (Rel::Ge, _) => ">=",
        }
    }
}

impl Term {
    /// The value at `x`, or `None` when it overflows 128 bits.
    pub fn eval(&self, x: &[i128]) -> Option<i128> {
        Some(match self {
            Term::Var(i) => *x.get(*i as usize)?,
            Term::Const(c) => *c,
            Term::Add(a, b) => a.eval(x)?.checked_add(b.eval(x)?)?,
            Term::Sub(a, b) => a.eval(x)?.checked_sub(b.eval(x)?)?,
            Term::Scale(c, a) => a.eval(x)?.checked_mul(*c)?,
            Term::Div(a, m) => a.eval(x)?.div_euclid(*m as i128),
            Term::Mod(a, m) => a.eval(x)?.rem_euclid(*m as i128),
            Term::Ite(c, a, b) => match c.eval(x)? {
                true => a.eval(x)?,
                false => b.eval(x)?,
            },
            Term::Bitwise(op, a, b, _) => op.apply(a.eval(x)?, b.eval(x)?),
        })
    }

    /// Least and greatest values wherever every variable is a natural (`None`: unbounded, or
    /// past 128 bits): what [`bitwise`] and [`modulo`] rely on.
    pub fn range(&self) -> (Option<i128>, Option<i128>) {
        fn add(a: Option<i128>, b: Option<i128>) -> Option<i128> {
            a?.checked_add(b?)
        }
        fn sub(a: Option<i128>, b: Option<i128>) -> Option<i128> {
            a?.checked_sub(b?)
        }
        match self {
            Term::Var(_) => (Some(0), None),
            Term::Const(c) => (Some(*c), Some(*c)),
            Term::Add(a, b) => {
                let ((la, ha), (lb, hb)) = (a.range(), b.range());
                (add(la, lb), add(ha, hb))
            }
            Term::Sub(a, b) => {
                let ((la, ha), (lb, hb)) = (a.range(), b.range());
                (sub(la, hb), sub(ha, lb))
            }
            Term::Scale(c, a) => {
                let (l, h) = a.range();
                let (l, h) = (
                    l.and_then(|v| v.checked_mul(*c)),
                    h.and_then(|v| v.checked_mul(*c)),
                );
                match *c >= 0 {
                    true => (l, h),
                    false => (h, l),
                }
            }
            Term::Div(a, m) => {
                let (l, h) = a.range();
                let m = *m as i128;
                (l.map(|v| v.div_euclid(m)), h.map(|v| v.div_euclid(m)))
            }
            Term::Mod(_, m) => (Some(0), Some(*m as i128 - 1)),
            Term::Ite(_, a, b) => {
                let ((la, ha), (lb, hb)) = (a.range(), b.range());
                (
                    la.zip(lb).map(|(x, y)| x.min(y)),
                    ha.zip(hb).map(|(x, y)| x.max(y)),
                )
            }
            Term::Bitwise(_, _, _, bits) => (Some(0), Some((1i128 << bits) - 1)),
        }
    }

    /// The term at x_v - k in place of x_v. A remainder of x_v itself by m is rewritten
    /// through x_v mod m, as (x_v - k) mod m = r - s if r >= s, else r - s + m, where r = x_v
    /// mod m and s = k mod m (for every integer x_v): z3 then relates a position's remainders
    /// to those after a move instead of solving for two unrelated quotients, which decides
    /// the heap games' conditions many times faster.
    pub fn shifted(&self, v: u8, k: i128) -> Term {
        let go = |t: &Term| Box::new(t.shifted(v, k));
        match self {
            Term::Var(i) if *i == v => Term::Sub(Box::new(Term::Var(v)), Box::new(Term::Const(k))),
            Term::Var(_) | Term::Const(_) => self.clone(),
            Term::Add(a, b) => Term::Add(go(a), go(b)),
            Term::Sub(a, b) => Term::Sub(go(a), go(b)),
            Term::Scale(c, a) => Term::Scale(*c, go(a)),
            Term::Div(a, m) => Term::Div(go(a), *m),
            Term::Mod(a, m) if **a == Term::Var(v) => {
                let r = Term::Mod(Box::new(Term::Var(v)), *m);
                let s = k.rem_euclid(*m as i128);
                match s {
                    0 => r,
                    s => Term::Ite(
                        Box::new(Formula::Cmp(Rel::Ge, r.clone(), Term::Const(s))),
                        Box::new(Term::Sub(Box::new(r.clone()), Box::new(Term::Const(s)))),
                        Box::new(Term::Add(
                            Box::new(r),
                            Box::new(Term::Const(*m as i128 - s)),
                        )),
                    ),
                }
            }
            Term::Mod(a, m) => Term::Mod(go(a), *m),
            Term::Ite(c, a, b) => Term::Ite(Box::new(c.shifted(v, k)), go(a), go(b)),
            Term::Bitwise(op, a, b, bits) => Term::Bitwise(*op, go(a), go(b), *bits),
        }
    }

    /// How many binary digits hold every value of the term, when it is a bounded natural.
    pub fn bits(&self) -> Option<u32> {
        match self.range() {
            (Some(l), Some(h)) if l >= 0 => Some(128 - h.leading_zeros()),
            _ => None,
        }
    }

    /// The term in z3, over the variables `x`.
    pub fn z3(&self, x: &[Int]) -> Int {
        match self {
            Term::Var(i) => x[*i as usize].clone(),
            Term::Const(c) => int(*c),
            Term::Add(a, b) => Int::add(&[a.z3(x), b.z3(x)]),
            Term::Sub(a, b) => Int::sub(&[a.z3(x), b.z3(x)]),
            Term::Scale(c, a) => Int::mul(&[int(*c), a.z3(x)]),
            // z3's div and mod are Euclidean, like `div_euclid` and `rem_euclid`.
            Term::Div(a, m) => a.z3(x).div(int(*m as i128)),
            Term::Mod(a, m) => a.z3(x).modulo(int(*m as i128)),
            Term::Ite(c, a, b) => c.z3(x).ite(&a.z3(x), &b.z3(x)),
            // Digit j of a natural t below 2^bits is (t div 2^j) mod 2; the digits of the
            // result are linear in the operands' (their sum mod 2, div 2, or (sum + 1) div 2).
            Term::Bitwise(op, a, b, bits) => {
                let (a, b) = (a.z3(x), b.z3(x));
                let digit = |t: &Int, j: u32| t.div(int(1 << j)).modulo(int(2));
                let parts: Vec<Int> = (0..*bits)
                    .map(|j| {
                        let sum = Int::add(&[digit(&a, j), digit(&b, j)]);
                        let d = match op {
                            BitOp::Xor => sum.modulo(int(2)),
                            BitOp::And => sum.div(int(2)),
                            BitOp::Or => Int::add(&[sum, int(1)]).div(int(2)),
                        };
                        Int::mul(&[int(1 << j), d])
                    })
                    .collect();
                match parts.is_empty() {
                    true => int(0),
                    false => Int::add(&parts),
                }
            }
        }
    }

    fn render(&self, style: Style) -> (String, bool) {
        let latex = style == Style::Latex;
        let wrap = |t: &Term| {
            let (s, atomic) = t.render(style);
            match (atomic, latex) {
                (true, _) => s,
                (false, false) => format!("({s})"),
                (false, true) => format!("\\left({s}\\right)"),
            }
        };
        match self {
            Term::Var(i) if latex => (format!("x_{{{i}}}"), true),
            Term::Var(i) => (format!("x{i}"), true),
            Term::Const(c) => (c.to_string(), *c >= 0),
            Term::Add(a, b) => (format!("{} + {}", a.render(style).0, wrap(b)), false),
            Term::Sub(a, b) => (format!("{} - {}", a.render(style).0, wrap(b)), false),
            Term::Scale(c, a) if latex => (format!("{c} \\cdot {}", wrap(a)), false),
            Term::Scale(c, a) => (format!("{c} * {}", wrap(a)), false),
            Term::Div(a, m) if latex => (format!("\\lfloor {} / {m} \\rfloor", wrap(a)), true),
            Term::Div(a, m) => (format!("floor({} / {m})", a.render(style).0), true),
            Term::Mod(a, m) if latex => (format!("{} \\bmod {m}", wrap(a)), false),
            Term::Mod(a, m) => (format!("{} mod {m}", wrap(a)), false),
            // ite(c, 0, 1) and ite(c, 1, 0) are Iverson brackets.
            Term::Ite(c, a, b) if **a == Term::Const(1) && **b == Term::Const(0) => {
                (format!("[{}]", c.render(style, true)), true)
            }
            Term::Ite(c, a, b) if **a == Term::Const(0) && **b == Term::Const(1) => {
                (format!("[{}]", c.negated().render(style, true)), true)
            }
            Term::Bitwise(op, a, b, _) => {
                // A chain of one operation needs no brackets inside.
                let side = |t: &Term| match t {
                    Term::Bitwise(o, ..) if o == op => t.render(style).0,
                    t => wrap(t),
                };
                (
                    format!("{} {} {}", side(a), op.symbol(style), side(b)),
                    false,
                )
            }
            Term::Ite(c, a, b) => {
                let c = c.render(style, false);
                let text = match style {
                    Style::Words => format!("{} if {c}, else {}", wrap(a), wrap(b)),
                    Style::Infix => format!("{c} ? {} : {}", wrap(a), wrap(b)),
                    Style::Latex => format!("{c} \\;?\\; {} : {}", wrap(a), wrap(b)),
                };
                (text, false)
            }
        }
    }

    /// The term as text in `style`.
    pub fn text(&self, style: Style) -> String {
        self.render(style).0
    }
}

impl BitOp {
    fn apply(self, a: i128, b: i128) -> i128 {
        match self {
            BitOp::And => a & b,
            BitOp::Or => a | b,
            BitOp::Xor => a ^ b,
        }
    }

    /// Upper case in words, apart from the logical "and" and "or" of formulas.
    fn symbol(self, style: Style) -> &'static str {
        match (self, style) {
            (BitOp::And, Style::Words) => "AND",
            (BitOp::Or, Style::Words) => "OR",
            (BitOp::Xor, Style::Words) => "XOR",
            (BitOp::And, Style::Infix) => "&",
            (BitOp::Or, Style::Infix) => "|",
            (BitOp::Xor, Style::Infix) => "^",
            (BitOp::And, Style::Latex) => "\\mathbin{\\&}",
            (BitOp::Or, Style::Latex) => "\\mathbin{|}",
            (BitOp::Xor, Style::Latex) => "\\oplus",
        }
    }
}

/// `a op b` for terms that are bounded naturals of at most [`MAX_BITS`] digits, or `None`
/// (no exact linear reading is known then). Constants fold, and 0 is absorbed.
pub fn bitwise(op: BitOp, a: Term, b: Term) -> Option<Term> {
    let bits = a.bits()?.max(b.bits()?);
    if bits > MAX_BITS {
        return None;
    }
    Some(match (&a, &b) {
        (Term::Const(x), Term::Const(y)) => Term::Const(op.apply(*x, *y)),
        (Term::Const(0), _) | (_, Term::Const(0)) if op == BitOp::And => Term::Const(0),
        (Term::Const(0), _) => b,
        (_, Term::Const(0)) => a,
        _ => Term::Bitwise(op, Box::new(a), Box::new(b), bits),
    })
}

/// `t mod m` (m > 0), or `t` itself where its range already lies in [0, m).
pub fn modulo(t: Term, m: u64) -> Term {
    match t.range() {
        (Some(l), Some(h)) if l >= 0 && h < m as i128 => t,
        _ => match t {
            Term::Const(c) => Term::Const(c.rem_euclid(m as i128)),
            t => Term::Mod(Box::new(t), m),
        },
    }
}

fn int(c: i128) -> Int {
    match i64::try_from(c) {
        Ok(v) => Int::from_i64(v),
        // Larger constants as high * 2^32 + low, which z3 folds back.
        Err(_) => Int::add(&[
            Int::mul(&[int(c >> 32), Int::from_i64(1 << 32)]),
            Int::from_i64((c & 0xffff_ffff) as i64),
        ]),
    }
}

/// The comparison `a rel b`, decided at once when both are constants. An (in)equality with 0
/// of `u XOR v`, or of `(u - v) mod m` with u and v in [0, m), is one of u with v.
pub fn cmp(rel: Rel, a: Term, b: Term) -> Formula {
    if matches!(rel, Rel::Eq | Rel::Ne) && b == Term::Const(0) {
        let within =
            |t: &Term, m: u64| matches!(t.range(), (Some(l), Some(h)) if l >= 0 && h < m as i128);
        match a {
            Term::Bitwise(BitOp::Xor, u, v, _) => return cmp(rel, *u, *v),
            Term::Mod(t, m) => match *t {
                Term::Sub(u, v) if within(&u, m) && within(&v, m) => return cmp(rel, *u, *v),
                t => return Formula::Cmp(rel, Term::Mod(Box::new(t), m), b),
            },
            _ => {}
        }
    }
    match (&a, &b) {
        (Term::Const(x), Term::Const(y)) => Formula::Const(rel.holds(*x, *y)),
        _ if a == b => Formula::Const(matches!(rel, Rel::Eq | Rel::Le | Rel::Ge)),
        _ => Formula::Cmp(rel, a, b),
    }
}

/// The conjunction, flattened, with constants absorbed.
pub fn and(parts: Vec<Formula>) -> Formula {
    junction(parts, true)
}

/// The disjunction, flattened, with constants absorbed.
pub fn or(parts: Vec<Formula>) -> Formula {
    junction(parts, false)
}

fn junction(parts: Vec<Formula>, all: bool) -> Formula {
    let mut out = Vec::new();
    for p in parts {
        match p {
            Formula::Const(b) if b == all => {}
            Formula::Const(_) => return Formula::Const(!all),
            Formula::And(v) if all => out.extend(v),
            Formula::Or(v) if !all => out.extend(v),
            other => {
                if !out.contains(&other) {
                    out.push(other)
                }
            }
        }
    }
    match out.len() {
        0 => Formula::Const(all),
        1 => out.pop().expect("one part"),
        _ if all => Formula::And(out),
        _ => Formula::Or(out),
    }
}

/// The value 0 where `zero` holds and 1 elsewhere: a boolean's value from its zero condition.
pub fn indicator_of_nonzero(zero: Formula) -> Term {
    match zero {
        Formula::Const(z) => Term::Const(if z { 0 } else { 1 }),
        zero => Term::Ite(
            Box::new(zero),
            Box::new(Term::Const(0)),
            Box::new(Term::Const(1)),
        ),
    }
}

impl Formula {
    /// The negation, pushed down to the comparisons.
    pub fn negated(&self) -> Formula {
        match self {
            Formula::Const(b) => Formula::Const(!b),
            Formula::Cmp(r, a, b) => Formula::Cmp(r.negated(), a.clone(), b.clone()),
            Formula::And(v) => or(v.iter().map(Formula::negated).collect()),
            Formula::Or(v) => and(v.iter().map(Formula::negated).collect()),
        }
    }

    /// The formula at x_v - k in place of x_v ([`Term::shifted`]).
    pub fn shifted(&self, v: u8, k: i128) -> Formula {
        match self {
            Formula::Const(_) => self.clone(),
            Formula::Cmp(r, a, b) => Formula::Cmp(*r, a.shifted(v, k), b.shifted(v, k)),
            Formula::And(f) => Formula::And(f.iter().map(|g| g.shifted(v, k)).collect()),
            Formula::Or(f) => Formula::Or(f.iter().map(|g| g.shifted(v, k)).collect()),
        }
    }

    /// Whether the formula holds at `x`, or `None` when a term overflows 128 bits.
    pub fn eval(&self, x: &[i128]) -> Option<bool> {
        Some(match self {
            Formula::Const(b) => *b,
            Formula::Cmp(r, a, b) => r.holds(a.eval(x)?, b.eval(x)?),
            Formula::And(v) => {
                for f in v {
                    if !f.eval(x)? {
                        return Some(false);
                    }
                }
                true
            }
            Formula::Or(v) => {
                for f in v {
                    if f.eval(x)? {
                        return Some(true);
                    }
                }
                false
            }
        })
    }

    /// The formula in z3, over the variables `x`.
    pub fn z3(&self, x: &[Int]) -> Bool {
        match self {
            Formula::Const(b) => Bool::from_bool(*b),
            Formula::Cmp(r, a, b) => {
                let (a, b) = (a.z3(x), b.z3(x));
                match r {
                    Rel::Eq => a.eq(&b),
                    Rel::Ne => a.eq(&b).not(),
                    Rel::Lt => a.lt(&b),
                    Rel::Le => a.le(&b),
                    Rel::Gt => a.gt(&b),
                    Rel::Ge => a.ge(&b),
                }
            }
            Formula::And(v) => Bool::and(&v.iter().map(|f| f.z3(x)).collect::<Vec<_>>()),
            Formula::Or(v) => Bool::or(&v.iter().map(|f| f.z3(x)).collect::<Vec<_>>()),
        }
    }

    /// The formula as text in `style`.
    pub fn text(&self, style: Style) -> String {
        self.render(style, true)
    }

    fn render(&self, style: Style, top: bool) -> String {
        match self {
            Formula::Const(b) => match (b, style) {
                (true, Style::Words) => "always".into(),
                (false, Style::Words) => "never".into(),
                (true, Style::Infix) => "true".into(),
                (false, Style::Infix) => "false".into(),
                (true, Style::Latex) => "\\top".into(),
                (false, Style::Latex) => "\\bot".into(),
            },
            Formula::Cmp(r, a, b) => {
                format!("{} {} {}", a.text(style), r.symbol(style), b.text(style))
            }
            Formula::And(v) | Formula::Or(v) => {
                let all = matches!(self, Formula::And(_));
                let join = match (all, style) {
                    (true, Style::Words) => " and ",
                    (false, Style::Words) => " or ",
                    (true, Style::Infix) => " && ",
                    (false, Style::Infix) => " || ",
                    (true, Style::Latex) => " \\land ",
                    (false, Style::Latex) => " \\lor ",
                };
                let text = v
                    .iter()
                    .map(|f| f.render(style, false))
                    .collect::<Vec<_>>()
                    .join(join);
                match (top, style) {
                    (true, _) => text,
                    (false, Style::Latex) => format!("\\left({text}\\right)"),
                    (false, _) => format!("({text})"),
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "formula_tests.rs"]
mod tests;
