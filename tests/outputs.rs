//! Where answers go: standard output that fails or closes, and output files that are devices,
//! FIFOs or links, name one file twice, or are interrupted mid-write.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::Duration;

use common::{grundy, one_line, p3_table};

#[test]
fn a_full_disk_on_stdout_is_one_error_line() {
    for args in [
        &["sg", "path:3", "1,2,3"][..],
        &["info", "path:3"],
        &["games"],
        &["synth", "path:3", "--max", "4"],
        &["verify", "path:3", "--max", "4", "--program", "Push(0)"],
        &["table", "path:3", "--max", "4"],
    ] {
        let out = Process::new(env!("CARGO_BIN_EXE_grundy"))
            .args(args)
            .stdout(fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
    }
}

#[test]
fn a_closed_pipe_is_quiet() {
    for args in [
        &["table", "path:3", "--max", "40"][..],
        &["sg", "star:4", "3,1,2,3,4", "--moves"],
    ] {
        let mut child = Process::new(env!("CARGO_BIN_EXE_grundy"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(out.stderr.is_empty(), "{args:?}: {:?}", out.stderr);
    }
}

#[cfg(unix)]
#[test]
fn devices_fifos_and_links_are_written_through() {
    use std::os::unix::fs::{symlink, FileTypeExt};
    let dir = tempfile::tempdir().unwrap();
    // /dev/null stays a device (as root, renaming over it would have replaced it).
    grundy()
        .args(["table", "path:3", "--max", "3", "--out", "/dev/null"])
        .assert()
        .success();
    assert!(fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    assert!(
        !Path::new("/dev/null.zeros").exists(),
        "no zeros file beside a device"
    );

    // A FIFO is written through to its reader.
    let fifo = dir.path().join("fifo");
    assert!(Process::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    grundy()
        .args(["table", "path:3", "--max", "3", "--out"])
        .arg(&fifo)
        .assert()
        .success();
    let rows = reader.join().unwrap();
    assert_eq!(rows.lines().count(), 28, "a header and 27 positions");
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());

    // A link is followed: the file it names is replaced, the link stays.
    let real = dir.path().join("real.tsv");
    fs::write(&real, "old").unwrap();
    let link = dir.path().join("link.tsv");
    symlink(&real, &link).unwrap();
    grundy()
        .args(["table", "path:3", "--max", "3", "--out"])
        .arg(&link)
        .assert()
        .success();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read_to_string(&real).unwrap().lines().count(), 28);
}

#[test]
fn two_outputs_in_one_file_are_refused_before_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let same = dir.path().join("same.tsv");
    let same = same.to_str().unwrap();
    one_line(
        &[
            "table", "path:3", "--max", "4", "--out", same, "--zeros", same,
        ],
        2,
        "same file",
    );
    one_line(
        &[
            "synth",
            "path:3",
            "--max",
            "4",
            "--length",
            "3",
            "--export-cnf",
            same,
            "--export-smt",
            same,
        ],
        2,
        "same file",
    );
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
    let missing = dir.path().join("no/such/dir/t.tsv");
    one_line(
        &[
            "table",
            "path:3",
            "--max",
            "4",
            "--out",
            missing.to_str().unwrap(),
        ],
        2,
        "No such file",
    );
}

/// SIGTERM while the table is being written: the temporary file is removed, nothing is left,
/// and `--json` reports the interruption as its one object.
#[cfg(unix)]
#[test]
fn an_interrupted_table_leaves_no_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big.tsv");
    let child = Process::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "table",
            "projective-plane",
            "--max",
            "14",
            "--json",
            "--out",
        ])
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the temporary files exist, so the signal lands mid-run.
    let partial = || {
        fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                name.to_string_lossy().ends_with(".partial")
            })
            .count()
    };
    let mut waited = 0;
    while partial() < 2 && waited < 6000 {
        std::thread::sleep(Duration::from_millis(5));
        waited += 5;
    }
    assert_eq!(partial(), 2, "the table and its zeros are being written");
    let pid = child.id().to_string();
    assert!(Process::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(128 + 15), "SIGTERM");
    let said: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (&said["kind"], &said["signal"]),
        (&"interrupted".into(), &15.into())
    );
    let left: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// A closed pipe on standard output does not cost the zeros file its rows.
