//! A synthesis task, checked once from typed parts: the game (or none, for a data file), where
//! the data comes from, the family, the target, the criterion, the word width and the
//! instruction edits. Every front end (the command line, the Python package, tests) builds one
//! [`Task`] and hands it on; nothing past it parses a spec again. [`Setup`] is its text form,
//! for the comments of exported instances: `setup` converts both ways, so this module does not
//! import it.
//!
//! [`Setup`]: crate::setup::Setup

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::data::Dataset;
use super::family::Family;
use super::lang::{Edits, Op, OpSet};
use super::problem::{Canonical, Problem, Target};
use grundy_core::catalog::AnyGame;
use grundy_core::error::{Error, OptionKey};
use grundy_core::sg::table::TableOptions;

/// The typed parts a [`Task`] is built from ([`Task::new`] checks them).
#[derive(Clone)]
pub struct Parts {
    /// The game: names the variables, gives the automorphisms for `orbits`, and with `max`
    /// the data. `None` for a data file alone.
    pub game: Option<Arc<dyn AnyGame>>,
    /// Tabulate the box [0,max)^n of the game as the data.
    pub max: Option<usize>,
    /// A table file as the data instead (columns x0..x(n-1), sg).
    pub data: Option<PathBuf>,
    /// Only the members of this family of the box, as data over its parameters; parsed for
    /// the game (`Family::parse`).
    pub family: Option<Family>,
    /// What the program must compute: zero, indicator or SG values.
    pub target: Target,
    /// Group zero positions into orbits under the game's automorphisms.
    pub orbits: bool,
    /// Word width in bits.
    pub width: u32,
    /// Edits to the thesis's instruction set (constants included).
    pub edits: Edits,
}

impl Default for Parts {
    fn default() -> Self {
        Parts {
            game: None,
            max: None,
            data: None,
            family: None,
            target: Target::Zero,
            orbits: false,
            width: 8,
            edits: Edits::none(),
        }
    }
}

/// A checked synthesis task: built once ([`Task::new`], or [`Setup::task`](crate::setup::Setup::task) from text), then
/// read by the data's construction, the search ([`crate::run`]), the prover and the checks.
#[derive(Clone)]
pub struct Task {
    parts: Parts,
}

impl std::fmt::Debug for Task {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Task")
            .field("game", &self.game().map(|g| g.name()))
            .field("max", &self.parts.max)
            .field("data", &self.parts.data)
            .field("family", &self.parts.family.as_ref().map(|f| f.to_string()))
            .field("target", &self.parts.target)
            .field("orbits", &self.parts.orbits)
            .field("width", &self.parts.width)
            .field("edits", &self.parts.edits.to_string())
            .finish()
    }
}

impl Task {
    /// Checks `parts` that belong together: a family needs the game it was parsed for. What
    /// needs the data (the instruction set over its variables, the box, the orbits) is checked
    /// by [`Task::problem`], before the data is computed.
    pub fn new(parts: Parts) -> Result<Task, Error> {
        if let Some(f) = &parts.family {
            let Some(g) = &parts.game else {
                return Err(Error::refused(
                    OptionKey::Family,
                    " needs the game it was parsed for",
                ));
            };
            if f.vertices() != g.variables() {
                return Err(Error::Usage(format!(
                    "the family {f} has {} coordinates but {} has {} {}",
                    f.vertices(),
                    g.name(),
                    g.variables(),
                    g.coordinate().1
                )));
            }
        }
        Ok(Task { parts })
    }

    /// The game, if any.
    pub fn game(&self) -> Option<&dyn AnyGame> {
        self.parts.game.as_deref()
    }

    /// The game, shared.
    pub fn game_arc(&self) -> Option<Arc<dyn AnyGame>> {
        self.parts.game.clone()
    }

    /// The side of the box tabulated as the data, if the data is a box.
    pub fn max(&self) -> Option<usize> {
        self.parts.max
    }

