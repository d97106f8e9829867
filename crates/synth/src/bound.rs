//! The dependency lower bound on program length: a classifier must read every variable the
//! data makes it depend on, and combining k values takes k-1 binary instructions.

use ahash::AHashMap;

use super::problem::{Example, Problem, Target};
use grundy_core::game::Grid;

impl Problem {
    /// The box, when the points are a whole box in row-major order ([`Points::box_shape`]).
    ///
    /// [`Points::box_shape`]: super::data::Points::box_shape
    pub fn box_shape(&self) -> Option<Grid> {
        self.points.box_shape()
    }

    /// The dependency lower bound: a classifier must read every variable it depends on, and
    /// combining k values takes k-1 binary instructions, so its length is at least 2k-1.
    /// Returns the bound and the variables every accepted program must read.
    ///
    /// Without orbits, variable v is needed when two points differing only in v differ in
    /// class. With orbits a program may answer on one member of each orbit only, so v is needed
    /// when some orbit of zero positions has every member on a v-line (points differing only in
    /// v) through a non-zero position: a program that ignores v is constant on those lines, so
    /// it gives that whole orbit non-zero outputs.
    pub fn lower_bound(&self) -> (usize, Vec<usize>) {
        self.bound.get_or_init(|| self.compute_bound()).clone()
    }

    fn compute_bound(&self) -> (usize, Vec<usize>) {
        // Once for every variable: on a large box the scan costs more than the checks.
        let shape = self.box_shape();
        let deps: Vec<usize> = (0..self.vars())
            .filter(|&v| {
                let lines = self.lines(v, shape.as_ref());
                if self.orbits {
                    self.orbit_needs(&lines)
                } else {
                    self.depends_on(&lines)
                }
            })
            .collect();
        ((2 * deps.len()).saturating_sub(1).max(1), deps)
    }

    /// The class the target distinguishes at point `i`.
    pub(crate) fn class(&self, i: usize) -> u64 {
        match self.target {
            Target::Sg => self.values[i] as u64,
            _ => (self.values[i] == 0) as u64,
        }
    }

    /// The v-lines of the points (the points equal to each other off v); `shape` is
    /// [`Problem::box_shape`].
    fn lines(&self, v: usize, shape: Option<&Grid>) -> Lines {
        if let Some(grid) = shape {
            let side = grid.sides()[v];
            return Lines::Box {
                stride: grid.strides()[v],
                side,
                count: grid.len() / side,
            };
        }
        let mut ids: AHashMap<Vec<u64>, usize> = AHashMap::new();
        // The key is built in `key` and copied only for a line not seen yet.
        let mut key = Vec::with_capacity(self.points.vars());
        let listed = self
            .points
            .iter()
            .map(|x| {
                key.clear();
                key.extend_from_slice(x);
                key[v] = u64::MAX;
                match ids.get(key.as_slice()) {
                    Some(&id) => id,
                    None => {
                        let next = ids.len();
                        ids.insert(key.clone(), next);
                        next
                    }
                }
            })
            .collect();
        Lines::Listed {
            ids: listed,
            count: ids.len(),
        }
    }

    /// Whether two points on one line differ in class.
    fn depends_on(&self, lines: &Lines) -> bool {
        let mut class: Vec<Option<u64>> = vec![None; lines.count()];
        (0..self.points.len())
            .any(|i| *class[lines.of(i)].get_or_insert(self.class(i)) != self.class(i))
    }

    /// Whether some orbit of zero positions lies wholly on lines through non-zero positions.
    fn orbit_needs(&self, lines: &Lines) -> bool {
        let mut nonzero = vec![false; lines.count()];
        for (i, &val) in self.values.iter().enumerate() {
            nonzero[lines.of(i)] |= val != 0;
        }
        self.examples.iter().any(|e| match e {
            Example::SomeZero { points, .. } => points.iter().all(|&p| nonzero[lines.of(p)]),
            Example::Equals { point, value: 0 } => nonzero[lines.of(*point)],
            _ => false,
        })
    }
}

