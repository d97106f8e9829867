//! Mex-tree search with pruning: Beling & Rogalski's `def`, `scut`, `cut` and their extensions.
//!
//! A node keeps the set P of values it may still have: {0, ..., |moves|} at first, and each
//! successor removes one element (its value if in P, else max P). A call may be told a set R of
//! values its caller cares about; once P and R are disjoint the node returns "not in R" (here
//! `None`) without visiting the rest. Extensions, by suffix:
//! - `R` resuming: a cut-off node stores P, and a later visit resumes where it stopped;
//! - `E` enhanced transposition cut-off: before recursing, remove what the table already knows
//!   about successors; `cE` also stops as soon as P and R are disjoint during that pass;
//! - `A` aspiration sets: ask "is it 0?", "is it 1?", ... at the root.
//!
//! Sums are searched as in section 3 of the paper: all components but the heaviest are valued
//! exactly, and the heaviest is searched against R xor-shifted by their nim-sum. With `E`, a
//! successor that splits is looked up component by component, the known ones folded into its
//! nim-sum and the rest kept for the search; with splitting and the heuristic order the
//! successors are then searched cheapest first ([`Game::part_cost`]), as igs orders Cram.

mod open;
mod variant;

use std::num::NonZeroU32;

pub(crate) use open::Opened;
pub use variant::Variant;
pub(crate) use variant::{Etc, Pruning};

use super::shared::Sharing;
use super::tt::{weight, Tt, Weight};
use super::{BufferPool, Hook, Known, Pulse, SearchConfig, Searcher, Shape, Shaper, Stats};
use crate::game::NimSet;
use crate::game::{Game, MoveOrder, Nimber};
use crate::stop::{Stop, Stopped};

/// What the table holds for a position, in four bytes: an exact value, or (with [`PARTIAL`]
/// set) the index in [`CutSearch::partials`] of a resumable P, after the first
/// |moves| + 1 - |P| successors (resuming variants only). It is kept complemented, so that
/// it is never zero and the table's empty slot costs no room: with a one-word key an entry
/// takes 16 bytes, and the table is most of a search's memory traffic.
#[derive(Clone, Copy, Debug)]
struct Entry(NonZeroU32);

/// Plies of a thread's own search (of a subtree, under [`super::ybw`]) whose nodes it marks as
/// being expanded, and whose successors that another thread marked it searches last. On Cram
/// 5 x 9 on two threads, marks to 4 plies took the second thread's extra nodes from 25% to 14%
/// of one thread's; 2 to 20 plies all gave 14-15%, and more plies only cost more marks
/// (docs/benchmarks.md, 2026-11-29).
const MARKED_PLIES: u32 = 4;

/// The bit of an [`Entry`] that marks a partial set.
const PARTIAL: u32 = 1 << 31;

/// An [`Entry`] read.
enum Held {
    Exact(Nimber),
    Partial(usize),
}

impl Entry {
    fn exact(v: Nimber) -> Entry {
        assert!(v < PARTIAL, "a nimber below 2^31");
        Entry::raw(v)
    }

    fn partial(i: usize) -> Entry {
        assert!(
            i < (PARTIAL - 1) as usize,
            "fewer than 2^31 - 1 resumable sets"
        );
        Entry::raw(PARTIAL | i as u32)
    }

    fn raw(raw: u32) -> Entry {
        Entry(NonZeroU32::new(!raw).expect("not every bit set"))
    }

    fn held(self) -> Held {
        let raw = !self.0.get();
        match raw & PARTIAL {
            0 => Held::Exact(raw),
            _ => Held::Partial((raw & !PARTIAL) as usize),
        }
    }
}

/// A searcher for one variant, keeping its table between positions.
pub struct CutSearch<'g, G: Game> {
    game: &'g G,
    cfg: SearchConfig,
    shaper: Shaper<'g, G>,
    variant: Variant,
    tt: Tt<G::Position, Entry>,
    /// The resumable sets the table points to, and the slots no entry points to any more.
    partials: Vec<NimSet>,
    free: Vec<usize>,
    nodes: u64,
    buffers: BufferPool<G::Position>,
    pendings: Vec<Vec<Pending>>,
    /// Whether successors are searched cheapest first by [`Game::part_cost`].
    by_cost: bool,
    pulse: Pulse<G::Position>,
    /// The table shared with other threads, when one of several searches the position.
    share: Option<Sharing<G::Position>>,
    /// Moves from the root to the node being expanded.
    ply: u32,
}

/// A successor still to search once ETC has looked up what it could: the nim-sum `x` of the
/// parts the table knew, and the unknown parts `parts[first..first + len]` (canonical, the
/// heaviest last), which cost `cost` together.
#[derive(Clone, Copy, Debug)]
struct Pending {
    x: Nimber,
    first: usize,
    len: usize,
    cost: u64,
}

