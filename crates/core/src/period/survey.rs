//! Surveys: the period of every game of a family (three-element subtraction sets with elements
//! up to 20, octal or hex codes of two digits), one row per game, resumable from the rows already
//! written, and filtered by conditions on the rows.

use std::fmt;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{analyse, Analysis, Criterion};
use crate::catalog::spec;
use crate::cluster::{dealt, Team};
use crate::error::{Error, OptionKey};
use crate::progress::Progress;

/// Most games one survey takes on.
pub const MAX_MEMBERS: u64 = 1_000_000;

/// Games valued at once between two writes of rows: what an interruption may lose.
const CHUNK: usize = 64;

/// Games per rank between two writes under MPI: each chunk ends with a few collective steps
/// in which ranks wait for the slowest, so chunks are longer there.
const RANK_CHUNK: usize = 512;

/// A family of heap games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "family", rename_all = "kebab-case")]
pub enum Family {
    /// Subtraction sets of `size` elements from 1..=`max_element`.
    Subtraction {
        /// Elements in each set.
        size: usize,
        /// The largest element allowed.
        max_element: usize,
    },
    /// Octal codes 0.d1...dk of `digits` digits, the last non-zero.
    Octal {
        /// Digits after the point.
        digits: usize,
    },
    /// Hex codes 0.d1...dk of `digits` digits, the last non-zero.
    Hex {
        /// Digits after the point.
        digits: usize,
    },
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Family::Subtraction { size, max_element } => write!(
                f,
                "subtraction sets of {size} elements from 1..{max_element}"
            ),
            Family::Octal { digits } => write!(f, "octal codes 0.d1..d{digits}"),
            Family::Hex { digits } => write!(f, "hex codes 0.d1..d{digits}"),
        }
    }
}

/// C(n, k), saturating.
fn binomial(n: usize, k: usize) -> u64 {
    (0..k as u64).fold(1u64, |c, i| c.saturating_mul(n as u64 - i) / (i + 1))
}

impl Family {
    /// The specs of the family's games, in a fixed order; refuses more than [`MAX_MEMBERS`].
    pub fn members(&self) -> Result<Vec<String>, Error> {
        let count = match *self {
            Family::Subtraction { size, max_element } if size == 0 || size > max_element => {
                return Err(Error::refused(
                    OptionKey::Size,
                    format!(" must be between 1 and the largest element ({max_element})"),
                ))
            }
            Family::Subtraction { size, max_element } => binomial(max_element, size),
            Family::Octal { digits: 0 } | Family::Hex { digits: 0 } => {
                return Err(Error::refused(OptionKey::Digits, " must be at least 1"))
            }
            Family::Octal { digits } | Family::Hex { digits } => {
                let radix = self.radix() as u64;
                (radix - 1).saturating_mul(radix.saturating_pow(digits as u32 - 1))
            }
        };
        if count > MAX_MEMBERS {
            return Err(Error::Resource(format!(
                "the family has {count} games; a survey takes at most {MAX_MEMBERS}"
            )));
        }
        let mut out = Vec::with_capacity(count as usize);
        match *self {
            Family::Subtraction { size, max_element } => {
                let mut set: Vec<usize> = (1..=size).collect();
                loop {
                    let list: Vec<String> = set.iter().map(|a| a.to_string()).collect();
                    out.push(format!("subtraction:{}", list.join(",")));
                    // The next set in lexicographic order.
                    let Some(i) = (0..size)
                        .rev()
                        .find(|&i| set[i] < max_element - (size - 1 - i))
                    else {
                        break;
                    };
                    set[i] += 1;
                    for j in i + 1..size {
                        set[j] = set[j - 1] + 1;
                    }
                }
            }
            Family::Octal { digits } | Family::Hex { digits } => {
                let (radix, kind) = (self.radix(), self.kind());
                for code in 0..radix.pow(digits as u32) {
                    let d: String = (0..digits)
                        .rev()
                        .map(|i| {
                            let digit = code / radix.pow(i as u32) % radix;
                            char::from_digit(digit as u32, radix as u32)
                                .expect("a digit below the radix")
                                .to_ascii_uppercase()
                        })
                        .collect();
                    if !d.ends_with('0') {
                        out.push(format!("{kind}:0.{d}"));
                    }
                }
            }
        }
        Ok(out)
    }

