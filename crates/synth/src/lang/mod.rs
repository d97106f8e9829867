//! The straight-line stack language of the thesis's function suggester.
//!
//! A program is a postfix sequence of instructions over unsigned W-bit words; it is valid when
//! the stack never underflows and exactly one value remains, so it is an expression tree. Binary
//! instructions pop the top ("second", the right operand) and then the one below it ("first",
//! the left operand): `Push(2) Push(0) Minus` is x2 - x0.

mod edits;
mod infix;
pub(crate) mod rules;
pub mod words;

pub use edits::Edits;

use std::fmt;
use std::str::FromStr;

use grundy_core::error::Error;

/// One instruction. The names are the thesis's, in all input and output.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Op {
    /// Push variable i (heap i, counting from 0).
    Push(u8),
    /// Push the constant 0.
    Zero,
    /// Push the constant 1.
    One,
    /// An extra constant (`--ops +Const(2)`), off by default.
    Const(u64),
    /// Bitwise complement.
    Not,
    /// 1 where the operand is 0, else 0.
    BooleanNot,
    /// Sum, wrapping at the word width.
    Plus,
    /// Difference, wrapping at the word width.
    Minus,
    /// Product, wrapping at the word width.
    Mul,
    /// Floor quotient; 0 for a divisor 0.
    Div,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or (nim sum).
    Xor,
    /// Left shift; 0 for shifts of the word width or more.
    LeftShift,
    /// Right shift; 0 for shifts of the word width or more.
    RightShift,
    /// 1 where the operands are equal, else 0.
    BooleanEq,
    /// Extras, off by default.
    Mod,
    /// The smaller operand.
    Min,
    /// The larger operand.
    Max,
    /// 1 where the first operand is below the second, else 0.
    Lt,
}

/// The thesis's instruction set, in the order results print it (pushes are added per game).
pub const THESIS_OPS: [Op; 14] = [
    Op::Plus,
    Op::Minus,
    Op::Mul,
    Op::Div,
    Op::And,
    Op::Or,
    Op::Xor,
    Op::Not,
    Op::Zero,
    Op::One,
    Op::LeftShift,
    Op::RightShift,
    Op::BooleanEq,
    Op::BooleanNot,
];

impl Op {
    /// Values popped.
    pub fn arity(self) -> usize {
        match self {
            Op::Push(_) | Op::Zero | Op::One | Op::Const(_) => 0,
            Op::Not | Op::BooleanNot => 1,
            _ => 2,
        }
    }

    /// Whether swapping the operands never changes the result.
    pub fn is_commutative(self) -> bool {
        matches!(
            self,
            Op::Plus | Op::Mul | Op::And | Op::Or | Op::Xor | Op::BooleanEq | Op::Min | Op::Max
        )
    }

    /// Whether `(a op b) op c == a op (b op c)` always (and the operation is commutative).
    pub fn is_associative(self) -> bool {
        matches!(
            self,
            Op::Plus | Op::Mul | Op::And | Op::Or | Op::Xor | Op::Min | Op::Max
        )
    }

    /// The constant a nullary instruction pushes, if it is not a variable.
    pub fn constant(self) -> Option<u64> {
        match self {
            Op::Zero => Some(0),
            Op::One => Some(1),
            Op::Const(k) => Some(k),
            _ => None,
        }
    }

    /// Applies the instruction to W-bit operands (`a` first/left, `b` second/top); `mask` is
    /// 2^W - 1. Division and remainder by zero give 0 and `a`; shifts by W or more give 0.
    pub fn apply(self, a: u64, b: u64, mask: u64) -> u64 {
        let width = mask.count_ones() as u64;
        let v = match self {
            Op::Push(_) | Op::Zero | Op::One | Op::Const(_) => {
                unreachable!("nullary instructions take no operands")
            }
            Op::Not => !a,
            Op::BooleanNot => (a == 0) as u64,
            Op::Plus => a.wrapping_add(b),
            Op::Minus => a.wrapping_sub(b),
            Op::Mul => a.wrapping_mul(b),
            Op::Div => a.checked_div(b).unwrap_or(0),
            Op::Mod => a.checked_rem(b).unwrap_or(a),
            Op::And => a & b,
            Op::Or => a | b,
            Op::Xor => a ^ b,
            Op::LeftShift if b >= width => 0,
            Op::LeftShift => a << b,
            Op::RightShift if b >= width => 0,
            Op::RightShift => a >> b,
            Op::BooleanEq => (a == b) as u64,
            Op::Min => a.min(b),
            Op::Max => a.max(b),
            Op::Lt => (a < b) as u64,
        };
        v & mask
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Op::Push(i) => write!(f, "Push({i})"),
            Op::Const(k) => write!(f, "Const({k})"),
            other => write!(f, "{other:?}"),
        }
    }
}

