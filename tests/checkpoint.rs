//! `sg --checkpoint`: a search keeps its table in a file, and the same command goes on from it.

mod common;

use common::{grundy, json_with_code, one_line};

/// The first run saves its table; the second learns it, answers alike and searches less.
#[test]
fn a_search_goes_on_from_its_saved_table() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cram5x7.table");
    let f = file.to_str().unwrap();
    let first = json_with_code(&["sg", "cram:5x7", "--checkpoint", f], 0);
    assert_eq!(first["checkpoint"]["learned"], 0);
    let saved = first["checkpoint"]["saved"].as_u64().unwrap();
    assert!(saved > 1000, "{first}");
    let text = std::fs::read(&file).unwrap();
    assert!(text.starts_with(b"grundy table 3\ngame cram:5x7\nkey u64\n"));
    let again = json_with_code(&["sg", "cram:5x7", "--checkpoint", f], 0);
    assert_eq!(again["nimber"], first["nimber"]);
    assert_eq!(again["checkpoint"]["learned"].as_u64(), Some(saved));
    let (before, after) = (first["nodes"].as_u64(), again["nodes"].as_u64());
    assert!(after < before, "{after:?} nodes after {before:?}");
    assert_eq!(again["checkpoint"]["in_file"].as_u64(), Some(saved));
    // A table with less room than the file holds is refused before the search: its saves
    // would replace the file with fewer entries (issue 40, item 6). The file is untouched.
    let before = std::fs::read(&file).unwrap();
    let small = [
        "sg",
        "cram:5x7",
        "......./......./#######/#######/#######",
        "--tt",
        "100",
        "--checkpoint",
        f,
    ];
    let e = json_with_code(&small, 2);
    assert_eq!(e["kind"], "resource", "{e}");
    let line = one_line(&small, 2, "more than the table has room for");
    assert!(line.contains(&format!("holds {saved} entries")), "{line}");
    assert_eq!(std::fs::read(&file).unwrap(), before, "the file is kept");
    // Another engine reads it too: every entry is a value, whoever found it.
    let lv = json_with_code(&["sg", "cram:5x7", "--engine", "lv", "--checkpoint", f], 0);
    assert_eq!(lv["nimber"], first["nimber"]);
    // Heap games keep theirs, positions written as counts.
    let heaps = dir.path().join("heaps.table");
    let h = heaps.to_str().unwrap();
    let args = [
        "sg",
        "subtraction:1,2,3",
        "5,6,8",
        "--checkpoint",
        h,
        "--bare",
    ];
    let sum = json_with_code(&args, 0);
    assert_eq!(sum["nimber"], 3, "1 ^ 2 ^ 0: n mod 4 for each heap");
    assert!(sum["checkpoint"]["saved"].as_u64().unwrap() > 0);
    let out = grundy().args(args).arg("--stats").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("checkpoint: "), "{text}");
    assert!(text.contains("learned "), "{text}");
}

/// At its time limit `sg` saves the table before it gives up, and says where.
#[test]
fn sg_saves_its_table_when_time_runs_out() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cram7x9.table");
    let f = file.to_str().unwrap();
    let args = ["sg", "cram:7x9", "--timeout", "1", "--checkpoint", f];
    let e = json_with_code(&args, 3);
    assert_eq!(e["kind"], "timeout");
    assert_eq!(e["checkpoint"]["path"], f);
    let entries = e["checkpoint"]["entries"].as_u64().unwrap();
    assert!(entries > 0, "{e}");
    let text = std::fs::read(&file).unwrap();
    let header = format!("entries {entries:020}\n\n");
    assert!(
        text.windows(header.len()).any(|w| w == header.as_bytes()),
        "the file holds what the error says"
    );
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "no partial file left behind");
    let line = one_line(&args, 3, "timed out");
    assert!(line.contains("is saved in"), "{line}");
}

