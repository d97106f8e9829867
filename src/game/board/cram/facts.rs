//! What is known of a Cram position without search: facts that shorten it, each sound move
//! for move, and each checked against the plain search in the tests below.

use super::Cram;

impl Cram {
    /// Whether `b` is its own half turn about a corner point of the grid. Then the second
    /// player wins by answering each domino with its mirror image: no domino or cell is its own
    /// image, so the answer is always free (the full even x even board is the classic case).
    pub(super) fn mirrors_about_a_corner(&self, b: u64) -> bool {
        if b == 0 || b.count_ones() % 2 == 1 {
            return false;
        }
        let cols = self.cols;
        let top = b.trailing_zeros() as usize / cols;
        let bottom = (63 - b.leading_zeros() as usize) / cols;
        let used = self.columns_used(b);
        let (left, right) = (
            used.trailing_zeros() as usize,
            63 - used.leading_zeros() as usize,
        );
        if (bottom - top) % 2 == 0 || (right - left) % 2 == 0 {
            return false;
        }
        // The half turn sends cell k = r C + c to K - k, with K = (top + bottom) C + left +
        // right: reversing the word sends k to 63 - k, and a shift by K - 63 finishes it (no
        // cell of the span falls off, as every image is a cell of the span).
        let k = (top + bottom) * cols + left + right;
        let turned = match k.checked_sub(63) {
            Some(up) => b.reverse_bits() << up,
            None => b.reverse_bits() >> (63 - k),
        };
        turned == b
    }

    /// `b` without the extra tufts of each star: when two or more cells hang on one cell X
    /// (each has X as its only empty neighbour), all but one of them can go. Every move on X
    /// leaves the others dead, and taking X with either tuft leaves the same position, so the
    /// game keeps its options move for move.
    ///
    /// One pass does it, a side at a time: a centre has at most one tuft on each side, so the
    /// tufts hanging downwards keep their centres, and each later side drops the tufts whose
    /// centre an earlier side has claimed. Dropping a tuft makes no new extra one (its centre
    /// keeps a tuft, and nothing else touched it).
    pub(super) fn without_extra_tufts(&self, b: u64) -> u64 {
        let tufts = self.tufts(b);
        if tufts == 0 {
            return b;
        }
        let [u, d, l, r] = self.neighbours(b);
        let cols = self.cols;
        // Centres of the tufts whose neighbour is below, above, right, left.
        let mut claimed = (tufts & d) << cols;
        let above = (tufts & u) >> cols;
        let mut extra = (claimed & above) << cols;
        claimed |= above;
        let right = (tufts & r) << 1;
        extra |= (claimed & right) >> 1;
        claimed |= right;
        let left = (tufts & l) >> 1;
        extra |= (claimed & left) << 1;
        b & !extra
    }

    /// Cells with exactly one empty neighbour: tufts.
    pub(super) fn tufts(&self, b: u64) -> u64 {
        let [u, d, l, r] = self.neighbours(b);
        let two = (u & d) | (u & l) | (u & r) | (d & l) | (d & r) | (l & r);
        (u | d | l | r) & !two
    }

    /// For each direction (up, down, left, right), the cells of `b` whose neighbour that way
    /// is in `b` too.
    pub(super) fn neighbours(&self, b: u64) -> [u64; 4] {
        [
            b & (b << self.cols),
            b & (b >> self.cols),
            b & (b << 1) & !self.first_col,
            b & (b >> 1) & !self.last_col,
        ]
    }

    /// The cells next to some cell of `x`, in `b`.
    fn next_to(&self, x: u64, b: u64) -> u64 {
        ((x << 1 & !self.first_col) | (x >> 1 & !self.last_col) | x << self.cols | x >> self.cols)
            & b
    }

    /// `b` without its bridges: cells that are not tufts and whose every neighbour S has a
    /// tuft T of its own. Taking such a cell X with S leaves T dead, the same as taking T with
    /// S and leaving X, which the game without X allows; every other move keeps X a bridge (or
    /// makes it isolated or an extra tuft). So the options' values stay the same, move for
    /// move, by induction on the cells. Bridges are never neighbours (they are not stars), so
    /// all of them go at once.
    pub(super) fn without_bridges(&self, b: u64) -> u64 {
        let tufts = self.tufts(b);
        // Cells without a tuft of their own; a bridge has none of them next to it.
        let plain = b & !self.next_to(tufts, b);
        let bridges = b & !tufts & !self.next_to(plain, b);
        b & !bridges
    }

