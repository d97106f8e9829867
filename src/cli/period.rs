//! `grundy period GAME`: a heap game's nim sequence, and its period with the finite check that
//! proves it, stated as a theorem (text, LaTeX or JSON).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;

use super::output::Out;
use super::progress::Bar;
use super::{parse_seconds, Status};
use crate::plot::SequenceChart;
use grundy_core::catalog::spec;
use grundy_core::error::Error;
use grundy_core::period;
use grundy_core::period::contraction::contractions;
use grundy_core::period::words::{self, relation, text, unsettled};
use grundy_core::period::{
    analyse_kept, check_room, values_file, Analysis, Checkpoint, Criterion, Keeping,
};

#[derive(Args, Debug)]
pub struct PeriodArgs {
    /// A heap game: subtraction:1,3,4, subtraction:all-but:1,2, octal:0.77, hex:0.F,
    /// grundy-game.
    game: String,
    /// The largest heap to value while looking for a proof (values are computed up to 16,
    /// then to twice as far each round, or as far as a candidate period's check needs, until
    /// a period is proved).
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    max_heap: usize,
    /// Also list the smallest subsets of a finite subtraction set with the same nim sequence
    /// (each proved periodic, and equal to the set's below max(n0) + lcm(p)).
    #[arg(long)]
    contractions: bool,
    /// Stop valuing heaps after this many seconds (exit 3 with the values so far, unless they
    /// already prove a period).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    timeout: Option<f64>,
    /// Worker threads for the rare/common technique (0 or absent: every core): the next
    /// block's pairs are read while a block is valued, and long scans of pairs are shared out;
    /// the values are the same for any number.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Write the values computed, G(0) to the last heap valued, to FILE in grundy's compact
    /// binary format (a header with the game, the count and the bytes a value; see
    /// docs/heap-games.md).
    #[arg(long, value_name = "FILE")]
    values: Option<PathBuf>,
    /// Keep the values in FILE (the format of --values) as they are computed, so that a long
    /// run can stop and go on: FILE's values are read first when it exists (another game's are
    /// refused), and the values are saved there every --checkpoint-every seconds, at the end,
    /// and when Ctrl-C stops the run (which then reports what it has, exit 3).
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Seconds between two saves of --checkpoint's file while heaps are valued.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, default_value = "300", requires = "checkpoint")]
    checkpoint_every: f64,
    /// Hold the values in a file of DIR, mapped into memory, rather than in memory (Grundy's
    /// game and octal codes that split heaps): memory keeps the pages read lately and the
    /// kernel writes the rest to DIR, so a run far past the memory fits (2^32 heaps take
    /// 4 GiB of DIR). The file has no name and goes at the end; --values and --checkpoint
    /// still write theirs.
    #[arg(long, value_name = "DIR")]
    on_disk: Option<PathBuf>,
    /// Memory limit in GiB (default: 80% of available memory): a run whose values up to
    /// --max-heap would need more is refused before it starts.
    #[arg(long, value_name = "GIB")]
    mem_limit: Option<f64>,
    /// Print the theorem and its proof as LaTeX.
    #[arg(long, conflicts_with_all = ["json", "contractions"])]
    latex: bool,
    /// Also write the result up as a document: Markdown (.md) or LaTeX (.tex), with the
    /// nim sequence drawn beside it (the report's name with .png). Both paths are checked
    /// before the work; should the write fail after it, the answer is still printed (exit 2).
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &PeriodArgs) -> Result<Status, Error> {
    let game = spec::parse_heap(&args.game)?;
    let figure = match &args.report {
        Some(r) => Some(super::writeup::figure_path(r)?),
        None => None,
    };
    let outputs: Vec<(&str, &Path)> = [
        ("--report", args.report.as_deref()),
        ("the report's figure", figure.as_deref()),
        ("--values", args.values.as_deref()),
        ("--checkpoint", args.checkpoint.as_deref()),
    ]
    .into_iter()
    .filter_map(|(name, path)| Some((name, path?)))
    .collect();
    grundy_core::files::check_outputs(&outputs, &[])?;
    // Written after the work or as it goes: a path that cannot be written fails now.
    for (_, path) in &outputs {
        grundy_core::files::check_writable(path)?;
    }
    if args.max_heap < 1 || args.max_heap > period::MAX_HEAP {
        return Err(Error::Usage(format!(
            "--max-heap must be between 1 and {}, got {}",
            period::MAX_HEAP,
            args.max_heap
        )));
    }
    let full = game.rule().subtraction_set();
    let contractions = if args.contractions {
        let set = full.as_ref().ok_or_else(|| {
            Error::Usage(
                "--contractions needs a finite subtraction set, e.g. subtraction:1,3,5".into(),
            )
        })?;
        Some(contractions(set, args.max_heap)?)
    } else {
        None
    };
    let limit = super::memory_limit(args.mem_limit)?;
    check_room(game.rule(), args.max_heap, limit, args.on_disk.as_deref())?;
    let deadline = args
        .timeout
        .map(|s| Instant::now() + Duration::from_secs_f64(s));
    if args.checkpoint.is_some() {
        // The first Ctrl-C stops the run, whose values are then saved.
        super::interrupt::answer_on_ctrl_c();
    }
    let past_deadline =
        || grundy_synth::solver::stop_requested() || deadline.is_some_and(|d| Instant::now() >= d);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::Resource(format!("cannot start the worker threads: {e}")))?;
    let bar = Bar::new(!args.json);
    let keeping = Keeping {
        disk: args.on_disk.as_deref(),
        checkpoint: args.checkpoint.as_deref().map(|path| Checkpoint {
            path,
            every: Duration::from_secs_f64(args.checkpoint_every.max(1.0)),
        }),
    };
    let a =
        pool.install(|| analyse_kept(game.rule(), args.max_heap, &bar, &past_deadline, &keeping))?;
    if let Some(path) = &args.values {
        values_file::write(path, game.rule().name(), &a.values)?;
    }
    let name = game.rule().name();
    // A report that cannot be written does not cost the answer: it is printed, with the error.
    let failed = match (&args.report, &figure) {
        (Some(report), Some(figure)) => write_report(name, &a, report, figure).err(),
        _ => None,
    };
    let mut out = Out::new();
    if args.json {
        let mut report = words::Report::of(name, &a);
        if let Some(e) = &failed {
            super::output::error_entries(&mut report.fields, e);
        }
        if let Some(c) = &contractions {
            let sets = match c {
                Some(sets) => sets
                    .iter()
                    .map(|(s, _)| s.clone())
                    .collect::<Vec<_>>()
                    .into(),
                None => serde_json::Value::Null,
            };
            report.fields.insert("contractions".into(), sets);
        }
        out.json(&report)?;
    } else if args.latex {
        for line in latex(name, &a).lines() {
            out.line(format_args!("{line}"))?;
        }
    } else {
        for line in text(name, &a).lines() {
            out.line(format_args!("{line}"))?;
        }
        match &contractions {
            // The smallest subsets are the set itself: it has no proper contraction.
            Some(Some(sets)) if sets.iter().any(|(s, _)| Some(s) == full.as_ref()) => {
                out.line(format_args!(
                    "contractions: none (no smaller subset has the same values)"
                ))?;
            }
            Some(Some(sets)) => {
                for (set, p) in sets {
                    let set: Vec<String> = set.iter().map(|k| k.to_string()).collect();
                    out.line(format_args!(
                        "contraction: {{{}}} (preperiod {}, period {}; the same values, proved)",
                        set.join(","),
                        p.preperiod,
                        p.period
                    ))?;
                }
            }
            Some(None) => out.line(format_args!(
                "contractions: undecided (a subset's period was not proved within --max-heap)"
            ))?,
            None => {}
        }
    }
    if let Some(e) = failed {
        return Err(e);
    }
    // Values that settle nothing leave the question open (exit 3), as a timeout does.
    Ok(if a.proved.is_some() {
        Status::Answered
    } else {
        Status::Undecided
    })
}

