//! The cover: necessary conditions checked on all the data, and a few of them chosen that are
//! together non-zero on every non-zero point, with some member of every zero orbit where all
//! are 0.

use crate::interp::run;
use crate::lang::Program;
use crate::problem::Problem;

use super::Split;

/// Conditions checked, the best ranked first.
pub(super) const MAX_CONDITIONS: usize = 2000;
/// Candidates the exact cover considers, and the nodes it may visit.
const EXACT_CANDIDATES: usize = 300;
const EXACT_NODES: u64 = 2_000_000;

/// Conditions checked on all the data, with what each covers.
pub(super) struct Checked {
    pub(super) programs: Vec<Program>,
    /// Per condition, the cover points where it is non-zero (bits).
    covers: Vec<Vec<u64>>,
    /// Per condition and orbit, the members where it is 0 (bits).
    members: Vec<Vec<Vec<u64>>>,
    /// Cover points.
    points: usize,
    orbits: usize,
}

/// What a condition covers: the cover points where it is non-zero, and per orbit the members
/// where it is 0 (bits).
type Cover = (Vec<u64>, Vec<Vec<u64>>);

fn bits(n: usize) -> Vec<u64> {
    vec![0; n.div_ceil(64)]
}

impl Checked {
    /// Checks `conditions`, best first, on all the zero examples, and finds where the first
    /// [`MAX_CONDITIONS`] that pass are non-zero among the `cover` points (in parallel, a
    /// chunk of conditions at a time); `None` when `stop` says so between chunks.
    pub(super) fn new(
        problem: &Problem,
        split: &Split,
        conditions: &[Program],
        cover: &[usize],
        stop: &dyn Fn() -> bool,
    ) -> Option<Self> {
        use rayon::prelude::*;
        let mask = problem.mask();
        let out = |p: &Program, point: usize| run(p, &problem.points[point], mask);
        let check = |p: &Program| -> Option<Cover> {
            if !split.zeros.iter().all(|&z| out(p, z) == Some(0)) {
                return None;
            }
            let mut members = Vec::with_capacity(split.orbits.len());
            for o in &split.orbits {
                let mut m = bits(o.len());
                for (i, &pt) in o.iter().enumerate() {
                    if out(p, pt) == Some(0) {
                        m[i / 64] |= 1 << (i % 64);
                    }
                }
                if m.iter().all(|&w| w == 0) {
                    return None;
                }
                members.push(m);
            }
            let mut covers = bits(cover.len());
            for (i, &pt) in cover.iter().enumerate() {
                if out(p, pt).is_some_and(|v| v != 0) {
                    covers[i / 64] |= 1 << (i % 64);
                }
            }
            Some((covers, members))
        };
        let mut checked = Checked {
            programs: Vec::new(),
            covers: Vec::new(),
            members: Vec::new(),
            points: cover.len(),
            orbits: split.orbits.len(),
        };
        for chunk in conditions.chunks(256) {
            if stop() {
                return None;
            }
            let passed: Vec<Option<Cover>> = chunk.par_iter().map(check).collect();
            for (p, result) in chunk.iter().zip(passed) {
                if checked.programs.len() >= MAX_CONDITIONS {
                    return Some(checked);
                }
                if let Some((covers, members)) = result {
                    checked.programs.push(p.clone());
                    checked.covers.push(covers);
                    checked.members.push(members);
                }
            }
        }
        Some(checked)
    }

    /// Conditions covering every cover point with some orbit member left where all are 0,
    /// of least total length (greedy, then an exact search among the best candidates below
    /// the greedy cost).
    pub(super) fn cover(&self) -> Option<Vec<usize>> {
        let greedy = self.greedy()?;
        let cost = |c: &[usize]| -> usize { c.iter().map(|&i| self.programs[i].len() + 1).sum() };
        let mut best = greedy.clone();
        let mut best_cost = cost(&greedy);
        // The exact search: candidates by coverage per instruction, best first.
        let mut order: Vec<usize> = (0..self.programs.len()).collect();
        let score = |i: usize| {
            let covered: u32 = self.covers[i].iter().map(|w| w.count_ones()).sum();
            covered as f64 / (self.programs[i].len() + 1) as f64
        };
        order.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
        order.truncate(EXACT_CANDIDATES);
        let mut nodes = 0u64;
        let mut full = bits(self.points);
        for i in 0..self.points {
            full[i / 64] |= 1 << (i % 64);
        }
        let members: Vec<Vec<u64>> = (0..self.orbits).map(|_| Vec::new()).collect();
        let mut chosen = Vec::new();
        self.exact(
            &order,
            0,
            &full,
            &members,
            &mut chosen,
            0,
            &mut best,
            &mut best_cost,
            &mut nodes,
        );
        Some(best)
    }

