//! Board games measured against the pruning paper and the peer library `igs`:
//! `cargo bench --bench board`.
//!
//! `-- counts` (or `-- table5` .. `-- table8` for one) counts the nodes expanded and the table
//! look-ups of every engine on Chomp 6 x 4 and Cram 5 x 4 and 6 x 4 at the paper's table
//! capacities, FIFO eviction, `--bare` (no symmetry, splitting or shortcuts, as the paper
//! measured), beside Beling & Rogalski's Tables 5-8. The unordered tables are averaged over
//! `BOARD_ORDERS` (default 10) seeded move shuffles, as the paper averaged over ten orders.
//! `BOARD_ENGINES` (comma-separated, e.g. `lv,cut_E`) keeps only those engines' rows.
//! Output is Markdown for docs/benchmarks.md.

#[path = "common/args.rs"]
mod args;

use rayon::prelude::*;

use grundy_core::catalog::Notation;
use grundy_core::game::board::{Chomp, Cram};
use grundy_core::game::{Game, MoveOrder, Nimber};
use grundy_core::sg::tree::count_tree;
use grundy_core::sg::{Policy, SearchConfig, SearchEngine, Stats, TtConfig};

/// One engine's row of a paper table: nodes expanded and table look-ups at the table sizes
/// 0, a quarter, a half and all of |S|, as plain counts. `None` where the paper has no figure.
struct PaperRow {
    engine: &'static str,
    nodes: [Option<f64>; 4],
    lookups: [Option<f64>; 4],
}

/// A row of the first group, where every node expanded is one look-up.
const fn same(engine: &'static str, nodes: [Option<f64>; 4]) -> PaperRow {
    PaperRow {
        engine,
        nodes,
        lookups: nodes,
    }
}

/// A row of the second group (no figure without a table), in thousands as the paper prints.
const fn split(engine: &'static str, nodes: [f64; 3], lookups: [f64; 3]) -> PaperRow {
    PaperRow {
        engine,
        nodes: [
            None,
            Some(nodes[0] * 1e3),
            Some(nodes[1] * 1e3),
            Some(nodes[2] * 1e3),
        ],
        lookups: [
            None,
            Some(lookups[0] * 1e3),
            Some(lookups[1] * 1e3),
            Some(lookups[2] * 1e3),
        ],
    }
}

/// A figure without a table (first column), in units of `u`, then three in thousands.
const fn first(t0: Option<f64>, u: f64, k: [f64; 3]) -> [Option<f64>; 4] {
    [
        match t0 {
            Some(x) => Some(x * u),
            None => None,
        },
        Some(k[0] * 1e3),
        Some(k[1] * 1e3),
        Some(k[2] * 1e3),
    ]
}

const G: f64 = 1e9;
const M: f64 = 1e6;

/// Table 5: Chomp 6 x 4, unordered (averaged over ten orders). Nimber 16, |S| = 209. The
/// paper prints the last column in units, not thousands.
const TABLE5: &[PaperRow] = &[
    same("def", first(Some(161.), G, [275_930., 5_363., 2.312])),
    same("scut", first(Some(83.), G, [206_810., 4_752., 2.589])),
    same("cut", first(Some(46.), G, [136_675., 3_535., 2.600])),
    same(
        "cut_A",
        first(Some(120.), G, [382_281., 11_921., 1_403.634]),
    ),
    same("scut_R", first(None, G, [205_916., 4_666., 2.312])),
    same("cut_R", first(None, G, [145_415., 3_759., 2.318])),
    same("cut_RA", first(None, G, [375_337., 14_788., 839.553])),
    split(
        "lv",
        [1_361_853., 5_341., 3.930],
        [8_066_002., 37_244., 29.990],
    ),
    split("scut_E", [15_276., 223., 0.360], [98_167., 1_855., 3.148]),
    split("scut_cE", [15_886., 234., 0.452], [93_384., 1_758., 3.819]),
    split("cut_E", [9_029., 145., 0.362], [59_664., 1_235., 3.169]),
    split("cut_cE", [9_191., 145., 0.455], [54_269., 1_086., 3.830]),
    split("cut_EA", [17_402., 236., 0.981], [116_710., 2_029., 12.354]),
    split(
        "cut_cEA",
        [18_161., 224., 1.419],
        [107_728., 1_683., 11.299],
    ),
];

/// Table 6: Chomp 6 x 4, the heuristic order (rows from the bottom, fewest cells left first).
const TABLE6: &[PaperRow] = &[
    same("def", first(Some(161.), G, [241_161., 4_334., 2.312])),
    same("scut", first(Some(17.), G, [55_916., 1_651., 3.595])),
    same("cut", first(Some(3.), G, [10_939., 443., 3.665])),
    same("cut_A", first(Some(9.), G, [33_915., 1_692., 346.819])),
    same("scut_R", first(None, G, [69_198., 2_029., 2.310])),
    same("cut_R", first(None, G, [16_860., 710., 2.343])),
    same("cut_RA", first(None, G, [53_519., 2_354., 228.273])),
    split(
        "lv",
        [398_544., 1_536., 3.625],
        [2_410_604., 10_490., 26.943],
    ),
    split("scut_E", [2_228., 63., 0.225], [16_852., 612., 2.769]),
    split("scut_cE", [2_214., 64., 0.394], [14_769., 545., 4.149]),
    split("cut_E", [450., 16., 0.225], [3_564., 161., 2.769]),
    split("cut_cE", [430., 17., 0.416], [2_861., 139., 4.302]),
    split("cut_EA", [1_138., 41., 1.025], [9_068., 418., 13.256]),
    split("cut_cEA", [1_058., 42., 1.452], [7_042., 352., 11.779]),
];

