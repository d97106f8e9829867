//! One rank's part of a box table, for a tabulation shared among the ranks of an MPI job.
//!
//! # Split
//!
//! Rank `r` of `N` computes, in every slab `x_0 = a`, the positions whose second coordinate
//! lies in its range `c_r <= x_1 < c_{r+1}` ([`part_range`]). The recurrences of the module
//! above look back along every coordinate, and along `x_1` they cross into the range before:
//! `R_F(t - e_1)` of the faces through vertex 0 (ring of vertex 0) and through vertex 1 as their
//! smallest (ring of vertex 1), and `SG(t - 1_F)` for faces through vertex 1, all at
//! `x_1 = c_r - 1`, in this slab and (the values) the one before. Nothing else does: faces whose
//! smallest vertex is 2 or more stay inside one value of `x_1`, and along `x_0` a rank reads only
//! its own range of the slab before.
//!
//! So a rank keeps the box `d_0 x w x d_2 x ...` with `w` its range plus one *halo* value of
//! `x_1` in front (rank 0 has none), and before each slab it receives from the rank before the
//! halo: that rank's values, ring slots of vertex 0 and ring of vertex 1 at its last `x_1`. After
//! the slab it sends the same of its own last `x_1` to the rank after. Data flows one way, so
//! the ranks form a pipeline: rank `r` works on slab `a` while rank `r - 1` works on `a + 1`.
//!
//! # Memory
//!
//! A rank holds its part of the slab ring of vertex 0 (the largest structure of the whole
//! tabulation: `w / d_1` of it), the other rings as a single thread does, two slabs of its
//! part's values, and one message each way; no rank holds the table. Values go out slab by slab
//! through a callback, in row-major order within the rank's part.

use std::ops::Range;

use super::kernel::{class_key, zeroed, Rows};
use super::Layout;
use crate::cluster::Team;
use crate::error::Error;
use crate::game::{Grid, Hypergraph, Nimber};
use crate::units::format_bytes;

/// Takes each slab's values of a rank's part: `(a, first, values)`, the slab `x_0 = a`, the
/// row-major index in the whole box of the part's first position there, and the values.
pub type Emit<'a> = dyn FnMut(usize, usize, &[Nimber]) -> Result<(), Error> + 'a;

/// The values of `x_1` rank `rank` of `size` computes: consecutive ranges of `0..d1`, as equal
/// as they can be.
pub fn part_range(d1: usize, rank: usize, size: usize) -> Range<usize> {
    d1 * rank / size..d1 * (rank + 1) / size
}

/// Tabulates this rank's part of the box `dims` (module docs), calling `emit(a, first, values)`
/// for each slab `a` in order with the values of the rank's part of it, row-major; `first` is the
/// row-major index of its first position in the whole box. Every rank of `team` must call it.
///
/// Refuses (on every rank alike) a box of fewer than 3 sides, a second side smaller than the
/// ranks, or a part needing more than `memory_limit` bytes. An error `emit` returns ends the
/// emitting on that rank, not the pipeline, so that no other rank is left waiting; it is
/// returned at the end, and the ranks then agree on the outcome.
pub fn tabulate_part(
    graph: &Hypergraph,
    dims: &[usize],
    team: &dyn Team,
    memory_limit: u64,
    emit: &mut Emit<'_>,
) -> Result<(), Error> {
    let (rank, size) = (team.rank(), team.size());
    let part = team.settle(Part::new(graph, dims, rank, size, memory_limit))?;
    let buffers = team.settle(part.buffers())?;
    let mut emitted = Ok(());
    match part.layout.chunk {
        1 => part.run::<1>(buffers, team, &mut emitted, emit),
        2 => part.run::<2>(buffers, team, &mut emitted, emit),
        3 => part.run::<3>(buffers, team, &mut emitted, emit),
        _ => part.run::<4>(buffers, team, &mut emitted, emit),
    }
    team.settle(emitted)
}

/// A rank's part of the box, and its layout.
struct Part {
    layout: Layout,
    /// The whole box's sides.
    dims: Vec<usize>,
    /// The values of `x_1` this rank computes.
    range: Range<usize>,
    /// 1 when the part starts with a halo value of `x_1`, else 0.
    halo: usize,
    /// Positions per value of `x_1` in a slab.
    block: usize,
    rank: usize,
    size: usize,
}

/// The part's working memory.
struct Buffers {
    /// The previous slab's part, then this slab's (halo included).
    values: Vec<Nimber>,
    /// The slab ring of vertex 0's faces, over the part.
    shared: Vec<u64>,
    /// The other groups' rings, vertex 1's first.
    private: Vec<u64>,
}

