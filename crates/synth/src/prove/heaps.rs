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

use super::clock::Clock;
use super::formula::Style;
use super::linear::{self, LinearMoves, Step};
use super::{check, reading, widths, Options, Reading, Target, Theorem, Verdict, ZeroSet};
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

/// What a heap must hold for a move: the same in every arithmetic the prover reads.
pub(super) enum Holds {
    /// At least the amount (taken whole or in part).
    AtLeast,
    /// Exactly the amount (taken whole only).
    Exactly,
    /// More than the amount (a part, leaving some).
    MoreThan,
}

impl Take {
    /// What a heap must hold for the move.
    pub(super) fn holds(&self) -> Holds {
        match (self.whole, self.part) {
            (true, true) => Holds::AtLeast,
            (true, false) => Holds::Exactly,
            _ => Holds::MoreThan,
        }
    }

    /// Whether a heap of `x` allows the move.
    fn legal(&self, x: &Int) -> Bool {
        let k = Int::from_u64(self.amount as u64);
        match self.holds() {
            Holds::AtLeast => x.ge(&k),
            Holds::Exactly => x.eq(&k),
            Holds::MoreThan => x.gt(&k),
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
    let images = super::images_under(n, game.symmetry(), opts.orbits)?;
    let automorphisms = images.len();
    let clock = Clock {
        deadline: opts
            .timeout
            .map(|s| start + std::time::Duration::from_secs_f64(s)),
    };
    let theorem = |reading, verdict, no_linear_reading, states| Theorem {
        reading,
        scope: "all positions".into(),
        target: Target::Zero,
        bound: None,
        width: None,
        no_linear_reading,
        states,
        verdict,
        automorphisms,
        // A move plays on one heap: the heaps are the game's faces.
        faces: n,
        seconds: start.elapsed().as_secs_f64(),
    };
    let zero = match reading::zero_condition(program) {
        Ok(zero) => zero,
        // No linear reading: read column by column, for every width at once.
        Err(why) => {
            return match widths::decide_heaps(game, &takes, program, &images, &clock)? {
                Ok((verdict, states)) => Ok(theorem(
                    super::own_reading(program, Target::Zero),
                    verdict,
                    Some(why),
                    Some(states),
                )),
                Err(_) => Err(super::read(program).expect_err("no linear reading")),
            };
        }
    };
    let reading = Reading {
        words: zero.text(Style::Words),
        infix: zero.text(Style::Infix),
        latex: zero.text(Style::Latex),
    };
    let set = ZeroSet { zero, images };
    let moves = HeapTakes { n, takes: &takes };
    let verdict = linear::decide(n, &moves, &set, &clock)?;
    if let Verdict::Refuted(c) = &verdict {
        let p: Stones = c.position.iter().copied().collect();
        let mut moves = Vec::new();
        game.successors(&p, MoveOrder::Natural, &mut moves);
        check::confirm(program, set.images(), c, &moves)?;
    }
    Ok(theorem(reading, verdict, None, None))
}

/// Every amount of a rule taken from every heap of a sum of `n`, each a kind of move with
/// nothing free.
struct HeapTakes<'a> {
    n: usize,
    takes: &'a [Take],
}

impl LinearMoves for HeapTakes<'_> {
    fn kinds(&self) -> usize {
        self.n * self.takes.len()
    }

    fn step(&self, kind: usize, p: &[Int], set: &ZeroSet, _prefix: &str) -> Step {
        let (i, t) = (
            kind / self.takes.len(),
            &self.takes[kind % self.takes.len()],
        );
        Step {
            legal: t.legal(&p[i]),
            after: after(p, i, t),
            zero_after: set.z3_after(p, i, t.amount as u64),
            amounts: Vec::new(),
        }
    }
}

/// The position after taking `t` from heap `i`.
fn after(p: &[Int], i: usize, t: &Take) -> Vec<Int> {
    let mut q = p.to_vec();
    q[i] = Int::sub(&[p[i].clone(), Int::from_u64(t.amount as u64)]);
    q
}

#[cfg(test)]
#[path = "heaps_tests.rs"]
mod tests;
