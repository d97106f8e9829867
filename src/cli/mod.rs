//! The `grundy` command line: argument parsing and dispatch; each subcommand has its own module.

mod best_move;
mod deadline;
mod decode;
mod games;
mod info;
pub(crate) mod interrupt;
mod output;
mod period;
mod play;
mod plot;
mod progress;
mod prove;
mod report;
mod sg;
mod survey;
mod synth;
mod table;
mod values;
mod verify;
mod writeup;

use std::sync::Arc;

use clap::{Args, CommandFactory, Parser, Subcommand};

use self::values::choice;
use grundy_core::error::Error;
use grundy_core::game::MoveOrder;
use grundy_core::sg::{Engine, Policy, SearchConfig, TtConfig};

/// Sprague-Grundy values, tables and formulas for impartial games.
#[derive(Parser, Debug)]
#[command(
    name = "grundy",
    version,
    about,
    propagate_version = true,
    after_help = after_help()
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The games and the exit codes, below the command list of `grundy --help`.
fn after_help() -> String {
    format!(
        "{}\nExit codes: 0 answered, 1 a check found a counterexample, 2 bad input or a limit, \
         3 undecided within the time limit. With --json every outcome, errors included, is one \
         JSON object on standard output.",
        grundy_core::catalog::spec::help_text()
    )
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The nimber of one position.
    Sg(sg::SgArgs),
    /// Every position of a box [0,D)^n with its nimber, and the zero positions.
    Table(table::TableArgs),
    /// Vertices, faces, circuits and the automorphism group of a game.
    Info(info::InfoArgs),
    /// Every game spec, with an example of each.
    Games(games::GamesArgs),
    /// The shortest stack program classifying zero positions (or giving SG values), proved minimal.
    Synth(synth::SynthArgs),
    /// Check a program against SG values recomputed on a box by a search engine, or against a
    /// data file.
    Verify(verify::VerifyArgs),
    /// Prove for all positions (or refute with a counterexample) that a program is 0 exactly
    /// on the P-positions (or is their indicator, or the SG value) of hypergraph nim or a heap
    /// game.
    Prove(prove::ProveArgs),
    /// Rebuild a program from an external SAT solver's model of an exported CNF, and check it.
    Decode(decode::DecodeArgs),
    /// A heap game's nim sequence, its preperiod and period, and the finite check proving them.
    Period(period::PeriodArgs),
    /// The period of every game of a family, one JSON line each, resumable, with a report.
    Survey(survey::SurveyArgs),
    /// Play a game against the optimal agent (moves from standard input), or agents against
    /// each other.
    Play(play::PlayArgs),
    /// A winning move from a position and where it leads, or that none wins.
    BestMove(best_move::BestMoveArgs),
    /// A picture: SG values on a 2-D slice of positions, or a heap game's nim sequence.
    Plot(plot::PlotArgs),
}

