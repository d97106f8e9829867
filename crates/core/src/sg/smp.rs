//! One position searched by several threads at once ("Lazy SMP", as chess engines do it): every
//! thread searches the whole position with an engine of its own, and they share the exact values
//! they find through one table (the module `shared`). The main thread searches as it would alone;
//! each helper takes the moves near the root in its own rotated order, so that the threads
//! start on different subtrees and find there what the others look up later. The first
//! thread to have the answer stops the others. Values are exact whoever found them, so the
//! nimber is the same for any number of threads; the nodes and look-ups are summed over them.
//!
//! Helpers join only after `HELPERS_AFTER`: a search that settles sooner runs alone, as
//! before, at the cost of two thread starts.
//!
//! Only the cut variants without ETC search so: `naive` splits its options (`split`)
//! and the variants with ETC split theirs as Young Brothers Wait ([`super::ybw`]), both of
//! which add far fewer nodes than the helpers here (on Cram 5 x 8, 66% more nodes here against
//! 11%).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::cut::CutSearch;
use super::engine::SearchEngine;
use super::lv::Lv;
use super::naive::Naive;
use super::shared::{SharedValues, Sharing};
use super::tt::{weight, Weight};
use super::{Hook, Known, SearchConfig, Searcher, Stats, TtConfig, STACK_BYTES};
use crate::game::{Game, Nimber};
use crate::stop::{Stop, Stopped};

/// How long the main thread searches alone before the helpers join it (at once in the unit
/// tests, so that their small searches run on every thread).
const HELPERS_AFTER: Duration = Duration::from_millis(if cfg!(test) { 0 } else { 10 });

/// The threads `threads` asks for: 0 is every core.
pub fn resolve_threads(threads: usize) -> usize {
    match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Whether `engine` can search one position on several threads: naive and the cut family
/// except its resuming variants (`_R`), which search alone: a resumed node counts on one
/// order of its moves at every visit, so a helper could not take its own and would only
/// repeat the main thread's search.
pub fn searches_in_parallel(engine: SearchEngine) -> bool {
    match engine {
        SearchEngine::Naive => true,
        SearchEngine::Cut(v) => !v.resume,
        SearchEngine::Lv => false,
    }
}

/// Whether `engine` splits its work among threads rather than racing them: `naive` splits
/// the options of the top plies (`split`) and the cut variants with ETC split as
/// Young Brothers Wait ([`super::ybw`]); the others run Lazy SMP. What `threads: 0` takes
/// every core for: on two idle cores the splits took 0.59-0.69 of one thread's time on Cram
/// and 0.76 on Chomp 11 x 11, Lazy SMP 1.01-1.11 (docs/benchmarks.md).
pub fn splits_work(engine: SearchEngine) -> bool {
    match engine {
        SearchEngine::Naive => true,
        SearchEngine::Cut(v) => super::ybw::suits(v),
        SearchEngine::Lv => false,
    }
}

/// One thread's searcher: `engine` over `game`, sharing `table` as thread `index`.
fn thread_searcher<'g, G: Game>(
    game: &'g G,
    engine: SearchEngine,
    cfg: SearchConfig,
    share: Sharing<G::Position>,
) -> Box<dyn Searcher<G> + 'g> {
    match engine {
        SearchEngine::Naive => Box::new(Naive::new(game, cfg).sharing(share)),
        SearchEngine::Cut(v) => Box::new(CutSearch::new(game, v, cfg).sharing(share)),
        SearchEngine::Lv => Box::new(Lv::new(game, cfg)),
    }
}

/// What the helpers of a parallel search share: the game, how to search it, the table.
struct Team<'g, G: Game> {
    game: &'g G,
    engine: SearchEngine,
    cfg: SearchConfig,
    threads: usize,
    table: Arc<SharedValues<G::Position>>,
}

