//! What is known of a Cram position without search: facts that shorten it, each sound move
//! for move, and each checked against the plain search in the tests below.

use super::{Cells, Cram};
use crate::game::Nimber;

/// A theorem that values a whole position outright, without search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fact {
    /// No two empty cells are adjacent: no move, value 0.
    NoDomino,
    /// The position is its own half turn about a corner point ([`Cram::mirrors_about_a_corner`]).
    Mirror,
    /// One straight strip of n cells is Dawson's Kayles of n.
    Strip,
}

impl Fact {
    /// The theorem in a few words, for the user who asks why no search ran.
    pub(crate) fn why(self) -> &'static str {
        match self {
            Fact::NoDomino => "no domino fits: no move, value 0",
            Fact::Mirror => {
                "the board is its own half turn about a corner point: the second player answers \
                 each domino with its image, value 0"
            }
            Fact::Strip => "one straight strip of n cells: Dawson's Kayles (octal 0.07) of n",
        }
    }
}

/// For each side of a cell, the cells of a set whose neighbour on that side is in the set too.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sides<W> {
    up: W,
    down: W,
    left: W,
    right: W,
}

impl<W: Cells> Sides<W> {
    /// The four words: up, down, left, right.
    fn words(&self) -> [W; 4] {
        [self.up, self.down, self.left, self.right]
    }

    /// Cells with exactly one neighbour: tufts.
    pub(super) fn tufts(&self) -> W {
        let [u, d, l, r] = self.words();
        // Two sides on one axis, or one on each.
        let two = (u & d) | (l & r) | ((u | d) & (l | r));
        (u | d | l | r) & !two
    }
}

impl<W: Cells> Cram<W> {
    /// The value of `b` by one of the [`Fact`]s, and which, when one applies.
    pub(crate) fn fact(&self, b: W) -> Option<(Nimber, Fact)> {
        let (h, v) = self.dominoes(b);
        if (h | v).is_zero() {
            return Some((0, Fact::NoDomino));
        }
        if self.mirrors_about_a_corner(b) {
            return Some((0, Fact::Mirror));
        }
        self.strip_len(b).map(|n| (self.strip[n], Fact::Strip))
    }

    /// Whether `b` is its own half turn about a corner point of the grid. Then the second
    /// player wins by answering each domino with its mirror image: no domino or cell is its own
    /// image, so the answer is always free (the full even x even board is the classic case).
    pub(super) fn mirrors_about_a_corner(&self, b: W) -> bool {
        if b.is_zero() {
            return false;
        }
        // A half turn swaps the first cell and the last, so it would send cell k = r C + c
        // to K - k with K their sum: reversing the word sends k to L - k (L the word's last
        // bit), and a shift by K - L finishes it. Most boards fail this word test; the rest must pass for a turn
        // of the grid about a corner point, with K = (top + bottom) C + left + right and both
        // spans odd (so no cell is its own image, and the number of cells is even).
        let last = W::BITS - 1;
        let k = b.trailing_zeros() as usize + Self::last_cell(b);
        let turned = match k.checked_sub(last) {
            Some(up) => b.reverse_bits() << up,
            None => b.reverse_bits() >> (last - k),
        };
        if turned != b {
            return false;
        }
        let (top, bottom) = self.rows_spanned(b);
        let used = self.columns_used(b);
        let (left, right) = (used.trailing_zeros() as usize, Self::last_cell(used));
        (bottom - top) % 2 == 1
            && (right - left) % 2 == 1
            && k == (top + bottom) * self.cols + left + right
    }

    /// `b` once extra tufts and bridges are gone, again and again until neither theorem
    /// applies, with its [`Sides`]. Each round takes both at once: a bridge of `b` is still one
    /// once the extra tufts are gone (its neighbours keep a tuft each, and none of them is an
    /// extra tuft, which would have no tuft of its own).
    pub(super) fn reduced(&self, mut b: W) -> (W, Sides<W>) {
        loop {
            let sides = self.sides(b);
            let tufts = sides.tufts();
            if tufts.is_zero() {
                return (b, sides);
            }
            let next = b & !self.extra_tufts(&sides, tufts) & !self.bridges(b, tufts);
            if next == b {
                return (b, sides);
            }
            b = next;
        }
    }

