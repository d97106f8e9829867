//! End-to-end tests of `grundy prove`: exit codes, the printed theorem, and counterexamples
//! checked against the nimbers `grundy sg` computes.

mod common;
use common::{grundy, json_with_code, one_line};

const P3: &str = "Push(2) Push(0) BooleanEq Push(1) RightShift BooleanNot";

fn nimber(game: &str, position: &serde_json::Value) -> u64 {
    let p: Vec<String> = position
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.to_string())
        .collect();
    let out = grundy().args(["sg", game, &p.join(",")]).output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn a_theorem_is_printed_with_its_reading() {
    let out = grundy()
        .args(["prove", "path:3", "--program", P3])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("proved: "), "{text}");
    assert!(text.contains("for all positions"), "{text}");
    assert!(text.contains("reading:  x2 = x0 and x1 = 0"), "{text}");
    assert!(text.contains("x_{2} = x_{0} \\land x_{1} = 0"), "{text}");
}

#[test]
fn json_of_a_proof() {
    for (game, program, words) in [
        ("path:3", P3, "x2 = x0 and x1 = 0"),
        ("nim:2", "Push(0) Push(1) Xor", "x0 = x1"),
        (
            "circular:4,2",
            "Push(0) Push(2) Xor Push(1) Push(3) Xor Or",
            "x0 = x2 and x1 = x3",
        ),
        (
            "circular:6,3",
            "Push(0) Push(1) Plus Push(3) Push(4) Plus Xor Push(1) Push(2) Plus Push(4) Push(5) Plus Xor Or",
            "x0 + x1 = x3 + x4 and x1 + x2 = x4 + x5",
        ),
    ] {
        let v = json_with_code(&["prove", game, "--program", program], 0);
        assert_eq!(v["status"], "proved", "{game}");
        assert_eq!(v["scope"], "all positions");
        assert_eq!(v["reading"]["words"], words);
        assert!(v["counterexample"].is_null());
    }
}

#[test]
fn a_dropped_condition_is_refuted_and_the_counterexample_holds() {
    let v = json_with_code(&["prove", "path:3", "--program", "Push(0) Push(2) Xor"], 1);
    assert_eq!(v["status"], "refuted");
    let c = &v["counterexample"];
    assert_eq!(c["reason"], "move_between_zeros");
    // Two positions one move apart cannot both be P-positions: one has a non-zero nimber.
    let (a, b) = (
        nimber("path:3", &c["position"]),
        nimber("path:3", &c["move_to"]),
    );
    assert!(a != 0 || b != 0, "{c}");
    one_line(
        &["prove", "path:3", "--program", "Push(0) Push(2) Xor"],
        1,
        "is not the set of P-positions",
    );
}

#[test]
fn a_missing_p_position_is_refuted_as_no_move_to_zero() {
    // x0 = x1 with x0 even leaves out (1, 1), a P-position.
    let program = "Push(0) Push(1) Xor Push(0) One And Or";
    let v = json_with_code(&["prove", "nim:2", "--program", program], 1);
    let c = &v["counterexample"];
    assert_eq!(c["reason"], "no_move_to_zero");
    assert_eq!(c["position"], serde_json::json!([1, 1]));
    assert_eq!(nimber("nim:2", &c["position"]), 0);
}

#[test]
fn orbits_union_the_zero_set_over_the_automorphisms() {
    // x0 = x2 and x1 = 0 is its own mirror image: the union is the same set.
    let program = "Push(0) Push(2) Xor Push(1) Or";
    let v = json_with_code(&["prove", "path:3", "--program", program, "--orbits"], 0);
    assert_eq!(v["status"], "proved");
    assert_eq!(v["automorphisms"], 2);
}

#[test]
fn orbits_can_decide_a_theorem() {
    // One rotation of each P-position of CN(4,2) has x0 <= x1.
    let program = "Push(0) Push(2) Xor Push(1) Push(3) Xor Or Push(1) Push(0) Lt Or";
    let v = json_with_code(
        &["prove", "circular:4,2", "--program", program, "--orbits"],
        0,
    );
    assert_eq!(v["automorphisms"], 8);
    let v = json_with_code(&["prove", "circular:4,2", "--program", program], 1);
    let c = &v["counterexample"];
    assert_eq!(c["reason"], "no_move_to_zero");
    assert_eq!(nimber("circular:4,2", &c["position"]), 0);
}

