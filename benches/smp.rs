//! One position on one and on two threads (`grundy sg --threads`: `naive` splits the options
//! near the root, `cut_cEA` splits them as Young Brothers Wait): `cargo bench --bench smp`.
//!
//! Each case is searched by the engine `auto` picks, alternately on 1 and 2 threads
//! (`SMP_RUNS` times each, default 3), and the table gives the median seconds of each and their
//! ratio, with the nodes of the median runs (summed over the threads). Every run must give the
//! same nimber. `-- CASE...` (e.g. `-- cram:5x9`) measures only those; the default is issue
//! 44's boards. The machine's load average is printed with the table: figures taken beside
//! other work are noisy.
//!
//! `SMP_SPREAD=1 cargo bench --bench smp -- cram:5x8` instead searches each Cram board once on
//! 2 threads with `cut_cEA` split as Young Brothers Wait, and prints how the work below the
//! split plies came in pieces: the subtrees searched whole, by size (what the estimate for
//! many ranks in docs/benchmarks.md rests on).

#[path = "common/args.rs"]
mod args;

use grundy_core::catalog::solve::solve;
use grundy_core::catalog::spec;
use grundy_core::game::board::Cram;
use grundy_core::sg::table::TableOptions;
use grundy_core::sg::ybw::Ybw;
use grundy_core::sg::{Engine, SearchConfig, Searcher};
use std::sync::atomic::Ordering;

/// Issue 44's boards: 2 threads should take at most 0.6 times the time of 1.
const CASES: &[&str] = &["cram:5x9", "cram:4x11", "cram:5x10", "chomp:10x10"];

/// One run: seconds, nodes and the nimber.
fn run(case: &str, threads: usize) -> (f64, u64, u32) {
    let game = spec::parse(case, spec::Heaps::default()).expect("a bench case parses");
    let p = game.start().expect("a board game has a start");
    let cfg = SearchConfig {
        threads,
        ..SearchConfig::default()
    };
    let s = solve(
        game.as_ref(),
        &p,
        Engine::Auto,
        cfg,
        &TableOptions::default(),
        false,
    )
    .expect("the search answers");
    (s.seconds, s.stats.nodes, s.nimber)
}

/// The median of `xs` (sorted here), and the nodes of that run.
fn median(mut xs: Vec<(f64, u64)>) -> (f64, u64) {
    xs.sort_by(|a, b| a.0.total_cmp(&b.0));
    xs[xs.len() / 2]
}

fn main() {
    let Some(words) = args::words() else {
        return;
    };
    let runs: usize = args::env_or("SMP_RUNS", 3).max(1);
    let cases: Vec<String> = match words.is_empty() {
        true => CASES.iter().map(|c| c.to_string()).collect(),
        false => words,
    };
    if args::env_or("SMP_SPREAD", 0) == 1 {
        cases.iter().for_each(|c| spread(c));
        return;
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("{runs} alternating runs each {}", args::stamp());
    println!("load average before: {}", load.trim());
    println!();
    println!("| board | nimber | 1 thread (s) | 2 threads (s) | ratio | nodes, 1 | nodes, 2 |");
    println!("|---|---|---|---|---|---|---|");
    for case in &cases {
        let (mut one, mut two, mut nimbers) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..runs {
            for (threads, out) in [(1, &mut one), (2, &mut two)] {
                let (secs, nodes, v) = run(case, threads);
                out.push((secs, nodes));
                nimbers.push(v);
            }
        }
        assert!(
            nimbers.iter().all(|&v| v == nimbers[0]),
            "{case}: the runs disagree: {nimbers:?}"
        );
        let ((t1, n1), (t2, n2)) = (median(one), median(two));
        println!(
            "| {case} | {} | {t1:.2} | {t2:.2} | {:.2} | {n1} | {n2} |",
            nimbers[0],
            t2 / t1
        );
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!();
    println!("load average after: {}", load.trim());
}

/// One search of the Cram board `case` (`cram:RxC`) on 2 threads, and the sizes of the subtrees
/// searched whole below the split plies.
fn spread(case: &str) {
    let dims = case.strip_prefix("cram:").and_then(|d| d.split_once('x'));
    let Some((rows, cols)) = dims.and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)))
    else {
        println!("{case}: not a Cram board, skipped");
        return;
    };
    let cram = Cram::<u64>::new(case, rows, cols).expect("a board of at most 64 cells");
    let variant = "cut_cEA".parse().expect("a paper variant");
    let threads: usize = args::env_or("SMP_THREADS", 2).max(1);
    let mut s = Ybw::new(&cram, variant, SearchConfig::default(), threads).expect("threads start");
    let (start, cpu_before) = (std::time::Instant::now(), cpu_seconds());
    let v = s.nimber(cram.full());
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_before;
    let nodes = s.stats().nodes;
    let spread = s.spread();
    let largest = spread.largest.load(Ordering::Relaxed);
    println!(
        "{case}: nimber {v}, {nodes} nodes on {threads} threads in {secs:.2} s, {cpu:.2} s of \
         processor time ({:.0} nodes a processor second) {}",
        nodes as f64 / cpu,
        args::stamp()
    );
    println!("| subtree nodes | subtrees | their nodes | share of all nodes |");
    println!("|---|---|---|---|");
    for b in 0..64 {
        let count = spread.count[b].load(Ordering::Relaxed);
        let sum = spread.nodes[b].load(Ordering::Relaxed);
        if count > 0 {
            let share = 100.0 * sum as f64 / nodes as f64;
            println!(
                "| {}-{} | {count} | {sum} | {share:.1}% |",
                1u64 << b,
                (1u64 << (b + 1)) - 1
            );
        }
    }
    println!("largest subtree: {largest} nodes");
    let busy = spread.busy_nanos.load(Ordering::Relaxed) as f64 * 1e-9;
    let stopped = spread.stopped.load(Ordering::Relaxed);
    println!(
        "threads busy below the split plies: {busy:.2} s of {threads} x {secs:.2} s ({:.0}%); \
         nodes of subtrees stopped unanswered: {stopped} ({:.1}%)",
        100.0 * busy / (threads as f64 * secs),
        100.0 * stopped as f64 / nodes as f64
    );
    println!();
}

/// The processor time this process has used (user and system, all threads), from
/// /proc/self/stat: unlike the wall time, it does not grow when other work takes the cores.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let ticks: u64 = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|f| f.parse::<u64>().ok())
        .sum();
    // In clock ticks of USER_HZ, which Linux fixes at 100 a second for /proc.
    ticks as f64 / 100.0
}
