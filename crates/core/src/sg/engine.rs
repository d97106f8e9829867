//! Engine names as the command line spells them, and how `auto` chooses.

use std::fmt;
use std::str::FromStr;

use super::cut::{CutSearch, Variant};
use super::lv::Lv;
use super::naive::Naive;
use super::{SearchConfig, Searcher};
use crate::game::Game;

/// An engine that searches from a single position and works on any game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchEngine {
    /// The definition with a memo table.
    Naive,
    /// Lemoine & Viennot's couple search.
    Lv,
    /// A member of the cut-pruning family.
    Cut(Variant),
}

/// Every engine `--engine` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// A search from the position alone, for any game.
    Search(SearchEngine),
    /// Tabulation of the box below the position ([`crate::catalog::Tabulation::tabulate`]).
    Table,
    /// Table for small boxes, search otherwise.
    Auto,
}

impl SearchEngine {
    /// A searcher over `game` with an empty table, on `cfg.threads` threads (0: every core,
    /// but only where the engine splits its work, [`super::smp::splits_work`]) where it
    /// searches in parallel ([`super::smp::searches_in_parallel`]: `naive` splitting its
    /// options, the cut variants with ETC as Young Brothers Wait, the others as Lazy SMP) and
    /// the table is unbounded: a bounded table (or none) is a measurement's setting, which a
    /// shared table would change.
    pub fn searcher<'g, G: Game>(
        self,
        game: &'g G,
        cfg: SearchConfig,
    ) -> Box<dyn Searcher<G> + 'g> {
        let threads = match cfg.threads {
            0 if !super::smp::splits_work(self) => 1,
            t => super::smp::resolve_threads(t),
        };
        if threads > 1 && cfg.tt.capacity.is_none() && super::smp::searches_in_parallel(self) {
            // naive values every option anyway, so its threads split them among them; a
            // pool that cannot start leaves the search on this thread.
            if self == SearchEngine::Naive {
                if let Ok(s) = super::split::Split::new(game, cfg, threads) {
                    return Box::new(s);
                }
            }
            // The cut family with ETC splits once a node's eldest successor is done.
            if let SearchEngine::Cut(v) = self {
                if super::ybw::suits(v) {
                    if let Ok(s) = super::ybw::Ybw::new(game, v, cfg, threads) {
                        return Box::new(s);
                    }
                }
            }
            return Box::new(super::smp::Smp::new(game, self, cfg, threads));
        }
        match self {
            SearchEngine::Naive => Box::new(Naive::new(game, cfg)),
            SearchEngine::Lv => Box::new(Lv::new(game, cfg)),
            SearchEngine::Cut(v) => Box::new(CutSearch::new(game, v, cfg)),
        }
    }
}

impl fmt::Display for SearchEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchEngine::Naive => write!(f, "naive"),
            SearchEngine::Lv => write!(f, "lv"),
            SearchEngine::Cut(v) => write!(f, "{v}"),
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Engine::Search(s) => write!(f, "{s}"),
            Engine::Table => write!(f, "table"),
            Engine::Auto => write!(f, "auto"),
        }
    }
}

/// The search engines as `--engine` spells them, for messages.
pub(crate) const SEARCH_ENGINES: &str =
    "naive, lv, def, scut, cut, with suffixes _R, _E, _cE, _A (e.g. cut_cEA)";

/// Whether `s` names a search engine, perhaps with bad suffixes (which its parser reports).
fn names_search_engine(s: &str) -> bool {
    let base = s.split('_').next().unwrap_or(s);
    matches!(s, "naive" | "lv") || matches!(base, "def" | "scut" | "cut")
}

impl FromStr for SearchEngine {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "naive" => Ok(SearchEngine::Naive),
            "lv" => Ok(SearchEngine::Lv),
            _ if names_search_engine(s) => s.parse().map(SearchEngine::Cut),
            _ => Err(format!(
                "unknown search engine `{s}`; known: {SEARCH_ENGINES}"
            )),
        }
    }
}

impl FromStr for Engine {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "table" => Ok(Engine::Table),
            "auto" => Ok(Engine::Auto),
            _ if names_search_engine(s) => s.parse().map(Engine::Search),
            _ => Err(format!(
                "unknown engine `{s}`; known: auto, table, {SEARCH_ENGINES}"
            )),
        }
    }
}

/// Every search engine, for tests and benchmarks.
pub fn all_search_engines() -> Vec<SearchEngine> {
    let mut out = vec![SearchEngine::Naive, SearchEngine::Lv];
    out.extend(
        Variant::PAPER
            .iter()
            .map(|n| SearchEngine::Cut(n.parse().expect("paper names parse"))),
    );
    out
}
