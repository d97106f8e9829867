//! Sets of values of at most 8 bits, and the inverse images of binary instructions on them: the
//! top-down search asks "which values may this operand take at this point, given the other
//! operand and the values the result may take".

use std::sync::{Arc, Mutex, OnceLock};

use ahash::AHashMap;

use crate::lang::Op;

/// A set of values below 256.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Set(pub [u64; 4]);

impl Set {
    pub const EMPTY: Set = Set([0; 4]);

    /// `{0, 1, ..., n-1}` (n <= 256).
    pub fn below(n: usize) -> Set {
        let mut s = Set::EMPTY;
        for (w, word) in s.0.iter_mut().enumerate() {
            let lo = w * 64;
            if n >= lo + 64 {
                *word = u64::MAX;
            } else if n > lo {
                *word = (1u64 << (n - lo)) - 1;
            }
        }
        s
    }

    pub fn single(v: u8) -> Set {
        let mut s = Set::EMPTY;
        s.insert(v);
        s
    }

    pub fn insert(&mut self, v: u8) {
        self.0[(v >> 6) as usize] |= 1 << (v & 63);
    }

    pub fn contains(self, v: u8) -> bool {
        self.0[(v >> 6) as usize] >> (v & 63) & 1 == 1
    }

    pub fn is_empty(self) -> bool {
        self.0 == [0; 4]
    }

    pub fn len(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    pub fn and(self, o: Set) -> Set {
        Set(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }

    pub fn minus(self, o: Set) -> Set {
        Set(std::array::from_fn(|i| self.0[i] & !o.0[i]))
    }

    /// The members, smallest first.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0..4).flat_map(move |w| {
            let mut bits = self.0[w];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    (w as u32 * 64 + b) as u8
                })
            })
        })
    }
}

/// Unions over this many members of a set are cheaper than a pass over the whole domain.
const UNION_MAX: u32 = 8;

/// One binary instruction over W-bit words (W <= 8), tabulated: its results, and for each value
/// of one operand, the values of the other grouped by the result they give.
pub(crate) struct Inverse {
    size: usize,
    domain: Set,
    /// `results[a * size + b]` = op(a, b).
    results: Vec<u8>,
    /// For fixed a, the values b grouped by op(a, b).
    right: Grouped,
    /// For fixed b, the values a grouped by op(a, b).
    left: Grouped,
}

/// Per fixed operand value x, the other operand's values ordered by result: those giving t are
/// `order[x * size + starts[x * (size + 1) + t] ..][.. up to the next start]`.
struct Grouped {
    order: Vec<u8>,
    starts: Vec<u16>,
}

impl Grouped {
    /// Groups by `result(x, y)` the values y, for every x.
    fn new(size: usize, result: impl Fn(usize, usize) -> usize) -> Self {
        let mut order = vec![0u8; size * size];
        let mut starts = Vec::with_capacity(size * (size + 1));
        for x in 0..size {
            let mut at = vec![0u16; size + 1];
            for y in 0..size {
                at[result(x, y) + 1] += 1;
            }
            for t in 1..=size {
                at[t] += at[t - 1];
            }
            starts.extend_from_slice(&at);
            for y in 0..size {
                let t = result(x, y);
                order[x * size + at[t] as usize] = y as u8;
                at[t] += 1;
            }
        }
        Grouped { order, starts }
    }

    /// The values giving `t` with `x`.
    fn giving(&self, size: usize, x: usize, t: u8) -> &[u8] {
        let s = &self.starts[x * (size + 1)..];
        &self.order[x * size + s[t as usize] as usize..x * size + s[t as usize + 1] as usize]
    }
}

impl Inverse {
    /// The tables of `op` at width `mask`, built once per process: lifting searches the
    /// bound's length of many slices.
    pub fn shared(op: Op, mask: u64) -> Arc<Inverse> {
        type Cache = Mutex<AHashMap<(Op, u64), Arc<Inverse>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .entry((op, mask))
            .or_insert_with(|| Arc::new(Inverse::new(op, mask)))
            .clone()
    }

