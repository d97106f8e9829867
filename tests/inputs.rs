//! Every input gets an answer or one clear line: huge specs, missing arguments, JSON errors,
//! data files, limits, and the options that mean one thing everywhere.

mod common;

use std::fs;
use std::path::Path;

use common::{grundy, one_line, p3_table};

#[test]
fn huge_specs_are_refused_before_anything_is_built() {
    for spec in [
        "path:99999999999",
        "star:99999999999",
        "star:100000000",
        "circular:99999999999,2",
        "nim:65",
    ] {
        one_line(&["sg", spec, "1"], 2, "at most");
        one_line(&["info", spec], 2, "at most");
    }
    one_line(&["info", "complex:0-99999999999"], 2, "out of range");
}

/// A CNF whose game comment was edited to a huge spec: the same refusal, from `decode`.
#[test]
fn decode_refuses_an_edited_game_comment() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("p3.cnf");
    grundy()
        .args([
            "synth",
            "path:3",
            "--max",
            "3",
            "--length",
            "3",
            "--export-cnf",
        ])
        .arg(&cnf)
        .assert()
        .success();
    let text = fs::read_to_string(&cnf).unwrap();
    let edited = text.replace("grundy game path:3", "grundy game path:99999999999");
    assert_ne!(text, edited);
    fs::write(&cnf, edited).unwrap();
    let model = dir.path().join("model");
    fs::write(&model, "s UNSATISFIABLE\n").unwrap();
    let cnf = cnf.to_str().unwrap();
    let model = model.to_str().unwrap();
    one_line(&["decode", "--cnf", cnf, "--model", model], 2, "too large");
}

