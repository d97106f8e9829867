//! The `--solver enum` backend: bottom-up enumeration by length with observational equivalence.
//!
//! # Method
//!
//! A program is an expression tree, and its outputs on the example points are a function of its
//! root instruction and its children's outputs there. Level 1 holds the leaves (pushes and
//! constants); level `l` is built from unary instructions over level `l - 1` and binary ones over
//! levels `a + b = l - 1`. Every candidate is represented by its *output vector* on the points
//! of the examples added so far (one word per point, `u8` up to width 8, then `u16`, `u32`,
//! `u64`), and a level keeps one class per distinct vector, with back-pointers (instruction and
//! child class ids) to rebuild a representative program. Satisfying the examples depends only on
//! the vector, so the question "does some program of exactly `L` instructions satisfy them" is
//! decided exactly on classes.
//!
//! **Exact length (classes per level).** A vector reached at several lengths has a class at each
//! of them: replacing a subtree by a shorter equivalent one changes the length, so dropping
//! vectors seen at shorter lengths would make [`Found::Refuted`] mean "nothing of length <= L",
//! which is only the same as "nothing of length L" when every shorter length was searched on
//! the same examples, and CEGIS skips lengths below the dependency bound without a search. With
//! classes per level the level-`l` vectors are exactly those of programs of length `l`, by
//! induction on `l` (test `levels_are_exactly_the_reachable_vectors`).
//!
//! **The last length** is never stored (`last.rs`): a program of length `L >= 3` is a binary
//! instruction over levels `a + b = L - 1`, a unary one over a binary one over `a + b = L - 2`,
//! or two unary ones over level `L - 2`; each such *group* (root form and operand levels) is
//! checked pair by pair, stopping at the first example a pair fails. Only levels `1..=L-2` are
//! stored (`1..=L-4` with the last stages below), and only as far as needed: groups are searched
//! in stages by the highest level they read, and a level is built only when the stages before
//! it found nothing. Where examples ask for exact values (width <= 8), stored segments are
//! sorted by their classes' values at up to 8 such points, and for each outer operand the
//! larger level is walked in that order point by point, visiting only the classes whose values
//! there give the wanted ones with the outer operand's (tests
//! `last_level_accepts_exactly_the_solutions`, `deep_stage_finds_what_the_built_level_finds`).
//! Each class also records where it is 0 among the points that must not give 0; when a 0 as
//! one operand makes the root give 0 whatever the other (`And`, `Mul`, `Div`, shifts on the
//! left, at width <= 8), classes with such a 0 are skipped on that side.
//!
//! **The last stages** (`deep.rs`), whose groups read level `L - 2` (an instruction over it
//! and a leaf, or two unary ones over it) and level `L - 3` (an instruction over it and a class
//! of length 2, or a unary one over an instruction over it and a leaf), do not build those
//! levels at width <= 8: each construction of a vector of the skipped levels is checked against
//! all of the stages' tops at once through per-column tables. These are the largest levels a
//! search would store (25 million and 2.3 million classes on CN(4,3)'s length 11), so the
//! deepest level stored is `L - 4`; level `L - 3` is skipped only when level `L - 4` is large
//! enough for that to pay (test `deep_stage_finds_what_the_built_level_finds`).
//!
//! **Pruning.** The search covers the *rule space* of the other backends without the chain rule
//! (`rules::chain_allowed`, which reads inner roots
//! that a class of equal vectors does not have): programs in which every node passes
//! `rules::binary_allowed_ignoring_chains`
//! and the unary rules, except that a commutative node may have its operands in either order (commutative instructions are applied to each unordered
//! pair of classes once). The two spaces reach the same vectors at every length: swapping the
//! operands of a commutative node keeps its value, its length and its root, so it satisfies the
//! order rule after a swap, and no other node sees the difference. The rules read the *root
//! instructions* of the operands, and with observational equivalence a class has members with
//! different roots. So rules are applied to what is known of the members' roots
//! (`Kind` in `kernel.rs`): a leaf is a class of its own; an inner class's representative prefers a
//! root other than `Not`, so it is rooted at `Not` only when every member is; otherwise a
//! member may have any inner root. A combination is dropped only when the rules reject it for
//! *every* possible choice of member roots. Hence no vector that a rule-respecting program of
//! length `l` reaches is ever dropped ([`Found::Refuted`] is exhaustive over the rule space),
//! and with the current rules, which look at inner roots only for `Not` under `Not` and for
//! operand order, it is exact (tests `rules_see_only_leaves_and_not` and the cross-checks).
//!
//! **Why the rule space is enough.** A rule rejects a node only when it equals, everywhere and
//! not just on the examples, a shorter program or its own operand swap. A shortest program
//! classifying the data has no node of the first kind (replacing that subtree would make it
//! shorter), and nodes of the second kind are swapped, so the rule space holds a program of the
//! shortest length. CEGIS tries lengths in increasing order, so the first length found is the
//! true minimum. At longer lengths a refutation can be "only in the rule space" (`x Zero Plus`
//! is never built), exactly as with the SAT and SMT encodings, which share the rules.
//!
//! **Across solves.** A group searched to the end without a solution stays without one when
//! examples are added (they only grow), so later solves of the same length skip it; the levels
//! themselves are rebuilt on the new points (classes split; nothing else is reusable).
//!
//! **Parallelism and determinism.** Work is split into jobs (a form over a range of segments
//! of each operand level, or over a part of one large pair of segments) run on a rayon pool of
//! `threads`. A level's candidates are staged per thread, partitioned by hash, and merged shard
//! by shard, so no lock is taken per candidate.
//! Of equal vectors the least (not rooted at `Not`, instruction, children) represents the class
//! and segments are sorted, so ids and programs do not depend on thread timing; the last level
//! returns the hit of the earliest job.
//!
//! **Ranks.** Under MPI ([`EnumBackend::team`]) every rank builds the same levels, the last
//! level's jobs are dealt among the ranks in rounds, and the ranks agree after each round on
//! the earliest hit and on stopping (`share.rs`), so each returns what a single process returns.
//!
//! **Memory.** A stored class costs `n * word + 20` bytes (vector, back-pointers and zero
//! mask; `n` points) plus about 10 bytes of hash table while its level is built, and staging up
//! to about 128 MiB; the last stages store no classes, only tables of at most 32 KiB per point.
//! Every allocation that grows with the classes is charged to a meter before it is made; when
//! the limit would be passed the search stops with [`Error::Resource`], saying how far the level
//! got and, when enough of it was built to tell, what it alone would take.

