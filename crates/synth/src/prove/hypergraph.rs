//! Hypergraph nim's moves as linear kinds, for conditions (A) and (B) ([`super::linear`]).
//!
//! A move through a face F takes d_v >= 1 stones from every vertex v of F (at most p_v) and
//! none elsewhere; the registry lists every face a move may use (a complex's subsets
//! included), so the faces are exactly the moves' supports, one kind each, with the
//! decrements free.

use z3::ast::{Bool, Int};

use super::linear::{naturals, LinearMoves, Step};
use super::ZeroSet;
use grundy_core::game::hypergraph::vertices_of;

/// The faces of a game of hypergraph nim, each a kind of move.
pub(super) struct Faces<'a>(pub(super) &'a [u64]);

impl LinearMoves for Faces<'_> {
    fn kinds(&self) -> usize {
        self.0.len()
    }

    fn step(&self, kind: usize, p: &[Int], set: &ZeroSet, prefix: &str) -> Step {
        let face = self.0[kind];
        let d = naturals(prefix, face.count_ones() as usize);
        let after = after(p, face, &d);
        Step {
            legal: legal(p, face, &d),
            zero_after: set.z3(&after),
            after,
            amounts: d,
        }
    }
}

/// The position after taking `d[v]` from each vertex of `face`.
fn after(p: &[Int], face: u64, d: &[Int]) -> Vec<Int> {
    let mut q = p.to_vec();
    for (k, v) in vertices_of(face).enumerate() {
        q[v] = Int::sub(&[p[v].clone(), d[k].clone()]);
    }
    q
}

/// The decrements of a move through `face`: 1 <= d_v <= p_v.
fn legal(p: &[Int], face: u64, d: &[Int]) -> Bool {
    let parts: Vec<Bool> = vertices_of(face)
        .enumerate()
        .flat_map(|(k, v)| [d[k].ge(Int::from_u64(1)), d[k].le(&p[v])])
        .collect();
    Bool::and(&parts)
}
