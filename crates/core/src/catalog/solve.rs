//! One position of any game, valued by any engine (`auto` resolved by the game): the `sg`
//! command's library half, and `auto`'s cost model for hypergraph nim.

use std::time::Instant;

use super::AnyGame;
use crate::error::{Error, OptionKey, SavedTable, Setting, Undecided};
use crate::game::hypergraph::{vertices_of, HypergraphNim};
use crate::game::Stones;
use crate::game::{Game, Grid, Nimber};
use crate::sg::checkpoint::{Loaded, Plan, Saved};
use crate::sg::engine::{Engine, SearchEngine};
use crate::sg::table::{self, TableOptions};
use crate::sg::{with_deep_stack, with_stack_for, SearchConfig, Stats};
use crate::stop::{Stop, Stopped};
use crate::units::{format_bytes, format_seconds};

/// The search engine `auto` uses when it does not tabulate.
pub(crate) const AUTO_SEARCH: SearchEngine = SearchEngine::Naive;

/// `auto` refuses to search past this many estimated seconds when tabulation, the faster
/// choice, was excluded by the memory limit alone: that search would run on for hours.
const REFUSE_SEARCH_SECONDS: f64 = 60.0;

/// `auto` refuses any search estimated past a day, when no table can be made instead: it
/// would not end in any sitting (path:3 at 2^32 - 1 stones each).
const REFUSE_ANY_SEARCH_SECONDS: f64 = 86_400.0;

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

/// An engine, and for `auto` the reason it was chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub(crate) engine: Engine,
    pub(crate) reason: Option<String>,
}

/// Seconds box tabulation of `dims` would take, estimated from its word operations (measured:
/// about 5 ns a position plus 0.4 ns a word operation on the project's machine, one thread).
pub(crate) fn table_seconds(game: &HypergraphNim, dims: &[usize]) -> Option<f64> {
    let work = table::estimate_work(game.graph(), dims)?;
    let positions = Grid::count(dims)? as f64;
    Some((positions * 5.0 + work * 0.4) * 1e-9)
}

/// Seconds the `naive` search from `p` under `cfg` would take, estimated as move visits: one
/// per move of every position below `p` (with symmetry, of every orbit of the twin product,
/// over the other automorphisms), each visit about 100 ns plus, with symmetry, 3 ns per vertex
/// per automorphism tried for its canonical form. A position that splits into parts no face
/// joins is searched part by part, and one a theorem values (a lone pile, unjoined piles, equal
/// piles on a circuit) costs nothing. Measured against the engine's node counts: path:3 at
/// (30,30,30) 7.6 M estimated, 7.6 M visited; star:9 at 4 stones each 0.20 M and 0.19 M;
/// projective-plane at 7 each 2.8 M and 3.5 M.
pub(crate) fn search_seconds(game: &HypergraphNim, p: &[u32], cfg: &SearchConfig) -> f64 {
    let stones: Stones = p.iter().copied().collect();
    if cfg.shortcuts && game.known_value(&stones).is_some() {
        return 0.0;
    }
    let support = p
        .iter()
        .enumerate()
        .filter(|(_, &x)| x > 0)
        .fold(0u64, |m, (v, _)| m | 1 << v);
    let parts = if cfg.split {
        game.graph().parts(support)
    } else {
        std::iter::once(support).collect()
    };
    let whole = parts.len() <= 1;
    parts
        .iter()
        .map(|&part| part_seconds(game, p, part, whole, cfg))
        .sum()
}

/// [`search_seconds`] of the part of `p` on the vertices of `part`; `whole` when it is all of
/// `p`, so that the automorphisms beyond the twin product apply to it.
fn part_seconds(
    game: &HypergraphNim,
    p: &[u32],
    part: u64,
    whole: bool,
    cfg: &SearchConfig,
) -> f64 {
    let stones = |v: usize| if part >> v & 1 == 1 { p[v] } else { 0 };
    let position: Stones = (0..p.len()).map(stones).collect();
    if cfg.shortcuts && game.known_value(&position).is_some() {
        return 0.0;
    }
    let sym = game.symmetry();
    let mut positions = 1.0f64;
    for class in sym.twin_classes() {
        let members: Vec<usize> = class
            .iter()
            .copied()
            .filter(|&v| part >> v & 1 == 1)
            .collect();
        let k = members.len();
        let box_count: f64 = members.iter().map(|&v| stones(v) as f64 + 1.0).product();
        // With symmetry, multisets of k values from 0..=max: the sorted members' choices.
        let top = members.iter().map(|&v| stones(v)).max().unwrap_or(0) as f64;
        let multisets: f64 = (1..=k).map(|i| (top + i as f64) / i as f64).product();
        positions *= if cfg.symmetry {
            box_count.min(multisets)
        } else {
            box_count
        };
    }
    let cosets = if whole && cfg.symmetry {
        sym.coset_count()
    } else {
        1
    };
    positions = (positions / cosets as f64).max(1.0);
    let moves: f64 = game
        .graph()
        .faces()
        .iter()
        .filter(|&&f| f & part == f)
        .map(|&f| {
            vertices_of(f)
                .map(|v| stones(v) as f64 / 2.0)
                .product::<f64>()
        })
        .sum::<f64>()
        .max(1.0);
    let canonical = if cfg.symmetry {
        3.0 * (cosets * p.len()) as f64
    } else {
        0.0
    };
    positions * moves * (100.0 + canonical) * 1e-9
}

