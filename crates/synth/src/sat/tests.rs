//! Tests of the SAT backend: the encoding agrees with the interpreter and with the pruning rules,
//! finds and refutes what it should, exports, decodes, proves and stops on time.

use grundy_core::catalog::Rules;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use varisat::{ExtendFormula, Lit, Solver};

use super::cubes;
use super::encode::Encoder;
use super::*;
use crate::cegis::synthesize;
use crate::data::Dataset;
use crate::interp;
use crate::lang::{rules, Op, OpSet, Program};
use crate::problem::tests::boxed;
use crate::problem::Target;
use grundy_core::catalog::spec;
use grundy_core::sg::table::TableOptions;

/// A problem with the given instruction set and width whose only point is `x`, no examples.
fn bare(ops: OpSet, width: u32, x: Vec<u64>) -> Problem {
    Problem {
        ops,
        width,
        target: Target::Zero,
        orbits: false,
        points: [x].into_iter().collect(),
        values: vec![0],
        examples: Vec::new(),
        source: "test".into(),
        bound: Default::default(),
        twins: Default::default(),
    }
}

/// The opcode literals that pin `p` in `enc`.
fn pin(enc: &Encoder, p: &Program) -> Vec<Lit> {
    p.0.iter()
        .enumerate()
        .map(|(t, op)| {
            let k = enc.st.ops.iter().position(|o| o == op).unwrap();
            enc.st.op[t][k].expect("instruction possible at this step")
        })
        .collect()
}

/// The encoding's output for `p` at the problem's single point: `None` when it forbids `p`.
fn encoded_output(problem: &Problem, p: &Program, layout: Layout) -> Option<u64> {
    let options = Options {
        layout,
        ..Options::default()
    };
    let mut enc = Encoder::new(problem, p.len(), &options);
    let out = enc.values(&problem.points[0]).pop().unwrap();
    let mut solver = Solver::new();
    enc.cnf.flush_into(&mut solver);
    solver.assume(&pin(&enc, p));
    if !solver.solve().unwrap() {
        return None;
    }
    let model = solver.model().unwrap();
    let truth = |l: Lit| model.contains(&l);
    Some(
        out.iter()
            .enumerate()
            .map(|(b, &l)| (truth(l) as u64) << b)
            .sum(),
    )
}

/// Turns arbitrary choices into a valid program of `choices.len()` instructions over `ops`.
fn valid_program(ops: &[Op], choices: &[u32]) -> Program {
    let len = choices.len();
    let mut depth = 0usize;
    let mut prog = Vec::new();
    for (t, &c) in choices.iter().enumerate() {
        let left = len - t - 1; // steps after this one
        let fits: Vec<Op> = ops
            .iter()
            .copied()
            .filter(|o| {
                let a = o.arity();
                a <= depth && depth - a < left + 1
            })
            .collect();
        let op = fits[c as usize % fits.len()];
        depth = depth - op.arity() + 1;
        prog.push(op);
    }
    Program(prog)
}

fn extended(vars: usize) -> OpSet {
    OpSet::with_edits(vars, "+Mod,+Min,+Max,+Lt,+Const(5)").unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testing::cases(60, 1000) as u32))]

    /// With the program pinned, the circuits compute exactly what the interpreter computes, and
    /// the encoding forbids the program exactly when the rules do.
    #[test]
    fn pinned_programs_agree_with_the_interpreter(
        choices in prop::collection::vec(any::<u32>(), 1..=7),
        w in prop::sample::select(vec![3u32, 4, 8]),
        x in prop::collection::vec(any::<u64>(), 3),
        slots in any::<bool>(),
    ) {
        let layout = if slots { Layout::Slots } else { Layout::Pointers };
        let ops = extended(3);
        let mask = interp::mask(w);
        let x: Vec<u64> = x.iter().map(|v| v & mask).collect();
        let p = valid_program(ops.ops(), &choices);
        let consts = rules::Constants::of(ops.ops());
        let problem = bare(ops, w, x.clone());
        let got = encoded_output(&problem, &p, layout);
        if p.obeys_rules(consts) {
            prop_assert_eq!(got, interp::run(&p, &x, mask), "{}", p);
        } else {
            prop_assert_eq!(got, None, "{} breaks a rule", p);
        }
    }
}