/// Table 7: Cram 5 x 4, averaged over ten orders. Nimber 2, |S| = 58 830.
const TABLE7: &[PaperRow] = &[
    same("def", first(Some(1_781.), M, [2_642., 1_731., 424.])),
    same("scut", first(Some(991.), M, [3_400., 2_253., 616.])),
    same("cut", first(Some(938.), M, [3_360., 2_222., 616.])),
    same("cut_A", first(Some(15.), M, [1_133., 648., 617.])),
    same("scut_R", first(None, M, [2_559., 1_673., 422.])),
    same("cut_R", first(None, M, [2_536., 1_658., 423.])),
    same("cut_RA", first(None, M, [1_030., 610., 424.])),
    split("lv", [151., 141., 141.], [702., 658., 658.]),
    split("scut_E", [519., 325., 76.], [3_921., 2_592., 673.]),
    split("scut_cE", [775., 490., 141.], [4_889., 3_257., 1_035.]),
    split("cut_E", [513., 319., 76.], [3_870., 2_547., 674.]),
    split("cut_cE", [764., 481., 141.], [4_799., 3_186., 1_032.]),
    split("cut_EA", [119., 67., 66.], [826., 506., 503.]),
    split("cut_cEA", [123., 89., 89.], [603., 447., 447.]),
];

/// Table 8: Cram 6 x 4, averaged over ten orders. Nimber 0, |S| = 607 752.
const TABLE8: &[PaperRow] = &[
    same("def", first(Some(760_429.), M, [42_512., 26_586., 5_293.])),
    same("scut", first(Some(381_192.), M, [60_470., 38_227., 8_257.])),
    same("cut", first(Some(344_124.), M, [58_940., 37_175., 8_245.])),
    same("cut_A", first(Some(81.), M, [8_433., 8_433., 8_433.])),
    same("scut_R", first(None, M, [41_225., 25_919., 5_287.])),
    same("cut_R", first(None, M, [40_552., 25_414., 5_296.])),
    same("cut_RA", first(None, M, [7_127., 5_590., 5_590.])),
    split("lv", [546., 546., 546.], [2_412., 2_412., 2_412.]),
    split("scut_E", [7_220., 4_387., 820.], [66_433., 42_348., 8_587.]),
    split(
        "scut_cE",
        [13_332., 8_543., 2_084.],
        [102_126., 68_302., 18_033.],
    ),
    split("cut_E", [6_991., 4_234., 821.], [64_177., 40_814., 8_593.]),
    split(
        "cut_cE",
        [12_818., 8_184., 2_071.],
        [97_490., 65_016., 17_857.],
    ),
    split("cut_EA", [432., 432., 432.], [3_353., 3_353., 3_353.]),
    split("cut_cEA", [501., 501., 501.], [2_317., 2_317., 2_317.]),
];

/// Runs without a table are only made where the paper counts fewer nodes than this (per
/// order): the others take minutes to hours each.
const NO_TABLE_LIMIT: f64 = 2e8;

/// A count the way a reader compares it: three significant figures and a unit.
fn human(x: f64) -> String {
    let (v, unit) = match x {
        x if x >= 1e9 => (x / 1e9, "G"),
        x if x >= 1e6 => (x / 1e6, "M"),
        x if x >= 1e4 => (x / 1e3, "k"),
        x => return format!("{x:.0}"),
    };
    if v >= 100.0 {
        format!("{v:.0}{unit}")
    } else if v >= 10.0 {
        format!("{v:.1}{unit}")
    } else {
        format!("{v:.2}{unit}")
    }
}

fn paper(x: Option<f64>) -> String {
    x.map_or("n/a".into(), human)
}

/// One measured table: a game, its start, the orders to average over, and the paper's rows.
struct Case<'a, G: Game> {
    title: &'a str,
    game: &'a G,
    start: G::Position,
    nimber: Nimber,
    order: MoveOrder,
    /// Seeds of the move shuffles to average over; empty for the plain `order`.
    seeds: Vec<u64>,
    capacities: [usize; 3],
    rows: &'a [PaperRow],
}

