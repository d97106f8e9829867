//! What is known of a Cram position without search: facts that shorten it, each sound move
//! for move, and each checked against the plain search in the tests below.

use super::Cram;

impl Cram {
    /// Whether `b` is its own half turn about a corner point of the grid. Then the second
    /// player wins by answering each domino with its mirror image: no domino or cell is its own
    /// image, so the answer is always free (the full even x even board is the classic case).
    pub(super) fn mirrors_about_a_corner(&self, b: u64) -> bool {
        if b.count_ones() % 2 == 1 {
            return false;
        }
        let row_of = |r: usize| (b >> (r * self.cols)) & ((1u64 << self.cols) - 1);
        let top = b.trailing_zeros() as usize / self.cols;
        let bottom = (63 - b.leading_zeros() as usize) / self.cols;
        let used = (top..=bottom).fold(0, |m, r| m | row_of(r));
        let (left, right) = (used.trailing_zeros(), 63 - used.leading_zeros());
        if (bottom - top) % 2 == 0 || (right - left) % 2 == 0 {
            return false;
        }
        // Reversing a row's 64 bits and shifting maps column c to left + right - c.
        (top..=bottom)
            .all(|r| row_of(r).reverse_bits() >> (63 - left - right) == row_of(top + bottom - r))
    }

    /// `b` without the extra tufts of each star: when two or more cells hang on one cell X
    /// (each has X as its only empty neighbour), all but one of them can go. Every move on X
    /// leaves the others dead, and taking X with either tuft leaves the same position, so the
    /// game keeps its options move for move.
    pub(super) fn without_extra_tufts(&self, mut b: u64) -> u64 {
        loop {
            let r = b & (b >> 1) & !self.last_col;
            let l = b & (b << 1) & !self.first_col;
            let d = b & (b >> self.cols);
            let u = b & (b << self.cols);
            let two = (u & d) | (u & l) | (u & r) | (d & l) | (d & r) | (l & r);
            let mut tufts = (u | d | l | r) & !two;
            let (mut centres, before) = (0u64, b);
            while tufts != 0 {
                let t = tufts & tufts.wrapping_neg();
                tufts &= tufts - 1;
                let x = ((t << 1 & !self.first_col)
                    | (t >> 1 & !self.last_col)
                    | t << self.cols
                    | t >> self.cols)
                    & b;
                if x & centres != 0 {
                    b &= !t;
                } else {
                    centres |= x;
                }
            }
            if b == before {
                return b;
            }
        }
    }

    /// Whether `b` is one straight strip of cells (in a row or a column), and its length.
    pub(super) fn strip_len(&self, b: u64) -> Option<usize> {
        let low = b.trailing_zeros() as usize;
        let n = b.count_ones() as usize;
        let run = b >> low;
        if n <= self.cols && run == (1u64 << n) - 1 && low % self.cols + n <= self.cols {
            return Some(n);
        }
        (n <= self.rows && run == (0..n).fold(0u64, |m, k| m | 1 << (k * self.cols))).then_some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::cram;
    use crate::game::Game;
    use crate::sg::{SearchConfig, SearchEngine};

    /// Every sub-board of 4x4 (each empty-cell set), valued with the theorems (tufts, G + G,
    /// mirror, strips, normal forms) and without.
    #[test]
    fn theorems_agree_on_every_4x4_board() {
        let g = cram(4, 4);
        let mut bare = SearchEngine::Naive.searcher(&g, SearchConfig::bare());
        let mut full = SearchEngine::Naive.searcher(&g, SearchConfig::default());
        for b in 0..=g.full() {
            assert_eq!(full.nimber(b), bare.nimber(b), "{b:#x}");
        }
    }

    #[test]
    fn extra_tufts_go_and_twins_cancel() {
        let g = cram(3, 3);
        // A plus: four tufts on the centre, of which one is kept.
        let plus = g.pack(&[0b010, 0b111, 0b010]);
        let reduced = g.without_extra_tufts(plus);
        assert_eq!(reduced.count_ones(), 2, "{reduced:#b}");
        assert_eq!(reduced & g.pack(&[0, 0b010, 0]), g.pack(&[0, 0b010, 0]));
        // Two dominoes apart are G + G.
        let g = cram(3, 4);
        let twins = g.pack(&[0b0011, 0, 0b1100]);
        assert_eq!(g.split(&twins), Some(vec![0]));
        // A straight tromino's ends hang on its middle: it is a domino, and cancels one.
        assert_eq!(g.split(&g.pack(&[0b0011, 0, 0b1110])), Some(vec![0]));
        // A domino and a square do not cancel.
        let pair = g.pack(&[0b0011, 0b1100, 0b1100]);
        assert_eq!(g.split(&pair).map(|p| p.len()), Some(2));
    }

    #[test]
    fn half_turn_symmetric_boards_are_zero() {
        // Even x even boards, and a symmetric board with holes.
        for (r, c) in [(2, 2), (2, 4), (4, 4), (4, 6), (6, 4)] {
            let g = cram(r, c);
            assert!(g.mirrors_about_a_corner(g.full()), "{r}x{c}");
        }
        let g = cram(4, 5);
        assert!(
            !g.mirrors_about_a_corner(g.full()),
            "the centre is a domino's middle"
        );
        // #...
        // ..#.   is its own half turn; emptying one more cell breaks it.
        // .#..
        // ...#
        let g = cram(4, 4);
        let b = g.pack(&[0b1110, 0b1011, 0b1101, 0b0111]);
        assert!(g.mirrors_about_a_corner(b));
        assert!(!g.mirrors_about_a_corner(b & !0b10));
        // The shortcut agrees with the search without it.
        let mut s = SearchEngine::Naive.searcher(&g, SearchConfig::bare());
        assert_eq!(s.nimber(b), 0);
        assert_eq!(s.nimber(g.full()), 0);
    }
}
