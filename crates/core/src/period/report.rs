//! The written report of a survey, in Markdown or LaTeX: counts, the known facts checked
//! against its rows, the distributions of periods and preperiods, and the rows worth a look.

use std::collections::BTreeMap;

use super::survey::{Filter, Header, Outcome, Row};

/// Rows each "longest" table lists.
const TOP: usize = 10;

/// A known fact about some games of a survey, and how its rows bear it out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FactCheck {
    pub(crate) fact: &'static str,
    /// The games the fact speaks of.
    pub games: usize,
    /// Those whose row contradicts it (or does not prove what it states), with the row's
    /// finding.
    pub failures: Vec<String>,
}

/// What a fact predicts for a row: `Some((preperiod, period))` (preperiod `None` when the
/// fact leaves it open), or `None` when the fact does not speak of the game.
type Predict = fn(&Row) -> Option<(Option<usize>, usize)>;

/// The known facts: S = {1..k}, runs {a..b}, two-element sets, {1,3,4}, and the octal games
/// of Winning Ways (as octal or hex codes: digits below 8 mean the same in both).
const FACTS: &[(&str, Predict)] = &[
    ("S = {1, ..., k}: preperiod 0, period k + 1", |r| {
        let s = r.set()?;
        (s.iter().enumerate().all(|(i, &a)| a == i + 1)).then(|| (Some(0), s.len() + 1))
    }),
    (
        "S = {a, a + 1, ..., b}: preperiod 0, period a + b (G(n) = floor((n mod (a + b)) / a))",
        |r| {
            let s = r.set()?;
            let (a, b) = (*s.first()?, *s.last()?);
            (b - a + 1 == s.len()).then_some((Some(0), a + b))
        },
    ),
    (
        "S = {a, b}, a < b: period a + b, or 2a when b is an odd multiple of a",
        |r| match r.set()?[..] {
            [a, b] if b % a == 0 && (b / a) % 2 == 1 => Some((None, 2 * a)),
            [a, b] => Some((None, a + b)),
            _ => None,
        },
    ),
    ("S = {1, 3, 4}: preperiod 0, period 7", |r| {
        (r.set()? == [1, 3, 4]).then_some((Some(0), 7))
    }),
    ("Kayles (0.77): preperiod 71, period 12", |r| {
        r.is_code("0.77").then_some((Some(71), 12))
    }),
    (
        "Dawson's Kayles (0.07): preperiod 53, period 34 (52 counted as Dawson's Chess)",
        |r| r.is_code("0.07").then_some((Some(53), 34)),
    ),
    ("Dawson's Chess (0.137): preperiod 52, period 34", |r| {
        r.is_code("0.137").then_some((Some(52), 34))
    }),
];

/// Checks every known fact that speaks of a game among `rows`; a fact holds on a row only
/// when the row's period is proved and agrees.
pub fn check_facts(rows: &[Row]) -> Vec<FactCheck> {
    FACTS
        .iter()
        .filter_map(|&(fact, predict)| {
            let mut games = 0;
            let mut failures = Vec::new();
            for r in rows {
                let Some((pre, period)) = predict(r) else {
                    continue;
                };
                games += 1;
                let holds = r.status == Outcome::Proved
                    && r.period == Some(period)
                    && pre.is_none_or(|p| r.preperiod == Some(p));
                if !holds {
                    failures.push(format!(
                        "{}: {} preperiod {:?}, period {:?}",
                        r.game, r.status, r.preperiod, r.period
                    ));
                }
            }
            (games > 0).then_some(FactCheck {
                fact,
                games,
                failures,
            })
        })
        .collect()
}

/// A piece of a report, written as Markdown or LaTeX.
enum Block {
    Heading(String),
    Para(String),
    Table(Vec<&'static str>, Vec<Vec<String>>),
}

/// How a report is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Markdown, for a README or an issue.
    Markdown,
    /// LaTeX, for a paper.
    Latex,
}

