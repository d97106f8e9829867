//! `grundy`: Sprague-Grundy values, whole tables, and (soon) formulas for impartial games.
//!
//! Data flows one way: a [`game`] defines positions and moves; the [`sg`] engines turn positions
//! into nimbers or whole tables; the CLI in [`cli`] prints them.

pub mod cli;
pub mod error;
pub mod game;
pub mod sg;
pub mod synth;
pub mod units;

pub use error::Error;
pub use game::{Game, MoveOrder, Nimber};
