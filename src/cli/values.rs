//! How the library's option types are spelled on the command line: clap stays out of the
//! library, which keeps plain enums.

use clap::builder::PossibleValue;
use clap::ValueEnum;

use crate::game::MoveOrder;
use crate::sg::Policy;
use crate::synth::problem::Target;

impl ValueEnum for Target {
    fn value_variants<'a>() -> &'a [Self] {
        &[Target::Zero, Target::Indicator, Target::Sg]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Target::Zero => PossibleValue::new("zero")
                .help("output 0 exactly on the zero positions, non-zero elsewhere"),
            Target::Indicator => PossibleValue::new("indicator")
                .help("output 0 on the zero positions and exactly 1 elsewhere (the thesis's)"),
            Target::Sg => PossibleValue::new("sg").help("output the SG value itself"),
        })
    }
}

impl ValueEnum for MoveOrder {
    fn value_variants<'a>() -> &'a [Self] {
        &[MoveOrder::Natural, MoveOrder::Heuristic]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            MoveOrder::Natural => {
                PossibleValue::new("natural").help("the game's plain enumeration of moves")
            }
            MoveOrder::Heuristic => {
                PossibleValue::new("heuristic").help("moves to small subtrees first")
            }
        })
    }
}

impl ValueEnum for Policy {
    fn value_variants<'a>() -> &'a [Self] {
        &[Policy::Fifo, Policy::Clock]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Policy::Fifo => PossibleValue::new("fifo").help("evict the oldest entry (the paper's)"),
            Policy::Clock => PossibleValue::new("clock")
                .help("second chance: entries hit since the last pass survive a round"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every variant has a spelling, and the spelling parses back to it.
    #[test]
    fn spellings_round_trip() {
        fn check<T: ValueEnum + PartialEq + std::fmt::Debug>() {
            for v in T::value_variants() {
                let name = v.to_possible_value().unwrap();
                assert!(name.get_help().is_some(), "{v:?} has a description");
                assert_eq!(&T::from_str(name.get_name(), false).unwrap(), v);
            }
        }
        check::<Target>();
        check::<MoveOrder>();
        check::<Policy>();
    }
}
