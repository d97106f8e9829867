//! End-to-end tests of `grundy synth`, `verify` and `decode`, including exported instances
//! re-solved by external solvers (CaDiCaL, MiniSat, z3; installed by scripts/test).

use std::path::Path;
use std::process::Command as Process;

use assert_cmd::Command;

mod common;
use common::verifies;

fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

fn synth_json(args: &[&str]) -> serde_json::Value {
    let out = grundy()
        .arg("synth")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn p3_every_solver_finds_a_minimal_classifier_of_the_same_length() {
    let mut lengths = Vec::new();
    for solver in ["sat", "smt", "enum"] {
        let v = synth_json(&[
            "path:3",
            "--max",
            "6",
            "--solver",
            solver,
            "--target",
            "indicator",
        ]);
        assert_eq!(v["minimal"], true, "{solver}");
        assert_eq!(
            (v["target"].as_str(), v["width"].as_u64()),
            (Some("indicator"), Some(8))
        );
        // The program, its expression and its length describe one program.
        let names: Vec<String> = serde_json::from_value(v["program"].clone()).unwrap();
        assert_eq!(names.len() as u64, v["length"].as_u64().unwrap());
        assert_eq!(v["expression"].as_str().unwrap().matches('x').count(), 3);
        lengths.push(v["length"].as_u64().unwrap());
        verifies("path:3", &v["program"], "10", &["--target", "indicator"]);
    }
    // The thesis's program has 6 instructions; minimality is proved, so all agree.
    assert_eq!(lengths, [6, 6, 6]);
}

#[test]
fn shriek_sg_is_found_exactly() {
    let v = synth_json(&[
        "shriek",
        "--max",
        "8",
        "--target",
        "sg",
        "--verify-max",
        "11",
    ]);
    assert_eq!(v["length"], 5);
    assert_eq!(v["minimal"], true);
    assert!(v["cross_check"]["counterexample"].is_null());
}

#[test]
fn star_and_circular_nim_zero_classifiers() {
    // Zero target: x0 | (x1 ^ x2 ^ x3) has 2n-1 = 7 instructions, the dependency bound.
    let v = synth_json(&["star:3", "--max", "5", "--verify-max", "7"]);
    assert_eq!(
        (v["length"].as_u64(), v["minimal"].as_bool()),
        (Some(7), Some(true))
    );
    let v = synth_json(&[
        "circular:3,2",
        "--max",
        "6",
        "--orbits",
        "--verify-max",
        "8",
    ]);
    assert_eq!(v["minimal"], true);
    assert_eq!(v["orbits"], true);
    verifies("circular:3,2", &v["program"], "9", &["--orbits"]);
}

#[test]
fn a_wrong_program_gets_a_counterexample_and_exit_1() {
    let out = grundy()
        .args([
            "verify",
            "path:3",
            "--max",
            "6",
            "--program",
            "Push(2) Push(0) BooleanEq BooleanNot",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("counterexample"));
}

#[test]
fn bad_synth_input_is_one_line_and_exit_2() {
    for (args, needle) in [
        (vec!["synth", "path:3"], "give the data"),
        (
            vec!["synth", "path:3", "--max", "4", "--ops", "+Frob"],
            "unknown instruction",
        ),
        (
            vec![
                "synth", "path:3", "--max", "4", "--target", "sg", "--orbits",
            ],
            "orbits",
        ),
        (
            vec!["synth", "path:3", "--max", "40", "--width", "4"],
            "does not fit",
        ),
        (vec!["synth", "--data", "/nonexistent.tsv"], "nonexistent"),
        (
            vec![
                "verify",
                "path:3",
                "--max",
                "4",
                "--program",
                "Push(0) Plus",
            ],
            "not a valid program",
        ),
        (
            vec!["verify", "path:3", "--max", "4", "--program", "Push(7)"],
            "reads x7",
        ),
    ] {
        let out = grundy().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn a_timeout_without_a_program_is_undecided_with_exit_3() {
    let args = ["synth", "circular:4,2", "--max", "6", "--timeout", "0"];
    let out = grundy().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    // Not an error: the report says what was established.
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("none found (status undecided)"), "{text}");
    assert!(
        text.contains("no program shorter than 7") && text.contains("(timed out)"),
        "{text}"
    );
    // With --json the outcome is one object on stdout, with the bound established.
    let out = grundy().args(args).arg("--json").output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "undecided");
    assert_eq!(v["stopped"], "timed out");
    assert_eq!(v["program"], serde_json::Value::Null);
    // circular:4,2 reads all 4 heaps, so lengths below 7 are refuted by the bound at once.
    assert_eq!(v["lower_bound"], 7);
    assert_eq!(v["upper_bound"], serde_json::Value::Null);
}

#[test]
fn data_files_feed_synthesis() {
    let dir = tempfile::tempdir().unwrap();
    let table = common::p3_table(dir.path(), 6);
    let v = synth_json(&["--data", table.to_str().unwrap(), "--target", "indicator"]);
    assert_eq!(v["length"], 6);
}

fn solver_output(cmd: &str, args: &[&str]) -> String {
    let out = Process::new(cmd)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{cmd} is needed (scripts/test installs it): {e}"));
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// `synth` exporting path:3's indicator on [0,5)^3 at `length`, with `extra` arguments.
fn export_p3(length: &str, extra: &[&std::ffi::OsStr]) -> std::process::Output {
    grundy()
        .args(["synth", "path:3", "--max", "5", "--target", "indicator"])
        .args(["--length", length])
        .args(extra)
        .output()
        .unwrap()
}

fn export_cnf(dir: &Path, length: &str) -> std::path::PathBuf {
    let cnf = dir.join(format!("p3-{length}.cnf"));
    let out = export_p3(length, &["--export-cnf".as_ref(), cnf.as_os_str()]);
    assert!(out.status.success(), "{out:?}");
    cnf
}

#[test]
fn exported_cnf_is_solved_by_cadical_and_minisat_and_decodes() {
    let dir = tempfile::tempdir().unwrap();
    let sat = export_cnf(dir.path(), "6");
    let text = std::fs::read_to_string(&sat).unwrap();
    assert!(text.contains("c note grundy game path:3") && text.contains("c note grundy width 8"));

    let model = dir.path().join("cadical.out");
    std::fs::write(
        &model,
        solver_output("cadical", &["-q", sat.to_str().unwrap()]),
    )
    .unwrap();
    grundy()
        .args(["decode", "--cnf"])
        .arg(&sat)
        .arg("--model")
        .arg(&model)
        .assert()
        .success();

    let raw = dir.path().join("minisat.raw");
    Process::new("minisat")
        .arg(&sat)
        .arg(&raw)
        .output()
        .expect("minisat is needed (scripts/test installs it)");
    grundy()
        .args(["decode", "--cnf"])
        .arg(&sat)
        .arg("--model")
        .arg(&raw)
        .assert()
        .success();

    // Length 5 is below the minimum: both solvers say UNSAT, and decode calls the length
    // refuted, a proved answer, as it does when every cube of an iCNF is unsatisfiable.
    let unsat = export_cnf(dir.path(), "5");
    let out = solver_output("cadical", &["-q", unsat.to_str().unwrap()]);
    assert!(out.contains("s UNSATISFIABLE"), "{out}");
    let model = dir.path().join("unsat.out");
    std::fs::write(&model, out).unwrap();
    let o = grundy()
        .args(["decode", "--cnf"])
        .arg(&unsat)
        .arg("--model")
        .arg(&model)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("refuted:      length 5:"), "{text}");
}

/// `--export-cubes DIR` for path:3's indicator at `length`: the iCNF and the cube list.
fn export_cubes(dir: &Path, length: &str) -> (std::path::PathBuf, String) {
    let out = export_p3(
        length,
        &[
            "--json".as_ref(),
            "--export-cubes".as_ref(),
            dir.as_os_str(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let icnf = dir.join(format!("len{length}.icnf"));
    let list = std::fs::read_to_string(dir.join(format!("len{length}.cubes"))).unwrap();
    let cubes = list.lines().filter(|l| l.starts_with("a ")).count();
    let text = std::fs::read_to_string(&icnf).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("a ")).count(), cubes);
    for file in json["exported"].as_array().unwrap() {
        assert_eq!(file["cubes"], cubes, "{json}");
    }
    (icnf, list)
}

#[test]
fn exported_cubes_are_solved_by_cadical_and_decode() {
    let dir = tempfile::tempdir().unwrap();
    // Length 6 has programs: CaDiCaL takes the cubes in turn and stops at a satisfied one,
    // whose model decodes to a program that passes every example.
    let (sat, list) = export_cubes(dir.path(), "6");
    assert!(list.contains("c cube 0: step 4 "), "{list}");
    let model = dir.path().join("cadical.out");
    std::fs::write(
        &model,
        solver_output("cadical", &["-q", sat.to_str().unwrap()]),
    )
    .unwrap();
    let out = grundy()
        .args(["decode", "--cnf"])
        .arg(&sat)
        .arg("--model")
        .arg(&model)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("verified on all"));
    // Length 5 has none: every cube is unsatisfiable, so the whole iCNF is.
    let (unsat, _) = export_cubes(dir.path(), "5");
    let out = solver_output("cadical", &["-q", unsat.to_str().unwrap()]);
    assert!(out.contains("s UNSATISFIABLE"), "{out}");
}

#[test]
fn exported_smtlib_is_solved_by_z3() {
    // Shriek's SG function (x0 + x1) ^ x2 reads three variables: 5 instructions at least.
    let dir = tempfile::tempdir().unwrap();
    for (length, want) in [("5", "sat"), ("4", "unsat")] {
        let smt = dir.path().join(format!("shriek-{length}.smt2"));
        grundy()
            .args([
                "synth",
                "shriek",
                "--max",
                "4",
                "--target",
                "sg",
                "--length",
                length,
                "--export-smt",
            ])
            .arg(&smt)
            .assert()
            .success();
        let out = solver_output("z3", &[smt.to_str().unwrap()]);
        assert_eq!(out.lines().next(), Some(want), "{out}");
    }
}

#[test]
fn committed_instances_have_their_recorded_status() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("encodings/instances");
    let manifest = std::fs::read_to_string(root.join("status.tsv")).unwrap();
    let mut checked = 0;
    for line in manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let (file, status) = (root.join(cols[0]), cols[1]);
        let path = file.to_str().unwrap();
        if path.ends_with(".cnf") {
            let want = if status == "sat" {
                "s SATISFIABLE"
            } else {
                "s UNSATISFIABLE"
            };
            let out = solver_output("cadical", &["-q", path]);
            assert!(out.contains(want), "cadical on {path}: {out}");
            if status == "sat" {
                // The instances hold a CEGIS example set: the decoded program must satisfy it
                // (checked first, exit 2 otherwise); on all the data it may pass (0) or fail (1).
                let model = tempfile::NamedTempFile::new().unwrap();
                std::fs::write(model.path(), &out).unwrap();
                let o = grundy()
                    .args(["decode", "--cnf", path, "--model"])
                    .arg(model.path())
                    .output()
                    .unwrap();
                let err = String::from_utf8_lossy(&o.stderr);
                match o.status.code() {
                    Some(0) => {}
                    Some(1) => assert!(
                        err.contains("satisfies the exported examples"),
                        "{path}: {err}"
                    ),
                    _ => panic!("decode of {path}: {err}"),
                }
            }
            let raw = tempfile::NamedTempFile::new().unwrap();
            Process::new("minisat")
                .arg(path)
                .arg(raw.path())
                .output()
                .unwrap();
            let first = std::fs::read_to_string(raw.path()).unwrap();
            assert_eq!(
                first.lines().next(),
                Some(if status == "sat" { "SAT" } else { "UNSAT" }),
                "minisat on {path}"
            );
        } else if path.ends_with(".smt2") {
            let out = solver_output("z3", &[path]);
            assert_eq!(out.lines().next(), Some(status), "z3 on {path}");
        }
        checked += 1;
    }
    assert!(checked >= 4, "the manifest lists the instances");
}

