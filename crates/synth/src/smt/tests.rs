use grundy_core::catalog::Rules;
use std::process::Command;
use std::time::Instant;

use proptest::prelude::*;
use z3::{SatResult, Solver};

use super::encode::Encoding;
use super::export::parse_sexps;
use super::*;
use crate::cegis;
use crate::data::{Dataset, Points};
use crate::interp::{mask, run};
use crate::lang::rules::Constants;
use crate::lang::{Op, OpSet, Program};
use crate::problem::tests::boxed;
use crate::problem::Target;
use crate::solver::Method;
use grundy_core::catalog::spec;
use grundy_core::sg::table::TableOptions;

/// A problem whose points are `inputs`, over the thesis's set plus every extra.
fn with_points(vars: usize, width: u32, konst: u64, inputs: Vec<Vec<u64>>) -> Problem {
    let m = mask(width);
    let ops =
        OpSet::with_edits(vars, &format!("+Mod,+Min,+Max,+Lt,+Const({})", konst & m)).unwrap();
    let mut points = Points::with_capacity(vars, inputs.len());
    for x in &inputs {
        points.push(&x.iter().map(|v| v & m).collect::<Vec<u64>>());
    }
    let data = Dataset {
        vars,
        values: vec![1; points.len()],
        points,
        source: "test".into(),
    };
    Problem::new(data, ops, width, Target::Zero, None).unwrap()
}

/// A valid program of `len` instructions from `pool`, steered by `choices`.
fn program_from(pool: &[Op], len: usize, choices: &[u32]) -> Program {
    let mut depth = 0;
    let mut ops = Vec::new();
    for t in 0..len {
        let left = len - t;
        let fits: Vec<Op> = pool
            .iter()
            .copied()
            .filter(|o| o.arity() <= depth && depth - o.arity() < left)
            .collect();
        let op = fits[choices[t] as usize % fits.len()];
        depth = depth - op.arity() + 1;
        ops.push(op);
    }
    let p = Program(ops);
    assert!(p.is_valid(), "{p}");
    p
}

/// z3's outputs of `p` on every point of `problem`, with the opcodes fixed to `p`'s; `None` if
/// the encoding (with or without pruning) rejects `p`.
fn z3_outputs(problem: &Problem, p: &Program, prune: bool) -> Option<Vec<u64>> {
    let mut enc = Encoding::new(problem, p.len(), prune, Solver::new()).unwrap();
    enc.fix(p);
    let outs: Vec<_> = (0..problem.points.len()).map(|i| enc.output(i)).collect();
    match enc.solver.check() {
        SatResult::Sat => {}
        SatResult::Unsat => return None,
        SatResult::Unknown => panic!("z3 gave up"),
    }
    let model = enc.solver.get_model().unwrap();
    assert_eq!(enc.decode(&model).unwrap(), *p);
    Some(
        outs.iter()
            .map(|o| model.eval(o, true).unwrap().as_u64().unwrap())
            .collect(),
    )
}

fn strategy() -> impl Strategy<Value = (u32, usize, Vec<u32>, u64, Vec<Vec<u64>>)> {
    (
        prop::sample::select(vec![3u32, 4, 8]),
        1usize..=7,
        prop::collection::vec(any::<u32>(), 7),
        any::<u64>(),
        prop::collection::vec(prop::collection::vec(any::<u64>(), 2), 1..4),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testing::cases(20, 200) as u32))]

    #[test]
    fn z3_values_match_the_interpreter((width, len, choices, k, inputs) in strategy()) {
        let problem = with_points(2, width, k, inputs);
        let p = program_from(problem.ops.ops(), len, &choices);
        let outs = z3_outputs(&problem, &p, false).expect("unpruned encodings accept every valid program");
        for (x, out) in problem.points.iter().zip(outs) {
            prop_assert_eq!(Some(out), run(&p, x, problem.mask()), "{} on {:?}", p, x);
        }
    }

    #[test]
    fn pruning_forbids_exactly_what_the_rules_reject((width, len, choices, k, inputs) in strategy()) {
        let problem = with_points(2, width, k, inputs);
        let p = program_from(problem.ops.ops(), len, &choices);
        prop_assert_eq!(z3_outputs(&problem, &p, true).is_some(), p.obeys_rules(Constants::of(problem.ops.ops())), "{}", p);
    }
}

