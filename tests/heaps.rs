//! End-to-end tests of heap games through the game-generic commands: `sg` on a list of heaps,
//! `table` and `synth` with `--heaps`, `--consts`.

mod common;
use common::{grundy, one_line, verifies};

fn json(args: &[&str]) -> serde_json::Value {
    let out = grundy().args(args).arg("--json").output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A sum's value is the xor of its heaps' values, and each winning move reaches a zero
/// position, whatever engine values it.
#[test]
fn sg_values_sums_of_heaps() {
    // Kayles: G(10) = 2, G(20) = 1. Through the table engine, a move that splits a heap
    // leaves the box and is searched.
    let v = json(&["sg", "octal:0.77", "10", "20", "--moves"]);
    assert_eq!(v["nimber"], 3, "{v}");
    let t = json(&[
        "sg",
        "octal:0.77",
        "10",
        "20",
        "--moves",
        "--engine",
        "table",
    ]);
    assert_eq!(t["nimber"], 3, "{t}");
    assert_eq!(t["winning_moves"], v["winning_moves"]);
    let moves = v["winning_moves"].as_array().unwrap();
    assert!(
        moves.iter().any(|m| m.as_array().unwrap().len() == 3),
        "{v}"
    );
    for m in moves {
        let heaps: Vec<String> = m
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.to_string())
            .collect();
        let w = json(&["sg", "octal:0.77", &heaps.join(",")]);
        assert_eq!(w["nimber"], 0, "{m}");
    }
    // The bare definition on the whole sum agrees with the nim sequence.
    let bare = json(&[
        "sg",
        "subtraction:1,3,4",
        "5,6,7",
        "--bare",
        "--engine",
        "cut",
    ]);
    let auto = json(&["sg", "subtraction:1,3,4", "5,6,7"]);
    assert_eq!(bare["nimber"], auto["nimber"]);
    // {1,3,4}: period 7, values 0 1 0 1 2 3 2: G(5) ^ G(6) ^ G(7) = 3 ^ 2 ^ 0.
    assert_eq!(auto["nimber"], 1);
}

/// `table --heaps` writes the box of heaps; a game that is not a heap game refuses --heaps,
/// and a heap game needs it.
#[test]
fn table_takes_a_number_of_heaps() {
    let out = grundy()
        .args(["table", "subtraction:1,2", "--heaps", "2", "--max", "4"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows[0], "x0\tx1\tsg");
    assert_eq!(rows.len(), 1 + 16);
    // {1,2}: G(n) = n mod 3; (2,3) -> 2 ^ 0.
    assert!(rows.contains(&"2\t3\t2"), "{text}");
    one_line(&["table", "subtraction:1,2", "--max", "4"], 2, "--heaps");
    one_line(
        &["table", "path:3", "--heaps", "3", "--max", "4"],
        2,
        "heap games",
    );
    one_line(
        &["sg", "subtraction:1,2", "3", "99999999999"],
        2,
        "heaps are valued up to",
    );
}

/// The example: three heaps of the 1-3 subtraction game, with a constant, give the
/// rule "the xor of the heaps is 0 mod 4" in 7 instructions, and it verifies on a larger box.
#[test]
fn synth_finds_the_mod_4_rule_with_constants() {
    let v = json(&[
        "synth",
        "subtraction:1,2,3",
        "--heaps",
        "3",
        "--max",
        "12",
        "--consts",
        "auto",
    ]);
    assert_eq!(v["length"], 7, "{v}");
    assert_eq!(v["minimal"], true, "{v}");
    verifies(
        "subtraction:1,2,3",
        &v["program"],
        "20",
        &["--heaps", "3", "--ops", "+Const(3),+Const(4)"],
    );
    one_line(
        &["synth", "path:3", "--max", "4", "--consts", "auto"],
        2,
        "heap game",
    );
}
