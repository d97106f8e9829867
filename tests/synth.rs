//! End-to-end tests of `grundy synth` and `verify`: every solver, targets, bad input, time
//! limits, data files, lifting and reports. Exported instances and external solvers are in
//! tests/exports.rs.

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
            "--prove",
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
        "- **Form:** plain",
        "- **Theorem:** proved for all positions of path:3, the P-positions are exactly those with",
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
