//! One position of hypergraph nim, valued by any engine: the `sg` command's library half.

use std::time::Instant;

use super::engine::{Engine, SearchEngine};
use super::table::{self, TableOptions};
use super::{with_deep_stack, SearchConfig, Stats};
use crate::error::Error;
use crate::game::hypergraph::{HypergraphNim, Stones};
use crate::game::{Game, Nimber};

/// Boxes up to this many positions are tabulated by `auto`; larger ones are searched.
pub const AUTO_TABLE_MAX_POSITIONS: u128 = 1 << 22;

/// The search engine `auto` uses when it does not tabulate.
pub const AUTO_SEARCH: SearchEngine = SearchEngine::Naive;

/// A valued position.
#[derive(Clone, Debug)]
pub struct Solution {
    pub nimber: Nimber,
    /// The engine that ran (`auto` resolved).
    pub engine: String,
    pub stats: Stats,
    pub seconds: f64,
    /// Successors with nimber 0, when asked for.
    pub winning_moves: Option<Vec<Stones>>,
}

/// Which engine `auto` picks for `p`: tabulate the box below p when it is small and fits in
/// memory, search otherwise.
pub fn resolve(engine: Engine, game: &HypergraphNim, p: &[u32], opts: &TableOptions) -> Engine {
    match engine {
        Engine::Auto => {
            let dims: Vec<usize> = p.iter().map(|&x| x as usize + 1).collect();
            let positions = dims
                .iter()
                .try_fold(1u128, |a, &d| a.checked_mul(d as u128));
            let fits =
                table::estimate_bytes(game.graph(), &dims, opts.threads) <= opts.memory_limit;
            match positions {
                Some(n) if n <= AUTO_TABLE_MAX_POSITIONS && fits => Engine::Table,
                _ => Engine::Search(AUTO_SEARCH),
            }
        }
        e => e,
    }
}

/// Values `p` with `engine`, and its winning moves when `moves` is set.
pub fn solve(
    game: &HypergraphNim,
    p: &Stones,
    engine: Engine,
    cfg: SearchConfig,
    opts: &TableOptions,
    moves: bool,
) -> Result<Solution, Error> {
    let start = Instant::now();
    let engine = resolve(engine, game, p, opts);
    let mut successors = Vec::new();
    if moves {
        game.moves(p, cfg.order, &mut successors);
    }
    let (nimber, stats, winning) = match engine {
        Engine::Table => {
            let dims: Vec<usize> = p.iter().map(|&x| x as usize + 1).collect();
            let t = table::tabulate(game.graph(), &dims, opts)?;
            let winning: Vec<Stones> = successors.into_iter().filter(|q| t.get(q) == 0).collect();
            let stats = Stats {
                nodes: t.len() as u64,
                tt_lookups: 0,
            };
            (t.get(p), stats, winning)
        }
        Engine::Search(s) => with_deep_stack(|| {
            let mut searcher = s.searcher(game, cfg);
            let v = searcher.nimber(p.clone());
            // Stats describe the nimber's search, not the follow-up on successors.
            let stats = searcher.stats();
            let winning: Vec<Stones> = successors
                .into_iter()
                .filter(|q| searcher.nimber(q.clone()) == 0)
                .collect();
            (v, stats, winning)
        }),
        Engine::Auto => unreachable!("resolved above"),
    };
    Ok(Solution {
        nimber,
        engine: engine.to_string(),
        stats,
        seconds: start.elapsed().as_secs_f64(),
        winning_moves: moves.then_some(winning),
    })
}
