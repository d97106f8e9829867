//! A node of the cut family taken apart for a search that splits its successors among threads
//! ([`crate::sg::ybw`]): the table and ETC's pass done here, on one thread, and the successors
//! left over handed back, so that the caller can search them wherever it likes and combine
//! their answers as [`super::exclude`] does.

use super::{CutSearch, Etc};
use crate::game::{Game, NimSet, Nimber};
use crate::sg::Shape;

/// A successor ETC could not value: the nim-sum of its parts the table knew, and its unknown
/// parts, plain and canonical, the heaviest last (what [`CutSearch::search_parts`] takes).
pub(crate) type Rest<P> = (Nimber, Vec<P>);

/// What a node holds once its table entries and ETC's pass are done.
pub(crate) enum Opened<P> {
    /// Its value, from a table.
    Known(Nimber),
    /// ETC's pass showed it has no value in R.
    CutOff,
    /// The values it may still have, and the successors still to search, in the order the
    /// engine alone would take them.
    Open(NimSet, Vec<Rest<P>>),
}

impl<G: Game> CutSearch<'_, G> {
    /// Opens the plain, canonical position `s` asked about `r`, as [`CutSearch::expand`] does
    /// up to its loop over the successors ETC left. Only for variants with ETC, which are the
    /// ones whose successors come out shaped.
    pub(crate) fn open(&mut self, s: &G::Position, r: Option<&NimSet>) -> Opened<G::Position> {
        debug_assert!(self.variant.etc != Etc::Off, "a variant with ETC");
        if let Some(v) = self.table_value(s) {
            return Opened::Known(v);
        }
        let mut moves = self.buffers.take();
        crate::sg::list_moves(self.game, &self.cfg, s, &mut moves);
        let mut p = NimSet::below(moves.len() + 1);
        let mut parts = self.buffers.take();
        let mut pending = self.pendings.pop().unwrap_or_default();
        let cut_off = self
            .etc_pass(&mut moves, &mut p, r, &mut parts, &mut pending)
            .is_err();
        let rest = pending
            .iter()
            .map(|q| (q.x, parts[q.first..q.first + q.len].to_vec()))
            .collect();
        self.buffers.give(moves);
        self.buffers.give(parts);
        pending.clear();
        self.pendings.push(pending);
        match cut_off {
            true => Opened::CutOff,
            false => Opened::Open(p, rest),
        }
    }

    /// Shapes a position as [`CutSearch::search`] does before it searches it.
    pub(crate) fn shape_whole(&mut self, s: G::Position) -> Shape<G::Position> {
        self.shaper.shape(s)
    }

    /// Searches the successor `x` + `parts` against `r`, as the engine alone would, counting
    /// its nodes.
    pub(crate) fn search_parts(
        &mut self,
        x: Nimber,
        parts: &[G::Position],
        r: Option<&NimSet>,
    ) -> Option<Nimber> {
        self.search_sum(x, parts, r)
    }
}
