//! Synthesis benchmarks: every case the thesis reached (and those it expected but did not), each
//! solved by sat, smt and enum side by side in one run, with the thesis's times beside ours.
//!
//! `cargo bench --bench synth` (all), `-- thesis` (the thesis's cases only), `-- stars` (5-8
//! leaves), `-- quick` (the default solver only on the thesis's cases), `-- deadlines` (how
//! soon each backend stops after its deadline passes, on searches that run for seconds), `-- upper`
//! (the time to a first upper bound on the cases the exact search cannot finish, each strategy
//! alone and all of them in a whole `synth --timeout 30` run), `-- lower` (the lengths each exact
//! search refutes in 10 minutes on the unfinished cases: enumeration, SAT, SAT with cubes; not
//! part of the full run, as it takes half an hour a case). Further words keep only
//! the cases whose name contains one of them (`-- thesis 'CN(5' 'CN(4,3)'`), and `SYNTH_BENCH_TIMEOUT=<secs>` changes
//! the per-run timeout of the thesis's cases. Each run is the release `grundy synth` binary with
//! `--json`; wall seconds include tabulating the data. Every program is also cross-checked by a
//! search engine on a box 2 larger with `--verify-max` (star:8's [0,8)^9: 134 million points,
//! about 25 s); its time is not counted. Output is Markdown.

#[path = "common/args.rs"]
mod args;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use grundy_core::catalog::spec;
use grundy_core::catalog::Rules;
use grundy_core::sg::table::TableOptions;
use grundy_synth::data::Dataset;
use grundy_synth::enumerate::EnumBackend;
use grundy_synth::lang::OpSet;
use grundy_synth::problem::{Problem, Target};
use grundy_synth::sat::SatBackend;
use grundy_synth::smt::SmtBackend;
use grundy_synth::solver::{Backend, Found};
use grundy_synth::upper::{self, Strategies};

struct Case {
    name: &'static str,
    game: &'static str,
    max: usize,
    target: &'static str,
    /// The thesis's time, where it printed one.
    thesis: &'static str,
}

const fn case(
    name: &'static str,
    game: &'static str,
    max: usize,
    target: &'static str,
    thesis: &'static str,
) -> Case {
    Case {
        name,
        game,
        max,
        target,
        thesis,
    }
}

const THESIS: &[Case] = &[
    case("P3", "path:3", 8, "indicator", "not timed"),
    case("shriek (SG)", "shriek", 8, "sg", "not timed"),
    case("star 2", "star:2", 6, "indicator", "fig. 4.3"),
    case("star 3", "star:3", 6, "indicator", "fig. 4.3"),
    case("star 4", "star:4", 6, "indicator", "hours (fig. 4.3)"),
    case("CN(2,1)", "circular:2,1", 6, "indicator", "0.005 s"),
    case("CN(2,2)", "circular:2,2", 6, "indicator", "0.025 s"),
    case("CN(3,1)", "circular:3,1", 6, "indicator", "0.68 s"),
    case("CN(3,2)", "circular:3,2", 6, "indicator", "193.5 s"),
    case("CN(3,3)", "circular:3,3", 6, "indicator", "14.0 s"),
    case("CN(4,1)", "circular:4,1", 6, "indicator", "330.9 s"),
    case("CN(4,2)", "circular:4,2", 6, "indicator", "291.9 s"),
    case("CN(4,3)", "circular:4,3", 6, "indicator", "not reached"),
    case("CN(4,4)", "circular:4,4", 6, "indicator", "not reached"),
    case("CN(5,1)", "circular:5,1", 6, "indicator", "not reached"),
    case("CN(5,5)", "circular:5,5", 6, "indicator", "not reached"),
];

const STARS: &[Case] = &[
    case("star 5", "star:5", 6, "zero", "out of reach"),
    case("star 6", "star:6", 6, "zero", "out of reach"),
    case("star 7", "star:7", 6, "zero", "out of reach"),
    case("star 8", "star:8", 6, "zero", "out of reach"),
];

/// Seconds allowed per run of the thesis's cases before it counts as not finished.
const TIMEOUT: f64 = 120.0;
/// The target for stars with 5-8 leaves; a lifted program found in time is reported
/// with "not proved minimal" when the shorter lengths are still open.
const STAR_TIMEOUT: f64 = 60.0;

