//! Sprague-Grundy engines: from positions to nimbers and whole tables.
//!
//! Search engines work on any [`Game`]: `naive` (the definition with a memo table, the reference),
//! the cut-pruning family of Beling & Rogalski ([`cut`]) and Lemoine & Viennot's `lv` ([`lv`]).
//! Box tabulation ([`table`]) is specific to hypergraph nim and computes whole boxes at once.
//! [`any::AnyGame`] is what the commands need of any game, so that they take a spec's game
//! without knowing its type.

pub mod any;
#[cfg(test)]
mod crosscheck;
pub mod cut;
pub mod engine;
pub mod lv;
pub mod naive;
pub mod nimset;
pub mod solve;
pub mod sweep;
pub mod table;
pub mod tree;
pub mod tt;

use crate::game::{Game, MoveOrder, Nimber};
pub use any::AnyGame;
pub use engine::{Engine, SearchEngine};
pub use tt::{Policy, TtConfig};

/// Switches every search engine honours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Transposition-table capacity and eviction policy.
    pub tt: TtConfig,
    /// Move order handed to the game.
    pub order: MoveOrder,
    /// Key the table by canonical forms, so one entry serves a whole orbit.
    pub symmetry: bool,
    /// Split positions into independent components (nimber = xor of the parts).
    pub split: bool,
    /// Use values known by theorem without search (the game's `known_value`).
    pub shortcuts: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            tt: TtConfig::default(),
            order: MoveOrder::Heuristic,
            symmetry: true,
            split: true,
            shortcuts: true,
        }
    }
}

impl SearchConfig {
    /// The plain game tree as the pruning paper measured it: no symmetry, no splitting, no
    /// shortcuts.
    pub fn bare() -> Self {
        SearchConfig {
            symmetry: false,
            split: false,
            shortcuts: false,
            ..Self::default()
        }
    }
}

/// What a search cost: recursive calls and transposition-table look-ups.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Nodes expanded: calls of the engine's recursive function (the paper's measure).
    pub nodes: u64,
    /// Transposition-table look-ups (zero when there is no table).
    pub tt_lookups: u64,
}

/// A search engine that keeps its table between positions.
pub trait Searcher<G: Game> {
    /// The nimber of `p`.
    fn nimber(&mut self, p: G::Position) -> Nimber;
    /// Work done so far.
    fn stats(&self) -> Stats;
}

/// How a node looks once the configured theorems are applied.
pub(crate) enum Shape<P> {
    /// The value is known without search.
    Known(Nimber),
    /// A sum of independent components, the heaviest last.
    Sum(Vec<P>),
    /// A position to search, in canonical form when symmetry is on.
    Plain(P),
}

/// Applies shortcuts, splitting and canonical forms to `p`, in that order.
pub(crate) fn shape<G: Game>(
    game: &G,
    cfg: &SearchConfig,
    mut p: G::Position,
) -> Shape<G::Position> {
    if cfg.shortcuts {
        if let Some(v) = game.known_value(&p) {
            return Shape::Known(v);
        }
    }
    if cfg.split {
        if let Some(mut parts) = game.split(&p) {
            parts.sort_by_cached_key(|q| game.weight(q));
            return Shape::Sum(parts);
        }
    }
    if cfg.symmetry {
        game.canonicalize(&mut p);
    }
    Shape::Plain(p)
}

/// Stack for deep recursions: a position with N stones can be N moves deep.
const STACK_BYTES: usize = 1 << 30;

/// Runs `f` on a thread with a large stack, so deep games do not overflow it.
pub fn with_deep_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("grundy-search".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, f)
            .expect("spawning the search thread")
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

/// A pool of move buffers, so expanding a node does not allocate.
pub(crate) struct BufferPool<P>(Vec<Vec<P>>);

impl<P> BufferPool<P> {
    pub(crate) fn new() -> Self {
        BufferPool(Vec::new())
    }
    pub(crate) fn take(&mut self) -> Vec<P> {
        self.0.pop().unwrap_or_default()
    }
    pub(crate) fn give(&mut self, mut v: Vec<P>) {
        v.clear();
        self.0.push(v);
    }
}
