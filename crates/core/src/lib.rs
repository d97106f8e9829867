//! `grundy-core`: Sprague-Grundy values, whole tables and nim sequences for impartial games.
//!
//! Data flows one way: a [`game`] defines positions and moves; the [`sg`] engines turn
//! positions into nimbers or whole tables; the [`catalog`] names every game the commands know
//! and hands it out behind one trait; [`period`] finds and proves the periods of heap
//! games' nim sequences; [`play`] plays them. The crate links no solver and no terminal crate:
//! synthesis and proofs live in `grundy-synth`, the command line in `grundy`.
//!
//! A game of your own needs only its moves. Wythoff's game (take any number from one heap, or
//! the same number from both), valued by a pruning search and tabulated:
//!
//! ```
//! use grundy_core::catalog::{solve::solve, Custom, Notation, Tabulation};
//! use grundy_core::game::{symmetry::Symmetry, Game, MoveOrder, Stones};
//! use grundy_core::sg::{table::TableOptions, Engine, SearchConfig};
//!
//! struct Wythoff;
//!
//! impl Game for Wythoff {
//!     type Position = Stones;
//!     fn moves(&self, p: &Stones, _: MoveOrder, out: &mut Vec<Stones>) {
//!         let (a, b) = (p[0], p[1]);
//!         out.extend((0..a).map(|x| Stones::from_slice(&[x, b])));
//!         out.extend((0..b).map(|y| Stones::from_slice(&[a, y])));
//!         out.extend((1..=a.min(b)).map(|k| Stones::from_slice(&[a - k, b - k])));
//!     }
//! }
//!
//! let game = Custom::new("wythoff", 2, Wythoff).with_symmetry(Symmetry::interchangeable(2));
//! let opts = TableOptions::default();
//! let cut = Engine::Search("cut".parse()?);
//! let p = game.position(&[3, 5])?;
//! let answer = solve(&game, &p, cut, SearchConfig::default(), &opts, false)?;
//! assert_eq!(answer.nimber, 0); // (3, 5) is a Beatty pair: a P-position
//!
//! let table = game.tabulate(&[8, 8], &opts)?;
//! let zeros = (0..table.len()).filter(|&i| table.value_at(i) == Some(0)).count();
//! assert_eq!(zeros, 7); // (0,0), (1,2), (2,1), (3,5), (5,3), (4,7), (7,4)
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

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
pub mod stop;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing;
pub mod units;

pub use error::Error;
pub use game::{Game, MoveOrder, Nimber, Stones};
pub use stop::{Stop, Stopped};
