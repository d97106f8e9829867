//! Engines checked against each other and against known theorems on every built-in game.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::spec;
use crate::game::board::{Chomp, Cram};
use crate::game::Stones;
use crate::game::{Game, HypergraphNim, MoveOrder, Nimber};
use crate::sg::checkpoint::{keep, load, save, Plan, Record};
use crate::sg::cut::{CutSearch, Variant};
use crate::sg::engine::all_search_engines;
use crate::sg::naive::Naive;
use crate::sg::tree::tree_size;
use crate::sg::tt::{Policy, TtConfig, UNKNOWN};
use crate::sg::{SearchConfig, SearchEngine, Searcher};

const GAMES: &[&str] = &[
    "nim:3",
    "path:3",
    "path:4",
    "star:3",
    "shriek",
    "circular:4,2",
    "circular:3,3",
    "circular:5,3",
    "projective-plane",
    "y-graph",
    "square",
    "complex:0-1-2,2-3",
    "hypergraph:0-1-2,2-3",
];

/// Every position with at most `max` stones on a vertex and `total` stones in all.
fn positions(n: usize, max: u32, total: u32) -> Vec<Stones> {
    let mut out = Vec::new();
    let mut p: Stones = std::iter::repeat_n(0, n).collect();
    loop {
        if p.iter().sum::<u32>() <= total {
            out.push(p.clone());
        }
        let mut i = n;
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            if p[i] < max {
                p[i] += 1;
                break;
            }
            p[i] = 0;
        }
    }
}

fn reference(game: &HypergraphNim, ps: &[Stones]) -> Vec<Nimber> {
    let mut naive = SearchEngine::Naive.searcher(game, SearchConfig::bare());
    ps.iter().map(|p| naive.nimber(p.clone())).collect()
}

/// Every engine, with and without the theorems, FIFO and CLOCK, against the plain search on
/// the positions of every game in [`GAMES`]; with `memory`, the number of entries the tables
/// gave up for it.
fn check_all(capacity: Option<usize>, memory: Option<u64>, max: u32, total: u32) -> u64 {
    let mut evictions = 0;
    for name in GAMES {
        let game = spec::parse_hypergraph(name).unwrap();
        let ps = positions(game.graph().vertices(), max, total);
        let expected = reference(&game, &ps);
        for engine in all_search_engines() {
            for base in [SearchConfig::bare(), SearchConfig::default()] {
                for policy in [Policy::Fifo, Policy::Clock] {
                    let cfg = SearchConfig {
                        tt: TtConfig {
                            capacity,
                            policy,
                            memory,
                        },
                        ..base
                    };
                    let mut s = engine.searcher(&game, cfg);
                    for (p, &want) in ps.iter().zip(&expected) {
                        let got = s.nimber(p.clone());
                        assert_eq!(got, want, "{name} {p:?} engine {engine} cfg {cfg:?}");
                    }
                    evictions += s.stats().tt_evictions;
                }
            }
        }
    }
    evictions
}

#[test]
fn engines_agree_with_unbounded_tables() {
    assert_eq!(check_all(None, None, 3, 9), 0);
}

/// An unbounded table at its memory limit gives entries up for new ones: the values stay.
#[test]
fn engines_agree_with_unbounded_tables_at_their_memory_limit() {
    let evictions = check_all(None, Some(16 << 10), 2, 6);
    assert!(evictions > 1000, "{evictions} entries given up");
}

#[test]
fn engines_agree_with_small_tables() {
    assert!(check_all(Some(7), None, 2, 6) > 0);
}

#[test]
fn engines_agree_without_a_table() {
    assert_eq!(check_all(Some(0), None, 2, 4), 0);
}

#[test]
fn natural_order_gives_the_same_values() {
    let game = spec::parse_hypergraph("y-graph").unwrap();
    let ps = positions(5, 2, 7);
    let expected = reference(&game, &ps);
    for engine in all_search_engines() {
        let cfg = SearchConfig {
            order: MoveOrder::Natural,
            ..SearchConfig::default()
        };
        let mut s = engine.searcher(&game, cfg);
        for (p, &want) in ps.iter().zip(&expected) {
            assert_eq!(s.nimber(p.clone()), want, "{p:?} {engine}");
        }
    }
}