/// Stars beyond the thesis: lifted from smaller stars, the bound's length refuted by sat, and
/// the result re-checked on a larger box by `grundy verify`.
#[test]
fn stars_with_more_leaves_are_lifted_and_proved() {
    for (target, len) in [("zero", 11), ("indicator", 12)] {
        let j = synth_json(&["star:5", "--max", "4", "--target", target]);
        assert_eq!(j["length"], len, "{target}: {j}");
        assert_eq!(j["minimal"], true, "{target}: {j}");
        assert_eq!(j["found_by"]["strategy"], "lifting", "{j}");
        assert_eq!(
            j["found_by"]["variables"].as_array().unwrap().len(),
            2,
            "{j}"
        );
        verifies("star:5", &j["program"], "5", &["--target", target]);
    }
    // The indicator's length 11 is the bound's own length: refuted by the read-once search.
    let j = synth_json(&["star:5", "--max", "4", "--target", "indicator"]);
    let last = j["refutations"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["length"].as_u64(), last["by"].as_str()),
        (Some(11), Some("read-once"))
    );
    // At width 16 the read-once search does not apply and SAT refutes it.
    let j = synth_json(&[
        "star:5",
        "--max",
        "4",
        "--target",
        "indicator",
        "--width",
        "16",
    ]);
    assert_eq!(j["minimal"], true, "{j}");
    let last = j["refutations"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["length"].as_u64(), last["by"].as_str()),
        (Some(11), Some("sat"))
    );
}

