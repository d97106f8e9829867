//! The last level's top stages without storing their largest operand levels.
//!
//! A candidate of length `L` whose largest operand has length `L - 2` is `op(v, leaf)`,
//! `op(leaf, v)` or `g(g2(v))` with `v` of length `L - 2`; one whose largest operand has length
//! `L - 3` is `op(v, w)` with `w` of length 2, or `g(op(v, leaf))` (either operand order).
//! Storing levels `L - 2` and `L - 3` takes most of the time and memory of a search (CN(4,3)'s
//! indicator at length 11: 25 million and 2.3 million classes). Here `v` is never stored: each
//! of its constructions from the stored levels (the candidates that building its level would
//! hash) is checked against every *top* at once. A top is the chain of instructions over `v`,
//! each with a fixed stored operand (a leaf, or a class of length 2), so it acts on `v`'s value
//! column by column; per column and value a bitset says which tops that column's examples
//! still admit, and a construction's values are computed column by column only until no top
//! is left. Tops that pass every column are checked in full
//! ([`Checker::holds`](super::kernel::Checker::holds), which also sees orbits).
//!
//! With one level skipped, the constructions are those of level `L - 2`. With two, the binary
//! constructions of level `L - 2` (over levels summing to `L - 3`, at most `L - 4`) carry the
//! tops of `L - 2`, and the constructions of level `L - 3` carry the tops of `L - 3` and, for
//! each unary instruction `g3`, the tops of `L - 2` over `g3(v)` (the unary constructions of
//! level `L - 2`), so nothing above level `L - 4` is stored.
//!
//! The candidates are those of the same stages over built levels: every rule-allowed
//! construction of a vector of the skipped levels is visited (classes only merge equal
//! vectors), and the rules see the kind of each node's own root, whose union over a class's
//! members is the kind the class has (test `deep_stage_finds_what_the_built_level_finds`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use super::halt::Halt;
use super::kernel::{unary, with_binary, Kind, Word};
use super::search::{Form, Gen, Group, Job, Scan};
use super::share::{self, Hits};
use crate::lang::{Op, Program};

/// More tops than this (bitsets of more than 16 words) are searched over built levels.
const MAX_TOPS: usize = 1024;
/// Two levels are skipped only when level `L - 4` has this many classes (tests lower it):
/// below, building level `L - 3` costs less than the tables of its many tops.
pub(super) const TWO_LEVELS_FROM: u32 = 1 << 15;
/// Classes sampled to order the filter's columns.
const SAMPLE: usize = 512;
/// Columns chosen greedily on the sample; the rest keep the check order.
const GREEDY_COLUMNS: usize = 16;

/// A stored class that a top's instruction takes as its other operand.
struct Operand {
    id: u32,
    kind: Kind,
    /// Its value per column.
    values: Vec<u64>,
}

/// One instruction of a top, over the value below it.
#[derive(Clone, Copy, Debug)]
enum Step {
    Unary(usize),
    /// `op(below, operand)`: instruction index, index into the operands.
    Left(usize, usize),
    /// `op(operand, below)`.
    Right(usize, usize),
}

/// The instructions over `v`, innermost first.
type Top = Vec<Step>;

/// The tops over one set of constructions, and the tables that filter them.
struct Sweep {
    tops: Vec<Top>,
    /// Columns with a per-column condition, best first.
    cols: Vec<usize>,
    /// `[col][value]`: bitset (`words` words) of the tops whose value there is admitted.
    table: Vec<u64>,
    /// `[op]`: bitset of the tops the rules allow over a construction rooted at `op`.
    roots: Vec<u64>,
    words: usize,
    values: usize,
}

impl Sweep {
    /// Reorders the columns so that those rejecting the most tops on `sample` (vectors like
    /// `v`'s) come first: the filter stops at the first column where no top is left, and the
    /// check order (newest first) may start with columns that reject few (for an indicator,
    /// a column asking for 1 keeps `v != 0`-like tops on nearly any value).
    fn order_columns(&mut self, sample: &[Vec<u64>]) {
        let words = self.words;
        let row = |ci: usize, x: u64| {
            let start = (ci * self.values + x as usize) * words;
            start..start + words
        };
        let mut alive: Vec<Vec<u64>> = sample.iter().map(|_| vec![u64::MAX; words]).collect();
        let mut left: Vec<usize> = (0..self.cols.len()).collect();
        let mut order = Vec::with_capacity(left.len());
        for _ in 0..GREEDY_COLUMNS.min(left.len()) {
            let kept = |ci: usize| -> u32 {
                let c = self.cols[ci];
                sample
                    .iter()
                    .zip(&alive)
                    .map(|(v, a)| {
                        let r = &self.table[row(ci, v[c])];
                        a.iter()
                            .zip(r)
                            .map(|(x, y)| (x & y).count_ones())
                            .sum::<u32>()
                    })
                    .sum()
            };
            let (pos, &best) = left
                .iter()
                .enumerate()
                .min_by_key(|&(_, &ci)| kept(ci))
                .expect("columns left");
            let c = self.cols[best];
            for (v, a) in sample.iter().zip(alive.iter_mut()) {
                for (x, y) in a.iter_mut().zip(&self.table[row(best, v[c])]) {
                    *x &= y;
                }
            }
            order.push(best);
            left.remove(pos);
        }
        order.extend(left);
        let mut table = Vec::with_capacity(self.table.len());
        for &ci in &order {
            table.extend_from_slice(&self.table[ci * self.values * words..][..self.values * words]);
        }
        self.cols = order.iter().map(|&ci| self.cols[ci]).collect();
        self.table = table;
    }

