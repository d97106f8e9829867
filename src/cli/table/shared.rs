//! `grundy table` under mpirun: each rank tabulates its part of the box
//! ([`sg::table::tabulate_part`](grundy_core::sg::table::tabulate_part)) and writes its rows to a part
//! file beside `--out`; rank 0 then joins the parts, slab by slab and rank by rank, into the
//! same bytes one process writes. No rank holds the table, and no part file outlives the run.

use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{zeros_target, TableArgs};
use crate::cli::output::Out;
use crate::cli::{peak_memory, Status};
use grundy_core::catalog::spec::{self, Heaps};
use grundy_core::cluster::Team;
use grundy_core::error::Error;
use grundy_core::files::{self, OutputFile};
use grundy_core::game::Grid;
use grundy_core::sg::engine::Engine;

/// What a rank wrote: its part files and, per slab, the bytes of its rows there.
#[derive(Serialize, Deserialize)]
struct Written {
    rows_path: PathBuf,
    zeros_path: Option<PathBuf>,
    /// Per slab: bytes of rows, bytes of zero rows.
    slabs: Vec<(u64, u64)>,
    rows: u64,
    zero_rows: u64,
}

/// A writer that counts what passes through it.
struct Counted<W> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A part file in `beside`'s directory (which the ranks must share), removed when dropped.
fn part_file(beside: &Path, rank: usize) -> Result<tempfile::NamedTempFile, Error> {
    let dir = beside
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    tempfile::Builder::new()
        .prefix(&format!(".grundy-rank{rank}-"))
        .suffix(".part")
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, e))
}

/// Runs `table` on every rank of `team` (more than one).
pub fn run(args: &TableArgs, team: &dyn Team) -> Result<Status, Error> {
    // The checks and the part files are one settled step: a rank that fails any of them (a
    // path another node does not have) stops every rank before the first collective one.
    let set_up = || {
        let game = spec::parse(&args.game, Heaps::given(args.heaps))?;
        if args.max == 0 {
            return Err(Error::Usage("--max must be at least 1".into()));
        }
        if args.orbits {
            game.symmetry().require_complete()?;
        }
        if !matches!(args.search.engine, Engine::Auto | Engine::Table) {
            return Err(Error::Usage(
                "under mpirun, table shares only the box tabulation (--engine table or auto)"
                    .into(),
            ));
        }
        let Some(out) = args.out.as_deref() else {
            return Err(Error::Usage(
                "under mpirun, table needs --out: each rank writes its part beside it, and \
                 rank 0 joins them"
                    .into(),
            ));
        };
        let zeros = zeros_target(args);
        let mut named = vec![("--out", out)];
        if let Some(z) = &zeros {
            named.push(("the zeros file", z));
        }
        let inputs: Vec<(&str, &Path)> = spec::input_file(&args.game)
            .map(|p| ("the game's file", p))
            .into_iter()
            .collect();
        files::check_outputs(&named, &inputs)?;
        if team.is_root() {
            // Rank 0 writes them, after the work: a path it cannot write fails now.
            named
                .iter()
                .try_for_each(|(_, p)| files::check_writable(p))?;
        }
        let grid = Grid::cube(game.variables(), args.max)?;
        let memory = args.search.table_options(false)?.memory_limit;
        // Both parts beside --out: the zeros file may be a device.
        let rows_part = part_file(out, team.rank())?;
        let zeros_part = match zeros {
            Some(_) => Some(part_file(out, team.rank())?),
            None => None,
        };
        Ok((game, out, zeros, grid, memory, rows_part, zeros_part))
    };
    let (game, out, zeros, grid, memory, mut rows_part, mut zeros_part) = team.settle(set_up())?;
    let start = Instant::now();
    let mut rows_w = Counted {
        inner: BufWriter::with_capacity(1 << 20, rows_part.as_file_mut()),
        bytes: 0,
    };
    let mut zeros_w = zeros_part.as_mut().map(|z| Counted {
        inner: BufWriter::with_capacity(1 << 20, z.as_file_mut()),
        bytes: 0,
    });
    let mut written = Written {
        rows_path: PathBuf::new(),
        zeros_path: None,
        slabs: Vec::new(),
        rows: 0,
        zero_rows: 0,
    };
    let n = grid.dims();
    let mut p = vec![0u32; n];
    let format = args.format;
    let mut emit = |_: usize, first: usize, values: &[u32]| -> Result<(), Error> {
        let before = (rows_w.bytes, zeros_w.as_ref().map_or(0, |z| z.bytes));
        grid.point_into(first, &mut p);
        for &v in values {
            if !args.orbits || game.symmetry().is_canonical(&p) {
                format
                    .row(&mut rows_w, &p, v)
                    .map_err(|e| Error::io(out, e))?;
                written.rows += 1;
                if v == 0 {
                    written.zero_rows += 1;
                    if let Some(z) = zeros_w.as_mut() {
                        format.row(z, &p, v).map_err(|e| Error::io(out, e))?;
                    }
                }
            }
            grid.advance(&mut p);
        }
        let after = (rows_w.bytes, zeros_w.as_ref().map_or(0, |z| z.bytes));
        written.slabs.push((after.0 - before.0, after.1 - before.1));
        Ok(())
    };
    game.tabulate_part(grid.sides(), team, memory, &mut emit)?;
    let flushed = rows_w
        .flush()
        .and_then(|()| zeros_w.as_mut().map_or(Ok(()), Write::flush));
    drop((rows_w, zeros_w));
    team.settle(flushed.map_err(|e| Error::io(out, e)))?;
    let computed = start.elapsed().as_secs_f64();

    written.rows_path = rows_part.path().to_path_buf();
    written.zeros_path = zeros_part.as_ref().map(|z| z.path().to_path_buf());
    let bytes = serde_json::to_vec(&written).map_err(|e| Error::internal(e.to_string()))?;
    let joined = match team.gather(&bytes) {
        Some(all) => join(args, out, zeros.as_deref(), &all, game.variables()),
        None => Ok((0, 0)),
    };
    let (rows, zero_rows) = team.settle(joined)?;
    // Every rank's parts are closed and removed only now, after rank 0 has read them.
    drop((rows_part, zeros_part));
    if args.stats {
        crate::cli::print_rank_stats(team);
    }
    if !team.is_root() {
        return Ok(Status::Answered);
    }
    let seconds = start.elapsed().as_secs_f64();
    let what = if args.orbits {
        "orbit representatives"
    } else {
        "positions"
    };
    if args.json {
        Out::new().json(&serde_json::json!({
            "game": game.name(),
            "box": grid.to_string(),
            "out": out.display().to_string(),
            "zeros_file": zeros.as_ref().map(|z| z.display().to_string()),
            "orbits": args.orbits,
            "rows": rows,
            "zero_rows": zero_rows,
            "engine": "table",
            "nodes": grid.len(),
            "tt_lookups": 0,
            "ranks": team.size(),
            "seconds_compute": computed,
            "seconds": seconds,
            "peak_memory_bytes": peak_memory(),
        }))?;
    } else {
        eprintln!(
            "wrote {rows} {what} ({zero_rows} zero) to {}",
            out.display()
        );
        if let Some(z) = &zeros {
            eprintln!("wrote {zero_rows} zero {what} to {}", z.display());
        }
    }
    Ok(Status::Answered)
}