impl FromStr for Op {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let arg = |prefix: &str| -> Option<&str> { s.strip_prefix(prefix)?.strip_suffix(')') };
        if let Some(i) = arg("Push(") {
            return i
                .trim()
                .parse()
                .map(Op::Push)
                .map_err(|_| format!("bad vertex in `{s}`"));
        }
        if let Some(k) = arg("Const(") {
            return k
                .trim()
                .parse()
                .map(Op::Const)
                .map_err(|_| format!("bad constant in `{s}`"));
        }
        Ok(match s {
            "Plus" => Op::Plus,
            "Minus" => Op::Minus,
            "Mul" => Op::Mul,
            "Div" => Op::Div,
            "And" => Op::And,
            "Or" => Op::Or,
            "Xor" => Op::Xor,
            "Not" => Op::Not,
            "Zero" => Op::Zero,
            "One" => Op::One,
            "LeftShift" => Op::LeftShift,
            "RightShift" => Op::RightShift,
            "BooleanEq" => Op::BooleanEq,
            "BooleanNot" => Op::BooleanNot,
            "Mod" => Op::Mod,
            "Min" => Op::Min,
            "Max" => Op::Max,
            "Lt" => Op::Lt,
            _ => return Err(format!("unknown instruction `{s}`")),
        })
    }
}

/// The instructions a search may use: pushes of every variable plus a chosen set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpSet {
    vars: usize,
    ops: Vec<Op>,
}

impl OpSet {
    /// The thesis's set over `vars` variables.
    pub fn thesis(vars: usize) -> Self {
        let mut ops: Vec<Op> = (0..vars as u8).map(Op::Push).collect();
        ops.extend(THESIS_OPS);
        OpSet { vars, ops }
    }

    /// Applies `--ops` edits such as `+Mod,+Const(2),-Mul` to the thesis's set.
    pub fn with_edits(vars: usize, edits: &str) -> Result<Self, Error> {
        Self::edited(vars, &edits.parse()?)
    }

    /// The thesis's set over `vars` variables with `edits` applied; refused when no binary
    /// instruction is left to combine several variables.
    pub fn edited(vars: usize, edits: &Edits) -> Result<Self, Error> {
        let mut set = Self::thesis(vars);
        for (add, op) in edits.iter() {
            if add {
                if !set.ops.contains(&op) {
                    set.ops.push(op);
                }
            } else {
                set.ops.retain(|&o| o != op);
            }
        }
        if !set.ops.iter().any(|o| o.arity() == 2) && vars > 1 {
            return Err(Error::Usage(
                "the instruction set has no binary instruction".into(),
            ));
        }
        Ok(set)
    }

    /// This set with `extra` instructions added (those it lacks), for a search that may step
    /// outside the asked set and must say so (the upper bounds' `Min`/`Lt` fallback).
    pub fn plus(&self, extra: &[Op]) -> Self {
        let mut set = self.clone();
        for &op in extra {
            if !set.ops.contains(&op) {
                set.ops.push(op);
            }
        }
        set
    }

    /// Number of input variables.
    pub fn vars(&self) -> usize {
        self.vars
    }

    /// The instructions, pushes first; an instruction's index here is its code in encodings.
    pub fn ops(&self) -> &[Op] {
        &self.ops
    }

    /// Names as printed with every result.
    pub fn describe(&self) -> String {
        let rest: Vec<String> = self
            .ops
            .iter()
            .filter(|o| !matches!(o, Op::Push(_)))
            .map(|o| o.to_string())
            .collect();
        format!(
            "Push(0..{}) {}",
            self.vars.saturating_sub(1),
            rest.join(" ")
        )
    }
}

/// A postfix program.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Program(pub Vec<Op>);

impl Program {
    /// Instruction count.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the program has no instructions.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether the stack never underflows and ends with exactly one value.
    pub fn is_valid(&self) -> bool {
        let mut depth = 0usize;
        for op in &self.0 {
            if depth < op.arity() {
                return false;
            }
            depth = depth - op.arity() + 1;
        }
        depth == 1
    }

    /// The largest variable index read, if any.
    pub fn max_var(&self) -> Option<usize> {
        self.0
            .iter()
            .filter_map(|o| {
                if let Op::Push(i) = o {
                    Some(*i as usize)
                } else {
                    None
                }
            })
            .max()
    }

