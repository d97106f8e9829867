//! Interchangeable variables of the data: two variables are twins when swapping them maps the
//! points onto themselves and keeps every example's meaning, as the leaves of a star do. A
//! program with twins relabelled then satisfies exactly the examples it did before, so a search
//! may fix the order in which twins first appear (see `sat::structure::Structure::order_twins`).

use ahash::AHashMap;

use super::problem::{Example, Problem};
use grundy_core::game::Grid;

impl Problem {
    /// Runs of consecutive variable indices (two or more) whose members are pairwise twins,
    /// found on the data itself, so it holds for `--data` files as for boxes. Runs, not whole
    /// classes: relabelling inside a run of consecutive indices never changes how a member
    /// compares with a variable outside it, which the commutative-operand rule relies on.
    pub fn twin_runs(&self) -> Vec<Vec<usize>> {
        self.twins
            .get_or_init(|| {
                let n = self.vars();
                let locate = Locate::new(self);
                let mut runs: Vec<Vec<usize>> = Vec::new();
                let mut run = vec![0];
                for v in 1..n {
                    // Twins form classes (a swap twice is the identity, and swaps compose), so
                    // checking against the run's first member suffices.
                    if self.interchangeable(&locate, run[0], v) {
                        run.push(v);
                    } else {
                        runs.push(std::mem::replace(&mut run, vec![v]));
                    }
                }
                runs.push(run);
                runs.retain(|r| r.len() > 1);
                runs
            })
            .clone()
    }

    /// Whether swapping variables `a` and `b` maps the data onto itself, class for class, and
    /// (with orbits) every orbit example onto an orbit example.
    fn interchangeable(&self, locate: &Locate<'_>, a: usize, b: usize) -> bool {
        let mut swapped = Vec::with_capacity(self.vars());
        let mut image = vec![usize::MAX; self.points.len()];
        for (i, x) in self.points.iter().enumerate() {
            swapped.clear();
            swapped.extend_from_slice(x);
            swapped.swap(a, b);
            match locate.find(&swapped) {
                Some(j) if self.class(j) == self.class(i) => image[i] = j,
                _ => return false,
            }
        }
        if !self.orbits {
            return true;
        }
        // The example of each point in an orbit example; the swap must send whole orbits to
        // whole orbits.
        let mut example_of = vec![usize::MAX; self.points.len()];
        for (e, ex) in self.examples.iter().enumerate() {
            if let Example::SomeZero { points, .. } = ex {
                for &p in points {
                    example_of[p] = e;
                }
            }
        }
        self.examples.iter().all(|ex| match ex {
            Example::SomeZero { points, .. } => {
                let target = example_of[image[points[0]]];
                target != usize::MAX && points.iter().all(|&p| example_of[image[p]] == target)
            }
            _ => true,
        })
    }
}

/// Finds a point's index: by arithmetic on a box in row-major order (the usual data: star:8 on
/// [0,6)^9 has 10 million points, and hashing each took 20 s), else through a hash index.
enum Locate<'a> {
    Box(Grid),
    Index(AHashMap<&'a [u64], usize>),
}

impl<'a> Locate<'a> {
    fn new(problem: &'a Problem) -> Self {
        match problem.box_shape() {
            Some(grid) => Locate::Box(grid),
            None => Locate::Index(
                problem
                    .points
                    .iter()
                    .enumerate()
                    .map(|(i, x)| (x, i))
                    .collect(),
            ),
        }
    }

    fn find(&self, x: &[u64]) -> Option<usize> {
        match self {
            Locate::Box(grid) => grid.index(x),
            Locate::Index(index) => index.get(x).copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::data::Dataset;
    use crate::lang::OpSet;
    use crate::problem::{Problem, Target};
    use grundy_core::catalog::spec;
    use grundy_core::catalog::Rules;
    use grundy_core::sg::table::TableOptions;

    fn problem(game: &str, max: usize, target: Target, orbits: bool) -> Problem {
        let g = spec::parse_hypergraph(game).unwrap();
        let n = g.graph().vertices();
        let data = Dataset::from_box(&g, max, &TableOptions::default()).unwrap();
        let canon = |x: &[u64]| g.canonical_point(x);
        let c: Option<&crate::problem::Canonical> = if orbits { Some(&canon) } else { None };
        Problem::new(data, OpSet::thesis(n), 8, target, c).unwrap()
    }

    #[test]
    fn star_leaves_are_twins_and_the_centre_is_not() {
        for orbits in [false, true] {
            let p = problem("star:4", 4, Target::Zero, orbits);
            assert_eq!(p.twin_runs(), vec![vec![1, 2, 3, 4]]);
        }
        assert_eq!(
            problem("star:3", 4, Target::Sg, false).twin_runs(),
            vec![vec![1, 2, 3]]
        );
    }

    /// Points out of box order are found through the hash index instead of arithmetic, with
    /// the same answer.
    #[test]
    fn data_out_of_box_order_has_the_same_twins() {
        let g = spec::parse_hypergraph("star:3").unwrap();
        let mut data = Dataset::from_box(&g, 3, &TableOptions::default()).unwrap();
        let points: Vec<Vec<u64>> = data.points.iter().rev().map(|x| x.to_vec()).collect();
        data.points = points.iter().collect();
        data.values.reverse();
        let p = Problem::new(data, OpSet::thesis(4), 8, Target::Zero, None).unwrap();
        assert!(p.box_shape().is_none(), "the points are not in box order");
        assert_eq!(p.twin_runs(), vec![vec![1, 2, 3]]);
    }

    #[test]
    fn a_path_has_no_consecutive_twins() {
        // The ends of P3 are twins, but not consecutive: the middle vertex sits between them.
        assert!(problem("path:3", 4, Target::Zero, false)
            .twin_runs()
            .is_empty());
        // Nim's heaps are all twins.
        assert_eq!(
            problem("nim:3", 4, Target::Zero, false).twin_runs(),
            vec![vec![0, 1, 2]]
        );
    }

    #[test]
    fn shuffled_data_that_breaks_the_symmetry_has_no_twins() {
        let mut p = problem("star:2", 4, Target::Zero, false);
        // Make (0,1,2) a zero position but leave (0,2,1) as it is.
        let i = p.points.iter().position(|x| x == [0, 1, 2]).unwrap();
        p.values[i] = 0;
        assert!(p.twin_runs().is_empty());
    }
}
