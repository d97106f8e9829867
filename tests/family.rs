//! End-to-end tests of `--family`: synthesis and verification over the parameters of a family
//! of positions.

mod common;
use common::{grundy, one_line};

/// P3's positions (a,b,a) are zero exactly when b = 0 (x0 = x2 and x1 = 0): the program reads
/// the parameters, and the cross-check recomputes the family's members on a larger box.
#[test]
fn a_family_is_synthesized_over_its_parameters() {
    let out = grundy()
        .args(["synth", "path:3", "--family", "a,b,a", "--max", "8"])
        .args(["--verify-max", "12", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["program"], serde_json::json!(["Push(1)"]), "{v}");
    assert_eq!(v["minimal"], true, "{v}");
    assert_eq!(v["data_points"], 64, "{v}");
    assert_eq!(v["cross_check"]["points"], 144, "{v}");
    assert_eq!(
        v["cross_check"]["counterexample"],
        serde_json::Value::Null,
        "{v}"
    );
    assert_eq!(
        v["variables"], "x0, x1 are a, b in the positions (a,b,a) of path:3",
        "{v}"
    );
}

/// Sums of parameters: (a, b, a+b) on P3 is zero iff a = a+b and b = 0, i.e. iff b = 0.
#[test]
fn coordinates_may_be_sums() {
    let out = grundy()
        .args([
            "synth", "path:3", "--family", "a,b,a+b", "--max", "8", "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["program"], serde_json::json!(["Push(1)"]), "{v}");
    // a + b < 8: 36 members.
    assert_eq!(v["data_points"], 36, "{v}");
}

#[test]
fn verify_checks_the_members_of_a_family() {
    grundy()
        .args(["verify", "path:3", "--family", "a,b,a", "--max", "12"])
        .args(["--program", "Push(1)"])
        .assert()
        .success();
    let out = grundy()
        .args(["verify", "path:3", "--family", "a,b,a", "--max", "12"])
        .args(["--program", "Push(0)"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("counterexample: (0,1)"), "{text}");
}

#[test]
fn bad_families_are_one_line_and_exit_2() {
    for (args, needle) in [
        (
            vec!["synth", "path:3", "--family", "a,b", "--max", "8"],
            "2 coordinates for a game with 3 vertices",
        ),
        (
            vec!["synth", "path:3", "--family", "a,b,a"],
            "--family needs GAME --max D",
        ),
        (
            vec![
                "synth", "path:3", "--family", "a,b,a", "--max", "8", "--orbits",
            ],
            "--orbits does not apply to a family",
        ),
        (
            vec!["synth", "path:3", "--family", "a,2b,a", "--max", "8"],
            "`2b` is neither a parameter name nor a number",
        ),
        (
            vec!["synth", "path:3", "--family", "9,9,9", "--max", "8"],
            "no parameter",
        ),
        (
            vec!["synth", "path:3", "--family", "a,a+9,a", "--max", "8"],
            "has no member in [0,8)^3",
        ),
    ] {
        one_line(&args, 2, needle);
    }
}
