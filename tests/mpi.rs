//! End-to-end tests under `mpirun -np 2` on loopback (built with `--features mpi`): the shared
//! commands give byte for byte what one process gives, and failures end every rank with one
//! line from rank 0 and a non-zero exit.
#![cfg(feature = "mpi")]

mod common;
use common::ranks::{grundy_lines, mpirun, mpmd, mpmd_of, on_two_ranks, single};

use std::time::Duration;

/// Runs this test binary's `rank_steps` on two ranks; each rank's harness must pass it.
#[test]
fn the_collective_steps_agree_on_every_rank() {
    let out = on_two_ranks(&std::env::current_exe().unwrap())
        .args(["rank_steps", "--exact", "--ignored", "--test-threads", "1"])
        .args(["--color", "never"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The two ranks' harnesses write to one stream, so their lines may interleave between
    // the writes of one line ("test result: ok" and ". 1 passed; ..."): count what one write
    // holds.
    assert_eq!(text.matches("1 passed; 0 failed").count(), 2, "{text}");
}

/// One rank's half of the test above: the collective steps checked from inside a job.
#[test]
#[ignore = "runs under mpirun, started by the_collective_steps_agree_on_every_rank"]
fn rank_steps() {
    use grundy_core::cluster::Team;
    use grundy_core::Error;
    let team = grundy_mpi::join().expect("join the job");
    let team: &dyn Team = &team;
    let (rank, size) = (team.rank(), team.size());
    if size < 2 {
        // Run outside mpirun (`--include-ignored`): there is no job to check.
        return;
    }

    // Gather: rank r sends r + 1 bytes of value r.
    let mine = vec![rank as u8; rank + 1];
    match team.gather(&mine) {
        Some(all) => {
            assert_eq!(rank, 0);
            for (r, b) in all.iter().enumerate() {
                assert_eq!(b, &vec![r as u8; r + 1]);
            }
        }
        None => assert_ne!(rank, 0),
    }
    let empty = team.all_gather(&[]);
    assert!(empty.len() == size && empty.iter().all(Vec::is_empty));

    // Broadcast and all-gather, with messages longer than a few pages.
    let long: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
    let got = team.broadcast(if rank == 0 { long.clone() } else { Vec::new() });
    assert_eq!(got, long);
    let all = team.all_gather(&long[..1000 * (rank + 1)]);
    for (r, b) in all.iter().enumerate() {
        assert_eq!(b[..], long[..1000 * (r + 1)]);
    }

    // Point to point: each rank sends to the next and receives from the one before.
    let next = (rank + 1) % size;
    let before = (rank + size - 1) % size;
    if rank % 2 == 0 {
        team.send(next, &long[..2000 + rank]);
        assert_eq!(team.receive(before), long[..2000 + before]);
    } else {
        assert_eq!(team.receive(before), long[..2000 + before]);
        team.send(next, &long[..2000 + rank]);
    }

    // Settle: a failure on rank 1 alone reaches every rank with its kind.
    let outcome: Result<u32, Error> = if rank == 1 {
        Err(Error::Resource("rank 1 ran out".into()))
    } else {
        Ok(7)
    };
    let e = team.settle(outcome).unwrap_err();
    assert_eq!(e.kind(), grundy_core::error::Kind::Resource);
    assert!(e.to_string().contains("rank 1 ran out"), "{e}");
    assert_eq!(team.settle(Ok::<_, Error>(rank)).unwrap(), rank);

    // Share: rank 0's value everywhere.
    let v = team.share(Ok::<_, Error>(vec![rank as u32, 9])).unwrap();
    assert_eq!(v, vec![0, 9]);
    assert!(team.bytes_sent() > 0);
}

#[test]
fn a_survey_on_two_ranks_writes_what_one_process_writes() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.jsonl");
    let two = dir.path().join("two.jsonl");
    let args = |out: &std::path::Path| {
        vec![
            "survey".to_string(),
            "subtraction".into(),
            "--size".into(),
            "3".into(),
            "--max-element".into(),
            "12".into(),
            "--out".into(),
            out.to_str().unwrap().into(),
        ]
    };
    let a1 = args(&one);
    let a2 = args(&two);
    let s = single(&a1.iter().map(String::as_str).collect::<Vec<_>>());
    let m = mpirun(&a2.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
    assert_eq!(s.stdout, m.stdout, "the rows printed");
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
    // Cut in the middle of a row, it resumes on two ranks to the same file.
    let text = std::fs::read(&two).unwrap();
    std::fs::write(&two, &text[..text.len() / 2]).unwrap();
    let m = mpirun(&a2.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
}

#[test]
fn failures_end_every_rank_with_one_line() {
    // Rank 0 cannot create the file: both ranks stop, rank 0 says why.
    let out = mpirun(&[
        "survey",
        "subtraction",
        "--size",
        "2",
        "--max-element",
        "5",
        "--out",
        "/nonexistent/dir/rows.jsonl",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let lines = grundy_lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("/nonexistent/dir/rows.jsonl"));
    // With --json, rank 0 prints one object.
    let out = mpirun(&["survey", "octal", "--digits", "0", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["kind"], "bad_input");
    // A command that does not share its work is refused rather than run twice.
    let out = mpirun(&["info", "path:3"]);
    assert_eq!(out.status.code(), Some(2));
    let lines = grundy_lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("runs as one process"), "{lines:?}");
    assert!(out.stdout.is_empty());
}

/// `v` without its timings (every field named `seconds`), which differ from run to run.
fn untimed(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            m.remove("seconds");
            m.values_mut().for_each(untimed);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(untimed),
        _ => {}
    }
}

#[test]
fn synth_on_two_ranks_answers_what_one_process_answers() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [&[&str]; 3] = [
        &["synth", "path:3", "--max", "8", "--verify-max", "10"],
        &[
            "synth",
            "circular:4,2",
            "--max",
            "5",
            "--target",
            "indicator",
        ],
        &["synth", "star:4", "--max", "6", "--target", "indicator"],
    ];
    for case in cases {
        let args = [case, &["--solver", "enum", "--json", "--quiet"]].concat();
        same_on_two_ranks(&args, &dir);
    }
}

/// Runs `args` (with `--json`) on one process and on two ranks, with a report written by the
/// second: the same JSON apart from timings, the same exit code.
fn same_on_two_ranks(args: &[&str], dir: &tempfile::TempDir) -> serde_json::Value {
    {
        let s = single(args);
        assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
        let report = dir.path().join("run.md");
        let _ = std::fs::remove_file(&report);
        let m = mpirun(&[args, &["--report", report.to_str().unwrap()]].concat());
        assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
        let [mut a, mut b] = [&s, &m].map(|o| {
            serde_json::from_slice::<serde_json::Value>(&o.stdout).expect("one JSON object")
        });
        untimed(&mut a);
        untimed(&mut b);
        assert_eq!(a, b, "{args:?}");
        assert!(std::fs::read_to_string(&report).unwrap().contains("Push("));
        a
    }
}

#[test]
fn synth_auto_on_two_ranks_answers_what_one_process_answers() {
    let dir = tempfile::tempdir().unwrap();
    // The default solver: upper bounds and the read-once search on rank 0, enumeration shared.
    let v = same_on_two_ranks(&["synth", "circular:4,2", "--max", "6", "--json"], &dir);
    assert_eq!(v["status"], "minimal", "{v}");
    // Upper-bound strategies named, whatever the bound, and the orbit form asked for.
    same_on_two_ranks(
        &["synth", "path:4", "--max", "3", "--upper", "all", "--json"],
        &dir,
    );
    same_on_two_ranks(
        &["synth", "star:4", "--max", "3", "--orbits", "--json"],
        &dir,
    );
    // The prover on rank 0 refutes a program right on the box only; the search goes on
    // together on the data its counterexample adds.
    let v = same_on_two_ranks(
        &[
            "synth",
            "circular:3,2",
            "--max",
            "2",
            "--ops=-Xor",
            "--prove",
            "--json",
        ],
        &dir,
    );
    assert_eq!(v["proof"]["status"], "proved", "{v}");
    assert!(!v["proof"]["history"].as_array().unwrap().is_empty(), "{v}");
    // SAT and SMT run on rank 0, their answers broadcast. z3 may pick another program of
    // the same length from one run to the next, one process or two: its length is compared.
    let v = same_on_two_ranks(
        &["synth", "path:3", "--max", "4", "--solver", "sat", "--json"],
        &dir,
    );
    let smt = ["synth", "path:3", "--max", "4", "--solver", "smt", "--json"];
    let out = mpirun(&smt);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let w: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(w["status"], "minimal", "{w}");
    assert_eq!(w["length"], v["length"], "{w}");
}

#[test]
fn synth_on_two_ranks_stops_and_refuses_together() {
    // A deadline passed at once: undecided (exit 3) on every rank, answered once.
    let out = mpirun(&[
        "synth",
        "star:4",
        "--max",
        "6",
        "--solver",
        "enum",
        "--timeout",
        "0",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["status"], "undecided", "{v}");
    // Every length up to --max-len refuted: exit 2 on every rank, one line.
    let out = mpirun(&[
        "synth",
        "path:3",
        "--max",
        "5",
        "--solver",
        "enum",
        "--max-len",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let lines = grundy_lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("raise --max-len"), "{lines:?}");
    // The default solver, stopped at once: undecided on every rank, answered once.
    let out = mpirun(&["synth", "star:4", "--max", "6", "--timeout", "0", "--json"]);
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["status"], "undecided", "{v}");
    // Files one process writes are refused rather than written once per rank.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.sl");
    let out = mpirun(&[
        "synth",
        "path:3",
        "--max",
        "5",
        "--export-sygus",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let lines = grundy_lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("from one process"), "{lines:?}");
    assert!(!file.exists());
}

#[test]
fn a_table_on_two_ranks_writes_what_one_process_writes() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [&[&str]; 3] = [
        &["table", "path:3", "--max", "9"],
        &[
            "table",
            "projective-plane",
            "--max",
            "5",
            "--orbits",
            "--format",
            "jsonl",
        ],
        &["table", "star:4", "--max", "4", "--format", "csv"],
    ];
    for case in cases {
        let files = |name: &str| {
            let out = dir.path().join(format!("{name}.txt"));
            let zeros = dir.path().join(format!("{name}.zeros.txt"));
            (out, zeros)
        };
        let (one, one_zeros) = files("one");
        let (two, two_zeros) = files("two");
        let with = |out: &std::path::Path| {
            let mut a: Vec<String> = case.iter().map(|s| s.to_string()).collect();
            a.extend(["--out".into(), out.to_str().unwrap().into()]);
            a
        };
        let s = single(&with(&one).iter().map(String::as_str).collect::<Vec<_>>());
        assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
        let m = mpirun(&with(&two).iter().map(String::as_str).collect::<Vec<_>>());
        assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
        assert_eq!(
            std::fs::read(&one).unwrap(),
            std::fs::read(&two).unwrap(),
            "{case:?}"
        );
        assert_eq!(
            std::fs::read(&one_zeros).unwrap(),
            std::fs::read(&two_zeros).unwrap(),
            "{case:?}"
        );
        let said = String::from_utf8_lossy(&m.stderr).replace("/two.", "/one.");
        assert_eq!(
            String::from_utf8_lossy(&s.stderr),
            said,
            "the same summary lines"
        );
    }
    // No part file is left behind.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".part")), "{names:?}");
}

#[test]
fn a_table_that_cannot_be_shared_is_refused_on_every_rank() {
    // Without --out there is nowhere to put the parts; nim:2 has no x1 to split along.
    for args in [
        &["table", "path:3", "--max", "5"][..],
        &["table", "nim:2", "--max", "5", "--out", "/tmp/never.tsv"],
    ] {
        let out = mpirun(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let lines = grundy_lines(&out);
        assert_eq!(lines.len(), 1, "{lines:?}");
    }
}

#[test]
fn a_check_that_fails_on_one_rank_only_stops_every_rank() {
    // Rank 0 runs where the output's directory is, rank 1 where it is not (an MPMD job, one
    // working directory each): the set-up fails on rank 1 alone, and both end with its error.
    let (here, there) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::create_dir(here.path().join("sub")).unwrap();
    let grundy = assert_cmd::cargo::cargo_bin("grundy");
    let rank = |dir: &std::path::Path| {
        let args = ["table", "path:3", "--max", "4", "--out", "sub/t.tsv"];
        let mut a = vec!["-np".to_string(), "1".into(), "-wdir".into()];
        a.push(dir.to_str().unwrap().into());
        a.push(grundy.to_str().unwrap().into());
        a.extend(args.iter().map(|s| s.to_string()));
        a
    };
    let out = assert_cmd::Command::new("mpirun")
        .args(["--allow-run-as-root", "--oversubscribe"])
        .args([
            "--mca",
            "btl",
            "self,vader",
            "--mca",
            "oob_tcp_if_include",
            "lo",
        ])
        .args(rank(here.path()))
        .arg(":")
        .args(rank(there.path()))
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let lines = grundy_lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("sub"), "{lines:?}");
    assert!(
        !here.path().join("sub/t.tsv").exists(),
        "no table from half the ranks"
    );
}

/// Two builds of grundy in one job (here the same one with a byte added, which still runs)
/// are refused on every rank with one line, whatever the command.
#[test]
fn ranks_of_different_builds_are_refused() {
    let grundy = assert_cmd::cargo::cargo_bin("grundy");
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("grundy-other");
    let mut bytes = std::fs::read(&grundy).unwrap();
    bytes.push(0);
    std::fs::write(&other, bytes).unwrap();
    let exec = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(&other, exec).unwrap();
    for args in [&["sg", "cram:3x5"][..], &["games"]] {
        let out = mpmd_of(&grundy, args, &other, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let lines = grundy_lines(&out);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].contains("one build of grundy"), "{lines:?}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn an_error_on_one_rank_only_ends_sg_and_synth_on_every_rank() {
    for (first, second) in [
        (
            &["sg", "cram:3x5"][..],
            &["sg", "cram:3x5", "--mem-limit", "0"][..],
        ),
        (
            &["synth", "circular:4,2", "--max", "5"],
            &["synth", "circular:4,2", "--max", "5", "--mem-limit", "0"],
        ),
    ] {
        let out = mpmd(first, second);
        assert_eq!(out.status.code(), Some(2), "{second:?}");
        let lines = grundy_lines(&out);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].contains("--mem-limit"), "{lines:?}");
        assert!(out.stdout.is_empty(), "no answer from half the ranks");
    }
}