#[test]
fn edge_cases_of_the_semantics() {
    let cases = [
        ("Push(0) Push(1) Div", vec![7, 0]),
        ("Push(0) Push(1) Mod", vec![7, 0]),
        ("Push(0) Push(1) Mod", vec![7, 3]),
        ("Push(0) Push(1) Div", vec![7, 3]),
        ("Push(0) Push(1) LeftShift", vec![1, 4]),
        ("Push(0) Push(1) LeftShift", vec![1, 3]),
        ("Push(0) Push(1) RightShift", vec![8, 4]),
        ("Push(0) Push(1) RightShift", vec![8, 3]),
        ("Push(0) Push(1) LeftShift", vec![1, 15]),
        ("Push(0) Push(1) Minus", vec![1, 2]),
        ("Push(0) Push(1) Mul", vec![5, 7]),
        ("Push(0) Push(1) Lt", vec![15, 14]),
        ("Push(0) Push(1) Max", vec![3, 9]),
        ("Push(0) Push(1) Min", vec![3, 9]),
        ("Push(0) Not", vec![5, 0]),
        ("Push(0) BooleanNot", vec![0, 0]),
        ("Push(0) Const(5) Plus", vec![14, 0]),
    ];
    for w in [3u32, 4] {
        for (text, x) in &cases {
            let p: Program = text.parse().unwrap();
            let mask = interp::mask(w);
            let x: Vec<u64> = x.iter().map(|v| v & mask).collect();
            let problem = bare(extended(2), w, x.clone());
            for layout in [Layout::Pointers, Layout::Slots] {
                assert_eq!(
                    encoded_output(&problem, &p, layout),
                    interp::run(&p, &x, mask),
                    "{text} at {x:?}, width {w}, {layout:?}"
                );
            }
        }
    }
}

/// Every program the structure admits, by blocking models one at a time.
fn admitted(ops: &OpSet, length: usize) -> Vec<Program> {
    let problem = bare(ops.clone(), 4, vec![0; ops.vars()]);
    let mut enc = Encoder::new(&problem, length, &Options::default());
    let mut solver = Solver::new();
    enc.cnf.flush_into(&mut solver);
    let mut found = Vec::new();
    while solver.solve().unwrap() {
        let model = solver.model().unwrap();
        let p = enc.decode(|l| model.contains(&l)).unwrap();
        let block: Vec<Lit> = pin(&enc, &p).into_iter().map(|l| !l).collect();
        solver.add_clause(&block);
        found.push(p);
    }
    found
}

/// Every valid program of `length` over `ops` that follows the rules.
fn allowed(ops: &OpSet, length: usize) -> Vec<Program> {
    let n = ops.ops().len();
    let mut out = Vec::new();
    let mut idx = vec![0usize; length];
    loop {
        let p = Program(idx.iter().map(|&i| ops.ops()[i]).collect());
        if p.is_valid() && p.obeys_rules(rules::Constants::of(ops.ops())) {
            out.push(p);
        }
        let mut j = 0;
        loop {
            if j == length {
                return out;
            }
            idx[j] += 1;
            if idx[j] < n {
                break;
            }
            idx[j] = 0;
            j += 1;
        }
    }
}

#[test]
fn the_structure_admits_exactly_the_valid_programs_the_rules_allow() {
    let small = OpSet::with_edits(2, "-Mul,-Div,-And,-Or,-LeftShift,-RightShift").unwrap();
    for (ops, length) in [
        (extended(2), 1),
        (extended(2), 2),
        (extended(2), 3),
        (small, 4),
    ] {
        let mut got = admitted(&ops, length);
        let mut want = allowed(&ops, length);
        got.sort_by_key(|p| p.0.clone());
        want.sort_by_key(|p| p.0.clone());
        assert_eq!(got.len(), want.len(), "length {length}");
        assert_eq!(got, want, "length {length}");
    }
}

