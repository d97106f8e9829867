//! The column-by-column proofs against brute force and against programs right only on a box.

use super::super::tests::{agrees_on_box, assert_real};
use super::*;
use crate::testing::{mutants, random_programs};
use grundy_core::catalog::spec::parse_hypergraph;

fn decide_on(spec: &str, text: &str, target: Target) -> Result<(Verdict, usize), String> {
    let game = parse_hypergraph(spec).unwrap();
    let program: Program = text.parse().unwrap();
    let n = game.graph().vertices();
    let images = vec![(0..n).collect::<Vec<_>>()];
    let clock = Clock { deadline: None };
    decide(&game, &program, &images, target, &clock).unwrap()
}

#[test]
fn xor_characterizations_hold_for_every_position() {
    for (spec, text, target) in [
        ("nim:3", "x0 ^ x1 ^ x2", Target::Zero),
        ("nim:3", "x0 - (x1 ^ x2)", Target::Zero),
        ("star:3", "(x1 ^ x2 ^ x3) | x0", Target::Zero),
        ("nim:3", "x0 ^ x1 ^ x2", Target::Sg),
        ("shriek", "(x0 + x1) ^ x2", Target::Sg),
    ] {
        let (verdict, states) = decide_on(spec, text, target).unwrap();
        assert_eq!(verdict, Verdict::Proved, "{spec} {text}");
        assert!(states > 0);
    }
}

/// Right on heaps below 16 and wrong past them: refuted, by a counterexample the rules confirm.
#[test]
fn a_program_right_only_below_a_bound_is_refuted() {
    let game = parse_hypergraph("nim:2").unwrap();
    let text = "(x0 ^ x1) & 15";
    assert!(agrees_on_box(&game, &text.parse().unwrap(), false, 16));
    let (verdict, _) = decide_on("nim:2", text, Target::Zero).unwrap();
    let Verdict::Refuted(c) = verdict else {
        panic!("{verdict:?}")
    };
    assert_real(&game, &text.parse().unwrap(), false, &c);
    assert!(c.position.iter().any(|&x| x >= 16), "{c:?}");
}

#[test]
fn steps_that_are_not_automatic_are_left_to_the_bounded_proof() {
    let why = decide_on("nim:2", "(x0 ^ x1) % 17", Target::Zero).unwrap_err();
    assert!(why.contains("Mod"), "{why}");
}

/// Whatever the search proves of random programs, and of the mutants of right ones (one
/// instruction changed), agrees with the definition on a box, and whatever it refutes is
/// refuted by the rules.
#[test]
fn random_programs_and_mutants_agree_with_brute_force() {
    let ops = [
        Op::Plus,
        Op::Minus,
        Op::Xor,
        Op::And,
        Op::Or,
        Op::Not,
        Op::Min,
        Op::Max,
        Op::Lt,
        Op::BooleanEq,
        Op::BooleanNot,
        Op::One,
    ];
    let right = [
        ("nim:2", 2, "x0 ^ x1"),
        ("nim:3", 3, "x0 ^ x1 ^ x2"),
        ("nim:3", 3, "x0 - (x1 ^ x2)"),
        ("star:2", 3, "(x1 ^ x2) | x0"),
    ];
    let (mut proved, mut refuted) = (0, 0);
    for (seed, (spec, vars, text)) in right.into_iter().enumerate() {
        let game = parse_hypergraph(spec).unwrap();
        let mut programs = random_programs(seed as u64, vars, crate::testing::cases(15, 200), &ops);
        let base: Program = text.parse().unwrap();
        let mut choices = ops.to_vec();
        choices.extend((0..vars).map(Op::Push));
        programs.extend(mutants(&base, &choices));
        for program in programs {
            let text = program.to_string();
            match decide_on(spec, &text, Target::Zero) {
                Ok((Verdict::Proved, _)) => {
                    assert!(agrees_on_box(&game, &program, false, 9), "{spec} {text}");
                    proved += 1;
                }
                Ok((Verdict::Refuted(c), _)) => {
                    assert_real(&game, &program, false, &c);
                    refuted += 1;
                }
                _ => {}
            }
        }
    }
    assert!(
        proved > 4 && refuted > 50,
        "{proved} proved, {refuted} refuted"
    );
}
