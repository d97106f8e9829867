//! The heap prover against brute force: theorems agree with the P-positions found by the
//! definition on a box, wrong programs are refuted with counterexamples that hold by the
//! rule's own moves, and so are one-instruction mutants of a theorem.

use std::collections::HashMap;

use super::*;
use crate::lang::Op;
use crate::prove::check::in_zero_set;
use crate::prove::reading::zero_condition;
use crate::prove::{Counterexample, Reason};
use grundy_core::game::heap::{GrundysGame, TakeBreak};
use grundy_core::game::Stones;

fn program(text: &str) -> Program {
    text.parse().unwrap()
}

/// The sum of `heaps` heaps of the rule `spec` names.
fn sum(spec: &str, heaps: usize) -> HeapSum {
    let rule: Box<dyn HeapRule> = match spec.split_once(':') {
        Some(("subtraction", set)) => Box::new(TakeBreak::subtraction(spec, set).unwrap()),
        Some(("octal", code)) => Box::new(TakeBreak::octal(spec, code).unwrap()),
        _ => Box::new(GrundysGame),
    };
    HeapSum::new(rule, heaps).unwrap()
}

fn options(game: &HeapSum, p: &[u32]) -> Vec<Stones> {
    let mut out = Vec::new();
    game.successors(&p.iter().copied().collect(), MoveOrder::Natural, &mut out);
    out
}

/// P-positions on [0,d)^n by the definition (no move to a P-position), by the rule's moves.
fn brute_force(game: &HeapSum, d: u32) -> HashMap<Vec<u32>, bool> {
    fn p_position(game: &HeapSum, p: &[u32], memo: &mut HashMap<Vec<u32>, bool>) -> bool {
        if let Some(&v) = memo.get(p) {
            return v;
        }
        let v = !options(game, p).iter().any(|q| p_position(game, q, memo));
        memo.insert(p.to_vec(), v);
        v
    }
    let n = game.variables();
    let mut memo = HashMap::new();
    let mut p = vec![0u32; n];
    loop {
        p_position(game, &p, &mut memo);
        let Some(i) = (0..n).find(|&i| p[i] + 1 < d) else {
            break;
        };
        p[i] += 1;
        p[..i].iter_mut().for_each(|v| *v = 0);
    }
    memo
}

fn identity(n: usize) -> Vec<Vec<usize>> {
    vec![(0..n).collect()]
}

/// Whether the program's zero set is the P-positions on [0,d)^n.
fn agrees_on_box(game: &HeapSum, p: &Program, d: u32) -> bool {
    let images = identity(game.variables());
    brute_force(game, d)
        .iter()
        .filter(|(q, _)| q.iter().all(|&v| v < d))
        .all(|(q, &is_p)| in_zero_set(p, &images, q) == is_p)
}

/// The counterexample holds by the rule's moves and the interpreter, and the Sprague-Grundy
/// values agree that the zero set is wrong there.
fn assert_real(game: &HeapSum, p: &Program, c: &Counterexample) {
    let zero = |q: &[u32]| in_zero_set(p, &identity(game.variables()), q);
    let moves = options(game, &c.position);
    match c.reason {
        Reason::MoveBetweenZeros => {
            let q = c.move_to.as_ref().unwrap();
            assert!(zero(&c.position) && zero(q), "{c:?}");
            assert!(moves.iter().any(|m| m.as_slice() == q.as_slice()), "{c:?}");
            assert!(
                game.nimber(&c.position) != 0 || game.nimber(q) != 0,
                "{c:?}"
            );
        }
        Reason::NoMoveToZero => {
            assert!(!zero(&c.position), "{c:?}");
            assert!(moves.iter().all(|m| !zero(m)), "{c:?}");
            assert_eq!(game.nimber(&c.position), 0, "{c:?}");
        }
        other => panic!("a zero-target proof gave {other:?}"),
    }
}

fn run(game: &HeapSum, p: &Program) -> Verdict {
    let opts = Options {
        orbits: false,
        timeout: Some(60.0),
        ..Options::default()
    };
    prove(game, p, &opts).unwrap().verdict
}

/// xor of the heaps mod 3 for S = {1, 2}.
const MOD3: &str = "Push(0) Const(3) Mod Push(1) Const(3) Mod Xor Push(2) Const(3) Mod Xor";

