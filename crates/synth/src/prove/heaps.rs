//! Conditions (A) and (B) for sums of heaps under a rule whose every move takes a bounded
//! amount from one heap and leaves at most that heap: finite subtraction sets, and octal codes
//! with digits 0-3 (`octal:0.137` takes 1 only from a heap of 1, 2 only from a larger one).
//!
//! Such a move takes k from heap i, allowed when x_i = k (the code's digit has bit 1) or
//! x_i > k (bit 2): finitely many linear moves, so (A) is one quantifier-free check per move
//! and (B) one check in all ("outside Z, and every legal move leads outside Z"), decided by z3
//! over unbounded naturals. Rules that split heaps or take unboundedly many tokens (all-but
//! sets) are refused: their moves are not a finite linear disjunction.

use grundy_core::catalog::{Notation, Rules};
use std::time::Instant;

use z3::ast::{Bool, Int};
use z3::{Model, Solver};

use super::formula::Style;
use super::hypergraph::{naturals, nonnegative, shrink, total, value, Answer, Clock};
use super::{check, Counterexample, Options, Reading, Reason, Target, Theorem, Verdict, ZeroSet};
use crate::lang::Program;
use grundy_core::catalog::HeapSum;
use grundy_core::error::{Error, OptionKey, Setting};
use grundy_core::game::heap::HeapRule;
use grundy_core::game::MoveOrder;
use grundy_core::game::Stones;

/// Most amounts a rule's moves may take: the code is read off the rule's own moves, heap by
/// heap up to this size.
pub const MAX_TAKE: usize = 4096;

/// Most moves (heaps times amounts) a proof handles: each is one implication in condition (B).
pub const MAX_MOVES: usize = 2048;

/// One amount a move may take from a heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Take {
    /// Tokens the move takes.
    pub amount: u32,
    /// From a heap of exactly `amount`, leaving none.
    pub whole: bool,
    /// From a larger heap, leaving the rest.
    pub part: bool,
}

impl Take {
    /// Whether a heap of `x` allows the move.
    fn legal(&self, x: &Int) -> Bool {
        let k = Int::from_u64(self.amount as u64);
        match (self.whole, self.part) {
            (true, true) => x.ge(&k),
            (true, false) => x.eq(&k),
            _ => x.gt(&k),
        }
    }
}

/// The amounts of `rule`'s moves, read off the rule's own move generator, or why no proof
/// handles it (a usage error: exit 2).
pub fn takes(rule: &dyn HeapRule) -> Result<Vec<Take>, Error> {
    let refuse = |why: &str| {
        Error::Usage(format!(
            "grundy prove handles heap games whose moves take a bounded amount from one heap \
             without splitting it (finite subtraction sets, octal codes with digits 0-3); {} {why}",
            rule.name()
        ))
    };
    let bounds = rule.bounds().ok_or_else(|| {
        refuse("may take unboundedly many tokens or is not a take-and-break code")
    })?;
    if bounds.heaps > 1 {
        return Err(refuse("splits heaps"));
    }
    if bounds.take > MAX_TAKE {
        return Err(refuse(&format!(
            "takes up to {} tokens; a proof reads amounts up to {MAX_TAKE}",
            bounds.take
        )));
    }
    let visits = |n: u32, leaves: &[u32]| {
        let mut found = false;
        rule.moves(n, &mut |left| found |= left == leaves);
        found
    };
    Ok((1..=bounds.take as u32)
        .map(|k| Take {
            amount: k,
            whole: visits(k, &[]),
            part: visits(k + 1, &[1]),
        })
        .filter(|t| t.whole || t.part)
        .collect())
}