/// On timeout a lifted program is still reported, as shortest found, with the length left open.
/// At width 16 the read-once search does not apply, and SAT does not refute star:7's length 15
/// within 2 s (it takes more than 30).
#[test]
fn a_timeout_after_lifting_reports_the_lifted_program_as_shortest_found() {
    let j = synth_json(&[
        "star:7",
        "--max",
        "3",
        "--target",
        "indicator",
        "--width",
        "16",
        "--timeout",
        "2",
    ]);
    assert_eq!(
        (j["length"].as_u64(), j["minimal"].as_bool()),
        (Some(16), Some(false)),
        "{j}"
    );
    assert_eq!(j["status"], "shortest found");
    assert_eq!(j["undecided"], 15);
    assert_eq!(
        (j["lower_bound"].as_u64(), j["upper_bound"].as_u64()),
        (Some(15), Some(16))
    );
    verifies("star:7", &j["program"], "4", &["--target", "indicator"]);
}

#[test]
fn without_zero_and_one_every_solver_builds_the_constant_and_agrees() {
    // Zero exactly at x0 = 1: `x0 One Minus`, or without One a longer way to 1.
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("one.tsv");
    let mut text = String::from("x0\tx1\tsg\n");
    for a in 0..6 {
        for b in 0..4 {
            text += &format!("{a}\t{b}\t{}\n", u8::from(a != 1));
        }
    }
    std::fs::write(&table, text).unwrap();
    let data = table.to_str().unwrap();
    for solver in ["sat", "smt", "enum"] {
        let v = synth_json(&["--data", data, "--solver", solver]);
        assert_eq!(v["length"], 3, "{solver}");
        let v = synth_json(&["--data", data, "--solver", solver, "--ops=-Zero,-One"]);
        assert_eq!(v["minimal"], true, "{solver}");
        assert_eq!(v["length"], 5, "{solver}: {}", v["expression"]);
        let names: Vec<String> = serde_json::from_value(v["program"].clone()).unwrap();
        assert!(
            !names.iter().any(|n| n == "Zero" || n == "One"),
            "{solver}: {names:?}"
        );
    }
}

