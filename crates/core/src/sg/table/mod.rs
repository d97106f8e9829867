//! Bottom-up tabulation of hypergraph nim on a whole box `[0,d_0) x ... x [0,d_{n-1})`.
//!
//! # Method
//!
//! A move through face `F` from `p` reaches exactly the positions `q` with `q_i < p_i` on `F` and
//! `q_j = p_j` off `F`. Enumerating those moves costs `prod_{i in F} p_i` per face; instead we
//! keep, for every face, a running union of the values below a position. We store it shifted by
//! the all-ones vector of the face,
//!
//! `R_F(t) = { SG(q) : q <= t - 1_F on F, q = t off F }` (for `t_i >= 1` on `F`),
//!
//! which is the union `U_F(t - 1_F)` of the notes, i.e. exactly the set of values reachable from
//! `t` through `F`. It obeys
//!
//! `R_F(t) = { SG(t - 1_F) } ∪ ⋃_{i in F, t_i >= 2} R_F(t - e_i)`,
//!
//! and `SG(t)` is the mex of `⋃_F R_F(t)` over the faces with `t_i >= 1` on `F`. Storing the
//! shifted union rather than `U_F` itself has two advantages: `R_F(t)` does not depend on
//! `SG(t)`, so one pass per position both updates the unions and collects the mex, and the
//! lookback of the recurrence shrinks from `sum_{i in F} stride_i` to `max_{i in F} stride_i`,
//! which halves the rings. `SG(t - 1_F)` is read back from the output table, which we keep anyway.
//! Sets are bitsets of `ceil((max SG + 1) / 64)` words; `SG(p)` is at most the stones of `p`.
//! The cost per position is the sum of the face sizes in word-ORs.
//!
//! # Memory
//!
//! Positions are visited in row-major order (last coordinate fastest), so `R_F(t - e_i)` lies
//! `stride_i` positions back. Faces are grouped by their smallest vertex `m`; a group keeps a ring
//! of `stride_m` slots, each holding the sets of all the group's faces for one position
//! (position-major, so one position touches a few contiguous cache lines per group). Slot
//! `t mod stride_m` is read (as `R_F(t - e_m)`) and then overwritten with `R_F(t)`.
//!
//! # Parallelism
//!
//! The box is cut into slabs `x_0 = a`; thread `k` of `T` runs slabs `k, k + T, ...`. Faces
//! without vertex 0 stay inside a slab, so their rings are private to each thread. Faces with
//! vertex 0 (the group of vertex 0, whose ring is one whole slab) read the previous slab at the
//! same inner index. All threads share *one* slab-sized ring for that group: a slab processes
//! inner index `j` only once its predecessor has finished index `j + L` (`L` the largest stride
//! a slab looks back into its own part of that ring), which guarantees that every slot is written
//! before it is read and read before it is overwritten (the argument is in `kernel.rs`). This
//! keeps the biggest ring at one slab whatever the thread count, where ping-pong buffers would
//! need `T + 1` slabs; the lag `L` is `stride_1`, a fraction `1/d_1` of a slab, so the threads
//! still overlap almost fully.

mod box_table;
mod kernel;
mod part;
#[cfg(test)]
mod tests;

pub use self::box_table::BoxTable;
pub use self::part::{part_range, tabulate_part, Emit};

use std::sync::Arc;

use crate::error::Error;
use crate::game::hypergraph::vertices_of;
use crate::game::{Grid, Hypergraph, Nimber};
use crate::progress::{Progress, Silent};

/// Options for a box tabulation.
#[derive(Clone)]
pub struct TableOptions {
    /// Worker threads; 0 means every available core. More than `d_0` are not used.
    pub threads: usize,
    /// Refuse a box whose `estimate_bytes` exceeds this many bytes.
    pub memory_limit: u64,
    /// Where the positions done are reported.
    pub progress: Arc<dyn Progress>,
}

impl std::fmt::Debug for TableOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableOptions")
            .field("threads", &self.threads)
            .field("memory_limit", &self.memory_limit)
            .finish_non_exhaustive()
    }
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            threads: 0,
            memory_limit: crate::memory::default_limit(),
            progress: Arc::new(Silent),
        }
    }
}

/// Bytes the tabulation would need (output table plus rings), for refusing a box up front.
///
/// Returns `u64::MAX` for a box that cannot be tabulated at all (wrong dimension count, a zero
/// side, or too many positions).
pub(crate) fn estimate_bytes(graph: &Hypergraph, dims: &[usize], threads: usize) -> u64 {
    match Layout::new(graph, dims) {
        Ok(layout) => layout.bytes(layout.threads(threads)),
        Err(_) => u64::MAX,
    }
}

/// Word operations the tabulation would do: per position, one set union per vertex of every
/// face, each `ceil((max SG + 1) / 64)` words. `None` when the box cannot be tabulated.
pub(crate) fn estimate_work(graph: &Hypergraph, dims: &[usize]) -> Option<f64> {
    let layout = Layout::new(graph, dims).ok()?;
    let per_position: usize = layout
        .groups
        .iter()
        .flat_map(|g| &g.faces)
        .map(|f| f.count_ones() as usize + 1)
        .sum::<usize>()
        .max(1);
    Some(layout.grid.len() as f64 * per_position as f64 * layout.words() as f64)
}