/// The set handed to a successor: P without its largest member, capped at max R for `cut`;
/// `None` for `def`, which values every successor exactly.
pub(crate) fn child_set(p: &NimSet, pruning: Pruning, max_r: Option<Nimber>) -> Option<NimSet> {
    let mut child = p.clone();
    child.pop_max();
    match (pruning, max_r) {
        (Pruning::Def, _) => None,
        (Pruning::Cut, Some(mr)) => {
            child.keep_at_most(mr);
            Some(child)
        }
        _ => Some(child),
    }
}

/// Removes what one successor's value (or "not in R") tells about P.
pub(crate) fn exclude(p: &mut NimSet, v: Option<Nimber>) {
    match v {
        Some(v) if p.contains(v) => p.remove(v),
        _ => {
            p.pop_max();
        }
    }
}

impl<'g, G: Game> CutSearch<'g, G> {
    /// A searcher with an empty table.
    pub fn new(game: &'g G, variant: Variant, cfg: SearchConfig) -> Self {
        CutSearch {
            game,
            cfg,
            shaper: Shaper::new(game, cfg),
            variant,
            tt: Tt::new(cfg.tt),
            partials: Vec::new(),
            free: Vec::new(),
            nodes: 0,
            buffers: BufferPool::new(),
            pendings: Vec::new(),
            by_cost: cfg.split && cfg.shuffle.is_none() && cfg.order == MoveOrder::Heuristic,
            pulse: Pulse::default(),
            share: None,
            ply: 0,
        }
    }

    /// The same searcher as one thread of a parallel search.
    pub(crate) fn sharing(mut self, share: Sharing<G::Position>) -> Self {
        debug_assert!(!self.variant.resume, "resuming variants search alone");
        self.share = Some(share);
        self
    }

    /// Calls the hook, between two nodes: whether the search was stopped.
    fn beat(&mut self) -> bool {
        let mut pulse = std::mem::take(&mut self.pulse);
        let stopped = pulse.beat(self.nodes, self);
        self.pulse = pulse;
        stopped
    }

    /// The value of `s` if it lies in `r` (`None` = every value); otherwise the value or `None`.
    pub fn search(&mut self, s: G::Position, r: Option<&NimSet>) -> Option<Nimber> {
        self.nodes += 1;
        match self.shaper.shape(s) {
            Shape::Known(v) => Some(v),
            Shape::Sum(x, parts) => self.search_sum(x, &parts, r),
            Shape::Plain(s) => self.expand(s, r),
        }
    }

    /// A sum of `x` and plain `parts`, the heaviest last: all parts but the heaviest valued
    /// exactly, and the heaviest searched against R shifted by the others' nim-sum.
    fn search_sum(
        &mut self,
        mut x: Nimber,
        parts: &[G::Position],
        r: Option<&NimSet>,
    ) -> Option<Nimber> {
        let (last, rest) = parts.split_last().expect("a sum has parts");
        for c in rest {
            x ^= self
                .visit(c.clone(), None)
                .expect("a search without R is exact");
        }
        let shifted = r.map(|r| r.xor_each(x));
        self.visit(last.clone(), shifted.as_ref()).map(|v| v ^ x)
    }

    /// A node whose position is already plain and canonical: a part of a sum.
    fn visit(&mut self, c: G::Position, r: Option<&NimSet>) -> Option<Nimber> {
        self.nodes += 1;
        self.expand(c, r)
    }

    /// The value the table holds for a canonical position, if exact, or else the value
    /// another thread shared.
    fn table_value(&mut self, c: &G::Position) -> Option<Nimber> {
        match self.tt.get(c).map(Entry::held) {
            Some(Held::Exact(v)) => Some(v),
            Some(Held::Partial(i)) => self.partials[i].only(),
            None => self.share.as_ref().and_then(|t| t.get(c)),
        }
    }

    /// Stores an exact value, which cost `weight` to find.
    fn store_exact(&mut self, s: G::Position, v: Nimber, weight: Weight) {
        if self.pulse.stopped() {
            return;
        }
        if let Some(share) = &self.share {
            share.publish(&s, v, weight);
        }
        let left = self.tt.put(s, Entry::exact(v), weight);
        self.release(left);
    }

    /// Stores a resumable set, which cost `weight` to find.
    fn store_partial(&mut self, s: G::Position, p: NimSet, weight: Weight) {
        if self.pulse.stopped() {
            return;
        }
        let i = match self.free.pop() {
            Some(i) => {
                self.partials[i] = p;
                i
            }
            None => {
                self.partials.push(p);
                self.partials.len() - 1
            }
        };
        let left = self.tt.put(s, Entry::partial(i), weight);
        self.release(left);
    }