/// Shuffled orders (the resuming variants rely on each position's order being fixed) with
/// small tables, so that entries are evicted and resumed.
#[test]
fn shuffled_orders_give_the_same_values() {
    let game = spec::parse_hypergraph("y-graph").unwrap();
    let ps = positions(5, 2, 7);
    let expected = reference(&game, &ps);
    for engine in all_search_engines() {
        for seed in 0..3 {
            let cfg = SearchConfig {
                order: MoveOrder::Natural,
                shuffle: Some(seed),
                tt: TtConfig {
                    capacity: Some(5),
                    policy: Policy::Fifo,
                    memory: None,
                },
                ..SearchConfig::bare()
            };
            let mut s = engine.searcher(&game, cfg);
            for (p, &want) in ps.iter().zip(&expected) {
                assert_eq!(s.nimber(p.clone()), want, "{p:?} {engine} seed {seed}");
            }
        }
    }
}

fn zero_set(name: &str, max: u32) -> Vec<(Stones, bool)> {
    let game = spec::parse_hypergraph(name).unwrap();
    let ps = positions(game.graph().vertices(), max, u32::MAX);
    let mut s =
        SearchEngine::Cut("cut_cE".parse().unwrap()).searcher(&game, SearchConfig::default());
    ps.into_iter()
        .map(|p| (p.clone(), s.nimber(p) == 0))
        .collect()
}

#[test]
fn nim_is_the_xor() {
    let game = spec::parse_hypergraph("nim:3").unwrap();
    let mut s = SearchEngine::Lv.searcher(&game, SearchConfig::bare());
    for p in positions(3, 7, u32::MAX) {
        assert_eq!(s.nimber(p.clone()), p[0] ^ p[1] ^ p[2]);
    }
}

#[test]
fn shriek_is_sum_of_the_edge_xor_the_lone_vertex() {
    let game = spec::parse_hypergraph("shriek").unwrap();
    let mut s = SearchEngine::Cut("cut".parse().unwrap()).searcher(&game, SearchConfig::default());
    for p in positions(3, 7, u32::MAX) {
        assert_eq!(s.nimber(p.clone()), (p[0] + p[1]) ^ p[2], "{p:?}");
    }
}

#[test]
fn star_zeros_are_empty_centre_and_leaves_xoring_to_zero() {
    for k in 2..=4 {
        for (p, zero) in zero_set(&format!("star:{k}"), 4) {
            let expected = p[0] == 0 && p[1..].iter().fold(0, |a, &x| a ^ x) == 0;
            assert_eq!(zero, expected, "star:{k} {p:?}");
        }
    }
}

#[test]
fn path3_zeros_are_a0a() {
    for (p, zero) in zero_set("path:3", 8) {
        assert_eq!(zero, p[1] == 0 && p[0] == p[2], "{p:?}");
    }
}

#[test]
fn circular_n_n_minus_1_zeros_are_all_equal() {
    for n in 2..=5 {
        for (p, zero) in zero_set(
            &format!("circular:{n},{}", n - 1),
            if n > 4 { 3 } else { 4 },
        ) {
            assert_eq!(
                zero,
                p.iter().all(|&x| x == p[0]),
                "CN({n},{}) {p:?}",
                n - 1
            );
        }
    }
}

#[test]
fn equal_piles_on_a_circuit_are_zero() {
    // Every circuit of these complexes, played alone with equal piles, is a zero position;
    // searched bare so the early stop is not what answers.
    for name in [
        "projective-plane",
        "square",
        "circular:5,2",
        "complex:0-1-2,1-2-3,0-3",
    ] {
        let game = spec::parse_hypergraph(name).unwrap();
        let mut s = SearchEngine::Naive.searcher(&game, SearchConfig::bare());
        for c in game.graph().circuits() {
            for a in 1..=3 {
                let p: Stones = (0..game.graph().vertices())
                    .map(|v| if c >> v & 1 == 1 { a } else { 0 })
                    .collect();
                assert_eq!(s.nimber(p.clone()), 0, "{name} circuit {p:?}");
            }
        }
    }
}

