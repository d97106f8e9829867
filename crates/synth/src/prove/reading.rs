//! A program's zero condition read as linear integer arithmetic over unbounded naturals: the
//! statement a proof is about.
//!
//! The program computes on W-bit words. Fix a position: for every width W large enough, the
//! word a step computes is its *ideal* value mod 2^W, where ideal values are integers (a
//! difference may be negative) and comparisons, quotients and shifts, which see the whole
//! word, are taken of operands that are naturals. The reading of a program is a formula that
//! holds exactly where the ideal output is 0, so it says what the program does at every width
//! that holds the position without wrapping. Rules, for a left operand a and a right one b:
//!
//! - `a b Or` and a sum of naturals are 0 iff both are; a product iff either is (integers have
//!   no zero divisors); `a b Xor` and `a b Minus` iff a = b; `a b BooleanEq` iff a != b;
//!   `a BooleanNot` iff a != 0; `a Not` never, for a natural a.
//! - a boolean (always 0 or 1) shifted right by anything but 0 is 0; `a b Div` is 0 iff b = 0
//!   or a < b; `a b Lt` iff a >= b; `Min` iff either is 0, `Max` iff both are.
//! - values: sums, differences, multiples by constants, quotients and remainders by constants,
//!   and booleans through their zero condition (1 where it fails). A step with no rule (the
//!   xor of two numbers, a product of two variables) has no reading, and neither has a
//!   quotient or right shift of a number that may be negative (its word depends on W).
//! - `Lt`, `Min` and `Max` of a number that may be negative compare words: at every width
//!   that holds it, a negative value's word is above every natural's (`word_below`).
//! - bitwise Xor, And and Or of two bounded naturals (remainders, booleans, constants, and
//!   bitwise steps of those) are values too: [`Term::Bitwise`], which z3 reads digit by digit.
//! - a remainder by 2^k (`Mod` by the constant, or `And` with 2^k - 1) keeps the low k digits,
//!   and those of a sum, difference, product by a constant, left shift by a constant, `Not`,
//!   Xor, And or Or are the low k digits of the same step on the operands' low k digits, which
//!   are bounded: so `3 & (x0 - (x1 ^ x2))` reads as x0 mod 4 = (x1 mod 4) XOR (x2 mod 4),
//!   where x1 ^ x2 alone has no reading. The word's low k digits are the ideal value's mod 2^k
//!   whatever the width W >= k, negative or not, so `Mod` by 2^k needs no natural operand.

use std::rc::Rc;

use super::formula::{
    and, bitwise, cmp, indicator_of_nonzero, modulo, or, BitOp, Formula, Rel, Term,
};
use crate::lang::{Op, Program};

/// What is known of one step of the program.
#[derive(Clone, Debug)]
struct Node {
    /// Where the ideal value is 0, or why that has no linear reading.
    zero: Result<Formula, String>,
    /// The ideal value, or why it has no linear reading.
    val: Result<Term, String>,
    /// The ideal value is never negative.
    natural: bool,
    /// The ideal value is always 0 or 1.
    boolean: bool,
    /// The step's infix text, for messages.
    text: String,
    /// The step's instruction and operands, for the low digits of its value ([`low`]).
    op: Option<Op>,
    kids: Vec<Rc<Node>>,
}

/// Where `program` outputs 0 over unbounded naturals, or why that has no exact linear reading.
pub fn zero_condition(program: &Program) -> Result<Formula, String> {
    root(program).and_then(|n| zero_of(&n))
}

/// The output of a program over unbounded naturals: what `--target sg` and `--target
/// indicator` claim more than where it is 0.
#[derive(Clone, Debug)]
pub struct Output {
    /// The ideal value, or why it has no linear reading.
    pub value: Result<Term, String>,
    /// The ideal value is never negative (so it is the program's word at every wide width).
    pub natural: bool,
    /// The ideal value is always 0 or 1.
    pub boolean: bool,
}

/// The program's output, or why the program leaves no single value.
pub fn output(program: &Program) -> Result<Output, String> {
    root(program).map(|n| Output {
        value: val_of(&n),
        natural: n.natural,
        boolean: n.boolean,
    })
}

