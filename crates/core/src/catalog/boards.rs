//! Cram and Chomp as the commands see them: one count per row (Cram, the row's empty cells
//! as a bit mask) or per column (Chomp, its height), while the engines search positions
//! packed into one word.

use crate::catalog::solve::Choice;
use crate::catalog::{AnyGame, Notation, PositionSearcher, Rules, Tabulation, Valuation};
use crate::error::Error;
use crate::game::board::cram::{Cells, MAX_COLS};
use crate::game::board::{format_board, parse_board, Chomp, Cram};
use crate::game::symmetry::Symmetry;
use crate::game::{Game, MoveOrder, Nimber, Record, Stones};
use crate::sg::checkpoint::{self, Loaded, Plan, Saved};
use crate::sg::deal::{self, Link, Serve};
use crate::sg::table::TableOptions;
use crate::sg::{Engine, SearchConfig, SearchEngine, Searcher, Stats};
use crate::stop::{Stop, Stopped};

/// A board game whose engines see a position as one word, while the commands see one count
/// per row (Cram) or column (Chomp).
trait Packing: Game<Position: Record> {
    /// The word of a position given by its counts.
    fn packed(&self, counts: &[u32]) -> Self::Position;
}

/// A search engine over packed positions, behind the commands' counts.
struct Packed<'g, G: Packing> {
    game: &'g G,
    inner: Box<dyn Searcher<G> + 'g>,
}

impl<G: Packing> PositionSearcher for Packed<'_, G> {
    fn try_nimber(&mut self, p: Stones) -> Result<Nimber, Stopped> {
        let p = self.game.packed(&p);
        self.inner.try_nimber(p)
    }

    fn set_stop(&mut self, stop: Stop) {
        self.inner.set_stop(stop);
    }

    fn stats(&self) -> Stats {
        self.inner.stats()
    }

    fn keep(&mut self, game: &str, plan: &Plan) -> Result<Loaded, Error> {
        checkpoint::keep(self.inner.as_mut(), game, plan)
    }

    fn save(&self, game: &str, plan: &Plan) -> Result<Saved, Error> {
        checkpoint::save(&plan.path, game, self.inner.known())
    }
}

/// `engine` on `game`'s words, for the commands.
fn packed_searcher<G: Packing>(
    game: &G,
    engine: SearchEngine,
    cfg: SearchConfig,
) -> Box<dyn PositionSearcher + '_> {
    Box::new(Packed {
        game,
        inner: engine.searcher(game, cfg),
    })
}

/// The searchers of [`Valuation`] for a board game of packed words.
macro_rules! packed_searchers {
    () => {
        fn searcher(
            &self,
            engine: SearchEngine,
            cfg: SearchConfig,
        ) -> Box<dyn PositionSearcher + '_> {
            packed_searcher(self, engine, cfg)
        }

        fn dealer<'a>(
            &'a self,
            engine: SearchEngine,
            cfg: SearchConfig,
            threads: usize,
            link: &'a Link<'a>,
        ) -> Option<Result<Box<dyn PositionSearcher + 'a>, Error>> {
            packed_dealer(self, engine, cfg, threads, link)
        }

        fn server(&self, engine: SearchEngine, cfg: SearchConfig) -> Option<Box<dyn Serve + '_>> {
            deal::server(engine, self, cfg)
        }
    };
}

/// `engine` on `game`'s words on rank 0 of an MPI job, for [`Valuation::dealer`].
fn packed_dealer<'g, G: Packing>(
    game: &'g G,
    engine: SearchEngine,
    cfg: SearchConfig,
    threads: usize,
    link: &'g Link<'g>,
) -> Option<Result<Box<dyn PositionSearcher + 'g>, Error>> {
    let made = deal::dealer(engine, game, cfg, threads, link)?;
    Some(
        made.map(|inner| Box::new(Packed { game, inner }) as Box<dyn PositionSearcher>)
            .map_err(Error::internal),
    )
}

/// What `auto` runs on a board: `engine`, with the reason shown to the user.
fn auto_choice(engine: SearchEngine, reason: &str) -> Choice {
    Choice {
        engine: Engine::Search(engine),
        reason: Some(reason.into()),
    }
}

