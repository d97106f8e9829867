//! A program checked on every position of a box, point by point, without building the box's
//! points or examples: `verify` checks on boxes of 10^8 positions (star:8 on [0,8)^9), where a
//! [`Problem`](super::problem::Problem) would hold 15 GB.
//!
//! The requirements are the examples' ([`super::problem::Example`]) for the same target, and a
//! failure is reported as the example a `Problem` built on the whole box would list first: each
//! example stands at its first point.

use ahash::AHashMap;
use rayon::prelude::*;

use super::interp::run;
use super::lang::Program;
use super::problem::{Canonical, Target};
use grundy_core::sg::table::BoxTable;

/// Positions per parallel chunk.
const CHUNK: usize = 1 << 16;

/// The first requirement a program fails on a box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The requirement of the position with this row-major index.
    Point(usize),
    /// The orbit of zero positions whose canonical form is `canonical`; `first` is the index
    /// of its first member.
    Orbit { first: usize, canonical: Vec<u64> },
}

impl Failure {
    fn first(&self) -> usize {
        match self {
            Failure::Point(i) => *i,
            Failure::Orbit { first, .. } => *first,
        }
    }
}

/// Orbits of zero positions by canonical form.
type Orbits = AHashMap<Vec<u64>, Seen>;

/// What an orbit of zero positions has shown so far.
#[derive(Clone, Copy)]
struct Seen {
    first: usize,
    some_zero: bool,
    all_boolean: bool,
}

/// The first requirement `program` fails on the positions of `table`, under `target` at
/// width `mask`; zero positions are grouped into orbits by `canonical` when given. Points of
/// the box that are not positions have no requirement.
pub(crate) fn first_failure(
    table: &BoxTable,
    program: &Program,
    target: Target,
    mask: u64,
    canonical: Option<&Canonical<'_>>,
) -> Option<Failure> {
    let grid = table.grid();
    let chunks: Vec<(Option<usize>, Orbits)> = (0..table.len().div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let start = c * CHUNK;
            let end = (start + CHUNK).min(table.len());
            let mut p = grid.point(start);
            let mut x = vec![0u64; grid.dims()];
            let mut first = None;
            let mut orbits = Orbits::new();
            for (k, i) in (start..end).enumerate() {
                if k > 0 {
                    grid.advance(&mut p);
                }
                let Some(v) = table.value_at(i) else {
                    continue;
                };
                for (xi, &pi) in x.iter_mut().zip(&p) {
                    *xi = pi as u64;
                }
                let out = run(program, &x, mask);
                let ok = match (target, v, canonical) {
                    (Target::Sg, v, _) => out == Some(v as u64),
                    (_, 0, Some(canon)) => {
                        let seen = orbits.entry(canon(&x)).or_insert(Seen {
                            first: start + k,
                            some_zero: false,
                            all_boolean: true,
                        });
                        seen.some_zero |= out == Some(0);
                        seen.all_boolean &= out.is_some_and(|o| o <= 1);
                        true
                    }
                    (_, 0, None) => out == Some(0),
                    (Target::Indicator, _, _) => out == Some(1),
                    (Target::Zero, _, _) => out.is_some_and(|o| o != 0),
                };
                if !ok && first.is_none() {
                    first = Some(start + k);
                    if canonical.is_none() {
                        break;
                    }
                }
            }
            (first, orbits)
        })
        .collect();
    let mut worst: Option<Failure> = chunks.iter().filter_map(|c| c.0).min().map(Failure::Point);
    let mut orbits = Orbits::new();
    for (_, part) in chunks {
        for (key, s) in part {
            orbits
                .entry(key)
                .and_modify(|t| {
                    t.first = t.first.min(s.first);
                    t.some_zero |= s.some_zero;
                    t.all_boolean &= s.all_boolean;
                })
                .or_insert(s);
        }
    }
    let boolean = target == Target::Indicator;
    for (key, s) in orbits {
        let holds = s.some_zero && (!boolean || s.all_boolean);
        if !holds && worst.as_ref().is_none_or(|w| s.first < w.first()) {
            worst = Some(Failure::Orbit {
                first: s.first,
                canonical: key,
            });
        }
    }
    worst
}

