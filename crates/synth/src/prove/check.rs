//! Counterexamples re-checked by the rules: the game's own move generator and the reference
//! interpreter, neither of which z3 or the reading has touched.

use super::{Counterexample, Reason};
use crate::interp;
use crate::lang::Program;
use grundy_core::error::Error;
use grundy_core::game::{Game, MoveOrder};
use grundy_core::game::{HypergraphNim, Stones};

/// Most moves a re-check enumerates.
const MAX_MOVES: usize = 10_000_000;

/// Whether the program gives 0 on some image of `p` (the identity alone without orbits),
/// computed by the interpreter at 64 bits, which holds every small position without wrapping.
pub fn in_zero_set(program: &Program, images: &[Vec<usize>], p: &[u32]) -> bool {
    images.iter().any(|img| {
        let x: Vec<u64> = img.iter().map(|&v| p[v] as u64).collect();
        interp::run(program, &x, interp::mask(64)) == Some(0)
    })
}

/// Every position one move from `p`, by the game's move generator.
pub fn options(game: &HypergraphNim, p: &[u32]) -> Result<Vec<Stones>, Error> {
    let p: Stones = p.iter().copied().collect();
    if game.move_count(&p) > MAX_MOVES {
        return Err(Error::Resource(format!(
            "the counterexample has more than {MAX_MOVES} moves to re-check"
        )));
    }
    let mut out = Vec::new();
    game.moves(&p, MoveOrder::Natural, &mut out);
    Ok(out)
}

/// Confirms `c` by the rules; a disagreement is a bug in the prover, never a result.
pub fn recheck(
    game: &HypergraphNim,
    program: &Program,
    images: &[Vec<usize>],
    c: &Counterexample,
) -> Result<(), Error> {
    let moves = options(game, &c.position)?;
    confirm(program, images, c, &moves)
}

/// Confirms `c` given `moves`, every option of its position by the game's move generator.
pub fn confirm(
    program: &Program,
    images: &[Vec<usize>],
    c: &Counterexample,
    moves: &[Stones],
) -> Result<(), Error> {
    let zero = |p: &[u32]| in_zero_set(program, images, p);
    let holds = match (c.reason, &c.move_to) {
        (Reason::MoveBetweenZeros, Some(q)) => {
            zero(&c.position) && zero(q) && moves.iter().any(|m| m.as_slice() == q.as_slice())
        }
        (Reason::NoMoveToZero, None) => !zero(&c.position) && !moves.iter().any(|m| zero(m)),
        _ => false,
    };
    match holds {
        true => Ok(()),
        false => Err(Error::Internal(format!(
            "z3's counterexample {c:?} does not hold by the game's moves and the interpreter"
        ))),
    }
}

/// The program's word at `p` at 64 bits: its value wherever no step wraps (proofs show that).
fn value_at(program: &Program, p: &[u32]) -> Option<u64> {
    let x: Vec<u64> = p.iter().map(|&v| v as u64).collect();
    interp::run(program, &x, interp::mask(64))
}

/// Confirms a counterexample about the program's value by the brute-force mex at the
/// position: the game's options with the interpreter's values on them. For `not_indicator`
/// the value is the interpreter's. A disagreement is a bug in the prover.
pub fn recheck_value(
    game: &HypergraphNim,
    program: &Program,
    c: &mut Counterexample,
) -> Result<(), Error> {
    let here = value_at(program, &c.position);
    let moves = options(game, &c.position)?;
    let values: Vec<Option<u64>> = moves.iter().map(|q| value_at(program, q)).collect();
    let holds = match (c.reason, &c.move_to, c.value) {
        (Reason::NotIndicator, None, _) => {
            c.value = here;
            here.is_some_and(|v| v > 1)
        }
        (Reason::SameValueOption, Some(q), Some(v)) => {
            here == Some(v)
                && value_at(program, q) == Some(v)
                && moves.iter().any(|m| m.as_slice() == q.as_slice())
        }
        (Reason::MissingValue, None, Some(v)) => {
            here.is_some_and(|h| v < h) && !values.contains(&Some(v))
        }
        _ => false,
    };
    match holds {
        true => Ok(()),
        false => Err(Error::Internal(format!(
            "z3's counterexample {c:?} does not hold by the game's moves and the interpreter"
        ))),
    }
}