/// A model of an instance that held all the data, whose program fails the data, is a wrong
/// model (exit 2), not a counterexample.
#[test]
fn a_wrong_model_of_a_whole_instance_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = export_cnf(dir.path(), "6");
    let text = std::fs::read_to_string(&cnf).unwrap();
    assert!(text.contains("c note grundy examples all"));
    // The opcode variables of a valid program that is no classifier of P3.
    let wanted = [
        "Push(0)",
        "Push(1)",
        "Plus",
        "Push(2)",
        "Plus",
        "BooleanNot",
    ];
    let lits: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("c op "))
        .filter_map(|rest| {
            let w: Vec<&str> = rest.split_whitespace().collect();
            let step: usize = w[0].parse().unwrap();
            (wanted[step] == w[1]).then(|| w[2].to_string())
        })
        .collect();
    assert_eq!(lits.len(), 6, "every step lists its instruction");
    let model = dir.path().join("wrong.out");
    std::fs::write(&model, format!("s SATISFIABLE\nv {} 0\n", lits.join(" "))).unwrap();
    let out = grundy()
        .args(["decode", "--cnf"])
        .arg(&cnf)
        .arg("--model")
        .arg(&model)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("fails an example the instance holds"), "{err}");
}

/// The DRAT checker `rate` (installed by scripts/deps), from PATH or cargo's bin directory.
fn rate() -> std::path::PathBuf {
    let home = std::env::var("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| Path::new(&std::env::var("HOME").unwrap()).join(".cargo"));
    let installed = home.join("bin/rate");
    if installed.exists() {
        return installed;
    }
    "rate".into()
}

/// Runs `rate` on a CNF and its proof: whether it verified the refutation.
fn rate_verifies(cnf: &Path, proof: &Path) -> bool {
    let out = Process::new(rate())
        .arg(cnf)
        .arg(proof)
        .output()
        .unwrap_or_else(|e| panic!("rate is needed (scripts/deps installs it): {e}"));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .any(|l| l == "s VERIFIED")
}

/// SAT refutations kept with --proof are checked by a second, independent DRAT checker (rate,
/// not varisat's own); a proof missing its last steps is rejected, so the check can fail.
#[test]
fn sat_refutation_proofs_pass_an_independent_checker() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("proof");
    let out = grundy()
        .args([
            "synth",
            "circular:4,2",
            "--max",
            "4",
            "--solver",
            "sat",
            "--target",
        ])
        .args(["indicator", "--proof", base.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut proofs: Vec<std::path::PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "drat"))
        .collect();
    proofs.sort();
    assert!(!proofs.is_empty(), "sat refuted some length with a proof");
    for proof in &proofs {
        let cnf = proof.with_extension("cnf");
        assert!(rate_verifies(&cnf, proof), "{}", proof.display());
    }
    // The last proof without its second half: no empty clause is derived.
    let last = proofs.last().unwrap();
    let text = std::fs::read_to_string(last).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = dir.path().join("cut.drat");
    std::fs::write(&cut, lines[..lines.len() / 2].join("\n") + "\n").unwrap();
    assert!(!rate_verifies(&last.with_extension("cnf"), &cut));
}