/// Proves or refutes that the zero set of `program` (unioned over the heaps' permutations
/// with `orbits`) is exactly the P-positions of `game`, for every position.
pub fn prove(game: &HeapSum, program: &Program, opts: &Options) -> Result<Theorem, Error> {
    let start = Instant::now();
    let n = game.variables();
    if let Some(v) = program.max_var().filter(|&v| v >= n) {
        return Err(Error::limit(
            Setting::Heaps,
            format!(
                "the program reads x{v}, but the sum has {n} heaps (x0..x{})",
                n - 1
            ),
        ));
    }
    let naturals = ": heap games are proved for the zero target over unbounded naturals; the \
                    indicator and sg targets, a bound and a width are for games of hypergraph nim";
    let hypergraph_only = [
        (OptionKey::Target, opts.target != Target::Zero),
        (OptionKey::Bound, opts.bound.is_some()),
        (OptionKey::Width, opts.width.is_some()),
    ];
    if let Some(&(key, _)) = hypergraph_only.iter().find(|(_, given)| *given) {
        return Err(Error::refused(key, naturals));
    }
    let takes = takes(game.game().rule())?;
    if takes.len() * n > MAX_MOVES {
        return Err(Error::Resource(format!(
            "{n} heaps of {} have {} moves; a proof handles at most {MAX_MOVES}",
            game.name(),
            takes.len() * n
        )));
    }
    let zero = super::read(program)?;
    let reading = Reading {
        words: zero.text(Style::Words),
        infix: zero.text(Style::Infix),
        latex: zero.text(Style::Latex),
    };
    let images = super::images_under(n, game.symmetry(), opts.orbits)?;
    let automorphisms = images.len();
    let set = ZeroSet { zero, images };
    let clock = Clock {
        deadline: opts
            .timeout
            .map(|s| start + std::time::Duration::from_secs_f64(s)),
    };
    let verdict = decide(n, &takes, &set, &clock)?;
    if let Verdict::Refuted(c) = &verdict {
        let p: Stones = c.position.iter().copied().collect();
        let mut moves = Vec::new();
        game.successors(&p, MoveOrder::Natural, &mut moves);
        check::confirm(program, set.images(), c, &moves)?;
    }
    Ok(Theorem {
        reading,
        scope: "all positions".into(),
        target: Target::Zero,
        bound: None,
        width: None,
        no_linear_reading: None,
        verdict,
        automorphisms,
        // A move plays on one heap: the heaps are the game's faces.
        faces: n,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The position after taking `t` from heap `i`.
fn after(p: &[Int], i: usize, t: &Take) -> Vec<Int> {
    let mut q = p.to_vec();
    q[i] = Int::sub(&[p[i].clone(), Int::from_u64(t.amount as u64)]);
    q
}

/// Decides (A), move by move, then (B).
fn decide(n: usize, takes: &[Take], set: &ZeroSet, clock: &Clock) -> Result<Verdict, Error> {
    let mut best: Option<Counterexample> = None;
    let mut open: Option<String> = None;
    let size = |c: &Counterexample| c.position.iter().map(|&x| x as u64).sum::<u64>();
    for i in 0..n {
        for t in takes {
            match move_between_zeros(n, i, t, set, clock, best.as_ref().map(size))? {
                Ok(Some(c)) => best = Some(c),
                Ok(None) => {}
                Err(why) => open = open.or(Some(why)),
            }
        }
    }
    if let Some(c) = best {
        return Ok(Verdict::Refuted(c));
    }
    if let Some(why) = open {
        return Ok(Verdict::Unknown(format!("condition (A): {why}")));
    }
    Ok(match no_move_to_zero(n, takes, set, clock)? {
        Ok(Some(c)) => Verdict::Refuted(c),
        Ok(None) => Verdict::Proved,
        Err(why) => Verdict::Unknown(format!("condition (B): {why}")),
    })
}

type Found = Result<Result<Option<Counterexample>, String>, Error>;

/// Condition (A) for taking `t` from heap `i`: a position in Z that moves into Z, with a total
/// below `below` when given.
fn move_between_zeros(
    n: usize,
    i: usize,
    t: &Take,
    set: &ZeroSet,
    clock: &Clock,
    below: Option<u64>,
) -> Found {
    let s = match clock.solver() {
        Ok(s) => s,
        Err(why) => return Ok(Err(why)),
    };
    let p = naturals("p", n);
    let q = after(&p, i, t);
    nonnegative(&s, &p);
    s.assert(t.legal(&p[i]));
    s.assert(set.z3(&p));
    s.assert(set.z3_after(&p, i, t.amount as u64));
    if let Some(b) = below {
        s.assert(total(&p).lt(Int::from_u64(b)));
    }
    let found = |m: &Model| -> Result<Counterexample, Error> {
        Ok(Counterexample {
            position: p.iter().map(|x| value(m, x)).collect::<Result<_, _>>()?,
            reason: Reason::MoveBetweenZeros,
            move_to: Some(q.iter().map(|x| value(m, x)).collect::<Result<_, _>>()?),
            value: None,
        })
    };
    settle(&s, clock, &p, &found)
}

/// Condition (B): a position outside Z from which every legal move leads outside Z.
fn no_move_to_zero(n: usize, takes: &[Take], set: &ZeroSet, clock: &Clock) -> Found {
    let s = match clock.solver() {
        Ok(s) => s,
        Err(why) => return Ok(Err(why)),
    };
    let p = naturals("p", n);
    nonnegative(&s, &p);
    s.assert(set.z3(&p).not());
    for i in 0..n {
        for t in takes {
            s.assert(
                t.legal(&p[i])
                    .implies(set.z3_after(&p, i, t.amount as u64).not()),
            );
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

#[cfg(test)]
#[path = "heaps_tests.rs"]
mod tests;
