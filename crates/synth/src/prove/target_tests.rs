//! The indicator and sg targets and proofs over bit-vectors against brute force: every theorem
//! agrees with the SG values on a box (the whole scope, for a bit-vector proof), and every
//! refutation is confirmed by the SG values the rules give.

use std::collections::HashMap;

use super::check::options;
use super::tests::{agrees_on_box, all_ops, assert_real as assert_zero_real, brute_force, points};
use super::*;
use crate::interp;
use crate::lang::Op;
use grundy_core::catalog::spec::parse_hypergraph;
use grundy_core::error::Setting;
use grundy_core::game::Stones;

fn program(text: &str) -> Program {
    text.parse().unwrap()
}

/// SG values on [0,d)^n by the definition: the mex of the options' values.
fn sg_table(game: &HypergraphNim, d: u32) -> HashMap<Stones, u64> {
    fn sg(game: &HypergraphNim, p: &Stones, memo: &mut HashMap<Stones, u64>) -> u64 {
        if let Some(&v) = memo.get(p) {
            return v;
        }
        let seen: Vec<u64> = options(game, p)
            .unwrap()
            .iter()
            .map(|q| sg(game, q, memo))
            .collect();
        let v = (0..).find(|v| !seen.contains(v)).unwrap();
        memo.insert(p.clone(), v);
        v
    }
    let mut memo = HashMap::new();
    for x in points(game.graph().vertices(), d as i128) {
        let p: Stones = x.iter().map(|&v| v as u32).collect();
        sg(game, &p, &mut memo);
    }
    memo
}

fn value(p: &Program, x: &[u32]) -> u64 {
    let x: Vec<u64> = x.iter().map(|&v| v as u64).collect();
    interp::run(p, &x, interp::mask(64)).unwrap()
}

fn in_box(q: &[u32], d: u32) -> bool {
    q.iter().all(|&v| v < d)
}

fn run_with(spec: &str, text: &str, opts: Options) -> Theorem {
    let game = parse_hypergraph(spec).unwrap();
    prove(&game, &program(text), &opts).unwrap()
}

fn opts(target: Target, bound: Option<u32>) -> Options {
    Options {
        target,
        bound,
        timeout: Some(60.0),
        ..Default::default()
    }
}

/// Whether the program's value is the SG value on [0,d)^n.
fn is_sg_on_box(game: &HypergraphNim, p: &Program, d: u32) -> bool {
    sg_table(game, d)
        .iter()
        .filter(|(q, _)| in_box(q, d))
        .all(|(q, &v)| value(p, q) == v)
}

/// Whether the program is 0 exactly on the P-positions of [0,d)^n and 1 elsewhere.
fn is_indicator_on_box(game: &HypergraphNim, p: &Program, d: u32) -> bool {
    brute_force(game, d)
        .iter()
        .filter(|(q, _)| in_box(q, d))
        .all(|(q, &is_p)| value(p, q) == u64::from(!is_p))
}

/// A refutation about values holds by the rules: the program's values at the position and its
/// options, and the SG values, show the program is not what it claims.
fn assert_real(game: &HypergraphNim, p: &Program, c: &Counterexample) {
    let here = value(p, &c.position);
    let moves = options(game, &c.position).unwrap();
    let sg = sg_table(game, c.position.iter().max().unwrap() + 1);
    match c.reason {
        Reason::NotIndicator => {
            assert!(here > 1 && c.value == Some(here), "{c:?}");
            return;
        }
        Reason::SameValueOption => {
            let q = c.move_to.as_ref().unwrap();
            assert!(moves.iter().any(|m| m.as_slice() == q.as_slice()), "{c:?}");
            assert_eq!((Some(here), value(p, q)), (c.value, here), "{c:?}");
        }
        Reason::MissingValue => {
            let v = c.value.unwrap();
            assert!(v < here, "{c:?}");
            assert!(moves.iter().all(|m| value(p, m) != v), "{c:?}");
        }
        other => panic!("{other:?} is not about values"),
    }
    // The program is not the SG value here or at an option.
    let wrong = |q: &[u32]| value(p, q) != sg[&q.iter().copied().collect::<Stones>()];
    assert!(
        wrong(&c.position) || moves.iter().any(|m| wrong(m)),
        "{c:?}"
    );
}

#[test]
fn sg_theorems_agree_with_brute_force() {
    for (spec, text, bound, d, scope) in [
        ("nim:1", "Push(0)", None, 20, "all positions"),
        (
            "nim:2",
            "Push(0) Push(1) Xor",
            Some(4),
            16,
            "heaps below 2^4",
        ),
        // Without a bound: read column by column, for every position.
        ("nim:2", "Push(0) Push(1) Xor", None, 16, "all positions"),
        // With the widest bound, candidate moves prove it there.
        (
            "nim:2",
            "Push(0) Push(1) Xor",
            Some(64),
            16,
            "heaps below 2^64",
        ),
        (
            "nim:3",
            "Push(0) Push(1) Xor Push(2) Xor",
            Some(3),
            8,
            "heaps below 2^3",
        ),
    ] {
        let t = run_with(spec, text, opts(Target::Sg, bound));
        assert_eq!(t.verdict, Verdict::Proved, "{spec} {text}");
        assert_eq!(t.scope, scope, "{spec} {text}");
        // A bit-vector proof covers exactly the box [0,2^B)^n: brute force checks all of it (a
        // corner of it at the widest bound).
        let game = parse_hypergraph(spec).unwrap();
        assert!(is_sg_on_box(&game, &program(text), d), "{spec} {text}");
    }
}

