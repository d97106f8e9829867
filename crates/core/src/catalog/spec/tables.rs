//! Every family of the registry, its box table against the definition of the nimber: a
//! family added to [`super::FAMILIES`] is checked here without a line more.

use std::collections::HashMap;

use super::{parse, Heaps, FAMILIES};
use crate::catalog::AnyGame;
use crate::game::{Grid, MoveOrder, Nimber};
use crate::sg::table::TableOptions;
use crate::sg::{SearchConfig, SearchEngine};

/// The nimber of `p` by the definition, the mex of its successors' nimbers, memoized: no
/// engine, no table, no theorem.
fn by_definition(game: &dyn AnyGame, p: &[u32], memo: &mut HashMap<Vec<u32>, Nimber>) -> Nimber {
    if let Some(&v) = memo.get(p) {
        return v;
    }
    let mut next = Vec::new();
    game.successors(&p.iter().copied().collect(), MoveOrder::Natural, &mut next);
    let mut seen: Vec<Nimber> = next.iter().map(|q| by_definition(game, q, memo)).collect();
    seen.sort_unstable();
    seen.dedup();
    let mex = seen.iter().enumerate().find(|&(i, &v)| v != i as Nimber);
    let v = mex.map_or(seen.len(), |(i, _)| i) as Nimber;
    memo.insert(p.to_vec(), v);
    v
}

/// The side of a cube box of about 400 points in `n` dimensions, from 2 to 6.
fn side(n: usize) -> usize {
    (2..=6usize)
        .rev()
        .find(|&d| d.pow(n as u32) <= 400)
        .unwrap_or(2)
}

/// `game`'s table of the cube of side `d` (its default way, and the naive search's sweep)
/// against the definition at every position, and no value at the points that are not
/// positions; returns how many points were positions.
fn check(game: &dyn AnyGame, d: usize) -> usize {
    let n = game.variables();
    let grid = Grid::cube(n, d).unwrap();
    let table = game
        .tabulate(grid.sides(), &TableOptions::default())
        .unwrap();
    let opts = TableOptions::default();
    let (_, swept) = crate::catalog::sweep::sweep(
        game,
        SearchEngine::Naive,
        SearchConfig::default(),
        &grid,
        opts.memory_limit,
        opts.progress.as_ref(),
    )
    .unwrap();
    let mut memo = HashMap::new();
    let mut p = vec![0u32; n];
    let mut positions = 0;
    for i in 0..grid.len() {
        // A game's own fast test agrees with the position it accepts as typed.
        let counts: Vec<u64> = p.iter().map(|&x| u64::from(x)).collect();
        let accepted = game.position(&counts).is_ok();
        assert_eq!(game.is_position(&p), accepted, "{}: {p:?}", game.name());
        let want = accepted.then(|| by_definition(game, &p, &mut memo));
        let name = game.name();
        assert_eq!(table.value_at(i), want, "{name}: table at {p:?}");
        assert_eq!(swept.value_at(i), want, "{name}: naive at {p:?}");
        positions += usize::from(want.is_some());
        grid.advance(&mut p);
    }
    assert_eq!(table.position_count(), positions, "{}", game.name());
    positions
}

/// Every family's example (heap games as sums of two heaps), and boards whose boxes hold
/// points that are not positions: Chomp's heights that grow, Cram's masks past the board.
#[test]
fn every_familys_table_is_the_definitions() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k.json");
    std::fs::write(&file, r#"{"vertices": 3, "faces": [[0, 1], [1, 2]]}"#).unwrap();
    let mut specs: Vec<String> = FAMILIES
        .iter()
        .map(|f| match f.name {
            "complex-file" => format!("complex-file:{}", file.display()),
            _ => f.example.to_string(),
        })
        .collect();
    specs.extend(["chomp:3x3".into(), "cram:2x2".into()]);
    let mut partial = 0;
    for spec in &specs {
        let game = parse(spec, Heaps::given(None))
            .or_else(|_| parse(spec, Heaps::given(Some(2))))
            .unwrap();
        let d = match spec.as_str() {
            "chomp:3x3" => 4,
            "cram:2x2" => 6,
            _ => side(game.variables()),
        };
        let positions = check(game.as_ref(), d);
        assert!(positions > 0, "{spec}");
        partial += usize::from(positions < Grid::cube(game.variables(), d).unwrap().len());
    }
    // Chomp's example, chomp:3x3 and cram:2x2 at least.
    assert!(partial >= 3, "{partial} partial boxes");
}

/// The audit's case: Chomp 3 x 3 up to 3 a column has C(6,3) - 1 = 19 positions, the full
/// board's value is 5 and (2,2,0)'s 2.
#[test]
fn chomp_3x3_has_19_positions() {
    let game = parse("chomp:3x3", Heaps::given(None)).unwrap();
    let table = game.tabulate(&[4, 4, 4], &TableOptions::default()).unwrap();
    assert_eq!(table.position_count(), 19);
    assert_eq!(table.get(&[3, 3, 3]), Some(5));
    assert_eq!(table.get(&[2, 2, 0]), Some(2));
    assert_eq!(table.get(&[0, 0, 0]), None);
    assert_eq!(table.get(&[1, 2, 0]), None);
}
