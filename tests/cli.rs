//! End-to-end tests of the `grundy` binary: outputs, files and error handling.

use predicates::prelude::*;

mod common;
use common::{grundy, json_lines, json_ok};

/// Runs and checks the failure is one line on stderr with exit code 2, and nothing on stdout.
fn fails_with(args: &[&str], needle: &str) {
    let out = grundy().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}");
}

#[test]
fn sg_prints_the_nimber() {
    grundy()
        .args(["sg", "path:3", "3,0,3"])
        .assert()
        .success()
        .stdout("0\n");
    grundy()
        .args(["sg", "shriek", "2", "3", "4"])
        .assert()
        .success()
        .stdout(format!("{}\n", (2 + 3) ^ 4));
    grundy()
        .args(["sg", "nim:3", "9,8,5", "--engine", "cut_cEA", "--bare"])
        .assert()
        .success()
        .stdout("4\n");
}

#[test]
fn every_engine_agrees_on_the_command_line() {
    for engine in [
        "auto", "table", "naive", "lv", "def", "scut", "cut", "cut_R", "cut_cE", "cut_EA",
        "scut_RA",
    ] {
        grundy()
            .args(["sg", "y-graph", "2,3,1,2,2", "--engine", engine])
            .assert()
            .success()
            .stdout("10\n");
    }
}

#[test]
fn sg_json_has_the_documented_fields() {
    let out = grundy()
        .args([
            "sg", "star:3", "0,1,2,3", "--json", "--engine", "cut", "--moves", "--bare",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["game"].as_str(), v["position"].clone()),
        (Some("star:3"), serde_json::json!([0, 1, 2, 3]))
    );
    // The centre is empty: the leaves are nim heaps 1, 2, 3, whose xor is 0. Bare, the cut
    // engine searches for it (69 nodes), looking each node up in its table.
    assert_eq!(
        (v["nodes"].as_u64(), v["tt_lookups"].as_u64()),
        (Some(69), Some(69)),
        "{v}"
    );
    assert_eq!(
        v["engine_reason"],
        serde_json::Value::Null,
        "a named engine needs no reason"
    );
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(v["nimber"], 0);
    assert_eq!(v["engine"], "cut");
    assert_eq!(v["winning_moves"], serde_json::json!([]));
}

/// A position a theorem values (a lone pile, piles no face joins, equal piles on a circuit, a
/// Chomp L) is answered by `auto` without a search, naming the theorem, and agrees with the
/// bare search.
#[test]
fn theorems_answer_without_a_search() {
    for (game, p, want) in [
        ("path:3", "3,0,0", 3),
        ("path:3", "3,0,5", 6),
        ("complex:0-1,1-2,0-2", "2,2,2", 0),
        ("chomp:4x5", "4,1,1,0,0", 3 ^ 2),
    ] {
        let v = json_ok(&["sg", game, p]);
        assert_eq!(
            (
                v["engine"].as_str(),
                v["nodes"].as_u64(),
                v["nimber"].as_u64()
            ),
            (Some("theorem"), Some(0), Some(want)),
            "{v}"
        );
        let bare = json_ok(&["sg", game, p, "--bare", "--engine", "naive"]);
        assert_eq!(bare["nimber"].as_u64(), Some(want), "{game} {p} bare");
        assert!(bare["nodes"].as_u64().unwrap() > 1, "{bare}");
    }
}

#[test]
fn winning_moves_lead_to_zero_positions() {
    grundy()
        .args(["sg", "path:3", "4,1,2", "--moves"])
        .assert()
        .success()
        .stdout(predicate::str::contains("-> 2,0,2"));
}