/// `--report` writes the run up: the counts, the program in its forms, how its length was
/// proved, what it was verified on, and the values drawn beside it.
#[test]
fn reports_write_the_run_up() {
    let dir = tempfile::tempdir().unwrap();
    let md = dir.path().join("run.md");
    let out = grundy()
        .args([
            "synth",
            "path:3",
            "--max",
            "8",
            "--verify-max",
            "10",
            "--quiet",
            "--report",
        ])
        .arg(&md)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&md).unwrap();
    for needle in [
        "- **Complex:** 3 vertices; maximal faces 0-1 1-2",
        "- **Counts:** 512 positions, 8 of them zero positions",
        "- **Expression:** `x1 + (x0 ^ x2)`",
        "- **LaTeX:** $x_{1} + \\left(x_{0} \\oplus x_{2}\\right)$",
        "- **Length:** 5 (minimal: lengths 1-4 by the dependency bound)",
        "on the larger box [0,10)^3 (1000 positions",
        "![The values of the data on x0, x1](run.png)",
    ] {
        assert!(text.contains(needle), "{needle}\n{text}");
    }
    assert!(std::fs::read(dir.path().join("run.png"))
        .unwrap()
        .starts_with(b"\x89PNG"));
    let tex = dir.path().join("run.tex");
    let out = grundy()
        .args(["synth", "path:3", "--max", "6", "--quiet", "--report"])
        .arg(&tex)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(&tex).unwrap();
    assert!(
        text.contains("\\item[Expression] \\texttt{x1 + (x0 \\^{} x2)}"),
        "{text}"
    );
    let bad = dir.path().join("run.txt");
    common::one_line(
        &[
            "synth",
            "path:3",
            "--max",
            "6",
            "--report",
            bad.to_str().unwrap(),
        ],
        2,
        ".md (Markdown) or .tex",
    );
}

