//! Where a program gives 0, in words: `!((x0 == x2) >> x1)` is 0 exactly when "x0 = x2 and
//! x1 = 0". Only rewrites that hold for every input at the program's width are used (a sum of
//! two booleans is 0 iff both are, but `x0 + x1` wraps), so the words say exactly what the
//! program does; a program they cannot say simply gets none.

use super::{Op, Program};

/// An expression tree read off a postfix program.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expr {
    Var(u8),
    Const(u64),
    Unary(Op, Box<Expr>),
    Binary(Op, Box<Expr>, Box<Expr>),
}

/// A condition on the variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cond {
    True,
    False,
    /// Two expressions (in infix) are equal, or with `false` differ.
    Atom {
        left: String,
        right: String,
        equal: bool,
    },
    /// An expression (in infix) is a multiple of `of` (a power of two), or with `false` is
    /// not: where a product with a constant wraps to 0.
    Multiple {
        expr: String,
        of: u64,
        is: bool,
    },
    All(Vec<Cond>),
    Any(Vec<Cond>),
}

/// Conditions with more atoms than this are not simple enough to be worth words.
const MAX_ATOMS: usize = 4;

impl Expr {
    fn of(program: &Program) -> Option<Expr> {
        let mut stack: Vec<Expr> = Vec::new();
        for &op in &program.0 {
            let e = match op.arity() {
                0 => match op {
                    Op::Push(i) => Expr::Var(i),
                    _ => Expr::Const(op.constant()?),
                },
                1 => Expr::Unary(op, Box::new(stack.pop()?)),
                _ => {
                    let b = stack.pop()?;
                    let a = stack.pop()?;
                    Expr::Binary(op, Box::new(a), Box::new(b))
                }
            };
            stack.push(e);
        }
        (stack.len() == 1).then(|| stack.pop().expect("one value"))
    }

    /// Whether the value is always 0 or 1.
    fn is_boolean(&self) -> bool {
        match self {
            Expr::Const(c) => *c <= 1,
            Expr::Var(_) => false,
            Expr::Unary(op, _) => *op == Op::BooleanNot,
            Expr::Binary(op, a, b) => match op {
                Op::BooleanEq | Op::Lt => true,
                Op::And | Op::Min => a.is_boolean() || b.is_boolean(),
                Op::Or | Op::Xor | Op::Max | Op::Mul => a.is_boolean() && b.is_boolean(),
                Op::RightShift | Op::Div => a.is_boolean(),
                _ => false,
            },
        }
    }

    /// Whether the expression never wraps around, so that equalities of it read as ordinary
    /// arithmetic: variables, constants and bitwise operations.
    fn is_plain(&self) -> bool {
        match self {
            Expr::Var(_) | Expr::Const(_) => true,
            Expr::Unary(..) => false,
            Expr::Binary(op, a, b) => {
                matches!(op, Op::Xor | Op::Or | Op::And | Op::Min | Op::Max)
                    && a.is_plain()
                    && b.is_plain()
            }
        }
    }

    fn infix(&self) -> String {
        match self {
            Expr::Var(i) => format!("x{i}"),
            Expr::Const(c) => c.to_string(),
            Expr::Unary(..) => unreachable!("plain expressions have no unary steps"),
            Expr::Binary(op, a, b) => {
                // A chain of one associative operator needs no parentheses: x1 ^ x2 ^ x3.
                let wrap = |e: &Expr| match e {
                    Expr::Binary(inner, ..) if inner == op && op.is_associative() => e.infix(),
                    Expr::Binary(..) => format!("({})", e.infix()),
                    _ => e.infix(),
                };
                let sym = match op {
                    Op::Xor => "^",
                    Op::Or => "|",
                    Op::And => "&",
                    Op::Min => return format!("min({}, {})", a.infix(), b.infix()),
                    Op::Max => return format!("max({}, {})", a.infix(), b.infix()),
                    _ => unreachable!("plain expressions are bitwise"),
                };
                format!("{} {sym} {}", wrap(a), wrap(b))
            }
        }
    }

