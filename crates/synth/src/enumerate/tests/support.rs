//! Helpers of the enumerator's tests: reproducible random problems, brute-force enumeration of
//! every program, and small checks on programs.

use super::super::EnumBackend;
use crate::data::Points;
use crate::interp::run;
use crate::lang::{rules, Op, OpSet, Program};
use crate::problem::tests::boxed;
use crate::problem::{Example, Problem, Target};

/// splitmix64: reproducible pseudo-random numbers for the cross-checks.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub(super) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

pub(super) fn backend(threads: usize) -> EnumBackend {
    EnumBackend::new(threads, 1 << 30)
}

pub(super) fn satisfies(problem: &Problem, examples: &[usize], p: &Program) -> bool {
    let m = problem.mask();
    examples.iter().all(|&e| {
        problem.examples[e].holds(|pt| run(p, &problem.points[pt], m).expect("valid program"))
    })
}

/// Every valid program of each length 1..=max, as trees; with `rules`, only those whose every
/// node passes `lang::rules` (operand order included), as the SAT encodings see them.
pub(super) fn all_programs(ops: &[Op], max: usize, with_rules: bool) -> Vec<Vec<Program>> {
    let mut by_len: Vec<Vec<Program>> = vec![Vec::new(); max + 1];
    let root = |p: &Program| *p.0.last().unwrap();
    let consts = rules::Constants::of(ops);
    for l in 1..=max {
        let mut out = Vec::new();
        for &op in ops {
            match op.arity() {
                0 if l == 1 => out.push(Program(vec![op])),
                1 if l >= 2 => {
                    for c in &by_len[l - 1] {
                        if !with_rules || rules::unary_allowed(op, root(c), consts) {
                            let mut p = c.clone();
                            p.0.push(op);
                            out.push(p);
                        }
                    }
                }
                2 if l >= 3 => {
                    for a in 1..l - 1 {
                        for x in &by_len[a] {
                            for y in &by_len[l - 1 - a] {
                                if with_rules
                                    && !rules::binary_allowed_ignoring_chains(
                                        op,
                                        root(x),
                                        root(y),
                                        consts,
                                    )
                                {
                                    continue;
                                }
                                let mut p = x.clone();
                                p.0.extend_from_slice(&y.0);
                                p.0.push(op);
                                out.push(p);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        by_len[l] = out;
    }
    by_len
}

/// The root of `p` and the subprograms of its operands.
pub(super) fn operands(p: &Program) -> (Op, Vec<Program>) {
    let ops = &p.0;
    // The first position of the subtree that ends at `end`.
    let start = |end: usize| {
        let (mut i, mut need) = (end + 1, 1);
        while need > 0 {
            i -= 1;
            need = need + ops[i].arity() - 1;
        }
        i
    };
    let n = ops.len();
    let sub = |a: usize, b: usize| Program(ops[a..b].to_vec());
    let children = match ops[n - 1].arity() {
        0 => Vec::new(),
        1 => vec![sub(0, n - 1)],
        _ => {
            let right = start(n - 2);
            vec![sub(0, right), sub(right, n - 1)]
        }
    };
    (ops[n - 1], children)
}

/// A candidate of the last stages as (instructions before `v`, instructions after `v`, `v`'s
/// outputs), `v` being its first subtree of at most `len - 2` instructions down the longer
/// operands from the root: the operand of the level a skipped stage does not build.
pub(super) fn top_and_operand(
    p: &Program,
    outputs: &impl Fn(&[Op]) -> Vec<u64>,
) -> (Vec<Op>, Vec<Op>, Vec<u64>) {
    let ops = &p.0;
    let (mut from, mut to) = (0, ops.len());
    while to - from > ops.len() - 2 {
        let (_, kids) = operands(&Program(ops[from..to].to_vec()));
        let longest = kids.iter().map(|k| k.len()).max().unwrap();
        let k = kids.iter().position(|k| k.len() == longest).unwrap();
        let skipped: usize = kids[..k].iter().map(|k| k.len()).sum();
        (from, to) = (from + skipped, from + skipped + longest);
    }
    (
        ops[..from].to_vec(),
        ops[to..].to_vec(),
        outputs(&ops[from..to]),
    )
}

/// Widths of the random problems: every word size, and small widths where wrapping is common.
pub(super) const WIDTHS: [u32; 8] = [1, 2, 3, 4, 12, 20, 33, 64];

/// A random problem over `vars` variables at `width` bits with a few examples, half of them
/// made from the outputs of a random program (so that short solutions often exist).
pub(super) fn random_problem(rng: &mut Rng, vars: usize, width: u32, extras: bool) -> Problem {
    let ops = if extras {
        OpSet::with_edits(vars, "+Mod,+Min,+Max,+Lt,+Const(2)").unwrap()
    } else {
        OpSet::thesis(vars)
    };
    let m = crate::interp::mask(width);
    let npoints = 3 + rng.below(5) as usize;
    let mut points = Points::with_capacity(vars, npoints);
    for _ in 0..npoints {
        let x: Vec<u64> = (0..vars).map(|_| rng.below(m.min(5) + 1)).collect();
        points.push(&x);
    }
    let hidden: Option<Program> = (rng.below(2) == 0).then(|| {
        let len = 1 + 2 * rng.below(3) as usize;
        let all = all_programs(ops.ops(), len, false);
        all[len][rng.below(all[len].len() as u64) as usize].clone()
    });
    let mut examples = Vec::new();
    for (p, x) in points.iter().enumerate() {
        let out = hidden.as_ref().map(|h| run(h, x, m).unwrap());
        let kind = rng.below(3);
        examples.push(match (kind, out) {
            (0, Some(v)) | (1, Some(v @ 0)) => Example::Equals { point: p, value: v },
            (0, None) => Example::Equals {
                point: p,
                value: rng.below(m.min(7) + 1),
            },
            (1, _) => Example::NonZero { point: p },
            _ => {
                let q = rng.below(npoints as u64) as usize;
                Example::SomeZero {
                    points: if q == p { vec![p] } else { vec![p, q] },
                    boolean: rng.below(2) == 0,
                }
            }
        });
    }
    // Fields set one by one, so the test keeps compiling when `Problem` gains fields.
    let mut problem = boxed("path:3", 2, Target::Zero, false);
    problem.ops = ops;
    problem.width = width;
    problem.values = vec![0; npoints];
    problem.points = points;
    problem.examples = examples;
    problem.source = "random".into();
    problem
}

/// `count` random problems from `seed` (with their case numbers): 2 or 3 variables in turn,
/// widths from `widths` two cases each, the extra instructions in every third case.
pub(super) fn random_cases(
    seed: u64,
    count: usize,
    widths: &[u32],
) -> impl Iterator<Item = (usize, Problem)> + '_ {
    let mut rng = Rng(seed);
    (0..count).map(move |case| {
        let vars = 2 + case % 2;
        let width = widths[case / 2 % widths.len()];
        (
            case,
            random_problem(&mut rng, vars, width, case % 3 == 2 && width > 1),
        )
    })
}