fn latex(name: &str, a: &Analysis) -> String {
    let tt = |s: &str| format!("\\texttt{{{}}}", s.replace('_', "\\_"));
    let Some(p) = &a.proved else {
        return format!("% {name}: {}; nothing to state.\n", unsettled(a));
    };
    let (n0, per) = (p.preperiod, p.period);
    let relation = relation(per, p.saltus);
    let (kind, plain) = if p.saltus == 0 {
        ("periodic", String::new())
    } else {
        ("arithmetic-periodic", format!(" and saltus ${}$", p.saltus))
    };
    let least = if n0 == 0 {
        "The preperiod is $0$: the relation holds from $n = 0$.".to_string()
    } else {
        format!(
            "${}$ fails at $n = {}$, so the preperiod is ${n0}$.",
            relation,
            n0 - 1
        )
    };
    let proof = match p.criterion {
        Criterion::RepeatedState {
            window,
            at,
            repeat,
            shift,
        } => format!(
            "In {}, every amount above $w = {window}$ may be taken and no move splits a heap. \
             So for $n > w$, with $\\mu(n) = \\operatorname{{mex}}\\{{G(m) : m < n - w\\}}$, \
             $G(n) - \\mu(n)$ is fixed by the state at $n$: the values $G(m)$, $m < n - w$, \
             above $\\mu(n)$ and the last $w$ values, each less $\\mu(n)$ (or marked as below \
             it); and that state fixes the next state and $\\mu(n+1) - \\mu(n)$. The values \
             $G(0), \\dots, G({})$, computed from the definition, have equal states at $n = {at}$ \
             and $n = {}$, and $\\mu$ grows by ${shift}$ between them; by induction \
             $G(n + {repeat}) = G(n) + {shift}$ for all $n \\ge {at}$. The differences \
             $G(n + d) - G(n)$ thus repeat with period ${repeat}$ from ${at}$ on; over one such \
             stretch they are constant for $d = {per}$ and for no smaller divisor $d$ of \
             ${repeat}$, and periods are closed under gcd, so ${per}$ is the least. Below ${at}$ \
             the values show ${relation}$ down to $n = {n0}$. {least}",
            tt(name),
            p.checked_up_to,
            at + repeat,
        ),
        Criterion::Slices {
            from,
            block,
            saltus,
            window,
            end,
            ..
        } => format!(
            "In {}, {}. The values $G(0), \\dots, G({})$, computed from the definition, are \
             below $s$ before ${}$ and satisfy $G(n + {block}) = G(n) + {saltus}$ for \
             ${from} \\le n < {}$. By induction on $N \\ge {end}$: the heaps an option leaves \
             have $\\eta$ summing to at most $\\eta(N)$, so no option reaches \
             $s(\\eta(N) + 1)$; in the top slice their $\\eta$ have disjoint bits, so moving \
             all blocks onto one heap keeps the value, and adding ${block}$ to it matches \
             these options with those of $N - {block}$ in its top slice, whose mex is \
             $\\lambda(N - {block}) = \\lambda(N)$; every value below $s\\,\\eta(N)$ is an \
             option, as the values show for ${window} \\le N < {}$ by options with a heap \
             $y \\ge {from}$ whose other heaps' $\\eta$ xor to $0$ (slice $0$ by such \
             options whose other heaps include two of equal $\\eta$, both $\\ge {from}$), \
             which adding ${block}$ to $y$ (or to both of the pair) carries to $N + {block}$ \
             one slice up (or to $N + {}$ in place). So $G(N) = G(N - {block}) + {saltus}$. \
             The differences $G(n + d) - G(n)$ over one stretch of ${block}$ heaps from \
             ${from}$ are constant for $d = {per}$ and for no smaller divisor of ${block}$; \
             arithmetic periods are closed under gcd, so ${per}$ is the least. {least}",
            tt(name),
            p.criterion
                .describe()
                .replace("eta", "$\\eta$")
                .replace("lambda", "$\\lambda$"),
            p.checked_up_to,
            from + block,
            end - block,
            window + 2 * block,
            2 * block,
        ),
        c => format!(
            "In {}, {}. Hence if $G(n + p) = G(n)$ for ${n0} \\le n < {}$ ($= {}$, with \
             $n_0 = {n0}$, $p = {per}$), then for all $n \\ge {n0}$. The values \
             $G(0), \\dots, G({})$, computed from the definition, satisfy it; no smaller $p$ \
             passes the same check on them. {least}",
            tt(name),
            c.describe(),
            c.end(n0, per),
            c.formula().replace("n0", "n_0").replace("max", "\\max"),
            p.checked_up_to,
        ),
    };
    format!(
        "\\begin{{theorem}}\nThe nim sequence $G$ of {} is ultimately {kind} with preperiod \
         ${n0}$, period ${per}${plain}: ${relation}$ for all $n \\ge {n0}$, and no smaller \
         preperiod or period holds.\n\\end{{theorem}}\n\\begin{{proof}}\n{proof}\n\\end{{proof}}\n",
        tt(name),
    )
}

