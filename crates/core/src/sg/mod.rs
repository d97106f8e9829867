//! Sprague-Grundy engines: from positions to nimbers and whole tables.
//!
//! Search engines work on any [`Game`]: `naive` (the definition with a memo table, the reference),
//! the cut-pruning family of Beling & Rogalski (`cut`) and Lemoine & Viennot's `lv`.
//! Box tabulation ([`table`]) is specific to hypergraph nim and computes whole boxes at once.
//! The games the commands name, behind one trait, are in [`crate::catalog`], above these
//! engines.

pub mod checkpoint;
pub(crate) mod cut;
pub mod deal;
pub mod engine;
mod flat;
pub(crate) mod lv;
pub(crate) mod naive;
mod shape;
mod shared;
pub mod smp;
mod split;
pub mod table;
pub mod tree;
pub mod tt;
pub mod ybw;

use crate::game::{Game, MoveOrder, Nimber};
use crate::stop::{Stop, Stopped};
pub use engine::{Engine, SearchEngine};
pub(crate) use shape::{Shape, Shaper};
pub use tt::{Policy, TtConfig};

/// Switches every search engine honours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Transposition-table capacity and eviction policy.
    pub tt: TtConfig,
    /// Move order handed to the game.
    pub order: MoveOrder,
    /// Shuffle each position's moves by a generator seeded with the position's hash plus this
    /// number: fixed per position, unrelated to the game's structure. The pruning paper averages
    /// its unordered tables over ten such orders.
    pub shuffle: Option<u64>,
    /// Key the table by canonical forms, so one entry serves a whole orbit.
    pub symmetry: bool,
    /// Split positions into independent components (nimber = xor of the parts).
    pub split: bool,
    /// Use values known by theorem without search (the game's `known_value`).
    pub shortcuts: bool,
    /// Threads searching one position together ([`smp`]): 1 searches on the caller's
    /// thread alone, N on N threads, 0 on every core where the engine splits its work
    /// ([`smp::splits_work`]) and alone where it would race (Lazy SMP, no faster than one
    /// thread as measured). Engines that search alone ([`smp::searches_in_parallel`]) take no
    /// more than 1.
    pub threads: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            tt: TtConfig::default(),
            order: MoveOrder::Heuristic,
            shuffle: None,
            symmetry: true,
            split: true,
            shortcuts: true,
            threads: 1,
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
    /// Entries the table gave up to make room: a bounded table's evictions, or an unbounded
    /// one's once it reached its memory limit (`--mem-limit`). Values stay exact; a search
    /// that evicts much runs slower.
    pub tt_evictions: u64,
}

/// Threads' costs add up: what `--stats` reports for a search on several threads.
impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, other: Stats) {
        self.nodes += other.nodes;
        self.tt_lookups += other.tt_lookups;
        self.tt_evictions += other.tt_evictions;
    }
}

/// A search engine that keeps its table between positions.
pub trait Searcher<G: Game> {
    /// The nimber of `p`, or [`Stopped`] once the token given to [`Self::set_stop`] is stopped
    /// before the search has it. A stopped search keeps only exact values in its table (what it
    /// learned before the stop), and stays stopped.
    fn try_nimber(&mut self, p: G::Position) -> Result<Nimber, Stopped>;
    /// The nimber of `p`, for a search given no stop token (which always finishes).
    fn nimber(&mut self, p: G::Position) -> Nimber {
        self.try_nimber(p)
            .expect("a search without a stop token runs to its end")
    }
    /// Work done so far.
    fn stats(&self) -> Stats;
    /// Takes `v` as the nimber of `p`, found by an earlier search of the same game at the cost
    /// `w` (a saved table, [`checkpoint`]): the search answers `p` from its table from now on.
    fn learn(&mut self, p: G::Position, v: Nimber, w: tt::Weight);
    /// Makes room for `additional` entries about to be learned: how many of them the table
    /// can hold without giving any up.
    fn reserve(&mut self, additional: usize) -> usize;
    /// Has the search call `hook` every [`HOOK_NODES`] nodes or so, between two nodes.
    fn set_hook(&mut self, hook: Hook<G::Position>);
    /// Has the search look at `stop` every [`HOOK_NODES`] nodes or so, and end with
    /// [`Stopped`] once it is stopped. It replaces any earlier token: a search stopped by that
    /// one runs again.
    fn set_stop(&mut self, stop: Stop);
    /// The exact values the table holds.
    fn known(&self) -> &dyn Known<G::Position>;
}

