//! The members of the cut-pruning family by name, as the paper names them: `cut`, `scut_R`,
//! `cut_cEA`, ...

use std::fmt;
use std::str::FromStr;

/// How a node narrows the set it hands to its successors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pruning {
    /// No pruning: successors are always valued exactly (Listing 3).
    Def,
    /// Successors only need to say whether their value is in P minus max P (Listing 4).
    Scut,
    /// Also cap that set at max R (Listing 5).
    Cut,
}

/// Enhanced transposition cut-off (Listing 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Etc {
    Off,
    /// `E`: prune P by the table before recursing.
    On,
    /// `cE`: and cut off during that pass (the optional line 3).
    WithCutoff,
}

/// One member of the family, named like the paper: `cut`, `scut_R`, `cut_cEA`, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    pub(crate) pruning: Pruning,
    pub(crate) resume: bool,
    pub(crate) etc: Etc,
    pub(crate) aspiration: bool,
}

impl Variant {
    /// Every variant the paper benchmarks, in its tables' order.
    pub const PAPER: [&'static str; 14] = [
        "def", "scut", "cut", "cut_A", "scut_R", "cut_R", "cut_RA", "scut_E", "scut_cE", "cut_E",
        "cut_cE", "cut_EA", "cut_cEA", "scut_RA",
    ];
}

impl FromStr for Variant {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (base, suffix) = s.split_once('_').unwrap_or((s, ""));
        let pruning = match base {
            "def" => Pruning::Def,
            "scut" => Pruning::Scut,
            "cut" => Pruning::Cut,
            _ => return Err(format!("unknown engine `{s}`")),
        };
        let mut v = Variant {
            pruning,
            resume: false,
            etc: Etc::Off,
            aspiration: false,
        };
        let mut rest = suffix;
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix("cE") {
                v.etc = Etc::WithCutoff;
                rest = r;
            } else if let Some(r) = rest.strip_prefix('E') {
                v.etc = Etc::On;
                rest = r;
            } else if let Some(r) = rest.strip_prefix('R') {
                v.resume = true;
                rest = r;
            } else if let Some(r) = rest.strip_prefix('A') {
                v.aspiration = true;
                rest = r;
            } else {
                return Err(format!(
                    "unknown suffix in engine `{s}` (known: R, E, cE, A)"
                ));
            }
        }
        if pruning == Pruning::Def && (v.resume || v.etc != Etc::Off || v.aspiration) {
            return Err(format!(
                "`{s}`: def takes no extensions (it never cuts off)"
            ));
        }
        if v.resume && v.etc != Etc::Off {
            return Err(format!(
                "`{s}`: resuming and ETC do not combine (ETC breaks the resumed move order)"
            ));
        }
        Ok(v)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = match self.pruning {
            Pruning::Def => "def",
            Pruning::Scut => "scut",
            Pruning::Cut => "cut",
        };
        let etc = match self.etc {
            Etc::Off => "",
            Etc::On => "E",
            Etc::WithCutoff => "cE",
        };
        let suffix = format!(
            "{}{}{}",
            if self.resume { "R" } else { "" },
            etc,
            if self.aspiration { "A" } else { "" }
        );
        if suffix.is_empty() {
            write!(f, "{base}")
        } else {
            write!(f, "{base}_{suffix}")
        }
    }
}