/// A checkpoint that cannot be written is refused before the search, not warned about at
/// every save of a run that then exits 0 (issue 40, item 6); nothing is left behind.
#[test]
fn an_unwritable_checkpoint_is_refused_before_the_search() {
    one_line(
        &[
            "sg",
            "cram:4x5",
            "--checkpoint",
            "/nonexistent/dir/ck.table",
        ],
        2,
        "No such file",
    );
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let e = json_with_code(&["sg", "cram:4x5", "--checkpoint", d], 2);
    assert_eq!(e["kind"], "io", "{e}");
    let game = dir.path().join("k.json");
    std::fs::write(&game, r#"{"vertices": 2, "faces": [[0, 1]]}"#).unwrap();
    let spec = format!("complex-file:{}", game.display());
    let g = game.to_str().unwrap();
    one_line(
        &["sg", &spec, "1,1", "--engine", "naive", "--checkpoint", g],
        2,
        "would overwrite the game's file",
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// A file that is not a table, another game's table, and a table where none is kept are
/// refused with one line.
#[test]
fn bad_tables_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.table");
    std::fs::write(&junk, "hello\n").unwrap();
    let j = junk.to_str().unwrap();
    one_line(
        &["sg", "cram:4x5", "--checkpoint", j],
        2,
        "not a saved table",
    );
    let e = json_with_code(&["sg", "cram:4x5", "--checkpoint", j], 2);
    assert_eq!(e["kind"], "bad_input");

    let other = dir.path().join("cram4x5.table");
    let o = other.to_str().unwrap();
    json_with_code(&["sg", "cram:4x5", "--checkpoint", o], 0);
    one_line(
        &["sg", "cram:5x4", "--checkpoint", o],
        2,
        "a table of cram:4x5, not of cram:5x4",
    );
    let args = [
        "sg",
        "path:3",
        "3,3,3",
        "--engine",
        "table",
        "--checkpoint",
        o,
    ];
    one_line(&args, 2, "pick a search engine");
    one_line(
        &["sg", "cram:4x5", "--checkpoint-every", "5"],
        2,
        "--checkpoint",
    );
}

/// SIGTERM (a batch system's notice) has the search save its table before it ends, and
/// report where (with `--json`, as its one object).
#[cfg(unix)]
#[test]
fn a_signal_saves_the_table_first() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cram7x9.table");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "sg",
            "cram:7x9",
            "--json",
            "--checkpoint",
            file.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(2));
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(128 + 15));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("saving the table"), "{err}");
    let text = std::fs::read(&file).unwrap();
    assert!(text.starts_with(b"grundy table 3\ngame cram:7x9\n"));
    let entries: u64 = String::from_utf8_lossy(&text[..120])
        .lines()
        .find_map(|l| l.strip_prefix("entries "))
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(entries > 0);
    let said: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(said["kind"], "interrupted", "{said}");
    assert_eq!(said["signal"], 15);
    assert_eq!(
        said["checkpoint"]["entries"].as_u64(),
        Some(entries),
        "{said}"
    );
    assert_eq!(said["checkpoint"]["path"].as_str(), file.to_str());
    assert!(err.contains("is saved in"), "{err}");
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "no partial file left behind");
}

/// Ctrl-C stops `sg`'s search, which saves its table and reports its bounds: exit 3 with one
/// JSON object, as at a time limit, naming the saved file; the same command goes on from it.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_sg_after_a_last_save() {
    use std::process::{Command as Process, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cram7x9.table");
    let f = file.to_str().unwrap();
    let child = Process::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["sg", "cram:7x9", "--json", "--checkpoint", f])
        .args(["--checkpoint-every", "0.05"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A first save means the search runs (and the handler is in place).
    let mut waited = 0;
    while !file.exists() && waited < 60_000 {
        std::thread::sleep(std::time::Duration::from_millis(10));
        waited += 10;
    }
    assert!(file.exists(), "the search saved once");
    let pid = child.id().to_string();
    let kill = Process::new("kill").args(["-INT", &pid]).status().unwrap();
    assert!(kill.success());
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{err}");
    assert!(err.contains("stopping the search"), "{err}");
    let said: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(said["kind"], "timeout", "{said}");
    assert_eq!(said["checkpoint"]["path"], f);
    let entries = said["checkpoint"]["entries"].as_u64().unwrap();
    let text = std::fs::read(&file).unwrap();
    let header = format!("entries {entries:020}\n\n");
    assert!(
        text.windows(header.len()).any(|w| w == header.as_bytes()),
        "the file holds the last save: {said}"
    );
}