/// The last step of `program`, read.
fn root(program: &Program) -> Result<Node, String> {
    let mut stack: Vec<Node> = Vec::new();
    let mut starts: Vec<usize> = Vec::new();
    for (i, &op) in program.0.iter().enumerate() {
        let start = match op.arity() {
            0 => i,
            1 => starts.pop().ok_or("stack underflow")?,
            _ => {
                starts.pop().ok_or("stack underflow")?;
                starts.pop().ok_or("stack underflow")?
            }
        };
        let text = Program(program.0[start..=i].to_vec()).infix();
        let mut node = match op.arity() {
            0 => leaf(op, text),
            1 => {
                let a = stack.pop().ok_or("stack underflow")?;
                let mut n = unary(op, a.clone(), text);
                n.kids = vec![Rc::new(a)];
                n
            }
            _ => {
                let b = stack.pop().ok_or("stack underflow")?;
                let a = stack.pop().ok_or("stack underflow")?;
                let mut n = binary(op, a.clone(), b.clone(), text);
                n.kids = vec![Rc::new(a), Rc::new(b)];
                n
            }
        };
        node.op = Some(op);
        starts.push(start);
        stack.push(node);
    }
    match (stack.pop(), stack.is_empty()) {
        (Some(root), true) => Ok(root),
        _ => Err("the program does not leave exactly one value".into()),
    }
}

fn leaf(op: Op, text: String) -> Node {
    let (val, boolean) = match op {
        Op::Push(i) => (Term::Var(i), false),
        _ => {
            let c = op.constant().expect("a nullary op is a push or a constant");
            (Term::Const(c as i128), c <= 1)
        }
    };
    finish(Node {
        zero: Err(String::new()),
        val: Ok(val),
        natural: true,
        boolean,
        text,
        op: Some(op),
        kids: Vec::new(),
    })
}

/// Fills in the zero condition from the value and a boolean's value from its zero condition.
fn finish(mut n: Node) -> Node {
    if n.zero.is_err() {
        if let Ok(v) = &n.val {
            n.zero = Ok(cmp(Rel::Eq, v.clone(), Term::Const(0)));
        }
    }
    if n.val.is_err() && n.boolean {
        if let Ok(z) = &n.zero {
            n.val = Ok(indicator_of_nonzero(z.clone()));
        }
    }
    n
}

fn unary(op: Op, a: Node, text: String) -> Node {
    let n = match op {
        Op::BooleanNot => Node {
            zero: a.zero.as_ref().map(Formula::negated).map_err(Clone::clone),
            val: Err(String::new()),
            natural: true,
            boolean: true,
            text,
            op: None,
            kids: Vec::new(),
        },
        Op::Not => Node {
            // ~a = -1 - a, never 0 for a natural a.
            zero: if a.natural {
                Ok(Formula::Const(false))
            } else {
                Err(String::new())
            },
            val: a
                .val
                .as_ref()
                .map(|v| Term::Sub(Box::new(Term::Const(-1)), Box::new(v.clone())))
                .map_err(Clone::clone),
            natural: false,
            boolean: false,
            text,
            op: None,
            kids: Vec::new(),
        },
        _ => unreachable!("the unary ops are Not and BooleanNot"),
    };
    finish(n)
}

fn constant(n: &Node) -> Option<i128> {
    match n.val {
        Ok(Term::Const(c)) => Some(c),
        _ => None,
    }
}

fn val_of(n: &Node) -> Result<Term, String> {
    n.val.clone().map_err(|why| match why.is_empty() {
        true => format!("the value of `{}` is not linear", n.text),
        false => why,
    })
}

fn zero_of(n: &Node) -> Result<Formula, String> {
    n.zero.clone().map_err(|why| match why.is_empty() {
        true => format!("where `{}` is 0 is not linear", n.text),
        false => why,
    })
}

/// Whether the value has a reading of its own, not an indicator of a condition.
fn plain(n: &Node) -> bool {
    matches!(&n.val, Ok(v) if !matches!(v, Term::Ite(..)))
}

/// No rule applies; the reason is filled in where it is needed.
fn unknown<T>() -> Result<T, String> {
    Err(String::new())
}

fn both<T, U>(a: Result<T, String>, b: Result<U, String>) -> Result<(T, U), String> {
    Ok((a?, b?))
}