#[test]
fn p3_shriek_and_circular() {
    let backend = SatBackend::default();
    // Zero target: x1 + (x0 ^ x2) is 0 exactly on (a, 0, a) in the box, so 5 suffice.
    for (target, len) in [(Target::Zero, 5), (Target::Indicator, 6)] {
        let problem = boxed("path:3", 6, target, false);
        let out = synthesize(&problem, &backend, 8, None).unwrap();
        assert_eq!(out.program.len(), len, "{target:?}: {}", out.program);
        assert!(out.minimal);
        assert!(problem.failures(&out.program).is_empty());
    }
    let problem = boxed("shriek", 6, Target::Sg, false);
    let out = synthesize(&problem, &backend, 8, None).unwrap();
    assert_eq!(out.program.len(), 5, "{}", out.program);
    assert!(out.minimal && problem.failures(&out.program).is_empty());
}

#[test]
fn orbit_examples_are_some_member_zero() {
    let g = spec::parse_hypergraph("star:3").unwrap();
    let data = Dataset::from_box(&g, 3, &TableOptions::default()).unwrap();
    let canon = |x: &[u64]| g.canonical_point(x);
    for target in [Target::Zero, Target::Indicator] {
        let problem =
            Problem::new(data.clone(), OpSet::thesis(4), 8, target, Some(&canon)).unwrap();
        assert!(problem.examples.iter().any(
            |e| matches!(e, crate::problem::Example::SomeZero { points, .. } if points.len() > 1)
        ));
        let out = synthesize(&problem, &SatBackend::default(), 10, None).unwrap();
        assert!(problem.failures(&out.program).is_empty(), "{}", out.program);
        assert!(out.minimal);
    }
}

#[test]
fn short_lengths_are_refuted_on_all_examples() {
    let problem = boxed("path:3", 4, Target::Indicator, false);
    let backend = SatBackend::default();
    for length in [3, 5] {
        let mut search = backend.start(&problem, length).unwrap();
        for e in 0..problem.examples.len() {
            search.add_example(e).unwrap();
        }
        assert_eq!(
            search.solve(None).unwrap(),
            Found::Refuted,
            "length {length}"
        );
    }
}

#[test]
fn exported_cnf_solves_and_decodes() {
    let problem = boxed("path:3", 6, Target::Indicator, false);
    let small = boxed("path:3", 4, Target::Indicator, false);
    let examples: Vec<usize> = (0..problem.examples.len()).step_by(7).collect();
    let notes = vec!["game path:3".to_string(), "box [0,6)^3".to_string()];
    let cnf = export_dimacs(&problem, 6, &examples, &notes).unwrap();
    assert!(cnf.starts_with("c grundy-cnf v1 length 6 width 8 vars 3\nc note game path:3\n"));
    let formula = varisat::dimacs::DimacsParser::parse(cnf.as_bytes()).unwrap();
    let mut solver = Solver::new();
    solver.add_formula(&formula);
    assert!(solver.solve().unwrap());
    let mut model = String::from("c from varisat\ns SATISFIABLE\n");
    for chunk in solver.model().unwrap().chunks(10) {
        let lits: Vec<String> = chunk.iter().map(|l| l.to_dimacs().to_string()).collect();
        model.push_str(&format!("v {}\n", lits.join(" ")));
    }
    model.push_str("v 0\n");
    let p = decode_model(&cnf, &model).unwrap();
    assert_eq!(p.len(), 6);
    let out = problem.outputs(&p).unwrap();
    for &e in &examples {
        assert!(
            problem.examples[e].holds(|i| out[i]),
            "{p} fails example {e}"
        );
    }
    // Refutations agree with the built-in search.
    let all: Vec<usize> = (0..small.examples.len()).collect();
    let short = export_dimacs(&small, 5, &all, &notes).unwrap();
    let mut solver = Solver::new();
    solver.add_formula(&varisat::dimacs::DimacsParser::parse(short.as_bytes()).unwrap());
    assert!(!solver.solve().unwrap());
    // Bad input says why.
    let err = |m: &str| decode_model(&cnf, m).unwrap_err().to_string();
    assert!(err("s UNSATISFIABLE\n").contains("unsatisfiable"));
    assert!(err("").contains("SATISFIABLE"));
    assert!(err("s SATISFIABLE\nv 1 x 0\n").contains("not a literal"));
    assert!(err("s SATISFIABLE\nv -1 0\n").contains("step 0"));
    assert!(decode_model("p cnf 1 1\n1 0\n", &model)
        .unwrap_err()
        .to_string()
        .contains("header"));
    // An edited header cannot ask for a huge program, and far literals allocate nothing.
    let huge = cnf.replacen("length 6", "length 99999999999999999", 1);
    let msg = decode_model(&huge, &model).unwrap_err().to_string();
    assert!(msg.contains("does not fit length"), "{msg}");
    let far = model.replace("v 0\n", "v 2147483647 0\n");
    assert_eq!(decode_model(&cnf, &far).unwrap(), p);
}

