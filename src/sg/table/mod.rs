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

mod kernel;
#[cfg(test)]
mod tests;

use std::fmt::Write as _;

use indicatif::{ProgressBar, ProgressStyle};

use crate::error::Error;
use crate::game::hypergraph::vertices_of;
use crate::game::{Hypergraph, Nimber};

/// Options for a box tabulation.
#[derive(Clone, Debug)]
pub struct TableOptions {
    /// Worker threads; 0 means every available core. More than `d_0` are not used.
    pub threads: usize,
    /// Refuse a box whose [`estimate_bytes`] exceeds this many bytes.
    pub memory_limit: u64,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            threads: 0,
            memory_limit: available_memory() / 5 * 4,
            progress: false,
        }
    }
}

/// Every SG value of a box, row-major with the last coordinate fastest.
#[derive(Clone, Debug)]
pub struct BoxTable {
    dims: Vec<usize>,
    strides: Vec<usize>,
    values: Vec<u32>,
}

impl BoxTable {
    /// The side lengths `d_i` of the box.
    pub fn dims(&self) -> &[usize] {
        &self.dims
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the box has no positions (never true for a tabulated box).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value of position `p`.
    ///
    /// # Panics
    /// When `p` lies outside the box or has the wrong length; callers check first.
    pub fn get(&self, p: &[u32]) -> Nimber {
        self.values[self.index_of(p)]
    }

    /// The value at a row-major index.
    ///
    /// # Panics
    /// When `index >= self.len()`.
    pub fn value_at(&self, index: usize) -> Nimber {
        self.values[index]
    }

    /// Writes the position with row-major index `index` into `out` (the inverse of
    /// [`BoxTable::index_of`]).
    ///
    /// # Panics
    /// When `index >= self.len()` or `out` has the wrong length.
    pub fn position_of(&self, index: usize, out: &mut [u32]) {
        assert!(
            index < self.len(),
            "index {index} is outside a box of {} positions",
            self.len()
        );
        assert_eq!(
            out.len(),
            self.dims.len(),
            "position length does not match the box"
        );
        let mut rest = index;
        for (o, &s) in out.iter_mut().zip(&self.strides) {
            *o = (rest / s) as u32;
            rest %= s;
        }
    }

    /// The row-major index of position `p`.
    ///
    /// # Panics
    /// When `p` lies outside the box or has the wrong length.
    pub fn index_of(&self, p: &[u32]) -> usize {
        assert_eq!(
            p.len(),
            self.dims.len(),
            "position length does not match the box"
        );
        p.iter()
            .zip(&self.dims)
            .zip(&self.strides)
            .fold(0, |acc, ((&x, &d), &s)| {
                assert!(
                    (x as usize) < d,
                    "position {p:?} is outside the box {}",
                    describe_box(&self.dims)
                );
                acc + x as usize * s
            })
    }

    /// All values, row-major.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// The values, row-major, without copying them.
    pub fn into_values(self) -> Vec<Nimber> {
        self.values
    }
}

/// Bytes the tabulation would need (output table plus rings), for refusing a box up front.
///
/// Returns `u64::MAX` for a box that cannot be tabulated at all (wrong dimension count, a zero
/// side, or too many positions).
pub fn estimate_bytes(graph: &Hypergraph, dims: &[usize], threads: usize) -> u64 {
    match Layout::new(graph, dims) {
        Ok(layout) => layout.bytes(layout.threads(threads)),
        Err(_) => u64::MAX,
    }
}

/// Tabulates every SG value of the box `[0,dims[0]) x ... x [0,dims[n-1])`.
///
/// Refuses with [`Error::Resource`] when the box does not fit the game (`dims.len()` differs from
/// the vertex count, or a side is 0), has too many positions, or needs more than
/// `opts.memory_limit` bytes by [`estimate_bytes`].
pub fn tabulate(
    graph: &Hypergraph,
    dims: &[usize],
    opts: &TableOptions,
) -> Result<BoxTable, Error> {
    let layout = Layout::new(graph, dims)?;
    let threads = layout.threads(opts.threads);
    let need = layout.bytes(threads);
    if need > opts.memory_limit {
        return Err(Error::Resource(format!(
            "box {} needs about {}; the limit is {}",
            describe_box(dims),
            crate::units::format_bytes(need),
            crate::units::format_bytes(opts.memory_limit)
        )));
    }
    let bar = opts.progress.then(|| {
        let bar = ProgressBar::new(layout.len as u64);
        let style =
            ProgressStyle::with_template("tabulating {bar:40} {pos}/{len} positions, eta {eta}")
                .expect("the template is valid");
        bar.set_style(style);
        bar
    });
    let values = kernel::run(&layout, threads, bar.as_ref())?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(BoxTable {
        dims: layout.dims,
        strides: layout.strides,
        values,
    })
}

/// Bytes of memory the system can still hand out (`MemAvailable` in `/proc/meminfo`), or 8 GiB
/// when that cannot be read; callers take about 80% of it as the default limit.
pub fn available_memory() -> u64 {
    const FALLBACK: u64 = 8 << 30;
    let Ok(info) = std::fs::read_to_string("/proc/meminfo") else {
        return FALLBACK;
    };
    info.lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map_or(FALLBACK, |kib| kib.saturating_mul(1024))
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
    dims: Vec<usize>,
    strides: Vec<usize>,
    /// Number of positions.
    len: usize,
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
        let n = graph.vertices();
        if dims.len() != n {
            return Err(Error::Resource(format!(
                "the box has {} sides but the game has {n} vertices",
                dims.len()
            )));
        }
        if let Some(i) = dims.iter().position(|&d| d == 0) {
            return Err(Error::Resource(format!("side {i} of the box is empty")));
        }
        let too_big =
            || Error::Resource(format!("box {} has too many positions", describe_box(dims)));
        let len = dims
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(d))
            .ok_or_else(too_big)?;
        let mut strides = vec![1; n];
        for i in (0..n.saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * dims[i + 1];
        }
        let max_sg: u64 = dims.iter().map(|&d| d as u64 - 1).sum();
        if max_sg >= u64::from(Nimber::MAX) {
            return Err(too_big());
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
            dims: dims.to_vec(),
            strides,
            len,
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
        requested.clamp(1, self.dims[0])
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
        let output = self.len as u64 * 4;
        let rings = self.ring_words(0) + threads as u64 * self.private_words();
        // Compiled move programs and thread stacks: small, but not nothing.
        let overhead = threads as u64 * (4 << 20);
        output
            .saturating_add(rings.saturating_mul(8))
            .saturating_add(overhead)
    }
}

/// `[0,16)^6` for a cube, `[0,3)x[0,5)x[0,2)` otherwise.
fn describe_box(dims: &[usize]) -> String {
    match dims {
        [d, rest @ ..] if rest.iter().all(|e| e == d) && !rest.is_empty() => {
            format!("[0,{d})^{}", dims.len())
        }
        _ => {
            let mut s = String::new();
            for (i, d) in dims.iter().enumerate() {
                let sep = if i == 0 { "" } else { "x" };
                let _ = write!(s, "{sep}[0,{d})");
            }
            s
        }
    }
}
