//! Core benchmarks, each measured side by side with its baseline in one run: `cargo bench --bench core`.
//!
//! Timed cases run the release `grundy` binary as a child process (wall time, and the peak
//! memory it reports). Node and look-up counts of the cut family run in-process and are printed
//! beside the figures of Beling & Rogalski's Tables 2 and 4. Output is Markdown for docs/benchmarks.md.
//! `cargo bench --bench core -- counts` or `-- times` runs one half.

#[path = "common/args.rs"]
mod args;

use std::process::{Command, Stdio};
use std::time::Instant;

use grundy_core::catalog::spec;
use grundy_core::game::MoveOrder;
use grundy_core::game::Stones;
use grundy_core::sg::tree::tree_size;
use grundy_core::sg::{Policy, SearchConfig, SearchEngine, TtConfig};

/// One row of a paper table: nodes and TT look-ups in thousands at the three table sizes.
/// `None` where the extracted table lost the figure.
struct PaperRow {
    engine: &'static str,
    nodes: [Option<f64>; 3],
    lookups: [Option<f64>; 3],
}

const fn row(engine: &'static str, nodes: [Option<f64>; 3], lookups: [Option<f64>; 3]) -> PaperRow {
    PaperRow {
        engine,
        nodes,
        lookups,
    }
}

/// Table 2: Nim 9,8,5, heuristic move order, TT sizes 135, 270, 540 (figures in 10^3).
const TABLE2: &[PaperRow] = &[
    row(
        "def",
        [Some(34471.), Some(414.), Some(6.)],
        [Some(34471.), Some(414.), Some(6.)],
    ),
    row(
        "scut",
        [Some(8590.), Some(157.), Some(7.)],
        [Some(8590.), Some(157.), Some(7.)],
    ),
    row(
        "cut",
        [Some(4981.), Some(150.), Some(7.)],
        [Some(4981.), Some(150.), Some(7.)],
    ),
    row(
        "cut_A",
        [Some(1339.), Some(1011.), Some(1011.)],
        [Some(1339.), Some(1011.), Some(1011.)],
    ),
    row(
        "scut_R",
        [None, Some(182.), Some(6.)],
        [None, Some(182.), Some(6.)],
    ),
    row(
        "cut_R",
        [Some(5502.), Some(161.), Some(6.)],
        [Some(5502.), Some(161.), Some(6.)],
    ),
    row(
        "cut_RA",
        [Some(1712.), Some(754.), Some(677.)],
        [Some(1712.), Some(754.), Some(677.)],
    ),
    row(
        "lv",
        [Some(14.), Some(4.), Some(4.)],
        [Some(92.), Some(25.), Some(25.)],
    ),
    row(
        "scut_E",
        [Some(301.), Some(7.), Some(1.)],
        [Some(2494.), Some(75.), Some(7.)],
    ),
    row(
        "scut_cE",
        [Some(327.), Some(8.), Some(1.)],
        [Some(2352.), Some(69.), Some(8.)],
    ),
    row(
        "cut_E",
        [Some(119.), Some(6.), Some(1.)],
        [Some(1012.), Some(61.), Some(7.)],
    ),
    row(
        "cut_cE",
        [Some(128.), Some(6.), Some(1.)],
        [Some(906.), Some(52.), Some(8.)],
    ),
    row(
        "cut_EA",
        [Some(25.), Some(3.), Some(2.)],
        [Some(247.), Some(31.), Some(19.)],
    ),
    row(
        "cut_cEA",
        [Some(10.), Some(3.), Some(3.)],
        [Some(69.), Some(18.), Some(18.)],
    ),
];