impl<G: Game> Team<'_, G> {
    /// Thread `index`'s config: its table's share of the memory limit.
    fn config(&self) -> SearchConfig {
        let memory = self.cfg.tt.memory.map(|m| m / (self.threads as u64 + 1));
        SearchConfig {
            tt: TtConfig {
                memory,
                ..self.cfg.tt
            },
            ..self.cfg
        }
    }

    fn sharing(&self, index: usize) -> Sharing<G::Position> {
        Sharing {
            table: Arc::clone(&self.table),
            index,
            threads: self.threads,
            plies: super::shared::DIVERGE_PLIES,
        }
    }

    /// Helper `index`'s search of `p` until `round` stops: its answer and its work.
    fn helper(
        &self,
        index: usize,
        p: G::Position,
        round: Stop,
    ) -> (Result<Nimber, Stopped>, Stats) {
        let start = Instant::now();
        while start.elapsed() < HELPERS_AFTER {
            if round.is_stopped() {
                return (Err(Stopped), Stats::default());
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let mut s = thread_searcher(self.game, self.engine, self.config(), self.sharing(index));
        s.set_stop(round.clone());
        let v = s.try_nimber(p);
        if v.is_ok() {
            round.stop();
        }
        (v, s.stats())
    }
}

/// A parallel search: the main thread's searcher, kept between positions, and what its
/// helpers share with it.
pub struct Smp<'g, G: Game> {
    team: Team<'g, G>,
    main: Box<dyn Searcher<G> + 'g>,
    /// The caller's token; each position gets a child of it, which its first answer stops.
    stop: Stop,
    /// The helpers' work, summed over every position.
    helped: Stats,
}

impl<'g, G: Game> Smp<'g, G> {
    /// `engine` over `game` on `threads` threads, its tables empty.
    pub fn new(game: &'g G, engine: SearchEngine, cfg: SearchConfig, threads: usize) -> Self {
        // Each thread's table and the shared one take their part of the memory limit.
        let memory = cfg.tt.memory.map(|m| m / (threads as u64 + 1));
        let team = Team {
            game,
            engine,
            cfg,
            threads,
            table: Arc::new(SharedValues::new(threads, memory)),
        };
        let mut main = thread_searcher(game, engine, team.config(), team.sharing(0));
        let stop = Stop::new();
        main.set_stop(stop.clone());
        Smp {
            team,
            main,
            stop,
            helped: Stats::default(),
        }
    }
}

