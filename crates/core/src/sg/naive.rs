//! The definition: SG(p) = mex of the successors' values, with a memo table.
//!
//! The reference every other engine is tested against, and the thesis's method (memoisation,
//! symmetry removal, early stops) for benchmarks.

use super::shared::Sharing;
use super::tt::{weight, Tt, Weight};
use super::{BufferPool, Hook, Known, Pulse, SearchConfig, Searcher, Shape, Shaper, Stats};
use crate::game::NimSet;
use crate::game::{Game, Nimber, Parts};
use crate::stop::{Stop, Stopped};

/// Memoised recursion over the definition.
pub struct Naive<'g, G: Game> {
    game: &'g G,
    cfg: SearchConfig,
    shaper: Shaper<'g, G>,
    memo: Tt<G::Position, Nimber>,
    /// Whether values are stored under each member of an orbit, and positions looked up as
    /// they are ([`Game::stores_orbits`]), rather than canonicalized: with an unbounded table.
    orbits: bool,
    nodes: u64,
    buffers: BufferPool<G::Position>,
    pulse: Pulse<G::Position>,
    /// The table shared with other threads, when one of several searches the position.
    share: Option<Sharing<G::Position>>,
    /// Moves from the root to the node being valued.
    ply: u32,
}

impl<'g, G: Game> Naive<'g, G> {
    /// A searcher with an empty memo table.
    pub fn new(game: &'g G, cfg: SearchConfig) -> Self {
        // A bounded table keeps one entry per orbit, so that its capacity means what it did.
        let orbits = cfg.symmetry && cfg.tt.capacity.is_none() && game.stores_orbits();
        let shaping = SearchConfig {
            symmetry: cfg.symmetry && !orbits,
            ..cfg
        };
        Naive {
            game,
            cfg,
            shaper: Shaper::new(game, shaping),
            orbits,
            memo: Tt::new(cfg.tt),
            nodes: 0,
            buffers: BufferPool::new(),
            pulse: Pulse::default(),
            share: None,
            ply: 0,
        }
    }

    /// The same searcher as one thread of a parallel search.
    pub(crate) fn sharing(mut self, share: Sharing<G::Position>) -> Self {
        self.share = Some(share);
        self
    }

    /// `p` as this searcher would search it: its theorems, parts and canonical forms, for a
    /// parallel search that splits the nodes near the root itself ([`super::split`]).
    pub(crate) fn shape(&mut self, p: G::Position) -> Shape<G::Position> {
        self.shaper.shape(p)
    }

    /// Whether the search saw its stop token stopped: its values mean nothing from then on.
    pub(crate) fn stopped(&self) -> bool {
        self.pulse.stopped()
    }

    /// Calls the hook, between two nodes: whether the search was stopped.
    fn beat(&mut self) -> bool {
        let mut pulse = std::mem::take(&mut self.pulse);
        let stopped = pulse.beat(self.nodes, self);
        self.pulse = pulse;
        stopped
    }

    /// The value of `p`, shaped here (meaningless once [`Self::stopped`]).
    pub(crate) fn value(&mut self, p: G::Position) -> Nimber {
        self.nodes += 1;
        match self.shaper.shape(p) {
            Shape::Known(v) => v,
            Shape::Sum(x, parts) => parts.into_iter().fold(x, |x, c| {
                self.nodes += 1;
                x ^ self.plain_value(c)
            }),
            Shape::Plain(p) => self.plain_value(p),
        }
    }

    /// The value of a position already shaped: plain, and canonical when symmetry is on.
    fn plain_value(&mut self, p: G::Position) -> Nimber {
        // A stopped search ends each node at once with a value that means nothing.
        if self.pulse.due(self.nodes) && self.beat() {
            return 0;
        }
        if let Some(v) = self.memo.get(&p) {
            return v;
        }
        if let Some(v) = self.share.as_ref().and_then(|t| t.get(&p)) {
            return v;
        }
        let start = self.nodes;
        let mut moves = self.buffers.take();
        super::list_moves(self.game, &self.cfg, &p, &mut moves);
        if let Some(share) = &self.share {
            share.diverge(self.ply, &mut moves);
        }
        self.ply += 1;
        let mut seen = NimSet::new();
        for q in moves.drain(..) {
            seen.insert(self.value(q));
        }
        self.ply -= 1;
        self.buffers.give(moves);
        let v = seen.mex();
        if self.pulse.stopped() {
            return v;
        }
        let w = weight(self.nodes - start);
        if let Some(share) = &self.share {
            share.publish(&p, v, w);
        }
        if self.orbits {
            let mut images = Parts::new();
            self.game.images(&p, &mut images);
            for q in images {
                // Other threads look positions up as they are too (on Chomp 12 x 12 sharing
                // `p` alone left the two threads repeating each other's mirror images).
                if let Some(share) = &self.share {
                    share.publish(&q, v, w);
                }
                self.memo.put(q, v, w);
            }
        }
        self.memo.put(p, v, w);
        v
    }
}

impl<G: Game> Searcher<G> for Naive<'_, G> {
    fn try_nimber(&mut self, p: G::Position) -> Result<Nimber, Stopped> {
        let v = self.value(p);
        self.pulse.answer(v)
    }

    fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            tt_lookups: self.memo.lookups(),
            tt_evictions: self.memo.evicted(),
        }
    }

    fn learn(&mut self, p: G::Position, v: Nimber, w: Weight) {
        self.memo.put(p, v, w);
    }

    fn reserve(&mut self, additional: usize) -> usize {
        self.memo.reserve(additional)
    }

    fn set_hook(&mut self, hook: Hook<G::Position>) {
        self.pulse.set(hook, self.nodes);
    }

    fn set_stop(&mut self, stop: Stop) {
        self.pulse.set_stop(stop, self.nodes);
    }

    fn known(&self) -> &dyn Known<G::Position> {
        self
    }
}

/// The memo holds values only.
impl<G: Game> Known<G::Position> for Naive<'_, G> {
    fn each_known(&self, f: &mut dyn FnMut(&G::Position, Nimber, Weight)) {
        self.memo.for_each(|p, &v, w| f(p, v, w));
    }

    fn held_still(&self, f: &mut dyn FnMut(&dyn Known<G::Position>)) {
        f(self)
    }
}