#[test]
fn division_remainder_and_shifts_at_the_edges() {
    let problem = with_points(
        2,
        8,
        2,
        vec![vec![7, 0], vec![1, 8], vec![200, 255], vec![0x80, 7]],
    );
    for text in [
        "Push(0) Push(1) Div",
        "Push(0) Push(1) Mod",
        "Push(0) Push(1) LeftShift",
        "Push(0) Push(1) RightShift",
        "Push(0) Push(1) Lt BooleanNot",
        "Push(0) Not",
    ] {
        let p: Program = text.parse().unwrap();
        let outs = z3_outputs(&problem, &p, false).unwrap();
        for (x, out) in problem.points.iter().zip(outs) {
            assert_eq!(Some(out), run(&p, x, problem.mask()), "{p} on {x:?}");
        }
    }
}

#[test]
fn p3_zero_and_indicator_are_minimal() {
    // x1 | (x2 - x0) is zero exactly on (a, 0, a): length 5, the dependency bound.
    let zero = boxed("path:3", 6, Target::Zero, false);
    let out = cegis::synthesize(&zero, &SmtBackend, 8, None).unwrap();
    assert_eq!(
        (out.program.len(), out.minimal),
        (5, true),
        "{}",
        out.program
    );
    assert!(zero.failures(&out.program).is_empty());
    // The thesis's 0/1 classifier has length 6; smt must refute 5 itself.
    let ind = boxed("path:3", 6, Target::Indicator, false);
    let out = cegis::synthesize(&ind, &SmtBackend, 8, None).unwrap();
    assert_eq!(
        (out.program.len(), out.minimal),
        (6, true),
        "{}",
        out.program
    );
    assert!(ind.failures(&out.program).is_empty());
    assert_eq!(out.trace.refutations.last().unwrap().by, Method::Smt);
}

#[test]
fn shriek_sg_has_length_5() {
    let problem = boxed("shriek", 6, Target::Sg, false);
    let out = cegis::synthesize(&problem, &SmtBackend, 8, None).unwrap();
    assert_eq!(
        (out.program.len(), out.minimal),
        (5, true),
        "{}",
        out.program
    );
    assert!(problem.failures(&out.program).is_empty());
}

#[test]
fn the_deadline_stops_z3() {
    let problem = boxed("circular:3,2", 6, Target::Zero, false);
    let mut s = SmtBackend.start(&problem, 9).unwrap();
    for e in (0..problem.examples.len()).step_by(5) {
        s.add_example(e).unwrap();
    }
    // How soon z3 stops is measured by `cargo bench --bench synth -- deadlines`.
    let found = s
        .solve(Some(Instant::now() + std::time::Duration::from_millis(200)))
        .unwrap();
    assert!(
        matches!(found, Found::Timeout | Found::Program(_)),
        "{found:?}"
    );
}

#[test]
fn orbits_refute_short_lengths_by_search() {
    // The orbit dependency bound refutes lengths 1..4; with the indicator target smt refutes
    // lengths 5 and 6 itself.
    let game = spec::parse_hypergraph("circular:3,3").unwrap();
    let data = Dataset::from_box(&game, 4, &TableOptions::default()).unwrap();
    let canon = |x: &[u64]| game.canonical_point(x);
    let problem = Problem::new(data, OpSet::thesis(3), 8, Target::Indicator, Some(&canon)).unwrap();
    let out = cegis::synthesize(&problem, &SmtBackend, 8, None).unwrap();
    assert!(out.minimal && problem.failures(&out.program).is_empty());
    let by: Vec<Method> = out.trace.refutations.iter().map(|r| r.by).collect();
    assert_eq!(by[..4], [Method::DependencyBound; 4]);
    assert!(by[4..].iter().all(|&b| b == Method::Smt) && by.len() > 4);
    assert_eq!(out.program.len(), out.trace.refutations.len() + 1);
}

#[test]
fn an_instruction_set_that_cannot_fill_a_step_is_refuted() {
    // Length 2 needs a unary instruction second; without any the length is simply refuted.
    let data = Dataset {
        vars: 2,
        points: [[1, 2]].into_iter().collect(),
        values: vec![0],
        source: "t".into(),
    };
    let ops = OpSet::with_edits(2, "-Not,-BooleanNot").unwrap();
    let problem = Problem::new(data, ops, 8, Target::Zero, None).unwrap();
    let mut s = SmtBackend.start(&problem, 2).unwrap();
    s.add_example(0).unwrap();
    assert_eq!(s.solve(None).unwrap(), Found::Refuted);
}

