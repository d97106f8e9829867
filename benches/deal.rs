//! What dealing one position's subtrees among many ranks adds in nodes (`sg` under mpirun,
//! `grundy_core::sg::deal`), with the ranks as threads of this process: `cargo bench --bench
//! deal -- cram:5x9 2 8 16 64` searches the board with `auto`'s engine on one rank, then on
//! each number of ranks given, and prints the nodes each took, the most and fewest of a rank
//! other than 0, and rank 0's share. Nodes do not depend on how many cores run the ranks, so
//! this measures, on two cores, the extra work that 64 ranks of a cluster would do; their time
//! is a cluster's to measure (it also pays the latency of each job, which threads do not).
//! Every run must give the same nimber.

use grundy_core::catalog::dealt::{solve_dealt, Dealing};
use grundy_core::catalog::solve::{solve, Control};
use grundy_core::catalog::spec;
use grundy_core::cluster::threads;
use grundy_core::sg::table::TableOptions;
use grundy_core::sg::{Engine, SearchConfig};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let (case, ranks) = match args.split_first() {
        Some((case, ranks)) => (case.as_str(), ranks.to_vec()),
        None => ("cram:5x8", vec!["2".into(), "8".into()]),
    };
    let game = spec::parse(case, spec::Heaps::default()).expect("a bench case parses");
    let p = game.start().expect("a board game has a start");
    let (opts, cfg) = (TableOptions::default(), SearchConfig::default());
    let one = solve(game.as_ref(), &p, Engine::Auto, cfg, &opts, false).expect("one rank");
    println!("{case}, nimber {}, {}", one.nimber, one.engine);
    println!();
    println!("| ranks | nodes | / one rank | rank 0's share | other ranks' nodes, fewest - most | wall (s), ranks as threads on this machine |");
    println!("|---|---|---|---|---|---|");
    println!(
        "| 1 | {} | 1.00 | 1.00 | | {:.1} |",
        one.stats.nodes, one.seconds
    );
    for n in ranks {
        let n: usize = n.parse().expect("a number of ranks");
        let start = Instant::now();
        let all = threads::run(n, |team| {
            solve_dealt(
                game.as_ref(),
                &p,
                Engine::Auto,
                cfg,
                &opts,
                false,
                &Control::default(),
                &*team,
            )
            .expect("the ranks answer")
        });
        let seconds = start.elapsed().as_secs_f64();
        let Dealing::Answered(d) = &all[0] else {
            panic!("{case}: rank 0 answers by dealing");
        };
        assert_eq!(d.solution.nimber, one.nimber, "{case} on {n} ranks");
        let total = d.solution.stats.nodes;
        let others = &d.nodes[1..];
        println!(
            "| {n} | {total} | {:.2} | {:.2} | {} - {} | {seconds:.1} |",
            total as f64 / one.stats.nodes as f64,
            d.nodes[0] as f64 / total as f64,
            others.iter().min().unwrap_or(&0),
            others.iter().max().unwrap_or(&0),
        );
    }
}
