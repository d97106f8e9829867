//! Side by side with the peer library `igs` (Piotr Beling's, LGPL; a dev-dependency used only
//! here, never linked into `grundy`): `cargo bench --bench igs`.
//!
//! The same Cram boards, Chomp boards and Grundy's game heaps, each run as its own process with
//! a time limit (`IGS_LIMIT` seconds, default 120): ours is the release `grundy sg` with its
//! default settings, igs is this bench binary calling igs the way igs's own command-line tool
//! `igsolve` does (Cram: BR with aspiration sets, `SmallerComponentsFirst`, an unbounded hash
//! table, no end database; Chomp and Grundy's game: `def` with an unbounded hash table). Times
//! are the searches' own (no process start-up), nodes as each tool counts them. A case either
//! tool answers in under a second is run [`REPEATS`] times by each, alternating, and each keeps
//! its fastest run: one run of a millisecond measures the machine more than the tool. Output is
//! Markdown for docs/benchmarks.md. `-- cram`, `-- chomp`, `-- published` or `-- grundy` runs one
//! part; `-- beyond` (never run by default) the unpublished Cram boards 3 x 19 to 3 x 21.

#[path = "common/args.rs"]
mod args;

use std::collections::HashMap;
use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use igs::game::Game as _;
use igs::games::chomp::FewerBarsFirst;
use igs::games::cram::SmallerComponentsFirst;
use igs::games::{Chomp, Cram, GrundyGame};
use igs::solver::br::BRDecomposableGameSolver;
use igs::solver::def::{DefDecomposableGameSolver, DefSimpleGameSolver};
use igs::solver::Solver;
use igs::stats::EventStats;

/// One solved case: nimber, nodes and search seconds.
#[derive(Clone, Copy)]
struct Run {
    nimber: u64,
    nodes: u64,
    seconds: f64,
}

/// Runs igs on one case in this process and prints `nimber nodes seconds` (the child side).
fn igs_one(args: &[String]) {
    let num = |i: usize| -> u16 { args[i].parse().expect("a number") };
    let start = Instant::now();
    let (nimber, nodes) = match args[0].as_str() {
        "cram" => {
            // igs takes the width first.
            let game = Cram::new(num(2) as u8, num(1) as u8);
            let mut s = Solver::new(
                &game,
                HashMap::new(),
                (),
                SmallerComponentsFirst,
                EventStats::default(),
            );
            let v = BRDecomposableGameSolver::<Cram>::nimber_of_initial_br_aspset(&mut s);
            (v, s.stats.nodes_visited())
        }
        "chomp" => {
            let game = Chomp::new(num(2) as u8, num(1) as u8);
            let mut s = Solver::new(
                &game,
                HashMap::new(),
                (),
                FewerBarsFirst,
                EventStats::default(),
            );
            let v = DefSimpleGameSolver::<Chomp>::nimber_of_initial_def(&mut s);
            (v, s.stats.nodes_visited())
        }
        "grundy" => {
            let game = GrundyGame(num(1));
            let mut s = Solver::new(&game, HashMap::new(), (), (), EventStats::default());
            let p = game.initial_position();
            let v = match args[2].as_str() {
                "br_aspset" => {
                    BRDecomposableGameSolver::<GrundyGame>::nimber_of_component_br_aspset(
                        &mut s, &p,
                    )
                }
                _ => DefDecomposableGameSolver::<GrundyGame>::nimber_of_component_def(&mut s, p),
            };
            (v, s.stats.nodes_visited())
        }
        other => panic!("unknown igs case {other}"),
    };
    println!("{nimber} {nodes} {}", start.elapsed().as_secs_f64());
}

/// Waits for `child` at most `limit`; its stdout when it finished in time and succeeded.
fn wait(mut child: Child, limit: Duration) -> Option<String> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waiting for a child") {
            let mut out = String::new();
            child.stdout.take()?.read_to_string(&mut out).ok()?;
            return status.success().then_some(out);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn igs(case: &[&str], limit: Duration) -> Option<Run> {
    let child = Command::new(std::env::current_exe().unwrap())
        .arg("--bench")
        .arg("igs-one")
        .args(case)
        .stdout(Stdio::piped())
        .spawn()
        .expect("running this bench as igs's side");
    let out = wait(child, limit)?;
    let f: Vec<&str> = out.split_whitespace().collect();
    Some(Run {
        nimber: f[0].parse().ok()?,
        nodes: f[1].parse().ok()?,
        seconds: f[2].parse().ok()?,
    })
}

