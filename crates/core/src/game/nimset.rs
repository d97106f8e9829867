//! Sets of nimbers as growable bitsets.
//!
//! The pruning engines keep the set P of values a position may still have; it starts as
//! {0, ..., |moves|}, which for hypergraph nim can be thousands wide, so the width is dynamic but
//! the first 128 values live inline.

use smallvec::SmallVec;

use crate::game::Nimber;

/// A finite set of nimbers.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct NimSet {
    words: SmallVec<[u64; 2]>,
}

impl std::fmt::Debug for NimSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl NimSet {
    /// The empty set.
    pub fn new() -> Self {
        NimSet::default()
    }

    /// {0, 1, ..., n-1}.
    pub fn below(n: usize) -> Self {
        let mut words: SmallVec<[u64; 2]> = SmallVec::from_elem(u64::MAX, n / 64);
        if !n.is_multiple_of(64) {
            words.push((1u64 << (n % 64)) - 1);
        }
        NimSet { words }
    }

    /// {v}.
    pub fn singleton(v: Nimber) -> Self {
        let mut s = NimSet::new();
        s.insert(v);
        s
    }

    /// Whether `v` is in the set.
    pub fn contains(&self, v: Nimber) -> bool {
        let (w, b) = (v as usize / 64, v % 64);
        self.words.get(w).is_some_and(|x| x >> b & 1 == 1)
    }

    /// Adds `v`.
    pub fn insert(&mut self, v: Nimber) {
        let (w, b) = (v as usize / 64, v % 64);
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        self.words[w] |= 1 << b;
    }

    /// Adds `a[i] ^ b[len - 1 - i]` for each i (`a` and `b` equally long): the values of a
    /// heap's splits into two, `a` its smaller heaps' values and `b` the larger ones'. The
    /// values below 64 are gathered without a branch (the compiler makes it vector code);
    /// the others, when there are any, in a second pass.
    pub fn insert_xors(&mut self, a: &[Nimber], b: &[Nimber]) {
        assert_eq!(a.len(), b.len(), "pairs of values");
        let xors = || a.iter().zip(b.iter().rev()).map(|(&x, &y)| x ^ y);
        let (low, high) = xor_bits(a, b);
        if high != 0 {
            xors().filter(|&v| v >= 64).for_each(|v| self.insert(v));
        }
        self.insert_low(low);
    }

    /// Adds each v < 64 whose bit is set in `bits`: values gathered in a register.
    pub fn insert_low(&mut self, bits: u64) {
        if bits != 0 {
            if self.words.is_empty() {
                self.words.push(0);
            }
            self.words[0] |= bits;
        }
    }

    /// Empties the set, keeping its storage.
    pub fn clear(&mut self) {
        self.words.clear();
    }

    /// Removes `v` (no-op when absent).
    pub fn remove(&mut self, v: Nimber) {
        let (w, b) = (v as usize / 64, v % 64);
        if let Some(x) = self.words.get_mut(w) {
            *x &= !(1 << b);
        }
        self.trim();
    }

    fn trim(&mut self) {
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
    }

    /// The largest member.
    pub fn max(&self) -> Option<Nimber> {
        // Trailing zero words are trimmed after every removal.
        let last = self.words.len().checked_sub(1)?;
        let w = self.words[last];
        Some((last * 64 + 63 - w.leading_zeros() as usize) as Nimber)
    }

    /// Removes and returns the largest member.
    pub fn pop_max(&mut self) -> Option<Nimber> {
        let m = self.max()?;
        self.remove(m);
        Some(m)
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set has no members.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The member of a one-element set.
    pub fn only(&self) -> Option<Nimber> {
        (self.len() == 1).then(|| self.max().unwrap())
    }

    /// The least non-negative integer not in the set.
    pub fn mex(&self) -> Nimber {
        for (i, &w) in self.words.iter().enumerate() {
            if w != u64::MAX {
                return (i * 64 + w.trailing_ones() as usize) as Nimber;
            }
        }
        (self.words.len() * 64) as Nimber
    }

    /// Whether the sets share no member.
    pub fn is_disjoint(&self, other: &NimSet) -> bool {
        self.words.iter().zip(&other.words).all(|(a, b)| a & b == 0)
    }

    /// Removes every member greater than `max`.
    pub fn keep_at_most(&mut self, max: Nimber) {
        let keep = max as usize / 64 + 1;
        if self.words.len() > keep {
            self.words.truncate(keep);
        }
        if self.words.len() == keep {
            let b = max % 64;
            if b != 63 {
                self.words[keep - 1] &= (1u64 << (b + 1)) - 1;
            }
        }
        self.trim();
    }

    /// {v ^ r : v in self}: the set a component must hit so that the sum hits `self`.
    pub fn xor_each(&self, r: Nimber) -> NimSet {
        let mut out = NimSet::new();
        for v in self.iter() {
            out.insert(v ^ r);
        }
        out
    }

    /// Adds every member of `other`.
    pub fn union_with(&mut self, other: &NimSet) {
        if other.words.len() > self.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }

    /// Members in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = Nimber> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some((i * 64) as Nimber + b)
            })
        })
    }
}

/// For [`NimSet::insert_xors`]: the xors below 64 as bits, and whether any is not (nonzero).
/// With AVX2 where the CPU has it: its shifts of each lane by its own count make the loop
/// vector code (the portable build's has SSE2's only, a shift for all lanes). (An octal code's
/// heaps go to [`crate::game::heap`]'s own AVX-512 loop while their options are below 64;
/// this serves Grundy's game's first heaps and the rest.)
fn xor_bits(a: &[Nimber], b: &[Nimber]) -> (u64, Nimber) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (just checked).
        return unsafe { xor_bits_avx2(a, b) };
    }
    xor_bits_anywhere(a, b)
}