#[test]
fn the_amounts_are_read_off_the_rule() {
    let all = |k| Take {
        amount: k,
        whole: true,
        part: true,
    };
    let t = takes(sum("subtraction:1,2,3", 1).game().rule()).unwrap();
    assert_eq!(t, vec![all(1), all(2), all(3)]);
    let t = takes(sum("subtraction:2,5", 1).game().rule()).unwrap();
    assert_eq!(t, vec![all(2), all(5)]);
    // 0.13: 1 only from a heap of exactly 1; 2 from a heap of 2 or more.
    let t = takes(sum("octal:0.13", 1).game().rule()).unwrap();
    let one = Take {
        amount: 1,
        whole: true,
        part: false,
    };
    assert_eq!(t, vec![one, all(2)]);
    for spec in [
        "octal:0.77",
        "subtraction:all-but:1",
        "grundy-game",
        "octal:4.03",
    ] {
        let e = takes(sum(spec, 1).game().rule()).unwrap_err();
        assert!(matches!(e, Error::Usage(_)), "{spec}: {e}");
    }
}

#[test]
fn periodic_classifiers_are_theorems_and_agree_with_brute_force() {
    for (spec, heaps, text, words) in [
        (
            "subtraction:1,2,3",
            3,
            "Const(3) Push(0) Push(1) Push(2) Xor Minus And",
            "x0 mod 4 = (x1 mod 4) XOR (x2 mod 4)",
        ),
        (
            "subtraction:1,2",
            2,
            "Push(0) Const(3) Mod Push(1) Const(3) Mod Xor",
            "x0 mod 3 = x1 mod 3",
        ),
        (
            "subtraction:1,2",
            3,
            MOD3,
            "(x0 mod 3) XOR (x1 mod 3) = x2 mod 3",
        ),
        (
            "subtraction:1,3",
            3,
            "Push(0) One And Push(1) One And Xor Push(2) One And Xor",
            "(x0 mod 2) XOR (x1 mod 2) = x2 mod 2",
        ),
    ] {
        let game = sum(spec, heaps);
        let p = program(text);
        let t = prove(&game, &p, &Options::default()).unwrap();
        assert_eq!(t.verdict, Verdict::Proved, "{spec} {text}");
        assert_eq!(t.reading.words, words);
        assert!(agrees_on_box(&game, &p, 13), "{spec} {text}");
    }
}

#[test]
fn a_period_off_by_one_is_refuted_by_the_rules() {
    // S = {1, 2, 3} has period 4, not 3.
    let game = sum("subtraction:1,2,3", 2);
    let p = program("Push(0) Const(3) Mod Push(1) Const(3) Mod Xor");
    let Verdict::Refuted(c) = run(&game, &p) else {
        panic!("not refuted")
    };
    assert_real(&game, &p, &c);
    assert!(!agrees_on_box(&game, &p, 8));
}

#[test]
fn a_dropped_heap_is_refuted_by_the_rules() {
    let game = sum("subtraction:1,2", 3);
    let p = program("Push(0) Const(3) Mod Push(1) Const(3) Mod Xor");
    let Verdict::Refuted(c) = run(&game, &p) else {
        panic!("not refuted")
    };
    assert_real(&game, &p, &c);
    // (0,0,1) is in the set and moves to (0,0,0): the least total.
    assert_eq!(c.position.iter().sum::<u32>(), 1, "{c:?}");
}

#[test]
fn a_program_right_on_a_box_and_wrong_past_it_is_refuted_past_it() {
    // x0 = x1: the P-positions of two heaps of S = {1, 2, 3} on [0,4)^2, not at (4, 0).
    let game = sum("subtraction:1,2,3", 2);
    let p = program("Push(0) Push(1) Xor");
    assert!(agrees_on_box(&game, &p, 4));
    let Verdict::Refuted(c) = run(&game, &p) else {
        panic!("not refuted")
    };
    assert_real(&game, &p, &c);
    assert_eq!(c.reason, Reason::NoMoveToZero);
    assert_eq!(c.position.iter().sum::<u32>(), 4, "{c:?}");
}

/// Changing one instruction of a theorem: whatever the prover then proves, brute force agrees
/// with; whatever it refutes, the counterexample holds by the rules.
#[test]
fn one_changed_instruction_is_proved_only_where_brute_force_agrees() {
    let game = sum("subtraction:1,2", 2);
    let base = program("Push(0) Const(3) Mod Push(1) Const(3) Mod Xor");
    let choices = [
        Op::Push(0),
        Op::Push(1),
        Op::Const(2),
        Op::Const(3),
        Op::Const(4),
        Op::One,
        Op::Mod,
        Op::Xor,
        Op::And,
        Op::Or,
        Op::Minus,
        Op::Plus,
        Op::BooleanEq,
    ];
    let (mut proved, mut refuted) = (0, 0);
    for p in crate::testing::mutants(&base, &choices) {
        if zero_condition(&p).is_err() {
            continue;
        }
        match run(&game, &p) {
            Verdict::Proved => {
                proved += 1;
                assert!(
                    agrees_on_box(&game, &p, 13),
                    "{p} proved, brute force disagrees"
                );
            }
            Verdict::Refuted(c) => {
                refuted += 1;
                assert_real(&game, &p, &c);
            }
            Verdict::Unknown(why) => panic!("{p}: {why}"),
        }
    }
    eprintln!("mutants: {proved} proved, {refuted} refuted");
    assert!(refuted > 20, "{refuted} refuted");
    // x1 mod 3 ^ x0 mod 3 is no mutant, but a remainder read by Minus is the same set.
    assert!(proved >= 1, "{proved} proved");
}