    /// Frees the set of an entry that left the table.
    fn release(&mut self, left: Option<Entry>) {
        if let Some(Held::Partial(i)) = left.map(Entry::held) {
            self.free.push(i);
        }
    }

    /// ETC (Listing 6) on every successor: each is valued from the table where it can be,
    /// part by part when it is a sum, or else kept, taken apart, for the search.
    ///
    /// When the table prefetches (a large one, where a look-up is mostly a wait on memory),
    /// each successor is shaped one ahead of its look-ups, so that the wait passes while the
    /// next is shaped. A small table is not worth it: at a cut-off the successor shaped ahead is
    /// work thrown away (on Cram 5 x 9 that cost 10%).
    fn etc_pass(
        &mut self,
        moves: &mut Vec<G::Position>,
        p: &mut NimSet,
        r: Option<&NimSet>,
        parts: &mut Vec<G::Position>,
        pending: &mut Vec<Pending>,
    ) -> Result<(), ()> {
        let ahead = self.tt.prefetches();
        let mut moves = moves.drain(..);
        let mut shaped = None;
        // The unknown parts found so far are packed at the front of `parts`.
        let mut kept = parts.len();
        while shaped.is_some() || moves.len() > 0 {
            // Listing 6's optional line 3 stands before each look-up.
            if self.variant.etc == Etc::WithCutoff && r.is_some_and(|r| p.is_disjoint(r)) {
                return Err(());
            }
            let (mut x, first, end) = match shaped.take() {
                Some(now) => now,
                None => {
                    let m = moves.next().expect("the loop's condition");
                    self.shape(m, parts)
                }
            };
            if ahead {
                shaped = moves.next().map(|m| self.shape(m, parts));
            }
            // The parts the table values leave; the others keep their order, the heaviest last.
            let start = kept;
            for j in first..end {
                match self.table_value(&parts[j]) {
                    Some(v) => x ^= v,
                    None => {
                        parts.swap(kept, j);
                        kept += 1;
                    }
                }
            }
            if kept == start {
                exclude(p, Some(x));
                continue;
            }
            let mine = &parts[start..kept];
            let cost = match self.by_cost {
                true => mine.iter().map(|q| self.game.part_cost(q)).sum(),
                false => 0,
            };
            pending.push(Pending {
                x,
                first: start,
                len: kept - start,
                cost,
            });
        }
        parts.truncate(kept);
        if self.by_cost {
            pending.sort_by_key(|q| q.cost);
        }
        Ok(())
    }

    /// Appends `m`'s parts to `parts` and asks for their table slots; returns the nim-sum of
    /// the parts theorems value and where `m`'s parts start and end.
    fn shape(&mut self, m: G::Position, parts: &mut Vec<G::Position>) -> (Nimber, usize, usize) {
        let first = parts.len();
        let x = self.shaper.shape_into(m, parts);
        for q in &parts[first..] {
            self.tt.prefetch(q);
        }
        (x, first, parts.len())
    }

    /// Whether another thread is expanding the part `c` now.
    fn searched_elsewhere(&self, c: &G::Position) -> bool {
        self.share.as_ref().is_some_and(|t| t.table.searched(c))
    }

    /// Searches a successor ETC took apart, as the sum of its known nim-sum and unknown parts.
    fn search_pending(
        &mut self,
        q: Pending,
        parts: &[G::Position],
        r: Option<&NimSet>,
    ) -> Option<Nimber> {
        self.search_sum(q.x, &parts[q.first..q.first + q.len], r)
    }

    fn expand(&mut self, s: G::Position, r: Option<&NimSet>) -> Option<Nimber> {
        // A stopped search ends each node at once with a value that means nothing (every caller
        // copes with any value, and nothing is stored from then on).
        if self.pulse.due(self.nodes) && self.beat() {
            return Some(0);
        }
        let start = self.nodes;
        let max_r = r.map(|r| r.max().unwrap_or(0));
        let resumed = match self.tt.get(&s).map(Entry::held) {
            Some(Held::Exact(x)) => return Some(x),
            Some(Held::Partial(i)) => match self.partials[i].only() {
                Some(x) => return Some(x),
                None => Some(self.partials[i].clone()),
            },
            None => match self.share.as_ref().and_then(|t| t.get(&s)) {
                Some(x) => return Some(x),
                None => None,
            },
        };
        // Near the top of a shared search, the other threads are told (see `expand_moves`).
        let mark = match &self.share {
            Some(share) if self.ply < MARKED_PLIES && self.variant.etc != Etc::Off => {
                share.table.enter(&s)
            }
            _ => None,
        };
        let got = self.expand_moves(s, r, resumed, start, max_r);
        if let (Some(mark), Some(share)) = (mark, &self.share) {
            share.table.leave(mark);
        }
        got
    }