    /// The tops (from those the rules allow over root `op`) that every single-column condition
    /// admits for a `v` whose value at column `c` is `value(c)`, computed column by column
    /// until none is left.
    #[inline(always)]
    fn filter<const W: usize>(&self, op: usize, value: impl Fn(usize) -> u64) -> [u64; W] {
        let mut m: [u64; W] = self.roots[op * W..(op + 1) * W]
            .try_into()
            .expect("W words");
        for (ci, &c) in self.cols.iter().enumerate() {
            let row = &self.table[(ci * self.values + value(c) as usize) * W..][..W];
            let mut any = 0;
            for j in 0..W {
                m[j] &= row[j];
                any |= m[j];
            }
            if any == 0 {
                break;
            }
        }
        m
    }
}

/// The kind of a node rooted at instruction `op` (not a leaf).
fn kind_of(op: Op) -> Kind {
    if op == Op::Not {
        Kind::NotOnly
    } else {
        Kind::Inner
    }
}

impl<T: Word> Gen<'_, T> {
    /// The stored classes of level `l` as operands.
    fn operands(&self, l: usize) -> Vec<Operand> {
        let n = self.n;
        let level = &self.levels[l];
        let all = level
            .segs
            .iter()
            .flat_map(|s| (0..s.len()).map(move |i| (s, i)));
        all.map(|(s, i)| {
            let id = s.start + i as u32;
            Operand {
                id,
                kind: self.kind(l, id, &s.info[i]),
                values: s.vec(i, n).iter().map(|x| x.get()).collect(),
            }
        })
        .collect()
    }

    /// Whether the rules allow `step` over a node of kind `below`.
    fn step_allowed(&self, step: Step, below: Kind, operands: &[Operand]) -> bool {
        match step {
            Step::Unary(g) => self.rules.unary(g, below),
            Step::Left(op, o) => self.rules.binary(op, below, operands[o].kind),
            Step::Right(o, op) => self.rules.binary(op, operands[o].kind, below),
        }
    }

    /// The tops of `groups` (largest operand level `len - 2` or, with `skip` 2, `len - 3`),
    /// over constructions of level `len - 2` and (with `skip` 2) of level `len - 3`, and the
    /// operands they take (leaves first, then level 2).
    fn tops_of(
        &self,
        len: usize,
        groups: &[Group],
        skip: usize,
    ) -> (Vec<Top>, Vec<Top>, Vec<Operand>) {
        let mut operands = self.operands(1);
        let leaves = operands.len();
        if skip == 2 {
            operands.extend(self.operands(2));
        }
        let pairs = leaves..operands.len();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for &(form, x, y) in groups {
            let (big, small) = (x.max(y), x.min(y));
            let left = x == big;
            let step = |op: usize, o: usize| match left {
                true => Step::Left(op, o),
                false => Step::Right(o, op),
            };
            match form {
                Form::UnaryUnary(g, g2) => a.push(vec![Step::Unary(g2), Step::Unary(g)]),
                Form::Binary(op) if big == len - 2 && small == 1 => {
                    a.extend((0..leaves).map(|l| vec![step(op, l)]));
                }
                Form::Binary(op) if big == len - 3 && small == 2 => {
                    b.extend(pairs.clone().map(|o| vec![step(op, o)]));
                }
                Form::UnaryBinary(g, op) if big == len - 3 && small == 1 => {
                    b.extend((0..leaves).map(|l| vec![step(op, l), Step::Unary(g)]));
                }
                _ => unreachable!("{form:?} over ({x}, {y}) is not a top of length {len}"),
            }
        }
        if skip == 2 {
            // The unary constructions of level len - 2, over those of level len - 3.
            for (g3, &op) in self.ops.iter().enumerate() {
                if op.arity() != 1 {
                    continue;
                }
                for top in &a {
                    if self.step_allowed(top[0], kind_of(op), &operands) {
                        b.push([&[Step::Unary(g3)][..], top].concat());
                    }
                }
            }
        }
        (a, b, operands)
    }

    /// How many of the largest operand levels `groups` (the last stages of length `len`, from
    /// the one whose largest operand level is `len - 3` or `len - 2`) can be searched without:
    /// 2, 1, or none. Values must fit a table (width <= 8 bits), the tops a bitset, and level
    /// `len - 4` must be large enough for skipping two to pay.
    pub fn deep_skip(&self, len: usize, groups: &[Group]) -> Option<usize> {
        if len < 5 || self.mask > 0xff {
            return None;
        }
        let top = |&(_, a, b): &Group| a.max(b);
        let skip = if groups.iter().any(|g| top(g) == len - 3) {
            let stored = self.levels.get(len - 4).map_or(0, |l| l.len);
            if len < 7 || stored < self.deep_from {
                return None;
            }
            2
        } else {
            1
        };
        let (a, b, _) = self.tops_of(len, groups, skip);
        (a.len() <= MAX_TOPS && b.len() <= MAX_TOPS).then_some(skip)
    }

    /// `top` at column `c` over `v`'s value `x` there.
    fn apply(&self, top: &[Step], operands: &[Operand], c: usize, x: u64) -> u64 {
        let mask = self.mask;
        top.iter().fold(x, |x, &step| match step {
            Step::Unary(g) => unary(self.ops[g], x, mask),
            Step::Left(op, o) => self.ops[op].apply(x, operands[o].values[c], mask),
            Step::Right(o, op) => self.ops[op].apply(operands[o].values[c], x, mask),
        })
    }

    /// The values of `top` at column `c` over every value of `v`.
    fn apply_all(&self, top: &[Step], operands: &[Operand], c: usize) -> Vec<u64> {
        let mask = self.mask;
        let mut vals: Vec<u64> = (0..=mask).collect();
        for &step in top {
            match step {
                Step::Unary(g) => vals
                    .iter_mut()
                    .for_each(|x| *x = unary(self.ops[g], *x, mask)),
                Step::Left(op, o) => with_binary!(self.ops[op], mask, f => {
                    let y = operands[o].values[c];
                    vals.iter_mut().for_each(|x| *x = f(*x, y));
                }),
                Step::Right(o, op) => with_binary!(self.ops[op], mask, f => {
                    let y = operands[o].values[c];
                    vals.iter_mut().for_each(|x| *x = f(y, *x));
                }),
            }
        }
        vals
    }

    /// The tables of `tops`, their columns ordered on `sample`.
    fn sweep(&self, tops: Vec<Top>, operands: &[Operand], sample: &[Vec<u64>]) -> Sweep {
        let words = tops.len().div_ceil(64).next_power_of_two();
        let values = self.mask as usize + 1;
        let wants = self.checker.column_wants();
        let rows: Vec<Vec<u64>> = self.pool.install(|| {
            wants
                .par_iter()
                .map(|&(c, want)| {
                    let mut rows = vec![0u64; values * words];
                    for (k, top) in tops.iter().enumerate() {
                        for (x, y) in self.apply_all(top, operands, c).into_iter().enumerate() {
                            if want.admits(y) {
                                rows[x * words + k / 64] |= 1 << (k % 64);
                            }
                        }
                    }
                    rows
                })
                .collect()
        });
        let mut roots = vec![0; self.ops.len() * words];
        for (o, &op) in self.ops.iter().enumerate() {
            for (k, top) in tops.iter().enumerate() {
                if op.arity() > 0 && self.step_allowed(top[0], kind_of(op), operands) {
                    roots[o * words + k / 64] |= 1 << (k % 64);
                }
            }
        }
        let mut s = Sweep {
            tops,
            cols: wants.iter().map(|w| w.0).collect(),
            table: rows.concat(),
            roots,
            words,
            values,
        };
        s.order_columns(sample);
        s
    }

    /// Up to [`SAMPLE`] vectors of level `l`, spread evenly.
    fn sample(&self, l: usize) -> Vec<Vec<u64>> {
        let level = &self.levels[l];
        let step = (level.len as usize / SAMPLE).max(1);
        let mut out = Vec::new();
        for s in &level.segs {
            for i in (0..s.len()).step_by(step) {
                out.push(s.vec(i, self.n).iter().map(|x| x.get()).collect());
            }
        }
        out
    }

    /// The whole program of `top` over `v`.
    fn with_top(&self, top: &[Step], operands: &[Operand], v: Program) -> Program {
        let mut ops = v.0;
        for &step in top {
            match step {
                Step::Unary(g) => ops.push(self.ops[g]),
                Step::Left(op, o) => {
                    self.program(operands[o].id, &mut ops);
                    ops.push(self.ops[op]);
                }
                Step::Right(o, op) => {
                    let mut left = Vec::with_capacity(ops.len() + 3);
                    self.program(operands[o].id, &mut left);
                    left.append(&mut ops);
                    left.push(self.ops[op]);
                    ops = left;
                }
            }
        }
        Program(ops)
    }

    /// Calls `found` with each program of `job`'s constructions under the tops left by
    /// [`Sweep::filter`] that passes every check, until `found` returns false; returns whether
    /// the job was searched to the end.
    fn scan_deep<const W: usize>(
        &self,
        s: &Sweep,
        operands: &[Operand],
        job: &Job,
        halt: impl Fn() -> bool,
        mut found: impl FnMut(Program) -> bool,
    ) -> bool {
        let mask = self.mask;
        // The programs of the tops in `m` over `v` (built by `v`) that pass.
        let mut survivors = |m: [u64; W], value: &dyn Fn(usize) -> u64, v: &dyn Fn() -> Program| {
            for (j, &word) in m.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let top = &s.tops[j * 64 + bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                    if !self
                        .checker
                        .holds(|c| self.apply(top, operands, c, value(c)))
                    {
                        continue;
                    }
                    if !found(self.with_top(top, operands, v())) {
                        return false;
                    }
                }
            }
            true
        };
        match job.form {
            Form::Unary(o) => {
                let g = self.ops[o];
                self.singles(job, o, halt, |id, u| {
                    let value = |c: usize| unary(g, u[c].get(), mask);
                    let m = s.filter::<W>(o, value);
                    m.iter().all(|&x| x == 0) || survivors(m, &value, &|| self.build(&[id], g))
                })
            }
            Form::Binary(o) => with_binary!(self.ops[o], mask, f => {
                self.pairs(job, o, Scan::ALL, halt, |uid, u, wid, w| {
                    let value = |c: usize| f(u[c].get(), w[c].get());
                    let m = s.filter::<W>(o, value);
                    m.iter().all(|&x| x == 0)
                        || survivors(m, &value, &|| self.build(&[uid, wid], self.ops[o]))
                })
            }),
            _ => unreachable!("level jobs are unary or binary"),
        }
    }

    /// As [`Self::search_final`] for `groups`, the last stages of length `len`, without
    /// building their largest `skip` operand levels ([`Self::deep_skip`]); levels up to
    /// `len - 2 - skip` must be stored.
    pub fn search_deep(
        &self,
        len: usize,
        groups: &[Group],
        skip: usize,
        all: Option<&Mutex<Vec<Program>>>,
        refuted: &mut Vec<Group>,
    ) -> Result<Option<Program>, Halt> {
        let (a, b, operands) = self.tops_of(len, groups, skip);
        let sample = self.sample(len - 2 - skip);
        let mut work: Vec<(usize, Job)> = Vec::new();
        // With two levels skipped, the unary constructions of level len - 2 are in sweep 1.
        let jobs = self.level_jobs(len - 2, skip == 1);
        work.extend(jobs.into_iter().map(|j| (0, j)));
        if skip == 2 {
            work.extend(self.level_jobs(len - 3, true).into_iter().map(|j| (1, j)));
        }
        let sweeps = [
            self.sweep(a, &operands, &sample),
            self.sweep(b, &operands, &sample),
        ];
        // This rank's jobs not yet searched to the end.
        let mine = (0..work.len()).filter(|&k| share::takes(self.team, k));
        let pending = AtomicUsize::new(mine.count());
        let hits = Hits::new();
        share::run_jobs(self.team, self.pool, work.len(), &hits, self.stop, |k| {
            let (sweep, job) = &work[k];
            let halt = || hits.beaten(k) || self.stop.poll();
            if halt() {
                return;
            }
            let found = |p: Program| {
                if let Some(all) = all {
                    all.lock().unwrap_or_else(|e| e.into_inner()).push(p);
                    return true;
                }
                hits.record(k, p);
                false
            };
            let (s, ops) = (&sweeps[*sweep], &operands[..]);
            let complete = match s.words {
                1 => self.scan_deep::<1>(s, ops, job, halt, found),
                2 => self.scan_deep::<2>(s, ops, job, halt, found),
                4 => self.scan_deep::<4>(s, ops, job, halt, found),
                8 => self.scan_deep::<8>(s, ops, job, halt, found),
                _ => self.scan_deep::<16>(s, ops, job, halt, found),
            };
            if complete {
                pending.fetch_sub(1, Ordering::Relaxed);
            }
        });
        let hit = hits.into_program();
        if all.is_none() {
            let done = pending.load(Ordering::Relaxed) == 0;
            let everywhere = share::on_every_rank(self.team, Vec::from_iter(done.then_some(0)), 1);
            if hit.is_none() && !everywhere.is_empty() {
                refuted.extend_from_slice(groups);
            }
        }
        match hit {
            Some(p) => Ok(Some(p)),
            None if self.stop.raised() => Err(Halt::Timeout),
            None => Ok(None),
        }
    }
}