/// The documented Slurm array script, run task by task as Slurm would, solves the cubes of an
/// `--export-cubes` split one per task, and `decode --answers` merges them: a refuted length
/// when every cube is unsatisfiable, the open cubes when some answers are missing, and the
/// checked program of a satisfied cube.
#[test]
fn the_slurm_array_script_solves_cubes_that_decode_merges() {
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/slurm/cubes.sbatch");
    let split = |length: &str| {
        let cubes = dir.path().join(format!("cubes{length}"));
        grundy()
            .args(["synth", "path:3", "--max", "3", "--target", "indicator"])
            .args(["--length", length, "--export-cubes"])
            .arg(&cubes)
            .assert()
            .success();
        cubes.join(format!("len{length}.icnf"))
    };
    let task = |icnf: &Path, answers: &Path, k: usize| {
        let out = Process::new("bash")
            .arg(&script)
            .arg(icnf)
            .arg(answers)
            .env("SLURM_ARRAY_TASK_ID", k.to_string())
            .output()
            .unwrap();
        assert!(out.status.success(), "cube {k}: {out:?}");
    };
    let merged = |icnf: &Path, answers: &Path| {
        let out = grundy()
            .args(["decode", "--json", "--cnf"])
            .arg(icnf)
            .arg("--answers")
            .arg(answers)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code(), v)
    };

    // Length 3 is below the minimum (6): every one of its cubes is unsatisfiable.
    let icnf = split("3");
    let cubes = std::fs::read_to_string(&icnf)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("a "))
        .count();
    assert!(cubes > 10, "{cubes} cubes");
    let answers = dir.path().join("answers3");
    for k in 0..cubes {
        task(&icnf, &answers, k);
    }
    let (code, v) = merged(&icnf, &answers);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(
        (v["refuted"].as_bool(), v["length"].as_u64()),
        (Some(true), Some(3))
    );
    assert_eq!(v["cubes"].as_u64(), Some(cubes as u64));
    // One answer lost: the length is open, and the merge says which cube to run again.
    std::fs::remove_file(answers.join("7.out")).unwrap();
    let (code, v) = merged(&icnf, &answers);
    assert_eq!(code, Some(3), "{v}");
    assert_eq!(v["refuted"], false);
    assert_eq!(v["undecided"], serde_json::json!([7]));

    // Length 6 has programs; cube 198 (step 4 RightShift, step 5 BooleanNot) holds one, and a
    // satisfied cube decides the length whatever the others say.
    let icnf = split("6");
    let text = std::fs::read_to_string(&icnf).unwrap();
    assert!(text.contains("c cube 198 step 4 RightShift, step 5 BooleanNot"));
    let answers = dir.path().join("answers6");
    for k in [0, 198] {
        task(&icnf, &answers, k);
    }
    let (code, v) = merged(&icnf, &answers);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["cube"], 198);
    assert_eq!(v["satisfies_data"], true);
    assert_eq!(v["length"], 6);
    verifies("path:3", &v["program"], "3", &["--target", "indicator"]);
}