    /// The digits' base of a family of codes.
    fn radix(&self) -> usize {
        match self {
            Family::Hex { .. } => 16,
            _ => 8,
        }
    }

    /// The spec's prefix of a family of codes.
    fn kind(&self) -> &'static str {
        match self {
            Family::Hex { .. } => "hex",
            _ => "octal",
        }
    }
}

/// How far a survey settled one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The period is proved by its finite check.
    Proved,
    /// The values repeat, but nothing proves it.
    Observed,
    /// The values computed show no repetition.
    Unsettled,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Proved => "proved",
            Outcome::Observed => "observed",
            Outcome::Unsettled => "unsettled",
        })
    }
}

/// What a survey found for one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// The game's spec.
    pub game: String,
    pub(crate) status: Outcome,
    pub(crate) preperiod: Option<usize>,
    pub(crate) period: Option<usize>,
    /// The saltus of an arithmetic period (proved ones: only when not 0; observed ones: 0 for
    /// a plain repetition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saltus: Option<u32>,
    /// The check that proves it: `window`, `guy-smith`, `repeated-state` or `slices`.
    pub criterion: Option<String>,
    /// The largest heap the proof compared.
    pub checked_up_to: Option<usize>,
    /// Heaps valued.
    pub computed: usize,
}

impl Row {
    /// The row of an analysis of `game`.
    pub fn of(game: &str, a: &Analysis) -> Self {
        let mut row = Row {
            game: game.to_string(),
            status: Outcome::Unsettled,
            preperiod: None,
            period: None,
            saltus: None,
            criterion: None,
            checked_up_to: None,
            computed: a.values.len(),
        };
        if let Some(p) = &a.proved {
            row.status = Outcome::Proved;
            row.preperiod = Some(p.preperiod);
            row.period = Some(p.period);
            row.checked_up_to = Some(p.checked_up_to);
            row.saltus = (p.saltus > 0).then_some(p.saltus);
            row.criterion = Some(
                match p.criterion {
                    Criterion::Window { .. } => "window",
                    Criterion::GuySmith { .. } => "guy-smith",
                    Criterion::RepeatedState { .. } => "repeated-state",
                    Criterion::Slices { .. } => "slices",
                }
                .into(),
            );
        } else if let Some(o) = &a.observed {
            row.status = Outcome::Observed;
            row.preperiod = Some(o.preperiod);
            row.period = Some(o.period);
            row.saltus = Some(o.saltus);
        }
        row
    }

    /// The value of a field a filter may name.
    fn field(&self, name: Field) -> Option<usize> {
        match name {
            Field::Preperiod => self.preperiod,
            Field::Period => self.period,
            Field::Computed => Some(self.computed),
        }
    }

    /// Whether the row's game is the octal code `code` (written as an octal or a hex code).
    pub fn is_code(&self, code: &str) -> bool {
        ["octal:", "hex:"]
            .iter()
            .any(|kind| self.game.strip_prefix(kind) == Some(code))
    }

    /// The subtraction set, for rows of subtraction games.
    pub fn set(&self) -> Option<Vec<usize>> {
        let list = self.game.strip_prefix("subtraction:")?;
        list.split(',').map(|a| a.parse().ok()).collect()
    }
}

/// The header line of a survey file: which survey its rows belong to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The family surveyed.
    pub survey: Family,
    /// Heaps valued at most per game.
    pub max_heap: usize,
}