    /// The left cells of the horizontal dominoes that a closed 2 x 2 block makes needless. Let
    /// a and d be opposite corners of a 2 x 2 block of empty cells whose only empty neighbours
    /// are the block's other two cells, e and f, with a-e and f-d the horizontal dominoes.
    /// Taking a with e leaves d hanging on f alone, which is taking e with d (leaving a hanging
    /// on f) up to the swap of a and d; likewise f with d and a with f. Taking e or f with an
    /// outside cell leaves a and d as two tufts on one cell, or one tuft and a dead cell; every
    /// other move keeps the block closed. So, by induction on the cells, the game without the
    /// dominoes a-e and f-d has the same value, and the cells that only those dominoes join
    /// are independent games.
    pub(super) fn needless_horizontals(&self, b: u64) -> u64 {
        let [u, d, l, r] = self.neighbours(b);
        let cols = self.cols;
        // a top-left (nothing left or above), d bottom-right (nothing right or below).
        let top_left = b & !l & !u & r & d & ((b & !r & !d & l & u) >> (cols + 1));
        // a top-right (nothing right or above), d bottom-left (nothing left or below).
        let top_right = b & ((b & !u & !r & d & l) >> 1) & ((b & !l & !d & r & u) >> cols);
        let x = top_left | top_right;
        x | x << cols
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
    use crate::sg::{SearchConfig, SearchEngine, Shape};

    /// Every sub-board of 4x4 (each empty-cell set), valued with the theorems (tufts, G + G,
    /// mirror, strips, normal forms) and without.
    #[test]
    fn theorems_agree_on_every_small_board() {
        for (rows, cols) in [(4, 4), (3, 5), (5, 3)] {
            let g = cram(rows, cols);
            let mut bare = SearchEngine::Naive.searcher(&g, SearchConfig::bare());
            let mut full = SearchEngine::Naive.searcher(&g, SearchConfig::default());
            for b in 0..=g.full() {
                assert_eq!(full.nimber(b), bare.nimber(b), "{rows}x{cols} {b:#x}");
            }
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
        let shaped = |b| crate::sg::shape(&g, &SearchConfig::default(), b);
        let twins = g.pack(&[0b0011, 0, 0b1100]);
        assert_eq!(g.split(&twins).map(|p| p.len()), Some(2));
        assert!(matches!(shaped(twins), Shape::Known(0)));
        // A straight tromino's ends hang on its middle: it is a domino, and cancels one.
        assert!(matches!(
            shaped(g.pack(&[0b0011, 0, 0b1110])),
            Shape::Known(0)
        ));
        // A domino and a strip of four do not cancel.
        let pair = g.pack(&[0b0011, 0, 0b1111]);
        assert_eq!(g.split(&pair).map(|p| p.len()), Some(2));
        // Both are strips (Dawson's Kayles: 1 and 2), summed, not cancelled.
        assert!(matches!(shaped(pair), Shape::Known(3)));
    }

    #[test]
    fn bridges_go_and_closed_blocks_split() {
        let g = cram(3, 5);
        // #.#.#   The middle cell's neighbours each hold a tuft: it is a bridge.
        // .....
        // #####
        let b = g.pack(&[0b01010, 0b11111, 0]);
        assert_eq!(g.without_bridges(b), b & !g.pack(&[0, 0b00100, 0]));
        // A path of six has none: its middle cells have a neighbour without a tuft.
        let g = cram(3, 6);
        let path = g.pack(&[0, 0b111111, 0]);
        assert_eq!(g.without_bridges(path), path);
        // ##....   The 2 x 2 block's top-left and bottom-right corners touch only the block,
        // #..###   so its horizontal dominoes are needless and it falls into two columns:
        // #..###   the left one alone, the right one hanging on the row above (a path of 6).
        let b = g.pack(&[0b111100, 0b000110, 0b000110]);
        let needless = g.needless_horizontals(b);
        assert_eq!(needless, g.pack(&[0, 0b000010, 0b000010]));
        let mut parts = g.split(&b).unwrap();
        parts.sort();
        assert_eq!(parts.len(), 2, "{parts:?}");
        // No closed block in a 2 x 3 rectangle: its corners have two neighbours in a row.
        let g = cram(2, 3);
        assert_eq!(g.needless_horizontals(g.full()), 0);
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
