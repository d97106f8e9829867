//! Any game the command line can name, behind one object-safe trait.
//!
//! The commands (`sg`, `table`, `synth`, `verify`) work on positions written as vectors of
//! counts (stones per vertex, heap sizes) and never on a concrete game type: the spec registry
//! ([`crate::catalog::spec`]) hands out a `Box<dyn AnyGame>`. A game implements [`crate::Game`] for
//! the engines and this trait for the commands; everything past the required methods has a
//! default that works for any game, which a game overrides where it knows better (hypergraph
//! nim tabulates whole boxes by its own recurrence and prices `auto`'s choice).

use super::solve::{self, Choice};
use super::sweep::sweep;
use super::HeapSum;
use crate::cluster::Team;
use crate::error::Error;
use crate::game::symmetry::Symmetry;
use crate::game::{Game, Grid, MoveOrder, Nimber};
use crate::game::{HypergraphNim, Stones};
use crate::sg::checkpoint::{self, Loaded, Plan, Saved};
use crate::sg::deal::{self, Link, Serve};
use crate::sg::engine::{Engine, SearchEngine};
use crate::sg::table::{self, BoxTable, Emit, TableOptions};
use crate::sg::{SearchConfig, Searcher, Stats};
use crate::stop::{Stop, Stopped};

/// A search engine over positions written as counts, whatever the game's type: what
/// [`Valuation::searcher`] hands out.
pub trait PositionSearcher {
    /// The nimber of `p`, or [`Stopped`] once the token of [`Self::set_stop`] is stopped first.
    fn try_nimber(&mut self, p: Stones) -> Result<Nimber, Stopped>;
    /// The nimber of `p`, for a search given no stop token (which always finishes).
    fn nimber(&mut self, p: Stones) -> Nimber {
        self.try_nimber(p)
            .expect("a search without a stop token runs to its end")
    }
    /// Has the search end with [`Stopped`] once `stop` is stopped.
    fn set_stop(&mut self, stop: Stop);
    /// Work done so far.
    fn stats(&self) -> Stats;
    /// Keeps the table in `plan`'s file as a table of `game` ([`checkpoint::keep`]): what it
    /// learned there.
    fn keep(&mut self, game: &str, plan: &Plan) -> Result<Loaded, Error>;
    /// Saves the table to `plan`'s file now.
    fn save(&self, game: &str, plan: &Plan) -> Result<Saved, Error>;
}

/// A game as the commands see it, one trait over four concerns: how its positions are written
/// ([`Notation`]), its moves and symmetries ([`Rules`]), how one position is valued
/// ([`Valuation`]) and how a box is ([`Tabulation`]). Every type with the four has it (a blanket
/// implementation), so a game implements those and the commands take `&dyn AnyGame`.
pub trait AnyGame: Notation + Rules + Valuation + Tabulation + Send + Sync {}

impl<T: Notation + Rules + Valuation + Tabulation + Send + Sync + ?Sized> AnyGame for T {}

/// How a game's positions are written: a name, a fixed number of counts, the checks that make a
/// vector of counts a position, and the text forms players type and read.
pub trait Notation {
    /// The spec it was built from, e.g. `path:3`.
    fn name(&self) -> &str;

    /// Counts in a position.
    fn variables(&self) -> usize;

    /// What one count is, singular and plural (`vertex`, `vertices`), for messages.
    fn coordinate(&self) -> (&'static str, &'static str) {
        ("coordinate", "coordinates")
    }

    /// What `x0..x{n-1}` of a program over its positions stand for, for reports.
    fn describe_variables(&self) -> String {
        let last = self.variables().saturating_sub(1);
        let (_, plural) = self.coordinate();
        format!("x0..x{last} are the {plural} 0..{last} of {}", self.name())
    }

    /// Checks that `values` is a position: the right length, each count in range.
    fn position(&self, values: &[u64]) -> Result<Stones, Error> {
        let n = self.variables();
        if values.len() != n {
            return Err(Error::position(format!(
                "the position has {} entries but {} has {n} {}",
                values.len(),
                self.name(),
                if n == 1 {
                    self.coordinate().0
                } else {
                    self.coordinate().1
                }
            )));
        }
        values
            .iter()
            .map(|&v| {
                u32::try_from(v).map_err(|_| {
                    Error::position(format!(
                        "{v} is too many for one {} (at most {})",
                        self.coordinate().0,
                        u32::MAX
                    ))
                })
            })
            .collect()
    }

    /// Whether the point `p` of a box is a position of the game: the box tables
    /// ([`Tabulation::tabulate`]) value only those. By default, what [`Notation::position`]
    /// accepts; a game whose every point is a position says so faster.
    fn is_position(&self, p: &[u32]) -> bool {
        let counts: Vec<u64> = p.iter().map(|&x| u64::from(x)).collect();
        self.position(&counts).is_ok()
    }

