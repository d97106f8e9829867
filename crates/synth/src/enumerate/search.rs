//! Jobs over pairs of classes, and the building of stored levels in parallel.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use rayon::ThreadPool;

use super::halt::{Halt, Stop};
use super::index::{Index, IndexTable};
use super::kernel::{unary, with_binary, Checker, Kind, Rules, Word};
use super::store::{Builder, Info, Level, Meter, Segment, NONE};
use crate::lang::Op;
use crate::problem::Problem;
use grundy_core::cluster::Team;

/// What a job applies at its root (instruction indices into the op set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Form {
    /// A unary instruction over classes of level `a`.
    Unary(usize),
    /// A binary instruction over classes of levels `a` and `b`.
    Binary(usize),
    /// Unary `.0` over binary `.1` over levels `a` and `b` (the last level only).
    UnaryBinary(usize, usize),
    /// Unary `.0` over unary `.1` over level `a` (the last level only).
    UnaryUnary(usize, usize),
}

/// A family of last-level candidates: a root form over operands from levels `a` and `b`.
pub(super) type Group = (Form, usize, usize);

/// A unit of parallel work: `form` over segments `sa` of level `a` (left operands) and
/// segments `sb` of level `b` (right operands, binary forms only).
#[derive(Clone, Copy, Debug)]
pub(super) struct Job {
    pub form: Form,
    pub a: usize,
    pub b: usize,
    pub sa: (usize, usize),
    pub sb: (usize, usize),
    /// Of the outer loop's classes in each segment, only part `part.0` of `part.1` equal
    /// ranges: a pair of single segments holding more than [`SPLIT_PAIRS`] pairs is split this
    /// way, so that no job holds up the threads (or the ranks) of a round.
    pub part: (usize, usize),
    /// Pairs (or classes) visited, as an upper bound.
    pub size: u64,
}

impl Job {
    /// The outer classes of a segment of `len` this job visits.
    fn range(&self, len: usize) -> std::ops::Range<usize> {
        let (p, parts) = self.part;
        len * p / parts..len * (p + 1) / parts
    }
}

/// Pairs per job, at most (unless one segment pair is larger).
const JOB_PAIRS: u64 = 1 << 18;
/// Pairs per job of a single pair of segments, about: the index visits few of them, so
/// splitting finer than segments pays only for the largest.
const SPLIT_PAIRS: u64 = 1 << 20;
/// Pairs between clock checks.
const POLL_EVERY: usize = 1 << 15;
/// Staged candidates per merge, in bytes.
const BATCH_BYTES: usize = 64 << 20;
/// Candidates materialized before they are hashed.
const BATCH: usize = 32;

/// Candidates of one job waiting to be hashed: vector `i` is `vecs[i * n..(i + 1) * n]`.
struct Batch<T> {
    vecs: Vec<T>,
    info: Vec<Info>,
}

/// How [`Gen::pairs`] visits a binary-form job.
#[derive(Clone, Copy)]
pub(super) struct Scan<'t> {
    /// Walk the inner level through the index with this table.
    pub index: Option<&'t IndexTable>,
    /// The outer loop runs over the right operands.
    pub swap: bool,
    /// A 0 as the left (right) operand makes the root give 0, so classes with a 0 where the
    /// output must not be 0 are skipped on that side.
    pub nonzero: [bool; 2],
}

impl Scan<'_> {
    /// Every allowed pair, left operands outside.
    pub const ALL: Scan<'static> = Scan {
        index: None,
        swap: false,
        nonzero: [false; 2],
    };
}

