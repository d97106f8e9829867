//! What a synthesized program must satisfy: data points, a target, and the examples they make.
//!
//! Data is a list of positions with their SG values, from a box tabulated by the core engines or
//! from a file. The target turns each position (or, with `--orbits`, each orbit of zero
//! positions) into one example; solvers see examples, the interpreter checks them all.

use std::collections::hash_map::Entry;
use std::ops::Index;
use std::path::Path;

use ahash::AHashMap;

use super::interp::{mask, run};
use super::lang::{OpSet, Program};
use crate::error::Error;
use crate::game::{HypergraphNim, Nimber};
use crate::sg::table::{self, TableOptions};

/// What the program's output must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// 0 exactly on the zero positions, non-zero elsewhere.
    Zero,
    /// 0 on the zero positions and exactly 1 elsewhere (the thesis's criterion).
    Indicator,
    /// The SG value itself.
    Sg,
}

/// Data points of `vars` coordinates each, stored row after row in one flat vector.
///
/// Boxes run to millions of points: one `Vec` per point cost an allocation and ~100 bytes each
/// (star:8 on [0,6)^9 took 1.5 GB); flat, a point costs its `vars` words and the set one
/// allocation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Points {
    vars: usize,
    /// Kept apart from `data`, which cannot count points that have no coordinates.
    len: usize,
    data: Vec<u64>,
}

impl Points {
    /// No points yet, with room for `capacity` of them, so a known count allocates once.
    pub fn with_capacity(vars: usize, capacity: usize) -> Self {
        Points {
            vars,
            len: 0,
            data: Vec::with_capacity(vars.saturating_mul(capacity)),
        }
    }

    /// Every position of the box [0,d_0) x ... in row-major order (last coordinate fastest),
    /// the order of tabulation and sweeps, counted up in place: no per-point work but the copy.
    ///
    /// # Panics
    /// When the box has more positions than fit in memory's address space.
    pub fn of_box(dims: &[usize]) -> Self {
        let count = dims
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
            .expect("the box has too many positions");
        let mut points = Points::with_capacity(dims.len(), count);
        let mut p = vec![0u64; dims.len()];
        for _ in 0..count {
            points.push(&p);
            for (x, &d) in p.iter_mut().zip(dims).rev() {
                *x += 1;
                if (*x as usize) < d {
                    break;
                }
                *x = 0;
            }
        }
        points
    }

    /// Coordinates per point.
    pub fn vars(&self) -> usize {
        self.vars
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no points.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends a point.
    ///
    /// # Panics
    /// When `x` does not have `vars` coordinates.
    pub fn push(&mut self, x: &[u64]) {
        assert_eq!(
            x.len(),
            self.vars,
            "a point has one coordinate per variable"
        );
        self.data.extend_from_slice(x);
        self.len += 1;
    }

    /// The points in order. Not `chunks_exact`, which panics on 0 variables (and would yield
    /// no points then rather than `len` empty ones).
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u64]> + DoubleEndedIterator + Clone + '_ {
        (0..self.len).map(move |i| &self[i])
    }

    /// Every coordinate of every point, row after row: for checks that need not know which
    /// point a value belongs to.
    pub fn flat(&self) -> &[u64] {
        &self.data
    }
}

impl Index<usize> for Points {
    type Output = [u64];

    /// Point `i`.
    ///
    /// # Panics
    /// When `i >= len()`.
    fn index(&self, i: usize) -> &[u64] {
        assert!(i < self.len, "point {i} of {} is out of range", self.len);
        &self.data[i * self.vars..(i + 1) * self.vars]
    }
}

/// Rows into points; the first row sets `vars` (none gives no points and no variables).
///
/// # Panics
/// When the rows differ in length.
impl<R: AsRef<[u64]>> FromIterator<R> for Points {
    fn from_iter<I: IntoIterator<Item = R>>(rows: I) -> Self {
        let mut rows = rows.into_iter().peekable();
        let vars = rows.peek().map_or(0, |r| r.as_ref().len());
        let mut points = Points::with_capacity(vars, rows.size_hint().0);
        for r in rows {
            points.push(r.as_ref());
        }
        points
    }
}

