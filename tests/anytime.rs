//! End-to-end tests of anytime synthesis: upper bounds found before the exact search, runs
//! stopped by the length limit or by Ctrl-C that still report what they established.

use std::process::{Command, Stdio};
use std::time::Duration;

mod common;
use common::{grundy, one_line, verifies};

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// CN(6,3) with orbits, the thesis's own example: zero positions are a+b = d+e and b+c = e+f up
/// to rotation. Decomposition finds two such conditions and their `Or` (15 instructions), long
/// before the exact search could reach that length.
#[test]
fn circular_6_3_with_orbits_is_decomposed() {
    let out = grundy()
        .args(["synth", "circular:6,3", "--orbits", "--max", "5"])
        // The timeout only widens decomposition's share (half of it) on a loaded machine.
        .args([
            "--upper",
            "decompose",
            "--max-len",
            "11",
            "--timeout",
            "120",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["status"], "shortest found", "{v}");
    assert_eq!(v["found_by"]["strategy"], "decomposition", "{v}");
    assert_eq!(
        v["found_by"]["conditions"].as_array().unwrap().len(),
        2,
        "{v}"
    );
    assert!(v["upper_bound"].as_u64().unwrap() <= 15, "{v}");
    // Lengths up to 11 are refuted (the dependency bound alone), 12 on are left open.
    assert_eq!(v["lower_bound"], 12, "{v}");
    assert_eq!(v["stopped"], "longest length to try reached", "{v}");
    verifies("circular:6,3", &v["program"], "6", &["--orbits"]);
}

/// A cover longer than the longest length to try is still reported, with the lengths between
/// left open; the exact search refutes every length up to the limit.
#[test]
fn a_long_cover_bounds_the_search_and_is_reported() {
    let game = "complex:0-1,1-2,2-0,2-3";
    // Plainly: the orbit criterion under the swap of 0 and 1 has a shorter cover.
    let args = ["synth", game, "--max", "5", "--max-len", "11", "--plain"];
    let out = grundy().args(args).arg("--json").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["status"], "shortest found", "{v}");
    assert_eq!(v["found_by"]["strategy"], "decomposition", "{v}");
    assert_eq!(v["lower_bound"], 12, "{v}");
    assert!(v["upper_bound"].as_u64().unwrap() > 12, "{v}");
    assert_eq!(v["minimal"], false, "{v}");
    assert_eq!(v["refutations"].as_array().unwrap().len(), 11, "{v}");
    // Verified independently on the box (covers this long rarely hold on larger ones).
    verifies(game, &v["program"], "5", &[]);
    // The text report states the open range.
    let out = grundy().args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("no program shorter than 12"), "{text}");
    assert!(
        text.contains("undecided (longest length to try reached)"),
        "{text}"
    );
    assert!(text.contains("found by:     decomposition"), "{text}");
}

/// Every length up to `--max-len` refuted and no program: a limit (exit 2, kind `resource`),
/// and the JSON still carries the bound it proved.
#[test]
fn an_exhausted_length_limit_reports_its_lower_bound() {
    let out = grundy()
        .args(["synth", "path:4", "--max", "4", "--max-len", "8"])
        // Plainly: under the flip, 7 instructions do.
        .args(["--upper", "none", "--plain", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v = json(&out);
    assert_eq!(v["kind"], "resource", "{v}");
    assert_eq!(v["lower_bound"], 9, "{v}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("raise --max-len"), "{err}");
}

/// Ctrl-C stops the search, which reports what it established (exit 0 with a program, 3
/// without) instead of dying.
#[test]
fn ctrl_c_reports_what_is_established() {
    let child = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(["synth", "path:5", "--max", "5", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(3));
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let v = json(&out);
    let code = out.status.code();
    match v["status"].as_str() {
        Some("undecided") => assert_eq!(code, Some(3), "{v}"),
        Some("shortest found") => assert_eq!(code, Some(0), "{v}"),
        _ => panic!("{v}"),
    }
    assert_eq!(v["stopped"], "interrupted", "{v}");
    // path:5 reads all five heaps: at least the dependency bound's lengths are refuted.
    assert!(v["lower_bound"].as_u64().unwrap() >= 9, "{v}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Ctrl-C again quits"), "{err}");
}

#[test]
fn quiet_runs_and_strategy_lists() {
    let out = grundy()
        .args([
            "synth",
            "circular:4,2",
            "--max",
            "5",
            "--quiet",
            "--upper",
            "none",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty());
    one_line(
        &["synth", "circular:4,2", "--max", "5", "--upper", "magic"],
        2,
        "unknown strategy `magic`",
    );
}

/// Zero positions x3 = min(x0, x1, x2), with instructions that cannot compare (no shifts,
/// division, products or sums): decomposition finds no cover in them, adds `Min` and `Lt`,
/// finds one, and says so; the program passes `verify` on the data.
#[test]
fn comparisons_are_added_when_the_asked_instructions_give_no_cover() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("min.tsv");
    let mut text = String::from("x0\tx1\tx2\tx3\tsg\n");
    for x in 0..6u64.pow(4) {
        let v = [x % 6, x / 6 % 6, x / 36 % 6, x / 216];
        let zero = v[3] == v[0].min(v[1]).min(v[2]);
        text += &format!(
            "{}\t{}\t{}\t{}\t{}\n",
            v[0],
            v[1],
            v[2],
            v[3],
            u8::from(!zero)
        );
    }
    std::fs::write(&path, text).unwrap();
    let data = path.to_str().unwrap();
    let ops = "-Plus,-Mul,-Div,-And,-Xor,-Not,-LeftShift,-RightShift,-BooleanEq";
    let args = [
        "synth",
        "--data",
        data,
        "--ops",
        ops,
        "--upper",
        "decompose",
        "--max-len",
        "8",
    ];
    let out = grundy().args(args).arg("--json").output().unwrap();
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{v}");
    // Length 7 is the dependency bound, which holds in any instruction set.
    assert!(
        ["shortest found", "minimal"].contains(&v["status"].as_str().unwrap()),
        "{v}"
    );
    let added: Vec<String> =
        serde_json::from_value(v["found_by"]["added_instructions"].clone()).unwrap();
    assert!(!added.is_empty(), "{v}");
    let program: Vec<String> = serde_json::from_value(v["program"].clone()).unwrap();
    for op in &added {
        assert!(["Min", "Lt"].contains(&op.as_str()), "{v}");
        assert!(program.contains(op), "{v}");
    }
    let verified = grundy()
        .args(["verify", "--data", data, "--program", &program.join(" ")])
        .output()
        .unwrap();
    assert!(verified.status.success(), "{verified:?}");
    // The text report names them too.
    let out = grundy().args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("added to the instructions"), "{text}");
}