    /// The data file, if the data is read from one.
    pub fn data(&self) -> Option<&Path> {
        self.parts.data.as_deref()
    }

    /// The family, if the data is its members.
    pub fn family(&self) -> Option<&Family> {
        self.parts.family.as_ref()
    }

    /// What the program must compute.
    pub fn target(&self) -> Target {
        self.parts.target
    }

    /// Whether programs are judged by the orbit criterion.
    pub fn orbits(&self) -> bool {
        self.parts.orbits
    }

    /// Word width in bits.
    pub fn width(&self) -> u32 {
        self.parts.width
    }

    /// The instruction edits.
    pub fn edits(&self) -> &Edits {
        &self.parts.edits
    }

    /// This task with the constants `ks` added to its instructions (`--consts`, resolved for
    /// its game).
    pub fn with_constants(mut self, ks: impl IntoIterator<Item = u64>) -> Task {
        for k in ks {
            self.parts.edits.add(Op::Const(k));
        }
        self
    }

    /// This task under the orbit criterion or not (the form a search returned).
    pub(crate) fn with_orbits(&self, orbits: bool) -> Task {
        let mut t = self.clone();
        t.parts.orbits = orbits;
        t
    }

    /// This task with values recomputed rather than read or tabulated: no data file, no box.
    pub(crate) fn recomputed(&self) -> Task {
        let mut t = self.clone();
        t.parts.data = None;
        t.parts.max = None;
        t
    }

    /// What the program's variables are, for reports.
    pub fn variables(&self, vars: usize) -> String {
        match (self.family(), self.game()) {
            (Some(f), Some(g)) => f.describe(g.name()),
            (_, Some(g)) => g.describe_variables(),
            _ => format!("x0..x{} are the columns of the data", vars - 1),
        }
    }

    /// The instruction set over the program's `vars` variables.
    pub fn ops(&self, vars: usize) -> Result<OpSet, Error> {
        OpSet::edited(vars, &self.parts.edits)
    }

    /// The data: the game's box (or its family's members) or the file.
    pub(crate) fn dataset(&self, opts: &TableOptions) -> Result<Dataset, Error> {
        let game = self.game();
        if let (Some(family), Some(g)) = (self.family(), game) {
            return match (self.parts.max, &self.parts.data) {
                (Some(d), None) if d > 0 => family.dataset(g, d, opts),
                _ => Err(Error::refused(
                    OptionKey::Family,
                    " takes its members from a box of the game: give its side (at least 1), \
                     and no data file",
                )),
            };
        }
        match (&self.parts.data, self.parts.max, game) {
            (Some(path), None, _) => Dataset::from_file(path),
            (Some(_), Some(_), _) => Err(Error::refused(
                OptionKey::Data,
                ": give the data one way, a box of the game or a data file, not both",
            )),
            (None, Some(0), _) => Err(Error::refused(OptionKey::Max, " must be at least 1")),
            (None, Some(d), Some(g)) => Dataset::from_box(g, d, opts),
            (None, Some(_), None) => Err(Error::refused(OptionKey::Max, " needs a game")),
            (None, None, _) => Err(Error::Usage(
                "no data: give a game and the side of its box, or a data file".into(),
            )),
        }
    }

    /// The data and its examples; the options that do not need the data are checked before
    /// it is computed.
    pub fn problem(&self, opts: &TableOptions) -> Result<Problem, Error> {
        let vars = match self.family() {
            Some(f) => f.params().len(),
            None => self.game().map_or(1, |g| g.variables()),
        };
        self.ops(vars)?;
        self.check_orbits(self.game())?;
        let data = self.dataset(opts)?;
        self.problem_from(data, self.game())
    }