mod deep;
mod halt;
mod index;
mod kernel;
mod last;
mod search;
mod share;
mod store;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::time::Instant;

use ahash::AHashSet;
use rayon::{ThreadPool, ThreadPoolBuilder};

use self::halt::{Halt, Stop};
use self::kernel::{Checker, Rules, Word};
use self::search::{Gen, Group};
use self::store::Meter;
use super::lang::Op;
use super::problem::Problem;
use super::solver::{past, Backend, Found, LengthSearch, Method};
use grundy_core::cluster::{Solo, Team};
use grundy_core::error::Error;

/// Enumeration with observational equivalence (`--solver enum`).
#[derive(Clone, Debug)]
pub struct EnumBackend {
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Bytes the stored levels may take; going past it is an [`Error::Resource`].
    pub memory_limit: u64,
    /// The ranks sharing the last level's jobs (`share.rs`): each builds the same levels and
    /// searches its share, and all return the same answers, those of a single process.
    pub team: Arc<dyn Team>,
}

impl EnumBackend {
    /// A search on one process.
    pub fn new(threads: usize, memory_limit: u64) -> Self {
        EnumBackend {
            threads,
            memory_limit,
            team: Arc::new(Solo),
        }
    }
}

impl Backend for EnumBackend {
    fn method(&self) -> Method {
        Method::Enum
    }

    fn start<'p>(
        &self,
        problem: &'p Problem,
        length: usize,
    ) -> Result<Box<dyn LengthSearch + 'p>, Error> {
        // A rank that cannot start its search stops the others before their first step.
        let search = EnumSearch::new(problem, length, self, true);
        Ok(Box::new(self.team.settle(search)?))
    }
}

/// The search for programs of one length; levels are rebuilt on every solve.
pub(crate) struct EnumSearch<'p> {
    problem: &'p Problem,
    length: usize,
    examples: Vec<usize>,
    memory_limit: u64,
    rules: Rules,
    pool: ThreadPool,
    team: Arc<dyn Team>,
    /// Levels with fewer classes are not searched through the index (tests lower it).
    pub(crate) index_min: u32,
    /// Classes per stored segment, at least (tests lower it).
    pub(crate) segment_min: usize,
    /// Index walks scan ranges of at most this many classes whole (tests lower it).
    pub(crate) scan_below: usize,
    /// The last two stages skip their levels from this size of level `L - 4` on (tests lower it).
    pub(crate) deep_from: u32,
    /// Last-level groups searched to the end without a solution: examples only grow, so
    /// they stay without one and later solves skip them.
    refuted: AHashSet<Group>,
}