/// An estimated duration: `~0.25 s`, `<0.01 s`.
fn about(seconds: f64) -> String {
    let text = format_seconds(seconds);
    if text.starts_with('<') || text.starts_with("more") {
        text
    } else {
        format!("~{text}")
    }
}

/// Which engine `auto` picks for `p`, and why: tabulation of the box below `p` when it is the
/// faster by estimate (`table_seconds`, `search_seconds`) and fits in memory, search
/// otherwise. Refuses when tabulation was the choice but does not fit and the search would take
/// more than a minute: raising the memory limit, or forcing a search, is the user's call.
pub fn resolve(
    engine: Engine,
    game: &HypergraphNim,
    p: &[u32],
    cfg: &SearchConfig,
    opts: &TableOptions,
) -> Result<Choice, Error> {
    if engine != Engine::Auto {
        return Ok(Choice {
            engine,
            reason: None,
        });
    }
    let dims: Vec<usize> = p.iter().map(|&x| x as usize + 1).collect();
    let search = search_seconds(game, p, cfg);
    let bytes = table::estimate_bytes(game.graph(), &dims, opts.threads);
    let Some(table) = table_seconds(game, &dims).filter(|_| bytes < u64::MAX) else {
        if search > REFUSE_ANY_SEARCH_SECONDS {
            return Err(Error::limit(
                Setting::Engine,
                format!(
                    "the box below the position is too large to tabulate, and a search would \
                     take {} (estimated)",
                    about(search)
                ),
            ));
        }
        return Ok(Choice {
            engine: Engine::Search(AUTO_SEARCH),
            reason: Some(format!(
                "the box below the position cannot be tabulated; searching {}, estimated",
                about(search)
            )),
        });
    };
    let fits = bytes <= opts.memory_limit;
    let estimates = format!(
        "tabulating {} and {}, searching {}",
        about(table),
        format_bytes(bytes),
        about(search)
    );
    if table <= search && fits {
        return Ok(Choice {
            engine: Engine::Table,
            reason: Some(format!("{estimates}, estimated")),
        });
    }
    if table <= search && search > REFUSE_SEARCH_SECONDS {
        return Err(Error::limit(
            Setting::MemoryLimit,
            format!(
                "tabulating the box below the position needs about {}, over the memory limit \
                 of {}, and a search would take {} (estimated; the naive engine searches \
                 anyway)",
                format_bytes(bytes),
                format_bytes(opts.memory_limit),
                about(search)
            ),
        ));
    }
    let over = if fits {
        ""
    } else {
        "; the table is over the memory limit"
    };
    Ok(Choice {
        engine: Engine::Search(AUTO_SEARCH),
        reason: Some(format!("{estimates}, estimated{over}")),
    })
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
    let (nimber, stats, winning, kept) = match engine {
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
            (nimber, stats, winning, None)
        }
        Engine::Search(s) => with_stack_for(game.depth(p), || {
            let mut searcher = game.searcher(s, cfg);
            searcher.set_stop(ctl.stop.clone());
            let loaded = match plan {
                Some(plan) => Some(searcher.keep(game.name(), plan)?),
                None => None,
            };
            let v = searcher.try_nimber(p.clone());
            // Stats describe the nimber's search, not the follow-up on successors.
            let stats = searcher.stats();
            let mut winning = Vec::new();
            let mut stopped = v.is_err();
            for q in successors {
                if stopped {
                    break;
                }
                match searcher.try_nimber(q.clone()) {
                    Ok(0) => winning.push(q),
                    Ok(_) => {}
                    Err(Stopped) => stopped = true,
                }
            }
            let kept = plan.zip(loaded).map(|(plan, loaded)| {
                let saved = searcher.save(game.name(), plan);
                (plan.on_save)(&saved, true);
                Kept { loaded, saved }
            });
            match (v, stopped) {
                (Ok(v), false) => Ok((v, stats, winning, kept)),
                _ => Err(stopped_search(game, p, start, plan, kept)),
            }
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
        kept,
    })
}