#[test]
fn automorphisms_preserve_values() {
    for name in ["projective-plane", "circular:5,2", "y-graph", "star:4"] {
        let game = spec::parse_hypergraph(name).unwrap();
        let mut s = SearchEngine::Naive.searcher(&game, SearchConfig::bare());
        for p in positions(game.graph().vertices(), 2, 7)
            .into_iter()
            .step_by(7)
        {
            let v = s.nimber(p.clone());
            for q in game.symmetry().orbit(&p) {
                assert_eq!(
                    s.nimber(q.iter().copied().collect()),
                    v,
                    "{name} {p:?} ~ {q:?}"
                );
            }
        }
    }
}

#[test]
fn def_without_a_table_expands_exactly_the_game_tree() {
    let nim = spec::parse_hypergraph("nim:3").unwrap();
    for p in [[3u32, 2, 1], [4, 3, 2], [5, 4, 2]] {
        let p: Stones = p.into_iter().collect();
        let cfg = SearchConfig {
            tt: TtConfig {
                capacity: Some(0),
                policy: Policy::Fifo,
                memory: None,
            },
            ..SearchConfig::bare()
        };
        let mut s = CutSearch::new(&nim, "def".parse::<Variant>().unwrap(), cfg);
        s.nimber(p.clone());
        assert_eq!(s.stats().nodes as u128, tree_size(&nim, &p), "{p:?}");
        assert_eq!(s.stats().tt_lookups, 0);
    }
}

#[test]
fn pruning_never_expands_more_than_def_without_a_table() {
    let nim = spec::parse_hypergraph("nim:3").unwrap();
    let p: Stones = [5u32, 4, 3].into_iter().collect();
    let cfg = SearchConfig {
        tt: TtConfig {
            capacity: Some(0),
            policy: Policy::Fifo,
            memory: None,
        },
        ..SearchConfig::bare()
    };
    let count = |name: &str| {
        let mut s = CutSearch::new(&nim, name.parse::<Variant>().unwrap(), cfg);
        assert_eq!(s.nimber(p.clone()), 5 ^ 4 ^ 3);
        s.stats().nodes
    };
    let def = count("def");
    assert!(count("scut") < def);
    assert!(count("cut") <= count("scut"));
}

#[test]
fn a_game_that_is_not_nim() {
    // Subtraction game S = {1, 3, 4}: nim sequence 0 1 0 1 2 3 2 0 1 0 1 2 3 2 ... (period 7).
    struct Subtraction;
    impl Game for Subtraction {
        type Position = u32;
        fn moves(&self, p: &u32, _: MoveOrder, out: &mut Vec<u32>) {
            out.extend([1, 3, 4].iter().filter(|&&s| s <= *p).map(|s| p - s));
        }
    }
    let expected = [0, 1, 0, 1, 2, 3, 2];
    for engine in all_search_engines() {
        for capacity in [Some(0), Some(5), None] {
            let cfg = SearchConfig {
                tt: TtConfig {
                    capacity,
                    policy: Policy::Fifo,
                    memory: None,
                },
                ..SearchConfig::default()
            };
            let mut s = engine.searcher(&Subtraction, cfg);
            for n in 0..if capacity == Some(0) { 16 } else { 60 } {
                assert_eq!(s.nimber(n), expected[n as usize % 7], "{engine} {n}");
            }
        }
    }
}

#[test]
fn splitting_and_symmetry_save_work() {
    let game = spec::parse_hypergraph("star:6").unwrap();
    let p: Stones = [3, 3, 3, 3, 3, 3, 3].into_iter().collect();
    let mut bare = SearchEngine::Naive.searcher(&game, SearchConfig::bare());
    let mut full = SearchEngine::Naive.searcher(&game, SearchConfig::default());
    assert_eq!(bare.nimber(p.clone()), full.nimber(p));
    assert!(
        full.stats().nodes * 10 < bare.stats().nodes,
        "{:?} vs {:?}",
        full.stats(),
        bare.stats()
    );
}