#[test]
fn a_passed_deadline_is_a_timeout() {
    let problem = boxed("path:3", 3, Target::Zero, false);
    let mut s = SmtBackend.start(&problem, 5).unwrap();
    s.add_example(0).unwrap();
    assert_eq!(s.solve(Some(Instant::now())).unwrap(), Found::Timeout);
    assert!(s.add_example(problem.examples.len()).is_err());
    assert!(SmtBackend.start(&problem, 0).is_err());
}

/// Runs `prog args... file` on `text`. The solvers are declared dependencies (scripts/deps
/// installs them), so a missing one fails the test rather than skipping the check.
fn run_tool(prog: &str, args: &[&str], text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("instance");
    std::fs::write(&file, text).unwrap();
    let out = Command::new(prog)
        .args(args)
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("`{prog}` is needed (scripts/deps installs it): {e}"));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn exported_smtlib_runs_in_z3_and_cvc5_and_decodes() {
    let problem = boxed("path:3", 4, Target::Indicator, false);
    let some: Vec<usize> = (0..problem.examples.len()).step_by(8).collect();
    let notes = vec!["game: path:3".to_string(), "box: [0,4)^3".to_string()];
    let script = |len| export_smtlib(&problem, len, &some, &notes).unwrap();
    let sat = script(6);
    assert!(sat.starts_with("; game: path:3\n; box: [0,4)^3\n"));
    assert!(sat.contains("(check-sat)\n(get-value (op_0 op_1 op_2 op_3 op_4 op_5))"));
    assert!(sat.contains("; code 3 = Plus"));
    parse_sexps(&sat).unwrap();
    // Length 4 is below the dependency bound; cvc5 gets length 5, which it solves faster.
    let cvc5 = ["--lang", "smt2", "--bitblast=eager"];
    for (prog, args, unsat, sat) in [
        ("z3", &[][..], script(4), sat),
        ("cvc5", &cvc5[..], script(4), script(5)),
    ] {
        let out = run_tool(prog, args, &unsat);
        assert!(out.starts_with("unsat"), "{prog}: {out}");
        let err = decode_smtlib_model(&unsat, &out).unwrap_err().to_string();
        assert!(err.contains("unsat"), "{err}");
        let out = run_tool(prog, args, &sat);
        let p = decode_smtlib_model(&sat, &out).unwrap_or_else(|e| panic!("{prog}: {e}\n{out}"));
        let outputs = problem.outputs(&p).unwrap();
        assert!(
            some.iter()
                .all(|&e| problem.examples[e].holds(|i| outputs[i])),
            "{prog}: {p}"
        );
    }
}

#[test]
fn decoding_garbage_fails_with_a_reason() {
    let problem = boxed("path:3", 3, Target::Zero, false);
    let script = export_smtlib(&problem, 3, &[0], &[]).unwrap();
    let err = |out: &str| decode_smtlib_model(&script, out).unwrap_err().to_string();
    assert!(err("").contains("empty"));
    assert!(err("sat\n((op_0 #b00000) (op_1").contains("unclosed"));
    assert!(err("sat\n((op_0 #b00000) (op_1 #b00001))").contains("no value for `op_2`"));
    assert!(err("sat\n((op_0 #b11111) (op_1 #b0) (op_2 #b0))").contains("codes"));
    assert!(err("sat\n((op_0 #b0) (op_1 #b0) (op_2 #b0))").contains("not a valid program"));
    assert!(err("unknown\n").contains("undecided"));
    assert!(err("(error \"x\")").contains("expected `sat`"));
    assert!(decode_smtlib_model("no header", "sat ()").is_err());
    let ok = decode_smtlib_model(
        &script,
        "sat\n((op_0 (_ bv0 5)) (op_1 #b00001) (op_2 #b00011))",
    );
    assert_eq!(ok.unwrap().to_string(), "Push(0) Push(1) Plus");
}

#[test]
fn sygus_export_is_balanced_with_one_constraint_per_example() {
    let problem = boxed("shriek", 3, Target::Sg, false);
    let examples: Vec<usize> = (0..problem.examples.len()).step_by(3).collect();
    let text = export_sygus(&problem, &examples, &["game: shriek".into()]).unwrap();
    parse_sexps(&text).unwrap();
    assert_eq!(text.matches("(constraint ").count(), examples.len());
    assert!(text.contains("(check-synth)") && text.contains("(define-fun div0"));
    let out = run_tool("cvc5", &["--lang", "sygus2", "--tlimit", "20000"], &text);
    assert!(out.contains("(define-fun f"), "cvc5: {out}");
}
