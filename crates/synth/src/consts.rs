//! Small constants added to the instruction set, each one instruction long like
//! `One`. Sums of heap games often need one: a subtraction game's zero positions are "the xor of
//! the heaps mod p is 0" for its period p, which `& (p - 1)` says in one instruction more.
//! Written with the constant (not as a word that is p - 1 only by wrapping), such a program
//! has a linear reading and is proved for all positions; so a heap game whose sequence shows a
//! plain period gets p - 1 and p unless constants are asked for ([`Consts::default_for`]).

use grundy_core::catalog::Notation;
use std::str::FromStr;

use grundy_core::catalog::AnyGame;
use grundy_core::error::{Error, OptionKey};
use grundy_core::period::observe;

/// Values of a heap game's nim sequence `auto` looks at for a period.
const AUTO_VALUES: usize = 1024;

/// Which constants are asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Consts {
    /// These constants (none for `none`).
    List(Vec<u64>),
    /// The constants the game suggests ([`Consts::resolve`]).
    Auto,
}

impl FromStr for Consts {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "auto" => return Ok(Consts::Auto),
            "none" => return Ok(Consts::List(Vec::new())),
            _ => {}
        }
        let list: Result<Vec<u64>, _> = s.split(',').map(|k| k.trim().parse::<u64>()).collect();
        match list {
            Ok(list) if !list.is_empty() => Ok(Consts::List(list)),
            _ => Err(format!(
                "`{s}`: expected `auto`, `none` or whole numbers separated by commas, e.g. 2,3,4"
            )),
        }
    }
}

impl Consts {
    /// The constants a game gets when none are asked for: `auto`'s for a heap game whose
    /// nim sequence shows a plain period, none otherwise.
    pub fn default_for(game: Option<&dyn AnyGame>) -> Vec<u64> {
        match game.and_then(|g| g.kind().heaps()) {
            Some(_) => Consts::Auto.resolve(game).unwrap_or_default(),
            None => Vec::new(),
        }
    }

    /// The constants asked for (`given`), or the game's default ones.
    pub fn given_or_default(
        given: Option<&Consts>,
        game: Option<&dyn AnyGame>,
    ) -> Result<Vec<u64>, Error> {
        match given {
            Some(c) => c.resolve(game),
            None => Ok(Consts::default_for(game)),
        }
    }

    /// The constants, ascending, without those the language has already (0 and 1).
    ///
    /// `auto` needs a heap game whose nim sequence shows a plain period p in its first
    /// `AUTO_VALUES` values: it gives p - 1 (a mask when p is a power of two) and p (a
    /// modulus).
    pub fn resolve(&self, game: Option<&dyn AnyGame>) -> Result<Vec<u64>, Error> {
        let mut out = match self {
            Consts::List(list) => list.clone(),
            Consts::Auto => {
                let heaps = game.and_then(|g| g.kind().heaps());
                let Some(sum) = heaps else {
                    return Err(Error::refused(
                        OptionKey::Consts,
                        " auto takes its constants from a heap game's period; give a list \
                         (e.g. 2,3) for other games and for data files",
                    ));
                };
                let values = sum.game().sequence(AUTO_VALUES - 1);
                match observe(&values[..]) {
                    Some(o) if o.saltus == 0 => vec![o.period as u64 - 1, o.period as u64],
                    _ => {
                        return Err(Error::refused(
                            OptionKey::Consts,
                            format!(
                                " auto: the first {AUTO_VALUES} values of {}'s nim sequence \
                                 show no plain period; give a list",
                                sum.name()
                            ),
                        ))
                    }
                }
            }
        };
        out.retain(|&k| k > 1);
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }
}

/// The constants as `--ops` edits: `+Const(2),+Const(3)`.
pub fn as_edits(consts: &[u64]) -> String {
    consts
        .iter()
        .map(|k| format!("+Const({k})"))
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_core::catalog::spec::{self, Heaps};

    #[test]
    fn lists_parse_and_auto_reads_the_period() {
        assert_eq!("2, 3,4".parse(), Ok(Consts::List(vec![2, 3, 4])));
        assert_eq!("auto".parse(), Ok(Consts::Auto));
        assert!("2,,3".parse::<Consts>().is_err());
        assert!("".parse::<Consts>().is_err());
        assert_eq!("none".parse(), Ok(Consts::List(Vec::new())));
        assert_eq!(
            Consts::List(vec![4, 1, 0, 4, 2]).resolve(None).unwrap(),
            [2, 4]
        );
        let sum = spec::parse("subtraction:1,2,3", Heaps::given(Some(3))).unwrap();
        assert_eq!(Consts::Auto.resolve(Some(sum.as_ref())).unwrap(), [3, 4]);
        let kayles = spec::parse("octal:0.77", Heaps::given(Some(2))).unwrap();
        assert_eq!(
            Consts::Auto.resolve(Some(kayles.as_ref())).unwrap(),
            [11, 12]
        );
        let path = spec::parse("path:3", Heaps::default()).unwrap();
        assert!(Consts::Auto.resolve(Some(path.as_ref())).is_err());
        assert!(Consts::Auto.resolve(None).is_err());
        assert_eq!(as_edits(&[3, 4]), "+Const(3),+Const(4)");
    }

    /// A heap game gets its period's constants unless told otherwise; other games and heap
    /// games without a plain period get none, and no error.
    #[test]
    fn heap_games_default_to_their_periods_constants() {
        let sum = spec::parse("subtraction:1,2,3", Heaps::given(Some(2))).unwrap();
        assert_eq!(Consts::default_for(Some(sum.as_ref())), [3, 4]);
        let none = Consts::List(Vec::new());
        assert!(Consts::given_or_default(Some(&none), Some(sum.as_ref()))
            .unwrap()
            .is_empty());
        let path = spec::parse("path:3", Heaps::default()).unwrap();
        assert!(Consts::default_for(Some(path.as_ref())).is_empty());
        assert!(Consts::default_for(None).is_empty());
        // Grundy's game shows no period in its first values: no constants, no error.
        let grundy = spec::parse("grundy-game", Heaps::given(Some(2))).unwrap();
        assert!(Consts::default_for(Some(grundy.as_ref())).is_empty());
    }
}
