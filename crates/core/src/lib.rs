//! `grundy-core`: Sprague-Grundy values, whole tables and nim sequences for impartial games.
//!
//! Data flows one way: a [`game`] defines positions and moves; the [`sg`] engines turn
//! positions into nimbers or whole tables; the [`catalog`] names every game the commands know
//! and hands it out behind one trait; [`period`] finds and proves the periods of heap
//! games' nim sequences; [`play`] plays them. The crate links no solver and no terminal crate:
//! synthesis and proofs live in `grundy-synth`, the command line in `grundy`.

#![warn(missing_docs)]

pub mod catalog;
pub mod cluster;
pub mod error;
pub mod files;
pub mod game;
pub mod memory;
pub mod period;
pub mod play;
pub mod progress;
pub mod sg;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing;
pub mod units;

pub use error::Error;
pub use game::{Game, MoveOrder, Nimber};