/// The exact values a search's table holds: what a saved table keeps ([`checkpoint`]).
pub trait Known<P> {
    /// Calls `f` on each position the table values exactly, as the table keys it, with the
    /// value's weight.
    fn each_known(&self, f: &mut dyn FnMut(&P, Nimber, tt::Weight));
    /// Calls `f` with the table held still, so that two passes over it (a save counts, then
    /// writes) see the same entries. A table only the caller's thread writes to is still
    /// already (`f(self)`); one that other threads write to is locked meanwhile.
    fn held_still(&self, f: &mut dyn FnMut(&dyn Known<P>));
}

/// What a search calls now and then with what its table knows: how a search of hours saves its
/// table as it goes.
pub type Hook<P> = Box<dyn FnMut(&dyn Known<P>) + Send>;

/// Nodes between two calls of a search's hook: a few hundredths of a second of Cram (fewer in
/// the unit tests, so that their small searches call it too).
pub const HOOK_NODES: u64 = if cfg!(test) { 1 << 6 } else { 1 << 14 };

/// A search's hook and stop token, and the node count at which they are next due.
pub(crate) struct Pulse<P> {
    hook: Option<Hook<P>>,
    stop: Option<Stop>,
    /// Whether the search saw its token stopped: from then on every node is due, ends at once
    /// and stores nothing.
    stopped: bool,
    next: u64,
}

impl<P> Default for Pulse<P> {
    fn default() -> Self {
        Pulse {
            hook: None,
            stop: None,
            stopped: false,
            next: u64::MAX,
        }
    }
}

impl<P> Pulse<P> {
    /// Calls `hook` from `nodes` + [`HOOK_NODES`] on.
    pub(crate) fn set(&mut self, hook: Hook<P>, nodes: u64) {
        self.hook = Some(hook);
        self.next = self.next.min(nodes.saturating_add(HOOK_NODES));
    }

    /// Looks at `stop` from now on, in place of any earlier token: a search stopped by the
    /// earlier one runs again.
    pub(crate) fn set_stop(&mut self, stop: Stop, nodes: u64) {
        self.stop = Some(stop);
        self.stopped = false;
        self.next = nodes;
    }

    /// Whether the hook or the token is due at `nodes`: never without either.
    #[inline]
    pub(crate) fn due(&self, nodes: u64) -> bool {
        nodes >= self.next
    }

    /// Whether the search was stopped: it must then store nothing more.
    #[inline]
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// Looks at the token and, unless it is stopped, calls the hook with `known` and sets when
    /// they are next due: whether the search must end now.
    pub(crate) fn beat(&mut self, nodes: u64, known: &dyn Known<P>) -> bool {
        if self.stopped || self.stop.as_ref().is_some_and(Stop::is_stopped) {
            self.stopped = true;
            self.next = 0;
            return true;
        }
        self.next = match (&self.hook, &self.stop) {
            (None, None) => u64::MAX,
            _ => nodes.saturating_add(HOOK_NODES),
        };
        if let Some(hook) = &mut self.hook {
            hook(known);
        }
        false
    }

    /// What a search that ran returns: its value, unless it was stopped.
    pub(crate) fn answer(&self, v: Nimber) -> Result<Nimber, Stopped> {
        match self.stopped {
            true => Err(Stopped),
            false => Ok(v),
        }
    }
}

/// Appends `p`'s moves to `out` in the configured order (shuffled when asked).
pub(crate) fn list_moves<G: Game>(
    game: &G,
    cfg: &SearchConfig,
    p: &G::Position,
    out: &mut Vec<G::Position>,
) {
    let start = out.len();
    game.moves(p, cfg.order, out);
    if let Some(seed) = cfg.shuffle {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        use std::hash::{Hash, Hasher};
        // SipHash with fixed keys: the same position gets the same order in every run.
        let mut h = std::hash::DefaultHasher::new();
        p.hash(&mut h);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(h.finish().wrapping_add(seed));
        out[start..].shuffle(&mut rng);
    }
}

/// Stack for deep recursions: a position with N stones can be N moves deep.
pub(crate) const STACK_BYTES: usize = 1 << 30;

/// Stack a search uses per move of depth, at most, whatever the engine (the tests of
/// [`with_stack_for`] hold every engine to it).
const FRAME_BYTES: u64 = 8 << 10;

/// Stack a search may take from its caller: half of the 2 MiB a Rust thread gets by default.
const SHALLOW_BYTES: u64 = 1 << 20;

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

