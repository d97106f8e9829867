//! Every position of a box valued by one search engine, its table shared between positions.
//!
//! The independent counterpart of box tabulation: `verify` re-derives values this way so a
//! program is never checked against the engine that produced its data.

use super::{AnyGame, Notation, Valuation};
use crate::error::Error;
use crate::game::Stones;
use crate::game::{Grid, Nimber};
use crate::progress::Progress;
use crate::sg::engine::Engine;
use crate::sg::table::{BoxTable, TableOptions};
use crate::sg::{with_deep_stack, SearchConfig, SearchEngine, Stats};
use crate::units::format_bytes;

/// Positions between progress reports.
const REPORT_EVERY: usize = 4096;

/// Values every point of `grid` that is a position of the game ([`Notation::is_position`])
/// with `engine`, as a table; refuses up front when the values alone would exceed
/// `memory_limit` bytes.
pub fn sweep<G: Notation + Valuation + Sync + ?Sized>(
    game: &G,
    engine: SearchEngine,
    cfg: SearchConfig,
    grid: &Grid,
    memory_limit: u64,
    progress: &dyn Progress,
) -> Result<(Stats, BoxTable), Error> {
    let count = grid.len();
    let bytes = count as u64 * (std::mem::size_of::<Nimber>() + 1) as u64;
    if bytes > memory_limit {
        return Err(Error::Resource(format!(
            "the box needs {} for its values alone; the limit is {}",
            format_bytes(bytes),
            format_bytes(memory_limit)
        )));
    }
    let start = std::time::Instant::now();
    progress.start("positions", count as u64);
    let result = with_deep_stack(|| {
        let mut searcher = game.searcher(engine, cfg);
        let mut p: Stones = std::iter::repeat_n(0, grid.dims()).collect();
        let mut values = Vec::with_capacity(count);
        let mut positions = Vec::with_capacity(count);
        for i in 0..count {
            if progress.stopped() {
                return None;
            }
            // A point that is no position is never searched: its "moves" may reach real
            // positions and leave wrong values for them in the shared table.
            let position = game.is_position(&p);
            values.push(if position {
                searcher.nimber(p.clone())
            } else {
                0
            });
            positions.push(position);
            grid.advance(&mut p);
            if (i + 1) % REPORT_EVERY == 0 {
                progress.advance(REPORT_EVERY as u64);
            }
        }
        Some((searcher.stats(), values, positions))
    });
    progress.finish();
    let Some((stats, values, positions)) = result else {
        return Err(Error::stopped("the table", start.elapsed().as_secs_f64()));
    };
    Ok((
        stats,
        BoxTable::with_positions(grid.clone(), values, positions)?,
    ))
}

/// Every position of `grid` valued by `engine`: tabulated for `auto` and `table`, else swept by
/// the search engine named; with the engine that ran and what it did. What `table` computes.
pub fn box_values<G: AnyGame + ?Sized>(
    game: &G,
    grid: &Grid,
    engine: Engine,
    cfg: SearchConfig,
    opts: &TableOptions,
) -> Result<(String, Stats, BoxTable), Error> {
    match engine {
        Engine::Auto | Engine::Table => {
            let t = game.tabulate(grid.sides(), opts)?;
            let stats = Stats {
                nodes: t.position_count() as u64,
                ..Stats::default()
            };
            Ok(("table".to_string(), stats, t))
        }
        Engine::Search(s) => {
            let (stats, table) = sweep(
                game,
                s,
                cfg,
                grid,
                opts.memory_limit,
                opts.progress.as_ref(),
            )?;
            Ok((s.to_string(), stats, table))
        }
    }
}

/// Values the given positions with `engine`, in order, its table shared between them: the
/// members of a family (`verify --family`), where the box around them would be far larger.
pub fn values_of<G: AnyGame + ?Sized>(
    game: &G,
    engine: SearchEngine,
    cfg: SearchConfig,
    positions: &[Stones],
    progress: &dyn Progress,
) -> (Stats, Vec<Nimber>) {
    progress.start("positions", positions.len() as u64);
    let result = with_deep_stack(|| {
        let mut searcher = game.searcher(engine, cfg);
        let mut values = Vec::with_capacity(positions.len());
        for (i, p) in positions.iter().enumerate() {
            values.push(searcher.nimber(p.clone()));
            if (i + 1) % REPORT_EVERY == 0 {
                progress.advance(REPORT_EVERY as u64);
            }
        }
        (searcher.stats(), values)
    });
    progress.finish();
    result
}