fn ours(args: &[&str], limit: Duration) -> Option<Run> {
    let child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("sg")
        .args(args)
        .args(["--stats", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("running grundy");
    let out = wait(child, limit)?;
    let v: serde_json::Value = serde_json::from_str(&out).ok()?;
    Some(Run {
        nimber: v["nimber"].as_u64()?,
        nodes: v["nodes"].as_u64()?,
        seconds: v["seconds"].as_f64()?,
    })
}

/// Runs of each tool on a case that takes under a second.
const REPEATS: usize = 7;

/// `a` and `b` on one case, alternating, each keeping its fastest run; repeated only while
/// both take under a second.
fn side_by_side(
    a: impl Fn() -> Option<Run>,
    b: impl Fn() -> Option<Run>,
) -> (Option<Run>, Option<Run>) {
    let faster = |x: Option<Run>, y: Option<Run>| match (x, y) {
        (Some(x), Some(y)) if y.seconds < x.seconds => Some(y),
        (x, y) => x.or(y),
    };
    let short = |r: Option<Run>| r.is_some_and(|r| r.seconds < 1.0);
    let (mut x, mut y) = (a(), b());
    for _ in 1..REPEATS {
        if !(short(x) && short(y)) {
            break;
        }
        x = faster(x, a());
        y = faster(y, b());
    }
    (x, y)
}

fn cell(r: Option<Run>, limit: Duration) -> String {
    match r {
        Some(r) => format!("{:.4} s, {} nodes", r.seconds, r.nodes),
        None => format!("> {} s", limit.as_secs()),
    }
}

fn ratio(a: Option<Run>, b: Option<Run>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b.seconds > 0.0 => format!("{:.2}", a.seconds / b.seconds),
        _ => "?".into(),
    }
}

fn value(a: Option<Run>, b: Option<Run>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if a.nimber == b.nimber => a.nimber.to_string(),
        (Some(a), Some(b)) => format!("ours {}, igs {} (differ)", a.nimber, b.nimber),
        (Some(r), None) | (None, Some(r)) => r.nimber.to_string(),
        (None, None) => "?".into(),
    }
}

/// Ours and igs on each board, under the heading `title`.
fn boards(title: &str, game: &str, sizes: &[(u32, u32)], limit: Duration) {
    println!("\n#### {title}: ours (`grundy sg {game}:RxC`) and igs\n");
    println!("| board | nimber | ours | igs | ratio ours/igs |");
    println!("|---|---|---|---|---|");
    for &(r, c) in sizes {
        let (a, b) = side_by_side(
            || ours(&[&format!("{game}:{r}x{c}")], limit),
            || igs(&[game, &r.to_string(), &c.to_string()], limit),
        );
        println!(
            "| {r}x{c} | {} | {} | {} | {} |",
            value(a, b),
            cell(a, limit),
            cell(b, limit),
            ratio(a, b)
        );
    }
}

/// Grundy's game by the definition, to say which tool is right where they differ.
fn grundy_values(n: usize) -> Vec<u64> {
    let mut g = vec![0u64; n + 1];
    for h in 3..=n {
        let mut seen = vec![false; h + 1];
        for a in 1..=(h - 1) / 2 {
            let v = (g[a] ^ g[h - a]) as usize;
            if v < seen.len() {
                seen[v] = true;
            }
        }
        g[h] = seen.iter().position(|s| !s).unwrap() as u64;
    }
    g
}

fn grundy_game(heaps: &[u32], limit: Duration) {
    let truth = grundy_values(*heaps.iter().max().unwrap() as usize);
    println!("\n#### Grundy's game, one heap: ours (`grundy sg grundy-game N`) and igs\n");
    println!("| heap | value (definition) | ours | igs def | igs br_aspset | ratio ours/igs def |");
    println!("|---|---|---|---|---|---|");
    for &h in heaps {
        let (a, d) = side_by_side(
            || ours(&["grundy-game", &h.to_string()], limit),
            || igs(&["grundy", &h.to_string(), "def"], limit),
        );
        let b = igs(&["grundy", &h.to_string(), "br_aspset"], limit);
        let judged = |r: Option<Run>| match r {
            Some(r) if r.nimber == truth[h as usize] => {
                format!("{}: {}", r.nimber, cell(Some(r), limit))
            }
            Some(r) => format!("**{} (wrong)**: {}", r.nimber, cell(Some(r), limit)),
            None => cell(None, limit),
        };
        println!(
            "| {h} | {} | {} | {} | {} | {} |",
            truth[h as usize],
            judged(a),
            judged(d),
            judged(b),
            ratio(a, d)
        );
    }
}