#[test]
fn orbits_and_bad_input() {
    let game = sum("subtraction:1,2", 2);
    // x0 mod 3 = x1 mod 3 is its own mirror image.
    let p = program("Push(0) Const(3) Mod Push(1) Const(3) Mod Xor");
    let opts = Options {
        orbits: true,
        timeout: Some(60.0),
        ..Options::default()
    };
    let t = prove(&game, &p, &opts).unwrap();
    assert_eq!((t.verdict, t.automorphisms), (Verdict::Proved, 2));
    let e = prove(&game, &program("Push(2)"), &Options::default()).unwrap_err();
    assert_eq!(e.kind(), grundy_core::error::Kind::BadInput, "{e}");
    assert_eq!(e.raise(), Some(grundy_core::error::Setting::Heaps), "{e}");
    // x0 ^ x1 ^ x2 mod 3 has no exact reading: the xor is unbounded and 3 is no power of 2.
    let e = prove(
        &sum("subtraction:1,2", 3),
        &program("Push(0) Push(1) Xor Push(2) Xor Const(3) Mod"),
        &Options::default(),
    )
    .unwrap_err();
    assert!(matches!(e, Error::Usage(_)), "{e}");
}

/// The zero set after a move, as z3 is given it (remainders rewritten through the position's),
/// agrees with the set at the position the move leaves, by evaluation and in z3.
#[test]
fn remainders_after_a_move_are_rewritten_exactly() {
    use z3::ast::{Ast, Int};
    let f = zero_condition(&program(
        "Const(3) Push(0) Push(1) Push(2) Xor Minus And Push(1) Const(3) Mod Plus",
    ))
    .unwrap();
    let set = ZeroSet {
        zero: f.clone(),
        images: identity(3),
    };
    for x in [[7i128, 5, 9], [3, 3, 0], [12, 6, 10], [4, 8, 1], [9, 9, 9]] {
        for v in 0..3 {
            for k in 0..=x[v] {
                let mut y = x;
                y[v] -= k;
                assert_eq!(f.shifted(v as u8, k).eval(&x), f.eval(&y), "{x:?} {v} {k}");
                if k % 3 == 1 {
                    let p: Vec<Int> = x.iter().map(|&c| Int::from_i64(c as i64)).collect();
                    let z = set.z3_after(&p, v, k as u64).simplify().as_bool();
                    assert_eq!(z, f.eval(&y), "{x:?} {v} {k}");
                }
            }
        }
    }
}

/// Programs with no linear reading are read column by column: mutants of `(x0 ^ x1) & (1 -
/// ~1)` (x0 = x1 mod 4 for S = {1, 2, 3}) are proved only where brute force agrees, and
/// refuted by the rule's moves otherwise.
#[test]
fn programs_with_no_linear_reading_are_proved_only_where_brute_force_agrees() {
    let game = sum("subtraction:1,2,3", 2);
    let base = program("Push(0) Push(1) Xor One One Not Minus And");
    assert_eq!(run(&game, &base), Verdict::Proved);
    let choices = [
        Op::Push(0),
        Op::Push(1),
        Op::One,
        Op::Not,
        Op::Xor,
        Op::And,
        Op::Or,
        Op::Minus,
        Op::Plus,
        Op::Lt,
        Op::Min,
    ];
    let (mut proved, mut refuted) = (0, 0);
    let opts = Options::default();
    for p in crate::testing::mutants(&base, &choices) {
        if zero_condition(&p).is_ok() {
            continue;
        }
        match prove(&game, &p, &opts).map(|t| t.verdict) {
            Ok(Verdict::Proved) => {
                proved += 1;
                assert!(
                    agrees_on_box(&game, &p, 13),
                    "{p} proved, brute force disagrees"
                );
            }
            Ok(Verdict::Refuted(c)) => {
                refuted += 1;
                assert_real(&game, &p, &c);
            }
            _ => {}
        }
    }
    assert!(
        proved >= 1 && refuted > 10,
        "{proved} proved, {refuted} refuted"
    );
}