fn binary(op: Op, a: Node, b: Node, text: String) -> Node {
    let (natural, boolean) = (a.natural && b.natural, a.boolean && b.boolean);
    let vals = || both(val_of(&a), val_of(&b));
    let zeros = || both(zero_of(&a), zero_of(&b));
    let iff = || {
        zeros().map(|(x, y)| {
            or(vec![
                and(vec![x.clone(), y.clone()]),
                and(vec![x.negated(), y.negated()]),
            ])
        })
    };
    let node = |zero, val, natural, boolean| Node {
        zero,
        val,
        natural,
        boolean,
        text: text.clone(),
        op: None,
        kids: Vec::new(),
    };
    // The value of a bitwise step of two bounded naturals.
    let bits = |op| vals().and_then(|(x, y)| bitwise(op, x, y).ok_or_else(String::new));
    // Quotients and right shifts see the whole word: of a negative ideal value (a wrapped
    // difference) that depends on the width. A remainder by 2^k sees k digits; comparisons
    // see only which word is above ([`word_below`]), the same at every width that holds it.
    let by_power_of_two = constant(&b).is_some_and(|c| c > 0 && c.count_ones() == 1);
    let whole_word =
        matches!(op, Op::Div | Op::Mod | Op::RightShift) && !(op == Op::Mod && by_power_of_two);
    if whole_word && !natural {
        let neg = if a.natural { &b } else { &a };
        let why = format!(
            "`{text}` reads the whole word of `{}`, which may be negative (it wraps around), so \
             it depends on the width",
            neg.text
        );
        return node(Err(why.clone()), Err(why), false, false);
    }
    let n = match op {
        Op::Or => {
            let zero = zeros().map(|(x, y)| and(vec![x, y]));
            let val = match (constant(&a), constant(&b)) {
                (Some(0), _) => val_of(&b),
                (_, Some(0)) => val_of(&a),
                _ => bits(BitOp::Or),
            };
            node(zero, val, natural, boolean)
        }
        Op::Plus => {
            let val = vals().map(|(x, y)| Term::Add(Box::new(x), Box::new(y)));
            let zero = match natural {
                true => zeros().map(|(x, y)| and(vec![x, y])),
                false => unknown(),
            };
            node(zero, val, natural, false)
        }
        Op::Minus => {
            let zero = vals().map(|(x, y)| cmp(Rel::Eq, x, y));
            let val = vals().map(|(x, y)| Term::Sub(Box::new(x), Box::new(y)));
            node(zero, val, false, false)
        }
        Op::Xor => match (constant(&a), constant(&b)) {
            (Some(0), _) => Node {
                text: text.clone(),
                ..b.clone()
            },
            (_, Some(0)) => Node {
                text: text.clone(),
                ..a.clone()
            },
            // Booleans from comparisons read as "iff"; remainders and bits as a xor.
            _ if boolean && !(plain(&a) && plain(&b)) => node(iff(), unknown(), true, true),
            _ => node(
                vals().map(|(x, y)| cmp(Rel::Eq, x, y)),
                bits(BitOp::Xor),
                natural,
                boolean,
            ),
        },
        Op::BooleanEq => {
            let zero = match (constant(&a), constant(&b)) {
                (Some(0), _) => zero_of(&b).map(|z| z.negated()),
                (_, Some(0)) => zero_of(&a).map(|z| z.negated()),
                _ if boolean => iff().map(|f| f.negated()),
                _ => vals().map(|(x, y)| cmp(Rel::Ne, x, y)),
            };
            node(zero, unknown(), true, true)
        }
        Op::Mul => {
            let zero = zeros().map(|(x, y)| or(vec![x, y]));
            let val = match (constant(&a), constant(&b)) {
                (Some(c), _) => val_of(&b).map(|y| Term::Scale(c, Box::new(y))),
                (_, Some(c)) => val_of(&a).map(|x| Term::Scale(c, Box::new(x))),
                // A boolean times y is y where the boolean is 1.
                _ if a.boolean => both(zero_of(&a), val_of(&b))
                    .map(|(z, y)| Term::Ite(Box::new(z), Box::new(Term::Const(0)), Box::new(y))),
                _ if b.boolean => both(zero_of(&b), val_of(&a))
                    .map(|(z, x)| Term::Ite(Box::new(z), Box::new(Term::Const(0)), Box::new(x))),
                _ => unknown(),
            };
            node(zero, val, natural, boolean)
        }
        Op::And => and_node(&a, &b, bits(BitOp::And), node),
        Op::Div => {
            let val = match constant(&b) {
                Some(0) => Ok(Term::Const(0)),
                Some(1) => val_of(&a),
                Some(c) => val_of(&a).map(|x| Term::Div(Box::new(x), c as u64)),
                None => unknown(),
            };
            let zero = match constant(&b) {
                Some(1) => zero_of(&a),
                _ => both(zero_of(&b), vals()).map(|(zb, (x, y))| or(vec![zb, cmp(Rel::Lt, x, y)])),
            };
            node(zero, val, true, a.boolean)
        }
        Op::Mod => {
            let val = match constant(&b) {
                Some(0) => val_of(&a),
                Some(c) if by_power_of_two => low(&a, c.trailing_zeros()),
                Some(c) => val_of(&a).map(|x| modulo(x, c as u64)),
                None => unknown(),
            };
            let zero = match constant(&b) {
                Some(0) => zero_of(&a),
                _ => unknown(),
            };
            node(zero, val, true, a.boolean && a.natural)
        }
        Op::LeftShift => {
            // a * 2^b: 0 iff a is, for any natural shift.
            if !b.natural {
                let why = format!("`{text}` shifts by `{}`, which may be negative", b.text);
                return node(Err(why.clone()), Err(why), false, false);
            }
            let val = match constant(&b) {
                Some(c) if c < 62 => val_of(&a).map(|x| Term::Scale(1 << c, Box::new(x))),
                _ => unknown(),
            };
            node(zero_of(&a), val, a.natural, false)
        }
        Op::RightShift => {
            let (zero, val) = match constant(&b) {
                Some(c) if c >= 126 => (Ok(Formula::Const(true)), Ok(Term::Const(0))),
                Some(c) => {
                    let z = val_of(&a).map(|x| cmp(Rel::Lt, x, Term::Const(1 << c)));
                    let v = match c < 62 {
                        true => val_of(&a).map(|x| Term::Div(Box::new(x), 1 << c)),
                        false => unknown(),
                    };
                    (z, v)
                }
                // A boolean shifted by anything but 0 is 0.
                None if a.boolean => (
                    zeros().map(|(za, zb)| or(vec![za, zb.negated()])),
                    unknown(),
                ),
                // By a boolean: a itself or a halved.
                None if b.boolean => {
                    let v = both(zero_of(&b), val_of(&a)).map(|(zb, x)| {
                        let half = Term::Div(Box::new(x.clone()), 2);
                        Term::Ite(Box::new(zb), Box::new(x), Box::new(half))
                    });
                    (unknown(), v)
                }
                None => (unknown(), unknown()),
            };
            node(zero, val, true, a.boolean)
        }
        Op::Lt => {
            let zero = match (constant(&a), constant(&b)) {
                (_, Some(0)) => Ok(Formula::Const(true)),
                (Some(0), _) => zero_of(&b),
                _ => vals().map(|(x, y)| word_below(x, y, a.natural, b.natural, false).negated()),
            };
            node(zero, unknown(), true, true)
        }
        Op::Min | Op::Max => {
            let min = op == Op::Min;
            // 0 is below every other word, a negative one above every natural.
            let zero = zeros().map(|(x, y)| match min {
                true => or(vec![x, y]),
                false => and(vec![x, y]),
            });
            let val = vals().map(|(x, y)| {
                let pick = match min {
                    true => word_below(x.clone(), y.clone(), a.natural, b.natural, true),
                    false => word_below(y.clone(), x.clone(), b.natural, a.natural, true),
                };
                Term::Ite(Box::new(pick), Box::new(x), Box::new(y))
            });
            let boolean = if min { a.boolean || b.boolean } else { boolean };
            let natural = match min {
                true => a.natural || b.natural,
                false => natural,
            };
            node(zero, val, natural, boolean)
        }
        _ => unreachable!("every binary op has a rule"),
    };
    finish(n)
}