/// Cross-checking on [0, max + VERIFY_MARGIN)^n by a search engine ("verified on a larger
/// box").
const VERIFY_MARGIN: usize = 2;

/// One run; `verify` is the cross-check's margin, if any.
fn run(
    c: &Case,
    target: &str,
    orbits: bool,
    solver: &str,
    timeout: f64,
    verify: Option<usize>,
) -> String {
    let max = c.max.to_string();
    let timeout = timeout.to_string();
    let mut args = vec![
        "synth",
        c.game,
        "--max",
        &max,
        "--target",
        target,
        "--solver",
        solver,
        "--json",
        "--timeout",
        &timeout,
    ];
    if orbits {
        args.push("--orbits");
    }
    let verify_max = (c.max + verify.unwrap_or(0)).to_string();
    if verify.is_some() {
        args.extend(["--verify-max", &verify_max]);
    }
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .expect("running grundy");
    let secs = start.elapsed().as_secs_f64();
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("synth --json prints JSON");
    if v["status"] == "undecided" {
        return format!("timeout ({secs:.1} s)");
    }
    if !out.status.success() {
        let err: String = v["error"].as_str().unwrap_or("").chars().take(60).collect();
        return format!("{err} ({secs:.1} s)");
    }
    let minimal = if v["minimal"] == true {
        ""
    } else {
        " (not proved minimal)"
    };
    // The cross-check is not part of the search: its time is taken off.
    let (secs, checked) = match &v["cross_check"] {
        serde_json::Value::Null => (secs, String::new()),
        x => {
            let took = x["seconds"].as_f64().unwrap_or(0.0);
            let verdict = if x["counterexample"].is_null() {
                format!(", verified on [0,{})^n", x["max"])
            } else {
                format!(", FAILS on [0,{})^n", x["max"])
            };
            (secs - took, verdict)
        }
    };
    format!("{secs:.2} s, len {}{minimal}{checked}", v["length"])
}

fn table(
    title: &str,
    cases: &[Case],
    solvers: &[&str],
    variants: &[(&str, bool)],
    timeout: f64,
    verify: Option<usize>,
) {
    let words: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .skip(1)
        .collect();
    let cases = cases
        .iter()
        .filter(|c| words.is_empty() || words.iter().any(|w| c.name.contains(w.as_str())));
    println!("\n#### {title} (timeout {timeout} s per run)\n");
    let mut header = "| case | target | thesis |".to_string();
    for s in solvers {
        header += &format!(" {s} |");
    }
    println!("{header}");
    println!("|{}", "---|".repeat(3 + solvers.len()));
    for c in cases {
        for &(target, orbits) in variants {
            let target = if c.target == "sg" { "sg" } else { target };
            if c.target == "sg" && orbits {
                continue;
            }
            let label = if orbits {
                format!("{target} --orbits")
            } else {
                target.to_string()
            };
            let cells: Vec<String> = solvers
                .iter()
                .map(|s| run(c, target, orbits, s, timeout, verify))
                .collect();
            println!(
                "| {} | {label} | {} | {} |",
                c.name,
                c.thesis,
                cells.join(" | ")
            );
            if c.target == "sg" {
                break;
            }
        }
    }
}

/// The problem of `game` on [0,max)^n with the thesis's instructions at width 8.
fn problem(game: &str, max: usize, target: Target) -> Problem {
    orbit_problem(game, max, target, false)
}

