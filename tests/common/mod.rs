//! Helpers shared by the end-to-end tests.

// Each test crate uses some of them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;

#[cfg(feature = "mpi")]
pub mod ranks;

/// Hang guard: a regression to exponential work fails the test instead of stalling the suite.
const HANG: Duration = Duration::from_secs(120);

/// The binary under test, with the hang guard.
pub fn grundy() -> Command {
    let mut c = Command::cargo_bin("grundy").unwrap();
    c.timeout(HANG);
    c
}

/// Runs `args` and checks: exit `code`, one line on stderr containing `needle`, no panic.
/// Returns the line.
pub fn one_line(args: &[&str], code: i32, needle: &str) -> String {
    let out = grundy().args(args).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    err
}

/// Runs `args` with `--json`, checks it exited with `code`, and returns the one object it
/// printed (an answer, or an error's `{"error", "kind"}`).
pub fn json_with_code(args: &[&str], code: i32) -> serde_json::Value {
    let out = grundy().args(args).arg("--json").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs `args` with `--json`, checks it succeeded, and returns the object it printed.
pub fn json_ok(args: &[&str]) -> serde_json::Value {
    let out = grundy().args(args).arg("--json").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs `args`, checks it succeeded, and returns the JSON lines it printed (table rows of
/// `--format jsonl`, survey rows).
pub fn json_lines(args: &[&str]) -> Vec<serde_json::Value> {
    let out = grundy().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// P3's table on [0,max)^3 written to `dir/p3.tsv`, as data for synth and verify.
pub fn p3_table(dir: &Path, max: usize) -> PathBuf {
    let table = dir.join("p3.tsv");
    grundy()
        .args(["table", "path:3", "--max", &max.to_string(), "--out"])
        .arg(&table)
        .assert()
        .success();
    table
}

/// The program (a `--json` result's `program`) verified by an independent `grundy verify` run
/// on the box [0,max)^n, with `extra` options.
pub fn verifies(game: &str, program: &serde_json::Value, max: &str, extra: &[&str]) {
    let names: Vec<String> = serde_json::from_value(program.clone()).unwrap();
    grundy()
        .args(["verify", game, "--max", max, "--program", &names.join(" ")])
        .args(extra)
        .assert()
        .success();
}
