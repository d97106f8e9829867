//! Parameterized families of positions: `a,a,b,b,c,c` or `a,a,b,c,a+b+c,a+b+c` names, for
//! each vertex, a sum of parameters (and constants). The thesis asks which members of such
//! families are zero positions; synthesis over a family reads the parameters, not the stones.

use std::fmt;

use super::data::{Dataset, Points};
use grundy_core::catalog::AnyGame;
use grundy_core::error::Error;
use grundy_core::game::Grid;
use grundy_core::sg::table::TableOptions;

/// One summand of a coordinate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Term {
    /// The parameter with this index.
    Param(usize),
    Const(u64),
}

/// Positions given by parameters: coordinate i is the sum of `coords[i]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    /// Parameter names, in order of first appearance: the program's x0, x1, ...
    params: Vec<String>,
    coords: Vec<Vec<Term>>,
}

/// A member: its parameter values and its position.
pub type Member = (Vec<u64>, Vec<u64>);

/// Parameters a family may have (the box of parameters is enumerated whole).
const MAX_PARAMS: usize = 8;
/// Parameter vectors enumerated at most: as many as the positions of a large table.
const MAX_PARAM_VECTORS: usize = 1 << 28;

impl Family {
    /// Parses `spec` for a game with `vertices` vertices: comma-separated coordinates, each a
    /// `+`-separated sum of parameter names (a letter, then letters, digits or `_`) and
    /// non-negative integers.
    pub fn parse(spec: &str, vertices: usize) -> Result<Family, Error> {
        let bad = |msg: String| Error::Usage(format!("bad family `{spec}`: {msg}"));
        let mut params: Vec<String> = Vec::new();
        let mut coords = Vec::new();
        for coord in spec.split(',') {
            let mut terms = Vec::new();
            for term in coord.split('+') {
                let term = term.trim();
                if term.is_empty() {
                    return Err(bad("an empty coordinate or term".into()));
                }
                if term.bytes().all(|b| b.is_ascii_digit()) {
                    let c = term
                        .parse()
                        .map_err(|_| bad(format!("the constant {term} is too large")))?;
                    terms.push(Term::Const(c));
                    continue;
                }
                let mut chars = term.chars();
                let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
                if !first_ok || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return Err(bad(format!(
                        "`{term}` is neither a parameter name nor a number"
                    )));
                }
                let index = match params.iter().position(|p| p == term) {
                    Some(i) => i,
                    None => {
                        params.push(term.to_string());
                        params.len() - 1
                    }
                };
                terms.push(Term::Param(index));
            }
            coords.push(terms);
        }
        if coords.len() != vertices {
            return Err(bad(format!(
                "{} coordinates for a game with {vertices} vertices",
                coords.len()
            )));
        }
        if params.is_empty() {
            return Err(bad("no parameter".into()));
        }
        if params.len() > MAX_PARAMS {
            return Err(bad(format!(
                "{} parameters; at most {MAX_PARAMS}",
                params.len()
            )));
        }
        Ok(Family { params, coords })
    }

    /// Coordinates of its positions: the vertices (or heaps) of the game it was parsed for.
    pub fn vertices(&self) -> usize {
        self.coords.len()
    }

    /// The parameters' names, in the order the program reads them.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The position of parameter values `p`, or `None` when a coordinate would overflow.
    pub fn position(&self, p: &[u64]) -> Option<Vec<u64>> {
        self.coords
            .iter()
            .map(|terms| {
                terms.iter().try_fold(0u64, |sum, t| {
                    sum.checked_add(match *t {
                        Term::Param(i) => p[i],
                        Term::Const(c) => c,
                    })
                })
            })
            .collect()
    }

    /// Every parameter vector whose position lies in [0,max)^n, row-major over the
    /// parameters (each parameter is below `max`: it is a summand of some coordinate), with
    /// its position.
    pub fn members(&self, max: usize) -> Result<Vec<Member>, Error> {
        let grid = Grid::cube(self.params.len(), max)?;
        if grid.len() > MAX_PARAM_VECTORS {
            return Err(Error::Resource(format!(
                "the family's {} parameters below {max} span {} vectors; at most {MAX_PARAM_VECTORS} \
                 are enumerated (a smaller box)",
                self.params.len(),
                grid.len()
            )));
        }
        let mut out = Vec::new();
        let mut p = vec![0u64; self.params.len()];
        for _ in 0..grid.len() {
            if let Some(x) = self
                .position(&p)
                .filter(|x| x.iter().all(|&c| c < max as u64))
            {
                out.push((p.clone(), x));
            }
            // The next parameter vector, row-major.
            for v in p.iter_mut().rev() {
                *v += 1;
                if *v < max as u64 {
                    break;
                }
                *v = 0;
            }
        }
        Ok(out)
    }

    /// The family's members in [0,max)^n as data over the parameters, valued by tabulating
    /// the box.
    pub fn dataset(
        &self,
        game: &dyn AnyGame,
        max: usize,
        opts: &TableOptions,
    ) -> Result<Dataset, Error> {
        let members = self.members(max)?;
        if members.is_empty() {
            return Err(Error::Usage(format!(
                "the family {self} has no member in [0,{max})^{}",
                self.coords.len()
            )));
        }
        // Members are looked up in the whole box's table (its memory check refuses a box too
        // large).
        let n = game.variables();
        let t = game.tabulate(&vec![max; n], opts)?;
        let mut points = Points::with_capacity(self.params.len(), members.len());
        let mut values = Vec::with_capacity(members.len());
        for (p, x) in &members {
            let i = t.grid().index(x).expect("members lie in the box");
            // Members that are not positions of the game (on Chomp, heights that grow to the
            // right) are not in the data, as they are not in a box's.
            if let Some(v) = t.value_at(i) {
                points.push(p);
                values.push(v);
            }
        }
        if values.is_empty() {
            return Err(Error::Usage(format!(
                "no member of the family {self} in [0,{max})^{n} is a position of {}",
                game.name()
            )));
        }
        Ok(Dataset {
            vars: self.params.len(),
            points,
            values,
            source: format!("{} positions ({self}) in [0,{max})^{n}", game.name()),
        })
    }

    /// "x0, x1, x2 are a, b, c in the positions (a,a,b,b,c,c) of projective-plane".
    pub fn describe(&self, game: &str) -> String {
        let xs: Vec<String> = (0..self.params.len()).map(|i| format!("x{i}")).collect();
        format!(
            "{} {} {} in the positions ({self}) of {game}",
            xs.join(", "),
            if xs.len() == 1 { "is" } else { "are" },
            self.params.join(", ")
        )
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, terms) in self.coords.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            for (j, t) in terms.iter().enumerate() {
                if j > 0 {
                    f.write_str("+")?;
                }
                match *t {
                    Term::Param(p) => f.write_str(&self.params[p])?,
                    Term::Const(c) => write!(f, "{c}")?,
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_core::catalog::spec;

    #[test]
    fn families_parse_and_print() {
        let f = Family::parse("a, a, b, c, a+b+c, a+b+c", 6).unwrap();
        assert_eq!(f.params(), ["a", "b", "c"]);
        assert_eq!(f.to_string(), "a,a,b,c,a+b+c,a+b+c");
        assert_eq!(f.position(&[1, 2, 3]), Some(vec![1, 1, 2, 3, 6, 6]));
        let g = Family::parse("n,0,n+1", 3).unwrap();
        assert_eq!(g.position(&[4]), Some(vec![4, 0, 5]));
        for (spec, needle) in [
            ("a,a,b", "3 coordinates for a game with 6 vertices"),
            ("a,,b,b,c,c", "an empty coordinate"),
            ("a,a,b,b,c,2c", "`2c` is neither"),
            ("0,0,0,0,0,0", "no parameter"),
            ("a,b,c,d,e,f+g+h+i", "9 parameters"),
        ] {
            let err = Family::parse(spec, 6).unwrap_err().to_string();
            assert!(err.contains(needle), "{spec}: {err}");
        }
    }

    #[test]
    fn too_many_parameter_vectors_are_refused() {
        let f = Family::parse("a+b+c+d+e+f+g+h", 1).unwrap();
        let err = f.members(16).unwrap_err();
        assert_eq!(err.kind(), grundy_core::error::Kind::Resource, "{err}");
    }

    #[test]
    fn members_stay_in_the_box() {
        let f = Family::parse("a,b,a+b", 3).unwrap();
        let m = f.members(4).unwrap();
        // a + b < 4 with a, b >= 0: 10 pairs.
        assert_eq!(m.len(), 10);
        assert!(m.iter().all(|(p, x)| x == &vec![p[0], p[1], p[0] + p[1]]));
    }

    /// The family's values are the game's values at its positions: on P3, (a,b,a) is a zero
    /// position exactly when b = 0 (x0 = x2 and x1 = 0).
    #[test]
    fn family_data_are_the_games_values() {
        let game = spec::parse_hypergraph("path:3").unwrap();
        let f = Family::parse("a,b,a", 3).unwrap();
        let data = f.dataset(&game, 6, &TableOptions::default()).unwrap();
        assert_eq!(data.vars, 2);
        assert_eq!(data.points.len(), 36);
        for (p, &v) in data.points.iter().zip(&data.values) {
            assert_eq!(v == 0, p[1] == 0, "{p:?}");
        }
    }
}
