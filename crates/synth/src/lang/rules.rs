//! Shapes minimal programs never need: a rule forbids an instruction over operands whose root
//! instructions match, when an equivalent program is shorter or is the same with the operands
//! swapped. The encoders refuse exactly these, the enumerator all but the chain rule (see
//! [`chain_allowed`]), so all agree on minimal lengths.

use super::Op;

/// Which of the values 0 and 1 the instruction set makes in one instruction. The rules that
/// replace a subprogram by `Zero` or `One` apply only when that instruction is in the set
/// (`--ops -Zero` makes `x x Xor` the shortest way to 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Constants {
    zero: bool,
    one: bool,
}

impl Constants {
    /// Both, as in the thesis's instruction set.
    pub const BOTH: Constants = Constants {
        zero: true,
        one: true,
    };

    /// The constants among `ops`.
    pub fn of(ops: &[Op]) -> Self {
        let has = |v| ops.iter().any(|o| o.constant() == Some(v));
        Constants {
            zero: has(0),
            one: has(1),
        }
    }

    /// Whether `value` is one instruction.
    fn has(self, value: u64) -> bool {
        (value == 0 && self.zero) || (value == 1 && self.one)
    }
}

/// Whether a unary `op` over an operand rooted at `arg` may appear in a minimal program.
pub fn unary_allowed(op: Op, arg: Op, consts: Constants) -> bool {
    match (op, arg.constant()) {
        // ~~x = x.
        (Op::Not, _) if arg == Op::Not => false,
        // A constant folds to a constant when the result is one instruction.
        (Op::BooleanNot, Some(c)) if consts.has((c == 0) as u64) => false,
        _ => true,
    }
}

/// Whether a binary `op` with left operand rooted at `left` and right at `right` may appear:
/// [`binary_allowed_ignoring_chains`] and [`chain_allowed`].
pub fn binary_allowed(op: Op, left: Op, right: Op, consts: Constants) -> bool {
    binary_allowed_ignoring_chains(op, left, right, consts) && chain_allowed(op, left, right)
}

/// The chain rule. A cluster of an associative `op` over operands t_1..t_m can be rebuilt
/// with the same length and value as a right-deep chain of the operands rooted below `op`
/// (sorted), with those rooted above `op` hung on top left-deep:
/// `((t1 op (t2 op t3)) op g1) op g2`. Every node of that shape passes this and the other
/// rules (in a shortest program; a sibling pair the rebuild creates that another rule
/// rejects would make it shorter), so a left operand rooted at `op` is needed only under a
/// right operand rooted above `op`. The sat and smt encodings apply it; enumeration cannot
/// (a class of equal vectors has members with different roots) and searches the larger
/// space, which reaches the same shortest length.
pub fn chain_allowed(op: Op, left: Op, right: Op) -> bool {
    !(op.is_associative() && left == op && right <= op)
}