    /// The value, when the expression reads no variable.
    fn constant(&self, mask: u64) -> Option<u64> {
        match self {
            Expr::Var(_) => None,
            Expr::Const(c) => Some(c & mask),
            Expr::Unary(op, a) => Some(op.apply(a.constant(mask)?, 0, mask)),
            Expr::Binary(op, a, b) => Some(op.apply(a.constant(mask)?, b.constant(mask)?, mask)),
        }
    }

    /// The condition "this is 0" at width `mask`.
    fn zero(&self, mask: u64) -> Option<Cond> {
        if let Some(c) = self.constant(mask) {
            return Some(if c == 0 { Cond::True } else { Cond::False });
        }
        match self {
            Expr::Var(_) => equal(self, &Expr::Const(0)),
            Expr::Const(c) => Some(if c & mask == 0 {
                Cond::True
            } else {
                Cond::False
            }),
            Expr::Unary(Op::BooleanNot, a) => Some(not(a.zero(mask)?)),
            Expr::Unary(..) => None,
            Expr::Binary(op, a, b) => match op {
                Op::Xor | Op::Minus => equal_at(a, b, mask),
                Op::BooleanEq => Some(not(equal_at(a, b, mask)?)),
                Op::Or | Op::Max => Some(Cond::All(vec![a.zero(mask)?, b.zero(mask)?])),
                Op::Min => Some(Cond::Any(vec![a.zero(mask)?, b.zero(mask)?])),
                // A boolean shifted by anything non-zero is 0.
                Op::RightShift if a.is_boolean() => {
                    Some(Cond::Any(vec![a.zero(mask)?, not(b.zero(mask)?)]))
                }
                Op::And | Op::Mul if a.is_boolean() && b.is_boolean() => {
                    Some(Cond::Any(vec![a.zero(mask)?, b.zero(mask)?]))
                }
                Op::Mul if a.constant(mask).is_some() => times_zero(a.constant(mask)?, b, mask),
                Op::Mul if b.constant(mask).is_some() => times_zero(b.constant(mask)?, a, mask),
                // 1 + 1 does not wrap from two bits on.
                Op::Plus if a.is_boolean() && b.is_boolean() && mask >= 3 => {
                    Some(Cond::All(vec![a.zero(mask)?, b.zero(mask)?]))
                }
                _ => None,
            },
        }
    }
}

/// The condition "c * e is 0" at width `mask`, for a constant c = 2^k * odd: the odd factor
/// is invertible modulo 2^W, so the product is 0 exactly when e is a multiple of 2^(W - k)
/// (when e is 0, for an odd c).
fn times_zero(c: u64, e: &Expr, mask: u64) -> Option<Cond> {
    if c == 0 {
        return Some(Cond::True);
    }
    let k = c.trailing_zeros();
    if k == 0 {
        return e.zero(mask);
    }
    let of = 1u64 << (mask.count_ones() - k);
    e.is_plain().then(|| Cond::Multiple {
        expr: e.infix(),
        of,
        is: true,
    })
}

/// The condition "a = b" at width `mask`.
fn equal_at(a: &Expr, b: &Expr, mask: u64) -> Option<Cond> {
    match (a, b) {
        (Expr::Const(0), e) | (e, Expr::Const(0)) => e.zero(mask),
        _ => equal(a, b),
    }
}

/// "a = b" as an atom, when both sides read plainly.
fn equal(a: &Expr, b: &Expr) -> Option<Cond> {
    (a.is_plain() && b.is_plain()).then(|| Cond::Atom {
        left: a.infix(),
        right: b.infix(),
        equal: true,
    })
}

/// The negation, pushed down to the atoms.
fn not(c: Cond) -> Cond {
    match c {
        Cond::True => Cond::False,
        Cond::False => Cond::True,
        Cond::Atom { left, right, equal } => Cond::Atom {
            left,
            right,
            equal: !equal,
        },
        Cond::Multiple { expr, of, is } => Cond::Multiple { expr, of, is: !is },
        Cond::All(v) => Cond::Any(v.into_iter().map(not).collect()),
        Cond::Any(v) => Cond::All(v.into_iter().map(not).collect()),
    }
}