    fn covered_all(&self, covered: &[u64]) -> bool {
        (0..self.points).all(|i| covered[i / 64] >> (i % 64) & 1 == 1)
    }

    /// `members` narrowed by condition `c`, or `None` when an orbit would keep no member.
    fn narrow(&self, members: &[Vec<u64>], c: usize) -> Option<Vec<Vec<u64>>> {
        members
            .iter()
            .zip(&self.members[c])
            .map(|(have, m)| {
                let next: Vec<u64> = if have.is_empty() {
                    m.clone()
                } else {
                    have.iter().zip(m).map(|(a, b)| a & b).collect()
                };
                next.iter().any(|&w| w != 0).then_some(next)
            })
            .collect()
    }

    fn greedy(&self) -> Option<Vec<usize>> {
        let mut covered = bits(self.points);
        let mut members: Vec<Vec<u64>> = (0..self.orbits).map(|_| Vec::new()).collect();
        let mut chosen = Vec::new();
        while !self.covered_all(&covered) {
            let mut best: Option<(f64, usize, Vec<Vec<u64>>)> = None;
            for c in 0..self.programs.len() {
                let gain: u32 = self.covers[c]
                    .iter()
                    .zip(&covered)
                    .map(|(a, b)| (a & !b).count_ones())
                    .sum();
                if gain == 0 {
                    continue;
                }
                let score = gain as f64 / (self.programs[c].len() + 1) as f64;
                if best.as_ref().is_some_and(|b| b.0 >= score) {
                    continue;
                }
                if let Some(m) = self.narrow(&members, c) {
                    best = Some((score, c, m));
                }
            }
            let (_, c, m) = best?;
            for (w, x) in covered.iter_mut().zip(&self.covers[c]) {
                *w |= x;
            }
            members = m;
            chosen.push(c);
        }
        Some(chosen)
    }

    /// Branch and bound over `order[from..]`: covers cheaper than `best_cost`.
    #[allow(clippy::too_many_arguments)]
    fn exact(
        &self,
        order: &[usize],
        from: usize,
        missing: &[u64],
        members: &[Vec<u64>],
        chosen: &mut Vec<usize>,
        cost: usize,
        best: &mut Vec<usize>,
        best_cost: &mut usize,
        nodes: &mut u64,
    ) {
        *nodes += 1;
        if *nodes > EXACT_NODES {
            return;
        }
        // `missing` holds the points still to cover (set bits).
        if missing.iter().all(|&w| w == 0) {
            if cost < *best_cost {
                *best_cost = cost;
                *best = chosen.clone();
            }
            return;
        }
        // The first missing point must be covered by one of the remaining candidates.
        let first = (0..self.points)
            .find(|&i| missing[i / 64] >> (i % 64) & 1 == 1)
            .expect("a missing point");
        for (k, &c) in order.iter().enumerate().skip(from) {
            let step = self.programs[c].len() + 1;
            if cost + step >= *best_cost {
                continue;
            }
            if self.covers[c][first / 64] >> (first % 64) & 1 == 0 {
                continue;
            }
            let Some(narrowed) = self.narrow(members, c) else {
                continue;
            };
            let rest: Vec<u64> = missing
                .iter()
                .zip(&self.covers[c])
                .map(|(a, b)| a & !b)
                .collect();
            chosen.push(c);
            self.exact(
                order,
                k + 1,
                &rest,
                &narrowed,
                chosen,
                cost + step,
                best,
                best_cost,
                nodes,
            );
            chosen.pop();
        }
    }
}