/// The report of a survey whose header is `header`, over `members` games of which `rows` were
/// valued; `filter` (described as `filter_text`) selects the rows the tables show.
pub fn write(
    header: &Header,
    members: usize,
    rows: &[Row],
    filter: &Filter,
    filter_text: &str,
    style: Style,
) -> String {
    let count = |status: Outcome| rows.iter().filter(|r| r.status == status).count();
    let mut blocks = vec![Block::Heading(format!("Survey: {}", header.survey))];
    let complete = if rows.len() == members {
        String::new()
    } else {
        format!(
            " The survey is incomplete: {} of its {members} games are valued; run it again to \
             go on.",
            rows.len()
        )
    };
    let grows = rows
        .iter()
        .filter(|r| r.status == Outcome::Proved && r.saltus.is_some())
        .count();
    let arithmetic = if grows > 0 {
        format!(" ({grows} of them arithmetic, with a saltus)")
    } else {
        String::new()
    };
    blocks.push(Block::Para(format!(
        "{members} games, each valued up to heap {}: {} periods proved{arithmetic}, {} \
         repetitions observed but not proved, {} unsettled.{complete}",
        header.max_heap,
        count(Outcome::Proved),
        count(Outcome::Observed),
        count(Outcome::Unsettled),
    )));

    let facts = check_facts(rows);
    if !facts.is_empty() {
        blocks.push(Block::Heading("Known facts, checked".into()));
        let table = facts
            .iter()
            .map(|f| {
                let result = if f.failures.is_empty() {
                    "holds".to_string()
                } else {
                    format!("FAILS: {}", f.failures.join("; "))
                };
                vec![f.fact.to_string(), f.games.to_string(), result]
            })
            .collect();
        blocks.push(Block::Table(vec!["fact", "games", "result"], table));
    }

    let shown: Vec<&Row> = rows.iter().filter(|r| filter.accepts(r)).collect();
    if !filter.is_empty() {
        blocks.push(Block::Para(format!(
            "The tables below show the {} games with {filter_text}.",
            shown.len()
        )));
    }
    let proved: Vec<&Row> = shown
        .iter()
        .copied()
        .filter(|r| r.status == Outcome::Proved)
        .collect();
    for (title, key) in [
        ("Periods", (|r: &Row| r.period) as fn(&Row) -> Option<usize>),
        ("Preperiods", |r: &Row| r.preperiod),
    ] {
        let mut histogram: BTreeMap<usize, usize> = BTreeMap::new();
        for r in &proved {
            *histogram.entry(key(r).unwrap_or(0)).or_default() += 1;
        }
        if histogram.is_empty() {
            continue;
        }
        blocks.push(Block::Heading(format!("{title} (proved)")));
        let table = histogram
            .iter()
            .map(|(v, n)| vec![v.to_string(), n.to_string()])
            .collect();
        blocks.push(Block::Table(vec!["value", "games"], table));
    }
    // A saltus column only where some proved row grows arithmetically.
    let saltus = proved.iter().any(|r| r.saltus.is_some());
    let row_cells = |r: &&Row| {
        let mut cells = vec![r.game.clone(), opt(r.preperiod), opt(r.period)];
        if saltus {
            cells.push(r.saltus.map_or("-".into(), |s| s.to_string()));
        }
        cells.push(opt(r.checked_up_to));
        cells
    };
    let columns = if saltus {
        vec!["game", "preperiod", "period", "saltus", "checked up to"]
    } else {
        vec!["game", "preperiod", "period", "checked up to"]
    };
    for (title, key) in [
        (
            "Longest periods",
            (|r: &Row| r.period) as fn(&Row) -> Option<usize>,
        ),
        ("Longest preperiods", |r: &Row| r.preperiod),
    ] {
        let mut top = proved.clone();
        // Longest first; ties in the survey's order.
        top.sort_by_key(|r| std::cmp::Reverse(key(r)));
        top.truncate(TOP);
        if !top.is_empty() {
            blocks.push(Block::Heading(title.into()));
            blocks.push(Block::Table(
                columns.clone(),
                top.iter().map(row_cells).collect(),
            ));
        }
    }
    // Every arithmetic period, in the survey's order: they are few, and each a theorem.
    if saltus {
        blocks.push(Block::Heading("Arithmetic periods (proved)".into()));
        blocks.push(Block::Table(
            columns.clone(),
            proved
                .iter()
                .filter(|r| r.saltus.is_some())
                .map(row_cells)
                .collect(),
        ));
    }
    let open: Vec<&Row> = shown
        .iter()
        .copied()
        .filter(|r| r.status != Outcome::Proved)
        .collect();
    if !open.is_empty() {
        blocks.push(Block::Heading("Not proved".into()));
        let table = open
            .iter()
            .map(|r| {
                let found = match (r.period, r.saltus) {
                    (Some(p), Some(s)) if s > 0 => format!("period {p}, saltus {s}, observed"),
                    (Some(p), _) => format!("period {p} observed"),
                    _ => "no repetition".into(),
                };
                vec![r.game.clone(), found, r.computed.to_string()]
            })
            .collect();
        blocks.push(Block::Table(vec!["game", "found", "heaps valued"], table));
    }
    render(&blocks, style)
}

fn opt(x: Option<usize>) -> String {
    x.map_or("-".into(), |v| v.to_string())
}

