//! One position's search shared among the ranks of a [`Team`] by dealing its subtrees: the game
//! tree is cut at depth 1, or at depth 2 when depth 1 has too few distinct positions to deal,
//! the distinct positions there are dealt round robin ([`dealt`]), each rank values its share
//! with one searcher of its own (its table shared between its positions, not with the other
//! ranks), and the gathered values give the options' values and the position's by the mex:
//! the same nimber as one process. Nodes and look-ups are summed over the ranks.
//!
//! What the split costs is what the ranks' tables do not share (a position below two dealt
//! positions is searched by each rank that holds one) and, for the cut engines, the pruning:
//! every dealt position is valued in full, where the search of the whole position settles
//! most options with a bound. Measured on two ranks (docs/benchmarks.md), Cram 5 x 8 took 66
//! times one process's time with `cut_cEA`, Cram 4 x 7 1.8 times with `naive` (each rank's
//! table came to hold nearly the whole tree): `sg` under `mpirun` races the ranks instead
//! (`race`), and this split stays for games whose subtrees share little.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::solve::{by_theorem, nimber_undecided, solve, Choice, Solution};
use super::AnyGame;
use crate::cluster::{dealt, Team};
use crate::error::Error;
use crate::game::{MoveOrder, Nimber, Stones};
use crate::sg::engine::Engine;
use crate::sg::table::TableOptions;
use crate::sg::{with_stack_for, SearchConfig, Stats};
use crate::stop::Stop;

/// The tree is cut at depth 2 when depth 1 has fewer distinct positions than this per rank:
/// round robin balances many small shares better than a few large ones.
pub const JOBS_PER_RANK: usize = 8;

/// A position valued by a team.
#[derive(Debug)]
pub struct Split {
    /// The answer, as one process gives it, with nodes and look-ups summed over the ranks.
    pub solution: Solution,
    /// Where the tree was cut: 1 or 2 (0 when a theorem or the table engine answered, which
    /// every rank does whole).
    pub depth: usize,
    /// Distinct positions dealt at that depth.
    pub jobs: usize,
    /// Nodes each rank expanded, in rank order: the split's balance.
    pub nodes: Vec<u64>,
}

/// What a rank sends back: the values of its share, by job index, and its searcher's counts.
#[derive(Serialize, Deserialize)]
struct Share {
    values: Vec<(usize, Nimber)>,
    stats: [u64; 3],
}

/// The least nimber not among `values`.
fn mex(values: impl IntoIterator<Item = Nimber>) -> Nimber {
    let mut seen: Vec<Nimber> = values.into_iter().collect();
    seen.sort_unstable();
    seen.dedup();
    seen.iter()
        .enumerate()
        .find(|&(i, &v)| v != i as Nimber)
        .map_or(seen.len() as Nimber, |(i, _)| i as Nimber)
}

/// The distinct successors of `p`, sorted (the same list on every rank).
fn options<G: AnyGame + ?Sized>(game: &G, p: &Stones) -> Vec<Stones> {
    let mut out = Vec::new();
    game.successors(p, MoveOrder::Natural, &mut out);
    out.sort_unstable();
    out.dedup();
    out
}

