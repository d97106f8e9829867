//! `grundy-synth`: synthesis of the shortest straight-line stack program that classifies zero positions (or
//! reproduces the SG function) of a data set, with proof of minimality.
//!
//! [`lang`] defines the thesis's instruction set and pruning rules, `interp` runs programs,
//! [`data`] holds positions and values, [`problem`] turns them and a target into examples,
//! `bound` and `twins` read facts every solution obeys off the data, [`cegis`] drives
//! shortest-first counterexample-guided search over a [`solver::Backend`] (`sat`, `smt`,
//! `enumerate`, or `auto` choosing among them and the `readonce` search of the dependency
//! bound's length), [`upper`] finds long programs fast (by lifting from slices of the data,
//! decomposition into necessary conditions, and stochastic search), and `check` checks
//! a program on a box too large to hold as examples. [`prove`] turns a program into a theorem
//! for every position (or a counterexample) with z3.
//!
//! A front end builds a [`task::Task`] once (typed parts, or [`setup::Setup`]'s text form),
//! its data with [`task::Task::problem`], and runs [`run::synthesize`]: form choice, search
//! and the optional proof, without input or output. The crate root re-exports [`Task`],
//! [`synthesize`], its answer [`Synthesis`] and [`Program`].

#![warn(missing_docs)]

pub(crate) mod auto;
pub(crate) mod bound;
pub mod cegis;
pub(crate) mod check;
pub mod consts;
pub mod data;
pub mod enumerate;
pub(crate) mod family;
pub mod form;
pub(crate) mod interp;
pub mod lang;
pub mod problem;
pub mod prove;
pub mod ranked;
pub(crate) mod readonce;
pub mod run;
pub mod sat;
pub mod setup;
pub mod size;
pub mod smt;
pub mod solver;
pub mod task;
#[cfg(test)]
mod testing;
pub mod theorem;
pub(crate) mod twins;
pub mod upper;
pub mod verify;

pub use lang::Program;
pub use run::{synthesize, Synthesis};
pub use task::Task;