/// Rank 0: joins every rank's parts (`all`, in rank order) into `out` and `zeros`, slab by slab
/// and rank by rank; returns the rows and zero rows written.
fn join(
    args: &TableArgs,
    out: &Path,
    zeros: Option<&Path>,
    all: &[Vec<u8>],
    n: usize,
) -> Result<(u64, u64), Error> {
    let parts: Vec<Written> = all
        .iter()
        .map(|b| serde_json::from_slice(b).map_err(|e| Error::internal(e.to_string())))
        .collect::<Result<_, _>>()?;
    let slabs = parts.first().map_or(0, |p| p.slabs.len());
    if parts.iter().any(|p| p.slabs.len() != slabs) {
        return Err(Error::internal(
            "the ranks wrote different numbers of slabs",
        ));
    }
    let copy = |target: &Path, paths: Vec<&Path>, len: &dyn Fn(&Written, usize) -> u64| {
        let mut file = OutputFile::create(target)?;
        let mut readers = paths
            .iter()
            .map(|p| {
                let mut f = std::fs::File::open(p).map_err(|e| Error::io(p, e))?;
                f.rewind().map_err(|e| Error::io(p, e))?;
                Ok(BufReader::with_capacity(1 << 20, f))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let w = file.writer();
        args.format.header(w, n).map_err(|e| Error::io(target, e))?;
        for a in 0..slabs {
            for (r, reader) in readers.iter_mut().enumerate() {
                let want = len(&parts[r], a);
                let got = io::copy(&mut reader.by_ref().take(want), w)
                    .map_err(|e| Error::io(target, e))?;
                if got != want {
                    return Err(Error::internal(format!(
                        "rank {r}'s part ended {} bytes early",
                        want - got
                    )));
                }
            }
        }
        Ok(file)
    };
    let rows_paths = parts.iter().map(|p| p.rows_path.as_path()).collect();
    let mut joined = vec![copy(out, rows_paths, &|p, a| p.slabs[a].0)?];
    if let Some(z) = zeros {
        let paths = parts
            .iter()
            .filter_map(|p| p.zeros_path.as_deref())
            .collect();
        joined.push(copy(z, paths, &|p, a| p.slabs[a].1)?);
    }
    // The rows and their zeros are one output: neither appears unless both are whole.
    files::commit_all(joined)?;
    Ok((
        parts.iter().map(|p| p.rows).sum(),
        parts.iter().map(|p| p.zero_rows).sum(),
    ))
}