/// Cram on `rows` x `cols` in the narrowest word that holds the board: boards of up to 64 cells
/// pay nothing for the wider one.
pub(super) fn cram_any_width(
    name: &str,
    rows: usize,
    cols: usize,
) -> Result<Box<dyn AnyGame>, Error> {
    if cols > MAX_COLS {
        return Err(Error::spec(format!(
            "{name}: {cols} columns; boards of up to {MAX_COLS} columns are supported"
        )));
    }
    Ok(match rows.saturating_mul(cols) <= u64::BITS as usize {
        true => Box::new(Cram::<u64>::new(name, rows, cols)?),
        false => Box::new(Cram::<u128>::new(name, rows, cols)?),
    })
}

impl Packing for Chomp {
    fn packed(&self, counts: &[u32]) -> u64 {
        self.pack(counts)
    }
}

impl Notation for Chomp {
    fn name(&self) -> &str {
        &self.name
    }

    fn variables(&self) -> usize {
        self.cols
    }

    fn coordinate(&self) -> (&'static str, &'static str) {
        ("column", "columns")
    }

    fn describe_variables(&self) -> String {
        let last = self.cols - 1;
        format!(
            "x0..x{last} are the heights of columns 0..{last} of {} from the left",
            self.name
        )
    }

    fn position(&self, values: &[u64]) -> Result<Stones, Error> {
        if values.len() != self.cols {
            return Err(Error::position(format!(
                "the position has {} column heights but {} has {} columns",
                values.len(),
                self.name,
                self.cols
            )));
        }
        if values[0] == 0 {
            return Err(Error::position(
                "the first column holds the poisoned cell: its height is at least 1",
            ));
        }
        for (c, w) in values.windows(2).enumerate() {
            if w[1] > w[0] {
                return Err(Error::position(format!(
                    "column {} is higher than column {c}: heights never grow to the right",
                    c + 1
                )));
            }
        }
        if values[0] > self.rows as u64 {
            return Err(Error::position(format!(
                "a column of {} cells on a board of {} rows",
                values[0], self.rows
            )));
        }
        Ok(values.iter().map(|&h| h as u32).collect())
    }

    fn start(&self) -> Option<Stones> {
        Some(std::iter::repeat_n(self.rows as u32, self.cols).collect())
    }

