//! The last length: programs are only checked, never stored. A program of length `L >= 3` is a
//! binary instruction over levels `a + b = L - 1`, a unary one over a binary one over levels
//! `a + b = L - 2`, or two unary ones over level `L - 2`; all three are checked pair by pair
//! (class by class) without building level `L - 1`, stopping at the first example a candidate
//! fails. With index columns (example points with wanted values, width <= 8), the larger level
//! is scanned inside, and there only the classes whose values at those points give what the
//! examples want with the outer operand's are visited ([`Gen::walk`]); roots that a 0 operand
//! forces to 0 skip operands with a 0 where the output must not be 0.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use ahash::AHashMap;
use rayon::prelude::*;

use super::halt::Halt;
use super::index::IndexTable;
use super::kernel::{unary, with_binary, Word};
use super::search::{Form, Gen, Group, Job, Scan};
use super::share::{self, Hits};
use super::store::BUCKETS;
use crate::lang::{Op, Program};

impl<T: Word> Gen<'_, T> {
    /// The program `root` over the classes `children`.
    pub(super) fn build(&self, children: &[u32], root: Op) -> Program {
        let mut ops = Vec::new();
        for &c in children {
            self.program(c, &mut ops);
        }
        ops.push(root);
        Program(ops)
    }

    /// The index table of the root of a binary form ([`IndexTable`]), the outer operand on
    /// the right with `swap`.
    fn form_table(&self, form: Form, swap: bool) -> IndexTable {
        let (ix, mask) = (self.index.as_ref().expect("index columns"), self.mask);
        let table = |h: &dyn Fn(u64, u64) -> u64| {
            IndexTable::new(ix, mask, |x, y| if swap { h(y, x) } else { h(x, y) })
        };
        match form {
            Form::Binary(op) => with_binary!(self.ops[op], mask, f => table(&f)),
            Form::UnaryBinary(g, op) => with_binary!(self.ops[op], mask, f => {
                let g = self.ops[g];
                table(&|x, y| unary(g, f(x, y), mask))
            }),
            _ => unreachable!("unary forms have no index"),
        }
    }

    /// For a root computing `h`: whether a 0 as the left (right) operand makes it give 0
    /// whatever the other operand (decided on every pair of values, so at width <= 8 only).
    fn nonzero_operands(&self, h: &impl Fn(u64, u64) -> u64) -> [bool; 2] {
        if self.mask > 0xff || self.nonzero.is_empty() {
            return [false; 2];
        }
        let m = self.mask;
        [(0..=m).all(|y| h(0, y) == 0), (0..=m).all(|x| h(x, 0) == 0)]
    }

    /// How a binary-form job is scanned: whether the outer loop runs over the right operands
    /// (the index serves the inner loop, so the larger level goes inside), and whether the
    /// inner level is searched through the index.
    fn layout(&self, job: &Job) -> (bool, bool) {
        if matches!(job.form, Form::UnaryUnary(..)) {
            return (false, false);
        }
        let swap = job.a != job.b && self.levels[job.a].len > self.levels[job.b].len;
        let inner = &self.levels[if swap { job.a } else { job.b }];
        let indexed = self.index.is_some()
            && inner.len >= self.index_min
            && inner.segs.iter().all(|s| s.buckets.len() == BUCKETS + 1);
        (swap && indexed, indexed)
    }

    /// Calls `found` with the program of each candidate of a last-level job that passes every
    /// check, until `found` returns false; `table` is the job's index table if it has one.
    /// Returns whether the job was searched to the end.
    fn check_job(
        &self,
        job: &Job,
        table: Option<&IndexTable>,
        halt: impl Fn() -> bool,
        mut found: impl FnMut(Program) -> bool,
    ) -> bool {
        let mask = self.mask;
        let swap = self.layout(job).0;
        match job.form {
            Form::UnaryUnary(g, g2) => {
                let (g, h) = (self.ops[g], self.ops[g2]);
                self.singles(job, g2, halt, |id, v| {
                    let ok = self
                        .checker
                        .holds(|c| unary(g, unary(h, v[c].get(), mask), mask));
                    if !ok {
                        return true;
                    }
                    let mut p = self.build(&[id], h);
                    p.0.push(g);
                    found(p)
                })
            }
            Form::Binary(op) => with_binary!(self.ops[op], mask, f => {
                let nonzero = self.nonzero_operands(&f);
                let how = Scan { index: table, swap, nonzero };
                self.pairs(job, op, how, halt, |uid, u, wid, w| {
                    let ok = self.checker.holds(|c| f(u[c].get(), w[c].get()));
                    ok.then(|| self.build(&[uid, wid], self.ops[op])).is_none_or(&mut found)
                })
            }),
            Form::UnaryBinary(g, op) => with_binary!(self.ops[op], mask, f => {
                let g = self.ops[g];
                let h = |x: u64, y: u64| unary(g, f(x, y), mask);
                let nonzero = self.nonzero_operands(&h);
                let how = Scan { index: table, swap, nonzero };
                self.pairs(job, op, how, halt, |uid, u, wid, w| {
                    let ok = self.checker.holds(|c| h(u[c].get(), w[c].get()));
                    if !ok {
                        return true;
                    }
                    let mut p = self.build(&[uid, wid], self.ops[op]);
                    p.0.push(g);
                    found(p)
                })
            }),
            Form::Unary(_) => unreachable!("the last level has no plain unary jobs"),
        }
    }

    /// The groups of the last level for `len >= 3`, in search order: the root form and the
    /// levels of its operands.
    pub fn groups(&self, len: usize) -> Vec<Group> {
        let ops = self.ops;
        let unary_ops: Vec<usize> = (0..ops.len()).filter(|&o| ops[o].arity() == 1).collect();
        let mut out = Vec::new();
        for &g in &unary_ops {
            for &g2 in &unary_ops {
                if self.rules.unary_over_root(ops[g], ops[g2]) {
                    out.push((Form::UnaryUnary(g, g2), len - 2, 0));
                }
            }
        }
        let mut binary = |form: Form, op: Op, sum: usize| {
            for a in 1..sum {
                if !(op.is_commutative() && a > sum - a) {
                    out.push((form, a, sum - a));
                }
            }
        };
        for &g in &unary_ops {
            for (f, &op) in ops.iter().enumerate() {
                if op.arity() == 2 && self.rules.unary_over_root(ops[g], op) {
                    binary(Form::UnaryBinary(g, f), op, len - 2);
                }
            }
        }
        for (f, &op) in ops.iter().enumerate() {
            if op.arity() == 2 {
                binary(Form::Binary(f), op, len - 1);
            }
        }
        out
    }

    /// A program of exactly `len` instructions satisfying the checker, if one exists among
    /// `groups` (for `len >= 3`; see [`Self::groups`]), whose levels must be stored. Of several
    /// programs the one of the first job is returned, so the answer does not depend on the
    /// thread count. Groups searched to the end without a hit are added to `refuted`, also when
    /// the deadline stops the search. With `all`, every candidate that passes is pushed there
    /// instead (one program per pair of classes; for tests).
    pub fn search_final(
        &self,
        len: usize,
        groups: &[Group],
        all: Option<&Mutex<Vec<Program>>>,
        refuted: &mut Vec<Group>,
    ) -> Result<Option<Program>, Halt> {
        let (n, mask) = (self.n, self.mask);
        let push = |p: Program| {
            let all = all.expect("collecting");
            all.lock().unwrap_or_else(|e| e.into_inner()).push(p);
            true
        };
        if len <= 2 {
            let unary_ops = self.ops.iter().filter(|o| o.arity() == 1 && len == 2);
            for s in &self.levels[1].segs {
                let (root, v) = (self.ops[s.info[0].op as usize], s.vec(0, n));
                let mut hits = Vec::new();
                if len == 1 && self.checker.holds(|c| v[c].get()) {
                    hits.push(Program(vec![root]));
                }
                for &u in unary_ops.clone() {
                    if self.rules.unary_over_root(u, root)
                        && self.checker.holds(|c| unary(u, v[c].get(), mask))
                    {
                        hits.push(Program(vec![root, u]));
                    }
                }
                for p in hits {
                    if all.is_none() {
                        return Ok(Some(p));
                    }
                    push(p);
                }
            }
            return Ok(None);
        }
        let mut jobs = Vec::new();
        let mut group_of = Vec::new();
        for (g, &(form, a, b)) in groups.iter().enumerate() {
            self.jobs(form, a, b, &mut jobs);
            group_of.resize(jobs.len(), g);
        }
        // This rank's jobs of each group not yet searched to the end.
        let pending: Vec<AtomicUsize> = groups.iter().map(|_| AtomicUsize::new(0)).collect();
        for (k, &g) in group_of.iter().enumerate() {
            if share::takes(self.team, k) {
                pending[g].fetch_add(1, Ordering::Relaxed);
            }
        }
        // Index tables, once per root form and orientation.
        let mut keys: Vec<(Form, bool)> = jobs
            .iter()
            .filter_map(|j| {
                let (swap, indexed) = self.layout(j);
                indexed.then_some((j.form, swap))
            })
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let tables: AHashMap<(Form, bool), IndexTable> = self
            .pool
            .install(|| {
                keys.into_par_iter()
                    .map(|(form, swap)| ((form, swap), self.form_table(form, swap)))
                    .collect::<Vec<_>>()
            })
            .into_iter()
            .collect();
        let hits = Hits::new();
        share::run_jobs(self.team, self.pool, jobs.len(), &hits, self.stop, |k| {
            let job = &jobs[k];
            let halt = || hits.beaten(k) || self.stop.poll();
            if halt() {
                return;
            }
            let (swap, indexed) = self.layout(job);
            let table = indexed.then(|| &tables[&(job.form, swap)]);
            let complete = self.check_job(job, table, halt, |p| {
                if all.is_some() {
                    return push(p);
                }
                hits.record(k, p);
                false
            });
            if complete {
                pending[group_of[k]].fetch_sub(1, Ordering::Relaxed);
            }
        });
        if all.is_none() {
            let done = |g: &usize| pending[*g].load(Ordering::Relaxed) == 0;
            let done = (0..groups.len()).filter(done).collect();
            let done = share::on_every_rank(self.team, done, groups.len());
            refuted.extend(done.into_iter().map(|g| groups[g]));
        }
        match hits.into_program() {
            Some(p) => Ok(Some(p)),
            None if self.stop.raised() => Err(Halt::Timeout),
            None => Ok(None),
        }
    }
}