    /// The position a command takes when none is typed (a board game's full board).
    fn start(&self) -> Option<Stones> {
        None
    }

    /// A position as typed on the command line: counts by default (`3,0,3` or `3 0 3`); a
    /// board game reads its board's text form instead.
    fn read_position(&self, words: &[String]) -> Result<Stones, Error> {
        self.position(&parse_counts(words)?)
    }

    /// A position as [`Notation::read_position`] reads it back.
    fn format_position(&self, p: &[u32]) -> String {
        p.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    }

    /// A position as shown to a player: [`Notation::format_position`] by default, a board game
    /// draws its board over several lines.
    fn draw_position(&self, p: &[u32]) -> String {
        self.format_position(p)
    }

    /// The move from `p` to its successor `q` in words, for players: by default the counts
    /// that changed (`vertex 1: 3 -> 1`), and the counts a split added.
    fn describe_move(&self, p: &[u32], q: &[u32]) -> String {
        let (one, _) = self.coordinate();
        let mut parts: Vec<String> = p
            .iter()
            .zip(q)
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, (a, b))| format!("{one} {i}: {a} -> {b}"))
            .collect();
        if q.len() > p.len() {
            let added: Vec<String> = q[p.len()..].iter().map(|x| x.to_string()).collect();
            let plural = if added.len() > 1 { "s" } else { "" };
            parts.push(format!("new {one}{plural}: {}", added.join(", ")));
        }
        parts.join(", ")
    }
}

/// A game's moves and the symmetries of its values.
pub trait Rules {
    /// The permutations of the counts that keep every value: orbit-based synthesis and
    /// canonical forms.
    fn symmetry(&self) -> &Symmetry;

    /// The least member of `x`'s orbit under [`Rules::symmetry`].
    fn canonical_point(&self, x: &[u64]) -> Vec<u64> {
        let mut p = x.to_vec();
        self.symmetry().canonicalize(&mut p);
        p
    }

    /// Appends the successors of `p` to `out`.
    fn successors(&self, p: &Stones, order: MoveOrder, out: &mut Vec<Stones>);

    /// Number of successors of `p`, to refuse listing millions of them.
    fn move_count(&self, p: &Stones) -> usize {
        let mut out = Vec::new();
        self.successors(p, MoveOrder::Natural, &mut out);
        out.len()
    }

    /// Which of the library's kinds of game this is, with its rules, for what only one kind
    /// supports: `info` lists a hypergraph's faces, the prover reads hypergraph nim's and
    /// heap sums' moves as linear arithmetic, `--consts auto` reads a heap game's period.
    fn kind(&self) -> GameKind<'_> {
        GameKind::Other
    }
}

/// How one position of a game is valued: which engine `auto` picks, the searcher it builds,
/// the theorems that answer outright, the memory a valuation needs beyond its table.
pub trait Valuation {
    /// Refuses `p` when valuing it under `cfg` needs more than `memory_limit` bytes in a way
    /// no table bound limits (a heap game's nim sequence up to its largest heap), before any
    /// of it is taken. By default every position fits.
    fn fits(&self, _p: &Stones, _cfg: &SearchConfig, _memory_limit: u64) -> Result<(), Error> {
        Ok(())
    }

    /// The most moves a game from `p` can last, when that is cheap to bound: a search this
    /// shallow runs on the caller's stack (`sg::with_stack_for`). `None`, the default,
    /// when unknown.
    fn depth(&self, _p: &Stones) -> Option<u64> {
        None
    }

    /// A search engine over the game with an empty table ([`searcher`] builds it).
    fn searcher(&self, engine: SearchEngine, cfg: SearchConfig) -> Box<dyn PositionSearcher + '_>;

