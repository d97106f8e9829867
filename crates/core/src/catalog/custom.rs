//! A game of the user's own beside the ones the registry names: implement [`Game`] over
//! [`Stones`] and wrap it in [`Custom`], and every engine, `auto`, tabulation and the
//! commands' machinery take it as they take a built-in game.

use super::{searcher, Notation, PositionSearcher, Rules, Tabulation, Valuation};
use crate::game::symmetry::Symmetry;
use crate::game::{Game, MoveOrder, Stones};
use crate::sg::{SearchConfig, SearchEngine};

/// A user's [`Game`] with what the commands need beside its rules: a name, the number of
/// counts in a position, and the permutations of the counts that keep values (none claimed
/// unless [`Custom::with_symmetry`] says so).
pub struct Custom<G> {
    name: String,
    variables: usize,
    symmetry: Symmetry,
    game: G,
}

impl<G: Game<Position = Stones> + Send + Sync> Custom<G> {
    /// `game` named `name`, its positions `variables` counts.
    pub fn new(name: impl Into<String>, variables: usize, game: G) -> Self {
        Custom {
            name: name.into(),
            variables,
            symmetry: Symmetry::identity(variables),
            game,
        }
    }

    /// Claims `symmetry`: permuting the counts by any of its members keeps every value
    /// (orbit-based synthesis and canonical boxes rely on it).
    pub fn with_symmetry(mut self, symmetry: Symmetry) -> Self {
        self.symmetry = symmetry;
        self
    }

    /// The wrapped game.
    pub fn game(&self) -> &G {
        &self.game
    }
}

impl<G: Game<Position = Stones> + Send + Sync> Notation for Custom<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn variables(&self) -> usize {
        self.variables
    }
}

impl<G: Game<Position = Stones> + Send + Sync> Rules for Custom<G> {
    fn symmetry(&self) -> &Symmetry {
        &self.symmetry
    }

    fn successors(&self, p: &Stones, order: MoveOrder, out: &mut Vec<Stones>) {
        self.game.moves(p, order, out);
    }

    fn move_count(&self, p: &Stones) -> usize {
        self.game.move_count(p)
    }
}

impl<G: Game<Position = Stones> + Send + Sync> Valuation for Custom<G> {
    fn searcher(&self, engine: SearchEngine, cfg: SearchConfig) -> Box<dyn PositionSearcher + '_> {
        searcher(&self.game, engine, cfg)
    }
}

impl<G: Game<Position = Stones> + Send + Sync> Tabulation for Custom<G> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::solve::solve;
    use crate::sg::table::TableOptions;
    use crate::sg::Engine;

    /// Two heaps, take from one: nim by another name, valued through the wrapper.
    struct TwoHeaps;

    impl Game for TwoHeaps {
        type Position = Stones;
        fn moves(&self, p: &Stones, _: MoveOrder, out: &mut Vec<Stones>) {
            for i in 0..2 {
                for k in 0..p[i] {
                    let mut q = p.clone();
                    q[i] = k;
                    out.push(q);
                }
            }
        }
    }

    #[test]
    fn a_wrapped_game_is_valued_and_tabulated_like_a_built_in_one() {
        let g = Custom::new("two-heaps", 2, TwoHeaps).with_symmetry(Symmetry::interchangeable(2));
        let opts = TableOptions::default();
        let p = g.position(&[5, 3]).unwrap();
        let cut = Engine::Search("cut".parse().unwrap());
        let v = solve(&g, &p, cut, SearchConfig::default(), &opts, false).unwrap();
        assert_eq!(v.nimber, 5 ^ 3);
        let table = g.tabulate(&[6, 6], &opts).unwrap();
        let mut x = [0u32; 2];
        for i in 0..table.len() {
            table.position_of(i, &mut x);
            assert_eq!(table.value_at(i), Some(x[0] ^ x[1]));
        }
        assert!(g.position(&[1, 2, 3]).is_err());
    }
}