/// Every rule but the chain rule: these read an operand's root only when it is a leaf, or
/// to keep commutative operands in order, which enumeration over classes can apply exactly.
pub fn binary_allowed_ignoring_chains(op: Op, left: Op, right: Op, consts: Constants) -> bool {
    // Commutative: operands in instruction order (swapping keeps length and value).
    if op.is_commutative() && left > right {
        return false;
    }
    let (lc, rc) = (left.constant(), right.constant());
    // Two constants fold whenever the result is one instruction (Zero or One).
    if let (Some(a), Some(b)) = (lc, rc) {
        if consts.has(op.apply(a, b, u64::MAX)) {
            return false;
        }
    }
    // Identities: x op 0 / 0 op x = x, x * 1 = x, x / 1 = x.
    let zero = |c: Option<u64>| c == Some(0);
    let one = |c: Option<u64>| c == Some(1);
    match op {
        Op::Plus | Op::Or | Op::Xor if zero(lc) || zero(rc) => return false,
        Op::Minus | Op::LeftShift | Op::RightShift if zero(rc) => return false,
        Op::Mul if one(lc) || one(rc) || zero(lc) || zero(rc) => return false,
        Op::And if zero(lc) || zero(rc) => return false,
        Op::Div if one(rc) || zero(rc) || zero(lc) => return false,
        _ => {}
    }
    // The same variable twice: x-x, x^x, x<x give 0; x==x gives 1; x&x, x|x, min, max give x.
    if let (Op::Push(i), Op::Push(j)) = (left, right) {
        let folds = match op {
            Op::Minus | Op::Xor | Op::Lt => consts.has(0),
            Op::BooleanEq => consts.has(1),
            Op::And | Op::Or | Op::Min | Op::Max => true,
            _ => false,
        };
        if i == j && folds {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::{OpSet, Program};

    /// The shortest length at which some program reaches each output vector on `points`,
    /// among all programs of length <= `max` or (with `ruled`) those passing every rule.
    fn shortest_lengths(
        ops: &OpSet,
        points: &[[u64; 2]],
        mask: u64,
        max: usize,
        ruled: bool,
    ) -> ahash::AHashMap<Vec<u64>, usize> {
        // levels[l]: one (vector, root) per program of length l with that pair; the rules read
        // nothing else.
        let consts = Constants::of(ops.ops());
        let mut levels: Vec<Vec<(Vec<u64>, Op)>> = vec![Vec::new()];
        let mut shortest = ahash::AHashMap::new();
        for len in 1..=max {
            let mut level: Vec<(Vec<u64>, Op)> = Vec::new();
            for &op in ops.ops() {
                match op.arity() {
                    0 if len == 1 => {
                        let leaf = Program(vec![op]);
                        let v: Vec<u64> = points
                            .iter()
                            .map(|x| crate::interp::run(&leaf, x, mask).unwrap())
                            .collect();
                        level.push((v, op));
                    }
                    0 => {}
                    1 => {
                        for (v, root) in &levels[len - 1] {
                            if !ruled || unary_allowed(op, *root, consts) {
                                let w = v.iter().map(|&a| op.apply(a, 0, mask)).collect();
                                level.push((w, op));
                            }
                        }
                    }
                    _ => {
                        for a in 1..len.saturating_sub(1) {
                            for (l, lr) in &levels[a] {
                                for (r, rr) in &levels[len - 1 - a] {
                                    if !ruled || binary_allowed(op, *lr, *rr, consts) {
                                        let w =
                                            l.iter().zip(r).map(|(&x, &y)| op.apply(x, y, mask));
                                        level.push((w.collect(), op));
                                    }
                                }
                            }
                        }
                    }
                }
            }
            for (v, _) in &level {
                shortest.entry(v.clone()).or_insert(len);
            }
            let mut seen = ahash::AHashSet::new();
            level.retain(|(v, r)| seen.insert((v.clone(), *r)));
            levels.push(level);
        }
        shortest
    }

    /// The rules' soundness, by brute force: every output vector that some program of length
    /// <= 6 reaches is reached at the same shortest length by a program passing every rule.
    #[test]
    fn rules_keep_a_shortest_program_for_every_vector() {
        let ops = OpSet::with_edits(2, "+Min,+Max").unwrap();
        let points: Vec<[u64; 2]> = (0..16).map(|i| [i % 4, i / 4 + 2]).collect();
        // Width 3, so wrapping shows.
        let all = shortest_lengths(&ops, &points, 7, 6, false);
        let ruled = shortest_lengths(&ops, &points, 7, 6, true);
        assert!(all.len() > 1000, "{} vectors", all.len());
        assert_eq!(all, ruled);
        // Sums and differences only, to length 11: operands rooted above Plus (Minus) hang
        // on the chain's top, and only the exact chain rule keeps them.
        let ops = OpSet::with_edits(
            2,
            "-Mul,-Div,-And,-Or,-Xor,-Not,-BooleanNot,-LeftShift,-RightShift,-BooleanEq",
        )
        .unwrap();
        let all = shortest_lengths(&ops, &points, 7, 11, false);
        assert_eq!(all, shortest_lengths(&ops, &points, 7, 11, true));
        // Without Zero and One, `x x Xor` and `x x BooleanEq` are the shortest 0 and 1.
        for edits in ["-Zero,-One", "-Zero", "-One,+Lt"] {
            let ops = OpSet::with_edits(2, edits).unwrap();
            let all = shortest_lengths(&ops, &points, 7, 6, false);
            assert_eq!(all, shortest_lengths(&ops, &points, 7, 6, true), "{edits}");
        }
    }

    #[test]
    fn rules_keep_one_order_of_commutative_operands() {
        let binary_allowed = |op, l, r| binary_allowed(op, l, r, Constants::BOTH);
        assert!(
            binary_allowed(Op::Plus, Op::Push(0), Op::Push(1))
                != binary_allowed(Op::Plus, Op::Push(1), Op::Push(0))
        );
        assert!(binary_allowed(Op::Minus, Op::Push(1), Op::Push(0)));
        assert!(!binary_allowed(Op::Minus, Op::Push(1), Op::Push(1)));
        assert!(!binary_allowed(Op::Plus, Op::Push(1), Op::Zero));
        assert!(!binary_allowed(Op::Plus, Op::One, Op::Zero));
        assert!(binary_allowed(Op::Plus, Op::One, Op::One));
    }
}
