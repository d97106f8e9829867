//! A machine's state: its carries, flags, comparisons, guesses and column, as many bits as the
//! circuit has. Two words hold most circuits' states in place; the orbit form's many images
//! take more, on the heap.

use smallvec::{smallvec, SmallVec};

/// The bits of one state, lowest first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct State(SmallVec<[u64; 2]>);

impl State {
    /// `bits` bits, all 0.
    pub(super) fn zeros(bits: u32) -> State {
        State(smallvec![0; (bits as usize).div_ceil(64).max(1)])
    }

    /// Bytes one state takes, for the search's memory bound.
    pub(super) fn bytes(bits: u32) -> usize {
        let words = (bits as usize).div_ceil(64);
        std::mem::size_of::<State>() + if words > 2 { 8 * words } else { 0 }
    }

    /// Bit `bit`.
    pub(super) fn get(&self, bit: u32) -> bool {
        (self.0[(bit / 64) as usize] >> (bit % 64)) & 1 == 1
    }

    /// Sets bit `bit` to `on`.
    pub(super) fn set(&mut self, bit: u32, on: bool) {
        let (word, at) = ((bit / 64) as usize, bit % 64);
        self.0[word] = (self.0[word] & !(1 << at)) | ((on as u64) << at);
    }

    /// The `len` bits from `at` (at most 64), as a number.
    pub(super) fn field(&self, at: u32, len: u32) -> u64 {
        (0..len).fold(0, |v, i| v | (self.get(at + i) as u64) << i)
    }

    /// Sets the `len` bits from `at` to the low bits of `value`.
    pub(super) fn set_field(&mut self, at: u32, len: u32, value: u64) {
        for i in 0..len {
            self.set(at + i, (value >> i) & 1 == 1);
        }
    }

    /// Keeps only the bits `mask` has.
    pub(super) fn keep(&mut self, mask: &State) {
        for (w, m) in self.0.iter_mut().zip(&mask.0) {
            *w &= m;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_cross_word_boundaries() {
        let mut s = State::zeros(200);
        s.set_field(60, 10, 0b10_1101_0111);
        assert_eq!(s.field(60, 10), 0b10_1101_0111);
        assert!(s.get(60) && s.get(69) && !s.get(59) && !s.get(70));
        let mut mask = State::zeros(200);
        mask.set(64, true);
        mask.set(199, true);
        s.set(199, true);
        s.keep(&mask);
        assert_eq!((s.field(60, 10), s.get(199)), (1 << 4, true));
    }
}
