//! `grundy synth --report FILE`: a run written up as Markdown or LaTeX: the game, the box,
//! the counts of positions and zero positions, the program in its forms, how its length was
//! established, what it was verified on, and a figure of the values beside the report.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::report::{Facts, Report};
use crate::plot::Heatmap;
use grundy_core::error::Error;
use grundy_core::game::hypergraph::format_face;
use grundy_core::game::Nimber;
use grundy_synth::lang::words;
use grundy_synth::problem::Target;

/// Where the figure of a report goes: the report's name with `.png`. The report must be
/// `.md` or `.tex` (checked before the search).
pub fn figure_path(report: &Path) -> Result<PathBuf, Error> {
    match report.extension().and_then(|e| e.to_str()) {
        Some("md" | "tex") => Ok(report.with_extension("png")),
        _ => Err(Error::Usage(format!(
            "--report {}: a report is written as .md (Markdown) or .tex (LaTeX)",
            report.display()
        ))),
    }
}

/// The report's lines, as label and text, the same in both formats.
fn items(r: &Report<'_>, figure: Option<&str>) -> Vec<(&'static str, String)> {
    let facts = Facts::of(r.answer);
    let problem = r.problem;
    let mut items = Vec::new();
    if let Some(g) = r.game {
        items.push(("Game", g.name().to_string()));
        if let Some(h) = g.kind().hypergraph() {
            let faces: Vec<String> = h
                .graph()
                .maximal_faces()
                .iter()
                .map(|&f| format_face(f))
                .collect();
            items.push((
                "Complex",
                format!(
                    "{} vertices; maximal faces {}; a move takes stones from the vertices of one \
                     face",
                    g.variables(),
                    faces.join(" ")
                ),
            ));
        }
    }
    items.push(("Variables", r.variables.to_string()));
    items.push(("Data", problem.source.clone()));
    let zeros: Vec<&[u64]> = problem
        .points
        .iter()
        .zip(&problem.values)
        .filter(|(_, &v)| v == 0)
        .map(|(p, _)| p)
        .collect();
    let mut counts = format!(
        "{} positions, {} of them zero positions",
        problem.points.len(),
        zeros.len()
    );
    if let Some(g) = r.game {
        let orbits: BTreeSet<Vec<u64>> = problem
            .points
            .iter()
            .map(|p| g.canonical_point(p))
            .collect();
        let zero_orbits: BTreeSet<Vec<u64>> = zeros.iter().map(|p| g.canonical_point(p)).collect();
        counts += &format!(
            "; {} orbits under the game's symmetries, {} of them of zero positions",
            orbits.len(),
            zero_orbits.len()
        );
    }
    items.push(("Counts", counts));
    let target = match problem.target {
        Target::Zero => "0 exactly on the zero positions",
        Target::Indicator => "0 on the zero positions, 1 elsewhere",
        Target::Sg => "the SG value of each position",
    };
    let orbit = if problem.orbits {
        " (orbit criterion: p is a zero position iff some symmetric image of p gives 0)"
    } else {
        ""
    };
    items.push(("Target", format!("the program outputs {target}{orbit}")));
    if let Some(c) = r.form {
        items.push(("Form", format!("{} ({})", c.form.name(), c.why)));
    }
    match facts.program {
        Some(p) => {
            items.push(("Program", format!("`{p}`")));
            items.push(("Expression", format!("`{}`", p.infix())));
            items.push(("LaTeX", format!("${}$", p.latex())));
            if matches!(problem.target, Target::Zero | Target::Indicator) {
                if let Some(w) = words::zero_set(p, problem.mask()) {
                    items.push(("In words", format!("p is a zero position iff {w}")));
                }
            }
            items.push(("Length", format!("{} ({})", p.len(), facts.length_text())));
        }
        None => items.push(("Length", facts.length_text())),
    }
    items.push((
        "Language",
        format!("{}, on {}-bit words", problem.ops.describe(), problem.width),
    ));
    let mut verified = match facts.program {
        Some(_) => format!(
            "the program was run by the interpreter on all {} positions of the data and gives \
             the target on each",
            problem.points.len()
        ),
        None => "no program to verify".to_string(),
    };
    if let Some(c) = r.cross {
        verified += &match &c.counterexample {
            None => format!(
                "; on the larger box [0,{})^{} ({} positions, values recomputed by {}) it holds too",
                c.max,
                problem.vars(),
                c.points,
                c.engine
            ),
            Some(bad) => format!("; on the larger box [0,{}) it FAILS at {bad}", c.max),
        };
    }
    items.push(("Verification", verified));
    if let Some(p) = r.proof {
        let game = r.game.map_or("the game", |g| g.name());
        let theorem = super::synth::proof::sentence(p, game);
        items.push(("Theorem", theorem));
    }
    if let Some(f) = figure {
        items.push(("Figure", f.to_string()));
    }
    items
}