    /// The first constant that a word of `mask`'s width cannot hold: a program with one
    /// would compute with that constant wrapped (999 is 231 at 8 bits), not the one it says.
    pub fn constant_wider_than(&self, mask: u64) -> Option<u64> {
        self.0
            .iter()
            .filter_map(|o| o.constant())
            .find(|&k| k > mask)
    }

    /// Whether every instruction passes the pruning rules for an instruction set with the
    /// constants `consts`, with operand roots read off the stack of roots (a valid program is
    /// assumed).
    pub fn obeys_rules(&self, consts: rules::Constants) -> bool {
        let mut roots: Vec<Op> = Vec::new();
        for &op in &self.0 {
            let ok = match op.arity() {
                0 => true,
                1 => roots
                    .pop()
                    .is_some_and(|a| rules::unary_allowed(op, a, consts)),
                _ => match (roots.pop(), roots.pop()) {
                    (Some(r), Some(l)) => rules::binary_allowed(op, l, r, consts),
                    _ => false,
                },
            };
            if !ok {
                return false;
            }
            roots.push(op);
        }
        true
    }

    /// Instruction names, for JSON.
    pub fn names(&self) -> Vec<String> {
        self.0.iter().map(|o| o.to_string()).collect()
    }

    /// The program as an infix expression over x0, x1, ..., e.g. `!((x2 == x0) >> x1)`.
    pub fn infix(&self) -> String {
        self.render(Style::Text)
    }

    /// The infix expression in LaTeX math, e.g. `!((x_2 = x_0) \gg x_1)`, for reports.
    pub fn latex(&self) -> String {
        self.render(Style::Latex)
    }

    fn render(&self, style: Style) -> String {
        let mut stack: Vec<(String, bool)> = Vec::new(); // (text, is atomic)
        let wrap = |(s, atomic): (String, bool)| match (atomic, style) {
            (true, _) => s,
            (false, Style::Text) => format!("({s})"),
            (false, Style::Latex) => format!("\\left({s}\\right)"),
        };
        for op in &self.0 {
            let item = match op.arity() {
                0 => match (op, style) {
                    (Op::Push(i), Style::Text) => (format!("x{i}"), true),
                    (Op::Push(i), Style::Latex) => (format!("x_{{{i}}}"), true),
                    _ => (op.constant().expect("a constant").to_string(), true),
                },
                1 => {
                    let a = wrap(stack.pop().expect("valid program"));
                    let sym = match (*op == Op::Not, style) {
                        (true, Style::Text) => "~",
                        (true, Style::Latex) => "\\mathord{\\sim}",
                        (false, _) => "!",
                    };
                    (format!("{sym}{a}"), true)
                }
                _ => {
                    let b = wrap(stack.pop().expect("valid program"));
                    let a = wrap(stack.pop().expect("valid program"));
                    let text = match op {
                        Op::Min | Op::Max => return_fn(op, &a, &b, style),
                        _ => format!("{a} {} {b}", infix_symbol(*op, style)),
                    };
                    let atomic = matches!(op, Op::Min | Op::Max);
                    (text, atomic)
                }
            };
            stack.push(item);
        }
        stack.pop().map(|(s, _)| s).unwrap_or_default()
    }
}

/// How [`Program::render`] writes: plain text or LaTeX math.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Text,
    Latex,
}

fn return_fn(op: &Op, a: &str, b: &str, style: Style) -> String {
    let name = match (*op == Op::Min, style) {
        (true, Style::Text) => "min",
        (false, Style::Text) => "max",
        (true, Style::Latex) => "\\min",
        (false, Style::Latex) => "\\max",
    };
    let strip = |s: &str| {
        s.strip_prefix('(')
            .and_then(|s| s.strip_suffix(')'))
            .or_else(|| s.strip_prefix("\\left(")?.strip_suffix("\\right)"))
            .map(str::to_string)
            .unwrap_or(s.to_string())
    };
    format!("{name}({}, {})", strip(a), strip(b))
}

fn infix_symbol(op: Op, style: Style) -> &'static str {
    let text = match op {
        Op::Plus => "+",
        Op::Minus => "-",
        Op::Mul => "*",
        Op::Div => "/",
        Op::Mod => "%",
        Op::And => "&",
        Op::Or => "|",
        Op::Xor => "^",
        Op::LeftShift => "<<",
        Op::RightShift => ">>",
        Op::BooleanEq => "==",
        Op::Lt => "<",
        _ => "?",
    };
    match style {
        Style::Text => text,
        Style::Latex => match op {
            Op::Mul => "\\cdot",
            Op::Div => "\\mathbin{/}",
            Op::Mod => "\\bmod",
            Op::And => "\\mathbin{\\&}",
            Op::Or => "\\mathbin{|}",
            Op::Xor => "\\oplus",
            Op::LeftShift => "\\ll",
            Op::RightShift => "\\gg",
            Op::BooleanEq => "=",
            _ => text,
        },
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = self.names();
        write!(f, "{}", names.join(" "))
    }
}

