//! Playing a game: an oracle that values the positions of one game as it goes, agents that
//! choose moves ([`Agent`]), matches between agents ([`tournament`]), and the state of a game
//! against a person ([`session`]). The terminal half lives in `grundy play`.

pub mod session;
pub mod tournament;

use std::str::FromStr;

use rand::seq::IndexedRandom;
use rand::Rng;

use crate::catalog::solve::{check_listed_moves, AUTO_SEARCH};
use crate::catalog::{AnyGame, PositionSearcher};
use crate::error::Error;
use crate::game::Stones;
use crate::game::{MoveOrder, Nimber};
use crate::sg::table::{BoxTable, TableOptions};
use crate::sg::{Engine, SearchConfig};

/// Values the positions of one game, keeping what it learnt between them: the box below the
/// start when the game tabulates it (`auto`'s choice or `--engine table`), and one searcher
/// whose transposition table lives as long as the oracle.
///
/// Searches recurse as deep as a game lasts: call it inside [`crate::sg::with_deep_stack`].
pub struct Oracle<'g> {
    game: &'g dyn AnyGame,
    table: Option<BoxTable>,
    searcher: Box<dyn PositionSearcher + 'g>,
}

impl<'g> Oracle<'g> {
    /// An oracle for positions reached from `start`, by `engine` (`auto` resolved by the game
    /// on `start`).
    pub fn new(
        game: &'g dyn AnyGame,
        start: &Stones,
        engine: Engine,
        cfg: SearchConfig,
        opts: &TableOptions,
    ) -> Result<Self, Error> {
        // The moves of every position played are listed (to choose among, to number them):
        // the start's are counted first, under the one limit of every listing; those of the
        // positions after it are fewer, or of the same order (a split heap).
        check_listed_moves(game, start, opts.memory_limit)?;
        game.fits(start, &cfg, opts.memory_limit)?;
        let engine = match engine {
            Engine::Auto => game.auto(start, &cfg, opts)?.engine,
            named => named,
        };
        let (table, search) = match engine {
            Engine::Table => {
                let dims: Vec<usize> = start.iter().map(|&x| x as usize + 1).collect();
                (Some(game.tabulate(&dims, opts)?), AUTO_SEARCH)
            }
            Engine::Search(s) => (None, s),
            Engine::Auto => return Err(Error::internal("`auto` chose `auto`")),
        };
        Ok(Oracle {
            game,
            table,
            searcher: game.searcher(search, cfg),
        })
    }

    /// The game played.
    pub fn game(&self) -> &'g dyn AnyGame {
        self.game
    }

    /// The nimber of `p`: from the table when `p` is in its box, searched otherwise (a heap
    /// split in two leaves the box).
    pub fn nimber(&mut self, p: &Stones) -> Nimber {
        if let Some(t) = &self.table {
            if let Some(v) = t.grid().index(p).and_then(|i| t.value_at(i)) {
                return v;
            }
        }
        self.searcher.nimber(p.clone())
    }

    /// The moves from `p`, in the game's natural order (the order `moves` lists them in).
    pub fn moves(&self, p: &Stones) -> Vec<Stones> {
        let mut out = Vec::new();
        self.game.successors(p, MoveOrder::Natural, &mut out);
        out
    }

    /// The moves from `p` to a position of nimber 0: the moves that win.
    pub fn winning_moves(&mut self, p: &Stones) -> Vec<Stones> {
        let moves = self.moves(p);
        moves.into_iter().filter(|q| self.nimber(q) == 0).collect()
    }
}

/// A player that picks moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Agent {
    /// Moves to a zero position when one exists (the first in the natural order), at random
    /// otherwise: it wins every game it can win.
    Optimal,
    /// Any move, uniformly at random.
    Random,
}

impl Agent {
    /// Every agent, as `--agents` names them.
    pub const ALL: [Agent; 2] = [Agent::Optimal, Agent::Random];

