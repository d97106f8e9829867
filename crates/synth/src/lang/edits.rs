//! Edits to the thesis's instruction set (`+Mod,+Const(2),-Mul`), parsed once: a task carries
//! them typed, and builds its [`super::OpSet`] once the number of variables is known (a data
//! file says it only when read).

use std::fmt;
use std::str::FromStr;

use super::Op;
use grundy_core::error::Error;

/// Instructions added to or removed from the thesis's set, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Edits(Vec<(bool, Op)>);

impl Edits {
    /// No edits: the thesis's set.
    pub fn none() -> Self {
        Edits::default()
    }

    /// Adds `op` (after the edits so far), as `--consts` adds its constants.
    pub fn add(&mut self, op: Op) {
        self.0.push((true, op));
    }

    /// Removes `op` (after the edits so far).
    pub fn remove(&mut self, op: Op) {
        self.0.push((false, op));
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each edit: added (`true`) or removed, and the instruction.
    pub fn iter(&self) -> impl Iterator<Item = (bool, Op)> + '_ {
        self.0.iter().copied()
    }
}

impl FromStr for Edits {
    type Err = Error;

    /// Comma-separated instruction names, each with `+` (or nothing) to add it and `-` to
    /// remove it; pushes of variables are refused (they come with the variables).
    fn from_str(edits: &str) -> Result<Self, Error> {
        let mut out = Edits::none();
        for edit in edits.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let (add, name) = match edit.as_bytes()[0] {
                b'+' => (true, &edit[1..]),
                b'-' => (false, &edit[1..]),
                _ => (true, edit),
            };
            let op: Op = name.parse().map_err(Error::Usage)?;
            if let Op::Push(i) = op {
                return Err(Error::Usage(format!(
                    "`{edit}`: pushes of x{i} come with the game's vertices"
                )));
            }
            out.0.push((add, op));
        }
        Ok(out)
    }
}

impl fmt::Display for Edits {
    /// The form [`Edits::from_str`] reads: `+Mod,-Mul`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (add, op)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}{op}", if *add { '+' } else { '-' })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_read_back_from_their_text() {
        let e: Edits = "+Mod, Const(2),-Mul".parse().unwrap();
        assert_eq!(e.to_string(), "+Mod,+Const(2),-Mul");
        assert_eq!(e.to_string().parse::<Edits>().unwrap(), e);
        assert!("".parse::<Edits>().unwrap().is_empty());
        assert!("+Push(1)".parse::<Edits>().is_err());
        assert!("+Nope".parse::<Edits>().is_err());
        let mut added = Edits::none();
        added.add(Op::Const(3));
        assert_eq!(added.to_string(), "+Const(3)");
    }
}
