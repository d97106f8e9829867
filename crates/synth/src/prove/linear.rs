//! Conditions (A) and (B) in z3's linear integer arithmetic, for any game whose moves come in
//! finitely many linear kinds: a face of hypergraph nim (with its free decrements), or an
//! amount taken from one heap of a sum.
//!
//! (A): for no kind is there a p in Z with a legal move of that kind into Z, one check per
//! kind. (B): no p outside Z has every legal move of every kind leading outside Z, one check
//! in all, the free amounts of a kind under a universal block. "Unsat" proves a condition for
//! all positions; "sat" is a counterexample, made small by asking for a smaller total while
//! z3 finds one.

use z3::ast::{forall_const, Ast, Bool, Int};
use z3::{Model, Solver};

use super::clock::{Answer, Clock};
use super::{Counterexample, Reason, Verdict, ZeroSet};
use grundy_core::error::Error;

/// Most times a counterexample is re-solved for a smaller total.
const SHRINK_STEPS: usize = 24;

/// One move of some kind from a symbolic position.
pub(super) struct Step {
    /// When the move is legal.
    pub(super) legal: Bool,
    /// The position it leaves.
    pub(super) after: Vec<Int>,
    /// That position is in the zero set.
    pub(super) zero_after: Bool,
    /// The move's free amounts (none when the kind fixes them), quantified in (B).
    pub(super) amounts: Vec<Int>,
}

/// A game's moves as finitely many linear kinds.
pub(super) trait LinearMoves {
    /// How many kinds there are.
    fn kinds(&self) -> usize;
    /// The move of kind `kind` from `p`, its free amounts named from `prefix`.
    fn step(&self, kind: usize, p: &[Int], set: &ZeroSet, prefix: &str) -> Step;
}

/// A check's outcome: a counterexample, none, or z3's reason for giving up.
type Found = Result<Result<Option<Counterexample>, String>, Error>;

/// Decides (A), kind by kind, and then (B) for a game of `n` coordinates.
pub(super) fn decide(
    n: usize,
    moves: &dyn LinearMoves,
    set: &ZeroSet,
    clock: &Clock,
) -> Result<Verdict, Error> {
    let mut best: Option<Counterexample> = None;
    let mut open: Option<String> = None;
    let size = |c: &Counterexample| c.position.iter().map(|&x| x as u64).sum::<u64>();
    for kind in 0..moves.kinds() {
        match move_between_zeros(n, moves, kind, set, clock, best.as_ref().map(size))? {
            Ok(Some(c)) => best = Some(c),
            Ok(None) => {}
            Err(why) => open = open.or(Some(why)),
        }
    }
    if let Some(c) = best {
        return Ok(Verdict::Refuted(c));
    }
    if let Some(why) = open {
        return Ok(Verdict::Unknown(format!("condition (A): {why}")));
    }
    Ok(match no_move_to_zero(n, moves, set, clock)? {
        Ok(Some(c)) => Verdict::Refuted(c),
        Ok(None) => Verdict::Proved,
        Err(why) => Verdict::Unknown(format!("condition (B): {why}")),
    })
}

/// Condition (A) for one kind of move: a position in Z with a legal move into Z, with a total
/// below `below` when given.
fn move_between_zeros(
    n: usize,
    moves: &dyn LinearMoves,
    kind: usize,
    set: &ZeroSet,
    clock: &Clock,
    below: Option<u64>,
) -> Found {
    let s = match clock.solver() {
        Ok(s) => s,
        Err(why) => return Ok(Err(why)),
    };
    let p = naturals("p", n);
    let step = moves.step(kind, &p, set, "d");
    nonnegative(&s, &p);
    s.assert(&step.legal);
    s.assert(set.z3(&p));
    s.assert(&step.zero_after);
    if let Some(t) = below {
        s.assert(total(&p).lt(Int::from_u64(t)));
    }
    let found = |m: &Model| -> Result<Counterexample, Error> {
        Ok(Counterexample {
            position: p.iter().map(|x| value(m, x)).collect::<Result<_, _>>()?,
            reason: Reason::MoveBetweenZeros,
            move_to: Some(
                step.after
                    .iter()
                    .map(|x| value(m, x))
                    .collect::<Result<_, _>>()?,
            ),
            value: None,
        })
    };
    settle(&s, clock, &p, &found)
}

/// Condition (B): a position outside Z from which every legal move leads outside Z.
fn no_move_to_zero(n: usize, moves: &dyn LinearMoves, set: &ZeroSet, clock: &Clock) -> Found {
    let s = match clock.solver() {
        Ok(s) => s,
        Err(why) => return Ok(Err(why)),
    };
    let p = naturals("p", n);
    nonnegative(&s, &p);
    s.assert(set.z3(&p).not());
    for kind in 0..moves.kinds() {
        let step = moves.step(kind, &p, set, &format!("d{kind}_"));
        let body = step.legal.implies(step.zero_after.not());
        if step.amounts.is_empty() {
            s.assert(&body);
        } else {
            let bound: Vec<&dyn Ast> = step.amounts.iter().map(|x| x as &dyn Ast).collect();
            s.assert(forall_const(&bound, &[], &body));
        }
    }
    let found = |m: &Model| -> Result<Counterexample, Error> {
        Ok(Counterexample {
            position: p.iter().map(|x| value(m, x)).collect::<Result<_, _>>()?,
            reason: Reason::NoMoveToZero,
            move_to: None,
            value: None,
        })
    };
    settle(&s, clock, &p, &found)
}

/// Checks `s`: a counterexample made small, none, or z3's reason for giving up.
fn settle(
    s: &Solver,
    clock: &Clock,
    p: &[Int],
    found: &dyn Fn(&Model) -> Result<Counterexample, Error>,
) -> Found {
    Ok(match clock.check(s) {
        Answer::Sat(m) => Ok(Some(shrink(s, clock, p, m, found)?)),
        Answer::Unsat => Ok(None),
        Answer::Unknown(why) => Err(why),
    })
}

/// Symbolic naturals named `prefix0`, `prefix1`, ...
pub(super) fn naturals(prefix: &str, n: usize) -> Vec<Int> {
    (0..n)
        .map(|i| Int::new_const(format!("{prefix}{i}")))
        .collect()
}

/// The sum of the coordinates.
pub(super) fn total(p: &[Int]) -> Int {
    Int::add(p)
}

/// The number `x` has in `m`, as a heap the rules can re-check.
pub(super) fn value(m: &Model, x: &Int) -> Result<u32, Error> {
    m.eval(x, true)
        .and_then(|v| v.as_u64())
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| {
            Error::Resource("z3's counterexample has a heap too large to re-check".into())
        })
}

/// Re-solves with a smaller total until z3 finds none (or the steps or time run out);
/// `found` turns a model into the counterexample. The least total found wins.
pub(super) fn shrink(
    s: &Solver,
    clock: &Clock,
    p: &[Int],
    first: Model,
    found: &dyn Fn(&Model) -> Result<Counterexample, Error>,
) -> Result<Counterexample, Error> {
    let mut best = found(&first)?;
    for _ in 0..SHRINK_STEPS {
        let t: u64 = best.position.iter().map(|&x| x as u64).sum();
        if t == 0 {
            break;
        }
        s.assert(total(p).lt(Int::from_u64(t)));
        match clock.check(s) {
            Answer::Sat(m) => best = found(&m)?,
            _ => break,
        }
    }
    Ok(best)
}

/// Every coordinate is a natural.
pub(super) fn nonnegative(s: &Solver, p: &[Int]) {
    for x in p {
        s.assert(x.ge(Int::from_u64(0)));
    }
}
