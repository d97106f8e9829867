//! SMT-LIB 2 export of one length's encoding (text printed by z3 from the very terms the
//! backend solves) and reading a solver's answer back into a program.

use std::fmt::Write as _;

use z3::Solver;

use super::encode::{code_bits, Encoding};
use crate::lang::{Op, Program};
use crate::problem::Problem;
use grundy_core::error::Error;

/// A self-contained QF_BV script: programs of exactly `length` instructions satisfying
/// `problem.examples[e]` for every e in `examples`, with the pruning rules. Comment lines first
/// (each of `notes`, the instruction set and the code of each instruction, which
/// [`decode_smtlib_model`] reads back), then the declarations and assertions, `(check-sat)` and
/// `(get-value ...)` of the opcode variables `op_0 ... op_{length-1}`.
pub fn export_smtlib(
    problem: &Problem,
    length: usize,
    examples: &[usize],
    notes: &[String],
) -> Result<String, Error> {
    let mut enc = Encoding::new(problem, length, true, Solver::new())?;
    for &e in examples {
        enc.require(e)?;
    }
    let ops = problem.ops.ops();
    let mut out = String::new();
    for line in notes.iter().flat_map(|n| n.lines()) {
        writeln!(out, "; {line}").expect("write to string");
    }
    let bits = code_bits(ops.len());
    writeln!(
        out,
        "; programs of exactly {length} instructions over {}-bit words",
        problem.width
    )
    .expect("write to string");
    writeln!(out, "; instruction set: {}", problem.ops.describe()).expect("write to string");
    writeln!(out, "; length: {length}").expect("write to string");
    writeln!(out, "; examples: {}", examples.len()).expect("write to string");
    writeln!(
        out,
        "; op_t (a (_ BitVec {bits})) is the code of instruction t (postfix order):"
    )
    .expect("write to string");
    for (k, op) in ops.iter().enumerate() {
        writeln!(out, "; code {k} = {op}").expect("write to string");
    }
    out.push_str(
        "; d_t_k: k values on the stack after step t; l_t_s: step s is step t's left operand;\n",
    );
    out.push_str("; v_p_t: value of step t on data point p.\n");
    out.push_str("; sat: a program exists (see get-value); unsat: none of this length does.\n");
    out.push_str("(set-option :produce-models true)\n(set-logic QF_BV)\n");
    for line in enc.solver.to_smt2().lines() {
        let l = line.trim_start();
        if l.starts_with("(check-sat") || l.starts_with("; benchmark") || l.starts_with("(set-info")
        {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("(check-sat)\n(get-value (");
    let names: Vec<String> = (0..length).map(|t| format!("op_{t}")).collect();
    out.push_str(&names.join(" "));
    out.push_str("))\n");
    Ok(out)
}

/// A minimal s-expression: an atom or a list.
#[derive(Debug, PartialEq)]
pub(super) enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

/// Parses a sequence of s-expressions; `Err` with the reason on unbalanced input.
pub(super) fn parse_sexps(text: &str) -> Result<Vec<Sexp>, String> {
    let mut stack: Vec<Vec<Sexp>> = vec![Vec::new()];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' => stack.push(Vec::new()),
            ')' => {
                let done = stack.pop().ok_or("unbalanced `)`")?;
                stack
                    .last_mut()
                    .ok_or("unbalanced `)`")?
                    .push(Sexp::List(done));
            }
            ';' => while chars.next_if(|&c| c != '\n').is_some() {},
            c if c.is_whitespace() => {}
            '"' | '|' => {
                let mut atom = String::from(c);
                loop {
                    let d = chars.next().ok_or("unterminated string or |symbol|")?;
                    atom.push(d);
                    if d == c {
                        // `""` inside a string is an escaped quote.
                        if c == '"' && chars.peek() == Some(&'"') {
                            atom.push(chars.next().expect("peeked"));
                            continue;
                        }
                        break;
                    }
                }
                stack.last_mut().expect("non-empty").push(Sexp::Atom(atom));
            }
            c => {
                let mut atom = String::from(c);
                while let Some(d) =
                    chars.next_if(|&d| !d.is_whitespace() && !matches!(d, '(' | ')' | ';'))
                {
                    atom.push(d);
                }
                stack.last_mut().expect("non-empty").push(Sexp::Atom(atom));
            }
        }
        if stack.is_empty() {
            return Err("unbalanced `)`".into());
        }
    }
    match stack.len() {
        1 => Ok(stack.pop().expect("one level")),
        n => Err(format!("{} unclosed `(`", n - 1)),
    }
}