/// Positions and their SG values.
#[derive(Clone, Debug)]
pub struct Dataset {
    pub vars: usize,
    pub points: Points,
    pub values: Vec<Nimber>,
    /// Where the data came from, for reports.
    pub source: String,
}

impl Dataset {
    /// Every position of the box [0,max)^n of `game`, valued by box tabulation.
    pub fn from_box(game: &HypergraphNim, max: usize, opts: &TableOptions) -> Result<Self, Error> {
        let n = game.graph().vertices();
        let t = table::tabulate(game.graph(), &vec![max; n], opts)?;
        // The table is row-major over its dims, as `of_box` counts.
        let points = Points::of_box(t.dims());
        debug_assert_eq!(points.len(), t.len());
        Ok(Dataset {
            vars: n,
            points,
            values: t.into_values(),
            source: format!("{} on [0,{max})^{n}", game.name()),
        })
    }

    /// A table file as `grundy table` writes it (tsv or csv; a header row is optional): the
    /// columns are the variables and then the SG value.
    pub fn from_file(path: &Path) -> Result<Self, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let bad = |line: usize, msg: String| Error::Data {
            path: path.into(),
            msg: format!("line {line}: {msg}"),
        };
        let mut points = Points::default();
        let mut values = Vec::new();
        let mut vars = None;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') || (i == 0 && line.starts_with('x')) {
                continue;
            }
            let cols: Vec<&str> = line
                .split(['\t', ',', ' '])
                .filter(|c| !c.is_empty())
                .collect();
            if cols.len() < 2 {
                return Err(bad(
                    i + 1,
                    "expected at least one variable and a value".into(),
                ));
            }
            if *vars.get_or_insert(cols.len() - 1) != cols.len() - 1 {
                return Err(bad(
                    i + 1,
                    format!(
                        "{} columns, but earlier rows have {}",
                        cols.len(),
                        vars.unwrap() + 1
                    ),
                ));
            }
            if points.is_empty() {
                // At most one point a line: one allocation for the file.
                points = Points::with_capacity(cols.len() - 1, text.lines().count() - i);
            }
            let nums: Result<Vec<u64>, _> = cols.iter().map(|c| c.parse::<u64>()).collect();
            let nums = nums.map_err(|_| {
                bad(
                    i + 1,
                    format!("`{line}` has a column that is not a whole number"),
                )
            })?;
            let (&v, x) = nums.split_last().expect("two or more columns");
            values.push(
                Nimber::try_from(v).map_err(|_| bad(i + 1, format!("value {v} is too large")))?,
            );
            points.push(x);
        }
        let vars = vars.ok_or_else(|| Error::Data {
            path: path.into(),
            msg: "no data rows".into(),
        })?;
        Ok(Dataset {
            vars,
            points,
            values,
            source: path.display().to_string(),
        })
    }
}

/// Maps a position to the canonical member of its symmetry orbit.
pub type Canonical<'a> = dyn Fn(&[u64]) -> Vec<u64> + 'a;

