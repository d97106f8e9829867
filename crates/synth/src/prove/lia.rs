//! The checks of [`super::target`] over unbounded naturals: the program's zero set and value
//! through its reading in linear integer arithmetic.

use z3::ast::{Bool, Int};
use z3::Model;

use super::formula::{Style, Term};
use super::reading::{output, zero_condition};
use super::target::{Domain, Target};
use super::{Reading, ZeroSet};
use crate::lang::Program;
use grundy_core::error::Error;

/// What a proof over unbounded naturals needs of the program for a target.
pub(super) struct Plan {
    /// The statement, in three styles: where the program is 0, or (sg) its value.
    pub reading: Reading,
    /// The zero condition (zero and indicator targets).
    pub zero: Option<super::formula::Formula>,
    /// The value (indicator and sg targets).
    pub value: Option<Term>,
}

/// The plan for `target`, or why the program has no exact linear reading for it.
pub(super) fn plan(program: &Program, target: Target) -> Result<Plan, String> {
    let value = match target {
        Target::Zero => None,
        Target::Indicator | Target::Sg => {
            let out = output(program)?;
            if target == Target::Sg && !out.natural {
                return Err(format!(
                    "the value of `{}` may be negative, and then its word depends on the width",
                    program.infix()
                ));
            }
            Some(out.value?)
        }
    };
    let (zero, reading) = match (target, &value) {
        (Target::Sg, Some(v)) => (
            None,
            Reading {
                words: v.text(Style::Words),
                infix: v.text(Style::Infix),
                latex: v.text(Style::Latex),
            },
        ),
        _ => {
            let z = zero_condition(program)?;
            let reading = Reading {
                words: z.text(Style::Words),
                infix: z.text(Style::Infix),
                latex: z.text(Style::Latex),
            };
            (Some(z), reading)
        }
    };
    Ok(Plan {
        reading,
        zero,
        value,
    })
}

/// Unbounded naturals, with the zero set and value of a plan.
pub(super) struct Naturals<'a> {
    pub set: Option<&'a ZeroSet>,
    pub value: Option<&'a Term>,
}

impl Domain for Naturals<'_> {
    type N = Int;

    fn number(&self, name: &str) -> Int {
        Int::new_const(name)
    }

    fn konst(&self, c: u64) -> Int {
        Int::from_u64(c)
    }

    fn in_scope(&self, x: &Int) -> Bool {
        x.ge(Int::from_u64(0))
    }

    fn le(&self, a: &Int, b: &Int) -> Bool {
        a.le(b)
    }

    fn lt(&self, a: &Int, b: &Int) -> Bool {
        a.lt(b)
    }

    fn sub(&self, a: &Int, b: &Int) -> Int {
        Int::sub(&[a.clone(), b.clone()])
    }

    fn total_below(&self, p: &[Int], t: u64) -> Bool {
        Int::add(p).lt(Int::from_u64(t))
    }

    fn eq(&self, a: &Int, b: &Int) -> Bool {
        a.eq(b)
    }

    fn read(&self, m: &Model, x: &Int) -> Result<u64, Error> {
        m.eval(x, true).and_then(|v| v.as_u64()).ok_or_else(|| {
            Error::Resource("z3's counterexample has a number too large to re-check".into())
        })
    }

    fn zero(&self, p: &[Int]) -> Bool {
        self.set.expect("a zero set for this target").z3(p)
    }

    fn value(&self, p: &[Int]) -> Int {
        self.value.expect("a value for this target").z3(p)
    }
}