    /// [`CutSearch::expand`] of a position the tables do not value: its successors, with
    /// what `resumed` leaves of P when a resumable set was held, from `start` nodes.
    fn expand_moves(
        &mut self,
        s: G::Position,
        r: Option<&NimSet>,
        resumed: Option<NimSet>,
        start: u64,
        max_r: Option<Nimber>,
    ) -> Option<Nimber> {
        let v = self.variant;
        let mut moves = self.buffers.take();
        super::list_moves(self.game, &self.cfg, &s, &mut moves);
        // Only non-resuming variants share ([`super::smp::searches_in_parallel`]): a resumed
        // P counts on the same order at every visit.
        if let Some(share) = &self.share {
            share.diverge(self.ply, &mut moves);
        }
        self.ply += 1;
        // A resumed P has already seen all but its last |P| - 1 successors.
        let mut p = match resumed {
            Some(p) => {
                moves.drain(..moves.len() + 1 - p.len());
                p
            }
            None => NimSet::below(moves.len() + 1),
        };
        let disjoint = |p: &NimSet| r.is_some_and(|r| p.is_disjoint(r));

        // P stays accurate below max R; with `cut`, a successor's "not in R" may hide a value
        // above it, after which only the members up to max R are trustworthy.
        let mut exact = true;
        let mut cut_off = false;
        if v.etc != Etc::Off {
            let mut parts = self.buffers.take();
            let mut pending = self.pendings.pop().unwrap_or_default();
            cut_off = self
                .etc_pass(&mut moves, &mut p, r, &mut parts, &mut pending)
                .is_err();
            if let Some(share) = &self.share {
                // After the pass, which sorts the successors by cost.
                share.diverge(self.ply - 1, &mut pending);
            }
            // A successor another thread is expanding goes after the others (once): by then
            // its value is most likely in the shared table.
            let defer = self.share.is_some() && self.ply < MARKED_PLIES;
            let (first, mut i) = (pending.len(), 0);
            while i < pending.len() && !cut_off {
                let q = pending[i];
                i += 1;
                if disjoint(&p) {
                    cut_off = true;
                    break;
                }
                if defer && i <= first && self.searched_elsewhere(&parts[q.first + q.len - 1]) {
                    pending.push(q);
                    continue;
                }
                let child_r = child_set(&p, v.pruning, max_r);
                let got = self.search_pending(q, &parts, child_r.as_ref());
                exact &= got.is_some() || v.pruning != Pruning::Cut;
                exclude(&mut p, got);
            }
            self.buffers.give(parts);
            pending.clear();
            self.pendings.push(pending);
        } else {
            for m in moves.drain(..) {
                if disjoint(&p) {
                    cut_off = true;
                    break;
                }
                let child_r = child_set(&p, v.pruning, max_r);
                let got = self.search(m, child_r.as_ref());
                exact &= got.is_some() || v.pruning != Pruning::Cut;
                exclude(&mut p, got);
            }
        }
        self.buffers.give(moves);
        self.ply -= 1;

        if cut_off {
            if v.resume && (exact || p.max() <= max_r) {
                self.store_partial(s, p, weight(self.nodes - start));
            }
            return None;
        }
        let result = p.only().expect("after every successor P has one member");
        if exact || max_r.is_none_or(|mr| result <= mr) {
            self.store_exact(s, result, weight(self.nodes - start));
            Some(result)
        } else {
            None
        }
    }
}

impl<G: Game> Searcher<G> for CutSearch<'_, G> {
    fn try_nimber(&mut self, p: G::Position) -> Result<Nimber, Stopped> {
        if !self.variant.aspiration {
            let v = self.search(p, None).expect("a search without R is exact");
            return self.pulse.answer(v);
        }
        let v = (0..)
            .find_map(|c| self.search(p.clone(), Some(&NimSet::singleton(c))))
            .expect("some aspiration set holds the value");
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
        self.store_exact(p, v, w);
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

/// The exact entries, and the resumable sets down to one value.
impl<G: Game> Known<G::Position> for CutSearch<'_, G> {
    fn each_known(&self, f: &mut dyn FnMut(&G::Position, Nimber, Weight)) {
        self.tt.for_each(|p, e, w| match e.held() {
            Held::Exact(v) => f(p, v, w),
            Held::Partial(i) => {
                if let Some(v) = self.partials[i].only() {
                    f(p, v, w);
                }
            }
        });
    }

    fn held_still(&self, f: &mut dyn FnMut(&dyn Known<G::Position>)) {
        f(self)
    }
}

#[cfg(test)]
mod tests;
