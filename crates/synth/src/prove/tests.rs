//! The reading rules against the interpreter, and the prover against brute force.

use std::collections::HashMap;

use z3::ast::Ast;

use super::check::{in_zero_set, options};
use super::formula::Style;
use super::reading::zero_condition;
use super::*;
use crate::interp;
use crate::lang::{Op, THESIS_OPS};
use grundy_core::catalog::spec::parse_hypergraph;
use grundy_core::game::Stones;

fn program(text: &str) -> Program {
    text.parse().unwrap()
}

fn words(text: &str) -> Result<String, String> {
    zero_condition(&program(text)).map(|f| f.text(Style::Words))
}

#[test]
fn the_thesis_classifiers_read_as_equalities() {
    let p3 = "Push(2) Push(0) BooleanEq Push(1) RightShift BooleanNot";
    assert_eq!(words(p3).unwrap(), "x2 = x0 and x1 = 0");
    assert_eq!(words("Push(0) Push(1) Xor").unwrap(), "x0 = x1");
    let circ = "Push(0) Push(2) Xor Push(1) Push(3) Xor Or";
    assert_eq!(words(circ).unwrap(), "x0 = x2 and x1 = x3");
    let f = zero_condition(&program(p3)).unwrap();
    assert_eq!(f.text(Style::Infix), "x2 == x0 && x1 == 0");
    assert_eq!(f.text(Style::Latex), "x_{2} = x_{0} \\land x_{1} = 0");
}

#[test]
fn sums_and_differences_are_exact_over_the_naturals() {
    // x0 + x1 never wraps over unbounded naturals: its xor with x2 is 0 iff they are equal.
    assert_eq!(
        words("Push(0) Push(1) Plus Push(2) Xor").unwrap(),
        "x0 + x1 = x2"
    );
    // A sum of naturals is 0 iff both are; with a difference (which may be negative) not.
    assert_eq!(words("Push(0) Push(1) Plus").unwrap(), "x0 = 0 and x1 = 0");
    assert_eq!(
        words("Push(0) Push(1) Minus Push(2) Plus").unwrap(),
        "x0 - x1 + x2 = 0"
    );
    assert_eq!(words("Push(0) Push(1) Mul").unwrap(), "x0 = 0 or x1 = 0");
    assert_eq!(words("Push(0) Push(1) Div").unwrap(), "x1 = 0 or x0 < x1");
}

#[test]
fn steps_without_a_linear_reading_say_why() {
    let why = words("Push(0) Push(1) Xor Push(2) Xor").unwrap_err();
    assert!(why.contains("`x0 ^ x1`"), "{why}");
    let why = words("Push(0) Push(1) Minus Push(2) Div").unwrap_err();
    assert!(why.contains("negative"), "{why}");
    // A comparison of a difference reads which word is above, the same at every width.
    assert_eq!(
        words("Push(0) Push(1) Minus Push(2) Lt").unwrap(),
        "x0 - x1 < 0 or x0 - x1 >= x2"
    );
    assert!(words("Push(0) Push(1) Mul Push(2) Xor").is_err());
}

/// The ideal value of the module documentation of [`reading`]: integers for ring and bitwise
/// steps, whole-word steps of naturals only.
#[derive(Debug, PartialEq)]
enum Ideal {
    Value(i128),
    /// A quotient, remainder or right shift of a negative number (no width-free meaning).
    Negative,
    /// Too large to trust 128-bit arithmetic.
    Large,
}