impl Part {
    fn new(
        graph: &Hypergraph,
        dims: &[usize],
        rank: usize,
        size: usize,
        memory_limit: u64,
    ) -> Result<Self, Error> {
        Layout::check(graph, dims)?;
        let whole = Grid::new(dims)?;
        if dims.len() < 3 {
            return Err(Error::Usage(format!(
                "a table shared among ranks splits the box along x1 and needs at least 3 \
                 vertices; {whole} has {}",
                dims.len()
            )));
        }
        if dims[1] < size {
            return Err(Error::Usage(format!(
                "the box {whole} has {} values of x1 to share among {size} ranks; use at most \
                 {} ranks",
                dims[1], dims[1]
            )));
        }
        let range = part_range(dims[1], rank, size);
        let halo = usize::from(rank > 0);
        let mut local = dims.to_vec();
        local[1] = range.len() + halo;
        let layout = Layout::with_grid(graph, dims, Grid::new(&local)?)?;
        let part = Part {
            block: layout.grid.strides()[1],
            layout,
            dims: dims.to_vec(),
            range,
            halo,
            rank,
            size,
        };
        let need = part.bytes();
        if need > memory_limit {
            return Err(Error::limit(
                crate::error::Setting::MemoryLimit,
                format!(
                    "rank {rank}'s part of the box {whole} needs about {}; the limit is {} \
                     (more ranks make each part smaller)",
                    format_bytes(need),
                    format_bytes(memory_limit)
                ),
            ));
        }
        Ok(part)
    }

    /// Words of a ring slot of vertex `g`'s faces.
    fn slot_words(&self, g: usize) -> usize {
        self.layout.groups[g].slot_words(self.layout.words())
    }

    /// Bytes of the message between neighbours: values, vertex 0's ring slots and vertex 1's
    /// ring, at one value of `x_1`.
    fn message_bytes(&self) -> u64 {
        let words = self.block * self.slot_words(0) + self.layout.ring_words(1) as usize;
        (self.block * 4 + words * 8) as u64
    }

    /// Bytes the part needs: two slabs of values, the rings, and a message each way.
    fn bytes(&self) -> u64 {
        let slab = self.layout.grid.strides()[0] as u64;
        let rings = self.layout.ring_words(0) + self.layout.private_words();
        2 * slab * 4 + rings * 8 + 2 * self.message_bytes() + (4 << 20)
    }

    fn buffers(&self) -> Result<Buffers, Error> {
        let slab = self.layout.grid.strides()[0];
        Ok(Buffers {
            values: zeroed(2 * slab, "the part's values")?,
            shared: zeroed(self.layout.ring_words(0) as usize, "the part's slab ring")?,
            private: zeroed(self.layout.private_words() as usize, "the rings")?,
        })
    }