/// Flattens nested alls and anys, folds constants and drops repeats.
fn simplify(c: Cond) -> Cond {
    let merge = |parts: Vec<Cond>, all: bool| {
        let (unit, absorbing) = if all {
            (Cond::True, Cond::False)
        } else {
            (Cond::False, Cond::True)
        };
        let mut out: Vec<Cond> = Vec::new();
        for p in parts.into_iter().map(simplify) {
            match p {
                _ if p == absorbing => return absorbing,
                _ if p == unit => {}
                Cond::All(inner) if all => out.extend(inner),
                Cond::Any(inner) if !all => out.extend(inner),
                other if !out.contains(&other) => out.push(other),
                _ => {}
            }
        }
        match out.len() {
            0 => unit,
            1 => out.pop().expect("one part"),
            _ if all => Cond::All(out),
            _ => Cond::Any(out),
        }
    };
    match c {
        Cond::All(v) => merge(v, true),
        Cond::Any(v) => merge(v, false),
        other => other,
    }
}

impl Cond {
    fn atoms(&self) -> usize {
        match self {
            Cond::True | Cond::False => 0,
            Cond::Atom { .. } | Cond::Multiple { .. } => 1,
            Cond::All(v) | Cond::Any(v) => v.iter().map(Cond::atoms).sum(),
        }
    }

    fn render(&self, top: bool) -> String {
        match self {
            Cond::True => "always".into(),
            Cond::False => "never".into(),
            Cond::Atom { left, right, equal } => {
                format!("{left} {} {right}", if *equal { "=" } else { "!=" })
            }
            Cond::Multiple { expr, of, is } => {
                format!("{expr} {} 0 (mod {of})", if *is { "=" } else { "!=" })
            }
            Cond::All(v) | Cond::Any(v) => {
                let join = if matches!(self, Cond::All(_)) {
                    " and "
                } else {
                    " or "
                };
                let text = v
                    .iter()
                    .map(|c| c.render(false))
                    .collect::<Vec<_>>()
                    .join(join);
                if top {
                    text
                } else {
                    format!("({text})")
                }
            }
        }
    }
}