/// As [`problem`], with the orbit criterion when `orbits`.
fn orbit_problem(game: &str, max: usize, target: Target, orbits: bool) -> Problem {
    let g = spec::parse_hypergraph(game).expect("a built-in game");
    let data = Dataset::from_box(&g, max, &TableOptions::default()).expect("a small box");
    let n = g.graph().vertices();
    let canon = |x: &[u64]| g.canonical_point(x);
    let canon = orbits.then_some(&canon as &grundy_synth::problem::Canonical<'_>);
    Problem::new(data, OpSet::thesis(n), 8, target, canon).expect("valid options")
}

/// The cases the exact search does not finish in 30 s (issue 11), zero target on [0,5)^n.
const UPPER: &[(&str, &str, bool)] = &[
    ("path:5", "path:5", false),
    ("y-graph", "y-graph", false),
    ("CN(5,2)", "circular:5,2", false),
    ("CN(5,3)", "circular:5,3", false),
    ("CN(6,2)", "circular:6,2", false),
    ("projective plane", "projective-plane", false),
    ("K3 + pendant", "complex:0-1,1-2,2-0,2-3", false),
    ("CN(6,3) --orbits", "circular:6,3", true),
];

/// Seconds each strategy gets alone in the `upper` group, and the whole run's timeout.
const UPPER_SECONDS: u64 = 30;

/// Time to a first upper bound: each strategy alone through the library (given the whole
/// time), then a whole `grundy synth --timeout 30` run (all strategies for half of it, then the
/// exact search).
fn upper_bounds() {
    println!(
        "\n#### Upper bounds: seconds to the first program and its length, zero target on [0,5)^n, \
         {UPPER_SECONDS} s each\n"
    );
    println!("| case | decompose | lift | stochastic | synth --timeout {UPPER_SECONDS} |");
    println!("|---|---|---|---|---|");
    let alone = [
        (
            "decompose",
            Strategies {
                decompose: true,
                ..Strategies::NONE
            },
        ),
        (
            "lift",
            Strategies {
                lift: true,
                ..Strategies::NONE
            },
        ),
        (
            "stochastic",
            Strategies {
                stochastic: true,
                ..Strategies::NONE
            },
        ),
    ];
    let backend = EnumBackend::new(2, 8 << 30);
    for &(name, game, orbits) in UPPER {
        let p = orbit_problem(game, 5, Target::Zero, orbits);
        let mut cells = Vec::new();
        for (_, strategies) in alone {
            let start = Instant::now();
            let deadline = Some(start + Duration::from_secs(UPPER_SECONDS));
            let found =
                upper::find(&p, &backend, 20, deadline, strategies, &mut |_| {}).expect("no error");
            cells.push(match found {
                Some(u) => format!("{:.1} s, len {}", u.seconds, u.program.len()),
                None => format!("none ({:.1} s)", start.elapsed().as_secs_f64()),
            });
        }
        let timeout = UPPER_SECONDS.to_string();
        let mut args = vec!["synth", game, "--max", "5", "--json", "--timeout", &timeout];
        if orbits {
            args.push("--orbits");
        }
        let v = synth_json(&args);
        cells.push(match v["found_by"]["seconds"].as_f64() {
            Some(at) => format!(
                "{}: len {} at {at:.1} s by {}, lengths < {} refuted",
                v["status"].as_str().unwrap_or("?"),
                v["upper_bound"],
                v["found_by"]["strategy"].as_str().unwrap_or("?"),
                v["lower_bound"]
            ),
            None => format!(
                "{}: lengths < {} refuted",
                v["status"].as_str().unwrap_or("?"),
                v["lower_bound"]
            ),
        });
        println!("| {name} | {} |", cells.join(" | "));
    }
}

/// The JSON object of one release `grundy` run with `args` (which include `--json`).
fn synth_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("running grundy");
    serde_json::from_slice(&out.stdout).expect("synth --json prints JSON")
}

/// The cases the exact search has not finished, for the `lower` group.
const LOWER: &[(&str, &str)] = &[
    ("CN(5,2)", "circular:5,2"),
    ("path:5", "path:5"),
    ("y-graph", "y-graph"),
];

/// Seconds each exact search gets in the `lower` group (the figure: lengths up to 12
/// of CN(5,2) refuted within 10 minutes on 2 cores).
const LOWER_SECONDS: u64 = 600;