    /// The pipeline of the module docs, `C` words per pass over a set.
    fn run<const C: usize>(
        &self,
        mut buf: Buffers,
        team: &dyn Team,
        emitted: &mut Result<(), Error>,
        emit: &mut Emit<'_>,
    ) {
        let layout = &self.layout;
        let n = self.dims.len();
        let slab = layout.grid.strides()[0];
        let whole_slab = slab / layout.grid.sides()[1] * self.dims[1];
        let (block, w) = (self.block, layout.grid.sides()[1]);
        let ring1 = layout.ring_words(1) as usize;
        let sw0 = self.slot_words(0);
        let row_len = self.dims[n - 1];
        let mut rows = Rows::new(layout, buf.shared.as_mut_ptr(), buf.private.as_mut_ptr());
        let mut coords = vec![0usize; n];
        for a in 0..self.dims[0] {
            if self.halo == 1 {
                let msg = team.receive(self.rank - 1);
                let mut at = 0;
                let mut take = |len: usize| {
                    let bytes = msg.get(at..at + len).unwrap_or(&[]);
                    at += len;
                    bytes
                };
                let cur = &mut buf.values[slab..slab + block];
                for (v, b) in cur.iter_mut().zip(take(block * 4).chunks_exact(4)) {
                    *v = u32::from_le_bytes(b.try_into().expect("4 bytes"));
                }
                for (v, b) in buf.shared[..block * sw0]
                    .iter_mut()
                    .zip(take(block * sw0 * 8).chunks_exact(8))
                {
                    *v = u64::from_le_bytes(b.try_into().expect("8 bytes"));
                }
                for (v, b) in buf.private[..ring1]
                    .iter_mut()
                    .zip(take(ring1 * 8).chunks_exact(8))
                {
                    *v = u64::from_le_bytes(b.try_into().expect("8 bytes"));
                }
                debug_assert_eq!(at, msg.len(), "a halo message of the wrong length");
            }
            coords[0] = a;
            for x1 in self.halo..w {
                coords[1] = self.range.start + x1 - self.halo;
                coords[2..].fill(0);
                for r in 0..block / row_len {
                    let j0 = x1 * block + r * row_len;
                    let key = class_key(&coords[..n - 1]);
                    let out = buf.values.as_mut_ptr().wrapping_add(slab + j0);
                    // SAFETY: the rings and values are this rank's buffers, laid out for the
                    // part's grid; the row's programs read slots and values of this slab's part
                    // and halo, and of the slab before (module docs), all written before.
                    unsafe { rows.run::<C>(layout, key, j0, out, 0..row_len) };
                    for i in (2..n - 1).rev() {
                        coords[i] += 1;
                        if coords[i] < self.dims[i] {
                            break;
                        }
                        coords[i] = 0;
                    }
                }
            }
            if self.rank + 1 < self.size {
                let last = (w - 1) * block;
                let mut msg = Vec::with_capacity(self.message_bytes() as usize);
                for v in &buf.values[slab + last..slab + last + block] {
                    msg.extend_from_slice(&v.to_le_bytes());
                }
                for v in &buf.shared[last * sw0..(last + block) * sw0] {
                    msg.extend_from_slice(&v.to_le_bytes());
                }
                for v in &buf.private[..ring1] {
                    msg.extend_from_slice(&v.to_le_bytes());
                }
                team.send(self.rank + 1, &msg);
            }
            if emitted.is_ok() {
                let first = a * whole_slab + self.range.start * block;
                *emitted = emit(a, first, &buf.values[slab + self.halo * block..2 * slab]);
            }
            buf.values.copy_within(slab..2 * slab, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tabulate, TableOptions};
    use super::*;
    use crate::catalog::spec;
    use crate::cluster::threads;

    /// The values every rank emits, in slab order then rank order, as one table.
    fn shared(graph: &Hypergraph, dims: &[usize], size: usize) -> Vec<Nimber> {
        let parts = threads::run(size, |team| {
            let mut slabs = Vec::new();
            let mut emit = |a: usize, first: usize, v: &[Nimber]| {
                slabs.push((a, first, v.to_vec()));
                Ok(())
            };
            tabulate_part(graph, dims, &*team, 1 << 30, &mut emit).map(|()| slabs)
        });
        let mut all: Vec<(usize, usize, Vec<Nimber>)> = parts
            .into_iter()
            .flat_map(|p| p.expect("every rank tabulates"))
            .collect();
        all.sort_by_key(|&(a, first, _)| (a, first));
        let mut out = Vec::new();
        for (_, first, v) in all {
            assert_eq!(first, out.len(), "the parts tile the box in order");
            out.extend(v);
        }
        out
    }

    #[test]
    fn the_ranks_parts_make_the_whole_table() {
        let cases: [(&str, &[usize]); 5] = [
            ("path:3", &[5, 6, 4]),
            ("star:4", &[3, 4, 2, 3, 5]),
            ("projective-plane", &[4, 5, 3, 4, 3, 4]),
            ("complex:0-1-2,2-3", &[6, 3, 7, 5]),
            ("circular:5,2", &[3, 2, 4, 3, 2]),
        ];
        for (game, dims) in cases {
            let g = spec::parse_hypergraph(game).unwrap();
            let whole = tabulate(g.graph(), dims, &TableOptions::default()).unwrap();
            for size in 1..=dims[1].min(3) {
                let parts = shared(g.graph(), dims, size);
                assert_eq!(
                    Some(&parts[..]),
                    whole.values(),
                    "{game} {dims:?} on {size} ranks"
                );
            }
        }
    }

    #[test]
    fn boxes_that_cannot_be_split_are_refused_on_every_rank() {
        let g = spec::parse_hypergraph("path:3").unwrap();
        for (dims, size) in [(&[4usize, 2, 4][..], 3), (&[4, 4, 4, 4][..], 2)] {
            let errors = threads::run(size, |team| {
                let mut emit = |_: usize, _: usize, _: &[Nimber]| Ok(());
                tabulate_part(g.graph(), dims, &*team, 1 << 30, &mut emit).unwrap_err()
            });
            assert!(errors
                .iter()
                .all(|e| e.kind() == crate::error::Kind::BadInput
                    || e.kind() == crate::error::Kind::Resource));
        }
        let nim2 = spec::parse_hypergraph("nim:2").unwrap();
        let errors = threads::run(2, |team| {
            let mut emit = |_: usize, _: usize, _: &[Nimber]| Ok(());
            tabulate_part(nim2.graph(), &[4, 4], &*team, 1 << 30, &mut emit).unwrap_err()
        });
        assert!(errors
            .iter()
            .all(|e| e.kind() == crate::error::Kind::BadInput));
    }

    #[test]
    fn a_failing_emit_ends_every_rank_with_its_error() {
        let g = spec::parse_hypergraph("path:3").unwrap();
        let errors = threads::run(2, |team| {
            let rank = team.rank();
            let mut emit = |a: usize, _: usize, _: &[Nimber]| match (rank, a) {
                (1, 2) => Err(Error::Resource("disk full".into())),
                _ => Ok(()),
            };
            tabulate_part(g.graph(), &[5, 4, 4], &*team, 1 << 30, &mut emit).unwrap_err()
        });
        for e in errors {
            assert!(e.to_string().contains("disk full"), "{e}");
        }
    }
}
