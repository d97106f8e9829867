//! `grundy`: Sprague-Grundy values, whole tables, and formulas for impartial games.
//!
//! Data flows one way: a [`game`] defines positions and moves; the [`sg`] engines turn positions
//! into nimbers or whole tables; [`synth`] finds the shortest program that reproduces a table's
//! zero positions (or its values) and proves it minimal; the CLI in [`cli`] prints them.

pub mod cli;
pub mod cluster;
pub mod error;
pub mod files;
pub mod game;
pub mod memory;
pub mod period;
pub mod play;
pub mod plot;
pub mod progress;
pub mod prove;
pub mod sg;
pub mod synth;
#[cfg(test)]
mod testing;
pub mod units;

pub use error::Error;
pub use game::{Game, MoveOrder, Nimber};