/// Reads a bit-vector or numeral literal: `#b101`, `#x1f`, `(_ bv5 8)`, `5`.
fn literal(value: &Sexp) -> Option<u64> {
    match value {
        Sexp::Atom(a) => {
            if let Some(b) = a.strip_prefix("#b") {
                u64::from_str_radix(b, 2).ok()
            } else if let Some(x) = a.strip_prefix("#x") {
                u64::from_str_radix(x, 16).ok()
            } else {
                a.parse().ok()
            }
        }
        Sexp::List(items) => match items.as_slice() {
            [Sexp::Atom(u), Sexp::Atom(bv), _] if u == "_" => bv.strip_prefix("bv")?.parse().ok(),
            _ => None,
        },
    }
}

/// The program in a solver's answer to a script from [`export_smtlib`]: `script` is the
/// exported text (its comments give the length and the instruction codes), `output` what
/// `z3 FILE` or `cvc5 FILE` printed (`sat` and the `get-value` list). Fails with the reason on
/// unsat, unknown, or output that does not fit the script.
pub fn decode_smtlib_model(script: &str, output: &str) -> Result<Program, Error> {
    let bad = |msg: String| Error::Usage(format!("cannot read the solver's answer: {msg}"));
    let mut codes: Vec<Op> = Vec::new();
    let mut length = None;
    for line in script.lines() {
        if let Some(rest) = line.strip_prefix("; code ") {
            let (k, op) = rest
                .split_once(" = ")
                .ok_or_else(|| bad(format!("script line `{line}` is garbled")))?;
            let op: Op = op.parse().map_err(bad)?;
            if k.trim().parse::<usize>().ok() != Some(codes.len()) {
                return Err(bad(format!("script line `{line}` is out of order")));
            }
            codes.push(op);
        } else if let Some(rest) = line.strip_prefix("; length: ") {
            length = rest.trim().parse::<usize>().ok();
        }
    }
    let length = length
        .ok_or_else(|| bad("the script has no `; length:` line (not written by grundy?)".into()))?;
    if codes.is_empty() {
        return Err(bad("the script lists no instruction codes".into()));
    }
    let sexps = parse_sexps(output).map_err(|e| bad(format!("the output is garbled: {e}")))?;
    match sexps.first() {
        Some(Sexp::Atom(a)) if a == "sat" => {}
        Some(Sexp::Atom(a)) if a == "unsat" => {
            return Err(Error::Resource(format!(
                "the solver answered unsat: no program of length {length} satisfies the exported examples"
            )))
        }
        Some(Sexp::Atom(a)) if a == "unknown" || a == "timeout" => {
            return Err(Error::Resource(format!(
                "the solver answered {a}: length {length} is undecided"
            )))
        }
        Some(other) => {
            return Err(bad(format!(
                "expected `sat` first, found {}",
                describe(other)
            )))
        }
        None => return Err(bad("the output is empty".into())),
    }
    let mut ops: Vec<Option<Op>> = vec![None; length];
    for item in &sexps[1..] {
        let Sexp::List(pairs) = item else {
            return Err(bad(format!("unexpected {}", describe(item))));
        };
        for pair in pairs {
            let Sexp::List(kv) = pair else {
                return Err(bad(format!(
                    "expected (name value), found {}",
                    describe(pair)
                )));
            };
            let [Sexp::Atom(name), value] = kv.as_slice() else {
                return Err(bad(format!(
                    "expected (name value), found {}",
                    describe(pair)
                )));
            };
            if name == "error" {
                return Err(bad(format!(
                    "the solver reported an error: {}",
                    describe(value)
                )));
            }
            let Some(t) = name
                .strip_prefix("op_")
                .and_then(|t| t.parse::<usize>().ok())
            else {
                continue;
            };
            let code = literal(value)
                .ok_or_else(|| bad(format!("`{name}` has value {}", describe(value))))?;
            let op = codes.get(code as usize).ok_or_else(|| {
                bad(format!(
                    "`{name}` = {code}, but the script has {} codes",
                    codes.len()
                ))
            })?;
            let slot = ops
                .get_mut(t)
                .ok_or_else(|| bad(format!("`{name}` is past the length {length}")))?;
            *slot = Some(*op);
        }
    }
    let ops: Vec<Op> = ops
        .iter()
        .enumerate()
        .map(|(t, o)| o.ok_or_else(|| bad(format!("no value for `op_{t}`"))))
        .collect::<Result<_, _>>()?;
    let program = Program(ops);
    if !program.is_valid() {
        return Err(bad(format!("`{program}` is not a valid program")));
    }
    Ok(program)
}

/// A short rendering of an s-expression for error messages.
fn describe(s: &Sexp) -> String {
    fn render(s: &Sexp, out: &mut String) {
        match s {
            Sexp::Atom(a) => out.push_str(a),
            Sexp::List(items) => {
                out.push('(');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    render(x, out);
                }
                out.push(')');
            }
        }
    }
    let mut out = String::new();
    render(s, &mut out);
    if out.chars().count() > 80 {
        out = out.chars().take(77).collect::<String>() + "...";
    }
    format!("`{out}`")
}