/// Values every game of `members` not in `done`, a chunk at a time (in parallel
/// within a rank, dealt round robin among the `team`'s ranks), and hands each chunk's rows to
/// `emit` in the members' order (so a file written from them resumes cleanly). Only rank 0
/// emits; every rank returns the first error any rank met.
pub fn run(
    members: &[String],
    done: &ahash::AHashSet<String>,
    max_heap: usize,
    team: &dyn Team,
    progress: &dyn Progress,
    emit: &mut dyn FnMut(&[Row]) -> Result<(), Error>,
) -> Result<(), Error> {
    let todo: Vec<&String> = members.iter().filter(|m| !done.contains(*m)).collect();
    let size = team.size();
    progress.start("games", todo.len() as u64);
    let chunk = if size == 1 { CHUNK } else { RANK_CHUNK * size };
    for chunk in todo.chunks(chunk) {
        let mine: Vec<&String> = dealt(chunk.len(), team.rank(), size)
            .map(|i| chunk[i])
            .collect();
        let rows: Result<Vec<Row>, Error> = mine
            .par_iter()
            .map(|game| {
                let g = spec::parse_heap(game)?;
                let a = analyse(g.rule(), max_heap, &crate::progress::Silent);
                Ok(Row::of(game, &a))
            })
            .collect();
        let rows = team.settle(rows)?;
        let emitted = match gather_rows(team, rows)? {
            Some(rows) => emit(&rows),
            None => Ok(()),
        };
        team.settle(emitted)?;
        progress.advance(chunk.len() as u64);
    }
    progress.finish();
    Ok(())
}

/// The rows every rank valued from a chunk dealt round robin, back in the chunk's order at
/// rank 0 (`None` at the others).
fn gather_rows(team: &dyn Team, rows: Vec<Row>) -> Result<Option<Vec<Row>>, Error> {
    let size = team.size();
    if size == 1 {
        return Ok(Some(rows));
    }
    let bytes = serde_json::to_vec(&rows).map_err(|e| Error::internal(e.to_string()))?;
    let Some(parts) = team.gather(&bytes) else {
        return Ok(None);
    };
    let mut parts = parts
        .iter()
        .map(|b| {
            let rows: Vec<Row> =
                serde_json::from_slice(b).map_err(|e| Error::internal(e.to_string()))?;
            Ok(rows.into_iter())
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let total: usize = parts.iter().map(|p| p.len()).sum();
    let rows = (0..total)
        .map(|i| parts[i % size].next())
        .collect::<Option<Vec<Row>>>()
        .ok_or_else(|| Error::internal("a rank sent fewer rows than it was dealt"))?;
    Ok(Some(rows))
}

/// A field a filter compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Preperiod,
    Period,
    Computed,
}

/// One comparison of a filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Condition {
    field: Field,
    op: &'static str,
    value: usize,
}

/// Conditions on rows, all of which must hold: `--where "preperiod > 0 and period >= 10"`,
/// `--period-min`. A condition on a field the row lacks (an unsettled game's period) fails.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    conditions: Vec<Condition>,
}

impl Filter {
    /// Parses `field op number` clauses joined by `and`; fields `preperiod`, `period`,
    /// `computed`, operators `< <= > >= == !=`.
    pub fn parse(text: &str) -> Result<Self, Error> {
        let bad = |msg: String| Error::refused(OptionKey::Where, format!(" `{text}`: {msg}"));
        let mut conditions = Vec::new();
        for clause in text.split(" and ") {
            let clause = clause.trim();
            let ops = ["<=", ">=", "==", "!=", "<", ">"];
            let Some((at, op)) = ops
                .iter()
                .filter_map(|op| clause.find(op).map(|at| (at, *op)))
                .min_by_key(|&(at, op)| (at, std::cmp::Reverse(op.len())))
            else {
                return Err(bad(format!(
                    "`{clause}` has no comparison (< <= > >= == !=)"
                )));
            };
            let field = match clause[..at].trim() {
                "preperiod" => Field::Preperiod,
                "period" => Field::Period,
                "computed" => Field::Computed,
                other => {
                    return Err(bad(format!(
                        "unknown field `{other}` (preperiod, period, computed)"
                    )))
                }
            };
            let number = clause[at + op.len()..].trim();
            let value = number
                .parse()
                .map_err(|_| bad(format!("`{number}` is not a whole number")))?;
            conditions.push(Condition { field, op, value });
        }
        Ok(Filter { conditions })
    }

    /// Adds `period >= min`.
    pub fn period_at_least(mut self, min: usize) -> Self {
        self.conditions.push(Condition {
            field: Field::Period,
            op: ">=",
            value: min,
        });
        self
    }

