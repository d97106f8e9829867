//! Proofs for every position of programs with no linear reading (xor, sums, comparisons), by
//! reading each condition's formula one column of bits at a time.
//!
//! Over bit-vectors a proof covers heaps below 2^B. But the conditions (A), (B) with its
//! candidate moves, (C), (S1) and (S2) with candidates are formulas whose every step is
//! automatic ([`circuit`]): a machine with finitely many states reads the variables' bits
//! from the lowest, whatever their number. A search of every state it reaches ([`search`])
//! then decides the formula for naturals of every size at once: a theorem for all positions,
//! about the program read in words wide enough never to wrap (the interpreter's 64-bit words
//! give the same wherever no step passes 63 bits, which the bounded proof at 2^64 covers).
//!
//! Nothing here trusts z3's word semantics: z3 only builds the terms (the same as the bounded
//! proof's, candidate moves included), which the circuit reads as integers. A refutation the
//! search finds is re-checked by the game's moves, and a position the candidate moves miss
//! but some other move covers leaves the question open, as it does over bit-vectors.

mod circuit;
mod search;

use z3::ast::Bool;

use super::bitvec::{Bits, MAX_WIDTH};
use super::clock::Clock;
use super::target::{joined, neither, position, Domain, Target};
use super::witness::missed;
use super::{check, Counterexample, Reason, Verdict};
use crate::lang::{Op, Program};
use circuit::Circuit;
use grundy_core::error::Error;
use grundy_core::game::HypergraphNim;
use search::Outcome;

/// Most states one condition's search may reach.
const MAX_STATES: usize = 2_000_000;

/// The verdict for every position and the states the searches reached, or why there is
/// none (a step that is not automatic, candidate moves that do not settle (B) or (S2), too
/// many states, the time): the caller then proves below a bound.
pub(super) fn decide(
    game: &HypergraphNim,
    program: &Program,
    images: &[Vec<usize>],
    target: Target,
    clock: &Clock,
) -> Result<Result<(Verdict, usize), String>, Error> {
    if let Some(op) = program.0.iter().find(|op| !automatic(**op)) {
        return Ok(Err(format!("{op} is not read column by column")));
    }
    let d = Bits {
        program,
        images,
        bound: MAX_WIDTH,
        width: MAX_WIDTH,
        universal: false,
    };
    let n = game.graph().vertices();
    let faces = game.graph().faces();
    let p = position(&d, "p", n);
    let u = d.number("u");
    // Each condition: what breaks it, and how to read its counterexample.
    let mut queries: Vec<(Reason, Bool, Option<Vec<_>>)> = Vec::new();
    let per_face = |reason: Reason, queries: &mut Vec<_>| {
        for &face in faces {
            let (bad, q, _) = joined(&d, &p, face, reason);
            queries.push((reason, bad, Some(q)));
        }
    };
    let some = |reason: Reason, queries: &mut Vec<_>| match missed(&d, &p, &u, faces, reason) {
        Some(f) => {
            queries.push((reason, f, None));
            Ok(())
        }
        None => Err("no candidate moves".to_string()),
    };
    match target {
        Target::Zero | Target::Indicator => {
            per_face(Reason::MoveBetweenZeros, &mut queries);
            if let Err(why) = some(Reason::NoMoveToZero, &mut queries) {
                return Ok(Err(why));
            }
            if target == Target::Indicator {
                queries.push((Reason::NotIndicator, neither(&d, &p), None));
            }
        }
        Target::Sg => {
            per_face(Reason::SameValueOption, &mut queries);
            if let Err(why) = some(Reason::MissingValue, &mut queries) {
                return Ok(Err(why));
            }
        }
    }
    let mut states = 0;
    for (reason, formula, q) in queries {
        let c = match Circuit::of(&formula) {
            Ok(c) => c,
            Err(why) => return Ok(Err(why)),
        };
        let values = match search::search(&c, MAX_STATES, clock.deadline) {
            Outcome::Never { states: k } => {
                states += k;
                continue;
            }
            Outcome::Open(why) => return Ok(Err(why)),
            Outcome::Found(values) => values,
        };
        let found = refutation(&d, &c, &values, reason, &p, &u, q.as_deref());
        return Ok(match found.and_then(|c| confirmed(game, program, images, c)) {
            Some(c) => Ok((Verdict::Refuted(c), states)),
            None => Err("the candidate moves miss a position that has a move".into()),
        });
    }
    Ok(Ok((Verdict::Proved, states)))
}

/// Whether the circuit reads the instruction column by column (at every width, the same).
fn automatic(op: Op) -> bool {
    !matches!(
        op,
        Op::Mul | Op::Div | Op::Mod | Op::LeftShift | Op::RightShift
    )
}

/// The counterexample of the search's `values` (none when a heap does not fit 32 bits).
fn refutation(
    d: &Bits,
    c: &Circuit,
    values: &[u128],
    reason: Reason,
    p: &[z3::ast::BV],
    u: &z3::ast::BV,
    q: Option<&[z3::ast::BV]>,
) -> Option<Counterexample> {
    // The model: each variable at its value, the rest 0.
    let solver = z3::Solver::new();
    for (name, &v) in c.vars.iter().zip(values) {
        let v = u64::try_from(v).ok()?;
        solver.assert(z3::ast::BV::new_const(name.as_str(), MAX_WIDTH).eq(d.konst(v)));
    }
    if solver.check() != z3::SatResult::Sat {
        return None;
    }
    let m = solver.get_model()?;
    let read = |xs: &[z3::ast::BV]| -> Option<Vec<u32>> {
        xs.iter()
            .map(|x| d.read(&m, x).ok().and_then(|v| u32::try_from(v).ok()))
            .collect()
    };
    Some(Counterexample {
        position: read(p)?,
        reason,
        move_to: match q {
            Some(q) => Some(read(q)?),
            None => None,
        },
        value: match reason {
            Reason::MissingValue => Some(d.read(&m, u).ok()?),
            _ => None,
        },
    })
}

/// `c` if the game's moves and the interpreter confirm it.
fn confirmed(
    game: &HypergraphNim,
    program: &Program,
    images: &[Vec<usize>],
    mut c: Counterexample,
) -> Option<Counterexample> {
    let ok = match c.reason {
        Reason::MoveBetweenZeros | Reason::NoMoveToZero => {
            check::recheck(game, program, images, &c).is_ok()
        }
        _ => check::recheck_value(game, program, &mut c).is_ok(),
    };
    ok.then_some(c)
}

#[cfg(test)]
mod tests;