/// The levels built so far for one solve, and what building them needs.
pub(super) struct Gen<'a, T> {
    pub n: usize,
    pub mask: u64,
    pub ops: &'a [Op],
    pub rules: &'a Rules,
    pub checker: &'a Checker,
    pub stop: &'a Stop,
    pub meter: &'a Meter,
    pub pool: &'a ThreadPool,
    /// The ranks the last level's jobs are shared among (`share.rs`).
    pub team: &'a dyn Team,
    /// Per op-set index: whether the instruction is `Not`.
    pub is_not: Vec<bool>,
    /// The columns levels are bucketed by (when some check is an `Equals` and the width is at
    /// most 8 bits).
    pub index: Option<Index>,
    /// Levels smaller than this are scanned whole (the index costs a pass over buckets).
    pub index_min: u32,
    /// Classes per segment of a stored level, at least (fewer segments, less overhead).
    pub segment_min: usize,
    /// Sorted ranges at most this long are scanned rather than walked further.
    pub scan_below: usize,
    /// The columns of [`Segment::zeros`].
    pub nonzero: Vec<usize>,
    /// Level `L - 4` must have this many classes for the last stages to skip two levels.
    pub deep_from: u32,
    /// `levels[l]` holds the classes of length `l`; `levels[0]` is empty.
    pub levels: Vec<Level<T>>,
}