fn run<G: Game>(case: &Case<G>, engine: SearchEngine, capacity: usize) -> Stats {
    let one = |shuffle: Option<u64>| {
        let cfg = SearchConfig {
            tt: TtConfig {
                capacity: Some(capacity),
                policy: Policy::Fifo,
                memory: None,
            },
            order: case.order,
            shuffle,
            ..SearchConfig::bare()
        };
        let mut s = engine.searcher(case.game, cfg);
        let v = s.nimber(case.start.clone());
        assert_eq!(v, case.nimber, "{engine:?} gave a wrong nimber");
        s.stats()
    };
    if case.seeds.is_empty() {
        return one(None);
    }
    let runs: Vec<Stats> = case.seeds.par_iter().map(|&s| one(Some(s))).collect();
    let n = runs.len() as u64;
    Stats {
        nodes: runs.iter().map(|s| s.nodes).sum::<u64>().div_ceil(n),
        tt_lookups: runs.iter().map(|s| s.tt_lookups).sum::<u64>().div_ceil(n),
        tt_evictions: runs.iter().map(|s| s.tt_evictions).sum::<u64>().div_ceil(n),
    }
}

/// Whether `BOARD_ENGINES` is unset or names `engine`.
fn wanted_engine(engine: &str) -> bool {
    std::env::var("BOARD_ENGINES").map_or(true, |list| list.split(',').any(|e| e == engine))
}

fn table<G: Game>(case: Case<G>) {
    let tree = count_tree(case.game, &case.start);
    let orders = if case.seeds.is_empty() {
        format!("{:?} order", case.order).to_lowercase()
    } else {
        format!("mean of {} seeded shuffles", case.seeds.len())
    };
    println!(
        "\n#### {}: nodes expanded / TT look-ups, ours (paper); {orders}\n",
        case.title
    );
    println!(
        "|S| = {} positions; `def` without a table expands the whole tree, {} nodes, counted by memoised tree sizes.\n",
        tree.positions, tree.nodes
    );
    let [a, b, c] = case.capacities;
    println!("| engine | no table | TT {a} | TT {b} | TT {c} |");
    println!("|---|---|---|---|---|");
    for r in case.rows.iter().filter(|r| wanted_engine(r.engine)) {
        let engine: SearchEngine = r.engine.parse().unwrap();
        let mut cells = Vec::new();
        cells.push(match r.nodes[0] {
            _ if r.engine == "def" => {
                format!("{} ({})", human(tree.nodes as f64), paper(r.nodes[0]))
            }
            Some(x) if x < NO_TABLE_LIMIT => {
                let st = run(&case, engine, 0);
                format!("{} ({})", human(st.nodes as f64), paper(r.nodes[0]))
            }
            Some(x) => format!("not run ({})", human(x)),
            None => "n/a".into(),
        });
        for (i, &cap) in case.capacities.iter().enumerate() {
            let st = run(&case, engine, cap);
            cells.push(format!(
                "{} ({}) / {} ({})",
                human(st.nodes as f64),
                paper(r.nodes[i + 1]),
                human(st.tt_lookups as f64),
                paper(r.lookups[i + 1])
            ));
        }
        println!("| {} | {} |", r.engine, cells.join(" | "));
    }
}

fn counts(which: Option<&str>, seeds: Vec<u64>) {
    let wanted = |name: &str| which.is_none_or(|w| w == "counts" || w == name);
    let chomp = Chomp::new("chomp:4x6", 4, 6).expect("a board of 6 x 4 fits");
    let chomp_start =
        chomp.pack(&Notation::start(&chomp).expect("a board game starts from its full board"));
    if wanted("table5") {
        table(Case {
            title: "Chomp 6 x 4, unordered (paper Table 5)",
            game: &chomp,
            start: chomp_start,
            nimber: 16,
            order: MoveOrder::Natural,
            seeds: seeds.clone(),
            capacities: [52, 105, 209],
            rows: TABLE5,
        });
    }
    if wanted("table6") {
        table(Case {
            title: "Chomp 6 x 4, heuristic order (paper Table 6)",
            game: &chomp,
            start: chomp_start,
            nimber: 16,
            order: MoveOrder::Heuristic,
            seeds: Vec::new(),
            capacities: [52, 105, 209],
            rows: TABLE6,
        });
    }
    for (name, rows, nimber, capacities, paper_rows) in [
        ("table7", 5, 2, [14_708, 29_415, 58_830], TABLE7),
        ("table8", 6, 0, [151_938, 303_876, 607_752], TABLE8),
    ] {
        if !wanted(name) {
            continue;
        }
        let cram = Cram::<u64>::new(&format!("cram:{rows}x4"), rows, 4).unwrap();
        table(Case {
            title: &format!("Cram {rows} x 4 (paper Table {})", &name[5..]),
            game: &cram,
            start: cram.full(),
            nimber,
            order: MoveOrder::Natural,
            seeds: seeds.clone(),
            capacities,
            rows: paper_rows,
        });
    }
}

fn main() {
    let Some(words) = args::words() else { return };
    let only = words.first().map(String::as_str);
    let orders: u64 = args::env_or("BOARD_ORDERS", 10);
    if only.is_none_or(|o| o == "counts" || o.starts_with("table")) {
        counts(only, (0..orders).collect());
    }
}