    /// Rank 0's searcher of `engine` under mpirun, on `threads` threads of its own, dealing
    /// the subtrees below its top plies to the other ranks through `link` ([`deal`]); `None`
    /// where the engine does not deal ([`deal::deals`]) or the game's positions do not travel
    /// (the default). An error when its threads cannot start.
    fn dealer<'a>(
        &'a self,
        _engine: SearchEngine,
        _cfg: SearchConfig,
        _threads: usize,
        _link: &'a Link<'a>,
    ) -> Option<Result<Box<dyn PositionSearcher + 'a>, Error>> {
        None
    }

    /// The other ranks' searcher of what [`Valuation::dealer`] deals them; `None` exactly
    /// where `dealer` is.
    fn server(&self, _engine: SearchEngine, _cfg: SearchConfig) -> Option<Box<dyn Serve + '_>> {
        None
    }

    /// The value of `p` when a theorem of the game gives it outright, with the theorem in a few
    /// words: `auto` then answers with it and builds no searcher. `None`, the default, when no
    /// theorem applies or the game has none to offer here (the engines still use
    /// [`Game::known_value`] at every node they expand).
    fn theorem(&self, _p: &Stones) -> Option<(Nimber, &'static str)> {
        None
    }

    /// Which engine `--engine auto` runs on `p`, and why. By default the reference search.
    fn auto(
        &self,
        _p: &Stones,
        _cfg: &SearchConfig,
        _opts: &TableOptions,
    ) -> Result<Choice, Error> {
        Ok(Choice {
            engine: Engine::Search(SearchEngine::Naive),
            reason: Some("the game has no faster method".into()),
        })
    }
}

/// How a whole box of positions is valued: position by position by default, by a game's own
/// recurrence where it has one (hypergraph nim).
pub trait Tabulation: Notation + Valuation + Sync {
    /// Every value of the box `[0,dims[0]) x ... x [0,dims[n-1])`, none at the points that
    /// are not positions ([`Notation::is_position`]). By default each position is searched,
    /// the engine's table shared between them.
    fn tabulate(&self, dims: &[usize], opts: &TableOptions) -> Result<BoxTable, Error> {
        if dims.len() != self.variables() {
            return Err(Error::internal(format!(
                "a box of {} sides for {} with {} counts",
                dims.len(),
                self.name(),
                self.variables()
            )));
        }
        let grid = Grid::new(dims)?;
        let (_, table) = sweep(
            self,
            SearchEngine::Naive,
            SearchConfig::default(),
            &grid,
            opts.memory_limit,
            opts.progress.as_ref(),
        )?;
        Ok(table)
    }

    /// This rank's part of the box table when `team` shares it (`sg::table::tabulate_part`):
    /// `emit(a, first, values)` per slab `x_0 = a`. Games without a box tabulation refuse.
    fn tabulate_part(
        &self,
        _dims: &[usize],
        _team: &dyn Team,
        _memory_limit: u64,
        _emit: &mut Emit<'_>,
    ) -> Result<(), Error> {
        Err(Error::Usage(format!(
            "{} has no box tabulation to share among ranks; under mpirun, table shares only \
             hypergraph games' tables",
            self.name()
        )))
    }
}

/// What [`Rules::kind`] tells: a kind of game whose rules some commands read beyond its
/// moves, or another game.
#[derive(Clone, Copy)]
pub enum GameKind<'a> {
    /// Nim on a hypergraph (simplicial, circular, plain nim).
    Hypergraph(&'a HypergraphNim),
    /// A sum of heaps of one heap game (subtraction, octal, hex, Grundy's game).
    Heaps(&'a HeapSum),
    /// Any other game (boards, a user's game).
    Other,
}

impl<'a> GameKind<'a> {
    /// The hypergraph game, if this is one.
    pub fn hypergraph(self) -> Option<&'a HypergraphNim> {
        match self {
            GameKind::Hypergraph(g) => Some(g),
            _ => None,
        }
    }

    /// The heap sum, if this is one.
    pub fn heaps(self) -> Option<&'a HeapSum> {
        match self {
            GameKind::Heaps(g) => Some(g),
            _ => None,
        }
    }
}

/// Whole numbers separated by commas or whitespace, the words of a typed position. A comma
/// with no number before or after it (`1,,3`, `1,2,`) is refused, not skipped: a count left
/// out by mistake would otherwise shift the others into the wrong places.
pub(crate) fn parse_counts(words: &[String]) -> Result<Vec<u64>, Error> {
    let text = words.join(" ");
    if text.trim().is_empty() {
        return Err(Error::position("the position is empty"));
    }
    let mut out = Vec::new();
    for field in text.split(',') {
        if field.trim().is_empty() {
            return Err(Error::position(format!(
                "an empty entry in `{}`: write every count, 0 included",
                text.trim()
            )));
        }
        for item in field.split_whitespace() {
            match item.parse::<i64>() {
                Ok(v) if v < 0 => return Err(Error::position(format!("negative entry `{item}`"))),
                Ok(v) => out.push(v as u64),
                Err(_) => return Err(Error::position(format!("`{item}` is not a whole number"))),
            }
        }
    }
    Ok(out)
}

/// A [`Searcher`] of a game whose positions are [`Stones`], behind [`PositionSearcher`].
struct Erased<'g, G: Game>(Box<dyn Searcher<G> + 'g>);