/// Values `p` with `engine` on every rank of `team` together, as the module says; every rank
/// must call it with the same arguments, and every rank returns the same nimber (or the same
/// error's kind: a rank stopped by `stop` ends every rank with a timeout).
#[allow(clippy::too_many_arguments)]
pub fn solve_split<G: AnyGame + ?Sized>(
    game: &G,
    p: &Stones,
    engine: Engine,
    cfg: SearchConfig,
    opts: &TableOptions,
    moves: bool,
    stop: &Stop,
    team: &dyn Team,
) -> Result<Split, Error> {
    let start = Instant::now();
    let whole = |solution: Solution| Split {
        nodes: vec![solution.stats.nodes],
        solution,
        depth: 0,
        jobs: 0,
    };
    if let Some(s) = by_theorem(game, p, engine, &cfg, moves) {
        return Ok(whole(s));
    }
    let Choice { engine, reason } = match engine {
        Engine::Auto => game.auto(p, &cfg, opts)?,
        named => Choice {
            engine: named,
            reason: None,
        },
    };
    let search = match engine {
        Engine::Search(s) => s,
        // A box tabulation is quick where `auto` picks it: every rank does it whole.
        _ => return solve(game, p, engine, cfg, opts, moves).map(whole),
    };
    game.fits(p, &cfg, opts.memory_limit)?;
    let children = options(game, p);
    let size = team.size();
    // Depth 2: each child's options, as indices into the distinct grandchildren.
    let (jobs, below): (Vec<Stones>, Option<Vec<Vec<usize>>>) =
        if children.len() < JOBS_PER_RANK * size {
            let grand: Vec<Vec<Stones>> = children.iter().map(|c| options(game, c)).collect();
            let mut jobs: Vec<Stones> = grand.iter().flatten().cloned().collect();
            jobs.sort_unstable();
            jobs.dedup();
            let index = |q: &Stones| jobs.binary_search(q).unwrap_or(0);
            let below = grand
                .iter()
                .map(|g| g.iter().map(index).collect())
                .collect();
            (jobs, Some(below))
        } else {
            (children.clone(), None)
        };
    let mine = with_stack_for(game.depth(p), || {
        let mut searcher = game.searcher(search, cfg);
        searcher.set_stop(stop.clone());
        let mut values = Vec::new();
        for j in dealt(jobs.len(), team.rank(), size) {
            match searcher.try_nimber(jobs[j].clone()) {
                Ok(v) => values.push((j, v)),
                Err(_) => {
                    return Err(Error::Timeout(nimber_undecided(
                        game,
                        p,
                        start.elapsed().as_secs_f64(),
                    )))
                }
            }
        }
        let s = searcher.stats();
        Ok(Share {
            values,
            stats: [s.nodes, s.tt_lookups, s.tt_evictions],
        })
    });
    let mine = team.settle(mine)?;
    let bytes = serde_json::to_vec(&mine).map_err(|e| Error::internal(e.to_string()))?;
    let mut values: Vec<Option<Nimber>> = vec![None; jobs.len()];
    let mut stats = Stats::default();
    let mut nodes = Vec::with_capacity(size);
    for theirs in team.all_gather(&bytes) {
        let share: Share =
            serde_json::from_slice(&theirs).map_err(|e| Error::internal(e.to_string()))?;
        for (j, v) in share.values {
            if let Some(slot) = values.get_mut(j) {
                *slot = Some(v);
            }
        }
        stats.nodes += share.stats[0];
        stats.tt_lookups += share.stats[1];
        stats.tt_evictions += share.stats[2];
        nodes.push(share.stats[0]);
    }
    let values: Vec<Nimber> = values
        .into_iter()
        .collect::<Option<_>>()
        .ok_or_else(|| Error::internal("a dealt position came back without its value"))?;
    let child_values: Vec<Nimber> = match &below {
        None => values,
        Some(below) => below
            .iter()
            .map(|g| mex(g.iter().map(|&j| values[j])))
            .collect(),
    };
    let nimber = mex(child_values.iter().copied());
    // The winning moves in the order one process lists them.
    let winning_moves = moves.then(|| {
        let mut listed = Vec::new();
        game.successors(p, cfg.order, &mut listed);
        listed
            .into_iter()
            .filter(|q| {
                children
                    .binary_search(q)
                    .is_ok_and(|i| child_values[i] == 0)
            })
            .collect()
    });
    Ok(Split {
        solution: Solution {
            nimber,
            engine: engine.to_string(),
            reason,
            stats,
            seconds: start.elapsed().as_secs_f64(),
            winning_moves,
            kept: None,
        },
        depth: if below.is_some() { 2 } else { 1 },
        jobs: jobs.len(),
        nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::spec;
    use crate::cluster::threads;
    use crate::sg::engine::Engine;

    fn at(game: &str, position: &str) -> (Box<dyn AnyGame>, Stones) {
        let words: Vec<String> = position.split_whitespace().map(String::from).collect();
        spec::game_at(game, &words).unwrap().unwrap()
    }

    #[test]
    fn the_mex_is_the_least_value_missing() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([1, 2]), 0);
        assert_eq!(mex([0, 2, 1, 1, 4]), 3);
    }

    #[test]
    fn ranks_value_a_position_as_one_process_does() {
        for (game, position, engine) in [
            ("cram:3x4", "", "auto"),
            ("chomp:4x4", "", "auto"),
            ("path:3", "2,3,1", "naive"),
            ("cram:2x5", "", "naive"),
        ] {
            let (g, p) = at(game, position);
            let engine: Engine = engine.parse().unwrap();
            let opts = TableOptions::default();
            let cfg = SearchConfig::default();
            let one = solve(g.as_ref(), &p, engine, cfg, &opts, true).unwrap();
            for size in [1, 2, 3] {
                let splits = threads::run(size, |team| {
                    solve_split(
                        g.as_ref(),
                        &p,
                        engine,
                        cfg,
                        &opts,
                        true,
                        &Stop::new(),
                        &*team,
                    )
                    .unwrap()
                });
                for s in splits {
                    assert_eq!(s.solution.nimber, one.nimber, "{game} on {size} ranks");
                    assert_eq!(s.solution.winning_moves, one.winning_moves, "{game}");
                    assert!(
                        s.depth > 0 && s.jobs > 0,
                        "{game}: split, not answered whole"
                    );
                    assert_eq!(s.nodes.len(), size);
                    assert_eq!(s.nodes.iter().sum::<u64>(), s.solution.stats.nodes);
                }
            }
        }
    }

    #[test]
    fn a_rank_stopped_stops_every_rank() {
        let (g, p) = at("cram:3x5", "");
        let kinds = threads::run(2, |team| {
            let stop = Stop::new();
            if team.rank() == 1 {
                stop.stop();
            }
            let cfg = SearchConfig::default();
            let engine = Engine::Auto;
            let r = solve_split(
                g.as_ref(),
                &p,
                engine,
                cfg,
                &TableOptions::default(),
                false,
                &stop,
                &*team,
            );
            r.unwrap_err().kind()
        });
        assert_eq!(kinds, vec![crate::error::Kind::Timeout; 2]);
    }
}
