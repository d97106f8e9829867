//! Game-tree sizes, counted independently of any search engine.
//!
//! `def` without a table expands every node of the game tree, so its node count must equal
//! T(p) = 1 + sum of T(q) over the successors q. Memoising T over positions makes trees of
//! 10^11 nodes cheap to count.

use ahash::AHashMap;

use crate::game::{Game, MoveOrder};

/// Number of nodes in the game tree rooted at `p` (root and leaves included).
pub fn tree_size<G: Game>(game: &G, p: &G::Position) -> u128 {
    count_tree(game, p).nodes
}

/// A game tree's size, and how many distinct positions it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeCount {
    /// Nodes of the tree: `def`'s node count without a table.
    pub nodes: u128,
    /// Distinct positions reachable from the root, the root included (the paper's |S|, which
    /// sets its table capacities).
    pub positions: usize,
}

/// Counts the game tree rooted at `p` and its distinct positions.
pub fn count_tree<G: Game>(game: &G, p: &G::Position) -> TreeCount {
    let mut memo = AHashMap::new();
    let nodes = size(game, p, &mut memo);
    TreeCount {
        nodes,
        positions: memo.len(),
    }
}

fn size<G: Game>(game: &G, p: &G::Position, memo: &mut AHashMap<G::Position, u128>) -> u128 {
    if let Some(&t) = memo.get(p) {
        return t;
    }
    let mut moves = Vec::new();
    game.moves(p, MoveOrder::Natural, &mut moves);
    let t = 1 + moves.iter().map(|q| size(game, q, memo)).sum::<u128>();
    memo.insert(p.clone(), t);
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::spec;

    #[test]
    fn single_heap_tree_doubles() {
        // T(n) = 1 + T(0) + ... + T(n-1) = 2^n.
        let nim = spec::parse_hypergraph("nim:1").unwrap();
        for n in 0..20u32 {
            assert_eq!(tree_size(&nim, &[n].into_iter().collect()), 1u128 << n);
        }
    }

    #[test]
    fn positions_are_counted_once() {
        // Nim 2,1 reaches every (a, b) with a <= 2, b <= 1: six positions.
        let nim = spec::parse_hypergraph("nim:2").unwrap();
        let c = count_tree(&nim, &[2, 1].into_iter().collect());
        assert_eq!(c.positions, 6);
        assert_eq!(c.nodes, tree_size(&nim, &[2, 1].into_iter().collect()));
    }

    #[test]
    fn the_papers_nim_985_tree() {
        let nim = spec::parse_hypergraph("nim:3").unwrap();
        assert_eq!(
            tree_size(&nim, &[9, 8, 5].into_iter().collect()),
            489_139_009_164
        );
    }
}