/// Runs a search at most `depth` moves deep ([`crate::catalog::Valuation::depth`]): on the caller's stack when
/// that is shallow enough, else as [`with_deep_stack`]. Spawning the deep stack's thread
/// costs about 0.1 ms, as much as the whole search of a small board.
pub(crate) fn with_stack_for<T: Send>(depth: Option<u64>, f: impl FnOnce() -> T + Send) -> T {
    match depth {
        Some(d) if d.saturating_mul(FRAME_BYTES) <= SHALLOW_BYTES => f(),
        _ => with_deep_stack(f),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::spec;

    /// Every engine keeps within [`FRAME_BYTES`] of stack per move, which [`with_stack_for`]
    /// counts on: each values a position of its game on a thread of just depth x
    /// `FRAME_BYTES` (an overflow aborts the test run), with and without the game's shortcuts.
    #[test]
    fn searches_keep_within_their_stack_per_move() {
        let cases = [
            ("chomp:5x6", None),
            ("cram:3x6", None),
            ("nim:1", Some("60")),
        ];
        for (spec, position) in cases {
            let game = spec::parse(spec, spec::Heaps::default()).unwrap();
            let p = match position {
                Some(text) => game.read_position(&[text.to_string()]).unwrap(),
                None => game.start().unwrap(),
            };
            let depth = game.depth(&p).unwrap();
            let bytes = (depth * FRAME_BYTES) as usize;
            let mut values = Vec::new();
            for engine in engine::all_search_engines() {
                for cfg in [SearchConfig::default(), SearchConfig::bare()] {
                    let v = std::thread::scope(|s| {
                        std::thread::Builder::new()
                            .stack_size(bytes)
                            .spawn_scoped(s, || game.searcher(engine, cfg).nimber(p.clone()))
                            .unwrap()
                            .join()
                            .unwrap()
                    });
                    values.push(v);
                }
            }
            assert!(values.iter().all(|&v| v == values[0]), "{spec}: {values:?}");
        }
    }

    /// A search whose token is stopped part way (by its own hook, so at a fixed node) ends
    /// with `Stopped`, and what its table kept is exact; a token never stopped changes nothing.
    #[test]
    fn a_stopped_search_says_so_and_keeps_only_exact_values() {
        use crate::game::board::Cram;
        let game = Cram::<u64>::new("cram:4x5", 4, 5).unwrap();
        let start = game.full();
        let mut reference = naive::Naive::new(&game, SearchConfig::default());
        let want = reference.nimber(start);
        for engine in engine::all_search_engines() {
            for cfg in [SearchConfig::default(), SearchConfig::bare()] {
                let mut plain = engine.searcher(&game, cfg);
                plain.set_stop(Stop::new());
                assert_eq!(plain.try_nimber(start), Ok(want), "{engine} not stopped");

                let mut s = engine.searcher(&game, cfg);
                let stop = Stop::new();
                let by_hook = stop.clone();
                s.set_hook(Box::new(move |_| by_hook.stop()));
                s.set_stop(stop);
                assert_eq!(s.try_nimber(start), Err(Stopped), "{engine} {cfg:?}");
                assert_eq!(s.try_nimber(start), Err(Stopped), "{engine} stays stopped");
                let mut known = Vec::new();
                s.known().each_known(&mut |p, v, _| known.push((*p, v)));
                for (p, v) in known {
                    assert_eq!(reference.nimber(p), v, "{engine} kept a wrong value");
                }
            }
        }
    }

    /// A shuffle is a permutation of the game's moves, the same on every call for one seed
    /// and position, and different seeds give different orders.
    #[test]
    fn shuffles_are_fixed_permutations() {
        let nim = spec::parse_hypergraph("nim:3").unwrap();
        let p: crate::game::Stones = [5, 4, 3].into_iter().collect();
        let list = |shuffle| {
            let cfg = SearchConfig {
                shuffle,
                ..SearchConfig::default()
            };
            let mut out = Vec::new();
            list_moves(&nim, &cfg, &p, &mut out);
            out
        };
        let plain = list(None);
        let a = list(Some(1));
        assert_eq!(a, list(Some(1)));
        assert_ne!(a, plain);
        assert_ne!(a, list(Some(2)));
        let (mut sorted, mut want) = (a.clone(), plain.clone());
        sorted.sort();
        want.sort();
        assert_eq!(sorted, want);
    }
}
