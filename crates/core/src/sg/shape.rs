//! From a position to what an engine searches: values known by theorem, sums split into parts,
//! canonical forms. Every engine shapes each successor before it looks anything up.

use super::SearchConfig;
use crate::game::{Game, Nimber, Parts};

/// How a node looks once the configured theorems are applied.
#[derive(Clone, Debug)]
pub(crate) enum Shape<P> {
    /// The value is known without search.
    Known(Nimber),
    /// A sum of independent components: the nim-sum of those known without search, and the
    /// others, plain and canonical (when symmetry is on), the heaviest last. There are two or
    /// more of them, or one beside a non-zero nim-sum.
    Sum(Nimber, Parts<P>),
    /// A position to search, in canonical form when symmetry is on.
    Plain(P),
}

/// A part shaped: [`Shape`] without the sum, small enough for many cache slots.
#[derive(Clone, Debug)]
enum Part<P> {
    Known(Nimber),
    Plain(P),
}

/// A cached part and its shape.
type Slot<P> = Option<(P, Part<P>)>;

/// Shapes positions for one engine, remembering the parts it has shaped: the same part turns
/// up again and again among siblings and cousins (on Cram 5 x 6, a raw region recurs five
/// times on average), and on games where the canonical form is the costly step
/// ([`Game::PART_CACHE_BITS`]) a look-up beats doing it again.
pub(crate) struct Shaper<'g, G: Game> {
    game: &'g G,
    cfg: SearchConfig,
    /// Direct-mapped: a slot per hash, overwritten by the newest part. It starts small and
    /// doubles, emptied, each time it has missed as often as it has slots, up to
    /// [`Game::PART_CACHE_BITS`]: a search that settles at once (an even board of Cram) need
    /// not fill the pages of the full cache.
    cache: Vec<Slot<G::Position>>,
    misses: usize,
    hasher: ahash::RandomState,
    /// The parts [`Self::shape`] collects, kept for the next call.
    scratch: Vec<G::Position>,
}

/// The cache's first size, as a power of two (at most [`Game::PART_CACHE_BITS`]).
const FIRST_CACHE_BITS: u32 = 6;

impl<'g, G: Game> Shaper<'g, G> {
    pub(crate) fn new(game: &'g G, cfg: SearchConfig) -> Self {
        let slots = match G::PART_CACHE_BITS {
            0 => 0,
            bits => 1 << bits.min(FIRST_CACHE_BITS),
        };
        Shaper {
            game,
            cfg,
            cache: vec![None; slots],
            misses: 0,
            // Fixed seeds: every run hits and misses alike (the cache changes no value, only
            // which parts are shaped again).
            hasher: super::tt::fixed_hasher(),
            scratch: Vec::new(),
        }
    }

    /// Splits `p` into parts, then applies shortcuts and canonical forms to each (or to `p`
    /// when it does not split). Twin parts (equal once canonical) are dropped: G + G = 0 in
    /// any game. The shortcuts are not tried on a sum as a whole: a theorem about a sum is one
    /// about its parts.
    pub(crate) fn shape(&mut self, p: G::Position) -> Shape<G::Position> {
        let mut plain = std::mem::take(&mut self.scratch);
        let x = self.shape_into(p, &mut plain);
        let shape = match plain.len() {
            0 => Shape::Known(x),
            1 if x == 0 => Shape::Plain(plain.pop().expect("one part")),
            _ => Shape::Sum(x, plain.drain(..).collect()),
        };
        self.scratch = plain;
        shape
    }

    /// [`Self::shape`] into a buffer the caller keeps: appends to `out` the parts to search
    /// (canonical, twins cancelled, the heaviest last) and returns the nim-sum of the others.
    /// An engine that shapes every successor saves building a [`Shape`] for each.
    pub(crate) fn shape_into(&mut self, p: G::Position, out: &mut Vec<G::Position>) -> Nimber {
        let parts = match self.cfg.split {
            true => self.game.split(&p),
            false => None,
        };
        let Some(parts) = parts else {
            return match self.cached(p) {
                Part::Known(v) => v,
                Part::Plain(c) => {
                    out.push(c);
                    0
                }
            };
        };
        let (first, mut x) = (out.len(), 0);
        for q in parts {
            match self.cached(q) {
                Part::Known(v) => x ^= v,
                Part::Plain(c) => match out[first..].iter().position(|d| *d == c) {
                    Some(twin) => {
                        out.swap_remove(first + twin);
                    }
                    None => out.push(c),
                },
            }
        }
        out[first..].sort_by_key(|q| self.game.weight(q));
        x
    }

    /// The value of `p` known without expanding anything: by theorem, or from `lookup` (the
    /// transposition table) for `p` or, when `p` is a sum, for every one of its parts. This is
    /// what enhanced transposition cut-off asks of each successor; on games that split (Cram),
    /// most successors are sums.
    pub(crate) fn value_without_search(
        &mut self,
        p: G::Position,
        mut lookup: impl FnMut(&G::Position) -> Option<Nimber>,
    ) -> Option<Nimber> {
        match self.shape(p) {
            Shape::Known(v) => Some(v),
            Shape::Plain(c) => lookup(&c),
            // The heaviest part, last, is the likeliest to be unknown: look it up first.
            Shape::Sum(x, parts) => parts.iter().rev().try_fold(x, |x, c| Some(x ^ lookup(c)?)),
        }
    }

    /// A part that does not split again (or a position that did not split): its known value
    /// or its canonical form, from the cache when it holds `q`.
    fn cached(&mut self, q: G::Position) -> Part<G::Position> {
        if self.cache.is_empty() {
            return self.part(q);
        }
        let slot = self.hasher.hash_one(&q) as usize & (self.cache.len() - 1);
        if let Some((key, shaped)) = &self.cache[slot] {
            if *key == q {
                return shaped.clone();
            }
        }
        let shaped = self.part(q.clone());
        self.misses += 1;
        if self.misses == self.cache.len() && self.cache.len() < 1 << G::PART_CACHE_BITS {
            self.cache = vec![None; 2 * self.cache.len()];
            self.misses = 0;
        } else {
            self.cache[slot] = Some((q, shaped.clone()));
        }
        shaped
    }

    /// [`Self::cached`] without the cache.
    fn part(&self, mut q: G::Position) -> Part<G::Position> {
        if self.cfg.shortcuts {
            if let Some(v) = self.game.known_value(&q) {
                return Part::Known(v);
            }
        }
        if self.cfg.symmetry {
            self.game.canonicalize(&mut q);
        }
        Part::Plain(q)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::Cram;

    /// The cache starts small, grows to the game's size as parts keep missing, and shapes as
    /// a shaper without it does (Part has no equality: compared by what it prints).
    #[test]
    fn the_cache_grows_and_changes_no_shape() {
        let g: Cram = Cram::new("cram:4x4", 4, 4).unwrap();
        let mut shaper = Shaper::new(&g, SearchConfig::default());
        assert_eq!(shaper.cache.len(), 1 << FIRST_CACHE_BITS);
        for round in 0..2 {
            for b in 0..=g.full() {
                let cached = format!("{:?}", shaper.cached(b));
                assert_eq!(cached, format!("{:?}", shaper.part(b)), "{round} {b:#x}");
            }
        }
        assert_eq!(shaper.cache.len(), 1 << <Cram>::PART_CACHE_BITS);
    }
}