#[test]
fn indicator_theorems_agree_with_brute_force() {
    for (spec, text, bound, d) in [
        (
            "path:3",
            "Push(2) Push(0) BooleanEq Push(1) RightShift BooleanNot",
            None,
            10,
        ),
        (
            "circular:4,2",
            "Push(0) Push(2) BooleanEq Push(1) Push(3) BooleanEq And BooleanNot",
            None,
            6,
        ),
        (
            "star:3",
            "Push(1) Push(2) Push(3) Xor BooleanEq Push(0) RightShift BooleanNot",
            Some(3),
            8,
        ),
    ] {
        let t = run_with(spec, text, opts(Target::Indicator, bound));
        assert_eq!(t.verdict, Verdict::Proved, "{spec} {text}");
        assert_eq!(t.width.is_some(), bound.is_some());
        let game = parse_hypergraph(spec).unwrap();
        assert!(is_indicator_on_box(&game, &program(text), d), "{spec}");
    }
}

#[test]
fn a_bit_vector_proof_agrees_with_the_linear_one() {
    let p3 = "Push(2) Push(0) BooleanEq Push(1) RightShift BooleanNot";
    let wrong = "Push(0) Push(2) Xor";
    for bound in [None, Some(3)] {
        let t = run_with("path:3", p3, opts(Target::Zero, bound));
        assert_eq!(t.verdict, Verdict::Proved, "{bound:?}");
        let Verdict::Refuted(c) = run_with("path:3", wrong, opts(Target::Zero, bound)).verdict
        else {
            panic!("{bound:?}: not refuted")
        };
        assert_eq!(c.reason, Reason::MoveBetweenZeros);
        assert_eq!(c.position.iter().sum::<u32>(), 1, "{c:?}");
    }
}

#[test]
fn wrong_sg_programs_are_refuted_with_real_counterexamples() {
    for (spec, text, beyond) in [
        // One instruction off: or for xor.
        ("nim:2", "Push(0) Push(1) Or", 0),
        ("nim:2", "Push(0) Push(1) Xor One Plus", 0),
        ("nim:1", "Push(0) One Plus", 0),
        // Right while x0 < 5, 0 past it.
        ("nim:2", "Push(0) Push(1) Xor Push(0) Const(5) Lt Mul", 5),
        ("nim:3", "Push(0) Push(1) Xor Push(2) Plus", 0),
    ] {
        let game = parse_hypergraph(spec).unwrap();
        let p = program(text);
        if beyond > 0 {
            assert!(is_sg_on_box(&game, &p, beyond), "{text}");
        }
        let Verdict::Refuted(c) = run_with(spec, text, opts(Target::Sg, None)).verdict else {
            panic!("{spec} {text}: not refuted")
        };
        assert_real(&game, &p, &c);
        assert!(c.position.iter().any(|&v| v >= beyond), "{c:?}");
    }
}

#[test]
fn wrong_indicators_are_refuted_with_the_value() {
    for (spec, text, bound) in [
        (
            "path:3",
            "Push(2) Push(0) BooleanEq Push(1) RightShift BooleanNot Const(2) Mul",
            None,
        ),
        (
            "circular:4,2",
            "Push(0) Push(2) Xor Push(1) Push(3) Xor Or",
            None,
        ),
        (
            "star:3",
            "Push(1) Push(2) Push(3) Xor BooleanEq Push(0) RightShift BooleanNot Const(2) Mul",
            Some(3),
        ),
    ] {
        let game = parse_hypergraph(spec).unwrap();
        let Verdict::Refuted(c) = run_with(spec, text, opts(Target::Indicator, bound)).verdict
        else {
            panic!("{spec} {text}: not refuted")
        };
        assert_eq!(c.reason, Reason::NotIndicator, "{c:?}");
        assert_real(&game, &program(text), &c);
    }
}

#[test]
fn the_width_is_the_least_with_no_wrap() {
    for (text, bound, width) in [
        ("Push(0) Push(1) Xor", 4, 4),
        ("Push(0) Push(1) Plus", 4, 5),
        ("Push(0) Push(1) Mul", 4, 8),
        ("Push(0) Push(1) LeftShift", 2, 5),
    ] {
        let t = run_with("nim:2", text, opts(Target::Zero, Some(bound)));
        assert_eq!(t.width, Some(width), "{text}");
        assert_eq!(t.scope, format!("heaps below 2^{bound}"));
        if width > bound {
            let asked = Options {
                width: Some(width - 1),
                ..opts(Target::Zero, Some(bound))
            };
            let game = parse_hypergraph("nim:2").unwrap();
            let e = prove(&game, &program(text), &asked).unwrap_err();
            assert_eq!(e.raise(), Some(Setting::Width), "{e}");
            assert!(
                e.to_string()
                    .contains(&format!("the program needs {width} bits")),
                "{e}"
            );
        }
    }
    // ~x0 is below 0 at every width: no bit-vector proof.
    let game = parse_hypergraph("nim:2").unwrap();
    let e = prove(&game, &program("Push(0) Not"), &opts(Target::Zero, Some(3))).unwrap_err();
    assert!(e.to_string().contains("`~x0`"), "{e}");
}

