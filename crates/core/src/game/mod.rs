//! Impartial games under normal play: the trait every engine works on, and the games we ship.

pub mod board;
pub(crate) mod grid;
pub mod heap;
pub mod hypergraph;
pub(crate) mod nimset;
pub(crate) mod position;
pub(crate) mod record;
pub mod symmetry;

use std::fmt::Debug;
use std::hash::Hash;

pub use grid::Grid;
pub use hypergraph::{Hypergraph, HypergraphNim};
pub use nimset::NimSet;
pub use position::Stones;
pub use record::Record;

/// The components of a position that splits: few, so they are kept inline.
pub type Parts<P> = smallvec::SmallVec<[P; 4]>;

/// A Sprague-Grundy value. Bounded by the number of moves, so 32 bits is plenty for anything we
/// can search.
pub type Nimber = u32;

/// The order in which a game lists the moves of a position.
///
/// Pruning engines cut more when small subtrees come first; the paper's benchmarks use both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveOrder {
    /// The game's plain enumeration (for heap games: take the fewest stones first).
    Natural,
    /// Moves leading to small subtrees first (for heap games: leave the fewest stones first).
    #[default]
    Heuristic,
}

/// A short impartial game under normal play.
///
/// Only `moves` is required. The optional hooks let engines exploit structure: splitting a
/// position into a sum, canonical forms under symmetry, and values known without search.
/// Every hook must be *sound*: an engine that uses it must get the same nimber as one that does
/// not.
pub trait Game: Sync {
    /// A position. Engines hash it as a transposition-table key.
    type Position: Clone + Eq + Hash + Debug + Send + Sync + 'static;

    /// Appends the successors of `p` to `out`, in a deterministic order fixed by `order`.
    fn moves(&self, p: &Self::Position, order: MoveOrder, out: &mut Vec<Self::Position>);

    /// Slots (as a power of two) of the engines' cache of shaped parts, 0 for none: worth it
    /// where a part's canonical form costs more than hashing it and parts recur (Cram).
    const PART_CACHE_BITS: u32 = 0;

    /// Number of successors of `p` (an upper bound on its nimber).
    fn move_count(&self, p: &Self::Position) -> usize {
        let mut out = Vec::new();
        self.moves(p, MoveOrder::Natural, &mut out);
        out.len()
    }

    /// Splits `p` into independent components whose nimbers xor to `p`'s (two or more, or
    /// one when a theorem has shrunk `p`), or returns `None` when `p` does not split. The
    /// components do not split again: engines take them as they are.
    fn split(&self, _p: &Self::Position) -> Option<Parts<Self::Position>> {
        None
    }

    /// Replaces `p` by the representative of its symmetry orbit (all members share a nimber).
    fn canonicalize(&self, _p: &mut Self::Position) {}

    /// Whether an engine that stores exact values only (the definition's) should store each
    /// under every member of the position's orbit ([`Game::images`]) and look positions up as
    /// they are, rather than canonicalize every position it looks up: worth it where orbits
    /// are small and a canonical form costs more than a store (square Chomp, where a position
    /// is looked up some fifty times for each time it is stored). Parts of a sum are then not
    /// canonical, so mirror-image twins are not cancelled: values stay right, but it suits
    /// games that do not split.
    fn stores_orbits(&self) -> bool {
        false
    }

    /// Appends the members of `p`'s symmetry orbit other than `p` itself, when
    /// [`Game::stores_orbits`].
    fn images(&self, _p: &Self::Position, _out: &mut Parts<Self::Position>) {}

    /// The nimber of `p` when a theorem gives it without search.
    fn known_value(&self, _p: &Self::Position) -> Option<Nimber> {
        None
    }

    /// A rough size of `p`'s game tree, used to search the largest component of a sum last.
    fn weight(&self, _p: &Self::Position) -> u64 {
        0
    }

    /// How costly a part of a successor is to value, for engines that search cheap successors
    /// first (a successor costs the sum of its unknown parts' costs). They do so only with the
    /// heuristic order and splitting on; 0 everywhere keeps the game's own order.
    fn part_cost(&self, _p: &Self::Position) -> u64 {
        0
    }
}
