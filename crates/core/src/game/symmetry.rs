//! The automorphism group of a hypergraph, computed from its faces, and canonical forms.
//!
//! Vertices u, v are *twins* when swapping them is an automorphism; twinhood is an equivalence
//! and its classes are freely interchangeable, so the group contains the product N of the
//! symmetric groups on the classes, as a normal subgroup. We never enumerate N (star:12 has
//! 12! automorphisms): a canonical form sorts within each class, and only one automorphism per
//! coset of N, the one monotone on every class, is enumerated.
//!
//! An automorphism maps twins to twins, so it maps each class onto a class of the same size,
//! and the monotone one maps the i-th member to the i-th member. The coset representatives
//! are therefore maps between *classes*, searched class by class: nim:64, one class of 64
//! vertices, has one representative and is found at once. Games whose classes can be permuted
//! in too many ways (32 disjoint edges: 32! arrangements) stop at [`MAX_COSETS`]; the group is
//! then *incomplete*: canonical forms use N alone (sound, since N is a subgroup, only less
//! sharing), and whatever needs the whole group's orbits refuses with a clear message.

use super::hypergraph::{vertices_of, Hypergraph};
use crate::error::Error;

/// Most coset representatives enumerated; canonical forms cost one image per representative.
pub const MAX_COSETS: usize = 10_000;
/// Most partial maps the search of representatives may try before it gives up.
const MAX_SEARCH_NODES: usize = 1_000_000;

/// The automorphism group G = N ⋊ (coset representatives) of a hypergraph.
#[derive(Clone, Debug)]
pub struct Symmetry {
    n: usize,
    /// Twin classes, each ascending; singleton classes included.
    classes: Vec<Vec<usize>>,
    /// One automorphism per coset of N: `perm[v]` is the image of vertex `v`. The identity
    /// alone when the enumeration was capped.
    reps: Vec<Vec<usize>>,
    /// Whether `reps` holds every coset (false when the enumeration was capped).
    complete: bool,
    /// True when canonical forms are the identity: the group is trivial, or incomplete with no
    /// interchangeable vertices.
    trivial: bool,
}

/// Applies the vertex map to a face mask.
fn map_mask(perm: &[usize], mask: u64) -> u64 {
    vertices_of(mask).fold(0, |m, v| m | 1 << perm[v])
}

/// The search for coset representatives: classes are mapped to classes in order.
struct CosetSearch<'a> {
    g: &'a Hypergraph,
    classes: &'a [Vec<usize>],
    /// A class's signature: its size and its members' face counts by size (shared by twins).
    signature: Vec<(usize, Vec<usize>)>,
    /// Faces (maximal ones for a complex) to check once the class of their largest vertex
    /// is mapped.
    check_at: Vec<Vec<u64>>,
    perm: Vec<usize>,
    used: Vec<bool>,
    reps: Vec<Vec<usize>>,
    nodes: usize,
}

impl CosetSearch<'_> {
    /// Extends the map to class `c`; false when a cap was reached.
    fn extend(&mut self, c: usize) -> bool {
        if c == self.classes.len() {
            self.reps.push(self.perm.clone());
            return self.reps.len() <= MAX_COSETS;
        }
        for d in 0..self.classes.len() {
            if self.used[d] || self.signature[d] != self.signature[c] {
                continue;
            }
            self.nodes += 1;
            if self.nodes > MAX_SEARCH_NODES {
                return false;
            }
            for (&v, &w) in self.classes[c].iter().zip(&self.classes[d]) {
                self.perm[v] = w;
            }
            let g = self.g;
            if self.check_at[c]
                .iter()
                .all(|&f| g.is_face(map_mask(&self.perm, f)))
            {
                self.used[d] = true;
                let go_on = self.extend(c + 1);
                self.used[d] = false;
                if !go_on {
                    return false;
                }
            }
        }
        true
    }
}

impl Symmetry {
    /// Computes the automorphism group of `g` (capped: see the module documentation).
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
        let mut index_of = vec![0; n];
        for v in 0..n {
            if class_of[v] == v {
                let members: Vec<usize> = (0..n).filter(|&w| class_of[w] == v).collect();
                for &w in &members {
                    index_of[w] = classes.len();
                }
                classes.push(members);
            }
        }

