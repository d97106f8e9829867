//! The values of a block being valued, beside the stored ones, read as one sequence.
//!
//! While a block of heaps is valued on one thread, another reads the stored values for the
//! next block ([`super::sparse`]): the block's new values cannot be pushed onto the stored
//! ones meanwhile (a growing store may move), so they go into a short list of their own, and
//! [`Fresh`] reads both. The new values count as values kept apart ([`Seq::escaped_from`]):
//! every loop over the values already reads those one at a time, exactly, and reads the
//! stored values between them directly.

use super::Seq;
use crate::game::Nimber;

/// The stored values G(0..stored.len()) followed by the block's new ones.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fresh<'a, S> {
    stored: S,
    fresh: &'a [Nimber],
}

impl<'a, S: Seq<'a>> Fresh<'a, S> {
    /// `stored`, then `fresh` from heap `stored.len()` on.
    pub(super) fn new(stored: S, fresh: &'a [Nimber]) -> Self {
        Fresh { stored, fresh }
    }
}

impl<'a, S: Seq<'a>> Seq<'a> for Fresh<'a, S> {
    type Raw = S::Raw;

    /// The stored values only: the new ones are read through [`Seq::at`].
    #[inline]
    fn raw(self) -> &'a [S::Raw] {
        self.stored.raw()
    }

    #[inline]
    fn at(self, i: usize) -> Nimber {
        match i.checked_sub(self.stored.len()) {
            Some(j) => self.fresh[j],
            None => self.stored.at(i),
        }
    }

    #[inline]
    fn escaped_from(self, i: usize) -> usize {
        let end = self.stored.len();
        match (i < end, self.fresh.is_empty()) {
            (_, true) => self.stored.escaped_from(i),
            (true, false) => self.stored.escaped_from(i).min(end),
            (false, false) if i < end + self.fresh.len() => i,
            (false, false) => usize::MAX,
        }
    }

    #[inline]
    fn escaped_below(self, i: usize) -> Option<usize> {
        let end = self.stored.len();
        match i > end && !self.fresh.is_empty() {
            true => Some((i - 1).min(end + self.fresh.len() - 1)),
            false => self.stored.escaped_below(i),
        }
    }

    fn prefix(self, len: usize) -> Self {
        let end = self.stored.len();
        match len.checked_sub(end) {
            Some(more) => Fresh::new(self.stored, &self.fresh[..more]),
            None => Fresh::new(self.stored.prefix(len), &[]),
        }
    }

    fn apart_from(self) -> usize {
        match self.fresh.is_empty() {
            true => usize::MAX,
            false => self.stored.len(),
        }
    }

    fn apart(self) -> &'a [Nimber] {
        self.fresh
    }

    fn len(self) -> usize {
        self.stored.len() + self.fresh.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::heap::Values;
    use crate::with_values;

    /// Stored values (some kept apart) and new ones read as the whole sequence, and the new
    /// ones are reported as kept apart, so that no loop reads them from the stored bytes.
    #[test]
    fn new_values_read_as_kept_apart() {
        let all: Vec<Nimber> = vec![0, 1, 9, 2, 3, 9, 4, 5, 6, 7];
        let mut stored = Values::escaping_from(8);
        stored.extend(all[..6].iter().copied());
        with_values!(stored, v => {
            let seq = Fresh::new(v, &all[6..]);
            assert_eq!(seq.len(), 10);
            assert_eq!((0..10).map(|i| seq.at(i)).collect::<Vec<_>>(), all);
            let from: Vec<usize> = (0..11).map(|i| seq.escaped_from(i)).collect();
            assert_eq!(from, [2, 2, 2, 5, 5, 5, 6, 7, 8, 9, usize::MAX]);
            let below: Vec<Option<usize>> = (0..11).map(|i| seq.escaped_below(i)).collect();
            let want = [None, None, None, Some(2), Some(2), Some(2), Some(5)];
            assert_eq!(below[..7], want);
            assert_eq!(below[7..], [Some(6), Some(7), Some(8), Some(9)]);
            assert_eq!((seq.raw().len(), seq.apart_from()), (6, 6));
            assert_eq!((seq.prefix(8).len(), seq.prefix(4).len()), (8, 4));
            assert_eq!(seq.prefix(8).at(7), 5);
            // No new values yet: exactly the stored sequence.
            let bare = Fresh::new(v, &[]);
            assert_eq!((bare.escaped_from(3), bare.escaped_below(9)), (5, Some(5)));
            assert_eq!(bare.apart_from(), usize::MAX);
        });
    }
}