/// `x < y` (`x <= y` with `or_equal`) as their words compare at every width that holds both
/// without wrapping: a negative value's word (2^W less its size) is above every natural's,
/// and two negative ones compare as the integers do.
fn word_below(x: Term, y: Term, x_natural: bool, y_natural: bool, or_equal: bool) -> Formula {
    let rel = if or_equal { Rel::Le } else { Rel::Lt };
    let plain = cmp(rel, x.clone(), y.clone());
    let negative = |t: &Term| cmp(Rel::Lt, t.clone(), Term::Const(0));
    match (x_natural, y_natural) {
        (true, true) => plain,
        (true, false) => or(vec![negative(&y), plain]),
        (false, true) => and(vec![negative(&x).negated(), plain]),
        (false, false) => {
            let (nx, ny) = (negative(&x), negative(&y));
            or(vec![
                and(vec![nx.negated(), ny.clone()]),
                and(vec![nx.negated(), ny.negated(), plain.clone()]),
                and(vec![nx, ny, plain]),
            ])
        }
    }
}

/// `a b And`: for booleans a disjunction; with a boolean, the other's parity decides; with a
/// constant 2^k - 1, the remainder mod 2^k (both exact for negative numbers too); of two
/// bounded naturals, `bits`.
fn and_node(
    a: &Node,
    b: &Node,
    bits: Result<Term, String>,
    node: impl Fn(Result<Formula, String>, Result<Term, String>, bool, bool) -> Node,
) -> Node {
    let natural = a.natural || b.natural;
    let boolean = a.boolean || b.boolean;
    let low_bits = |n: &Node, c: i128| -> Option<Result<Term, String>> {
        let m = c.checked_add(1)?;
        (m.count_ones() == 1 && m <= 1 << 62).then(|| low(n, m.trailing_zeros()))
    };
    let parity = |bool_side: &Node, other: &Node| {
        both(zero_of(bool_side), val_of(other)).map(|(z, y)| {
            or(vec![
                z,
                cmp(Rel::Eq, Term::Mod(Box::new(y), 2), Term::Const(0)),
            ])
        })
    };
    let (zero, val) = if let Some(v) = constant(b).and_then(|c| low_bits(a, c)) {
        (Err(String::new()), v)
    } else if let Some(v) = constant(a).and_then(|c| low_bits(b, c)) {
        (Err(String::new()), v)
    } else if a.boolean && b.boolean {
        (
            both(zero_of(a), zero_of(b)).map(|(x, y)| or(vec![x, y])),
            Err(String::new()),
        )
    } else if a.boolean {
        (parity(a, b), Err(String::new()))
    } else if b.boolean {
        (parity(b, a), Err(String::new()))
    } else {
        (Err(String::new()), bits)
    };
    node(zero, val, natural, boolean)
}

