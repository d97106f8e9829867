//! The position every game shows the commands: a few counts (stones per vertex, heap sizes,
//! cells per row), kept inline.

use smallvec::SmallVec;

/// A position written as counts: the stone count on each vertex of hypergraph nim, the heap
/// sizes of a heap sum, the counts that stand for a board.
pub type Stones = SmallVec<[u32; 8]>;
