//! A user-defined game through the library: Wythoff's game, valued by the search engines and
//! tabulated, and its zero positions checked against the theorem: they are the Beatty pairs
//! (⌊nφ⌋, ⌊nφ²⌋) in either order.
//!
//! `cargo run --release --example wythoff` (it also runs in `cargo test`).

use grundy_core::catalog::solve::solve;
use grundy_core::catalog::{Custom, Notation, Tabulation};
use grundy_core::game::symmetry::Symmetry;
use grundy_core::sg::{table::TableOptions, Engine, SearchConfig};
use grundy_core::{Game, MoveOrder, Stones};

/// Two heaps; a move takes any number of tokens from one heap, or the same number from both.
struct Wythoff;

impl Game for Wythoff {
    type Position = Stones;

    fn moves(&self, p: &Stones, _: MoveOrder, out: &mut Vec<Stones>) {
        for k in 1..=p[0] {
            out.push(Stones::from_slice(&[p[0] - k, p[1]]));
        }
        for k in 1..=p[1] {
            out.push(Stones::from_slice(&[p[0], p[1] - k]));
        }
        for k in 1..=p[0].min(p[1]) {
            out.push(Stones::from_slice(&[p[0] - k, p[1] - k]));
        }
    }

    fn canonicalize(&self, p: &mut Stones) {
        p.sort_unstable();
    }
}

fn main() {
    // The commands' view of the game: a name, two counts, and the swap of the heaps.
    let game = Custom::new("wythoff", 2, Wythoff).with_symmetry(Symmetry::interchangeable(2));
    // One position by two engines.
    let p = game.position(&[10, 13]).unwrap();
    let opts = TableOptions::default();
    let naive = solve(
        &game,
        &p,
        Engine::Auto,
        SearchConfig::default(),
        &opts,
        true,
    )
    .unwrap();
    let cut = Engine::Search("cut".parse().unwrap());
    let pruned = solve(&game, &p, cut, SearchConfig::default(), &opts, false).unwrap();
    assert_eq!(naive.nimber, pruned.nimber);
    println!(
        "G(10,13) = {} (naive {} nodes, cut {} nodes); winning moves: {:?}",
        naive.nimber,
        naive.stats.nodes,
        pruned.stats.nodes,
        naive.winning_moves.unwrap()
    );

    // The whole box [0,40)^2, and its zero positions against the Beatty pairs.
    let table = game.tabulate(&[40, 40], &opts).unwrap();
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut zeros = 0;
    let mut x = [0u32; 2];
    for i in 0..table.len() {
        table.position_of(i, &mut x);
        let (a, b) = (x[0].min(x[1]) as f64, x[0].max(x[1]) as f64);
        let n = (b - a).round();
        let beatty = (n * phi).floor() == a && (n * phi * phi).floor() == b;
        assert_eq!(table.value_at(i) == Some(0), beatty, "{x:?}");
        zeros += usize::from(beatty);
    }
    println!("[0,40)^2: {zeros} zero positions, all Beatty pairs (floor(n phi), floor(n phi^2))");
}

#[test]
fn runs() {
    main();
}