    pub fn new(op: Op, mask: u64) -> Self {
        assert!(mask <= 0xff && op.arity() == 2);
        let size = mask as usize + 1;
        let mut results = vec![0u8; size * size];
        for a in 0..size {
            for b in 0..size {
                results[a * size + b] = op.apply(a as u64, b as u64, mask) as u8;
            }
        }
        let at = |a: usize, b: usize| results[a * size + b] as usize;
        Inverse {
            size,
            domain: Set::below(size),
            right: Grouped::new(size, at),
            left: Grouped::new(size, |b, a| at(a, b)),
            results,
        }
    }

    /// op(a, b).
    pub fn apply(&self, a: u8, b: u8) -> u8 {
        self.results[a as usize * self.size + b as usize]
    }

    /// {b : op(a, b) in `t`}.
    pub fn right_of(&self, a: u8, t: Set) -> Set {
        let a = a as usize;
        self.preimage(&self.right, a, t, |b| self.results[a * self.size + b])
    }

    /// {a : op(a, b) in `t`}.
    pub fn left_of(&self, b: u8, t: Set) -> Set {
        let b = b as usize;
        self.preimage(&self.left, b, t, |a| self.results[a * self.size + b])
    }

    /// The values y whose result with the fixed operand x lies in `t`, where `result(y)` is
    /// that result.
    fn preimage(&self, groups: &Grouped, x: usize, t: Set, result: impl Fn(usize) -> u8) -> Set {
        let t = t.and(self.domain);
        let n = t.len();
        if n == 0 {
            return Set::EMPTY;
        }
        if n as usize == self.size {
            return self.domain;
        }
        let union = |t: Set| {
            let mut s = Set::EMPTY;
            for r in t.iter() {
                for &y in groups.giving(self.size, x, r) {
                    s.insert(y);
                }
            }
            s
        };
        if n <= UNION_MAX {
            return union(t);
        }
        let outside = self.domain.minus(t);
        if outside.len() <= UNION_MAX {
            return self.domain.minus(union(outside));
        }
        let mut s = Set::EMPTY;
        for y in 0..self.size {
            if t.contains(result(y)) {
                s.insert(y as u8);
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_hold_what_is_inserted() {
        let mut s = Set::EMPTY;
        for v in [0u8, 63, 64, 200, 255] {
            s.insert(v);
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 63, 64, 200, 255]);
        assert_eq!(s.len(), 5);
        assert!(s.contains(200) && !s.contains(199));
        assert_eq!(Set::below(256).len(), 256);
        assert_eq!(Set::below(65).iter().last(), Some(64));
        assert_eq!(Set::below(0), Set::EMPTY);
    }

    /// Every way of computing a preimage (unions, complements, a pass) agrees with the
    /// definition, for every operand value and target sets of every size.
    #[test]
    fn preimages_are_the_definition() {
        let mask = 0x1f;
        let size = 32u8;
        let targets = [
            Set::single(0),
            Set::below(2),
            Set::single(7),
            Set::below(32).minus(Set::single(0)),
            Set::below(20),
            Set::below(32),
            Set::EMPTY,
        ];
        for op in [
            Op::Plus,
            Op::Minus,
            Op::Div,
            Op::LeftShift,
            Op::BooleanEq,
            Op::And,
        ] {
            let inv = Inverse::new(op, mask);
            for x in 0..size {
                for &t in &targets {
                    let right: Vec<u8> = inv.right_of(x, t).iter().collect();
                    let left: Vec<u8> = inv.left_of(x, t).iter().collect();
                    let want_right: Vec<u8> = (0..size)
                        .filter(|&b| t.contains(op.apply(x as u64, b as u64, mask) as u8))
                        .collect();
                    let want_left: Vec<u8> = (0..size)
                        .filter(|&a| t.contains(op.apply(a as u64, x as u64, mask) as u8))
                        .collect();
                    assert_eq!(right, want_right, "{op} right of {x}");
                    assert_eq!(left, want_left, "{op} left of {x}");
                }
            }
        }
    }
}