#[test]
fn refutations_leave_self_checked_drat_proofs() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("p3");
    let problem = boxed("path:3", 6, Target::Indicator, false);
    let backend = SatBackend {
        proof: Some(base.clone()),
        ..SatBackend::default()
    };
    let mut search = backend.start(&problem, 5).unwrap();
    for e in (0..problem.examples.len()).step_by(5) {
        search.add_example(e).unwrap();
    }
    assert_eq!(search.solve(None).unwrap(), Found::Refuted);
    let drat = std::fs::metadata(dir.path().join("p3.len5.drat")).unwrap();
    assert!(drat.len() > 0);
    let cnf = std::fs::read_to_string(dir.path().join("p3.len5.cnf")).unwrap();
    assert!(cnf.starts_with("c grundy-cnf v1 length 5"));
}

#[test]
fn deadlines_stop_the_solver() {
    // Refuting length 6 on all of CN(3,2) over [0,5)^3 takes seconds.
    let problem = boxed("circular:3,2", 5, Target::Zero, false);
    let backend = SatBackend::default();
    let mut search = backend.start(&problem, 6).unwrap();
    for e in 0..problem.examples.len() {
        search.add_example(e).unwrap();
    }
    let past = Instant::now() - Duration::from_millis(1);
    assert_eq!(search.solve(Some(past)).unwrap(), Found::Timeout);
    // How soon the solver stops is measured by `cargo bench --bench synth -- deadlines`.
    let found = search
        .solve(Some(Instant::now() + Duration::from_millis(200)))
        .unwrap();
    assert_eq!(found, Found::Timeout);
    // A stopped solver stays stopped rather than answering from a broken state.
    assert_eq!(search.solve(None).unwrap(), Found::Timeout);
}

/// At the dependency bound's length every needed variable is pushed once and the star's
/// interchangeable leaves in increasing order: a program breaking either is excluded, the same
/// program with its leaves in order is not.
#[test]
fn the_bound_length_reads_each_variable_once_and_twins_in_order() {
    let problem = boxed("star:3", 4, Target::Zero, false);
    assert_eq!(problem.lower_bound(), (7, vec![0, 1, 2, 3]));
    assert_eq!(problem.twin_runs(), vec![vec![1, 2, 3]]);
    let allowed = |text: &str| {
        let p: Program = text.parse().unwrap();
        let mut enc = Encoder::new(&problem, p.len(), &Options::default());
        let mut solver = Solver::new();
        enc.cnf.flush_into(&mut solver);
        solver.assume(&pin(&enc, &p));
        solver.solve().unwrap()
    };
    assert!(allowed("Push(0) Push(1) Push(2) Push(3) Xor Xor Or"));
    assert!(
        !allowed("Push(0) Push(2) Push(1) Push(3) Xor Xor Or"),
        "leaves out of order"
    );
    assert!(
        !allowed("Push(0) Push(1) Push(1) Push(3) Xor Xor Or"),
        "x2 never read"
    );
    // One step longer (2k): still each variable once, in order, with one unary step anywhere.
    assert!(allowed("Push(0) Push(1) Push(2) Push(3) Xor Xor Or Not"));
    assert!(
        !allowed("Push(0) Push(2) Push(1) Push(3) Xor Xor Or Not"),
        "leaves out of order at 2k"
    );
    assert!(allowed("Push(0) Push(1) Push(2) Push(3) Xor Not Xor Or"));
    // Two steps longer: a variable may be read twice, so the order is free.
    assert!(allowed(
        "Push(0) Push(2) Push(1) Push(1) Push(3) And Xor Xor Or"
    ));
}