/// The ideal output at `x`, and whether every step fits a 64-bit word (no value beyond 2^62
/// in size, no shift by 64 or more), where the interpreter at 64 bits must agree mod 2^64.
fn ideal(p: &Program, x: &[i128]) -> (Ideal, bool) {
    const BIG: i128 = 1 << 100;
    let mut fits = true;
    let mut stack: Vec<i128> = Vec::new();
    for &op in &p.0 {
        let v = match op.arity() {
            0 => match op {
                Op::Push(i) => x[i as usize],
                _ => op.constant().unwrap() as i128,
            },
            1 => {
                let a = stack.pop().unwrap();
                match op {
                    Op::Not => -1 - a,
                    _ => (a == 0) as i128,
                }
            }
            _ => {
                let b = stack.pop().unwrap();
                let a = stack.pop().unwrap();
                // A remainder by 2^k sees the low k digits alone, of any integer.
                let low_digits = op == Op::Mod && b > 0 && b.count_ones() == 1;
                let whole = matches!(op, Op::Div | Op::Mod | Op::RightShift) && !low_digits;
                // Comparisons see which word is above: a negative one above every natural.
                let key = |v: i128| (v < 0, v);
                if whole && (a < 0 || b < 0) {
                    return (Ideal::Negative, false);
                }
                match op {
                    Op::Plus => a + b,
                    Op::Minus => a - b,
                    Op::Mul => match a.checked_mul(b) {
                        Some(v) => v,
                        None => return (Ideal::Large, false),
                    },
                    Op::And => a & b,
                    Op::Or => a | b,
                    Op::Xor => a ^ b,
                    Op::LeftShift if b < 0 => return (Ideal::Negative, false),
                    Op::LeftShift if a == 0 => 0,
                    Op::LeftShift if b > 90 => return (Ideal::Large, false),
                    Op::LeftShift => {
                        fits &= b < 64;
                        match a.checked_mul(1 << b) {
                            Some(v) => v,
                            None => return (Ideal::Large, false),
                        }
                    }
                    Op::RightShift => {
                        fits &= b < 64;
                        if b >= 127 {
                            0
                        } else {
                            a >> b
                        }
                    }
                    Op::Div => a.checked_div(b).unwrap_or(0),
                    Op::Mod => match b {
                        0 => a,
                        b => a.rem_euclid(b),
                    },
                    Op::BooleanEq => (a == b) as i128,
                    Op::Lt => (key(a) < key(b)) as i128,
                    Op::Min => match key(a) <= key(b) {
                        true => a,
                        false => b,
                    },
                    Op::Max => match key(b) <= key(a) {
                        true => a,
                        false => b,
                    },
                    _ => unreachable!(),
                }
            }
        };
        if v.abs() >= BIG {
            return (Ideal::Large, false);
        }
        fits &= v.abs() < 1 << 62;
        stack.push(v);
    }
    (Ideal::Value(stack[0]), fits)
}

/// Every instruction: the thesis's and the extensions, with two constants.
pub(super) fn all_ops() -> Vec<Op> {
    let extra = [
        Op::Mod,
        Op::Min,
        Op::Max,
        Op::Lt,
        Op::Const(3),
        Op::Const(2),
    ];
    THESIS_OPS.into_iter().chain(extra).collect()
}

pub(super) fn points(n: usize, d: i128) -> Vec<Vec<i128>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|p| {
                (0..d).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
    }
    out
}

/// Every rule is right: wherever a random program has a reading, the reading holds exactly
/// where the program's ideal value is 0, and that ideal value is what the interpreter computes
/// at 64 bits wherever nothing is too large for the word. The z3 translation agrees too.
#[test]
fn readings_agree_with_the_interpreter() {
    let programs =
        crate::testing::random_programs(41, 3, crate::testing::cases(4000, 40000), &all_ops());
    let pts = points(3, 7);
    let (mut read, mut compared, mut tied) = (0, 0, 0);
    for (k, p) in programs.iter().enumerate() {
        let Ok(f) = zero_condition(p) else { continue };
        read += 1;
        for x in &pts {
            let (v, fits) = ideal(p, x);
            let v = match v {
                Ideal::Value(v) => v,
                Ideal::Negative => {
                    panic!("{p}: a reading, but a whole-word step of a negative at {x:?}")
                }
                Ideal::Large => continue,
            };
            if fits {
                let xs: Vec<u64> = x.iter().map(|&v| v as u64).collect();
                let word = interp::run(p, &xs, u64::MAX).unwrap();
                assert_eq!(word, v as u64, "{p} at {x:?}: interpreter against ideal");
                tied += 1;
            }
            assert_eq!(
                f.eval(x),
                Some(v == 0),
                "{p} at {x:?}: reading {}",
                f.text(Style::Infix)
            );
            compared += 1;
            if k % 20 == 0 && x.iter().sum::<i128>() % 5 == 0 {
                let xs: Vec<z3::ast::Int> = x
                    .iter()
                    .map(|&v| z3::ast::Int::from_i64(v as i64))
                    .collect();
                let b = f.z3(&xs).simplify().as_bool();
                assert_eq!(b, Some(v == 0), "{p} at {x:?}: z3 against ideal");
            }
        }
    }
    eprintln!(
        "readings: {read} of {}, {compared} points, {tied} tied",
        programs.len()
    );
    // Most random programs have a reading, and nearly every point is compared.
    assert!(read * 3 > programs.len(), "{read} of {}", programs.len());
    assert!(tied * 10 > compared * 9, "{tied} of {compared}");
}