/// Lower bounds: how many lengths each exact search refutes within the time, on [0,5)^n with
/// the zero target and no upper-bound strategies, and when it had refuted every length up to
/// 12 (the sum of the per-length times `--json` reports).
fn lower_bounds(only: &[String]) {
    let seconds = std::env::var("SYNTH_BENCH_TIMEOUT")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(LOWER_SECONDS);
    println!(
        "\n#### Lower bounds: lengths refuted within {seconds} s, zero target on [0,5)^n, \
         no upper-bound strategies\n"
    );
    let variants: [(&str, &[&str]); 3] = [
        ("auto (enumeration)", &["--upper", "none"]),
        ("sat", &["--solver", "sat"]),
        ("sat --cubes", &["--solver", "sat", "--cubes"]),
    ];
    let names: Vec<&str> = variants.iter().map(|v| v.0).collect();
    println!("| case | {} |", names.join(" | "));
    println!("|---|{}", "---|".repeat(variants.len()));
    for &(name, game) in LOWER {
        if !only.is_empty() && !only.iter().any(|w| name.contains(w.as_str())) {
            continue;
        }
        let mut cells = Vec::new();
        for (_, extra) in variants {
            let timeout = seconds.to_string();
            let mut args = vec!["synth", game, "--max", "5", "--json", "--quiet"];
            args.extend_from_slice(&["--timeout", &timeout]);
            args.extend_from_slice(extra);
            let v = synth_json(&args);
            let mut through_12 = 0.0;
            let mut reached = None;
            for r in v["refutations"].as_array().into_iter().flatten() {
                through_12 += r["seconds"].as_f64().unwrap_or(0.0);
                if r["length"] == 12 {
                    reached = Some(through_12);
                }
            }
            cells.push(format!(
                "lengths < {} refuted{}",
                v["lower_bound"],
                match reached {
                    Some(t) => format!("; up to 12 in {t:.0} s"),
                    None => String::new(),
                }
            ));
        }
        println!("| {name} | {} |", cells.join(" | "));
    }
}

/// How long after a 200 ms deadline each backend returns, on searches that take seconds
/// without one (the unit tests check that they return `Timeout`; this measures how soon).
fn deadlines() {
    const DEADLINE: Duration = Duration::from_millis(200);
    println!("\n#### Deadlines: seconds from the start to the answer, deadline 0.2 s\n");
    println!("| backend | search | answer | seconds |");
    println!("|---|---|---|---|");
    type Case = (
        &'static str,
        Box<dyn Backend>,
        &'static str,
        usize,
        Target,
        usize,
    );
    let cases: [Case; 3] = [
        (
            "sat",
            Box::new(SatBackend::default()),
            "circular:3,2",
            5,
            Target::Zero,
            6,
        ),
        (
            "smt",
            Box::new(SmtBackend),
            "circular:3,2",
            6,
            Target::Zero,
            9,
        ),
        (
            "enum",
            Box::new(EnumBackend::new(2, 8 << 30)),
            "circular:4,3",
            6,
            Target::Indicator,
            11,
        ),
    ];
    for (name, backend, game, max, target, length) in cases {
        let p = problem(game, max, target);
        let mut search = backend.start(&p, length).expect("a search");
        for e in 0..p.examples.len() {
            search.add_example(e).expect("an example");
        }
        let t = Instant::now();
        let found = search.solve(Some(t + DEADLINE)).expect("an answer");
        let answer = match found {
            Found::Timeout => "timeout",
            Found::Refuted => "refuted",
            Found::Program(_) => "program",
        };
        println!(
            "| {name} | {game} length {length}, all {} examples | {answer} | {:.3} |",
            p.examples.len(),
            t.elapsed().as_secs_f64()
        );
    }
}

fn main() {
    let Some(words) = args::words() else { return };
    let only = words.first().map(String::as_str);
    let variants = [
        ("zero", false),
        ("indicator", false),
        ("zero", true),
        ("indicator", true),
    ];
    let timeout = args::env_or("SYNTH_BENCH_TIMEOUT", TIMEOUT);
    let stars = || {
        table(
            "Stars with 5-8 leaves (auto: lifting, then the read-once search at the bound's length)",
            STARS,
            &["auto"],
            &variants,
            STAR_TIMEOUT,
            Some(VERIFY_MARGIN),
        )
    };
    let side_by_side = || {
        table(
            "Thesis cases",
            THESIS,
            &["sat", "smt", "enum"],
            &variants,
            timeout,
            Some(VERIFY_MARGIN),
        )
    };
    match only {
        Some("quick") => table(
            "Thesis cases, default solver (auto)",
            THESIS,
            &["auto"],
            &variants,
            timeout,
            Some(VERIFY_MARGIN),
        ),
        Some("thesis") => side_by_side(),
        Some("stars") => stars(),
        Some("deadlines") => deadlines(),
        Some("upper") => upper_bounds(),
        Some("lower") => lower_bounds(&words[1..]),
        _ => {
            side_by_side();
            stars();
            deadlines();
            upper_bounds();
        }
    }
}