    /// The extra tufts of each star: when two or more cells hang on one cell X (each has X as
    /// its only empty neighbour), all but one of them can go. Every move on X leaves the others
    /// dead, and taking X with either tuft leaves the same position, so the game keeps its
    /// options move for move.
    ///
    /// A side at a time: a centre has at most one tuft on each side, so the tufts hanging
    /// downwards keep their centres, and each later side gives up the tufts whose centre an
    /// earlier side has claimed. Dropping a tuft makes no new extra one (its centre keeps a
    /// tuft, and nothing else touched it).
    fn extra_tufts(&self, sides: &Sides<W>, tufts: W) -> W {
        let cols = self.cols;
        // Centres of the tufts whose neighbour is below, above, right, left.
        let mut claimed = (tufts & sides.down) << cols;
        let above = (tufts & sides.up) >> cols;
        let mut extra = (claimed & above) << cols;
        claimed |= above;
        let right = (tufts & sides.right) << 1;
        extra |= (claimed & right) >> 1;
        claimed |= right;
        let left = (tufts & sides.left) >> 1;
        extra | (claimed & left) << 1
    }

    /// For each side, the cells of `b` whose neighbour on that side is in `b` too.
    pub(super) fn sides(&self, b: W) -> Sides<W> {
        Sides {
            up: b & (b << self.cols),
            down: b & (b >> self.cols),
            left: b & (b << 1) & !self.first_col,
            right: b & (b >> 1) & !self.last_col,
        }
    }

    /// The cells next to some cell of `x`, in `b`.
    fn next_to(&self, x: W, b: W) -> W {
        ((x << 1 & !self.first_col) | (x >> 1 & !self.last_col) | x << self.cols | x >> self.cols)
            & b
    }

