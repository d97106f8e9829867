//! Stochastic search over programs, as STOKE does for straight-line code: a Metropolis walk
//! whose cost is the number of examples a program fails (on a sample that grows by the
//! examples a zero-cost program still fails on the whole data), plus a little for its length.
//! Every move keeps the program a valid expression tree: change an instruction for another of
//! the same arity, replace a subtree by a small random one, wrap a subtree in a new binary
//! instruction with a leaf, unwrap a binary instruction to one of its operands, or swap the
//! operands of one. It proves nothing and may find nothing; what it finds passes every example.

use std::time::{Duration, Instant};

use crate::interp::run;
use crate::lang::{Op, Program};
use crate::problem::Problem;
use crate::solver::past;

/// The walk's own time limit when the search has none.
const SECONDS: u64 = 10;
/// Examples in the starting sample, and at most in the sample.
const SAMPLE: usize = 256;
const MAX_SAMPLE: usize = 2048;
/// Cost of a failed example, against one for each instruction.
const FAIL_COST: f64 = 8.0;
/// Inverse temperature of the walk.
const BETA: f64 = 0.7;
/// Proposals without a new best before the walk restarts from the best so far.
const RESTART: u64 = 200_000;
/// The walk's programs are at most this long (and `max_len`).
const MAX_WALK_LEN: usize = 31;

/// A small deterministic generator (xorshift64*): runs are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The instructions by arity.
struct Alphabet {
    leaves: Vec<Op>,
    unary: Vec<Op>,
    binary: Vec<Op>,
}

impl Alphabet {
    fn of(problem: &Problem) -> Self {
        let ops = problem.ops.ops();
        let by = |k: usize| ops.iter().copied().filter(|o| o.arity() == k).collect();
        Alphabet {
            leaves: by(0),
            unary: by(1),
            binary: by(2),
        }
    }

    fn same_arity(&self, op: Op) -> &[Op] {
        match op.arity() {
            0 => &self.leaves,
            1 => &self.unary,
            _ => &self.binary,
        }
    }

    /// A random tree of one or three instructions.
    fn small_tree(&self, rng: &mut Rng) -> Vec<Op> {
        let leaf = |rng: &mut Rng| self.leaves[rng.below(self.leaves.len())];
        match rng.below(3) {
            0 if !self.binary.is_empty() => {
                let op = self.binary[rng.below(self.binary.len())];
                vec![leaf(rng), leaf(rng), op]
            }
            1 if !self.unary.is_empty() => {
                vec![leaf(rng), self.unary[rng.below(self.unary.len())]]
            }
            _ => vec![leaf(rng)],
        }
    }
}

/// For each instruction, the first instruction of the subtree it roots.
fn starts(p: &[Op]) -> Vec<usize> {
    let mut s: Vec<usize> = Vec::with_capacity(p.len());
    for (j, op) in p.iter().enumerate() {
        let mut from = j;
        for _ in 0..op.arity() {
            from = s[from - 1];
        }
        s.push(from);
    }
    s
}

/// A random valid neighbour of `p`, at most `max_len` long.
fn propose(p: &[Op], a: &Alphabet, rng: &mut Rng, max_len: usize) -> Vec<Op> {
    let s = starts(p);
    let i = rng.below(p.len());
    let mut q: Vec<Op> = Vec::with_capacity(p.len() + 3);
    match rng.below(5) {
        // Another instruction of the same arity.
        0 => {
            q.extend_from_slice(p);
            let choices = a.same_arity(p[i]);
            q[i] = choices[rng.below(choices.len())];
        }
        // A subtree replaced by a small random tree.
        1 => {
            q.extend_from_slice(&p[..s[i]]);
            q.extend(a.small_tree(rng));
            q.extend_from_slice(&p[i + 1..]);
        }
        // A subtree wrapped: (subtree leaf op) or (leaf subtree op).
        2 if !a.binary.is_empty() => {
            let leaf = a.leaves[rng.below(a.leaves.len())];
            let op = a.binary[rng.below(a.binary.len())];
            q.extend_from_slice(&p[..s[i]]);
            if rng.below(2) == 0 {
                q.extend_from_slice(&p[s[i]..=i]);
                q.push(leaf);
            } else {
                q.push(leaf);
                q.extend_from_slice(&p[s[i]..=i]);
            }
            q.push(op);
            q.extend_from_slice(&p[i + 1..]);
        }
        // An instruction unwrapped to one of its operands.
        3 if p[i].arity() > 0 => {
            let right = i - 1;
            let keep = if p[i].arity() == 1 || rng.below(2) == 0 {
                s[right]..=right
            } else {
                s[i]..=s[right] - 1
            };
            q.extend_from_slice(&p[..s[i]]);
            q.extend_from_slice(&p[keep]);
            q.extend_from_slice(&p[i + 1..]);
        }
        // The operands of a binary instruction swapped.
        4 if p[i].arity() == 2 => {
            let right = i - 1;
            q.extend_from_slice(&p[..s[i]]);
            q.extend_from_slice(&p[s[right]..=right]);
            q.extend_from_slice(&p[s[i]..s[right]]);
            q.extend_from_slice(&p[i..]);
        }
        _ => {
            q.extend_from_slice(p);
            let choices = a.same_arity(p[i]);
            q[i] = choices[rng.below(choices.len())];
        }
    }
    if q.len() > max_len {
        return p.to_vec();
    }
    q
}