fn render(blocks: &[Block], style: Style) -> String {
    let mut out = String::new();
    if style == Style::Latex {
        out.push_str("\\documentclass{article}\n\\begin{document}\n");
    }
    let mut first = true;
    for b in blocks {
        match (b, style) {
            (Block::Heading(h), Style::Markdown) => {
                out.push_str(if first { "# " } else { "\n## " });
                out.push_str(h);
                out.push('\n');
            }
            (Block::Heading(h), Style::Latex) => {
                let cmd = if first { "section*" } else { "subsection*" };
                out.push_str(&format!("\n\\{cmd}{{{}}}\n", latex(h)));
            }
            (Block::Para(p), Style::Markdown) => out.push_str(&format!("\n{p}\n")),
            (Block::Para(p), Style::Latex) => out.push_str(&format!("\n{}\n", latex(p))),
            (Block::Table(head, rows), Style::Markdown) => {
                out.push_str(&format!("\n| {} |\n", head.join(" | ")));
                out.push_str(&format!("|{}\n", "---|".repeat(head.len())));
                for r in rows {
                    out.push_str(&format!("| {} |\n", r.join(" | ")));
                }
            }
            (Block::Table(head, rows), Style::Latex) => {
                out.push_str(&format!(
                    "\n\\begin{{tabular}}{{{}}}\n{} \\\\\n\\hline\n",
                    "l".repeat(head.len()),
                    head.iter()
                        .map(|h| latex(h))
                        .collect::<Vec<_>>()
                        .join(" & ")
                ));
                for r in rows {
                    let cells: Vec<String> = r.iter().map(|c| latex(c)).collect();
                    out.push_str(&format!("{} \\\\\n", cells.join(" & ")));
                }
                out.push_str("\\end{tabular}\n");
            }
        }
        first = false;
    }
    if style == Style::Latex {
        out.push_str("\n\\end{document}\n");
    }
    out
}

/// Text with LaTeX's special characters escaped.
fn latex(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '{' | '}' | '_' | '&' | '%' | '#' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '\\' => out.push_str("\\textbackslash{}"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::period::survey::{run, Family};
    use crate::progress::Silent;

    fn survey(family: Family) -> (Header, Vec<String>, Vec<Row>) {
        let members = family.members().unwrap();
        let mut rows = Vec::new();
        run(
            &members,
            &Default::default(),
            1 << 12,
            &crate::cluster::Solo,
            &Silent,
            &mut |r| {
                rows.extend_from_slice(r);
                Ok(())
            },
        )
        .unwrap();
        let header = Header {
            survey: family,
            max_heap: 1 << 12,
        };
        (header, members, rows)
    }

    /// Every two-element set up to 12 and every {1..k}, {1,3,4} among three-element sets up
    /// to 8 bear the facts out; a row altered to contradict one is caught.
    #[test]
    fn the_known_facts_hold_and_a_wrong_row_fails_them() {
        let (_, _, rows) = survey(Family::Subtraction {
            size: 2,
            max_element: 12,
        });
        let facts = check_facts(&rows);
        assert!(facts.iter().all(|f| f.failures.is_empty()), "{facts:?}");
        let two = facts.iter().find(|f| f.fact.contains("{a, b}")).unwrap();
        assert_eq!(two.games, 66);
        let (_, _, mut rows) = survey(Family::Subtraction {
            size: 3,
            max_element: 8,
        });
        let facts = check_facts(&rows);
        assert_eq!(facts.len(), 3, "{{1,2,3}}, runs and {{1,3,4}}: {facts:?}");
        assert!(facts.iter().all(|f| f.failures.is_empty()), "{facts:?}");
        let runs = facts.iter().find(|f| f.fact.contains("a + 1")).unwrap();
        assert_eq!(runs.games, 6, "{{1,2,3}} to {{6,7,8}}");
        let r = rows
            .iter_mut()
            .find(|r| r.game == "subtraction:1,3,4")
            .unwrap();
        r.period = Some(14);
        let facts = check_facts(&rows);
        assert_eq!(facts.iter().map(|f| f.failures.len()).sum::<usize>(), 1);
    }

    #[test]
    fn reports_show_counts_facts_and_the_longest_rows() {
        let (header, members, rows) = survey(Family::Subtraction {
            size: 3,
            max_element: 8,
        });
        let md = write(
            &header,
            members.len(),
            &rows,
            &Filter::default(),
            "",
            Style::Markdown,
        );
        assert!(md.starts_with("# Survey: subtraction sets of 3 elements from 1..8\n"));
        assert!(md.contains("56 games, each valued up to heap 4096: 56 periods proved"));
        assert!(
            md.contains("| S = {1, 3, 4}: preperiod 0, period 7 | 1 | holds |"),
            "{md}"
        );
        assert!(md.contains("## Longest periods"));
        let f = Filter::parse("preperiod > 0").unwrap();
        let some = write(
            &header,
            100,
            &rows[..3],
            &f,
            "preperiod > 0",
            Style::Markdown,
        );
        assert!(some.contains("incomplete: 3 of its 100"));
        assert!(some.contains("The tables below show the 0 games with preperiod > 0."));
        let tex = write(
            &header,
            members.len(),
            &rows,
            &Filter::default(),
            "",
            Style::Latex,
        );
        assert!(tex.contains("\\section*{Survey: subtraction sets"));
        assert!(tex.contains("S = \\{1, 3, 4\\}: preperiod 0, period 7 & 1 & holds \\\\"));
        assert!(tex.trim_end().ends_with("\\end{document}"));
    }
}