#[test]
fn a_closed_pipe_still_writes_the_zeros_file() {
    let dir = tempfile::tempdir().unwrap();
    let zeros = dir.path().join("z.tsv");
    let mut child = Process::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["table", "path:3", "--max", "60", "--zeros"])
        .arg(&zeros)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    assert_eq!(child.wait().unwrap().code(), Some(0));
    // P3's zero positions are (a,0,a): 60 of them, and the header.
    assert_eq!(fs::read_to_string(&zeros).unwrap().lines().count(), 61);
}

/// `--out /dev/stdout` writes to the process's own standard output: appending to a file
/// keeps what the file held, and no `.zeros` file is made beside /dev/stdout.
#[test]
fn dev_stdout_appends_where_stdout_points() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.tsv");
    fs::write(&log, "kept\n").unwrap();
    let file = fs::OpenOptions::new().append(true).open(&log).unwrap();
    let status = Process::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["table", "path:3", "--max", "2", "--out", "/dev/stdout"])
        .stdout(file)
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let text = fs::read_to_string(&log).unwrap();
    assert!(text.starts_with("kept\nx0\tx1\tx2\tsg\n"), "{text}");
    assert_eq!(text.lines().count(), 1 + 1 + 8);
}

#[test]
fn outputs_never_replace_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let data = p3_table(dir.path(), 3);
    let before = fs::read_to_string(&data).unwrap();
    let d = data.to_str().unwrap();
    one_line(
        &["synth", "--data", d, "--length", "3", "--export-cnf", d],
        2,
        "--export-cnf would overwrite --data",
    );
    assert_eq!(fs::read_to_string(&data).unwrap(), before);
    let game = dir.path().join("k.json");
    fs::write(&game, r#"{"vertices": 2, "faces": [[0, 1]]}"#).unwrap();
    let spec = format!("complex-file:{}", game.display());
    let g = game.to_str().unwrap();
    one_line(
        &["table", &spec, "--max", "2", "--out", g],
        2,
        "would overwrite the game's file",
    );
    let proof = dir.path().join("p");
    let clash = dir.path().join("p.len5.cnf");
    one_line(
        &[
            "synth",
            "path:3",
            "--max",
            "3",
            "--solver",
            "sat",
            "--proof",
            proof.to_str().unwrap(),
            "--length",
            "5",
            "--export-cnf",
            clash.to_str().unwrap(),
            "--export-examples",
            "cegis",
        ],
        2,
        "collide with the proofs",
    );
}

/// Exporting without a search still answers `--json` with one object: what was written.
#[test]
fn an_export_alone_is_one_json_object() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dir.path().join("p3.cnf");
    let out = grundy()
        .args([
            "synth",
            "path:3",
            "--max",
            "3",
            "--length",
            "3",
            "--json",
            "--export-cnf",
        ])
        .arg(&cnf)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exported"][0]["format"], "dimacs");
    assert_eq!(v["exported"][0]["examples"], 27);
    assert!(Path::new(v["exported"][0]["path"].as_str().unwrap()).exists());
}