impl Command {
    /// The subcommand's name, as typed.
    fn name(&self) -> &'static str {
        match self {
            Command::Sg(_) => "sg",
            Command::Table(_) => "table",
            Command::Info(_) => "info",
            Command::Games(_) => "games",
            Command::Synth(_) => "synth",
            Command::Verify(_) => "verify",
            Command::Prove(_) => "prove",
            Command::Decode(_) => "decode",
            Command::Period(_) => "period",
            Command::Survey(_) => "survey",
            Command::Play(_) => "play",
            Command::BestMove(_) => "best-move",
            Command::Plot(_) => "plot",
        }
    }

    /// Whether the command shares its work among the ranks of an MPI job.
    fn shares_work(&self) -> bool {
        matches!(
            self,
            Command::Sg(_) | Command::Survey(_) | Command::Synth(_) | Command::Table(_)
        )
    }

    /// Whether `--json` was given: errors are then JSON objects too.
    fn json(&self) -> bool {
        match self {
            Command::Sg(a) => a.json,
            Command::Table(a) => a.json,
            Command::Info(a) => a.json,
            Command::Games(a) => a.json,
            Command::Synth(a) => a.json,
            Command::Verify(a) => a.json,
            Command::Prove(a) => a.json,
            Command::Decode(a) => a.json,
            Command::Period(a) => a.json,
            Command::Survey(a) => a.json,
            Command::Play(a) => a.json,
            Command::BestMove(a) => a.json,
            Command::Plot(a) => a.json,
        }
    }
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
    #[arg(long, value_parser = choice::<Policy>(), default_value = "clock")]
    tt_policy: Policy,
    /// Move order: heuristic puts small subtrees first.
    #[arg(long, value_parser = choice::<MoveOrder>(), default_value = "heuristic")]
    order: MoveOrder,
    /// Shuffle each position's moves in a fixed pseudo-random order (seeded by the
    /// position's hash plus SEED), as the pruning paper's tables without the heuristic.
    #[arg(long, value_name = "SEED")]
    shuffle: Option<u64>,
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
    /// Worker threads for box tabulation, and for the search of one position by `sg` and
    /// `best-move` with naive and the cut family, unbounded table (0 or absent: every core;
    /// for a search, every core where the engine splits its work: naive and the cut variants
    /// with ETC, `auto`'s picks for Chomp and Cram).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Memory limit in GiB (default: 80% of available memory): box tabulation stops at it with
    /// an error; a search's unbounded table stops growing there and replaces entries from then
    /// on (values stay exact; `tt_evictions` counts them).
    #[arg(long, value_name = "GIB")]
    mem_limit: Option<f64>,
}

/// A time limit: a finite number of seconds, 0 or more.
pub(crate) fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1e9).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected a number of seconds from 0 to 10^9, got `{s}`"
        )),
    }
}

fn parse_engine(s: &str) -> Result<Engine, String> {
    s.parse()
}

impl SearchArgs {
    fn config(&self) -> Result<SearchConfig, Error> {
        let base = if self.bare {
            SearchConfig::bare()
        } else {
            SearchConfig::default()
        };
        Ok(SearchConfig {
            tt: TtConfig {
                capacity: self.tt,
                policy: self.tt_policy,
                memory: Some(self.memory_limit()?),
            },
            order: self.order,
            shuffle: self.shuffle,
            symmetry: base.symmetry && !self.no_symmetry,
            split: base.split && !self.no_split,
            shortcuts: base.shortcuts && !self.no_shortcuts,
            threads: 1,
        })
    }

    /// Worker threads: 0 (the default) means every core, as everywhere in grundy.
    fn threads(&self) -> usize {
        self.threads.unwrap_or(0)
    }

    fn memory_limit(&self) -> Result<u64, Error> {
        memory_limit(self.mem_limit)
    }

    /// The nimber of `p` in `game` by the chosen engine, with the winning moves when `moves`
    /// and a progress bar for tabulation when `show`, keeping the search's table and stopping
    /// per `ctl`: what `sg` and `best-move` compute.
    fn solve(
        &self,
        game: &dyn grundy_core::catalog::AnyGame,
        p: &grundy_core::game::Stones,
        moves: bool,
        show: bool,
        ctl: &grundy_core::catalog::solve::Control,
    ) -> Result<grundy_core::catalog::solve::Solution, Error> {
        let opts = self.table_options(show)?;
        // Every core by default where the engine splits its work (`SearchConfig::threads`);
        // the engines that would race (Lazy SMP) search alone unless a number is given.
        let cfg = SearchConfig {
            threads: self.threads(),
            ..self.config()?
        };
        grundy_core::catalog::solve::solve_kept(game, p, self.engine, cfg, &opts, moves, ctl)
    }

    /// Threads and memory limit for tabulation, with a progress bar when `show`.
    fn table_options(&self, show: bool) -> Result<grundy_core::sg::table::TableOptions, Error> {
        Ok(grundy_core::sg::table::TableOptions {
            threads: self.threads(),
            memory_limit: self.memory_limit()?,
            progress: std::sync::Arc::new(progress::Bar::new(show)),
        })
    }
}

/// The game of `spec` and the position `words` type for it (a board game's full board when
/// none is typed), as `sg`, `best-move` and `play` read them; `command` names the command in
/// the message asking for a position.
fn game_and_position(
    spec: &str,
    words: &[String],
    command: &str,
) -> Result<
    (
        Box<dyn grundy_core::catalog::AnyGame>,
        grundy_core::game::Stones,
    ),
    Error,
