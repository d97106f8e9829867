//! SyGuS-IF (v2, logic BV) export: the instruction set as an expression grammar and one
//! constraint per example, for general synthesis solvers (which find *a* program, not
//! necessarily a shortest one, and know nothing of the pruning rules).

use crate::lang::Op;
use crate::problem::{Example, Problem};
use grundy_core::error::Error;

/// A W-bit literal in binary (`#b0101`), valid at every width.
fn lit(v: u64, w: u32) -> String {
    let m = crate::interp::mask(w);
    format!("#b{:0width$b}", v & m, width = w as usize)
}

/// The helper a grammar production calls, when SMT-LIB has no operator with our semantics.
fn helper(op: Op, sort: &str, w: u32) -> Option<(&'static str, String)> {
    let (zero, one) = (lit(0, w), lit(1, w));
    let two = |name: &'static str, body: String| {
        Some((
            name,
            format!("(define-fun {name} ((a {sort}) (b {sort})) {sort} {body})"),
        ))
    };
    match op {
        // SMT-LIB's x / 0 is all ones; ours is 0.
        Op::Div => two("div0", format!("(ite (= b {zero}) {zero} (bvudiv a b))")),
        Op::BooleanEq => two("booleq", format!("(ite (= a b) {one} {zero})")),
        Op::Lt => two("boollt", format!("(ite (bvult a b) {one} {zero})")),
        Op::Min => two("umin", "(ite (bvule a b) a b)".into()),
        Op::Max => two("umax", "(ite (bvule a b) b a)".into()),
        Op::BooleanNot => Some((
            "boolnot",
            format!("(define-fun boolnot ((a {sort})) {sort} (ite (= a {zero}) {one} {zero}))"),
        )),
        _ => None,
    }
}

/// `(or a b ...)`, or the lone term (SMT-LIB's `or` and `and` take two or more arguments).
fn junction(op: &str, mut terms: Vec<String>) -> String {
    match terms.len() {
        1 => terms.pop().expect("one term"),
        _ => format!("({op} {})", terms.join(" ")),
    }
}

/// The grammar production of one instruction.
fn production(op: Op, w: u32) -> String {
    let name = match op {
        Op::Push(i) => return format!("x{i}"),
        Op::Zero | Op::One | Op::Const(_) => {
            return lit(op.constant().expect("a constant"), w);
        }
        Op::Not => return "(bvnot Start)".into(),
        Op::BooleanNot => return "(boolnot Start)".into(),
        Op::Plus => "bvadd",
        Op::Minus => "bvsub",
        Op::Mul => "bvmul",
        Op::Div => "div0",
        Op::Mod => "bvurem",
        Op::And => "bvand",
        Op::Or => "bvor",
        Op::Xor => "bvxor",
        Op::LeftShift => "bvshl",
        Op::RightShift => "bvlshr",
        Op::BooleanEq => "booleq",
        Op::Lt => "boollt",
        Op::Min => "umin",
        Op::Max => "umax",
    };
    format!("({name} Start Start)")
}

/// A SyGuS-IF problem: `f` over the problem's variables, built from exactly the instruction set,
/// satisfying `problem.examples[e]` for every e in `examples`. `notes` become comment lines.
pub fn export_sygus(
    problem: &Problem,
    examples: &[usize],
    notes: &[String],
) -> Result<String, Error> {
    let w = problem.width;
    let sort = format!("(_ BitVec {w})");
    let n = problem.vars();
    let mut out = String::new();
    let mut line = |s: &str| {
        out.push_str(s);
        out.push('\n');
    };
    for note in notes.iter().flat_map(|n| n.lines()) {
        line(&format!("; {note}"));
    }
    line(&format!("; instruction set: {}", problem.ops.describe()));
    line(&format!(
        "; f(x0, ..., x{}) is the program as an expression (postfix programs are trees).",
        n.saturating_sub(1)
    ));
    line("; A SyGuS solver finds some program, not necessarily a shortest one, and the pruning");
    line("; rules of the built-in search are not part of this problem.");
    line("(set-logic BV)");
    for &op in problem.ops.ops() {
        if let Some((_, def)) = helper(op, &sort, w) {
            line(&def);
        }
    }
    let params: Vec<String> = (0..n).map(|i| format!("(x{i} {sort})")).collect();
    let rules: Vec<String> = problem
        .ops
        .ops()
        .iter()
        .map(|&op| production(op, w))
        .collect();
    line(&format!(
        "(synth-fun f ({}) {sort}\n  ((Start {sort}))\n  ((Start {sort} ({}))))",
        params.join(" "),
        rules.join(" ")
    ));
    let call = |p: usize| -> String {
        let args: Vec<String> = problem.points[p].iter().map(|&x| lit(x, w)).collect();
        format!("(f {})", args.join(" "))
    };
    let (zero, one) = (lit(0, w), lit(1, w));
    for &e in examples {
        let ex = problem.examples.get(e).ok_or_else(|| {
            Error::Usage(format!(
                "example {e} does not exist (the problem has {})",
                problem.examples.len()
            ))
        })?;
        let c = match ex {
            Example::Equals { point, value } => format!("(= {} {})", call(*point), lit(*value, w)),
            Example::NonZero { point } => format!("(not (= {} {zero}))", call(*point)),
            Example::SomeZero { points, boolean } => {
                let zeros: Vec<String> = points
                    .iter()
                    .map(|&p| format!("(= {} {zero})", call(p)))
                    .collect();
                let mut all = vec![junction("or", zeros)];
                if *boolean {
                    all.extend(points.iter().map(|&p| format!("(bvule {} {one})", call(p))));
                }
                junction("and", all)
            }
        };
        line(&format!("(constraint {c})"));
    }
    line("(check-synth)");
    Ok(out)
}