/// P-positions of `game` on the box [0,d)^n by the definition: no move to a P-position.
pub(super) fn brute_force(game: &HypergraphNim, d: u32) -> HashMap<Stones, bool> {
    fn p_position(game: &HypergraphNim, p: &Stones, memo: &mut HashMap<Stones, bool>) -> bool {
        if let Some(&v) = memo.get(p) {
            return v;
        }
        let moves = options(game, p).unwrap();
        let v = !moves.iter().any(|q| p_position(game, q, memo));
        memo.insert(p.clone(), v);
        v
    }
    let n = game.graph().vertices();
    let mut memo = HashMap::new();
    for x in points(n, d as i128) {
        let p: Stones = x.iter().map(|&v| v as u32).collect();
        p_position(game, &p, &mut memo);
    }
    memo
}

fn images_of(game: &HypergraphNim, orbits: bool) -> Vec<Vec<usize>> {
    super::images(game, orbits).unwrap()
}

/// Whether the program's zero set is the P-positions on [0,d)^n.
pub(super) fn agrees_on_box(game: &HypergraphNim, p: &Program, orbits: bool, d: u32) -> bool {
    let images = images_of(game, orbits);
    brute_force(game, d)
        .iter()
        .filter(|(q, _)| q.iter().all(|&v| v < d))
        .all(|(q, &is_p)| in_zero_set(p, &images, q) == is_p)
}

/// A refutation's counterexample holds by the rules, and shows the zero set is not the
/// P-positions: a move between two members, or a member missing (or a P-position extra).
pub(super) fn assert_real(game: &HypergraphNim, p: &Program, orbits: bool, c: &Counterexample) {
    let images = images_of(game, orbits);
    let zero = |q: &[u32]| in_zero_set(p, &images, q);
    let moves = options(game, &c.position).unwrap();
    match c.reason {
        Reason::MoveBetweenZeros => {
            let q = c.move_to.as_ref().unwrap();
            assert!(zero(&c.position) && zero(q), "{c:?}");
            assert!(moves.iter().any(|m| m.as_slice() == q.as_slice()), "{c:?}");
        }
        Reason::NoMoveToZero => {
            assert!(!zero(&c.position), "{c:?}");
            assert!(moves.iter().all(|m| !zero(m)), "{c:?}");
        }
        other => panic!("a reason about the program's value, {other:?}, for the zero target"),
    }
}

fn run(spec: &str, text: &str, orbits: bool) -> Theorem {
    let game = parse_hypergraph(spec).unwrap();
    let opts = Options {
        orbits,
        timeout: Some(60.0),
        ..Default::default()
    };
    prove(&game, &program(text), &opts).unwrap()
}

#[test]
fn the_thesis_classifiers_are_theorems_and_agree_with_brute_force() {
    for (spec, text, orbits, d) in [
        (
            "path:3",
            "Push(2) Push(0) BooleanEq Push(1) RightShift BooleanNot",
            false,
            10,
        ),
        ("nim:2", "Push(0) Push(1) Xor", false, 16),
        (
            "circular:4,2",
            "Push(0) Push(2) Xor Push(1) Push(3) Xor Or",
            false,
            6,
        ),
        ("path:3", "Push(0) Push(2) Xor Push(1) Or", true, 10),
    ] {
        let t = run(spec, text, orbits);
        assert_eq!(t.verdict, Verdict::Proved, "{spec} {text}");
        assert_eq!(t.scope, "all positions");
        let game = parse_hypergraph(spec).unwrap();
        assert!(
            agrees_on_box(&game, &program(text), orbits, d),
            "{spec} {text}"
        );
    }
}

/// x0 = x2, x1 = x3 and x0 <= x1 holds of one rotation of every P-position of CN(4,2): a
/// theorem with --orbits, refuted without (where (1,0,1,0) is left out).
#[test]
fn orbits_make_a_half_set_whole() {
    let text = "Push(0) Push(2) Xor Push(1) Push(3) Xor Or Push(1) Push(0) Lt Or";
    let game = parse_hypergraph("circular:4,2").unwrap();
    let t = run("circular:4,2", text, true);
    assert_eq!(t.verdict, Verdict::Proved);
    assert_eq!(t.automorphisms, 8);
    assert!(agrees_on_box(&game, &program(text), true, 6));
    let Verdict::Refuted(c) = run("circular:4,2", text, false).verdict else {
        panic!("proved without orbits")
    };
    assert_real(&game, &program(text), false, &c);
    assert_eq!(c.reason, Reason::NoMoveToZero);
    assert_eq!(c.position.as_slice(), &[1, 0, 1, 0]);
}