    /// The bridges of `b`: cells that are not tufts and whose every neighbour S has a tuft T
    /// of its own. Taking such a cell X with S leaves T dead, the same as taking T with S and
    /// leaving X, which the game without X allows; every other move keeps X a bridge (or makes
    /// it isolated or an extra tuft). So the options' values stay the same, move for move, by
    /// induction on the cells. Bridges are never neighbours (they are not stars), so all of
    /// them go at once.
    fn bridges(&self, b: W, tufts: W) -> W {
        // Cells without a tuft of their own; a bridge has none of them next to it.
        let plain = b & !self.next_to(tufts, b);
        b & !tufts & !self.next_to(plain, b)
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
    pub(super) fn needless_horizontals(&self, sides: &Sides<W>) -> W {
        let [u, d, l, r] = sides.words();
        let cols = self.cols;
        // a top-left (nothing left or above), d bottom-right (nothing right or below).
        let top_left = !l & !u & r & d & ((!r & !d & l & u) >> (cols + 1));
        // a top-right (nothing right or above), d bottom-left (nothing left or below).
        let top_right = ((!u & !r & d & l) >> 1) & ((!l & !d & r & u) >> cols);
        let x = top_left | top_right;
        x | x << cols
    }

    /// Whether `b` is one straight strip of cells (in a row or a column), and its length.
    pub(super) fn strip_len(&self, b: W) -> Option<usize> {
        if b.is_zero() {
            return None;
        }
        let low = b.trailing_zeros() as usize;
        let run = b >> low;
        let last = Self::last_cell(run);
        // A row: consecutive bits, all in the first cell's row.
        if (run & run.wrapping_add(&W::one())).is_zero()
            && self.row_of[low + last] == self.row_of[low]
        {
            return Some(last + 1);
        }
        // A column: the first column's cells up to the last one.
        (run == self.first_col & (W::max_value() >> (W::BITS - 1 - last)))
            .then(|| self.row_of[last] as usize + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cram, has, wide, words};
    use super::{Cells, Cram};
    use crate::game::Game;
    use crate::sg::{SearchConfig, SearchEngine, Shape, Shaper};

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
        let (reduced, _) = g.reduced(plus);
        assert_eq!(reduced.count_ones(), 2, "{reduced:#b}");
        assert_eq!(reduced & g.pack(&[0, 0b010, 0]), g.pack(&[0, 0b010, 0]));
        // Two dominoes apart are G + G.
        let g = cram(3, 4);
        let mut shaper = Shaper::new(&g, SearchConfig::default());
        let mut shaped = |b| shaper.shape(b);
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
        let bridges = |b| g.bridges(b, g.sides(b).tufts());
        assert_eq!(bridges(b), g.pack(&[0, 0b00100, 0]));
        // A path of six has none: its middle cells have a neighbour without a tuft.
        let g = cram(3, 6);
        let path = g.pack(&[0, 0b111111, 0]);
        assert_eq!(g.bridges(path, g.sides(path).tufts()), 0);
        // ##....   The 2 x 2 block's top-left and bottom-right corners touch only the block,
        // #..###   so its horizontal dominoes are needless and it falls into two columns:
        // #..###   the left one alone, the right one hanging on the row above (a path of 6).
        let b = g.pack(&[0b111100, 0b000110, 0b000110]);
        let needless = g.needless_horizontals(&g.sides(b));
        assert_eq!(needless, g.pack(&[0, 0b000010, 0b000010]));
        let mut parts = g.split(&b).unwrap();
        parts.sort();
        assert_eq!(parts.len(), 2, "{parts:?}");
        // No closed block in a 2 x 3 rectangle: its corners have two neighbours in a row.
        let g = cram(2, 3);
        assert_eq!(g.needless_horizontals(&g.sides(g.full())), 0);
    }

    /// Strips against their definition: the cells are one row's consecutive cells or one
    /// column's, on every board of 3 x 5, 5 x 1 and 1 x 6.
    #[test]
    fn strips_by_definition() {
        for (rows, cols) in [(3, 5), (5, 1), (1, 6)] {
            let g = cram(rows, cols);
            for b in 1..=g.full() {
                let cells: Vec<(usize, usize)> = (0..rows * cols)
                    .filter(|&k| b >> k & 1 == 1)
                    .map(|k| (k / cols, k % cols))
                    .collect();
                let n = cells.len();
                let row = cells.iter().all(|c| c.0 == cells[0].0)
                    && cells.last().unwrap().1 - cells[0].1 + 1 == n;
                let column = cells.iter().all(|c| c.1 == cells[0].1)
                    && cells.last().unwrap().0 - cells[0].0 + 1 == n;
                let want = (row || column).then_some(n);
                assert_eq!(g.strip_len(b), want, "{rows}x{cols} {b:#b}");
            }
        }
    }

    /// The word test for a half turn against the turn applied cell by cell, on symmetric
    /// boards made by or-ing pseudo-random cells with their images, and on those boards with
    /// one cell less.
    #[test]
    fn half_turns_by_definition() {
        fn by_definition<W: Cells>(g: &Cram<W>, b: W) -> bool {
            let (_, cols) = g.dims();
            let cells: Vec<(usize, usize)> = (0..W::BITS)
                .filter(|&k| has(b, k))
                .map(|k| (k / cols, k % cols))
                .collect();
            let (Some(top), Some(bottom)) = (
                cells.iter().map(|c| c.0).min(),
                cells.iter().map(|c| c.0).max(),
            ) else {
                return false;
            };
            let left = cells.iter().map(|c| c.1).min().unwrap();
            let right = cells.iter().map(|c| c.1).max().unwrap();
            (bottom - top) % 2 == 1
                && (right - left) % 2 == 1
                && cells.iter().all(|&(r, c)| {
                    let (r, c) = (top + bottom - r, left + right - c);
                    has(b, r * cols + c)
                })
        }
        fn check<W: Cells>(g: &Cram<W>, x: u64) {
            let (rows, cols) = g.dims();
            // A box of even sides somewhere on the board, its cells at random, and each
            // cell's image about the box's centre.
            let (h, w) = (
                2 + 2 * (x % (rows as u64 / 2)) as usize,
                2 + 2 * (x >> 8) as usize % (cols / 2),
            );
            let (top, left) = (
                (x >> 16) as usize % (rows - h + 1),
                (x >> 24) as usize % (cols - w + 1),
            );
            let mut b = W::zero();
            for r in 0..h {
                for c in 0..w {
                    if x.rotate_left((r * w + c) as u32 % 64) & 1 == 1 {
                        b |= W::one() << ((top + r) * cols + left + c);
                        b |= W::one() << ((top + h - 1 - r) * cols + left + w - 1 - c);
                    }
                }
            }
            let one_less = if b.is_zero() { b } else { b & (b - W::one()) };
            let hole = b & g.full() & !(W::one() << (x as usize % (rows * cols)));
            for b in [b, one_less, hole] {
                assert_eq!(
                    g.mirrors_about_a_corner(b),
                    by_definition(g, b),
                    "{rows}x{cols} {b:#x}"
                );
            }
        }
        for (rows, cols) in [(4, 4), (5, 7), (8, 8), (4, 11), (2, 32), (6, 10)] {
            let g = cram(rows, cols);
            words(4).take(3000).for_each(|x| check(&g, x));
        }
        for (rows, cols) in [(6, 12), (6, 14), (9, 13), (4, 32), (11, 11), (64, 2)] {
            let g = wide(rows, cols);
            words(4).take(3000).for_each(|x| check(&g, x));
        }
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