#[test]
fn stats_report_nodes_and_lookups() {
    grundy()
        .args([
            "sg", "nim:3", "5,4,3", "--engine", "def", "--tt", "0", "--bare", "--stats",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("nodes: ").and(predicate::str::contains("tt_lookups: 0")));
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    fails_with(&["sg", "path:3", "1,2"], "has 3 vertices");
    fails_with(&["sg", "path:3", "1,-2,3"], "negative");
    fails_with(&["sg", "path:3", "1,x,3"], "not a whole number");
    fails_with(&["sg", "pathh:3", "1,2,3"], "unknown game");
    fails_with(&["sg", "complex:0-9,1", "1,2"], "has 10 vertices");
    fails_with(&["sg", "complex:0-1,,2", "1,2,3"], "empty face");
    fails_with(&["sg", "circular:3,5", "1,2,3"], "K <= N");
    fails_with(
        &["sg", "complex-file:/nonexistent.json", "1"],
        "nonexistent.json",
    );
    fails_with(
        &["sg", "path:3", "1,2,3", "--engine", "cutt"],
        "unknown engine",
    );
    fails_with(
        &["sg", "path:3", "1,2,3", "--engine", "def_E"],
        "def takes no extensions",
    );
    fails_with(&["sg", "path:3"], "needs a position");
    fails_with(&["table", "path:3", "--max", "0"], "at least 1");
    fails_with(
        &[
            "table",
            "projective-plane",
            "--max",
            "40",
            "--mem-limit",
            "0.01",
        ],
        "GiB",
    );
}

#[test]
fn a_malformed_complex_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.json");
    std::fs::write(&path, "{\"vertices\": 3, \"faces\": [[0, 1], [2, 7]]}").unwrap();
    fails_with(
        &["info", &format!("complex-file:{}", path.display())],
        "out of range",
    );
    std::fs::write(&path, "{\"vertices\": 3").unwrap();
    fails_with(
        &["info", &format!("complex-file:{}", path.display())],
        "not a complex file",
    );
}

#[test]
fn table_writes_positions_and_zeros() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p3.tsv");
    grundy()
        .args(["table", "path:3", "--max", "4", "--out"])
        .arg(&out)
        .assert()
        .success();
    let table = std::fs::read_to_string(&out).unwrap();
    let zeros = std::fs::read_to_string(dir.path().join("p3.zeros.tsv")).unwrap();
    assert_eq!(table.lines().count(), 1 + 64);
    assert_eq!(table.lines().next(), Some("x0\tx1\tx2\tsg"));
    let zero_rows: Vec<&str> = zeros.lines().skip(1).collect();
    assert_eq!(
        zero_rows,
        ["0\t0\t0\t0", "1\t0\t1\t0", "2\t0\t2\t0", "3\t0\t3\t0"]
    );
    // Every row's value matches `sg`.
    for line in table.lines().skip(1).step_by(9) {
        let cols: Vec<&str> = line.split('\t').collect();
        let pos = cols[..3].join(",");
        grundy()
            .args(["sg", "path:3", &pos, "--engine", "naive"])
            .assert()
            .stdout(format!("{}\n", cols[3]));
    }
}

#[test]
fn table_orbits_keep_one_member_per_orbit() {
    let rows = json_lines(&[
        "table", "star:3", "--max", "3", "--orbits", "--format", "jsonl",
    ]);
    // Centre 0..3 times multisets of 3 leaves from {0,1,2}: 3 * C(5,3) = 30 orbits.
    assert_eq!(rows.len(), 30);
    for r in &rows {
        let p: Vec<u64> = serde_json::from_value(r["position"].clone()).unwrap();
        assert!(p[1] <= p[2] && p[2] <= p[3], "{p:?} is the least member");
    }
}

#[test]
fn table_with_a_search_engine_matches_tabulation() {
    let run = |engine: &str| {
        let out = grundy()
            .args([
                "table",
                "circular:4,2",
                "--max",
                "3",
                "--format",
                "csv",
                "--engine",
                engine,
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        out.stdout
    };
    assert_eq!(run("table"), run("cut_cE"));
    assert_eq!(run("table"), run("naive"));
}

#[test]
fn a_refused_box_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big.tsv");
    grundy()
        .args([
            "table",
            "projective-plane",
            "--max",
            "60",
            "--mem-limit",
            "1",
            "--out",
        ])
        .arg(&out)
        .assert()
        .code(2);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn info_describes_the_game() {
    grundy()
        .args(["info", "projective-plane"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("vertices: 6")
                .and(predicate::str::contains("maximal faces (10)"))
                .and(predicate::str::contains("automorphism group order: 60")),
        );
    let out = grundy()
        .args(["info", "star:12", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["automorphism_group_order"], "479001600");
    assert_eq!(v["circuits"].as_array().unwrap().len(), 66);
}

#[test]
fn a_box_too_big_for_a_search_engine_is_refused() {
    fails_with(
        &["table", "star:12", "--max", "9", "--engine", "naive"],
        "GiB",
    );
    fails_with(&["table", "star:12", "--max", "9"], "limit");
}
