//! One position of any game, valued by any engine (`auto` resolved by the game): the `sg`
//! command's library half. `auto`'s cost model for hypergraph nim is in `cost`.

use std::time::Instant;

use super::{AnyGame, PositionSearcher};
use crate::error::{Error, OptionKey, SavedTable, Undecided};
use crate::game::Nimber;
use crate::game::Stones;
use crate::sg::checkpoint::{Loaded, Plan, Saved};
use crate::sg::engine::Engine;
use crate::sg::table::TableOptions;
use crate::sg::{with_deep_stack, with_stack_for, SearchConfig, Stats};
use crate::stop::{Stop, Stopped};
use crate::units::format_bytes;

pub(crate) use super::cost::AUTO_SEARCH;
pub use super::cost::{resolve, Choice};

/// A command that lists the moves of a position (to value each, or to choose among them:
/// `sg --moves`, `best-move`, `play`) lists at most this many.
pub(crate) const MAX_LISTED_MOVES: usize = 10_000_000;

/// Refuses to list the moves of `p` when they number more than [`MAX_LISTED_MOVES`], or more
/// than `memory_limit` bytes hold, counted without listing them: the one move limit of every
/// command that lists moves.
pub(crate) fn check_listed_moves<G: AnyGame + ?Sized>(
    game: &G,
    p: &Stones,
    memory_limit: u64,
) -> Result<(), Error> {
    let count = game.move_count(p);
    let each = std::mem::size_of::<Stones>() as u64;
    let fit = usize::try_from(memory_limit / each).unwrap_or(usize::MAX);
    let limit = MAX_LISTED_MOVES.min(fit);
    if count <= limit {
        return Ok(());
    }
    let why = match limit < MAX_LISTED_MOVES {
        true => format!(
            "{} of them, each valued or chosen among, is over the memory limit of {}",
            format_bytes((count as u64).saturating_mul(each)),
            format_bytes(memory_limit)
        ),
        false => format!(
            "a listing of the moves (each valued or chosen among) holds at most \
             {MAX_LISTED_MOVES}"
        ),
    };
    Err(Error::Resource(format!(
        "{} at {} has {count} moves; {why}",
        game.name(),
        game.format_position(p)
    )))
}

/// A valued position.
#[derive(Debug)]
pub struct Solution {
    /// The position's nimber.
    pub nimber: Nimber,
    /// The engine that ran (`auto` resolved).
    pub engine: String,
    /// Why `auto` chose it, with the estimates it compared.
    pub reason: Option<String>,
    /// What the engine did (nodes, look-ups), for reports and benchmarks.
    pub stats: Stats,
    /// Wall-clock seconds the engine ran.
    pub seconds: f64,
    /// Successors with nimber 0, when asked for.
    pub winning_moves: Option<Vec<Stones>>,
    /// What the search kept in its file, when asked to keep its table there.
    pub kept: Option<Kept>,
}

/// What a search kept in its file ([`crate::sg::checkpoint`]): what it learned there at the start,
/// and its last save, at the end, or why that failed (the answer stands; the caller reports
/// the failure with it).
#[derive(Debug)]
pub struct Kept {
    /// What the file held at the start, and what the search learned of it.
    pub loaded: Loaded,
    /// The last save, or why it failed.
    pub saved: Result<Saved, Error>,
}

/// Values `p` with `engine` (`auto` resolved by the game, [`Valuation::auto`](super::Valuation::auto)), and its winning
/// moves when `moves` is set.
pub fn solve<G: AnyGame + ?Sized>(
    game: &G,
    p: &Stones,
    engine: Engine,
    cfg: SearchConfig,
    opts: &TableOptions,
    moves: bool,
) -> Result<Solution, Error> {
    solve_kept(game, p, engine, cfg, opts, moves, &Control::default())
}

/// How a search runs besides what it values: the file that keeps its table, and the token that
/// stops it.
#[derive(Clone, Default)]
pub struct Control<'a> {
    /// Keep the search's table in this plan's file ([`crate::sg::checkpoint`]).
    pub plan: Option<&'a Plan>,
    /// Stops the search, which then ends with [`Error::Timeout`]: its table saved first when
    /// it keeps one. Box tabulation does not look at it.
    pub stop: Stop,
}