    /// The agent's name, as `--agents` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Optimal => "optimal",
            Agent::Random => "random",
        }
    }

    /// The move this agent plays from `p`, or `None` when `p` has none (the player to move
    /// has lost).
    pub fn choose(self, oracle: &mut Oracle, p: &Stones, rng: &mut impl Rng) -> Option<Stones> {
        let moves = oracle.moves(p);
        if self == Agent::Optimal {
            if let Some(win) = moves.iter().find(|q| oracle.nimber(q) == 0) {
                return Some(win.clone());
            }
        }
        moves.choose(rng).cloned()
    }
}

impl FromStr for Agent {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        Agent::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Agent::ALL.iter().map(|a| a.name()).collect();
                Error::Usage(format!(
                    "unknown agent `{s}`; the agents are {}",
                    names.join(", ")
                ))
            })
    }
}

/// Set-up shared by the tests of the play modules.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::catalog::spec::{self, Heaps};

    /// The game of `spec` with `heaps` heaps (for heap games).
    pub(crate) fn game(spec: &str, heaps: usize) -> Box<dyn AnyGame> {
        let heaps = Heaps {
            given: None,
            typed: Some(heaps),
        };
        spec::parse(spec, heaps).unwrap()
    }

    /// An `auto` oracle for the positions reached from `start`.
    pub(crate) fn oracle<'g>(g: &'g dyn AnyGame, start: &Stones) -> Oracle<'g> {
        Oracle::new(
            g,
            start,
            Engine::Auto,
            SearchConfig::default(),
            &Default::default(),
        )
        .unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{game, oracle};
    use super::*;
    use rand::SeedableRng;

    /// The oracle agrees with the definition (mex of the successors' values) on every
    /// position of small games, from a table and from a search alike.
    #[test]
    fn oracles_value_by_the_definition() {
        for (spec, start) in [
            ("path:3", vec![3, 2, 3]),
            ("subtraction:1,3,4", vec![6, 4]),
            ("cram:3x3", vec![]),
            ("chomp:3x4", vec![]),
        ] {
            let g = game(spec, start.len().max(1));
            let start: Stones = match start.is_empty() {
                true => g.start().unwrap(),
                false => start.into_iter().collect(),
            };
            for engine in [Engine::Auto, Engine::Search(crate::sg::SearchEngine::Naive)] {
                let cfg = SearchConfig::default();
                let mut o =
                    Oracle::new(g.as_ref(), &start, engine, cfg, &Default::default()).unwrap();
                let mut stack = vec![start.clone()];
                let mut seen = std::collections::HashSet::new();
                while let Some(p) = stack.pop() {
                    if !seen.insert(p.clone()) {
                        continue;
                    }
                    let moves = o.moves(&p);
                    let values: Vec<Nimber> = moves.iter().map(|q| o.nimber(q)).collect();
                    let mex = (0..).find(|v| !values.contains(v)).unwrap();
                    assert_eq!(o.nimber(&p), mex, "{spec} {p:?}");
                    stack.extend(moves);
                }
            }
        }
    }

    /// The optimal agent moves to zero positions whenever it can; both agents move only
    /// along legal moves and stop when there are none.
    #[test]
    fn agents_choose_legal_moves() {
        let g = game("subtraction:1,2,3", 2);
        let start: Stones = [5, 7].into_iter().collect();
        let mut o = oracle(g.as_ref(), &start);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
        // 5 ^ 7 mod 4: G = 1 ^ 3 = 2, a win; the optimal agent leaves a zero position.
        let q = Agent::Optimal.choose(&mut o, &start, &mut rng).unwrap();
        assert_eq!(o.nimber(&q), 0);
        assert!(o.moves(&start).contains(&q));
        for _ in 0..20 {
            let q = Agent::Random.choose(&mut o, &start, &mut rng).unwrap();
            assert!(o.moves(&start).contains(&q));
        }
        let end: Stones = [0, 0].into_iter().collect();
        assert_eq!(Agent::Optimal.choose(&mut o, &end, &mut rng), None);
        assert!("mcts".parse::<Agent>().is_err());
        assert_eq!("random".parse::<Agent>().unwrap(), Agent::Random);
    }
}
