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
//!   comparison of a number that may be negative (its word depends on W).

use super::formula::{and, cmp, indicator_of_nonzero, or, Formula, Rel, Term};
use crate::synth::lang::{Op, Program};

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
        let node = match op.arity() {
            0 => leaf(op, text),
            1 => unary(op, stack.pop().ok_or("stack underflow")?, text),
            _ => {
                let b = stack.pop().ok_or("stack underflow")?;
                let a = stack.pop().ok_or("stack underflow")?;
                binary(op, a, b, text)
            }
        };
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
    };
    // Comparisons, quotients and right shifts see the whole word: of a negative ideal value
    // (a wrapped difference) that depends on the width.
    let whole_word = matches!(
        op,
        Op::Div | Op::Mod | Op::RightShift | Op::Lt | Op::Min | Op::Max
    );
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
                _ => unknown(),
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
            _ if boolean => node(iff(), unknown(), true, true),
            _ => node(
                vals().map(|(x, y)| cmp(Rel::Eq, x, y)),
                unknown(),
                natural,
                false,
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
        Op::And => and_node(&a, &b, node),
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
                Some(c) => val_of(&a).map(|x| Term::Mod(Box::new(x), c as u64)),
                None => unknown(),
            };
            let zero = match constant(&b) {
                Some(0) => zero_of(&a),
                _ => unknown(),
            };
            node(zero, val, true, a.boolean)
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
                _ => vals().map(|(x, y)| cmp(Rel::Ge, x, y)),
            };
            node(zero, unknown(), true, true)
        }
        Op::Min | Op::Max => {
            let min = op == Op::Min;
            let zero = zeros().map(|(x, y)| match min {
                true => or(vec![x, y]),
                false => and(vec![x, y]),
            });
            let val = vals().map(|(x, y)| {
                let rel = if min { Rel::Le } else { Rel::Ge };
                let pick = cmp(rel, x.clone(), y.clone());
                Term::Ite(Box::new(pick), Box::new(x), Box::new(y))
            });
            let boolean = if min { a.boolean || b.boolean } else { boolean };
            node(zero, val, true, boolean)
        }
        _ => unreachable!("every binary op has a rule"),
    };
    finish(n)
}

/// `a b And`: for booleans a disjunction; with a boolean, the other's parity decides; with a
/// constant 2^k - 1, the remainder mod 2^k (both exact for negative numbers too).
fn and_node(
    a: &Node,
    b: &Node,
    node: impl Fn(Result<Formula, String>, Result<Term, String>, bool, bool) -> Node,
) -> Node {
    let natural = a.natural || b.natural;
    let boolean = a.boolean || b.boolean;
    let low_bits = |n: &Node, c: i128| -> Option<Result<Term, String>> {
        let m = c.checked_add(1)?;
        (m.count_ones() == 1 && m <= 1 << 62).then(|| {
            val_of(n).map(|x| match m {
                1 => Term::Const(0),
                m => Term::Mod(Box::new(x), m as u64),
            })
        })
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
        (Err(String::new()), Err(String::new()))
    };
    node(zero, val, natural, boolean)
}