#[test]
fn tabulation_agrees_with_search_on_every_builtin() {
    use crate::sg::table::{tabulate, TableOptions};
    for name in GAMES.iter().chain(&["star:5", "circular:6,2", "nim:1"]) {
        let game = spec::parse_hypergraph(name).unwrap();
        let n = game.graph().vertices();
        let d = if n > 5 { 3 } else { 5 };
        let opts = TableOptions {
            threads: 2,
            ..TableOptions::default()
        };
        let t = tabulate(game.graph(), &vec![d; n], &opts).unwrap();
        let mut naive = SearchEngine::Naive.searcher(&game, SearchConfig::bare());
        let mut cut =
            SearchEngine::Cut("cut_cEA".parse().unwrap()).searcher(&game, SearchConfig::default());
        let mut p = vec![0u32; n];
        for i in 0..t.len() {
            t.position_of(i, &mut p);
            let q: Stones = p.iter().copied().collect();
            let want = naive.nimber(q.clone());
            assert_eq!(t.value_at(i), Some(want), "{name} {p:?}");
            assert_eq!(cut.nimber(q), want, "{name} {p:?}");
        }
    }
}

/// Beling & Rogalski's measurements, figure for figure: Nim 9,8,5 (their Table 2) and 9,7,7
/// (Table 4), heuristic order, FIFO tables of the paper's sizes, the plain game tree. Our exact
/// counts, each of which rounds to the paper's figure in thousands; the whole tables are
/// reproduced by `cargo bench --bench core -- counts`.
#[test]
fn node_counts_match_the_pruning_paper() {
    let nim = spec::parse_hypergraph("nim:3").unwrap();
    /// One measurement: ours exactly, and the paper's in thousands.
    struct Pinned {
        heaps: [u32; 3],
        engine: &'static str,
        table: usize,
        nodes: u64,
        lookups: u64,
        paper: (u64, u64),
    }
    let row = |heaps, engine, table, nodes, lookups, paper| Pinned {
        heaps,
        engine,
        table,
        nodes,
        lookups,
        paper,
    };
    let pinned = [
        row([9, 8, 5], "def", 270, 413_647, 413_647, (414, 414)),
        row([9, 8, 5], "scut", 270, 157_330, 157_330, (157, 157)),
        row([9, 8, 5], "cut_A", 135, 1_339_108, 1_339_108, (1339, 1339)),
        row([9, 8, 5], "scut_R", 540, 5_599, 5_599, (6, 6)),
        row([9, 8, 5], "lv", 135, 13_835, 92_032, (14, 92)),
        row([9, 8, 5], "cut_E", 135, 118_893, 1_012_071, (119, 1012)),
        row([9, 8, 5], "cut_cEA", 135, 10_220, 69_350, (10, 69)),
        row([9, 7, 7], "def", 640, 7_361, 7_361, (7, 7)),
        row([9, 7, 7], "cut_R", 320, 575_191, 575_191, (575, 575)),
        row([9, 7, 7], "scut_cE", 320, 31_132, 276_858, (31, 277)),
        row([9, 7, 7], "lv", 160, 622_542, 4_090_838, (623, 4091)),
        row([9, 7, 7], "cut_EA", 160, 648_410, 5_807_263, (648, 5807)),
        row([9, 7, 7], "cut_cEA", 320, 15_155, 128_990, (15, 129)),
    ];
    let thousands = |x: u64| (x + 500) / 1000;
    for Pinned {
        heaps,
        engine,
        table,
        nodes,
        lookups,
        paper,
    } in pinned
    {
        let cfg = SearchConfig {
            tt: TtConfig {
                capacity: Some(table),
                policy: Policy::Fifo,
                memory: None,
            },
            order: MoveOrder::Heuristic,
            ..SearchConfig::bare()
        };
        let engine: SearchEngine = engine.parse().unwrap();
        let mut s = engine.searcher(&nim, cfg);
        let p: Stones = heaps.into_iter().collect();
        assert_eq!(s.nimber(p), heaps[0] ^ heaps[1] ^ heaps[2]);
        let st = s.stats();
        let at = format!("{engine} on {heaps:?}, TT {table}");
        assert_eq!((st.nodes, st.tt_lookups), (nodes, lookups), "{at}");
        assert_eq!(
            (thousands(nodes), thousands(lookups)),
            paper,
            "{at}: the paper's figures"
        );
    }
}

