//! Grundy's game: a move splits one heap into two heaps of different sizes.

use super::{HeapRule, MoveBounds};
use crate::game::NimSet;
use crate::game::Nimber;

/// Grundy's game. Its nim sequence is not known to be periodic: no finite check proves a
/// period, so [`HeapRule::bounds`] is `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GrundysGame;

impl HeapRule for GrundysGame {
    fn name(&self) -> &str {
        "grundy-game"
    }

    fn moves(&self, n: u32, visit: &mut dyn FnMut(&[u32])) {
        for a in 1..n.div_ceil(2) {
            visit(&[a, n - a]);
        }
    }

    /// One move for each smaller heap a of 1 <= a < n / 2.
    fn move_count(&self, n: u32) -> u64 {
        u64::from(n.div_ceil(2).saturating_sub(1))
    }

    fn option_values(&self, n: usize, values: &[Nimber], seen: &mut NimSet) {
        // The pairs (a, n - a) for 1 <= a < n / 2, unequal.
        let half = n.div_ceil(2).saturating_sub(1);
        if half > 0 {
            seen.insert_xors(&values[1..=half], &values[n - half..n]);
        }
    }

    fn extend(&self, values: &mut Vec<Nimber>, n: usize, stop: &dyn Fn() -> bool) {
        super::sparse::extend_wide(self, values, n, stop);
    }

    fn extend_values(&self, values: &mut super::Values, n: usize, stop: &dyn Fn() -> bool) {
        super::sparse::extend(self, values, n, stop);
    }

    fn rarity(&self, values: &super::Values) -> Option<super::classes::Rarity> {
        use super::sparse::Splits;
        Some(super::classes::rarity(values, self.split_parity()))
    }

    fn sparse(&self) -> bool {
        true
    }

    fn valuation_bytes(&self, n: usize) -> u64 {
        super::sparse::wide_valuation_bytes(n)
    }

    fn compact_valuation_bytes(&self, n: usize) -> u64 {
        super::sparse::valuation_bytes(n)
    }

    fn bounds(&self) -> Option<MoveBounds> {
        None
    }
}

impl super::sparse::Splits for GrundysGame {
    fn options<'a, S: super::Seq<'a>>(
        &self,
        h: usize,
        _: S,
        _: &mut NimSet,
        splits: &mut Vec<usize>,
    ) {
        if h >= 3 {
            splits.push(h);
        }
    }

    fn unequal(&self) -> bool {
        true
    }

    fn split_takes(&self) -> (usize, Vec<usize>) {
        (3, vec![0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::heap::nim_sequence;

    /// Winning Ways' table of Grundy's game from heap 0.
    #[test]
    fn the_sequence_starts_as_published() {
        assert_eq!(
            nim_sequence(&GrundysGame, 20),
            [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]
        );
    }

    #[test]
    fn moves_are_counted_without_listing_them() {
        for n in 0..40 {
            let mut listed = 0;
            GrundysGame.moves(n, &mut |_| listed += 1);
            assert_eq!(GrundysGame.move_count(n), listed, "{n}");
        }
        assert_eq!(GrundysGame.move_count(268_435_455), 134_217_727);
    }
}