/// The ideal value of `n` mod 2^k, as a term in [0, 2^k): the value's remainder where the
/// value has a reading, else the step applied to its operands' low digits (module
/// documentation).
fn low(n: &Node, k: u32) -> Result<Term, String> {
    if k == 0 {
        return Ok(Term::Const(0));
    }
    let m = 1u64 << k;
    if let Ok(v) = &n.val {
        return Ok(modulo(v.clone(), m));
    }
    let kid = |i: usize| low(&n.kids[i], k);
    let scaled = |c: i128, i: usize| kid(i).map(|t| modulo(Term::Scale(c, Box::new(t)), m));
    let pair = || Ok::<_, String>((kid(0)?, kid(1)?));
    let found = match n.op {
        Some(op @ (Op::Xor | Op::And | Op::Or)) => {
            let bit_op = match op {
                Op::Xor => BitOp::Xor,
                Op::And => BitOp::And,
                _ => BitOp::Or,
            };
            pair().and_then(|(a, b)| bitwise(bit_op, a, b).ok_or_else(String::new))
        }
        Some(Op::Plus) => pair().map(|(a, b)| modulo(Term::Add(Box::new(a), Box::new(b)), m)),
        Some(Op::Minus) => pair().map(|(a, b)| modulo(Term::Sub(Box::new(a), Box::new(b)), m)),
        // ~a = -1 - a: its low digits are 2^k - 1 less a's.
        Some(Op::Not) => {
            kid(0).map(|a| Term::Sub(Box::new(Term::Const(m as i128 - 1)), Box::new(a)))
        }
        Some(Op::Mul) => match (constant(&n.kids[0]), constant(&n.kids[1])) {
            (Some(c), _) => scaled(c, 1),
            (_, Some(c)) => scaled(c, 0),
            _ => Err(String::new()),
        },
        Some(Op::LeftShift) => match constant(&n.kids[1]) {
            Some(c) if c >= k as i128 => Ok(Term::Const(0)),
            Some(c) => scaled(1 << c, 0),
            None => Err(String::new()),
        },
        _ => Err(String::new()),
    };
    found.or_else(|_| val_of(n).map(|v| modulo(v, m)))
}
