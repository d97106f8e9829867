//! DIMACS export for external solvers, and decoding of their models back into programs.
//!
//! The CNF begins with `c` lines: a `c grundy-cnf v1 length <L> width <W> vars <n>` header (n is
//! the number of input variables x0..), the caller's notes as `c note ...`, the instruction set
//! as `c ops ...`, and one `c op <step> <instruction> <var>` line per opcode variable. A model
//! sets exactly one opcode variable per step; [`decode_model`] reads it back with nothing but
//! these lines, so a CNF and a model file are enough to rebuild the program.

use std::fmt::Write;
use std::path::PathBuf;

use ahash::AHashSet;

use super::encode::Encoder;
use super::Options;
use crate::lang::{Op, Program};
use crate::problem::Problem;
use grundy_core::error::Error;

/// The first comment line of every CNF this module writes.
const HEADER: &str = "c grundy-cnf v1";

/// The DIMACS CNF instance for programs of exactly `length` instructions satisfying
/// `problem.examples[e]` for every `e` in `examples`, with `notes` and the opcode map as comments
/// first. Same encoding as the built-in backend, so refutations mean the same.
pub fn export_dimacs(
    problem: &Problem,
    length: usize,
    examples: &[usize],
    notes: &[String],
) -> Result<String, Error> {
    Ok(write(&exported(problem, length, examples)?, notes))
}

/// The instance an export writes: the default encoding of `length` with `examples` added.
pub(crate) fn exported<'p>(
    problem: &'p Problem,
    length: usize,
    examples: &[usize],
) -> Result<Encoder<'p>, Error> {
    if length == 0 {
        return Err(Error::Usage(
            "programs have at least one instruction".into(),
        ));
    }
    let mut enc = Encoder::new(problem, length, &Options::default());
    for &e in examples {
        enc.add_example(e)?;
    }
    Ok(enc)
}

/// The instance `enc` holds so far, with comments.
pub(crate) fn write(enc: &Encoder, notes: &[String]) -> String {
    let p = enc.problem;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{HEADER} length {} width {} vars {}",
        enc.st.length,
        p.width,
        p.vars()
    );
    for line in notes.iter().flat_map(|n| n.lines()) {
        let _ = writeln!(s, "c note {line}");
    }
    let _ = writeln!(s, "c ops {}", p.ops.describe());
    let _ = writeln!(
        s,
        "c map: `c op <step> <instruction> <var>`: step (from 0) runs the instruction iff var is true"
    );
    for t in 0..enc.st.length {
        for (k, op) in enc.st.ops.iter().enumerate() {
            if let Some(l) = enc.st.op[t][k] {
                let _ = writeln!(s, "c op {t} {op} {}", l.to_dimacs());
            }
        }
    }
    let _ = writeln!(s, "p cnf {} {}", enc.cnf.vars(), enc.cnf.len());
    for c in enc.cnf.iter() {
        for l in c {
            let _ = write!(s, "{} ", l.to_dimacs());
        }
        s.push_str("0\n");
    }
    s
}

fn data_error(what: &str, msg: String) -> Error {
    Error::Data {
        path: PathBuf::from(what),
        msg,
    }
}

/// The program length of a CNF (or iCNF) grundy wrote, from its `c grundy-cnf v1 length <L>`
/// header line; `None` when there is none.
pub fn cnf_length(cnf: &str) -> Option<usize> {
    cnf.lines()
        .take_while(|l| l.starts_with('c'))
        .find(|l| l.starts_with(HEADER))
        .and_then(header_length)
}

/// The `<L>` of a header line's `length <L>`.
fn header_length(line: &str) -> Option<usize> {
    let words: Vec<&str> = line[HEADER.len()..].split_whitespace().collect();
    words
        .iter()
        .position(|&w| w == "length")
        .and_then(|j| words.get(j + 1))
        .and_then(|w| w.parse().ok())
}

