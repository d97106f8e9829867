//! Sums of a fixed number of heaps under one rule, as the commands see them: `grundy sg
//! subtraction:1,2,3 5,6,7`, a `table` or `synth` box of heaps.

use super::spec::MAX_HEAP;
use super::{searcher, GameKind, Notation, PositionSearcher, Rules, Tabulation, Valuation};
use crate::catalog::solve::Choice;
use crate::error::{Error, Setting};
use crate::game::heap::{HeapGame, HeapRule};
use crate::game::symmetry::Symmetry;
use crate::game::Stones;
use crate::game::{Grid, MoveOrder};
use crate::sg::table::{BoxTable, TableOptions};
use crate::sg::{Engine, SearchConfig, SearchEngine};
use crate::units::format_bytes;

/// The most heaps a sum has: as many counts as a position of any game has at most (a game of
/// hypergraph nim has at most 64 vertices). Every command that works on sums holds positions,
/// boxes or programs of that many counts, so a larger count is refused before any is built.
pub(crate) const MAX_HEAPS: usize = crate::game::hypergraph::MAX_VERTICES;

/// Refuses a number of heaps no sum has: 0, or more than [`MAX_HEAPS`].
pub(crate) fn check_heaps(heaps: usize) -> Result<(), Error> {
    match heaps {
        0 => Err(Error::spec("a sum needs at least one heap")),
        k if k > MAX_HEAPS => Err(Error::Usage(format!(
            "a sum of {k} heaps: at most {MAX_HEAPS} heaps are supported"
        ))),
        _ => Ok(()),
    }
}

/// `heaps` heaps played by one rule; any two heaps may swap.
#[derive(Debug)]
pub struct HeapSum {
    game: HeapGame,
    heaps: usize,
    symmetry: Symmetry,
}

impl HeapSum {
    /// The sum of `heaps` heaps under `rule` (at least one heap, at most `MAX_HEAPS`),
    /// checked before anything of that size is built.
    pub fn new(rule: Box<dyn HeapRule>, heaps: usize) -> Result<Self, Error> {
        check_heaps(heaps)?;
        Ok(HeapSum {
            game: HeapGame::new(rule),
            heaps,
            symmetry: Symmetry::interchangeable(heaps),
        })
    }

    /// The game of any number of heaps, with its cached nim sequence.
    pub fn game(&self) -> &HeapGame {
        &self.game
    }

    /// The value of a sum: the xor of its heaps' values.
    pub fn nimber(&self, p: &[u32]) -> crate::Nimber {
        self.game.nimber(p)
    }
}

impl Notation for HeapSum {
    fn name(&self) -> &str {
        self.game.rule().name()
    }

    fn variables(&self) -> usize {
        self.heaps
    }

    fn coordinate(&self) -> (&'static str, &'static str) {
        ("heap", "heaps")
    }

    fn describe_variables(&self) -> String {
        let last = self.heaps - 1;
        format!(
            "x0..x{last} are the sizes of heaps 0..{last} of {}",
            self.name()
        )
    }

    fn position(&self, values: &[u64]) -> Result<Stones, Error> {
        if values.len() != self.heaps {
            return Err(Error::position(format!(
                "the position has {} heaps but the sum has {}",
                values.len(),
                self.heaps
            )));
        }
        values
            .iter()
            .map(|&v| match u32::try_from(v) {
                Ok(h) if (h as usize) < MAX_HEAP => Ok(h),
                _ => Err(Error::position(format!(
                    "a heap of {v}: heaps are valued up to {}",
                    MAX_HEAP - 1
                ))),
            })
            .collect()
    }

    /// Every point of a box is a position while its heaps are ones the game values (what
    /// [`Notation::position`] checks, without its allocation per point).
    fn is_position(&self, p: &[u32]) -> bool {
        p.len() == self.heaps && p.iter().all(|&h| (h as usize) < MAX_HEAP)
    }
}

impl Rules for HeapSum {
    fn symmetry(&self) -> &Symmetry {
        &self.symmetry
    }

    fn successors(&self, p: &Stones, order: MoveOrder, out: &mut Vec<Stones>) {
        // Positions as typed: the heap played keeps its place (0 when emptied), and the
        // extra heaps of a split follow the others.
        let start = out.len();
        for (i, &h) in p.iter().enumerate() {
            self.game.rule().moves(h, &mut |left| {
                let mut q = p.clone();
                q[i] = left.first().copied().unwrap_or(0);
                q.extend(left.iter().skip(1).copied());
                out.push(q);
            });
        }
        if order == MoveOrder::Heuristic {
            out[start..].sort_by_key(|q| q.iter().map(|&x| x as u64).sum::<u64>());
        }
    }

    /// The moves of each heap, counted by the rule without listing them.
    fn move_count(&self, p: &Stones) -> usize {
        let count = p.iter().fold(0u64, |c, &h| {
            c.saturating_add(self.game.rule().move_count(h))
        });
        usize::try_from(count).unwrap_or(usize::MAX)
    }

    fn kind(&self) -> GameKind<'_> {
        GameKind::Heaps(self)
    }
}