    /// The board from its top row down: `o` a cell left, `x` the poisoned cell, `.` eaten.
    fn draw_position(&self, p: &[u32]) -> String {
        (0..self.rows as u32)
            .rev()
            .map(|r| {
                p.iter()
                    .enumerate()
                    .map(|(c, &h)| match (r, c) {
                        (0, 0) => 'x',
                        _ if h > r => 'o',
                        _ => '.',
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The cell eaten, as (row, column) from the poisoned corner, from 0.
    fn describe_move(&self, p: &[u32], q: &[u32]) -> String {
        match p.iter().zip(q).position(|(a, b)| a != b) {
            Some(c) => format!("eat ({},{c}) and every cell above and right of it", q[c]),
            None => "no change".into(),
        }
    }
}

impl Rules for Chomp {
    fn symmetry(&self) -> &Symmetry {
        &self.identity
    }

    fn successors(&self, p: &Stones, order: MoveOrder, out: &mut Vec<Stones>) {
        let mut packed = Vec::new();
        self.moves(&self.pack(p), order, &mut packed);
        out.extend(packed.into_iter().map(|q| self.unpack(q)));
    }

    fn move_count(&self, p: &Stones) -> usize {
        Game::move_count(self, &self.pack(p))
    }
}

impl Valuation for Chomp {
    /// Every move eats at least one cell.
    fn depth(&self, p: &Stones) -> Option<u64> {
        Some(p.iter().map(|&h| u64::from(h)).sum())
    }

    packed_searchers!();

    fn theorem(&self, p: &Stones) -> Option<(Nimber, &'static str)> {
        let v = self.l_value(self.pack(p))?;
        Some((
            v,
            "an L (the first column and the bottom row): nim with two heaps",
        ))
    }

    fn auto(&self, _: &Stones, _: &SearchConfig, _: &TableOptions) -> Result<Choice, Error> {
        // Chomp's values are large (16 on 4 x 6), so pruning rarely cuts and its extra look-ups
        // cost more than they save: the plain definition is 10 times faster than lv on 10 x 10.
        Ok(auto_choice(
            SearchEngine::Naive,
            "Chomp: large values leave little to prune, the definition is fastest",
        ))
    }
}

impl Tabulation for Chomp {}

impl<W: Cells> Packing for Cram<W> {
    fn packed(&self, counts: &[u32]) -> W {
        self.pack(counts)
    }
}

impl<W: Cells> Notation for Cram<W> {
    fn name(&self) -> &str {
        &self.name
    }

    fn variables(&self) -> usize {
        self.rows
    }

    fn coordinate(&self) -> (&'static str, &'static str) {
        ("row", "rows")
    }

    fn describe_variables(&self) -> String {
        let last = self.rows - 1;
        format!(
            "x0..x{last} are the empty cells of rows 0..{last} of {} as bit masks (bit c: column c)",
            self.name
        )
    }

    fn position(&self, values: &[u64]) -> Result<Stones, Error> {
        if values.len() != self.rows {
            return Err(Error::position(format!(
                "the position has {} rows but {} has {}",
                values.len(),
                self.name,
                self.rows
            )));
        }
        let limit = 1u64 << self.cols;
        values
            .iter()
            .map(|&v| match v < limit {
                true => Ok(v as u32),
                false => Err(Error::position(format!(
                    "row mask {v} has cells past column {} (at most {})",
                    self.cols - 1,
                    limit - 1
                ))),
            })
            .collect()
    }

    fn start(&self) -> Option<Stones> {
        Some(self.unpack(self.full))
    }

    fn read_position(&self, words: &[String]) -> Result<Stones, Error> {
        let board = parse_board(words, self.rows, self.cols)?;
        let masks: Vec<u64> = board
            .iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .fold(0, |m, (c, &e)| m | (e as u64) << c)
            })
            .collect();
        self.position(&masks)
    }

    fn format_position(&self, p: &[u32]) -> String {
        format_board(
            p.iter()
                .map(|&m| (0..self.cols).map(|c| m >> c & 1 == 1).collect()),
        )
    }

    fn draw_position(&self, p: &[u32]) -> String {
        self.format_position(p).replace('/', "\n")
    }

    /// The cells the domino covers, as (row, column) from the top left, from 0.
    fn describe_move(&self, p: &[u32], q: &[u32]) -> String {
        let cells: Vec<String> = p
            .iter()
            .zip(q)
            .enumerate()
            .flat_map(|(r, (&a, &b))| {
                (0..self.cols)
                    .filter(move |c| (a ^ b) >> c & 1 == 1)
                    .map(move |c| format!("({r},{c})"))
            })
            .collect();
        format!("domino on {}", cells.join(" and "))
    }
}

impl<W: Cells> Rules for Cram<W> {
    fn symmetry(&self) -> &Symmetry {
        &self.identity
    }

    fn successors(&self, p: &Stones, order: MoveOrder, out: &mut Vec<Stones>) {
        let mut boards = Vec::new();
        self.moves(&self.pack(p), order, &mut boards);
        out.extend(boards.into_iter().map(|b| self.unpack(b)));
    }

    fn move_count(&self, p: &Stones) -> usize {
        Game::move_count(self, &self.pack(p))
    }
}

impl<W: Cells> Valuation for Cram<W> {
    /// Every move fills two of the empty cells (a row's set bits).
    fn depth(&self, p: &Stones) -> Option<u64> {
        Some(p.iter().map(|m| u64::from(m.count_ones())).sum::<u64>() / 2)
    }

    packed_searchers!();

    fn theorem(&self, p: &Stones) -> Option<(Nimber, &'static str)> {
        self.fact(self.pack(p)).map(|(v, fact)| (v, fact.why()))
    }

    fn auto(&self, _: &Stones, _: &SearchConfig, _: &TableOptions) -> Result<Choice, Error> {
        // Cram's values are small, where cutting pays: cut_cEA expands 4 to 7 times fewer
        // nodes than lv on 3 x 10, 4 x 7 and 3 x 12 and is 2 to 4 times faster (2aa9f43).
        Ok(auto_choice(
            SearchEngine::Cut("cut_cEA".parse().expect("a paper variant")),
            "Cram: small values, where the pruning search cut_cEA cuts most",
        ))
    }
}

impl<W: Cells> Tabulation for Cram<W> {}