impl<'p> EnumSearch<'p> {
    /// A search over exactly `length` instructions; with `prune` false the rules are off (every
    /// valid program is in the space), which the tests use.
    pub(crate) fn new(
        problem: &'p Problem,
        length: usize,
        backend: &EnumBackend,
        prune: bool,
    ) -> Result<Self, Error> {
        let pool = ThreadPoolBuilder::new()
            .num_threads(backend.threads)
            .build()
            .map_err(|e| Error::Resource(format!("cannot start worker threads: {e}")))?;
        Ok(EnumSearch {
            problem,
            length,
            examples: Vec::new(),
            memory_limit: backend.memory_limit,
            rules: Rules::new(problem.ops.ops(), prune),
            pool,
            team: backend.team.clone(),
            index_min: 1 << 9,
            segment_min: 1 << 14,
            scan_below: 8,
            deep_from: deep::TWO_LEVELS_FROM,
            refuted: AHashSet::new(),
        })
    }

    /// The level builder for one solve.
    fn gen<'a, T: Word>(
        &'a self,
        checker: &'a Checker,
        stop: &'a Stop,
        meter: &'a Meter,
    ) -> Gen<'a, T> {
        let ops = self.problem.ops.ops();
        Gen {
            n: checker.points.len(),
            mask: self.problem.mask(),
            ops,
            rules: &self.rules,
            checker,
            stop,
            meter,
            pool: &self.pool,
            team: &*self.team,
            is_not: ops.iter().map(|&o| o == Op::Not).collect(),
            index: checker.index().filter(|_| self.problem.width <= 8),
            index_min: self.index_min,
            segment_min: self.segment_min,
            scan_below: self.scan_below,
            nonzero: checker.nonzero_columns(),
            deep_from: self.deep_from,
            levels: Vec::new(),
        }
    }

    fn run<T: Word>(&mut self, deadline: Option<Instant>) -> Result<Found, Error> {
        let problem = self.problem;
        let checker = Checker::new(problem, &self.examples);
        let stop = Stop::new(deadline);
        let meter = Meter::new(self.memory_limit);
        let this = &*self;
        let mut gen = this.gen::<T>(&checker, &stop, &meter);
        let len = self.length;
        let mut refuted = Vec::new();
        // Every step that can halt is settled among the ranks before the next collective one,
        // so that all take the same steps (`share.rs`).
        let team = &*self.team;
        let mut search = || {
            share::settle(team, gen.leaves(problem))?;
            if len <= 2 {
                return gen.search_final(len, &[], None, &mut refuted);
            }
            let mut groups = gen.groups(len);
            groups.retain(|g| !this.refuted.contains(g));
            // In stages by the highest level a group reads, building each level only when the
            // stages before it found nothing: a hit among balanced shapes spares the largest
            // levels.
            let top = |&(_, a, b): &Group| a.max(b);
            groups.sort_by_key(top);
            let mut from = 0;
            for stage in groups.chunk_by(|x, y| top(x) == top(y)) {
                let (t, rest) = (top(&stage[0]), &groups[from..]);
                from += stage.len();
                share::settle(team, gen.build_up_to(t - 1))?;
                // The last stages go without their largest levels when they can (`deep.rs`).
                if t + 3 >= len {
                    if let Some(skip) = gen.deep_skip(len, rest) {
                        share::settle(team, gen.build_up_to(len - 2 - skip))?;
                        return gen.search_deep(len, rest, skip, None, &mut refuted);
                    }
                }
                share::settle(team, gen.build_up_to(t))?;
                if let Some(p) = gen.search_final(len, stage, None, &mut refuted)? {
                    return Ok(Some(p));
                }
            }
            Ok(None)
        };
        let result = search();
        self.refuted.extend(refuted);
        match result {
            Ok(Some(p)) => {
                debug_assert!(p.len() == self.length && p.is_valid(), "{p}");
                Ok(Found::Program(p))
            }
            Ok(None) => Ok(Found::Refuted),
            Err(Halt::Timeout) => Ok(Found::Timeout),
            Err(Halt::Memory {
                level,
                fraction,
                estimate,
            }) => {
                let (len, points) = (self.length, checker.points.len());
                let limit = grundy_core::units::format_bytes(self.memory_limit);
                let alone = match estimate {
                    Some(b) => format!(
                        ", and it alone would take about {}",
                        grundy_core::units::format_bytes(b)
                    ),
                    None => String::new(),
                };
                Err(Error::Resource(format!(
                    "enumeration for length {len} needs more memory than the limit of {limit}: \
                     the limit was reached with level {level} of {} (on {points} example \
                     points) {:.0}% built{alone}",
                    len.saturating_sub(2),
                    100.0 * fraction
                )))
            }
            Err(Halt::Ids { level }) => Err(Error::Resource(format!(
                "enumeration would need 2^32 or more classes of length {level} for length {}",
                self.length
            ))),
        }
    }
}

