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

mod build;
mod circuit;
mod live;
mod search;
mod state;

use z3::ast::{Bool, BV};
use z3::Model;

use super::bitvec::{Bits, MAX_WIDTH};
use super::clock::Clock;
use super::heaps::{Holds, Take};
use super::target::{joined, neither, position, read_all, smallest, Domain, Target};
use super::witness::missed;
use super::{check, Counterexample, Reason, Verdict};
use crate::lang::{Op, Program};
use circuit::Circuit;
use grundy_core::catalog::{HeapSum, Notation, Rules};
use grundy_core::error::Error;
use grundy_core::game::{HypergraphNim, MoveOrder, Stones};
use search::Outcome;

/// Most states one condition's search may reach.
const MAX_STATES: usize = 2_000_000;

/// The verdict for every position and the states the searches reached, or why there is
/// none (a step that is not automatic, candidate moves that do not settle (B) or (S2), too
/// many states, the time): the caller then proves below a bound or gives up.
pub(super) type Decided = Result<(Verdict, usize), String>;

/// One condition: the formula a counterexample satisfies, and for a move's condition the
/// position after it.
struct Query {
    reason: Reason,
    formula: Bool,
    after: Option<Vec<BV>>,
}

/// Decides `target` for `program` on hypergraph nim, the zero set unioned over `images`.
pub(super) fn decide(
    game: &HypergraphNim,
    program: &Program,
    images: &[Vec<usize>],
    target: Target,
    clock: &Clock,
) -> Result<Decided, Error> {
    if let Some(op) = program.0.iter().find(|op| !automatic(**op)) {
        return Ok(Err(format!("{op} is not read column by column")));
    }
    let d = words(program, images);
    let n = game.graph().vertices();
    let faces = game.graph().faces();
    let p = position(&d, "p", n);
    let u = d.number("u");
    let mut queries: Vec<Query> = Vec::new();
    let (between, reached) = match target {
        Target::Sg => (Reason::SameValueOption, Reason::MissingValue),
        _ => (Reason::MoveBetweenZeros, Reason::NoMoveToZero),
    };
    for &face in faces {
        let (formula, q, _) = joined(&d, &p, face, between);
        queries.push(Query {
            reason: between,
            formula,
            after: Some(q),
        });
    }
    let Some(formula) = missed(&d, &p, &u, faces, reached) else {
        return Ok(Err("no candidate moves".into()));
    };
    queries.push(Query {
        reason: reached,
        formula,
        after: None,
    });
    if target == Target::Indicator {
        queries.push(Query {
            reason: Reason::NotIndicator,
            formula: neither(&d, &p),
            after: None,
        });
    }
    let confirm = |mut c: Counterexample| {
        let ok = super::recheck(game, program, images, &mut c).is_ok();
        ok.then_some(c)
    };
    settle(&d, &queries, &p, &u, clock, &confirm)
}

/// Decides the zero target for `program` on a sum of heaps whose moves take `takes` from one
/// heap: finitely many moves, so (B) needs no candidates.
pub(super) fn decide_heaps(
    game: &HeapSum,
    takes: &[Take],
    program: &Program,
    images: &[Vec<usize>],
    clock: &Clock,
) -> Result<Decided, Error> {
    if let Some(op) = program.0.iter().find(|op| !automatic(**op)) {
        return Ok(Err(format!("{op} is not read column by column")));
    }
    let d = words(program, images);
    let n = game.variables();
    let p = position(&d, "p", n);
    let u = d.number("u");
    let mut queries: Vec<Query> = Vec::new();
    let mut none_reach = vec![d.zero(&p).not()];
    for i in 0..n {
        for t in takes {
            let k = d.konst(t.amount as u64);
            let legal = match t.holds() {
                Holds::AtLeast => d.le(&k, &p[i]),
                Holds::Exactly => d.eq(&p[i], &k),
                Holds::MoreThan => d.lt(&k, &p[i]),
            };
            let mut q = p.clone();
            q[i] = d.sub(&p[i], &k);
            let lands = Bool::and(&[legal, d.zero(&q)]);
            none_reach.push(lands.not());
            queries.push(Query {
                reason: Reason::MoveBetweenZeros,
                formula: Bool::and(&[d.zero(&p), lands]),
                after: Some(q),
            });
        }
    }
    queries.push(Query {
        reason: Reason::NoMoveToZero,
        formula: Bool::and(&none_reach),
        after: None,
    });
    let confirm = |c: Counterexample| {
        let at: Stones = c.position.iter().copied().collect();
        let mut moves = Vec::new();
        game.successors(&at, MoveOrder::Natural, &mut moves);
        check::confirm(program, images, &c, &moves).ok().map(|()| c)
    };
    settle(&d, &queries, &p, &u, clock, &confirm)
}