> {
    grundy_core::catalog::spec::game_at(spec, words)?.ok_or_else(|| {
        Error::Usage(format!(
            "{spec} needs a position, e.g. `grundy {command} {spec} 3,0,3`"
        ))
    })
}

/// `--mem-limit` in bytes: the GiB given, or the library's default (80% of what is available).
fn memory_limit(gib: Option<f64>) -> Result<u64, Error> {
    match gib {
        Some(g) if g.is_finite() && g > 0.0 => Ok((g * (1u64 << 30) as f64) as u64),
        Some(g) => Err(Error::Usage(format!(
            "--mem-limit must be a positive number of GiB, got {g}"
        ))),
        None => Ok(grundy_core::memory::default_limit()),
    }
}

/// What a command that ran to the end found.
#[derive(serde::Serialize, serde::Deserialize)]
pub enum Status {
    /// The answer is printed.
    Answered,
    /// The answer is printed and it is a counterexample to the check asked for (exit code 1);
    /// the message goes to standard error.
    Counterexample(String),
    /// What was established is printed, but the question is open: the time limit or Ctrl-C
    /// came first (exit code 3).
    Undecided,
}

impl Status {
    /// The process exit code of this outcome.
    fn exit_code(&self) -> i32 {
        match self {
            Status::Answered => 0,
            Status::Counterexample(_) => grundy_core::error::Kind::Counterexample.exit_code(),
            Status::Undecided => grundy_core::error::Kind::Timeout.exit_code(),
        }
    }
}

/// Runs the command line; returns the process exit code (0 answered, 1 a counterexample,
/// 2 bad input or a limit, 3 undecided within the time limit).
pub fn main() -> i32 {
    // Under mpirun only rank 0 speaks; the others exit with the same code.
    let root = grundy_core::cluster::launched_rank(|name| std::env::var(name).ok()) == 0;
    interrupt::install(root);
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if root => return usage_error(e),
        Err(e) => return quiet_usage_error(&e),
    };
    let json = cli.command.json();
    interrupt::json_outcome(json);
    let team = match crate::team::join() {
        Ok(team) => team,
        Err(e) if root => return report_error(&e, json),
        Err(e) => return e.kind().exit_code(),
    };
    let result = crate::team::same_build(&*team).and_then(|()| match cli.command.shares_work() {
        false if team.size() > 1 => Err(Error::Usage(format!(
            "grundy {} runs as one process; under mpirun only sg, survey, table and synth \
             share their work among ranks",
            cli.command.name()
        ))),
        _ => dispatch(&cli.command, &team),
    });
    let code = match (team.settle(result), team.is_root()) {
        (Ok(Status::Counterexample(msg)), true) => {
            eprintln!("grundy: {msg}");
            grundy_core::error::Kind::Counterexample.exit_code()
        }
        (Ok(status), _) => status.exit_code(),
        (Err(e), true) => report_error(&e, json),
        (Err(e), false) => e.kind().exit_code(),
    };
    // The team (and with it MPI) is shut down after this, when the ranks may be ended.
    interrupt::answered(code);
    code
}

/// Runs the command on this process's share of the team's work.
fn dispatch(
    command: &Command,
    team: &Arc<dyn grundy_core::cluster::Team>,
) -> Result<Status, Error> {
    match command {
        Command::Sg(args) => sg::run(args, &**team),
        Command::Table(args) => table::run(args, &**team),
        Command::Info(args) => info::run(args),
        Command::Games(args) => games::run(args),
        Command::Synth(args) => synth::run(args, team),
        Command::Verify(args) => verify::run(args),
        Command::Prove(args) => prove::run(args),
        Command::Decode(args) => decode::run(args),
        Command::Period(args) => period::run(args),
        Command::Survey(args) => survey::run(args, &**team),
        Command::Play(args) => play::run(args),
        Command::BestMove(args) => best_move::run(args),
        Command::Plot(args) => plot::run(args),
    }
}