/// Tabulates every SG value of the box `[0,dims[0]) x ... x [0,dims[n-1])`.
///
/// Refuses with [`Error::Resource`] when the box does not fit the game (`dims.len()` differs from
/// the vertex count, or a side is 0), has too many positions, or needs more than
/// `opts.memory_limit` bytes by `estimate_bytes`.
pub fn tabulate(
    graph: &Hypergraph,
    dims: &[usize],
    opts: &TableOptions,
) -> Result<BoxTable, Error> {
    let layout = Layout::new(graph, dims)?;
    let threads = layout.threads(opts.threads);
    let need = layout.bytes(threads);
    if need > opts.memory_limit {
        return Err(Error::limit(
            crate::error::Setting::MemoryLimit,
            format!(
                "box {} needs about {}; the limit is {}",
                layout.grid,
                crate::units::format_bytes(need),
                crate::units::format_bytes(opts.memory_limit)
            ),
        ));
    }
    opts.progress.start("positions", layout.grid.len() as u64);
    let values = kernel::run(&layout, threads, opts.progress.as_ref());
    opts.progress.finish();
    BoxTable::new(layout.grid, values?)
}

/// The faces whose smallest vertex is `vertex`, and the ring that holds their sets.
#[derive(Clone, Debug)]
struct Group {
    vertex: usize,
    /// The faces that can ever be played in the box (no vertex with side 1).
    faces: Vec<u64>,
    /// Ring slots: `stride[vertex]`, the lookback of the group's recurrence.
    slots: usize,
}

impl Group {
    /// Words of one ring slot: every face's set for one position.
    fn slot_words(&self, words: usize) -> usize {
        self.faces.len() * words
    }
}

/// Everything about a box that the kernel and the memory estimate share.
#[derive(Clone, Debug)]
struct Layout {
    grid: Grid,
    /// Words handled per pass of the kernel (a const generic: 1 to 4).
    chunk: usize,
    /// Passes per position: a set is `chunk * blocks` words.
    blocks: usize,
    /// One group per vertex, in vertex order.
    groups: Vec<Group>,
    /// How far a slab looks back into itself in the shared ring of vertex 0's faces.
    reach: usize,
}

impl Layout {
    fn new(graph: &Hypergraph, dims: &[usize]) -> Result<Self, Error> {
        Self::check(graph, dims)?;
        Self::with_grid(graph, dims, Grid::new(dims)?)
    }

    /// Refuses a box that does not fit the game.
    fn check(graph: &Hypergraph, dims: &[usize]) -> Result<(), Error> {
        let n = graph.vertices();
        if dims.len() != n {
            return Err(Error::Resource(format!(
                "the box has {} sides but the game has {n} vertices",
                dims.len()
            )));
        }
        Ok(())
    }

    /// The layout of `grid`, a part of the box `dims` with the same sides but the second
    /// (`part.rs`): which faces can be played, and how wide the sets are, is the whole box's;
    /// rings and strides are the part's.
    fn with_grid(graph: &Hypergraph, dims: &[usize], grid: Grid) -> Result<Self, Error> {
        let n = graph.vertices();
        let strides = grid.strides();
        let max_sg: u64 = dims.iter().map(|&d| d as u64 - 1).sum();
        if max_sg >= u64::from(Nimber::MAX) {
            return Err(Error::Resource(format!(
                "box {grid} allows SG values past 2^32"
            )));
        }
        let words = (max_sg as usize) / 64 + 1;
        let (chunk, blocks) = if words <= 4 {
            (words, 1)
        } else {
            (4, words.div_ceil(4))
        };
        let mut groups: Vec<Group> = (0..n)
            .map(|v| Group {
                vertex: v,
                faces: Vec::new(),
                slots: strides[v],
            })
            .collect();
        for &face in graph.faces() {
            if vertices_of(face).all(|i| dims[i] >= 2) {
                groups[face.trailing_zeros() as usize].faces.push(face);
            }
        }
        let reach = groups[0]
            .faces
            .iter()
            .flat_map(|&f| vertices_of(f & !1))
            .map(|i| strides[i])
            .max()
            .unwrap_or(0);
        Ok(Layout {
            grid,
            chunk,
            blocks,
            groups,
            reach,
        })
    }

    /// Words per set.
    fn words(&self) -> usize {
        self.chunk * self.blocks
    }

    /// Threads actually used: `requested` (0 = all cores), at least 1, at most one per slab.
    fn threads(&self, requested: usize) -> usize {
        let requested = match requested {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        };
        requested.clamp(1, self.grid.sides().first().copied().unwrap_or(1))
    }

    /// Words of the ring of group `g`.
    fn ring_words(&self, g: usize) -> u64 {
        let group = &self.groups[g];
        group.slots as u64 * group.slot_words(self.words()) as u64
    }

    /// Words of the rings one thread keeps for itself (every group but vertex 0's).
    fn private_words(&self) -> u64 {
        (1..self.groups.len()).map(|g| self.ring_words(g)).sum()
    }

    /// Bytes of the output, the shared ring and `threads` sets of private rings.
    fn bytes(&self, threads: usize) -> u64 {
        let output = self.grid.len() as u64 * 4;
        let rings = self.ring_words(0) + threads as u64 * self.private_words();
        // Compiled move programs and thread stacks: small, but not nothing.
        let overhead = threads as u64 * (4 << 20);
        output
            .saturating_add(rings.saturating_mul(8))
            .saturating_add(overhead)
    }
}
