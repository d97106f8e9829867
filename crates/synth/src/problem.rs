//! What a synthesized program must satisfy: data points, a target, and the examples they make.
//!
//! The data ([`super::data`]) is a list of positions with their SG values. The target turns each position (or, with `--orbits`, each orbit of zero
//! positions) into one example; solvers see examples, the interpreter checks them all.

use std::collections::hash_map::Entry;

use ahash::AHashMap;
use rayon::prelude::*;

use super::data::{Dataset, Points};
use super::interp::{mask, run};
use super::lang::{OpSet, Program};
use grundy_core::error::{Error, OptionKey, Setting};
use grundy_core::game::Nimber;

/// What the program's output must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// 0 exactly on the zero positions, non-zero elsewhere.
    Zero,
    /// 0 on the zero positions and exactly 1 elsewhere (the thesis's criterion).
    Indicator,
    /// The SG value itself.
    Sg,
}

/// Maps a position to the canonical member of its symmetry orbit (from any thread: checks run
/// in parallel).
pub type Canonical<'a> = dyn Fn(&[u64]) -> Vec<u64> + Sync + 'a;

/// One requirement on the program's outputs; points are indices into the problem's points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Example {
    /// The output at `point` is exactly `value`.
    Equals {
        /// The point.
        point: usize,
        /// The output required there.
        value: u64,
    },
    /// The output at `point` is not 0.
    NonZero {
        /// The point.
        point: usize,
    },
    /// Some member of an orbit of zero positions outputs 0; with `boolean`, every member
    /// outputs 0 or 1.
    SomeZero {
        /// The orbit's points.
        points: Vec<usize>,
        /// Every member must output 0 or 1 (`--target indicator`).
        boolean: bool,
    },
}

impl Example {
    /// Whether outputs (per point index) satisfy this example.
    pub fn holds(&self, out: impl Fn(usize) -> u64) -> bool {
        match self {
            Example::Equals { point, value } => out(*point) == *value,
            Example::NonZero { point } => out(*point) != 0,
            Example::SomeZero { points, boolean } => {
                points.iter().any(|&p| out(p) == 0)
                    && (!boolean || points.iter().all(|&p| out(p) <= 1))
            }
        }
    }

    /// The points this example reads.
    pub fn points(&self) -> Vec<usize> {
        match self {
            Example::Equals { point, .. } | Example::NonZero { point } => vec![*point],
            Example::SomeZero { points, .. } => points.clone(),
        }
    }

    /// Whether the example is about a zero position (or orbit of them).
    pub fn is_zero(&self) -> bool {
        matches!(
            self,
            Example::Equals { value: 0, .. } | Example::SomeZero { .. }
        )
    }
}

/// A synthesis problem: the language, the data, and the examples every program must satisfy.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The instructions programs may use.
    pub ops: OpSet,
    /// The word width W in bits: every value is taken mod 2^W.
    pub width: u32,
    /// What the program must compute on the data.
    pub target: Target,
    /// Whether zero positions are grouped into orbits under the game's automorphisms.
    pub orbits: bool,
    /// The positions examples refer to by index.
    pub points: Points,
    /// The SG value of each point.
    pub values: Vec<Nimber>,
    /// The requirements every program must meet.
    pub examples: Vec<Example>,
    /// Where the data came from, for reports.
    pub source: String,
    /// The dependency bound, computed on first use ([`Problem::lower_bound`]): every backend
    /// asks for it at every length, and on a large box it is a scan of every point.
    pub(crate) bound: std::sync::OnceLock<(usize, Vec<usize>)>,
    /// Runs of interchangeable variables, computed on first use ([`Problem::twin_runs`]).
    pub(crate) twins: std::sync::OnceLock<Vec<Vec<usize>>>,
}