/// The row-major indices of the zero positions of `table` whose canonical form is `key`.
pub fn orbit_members(table: &BoxTable, canonical: &Canonical<'_>, key: &[u64]) -> Vec<usize> {
    (0..table.len())
        .into_par_iter()
        .filter(|&i| {
            table.value_at(i) == Some(0) && {
                let x: Vec<u64> = table.grid().point(i).into_iter().map(u64::from).collect();
                canonical(&x) == key
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Op;
    use crate::problem::tests::boxed;
    use crate::problem::Example;
    use grundy_core::catalog::Rules;
    use grundy_core::game::Grid;

    /// Random valid programs over `vars` variables, from a fixed seed.
    fn programs(vars: u8, count: usize) -> Vec<Program> {
        let ops = [
            Op::Plus,
            Op::Minus,
            Op::Xor,
            Op::Or,
            Op::And,
            Op::BooleanEq,
            Op::BooleanNot,
            Op::RightShift,
            Op::Div,
            Op::One,
        ];
        crate::testing::random_programs(11, vars, count, &ops)
    }

    /// On boxes of several games, targets and orbits, the streaming check reports the first
    /// example a whole `Problem` fails, for the games' own classifiers (no failure) and random
    /// programs (mostly failures).
    #[test]
    fn the_first_failure_is_the_problems() {
        let known = [
            (
                "path:3",
                "Push(2) Push(0) BooleanEq Push(1) RightShift BooleanNot",
            ),
            (
                "star:3",
                "Push(1) Push(2) Push(3) Xor BooleanEq Push(0) RightShift BooleanNot",
            ),
            ("circular:4,2", "Push(0) Push(2) Xor Push(1) Push(3) Xor Or"),
        ];
        let (mut passes, mut orbit_failures) = (0, 0);
        for (game, classifier) in known {
            let g = grundy_core::catalog::spec::parse_hypergraph(game).unwrap();
            let n = g.graph().vertices();
            let canon = |x: &[u64]| g.canonical_point(x);
            let mut candidates = programs(n as u8, 40);
            candidates.push(classifier.parse().unwrap());
            for target in [Target::Zero, Target::Indicator, Target::Sg] {
                for orbits in [false, true] {
                    if target == Target::Sg && orbits {
                        continue;
                    }
                    let problem = boxed(game, 4, target, orbits);
                    let table =
                        BoxTable::new(Grid::cube(n, 4).unwrap(), problem.values.clone()).unwrap();
                    let c: Option<&Canonical<'_>> = if orbits { Some(&canon) } else { None };
                    for p in &candidates {
                        let want =
                            problem
                                .failures(p)
                                .first()
                                .map(|&e| match &problem.examples[e] {
                                    Example::SomeZero { points, .. } => Failure::Orbit {
                                        first: points[0],
                                        canonical: canon(&problem.points[points[0]]),
                                    },
                                    other => Failure::Point(other.points()[0]),
                                });
                        let got = first_failure(&table, p, target, problem.mask(), c);
                        assert_eq!(got, want, "{game} {target:?} orbits {orbits}: {p}");
                        match &got {
                            None => passes += 1,
                            Some(Failure::Orbit { canonical, first }) => {
                                orbit_failures += 1;
                                let members = orbit_members(&table, &canon, canonical);
                                assert_eq!(members[0], *first);
                                let Example::SomeZero { points, .. } =
                                    &problem.examples[problem.failures(p)[0]]
                                else {
                                    unreachable!()
                                };
                                assert_eq!(&members, points, "{game}: {p}");
                            }
                            Some(Failure::Point(_)) => {}
                        }
                    }
                }
            }
        }
        assert!(
            passes >= 6 && orbit_failures > 5,
            "{passes} passes, {orbit_failures} orbit failures"
        );
    }
}
