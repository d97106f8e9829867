//! The last level's top stage without storing its largest operand level.
//!
//! A candidate of length `L` whose largest operand has length `L - 2` is `op(v, leaf)`,
//! `op(leaf, v)` or `g(g2(v))` with `v` of length `L - 2`. Storing level `L - 2` takes most of
//! the time and memory of a search (CN(4,3)'s indicator at length 11: 25 million classes on 34
//! examples, 4 s of the 7.5 s). Here `v` is never stored: each of its constructions from the
//! stored levels (a unary instruction over level `L - 3`, a binary one over levels summing to
//! `L - 3`: the candidates that building the level would hash) is checked against every *top*
//! at once. A top acts on `v`'s value column by column (a leaf's value at a column is fixed), so
//! per column and value a bitset says which tops that column's examples still admit, and a
//! construction's values are computed column by column only until no top is left. Tops that
//! pass every column are checked in full ([`Checker::holds`](super::kernel::Checker::holds),
//! which also sees orbits).
//!
//! The candidates are exactly those of the stage's groups over a built level `L - 2`: every
//! rule-allowed construction of a level-`L - 2` vector is visited (classes only merge equal
//! vectors), and the rules over `v` are those of its own root, which is what the class's kind
//! allows at most (test `deep_stage_finds_what_the_built_level_finds`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use super::kernel::{unary, with_binary, Kind, Word};
use super::search::{Form, Gen, Group, Halt, Job, Scan};
use crate::synth::lang::{Op, Program};

/// More tops than this (bitsets of more than 8 words) are searched over the built level.
const MAX_TOPS: usize = 512;

/// What a candidate applies over `v`.
#[derive(Clone, Copy, Debug)]
enum Top {
    /// `op(v, leaf)`: instruction index, leaf class id.
    Left(usize, u32),
    /// `op(leaf, v)`.
    Right(u32, usize),
    /// `g(g2(v))`.
    Unary(usize, usize),
}

/// The tops of one stage and the tables that filter them.
struct Tops {
    tops: Vec<Top>,
    /// The leaves' values per column.
    leaves: Vec<Vec<u64>>,
    /// Columns with a per-column condition, in check order.
    cols: Vec<usize>,
    /// `[col][value]`: bitset (`words` words) of the tops whose value there is admitted.
    table: Vec<u64>,
    /// `[op]`: bitset of the tops the rules allow over a `v` rooted at instruction `op`.
    roots: Vec<u64>,
    words: usize,
    values: usize,
}

/// Classes sampled to order the filter's columns.
const SAMPLE: usize = 512;
/// Columns chosen greedily on the sample; the rest keep the check order.
const GREEDY_COLUMNS: usize = 16;

impl Tops {
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
}