/// Heaps drawn in a report's figure: three periods past the preperiod, at least 60, at most
/// what was computed.
fn figure_heaps(a: &Analysis) -> usize {
    let wanted = match &a.proved {
        Some(p) => p.preperiod + 3 * p.period,
        None => 200,
    };
    wanted.clamp(60, 2000).min(a.values.len())
}

/// The write-up of a run: the rule, the values, the theorem and its proof (or what is left
/// open), and the nim sequence drawn.
fn write_report(name: &str, a: &Analysis, report: &Path, figure: &Path) -> Result<(), Error> {
    let shown = figure_heaps(a);
    let chart = SequenceChart::of(name, a.values.range_to_vec(0..shown), a);
    let note = chart.note();
    chart.draw(figure)?;
    let figure_name = figure
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let computed = a.values.len() - 1;
    let doc = if report.extension().and_then(|e| e.to_str()) == Some("tex") {
        format!(
            "\\documentclass{{article}}\n\\usepackage{{amsmath,amsthm,graphicx}}\n\
             \\newtheorem{{theorem}}{{Theorem}}\n\\begin{{document}}\n\
             \\section*{{The nim sequence of \\texttt{{{}}}}}\n\
             Values $G(0), \\dots, G({computed})$ were computed from the definition by \
             \\texttt{{grundy period}}.\n\n{}\n\
             \\begin{{figure}}[h]\n\\centering\n\
             \\includegraphics[width=\\linewidth]{{{figure_name}}}\n\
             \\caption{{$G(n)$ for $n \\le {}$: {note}.}}\n\\end{{figure}}\n\
             \\end{{document}}\n",
            name.replace('_', "\\_"),
            latex(name, a),
            shown - 1,
        )
    } else {
        format!(
            "# The nim sequence of {name}\n\n\
             Values G(0), ..., G({computed}) were computed from the definition by \
             `grundy period`.\n\n```text\n{}```\n\n\
             ![G(n) for n <= {}: {note}]({figure_name})\n",
            text(name, a),
            shown - 1,
        )
    };
    grundy_core::files::write(report, &doc)
}
