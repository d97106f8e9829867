//! Mining necessary conditions: programs enumerated bottom-up by length, one per distinct
//! vector of values on a sample of the points (observational equivalence), and those that are
//! 0 on the sample's zero positions (and on some member of each sampled zero orbit) kept as
//! candidates.
//!
//! Programs of a length are stored only while a longer candidate can still use them as an
//! operand; the candidates of the last length are built and tested lazily, zero positions first,
//! so that the many that are not 0 there cost one or two instructions each.

use std::ops::Range;

use ahash::{AHashMap, AHashSet};

use crate::interp::run;
use crate::lang::{Op, Program};
use crate::problem::Problem;

use super::{spread, Split};

/// Programs kept as operands, at most.
const MAX_STORED: usize = 300_000;
/// Work per length: instructions evaluated on sample points, at most.
const MAX_WORK: u64 = 1_500_000_000;
/// Zero positions in the sample.
const ZERO_SAMPLE: usize = 16;
/// Zero orbits in the sample, and their members at most (larger ones are left out).
const ORBIT_SAMPLE: usize = 48;
const ORBIT_SAMPLE_MEMBERS: usize = 24;
/// Non-zero positions in the sample.
const NONZERO_SAMPLE: usize = 32;

/// The sample's layout in a vector of values: zero positions, orbit members, non-zero
/// positions.
struct Sample {
    points: Vec<usize>,
    zeros: usize,
    orbits: Vec<Range<usize>>,
    /// Where the non-zero positions start.
    nonzero: usize,
}

impl Sample {
    fn of(split: &Split) -> Self {
        let mut points = spread(&split.zeros, ZERO_SAMPLE);
        let zeros = points.len();
        let small: Vec<&Vec<usize>> = split
            .orbits
            .iter()
            .filter(|o| o.len() <= ORBIT_SAMPLE_MEMBERS)
            .collect();
        let step = small.len().div_ceil(ORBIT_SAMPLE).max(1);
        let mut orbits = Vec::new();
        for o in small.into_iter().step_by(step) {
            let from = points.len();
            points.extend_from_slice(o);
            orbits.push(from..points.len());
        }
        let nonzero = points.len();
        points.extend(spread(&split.nonzero, NONZERO_SAMPLE));
        Sample {
            points,
            zeros,
            orbits,
            nonzero,
        }
    }

    /// Whether values `v` (computed on demand by `at`) are a possible condition's: 0 on the
    /// zero positions and on some member of every orbit, not 0 on every non-zero position.
    fn is_condition(&self, at: &mut impl FnMut(usize) -> u64) -> bool {
        (0..self.zeros).all(|j| at(j) == 0)
            && self.orbits.iter().all(|r| r.clone().any(|j| at(j) == 0))
            && (self.nonzero..self.points.len()).any(|j| at(j) != 0)
    }
}

/// How a program is built from stored ones.
#[derive(Clone, Copy)]
struct Node {
    op: Op,
    a: u32,
    b: u32,
}

/// Bottom-up enumeration, one length at a time.
pub(super) struct Miner<'p> {
    problem: &'p Problem,
    sample: Sample,
    unary: Vec<Op>,
    binary: Vec<Op>,
    leaves: Vec<Op>,
    /// Stored programs' values, `width` a program.
    values: Vec<u64>,
    nodes: Vec<Node>,
    by_hash: AHashMap<u64, Vec<u32>>,
    /// `levels[l]`: the stored programs of length `l`.
    levels: Vec<Range<u32>>,
    /// Conditions found, by the hash of their values on the sample.
    seen: AHashSet<u64>,
    /// The last length mined.
    pub(super) length: usize,
    /// Whether a length ran out of work or storage: longer ones are incomplete.
    pub(super) exhausted: bool,
}

fn hash(v: &[u64]) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = ahash::RandomState::with_seeds(1, 2, 3, 4).build_hasher();
    for &x in v {
        h.write_u64(x);
    }
    h.finish()
}

impl<'p> Miner<'p> {
    pub(super) fn new(problem: &'p Problem, split: &Split) -> Self {
        let ops = problem.ops.ops();
        let by_arity = |k: usize| ops.iter().copied().filter(|o| o.arity() == k).collect();
        Miner {
            problem,
            sample: Sample::of(split),
            leaves: by_arity(0),
            unary: by_arity(1),
            binary: by_arity(2),
            values: Vec::new(),
            nodes: Vec::new(),
            by_hash: AHashMap::new(),
            // Length 0 holds no programs.
            levels: std::iter::once(0..0).collect(),
            seen: AHashSet::new(),
            length: 0,
            exhausted: false,
        }
    }