/// `table --json`: the rows go to --out and one object says what was written; without --out
/// there is nowhere for the rows, which is one JSON error.
#[test]
fn a_table_with_json_is_one_object() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.tsv");
    let run = grundy()
        .args(["table", "path:3", "--max", "8", "--json", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(
        (v["rows"].as_u64(), v["zero_rows"].as_u64()),
        (Some(512), Some(8)),
        "{v}"
    );
    assert_eq!(v["box"], "[0,8)^3");
    let rows = std::fs::read_to_string(&out).unwrap();
    assert_eq!(rows.lines().count(), 513);
    let zeros = std::fs::read_to_string(v["zeros_file"].as_str().unwrap()).unwrap();
    assert_eq!(zeros.lines().count(), 9);
    let run = grundy()
        .args(["table", "path:3", "--max", "8", "--json"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(v["kind"], "bad_input", "{v}");
}

/// The rows and their zeros are one output: when the zeros file cannot be written
/// (`/dev/full`), the rows file does not appear either (issue 40, item 8).
#[cfg(target_os = "linux")]
#[test]
fn a_failed_zeros_file_leaves_no_rows_file() {
    let dir = tempfile::tempdir().unwrap();
    let rows = dir.path().join("z.tsv");
    let r = rows.to_str().unwrap();
    let args = ["table", "path:3", "--max", "4", "--out", r];
    one_line(
        &[&args[..], &["--zeros", "/dev/full"]].concat(),
        2,
        "No space left",
    );
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "nothing left");
}

/// `synth`'s outputs are checked before the search: a report nowhere, a report and an export
/// in one file, and `--verify-max 0` are refused, not the search's own limit (`--max-len 4`
/// refutes every length it allows, which would be a `resource` error after the work).
#[test]
fn synth_outputs_are_checked_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let search = ["synth", "path:3", "--max", "6", "--max-len", "4", "--quiet"];
    let run = |extra: &[&str]| common::json_with_code(&[&search[..], extra].concat(), 2);
    let e = run(&["--report", "/nonexistent/dir/r.md"]);
    assert_eq!(e["kind"], "io", "{e}");
    assert!(
        e["error"].as_str().unwrap().contains("/nonexistent/dir"),
        "{e}"
    );
    let e = run(&["--verify-max", "0"]);
    assert_eq!(e["kind"], "bad_input", "{e}");
    assert!(e["error"].as_str().unwrap().contains("--verify-max"), "{e}");
    let same = dir.path().join("same.md");
    let s = same.to_str().unwrap();
    let e = run(&["--report", s, "--export-sygus", s]);
    assert!(e["error"].as_str().unwrap().contains("same file"), "{e}");
    let figure = dir.path().join("same.png");
    let f = figure.to_str().unwrap();
    let e = run(&["--report", s, "--export-sygus", f]);
    assert!(e["error"].as_str().unwrap().contains("figure"), "{e}");
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
    let e = common::json_with_code(
        &["period", "octal:0.77", "--report", "/nonexistent/k.md"],
        2,
    );
    assert_eq!(e["kind"], "io", "{e}");
}

/// With a report and an export of all the data, `synth` searches for the report and writes
/// both (it used to write the export alone and skip the report).
#[test]
fn synth_writes_the_report_beside_an_export() {
    let dir = tempfile::tempdir().unwrap();
    let (md, sy) = (dir.path().join("r.md"), dir.path().join("s.sy"));
    let out = grundy()
        .args(["synth", "path:3", "--max", "6", "--quiet", "--report"])
        .arg(&md)
        .arg("--export-sygus")
        .arg(&sy)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("expression:   x1 + (x0 ^ x2)"), "{text}");
    assert!(fs::read_to_string(&md)
        .unwrap()
        .contains("`x1 + (x0 ^ x2)`"));
    assert!(fs::read_to_string(&sy).unwrap().contains("synth-fun"));
}

/// A write that fails after the work does not cost the answer: the program (the theorem) is
/// printed, the error named, exit 2; with `--json` in the one object. The other outputs are
/// still written. The files are links to /dev/full, which pass the checks before the work.
#[cfg(target_os = "linux")]
#[test]
fn the_answer_is_printed_when_a_write_fails() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.md");
    symlink("/dev/full", &full).unwrap();
    let f = full.to_str().unwrap();
    let synth = ["synth", "path:3", "--max", "6", "--quiet"];
    let out = grundy().args(synth).args(["--report", f]).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("expression:   x1 + (x0 ^ x2)"), "{text}");
    assert!(
        err.contains("full.md") && err.contains("No space left"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let v = common::json_with_code(&[&synth[..], &["--report", f]].concat(), 2);
    assert_eq!(v["expression"], "x1 + (x0 ^ x2)", "{v}");
    assert_eq!(v["kind"], "io", "{v}");
    // A failed export: the report is still written, and the program printed.
    let sy = dir.path().join("full.sy");
    symlink("/dev/full", &sy).unwrap();
    let md = dir.path().join("r.md");
    let args = [
        "--report",
        md.to_str().unwrap(),
        "--export-sygus",
        sy.to_str().unwrap(),
    ];
    let v = common::json_with_code(&[&synth[..], &args].concat(), 2);
    assert_eq!(v["expression"], "x1 + (x0 ^ x2)", "{v}");
    assert!(v["error"].as_str().unwrap().contains("full.sy"), "{v}");
    assert!(fs::read_to_string(&md)
        .unwrap()
        .contains("`x1 + (x0 ^ x2)`"));
    let out = grundy()
        .args(["period", "octal:0.77", "--report", f])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("period:     12"), "{text}");
    let v = common::json_with_code(&["period", "octal:0.77", "--report", f], 2);
    assert_eq!(v["period"], 12, "{v}");
    assert_eq!(v["kind"], "io", "{v}");
}