/// A difference whose value matters only as zero or not may go below 0 over bit-vectors: it is
/// 0 exactly when its sides are equal, at every width. nim:3's `x0 - (x1 ^ x2)` is proved, and
/// of the programs one instruction away, each proved one agrees with brute force on the whole
/// scope, each refuted one fails by the rules, and each refused one has a step whose wrap the
/// zero set depends on.
#[test]
fn a_difference_compared_with_zero_may_wrap() {
    let game = parse_hypergraph("nim:3").unwrap();
    let base = program("Push(0) Push(1) Push(2) Xor Minus");
    let t = prove(&game, &base, &opts(Target::Zero, Some(2))).unwrap();
    assert_eq!((t.verdict, t.width), (Verdict::Proved, Some(2)));
    let choices: Vec<Op> = (0..3).map(Op::Push).chain(all_ops()).collect();
    let (mut proved, mut refuted, mut refused) = (0, 0, 0);
    for p in crate::testing::mutants(&base, &choices) {
        let t = match prove(&game, &p, &opts(Target::Zero, Some(2))) {
            Ok(t) => t,
            Err(e) => {
                assert!(matches!(e, Error::Usage(_)), "{p}: {e}");
                refused += 1;
                continue;
            }
        };
        match t.verdict {
            Verdict::Proved => {
                proved += 1;
                assert!(
                    agrees_on_box(&game, &p, false, 4),
                    "{p} proved, brute force disagrees"
                );
            }
            Verdict::Refuted(c) => {
                refuted += 1;
                assert_zero_real(&game, &p, false, &c);
            }
            Verdict::Unknown(why) => panic!("{p}: {why}"),
        }
    }
    eprintln!("mutants of x0 - (x1 ^ x2): {proved} proved, {refuted} refuted, {refused} refused");
    assert!(proved >= 1 && refuted > 20 && refused > 0);
    // Under Xor the difference's value matters: refused, naming the step.
    let xor = program("Push(0) Push(1) Minus Push(2) Xor");
    let e = prove(&game, &xor, &opts(Target::Zero, Some(2))).unwrap_err();
    assert!(e.to_string().contains("`x0 - x1`"), "{e}");
    // Under BooleanNot only its being 0 matters, whatever the target: !!(x0 - x1) is nim:2's
    // indicator; x0 - x1 itself is not one (its value is claimed) and is refused.
    let nim2 = parse_hypergraph("nim:2").unwrap();
    let not_not = program("Push(0) Push(1) Minus BooleanNot BooleanNot");
    let t = prove(&nim2, &not_not, &opts(Target::Indicator, Some(3))).unwrap();
    assert_eq!(t.verdict, Verdict::Proved);
    assert!(is_indicator_on_box(&nim2, &not_not, 8));
    let minus = program("Push(0) Push(1) Minus");
    assert!(prove(&nim2, &minus, &opts(Target::Indicator, Some(3))).is_err());
    assert_eq!(
        prove(&nim2, &minus, &opts(Target::Zero, Some(3)))
            .unwrap()
            .verdict,
        Verdict::Proved
    );
}

/// Changing one instruction of nim's SG value x0 ^ x1: whatever stays proved for heaps below
/// 2^2 is the SG value on all of that box; whatever is refuted is wrong by the rules.
#[test]
fn one_changed_instruction_of_an_sg_program() {
    let game = parse_hypergraph("nim:2").unwrap();
    let base = program("Push(0) Push(1) Xor");
    let choices: Vec<Op> = [Op::Push(0), Op::Push(1)]
        .into_iter()
        .chain(all_ops())
        .collect();
    let (mut proved, mut refuted) = (0, 0);
    for p in crate::testing::mutants(&base, &choices) {
        // Wrapping mutants (x0 - x1) are refused, not proved.
        let Ok(t) = prove(&game, &p, &opts(Target::Sg, Some(2))) else {
            continue;
        };
        match t.verdict {
            Verdict::Proved => {
                proved += 1;
                assert!(
                    is_sg_on_box(&game, &p, 4),
                    "{p} proved, brute force disagrees"
                );
            }
            Verdict::Refuted(c) => {
                refuted += 1;
                assert_real(&game, &p, &c);
            }
            Verdict::Unknown(_) => {}
        }
    }
    eprintln!("sg mutants: {proved} proved, {refuted} refuted");
    assert!(refuted > 20, "{refuted} refuted");
}
