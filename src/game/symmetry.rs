//! The automorphism group of a hypergraph, computed from its faces, and canonical forms.
//!
//! Vertices u, v are *twins* when swapping them is an automorphism; twinhood is an equivalence
//! and its classes are freely interchangeable, so the group contains the product N of the
//! symmetric groups on the classes, as a normal subgroup. We never enumerate N (star:12 has
//! 12! automorphisms): a canonical form sorts within each class, and only one automorphism per
//! coset of N, the one monotone on every class, is enumerated.

use super::hypergraph::{vertices_of, Hypergraph};

/// The automorphism group G = N ⋊ (coset representatives) of a hypergraph.
#[derive(Clone, Debug)]
pub struct Symmetry {
    n: usize,
    /// Twin classes, each ascending; singleton classes included.
    classes: Vec<Vec<usize>>,
    /// One automorphism per coset of N: `perm[v]` is the image of vertex `v`.
    reps: Vec<Vec<usize>>,
    /// True when the group is trivial: canonical forms are the identity.
    trivial: bool,
}

/// Applies the vertex map to a face mask.
fn map_mask(perm: &[usize], mask: u64) -> u64 {
    vertices_of(mask).fold(0, |m, v| m | 1 << perm[v])
}

impl Symmetry {
    /// Computes the automorphism group of `g`.
    pub fn of(g: &Hypergraph) -> Self {
        let n = g.vertices();
        // Complexes are determined by their maximal faces; hypergraphs need every face.
        let faces: &[u64] = if g.is_closed_downward() {
            g.maximal_faces()
        } else {
            g.faces()
        };
        // A vertex bijection that maps every listed face to a face maps the face set into
        // itself injectively, hence onto it.
        let is_aut = |perm: &[usize]| faces.iter().all(|&f| g.is_face(map_mask(perm, f)));

        // Each vertex joins the class of the first earlier vertex it can be swapped with.
        let mut class_of: Vec<usize> = (0..n).collect();
        for v in 1..n {
            let twin = (0..v).filter(|&u| class_of[u] == u).find(|&u| {
                let mut swap: Vec<usize> = (0..n).collect();
                swap.swap(u, v);
                is_aut(&swap)
            });
            if let Some(u) = twin {
                class_of[v] = u;
            }
        }
        let mut classes: Vec<Vec<usize>> = Vec::new();
        for v in 0..n {
            if class_of[v] == v {
                classes.push((0..n).filter(|&w| class_of[w] == v).collect());
            }
        }

        // Invariants a vertex image must share: number of faces of each size containing it.
        let invariant: Vec<Vec<usize>> = (0..n)
            .map(|v| {
                let mut counts = vec![0usize; n + 1];
                for &f in g.faces() {
                    if f >> v & 1 == 1 {
                        counts[f.count_ones() as usize] += 1;
                    }
                }
                counts
            })
            .collect();
        // Faces bucketed by their largest vertex, checked once that vertex is mapped.
        let mut by_last: Vec<Vec<u64>> = vec![Vec::new(); n];
        for &f in faces {
            by_last[63 - f.leading_zeros() as usize].push(f);
        }

        let mut reps = Vec::new();
        let mut perm = vec![usize::MAX; n];
        let mut used = vec![false; n];
        Self::extend(
            g, 0, &mut perm, &mut used, &class_of, &invariant, &by_last, &mut reps,
        );
        let trivial = reps.len() == 1 && classes.iter().all(|c| c.len() == 1);
        Symmetry {
            n,
            classes,
            reps,
            trivial,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn extend(
        g: &Hypergraph,
        v: usize,
        perm: &mut [usize],
        used: &mut [bool],
        class_of: &[usize],
        invariant: &[Vec<usize>],
        by_last: &[Vec<u64>],
        reps: &mut Vec<Vec<usize>>,
    ) {
        let n = perm.len();
        if v == n {
            reps.push(perm.to_vec());
            return;
        }
        // Monotone on twin classes: the previous member of v's class fixes the target class and
        // a lower bound.
        let prev = (0..v).rev().find(|&u| class_of[u] == class_of[v]);
        for w in 0..n {
            if used[w] || invariant[w] != invariant[v] {
                continue;
            }
            if let Some(u) = prev {
                if w < perm[u] || class_of[w] != class_of[perm[u]] {
                    continue;
                }
            }
            perm[v] = w;
            if by_last[v].iter().all(|&f| g.is_face(map_mask(perm, f))) {
                used[w] = true;
                Self::extend(g, v + 1, perm, used, class_of, invariant, by_last, reps);
                used[w] = false;
            }
        }
        perm[v] = usize::MAX;
    }

    /// Twin classes: sets of freely interchangeable vertices.
    pub fn twin_classes(&self) -> &[Vec<usize>] {
        &self.classes
    }

    /// Number of coset representatives enumerated (the group order over the twin product).
    pub fn coset_count(&self) -> usize {
        self.reps.len()
    }

    /// The group order, or `None` when it overflows `u128`.
    pub fn order(&self) -> Option<u128> {
        let mut order = self.reps.len() as u128;
        for c in &self.classes {
            for k in 2..=c.len() as u128 {
                order = order.checked_mul(k)?;
            }
        }
        Some(order)
    }

    /// Whether the group is the identity alone.
    pub fn is_trivial(&self) -> bool {
        self.trivial
    }

    fn sort_classes(&self, p: &mut [u32]) {
        for c in &self.classes {
            if c.len() > 1 {
                let mut vals: smallvec::SmallVec<[u32; 16]> = c.iter().map(|&v| p[v]).collect();
                vals.sort_unstable();
                for (&v, x) in c.iter().zip(vals) {
                    p[v] = x;
                }
            }
        }
    }

    /// Replaces `p` by the lexicographically least member of its orbit.
    pub fn canonicalize(&self, p: &mut [u32]) {
        if self.trivial {
            return;
        }
        if self.reps.len() == 1 {
            self.sort_classes(p);
            return;
        }
        let mut best: smallvec::SmallVec<[u32; 16]> = p.iter().copied().collect();
        self.sort_classes(&mut best);
        let mut img: smallvec::SmallVec<[u32; 16]> = best.clone();
        for perm in &self.reps[1..] {
            for v in 0..self.n {
                img[perm[v]] = p[v];
            }
            self.sort_classes(&mut img);
            if img < best {
                best.clone_from(&img);
            }
        }
        p.copy_from_slice(&best);
    }

    /// Whether `p` is its orbit's canonical representative.
    pub fn is_canonical(&self, p: &[u32]) -> bool {
        let mut q = p.to_vec();
        self.canonicalize(&mut q);
        q == p
    }

    /// Every distinct image of `p` under the group, sorted. Its size is at most the group order,
    /// and at most the number of distinct rearrangements of `p`.
    pub fn orbit(&self, p: &[u32]) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        for perm in &self.reps {
            let mut img = vec![0; self.n];
            for v in 0..self.n {
                img[perm[v]] = p[v];
            }
            self.permutations_within_classes(&mut img, 0, &mut out);
        }
        out.sort();
        out.dedup();
        out
    }

    fn permutations_within_classes(
        &self,
        img: &mut Vec<u32>,
        class: usize,
        out: &mut Vec<Vec<u32>>,
    ) {
        if class == self.classes.len() {
            out.push(img.clone());
            return;
        }
        let c = &self.classes[class];
        let mut vals: Vec<u32> = c.iter().map(|&v| img[v]).collect();
        vals.sort_unstable();
        // Distinct arrangements of the multiset `vals` over the class (next-permutation order).
        loop {
            for (&v, &x) in c.iter().zip(&vals) {
                img[v] = x;
            }
            self.permutations_within_classes(img, class + 1, out);
            if !next_permutation(&mut vals) {
                break;
            }
        }
    }
}

/// Rearranges into the next lexicographic permutation; false after the last one.
fn next_permutation(v: &mut [u32]) -> bool {
    if v.len() < 2 {
        return false;
    }
    let mut i = v.len() - 1;
    while i > 0 && v[i - 1] >= v[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    let mut j = v.len() - 1;
    while v[j] <= v[i - 1] {
        j -= 1;
    }
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn star(k: usize) -> Hypergraph {
        Hypergraph::complex(k + 1, &(1..=k).map(|v| vec![0, v]).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn star_group_is_a_symmetric_group_on_the_leaves() {
        let s = Symmetry::of(&star(12));
        assert_eq!(s.order(), Some(479_001_600));
        assert_eq!(s.coset_count(), 1);
        let mut p = [3, 5, 1, 4, 0, 0, 0, 0, 0, 0, 0, 0, 2];
        s.canonicalize(&mut p);
        assert_eq!(p, [3, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 5]);
    }

    #[test]
    fn cycle_group_is_dihedral() {
        let c5 = Hypergraph::complex(5, &(0..5).map(|v| vec![v, (v + 1) % 5]).collect::<Vec<_>>())
            .unwrap();
        assert_eq!(Symmetry::of(&c5).order(), Some(10));
        let c4 = Hypergraph::complex(4, &(0..4).map(|v| vec![v, (v + 1) % 4]).collect::<Vec<_>>())
            .unwrap();
        // The 4-cycle has twins (opposite corners), but the order is still 8.
        assert_eq!(Symmetry::of(&c4).order(), Some(8));
    }

    #[test]
    fn orbits_partition_and_canonical_is_least() {
        let c4 = Hypergraph::complex(4, &(0..4).map(|v| vec![v, (v + 1) % 4]).collect::<Vec<_>>())
            .unwrap();
        let s = Symmetry::of(&c4);
        let p = [3, 1, 0, 2];
        let orbit = s.orbit(&p);
        assert_eq!(orbit.len(), 8);
        let mut q = p;
        s.canonicalize(&mut q);
        assert_eq!(q.to_vec(), orbit[0]);
        for member in &orbit {
            let mut m = member.clone();
            s.canonicalize(&mut m);
            assert_eq!(m, orbit[0]);
        }
    }

    #[test]
    fn every_automorphism_preserves_faces() {
        let g = Hypergraph::complex(4, &[vec![0, 1, 2], vec![2, 3]]).unwrap();
        let s = Symmetry::of(&g);
        for perm in &s.reps {
            for &f in g.faces() {
                assert!(g.is_face(map_mask(perm, f)));
            }
        }
        assert_eq!(s.order(), Some(2)); // swap 0 and 1
    }
}