/// The classes of levels `1..=levels` on the examples added so far: the point of each column,
/// and per level each class's vector and whether it is known to be rooted at `Not` only.
#[cfg(test)]
type Classes = (Vec<usize>, Vec<Vec<(Vec<u64>, bool)>>);

#[cfg(test)]
impl EnumSearch<'_> {
    pub(crate) fn classes(&self, levels: usize) -> Classes {
        let checker = Checker::new(self.problem, &self.examples);
        let (stop, meter) = (Stop::new(None), Meter::new(self.memory_limit));
        let mut gen = self.gen::<u64>(&checker, &stop, &meter);
        gen.leaves(self.problem).unwrap();
        for l in 2..=levels {
            gen.build_level(l).unwrap();
        }
        let out = gen.levels[1..]
            .iter()
            .enumerate()
            .map(|(l, level)| {
                let segs = level.segs.iter();
                segs.flat_map(|s| (0..s.len()).map(move |i| (s, i)))
                    .map(|(s, i)| {
                        let v = s.vec(i, gen.n).to_vec();
                        (v, l > 0 && gen.is_not[s.info[i].op as usize])
                    })
                    .collect()
            })
            .collect();
        (checker.points.clone(), out)
    }

    /// Every candidate of the last level that passes the examples (one program per pair of
    /// classes and root form), for tests.
    pub(crate) fn all_hits(&self) -> Vec<crate::lang::Program> {
        let checker = Checker::new(self.problem, &self.examples);
        let (stop, meter) = (Stop::new(None), Meter::new(self.memory_limit));
        let mut gen = self.gen::<u64>(&checker, &stop, &meter);
        gen.leaves(self.problem).unwrap();
        for l in 2..=self.length.saturating_sub(2) {
            gen.build_level(l).unwrap();
        }
        let all = std::sync::Mutex::new(Vec::new());
        let groups = if self.length >= 3 {
            gen.groups(self.length)
        } else {
            Vec::new()
        };
        gen.search_final(self.length, &groups, Some(&all), &mut Vec::new())
            .unwrap();
        all.into_inner().unwrap()
    }
}

#[cfg(test)]
impl EnumSearch<'_> {
    /// Every candidate of the last `stages` stages (largest operand level `length - 2`, and
    /// `length - 3` with 2) that passes the examples: with `deep` without building those
    /// levels (`deep.rs`), else over them.
    pub(crate) fn top_stage_hits(&self, stages: usize, deep: bool) -> Vec<crate::lang::Program> {
        let checker = Checker::new(self.problem, &self.examples);
        let (stop, meter) = (Stop::new(None), Meter::new(self.memory_limit));
        let mut gen = self.gen::<u64>(&checker, &stop, &meter);
        let len = self.length;
        gen.leaves(self.problem).unwrap();
        let skip = if deep { stages } else { 0 };
        gen.build_up_to(len - 2 - skip).unwrap();
        let mut groups = gen.groups(len);
        groups.retain(|&(_, a, b)| a.max(b) >= len - 1 - stages);
        let all = std::sync::Mutex::new(Vec::new());
        if deep {
            assert_eq!(gen.deep_skip(len, &groups), Some(skip));
            gen.search_deep(len, &groups, skip, Some(&all), &mut Vec::new())
        } else {
            gen.search_final(len, &groups, Some(&all), &mut Vec::new())
        }
        .unwrap();
        all.into_inner().unwrap()
    }
}

impl LengthSearch for EnumSearch<'_> {
    fn add_example(&mut self, index: usize) -> Result<(), Error> {
        if index >= self.problem.examples.len() {
            return Err(Error::Usage(format!("no example {index}")));
        }
        if !self.examples.contains(&index) {
            self.examples.push(index);
        }
        Ok(())
    }

    fn solve(&mut self, deadline: Option<Instant>) -> Result<Found, Error> {
        if self.team.any(past(deadline)) {
            return Ok(Found::Timeout);
        }
        if self.length == 0 {
            return Ok(Found::Refuted);
        }
        match self.problem.width {
            0..=8 => self.run::<u8>(deadline),
            9..=16 => self.run::<u16>(deadline),
            17..=32 => self.run::<u32>(deadline),
            _ => self.run::<u64>(deadline),
        }
    }
}
