//! Timings of the SAT backend on the synthesis benchmark cases.
//!
//! `cargo run --release --example sat_cases [case...] [--no-depth] [--unguarded] [--direct] [--slots] [--vsids DECAY] [--ops EDITS] [--all-at LEN] [--timeout S]` where a case
//! is `spec@box@target` (target zero, indicator or sg), e.g. `path:3@6@zero`. Without cases it
//! runs P3, star:3 and circular:3,2 on [0,6)^n with the zero target. Prints per length how it
//! was decided and how long it took, then the program.

use std::time::{Duration, Instant};

use grundy_core::catalog::spec;
use grundy_core::sg::table::TableOptions;
use grundy_synth::cegis::synthesize;
use grundy_synth::data::Dataset;
use grundy_synth::lang::OpSet;
use grundy_synth::problem::{Problem, Target};
use grundy_synth::sat::{Options, SatBackend};
use grundy_synth::solver::Backend;

fn main() {
    let mut options = Options::default();
    let mut timeout = 600.0;
    let mut cases = Vec::new();
    let mut edits = String::new();
    let mut all_at: Option<usize> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--no-depth" => options.depth_vars = false,
            "--unguarded" => options.guarded = false,
            "--direct" => options.direct_bitwise = true,
            "--vsids" => options.vsids_decay = args.next().and_then(|s| s.parse().ok()),
            "--slots" => options.layout = grundy_synth::sat::Layout::Slots,
            "--all-at" => all_at = args.next().and_then(|s| s.parse().ok()),
            "--ops" => edits = args.next().expect("instruction edits"),
            "--timeout" => timeout = args.next().and_then(|s| s.parse().ok()).expect("seconds"),
            _ => cases.push(a),
        }
    }
    if cases.is_empty() {
        cases = ["path:3@6@zero", "star:3@6@zero", "circular:3,2@6@zero"]
            .map(String::from)
            .to_vec();
    }
    let backend = SatBackend {
        options,
        ..SatBackend::default()
    };
    for case in cases {
        let parts: Vec<&str> = case.split('@').collect();
        let [game, size, target] = parts[..] else {
            panic!("a case is spec@box@target, got {case}")
        };
        let target = match target {
            "zero" => Target::Zero,
            "indicator" => Target::Indicator,
            "sg" => Target::Sg,
            t => panic!("unknown target {t}"),
        };
        let g = spec::parse_hypergraph(game).expect("a game spec");
        let n = g.graph().vertices();
        let data = Dataset::from_box(
            &g,
            size.parse().expect("a box size"),
            &TableOptions::default(),
        )
        .expect("data");
        let problem = Problem::new(
            data,
            OpSet::with_edits(n, &edits).expect("--ops"),
            8,
            target,
            None,
        )
        .expect("problem");
        let t = Instant::now();
        if let (Some(len), Ok(path)) = (all_at, std::env::var("SAT_CASES_EXPORT")) {
            let all: Vec<usize> = (0..problem.examples.len()).collect();
            let cnf =
                grundy_synth::sat::export_dimacs(&problem, len, &all, std::slice::from_ref(&case))
                    .expect("export");
            std::fs::write(&path, cnf).expect("write");
            println!("wrote {path}");
            continue;
        }
        if let Some(len) = all_at {
            // One solve of length `len` against every example (no CEGIS).
            let mut search = backend.start(&problem, len).expect("start");
            for e in 0..problem.examples.len() {
                search.add_example(e).expect("example");
            }
            let built = t.elapsed().as_secs_f64();
            let found = search.solve(None).expect("solve");
            println!(
                "{case}: length {len} on all {} examples: {found:?}, built in {built:.3} s, total {:.3} s",
                problem.examples.len(),
                t.elapsed().as_secs_f64()
            );
            continue;
        }
        let deadline = Instant::now() + Duration::from_secs_f64(timeout);
        match synthesize(&problem, &backend, 16, Some(deadline)) {
            Ok(out) => {
                for r in &out.trace.refutations {
                    println!(
                        "  {case} length {:2}: refuted by {} on {} examples at {:.3} s",
                        r.length, r.by, r.examples, r.seconds
                    );
                }
                println!(
                    "{case}: length {} `{}` minimal={} rounds={} examples={} total {:.3} s",
                    out.program.len(),
                    out.program,
                    out.minimal,
                    out.trace.rounds,
                    out.trace.examples.len(),
                    t.elapsed().as_secs_f64()
                );
            }
            Err(e) => println!("{case}: {e} after {:.3} s", t.elapsed().as_secs_f64()),
        }
    }
}