impl<T: Word> Gen<'_, T> {
    /// Level 1: every nullary instruction is its own class (the rules look at leaves exactly).
    pub fn leaves(&mut self, problem: &Problem) -> Result<(), Halt> {
        let n = self.n;
        let mut segs = Vec::new();
        for (o, &op) in self.ops.iter().enumerate() {
            if op.arity() != 0 {
                continue;
            }
            let vecs: Vec<T> = self
                .checker
                .points
                .iter()
                .map(|&p| {
                    T::put(match op {
                        Op::Push(i) => problem.points[p][i as usize] & self.mask,
                        _ => op.constant().expect("a constant") & self.mask,
                    })
                })
                .collect();
            let bytes = (n * size_of::<T>() + size_of::<Info>()) as u64;
            if !self.meter.charge(bytes) {
                let (level, fraction, estimate) = (1, 0.0, None);
                return Err(Halt::Memory {
                    level,
                    fraction,
                    estimate,
                });
            }
            let info = vec![Info {
                left: NONE,
                right: NONE,
                op: o as u16,
            }];
            let start = segs.len() as u32;
            let buckets = Vec::new();
            segs.push(Segment {
                start,
                vecs,
                info,
                buckets,
                zeros: Vec::new(),
            });
        }
        self.mark_zeros(1, &mut segs)?;
        self.levels = vec![Level::new(0, Vec::new()), Level::new(0, segs)];
        Ok(())
    }

    /// Fills in each class's [`Segment::zeros`] (level `l`), when some column must not give 0.
    fn mark_zeros(&self, l: usize, segs: &mut [Segment<T>]) -> Result<(), Halt> {
        let (cols, n) = (&self.nonzero, self.n);
        let classes: usize = segs.iter().map(|s| s.len()).sum();
        if cols.is_empty() {
            return Ok(());
        }
        if !self.meter.charge((classes * size_of::<u64>()) as u64) {
            let (level, fraction, estimate) = (l, 1.0, None);
            return Err(Halt::Memory {
                level,
                fraction,
                estimate,
            });
        }
        self.pool.install(|| {
            segs.par_iter_mut().for_each(|s| {
                s.zeros = (0..s.len())
                    .map(|i| {
                        let v = s.vec(i, n);
                        let zero = cols.iter().enumerate().filter(|&(_, &c)| v[c].get() == 0);
                        zero.fold(0, |m, (k, _)| m | 1 << k)
                    })
                    .collect();
            })
        });
        Ok(())
    }

    /// What is known of the roots of class `id` of level `l`.
    #[inline(always)]
    pub fn kind(&self, l: usize, id: u32, info: &Info) -> Kind {
        if l == 1 {
            Kind::Leaf(id as usize)
        } else if self.is_not[info.op as usize] {
            Kind::NotOnly
        } else {
            Kind::Inner
        }
    }

    fn count(&self, l: usize, (s, e): (usize, usize)) -> u64 {
        self.levels[l].segs[s..e]
            .iter()
            .map(|s| s.len() as u64)
            .sum()
    }

    /// Jobs of `form` over all of level `a` (and `b`), split to about [`JOB_PAIRS`] pairs.
    pub fn jobs(&self, form: Form, a: usize, b: usize, out: &mut Vec<Job>) {
        let whole = |l: usize| (0, self.levels[l].segs.len());
        let mut todo = vec![(whole(a), whole(b))];
        let unary = matches!(form, Form::Unary(_) | Form::UnaryUnary(..));
        let pair_op = match form {
            Form::Binary(f) | Form::UnaryBinary(_, f) => Some(f),
            _ => None,
        };
        let same = pair_op.is_some_and(|f| self.ops[f].is_commutative()) && a == b;
        while let Some((sa, sb)) = todo.pop() {
            // One order of a commutative pair from one level: right id >= left id.
            if same && sb.1 <= sa.0 {
                continue;
            }
            let na = self.count(a, sa);
            let nb = if unary { 1 } else { self.count(b, sb) };
            let size = na * nb;
            if size == 0 {
                continue;
            }
            let (wa, wb) = (sa.1 - sa.0, if unary { 1 } else { sb.1 - sb.0 });
            if size <= JOB_PAIRS || (wa == 1 && wb == 1) {
                // Either level may be the outer one (`last.rs` decides), so at most the
                // smaller count of parts.
                let outer = if unary { na } else { na.min(nb) };
                let parts = size.div_ceil(SPLIT_PAIRS).min(outer) as usize;
                out.extend((0..parts).map(|p| Job {
                    form,
                    a,
                    b,
                    sa,
                    sb,
                    part: (p, parts),
                    size: size.div_ceil(parts as u64),
                }));
            } else if wa >= wb {
                let mid = sa.0 + wa / 2;
                todo.push(((mid, sa.1), sb));
                todo.push(((sa.0, mid), sb));
            } else {
                let mid = sb.0 + wb / 2;
                todo.push((sa, (mid, sb.1)));
                todo.push((sa, (sb.0, mid)));
            }
        }
    }

    /// Calls `visit(left id, left vector, right id, right vector)` for every allowed pair of a
    /// binary-form job (rules by instruction `op`), filtered as `how` says ([`Scan`]; with an
    /// index, per outer operand only the inner ones whose values at the index columns give the
    /// wanted values are visited, see [`Self::walk`]).
    /// Stops early (returning false) when `visit` or `halt` says so.
    #[inline(always)]
    pub fn pairs(
        &self,
        job: &Job,
        op: usize,
        how: Scan,
        halt: impl Fn() -> bool,
        mut visit: impl FnMut(u32, &[T], u32, &[T]) -> bool,
    ) -> bool {
        let Scan {
            index,
            swap,
            nonzero,
        } = how;
        let n = self.n;
        let same = self.ops[op].is_commutative() && job.a == job.b;
        debug_assert!(!(same && swap));
        let check = job.a == 1 || job.b == 1 || !self.rules.inner_free(op);
        let c0 = self.index.map_or(0, |x| x.cols[0]);
        let ((lo, ro), (li, ri)) = match swap {
            false => ((job.a, job.sa), (job.b, job.sb)),
            true => ((job.b, job.sb), (job.a, job.sa)),
        };
        let [nz_outer, nz_inner] = if swap {
            [nonzero[1], nonzero[0]]
        } else {
            nonzero
        };
        let mut budget = 0;
        for so in &self.levels[lo].segs[ro.0..ro.1] {
            for i in job.range(so.len()) {
                if nz_outer && so.zeros[i] != 0 {
                    continue;
                }
                let oid = so.start + i as u32;
                let ov = so.vec(i, n);
                let ko = self.kind(lo, oid, &so.info[i]);
                if index.is_some_and(|t| *t.allowed(0, ov[c0].get()) == [0; 4]) {
                    continue;
                }
                for si in &self.levels[li].segs[ri.0..ri.1] {
                    // One order of a commutative pair from one level: right id >= left id.
                    let first = match same {
                        true if si.end() <= oid => continue,
                        true => oid.saturating_sub(si.start) as usize,
                        false => 0,
                    };
                    let mut scan = |from: usize, to: usize| {
                        budget += to.saturating_sub(from) + 1;
                        for j in from.max(first)..to {
                            if nz_inner && si.zeros[j] != 0 {
                                continue;
                            }
                            let iid = si.start + j as u32;
                            let iv = si.vec(j, n);
                            if check {
                                let ki = self.kind(li, iid, &si.info[j]);
                                let (kl, kr) = if swap { (ki, ko) } else { (ko, ki) };
                                if !self.rules.binary(op, kl, kr) {
                                    continue;
                                }
                            }
                            let go = match swap {
                                false => visit(oid, ov, iid, iv),
                                true => visit(iid, iv, oid, ov),
                            };
                            if !go {
                                return false;
                            }
                        }
                        true
                    };
                    let go = match index {
                        None => scan(0, si.len()),
                        Some(t) => self.walk(si, t, ov, &mut scan),
                    };
                    if !go {
                        return false;
                    }
                }
                if budget >= POLL_EVERY {
                    budget = 0;
                    if halt() {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Calls `visit(id, vector)` for every class of a unary-form job over which unary `op`
    /// is allowed; stops early (returning false) when `visit` or `halt` says so.
    pub fn singles(
        &self,
        job: &Job,
        op: usize,
        halt: impl Fn() -> bool,
        mut visit: impl FnMut(u32, &[T]) -> bool,
    ) -> bool {
        let level = &self.levels[job.a];
        for s in &level.segs[job.sa.0..job.sa.1] {
            for i in job.range(s.len()) {
                let id = s.start + i as u32;
                if !self.rules.unary(op, self.kind(job.a, id, &s.info[i])) {
                    continue;
                }
                if (i % 4096 == 4095 && halt()) || !visit(id, s.vec(i, self.n)) {
                    return false;
                }
            }
        }
        true
    }

    /// Materializes the candidates of a stored-level job into `batch` and hands the batch to
    /// `flush` whenever it fills (and at the end); stops early when `flush` or `halt` says so.
    /// Hashing a vector right after writing it stalls on store forwarding; a batch of them
    /// hides that.
    fn produce(
        &self,
        job: &Job,
        batch: &mut Batch<T>,
        halt: impl Fn() -> bool,
        mut flush: impl FnMut(&mut Batch<T>) -> bool,
    ) {
        let mut add = |batch: &mut Batch<T>, info: Info| {
            batch.info.push(info);
            batch.info.len() < BATCH || flush(batch)
        };
        let done = match job.form {
            Form::Unary(op) => {
                let g = self.ops[op];
                self.singles(job, op, halt, |id, v| {
                    let vals = v.iter().map(|&x| T::put(unary(g, x.get(), self.mask)));
                    batch.vecs.extend(vals);
                    let info = Info {
                        left: id,
                        right: NONE,
                        op: op as u16,
                    };
                    add(batch, info)
                })
            }
            Form::Binary(op) => with_binary!(self.ops[op], self.mask, f => {
                self.pairs(job, op, Scan::ALL, halt, |uid, u, wid, w| {
                    let vals = u.iter().zip(w).map(|(&x, &y)| T::put(f(x.get(), y.get())));
                    batch.vecs.extend(vals);
                    add(batch, Info { left: uid, right: wid, op: op as u16 })
                })
            }),
            _ => unreachable!("composite forms are only checked"),
        };
        if done && !batch.info.is_empty() {
            flush(batch);
        }
    }

    /// The jobs whose candidates make up level `l`: every unary instruction over level `l - 1`
    /// and every binary one over levels `a + b = l - 1` (lower levels must be stored).
    /// Without `unary`, the binary ones only (level `l - 1` need not be stored).
    pub fn level_jobs(&self, l: usize, unary: bool) -> Vec<Job> {
        let mut jobs = Vec::new();
        for (op, &o) in self.ops.iter().enumerate() {
            match o.arity() {
                1 if unary => self.jobs(Form::Unary(op), l - 1, 0, &mut jobs),
                2 => {
                    for a in 1..l - 1 {
                        let b = l - 1 - a;
                        if !(o.is_commutative() && a > b) {
                            self.jobs(Form::Binary(op), a, b, &mut jobs);
                        }
                    }
                }
                _ => {}
            }
        }
        jobs
    }

    /// Builds and stores the levels up to `l` not stored yet.
    pub fn build_up_to(&mut self, l: usize) -> Result<(), Halt> {
        while self.levels.len() <= l {
            self.build_level(self.levels.len())?;
        }
        Ok(())
    }

    /// Builds and stores level `l` (all lower levels must be stored).
    pub fn build_level(&mut self, l: usize) -> Result<(), Halt> {
        let jobs = self.level_jobs(l, true);
        let total = jobs.iter().map(|j| j.size).sum::<u64>().max(1);
        let batch = (BATCH_BYTES / (self.n * size_of::<T>() + 24)).max(1 << 16) as u64;
        let mut pairs;
        let before = self.meter.used();
        let threads = self.pool.current_num_threads();
        let mut builder = Builder::<T>::new(self.n, self.meter, &self.is_not, threads);
        let (done, mut next) = (AtomicU64::new(0), 0);
        while next < jobs.len() && !self.stop.raised() {
            let first = next;
            pairs = 0;
            while next < jobs.len() && (next == first || pairs + jobs[next].size <= batch) {
                pairs += jobs[next].size;
                next += 1;
            }
            let (this, builder_ref, done) = (&*self, &builder, &done);
            this.pool.install(|| {
                jobs[first..next].par_iter().for_each(|job| {
                    if this.stop.poll() {
                        return;
                    }
                    let mut stage = builder_ref.stage();
                    let n = this.n;
                    let mut batch = Batch {
                        vecs: Vec::with_capacity(BATCH * n),
                        info: Vec::with_capacity(BATCH),
                    };
                    this.produce(
                        job,
                        &mut batch,
                        || this.stop.poll(),
                        |b| {
                            let ok = b.info.iter().enumerate().all(|(i, &info)| {
                                builder_ref.push(&mut stage, &b.vecs[i * n..(i + 1) * n], info)
                            });
                            b.vecs.clear();
                            b.info.clear();
                            ok || {
                                this.stop.raise();
                                false
                            }
                        },
                    );
                    if !this.stop.raised() {
                        done.fetch_add(job.size, Ordering::Relaxed);
                    }
                })
            });
            if !self.stop.raised() && !self.pool.install(|| builder.merge()) {
                self.stop.raise();
            }
        }
        if self.stop.raised() {
            if self.stop.timed_out() {
                return Err(Halt::Timeout);
            }
            let fraction = done.load(Ordering::Relaxed) as f64 / total as f64;
            let grown = (self.meter.used() - before) as f64 / fraction;
            let estimate = (fraction >= 0.02).then_some(grown as u64);
            return Err(Halt::Memory {
                level: l,
                fraction,
                estimate,
            });
        }
        let start = self.levels[l - 1].start + self.levels[l - 1].len;
        let (index, segment_min) = (self.index, self.segment_min);
        let level = self
            .pool
            .install(|| builder.finish(start, index, segment_min));
        let mut level = level.ok_or(Halt::Ids { level: l })?;
        self.mark_zeros(l, &mut level.segs)?;
        self.levels.push(level);
        Ok(())
    }

    /// Appends the postfix program of class `id` to `out`.
    pub fn program(&self, id: u32, out: &mut Vec<Op>) {
        let l = self.levels.partition_point(|lv| lv.start + lv.len <= id);
        let (s, i) = self.levels[l].find(id);
        let info = s.info[i];
        if info.left != NONE {
            self.program(info.left, out);
        }
        if info.right != NONE {
            self.program(info.right, out);
        }
        out.push(self.ops[info.op as usize]);
    }
}