        // Invariants an image must share: the number of faces of each size containing a vertex.
        let signature: Vec<(usize, Vec<usize>)> = classes
            .iter()
            .map(|c| {
                let mut counts = vec![0usize; n + 1];
                for &f in g.faces() {
                    if f >> c[0] & 1 == 1 {
                        counts[f.count_ones() as usize] += 1;
                    }
                }
                (c.len(), counts)
            })
            .collect();
        let mut check_at: Vec<Vec<u64>> = vec![Vec::new(); classes.len()];
        for &f in faces {
            let last = vertices_of(f).map(|v| index_of[v]).max().unwrap_or(0);
            check_at[last].push(f);
        }

        let mut search = CosetSearch {
            g,
            classes: &classes,
            signature,
            check_at,
            perm: vec![usize::MAX; n],
            used: vec![false; classes.len()],
            reps: Vec::new(),
            nodes: 0,
        };
        let complete = search.extend(0);
        let reps = if complete {
            search.reps
        } else {
            vec![(0..n).collect()]
        };
        let trivial = reps.len() == 1 && classes.iter().all(|c| c.len() == 1);
        Symmetry {
            n,
            classes,
            reps,
            complete,
            trivial,
        }
    }

    /// The group of all permutations of `n` coordinates: sums of heaps under one rule, where
    /// any two heaps may swap.
    pub fn interchangeable(n: usize) -> Self {
        Symmetry {
            n,
            classes: vec![(0..n).collect()],
            reps: vec![(0..n).collect()],
            complete: true,
            trivial: n < 2,
        }
    }

    /// The group of the identity alone: a game with no symmetry it knows of.
    pub fn identity(n: usize) -> Self {
        Symmetry {
            n,
            classes: (0..n).map(|v| vec![v]).collect(),
            reps: vec![(0..n).collect()],
            complete: true,
            trivial: true,
        }
    }

    /// Whether every automorphism is known. When not, canonical forms are those of the twin
    /// product alone: sound for search, but not the whole group's orbits.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Refuses, with the reason, what needs the whole group's orbits when it is not known.
    pub fn require_complete(&self) -> Result<(), Error> {
        if self.complete {
            return Ok(());
        }
        Err(Error::limit(
            crate::error::Setting::Orbits,
            format!(
                "the automorphism group is too large to enumerate (more than {MAX_COSETS} ways \
                 to permute the classes of interchangeable vertices), so its orbits are not \
                 known"
            ),
        ))
    }

    /// Twin classes: sets of freely interchangeable vertices.
    pub fn twin_classes(&self) -> &[Vec<usize>] {
        &self.classes
    }

    /// Number of coset representatives enumerated (the group order over the twin product).
    pub(crate) fn coset_count(&self) -> usize {
        self.reps.len()
    }

    /// The group order, or `None` when it overflows `u128` or the group is incomplete.
    pub fn order(&self) -> Option<u128> {
        if !self.complete {
            return None;
        }
        self.twin_product_order()?
            .checked_mul(self.reps.len() as u128)
    }

    /// The order of the product of the symmetric groups on the twin classes (a subgroup, known
    /// even when the group is incomplete), or `None` when it overflows `u128`.
    pub fn twin_product_order(&self) -> Option<u128> {
        let mut order = 1u128;
        for c in &self.classes {
            for k in 2..=c.len() as u128 {
                order = order.checked_mul(k)?;
            }
        }
        Some(order)
    }

    /// Whether canonical forms are the identity: the group is the identity alone, or it is
    /// incomplete ([`Symmetry::is_complete`]) and no two vertices are interchangeable.
    pub fn is_trivial(&self) -> bool {
        self.trivial
    }

    fn sort_classes<T: Copy + Ord>(&self, p: &mut [T]) {
        for c in &self.classes {
            if c.len() > 1 {
                let mut vals: smallvec::SmallVec<[T; 16]> = c.iter().map(|&v| p[v]).collect();
                vals.sort_unstable();
                for (&v, x) in c.iter().zip(vals) {
                    p[v] = x;
                }
            }
        }
    }

    /// Replaces `p` by the lexicographically least member of its orbit (of its orbit under the
    /// twin product when the group is incomplete). Stone counts of any integer type.
    pub fn canonicalize<T: Copy + Ord + Default>(&self, p: &mut [T]) {
        if self.trivial {
            return;
        }
        if self.reps.len() == 1 {
            self.sort_classes(p);
            return;
        }
        let mut best: smallvec::SmallVec<[T; 16]> = p.iter().copied().collect();
        self.sort_classes(&mut best);
        let mut img: smallvec::SmallVec<[T; 16]> = best.clone();
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

    /// The built groups are those the faces give: nim's heaps all swap, a lone simplex's
    /// too; the identity group keeps every position as it is.
    #[test]
    fn built_groups_match_computed_ones() {
        for n in 1..5 {
            let nim = Symmetry::of(&Hypergraph::complex(n, &[]).unwrap());
            let all = Symmetry::interchangeable(n);
            assert_eq!(
                (all.order(), all.is_trivial()),
                (nim.order(), nim.is_trivial())
            );
            assert_eq!(all.twin_classes(), nim.twin_classes());
            assert_eq!(Symmetry::identity(n).order(), Some(1));
        }
        let all = Symmetry::interchangeable(3);
        assert_eq!(all.orbit(&[2, 0, 1]).len(), 6);
        let mut p = [4, 1, 3];
        all.canonicalize(&mut p);
        assert_eq!(p, [1, 3, 4]);
        let mut q = [4, 1, 3];
        Symmetry::identity(3).canonicalize(&mut q);
        assert_eq!(q, [4, 1, 3]);
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

    /// One class of 64 interchangeable vertices: one coset, found without trying the 2^64
    /// increasing partial maps into the class that the vertex-by-vertex search tried.
    #[test]
    fn big_twin_classes_are_mapped_whole() {
        let nim = Hypergraph::complex(64, &[]).unwrap();
        let s = Symmetry::of(&nim);
        assert!(s.is_complete());
        assert_eq!((s.coset_count(), s.twin_classes().len()), (1, 1));
        assert_eq!(s.order(), None, "64! overflows u128");
        let path =
            Hypergraph::complex(64, &(1..64).map(|v| vec![v - 1, v]).collect::<Vec<_>>()).unwrap();
        assert_eq!(Symmetry::of(&path).order(), Some(2));
        let cycle = Hypergraph::complex(
            64,
            &(0..64).map(|v| vec![v, (v + 1) % 64]).collect::<Vec<_>>(),
        )
        .unwrap();
        assert_eq!(Symmetry::of(&cycle).order(), Some(128));
    }

    /// 10 disjoint edges: 2^10 swaps within edges times 10! arrangements of the edges, past
    /// the cap. The group is then incomplete: canonical forms sort within classes only, which
    /// is still a canonical form under a subgroup, and orbits are refused.
    #[test]
    fn too_many_cosets_leave_the_group_incomplete() {
        let edges: Vec<Vec<usize>> = (0..10).map(|i| vec![2 * i, 2 * i + 1]).collect();
        let s = Symmetry::of(&Hypergraph::complex(20, &edges).unwrap());
        assert!(!s.is_complete());
        assert_eq!(s.order(), None);
        assert_eq!(s.twin_product_order(), Some(1024));
        let e = s.require_complete().unwrap_err();
        assert_eq!(e.raise(), Some(crate::error::Setting::Orbits), "{e}");
        assert!(!e.to_string().contains("--"), "no flag in the library: {e}");
        let mut p: Vec<u32> = (0..20).rev().collect();
        s.canonicalize(&mut p);
        let want: Vec<u32> = (0..10).flat_map(|i| [18 - 2 * i, 19 - 2 * i]).collect();
        assert_eq!(p, want, "each edge's pair sorted, the edges left in place");
        // Five disjoint edges stay under the cap: 5! cosets.
        let five = Symmetry::of(&Hypergraph::complex(10, &edges[..5]).unwrap());
        assert!(five.is_complete());
        assert_eq!(five.order(), Some(32 * 120));
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
