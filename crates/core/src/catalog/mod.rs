//! The games the commands can name, above the engines: the spec registry ([`spec`]) that turns
//! `circular:5,2` or `cram:4x5` into a game, and [`AnyGame`], the one object-safe trait the
//! commands use to value, tabulate and describe any of them without knowing its type (the sum
//! of [`Notation`], [`Rules`], [`Valuation`] and [`Tabulation`], one trait per concern). A game
//! of one's own joins them through [`Custom`]; [`solve`] values one position of any of them
//! (`auto` resolved by the game), [`sweep`] a box position by position.

mod any;
mod boards;
mod cost;
#[cfg(test)]
mod crosscheck;
mod custom;
pub mod dealt;
mod heaps;
pub mod race;
pub mod solve;
pub mod spec;
pub mod sweep;

pub(crate) use any::parse_counts;
pub use any::{
    searcher, AnyGame, GameKind, Notation, PositionSearcher, Rules, Tabulation, Valuation,
};
pub use custom::Custom;
pub use heaps::HeapSum;
