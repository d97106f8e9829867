//! The report on the cases the literature leaves open, `docs/open-cases.md`:
//!
//! ```sh
//! cargo bench --bench open_cases > docs/open-cases.md
//! ```
//!
//! Each case is one release `grundy synth ... --json --timeout T` run (T = 120 s, or
//! `OPEN_CASES_TIMEOUT`), its program (if any) cross-checked on a box two larger by a search
//! engine and then given to `grundy prove` (same limit) for the status column: a theorem for
//! all positions (or below the prover's bound), holds on the box, or none with the certified
//! lower bound. Words after `--` keep only the cases whose name contains one of them
//! (`OPEN_CASES_TIMEOUT=20 cargo bench --bench open_cases -- 'CN(5,3)'` checks the format in a
//! minute).

#[path = "common/args.rs"]
mod args;

use std::process::{Command, Stdio};
use std::time::Instant;

/// A case: its name, the `synth` arguments, the cross-check's box (none where a search engine
/// cannot value it in minutes: the families' positions up to 16 reach all of [0,16)^6), and
/// what the literature says.
struct Case {
    name: &'static str,
    args: &'static [&'static str],
    verify_max: Option<&'static str>,
    known: &'static str,
}

const CASES: &[Case] = &[
    Case {
        name: "path:5",
        args: &["path:5", "--max", "5"],
        verify_max: Some("7"),
        known: "P5 of the thesis: no characterization known",
    },
    Case {
        name: "path:6",
        args: &["path:6", "--max", "5"],
        verify_max: Some("6"),
        known: "P6: no characterization known",
    },
    Case {
        name: "y-graph",
        args: &["y-graph", "--max", "5"],
        verify_max: Some("7"),
        known: "the Y graph: no characterization known",
    },
    Case {
        name: "CN(5,2)",
        args: &["circular:5,2", "--max", "5"],
        verify_max: Some("7"),
        known: "Dufour & Heubach 2013; up to symmetry, docs/literature.md",
    },
    Case {
        name: "CN(5,2) --orbits",
        args: &["circular:5,2", "--max", "5", "--orbits"],
        verify_max: Some("7"),
        known: "Dufour & Heubach 2013; proved in docs/literature.md (with Lt)",
    },
    Case {
        name: "CN(5,3)",
        args: &["circular:5,3", "--max", "5"],
        verify_max: Some("7"),
        known: "Dufour & Heubach 2013; up to symmetry, docs/literature.md",
    },
    Case {
        name: "CN(5,3) --orbits",
        args: &["circular:5,3", "--max", "5", "--orbits"],
        verify_max: Some("7"),
        known: "Dufour & Heubach 2013; proved in docs/literature.md",
    },
    Case {
        name: "CN(6,2)",
        args: &["circular:6,2", "--max", "5"],
        verify_max: Some("6"),
        known: "the thesis: \"defies characterization\"",
    },
    Case {
        name: "CN(6,3) --orbits",
        args: &["circular:6,3", "--max", "5", "--orbits"],
        verify_max: Some("6"),
        known: "Dufour et al.: a+b = d+e and b+c = e+f up to rotation",
    },
    Case {
        name: "projective plane",
        args: &["projective-plane", "--max", "5"],
        verify_max: Some("6"),
        known: "open",
    },
    Case {
        name: "projective plane, (a,a,b,b,c,c)",
        args: &[
            "projective-plane",
            "--max",
            "16",
            "--family",
            "a,a,b,b,c,c",
            "--upper",
            "all",
        ],
        verify_max: None,
        known: "the thesis asks for which a, b, c these are zero positions",
    },
    Case {
        name: "projective plane, (a,a,b,c,a+b+c,a+b+c)",
        args: &[
            "projective-plane",
            "--max",
            "16",
            "--family",
            "a,a,b,c,a+b+c,a+b+c",
            "--upper",
            "all",
        ],
        verify_max: None,
        known: "the thesis\'s second open family",
    },
];

/// Seconds per run.
const TIMEOUT: f64 = 120.0;