/// One requirement on the program's outputs; points are indices into the problem's points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Example {
    /// The output at `point` is exactly `value`.
    Equals { point: usize, value: u64 },
    /// The output at `point` is not 0.
    NonZero { point: usize },
    /// Some member of an orbit of zero positions outputs 0; with `boolean`, every member
    /// outputs 0 or 1.
    SomeZero { points: Vec<usize>, boolean: bool },
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
    pub ops: OpSet,
    pub width: u32,
    pub target: Target,
    /// Whether zero positions are grouped into orbits under the game's automorphisms.
    pub orbits: bool,
    pub points: Points,
    pub values: Vec<Nimber>,
    pub examples: Vec<Example>,
    pub source: String,
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
            return Err(Error::Usage(format!(
                "--width must be between 1 and 64, got {width}"
            )));
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
            return Err(Error::Usage(format!(
                "the data holds {x}, which does not fit in {width} bits (raise --width)"
            )));
        }
        if target == Target::Sg {
            if orbits.is_some() {
                return Err(Error::Usage(
                    "--orbits works with the zero and indicator targets, not sg".into(),
                ));
            }
            if let Some(v) = data.values.iter().find(|&&v| v as u64 > m) {
                return Err(Error::Usage(format!(
                    "SG value {v} does not fit in {width} bits (raise --width)"
                )));
            }
        }
        if let Some(k) = ops
            .ops()
            .iter()
            .filter_map(|o| o.constant())
            .find(|&k| k > m)
        {
            return Err(Error::Usage(format!(
                "constant {k} does not fit in {width} bits"
            )));
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

    /// The program's output on every point (`None` if the program is invalid).
    pub fn outputs(&self, program: &Program) -> Option<Vec<u64>> {
        let m = self.mask();
        self.points.iter().map(|x| run(program, x, m)).collect()
    }

    /// Indices of the examples `program` fails, in order (all of them when it is invalid).
    pub fn failures(&self, program: &Program) -> Vec<usize> {
        match self.outputs(program) {
            Some(out) => (0..self.examples.len())
                .filter(|&e| !self.examples[e].holds(|p| out[p]))
                .collect(),
            None => (0..self.examples.len()).collect(),
        }
    }

    /// The sides of the box when the points are a whole box [0,d_0) x ... in row-major order
    /// (last coordinate fastest), as tabulation and `grundy table` produce them.
    pub fn box_shape(&self) -> Option<Vec<usize>> {
        let n = self.vars();
        // The largest coordinates, in one pass over the points.
        let mut dims = vec![0usize; n];
        for x in self.points.iter() {
            for (d, &c) in dims.iter_mut().zip(x) {
                *d = (*d).max(c as usize + 1);
            }
        }
        if dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d)) != Some(self.points.len()) {
            return None;
        }
        let mut expect = vec![0u64; n];
        for x in self.points.iter() {
            if x != expect {
                return None;
            }
            for v in (0..n).rev() {
                expect[v] += 1;
                if (expect[v] as usize) < dims[v] {
                    break;
                }
                expect[v] = 0;
            }
        }
        Some(dims)
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
        // Once for every variable: on a large box the scan costs more than the checks.
        let shape = self.box_shape();
        let deps: Vec<usize> = (0..self.vars())
            .filter(|&v| {
                let lines = self.lines(v, shape.as_deref());
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
    fn class(&self, i: usize) -> u64 {
        match self.target {
            Target::Sg => self.values[i] as u64,
            _ => (self.values[i] == 0) as u64,
        }
    }

    /// The v-lines of the points (the points equal to each other off v); `shape` is
    /// [`Problem::box_shape`].
    fn lines(&self, v: usize, shape: Option<&[usize]>) -> Lines {
        if let Some(dims) = shape {
            return Lines::Box {
                stride: dims[v + 1..].iter().product(),
                side: dims[v],
                count: self.points.len().checked_div(dims[v]).unwrap_or(0),
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
    use crate::game::spec;

    fn p3(target: Target, orbits: bool) -> Problem {
        let game = spec::parse("path:3").unwrap();
        let data = Dataset::from_box(&game, 4, &TableOptions::default()).unwrap();
        let canon = |x: &[u64]| {
            let mut p: Vec<u32> = x.iter().map(|&v| v as u32).collect();
            game.symmetry().canonicalize(&mut p);
            p.iter().map(|&v| v as u64).collect::<Vec<u64>>()
        };
        Problem::new(
            data,
            OpSet::thesis(3),
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
        let star = spec::parse("star:3").unwrap();
        let data = Dataset::from_box(&star, 3, &TableOptions::default()).unwrap();
        let canon = |x: &[u64]| {
            let mut p: Vec<u32> = x.iter().map(|&v| v as u32).collect();
            star.symmetry().canonicalize(&mut p);
            p.iter().map(|&v| v as u64).collect::<Vec<u64>>()
        };
        let pr = Problem::new(data, OpSet::thesis(4), 8, Target::Zero, Some(&canon)).unwrap();
        let orbits = pr
            .examples
            .iter()
            .filter(|e| matches!(e, Example::SomeZero { .. }))
            .count();
        // Zero positions: centre 0 and leaves xor to 0 over {0,1,2}: (0,0,0), {0,1,1}, {0,2,2} up to order.
        assert_eq!(orbits, 3);
    }

    #[test]
    fn dependency_bound() {
        assert_eq!(p3(Target::Zero, false).lower_bound(), (5, vec![0, 1, 2]));
        // Under the flip each zero position (a,0,a) is its own orbit, and a line through it
        // along any vertex meets a non-zero position: all three vertices are still needed.
        assert_eq!(p3(Target::Zero, true).lower_bound(), (5, vec![0, 1, 2]));
    }

    #[test]
    fn orbit_bound_is_never_above_the_shortest_program() {
        use crate::synth::enumerate::EnumBackend;
        use crate::synth::solver::{Backend, Found};
        let backend = EnumBackend {
            threads: 1,
            memory_limit: 1 << 30,
        };
        for name in ["path:3", "star:3", "circular:4,2", "shriek"] {
            let game = spec::parse(name).unwrap();
            let n = game.graph().vertices();
            let data = Dataset::from_box(&game, 4, &TableOptions::default()).unwrap();
            let canon = |x: &[u64]| {
                let mut p: Vec<u32> = x.iter().map(|&v| v as u32).collect();
                game.symmetry().canonicalize(&mut p);
                p.iter().map(|&v| v as u64).collect::<Vec<u64>>()
            };
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
            let game = spec::parse(name).unwrap();
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
            assert_eq!(a.box_shape(), Some(vec![4; game.graph().vertices()]));
            assert_eq!(b.box_shape(), None);
            assert_eq!(a.lower_bound(), b.lower_bound(), "{name}");
        }
        // Shriek's zero set (a, b, a+b) depends on every vertex.
        let g = spec::parse("shriek").unwrap();
        let d = Dataset::from_box(&g, 5, &TableOptions::default()).unwrap();
        assert_eq!(
            Problem::new(d, OpSet::thesis(3), 8, Target::Zero, None)
                .unwrap()
                .lower_bound()
                .0,
            5
        );
    }

    #[test]
    fn points_are_rows_of_a_flat_vector() {
        let mut p = Points::with_capacity(3, 2);
        assert!(p.is_empty());
        p.push(&[1, 2, 3]);
        p.push(&[4, 5, 6]);
        assert_eq!((p.len(), p.vars(), &p[1]), (2, 3, &[4, 5, 6][..]));
        assert_eq!(p.flat(), &[1, 2, 3, 4, 5, 6]);
        let rows: Vec<&[u64]> = p.iter().rev().collect();
        assert_eq!(rows, [&[4, 5, 6][..], &[1, 2, 3]]);
        assert_eq!(p, [vec![1, 2, 3], vec![4, 5, 6]].into_iter().collect());
        // No variables: points are empty slices, and still counted.
        let mut none = Points::with_capacity(0, 4);
        none.push(&[]);
        none.push(&[]);
        assert_eq!((none.len(), none.iter().count(), &none[1]), (2, 2, &[][..]));
        assert_eq!(Points::of_box(&[]).len(), 1);
        let empty: Points = std::iter::empty::<Vec<u64>>().collect();
        assert!(empty.is_empty() && empty.iter().next().is_none());
    }

    #[test]
    #[should_panic(expected = "one coordinate per variable")]
    fn points_refuse_the_wrong_length() {
        Points::with_capacity(2, 1).push(&[1, 2, 3]);
    }

    #[test]
    fn box_points_follow_the_table_order() {
        let game = spec::parse("star:3").unwrap();
        let t = table::tabulate(game.graph(), &[2, 3, 1, 4], &TableOptions::default()).unwrap();
        let points = Points::of_box(t.dims());
        assert_eq!(points.len(), t.len());
        let mut p = [0u32; 4];
        for (i, x) in points.iter().enumerate() {
            t.position_of(i, &mut p);
            assert!(x.iter().zip(p).all(|(&a, b)| a == b as u64), "{i}");
        }
    }

    #[test]
    fn data_files_parse_or_say_why() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("d.tsv");
        std::fs::write(&f, "x0\tx1\tsg\n0\t0\t0\n0\t1\t1\n").unwrap();
        let d = Dataset::from_file(&f).unwrap();
        assert_eq!((d.vars, d.points.len(), &d.points[1]), (2, 2, &[0, 1][..]));
        std::fs::write(&f, "0,0,0\n0,1\n").unwrap();
        assert!(Dataset::from_file(&f)
            .unwrap_err()
            .to_string()
            .contains("line 2"));
        std::fs::write(&f, "0,a,0\n").unwrap();
        assert!(Dataset::from_file(&f)
            .unwrap_err()
            .to_string()
            .contains("not a whole number"));
    }
}