    fn width(&self) -> usize {
        self.sample.points.len()
    }

    fn get(&self, i: u32) -> &[u64] {
        let w = self.width();
        &self.values[i as usize * w..(i as usize + 1) * w]
    }

    fn stored(&self, h: u64, v: &[u64]) -> bool {
        self.by_hash
            .get(&h)
            .is_some_and(|ids| ids.iter().any(|&i| self.get(i) == v))
    }

    /// The program `node` builds from stored programs.
    fn program(&self, node: Node) -> Program {
        fn walk(m: &Miner<'_>, n: Node, out: &mut Vec<Op>) {
            match n.op.arity() {
                0 => {}
                1 => walk(m, m.nodes[n.a as usize], out),
                _ => {
                    walk(m, m.nodes[n.a as usize], out);
                    walk(m, m.nodes[n.b as usize], out);
                }
            }
            out.push(n.op);
        }
        let mut out = Vec::new();
        walk(self, node, &mut out);
        Program(out)
    }

    /// The value of `node` at sample entry `j`.
    fn value(&self, node: Node, j: usize, mask: u64) -> u64 {
        match node.op.arity() {
            1 => node.op.apply(self.get(node.a)[j], 0, mask),
            _ => node
                .op
                .apply(self.get(node.a)[j], self.get(node.b)[j], mask),
        }
    }