    fn check_orbits(&self, game: Option<&dyn AnyGame>) -> Result<(), Error> {
        if !self.parts.orbits {
            return Ok(());
        }
        if self.family().is_some() {
            return Err(Error::refused(
                OptionKey::Orbits,
                " does not apply to a family: the parameters have no automorphisms",
            ));
        }
        match game {
            Some(g) => g.symmetry().require_complete(),
            None => Err(Error::refused(
                OptionKey::Orbits,
                " needs a game for its automorphisms",
            )),
        }
    }

    /// The examples of `data` under this task, the variables and automorphisms those of
    /// `game` (the task's own, or one the data was recomputed on).
    pub(crate) fn problem_from(
        &self,
        data: Dataset,
        game: Option<&dyn AnyGame>,
    ) -> Result<Problem, Error> {
        match (self.family(), game) {
            (Some(f), _) if f.params().len() != data.vars => {
                return Err(Error::Usage(format!(
                    "the data has {} variables but the family {f} has {} parameters",
                    data.vars,
                    f.params().len()
                )))
            }
            (None, Some(g)) if g.variables() != data.vars => {
                return Err(Error::Usage(format!(
                    "the data has {} variables but {} has {} {}",
                    data.vars,
                    g.name(),
                    g.variables(),
                    g.coordinate().1
                )))
            }
            _ => {}
        }
        self.check_orbits(game)?;
        let ops = self.ops(data.vars)?;
        let canon = |x: &[u64]| game.expect("checked above").canonical_point(x);
        let orbits: Option<&Canonical<'_>> = self.parts.orbits.then_some(&canon);
        Problem::new(data, ops, self.parts.width, self.parts.target, orbits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::Setup;
    use grundy_core::catalog::spec;

    fn task(parts: Parts) -> Task {
        Task::new(parts).unwrap()
    }

    #[test]
    fn the_data_is_given_one_way() {
        let game: Arc<dyn AnyGame> = spec::parse("path:3", Default::default()).unwrap().into();
        let opts = TableOptions::default();
        let both = task(Parts {
            game: Some(game.clone()),
            max: Some(3),
            data: Some("t.tsv".into()),
            ..Parts::default()
        });
        assert!(both.dataset(&opts).is_err());
        let none = task(Parts {
            game: Some(game.clone()),
            ..Parts::default()
        });
        assert!(none.dataset(&opts).is_err());
        let boxed = task(Parts {
            game: Some(game),
            max: Some(3),
            ..Parts::default()
        });
        assert_eq!(boxed.dataset(&opts).unwrap().points.len(), 27);
        let gameless = task(Parts {
            max: Some(3),
            ..Parts::default()
        });
        assert!(gameless.dataset(&opts).is_err(), "a box needs a game");
    }

    #[test]
    fn a_family_needs_the_game_it_was_parsed_for() {
        let path3: Arc<dyn AnyGame> = spec::parse("path:3", Default::default()).unwrap().into();
        let family = Family::parse("a,b,a", path3.variables()).unwrap();
        let parts = Parts {
            family: Some(family),
            max: Some(4),
            ..Parts::default()
        };
        assert!(Task::new(parts.clone()).is_err(), "no game");
        let path4: Arc<dyn AnyGame> = spec::parse("path:4", Default::default()).unwrap().into();
        let other = Parts {
            game: Some(path4),
            ..parts.clone()
        };
        assert!(Task::new(other).is_err(), "another game's family");
        let t = task(Parts {
            game: Some(path3),
            ..parts
        });
        assert_eq!(t.problem(&TableOptions::default()).unwrap().vars(), 2);
    }

    #[test]
    fn the_text_form_builds_the_same_task() {
        let setup = Setup {
            game: Some("subtraction:1,2,3".into()),
            heaps: Some(3),
            max: Some(5),
            ops: "+Mod,-Mul".into(),
            ..Setup::default()
        };
        let t = setup.task().unwrap();
        assert_eq!(t.setup(), setup);
        assert_eq!(t.game().unwrap().variables(), 3);
    }
}