impl Valuation for HeapSum {
    fn searcher(&self, engine: SearchEngine, cfg: SearchConfig) -> Box<dyn PositionSearcher + '_> {
        searcher(&self.game, engine, cfg)
    }

    /// A search with shortcuts values each heap from the nim sequence up to the largest heap;
    /// one that expands the position (no shortcuts, or heaps not split apart) first lists all
    /// its moves. Either is refused before it starts when it would not fit.
    fn fits(&self, p: &Stones, cfg: &SearchConfig, memory_limit: u64) -> Result<(), Error> {
        let top = p.iter().copied().max().unwrap_or(0) as usize;
        if cfg.shortcuts {
            self.game.check_memory(top, memory_limit)?;
        }
        let heaps = p.iter().filter(|&&h| h > 0).count();
        if cfg.shortcuts && (cfg.split || heaps <= 1) {
            return Ok(());
        }
        let moves = self.move_count(p) as u64;
        let bytes = moves.saturating_mul(std::mem::size_of::<crate::game::heap::Heaps>() as u64);
        if bytes > memory_limit {
            return Err(Error::limit(
                Setting::MemoryLimit,
                format!(
                    "a search of {} at {} lists its {moves} moves first, {}; the memory limit \
                     is {}",
                    self.name(),
                    self.format_position(p),
                    format_bytes(bytes),
                    format_bytes(memory_limit)
                ),
            ));
        }
        Ok(())
    }

    fn auto(&self, _: &Stones, cfg: &SearchConfig, _: &TableOptions) -> Result<Choice, Error> {
        let reason = if cfg.split && cfg.shortcuts {
            "a sum of heaps: the xor of each heap's value in the nim sequence"
        } else {
            "searching the sum, as configured"
        };
        Ok(Choice {
            engine: Engine::Search(SearchEngine::Naive),
            reason: Some(reason.into()),
        })
    }
}

impl Tabulation for HeapSum {
    /// Every value of the box is the xor of the nim sequence's values at its heaps.
    fn tabulate(&self, dims: &[usize], opts: &TableOptions) -> Result<BoxTable, Error> {
        let grid = Grid::new(dims)?;
        let top = dims.iter().max().copied().unwrap_or(1);
        if top > MAX_HEAP {
            return Err(Error::Resource(format!(
                "heaps are valued up to {}",
                MAX_HEAP - 1
            )));
        }
        // The box's values, and the nim sequence they are read from.
        let bytes =
            (grid.len() as u64 * 4).saturating_add(self.game.rule().valuation_bytes(top - 1));
        if bytes > opts.memory_limit {
            return Err(Error::limit(
                Setting::MemoryLimit,
                format!(
                    "box {grid} needs {}; the limit is {}",
                    format_bytes(bytes),
                    format_bytes(opts.memory_limit)
                ),
            ));
        }
        let sequence = self.game.sequence(top - 1);
        opts.progress.start("positions", grid.len() as u64);
        let mut p = vec![0u32; dims.len()];
        let mut values = Vec::with_capacity(grid.len());
        for _ in 0..grid.len() {
            values.push(p.iter().fold(0, |x, &h| x ^ sequence[h as usize]));
            grid.advance(&mut p);
        }
        opts.progress.advance(grid.len() as u64);
        opts.progress.finish();
        BoxTable::new(grid, values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::solve::solve;
    use crate::game::heap::TakeBreak;

    fn sum(spec: &str, set: &str, heaps: usize) -> HeapSum {
        HeapSum::new(Box::new(TakeBreak::subtraction(spec, set).unwrap()), heaps).unwrap()
    }

    /// The tabulated box, a search of each position and the theorem's xor agree.
    #[test]
    fn tabulation_search_and_xor_agree() {
        let s = sum("subtraction:1,2,3", "1,2,3", 3);
        let t = s.tabulate(&[5, 6, 7], &TableOptions::default()).unwrap();
        let mut bare = s.searcher(SearchEngine::Naive, SearchConfig::bare());
        let mut p = vec![0u32; 3];
        for i in 0..t.len() {
            let want = p.iter().fold(0, |x, &h| x ^ (h % 4));
            assert_eq!(t.value_at(i), Some(want), "{p:?}");
            assert_eq!(bare.nimber(Stones::from_slice(&p)), want, "{p:?}");
            t.grid().advance(&mut p);
        }
    }

    /// Winning moves keep the heaps in place, and every one leads to a zero position.
    #[test]
    fn winning_moves_are_zero_positions_in_place() {
        let s = sum("subtraction:1,2,3", "1,2,3", 3);
        let p = s.position(&[5, 6, 8]).unwrap();
        let cfg = SearchConfig::default();
        let sol = solve(&s, &p, Engine::Auto, cfg, &TableOptions::default(), true).unwrap();
        assert_eq!(sol.nimber, 1 ^ 2);
        let moves = sol.winning_moves.unwrap();
        assert!(!moves.is_empty());
        for q in &moves {
            assert_eq!(q.len(), 3);
            assert_eq!(s.nimber(q), 0, "{q:?}");
        }
        // A heap past the word size is refused with a line, not truncated.
        assert!(s.position(&[1, 2, 1 << 40]).is_err());
        assert!(s.position(&[1, 2]).is_err());
    }

    /// Past the memory limit, valuing the heaps and listing the moves are refused with the
    /// setting that raises it, and the message names no flag.
    #[test]
    fn memory_refusals_carry_their_setting() {
        let s = sum("subtraction:1,2,3", "1,2,3", 3);
        let p = s.position(&[500, 600, 800]).unwrap();
        for cfg in [SearchConfig::default(), SearchConfig::bare()] {
            let e = s.fits(&p, &cfg, 8).unwrap_err();
            assert_eq!(e.raise(), Some(Setting::MemoryLimit), "{e}");
            assert!(!e.to_string().contains("--"), "no flag in the library: {e}");
        }
    }
}
