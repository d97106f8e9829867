//! The survey of docs/survey-octal-3.md: `cargo bench --bench heap -- survey`.
//!
//! Every two- and three-digit octal code that T. Czajka's tables (github.com/tczajka/octal-games,
//! UnsolvedGames.md, after Flammenkamp's) list as unsolved is valued by `period::analyse_until`
//! up to SURVEY_HEAPS heaps (default 2^20) or SURVEY_SECS seconds a game (default 6), with its
//! rare heaps, mask, largest value and whether a period is proved; then the nontrivial solved
//! ones of the same tables (SolvedGames.md) are valued until their period is proved, and the
//! preperiod and period found are checked against the published ones. Output is Markdown.
//! `-- survey CODE...` values only those unsolved codes (e.g. the sparse ones to 2^26 heaps:
//! `SURVEY_HEAPS=67108864 SURVEY_SECS=120 cargo bench --bench heap -- survey 0.104 0.106`).

use std::time::{Duration, Instant};

use grundy_core::catalog::spec;
use grundy_core::period::{analyse_until, Analysis};
use grundy_core::progress::Silent;

/// The unsolved codes, as listed there (Grundy's game is in the main bench).
const UNSOLVED: &[&str] = &[
    "0.6", "0.04", "0.06", "0.14", "0.36", "0.64", "0.74", "0.76", "0.004", "0.005", "0.006",
    "0.014", "0.015", "0.016", "0.024", "0.026", "0.034", "0.054", "0.064", "0.104", "0.106",
    "0.114", "0.125", "0.126", "0.135", "0.136", "0.142", "0.143", "0.146", "0.161", "0.162",
    "0.163", "0.164", "0.166", "0.167", "0.172", "0.174", "0.204", "0.205", "0.206", "0.207",
    "0.224", "0.244", "0.245", "0.264", "0.314", "0.324", "0.334", "0.336", "0.342", "0.344",
    "0.346", "0.362", "0.364", "0.366", "0.371", "0.374", "0.404", "0.414", "0.416", "0.444",
    "0.454", "0.564", "0.604", "0.606", "0.744", "0.764", "0.774", "0.776", "4.004", "4.007",
    "4.026", "4.044", "4.045", "4.064", "4.324", "4.327", "4.344", "4.364", "4.367", "4.404",
    "4.406",
];

/// The nontrivial solved codes there: (code, preperiod, period).
const SOLVED: &[(&str, usize, usize)] = &[
    ("0.45", 498, 20),
    ("0.156", 3479, 349),
    ("0.356", 7315, 142),
    ("0.644", 3256, 442),
    ("0.165", 5181, 1550),
    ("0.16", 105_351, 149_459),
    ("0.56", 326_640, 144),
    ("0.127", 46_578, 4),
    ("0.376", 2_268_248, 4),
    ("0.354", 10_061_916, 1_180),
];

/// Runs the survey and prints its two tables, or, given `codes`, the first table's rows of
/// those codes alone.
pub fn run(codes: &[String]) {
    let heaps = super::args::env_or("SURVEY_HEAPS", 1usize << 20);
    let secs = super::args::env_or("SURVEY_SECS", 6.0f64);
    let all = Instant::now();
    println!(
        "Unsolved codes, up to {heaps} heaps or {secs} s a game {}:\n",
        super::args::stamp()
    );
    println!(
        "| game | heaps valued | period | rare heaps (mask) | largest value (first at) | time |"
    );
    println!("|---|---|---|---|---|---|");
    let listed = |code: &str| codes.is_empty() || codes.iter().any(|c| c == code);
    for code in UNSOLVED.iter().filter(|c| listed(c)) {
        let (a, took) = analysed(code, heaps, Some(secs));
        let period = match &a.proved {
            Some(p) => format!("proved: n0 = {}, p = {}", p.preperiod, p.period),
            None if a.stopped => "none proved (time limit)".to_string(),
            None => "none proved".to_string(),
        };
        let rarity = a
            .rarity
            .expect("octal codes that split are valued sparsely");
        let top = a.values.max();
        let at = a.values.iter().position(|v| v == top).unwrap_or(0);
        println!(
            "| {code} | {} | {period} | {} ({:#x}{}) | {top} ({at}) | {took:.1} s |",
            a.values.len(),
            rarity.rare,
            rarity.classes.mask,
            // The heaps' parity joins the mask: docs/heap-games.md.
            rarity
                .classes
                .shift
                .map_or(String::new(), |s| format!(" and h + {s}")),
        );
    }
    if !codes.is_empty() {
        println!("\nThese codes: {:.0} s.", all.elapsed().as_secs_f64());
        return;
    }
    println!("\nSolved codes, valued until the period is proved, against the published ones:\n");
    println!("| game | published n0 / p | ours n0 / p | agree | heaps valued | time |");
    println!("|---|---|---|---|---|---|");
    for &(code, n0, p) in SOLVED {
        let (a, took) = analysed(code, 1 << 26, None);
        let ours = a.proved.as_ref().map(|q| (q.preperiod, q.period));
        let shown = ours.map_or("none proved".to_string(), |(a, b)| format!("{a} / {b}"));
        let agree = if ours == Some((n0, p)) { "yes" } else { "NO" };
        println!(
            "| {code} | {n0} / {p} | {shown} | {agree} | {} | {took:.1} s |",
            a.values.len()
        );
    }
    println!("\nWhole survey: {:.0} s.", all.elapsed().as_secs_f64());
}

/// The analysis of `octal:{code}` up to `heaps`, stopped after `secs` when given, and its time.
fn analysed(code: &str, heaps: usize, secs: Option<f64>) -> (Analysis, f64) {
    let game = spec::parse_heap(&format!("octal:{code}")).expect("a listed code parses");
    let start = Instant::now();
    let limit = secs.map(Duration::from_secs_f64);
    let stop = || limit.is_some_and(|l| start.elapsed() >= l);
    let a = analyse_until(game.rule(), heaps, &Silent, &stop);
    (a, start.elapsed().as_secs_f64())
}