/// With reads, twin order and the chain rule, sat's minimal lengths are still enumeration's
/// (which uses none of them) on stars, where all three apply.
#[test]
fn sat_and_enumeration_agree_on_stars() {
    use crate::enumerate::EnumBackend;
    let enumeration = EnumBackend::new(2, 1 << 30);
    for game in ["star:2", "star:3"] {
        for target in [Target::Zero, Target::Indicator] {
            let problem = boxed(game, 4, target, false);
            let a = synthesize(&problem, &SatBackend::default(), 10, None).unwrap();
            let b = synthesize(&problem, &enumeration, 10, None).unwrap();
            assert!(a.minimal && b.minimal);
            assert_eq!(a.program.len(), b.program.len(), "{game} {target:?}");
        }
    }
}

/// Every program the structure admits lies in exactly one cube: the cubes of the top two
/// instructions partition the search, so refuting all of them refutes the length.
#[test]
fn cubes_partition_the_admitted_programs() {
    let small = OpSet::with_edits(2, "-Mul,-Div,-And,-Or,-LeftShift,-RightShift").unwrap();
    for (ops, length) in [(extended(2), 1), (extended(2), 3), (small, 4)] {
        let problem = bare(ops.clone(), 4, vec![0; ops.vars()]);
        let enc = Encoder::new(&problem, length, &Options::default());
        let cubes = cubes::split(&enc.st);
        let programs = admitted(&ops, length);
        assert!(!programs.is_empty());
        for p in &programs {
            let pinned = pin(&enc, p);
            let holding = cubes
                .iter()
                .filter(|c| c.lits.iter().all(|l| pinned.contains(l)))
                .count();
            assert_eq!(holding, 1, "{p} at length {length}");
        }
    }
}

#[test]
fn the_icnf_has_one_assumption_line_per_cube_and_decodes() {
    let problem = boxed("path:3", 4, Target::Zero, false);
    let all: Vec<usize> = (0..problem.examples.len()).collect();
    let (text, cubes) = export_icnf(&problem, 5, &all, &["a note".into()]).unwrap();
    assert!(text.contains("\np inccnf\n") && !text.contains("p cnf"));
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("a ")).collect();
    assert_eq!(lines.len(), cubes.len());
    assert!(text.contains(&format!("c cube 0 {}", cubes[0].describe())));
    // Solve cube by cube as a cube-and-conquer driver would; a satisfied cube's model
    // decodes through the comments alone.
    let body = text.split("p inccnf\n").nth(1).unwrap();
    let mut solver = Solver::new();
    let mut clauses = 0;
    for line in body.lines().filter(|l| !l.starts_with('a')) {
        let lits: Vec<Lit> = line
            .split_whitespace()
            .map(|w| w.parse::<isize>().unwrap())
            .take_while(|&n| n != 0)
            .map(Lit::from_dimacs)
            .collect();
        solver.add_clause(&lits);
        clauses += 1;
    }
    assert!(clauses > 0);
    let mut programs = 0;
    for c in &cubes {
        solver.assume(&c.lits);
        if solver.solve().unwrap() {
            let model: Vec<String> = solver
                .model()
                .unwrap()
                .iter()
                .map(|l| l.to_dimacs().to_string())
                .collect();
            let answer = format!("s SATISFIABLE\nv {} 0\n", model.join(" "));
            let p = decode_model(&text, &answer).unwrap();
            assert!(problem.failures(&p).is_empty(), "{p}");
            let top: Vec<Op> = c.top.iter().map(|&(_, op)| op).collect();
            assert_eq!(
                &p.0[p.len() - top.len()..],
                &top[..],
                "{p} in {}",
                c.describe()
            );
            programs += 1;
        }
    }
    // x1 + (x0 ^ x2) and its mirror images: some cube holds a program of length 5.
    assert!(programs > 0);
}