impl Problem {
    /// Builds the examples of `data` for `target`. With `orbits`, zero positions are grouped by
    /// the canonical form `canon` maps them to.
    pub fn new(
        data: Dataset,
        ops: OpSet,
        width: u32,
        target: Target,
        orbits: Option<&Canonical<'_>>,
    ) -> Result<Self, Error> {
        if !(1..=64).contains(&width) {
            return Err(Error::refused(
                OptionKey::Width,
                format!(" must be between 1 and 64, got {width}"),
            ));
        }
        if ops.vars() != data.vars {
            return Err(Error::Usage(format!(
                "the data has {} variables, the language {}",
                data.vars,
                ops.vars()
            )));
        }
        if data.points.is_empty() {
            return Err(Error::Usage("no data points".into()));
        }
        debug_assert_eq!(data.points.vars(), data.vars, "points and data disagree");
        let m = mask(width);
        if let Some(x) = data.points.flat().iter().find(|&&x| x > m) {
            return Err(Error::limit(
                Setting::Width,
                format!("the data holds {x}, which does not fit in {width} bits"),
            ));
        }
        if target == Target::Sg {
            if orbits.is_some() {
                return Err(Error::refused(
                    OptionKey::Orbits,
                    " works with the zero and indicator targets, not sg",
                ));
            }
            if let Some(v) = data.values.iter().find(|&&v| v as u64 > m) {
                return Err(Error::limit(
                    Setting::Width,
                    format!("SG value {v} does not fit in {width} bits"),
                ));
            }
        }
        if let Some(k) = ops
            .ops()
            .iter()
            .filter_map(|o| o.constant())
            .find(|&k| k > m)
        {
            return Err(Error::limit(
                Setting::Width,
                format!("constant {k} does not fit in {width} bits"),
            ));
        }
        // One example per point unless orbits merge them: reserve once, not by doubling.
        let mut examples = Vec::with_capacity(if orbits.is_none() {
            data.values.len()
        } else {
            0
        });
        let mut orbit_of: AHashMap<Vec<u64>, usize> = AHashMap::new();
        for (i, &v) in data.values.iter().enumerate() {
            let ex = match (target, v, orbits) {
                (Target::Sg, v, _) => Example::Equals {
                    point: i,
                    value: v as u64,
                },
                (_, 0, Some(canon)) => match orbit_of.entry(canon(&data.points[i])) {
                    Entry::Occupied(e) => {
                        if let Example::SomeZero { points, .. } = &mut examples[*e.get()] {
                            points.push(i);
                        }
                        continue;
                    }
                    Entry::Vacant(e) => {
                        e.insert(examples.len());
                        Example::SomeZero {
                            points: vec![i],
                            boolean: target == Target::Indicator,
                        }
                    }
                },
                (_, 0, None) => Example::Equals { point: i, value: 0 },
                (Target::Indicator, _, _) => Example::Equals { point: i, value: 1 },
                (Target::Zero, _, _) => Example::NonZero { point: i },
            };
            examples.push(ex);
        }
        Ok(Problem {
            ops,
            width,
            target,
            orbits: orbits.is_some(),
            points: data.points,
            values: data.values,
            examples,
            source: data.source,
            bound: Default::default(),
            twins: Default::default(),
        })
    }

    /// Number of variables.
    pub fn vars(&self) -> usize {
        self.ops.vars()
    }

    /// 2^width - 1.
    pub fn mask(&self) -> u64 {
        mask(self.width)
    }

    /// The program's output on every point (`None` if the program is invalid), on all cores:
    /// CEGIS and lifting check candidates on data of up to millions of points.
    pub fn outputs(&self, program: &Program) -> Option<Vec<u64>> {
        let m = self.mask();
        match self.vars() {
            0 => self.points.iter().map(|x| run(program, x, m)).collect(),
            n => self
                .points
                .flat()
                .par_chunks(n)
                .map(|x| run(program, x, m))
                .collect(),
        }
    }

    /// Indices of the examples `program` fails, in order (all of them when it is invalid).
    pub fn failures(&self, program: &Program) -> Vec<usize> {
        match self.outputs(program) {
            Some(out) => (0..self.examples.len())
                .into_par_iter()
                .filter(|&e| !self.examples[e].holds(|p| out[p]))
                .collect(),
            None => (0..self.examples.len()).collect(),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use grundy_core::catalog::spec;
    use grundy_core::catalog::Rules;
    use grundy_core::sg::table::TableOptions;

    pub(crate) fn p3(target: Target, orbits: bool) -> Problem {
        boxed("path:3", 4, target, orbits)
    }

    /// The problem of `game` on [0,max)^n with the thesis's instructions at width 8.
    pub(crate) fn boxed(game: &str, max: usize, target: Target, orbits: bool) -> Problem {
        let game = spec::parse_hypergraph(game).unwrap();
        let data = Dataset::from_box(&game, max, &TableOptions::default()).unwrap();
        let canon = |x: &[u64]| game.canonical_point(x);
        Problem::new(
            data,
            OpSet::thesis(game.graph().vertices()),
            8,
            target,
            if orbits { Some(&canon) } else { None },
        )
        .unwrap()
    }

    #[test]
    fn the_thesis_program_satisfies_p3() {
        let prog: Program = "Push(2) Push(0) BooleanEq Push(1) RightShift BooleanNot"
            .parse()
            .unwrap();
        for target in [Target::Zero, Target::Indicator] {
            for orbits in [false, true] {
                assert!(
                    p3(target, orbits).failures(&prog).is_empty(),
                    "{target:?} {orbits}"
                );
            }
        }
        let wrong: Program = "Push(2) Push(0) BooleanEq BooleanNot".parse().unwrap();
        assert!(!p3(Target::Zero, false).failures(&wrong).is_empty());
    }

    #[test]
    fn orbits_group_zero_positions() {
        let plain = p3(Target::Zero, false);
        let grouped = p3(Target::Zero, true);
        // Zero positions of P3 in [0,4)^3 are (a,0,a), each its own orbit under the flip.
        assert_eq!(plain.examples.len(), grouped.examples.len());
        let star = spec::parse_hypergraph("star:3").unwrap();
        let data = Dataset::from_box(&star, 3, &TableOptions::default()).unwrap();
        let canon = |x: &[u64]| star.canonical_point(x);
        let pr = Problem::new(data, OpSet::thesis(4), 8, Target::Zero, Some(&canon)).unwrap();
        let orbits = pr
            .examples
            .iter()
            .filter(|e| matches!(e, Example::SomeZero { .. }))
            .count();
        // Zero positions: centre 0 and leaves xor to 0 over {0,1,2}: (0,0,0), {0,1,1}, {0,2,2} up to order.
        assert_eq!(orbits, 3);
    }
}
