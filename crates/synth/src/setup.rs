//! The text form of a synthesis [`Task`]: what exported instances record in their comments
//! ([`Setup::notes`], [`Setup::from_notes`]) so that a solver's model can be checked on the
//! same data without repeating any option; [`Setup::task`] parses it, once.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::family::Family;
use super::problem::Target;
use super::task::{Parts, Task};
use grundy_core::catalog::spec::{self, Heaps};
use grundy_core::catalog::{AnyGame, Notation};
use grundy_core::error::{Error, OptionKey};

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
    /// (`Family`).
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
pub(crate) fn parse_target(name: &str) -> Option<Target> {
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
    /// The task this text describes, every part parsed once: the game spec (with its heap
    /// count), the family for that game, and the instruction edits.
    pub fn task(&self) -> Result<Task, Error> {
        let game: Option<Arc<dyn AnyGame>> = match &self.game {
            Some(g) => Some(spec::parse(g, Heaps::given(self.heaps))?.into()),
            None if self.heaps.is_some() => {
                return Err(Error::refused(OptionKey::Heaps, " needs a game"))
            }
            None => None,
        };
        let family = match (&self.family, &game) {
            (None, _) => None,
            (Some(spec), Some(g)) => Some(Family::parse(spec, g.variables())?),
            (Some(_), None) => return Err(Error::refused(OptionKey::Family, " needs a game")),
        };
        Task::new(Parts {
            game,
            max: self.max,
            data: self.data.clone(),
            family,
            target: self.target,
            orbits: self.orbits,
            width: self.width,
            edits: self.ops.parse()?,
        })
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

impl Task {
    /// The text form, for the comments of exported instances ([`Setup::notes`]).
    pub fn setup(&self) -> Setup {
        let game = self.game();
        Setup {
            game: game.map(|g| g.name().to_string()),
            heaps: game.and_then(|g| g.kind().heaps()).map(|s| s.variables()),
            max: self.max(),
            data: self.data().map(Path::to_path_buf),
            family: self.family().map(|f| f.to_string()),
            target: self.target(),
            orbits: self.orbits(),
            width: self.width(),
            ops: self.edits().to_string(),
        }
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
}
