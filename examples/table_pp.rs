//! Benchmark: the whole table of the projective plane complex on [0,16)^6.
//!
//! `cargo run --release --example table_pp [threads...]` prints, per thread count, the seconds
//! taken and the peak resident memory so far (VmHWM).

use std::time::Instant;

use grundy_core::catalog::spec;
use grundy_core::sg::table::{tabulate, TableOptions};

fn peak_rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l["VmHWM:".len()..].trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

fn main() {
    let game = spec::parse_hypergraph("projective-plane").unwrap();
    let mut threads: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a thread count"))
        .collect();
    if threads.is_empty() {
        threads = vec![1, 2];
    }
    for t in threads {
        let opts = TableOptions {
            threads: t,
            memory_limit: 1 << 34,
            ..TableOptions::default()
        };
        let start = Instant::now();
        let table = tabulate(game.graph(), &[16; 6], &opts).unwrap();
        let secs = start.elapsed().as_secs_f64();
        let values = table.values().expect("every point is a position");
        let zeros = values.iter().filter(|&&v| v == 0).count();
        let checksum = values
            .iter()
            .fold(0u64, |h, &v| h.wrapping_mul(31).wrapping_add(v as u64));
        println!(
            "threads={t}: {secs:.2} s, {zeros} zeros, checksum {checksum:x}, peak RSS {}",
            peak_rss()
        );
    }
}