/// Which v-line each point lies on, as ids dense from 0.
enum Lines {
    /// Points that are a box in row-major order: the id follows from the index, so nothing
    /// per point is stored (10M points would take 80 MB a variable).
    Box {
        /// Points between consecutive values of v.
        stride: usize,
        /// d_v.
        side: usize,
        count: usize,
    },
    /// Any other points: the id of each.
    Listed { ids: Vec<usize>, count: usize },
}

impl Lines {
    /// The line of point `i`.
    fn of(&self, i: usize) -> usize {
        match self {
            Lines::Box { stride, side, .. } => (i / (stride * side)) * stride + i % stride,
            Lines::Listed { ids, .. } => ids[i],
        }
    }

    /// Number of lines (ids are below it).
    fn count(&self) -> usize {
        match self {
            Lines::Box { count, .. } | Lines::Listed { count, .. } => *count,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::lang::OpSet;
    use crate::problem::tests::p3;
    use grundy_core::catalog::spec;
    use grundy_core::catalog::Rules;
    use grundy_core::sg::table::TableOptions;

    #[test]
    fn dependency_bound() {
        assert_eq!(p3(Target::Zero, false).lower_bound(), (5, vec![0, 1, 2]));
        // Under the flip each zero position (a,0,a) is its own orbit, and a line through it
        // along any vertex meets a non-zero position: all three vertices are still needed.
        assert_eq!(p3(Target::Zero, true).lower_bound(), (5, vec![0, 1, 2]));
    }

    #[test]
    fn orbit_bound_is_never_above_the_shortest_program() {
        use crate::enumerate::EnumBackend;
        use crate::solver::{Backend, Found};
        let backend = EnumBackend::new(1, 1 << 30);
        for name in ["path:3", "star:3", "circular:4,2", "shriek"] {
            let game = spec::parse_hypergraph(name).unwrap();
            let n = game.graph().vertices();
            let data = Dataset::from_box(&game, 4, &TableOptions::default()).unwrap();
            let canon = |x: &[u64]| game.canonical_point(x);
            let pr = Problem::new(data, OpSet::thesis(n), 8, Target::Zero, Some(&canon)).unwrap();
            let (bound, _) = pr.lower_bound();
            assert!(bound > 1, "{name}: the bound says something");
            // Exhaustive search on every example refutes each shorter length.
            for length in 1..bound {
                let mut search = backend.start(&pr, length).unwrap();
                for e in 0..pr.examples.len() {
                    search.add_example(e).unwrap();
                }
                assert_eq!(
                    search.solve(None).unwrap(),
                    Found::Refuted,
                    "{name} {length}"
                );
            }
        }
    }

    #[test]
    fn box_and_general_dependency_checks_agree() {
        for name in ["path:3", "shriek", "star:3", "circular:4,2"] {
            let game = spec::parse_hypergraph(name).unwrap();
            let data = Dataset::from_box(&game, 4, &TableOptions::default()).unwrap();
            // The same points shuffled are no longer a box: the general path runs.
            let mut loose = data.clone();
            loose.points = data.points.iter().rev().collect();
            loose.values.reverse();
            let a = Problem::new(
                data,
                OpSet::thesis(game.graph().vertices()),
                8,
                Target::Zero,
                None,
            )
            .unwrap();
            let b = Problem::new(
                loose,
                OpSet::thesis(game.graph().vertices()),
                8,
                Target::Zero,
                None,
            )
            .unwrap();
            assert_eq!(a.box_shape(), Grid::cube(game.graph().vertices(), 4).ok());
            assert_eq!(b.box_shape(), None);
            assert_eq!(a.lower_bound(), b.lower_bound(), "{name}");
        }
        // Shriek's zero set (a, b, a+b) depends on every vertex.
        let g = spec::parse_hypergraph("shriek").unwrap();
        let d = Dataset::from_box(&g, 5, &TableOptions::default()).unwrap();
        assert_eq!(
            Problem::new(d, OpSet::thesis(3), 8, Target::Zero, None)
                .unwrap()
                .lower_bound()
                .0,
            5
        );
    }
}
