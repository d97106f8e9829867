//! Synthesis of the shortest straight-line stack program that classifies zero positions (or
//! reproduces the SG function) of a data set, with proof of minimality.
//!
//! [`lang`] defines the thesis's instruction set, [`interp`] runs programs, [`problem`] turns
//! data and a target into examples, [`cegis`] drives shortest-first counterexample-guided search
//! over a [`solver::Backend`].

pub mod auto;
pub mod bound;
pub mod cegis;
pub mod data;
pub mod enumerate;
pub mod interp;
pub mod lang;
pub mod lift;
pub mod problem;
pub mod sat;
pub mod smt;
pub mod solver;
pub mod twins;
