//! `auto`'s cost model for hypergraph nim: what tabulating the box below a position and
//! searching it would take, and the engine it picks by those estimates.

use crate::error::{Error, Setting};
use crate::game::hypergraph::{vertices_of, HypergraphNim};
use crate::game::{Game, Grid, Stones};
use crate::sg::engine::{Engine, SearchEngine};
use crate::sg::table::{self, TableOptions};
use crate::sg::SearchConfig;
use crate::units::{format_bytes, format_seconds};

/// The search engine `auto` uses when it does not tabulate.
pub(crate) const AUTO_SEARCH: SearchEngine = SearchEngine::Naive;

/// `auto` refuses to search past this many estimated seconds when tabulation, the faster
/// choice, was excluded by the memory limit alone: that search would run on for hours.
const REFUSE_SEARCH_SECONDS: f64 = 60.0;

/// `auto` refuses any search estimated past a day, when no table can be made instead: it
/// would not end in any sitting (path:3 at 2^32 - 1 stones each).
const REFUSE_ANY_SEARCH_SECONDS: f64 = 86_400.0;

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