/// The walk's cost of a program on the sample: failed examples, then length.
fn cost(problem: &Problem, sample: &[usize], p: &[Op]) -> f64 {
    let program = Program(p.to_vec());
    let mask = problem.mask();
    let failed = sample
        .iter()
        .filter(|&&e| {
            !problem.examples[e]
                .holds(|pt| run(&program, &problem.points[pt], mask).unwrap_or(u64::MAX))
        })
        .count();
    failed as f64 * FAIL_COST + p.len() as f64
}

/// A program of at most `max_len` instructions passing every example, and the proposals made;
/// the walk runs until `deadline` (or `SECONDS` when there is none).
pub fn find(
    problem: &Problem,
    max_len: usize,
    deadline: Option<Instant>,
) -> Option<(Program, u64)> {
    let deadline = deadline.or(Some(Instant::now() + Duration::from_secs(SECONDS)));
    walk(problem, max_len, &|_| past(deadline))
}

/// The walk, until `done(proposals so far)` says so (checked every 256 proposals).
fn walk(problem: &Problem, max_len: usize, done: &dyn Fn(u64) -> bool) -> Option<(Program, u64)> {
    let alphabet = Alphabet::of(problem);
    if alphabet.leaves.is_empty() {
        return None;
    }
    let max_len = max_len.min(MAX_WALK_LEN);
    // Zero examples are few (a few percent of a box): the sample takes as many of them as of
    // the others, or the walk settles on "never 0".
    let (zero, other): (Vec<usize>, Vec<usize>) =
        (0..problem.examples.len()).partition(|&e| problem.examples[e].is_zero());
    let half = |v: &[usize]| -> Vec<usize> {
        let step = v.len().div_ceil(SAMPLE / 2).max(1);
        v.iter().copied().step_by(step).collect()
    };
    let mut sample: Vec<usize> = half(&zero);
    sample.extend(half(&other));
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut current = alphabet.small_tree(&mut rng);
    let mut current_cost = cost(problem, &sample, &current);
    let mut best = (current.clone(), current_cost);
    let mut since_best = 0u64;
    let mut steps = 0u64;
    let mut found: Option<Program> = None;
    while !done(steps) {
        for _ in 0..256 {
            steps += 1;
            let next = propose(&current, &alphabet, &mut rng, max_len);
            let next_cost = cost(problem, &sample, &next);
            let delta = next_cost - current_cost;
            if delta <= 0.0 || rng.unit() < (-BETA * delta).exp() {
                current = next;
                current_cost = next_cost;
            }
            since_best += 1;
            if current_cost < best.1 {
                best = (current.clone(), current_cost);
                since_best = 0;
            }
            if since_best > RESTART {
                current = best.0.clone();
                current_cost = best.1;
                since_best = 0;
            }
        }
        // A program passing the whole sample: check it on all the data.
        if best.1 < FAIL_COST && found.as_ref().is_none_or(|f| best.0.len() < f.len()) {
            let program = Program(best.0.clone());
            let failures = problem.failures(&program);
            if failures.is_empty() {
                found = Some(program);
            } else if sample.len() < MAX_SAMPLE {
                let step = failures.len().div_ceil(16).max(1);
                sample.extend(failures.into_iter().step_by(step));
                best.1 = cost(problem, &sample, &best.0);
                current_cost = cost(problem, &sample, &current);
            } else {
                // The sample cannot grow: this program cannot be made to pass.
                best.1 = f64::INFINITY;
            }
        }
        // Found, and nothing shorter in a while: done.
        if found.is_some() && since_best > RESTART / 2 {
            break;
        }
    }
    found.map(|p| (p, steps))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::tests::boxed;
    use crate::problem::Target;

    #[test]
    fn moves_keep_programs_valid_and_short_enough() {
        let problem = boxed("circular:4,2", 3, Target::Zero, false);
        let a = Alphabet::of(&problem);
        let mut rng = Rng(7);
        let mut p = a.small_tree(&mut rng);
        for _ in 0..20_000 {
            p = propose(&p, &a, &mut rng, 12);
            assert!(Program(p.clone()).is_valid(), "{p:?}");
            assert!(p.len() <= 12);
        }
    }

    /// CN(4,2)'s zero positions, x0 = x2 and x1 = x3, are found by the walk (from its fixed
    /// seed, within a fixed number of proposals): a program that passes every example.
    #[test]
    fn the_walk_finds_a_classifier_of_a_small_game() {
        let problem = boxed("circular:4,2", 4, Target::Zero, false);
        let (program, steps) = walk(&problem, 25, &|s| s > 1_000_000).expect("a classifier");
        assert!(problem.failures(&program).is_empty(), "{program}");
        assert!(program.len() <= 25 && steps <= 1_000_256);
    }
}