impl<T: Word> Gen<'_, T> {
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

    /// The tops of the groups of `stage` (all with largest operand level `len - 2`).
    fn tops_of(&self, len: usize, stage: &[Group]) -> Vec<Top> {
        let leaves = self.levels[1].len;
        let mut tops = Vec::new();
        for &(form, a, b) in stage {
            match form {
                Form::Binary(op) if a == len - 2 && b == 1 => {
                    tops.extend((0..leaves).map(|l| Top::Left(op, l)));
                }
                Form::Binary(op) if a == 1 && b == len - 2 => {
                    tops.extend((0..leaves).map(|l| Top::Right(l, op)));
                }
                Form::UnaryUnary(g, g2) if a == len - 2 => tops.push(Top::Unary(g, g2)),
                _ => unreachable!("{form:?} over ({a}, {b}) is not a top of length {len}"),
            }
        }
        tops
    }

    /// Whether `stage` (the groups whose largest operand level is `len - 2`) can be searched
    /// without building that level: values fit a table (width <= 8 bits) and the tops a bitset.
    pub fn deep_applies(&self, len: usize, stage: &[Group]) -> bool {
        len >= 5 && self.mask <= 0xff && self.tops_of(len, stage).len() <= MAX_TOPS
    }

    /// Top `t` at column `c` over `v`'s value `x` there.
    fn apply(&self, t: &Tops, top: Top, c: usize, x: u64) -> u64 {
        let mask = self.mask;
        match top {
            Top::Left(op, l) => self.ops[op].apply(x, t.leaves[l as usize][c], mask),
            Top::Right(l, op) => self.ops[op].apply(t.leaves[l as usize][c], x, mask),
            Top::Unary(g, g2) => unary(self.ops[g], unary(self.ops[g2], x, mask), mask),
        }
    }

    fn tables(&self, len: usize, tops: Vec<Top>) -> Tops {
        let n = self.n;
        let words = tops.len().div_ceil(64).next_power_of_two();
        let values = self.mask as usize + 1;
        let leaves = self.levels[1]
            .segs
            .iter()
            .map(|s| s.vec(0, n).iter().map(|x| x.get()).collect())
            .collect();
        let wants = self.checker.column_wants();
        let mut t = Tops {
            tops,
            leaves,
            cols: wants.iter().map(|w| w.0).collect(),
            table: vec![0; wants.len() * values * words],
            roots: vec![0; self.ops.len() * words],
            words,
            values,
        };
        for (ci, &(c, want)) in wants.iter().enumerate() {
            for x in 0..values {
                let row = (ci * values + x) * words;
                for (k, &top) in t.tops.iter().enumerate() {
                    if want.admits(self.apply(&t, top, c, x as u64)) {
                        t.table[row + k / 64] |= 1 << (k % 64);
                    }
                }
            }
        }
        t.order_columns(&self.sample(len - 3));
        for (o, &op) in self.ops.iter().enumerate() {
            if op.arity() == 0 {
                continue;
            }
            let kind = if op == Op::Not {
                Kind::NotOnly
            } else {
                Kind::Inner
            };
            for (k, &top) in t.tops.iter().enumerate() {
                let ok = match top {
                    Top::Left(f, l) => self.rules.binary(f, kind, Kind::Leaf(l as usize)),
                    Top::Right(l, f) => self.rules.binary(f, Kind::Leaf(l as usize), kind),
                    Top::Unary(_, g2) => self.rules.unary(g2, kind),
                };
                if ok {
                    t.roots[o * words + k / 64] |= 1 << (k % 64);
                }
            }
        }
        t
    }

    /// The tops (from those the rules allow over root `op`) that every single-column condition
    /// admits for a `v` whose value at column `c` is `value(c)`, computed column by column
    /// until none is left.
    #[inline(always)]
    fn filter<const W: usize>(t: &Tops, op: usize, value: impl Fn(usize) -> u64) -> [u64; W] {
        let mut m: [u64; W] = t.roots[op * W..(op + 1) * W].try_into().expect("W words");
        for (ci, &c) in t.cols.iter().enumerate() {
            let row = &t.table[(ci * t.values + value(c) as usize) * W..][..W];
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

    /// Calls `found` with each program of `job`'s constructions under the tops left by
    /// [`Self::filter`] that passes every check, until `found` returns false; returns whether
    /// the job was searched to the end.
    fn scan_deep<const W: usize>(
        &self,
        t: &Tops,
        job: &Job,
        halt: impl Fn() -> bool,
        mut found: impl FnMut(Program) -> bool,
    ) -> bool {
        let mask = self.mask;
        // The programs of the tops in `m` over `v` (built by `v_program`) that pass.
        let mut survivors = |m: [u64; W], value: &dyn Fn(usize) -> u64, v: &dyn Fn() -> Program| {
            for (j, &word) in m.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let k = j * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let top = t.tops[k];
                    if !self.checker.holds(|c| self.apply(t, top, c, value(c))) {
                        continue;
                    }
                    if !found(self.with_top(top, v())) {
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
                    let m = Self::filter::<W>(t, o, value);
                    m.iter().all(|&x| x == 0) || survivors(m, &value, &|| self.build(&[id], g))
                })
            }
            Form::Binary(o) => with_binary!(self.ops[o], mask, f => {
                self.pairs(job, o, Scan::ALL, halt, |uid, u, wid, w| {
                    let value = |c: usize| f(u[c].get(), w[c].get());
                    let m = Self::filter::<W>(t, o, value);
                    m.iter().all(|&x| x == 0)
                        || survivors(m, &value, &|| self.build(&[uid, wid], self.ops[o]))
                })
            }),
            _ => unreachable!("level jobs are unary or binary"),
        }
    }

    /// The whole program of `top` over `v`.
    fn with_top(&self, top: Top, v: Program) -> Program {
        let leaf = |l: u32| self.ops[self.levels[1].segs[l as usize].info[0].op as usize];
        let mut ops = Vec::with_capacity(v.len() + 2);
        match top {
            Top::Left(op, l) => {
                ops.extend(v.0);
                ops.push(leaf(l));
                ops.push(self.ops[op]);
            }
            Top::Right(l, op) => {
                ops.push(leaf(l));
                ops.extend(v.0);
                ops.push(self.ops[op]);
            }
            Top::Unary(g, g2) => {
                ops.extend(v.0);
                ops.push(self.ops[g2]);
                ops.push(self.ops[g]);
            }
        }
        Program(ops)
    }

    /// As [`Self::search_final`] for the groups of `stage`, whose largest operand level is
    /// `len - 2` (see [`Self::deep_applies`]), with levels up to `len - 3` stored and level
    /// `len - 2` never built.
    pub fn search_deep(
        &self,
        len: usize,
        stage: &[Group],
        all: Option<&Mutex<Vec<Program>>>,
        refuted: &mut Vec<Group>,
    ) -> Result<Option<Program>, Halt> {
        let t = self.tables(len, self.tops_of(len, stage));
        let jobs = self.level_jobs(len - 2);
        let pending = AtomicUsize::new(jobs.len());
        let best = AtomicUsize::new(usize::MAX);
        let hit: Mutex<Option<(usize, Program)>> = Mutex::new(None);
        let run = |k: usize, job: &Job| {
            let halt = || best.load(Ordering::Relaxed) < k || self.stop.poll();
            if halt() {
                return;
            }
            let found = |p: Program| {
                if let Some(all) = all {
                    all.lock().unwrap_or_else(|e| e.into_inner()).push(p);
                    return true;
                }
                let mut h = hit.lock().unwrap_or_else(|e| e.into_inner());
                if h.as_ref().is_none_or(|(j, _)| k < *j) {
                    *h = Some((k, p));
                    best.fetch_min(k, Ordering::Relaxed);
                }
                false
            };
            let complete = match t.words {
                1 => self.scan_deep::<1>(&t, job, halt, found),
                2 => self.scan_deep::<2>(&t, job, halt, found),
                4 => self.scan_deep::<4>(&t, job, halt, found),
                _ => self.scan_deep::<8>(&t, job, halt, found),
            };
            if complete {
                pending.fetch_sub(1, Ordering::Relaxed);
            }
        };
        self.pool
            .install(|| jobs.par_iter().enumerate().for_each(|(k, job)| run(k, job)));
        let hit = hit.into_inner().unwrap_or_else(|e| e.into_inner());
        if all.is_none() && hit.is_none() && pending.load(Ordering::Relaxed) == 0 {
            refuted.extend_from_slice(stage);
        }
        match hit {
            Some((_, p)) => Ok(Some(p)),
            None if self.stop.raised() => Err(Halt::Timeout),
            None => Ok(None),
        }
    }
}