impl<G: Game> Searcher<G> for Smp<'_, G> {
    fn try_nimber(&mut self, p: G::Position) -> Result<Nimber, Stopped> {
        let round = self.stop.child();
        self.main.set_stop(round.clone());
        let before = self.main.stats().nodes;
        let (team, main) = (&self.team, &mut self.main);
        let (mine, theirs) = std::thread::scope(|s| {
            let helpers: Vec<_> = (1..team.threads)
                .filter_map(|i| {
                    let (p, round) = (p.clone(), round.clone());
                    std::thread::Builder::new()
                        .name("grundy-helper".into())
                        .stack_size(STACK_BYTES)
                        .spawn_scoped(s, move || team.helper(i, p, round))
                        .ok()
                })
                .collect();
            let mine = main.try_nimber(p.clone());
            if mine.is_ok() {
                round.stop();
            }
            let theirs: Vec<_> = helpers
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect();
            (mine, theirs)
        });
        let mut answer = mine;
        for (v, stats) in theirs {
            self.helped += stats;
            if let Ok(v) = v {
                debug_assert!(answer.is_err() || answer == Ok(v), "threads disagree");
                answer = answer.or(Ok(v));
            }
        }
        // Back to the caller's token, which the round's end leaves running; the main table
        // keeps a helper's answer (for a saved table, and the next position).
        self.main.set_stop(self.stop.clone());
        if let (Ok(v), Err(Stopped)) = (answer, mine) {
            let spent = self.main.stats().nodes - before;
            self.main.learn(p, v, weight(spent));
        }
        answer
    }

    fn stats(&self) -> Stats {
        let main = self.main.stats();
        Stats {
            nodes: main.nodes + self.helped.nodes,
            tt_lookups: main.tt_lookups + self.helped.tt_lookups,
            tt_evictions: main.tt_evictions + self.helped.tt_evictions,
        }
    }

    fn learn(&mut self, p: G::Position, v: Nimber, w: Weight) {
        self.main.learn(p, v, w);
    }

    fn reserve(&mut self, additional: usize) -> usize {
        self.main.reserve(additional)
    }

    fn set_hook(&mut self, hook: Hook<G::Position>) {
        self.main.set_hook(hook);
    }

    fn set_stop(&mut self, stop: Stop) {
        self.main.set_stop(stop.clone());
        self.stop = stop;
    }

    fn known(&self) -> &dyn Known<G::Position> {
        self.main.known()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::spec;
    use crate::game::board::{Chomp, Cram};
    use crate::game::Stones;

    /// The engines that search in parallel, resuming and aspiration variants among them.
    fn engines() -> Vec<SearchEngine> {
        let cut = ["def", "cut_cEA", "cut_A", "scut_cE"];
        let mut out = vec![SearchEngine::Naive];
        out.extend(cut.iter().map(|n| SearchEngine::Cut(n.parse().unwrap())));
        out
    }

    /// Every position of `positions`, valued by one searcher of each engine on 2 and 3 threads
    /// (its tables kept from one position to the next), against the plain search alone.
    fn agree<G: Game>(game: &G, positions: &[G::Position]) {
        let mut alone = Naive::new(game, SearchConfig::default());
        let want: Vec<Nimber> = positions.iter().map(|p| alone.nimber(p.clone())).collect();
        for engine in engines() {
            for (threads, cfg) in [(2, SearchConfig::default()), (3, SearchConfig::bare())] {
                let cfg = SearchConfig { threads, ..cfg };
                let mut s = engine.searcher(game, cfg);
                for (p, &v) in positions.iter().zip(&want) {
                    assert_eq!(
                        s.nimber(p.clone()),
                        v,
                        "{engine} on {threads} threads, {p:?}"
                    );
                }
                assert!(s.stats().nodes > 0);
            }
        }
    }

    #[test]
    fn every_thread_count_gives_the_same_nimbers() {
        for (rows, cols) in [(3, 4), (4, 4), (3, 5), (2, 7)] {
            let cram = Cram::<u64>::new("cram", rows, cols).unwrap();
            let full = cram.full();
            // The full board and some boards with cells taken, searched in turn.
            let boards: Vec<u64> = (0..8).map(|i| full & !(0b11u64 << (3 * i))).collect();
            agree(&cram, &[&[full][..], &boards].concat());
        }
        for (rows, cols) in [(4, 5), (3, 7)] {
            let chomp = Chomp::new("chomp", rows, cols).unwrap();
            let heights: Vec<u64> = (1..=rows as u32)
                .map(|h| chomp.pack(&vec![h; cols]))
                .collect();
            agree(&chomp, &heights);
        }
        let path = spec::parse_hypergraph("path:3").unwrap();
        let positions: Vec<Stones> = [[5, 4, 6], [7, 7, 7], [3, 9, 2], [8, 1, 8]]
            .iter()
            .map(|p| p.iter().copied().collect())
            .collect();
        agree(&path, &positions);
    }

    /// A parallel search stops with its token, and is stopped no more once it is given a
    /// token that is not.
    #[test]
    fn a_stopped_parallel_search_says_so() {
        let cram = Cram::<u64>::new("cram", 4, 5).unwrap();
        let cfg = SearchConfig {
            threads: 2,
            ..SearchConfig::default()
        };
        let mut s = SearchEngine::Cut("cut_cEA".parse().unwrap()).searcher(&cram, cfg);
        let stop = Stop::new();
        stop.stop();
        s.set_stop(stop);
        assert_eq!(s.try_nimber(cram.full()), Err(Stopped));
        s.set_stop(Stop::new());
        let mut alone = Naive::new(&cram, SearchConfig::default());
        assert_eq!(s.try_nimber(cram.full()), Ok(alone.nimber(cram.full())));
    }
}