    /// Mines the next length: returns its new conditions, each with the number of the
    /// sample's non-zero positions it is non-zero on (a first, coarse rank). Programs of this
    /// length are stored when `store` (a longer length will be mined on them).
    pub(super) fn next(
        &mut self,
        store: bool,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Vec<(Program, u32)> {
        self.length += 1;
        let len = self.length;
        if !store && len > 1 {
            return self.last(stop);
        }
        let from = self.nodes.len() as u32;
        let mask = self.problem.mask();
        let width = self.width();
        let mut found = Vec::new();
        let mut work = 0u64;
        let mut full = vec![0u64; width];
        // Every construction of this length, as (node).
        let mut nodes: Vec<Node> = Vec::new();
        if len == 1 {
            nodes.extend(self.leaves.iter().map(|&op| Node { op, a: 0, b: 0 }));
        }
        let constructions = |m: &Miner<'_>, out: &mut dyn FnMut(Node) -> bool| {
            for &op in &m.unary {
                for a in m.levels[len - 1].clone() {
                    if !out(Node { op, a, b: 0 }) {
                        return;
                    }
                }
            }
            for la in 1..len.saturating_sub(1) {
                let lb = len - 1 - la;
                for &op in &m.binary {
                    if op.is_commutative() && la > lb {
                        continue;
                    }
                    for a in m.levels[la].clone() {
                        for b in m.levels[lb].clone() {
                            if op.is_commutative() && la == lb && b < a {
                                continue;
                            }
                            if !out(Node { op, a, b }) {
                                return;
                            }
                        }
                    }
                }
            }
        };
        // This length's new programs (kept apart until the length is done: programs of one
        // length are never operands of one another), indexed by hash.
        let mut built: Vec<(u64, Vec<u64>, Node)> = Vec::new();
        let mut built_at: AHashMap<u64, Vec<usize>> = AHashMap::new();
        let mut visits = 0u64;
        let mut visit = |m: &Miner<'_>, node: Node| -> bool {
            visits += 1;
            if work > MAX_WORK || (visits.is_multiple_of(65_536) && stop()) {
                return false;
            }
            if len == 1 {
                for (j, &p) in m.sample.points.iter().enumerate() {
                    full[j] = run(&Program(vec![node.op]), &m.problem.points[p], mask).unwrap_or(0);
                }
                work += width as u64;
            } else {
                for (j, x) in full.iter_mut().enumerate() {
                    *x = m.value(node, j, mask);
                }
                work += width as u64;
            }
            let h = hash(&full);
            let known = m.stored(h, &full)
                || built_at
                    .get(&h)
                    .is_some_and(|ids| ids.iter().any(|&i| built[i].1 == full));
            if !known && (store || m.sample.is_condition(&mut |j| full[j])) {
                built_at.entry(h).or_default().push(built.len());
                built.push((h, full.clone(), node));
            }
            true
        };
        if len == 1 {
            for node in std::mem::take(&mut nodes) {
                visit(self, node);
            }
        } else {
            let me = &*self;
            constructions(me, &mut |node| visit(me, node));
        }
        if work > MAX_WORK {
            self.exhausted = true;
        }
        for (h, v, node) in built {
            if self.sample.is_condition(&mut |j| v[j]) && self.seen.insert(h) {
                let covered = v[self.sample.nonzero..].iter().filter(|&&x| x != 0).count();
                found.push((self.program(node), covered as u32));
            }
            if store && self.nodes.len() < MAX_STORED {
                let id = self.nodes.len() as u32;
                self.values.extend_from_slice(&v);
                self.nodes.push(node);
                self.by_hash.entry(h).or_default().push(id);
            } else if store {
                self.exhausted = true;
            }
        }
        self.levels.push(from..self.nodes.len() as u32);
        found
    }

    /// The last length: nothing is stored, so its constructions are tested in parallel (split
    /// by the first operand), lazily, zero positions first, and only the conditions are kept,
    /// by the hash of their values.
    fn last(&mut self, stop: &(dyn Fn() -> bool + Sync)) -> Vec<(Program, u32)> {
        use rayon::prelude::*;
        use std::sync::atomic::{AtomicU64, Ordering};
        let len = self.length;
        let mask = self.problem.mask();
        let width = self.width();
        let work = AtomicU64::new(0);
        let me = &*self;
        // Tests one construction; its hash and coarse rank when it is a condition.
        let test = |node: Node, full: &mut Vec<u64>, cost: &mut u64| -> Option<(u64, u32)> {
            let is = me.sample.is_condition(&mut |j| {
                *cost += 1;
                me.value(node, j, mask)
            });
            if !is {
                return None;
            }
            for (j, x) in full.iter_mut().enumerate() {
                *x = me.value(node, j, mask);
            }
            *cost += width as u64;
            let covered = full[me.sample.nonzero..]
                .iter()
                .filter(|&&x| x != 0)
                .count();
            Some((hash(full), covered as u32))
        };
        // One task per first operand `a` of an instruction and operand lengths.
        let shapes: Vec<(Op, usize, Option<usize>)> = self
            .unary
            .iter()
            .map(|&op| (op, len - 1, None))
            .chain((1..len.saturating_sub(1)).flat_map(|la| {
                let lb = len - 1 - la;
                self.binary
                    .iter()
                    .filter(move |op| !(op.is_commutative() && la > lb))
                    .map(move |&op| (op, la, Some(lb)))
            }))
            .collect();
        let mut found: Vec<(u64, Node, u32)> = Vec::new();
        for (op, la, lb) in shapes {
            if work.load(Ordering::Relaxed) > MAX_WORK || stop() {
                self.exhausted = true;
                break;
            }
            let part: Vec<(u64, Node, u32)> = me.levels[la]
                .clone()
                .into_par_iter()
                .flat_map_iter(|a| {
                    let mut full = vec![0u64; width];
                    let mut cost = 0u64;
                    let mut out = Vec::new();
                    if work.load(Ordering::Relaxed) <= MAX_WORK {
                        match lb {
                            None => {
                                let node = Node { op, a, b: 0 };
                                if let Some((h, c)) = test(node, &mut full, &mut cost) {
                                    out.push((h, node, c));
                                }
                            }
                            Some(lb) => {
                                let bs = me.levels[lb].clone();
                                // Commutative operands of one length: b >= a.
                                let bs = if op.is_commutative() && la == lb {
                                    a.max(bs.start)..bs.end
                                } else {
                                    bs
                                };
                                for b in bs {
                                    let node = Node { op, a, b };
                                    if let Some((h, c)) = test(node, &mut full, &mut cost) {
                                        out.push((h, node, c));
                                    }
                                }
                            }
                        }
                    }
                    work.fetch_add(cost, Ordering::Relaxed);
                    out
                })
                .collect();
            found.extend(part);
        }
        if work.load(Ordering::Relaxed) > MAX_WORK {
            self.exhausted = true;
        }
        let mut conditions = Vec::new();
        for (h, node, covered) in found {
            if self.seen.insert(h) {
                conditions.push((self.program(node), covered));
            }
        }
        self.levels
            .push(self.nodes.len() as u32..self.nodes.len() as u32);
        conditions
    }
}
