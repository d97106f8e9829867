//! End-to-end tests of `synth --prove` (the prover as the verifier of the search) and of the
//! form synth returns (plain or orbits): refuted programs are re-checked on a box by `grundy
//! verify`, proved ones agree with a box larger than the data.

mod common;
use common::{grundy, json_with_code, one_line};

/// `grundy verify GAME --max D --program P` exits with `code` (0 holds, 1 fails).
fn verify(game: &str, max: u64, program: &str, extra: &[&str], code: i32) {
    let out = grundy()
        .args([
            "verify",
            game,
            "--max",
            &max.to_string(),
            "--program",
            program,
        ])
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "verify {game} --max {max} {program}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn names(program: &serde_json::Value) -> String {
    program
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_program_right_on_the_box_only_is_refuted_and_the_search_finds_the_theorem() {
    // Without Xor, (x0 - x2) + (x1 - x2) fits CN(3,2) on [0,2)^3; at (2,0,1) the sum wraps.
    let args = [
        "synth",
        "circular:3,2",
        "--max",
        "2",
        "--ops=-Xor",
        "--plain",
        "--prove",
    ];
    let v = json_with_code(&args, 0);
    let proof = &v["proof"];
    assert_eq!(proof["status"], "proved", "{v}");
    assert_eq!(proof["scope"], "all positions");
    assert!(proof["statement"]
        .as_str()
        .unwrap()
        .starts_with("for all positions of circular:3,2, the P-positions are exactly"));
    let history = proof["history"].as_array().unwrap();
    assert!(!history.is_empty(), "{v}");
    assert_eq!(proof["counterexamples"], history.len());
    for r in history {
        // Each refuted program fails on a box holding its counterexample, by the game's values.
        let c = &r["counterexample"];
        let mut top = c["position"].as_array().unwrap().clone();
        top.extend(c["move_to"].as_array().cloned().unwrap_or_default());
        let max = top.iter().map(|x| x.as_u64().unwrap()).max().unwrap() + 1;
        verify("circular:3,2", max, r["program"].as_str().unwrap(), &[], 1);
    }
    assert!(v["data_points"].as_u64().unwrap() > 8, "the data grew: {v}");
    assert_eq!(v["status"], "minimal");
    verify("circular:3,2", 8, &names(&v["program"]), &[], 0);
}

#[test]
fn the_text_states_the_theorem() {
    // [0,1)^2 is one point: `x0` fits it, and the prover's points lead to x0 = x1.
    let out = grundy()
        .args(["synth", "nim:2", "--max", "1", "--prove"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "theorem:      proved for all positions of nim:2, the P-positions are exactly \
             those with x0 = x1"
        ),
        "{text}"
    );
    assert!(text.contains("refuted:      Push(0) at "), "{text}");
}

/// nim:3's `x0 - (x1 ^ x2)` has no linear reading: as `grundy prove` does, synth proves it
/// for every position by reading it column by column, and over bit-vectors for heaps below
/// 2^B with `--bound B`, and says so; the program agrees with the game's values on the box.
#[test]
fn a_program_with_no_linear_reading_is_proved_for_every_width_or_below_a_bound() {
    for (bound, top) in [(None, 16), (Some("3"), 8)] {
        let mut args = vec!["synth", "nim:3", "--max", "6", "--plain", "--prove"];
        args.extend(bound.iter().flat_map(|b| ["--bound", b]));
        let v = json_with_code(&args, 0);
        let proof = &v["proof"];
        assert_eq!(proof["status"], "proved", "{v}");
        let (scope, opening) = match bound {
            None => (
                "all positions".to_string(),
                "for all positions of nim:3".to_string(),
            ),
            Some(b) => {
                let scope = format!("heaps below 2^{b}");
                let opening = format!("for every position of nim:3 with {scope}");
                (scope, opening)
            }
        };
        assert_eq!(proof["scope"], scope.as_str(), "{v}");
        let statement = proof["statement"].as_str().unwrap();
        assert!(
            statement.starts_with(&format!("{opening}, the P-positions are exactly")),
            "{v}"
        );
        assert_eq!(v["status"], "minimal", "{v}");
        verify("nim:3", top, &names(&v["program"]), &[], 0);
    }
    let out = grundy()
        .args(["synth", "nim:3", "--max", "6", "--prove"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().find(|l| l.starts_with("theorem:")).unwrap();
    assert!(
        line.starts_with("theorem:      proved for all positions of nim:3")
            && line.contains("column by column at every width"),
        "{text}"
    );
}

/// A heap game's program with no linear reading (`1 - ~1` is 3 only as an integer that
/// never wraps) is read column by column: a theorem for all positions.
#[test]
fn a_heap_program_with_no_linear_reading_is_read_column_by_column() {
    // Without constants the mask 3 is written `1 - ~1`.
    let args = [
        "synth",
        "subtraction:1,2,3",
        "--heaps",
        "2",
        "--max",
        "6",
        "--consts",
        "none",
        "--prove",
    ];
    let v = json_with_code(&args, 0);
    assert_eq!(v["proof"]["status"], "proved", "{v}");
    assert_eq!(v["proof"]["scope"], "all positions", "{v}");
    assert_eq!(v["status"], "minimal", "{v}");
    // A quotient is not read column by column: the heap prover still says why it cannot.
    let args = [
        "prove",
        "subtraction:1,2,3",
        "--heaps",
        "2",
        "--program",
        "(x0 ^ x1) / 5",
    ];
    one_line(&args, 2, "no exact reading");
}

#[test]
fn where_the_prover_does_not_apply_synth_refuses_before_searching() {
    // Heap games are proved for the zero target only.
    let indicator = [
        "synth",
        "subtraction:1,2,3",
        "--heaps",
        "2",
        "--max",
        "5",
        "--target",
        "indicator",
        "--prove",
    ];
    one_line(
        &indicator,
        2,
        "--prove: the prover proves heap games for the zero target",
    );
    // A rule that splits heaps has no moves the heap prover reads.
    let split = [
        "synth",
        "octal:0.77",
        "--heaps",
        "2",
        "--max",
        "4",
        "--prove",
    ];
    one_line(&split, 2, "--prove: ");
    let family = [
        "synth", "path:3", "--family", "a,b,a", "--max", "5", "--prove",
    ];
    one_line(&family, 2, "--prove");
    // --bound is for the bit-vector proofs of hypergraph nim, from 1 to 64.
    let heaps_bound = [
        "synth",
        "subtraction:1,2,3",
        "--heaps",
        "2",
        "--max",
        "4",
        "--prove",
        "--bound",
        "3",
    ];
    one_line(&heaps_bound, 2, "--bound: heap games");
    let zero = ["synth", "nim:3", "--max", "3", "--prove", "--bound", "0"];
    one_line(&zero, 2, "--bound 0");
    let unproved = ["synth", "nim:3", "--max", "3", "--bound", "3"];
    assert_eq!(json_with_code(&unproved, 2)["kind"], "bad_input");
    let v = json_with_code(&indicator, 2);
    assert_eq!(v["kind"], "bad_input", "{v}");
}

/// A heap game: the program found on a small box is proved for all positions by the heap
/// prover, and agrees with the game's values on a box larger than the data.
#[test]
fn a_heap_game_ends_with_a_theorem() {
    let args = [
        "synth",
        "subtraction:1,2,3",
        "--heaps",
        "2",
        "--max",
        "4",
        "--consts",
        "auto",
        "--prove",
    ];
    let v = json_with_code(&args, 0);
    let proof = &v["proof"];
    assert_eq!(proof["status"], "proved", "{v}");
    assert_eq!(proof["scope"], "all positions", "{v}");
    let program = names(&v["program"]);
    verify("subtraction:1,2,3", 12, &program, &["--heaps", "2"], 0);
    // The program reported is the one proved: prove it again on its own.
    let again = json_with_code(
        &[
            "prove",
            "subtraction:1,2,3",
            "--heaps",
            "2",
            "--program",
            &program,
        ],
        0,
    );
    assert_eq!(again["status"], "proved", "{again}");
    assert_eq!(again["reading"], proof["reading"], "{v}");
}

/// The indicator target on a game of hypergraph nim: proved, and right past the data.
#[test]
fn the_indicator_target_ends_with_a_theorem() {
    let args = [
        "synth",
        "nim:2",
        "--max",
        "1",
        "--target",
        "indicator",
        "--prove",
    ];
    let v = json_with_code(&args, 0);
    let proof = &v["proof"];
    assert_eq!(proof["status"], "proved", "{v}");
    assert_eq!(proof["target"], "indicator", "{v}");
    assert_eq!(proof["scope"], "all positions", "{v}");
    // [0,1)^2 is one point: the programs that fit it are refuted, each wrong by the game's
    // values on a box holding its counterexample.
    let history = proof["history"].as_array().unwrap();
    assert!(!history.is_empty(), "{v}");
    for r in history {
        let c = &r["counterexample"];
        let mut top = c["position"].as_array().unwrap().clone();
        top.extend(c["move_to"].as_array().cloned().unwrap_or_default());
        let max = top.iter().map(|x| x.as_u64().unwrap()).max().unwrap() + 1;
        let p = r["program"].as_str().unwrap();
        verify("nim:2", max, p, &["--target", "indicator"], 1);
    }
    let program = names(&v["program"]);
    verify("nim:2", 10, &program, &["--target", "indicator"], 0);
}

#[test]
fn the_orbit_form_is_returned_when_shorter_and_the_plain_one_on_a_tie() {
    let v = json_with_code(&["synth", "path:4", "--max", "3", "--upper", "none"], 0);
    assert_eq!(
        (v["form"].clone(), v["length"].clone()),
        ("orbits".into(), 7.into())
    );
    assert_eq!(v["orbits"], true);
    assert!(
        v["form_why"].as_str().unwrap().contains("no plain program"),
        "{v}"
    );
    verify("path:4", 6, &names(&v["program"]), &["--orbits"], 0);
    // Plainly, nothing of 8 instructions or less.
    let plain = [
        "synth",
        "path:4",
        "--max",
        "3",
        "--upper",
        "none",
        "--max-len",
        "8",
    ];
    let mut args = plain.to_vec();
    args.push("--plain");
    assert_eq!(json_with_code(&args, 2)["kind"], "resource");
    let v = json_with_code(&["synth", "nim:2", "--max", "4"], 0);
    assert_eq!(
        (v["form"].clone(), v["length"].clone()),
        ("plain".into(), 3.into())
    );
    assert!(v["form_why"].as_str().unwrap().contains("as short"), "{v}");
    // Forced, or not tried, the form says why.
    let v = json_with_code(&["synth", "nim:2", "--max", "4", "--orbits"], 0);
    assert_eq!(
        (v["form"].clone(), v["form_why"].clone()),
        ("orbits".into(), "--orbits".into())
    );
    let v = json_with_code(&["synth", "shriek", "--max", "4", "--target", "sg"], 0);
    assert_eq!(v["form"], "plain");
    assert!(
        v["form_why"]
            .as_str()
            .unwrap()
            .contains("zero and indicator"),
        "{v}"
    );
    let both = grundy()
        .args(["synth", "nim:2", "--max", "4", "--plain", "--orbits"])
        .output()
        .unwrap();
    assert_eq!(both.status.code(), Some(2));
}

/// The case: CN(5,3) on [0,6)^5 has an 11-instruction classifier under rotations,
/// proved minimal, and the search returns it without --orbits (long in a debug build).
#[test]
fn circular_5_3_gets_its_orbit_classifier() {
    if std::env::var("GRUNDY_FULL").is_err() {
        return;
    }
    let v = json_with_code(&["synth", "circular:5,3", "--max", "6"], 0);
    assert_eq!(v["form"], "orbits", "{v}");
    assert_eq!(v["length"], 11);
    assert_eq!(v["status"], "minimal");
}

/// The SG target with no linear reading: a theorem for every position, read column by column.
#[test]
fn the_sg_target_ends_with_a_theorem_for_every_position() {
    let args = ["synth", "shriek", "--max", "2", "--target", "sg", "--prove"];
    let v = json_with_code(&args, 0);
    let proof = &v["proof"];
    assert_eq!(proof["status"], "proved", "{v}");
    assert_eq!(proof["target"], "sg", "{v}");
    assert_eq!(proof["scope"], "all positions", "{v}");
    verify("shriek", 8, &names(&v["program"]), &["--target", "sg"], 0);
}