/// Table 4: Nim 9,7,7, heuristic move order, TT sizes 160, 320, 640 (figures in 10^3).
const TABLE4: &[PaperRow] = &[
    row(
        "def",
        [Some(72332.), Some(614.), Some(7.)],
        [Some(72332.), Some(614.), Some(7.)],
    ),
    row(
        "scut",
        [Some(32994.), Some(553.), Some(10.)],
        [Some(32994.), Some(553.), Some(10.)],
    ),
    row(
        "cut",
        [Some(34634.), Some(613.), Some(11.)],
        [Some(34634.), Some(613.), Some(11.)],
    ),
    row(
        "cut_A",
        [Some(37692.), Some(642.), Some(71.)],
        [Some(37692.), Some(642.), Some(71.)],
    ),
    row(
        "scut_R",
        [Some(36207.), Some(562.), Some(7.)],
        [Some(36207.), Some(562.), Some(7.)],
    ),
    row(
        "cut_R",
        [None, Some(575.), Some(8.)],
        [None, Some(575.), Some(8.)],
    ),
    row(
        "cut_RA",
        [Some(20585.), Some(383.), Some(41.)],
        [Some(20585.), Some(383.), Some(41.)],
    ),
    row(
        "lv",
        [Some(623.), Some(7.), Some(6.)],
        [Some(4091.), Some(51.), Some(44.)],
    ),
    row(
        "scut_E",
        [Some(1108.), Some(25.), Some(1.)],
        [Some(9627.), Some(270.), Some(8.)],
    ),
    row(
        "scut_cE",
        [Some(1274.), Some(31.), Some(1.)],
        [Some(9472.), Some(277.), Some(12.)],
    ),
    row(
        "cut_E",
        [Some(815.), Some(21.), Some(1.)],
        [Some(7240.), Some(226.), Some(8.)],
    ),
    row(
        "cut_cE",
        [Some(889.), Some(25.), Some(1.)],
        [Some(6529.), Some(214.), Some(13.)],
    ),
    row(
        "cut_EA",
        [Some(648.), Some(14.), Some(1.)],
        [Some(5807.), Some(152.), Some(18.)],
    ),
    row(
        "cut_cEA",
        [Some(706.), Some(15.), Some(3.)],
        [Some(5153.), Some(129.), Some(21.)],
    ),
];

fn thousands(x: u64) -> String {
    let k = x as f64 / 1000.0;
    if k >= 100.0 {
        format!("{k:.0}")
    } else {
        format!("{k:.1}")
    }
}

fn paper(x: Option<f64>) -> String {
    x.map_or("?".into(), |v| format!("{v}"))
}

fn counts(heaps: [u32; 3], sizes: [usize; 3], table: &[PaperRow], title: &str) {
    let nim = spec::parse_hypergraph("nim:3").unwrap();
    let p: Stones = heaps.into_iter().collect();
    println!("\n#### {title}: nodes expanded / TT look-ups, thousands, ours (paper)\n");
    println!(
        "| engine | TT {} | TT {} | TT {} |",
        sizes[0], sizes[1], sizes[2]
    );
    println!("|---|---|---|---|");
    for r in table {
        let engine: SearchEngine = r.engine.parse().unwrap();
        let mut cells = Vec::new();
        for (i, &cap) in sizes.iter().enumerate() {
            let cfg = SearchConfig {
                tt: TtConfig {
                    capacity: Some(cap),
                    policy: Policy::Fifo,
                    memory: None,
                },
                order: MoveOrder::Heuristic,
                ..SearchConfig::bare()
            };
            let mut s = engine.searcher(&nim, cfg);
            let v = s.nimber(p.clone());
            assert_eq!(
                v,
                heaps[0] ^ heaps[1] ^ heaps[2],
                "{} gave a wrong nimber",
                r.engine
            );
            let st = s.stats();
            cells.push(format!(
                "{} ({}) / {} ({})",
                thousands(st.nodes),
                paper(r.nodes[i]),
                thousands(st.tt_lookups),
                paper(r.lookups[i])
            ));
        }
        println!("| {} | {} |", r.engine, cells.join(" | "));
    }
}

/// Runs the release binary; returns wall seconds and its stdout+stderr.
fn run(args: &[&str]) -> (f64, String) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("running grundy");
    let secs = start.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "grundy {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (secs, text)
}

fn field<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(key))
        .map_or("?", str::trim)
}

/// Best wall time of `reps` runs, with the output of the last.
fn best(reps: usize, args: &[&str]) -> (f64, String) {
    (0..reps)
        .map(|_| run(args))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap()
}

