//! From a game or a data file and the options to a [`Problem`]: the one description of a
//! synthesis task that `synth`, `verify` and `decode` share, and that exported instances record
//! in their comments ([`Setup::notes`], [`Setup::from_notes`]) so that a solver's model can be
//! checked on the same data without repeating any option.

use std::path::{Path, PathBuf};

use super::data::Dataset;
use super::family::Family;
use super::lang::OpSet;
use super::problem::{Canonical, Problem, Target};
use grundy_core::catalog::spec::{self, Heaps};
use grundy_core::catalog::AnyGame;
use grundy_core::error::Error;
use grundy_core::sg::table::TableOptions;

/// Where the data comes from and what programs must satisfy.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The game spec: names the variables, gives the automorphisms for `orbits`, and with `max`
    /// the data.
    pub game: Option<String>,
    /// How many heaps, when the game is a heap game (`--heaps`).
    pub heaps: Option<usize>,
    /// Tabulate the box [0,max)^n of the game as the data.
    pub max: Option<usize>,
    /// A table file as the data instead.
    pub data: Option<PathBuf>,
    /// Only the members of this family of the box, as data over its parameters
    /// ([`Family`]).
    pub family: Option<String>,
    /// What the program must compute: zero, indicator or SG values (`--target`).
    pub target: Target,
    /// Group zero positions into orbits under the game's automorphisms.
    pub orbits: bool,
    /// Word width in bits.
    pub width: u32,
    /// Edits to the thesis's instruction set (`+Mod,-Mul`); empty for the thesis's set.
    pub ops: String,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            game: None,
            heaps: None,
            max: None,
            data: None,
            family: None,
            target: Target::Zero,
            orbits: false,
            width: 8,
            ops: String::new(),
        }
    }
}

/// The target's name as options and comments spell it.
pub fn target_name(t: Target) -> &'static str {
    match t {
        Target::Zero => "zero",
        Target::Indicator => "indicator",
        Target::Sg => "sg",
    }
}

/// A target from its name.
pub fn parse_target(name: &str) -> Option<Target> {
    match name {
        "zero" => Some(Target::Zero),
        "indicator" => Some(Target::Indicator),
        "sg" => Some(Target::Sg),
        _ => None,
    }
}

/// The prefix of the comment lines a setup is recorded in.
const NOTE: &str = "grundy ";

impl Setup {
    /// The game, parsed.
    pub fn game(&self) -> Result<Option<Box<dyn AnyGame>>, Error> {
        match &self.game {
            Some(g) => spec::parse(g, Heaps::given(self.heaps)).map(Some),
            None if self.heaps.is_some() => Err(Error::Usage("--heaps needs a GAME".into())),
            None => Ok(None),
        }
    }

    /// The family, parsed for `game`; `None` without `--family`.
    pub fn family(&self, game: Option<&dyn AnyGame>) -> Result<Option<Family>, Error> {
        let Some(spec) = &self.family else {
            return Ok(None);
        };
        match game {
            Some(g) => Family::parse(spec, g.variables()).map(Some),
            None => Err(Error::Usage("--family needs GAME --max D".into())),
        }
    }

    /// What the program's variables are, for reports.
    pub fn variables(&self, game: Option<&dyn AnyGame>, vars: usize) -> Result<String, Error> {
        Ok(match (self.family(game)?, game) {
            (Some(f), Some(g)) => f.describe(g.name()),
            (_, Some(g)) => g.describe_variables(),
            _ => format!("x0..x{} are the columns of the data", vars - 1),
        })
    }

    /// The data: the game's box (or its family's members) or the file.
    pub fn dataset(
        &self,
        game: Option<&dyn AnyGame>,
        opts: &TableOptions,
    ) -> Result<Dataset, Error> {
        if let (Some(family), Some(g)) = (self.family(game)?, game) {
            return match (self.max, &self.data) {
                (Some(d), None) if d > 0 => family.dataset(g, d, opts),
                _ => Err(Error::Usage("--family needs GAME --max D".into())),
            };
        }
        match (&self.data, self.max, game) {
            (Some(path), None, _) => Dataset::from_file(path),
            (Some(_), Some(_), _) => Err(Error::Usage(
                "give the data one way: GAME --max D, or --data FILE".into(),
            )),
            (None, Some(0), _) => Err(Error::Usage("--max must be at least 1".into())),
            (None, Some(d), Some(g)) => Dataset::from_box(g, d, opts),
            (None, Some(_), None) => Err(Error::Usage("--max needs a GAME".into())),
            (None, None, _) => Err(Error::Usage(
                "give the data: GAME --max D, or --data FILE".into(),
            )),
        }
    }