#[test]
fn the_largest_games_set_up_at_once() {
    let out = grundy()
        .args(["info", "nim:64", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["twin_classes"][0].as_array().unwrap().len(), 64);
    assert_eq!(v["automorphism_group_complete"], true);
    let out = grundy()
        .args(["table", "nim:64", "--max", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 2, "a header and the one position");
    assert!(text.lines().nth(1).unwrap().split('\t').all(|c| c == "0"));
    for spec in ["star:63", "path:64", "circular:64,3"] {
        grundy().args(["info", spec]).assert().success();
    }
    // Too many arrangements of interchangeable classes: the group is not enumerated, the
    // game still plays, and orbits are refused with the reason.
    let edges = "complex:0-1,2-3,4-5,6-7,8-9,10-11,12-13,14-15,16-17,18-19";
    let out = grundy().args(["info", edges]).output().unwrap();
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("not enumerated"));
    grundy()
        .args(["sg", edges, "1,2,3,4,5,6,7,8,9,10,1,2,3,4,5,6,7,8,9,10"])
        .assert()
        .success()
        .stdout("0\n");
    one_line(
        &["table", edges, "--max", "2", "--orbits"],
        2,
        "drop --orbits",
    );
}

#[test]
fn missing_arguments_are_named() {
    one_line(
        &["table", "path:3"],
        2,
        "missing required argument: --max <D>",
    );
    one_line(&["sg", "path:3"], 2, "needs a position");
    one_line(&["verify", "path:3", "--max", "3"], 2, "--program");
    one_line(&["decode"], 2, "--cnf <FILE>, --model <MODEL>");
    // No arguments at all: the help, on stdout.
    let out = grundy().output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(
        help.contains("Usage: grundy") && help.contains("circular:N,K"),
        "{help}"
    );
    assert!(help.contains("Exit codes"), "{help}");
}

#[test]
fn json_errors_are_one_object_on_stdout() {
    for (args, kind, code) in [
        (&["sg", "pathh:3", "1", "--json"][..], "bad_input", 2),
        (&["sg", "path:3", "--json"], "bad_input", 2),
        (&["info", "nim:65", "--json"], "bad_input", 2),
        (
            &["synth", "path:3", "--max", "40", "--width", "4", "--json"],
            "bad_input",
            2,
        ),
        (
            &[
                "verify",
                "path:3",
                "--max",
                "9",
                "--program",
                "Push(0)",
                "--json",
                "--mem-limit",
                "0.0000001",
            ],
            "resource",
            2,
        ),
    ] {
        let out = grundy().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().count(), 1, "{args:?}: {text}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["kind"], kind, "{args:?}: {v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    }
    // A counterexample is an answer: one object (the check), exit 1.
    let out = grundy()
        .args([
            "verify",
            "path:3",
            "--max",
            "4",
            "--program",
            "Push(0)",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(v["check"]["counterexample"]
        .as_str()
        .unwrap()
        .contains("wanted"));
}

#[test]
fn options_mean_one_thing_everywhere() {
    // --threads 0 is every core, in every command.
    grundy()
        .args(["sg", "path:3", "3,0,3", "--threads", "0"])
        .assert()
        .success()
        .stdout("0\n");
    grundy()
        .args(["table", "path:3", "--max", "3", "--threads", "0"])
        .assert()
        .success();
    grundy()
        .args([
            "synth",
            "path:3",
            "--max",
            "4",
            "--threads",
            "0",
            "--mem-limit",
            "1",
        ])
        .assert()
        .success();
    // verify names what it accepts, not the engines it refuses.
    let err = one_line(
        &[
            "verify",
            "path:3",
            "--max",
            "3",
            "--program",
            "Push(0)",
            "--engine",
            "table",
        ],
        2,
        "not `table`",
    );
    assert!(!err.contains("known: naive, lv, table"), "{err}");
    one_line(
        &[
            "verify",
            "path:3",
            "--max",
            "3",
            "--program",
            "Push(0)",
            "--engine",
            "cutt",
        ],
        2,
        "unknown search engine",
    );
}

#[test]
fn the_solver_choices_are_described() {
    let out = grundy().args(["synth", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    for words in [
        "read-once search",
        "CNF solved by varisat",
        "z3",
        "distinct output vector",
        "exactly 1 elsewhere",
    ] {
        assert!(help.contains(words), "{words}: {help}");
    }
}

#[test]
fn games_lists_every_spec_with_a_working_example() {
    let out = grundy().args(["games", "--json"]).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let games = v["games"].as_array().unwrap();
    assert!(games.len() >= 11);
    for g in games {
        let example = g["example"].as_str().unwrap();
        if example.starts_with("complex-file:") {
            continue;
        }
        grundy().args(["info", example]).assert().success();
    }
}

#[test]
fn verify_checks_a_data_file() {
    let dir = tempfile::tempdir().unwrap();
    let table = p3_table(dir.path(), 6);
    let table = table.to_str().unwrap();
    let p3 = "Push(0) Push(2) BooleanEq Push(1) RightShift BooleanNot";
    grundy()
        .args([
            "verify",
            "--data",
            table,
            "--target",
            "indicator",
            "--program",
            p3,
        ])
        .assert()
        .success()
        .stdout(predicates::str::contains("holds on all 216 points"));
    let out = grundy()
        .args([
            "verify",
            "--data",
            table,
            "--program",
            "Push(0) Push(2) Xor",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("counterexample: (0,1,0) (SG 1)"), "{text}");
}

#[test]
fn conflicting_data_rows_are_refused_naming_both_lines() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("d.tsv");
    fs::write(&data, "x0\tx1\tsg\n0\t0\t0\n0\t1\t1\n0\t0\t2\n").unwrap();
    let err = one_line(&["synth", "--data", data.to_str().unwrap()], 2, "line 4");
    assert!(err.contains("line 2 gave it 0"), "{err}");
}

#[test]
fn oversized_exports_and_stray_lengths_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("x.cnf");
    let cnf = cnf.to_str().unwrap();
    let err = one_line(
        &[
            "synth",
            "path:3",
            "--max",
            "4",
            "--export-cnf",
            cnf,
            "--length",
            "500",
        ],
        2,
        "--force",
    );
    assert!(err.contains("GiB"), "{err}");
    assert!(!Path::new(cnf).exists());
    one_line(
        &["synth", "path:3", "--max", "4", "--length", "5"],
        2,
        "--export-smt or --export-cubes",
    );
    // Cubes split SAT instances; the other backends have none.
    one_line(
        &[
            "synth", "path:3", "--max", "4", "--solver", "enum", "--cubes",
        ],
        2,
        "--solver sat or auto",
    );
    // A cube export past the limit leaves no file behind either.
    let cubes = dir.path().join("cubes");
    one_line(
        &[
            "synth",
            "path:3",
            "--max",
            "4",
            "--export-cubes",
            cubes.to_str().unwrap(),
            "--length",
            "500",
        ],
        2,
        "--force",
    );
    assert!(!cubes.join("len500.icnf").exists() && !cubes.join("len500.cubes").exists());
}

#[test]
fn auto_says_which_engine_and_why() {
    let out = grundy()
        .args(["sg", "path:3", "162,162,162", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["nimber"].as_u64(), v["engine"].as_str()),
        (Some(486), Some("table"))
    );
    assert!(v["engine_reason"].as_str().unwrap().contains("searching ~"));
    one_line(
        &["sg", "path:3", "300,300,300", "--mem-limit", "0.01"],
        2,
        "raise --mem-limit",
    );
}

#[test]
fn numbers_past_their_range_are_refused() {
    for t in ["nan", "inf", "-1", "1e30"] {
        one_line(
            &["synth", "path:3", "--max", "4", &format!("--timeout={t}")],
            2,
            "number of seconds",
        );
    }
    one_line(&["sg", "path:3", "5000000000,1,1"], 2, "too many");
    // Too large to tabulate, and a search would not end: refused, not run for ever.
    one_line(
        &["sg", "path:3", "4294967295,4294967295,4294967295"],
        2,
        "--engine naive",
    );
    one_line(&["table", "path:3", "--max", "99999999999"], 2, "past 2^32");
    one_line(
        &["table", "path:3", "--max", "4000000000"],
        2,
        "too many positions",
    );
    one_line(
        &["synth", "path:3", "--max", "4", "--width", "65"],
        2,
        "between 1 and 64",
    );
}

#[test]
fn isolated_vertices_are_named() {
    let out = grundy().args(["info", "complex:0-1,1-9"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("isolated vertices (no face joins them to another: each is a plain nim heap): 2 3 4 5 6 7 8"),
        "{text}"
    );
    let out = grundy()
        .args(["synth", "complex:0-1,2", "--max", "4"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("x2 lies in no face with another vertex"),
        "{text}"
    );
}

#[test]
fn sizes_that_would_exhaust_memory_or_time_are_refused() {
    // --moves values every successor: four billion of them are refused, not allocated.
    one_line(
        &["sg", "nim:1", "4000000000", "--moves"],
        2,
        "has 4000000000 moves; a listing of the moves",
    );
    // A lone pile is its own value: auto does not tabulate ten million positions for it.
    grundy()
        .args(["sg", "nim:1", "10000000"])
        .assert()
        .success()
        .stdout("10000000\n");
    // A simplex on 20 vertices has a million faces; its maximal face is found at once.
    let simplex = format!(
        "complex:{}",
        (0..20).map(|v| v.to_string()).collect::<Vec<_>>().join("-")
    );
    let out = grundy()
        .args(["info", &simplex, "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["maximal_faces"].as_array().unwrap().len(), 1);
    assert_eq!(v["faces"].as_array().unwrap().len(), (1 << 20) - 1);
}

#[test]
fn verify_on_data_takes_no_engine() {
    let dir = tempfile::tempdir().unwrap();
    let table = p3_table(dir.path(), 3);
    one_line(
        &[
            "verify",
            "--data",
            table.to_str().unwrap(),
            "--program",
            "Push(0)",
            "--engine",
            "lv",
        ],
        2,
        "with --data the file holds them",
    );
}

#[cfg(unix)]
#[test]
fn arguments_that_are_not_utf8_get_one_line() {
    use std::os::unix::ffi::OsStrExt;
    let bad = std::ffi::OsStr::from_bytes(b"\xff");
    for args in [vec![bad], vec!["sg".as_ref(), bad, "1".as_ref()]] {
        let out = grundy().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// The second audit's small inconsistencies: an empty field is refused, not skipped; a
/// position that does not parse says why; a theorem answers within any time limit, 0
/// included; messages name the real limits and flags; a constant the width cannot hold is
/// refused by `verify` as by `synth`.
#[test]
fn small_inconsistencies_are_gone() {
    one_line(&["sg", "path:3", "1,,3,4"], 2, "empty entry");
    one_line(&["sg", "subtraction:1,2,3", "5,,6"], 2, "empty entry");
    one_line(&["sg", "path:3", "1,2,3,"], 2, "empty entry");
    let err = one_line(&["sg", "subtraction:1,2,3", ""], 2, "the position is empty");
    assert!(!err.contains("--heaps"), "{err}");
    // Spaces and commas still mix, as typed.
    let out = grundy()
        .args(["sg", "path:3", "3,", "2,", "3"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "8");
    for (game, position) in [("nim:3", "1,2,3"), ("cram:4x8", "")] {
        let mut args = vec!["sg", game, "--timeout", "0", "--json"];
        if !position.is_empty() {
            args.insert(2, position);
        }
        let out = grundy().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["engine"], "theorem", "{v}");
    }
    let err = one_line(&["sg", "cram:1x33"], 2, "32 columns");
    assert!(!err.contains("64 cells"), "{err}");
    grundy()
        .args(["sg", "nim:2", "3,4", "--timeout", "1000000000"])
        .assert()
        .success();
    one_line(
        &[
            "verify",
            "path:3",
            "--max",
            "3",
            "--program",
            "Const(999) Push(0) Plus",
        ],
        2,
        "constant 999 does not fit in 8 bits",
    );
}