/// `p` valued by a theorem of the game ([`Valuation::theorem`](super::Valuation::theorem)) when `auto` may use one: no
/// searcher, no time. With `moves`, only a zero: it has no move to a zero, by the definition
/// of the nimber. A caller with a time limit asks this first, so that a limit of 0 still
/// answers what needs no search.
pub fn by_theorem<G: AnyGame + ?Sized>(
    game: &G,
    p: &Stones,
    engine: Engine,
    cfg: &SearchConfig,
    moves: bool,
) -> Option<Solution> {
    if engine != Engine::Auto || !cfg.shortcuts {
        return None;
    }
    let start = Instant::now();
    let (nimber, why) = game.theorem(p).filter(|&(v, _)| !moves || v == 0)?;
    Some(Solution {
        nimber,
        engine: "theorem".into(),
        reason: Some(why.into()),
        stats: Stats::default(),
        seconds: start.elapsed().as_secs_f64(),
        winning_moves: moves.then(Vec::new),
        kept: None,
    })
}

/// [`solve`] under `ctl`: with a plan a search keeps its table in the plan's file (it learns
/// what the file holds, saves as it goes, and once more at the end, stopped or not), and a
/// search whose token is stopped ends with [`Error::Timeout`].
pub fn solve_kept<G: AnyGame + ?Sized>(
    game: &G,
    p: &Stones,
    engine: Engine,
    cfg: SearchConfig,
    opts: &TableOptions,
    moves: bool,
    ctl: &Control,
) -> Result<Solution, Error> {
    let mut kept = None;
    let solution = solve_keeping(game, p, engine, cfg, opts, moves, ctl, &mut kept)?;
    Ok(Solution { kept, ..solution })
}

/// [`solve_kept`], what the search kept in its file set in `kept` (not in the solution),
/// whether it answered or not: a race's rank 0 reports its file whichever rank answered.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_keeping<G: AnyGame + ?Sized>(
    game: &G,
    p: &Stones,
    engine: Engine,
    cfg: SearchConfig,
    opts: &TableOptions,
    moves: bool,
    ctl: &Control,
    kept: &mut Option<Kept>,
) -> Result<Solution, Error> {
    let plan = ctl.plan;
    let start = Instant::now();
    if let Some(s) = by_theorem(game, p, engine, &cfg, moves) {
        return Ok(s);
    }
    let Choice { engine, reason } = match engine {
        Engine::Auto => game.auto(p, &cfg, opts)?,
        named => Choice {
            engine: named,
            reason: None,
        },
    };
    game.fits(p, &cfg, opts.memory_limit)?;
    let mut successors = Vec::new();
    if moves {
        check_listed_moves(game, p, opts.memory_limit)?;
        game.successors(p, cfg.order, &mut successors);
    }
    if plan.is_some() && engine == Engine::Table {
        return Err(Error::refused(
            OptionKey::Checkpoint,
            " keeps a search's table, and `table` tabulates a box instead: pick a search engine",
        ));
    }
    let (nimber, stats, winning) = match engine {
        Engine::Table => {
            let dims: Vec<usize> = p.iter().map(|&x| x as usize + 1).collect();
            let t = game.tabulate(&dims, opts)?;
            // A successor may leave the box (a heap split in two): it is searched instead.
            let winning: Vec<Stones> = with_deep_stack(|| {
                let mut search = None;
                let mut value = |q: &Stones| match t.grid().index(q).and_then(|i| t.value_at(i)) {
                    Some(v) => v,
                    None => search
                        .get_or_insert_with(|| game.searcher(AUTO_SEARCH, cfg))
                        .nimber(q.clone()),
                };
                successors.into_iter().filter(|q| value(q) == 0).collect()
            });
            let stats = Stats {
                nodes: t.len() as u64,
                ..Stats::default()
            };
            let nimber = t.get(p).ok_or_else(|| {
                Error::internal(format!(
                    "{} has no value for its own position {p:?}",
                    game.name()
                ))
            })?;
            (nimber, stats, winning)
        }
        Engine::Search(s) => with_stack_for(game.depth(p), || {
            let mut searcher = game.searcher(s, cfg);
            searcher.set_stop(ctl.stop.clone());
            let (v, stats, (), winning) = search_kept(
                game,
                p,
                searcher.as_mut(),
                successors,
                plan,
                start,
                kept,
                || (),
            )?;
            Ok::<_, Error>((v, stats, winning))
        })?,
        Engine::Auto => return Err(Error::internal("`auto` chose `auto`")),
    };
    Ok(Solution {
        nimber,
        engine: engine.to_string(),
        reason,
        stats,
        seconds: start.elapsed().as_secs_f64(),
        winning_moves: moves.then_some(winning),
        kept: None,
    })
}

