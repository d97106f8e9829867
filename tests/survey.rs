//! End-to-end tests of `grundy survey`: rows, resuming an interrupted survey, filters, reports,
//! and the committed report of three-element subtraction sets.

mod common;
use common::{grundy, json_lines, one_line};

fn survey(extra: &[&str]) -> String {
    let out = grundy()
        .args([
            "survey",
            "subtraction",
            "--size",
            "3",
            "--max-element",
            "10",
        ])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A survey cut off mid-line goes on where it stopped and ends with the same file as an
/// uninterrupted one; another survey's file is refused.
#[test]
fn an_interrupted_survey_resumes_to_the_same_rows() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.jsonl");
    let cut = dir.path().join("cut.jsonl");
    let rows = survey(&["--out", full.to_str().unwrap()]);
    assert_eq!(rows.lines().count(), 120);
    let text = std::fs::read_to_string(&full).unwrap();
    assert_eq!(text.lines().count(), 121, "a header and a row per game");
    // Interrupted in the middle of the 40th row.
    let at = text.match_indices('\n').nth(40).unwrap().0 - 10;
    std::fs::write(&cut, &text[..at]).unwrap();
    let again = survey(&["--out", cut.to_str().unwrap()]);
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), text);
    let mut sorted: Vec<&str> = again.lines().collect();
    sorted.sort();
    let mut want: Vec<&str> = rows.lines().collect();
    want.sort();
    assert_eq!(sorted, want, "every row printed once, resumed or new");
    let other = [
        "survey",
        "subtraction",
        "--size",
        "2",
        "--max-element",
        "10",
        "--out",
        cut.to_str().unwrap(),
    ];
    one_line(&other, 2, "another survey");
    std::fs::write(&cut, "{\"game\": 1}\n").unwrap();
    one_line(&other, 2, "not a survey header");
    // With --json the refusal is also one typed object on standard output.
    let out = grundy().args(other).arg("--json").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let obj: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(obj["kind"], "bad_input", "{obj}");
}

/// Filters select rows; a report says what it shows; bad filters and families are one line.
#[test]
fn filters_and_reports() {
    let rows = survey(&["--where", "preperiod > 0 and period >= 10"]);
    assert!(!rows.is_empty());
    for line in rows.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["preperiod"].as_u64().unwrap() > 0, "{line}");
        assert!(v["period"].as_u64().unwrap() >= 10, "{line}");
    }
    let dir = tempfile::tempdir().unwrap();
    let md = dir.path().join("r.md");
    let tex = dir.path().join("r.tex");
    survey(&["--period-min", "20", "--report", md.to_str().unwrap()]);
    survey(&["--report", tex.to_str().unwrap()]);
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.contains("120 games"), "{md}");
    assert!(md.contains("with period >= 20"), "{md}");
    assert!(std::fs::read_to_string(&tex)
        .unwrap()
        .contains("\\begin{tabular}"));
    one_line(
        &[
            "survey",
            "subtraction",
            "--size",
            "3",
            "--max-element",
            "10",
            "--where",
            "size > 2",
        ],
        2,
        "unknown field",
    );
    one_line(
        &["survey", "octal", "--digits", "2", "--size", "3"],
        2,
        "does not apply",
    );
    one_line(
        &[
            "survey",
            "subtraction",
            "--size",
            "9",
            "--max-element",
            "200",
        ],
        2,
        "at most",
    );
}

/// The report `survey ARGS --report` writes today, and the committed one `doc` beside it.
fn fresh_and_committed(args: &[&str], doc: &str) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.md");
    let out = grundy()
        .arg("survey")
        .args(args)
        .arg("--report")
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let fresh = std::fs::read_to_string(&path).unwrap();
    let committed =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(doc))
            .unwrap();
    (fresh, committed)
}

/// docs/survey-subtraction-3.md is what the survey writes today, and its facts hold.
#[test]
fn the_committed_report_is_current() {
    let (fresh, committed) = fresh_and_committed(
        &["subtraction", "--size", "3", "--max-element", "20"],
        "docs/survey-subtraction-3.md",
    );
    assert_eq!(
        fresh, committed,
        "regenerate docs/survey-subtraction-3.md (see docs/heap-games.md)"
    );
    assert!(fresh.contains("1140 periods proved"));
    assert!(!fresh.contains("FAILS"));
    assert_eq!(
        fresh.matches("| holds |").count(),
        3,
        "{{1..k}}, runs, {{1,3,4}}"
    );
}

/// docs/survey-hex-2.md is what the survey of two-digit hex codes writes today: Kayles and
/// Dawson's Kayles among them as octal codes, and the arithmetic periods the slices' check
/// proves.
#[test]
fn the_committed_hex_report_is_current() {
    let (fresh, committed) = fresh_and_committed(
        &["hex", "--digits", "2", "--max-heap", "300"],
        "docs/survey-hex-2.md",
    );
    assert_eq!(
        fresh, committed,
        "regenerate docs/survey-hex-2.md (see docs/heap-games.md)"
    );
    assert!(fresh.contains("(40 of them arithmetic, with a saltus)"));
    assert!(!fresh.contains("FAILS"));
    assert_eq!(fresh.matches("| holds |").count(), 2, "0.77 and 0.07");
}

/// Hex codes of one digit: 0.8 and 0.C grow arithmetically and are proved by the slices'
/// check, with their saltus in the rows and the report.
#[test]
fn hex_surveys_prove_arithmetic_periods() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("hex.md");
    let rows = json_lines(&[
        "survey",
        "hex",
        "--digits",
        "1",
        "--max-heap",
        "200",
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(rows.len(), 15);
    for (game, period) in [("hex:0.8", 3), ("hex:0.C", 2)] {
        let row = rows.iter().find(|r| r["game"] == game).unwrap();
        assert_eq!(
            (
                &row["status"],
                &row["criterion"],
                &row["saltus"],
                &row["period"]
            ),
            (
                &"proved".into(),
                &"slices".into(),
                &1.into(),
                &period.into()
            ),
            "{row}"
        );
    }
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(text.contains("of them arithmetic"), "{text}");
    assert!(text.contains("| saltus |"), "{text}");
}

/// Standard output closed early (`| head -1`) does not cut the survey short: `--out` is
/// completed, and standard error says the rows shown stopped (issue 40, item 9; the file used
/// to stop at the first chunk of rows, with exit 0).
#[test]
fn a_closed_pipe_still_completes_the_survey_file() {
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "survey",
            "subtraction",
            "--size",
            "3",
            "--max-element",
            "10",
        ])
        .arg("--out")
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 121, "a header and a row per game");
    assert!(err.contains("rows shown are incomplete"), "{err}");
    assert!(err.contains("holds all 120 games' rows"), "{err}");
}