/// Where `program` gives 0 at width `mask`, in words ("x0 = x2 and x1 = 0"), when that can be
/// said exactly and simply.
pub fn zero_set(program: &Program, mask: u64) -> Option<String> {
    let cond = simplify(Expr::of(program)?.zero(mask)?);
    (cond.atoms() <= MAX_ATOMS).then(|| cond.render(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::{mask, run};

    fn words(p: &str) -> Option<String> {
        zero_set(&p.parse().unwrap(), mask(8))
    }

    #[test]
    fn the_thesis_classifiers_in_words() {
        assert_eq!(
            words("Push(2) Push(0) BooleanEq Push(1) RightShift BooleanNot").as_deref(),
            Some("x2 = x0 and x1 = 0")
        );
        assert_eq!(
            words("Push(0) Push(2) Xor Push(1) Push(3) Xor Or").as_deref(),
            Some("x0 = x2 and x1 = x3")
        );
        assert_eq!(words("Push(0) Push(1) Xor").as_deref(), Some("x0 = x1"));
        assert_eq!(
            words("Push(0) Push(1) Push(2) Xor BooleanEq BooleanNot").as_deref(),
            Some("x0 = x1 ^ x2")
        );
        // A sum wraps around: no words.
        assert_eq!(words("Push(1) Push(0) Push(2) Xor Plus"), None);
    }

    /// A product with a constant 2^k * odd is 0 at width W exactly on the multiples of
    /// 2^(W - k): docs/heap-games.md's classifier of subtraction:1,2,3, checked point by point.
    #[test]
    fn products_with_constants_are_residues() {
        let p = "Const(4) Const(4) LeftShift Push(0) Push(1) Push(2) Xor Xor Mul";
        assert_eq!(words(p).as_deref(), Some("x0 ^ x1 ^ x2 = 0 (mod 4)"));
        let program: Program = p.parse().unwrap();
        for x in [[0, 0, 0], [1, 2, 3], [5, 6, 8], [4, 0, 8], [255, 3, 0]] {
            let zero = run(&program, &x, mask(8)) == Some(0);
            assert_eq!(zero, (x[0] ^ x[1] ^ x[2]) % 4 == 0, "{x:?}");
        }
        // An odd factor changes nothing; 0 times anything is always 0; 6 = 2 * 3.
        assert_eq!(words("Const(3) Push(0) Mul").as_deref(), Some("x0 = 0"));
        assert_eq!(words("Zero Push(0) Mul").as_deref(), Some("always"));
        assert_eq!(
            words("Push(0) Const(6) Mul").as_deref(),
            Some("x0 = 0 (mod 128)")
        );
    }

    /// Reads a condition back as a predicate, by evaluating both sides of each atom.
    fn holds(c: &Cond, x: &[u64], m: u64) -> bool {
        let value = |text: &str| {
            // Atoms are plain infix over variables, constants and bitwise operators; build the
            // postfix program back from the words with a tiny parser of that grammar.
            eval(text, x, m)
        };
        match c {
            Cond::True => true,
            Cond::False => false,
            Cond::Atom { left, right, equal } => (value(left) == value(right)) == *equal,
            Cond::Multiple { expr, of, is } => (value(expr) % of == 0) == *is,
            Cond::All(v) => v.iter().all(|c| holds(c, x, m)),
            Cond::Any(v) => v.iter().any(|c| holds(c, x, m)),
        }
    }

    /// Evaluates a plain infix expression: `x3`, `7`, `(a) ^ (b)`, `min(a, b)`.
    fn eval(text: &str, x: &[u64], m: u64) -> u64 {
        let t = text.trim();
        if let Some(inner) = t.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
            if balanced(inner) {
                return eval(inner, x, m);
            }
        }
        for f in ["min(", "max("] {
            if let Some(args) = t.strip_prefix(f).and_then(|s| s.strip_suffix(')')) {
                if let Some(i) = split_top(args, ',') {
                    let (a, b) = (eval(&args[..i], x, m), eval(&args[i + 1..], x, m));
                    return if f == "min(" { a.min(b) } else { a.max(b) };
                }
            }
        }
        for sym in ['|', '^', '&'] {
            if let Some(i) = split_top(t, sym) {
                let (a, b) = (eval(&t[..i], x, m), eval(&t[i + 1..], x, m));
                return match sym {
                    '|' => a | b,
                    '^' => a ^ b,
                    _ => a & b,
                };
            }
        }
        match t.strip_prefix('x') {
            Some(i) => x[i.parse::<usize>().unwrap()] & m,
            None => t.parse::<u64>().unwrap() & m,
        }
    }

    fn balanced(s: &str) -> bool {
        let mut depth = 0i32;
        for c in s.chars() {
            depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            if depth < 0 {
                return false;
            }
        }
        depth == 0
    }

    /// The last position of `sym` outside parentheses.
    fn split_top(s: &str, sym: char) -> Option<usize> {
        let mut depth = 0i32;
        let mut found = None;
        for (i, c) in s.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                c if c == sym && depth == 0 => found = Some(i),
                _ => {}
            }
        }
        found
    }

    /// On random programs, whenever there are words they hold exactly where the program
    /// gives 0, at widths where sums of booleans could wrap and where they cannot.
    #[test]
    fn words_say_exactly_where_the_program_is_zero() {
        let ops = [
            Op::Plus,
            Op::Minus,
            Op::Xor,
            Op::Or,
            Op::And,
            Op::Mul,
            Op::Min,
            Op::Max,
            Op::BooleanEq,
            Op::BooleanNot,
            Op::RightShift,
            Op::Not,
            Op::Zero,
            Op::One,
        ];
        let mut described = 0;
        for p in crate::testing::random_programs(7, 3, 8000, &ops) {
            for width in [1, 2, 3] {
                let m = mask(width);
                let Some(expr) = Expr::of(&p) else { continue };
                let Some(cond) = expr.zero(m).map(simplify) else {
                    continue;
                };
                described += 1;
                for a in 0..=m.min(4) {
                    for b in 0..=m.min(4) {
                        for c in [0, m] {
                            let x = [a, b, c];
                            let zero = run(&p, &x, m) == Some(0);
                            assert_eq!(holds(&cond, &x, m), zero, "{p} at {x:?}, width {width}");
                        }
                    }
                }
            }
        }
        assert!(described > 1000, "only {described} programs described");
    }
}
