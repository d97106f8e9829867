//! docs/literature.md, row by row: a row whose status is "theorem (all positions)" is proved by
//! `grundy prove`, one "theorem (heaps below 2^B)" by `grundy prove --bound B` (each agrees with
//! a search engine on a box too, as a check of the prover); a row
//! "holds on the box [0,D)^n" is checked by `grundy verify` on that box. The table is the one
//! list: these tests read it, so the doc cannot claim what is not tested. Rows whose programs
//! read at most four vertices run by default (about a second each); `GRUNDY_FULL=1` runs them
//! all.

mod common;
#[path = "common/literature.rs"]
mod literature;

use common::grundy;
use literature::{Row, Status};

/// Rows on more vertices than this wait for `GRUNDY_FULL` (their proofs take 1-3 s each).
const QUICK_VARIABLES: usize = 4;

fn table() -> Vec<Row> {
    literature::rows(&literature::text()).expect("docs/literature.md's table parses")
}

fn args(row: &Row) -> Vec<&str> {
    row.args.iter().map(String::as_str).collect()
}

/// A box a search engine values in well under a second for the row's game.
fn cross_check_box(row: &Row) -> u32 {
    match row.variables() {
        0..=3 => 8,
        4..=5 => 6,
        6 => 5,
        _ => 4,
    }
}

/// Runs `grundy verify` on the row on [0,max)^n and says whether it held.
fn verify(row: &Row, max: u32) {
    let max = max.to_string();
    let mut cmd = grundy();
    cmd.arg("verify")
        .args(args(row))
        .args(["--max", &max, "--program", &row.program]);
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}: the program fails on [0,{max})^n: {}{}",
        row.case,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn check(row: &Row) {
    match row.status {
        Status::Theorem => prove(row, None),
        Status::Bounded(b) => prove(row, Some(b)),
        Status::Box(max) => verify(row, max),
    }
}

/// Runs `grundy prove` on the row (over bit-vectors for heaps below 2^B when `bound` is B) and
/// checks that it proves the row in the scope the table claims, then cross-checks on a box.
fn prove(row: &Row, bound: Option<u32>) {
    let b = bound.map(|b| b.to_string());
    let mut a = vec!["prove"];
    a.extend(args(row));
    a.extend(["--program", &row.program]);
    if let Some(b) = &b {
        a.extend(["--bound", b]);
    }
    let out = grundy().args(&a).arg("--json").output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}: prove printed no JSON", row.case));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}: the doc says theorem, prove says {v}",
        row.case
    );
    assert_eq!(v["status"], "proved", "{}", row.case);
    let scope = match bound {
        None => "all positions".to_string(),
        Some(b) => format!("heaps below 2^{b}"),
    };
    assert_eq!(v["scope"], scope.as_str(), "{}", row.case);
    assert_eq!(v["orbits"], row.has("--orbits"), "{}", row.case);
    verify(row, cross_check_box(row));
}

fn run(quick: bool) {
    let rows: Vec<Row> = table()
        .into_iter()
        .filter(|r| (r.variables() <= QUICK_VARIABLES) == quick)
        .collect();
    assert!(!rows.is_empty());
    for row in &rows {
        check(row);
    }
}

#[test]
fn the_rows_on_few_vertices_hold_as_the_table_says() {
    run(true);
}

#[test]
fn the_rows_on_five_to_seven_vertices_hold_as_the_table_says() {
    if std::env::var_os("GRUNDY_FULL").is_none() {
        return;
    }
    run(false);
}

/// Every case the literature table promises is a row, and the rows are well formed.
#[test]
fn the_table_has_every_literature_case() {
    let rows = table();
    let cases: Vec<&str> = rows.iter().map(|r| r.case.as_str()).collect();
    let mut wanted: Vec<String> = ["nim, 2 heaps", "nim, 3 heaps", "nim, 3 heaps, SG"]
        .map(String::from)
        .to_vec();
    for n in 2..=7 {
        wanted.push(format!("CN({n},1)"));
        wanted.push(format!("CN({n},{n})"));
        if n >= 3 {
            wanted.push(format!("CN({n},{})", n - 1));
        }
    }
    for c in [
        "CN(4,2)",
        "CN(5,2)",
        "CN(5,3)",
        "CN(6,3)",
        "P3",
        "P4",
        "star, 3 leaves",
        "shriek",
        "shriek, SG",
        "subtraction {1,2,3}, 2 heaps",
    ] {
        wanted.push(c.into());
    }
    for w in &wanted {
        assert!(cases.contains(&w.as_str()), "no row for {w}");
    }
    let mut sorted = cases.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), cases.len(), "a case appears twice");
    for r in &rows {
        assert!(r.variables() > 0, "{}: the program reads no vertex", r.case);
        assert!(!r.statement.is_empty(), "{}: no statement", r.case);
    }
}

/// The table's parser refuses what it does not understand instead of skipping it.
#[test]
fn a_malformed_row_is_an_error() {
    let head =
        "| case | game | program | status | statement | source |\n|---|---|---|---|---|---|\n";
    let ok = format!("{head}| P3 | `path:3` | `Push(0)` | holds on the box [0,4)^n | x | y |\n");
    let rows = literature::rows(&ok).unwrap();
    assert_eq!(rows[0].status, Status::Box(4));
    let bounded = ok.replace("holds on the box [0,4)^n", "theorem (heaps below 2^3)");
    assert_eq!(
        literature::rows(&bounded).unwrap()[0].status,
        Status::Bounded(3)
    );
    for bad in [
        "| P3 | `path:3` | `Push(0)` | proved | x | y |",
        "| P3 | path:3 | `Push(0)` | theorem (all positions) | x | y |",
        "| P3 | `path:3` | `Push(0)` | theorem (all positions) | x |",
        "| P3 | `path:3` | `Push(0)` | theorem (heaps below 2^x) | x | y |",
    ] {
        assert!(
            literature::rows(&format!("{head}{bad}\n")).is_err(),
            "{bad}"
        );
    }
}

/// The commands docs/literature.md shows run and succeed.
#[test]
fn the_docs_commands_run() {
    let text = literature::text();
    let mut in_sh = false;
    let mut n = 0;
    for line in text.lines() {
        let t = line.trim();
        if let Some(lang) = t.strip_prefix("```") {
            in_sh = !in_sh && lang == "sh";
            continue;
        }
        let Some(rest) = t.strip_prefix("grundy ").filter(|_| in_sh) else {
            continue;
        };
        let words = shell_words(rest);
        let out = grundy().args(&words).output().unwrap();
        assert!(
            out.status.success(),
            "`{t}`: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        n += 1;
    }
    assert!(n >= 2, "the doc shows {n} commands");
}

/// Words of a command line with double-quoted arguments (all the doc uses).
fn shell_words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}
