//! Every position of a box valued by one search engine, its table shared between positions.
//!
//! The independent counterpart of box tabulation: `verify` re-derives values this way so a
//! program is never checked against the engine that produced its data.

use indicatif::{ProgressBar, ProgressStyle};

use super::{with_deep_stack, SearchConfig, SearchEngine, Stats};
use crate::error::Error;
use crate::game::hypergraph::{HypergraphNim, Stones};
use crate::game::Nimber;
use crate::units::format_bytes;

/// Row-major successor in the box, last coordinate fastest.
pub fn advance(p: &mut [u32], dims: &[usize]) {
    for (x, &d) in p.iter_mut().zip(dims).rev() {
        *x += 1;
        if (*x as usize) < d {
            return;
        }
        *x = 0;
    }
}

/// Values every position of the box `dims` with `engine`, row-major; refuses up front when the
/// values alone would exceed `memory_limit` bytes.
pub fn sweep(
    game: &HypergraphNim,
    engine: SearchEngine,
    cfg: SearchConfig,
    dims: &[usize],
    memory_limit: u64,
    progress: bool,
) -> Result<(Stats, Vec<Nimber>), Error> {
    let count = dims
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(|| Error::Resource("the box has too many positions to count".into()))?;
    let bytes = count as u64 * std::mem::size_of::<Nimber>() as u64;
    if bytes > memory_limit {
        return Err(Error::Resource(format!(
            "the box needs {} for its values alone; the limit is {}",
            format_bytes(bytes),
            format_bytes(memory_limit)
        )));
    }
    let bar = if progress {
        ProgressBar::new(count as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions, eta {eta}")
            .expect("valid template"),
    );
    let result = with_deep_stack(|| {
        let mut searcher = engine.searcher(game, cfg);
        let mut p: Stones = std::iter::repeat_n(0, dims.len()).collect();
        let mut values = Vec::with_capacity(count);
        for i in 0..count {
            values.push(searcher.nimber(p.clone()));
            advance(&mut p, dims);
            if i % 4096 == 0 {
                bar.set_position(i as u64);
            }
        }
        (searcher.stats(), values)
    });
    bar.finish_and_clear();
    Ok(result)
}