impl<G: Game<Position = Stones>> PositionSearcher for Erased<'_, G> {
    fn try_nimber(&mut self, p: Stones) -> Result<Nimber, Stopped> {
        self.0.try_nimber(p)
    }

    fn set_stop(&mut self, stop: Stop) {
        self.0.set_stop(stop);
    }

    fn stats(&self) -> Stats {
        self.0.stats()
    }

    fn keep(&mut self, game: &str, plan: &Plan) -> Result<Loaded, Error> {
        checkpoint::keep(self.0.as_mut(), game, plan)
    }

    fn save(&self, game: &str, plan: &Plan) -> Result<Saved, Error> {
        checkpoint::save(&plan.path, game, self.0.known())
    }
}

/// `engine` over `game` with an empty table, for [`Valuation::searcher`].
pub fn searcher<'g, G: Game<Position = Stones>>(
    game: &'g G,
    engine: SearchEngine,
    cfg: SearchConfig,
) -> Box<dyn PositionSearcher + 'g> {
    Box::new(Erased(engine.searcher(game, cfg)))
}

/// `engine` over `game` on rank 0 of an MPI job, for [`Valuation::dealer`].
pub fn dealer<'g, G: Game<Position = Stones>>(
    game: &'g G,
    engine: SearchEngine,
    cfg: SearchConfig,
    threads: usize,
    link: &'g Link<'g>,
) -> Option<Result<Box<dyn PositionSearcher + 'g>, Error>> {
    let made = deal::dealer(engine, game, cfg, threads, link)?;
    Some(
        made.map(|s| Box::new(Erased(s)) as Box<dyn PositionSearcher>)
            .map_err(Error::internal),
    )
}

/// Hypergraph nim's counts are the stones on its vertices.
impl Notation for HypergraphNim {
    fn name(&self) -> &str {
        HypergraphNim::name(self)
    }

    fn variables(&self) -> usize {
        self.graph().vertices()
    }

    fn coordinate(&self) -> (&'static str, &'static str) {
        ("vertex", "vertices")
    }

    fn describe_variables(&self) -> String {
        let last = self.variables() - 1;
        format!(
            "x0..x{last} are the stones on vertices 0..{last} of {}",
            self.name()
        )
    }

    /// Every point of a box is a position: stones on each vertex.
    fn is_position(&self, p: &[u32]) -> bool {
        p.len() == self.variables()
    }
}

impl Rules for HypergraphNim {
    fn symmetry(&self) -> &Symmetry {
        HypergraphNim::symmetry(self)
    }

    fn successors(&self, p: &Stones, order: MoveOrder, out: &mut Vec<Stones>) {
        self.moves(p, order, out);
    }

    fn move_count(&self, p: &Stones) -> usize {
        Game::move_count(self, p)
    }

    fn kind(&self) -> GameKind<'_> {
        GameKind::Hypergraph(self)
    }
}

/// `auto` priced between box tabulation and a search ([`super::solve::resolve`]).
impl Valuation for HypergraphNim {
    /// Every move takes at least one stone.
    fn depth(&self, p: &Stones) -> Option<u64> {
        Some(p.iter().map(|&x| u64::from(x)).sum())
    }

    fn searcher(&self, engine: SearchEngine, cfg: SearchConfig) -> Box<dyn PositionSearcher + '_> {
        searcher(self, engine, cfg)
    }

    fn dealer<'a>(
        &'a self,
        engine: SearchEngine,
        cfg: SearchConfig,
        threads: usize,
        link: &'a Link<'a>,
    ) -> Option<Result<Box<dyn PositionSearcher + 'a>, Error>> {
        dealer(self, engine, cfg, threads, link)
    }

    fn server(&self, engine: SearchEngine, cfg: SearchConfig) -> Option<Box<dyn Serve + '_>> {
        deal::server(engine, self, cfg)
    }

    fn theorem(&self, p: &Stones) -> Option<(Nimber, &'static str)> {
        HypergraphNim::theorem(self, p)
    }

    fn auto(&self, p: &Stones, cfg: &SearchConfig, opts: &TableOptions) -> Result<Choice, Error> {
        solve::resolve(Engine::Auto, self, p, cfg, opts)
    }
}

/// Whole boxes by the face-union recurrence ([`crate::sg::table`]).
impl Tabulation for HypergraphNim {
    fn tabulate(&self, dims: &[usize], opts: &TableOptions) -> Result<BoxTable, Error> {
        table::tabulate(self.graph(), dims, opts)
    }

    fn tabulate_part(
        &self,
        dims: &[usize],
        team: &dyn Team,
        memory_limit: u64,
        emit: &mut Emit<'_>,
    ) -> Result<(), Error> {
        table::tabulate_part(self.graph(), dims, team, memory_limit, emit)
    }
}
