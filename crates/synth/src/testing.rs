//! Test helpers of the synthesis crate: the run length switch of the core's helpers, and
//! random programs for agreement tests.

pub(crate) use grundy_core::testing::{cases, full};

/// `count` random valid programs over `vars` variables from `ops` (and pushes, a third of the
/// instructions), at most 9 instructions long, from a fixed seed.
pub(crate) fn random_programs(
    seed: u64,
    vars: u8,
    count: usize,
    ops: &[crate::lang::Op],
) -> Vec<crate::lang::Program> {
    use crate::lang::{Op, Program};
    let mut seed = seed;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let mut out = Vec::new();
    while out.len() < count {
        let len = 1 + next(9);
        let p = Program(
            (0..len)
                .map(|_| match next(3) {
                    0 => Op::Push(next(vars as usize) as u8),
                    _ => ops[next(ops.len())],
                })
                .collect(),
        );
        if p.is_valid() {
            out.push(p);
        }
    }
    out
}

/// Every valid program that differs from `base` in exactly one instruction, changed to one of
/// `choices`: the mutants a prover must not prove unless brute force agrees.
pub(crate) fn mutants(
    base: &crate::lang::Program,
    choices: &[crate::lang::Op],
) -> Vec<crate::lang::Program> {
    let mut out = Vec::new();
    for i in 0..base.len() {
        for &op in choices {
            if base.0[i] == op {
                continue;
            }
            let mut ops = base.0.clone();
            ops[i] = op;
            let p = crate::lang::Program(ops);
            if p.is_valid() {
                out.push(p);
            }
        }
    }
    out
}
