//! How the library's option types are spelled on the command line: clap stays out of the
//! library, which keeps plain enums, and each enum's spellings are listed here once.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use grundy_core::game::MoveOrder;
use grundy_core::sg::Policy;
use grundy_synth::problem::Target;

/// An option whose values are a fixed list of words, each with a line of help.
pub trait Spelled: Copy + Send + Sync + 'static {
    /// Every value, its word on the command line, and what it means.
    const SPELLINGS: &'static [(Self, &'static str, &'static str)];
}

/// The parser of a [`Spelled`] option: `--help` lists the words, anything else is refused
/// with them.
pub fn choice<T: Spelled>() -> impl TypedValueParser<Value = T> {
    let words = T::SPELLINGS
        .iter()
        .map(|&(_, word, help)| PossibleValue::new(word).help(help));
    PossibleValuesParser::new(words).map(|word: String| {
        T::SPELLINGS
            .iter()
            .find(|(_, w, _)| *w == word)
            .map(|&(value, _, _)| value)
            .expect("clap admits only the listed words")
    })
}

impl Spelled for Target {
    const SPELLINGS: &'static [(Self, &'static str, &'static str)] = &[
        (
            Target::Zero,
            "zero",
            "output 0 exactly on the zero positions, non-zero elsewhere",
        ),
        (
            Target::Indicator,
            "indicator",
            "output 0 on the zero positions and exactly 1 elsewhere (the thesis's)",
        ),
        (Target::Sg, "sg", "output the SG value itself"),
    ];
}

impl Spelled for MoveOrder {
    const SPELLINGS: &'static [(Self, &'static str, &'static str)] = &[
        (
            MoveOrder::Natural,
            "natural",
            "the game's plain enumeration of moves",
        ),
        (
            MoveOrder::Heuristic,
            "heuristic",
            "moves to small subtrees first",
        ),
    ];
}

impl Spelled for Policy {
    const SPELLINGS: &'static [(Self, &'static str, &'static str)] = &[
        (Policy::Fifo, "fifo", "evict the oldest entry (the paper's)"),
        (
            Policy::Clock,
            "clock",
            "second chance: entries hit since the last pass survive a round",
        ),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every word parses to its value, words are distinct, and other words are refused.
    #[test]
    fn spellings_round_trip() {
        fn check<T: Spelled + PartialEq + std::fmt::Debug>() {
            let cmd = clap::Command::new("t");
            let parser = choice::<T>();
            for &(value, word, help) in T::SPELLINGS {
                assert!(!help.is_empty());
                let parsed = parser
                    .parse_ref(&cmd, None, std::ffi::OsStr::new(word))
                    .unwrap();
                assert_eq!(parsed, value);
                assert_eq!(T::SPELLINGS.iter().filter(|s| s.1 == word).count(), 1);
            }
            let bad = parser.parse_ref(&cmd, None, std::ffi::OsStr::new("nonsense"));
            assert!(bad.is_err());
        }
        check::<Target>();
        check::<MoveOrder>();
        check::<Policy>();
    }
}