/// "lengths 1-8 by the dependency bound, 9 by read-once, 10-11 by enum" from the refutations.
fn how_refuted(refutations: &[serde_json::Value]) -> String {
    let mut parts: Vec<(u64, u64, String)> = Vec::new();
    for r in refutations {
        let length = r["length"].as_u64().unwrap_or(0);
        let by = r["by"].as_str().unwrap_or("?").to_string();
        match parts.last_mut() {
            Some((_, to, last)) if *last == by && *to + 1 == length => *to = length,
            _ => parts.push((length, length, by)),
        }
    }
    parts
        .iter()
        .map(|(from, to, by)| {
            if from == to {
                format!("{from} by {by}")
            } else {
                format!("{from}-{to} by {by}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn run(case: &Case, timeout: f64) -> String {
    let timeout = timeout.to_string();
    let start = Instant::now();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.arg("synth")
        .args(case.args)
        .args(["--json", "--timeout", &timeout]);
    if let Some(d) = case.verify_max {
        cmd.args(["--verify-max", d]);
    }
    let out = cmd.stdin(Stdio::null()).output().expect("running grundy");
    let secs = start.elapsed().as_secs_f64();
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("synth --json prints one JSON object");
    if let Some(err) = v["error"].as_str() {
        return format!(
            "| {} | {} | error: {err} | | none | | {secs:.0} s |",
            case.name, case.known
        );
    }
    let refutations = v["refutations"].as_array().cloned().unwrap_or_default();
    let lower = v["lower_bound"].as_u64().unwrap_or(1);
    let program = match v["expression"].as_str() {
        None => "none found".to_string(),
        Some(e) => {
            let by = v["found_by"]["strategy"]
                .as_str()
                .unwrap_or("the exact search");
            let checked = match &v["cross_check"] {
                serde_json::Value::Null => {
                    "; not cross-checked (too large for a search engine)".into()
                }
                c if c["counterexample"].is_null() => {
                    format!("; holds on the box to {}", c["max"])
                }
                c => format!(
                    "; **fails** on the box to {}: {}",
                    c["max"],
                    c["counterexample"].as_str().unwrap_or("?")
                ),
            };
            // `|` (the Or) would end the table cell.
            let e = e.replace('|', "\\|");
            format!(
                "`{e}` ({} instructions, {}, by {by}{checked})",
                v["length"],
                v["status"].as_str().unwrap_or("?")
            )
        }
    };
    let bound = if v["minimal"] == true {
        format!("minimal: lengths {}", how_refuted(&refutations))
    } else {
        format!(
            "no program shorter than {lower} (lengths {}); {}",
            how_refuted(&refutations),
            v["stopped"].as_str().unwrap_or("")
        )
    };
    let status = status(case, &v, lower, &timeout);
    format!(
        "| {} | {} | {} | {program} | {status} | {bound} | {secs:.0} s |",
        case.name,
        case.known,
        v["data"].as_str().unwrap_or("?"),
    )
}

/// The status column: what is established about the program synth found (`v`), by proving
/// it with `grundy prove` where it holds on the cross-check's box.
fn status(case: &Case, v: &serde_json::Value, lower: u64, timeout: &str) -> String {
    let Some(names) = v["program"].as_array().filter(|p| !p.is_empty()) else {
        return format!("none; no program shorter than {lower}");
    };
    let check = &v["cross_check"];
    if check.is_null() {
        // A family's positions are not all positions of a game: nothing for the prover.
        return "holds on the data (a family, not a whole game)".into();
    }
    if !check["counterexample"].is_null() {
        return format!(
            "none (fails on the box to {}); no program shorter than {lower}",
            check["max"]
        );
    }
    let on_box = format!("holds on the box to {}", check["max"]);
    let program: Vec<&str> = names.iter().filter_map(|n| n.as_str()).collect();
    let program = program.join(" ");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.args([
        "prove",
        case.args[0],
        "--program",
        &program,
        "--json",
        "--timeout",
        timeout,
    ]);
    if case.args.contains(&"--orbits") {
        cmd.arg("--orbits");
    }
    let Ok(out) = cmd.stdin(Stdio::null()).output() else {
        return on_box;
    };
    let p: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    match out.status.code() {
        Some(0) => format!("**theorem ({})**", p["scope"].as_str().unwrap_or("?")),
        Some(1) => format!(
            "{on_box}; refuted for all positions at {} ({})",
            p["counterexample"]["position"],
            p["counterexample"]["reason"].as_str().unwrap_or("?")
        ),
        Some(3) => format!("{on_box}; the prover did not settle it in {timeout} s"),
        _ => format!(
            "{on_box} (prove: {})",
            p["error"]
                .as_str()
                .unwrap_or("no answer")
                .split(" (")
                .next()
                .unwrap_or("")
        ),
    }
}

fn main() {
    let Some(words) = args::words() else { return };
    let timeout = args::env_or("OPEN_CASES_TIMEOUT", TIMEOUT);
    println!("# Open cases: what `grundy synth` establishes\n");
    println!(
        "Generated by `cargo bench --bench open_cases > docs/open-cases.md`, {} s per case on a \
         2-core machine. Zero target (output 0 exactly on the zero positions), \
         the thesis's instructions at width 8. A program is re-run on every data point before it \
         is printed and cross-checked on a larger box by a search engine, then given to \
         `grundy prove`: the status says whether it is a theorem for all positions, holds on \
         the box only, or none was found; a lower bound L means \
         every length below L was refuted exhaustively (by the dependency bound, the read-once \
         search, enumeration or SAT) on a subset of the data, which refutes it on all of it.\n",
        timeout
    );
    println!("## Every case {}\n", args::stamp());
    println!("| case | known | data | program found | status | lower bound, how proved | time |");
    println!("|---|---|---|---|---|---|---|");
    for case in CASES {
        if !words.is_empty() && !words.iter().any(|w| case.name.contains(w.as_str())) {
            continue;
        }
        println!("{}", run(case, timeout));
    }
}