/// Rebuilds the program from a CNF written by [`export_dimacs`] and a solver's output in
/// SAT-competition format (`s SATISFIABLE`, then `v ... 0` lines; MiniSat's `SAT` and bare
/// literal lines are accepted too). Unsatisfiable or garbled input is an error, never a panic.
pub fn decode_model(cnf: &str, model: &str) -> Result<Program, Error> {
    let bad_cnf = |msg: String| data_error("CNF", msg);
    let bad_model = |msg: String| data_error("model", msg);
    let mut length = None;
    let mut map: Vec<(usize, Op, usize)> = Vec::new();
    for (i, line) in cnf.lines().enumerate() {
        let line = line.trim();
        if line.starts_with(HEADER) {
            length = Some(header_length(line).ok_or_else(|| {
                bad_cnf(format!("line {}: the header has no `length <L>`", i + 1))
            })?);
        } else if let Some(rest) = line.strip_prefix("c op ") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let parsed = match words[..] {
                [t, name, var] => match (t.parse(), name.parse::<Op>(), var.parse()) {
                    (Ok(t), Ok(op), Ok(v)) if v > 0 => Some((t, op, v)),
                    _ => None,
                },
                _ => None,
            };
            map.push(parsed.ok_or_else(|| {
                bad_cnf(format!(
                    "line {}: `{line}` is not `c op <step> <instruction> <var>`",
                    i + 1
                ))
            })?);
        } else if line.starts_with('p') {
            break;
        }
    }
    let length = length.ok_or_else(|| {
        bad_cnf(format!(
            "no `{HEADER}` header: not a CNF written by grundy's export"
        ))
    })?;
    // Every step lists its opcodes, so the length is at most the map's size (an edited header
    // cannot ask for a huge program).
    if length == 0 || length > map.len() || map.iter().any(|&(t, _, _)| t >= length) {
        return Err(bad_cnf(format!(
            "the opcode map does not fit length {length}"
        )));
    }
    let truth = parse_model(model, bad_model)?;
    let mut prog = Vec::with_capacity(length);
    for t in 0..length {
        let chosen: Vec<Op> = map
            .iter()
            .filter(|&&(s, _, v)| s == t && truth.contains(&v))
            .map(|&(_, op, _)| op)
            .collect();
        match chosen[..] {
            [op] => prog.push(op),
            [] => {
                return Err(bad_model(format!(
                    "no instruction variable of step {t} is true: the model does not belong to this CNF"
                )))
            }
            _ => {
                return Err(bad_model(format!(
                    "{} instructions chosen at step {t}: the model does not belong to this CNF",
                    chosen.len()
                )))
            }
        }
    }
    let p = Program(prog);
    if !p.is_valid() {
        return Err(bad_model(format!(
            "`{p}` is not a valid program: the model does not belong to this CNF"
        )));
    }
    Ok(p)
}

/// The true variables (by DIMACS number) of a model.
fn parse_model(model: &str, bad: impl Fn(String) -> Error) -> Result<AHashSet<usize>, Error> {
    let mut status = None;
    let mut truth: AHashSet<usize> = AHashSet::new();
    let mut saw_values = false;
    for (i, line) in model.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let upper = line.to_ascii_uppercase();
        let word = upper.strip_prefix("S ").unwrap_or(&upper).trim();
        match word {
            "SATISFIABLE" | "SAT" => {
                status = Some(true);
                continue;
            }
            "UNSATISFIABLE" | "UNSAT" => status = Some(false),
            "UNKNOWN" | "INDETERMINATE" => {
                return Err(bad(
                    "the solver did not decide the instance (UNKNOWN)".into()
                ))
            }
            _ => {}
        }
        if status == Some(false) {
            return Err(bad(
                "the instance is unsatisfiable: no program of this length fits these examples"
                    .into(),
            ));
        }
        let values = line.strip_prefix('v').unwrap_or(line);
        for word in values.split_whitespace() {
            let n: i64 = word.parse().map_err(|_| {
                bad(format!(
                    "line {}: `{word}` is not a literal in `{line}`",
                    i + 1
                ))
            })?;
            if n == 0 {
                continue;
            }
            let v = n.unsigned_abs() as usize;
            if v > 1 << 31 {
                return Err(bad(format!("line {}: variable {v} is out of range", i + 1)));
            }
            if n > 0 {
                truth.insert(v);
            } else {
                truth.remove(&v);
            }
            saw_values = true;
        }
    }
    match status {
        None => Err(bad(
            "no `s SATISFIABLE` line: expected SAT-competition solver output".into(),
        )),
        Some(_) if !saw_values => Err(bad("the model has no `v` lines".into())),
        Some(_) => Ok(truth),
    }
}