/// The values of the slice x0, x1 (the others 0) of the data, for the figure; `None` when
/// the data has fewer than two variables or no such slice.
fn slice(r: &Report<'_>) -> Option<Heatmap> {
    let problem = r.problem;
    let n = problem.vars();
    if n < 2 {
        return None;
    }
    let on_slice = |p: &[u64]| p[2..].iter().all(|&c| c == 0);
    let side = problem
        .points
        .iter()
        .filter(|p| on_slice(p))
        .map(|p| p[0].max(p[1]) as usize + 1)
        .max()?
        .min(200);
    let mut values: Vec<Vec<Option<Nimber>>> = vec![vec![None; side]; side];
    for (p, &v) in problem.points.iter().zip(&problem.values) {
        if on_slice(p) && (p[0] as usize) < side && (p[1] as usize) < side {
            values[p[1] as usize][p[0] as usize] = Some(v);
        }
    }
    let rest = if n > 2 { " at the others 0" } else { "" };
    Some(Heatmap {
        title: format!("{}: values{rest} (zeros dotted)", problem.source),
        x_label: "x0".into(),
        y_label: "x1".into(),
        values,
    })
}

/// Writes the report of a run to `path` (`.md` or `.tex`), and its figure beside it.
pub fn write(r: &Report<'_>, path: &Path) -> Result<(), Error> {
    let figure = figure_path(path)?;
    let drawn = match slice(r) {
        Some(map) => {
            map.draw(&figure)?;
            figure.file_name().map(|f| f.to_string_lossy().into_owned())
        }
        None => None,
    };
    let items = items(r, drawn.as_deref());
    let latex = path.extension().and_then(|e| e.to_str()) == Some("tex");
    let doc = if latex {
        let mut s = String::from(
            "\\documentclass{article}\n\\usepackage{amsmath,graphicx}\n\\begin{document}\n\
             \\section*{A formula for the zero positions}\n\\begin{description}\n",
        );
        for (label, text) in &items {
            if *label == "Figure" {
                continue;
            }
            let text = match *label {
                "LaTeX" => text.clone(),
                _ => tex_escape(text),
            };
            s += &format!("\\item[{label}] {text}\n");
        }
        s += "\\end{description}\n";
        if let Some(f) = &drawn {
            s += &format!(
                "\\begin{{figure}}[h]\n\\centering\n\\includegraphics[width=\\linewidth]{{{f}}}\n\
                 \\caption{{The values of the data on x0, x1 (zero positions dotted).}}\n\
                 \\end{{figure}}\n"
            );
        }
        s + "\\end{document}\n"
    } else {
        let mut s = String::from("# A formula for the zero positions\n\n");
        for (label, text) in &items {
            match *label {
                "Figure" => s += &format!("\n![The values of the data on x0, x1]({text})\n"),
                _ => s += &format!("- **{label}:** {text}\n"),
            }
        }
        s
    };
    grundy_core::files::write(path, &doc)
}

/// Text set in LaTeX: its special characters escaped, backquoted code in `\texttt`.
fn tex_escape(s: &str) -> String {
    let mut out = String::new();
    let mut code = false;
    for c in s.chars() {
        match c {
            '`' => {
                out += if code { "}" } else { "\\texttt{" };
                code = !code;
            }
            '\\' => out += "\\textbackslash{}",
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out += "\\^{}",
            '~' => out += "\\~{}",
            '<' => out += "\\textless{}",
            '>' => out += "\\textgreater{}",
            '|' => out += "\\textbar{}",
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tex_escapes_specials_and_sets_code() {
        assert_eq!(
            tex_escape("`x0 ^ x1` & 50% <ok>"),
            "\\texttt{x0 \\^{} x1} \\& 50\\% \\textless{}ok\\textgreater{}"
        );
        assert!(figure_path(Path::new("a.html")).is_err());
        assert_eq!(
            figure_path(Path::new("d/a.md")).unwrap(),
            Path::new("d/a.png")
        );
    }
}