/// Every engine, with and without its reductions, saves its table mid-search (at its
/// first pause) and once done: each entry saved is the position's value by the reference,
/// and a new searcher that learns the mid-search file answers alike, in no more nodes.
fn saves_true_values_and_resumes<G: Game>(game: &G, name: &str, start: G::Position)
where
    G::Position: Record,
{
    let dir = tempfile::tempdir().unwrap();
    let mut reference = Naive::new(game, SearchConfig::default());
    let mut check = |path: &Path, what: &str| {
        let mut n = 0u64;
        let mut heaviest = 0;
        load(path, name, &mut |p: G::Position, v, w| {
            assert_eq!(reference.nimber(p.clone()), v, "{what}: {p:?}");
            assert_ne!(w, UNKNOWN, "{what}: an unbounded table weighs its entries");
            heaviest = heaviest.max(w);
            n += 1;
        })
        .unwrap()
        .expect("a file");
        assert!(
            n == 0 || heaviest > 1,
            "{what}: weights are the nodes spent"
        );
        n
    };
    for engine in all_search_engines() {
        for (cfg, how) in [
            (SearchConfig::default(), ""),
            (SearchConfig::bare(), " bare"),
        ] {
            let what = format!("{name} {engine}{how}");
            let mid = dir.path().join("mid.table");
            let _ = std::fs::remove_file(&mid);
            let mut first = engine.searcher(game, cfg);
            let (path, beats) = (mid.clone(), Arc::new(Mutex::new(0)));
            let counted = Arc::clone(&beats);
            let game_name = name.to_string();
            first.set_hook(Box::new(move |known| {
                let mut beats = counted.lock().unwrap();
                *beats += 1;
                if *beats == 1 {
                    save(&path, &game_name, known).unwrap();
                }
            }));
            let v = first.nimber(start.clone());
            assert!(*beats.lock().unwrap() >= 1, "{what}: a save mid-search");
            let saved = check(&mid, &what);
            let done = dir.path().join("done.table");
            // Another engine's table, maybe larger, which a save would refuse to shrink.
            let _ = std::fs::remove_file(&done);
            save(&done, name, first.known()).unwrap();
            let all = check(&done, &what);
            assert!(all >= saved.max(1), "{what}: {all} entries at the end");

            let mut again = engine.searcher(game, cfg);
            let plan = Plan::new(&mid, Duration::MAX);
            let loaded = keep(again.as_mut(), name, &plan).unwrap();
            assert_eq!((loaded.entries, loaded.learned), (saved, saved), "{what}");
            assert_eq!(again.nimber(start.clone()), v, "{what}");
            let (before, after) = (first.stats().nodes, again.stats().nodes);
            assert!(after <= before, "{what}: {after} nodes after {before}");
        }
    }
}

#[test]
fn engines_save_true_values_and_resume() {
    let cram = Cram::<u64>::new("cram:4x5", 4, 5).unwrap();
    saves_true_values_and_resumes(&cram, "cram:4x5", cram.full());
    let wide = Cram::<u128>::new("cram:4x5", 4, 5).unwrap();
    saves_true_values_and_resumes(&wide, "cram:4x5", wide.full());
    let chomp = Chomp::new("chomp:5x6", 5, 6).unwrap();
    saves_true_values_and_resumes(&chomp, "chomp:5x6", chomp.pack(&[5; 6]));
    let path = spec::parse_hypergraph("path:3").unwrap();
    saves_true_values_and_resumes(&path, "path:3", [3, 4, 3].into_iter().collect());
}
