//! Heap games, side by side with the `ogs` crate (Beling's octal game solver, its RC2 solver)
//! in one run: `cargo bench --bench heap`, or `-- 0.16`, `-- 0.354`, `-- grundy` for one case;
//! `-- survey` runs the survey of unsolved octal codes instead ([`survey`]).
//!
//! Ours runs in a pool of every core, as the commands do; ogs on one thread. For an octal code
//! both compute the nim sequence as far as the Guy-Smith check of the known
//! period needs (2 (preperiod + period) + t heaps). Ours runs `period::analyse`, which doubles
//! the heaps valued from 256 until the check passes (so it values up to twice as many) and
//! proves the period; ogs computes exactly that many values and then looks for the period.
//! The times are medians of alternating runs (15 for 0.16, 0.56 and 0.127, whose runs take
//! 0.02-0.13 s, so that one slow run moves the median less; 3 for 0.376, one for 0.354, 101
//! for the two-digit codes).
//! Output is Markdown for docs/benchmarks.md.

#[path = "common/args.rs"]
mod args;
#[path = "heap/survey.rs"]
mod survey;

use std::time::Instant;

use grundy_core::catalog::spec;
use grundy_core::period::analyse;
use grundy_core::progress::Silent;
use ogs::Solver;

struct Case {
    code: &'static str,
    preperiod: usize,
    period: usize,
    take: usize,
    /// Runs of each side; the median is reported.
    runs: usize,
}

const CASES: &[Case] = &[
    Case {
        code: "0.16",
        preperiod: 105_351,
        period: 149_459,
        take: 2,
        runs: 15,
    },
    // The two proved here (and found by ogs in the same run, last column); 0.56 is also
    // in Gangolli and Plambeck's table.
    Case {
        code: "0.56",
        preperiod: 326_640,
        period: 144,
        take: 2,
        runs: 15,
    },
    Case {
        code: "0.127",
        preperiod: 46_578,
        period: 4,
        take: 3,
        runs: 15,
    },
    // Two-digit codes: a few hundred heaps, so the times are mostly set-up.
    Case {
        code: "0.07",
        preperiod: 53,
        period: 34,
        take: 2,
        runs: 101,
    },
    Case {
        code: "0.77",
        preperiod: 71,
        period: 12,
        take: 2,
        runs: 101,
    },
    Case {
        code: "0.53",
        preperiod: 11,
        period: 9,
        take: 2,
        runs: 101,
    },
    // Solved in the survey of unsolved codes (docs/survey-octal-3.md), and in the list.
    Case {
        code: "0.376",
        preperiod: 2_268_248,
        period: 4,
        take: 3,
        runs: 3,
    },
    Case {
        code: "0.354",
        preperiod: 10_061_916,
        period: 1_180,
        take: 3,
        runs: 1,
    },
];

fn octal(case: &Case) {
    let game = spec::parse_heap(&format!("octal:{}", case.code)).unwrap();
    let needed = 2 * (case.preperiod + case.period) + case.take;
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let (mut a, mut solver, mut found) = (None, None, None);
    // Alternate the two, so that a slow spell of the machine hits both.
    for _ in 0..case.runs {
        let start = Instant::now();
        a = Some(analyse(game.rule(), 1 << 26, &Silent));
        ours.push(start.elapsed().as_secs_f64());
        let start = Instant::now();
        let peer = ogs::Game::from_ascii(case.code.as_bytes()).unwrap();
        let mut s = ogs::RC2Solver::<true, ()>::with_capacity(peer, needed);
        for _ in 0..needed {
            s.next();
        }
        found = s.period();
        theirs.push(start.elapsed().as_secs_f64());
        solver = Some(s);
    }
    let (a, solver) = (a.unwrap(), solver.unwrap());
    let (ours, theirs) = (median(ours), median(theirs));
    let proved = a.proved.clone().expect("a proved period");
    assert_eq!(
        (proved.preperiod, proved.period),
        (case.preperiod, case.period)
    );
    // The two sequences agree where both were computed.
    let agree = solver
        .nimbers()
        .iter()
        .zip(a.values.iter())
        .all(|(&x, y)| x as u32 == y);
    println!(
        "| octal:{} | {} / {} | {} ({} heaps valued) | {} ({} heaps) | {:.2} | {} | {:?} |",
        case.code,
        case.preperiod,
        case.period,
        time(ours),
        a.values.len(),
        time(theirs),
        needed,
        ours / theirs,
        if agree { "yes" } else { "NO" },
        found,
    );
}

/// Seconds, or microseconds below a hundredth of a second (the two-digit codes).
fn time(secs: f64) -> String {
    match secs < 0.01 {
        true => format!("{:.1} us", secs * 1e6),
        false => format!("{secs:.2} s"),
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn grundys_game() {
    let game = spec::parse_heap("grundy-game").unwrap();
    // GRUNDY_HEAPS=100000000 for the target of 10^8 heaps.
    let n = args::env_or("GRUNDY_HEAPS", 10_000_000);
    let start = Instant::now();
    let a = analyse(game.rule(), n, &Silent);
    let secs = start.elapsed().as_secs_f64();
    let r = a.rarity.expect("Grundy's game is valued sparsely");
    println!(
        "\nGrundy's game, heaps 0..={n}: {secs:.1} s; {} rare heaps (mask {:#x}); largest value {} (ogs has no Grundy's game).",
        r.rare,
        r.classes.mask,
        a.values.max()
    );
}

fn main() {
    // In a pool of every core, as the commands run: the thread that values the heaps is then
    // one of the pool's, not a third beside its two.
    let pool = rayon::ThreadPoolBuilder::new()
        .build()
        .expect("a thread pool");
    pool.install(run);
}

fn run() {
    let Some(words) = args::words() else { return };
    let only = words.first();
    if only.is_some_and(|o| o == "survey") {
        survey::run(&words[1..]);
        return;
    }
    println!("| game | preperiod / period | grundy period | ogs RC2 | ours / ogs | values agree | ogs period |");
    println!("|---|---|---|---|---|---|---|");
    for case in CASES {
        if only.is_none_or(|o| o == case.code) {
            octal(case);
        }
    }
    if only.is_none_or(|o| o == "grundy") {
        grundys_game();
    }
}
