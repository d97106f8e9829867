//! Discovery: does `grundy` find the literature's characterizations on its own, and prove them?
//!
//! ```sh
//! cargo bench --bench discovery            # every row of docs/literature.md
//! cargo bench --bench discovery -- 'CN(5'  # the rows whose case contains a word
//! ```
//!
//! For each row of docs/literature.md's table (the one list, shared with tests/literature.rs):
//! one release `grundy synth GAME [--orbits] [--target sg] --max D --prove --json --timeout T`
//! run (T = 60 s for search and proof together, or `DISCOVERY_TIMEOUT`), on the data box the
//! row is checked on (or a box by the number of vertices), its program cross-checked on a box
//! one larger by a search engine. `--prove` proves the program found and, on a refutation,
//! adds the counterexample to the data and searches again: the command a user runs to find a
//! characterization and prove it, so the figures are what a user sees. Output is a Markdown
//! table: the program found and its length (beside the length of the table's program), whether
//! it is a theorem (for all positions, or heaps below 2^B), holds on the box only, or none was
//! found, and the wall seconds of the whole run.

#[path = "common/args.rs"]
mod args;
#[path = "../tests/common/literature.rs"]
#[allow(dead_code)]
mod literature;

use std::process::{Command, Output, Stdio};
use std::time::Instant;

use literature::{Row, Status};

/// Seconds for each synth run and each proof.
const TIMEOUT: f64 = 60.0;

/// The data box: the row's own box, or one a table fills in well under a second.
fn data_max(row: &Row) -> u32 {
    match row.status {
        Status::Box(d) => d,
        Status::Theorem | Status::Bounded(_) => match row.variables() {
            0..=3 => 8,
            4..=5 => 6,
            6 => 5,
            _ => 4,
        },
    }
}

fn grundy(args: &[&str]) -> (Output, f64) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("running grundy");
    (out, start.elapsed().as_secs_f64())
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null)
}

/// The status cell of `synth --prove`'s answer `v` (exit `code`), the program having held on
/// the box to `checked_to`.
fn proved(v: &serde_json::Value, code: Option<i32>, checked_to: &str) -> String {
    let proof = &v["proof"];
    let on_box = format!("holds on the box to {checked_to}");
    let tried = match proof["counterexamples"].as_u64() {
        Some(0) | None => String::new(),
        Some(k) => format!("; {k} refuted on the way"),
    };
    match (code, proof["status"].as_str()) {
        (Some(0), Some("proved")) => format!(
            "**theorem ({})**{tried}",
            proof["scope"].as_str().unwrap_or("?")
        ),
        (_, Some("refuted")) => format!(
            "{on_box}; refuted for all positions at {} ({}){tried}",
            proof["counterexample"]["position"],
            proof["counterexample"]["reason"].as_str().unwrap_or("?")
        ),
        _ => format!(
            "{on_box}; not proved: {}{tried}",
            (proof["why"].as_str())
                .or(v["note"].as_str())
                .map_or("the prover did not settle it", before_aside)
        ),
    }
}

/// `why` up to its first parenthesis outside code (`x1 - (x2 + x3)` stays whole).
fn before_aside(why: &str) -> &str {
    let mut code = false;
    for (i, c) in why.char_indices() {
        match c {
            '`' => code = !code,
            '(' if !code && why[..i].ends_with(' ') => return &why[..i - 1],
            _ => {}
        }
    }
    why
}

fn run(row: &Row, timeout: f64) -> String {
    let timeout = timeout.to_string();
    let max = data_max(row);
    let (max_s, verify_s) = (max.to_string(), (max + 1).to_string());
    let mut a: Vec<&str> = vec!["synth"];
    a.extend(row.args.iter().map(String::as_str));
    a.extend([
        "--max",
        &max_s,
        "--prove",
        "--json",
        "--timeout",
        &timeout,
        "--verify-max",
        &verify_s,
    ]);
    let (out, secs) = grundy(&a);
    let v = json(&out);
    let ours = row.program.split_whitespace().count();
    let head = format!("| {} | `{}` | {ours} |", row.case, row.args.join(" "));
    if let Some(err) = v["error"].as_str() {
        return format!("{head} error: {err} | none | {secs:.1} s |");
    }
    let Some(_) = v["program"].as_array().filter(|p| !p.is_empty()) else {
        return format!(
            "{head} none found (no program shorter than {}) | none | {secs:.1} s |",
            v["lower_bound"]
        );
    };
    let how = if v["minimal"] == true {
        "minimal"
    } else {
        "shortest found"
    };
    let form = match v["orbits"] == true {
        true => ", orbit form",
        false => "",
    };
    let found = format!(
        "`{}` ({} instructions, {how}{form})",
        v["expression"].as_str().unwrap_or("?").replace('|', "\\|"),
        v["length"]
    );
    if !v["cross_check"]["counterexample"].is_null() {
        return format!(
            "{head} {found} | none: fails on the box to {verify_s} at {} | {secs:.1} s |",
            v["cross_check"]["counterexample"]
        );
    }
    let cell = proved(&v, out.status.code(), &verify_s);
    format!("{head} {found} | {cell} | {secs:.1} s |")
}

fn main() {
    let Some(words) = args::words() else { return };
    let timeout = args::env_or("DISCOVERY_TIMEOUT", TIMEOUT);
    let rows = literature::rows(&literature::text()).expect("docs/literature.md's table");
    println!(
        "`grundy synth --prove` ({timeout} s each, search and proof) on every row of \
         docs/literature.md.\n"
    );
    println!("### Every row of literature.md {}\n", args::stamp());
    println!("| case | game | table's length | program found | proved? | time |");
    println!("|---|---|---|---|---|---|");
    for row in &rows {
        if !words.is_empty() && !words.iter().any(|w| row.case.contains(w.as_str())) {
            continue;
        }
        println!("{}", run(row, timeout));
    }
}