/// The exit code of a usage error on a rank other than 0, which rank 0 reports.
fn quiet_usage_error(e: &clap::Error) -> i32 {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => 0,
        _ => grundy_core::error::Kind::BadInput.exit_code(),
    }
}

/// One line on standard error and, with `--json`, one object `{"error", "kind"}` (and the
/// bound a timeout or an exhausted `--max-len` established) on standard output, unless the
/// command printed its answer with the error in it; the exit code of the error's kind. A
/// closed pipe on standard output is not an error: whoever read the output has what they
/// wanted (a FIFO given as `--out` that closes early is one: the file was not delivered).
fn report_error(e: &Error, json: bool) -> i32 {
    if let Error::Io { source, path } = e {
        if source.kind() == std::io::ErrorKind::BrokenPipe && path.as_os_str() == output::STDOUT {
            return 0;
        }
    }
    eprintln!("grundy: error: {}", output::worded(e));
    // An answer printed with the failure that followed it is the one object already.
    if json && !output::Out::new().outcome_printed() {
        let mut obj = serde_json::json!({});
        output::error_fields(&mut obj, e);
        match e {
            Error::Timeout(u) => {
                obj["lower_bound"] = u.lower_bound.into();
                obj["seconds"] = u.seconds.into();
                if let Some(t) = &u.table {
                    obj["checkpoint"] = serde_json::json!(t);
                }
            }
            Error::LengthLimit { max_len } => obj["lower_bound"] = (max_len + 1).into(),
            _ => {}
        }
        let _ = output::Out::new().json(&obj);
    }
    e.kind().exit_code()
}

/// Help and version go to standard output (exit 0); no arguments at all prints the help
/// (exit 2); anything else is one line naming what is wrong, and a JSON object with `--json`.
fn usage_error(e: clap::Error) -> i32 {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            return 0;
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // `grundy` alone, or a subcommand alone that needs arguments: the help is the answer.
            let _ = output::Out::new().line(format_args!("{}", e.render()));
            return 2;
        }
        _ => {}
    }
    let context = |kind: ContextKind| match e.get(kind) {
        Some(ContextValue::String(s)) => vec![s.clone()],
        Some(ContextValue::Strings(v)) => v.clone(),
        _ => vec![],
    };
    let msg = match e.kind() {
        ErrorKind::MissingRequiredArgument => {
            let missing = context(ContextKind::InvalidArg);
            format!(
                "missing required argument{}: {}",
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", ")
            )
        }
        _ => {
            // clap's first line names the problem; its usage hint is noise here.
            let text = e.render().to_string();
            text.lines()
                .next()
                .unwrap_or("bad arguments")
                .trim_start_matches("error: ")
                .to_string()
        }
    };
    // Not `env::args`, which panics on arguments that are not UTF-8.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let sub = args
        .iter()
        .find(|a| Cli::command().find_subcommand(a.as_str()).is_some());
    let help = match sub {
        Some(s) => format!("grundy {s} --help"),
        None => "grundy --help".to_string(),
    };
    report_error(
        &Error::Usage(format!("{msg} (see {help})")),
        args.iter().any(|a| a == "--json"),
    )
}

/// Prints, from rank 0, every rank's peak memory and the bytes it sent, for `--stats` under
/// mpirun (one line for a single process). Every rank must call it.
fn print_rank_stats(team: &dyn grundy_core::cluster::Team) {
    let mine = [peak_memory().unwrap_or(0), team.bytes_sent()];
    let bytes: Vec<u8> = mine.iter().flat_map(|x| x.to_le_bytes()).collect();
    let Some(all) = team.gather(&bytes) else {
        return;
    };
    for (rank, b) in all.iter().enumerate() {
        let word = |i: usize| {
            b.get(8 * i..8 * i + 8)
                .and_then(|w| w.try_into().ok())
                .map_or(0, u64::from_le_bytes)
        };
        eprintln!(
            "rank {rank}: peak memory {:.1} MiB, sent {} bytes",
            word(0) as f64 / (1u64 << 20) as f64,
            word(1)
        );
    }
}

/// Peak resident memory of this process in bytes (Linux), for `--stats`.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