#[test]
fn a_dropped_condition_is_refuted_with_a_small_counterexample() {
    let text = "Push(0) Push(2) Xor";
    let t = run("path:3", text, false);
    let Verdict::Refuted(c) = &t.verdict else {
        panic!("{:?}", t.verdict)
    };
    let game = parse_hypergraph("path:3").unwrap();
    assert_real(&game, &program(text), false, c);
    // (0,1,0) is zero and moves to (0,0,0): the least total.
    assert_eq!(c.position.iter().sum::<u32>(), 1, "{c:?}");
}

#[test]
fn a_program_right_on_a_box_and_wrong_past_it_is_refuted_past_it() {
    // x0 = x1, or x0 >= 5: the P-positions of nim on [0,5)^2, and more beyond.
    let text = "Push(0) Push(1) Xor Push(0) Const(5) Lt Mul";
    let game = parse_hypergraph("nim:2").unwrap();
    assert!(agrees_on_box(&game, &program(text), false, 5));
    assert!(!agrees_on_box(&game, &program(text), false, 8));
    let Verdict::Refuted(c) = run("nim:2", text, false).verdict else {
        panic!("not refuted")
    };
    assert_real(&game, &program(text), false, &c);
    assert!(c.position.iter().any(|&v| v >= 5), "{c:?}");
    assert_eq!(c.position.iter().sum::<u32>(), 5, "{c:?}");
}

#[test]
fn a_missing_zero_is_refuted_as_no_move_to_zero() {
    // x0 = x1 and x0 even: (1,1) is a P-position left out, and it has no move into the set.
    let text = "Push(0) Push(1) Xor Push(0) One And Or";
    let game = parse_hypergraph("nim:2").unwrap();
    let Verdict::Refuted(c) = run("nim:2", text, false).verdict else {
        panic!("not refuted")
    };
    assert_eq!(c.reason, Reason::NoMoveToZero);
    assert_eq!(c.position.as_slice(), &[1, 1]);
    assert_real(&game, &program(text), false, &c);
}

/// Changing one instruction of a proved program: whatever the prover then proves, brute
/// force agrees with; whatever it refutes, the counterexample holds by the rules.
#[test]
fn one_changed_instruction_is_proved_only_where_brute_force_agrees() {
    let (mut proved, mut refuted) = (0, 0);
    for (spec, text, d) in [
        (
            "path:3",
            "Push(2) Push(0) BooleanEq Push(1) RightShift BooleanNot",
            10,
        ),
        ("nim:2", "Push(0) Push(1) Xor", 16),
        (
            "circular:4,2",
            "Push(0) Push(2) Xor Push(1) Push(3) Xor Or",
            6,
        ),
    ] {
        let game = parse_hypergraph(spec).unwrap();
        let n = game.graph().vertices() as u8;
        let base = program(text);
        let choices: Vec<Op> = (0..n).map(Op::Push).chain(all_ops()).collect();
        for p in crate::testing::mutants(&base, &choices) {
            if zero_condition(&p).is_err() {
                continue;
            }
            let opts = Options {
                orbits: false,
                timeout: Some(30.0),
                ..Default::default()
            };
            match prove(&game, &p, &opts).unwrap().verdict {
                Verdict::Proved => {
                    proved += 1;
                    assert!(
                        agrees_on_box(&game, &p, false, d),
                        "{spec}: {p} proved, but brute force disagrees"
                    );
                }
                Verdict::Refuted(c) => {
                    refuted += 1;
                    assert_real(&game, &p, false, &c);
                    assert!(
                        !agrees_on_box(&game, &p, false, d) || c.position.iter().any(|&v| v >= d)
                    );
                }
                Verdict::Unknown(_) => {}
            }
        }
    }
    eprintln!("mutants: {proved} proved, {refuted} refuted");
    assert!(refuted > 20, "{refuted} refuted");
    // Equivalent rewrites exist (x1 ^ x0, x0 - x1, a sum or a max for an or): they stay
    // theorems.
    assert!(proved >= 3, "{proved} proved");
}