/// What a search of `p` stopped by its token (since `start`) leaves known: the bounds of
/// [`nimber_undecided`], and where its table was saved, if it keeps one.
fn stopped_search<G: AnyGame + ?Sized>(
    game: &G,
    p: &Stones,
    start: Instant,
    plan: Option<&Plan>,
    kept: Option<Kept>,
) -> Error {
    let table = plan.map(|plan| SavedTable {
        path: plan.path.clone(),
        entries: kept.and_then(|k| k.saved.ok()).map(|s| s.entries),
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

    fn choose(game: &str, p: &[u32], memory_limit: u64) -> Result<Choice, Error> {
        let opts = TableOptions {
            memory_limit,
            ..TableOptions::default()
        };
        let cfg = SearchConfig::default();
        resolve(
            Engine::Auto,
            &spec::parse_hypergraph(game).unwrap(),
            p,
            &cfg,
            &opts,
        )
    }

    /// Tabulation wins where a search visits millions of moves, even past a fixed box size
    /// (163^3 = 4.3 M positions); the search wins where symmetry leaves few orbits.
    #[test]
    fn auto_compares_estimated_costs() {
        let c = choose("path:3", &[162, 162, 162], 1 << 32).unwrap();
        assert_eq!(c.engine, Engine::Table);
        assert!(c.reason.unwrap().contains("searching ~"));
        let c = choose("star:9", &[4; 10], 1 << 32).unwrap();
        assert_eq!(c.engine, Engine::Search(AUTO_SEARCH));
        // The estimate counts what the engine counts: move visits.
        let game = spec::parse_hypergraph("path:3").unwrap();
        let visits = search_seconds(&game, &[30, 30, 30], &SearchConfig::default()) * 1e9 / 109.0;
        assert!((7.0e6..8.0e6).contains(&visits), "{visits}");
    }

    /// Positions a theorem values cost no search; without symmetry a search costs more.
    #[test]
    fn auto_prices_the_search_under_its_config() {
        let c = choose("nim:1", &[10_000_000], 1 << 32).unwrap();
        assert_eq!(
            c.engine,
            Engine::Search(AUTO_SEARCH),
            "a lone pile is its own value"
        );
        let c = choose("circular:3,2", &[1_000_000; 3], 1 << 32).unwrap();
        assert_eq!(
            c.engine,
            Engine::Search(AUTO_SEARCH),
            "equal piles on a circuit"
        );
        let star = spec::parse_hypergraph("star:9").unwrap();
        let p = [4; 10];
        let plain = search_seconds(&star, &p, &SearchConfig::default());
        let bare = search_seconds(&star, &p, &SearchConfig::bare());
        assert!(bare > 100.0 * plain, "{bare} against {plain}");
    }

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

    /// A memory limit that excludes the table does not leave a search to run for hours.
    #[test]
    fn auto_refuses_an_endless_search_when_the_table_does_not_fit() {
        let err = choose("path:3", &[300, 300, 300], 1 << 20).unwrap_err();
        assert_eq!(err.kind(), crate::error::Kind::Resource);
        assert_eq!(err.raise(), Some(Setting::MemoryLimit), "{err}");
        // A short search is still run, and says why.
        let far = choose("path:3", &[u32::MAX; 3], 1 << 32).unwrap_err();
        assert!(far.to_string().contains("too large to tabulate"), "{far}");
        // The way past it is the naive engine, a setting each front end names its own way.
        assert_eq!(far.raise(), Some(Setting::Engine), "{far}");
        assert!(
            !far.to_string().contains("--"),
            "no flag in the library: {far}"
        );
        let c = choose("path:3", &[20, 20, 20], 1 << 10).unwrap();
        assert_eq!(c.engine, Engine::Search(AUTO_SEARCH));
        assert!(c.reason.unwrap().contains("over the memory limit"));
        // Named engines are taken as they are.
        let opts = TableOptions::default();
        let game = spec::parse_hypergraph("path:3").unwrap();
        let c = resolve(
            Engine::Table,
            &game,
            &[1, 1, 1],
            &SearchConfig::default(),
            &opts,
        )
        .unwrap();
        assert_eq!((c.engine, c.reason), (Engine::Table, None));
    }
}