/// [`xor_bits`] compiled for AVX2; the caller makes sure the CPU has it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn xor_bits_avx2(a: &[Nimber], b: &[Nimber]) -> (u64, Nimber) {
    xor_bits_anywhere(a, b)
}

/// [`xor_bits`] on any CPU.
#[inline(always)]
fn xor_bits_anywhere(a: &[Nimber], b: &[Nimber]) -> (u64, Nimber) {
    // In 32-bit lanes, as the values are (twice the lanes of 64-bit ones): the xors below 32
    // in one half of the bits, those of 32-63 in the other.
    let bit = |v: Nimber| if v < 32 { 1u32 << v } else { 0 };
    let xors = a.iter().zip(b.iter().rev()).map(|(&x, &y)| x ^ y);
    let (low, mid, high) = xors.fold((0u32, 0u32, 0), |(low, mid, high), v| {
        (low | bit(v), mid | bit(v.wrapping_sub(32)), high | v >> 6)
    });
    (u64::from(mid) << 32 | u64::from(low), high)
}

impl FromIterator<Nimber> for NimSet {
    fn from_iter<I: IntoIterator<Item = Nimber>>(iter: I) -> Self {
        let mut s = NimSet::new();
        s.extend(iter);
        s
    }
}

/// The values below 64 are gathered in a register and written once: one insert after another
/// waits on the word the last one wrote, which made the definition's loops over a heap's
/// splits cost about 1.5 ns a pair (Kayles to 168 heaps: 26 us, 4 of 5 in those loops).
impl Extend<Nimber> for NimSet {
    fn extend<I: IntoIterator<Item = Nimber>>(&mut self, iter: I) {
        let mut low = 0u64;
        for v in iter {
            match v < 64 {
                true => low |= 1 << v,
                false => self.insert(v),
            }
        }
        self.insert_low(low);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    /// [`xor_bits`] by every path this CPU has.
    fn every_xor_bits(a: &[Nimber], b: &[Nimber]) -> Vec<(u64, Nimber)> {
        let mut all = vec![xor_bits(a, b), xor_bits_anywhere(a, b)];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (just checked).
                all.push(unsafe { xor_bits_avx2(a, b) });
            }
        }
        all
    }

    /// The xors' bits, by every path this CPU has (AVX2, portable), are those counted
    /// one by one.
    #[test]
    fn xor_bits_are_the_plain_count() {
        let mut next = crate::testing::xorshift(0x2545_f491);
        for round in 0..500 {
            let n = (next() % 300) as usize;
            let top = [8, 64, 65, 1000][round % 4];
            let a: Vec<Nimber> = (0..n).map(|_| next() % top).collect();
            let b: Vec<Nimber> = (0..n).map(|_| next() % top).collect();
            let xors: Vec<Nimber> = a.iter().zip(b.iter().rev()).map(|(x, y)| x ^ y).collect();
            let low = xors
                .iter()
                .filter(|&&v| v < 64)
                .fold(0u64, |w, v| w | 1 << v);
            let any_high = xors.iter().any(|&v| v >= 64);
            for (bits, high) in every_xor_bits(&a, &b) {
                assert_eq!((bits, high != 0), (low, any_high), "round {round}");
            }
        }
    }

    proptest! {
        #[test]
        fn behaves_like_a_btreeset(ops in proptest::collection::vec((0u8..8, 0u32..300), 0..60)) {
            let mut s = NimSet::new();
            let mut t = BTreeSet::new();
            for (op, v) in ops {
                match op {
                    0 | 1 => { s.insert(v); t.insert(v); }
                    5 => {
                        let some = [v, v / 5, v % 70, v / 3 + 60];
                        s.extend(some);
                        t.extend(some);
                    }
                    6 => {
                        let (a, b) = ([v, v / 7, 3, v % 64], [v / 2, 1, v % 90, v + 1]);
                        s.insert_xors(&a, &b);
                        t.extend(a.iter().zip(b.iter().rev()).map(|(x, y)| x ^ y));
                    }
                    2 => { s.remove(v); t.remove(&v); }
                    3 => { s.keep_at_most(v); t.retain(|&x| x <= v); }
                    4 => { prop_assert_eq!(s.pop_max(), t.pop_last()); }
                    _ => { s = s.xor_each(v); t = t.iter().map(|x| x ^ v).collect(); }
                }
                prop_assert_eq!(s.iter().collect::<Vec<_>>(), t.iter().copied().collect::<Vec<_>>());
                prop_assert_eq!(s.max(), t.last().copied());
                prop_assert_eq!(s.len(), t.len());
                let mex = (0..).find(|x| !t.contains(x)).unwrap();
                prop_assert_eq!(s.mex(), mex);
            }
        }
    }

    #[test]
    fn below_and_disjoint() {
        assert_eq!(NimSet::below(0).len(), 0);
        assert_eq!(NimSet::below(64).max(), Some(63));
        assert_eq!(NimSet::below(130).len(), 130);
        assert_eq!(NimSet::below(130).mex(), 130);
        let a: NimSet = [1, 200].into_iter().collect();
        let b: NimSet = [2, 201].into_iter().collect();
        assert!(a.is_disjoint(&b));
        assert!(!a.is_disjoint(&NimSet::below(2)));
        assert_eq!(NimSet::singleton(7).only(), Some(7));
    }
}