impl FromStr for Program {
    type Err = Error;

    /// Parses `Push(2) Push(0) BooleanEq`, with spaces, commas or brackets between names, or
    /// an infix expression as the printer writes it, `!((x2 == x0) >> x1)` (one that does not
    /// start with an instruction's name; see `infix`).
    fn from_str(s: &str) -> Result<Self, Error> {
        let cleaned = s.replace(['[', ']'], " ");
        let first = cleaned.trim_start().chars().next();
        if !first.is_some_and(|c| c.is_ascii_uppercase()) {
            let p = infix::parse(s).map_err(Error::Usage)?;
            return match p.is_valid() {
                true => Ok(p),
                false => Err(Error::Usage(format!("`{s}` is not a valid program"))),
            };
        }
        let mut ops = Vec::new();
        // Split on whitespace and commas that are not inside parentheses.
        let mut word = String::new();
        let mut depth = 0;
        for c in cleaned.chars().chain(std::iter::once(' ')) {
            match c {
                '(' => {
                    depth += 1;
                    word.push(c)
                }
                ')' => {
                    depth -= 1;
                    word.push(c)
                }
                c if depth == 0 && (c.is_whitespace() || c == ',') => {
                    if !word.is_empty() {
                        ops.push(word.parse::<Op>().map_err(Error::Usage)?);
                        word.clear();
                    }
                }
                c => word.push(c),
            }
        }
        let p = Program(ops);
        if !p.is_valid() {
            return Err(Error::Usage(format!(
                "`{s}` is not a valid program (stack underflow or not exactly one result)"
            )));
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_print_round_trip() {
        let text = "Push(2) Push(0) BooleanEq Push(1) RightShift BooleanNot";
        let p: Program = text.parse().unwrap();
        assert_eq!(p.to_string(), text);
        assert_eq!(p.infix(), "!((x2 == x0) >> x1)");
        let q: Program = "[Push(2), Push(1), Push(0), Plus, Xor]".parse().unwrap();
        assert_eq!(q.infix(), "x2 ^ (x1 + x0)");
        assert_eq!(
            p.latex(),
            r"!\left(\left(x_{2} = x_{0}\right) \gg x_{1}\right)"
        );
        assert_eq!(q.latex(), r"x_{2} \oplus \left(x_{1} + x_{0}\right)");
        let m: Program = "Push(0) Push(1) Min Not".parse().unwrap();
        assert_eq!(
            (m.infix(), m.latex()),
            (
                "~min(x0, x1)".into(),
                r"\mathord{\sim}\min(x_{0}, x_{1})".into()
            )
        );
        assert!("Push(0) Plus".parse::<Program>().is_err());
        assert!("Push(0) Push(1)".parse::<Program>().is_err());
        assert!("Push(0) Frob".parse::<Program>().is_err());
    }

    #[test]
    fn semantics_at_the_edges() {
        let m = 0xff;
        assert_eq!(Op::Minus.apply(1, 2, m), 0xff);
        assert_eq!(Op::Div.apply(7, 0, m), 0);
        assert_eq!(Op::Mod.apply(7, 0, m), 7);
        assert_eq!(Op::LeftShift.apply(1, 8, m), 0);
        assert_eq!(Op::LeftShift.apply(1, 7, m), 0x80);
        assert_eq!(Op::RightShift.apply(0x80, 200, m), 0);
        assert_eq!(Op::Not.apply(0, 0, m), 0xff);
        assert_eq!(Op::Mul.apply(16, 16, m), 0);
        assert_eq!(Op::BooleanNot.apply(3, 0, m), 0);
        assert_eq!(Op::Lt.apply(3, 4, m), 1);
    }

    #[test]
    fn op_edits() {
        let s = OpSet::with_edits(3, "+Mod,-Mul,+Const(2)").unwrap();
        assert!(s.ops().contains(&Op::Mod));
        assert!(!s.ops().contains(&Op::Mul));
        assert!(s.ops().contains(&Op::Const(2)));
        assert!(OpSet::with_edits(3, "+Frob").is_err());
        assert!(OpSet::with_edits(3, "+Push(1)").is_err());
        let s = OpSet::with_edits(3, "-Zero,-One").unwrap();
        assert!(!s.ops().iter().any(|o| o.constant().is_some()));
    }
}
