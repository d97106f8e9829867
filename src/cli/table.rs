//! `grundy table GAME --max D`: every position of [0,D)^n with its nimber, and the zero positions.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

mod shared;

use super::output::{stdout_error, zeros_path, Format, Out};
use super::{peak_memory, SearchArgs, Status};
use grundy_core::catalog::spec::{self, Heaps};
use grundy_core::catalog::sweep::box_values;
use grundy_core::cluster::Team;
use grundy_core::error::Error;
use grundy_core::files::{self, OutputFile};
use grundy_core::game::Grid;

#[derive(Args, Debug)]
pub struct TableArgs {
    /// Game spec, e.g. path:3, projective-plane (`grundy games` lists them all).
    game: String,
    /// Box size: every vertex holds 0..D-1 stones (every heap 0..D-1 tokens).
    #[arg(long, value_name = "D")]
    max: usize,
    /// For a heap game: the number of heaps in a position.
    #[arg(long, value_name = "N")]
    heaps: Option<usize>,
    /// Write one representative per symmetry orbit (the least member) instead of every position.
    #[arg(long)]
    orbits: bool,
    /// Write the table to FILE (default: standard output).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write the zero positions to FILE (default with --out: FILE's name plus `.zeros` before
    /// the extension; none when --out is a device or FIFO).
    #[arg(long, value_name = "FILE")]
    zeros: Option<PathBuf>,
    /// Row format.
    #[arg(long, value_enum, default_value_t = Format::Tsv)]
    format: Format,
    #[command(flatten)]
    search: SearchArgs,
    /// Print engine, time, work and peak memory to standard error.
    #[arg(long)]
    stats: bool,
    /// Print one JSON object (what was written, the counts, the engine and its work) instead
    /// of messages on standard error; the rows go to --out, which it needs.
    #[arg(long, requires = "out")]
    pub json: bool,
}

/// The zeros file: `--zeros`, or beside a regular `--out` file (a device or FIFO given as
/// `--out` gets no zeros file unless `--zeros` names one).
fn zeros_target(args: &TableArgs) -> Option<PathBuf> {
    args.zeros.clone().or_else(|| {
        args.out
            .as_deref()
            .filter(|p| !files::is_special(p))
            .map(zeros_path)
    })
}

