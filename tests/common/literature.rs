//! The table of docs/literature.md, read as data: the one list of literature
//! characterizations, shared by tests/literature.rs (which proves or checks each row) and
//! benches/discovery.rs (which asks synth to find each row again).

use std::path::Path;

/// How a row is checked, as its status column says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// `grundy prove` proves it for all positions.
    Theorem,
    /// `grundy prove --bound B` proves it over bit-vectors for every position with heaps below
    /// 2^B (the program, a xor of three or more numbers, has no linear reading).
    Bounded(u32),
    /// `grundy verify --max D` checks it on [0,D)^n.
    Box(u32),
}

/// One row of the table.
#[derive(Clone, Debug)]
pub struct Row {
    pub case: String,
    /// The game spec and its options (`--orbits`, `--target sg`), as `prove` and `verify`
    /// take them.
    pub args: Vec<String>,
    /// The program, instructions separated by spaces.
    pub program: String,
    pub status: Status,
    pub statement: String,
}

impl Row {
    /// Whether the game column carries `flag`.
    pub fn has(&self, flag: &str) -> bool {
        self.args.iter().any(|a| a == flag)
    }

    /// The variables the program reads (x0..x(k-1)): every row's program reads every vertex.
    pub fn variables(&self) -> usize {
        self.program
            .split_whitespace()
            .filter_map(|w| {
                w.strip_prefix("Push(")?
                    .strip_suffix(')')?
                    .parse::<usize>()
                    .ok()
            })
            .max()
            .map_or(0, |v| v + 1)
    }
}

/// The text of docs/literature.md.
pub fn text() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/literature.md"))
        .expect("docs/literature.md")
}

/// The rows of the table in `text`, or the first malformed line.
pub fn rows(text: &str) -> Result<Vec<Row>, String> {
    let mut out = Vec::new();
    let mut in_table = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("| case | game | program | status |") {
            in_table = true;
            continue;
        }
        if !in_table || t.starts_with("|---") {
            continue;
        }
        if !t.starts_with('|') {
            break;
        }
        out.push(row(t).map_err(|e| format!("{e}: {t}"))?);
    }
    Ok(out)
}

fn code(cell: &str) -> Result<&str, String> {
    cell.strip_prefix('`')
        .and_then(|c| c.strip_suffix('`'))
        .ok_or_else(|| format!("`{cell}` is not one code span"))
}

fn row(line: &str) -> Result<Row, String> {
    let cells: Vec<&str> = line
        .trim_matches('|')
        .split('|')
        .map(|c| c.trim())
        .collect();
    if cells.len() != 6 {
        return Err(format!("{} cells, not 6", cells.len()));
    }
    let status = match cells[3] {
        "theorem (all positions)" => Status::Theorem,
        s if s.starts_with("theorem (heaps below 2^") => Status::Bounded(
            s.strip_prefix("theorem (heaps below 2^")
                .and_then(|r| r.strip_suffix(')'))
                .and_then(|b| b.parse().ok())
                .ok_or_else(|| format!("unknown status `{s}`"))?,
        ),
        s => {
            let d = s
                .strip_prefix("holds on the box [0,")
                .and_then(|r| r.strip_suffix(")^n"))
                .and_then(|d| d.parse().ok())
                .ok_or_else(|| format!("unknown status `{s}`"))?;
            Status::Box(d)
        }
    };
    Ok(Row {
        case: cells[0].to_string(),
        args: code(cells[1])?
            .split_whitespace()
            .map(String::from)
            .collect(),
        program: code(cells[2])?.to_string(),
        status,
        statement: cells[4].to_string(),
    })
}
