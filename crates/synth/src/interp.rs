//! The reference interpreter: every reported program is re-run here on every data point.

use super::lang::{Op, Program};

/// Runs `program` on the variables `x` at the width given by `mask` (2^W - 1). Returns `None`
/// when the program underflows or does not end with exactly one value.
pub fn run(program: &Program, x: &[u64], mask: u64) -> Option<u64> {
    let mut stack: smallvec::SmallVec<[u64; 16]> = smallvec::SmallVec::new();
    for &op in &program.0 {
        let v = match op {
            Op::Push(i) => *x.get(i as usize)? & mask,
            Op::Zero | Op::One | Op::Const(_) => op.constant().expect("a constant") & mask,
            Op::Not | Op::BooleanNot => {
                let a = stack.pop()?;
                op.apply(a, 0, mask)
            }
            _ => {
                let b = stack.pop()?;
                let a = stack.pop()?;
                op.apply(a, b, mask)
            }
        };
        stack.push(v);
    }
    (stack.len() == 1).then(|| stack[0])
}

/// 2^width - 1.
pub fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thesis_p3_classifier() {
        let p: Program = "Push(2) Push(0) BooleanEq Push(1) RightShift BooleanNot"
            .parse()
            .unwrap();
        for a in 0..6 {
            for b in 0..6 {
                for c in 0..6 {
                    let out = run(&p, &[a, b, c], mask(8)).unwrap();
                    assert_eq!(out == 0, a == c && b == 0, "({a},{b},{c})");
                }
            }
        }
    }

    #[test]
    fn invalid_programs_give_none() {
        let p = Program(vec![Op::Push(0), Op::Plus]);
        assert_eq!(run(&p, &[1], 0xff), None);
        let q = Program(vec![Op::Push(3)]);
        assert_eq!(run(&q, &[1], 0xff), None);
    }

    #[test]
    fn width_masks_everything() {
        let p: Program = "Push(0) Not".parse().unwrap();
        assert_eq!(run(&p, &[0], mask(4)), Some(15));
        assert_eq!(run(&p, &[0], mask(64)), Some(u64::MAX));
    }
}