/// Runs `table`; under mpirun with more than one rank, each tabulates and writes its part
/// (`shared.rs`).
pub fn run(args: &TableArgs, team: &dyn Team) -> Result<Status, Error> {
    if team.size() > 1 {
        return shared::run(args, team);
    }
    let game = spec::parse(&args.game, Heaps::given(args.heaps))?;
    let n = game.variables();
    if args.max == 0 {
        return Err(Error::Usage("--max must be at least 1".into()));
    }
    if args.orbits {
        game.symmetry().require_complete()?;
    }
    let grid = Grid::cube(n, args.max)?;
    let opts = args.search.table_options(!args.json)?;
    // Outputs are checked and created before the long computation, so a bad path fails fast.
    let zeros = zeros_target(args);
    let mut named: Vec<(&str, &Path)> = Vec::new();
    if let Some(p) = &args.out {
        named.push(("--out", p));
    }
    if let Some(p) = &zeros {
        named.push((
            if args.zeros.is_some() {
                "--zeros"
            } else {
                "the zeros file"
            },
            p,
        ));
    }
    let inputs: Vec<(&str, &Path)> = spec::input_file(&args.game)
        .map(|p| ("the game's file", p))
        .into_iter()
        .collect();
    files::check_outputs(&named, &inputs)?;
    let mut out = args.out.as_deref().map(OutputFile::create).transpose()?;
    let mut zeros = zeros.as_deref().map(OutputFile::create).transpose()?;

    let start = Instant::now();
    let (engine, stats, table) = box_values(
        game.as_ref(),
        &grid,
        args.search.engine,
        args.search.config()?,
        &opts,
    )?;
    let computed = start.elapsed().as_secs_f64();

    let mut stdout = Out::new();
    let mut lock;
    let w: &mut dyn Write = match out.as_mut() {
        Some(f) => f.writer(),
        None => {
            lock = io::BufWriter::with_capacity(1 << 20, stdout.raw());
            &mut lock
        }
    };
    let io_err = |e: io::Error| match &args.out {
        Some(p) => Error::io(p, e),
        None => stdout_error(e),
    };
    // Standard output closed early (`| head`) no longer wants rows; a zeros file is still
    // written whole, and without one the run ends quietly.
    let zeros_pending = zeros.is_some();
    let mut rows_wanted = true;
    let emit = |written: io::Result<()>, wanted: &mut bool| match written {
        Err(e) if args.out.is_none() && zeros_pending && e.kind() == io::ErrorKind::BrokenPipe => {
            *wanted = false;
            Ok(())
        }
        other => other.map_err(io_err),
    };
    let zeros_path = zeros.as_ref().map(|z| z.path().to_path_buf());
    let zeros_err = |e: io::Error| Error::io(zeros_path.as_deref().unwrap_or(Path::new("")), e);
    emit(args.format.header(w, n), &mut rows_wanted)?;
    if let Some(z) = zeros.as_mut() {
        args.format.header(z.writer(), n).map_err(zeros_err)?;
    }
    let (mut rows, mut zero_rows) = (0u64, 0u64);
    let mut p = vec![0u32; n];
    for v in table.entries() {
        // Points of the box that are not positions of the game (Chomp's heights growing to
        // the right) have no value and no row.
        let shown = v.filter(|_| !args.orbits || game.symmetry().is_canonical(&p));
        if let Some(v) = shown {
            if rows_wanted {
                emit(args.format.row(w, &p, v), &mut rows_wanted)?;
            }
            rows += 1;
            if v == 0 {
                zero_rows += 1;
                if let Some(z) = zeros.as_mut() {
                    args.format.row(z.writer(), &p, v).map_err(zeros_err)?;
                }
            }
        }
        grid.advance(&mut p);
    }
    if rows_wanted {
        emit(w.flush(), &mut rows_wanted)?;
    }
    let what = if args.orbits {
        "orbit representatives"
    } else {
        "positions"
    };
    let out_path = out.as_ref().map(|f| f.path().display().to_string());
    let zeros_path = zeros.as_ref().map(|z| z.path().display().to_string());
    // The rows and their zeros are one output: neither appears unless both are whole.
    files::commit_all(out.into_iter().chain(zeros).collect())?;
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        Out::new().json(&serde_json::json!({
            "game": game.name(),
            "box": grid.to_string(),
            "out": out_path,
            "zeros_file": zeros_path,
            "orbits": args.orbits,
            "rows": rows,
            "zero_rows": zero_rows,
            "engine": engine,
            "nodes": stats.nodes,
            "tt_lookups": stats.tt_lookups,
            "tt_evictions": stats.tt_evictions,
            "seconds_compute": computed,
            "seconds": seconds,
            "peak_memory_bytes": peak_memory(),
        }))?;
        return Ok(Status::Answered);
    }
    if let Some(path) = out_path {
        eprintln!("wrote {rows} {what} ({zero_rows} zero) to {path}");
    }
    if let Some(path) = zeros_path {
        eprintln!("wrote {zero_rows} zero {what} to {path}");
    }
    if args.stats {
        eprintln!("engine: {engine}");
        eprintln!("positions: {}", table.position_count());
        eprintln!("nodes: {}", stats.nodes);
        eprintln!("tt_lookups: {}", stats.tt_lookups);
        eprintln!("tt_evictions: {}", stats.tt_evictions);
        eprintln!("seconds (compute): {computed:.3}");
        eprintln!("seconds (total): {seconds:.3}");
        if let Some(m) = peak_memory() {
            eprintln!("peak memory: {:.1} MiB", m as f64 / (1u64 << 20) as f64);
        }
    }
    Ok(Status::Answered)
}
