//! Lemoine & Viennot: the nimber is the least n such that the couple (p, *n) is losing.
//!
//! `is_losing(p, n)` decides the sum of p and a nim heap of n; the table stores nimbers, so a
//! stored p answers every n at once, and enhanced transposition cut-off (ETC) skips successors
//! known to be winning (Listing 9 of Beling & Rogalski). A sum p1 + ... + pk is decided by
//! valuing all but the heaviest part and shifting n by their nim-sum (Algorithm 2).

use super::tt::{weight, Tt, Weight};
use super::{BufferPool, Hook, Known, Pulse, SearchConfig, Searcher, Shape, Shaper, Stats};
use crate::game::{Game, Nimber};
use crate::stop::{Stop, Stopped};

/// The couple search, keeping its table between positions.
pub struct Lv<'g, G: Game> {
    game: &'g G,
    cfg: SearchConfig,
    shaper: Shaper<'g, G>,
    tt: Tt<G::Position, Nimber>,
    nodes: u64,
    buffers: BufferPool<G::Position>,
    pulse: Pulse<G::Position>,
}

/// What ETC learned about one successor of (p, *n).
enum Verdict {
    /// The successor is losing: (p, *n) is winning.
    Losing,
    /// The successor is winning: skip it.
    Winning,
    Unknown,
}

impl<'g, G: Game> Lv<'g, G> {
    /// A searcher with an empty table.
    pub fn new(game: &'g G, cfg: SearchConfig) -> Self {
        Lv {
            game,
            cfg,
            shaper: Shaper::new(game, cfg),
            tt: Tt::new(cfg.tt),
            nodes: 0,
            buffers: BufferPool::new(),
            pulse: Pulse::default(),
        }
    }

    /// Calls the hook, between two nodes: whether the search was stopped.
    fn beat(&mut self) -> bool {
        let mut pulse = std::mem::take(&mut self.pulse);
        let stopped = pulse.beat(self.nodes, self);
        self.pulse = pulse;
        stopped
    }

    fn value(&mut self, p: G::Position) -> Nimber {
        (0..)
            .find(|&n| self.is_losing(p.clone(), n))
            .expect("some heap size matches")
    }

    /// [`Self::value`] of a position already shaped (plain, canonical when symmetry is on).
    fn plain_value(&mut self, p: &G::Position) -> Nimber {
        (0..)
            .find(|&n| self.is_losing_plain(p, n))
            .expect("some heap size matches")
    }

    /// Whether p + *n is a second-player win, i.e. whether SG(p) = n.
    fn is_losing(&mut self, p: G::Position, n: Nimber) -> bool {
        self.nodes += 1;
        match self.shaper.shape(p) {
            Shape::Known(v) => v == n,
            Shape::Sum(x, parts) => {
                let (last, rest) = parts.split_last().expect("a sum has parts");
                let x = rest.iter().fold(x, |x, c| x ^ self.plain_value(c));
                self.is_losing_plain(last, n ^ x)
            }
            Shape::Plain(p) => self.decide(&p, n),
        }
    }

    /// [`Self::is_losing`] of a position already shaped.
    fn is_losing_plain(&mut self, p: &G::Position, n: Nimber) -> bool {
        self.nodes += 1;
        self.decide(p, n)
    }

    /// Whether p + *n is losing, for a plain `p`: from the table, or by its moves and the
    /// moves in the heap.
    fn decide(&mut self, p: &G::Position, n: Nimber) -> bool {
        // A stopped search ends each couple at once as losing, which ends the loops over heap
        // sizes; nothing is stored from then on.
        if self.pulse.due(self.nodes) && self.beat() {
            return true;
        }
        if let Some(v) = self.tt.get(p) {
            return v == n;
        }
        let start = self.nodes;
        let mut moves = self.buffers.take();
        super::list_moves(self.game, &self.cfg, p, &mut moves);
        let mut kept = 0;
        for i in 0..moves.len() {
            match self.verdict(&moves[i], n) {
                Verdict::Losing => {
                    self.buffers.give(moves);
                    return false;
                }
                Verdict::Winning => {}
                Verdict::Unknown => {
                    moves.swap(kept, i);
                    kept += 1;
                }
            }
        }
        moves.truncate(kept);
        // Moves in the heap first: they are couples on p itself, often already decided.
        let mut losing = (0..n).all(|i| !self.is_losing_plain(p, i));
        if losing {
            for m in moves.drain(..) {
                if self.is_losing(m, n) {
                    losing = false;
                    break;
                }
            }
        }
        self.buffers.give(moves);
        if losing && !self.pulse.stopped() {
            self.tt.put(p.clone(), n, weight(self.nodes - start));
        }
        losing
    }

    fn verdict(&mut self, m: &G::Position, n: Nimber) -> Verdict {
        let tt = &mut self.tt;
        match self.shaper.value_without_search(m.clone(), |c| tt.get(c)) {
            Some(v) if v == n => Verdict::Losing,
            Some(_) => Verdict::Winning,
            None => Verdict::Unknown,
        }
    }
}

impl<G: Game> Searcher<G> for Lv<'_, G> {
    fn try_nimber(&mut self, p: G::Position) -> Result<Nimber, Stopped> {
        let v = self.value(p);
        self.pulse.answer(v)
    }

    fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            tt_lookups: self.tt.lookups(),
            tt_evictions: self.tt.evicted(),
        }
    }

    fn learn(&mut self, p: G::Position, v: Nimber, w: Weight) {
        self.tt.put(p, v, w);
    }

    fn reserve(&mut self, additional: usize) -> usize {
        self.tt.reserve(additional)
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

/// The table holds values only: a position is stored once found losing beside a heap of n.
impl<G: Game> Known<G::Position> for Lv<'_, G> {
    fn each_known(&self, f: &mut dyn FnMut(&G::Position, Nimber, Weight)) {
        self.tt.for_each(|p, &v, w| f(p, v, w));
    }

    fn held_still(&self, f: &mut dyn FnMut(&dyn Known<G::Position>)) {
        f(self)
    }
}