/// The program over words (wide enough for every constant; the circuit reads them as
/// integers at every width).
fn words<'a>(program: &'a Program, images: &'a [Vec<usize>]) -> Bits<'a> {
    Bits {
        program,
        images,
        bound: MAX_WIDTH,
        width: MAX_WIDTH,
        universal: false,
    }
}

/// Searches each query in turn: proved when none has a solution, refuted by the first
/// solution `confirm` re-checks by the rules, made small.
fn settle(
    d: &Bits,
    queries: &[Query],
    p: &[BV],
    u: &BV,
    clock: &Clock,
    confirm: &dyn Fn(Counterexample) -> Option<Counterexample>,
) -> Result<Decided, Error> {
    let mut states = 0;
    for query in queries {
        let c = match Circuit::of(&query.formula) {
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
        let found = |m: &Model| counterexample(d, m, query, p, u).and_then(confirm);
        let Some(first) = model_of(d, &c, &values).filter(|m| found(m).is_some()) else {
            return Ok(Err(
                "the candidate moves miss a position that has a move".into()
            ));
        };
        let best = smaller(d, query, p, &values, clock, first, &found)?;
        let c = found(&best).expect("a model kept only when confirmed");
        return Ok(Ok((Verdict::Refuted(c), states)));
    }
    Ok(Ok((Verdict::Proved, states)))
}

/// The search's solution has the fewest bits, not the least total: z3 looks for smaller
/// totals among positions of no more bits (where the 64-bit words are the integers the
/// circuit read), keeping only models the rules confirm.
fn smaller(
    d: &Bits,
    query: &Query,
    p: &[BV],
    values: &[u128],
    clock: &Clock,
    first: Model,
    found: &dyn Fn(&Model) -> Option<Counterexample>,
) -> Result<Model, Error> {
    let Ok(s) = clock.solver() else {
        return Ok(first);
    };
    let bits = values
        .iter()
        .map(|v| 128 - v.leading_zeros())
        .max()
        .unwrap_or(0);
    s.assert(&query.formula);
    for x in p {
        s.assert(x.bvult(d.konst(1 << bits.min(32))));
    }
    let mut keep = |m: &Model| Ok(found(m).is_some());
    smallest(d, &s, clock, p, first, &mut keep)
}

/// A model of the query's variables at the search's `values` (the rest 0); none past 64 bits.
fn model_of(d: &Bits, c: &Circuit, values: &[u128]) -> Option<Model> {
    let solver = z3::Solver::new();
    for (name, &v) in c.vars.iter().zip(values) {
        let v = u64::try_from(v).ok()?;
        solver.assert(BV::new_const(name.as_str(), MAX_WIDTH).eq(d.konst(v)));
    }
    match solver.check() {
        z3::SatResult::Sat => solver.get_model(),
        _ => None,
    }
}

/// The counterexample in `m` (none when a heap does not fit 32 bits).
fn counterexample(d: &Bits, m: &Model, query: &Query, p: &[BV], u: &BV) -> Option<Counterexample> {
    let read = |xs: &[BV]| read_all(d, m, xs).ok();
    Some(Counterexample {
        position: read(p)?,
        reason: query.reason,
        move_to: match &query.after {
            Some(q) => Some(read(q)?),
            None => None,
        },
        value: match query.reason {
            Reason::MissingValue => Some(d.read(m, u).ok()?),
            _ => None,
        },
    })
}

/// Whether the circuit reads the instruction column by column (at every width, the same).
fn automatic(op: Op) -> bool {
    !matches!(
        op,
        Op::Mul | Op::Div | Op::Mod | Op::LeftShift | Op::RightShift
    )
}

#[cfg(test)]
mod tests;
