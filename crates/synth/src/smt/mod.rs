//! The `--solver smt` backend (z3 over bit-vectors) and the SMT-LIB / SyGuS exports.
//!
//! # Encoding (programs of exactly L instructions)
//!
//! Stack depth does not depend on the data, so the structure is encoded once per length:
//!
//! - `op_t`, a bit-vector holding the code of step t's instruction (its index in
//!   `problem.ops.ops()`); instructions whose arity cannot fit step t are excluded up front
//!   (step 0 pushes; after step t at most min(t+1, L-t) values can be on the stack).
//! - `d_t_k`, true when k values are on the stack after step t, defined from the previous
//!   depth and the arity of `op_t`; some `d_t_k` with 1 <= k <= min(t+1, L-t) must hold, which
//!   rules out underflow and forces the final depth to 1.
//! - `l_t_s`, true when step s computed the left operand of step t: s is the last step before
//!   t-1 after which the stack held one value fewer than after t-1. The right (or only) operand
//!   is always step t-1. These operand pointers are defined from the depths, so they cost no
//!   search, and the per-point data path is one multiplexer over earlier steps per step.
//!   Stack slots instead need a value per slot per step per point, with frame conditions
//!   copying the untouched slots: about max-depth times more bit-vector equalities per example,
//!   which is the part that grows in CEGIS.
//! - The pruning rules of `lang::rules`, computed by calling them on every
//!   instruction pair/triple: a unary step may not follow a rejected root; a binary step may
//!   not combine a rejected (left root, right root) pair, where the left root is read through
//!   `l_t_s`.
//!
//! Each example adds, per point it reads, `v_p_t` (a W-bit vector per step: an `ite` over the
//! opcode of the instruction's result on the operands) and its requirement on `v_p_{L-1}`.
//! Everything is asserted on one solver, so later CEGIS rounds reuse earlier work.
//!
//! The solver is z3's incremental SAT-based finite-domain solver (logic `QF_FD`), which
//! bit-blasts as assertions arrive and keeps learned clauses between checks; z3's default
//! solver re-solves from scratch on every check unless pushed into its slower incremental
//! mode. Measured with CEGIS on [0,6)^n (z3 4.8.12): P3 0.2 s against 2.1 s with the default
//! solver, CN(3,2) 4-20 s against 154 s. One-hot Bools per opcode instead of the bit-vector
//! code were slower too (CN(3,2) 12-15 s), and need at-most-one constraints.
//!
//! Almost all the time goes into unit propagation through the bit-blasted `Mul`/`Div` and
//! shift circuits of every example (about 13k clauses per example at length 7), so the cost
//! of a check grows with the number of examples more than with the number of conflicts.

mod encode;
mod export;
mod sygus;
#[cfg(test)]
mod tests;

use std::time::Instant;

use z3::{Params, SatResult, Solver};

use super::problem::Problem;
use super::solver::{Backend, Found, LengthSearch, Method};
use encode::Encoding;
use grundy_core::error::Error;

/// One instruction on z3 bit-vectors, as the interpreter computes it (`grundy prove` proves
/// over bit-vectors with it).
pub(crate) use encode::apply;
pub use export::{decode_smtlib_model, export_smtlib};
pub use sygus::export_sygus;

/// The z3 backend; stateless (z3 contexts are per thread, so everything lives in the search).
#[derive(Clone, Copy, Debug, Default)]
pub struct SmtBackend;

impl Backend for SmtBackend {
    fn method(&self) -> Method {
        Method::Smt
    }

    fn start<'p>(
        &self,
        problem: &'p Problem,
        length: usize,
    ) -> Result<Box<dyn LengthSearch + 'p>, Error> {
        let enc = Encoding::new(problem, length, true, new_solver())?;
        Ok(Box::new(SmtSearch { enc }))
    }
}

/// The solver the backend uses (see the module documentation for why this one).
fn new_solver() -> Solver {
    Solver::new_for_logic("QF_FD").unwrap_or_default()
}

/// One length's search: the encoding and its solver, on the thread that created them.
struct SmtSearch<'p> {
    enc: Encoding<'p>,
}

impl LengthSearch for SmtSearch<'_> {
    fn add_example(&mut self, index: usize) -> Result<(), Error> {
        self.enc.require(index)
    }

    fn solve(&mut self, deadline: Option<Instant>) -> Result<Found, Error> {
        let mut params = Params::new();
        if let Some(d) = deadline {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(Found::Timeout);
            }
            let ms = left.as_millis().clamp(1, u32::MAX as u128) as u32;
            params.set_u32("timeout", ms);
        } else {
            params.set_u32("timeout", u32::MAX);
        }
        self.enc.solver.set_params(&params);
        match self.enc.solver.check() {
            SatResult::Unsat => Ok(Found::Refuted),
            SatResult::Unknown => Ok(Found::Timeout),
            SatResult::Sat => {
                let model =
                    self.enc.solver.get_model().ok_or_else(|| {
                        Error::Resource("z3 answered sat but gave no model".into())
                    })?;
                Ok(Found::Program(self.enc.decode(&model)?))
            }
        }
    }
}
