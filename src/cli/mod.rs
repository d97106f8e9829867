//! The `grundy` command line: argument parsing and dispatch; each subcommand has its own module.

mod decode;
mod info;
mod output;
mod report;
mod sg;
mod synth;
mod table;
mod verify;

use clap::{Args, Parser, Subcommand};

use crate::error::Error;
use crate::game::MoveOrder;
use crate::sg::{Engine, Policy, SearchConfig, TtConfig};

/// Sprague-Grundy values, tables and formulas for impartial games.
#[derive(Parser, Debug)]
#[command(name = "grundy", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The nimber of one position.
    Sg(sg::SgArgs),
    /// Every position of a box [0,D)^n with its nimber, and the zero positions.
    Table(table::TableArgs),
    /// Vertices, faces, circuits and the automorphism group of a game.
    Info(info::InfoArgs),
    /// The shortest stack program classifying zero positions (or giving SG values), proved minimal.
    Synth(synth::SynthArgs),
    /// Check a program against SG values recomputed on a box by a search engine.
    Verify(verify::VerifyArgs),
    /// Rebuild a program from an external SAT solver's model of an exported CNF, and check it.
    Decode(decode::DecodeArgs),
}

/// Options shared by every command that runs a search engine.
#[derive(Args, Debug, Clone)]
struct SearchArgs {
    /// Engine: auto, table, naive, lv, def, scut, cut, with suffixes _R _E _cE _A (e.g. cut_cEA).
    #[arg(long, default_value = "auto", value_parser = parse_engine)]
    engine: Engine,
    /// Transposition-table capacity in entries (0 = no table; default: unbounded).
    #[arg(long, value_name = "N")]
    tt: Option<usize>,
    /// Eviction policy of a bounded table.
    #[arg(long, value_enum, default_value_t = Policy::Clock)]
    tt_policy: Policy,
    /// Move order: heuristic puts small subtrees first.
    #[arg(long, value_enum, default_value_t = MoveOrder::Heuristic)]
    order: MoveOrder,
    /// Search the plain game tree, as the pruning paper measured it: no symmetry, no
    /// splitting into components, no theorem shortcuts.
    #[arg(long)]
    bare: bool,
    /// Do not key the table by canonical forms under the automorphism group.
    #[arg(long)]
    no_symmetry: bool,
    /// Do not split positions into independent components.
    #[arg(long)]
    no_split: bool,
    /// Do not use values known by theorem (xor of unjoined piles, equal piles on a circuit).
    #[arg(long)]
    no_shortcuts: bool,
    /// Worker threads for box tabulation (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Memory limit for box tabulation in GiB (default: 80% of available memory).
    #[arg(long, value_name = "GIB")]
    mem_limit: Option<f64>,
}

fn parse_engine(s: &str) -> Result<Engine, String> {
    s.parse()
}

impl SearchArgs {
    fn config(&self) -> SearchConfig {
        let base = if self.bare {
            SearchConfig::bare()
        } else {
            SearchConfig::default()
        };
        SearchConfig {
            tt: TtConfig {
                capacity: self.tt,
                policy: self.tt_policy,
            },
            order: self.order,
            symmetry: base.symmetry && !self.no_symmetry,
            split: base.split && !self.no_split,
            shortcuts: base.shortcuts && !self.no_shortcuts,
        }
    }

    fn threads(&self) -> Result<usize, Error> {
        match self.threads {
            Some(0) => Err(Error::Usage("--threads must be at least 1".into())),
            Some(n) => Ok(n),
            None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
        }
    }

    fn memory_limit(&self) -> Result<u64, Error> {
        match self.mem_limit {
            Some(g) if g.is_finite() && g > 0.0 => Ok((g * (1u64 << 30) as f64) as u64),
            Some(g) => Err(Error::Usage(format!(
                "--mem-limit must be a positive number of GiB, got {g}"
            ))),
            None => Ok(crate::sg::table::available_memory() / 5 * 4),
        }
    }
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return 0;
        }
        Err(e) => {
            // One line: clap's first line names the problem; its usage hint is noise here.
            let text = e.render().to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or("bad arguments")
                .trim_start_matches("error: ");
            eprintln!("grundy: error: {first} (see grundy --help)");
            return 2;
        }
    };
    let result = match &cli.command {
        Command::Sg(args) => sg::run(args),
        Command::Table(args) => table::run(args),
        Command::Info(args) => info::run(args),
        Command::Synth(args) => synth::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Decode(args) => decode::run(args),
    };
    match result {
        Ok(()) => 0,
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(Error::Failed(msg)) => {
            eprintln!("grundy: {msg}");
            1
        }
        Err(e) => {
            eprintln!("grundy: error: {e}");
            2
        }
    }
}

/// Parses a position typed as `3,0,3`, `3 0 3` or a mix.
fn parse_position(words: &[String]) -> Result<Vec<u64>, Error> {
    let mut out = Vec::new();
    for word in words {
        for item in word
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
        {
            match item.parse::<i64>() {
                Ok(v) if v < 0 => return Err(Error::Position(format!("negative entry `{item}`"))),
                Ok(v) => out.push(v as u64),
                Err(_) => return Err(Error::Position(format!("`{item}` is not a whole number"))),
            }
        }
    }
    if out.is_empty() {
        return Err(Error::Position("the position is empty".into()));
    }
    Ok(out)
}

/// Formats a position as `3,0,3`.
fn format_position(p: &[u32]) -> String {
    p.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Peak resident memory of this process in bytes (Linux), for `--stats`.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