#[test]
fn bad_input_is_refused() {
    let game = parse_hypergraph("path:3").unwrap();
    let e = prove(&game, &program("Push(3) Push(0) Xor"), &Options::default()).unwrap_err();
    assert!(matches!(e, Error::Usage(_)), "{e}");
    // No linear reading (a quotient of a difference), not read column by column, and over
    // bit-vectors the difference goes below 0: refused, naming the step.
    let e = prove(
        &game,
        &program("Push(0) Push(1) Minus Push(2) Div"),
        &Options::default(),
    )
    .unwrap_err();
    assert!(matches!(e, Error::Usage(_)), "{e}");
    assert!(e.to_string().contains("`x0 - x1`"), "{e}");
    let sg_orbits = Options {
        orbits: true,
        target: Target::Sg,
        ..Default::default()
    };
    let e = prove(&game, &program("Push(0)"), &sg_orbits).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Refused {
                key: OptionKey::Orbits,
                ..
            }
        ),
        "{e}"
    );
}

/// A random expression over bounded leaves (remainders, masks, constants) joined by bitwise
/// and ring steps, under a last step that is a remainder by 4, a mask, or a xor with a
/// remainder: the programs whose readings use `Term::Bitwise` and low digits.
fn bounded_program(next: &mut dyn FnMut(usize) -> usize, depth: usize) -> Vec<Op> {
    if depth == 0 || next(3) == 0 {
        let v = Op::Push(next(3) as u8);
        return match next(4) {
            0 => vec![v, Op::Const(3), Op::Mod],
            1 => vec![v, Op::Const(3), Op::And],
            2 => vec![v, Op::One, Op::And],
            _ => vec![Op::Const(2 + next(3) as u64)],
        };
    }
    let mut ops = bounded_program(next, depth - 1);
    ops.extend(bounded_program(next, depth - 1));
    let join = [Op::Xor, Op::And, Op::Or, Op::Plus, Op::Minus, Op::Xor];
    ops.push(join[next(join.len())]);
    ops
}

/// The bitwise and low-digit rules on programs built of bounded leaves: each reading holds
/// exactly where the ideal value is 0, and z3's digit-by-digit translation agrees.
#[test]
fn bounded_bitwise_readings_agree_with_the_interpreter() {
    let mut seed = 47u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let pts = points(3, 9);
    let (mut read, mut bitwise) = (0, 0);
    let count = crate::testing::cases(300, 3000);
    for _ in 0..count {
        let mut ops = bounded_program(&mut next, 3);
        match next(4) {
            0 => ops.extend([Op::Const(4), Op::Mod]),
            1 => ops.extend([Op::Const(3), Op::And]),
            2 => ops.extend([
                Op::Push(next(3) as u8),
                Op::Not,
                Op::Minus,
                Op::Const(3),
                Op::And,
            ]),
            _ => ops.extend([Op::Push(next(3) as u8), Op::Const(3), Op::Mod, Op::Xor]),
        }
        let p = Program(ops);
        let Ok(f) = zero_condition(&p) else { continue };
        read += 1;
        let infix = f.text(Style::Infix);
        // Words print bitwise steps in upper case, apart from the logical "and" and "or".
        let words = f.text(Style::Words);
        let digits = [" XOR ", " AND ", " OR "].iter().any(|s| words.contains(s));
        bitwise += digits as usize;
        for (i, x) in pts.iter().enumerate() {
            let Ideal::Value(v) = ideal(&p, x).0 else {
                panic!("{p} at {x:?}: a reading, but no ideal value")
            };
            let xs: Vec<u64> = x.iter().map(|&v| v as u64).collect();
            assert_eq!(
                interp::run(&p, &xs, u64::MAX),
                Some(v as u64),
                "{p} at {x:?}"
            );
            assert_eq!(f.eval(x), Some(v == 0), "{p} at {x:?}: reading {infix}");
            if i % 11 == 0 {
                let xs: Vec<z3::ast::Int> = x
                    .iter()
                    .map(|&v| z3::ast::Int::from_i64(v as i64))
                    .collect();
                let b = f.z3(&xs).simplify().as_bool();
                assert_eq!(b, Some(v == 0), "{p} at {x:?}: z3 against ideal ({infix})");
            }
        }
    }
    eprintln!("bounded programs: {read} read of {count}, {bitwise} with a bitwise step");
    assert!(read * 10 > count * 9, "{read} of {count}");
    assert!(bitwise * 3 > count, "{bitwise} of {count}");
}