    /// Whether `row` passes every condition.
    pub fn accepts(&self, row: &Row) -> bool {
        self.conditions.iter().all(|c| {
            row.field(c.field).is_some_and(|x| match c.op {
                "<" => x < c.value,
                "<=" => x <= c.value,
                ">" => x > c.value,
                ">=" => x >= c.value,
                "==" => x == c.value,
                _ => x != c.value,
            })
        })
    }

    /// Whether there is no condition.
    pub fn is_empty(&self) -> bool {
        self.conditions.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Solo;
    use crate::progress::Silent;

    #[test]
    fn families_list_their_members_in_order() {
        let m = Family::Subtraction {
            size: 3,
            max_element: 5,
        }
        .members()
        .unwrap();
        assert_eq!(m.len(), 10);
        assert_eq!(m[0], "subtraction:1,2,3");
        assert_eq!(m[9], "subtraction:3,4,5");
        let o = Family::Octal { digits: 2 }.members().unwrap();
        assert_eq!(o.len(), 56);
        assert!(o.contains(&"octal:0.77".to_string()) && o.contains(&"octal:0.07".to_string()));
        assert!(!o.contains(&"octal:0.70".to_string()));
        let h = Family::Hex { digits: 2 }.members().unwrap();
        assert_eq!(h.len(), 240);
        assert_eq!((h[0].as_str(), h[239].as_str()), ("hex:0.01", "hex:0.FF"));
        assert!(h.contains(&"hex:0.29".to_string()) && !h.contains(&"hex:0.A0".to_string()));
        let huge = Family::Subtraction {
            size: 6,
            max_element: 200,
        };
        assert!(matches!(huge.members(), Err(Error::Resource(_))));
        let bad = Family::Subtraction {
            size: 4,
            max_element: 3,
        };
        let refused = |e: Error| match e {
            Error::Refused { key, msg } => {
                assert!(!msg.contains("--"), "no flag in the library: {msg}");
                key
            }
            e => panic!("{e:?}"),
        };
        assert_eq!(refused(bad.members().unwrap_err()), OptionKey::Size);
        let none = Family::Octal { digits: 0 }.members().unwrap_err();
        assert_eq!(refused(none), OptionKey::Digits);
        assert_eq!(
            refused(Filter::parse("length > 3").unwrap_err()),
            OptionKey::Where
        );
    }

    #[test]
    fn rows_carry_the_proof_and_filters_select_them() {
        let members = vec!["subtraction:1,3,4".to_string(), "octal:0.77".to_string()];
        let mut rows = Vec::new();
        run(
            &members,
            &Default::default(),
            4096,
            &Solo,
            &Silent,
            &mut |r| {
                rows.extend_from_slice(r);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(rows[0].period, Some(7));
        assert_eq!(rows[0].criterion.as_deref(), Some("window"));
        assert_eq!((rows[1].preperiod, rows[1].period), (Some(71), Some(12)));
        assert_eq!(rows[1].criterion.as_deref(), Some("guy-smith"));
        let f = Filter::parse("preperiod > 0 and period<=12").unwrap();
        assert!(!f.accepts(&rows[0]) && f.accepts(&rows[1]));
        let f = Filter::default().period_at_least(8);
        assert!(!f.accepts(&rows[0]) && f.accepts(&rows[1]));
        assert!(Filter::parse("period >= 7").unwrap().accepts(&rows[0]));
        assert!(!Filter::parse("period != 7").unwrap().accepts(&rows[0]));
        for bad in [
            "period",
            "length > 3",
            "period > x",
            "period > 1 or period < 3",
        ] {
            assert!(Filter::parse(bad).is_err(), "{bad}");
        }
        // Resumed: games done are skipped.
        let done: ahash::AHashSet<String> = members[..1].iter().cloned().collect();
        let mut again = Vec::new();
        run(&members, &done, 4096, &Solo, &Silent, &mut |r| {
            again.extend_from_slice(r);
            Ok(())
        })
        .unwrap();
        assert_eq!(again, rows[1..]);
    }
}