/// Published Cram nimbers: Lemoine & Viennot's 3 x n (TCS 2012, Figure 13) and the table in
/// igs's repository README (4 to 7 rows; 6 x 12 and 6 x 14, over 64 cells, in the wide word).
/// Rows of `(columns, nimber)`.
const PUBLISHED: &[(u32, &[(u32, u64)])] = &[
    (
        3,
        &[
            (3, 0),
            (4, 1),
            (5, 1),
            (6, 4),
            (7, 1),
            (8, 3),
            (9, 1),
            (10, 2),
            (11, 0),
            (12, 1),
            (13, 2),
            (14, 3),
            (15, 1),
            (16, 4),
            (17, 0),
            (18, 1),
        ],
    ),
    (
        4,
        &[
            (4, 0),
            (5, 2),
            (6, 0),
            (7, 3),
            (8, 0),
            (9, 1),
            (10, 0),
            (11, 1),
            (12, 0),
            (13, 3),
            (14, 0),
            (15, 4),
        ],
    ),
    (
        5,
        &[
            (5, 0),
            (6, 2),
            (7, 1),
            (8, 1),
            (9, 1),
            (10, 2),
            (11, 0),
            (12, 3),
        ],
    ),
    (
        6,
        &[(6, 0), (7, 5), (8, 0), (9, 1), (10, 0), (12, 0), (14, 0)],
    ),
    (7, &[(7, 1), (8, 3), (9, 1)]),
];

/// Ours on every published board, each within the limit. Every board is run: the time is
/// not monotone along a row (3 x 16, nimber 4, takes over ten times as long as 3 x 17 and 3 x 18
/// together).
fn published(limit: Duration) {
    println!(
        "\n#### Published Cram nimbers: ours (`grundy sg cram:RxC`), limit {} s\n",
        limit.as_secs()
    );
    println!("| board | published | ours | seconds | nodes |");
    println!("|---|---|---|---|---|");
    for &(rows, boards) in PUBLISHED {
        for &(cols, want) in boards {
            match ours(&[&format!("cram:{rows}x{cols}")], limit) {
                Some(r) => {
                    let mark = if r.nimber == want { "" } else { " **differs**" };
                    println!(
                        "| {rows}x{cols} | {want} | {}{mark} | {:.2} | {} |",
                        r.nimber, r.seconds, r.nodes
                    );
                }
                None => println!("| {rows}x{cols} | {want} | > {} s | | |", limit.as_secs()),
            }
        }
    }
}

fn main() {
    let Some(rest) = args::words() else { return };
    if rest.first().map(String::as_str) == Some("igs-one") {
        return igs_one(&rest[1..]);
    }
    let limit = Duration::from_secs(args::env_or("IGS_LIMIT", 120));
    let only = rest.first().map(String::as_str);
    if only.is_none_or(|o| o == "cram") {
        boards(
            "cram",
            "cram",
            &[(3, 10), (4, 7), (5, 6), (4, 8), (4, 9), (4, 11), (5, 9)],
            limit,
        );
    }
    if only.is_none_or(|o| o == "chomp") {
        boards(
            "chomp",
            "chomp",
            &[(4, 6), (5, 6), (6, 6), (6, 7), (8, 8), (10, 10)],
            limit,
        );
    }
    if only.is_none_or(|o| o == "published") {
        published(limit);
    }
    // Past the published tables: the 3 x n boards of at most 64 cells that no table lists.
    // Only on request, with a limit of two hours (`IGS_LIMIT=7200`: igs takes 84 min on 3 x 20).
    if only == Some("beyond") {
        boards(
            "cram past the published tables",
            "cram",
            &[(3, 19), (3, 20), (3, 21)],
            limit,
        );
    }
    if only.is_none_or(|o| o == "grundy") {
        grundy_game(&[300, 512, 513, 525, 541, 600, 1000, 4000], limit);
    }
}
