use super::*;
use crate::catalog::spec;
use crate::game::board::{Chomp, Cram};
use crate::game::Stones;
use crate::sg::naive::Naive;

/// The variants that split, with and without aspiration, `cut` and `scut`, `E` and `cE`.
const VARIANTS: [&str; 5] = ["cut_cEA", "cut_cE", "cut_E", "scut_cE", "cut_EA"];

/// Every position of `positions`, valued by one split search of each variant on 2 and 3
/// threads (its tables kept from one position to the next), against `naive` alone.
fn agree<G: Game>(game: &G, positions: &[G::Position]) {
    let mut alone = Naive::new(game, SearchConfig::default());
    let want: Vec<Nimber> = positions.iter().map(|p| alone.nimber(p.clone())).collect();
    for name in VARIANTS {
        let variant: Variant = name.parse().unwrap();
        for (threads, cfg) in [(2, SearchConfig::default()), (3, SearchConfig::bare())] {
            let mut s = Ybw::new(game, variant, cfg, threads).unwrap();
            for (p, &v) in positions.iter().zip(&want) {
                assert_eq!(s.nimber(p.clone()), v, "{name} on {threads} threads, {p:?}");
            }
            assert!(s.stats().nodes > 0);
        }
    }
}

#[test]
fn every_thread_count_gives_the_nimbers_of_one() {
    for (rows, cols) in [(3, 4), (4, 4), (3, 5), (2, 7), (4, 5)] {
        let cram = Cram::<u64>::new("cram", rows, cols).unwrap();
        let full = cram.full();
        // The full board and boards with two cells taken, searched in turn.
        let boards: Vec<u64> = (0..10).map(|i| full & !(0b11u64 << (2 * i))).collect();
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
    let positions: Vec<Stones> = [[5, 4, 6], [7, 7, 7], [3, 9, 2], [8, 1, 8], [6, 6, 1]]
        .iter()
        .map(|p| p.iter().copied().collect())
        .collect();
    agree(&path, &positions);
}

/// A board of many positions, each searched afresh: the top plies split on every one.
#[test]
fn each_position_searched_afresh_agrees() {
    let cram = Cram::<u64>::new("cram", 4, 4).unwrap();
    let full = cram.full();
    let mut alone = Naive::new(&cram, SearchConfig::default());
    let variant: Variant = "cut_cEA".parse().unwrap();
    // Every board with one 2 x 1 block of cells taken at each place, and some with two.
    for i in 0..16u64 {
        for j in [i, (i * 5 + 3) % 16] {
            let board = full & !(1u64 << i) & !(1u64 << j);
            let mut s = Ybw::new(&cram, variant, SearchConfig::default(), 2).unwrap();
            assert_eq!(s.nimber(board), alone.nimber(board), "{board:#b}");
        }
    }
}

/// What the shared table holds after a search is exact, and it holds the root.
#[test]
fn its_table_holds_exact_values() {
    let cram = Cram::<u64>::new("cram", 4, 5).unwrap();
    let start = cram.full();
    let mut alone = Naive::new(&cram, SearchConfig::default());
    let variant: Variant = "cut_cE".parse().unwrap();
    let mut s = Ybw::new(&cram, variant, SearchConfig::default(), 2).unwrap();
    assert_eq!(s.nimber(start), alone.nimber(start));
    let mut known = Vec::new();
    s.known().each_known(&mut |p, v, _| known.push((*p, v)));
    assert!(known.len() > 1);
    for (p, v) in known {
        assert_eq!(alone.nimber(p), v, "{p:#b}");
    }
}

/// A split search stops with its token, stays stopped, and runs again with a new one.
#[test]
fn a_stopped_split_search_says_so() {
    let cram = Cram::<u64>::new("cram", 4, 5).unwrap();
    let variant: Variant = "cut_cEA".parse().unwrap();
    let mut s = Ybw::new(&cram, variant, SearchConfig::default(), 2).unwrap();
    let stop = Stop::new();
    stop.stop();
    s.set_stop(stop);
    assert_eq!(s.try_nimber(cram.full()), Err(Stopped));
    assert_eq!(s.try_nimber(cram.full()), Err(Stopped));
    s.set_stop(Stop::new());
    let mut alone = Naive::new(&cram, SearchConfig::default());
    assert_eq!(s.try_nimber(cram.full()), Ok(alone.nimber(cram.full())));
}

/// Stopped part way (by the hook, on the first thread), it keeps only exact values.
#[test]
fn a_search_stopped_part_way_keeps_only_exact_values() {
    let cram = Cram::<u64>::new("cram", 3, 7).unwrap();
    let variant: Variant = "cut_cEA".parse().unwrap();
    let mut s = Ybw::new(&cram, variant, SearchConfig::default(), 2).unwrap();
    let stop = Stop::new();
    let by_hook = stop.clone();
    s.set_hook(Box::new(move |_| by_hook.stop()));
    s.set_stop(stop);
    assert_eq!(s.try_nimber(cram.full()), Err(Stopped));
    let mut alone = Naive::new(&cram, SearchConfig::default());
    let mut known = Vec::new();
    s.known().each_known(&mut |p, v, _| known.push((*p, v)));
    for (p, v) in known {
        assert_eq!(alone.nimber(p), v, "{p:#b}");
    }
}

/// Every node below the split plies is counted in one subtree of the spread, and the spread
/// adds up to the search's nodes less those of the split plies.
#[test]
fn the_spread_counts_every_node_below_the_split() {
    let cram = Cram::<u64>::new("cram", 3, 7).unwrap();
    let variant: Variant = "cut_cEA".parse().unwrap();
    let mut s = Ybw::new(&cram, variant, SearchConfig::default(), 2).unwrap();
    s.nimber(cram.full());
    let spread = s.spread();
    let below: u64 = spread.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum();
    let subtrees: u64 = spread.count.iter().map(|n| n.load(Ordering::Relaxed)).sum();
    let top = s.nodes.load(Ordering::Relaxed);
    assert!(subtrees > 1 && top > 0);
    assert_eq!(below + top, s.stats().nodes);
    assert!(spread.largest.load(Ordering::Relaxed) <= below);
}
