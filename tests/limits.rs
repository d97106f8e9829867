//! End-to-end tests of limits that must hold on every path (issue 40, items 2 to 5): a time
//! limit reached while a heap game values its heaps, memory refused before it is taken, one
//! move limit for every command that lists moves, heap counts checked before anything of
//! their size is built, and subtraction games valued in time linear in the heaps.

mod common;
use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{grundy, json_with_code, one_line};

/// `sg` on one heap whose valuation would take days: the time limit ends it with the bound
/// the moves give, counted without listing them (833 million three-heap splits), where it
/// ran for minutes and was killed at 24 GB; the same for Grundy's game at its largest heap.
#[test]
fn heap_valuations_end_at_the_time_limit() {
    for (game, heap, moves) in [
        ("hex:0.9", "100000", "833316667"),
        ("grundy-game", "100000000", "49999999"),
    ] {
        let started = Instant::now();
        let v = json_with_code(&["sg", game, heap, "--timeout", "1"], 3);
        assert_eq!(v["kind"], "timeout", "{v}");
        let msg = v["error"].as_str().unwrap();
        assert!(msg.contains(&format!("from 0 to {moves}")), "{msg}");
        // Generous: the bound is counted in microseconds; listing the moves took minutes.
        assert!(started.elapsed() < Duration::from_secs(60), "{game}");
    }
}

/// A nim sequence longer than the memory limit holds is refused before it is computed.
#[test]
fn heap_valuations_past_the_memory_limit_are_refused() {
    for args in [
        &["sg", "grundy-game", "268435455", "--mem-limit", "1"][..],
        &["best-move", "grundy-game", "268435455", "--mem-limit", "1"],
    ] {
        let v = json_with_code(args, 2);
        assert_eq!(v["kind"], "resource", "{v}");
        assert!(v["error"].as_str().unwrap().contains("--mem-limit"), "{v}");
    }
    one_line(
        &[
            "table",
            "grundy-game",
            "--heaps",
            "1",
            "--max",
            "268435455",
            "--mem-limit",
            "0.5",
        ],
        2,
        "the limit is",
    );
}

/// `sg --moves`, `best-move` and `play` refuse a position with billions of moves alike, before
/// listing any (`play` used 6 GB in 10 s before its first prompt).
#[test]
fn the_move_limit_is_one_limit_everywhere() {
    let p = "4000000000,4000000000,1";
    let sg = one_line(&["sg", "nim:3", p, "--moves"], 2, "has 8000000001 moves");
    let best = one_line(&["best-move", "nim:3", p], 2, "has 8000000001 moves");
    let out = grundy()
        .args(["play", "nim:3", p])
        .write_stdin("")
        .output()
        .unwrap();
    let play = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{play}");
    assert_eq!((&sg, &best), (&play, &play));
}

/// `best-move` and `play` keep a time limit (they sat silent for a minute on these boards).
#[test]
fn best_move_and_play_keep_a_time_limit() {
    let v = json_with_code(&["best-move", "cram:9x9", "--timeout", "1"], 3);
    assert_eq!(v["kind"], "timeout", "{v}");
    assert!(v["error"].as_str().unwrap().contains("cram:9x9"), "{v}");
    let out = grundy()
        .args(["play", "cram:11x11", "--timeout", "1"])
        .write_stdin("")
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("timed out after 1.0 s: the nimber of cram:11x11"),
        "{err}"
    );
}

/// The time a player takes to answer does not count against `play --timeout`: the person
/// answers 2 s past the limit (5 s, generous for heaps of 2 and 3), and the game goes on.
#[test]
fn time_spent_waiting_for_the_player_does_not_count() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(["play", "subtraction:1,2,3", "2,3", "--timeout", "5"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(7));
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"2,2\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("you: heap 1: 3 -> 2\ngrundy: "), "{text}");
}

/// `--heaps` past what any position holds is one line (and one JSON object), never a panic or
/// an abort: it is checked before anything of its size is built.
#[test]
fn heap_counts_are_checked_before_anything_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("p.png");
    let png = png.to_str().unwrap();
    let tsv = dir.path().join("t.tsv");
    let tsv = tsv.to_str().unwrap();
    for heaps in ["18446744073709551615", "4294967296", "1000000000", "65"] {
        for args in [
            &["info", "octal:0.77", "--heaps", heaps][..],
            &[
                "table",
                "subtraction:1,2",
                "--heaps",
                heaps,
                "--max",
                "1",
                "--out",
                tsv,
            ],
            &["synth", "subtraction:1,2", "--heaps", heaps, "--max", "2"],
            &[
                "plot",
                "subtraction:1,2",
                "--heaps",
                heaps,
                "--max",
                "2",
                "--out",
                png,
            ],
            &[
                "verify",
                "subtraction:1,2",
                "--heaps",
                heaps,
                "--max",
                "2",
                "--program",
                "Push(0)",
            ],
        ] {
            let v = json_with_code(args, 2);
            assert_eq!(v["kind"], "bad_input", "{args:?}: {v}");
            assert!(
                v["error"].as_str().unwrap().contains("at most 64 heaps"),
                "{v}"
            );
            one_line(args, 2, "at most 64 heaps");
        }
    }
    let v = json_with_code(&["info", "octal:0.77", "--heaps", "64"], 0);
    assert_eq!(v["variables"], 64, "{v}");
}

/// A subtraction set's values cost its amounts a heap, not max(S): {100000} (G(n) = floor(n /
/// 100000) mod 2) proves its period 200000 at once, where it ran past 100 s; all-but {3,
/// 100000} (which ran past a minute) its arithmetic period 6, saltus 3, as all-but {3, 1000}
/// does. The time limits only keep a regression from running on.
#[test]
fn subtraction_sets_are_valued_in_time_linear_in_the_heaps() {
    let v = json_with_code(&["period", "subtraction:100000", "--timeout", "60"], 0);
    assert_eq!(
        (&v["preperiod"], &v["period"]),
        (&0.into(), &200000.into()),
        "{v}"
    );
    for set in ["all-but:3,1000", "all-but:3,100000"] {
        let spec = format!("subtraction:{set}");
        let v = json_with_code(&["period", &spec, "--timeout", "60"], 0);
        let got = (&v["preperiod"], &v["period"], &v["saltus"]);
        assert_eq!(got, (&0.into(), &6.into(), &3.into()), "{v}");
    }
}