/// [`nimber_and_winning`], the searcher keeping its table per `plan` ([`crate::sg::checkpoint`]):
/// it learns what the plan's file holds first, and saves once more at the end, stopped or
/// not, which `kept` then says. A search stopped by its token (since `start`) ends with
/// [`Error::Timeout`], which says where the table was saved.
#[allow(clippy::too_many_arguments)]
pub(crate) fn search_kept<G: AnyGame + ?Sized, T>(
    game: &G,
    p: &Stones,
    searcher: &mut dyn PositionSearcher,
    successors: Vec<Stones>,
    plan: Option<&Plan>,
    start: Instant,
    kept: &mut Option<Kept>,
    at_nimber: impl FnOnce() -> T,
) -> Result<(Nimber, Stats, T, Vec<Stones>), Error> {
    let loaded = match plan {
        Some(plan) => Some(searcher.keep(game.name(), plan)?),
        None => None,
    };
    let found = nimber_and_winning(searcher, p, successors, at_nimber);
    *kept = plan.zip(loaded).map(|(plan, loaded)| {
        let saved = searcher.save(game.name(), plan);
        (plan.on_save)(&saved, true);
        Kept { loaded, saved }
    });
    found.map_err(|Stopped| stopped_search(game, p, start, plan, kept.as_ref()))
}

/// `p`'s nimber by `searcher`, the stats of that search (not of what follows), what `at_nimber`
/// says once it is found, and the successors among `successors` whose nimber is 0; `Stopped`
/// once the searcher's token is.
pub(crate) fn nimber_and_winning<T>(
    searcher: &mut dyn PositionSearcher,
    p: &Stones,
    successors: Vec<Stones>,
    at_nimber: impl FnOnce() -> T,
) -> Result<(Nimber, Stats, T, Vec<Stones>), Stopped> {
    let v = searcher.try_nimber(p.clone())?;
    let (stats, noted) = (searcher.stats(), at_nimber());
    let mut winning = Vec::new();
    for q in successors {
        if searcher.try_nimber(q.clone())? == 0 {
            winning.push(q);
        }
    }
    Ok((v, stats, noted, winning))
}

/// What a search of `p` stopped by its token (since `start`) leaves known: the bounds of
/// [`nimber_undecided`], and where its table was saved, if it keeps one.
fn stopped_search<G: AnyGame + ?Sized>(
    game: &G,
    p: &Stones,
    start: Instant,
    plan: Option<&Plan>,
    kept: Option<&Kept>,
) -> Error {
    let table = plan.map(|plan| SavedTable {
        path: plan.path.clone(),
        entries: kept.and_then(|k| k.saved.as_ref().ok()).map(|s| s.entries),
    });
    Error::Timeout(Undecided {
        table,
        ..nimber_undecided(game, p, start.elapsed().as_secs_f64())
    })
}

/// What a search of `p` that ran out of time after `seconds` leaves known: the nimber lies
/// between 0 and the number of moves. With no table saved; a front end that saved one says so.
pub fn nimber_undecided<G: AnyGame + ?Sized>(game: &G, p: &Stones, seconds: f64) -> Undecided {
    Undecided {
        seconds,
        lower_bound: None,
        what: format!(
            "the nimber of {} at {} (from 0 to {}, the number of moves)",
            game.name(),
            game.format_position(p),
            game.move_count(p)
        ),
        table: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::spec;
    use crate::game::hypergraph::HypergraphNim;

    /// `auto` answers a position a theorem values without a searcher and names the theorem; a
    /// named engine still searches, and so does `moves` when the value is not 0.
    #[test]
    fn a_theorem_answers_before_any_search() {
        let opts = TableOptions::default();
        let cfg = SearchConfig::default();
        let run = |game: &HypergraphNim, p: &[u32], engine, moves| {
            let p: Stones = p.iter().copied().collect();
            solve(game, &p, engine, cfg, &opts, moves).unwrap()
        };
        let circuit = spec::parse_hypergraph("circular:3,2").unwrap();
        let s = run(&circuit, &[5, 5, 5], Engine::Auto, true);
        assert_eq!(
            (s.nimber, s.engine.as_str(), s.stats.nodes),
            (0, "theorem", 0)
        );
        assert!(s.reason.unwrap().contains("circuit"));
        assert_eq!(s.winning_moves, Some(vec![]));
        let named = run(&circuit, &[5, 5, 5], Engine::Search(AUTO_SEARCH), false);
        assert_eq!(named.nimber, 0);
        assert_ne!(named.engine, "theorem");
        // Unjoined piles are nim, 3 xor 5 = 6; its one winning move needs the successors.
        let path = spec::parse_hypergraph("path:3").unwrap();
        assert_eq!(
            run(&path, &[3, 0, 5], Engine::Auto, false).engine,
            "theorem"
        );
        let s = run(&path, &[3, 0, 5], Engine::Auto, true);
        assert_eq!(s.nimber, 6);
        assert_ne!(s.engine, "theorem");
        let want: Stones = [3, 0, 3].into_iter().collect();
        assert_eq!(s.winning_moves, Some(vec![want]));
    }
}