    /// The data and its examples.
    pub fn problem(
        &self,
        game: Option<&dyn AnyGame>,
        opts: &TableOptions,
    ) -> Result<Problem, Error> {
        // Options that do not need the data are checked before it is computed.
        let vars = match self.family(game)? {
            Some(f) => f.params().len(),
            None => game.map_or(1, |g| g.variables()),
        };
        OpSet::with_edits(vars, &self.ops)?;
        self.check_orbits(game)?;
        let data = self.dataset(game, opts)?;
        self.problem_from(data, game)
    }

    fn check_orbits(&self, game: Option<&dyn AnyGame>) -> Result<(), Error> {
        if !self.orbits {
            return Ok(());
        }
        if self.family.is_some() {
            return Err(Error::Usage(
                "--orbits does not apply to --family: the parameters have no automorphisms".into(),
            ));
        }
        match game {
            Some(g) => g.symmetry().require_complete(),
            None => Err(Error::Usage(
                "--orbits needs a GAME for its automorphisms".into(),
            )),
        }
    }

    /// The examples of `data` under these options.
    pub fn problem_from(
        &self,
        data: Dataset,
        game: Option<&dyn AnyGame>,
    ) -> Result<Problem, Error> {
        match (self.family(game)?, game) {
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
        let ops = OpSet::with_edits(data.vars, &self.ops)?;
        let canon = |x: &[u64]| game.expect("checked above").canonical_point(x);
        let orbits: Option<&Canonical<'_>> = self.orbits.then_some(&canon);
        Problem::new(data, ops, self.width, self.target, orbits)
    }

    /// The comment lines (without their `c `/`; ` prefix) recording this setup in an exported
    /// instance, with which examples it holds (`examples`: "all", or "cegis 30 of 1000" and
    /// their indices in `example_set`).
    pub fn notes(&self, examples: &str, example_set: Option<&[usize]>) -> Vec<String> {
        let mut notes = vec![];
        if let Some(g) = &self.game {
            notes.push(format!("{NOTE}game {g}"));
        }
        if let Some(k) = self.heaps {
            notes.push(format!("{NOTE}heaps {k}"));
        }
        if let Some(d) = self.max {
            notes.push(format!("{NOTE}max {d}"));
        }
        if let Some(f) = &self.family {
            notes.push(format!("{NOTE}family {f}"));
        }
        if let Some(p) = &self.data {
            // Absolute, so that `decode` finds the data from any directory.
            let p = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
            notes.push(format!("{NOTE}data {}", p.display()));
        }
        notes.push(format!("{NOTE}target {}", target_name(self.target)));
        notes.push(format!("{NOTE}orbits {}", self.orbits));
        notes.push(format!("{NOTE}width {}", self.width));
        let ops = if self.ops.is_empty() {
            "thesis"
        } else {
            &self.ops
        };
        notes.push(format!("{NOTE}ops {ops}"));
        notes.push(format!("{NOTE}examples {examples}"));
        if let Some(set) = example_set {
            let list: Vec<String> = set.iter().map(|e| e.to_string()).collect();
            notes.push(format!("{NOTE}example-set {}", list.join(",")));
        }
        notes
    }

    /// The setup and example set [`Setup::notes`] recorded, read back from the leading
    /// comment lines of `text` (`c note ...` lines of a CNF written by `sat::export_dimacs`);
    /// `path` names the file in errors.
    pub fn from_notes(text: &str, path: &Path) -> Result<(Setup, Option<Vec<usize>>), Error> {
        let mut setup = Setup::default();
        let mut subset = None;
        let bad = |msg: String| Error::Data {
            path: path.into(),
            msg,
        };
        let header = text
            .lines()
            .take_while(|l| l.starts_with('c') || l.trim().is_empty());
        for line in header {
            let Some(rest) = line
                .strip_prefix("c note ")
                .and_then(|r| r.strip_prefix(NOTE))
            else {
                continue;
            };
            let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
            let value = value.trim();
            match key {
                "game" => setup.game = Some(value.to_string()),
                "heaps" => {
                    setup.heaps = Some(
                        value
                            .parse()
                            .map_err(|_| bad(format!("bad heap count `{value}`")))?,
                    )
                }
                "max" => {
                    setup.max = Some(
                        value
                            .parse()
                            .map_err(|_| bad(format!("bad box size `{value}`")))?,
                    )
                }
                "data" => setup.data = Some(value.into()),
                "family" => setup.family = Some(value.to_string()),
                "target" => {
                    setup.target = parse_target(value)
                        .ok_or_else(|| bad(format!("unknown target `{value}`")))?
                }
                "orbits" => {
                    setup.orbits = value
                        .parse()
                        .map_err(|_| bad(format!("bad orbits flag `{value}`")))?
                }
                "width" => {
                    setup.width = value
                        .parse()
                        .map_err(|_| bad(format!("bad width `{value}`")))?
                }
                "ops" => setup.ops = if value == "thesis" { "" } else { value }.to_string(),
                "example-set" => {
                    let list: Result<Vec<usize>, _> = value.split(',').map(str::parse).collect();
                    subset = Some(list.map_err(|_| bad(format!("bad example list `{value}`")))?);
                }
                _ => {}
            }
        }
        if setup.game.is_none() && setup.data.is_none() {
            return Err(bad(
                "no `c note grundy game` or `c note grundy data` line: not exported by grundy synth"
                    .into(),
            ));
        }
        Ok((setup, subset))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_read_back_to_the_same_setup() {
        let setups = [
            Setup {
                game: Some("circular:4,2".into()),
                max: Some(6),
                target: Target::Indicator,
                orbits: true,
                width: 12,
                ops: "+Mod,-Mul".into(),
                ..Setup::default()
            },
            Setup {
                data: Some("dir/p3 table.tsv".into()),
                target: Target::Sg,
                ..Setup::default()
            },
            Setup {
                game: Some("subtraction:1,2,3".into()),
                heaps: Some(3),
                max: Some(12),
                ..Setup::default()
            },
            Setup {
                game: Some("projective-plane".into()),
                max: Some(16),
                family: Some("a,a,b,c,a+b+c,a+b+c".into()),
                ..Setup::default()
            },
        ];
        for s in setups {
            for set in [None, Some(&[3usize, 1, 4][..])] {
                let text: String = s
                    .notes("cegis 3 of 9", set)
                    .iter()
                    .map(|n| format!("c note {n}\n"))
                    .chain(["p cnf 1 1\n1 0\n".to_string()])
                    .collect();
                let (back, subset) = Setup::from_notes(&text, Path::new("x.cnf")).unwrap();
                assert_eq!(back, s);
                assert_eq!(subset.as_deref(), set);
            }
        }
    }

    #[test]
    fn notes_that_do_not_parse_are_refused() {
        let read = |t: &str| Setup::from_notes(t, Path::new("x.cnf"));
        assert!(read("c note grundy target zero\n").is_err(), "no data");
        let bad = "c note grundy game path:3\nc note grundy width wide\n";
        assert!(read(bad).unwrap_err().to_string().contains("bad width"));
        let bad = "c note grundy game path:3\nc note grundy target maybe\n";
        assert!(read(bad)
            .unwrap_err()
            .to_string()
            .contains("unknown target"));
        // Notes after the first clause are not the header's.
        let late = "p cnf 1 1\nc note grundy game path:3\n";
        assert!(read(late).is_err());
    }

    #[test]
    fn the_data_is_given_one_way() {
        let game = spec::parse_hypergraph("path:3").unwrap();
        let opts = TableOptions::default();
        let both = Setup {
            game: Some("path:3".into()),
            max: Some(3),
            data: Some("t.tsv".into()),
            ..Setup::default()
        };
        assert!(both.dataset(Some(&game), &opts).is_err());
        let none = Setup::default();
        assert!(none.dataset(Some(&game), &opts).is_err());
        let boxed = Setup {
            max: Some(3),
            ..Setup::default()
        };
        assert_eq!(boxed.dataset(Some(&game), &opts).unwrap().points.len(), 27);
        assert!(boxed.dataset(None, &opts).is_err(), "--max needs a game");
    }
}