fn times() {
    println!("\n#### Timed cases (best of 3 unless noted; wall seconds of the whole command)\n");
    println!("| case | ours | baseline, same run | ratio | thesis | target |");
    println!("|---|---|---|---|---|---|");

    let table16 = [
        "table",
        "projective-plane",
        "--max",
        "16",
        "--stats",
        "--threads",
        "2",
    ];
    let (t, out) = best(3, &table16);
    let compute = field(&out, "seconds (compute):");
    let mem = field(&out, "peak memory:");
    let (t1, out1) = best(
        3,
        &[
            "table",
            "projective-plane",
            "--max",
            "16",
            "--stats",
            "--threads",
            "1",
        ],
    );
    println!(
        "| projective-plane table [0,16)^6, 2 threads | {t:.2} s (compute {compute} s), peak {mem} | 1 thread: {t1:.2} s (compute {} s) | {:.2}x | ~900 s on 4 cores | <= 5 s, <= 1.5 GiB |",
        field(&out1, "seconds (compute):"),
        t1 / t
    );

    let (tt, _) = best(
        3,
        &["table", "projective-plane", "--max", "8", "--threads", "2"],
    );
    let (tn, _) = best(
        1,
        &[
            "table",
            "projective-plane",
            "--max",
            "8",
            "--engine",
            "naive",
        ],
    );
    println!(
        "| projective-plane table [0,8)^6 | table: {tt:.3} s | naive (memo + symmetry + early stops, as the thesis): {tn:.2} s (1 run) | {:.0}x | | ratio vs naive |",
        tn / tt
    );

    let (ta, out) = best(3, &["sg", "path:3", "90,90,90", "--stats"]);
    let (tn, _) = best(1, &["sg", "path:3", "30,30,30", "--engine", "naive"]);
    println!(
        "| path:3 at (90,90,90), value {} | auto ({}): {ta:.3} s | naive at (30,30,30): {tn:.2} s | | 750 s (2.2 s at 30) | < 0.5 s |",
        out.lines().next().unwrap_or("?"),
        field(&out, "engine:").split(' ').next().unwrap_or("?")
    );

    let star9 = "4,4,4,4,4,4,4,4,4,4";
    let (ta, out) = best(3, &["sg", "star:9", star9, "--stats"]);
    let (tb, _) = best(
        1,
        &["sg", "star:9", star9, "--engine", "naive", "--no-symmetry"],
    );
    println!(
        "| star:9 with 4 stones each, value {} | auto ({}): {ta:.3} s | naive without symmetry: {tb:.2} s | {:.0}x | 255 s | < 0.1 s |",
        out.lines().next().unwrap_or("?"),
        field(&out, "engine:").split(' ').next().unwrap_or("?"),
        tb / ta
    );
}

/// Set-up (spec, faces, automorphism group) of the largest built-in games, and `auto` past
/// the box size where it used to fall back to the naive search.
fn setup_and_auto() {
    let specs = [
        "nim:64",
        "star:63",
        "path:64",
        "circular:64,3",
        "circular:64,8",
    ];
    let slowest = specs
        .iter()
        .map(|s| (best(3, &["info", s]).0, *s))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap();
    println!(
        "| set-up of the largest built-in games ({}), slowest | {}: {:.3} s | before (vertex by vertex): `info nim:28` past 60 s (issue 10) | | | < 1 s |",
        specs.join(", "),
        slowest.1,
        slowest.0
    );
    let (ta, out) = best(3, &["sg", "path:3", "162,162,162", "--stats"]);
    let (tn, _) = best(1, &["sg", "path:3", "45,45,45", "--engine", "naive"]);
    println!(
        "| path:3 at (162,162,162), value {} | auto ({}): {ta:.3} s | naive, auto's old choice past 2^22 positions, at (45,45,45) only: {tn:.2} s | | | no cliff at 2^22 |",
        out.lines().next().unwrap_or("?"),
        field(&out, "engine:").split(' ').next().unwrap_or("?")
    );
}

fn main() {
    let Some(words) = args::words() else { return };
    let only = words.first();
    if only.is_none_or(|o| o == "times") {
        times();
        setup_and_auto();
    }
    if only.is_none_or(|o| o == "counts") {
        let nim = spec::parse_hypergraph("nim:3").unwrap();
        println!(
            "\n`def` without a table expands the whole game tree: Nim 9,8,5 has {} nodes (paper: 489 x 10^9), Nim 9,7,7 has {} (paper: 2,403 x 10^9), counted independently by memoised tree sizes.",
            tree_size(&nim, &[9, 8, 5].into_iter().collect()),
            tree_size(&nim, &[9, 7, 7].into_iter().collect())
        );
        counts(
            [9, 8, 5],
            [135, 270, 540],
            TABLE2,
            "Nim 9,8,5, heuristic order (paper Table 2)",
        );
        counts(
            [9, 7, 7],
            [160, 320, 640],
            TABLE4,
            "Nim 9,7,7, heuristic order (paper Table 4)",
        );
    }
}