#[test]
fn no_time_left_is_unknown() {
    let v = json_with_code(&["prove", "path:3", "--program", P3, "--timeout", "0"], 3);
    assert_eq!(v["status"], "unknown");
    assert!(v["undecided"].is_string());
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    one_line(
        &["prove", "path:3", "--program", "Push(0) Plus"],
        2,
        "not a valid program",
    );
    one_line(&["prove", "path:3", "--program", "Push(5)"], 2, "x5");
    one_line(
        &["prove", "subtraction:1,2", "--program", "Push(0)"],
        2,
        "--heaps",
    );
    one_line(
        &[
            "prove",
            "octal:0.77",
            "--heaps",
            "2",
            "--program",
            "Push(0)",
        ],
        2,
        "splits heaps",
    );
    one_line(
        &[
            "prove",
            "subtraction:all-but:1",
            "--heaps",
            "2",
            "--program",
            "Push(0)",
        ],
        2,
        "unboundedly many",
    );
    one_line(
        &["prove", "cram:3x4", "--program", "Push(0)"],
        2,
        "board game",
    );
    one_line(
        &["prove", "path:3", "--heaps", "2", "--program", "Push(0)"],
        2,
        "--heaps",
    );
    one_line(
        &[
            "prove",
            "subtraction:1,2",
            "--heaps",
            "2",
            "--program",
            "Push(2)",
        ],
        2,
        "x2",
    );
    one_line(
        &[
            "prove",
            "path:3",
            "--program",
            "Push(0) Push(1) Minus Push(2) Div",
        ],
        2,
        "wraps",
    );
    // The refusal says why the column-by-column reading did not take it either.
    let div = ["prove", "path:3", "--program", "(x0 - x1) / x2"];
    one_line(
        &div,
        2,
        "(column by column: Div is not read column by column)",
    );
    one_line(
        &[
            "prove",
            "nim:2",
            "--program",
            "Push(0) Push(1) Plus",
            "--width",
            "4",
        ],
        2,
        "the program needs 5 bits; raise --width",
    );
    one_line(
        &[
            "prove",
            "nim:2",
            "--program",
            "Push(0)",
            "--bound",
            "6",
            "--width",
            "4",
        ],
        2,
        "--width 4 is below the bound 6",
    );
    one_line(
        &[
            "prove",
            "path:3",
            "--program",
            P3,
            "--target",
            "sg",
            "--orbits",
        ],
        2,
        "not sg",
    );
    let v = json_with_code(&["prove", "path:3", "--program", P3, "--bound", "0"], 2);
    assert_eq!(v["kind"], "bad_input");
}

/// The README's heap-game classifier: three heaps of "take 1, 2 or 3".
const SUB123: &str = "Const(3) Push(0) Push(1) Push(2) Xor Minus And";

#[test]
fn a_heap_game_theorem_is_printed_with_its_moves() {
    let args = [
        "prove",
        "subtraction:1,2,3",
        "--heaps",
        "3",
        "--program",
        SUB123,
    ];
    let out = grundy().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("proved: for all positions of 3 heaps of subtraction:1,2,3"),
        "{text}"
    );
    assert!(
        text.contains("reading:  x0 mod 4 = (x1 mod 4) XOR (x2 mod 4)"),
        "{text}"
    );
    assert!(
        text.contains("taking 1, 2 or 3 from one of the 3 heaps"),
        "{text}"
    );
    let v = json_with_code(&args, 0);
    assert_eq!(v["status"], "proved");
    assert_eq!(v["scope"], "all positions");
    assert_eq!(v["heaps"], 3);
    assert_eq!(v["reading"]["infix"], "x0 mod 4 == (x1 mod 4) ^ (x2 mod 4)");
    assert!(v["counterexample"].is_null());
}

#[test]
fn a_heap_game_period_off_by_one_is_refuted_and_the_counterexample_holds() {
    // Period 3 for "take 1, 2 or 3", whose period is 4.
    let program = "Push(0) Const(3) Mod Push(1) Const(3) Mod Xor";
    let game = "subtraction:1,2,3";
    let v = json_with_code(&["prove", game, "--heaps", "2", "--program", program], 1);
    assert_eq!(v["status"], "refuted");
    let c = &v["counterexample"];
    match c["reason"].as_str().unwrap() {
        "move_between_zeros" => {
            let (a, b) = (nimber(game, &c["position"]), nimber(game, &c["move_to"]));
            assert!(a != 0 || b != 0, "{c}");
        }
        _ => assert_eq!(nimber(game, &c["position"]), 0, "{c}"),
    }
}

#[test]
fn the_sg_target_with_no_linear_reading_states_its_scope() {
    let xor = "Push(0) Push(1) Xor";
    let v = json_with_code(&["prove", "nim:2", "--program", xor, "--target", "sg"], 0);
    assert_eq!(v["status"], "proved");
    assert_eq!(v["target"], "sg");
    // Read column by column: every position, with the states the search reached.
    assert_eq!(v["scope"], "all positions");
    assert!(v["width"].is_null() && v["bound"].is_null());
    assert!(v["states"].as_u64().unwrap() > 0);
    assert_eq!(v["reading"]["words"], "x0 ^ x1");
    assert!(v["no_linear_reading"].as_str().unwrap().contains("x0 ^ x1"));
    // Asked for a bound, over 64-bit words with candidate moves, every heap below 2^64.
    let args = [
        "prove",
        "nim:2",
        "--program",
        xor,
        "--target",
        "sg",
        "--bound",
        "64",
    ];
    let v = json_with_code(&args, 0);
    assert_eq!(v["scope"], "heaps below 2^64");
    assert_eq!(v["width"], 64);
    assert!(v["states"].is_null());
    // A linear SG value is a theorem for all positions.
    let v = json_with_code(
        &["prove", "nim:1", "--program", "Push(0)", "--target", "sg"],
        0,
    );
    assert_eq!(v["scope"], "all positions");
    assert!(v["width"].is_null());
}

#[test]
fn a_wrong_sg_value_is_refuted_where_grundy_sg_disagrees() {
    let or = "Push(0) Push(1) Or";
    let v = json_with_code(&["prove", "nim:2", "--program", or, "--target", "sg"], 1);
    let c = &v["counterexample"];
    let (x, value) = (&c["position"], c["value"].as_u64().unwrap());
    let ors = |p: &serde_json::Value| p[0].as_u64().unwrap() | p[1].as_u64().unwrap();
    match c["reason"].as_str().unwrap() {
        "same_value_option" => {
            let q = &c["move_to"];
            assert_eq!((ors(x), ors(q)), (value, value), "{c}");
            // Two positions one move apart have different nimbers: one is not x0 | x1.
            assert!(
                nimber("nim:2", x) != value || nimber("nim:2", q) != value,
                "{c}"
            );
        }
        "missing_value" => {
            assert!(value < ors(x), "{c}");
        }
        other => panic!("{other}"),
    }
    one_line(
        &["prove", "nim:2", "--program", or, "--target", "sg"],
        1,
        "is not the SG value of nim:2",
    );
}

#[test]
fn an_indicator_with_a_2_is_refuted_with_its_value() {
    let program = format!("{P3} Const(2) Mul");
    let v = json_with_code(
        &[
            "prove",
            "path:3",
            "--program",
            &program,
            "--target",
            "indicator",
        ],
        1,
    );
    let c = &v["counterexample"];
    assert_eq!(c["reason"], "not_indicator");
    assert_eq!(c["value"], 2);
    assert_ne!(nimber("path:3", &c["position"]), 0);
    let v = json_with_code(
        &["prove", "path:3", "--program", P3, "--target", "indicator"],
        0,
    );
    assert_eq!(v["target"], "indicator");
    assert_eq!(v["scope"], "all positions");
}

/// Ctrl-C interrupts z3 in the middle of a check: the proof answers `unknown` (exit 3) with
/// the reason, as at its time limit, instead of dying or running on.
#[test]
fn ctrl_c_ends_a_proof_as_unknown() {
    use std::process::Stdio;
    // Xor has no linear reading: bit-vectors. The shift by 0 hides it from the candidate
    // moves, so (B) goes to the universal block, which z3 does not settle for CN(7,1) below
    // 2^6 in minutes.
    let program = "Push(0) Push(1) Xor Push(2) Xor Push(3) Xor Push(4) Xor Push(5) Xor Push(6) \
                   Xor Zero RightShift";
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args([
            "prove",
            "circular:7,1",
            "--program",
            program,
            "--bound",
            "6",
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(2));
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(3), "{v}");
    assert_eq!(v["status"], "unknown", "{v}");
    assert!(
        v["undecided"]
            .as_str()
            .unwrap()
            .contains("stopped on request"),
        "{v}"
    );
}

/// A program may be given as the infix expression synth prints: the same proof as its stack
/// form, and a malformed expression is one line and exit 2.
#[test]
fn a_program_is_read_in_infix_too() {
    let infix = json_with_code(&["prove", "nim:3", "--program", "x0 - (x1 ^ x2)"], 0);
    let postfix = json_with_code(
        &[
            "prove",
            "nim:3",
            "--program",
            "Push(0) Push(1) Push(2) Xor Minus",
        ],
        0,
    );
    assert_eq!(infix["reading"], postfix["reading"]);
    assert_eq!(infix["scope"], postfix["scope"]);
    one_line(
        &["prove", "nim:3", "--program", "x0 - (x1 ^"],
        2,
        "ends too early",
    );
}

/// Without `--bound`, the widest bound is tried first: a program right for heaps below 2^4
/// and wrong past them is refuted there, with the least counterexample, re-checked by the
/// game's moves, instead of proved for the smaller bound.
#[test]
fn a_program_wrong_only_past_2_to_the_4_is_refuted_at_the_widest_bound() {
    let v = json_with_code(&["prove", "nim:2", "--program", "(x0 ^ x1) % 17"], 1);
    assert_eq!(v["status"], "refuted", "{v}");
    assert_eq!(v["scope"], "heaps below 2^64", "{v}");
    let c = &v["counterexample"];
    assert_eq!(c["reason"], "move_between_zeros", "{v}");
    // Both positions are in the zero set ((x0 ^ x1) % 17 == 0), a move apart, and nim's
    // P-positions are never so.
    let (p, q) = (&c["position"], &c["move_to"]);
    let xor = |a: &serde_json::Value| a[0].as_u64().unwrap() ^ a[1].as_u64().unwrap();
    assert_eq!((xor(p) % 17, xor(q) % 17), (0, 0), "{v}");
    assert_eq!(
        p.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum::<u64>(),
        17
    );
}
