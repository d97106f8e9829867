//! `grundy plot GAME --max D --out fig.png`: a heatmap of SG values on a 2-D slice of
//! positions, or for a heap game without `--heaps` its nim sequence with the period marked.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;

use super::output::Out;
use super::{SearchArgs, Status};
use crate::plot::{check_path, Heatmap, SequenceChart};
use grundy_core::catalog::spec::{self, Heaps};
use grundy_core::error::Error;
use grundy_core::game::Nimber;
use grundy_core::game::Stones;
use grundy_core::period::analyse_until;
use grundy_core::play::Oracle;
use grundy_core::progress::Silent;
use grundy_core::sg::with_deep_stack;

/// The largest side of a heatmap: past it, cells are under a pixel.
const MAX_SIDE: u32 = 400;

/// The longest nim sequence drawn.
const MAX_SEQUENCE: u32 = 100_000;

/// How long the period of a drawn sequence is looked for.
const PERIOD_SECONDS: u64 = 10;

#[derive(Args, Debug)]
pub struct PlotArgs {
    /// Game spec, e.g. path:3, circular:5,2, subtraction:1,3,4 (a heap game without --heaps
    /// draws its nim sequence).
    game: String,
    /// Counts 0..D-1 on each axis (heaps 0..D-1 of a nim sequence), as `table --max D` and
    /// `synth --max D` mean the box [0,D)^n.
    #[arg(long, value_name = "D")]
    max: u32,
    /// The two coordinates on the axes, horizontal first [default: 0,1].
    #[arg(long, value_name = "I,J", value_delimiter = ',')]
    axes: Option<Vec<usize>>,
    /// Counts held fixed off the axes, e.g. `--fix 1=1 --fix 3=2` (others are 0).
    #[arg(long, value_name = "K=V", value_parser = parse_fix)]
    fix: Vec<(usize, u32)>,
    /// Heaps of a heap game's sum to plot a slice of, instead of its nim sequence.
    #[arg(long, value_name = "N")]
    heaps: Option<usize>,
    /// The picture: .png or .svg.
    #[arg(long, value_name = "PATH")]
    out: PathBuf,
    #[command(flatten)]
    search: SearchArgs,
    /// Print one JSON object (what was drawn) instead of text.
    #[arg(long)]
    pub json: bool,
}

fn parse_fix(s: &str) -> Result<(usize, u32), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("expected K=V (a coordinate and its count), got `{s}`"))?;
    match (k.trim().parse(), v.trim().parse()) {
        (Ok(k), Ok(v)) => Ok((k, v)),
        _ => Err(format!("expected K=V with whole numbers, got `{s}`")),
    }
}

pub fn run(args: &PlotArgs) -> Result<Status, Error> {
    check_path(&args.out)?;
    let sequence = args.heaps.is_none() && spec::parse_heap(&args.game).is_ok();
    if sequence {
        if !args.fix.is_empty() || args.axes.is_some() {
            return Err(Error::Usage(
                "--axes and --fix choose a slice of a sum of heaps: give --heaps N too".into(),
            ));
        }
        return nim_sequence(args);
    }
    let heaps = Heaps {
        given: args.heaps,
        typed: None,
    };
    let game = spec::parse(&args.game, heaps)?;
    let n = game.variables();
    if n < 2 {
        return Err(Error::Usage(format!(
            "{} has one {}: a heatmap needs two coordinates",
            game.name(),
            game.coordinate().0
        )));
    }
    let (x, y) = match args.axes.as_deref().unwrap_or(&[0, 1]) {
        &[x, y] if x != y && x < n && y < n => (x, y),
        axes => {
            return Err(Error::Usage(format!(
                "--axes needs two different coordinates below {n}, got {axes:?}"
            )))
        }
    };
    if args.max == 0 || args.max > MAX_SIDE {
        return Err(Error::Usage(format!(
            "--max must be from 1 to {MAX_SIDE}, got {}",
            args.max
        )));
    }
    let mut base = vec![0u64; n];
    for &(k, v) in &args.fix {
        if k >= n || k == x || k == y {
            return Err(Error::Usage(format!(
                "--fix {k}={v}: the coordinate must be below {n} and off the axes"
            )));
        }
        base[k] = v as u64;
    }
    let mut corner = base.clone();
    corner[x] = u64::from(args.max - 1);
    corner[y] = u64::from(args.max - 1);
    let corner: Stones = corner.iter().map(|&c| c as u32).collect();
    let opts = args.search.table_options(false)?;
    let (cfg, engine) = (args.search.config()?, args.search.engine);
    let side = args.max as usize;
    let values: Vec<Vec<Option<Nimber>>> = with_deep_stack(|| {
        let mut oracle = Oracle::new(game.as_ref(), &corner, engine, cfg, &opts)?;
        let rows = (0..side).map(|j| {
            (0..side)
                .map(|i| {
                    let mut p = base.clone();
                    p[x] = i as u64;
                    p[y] = j as u64;
                    let p = game.position(&p).ok()?;
                    Some(oracle.nimber(&p))
                })
                .collect()
        });
        Ok::<_, Error>(rows.collect())
    })?;
    let valued = values.iter().flatten().flatten().count();
    if valued == 0 {
        return Err(Error::Usage(format!(
            "no position of the slice is a position of {}",
            game.name()
        )));
    }
    let zeros = values.iter().flatten().filter(|v| **v == Some(0)).count();
    let (one, _) = game.coordinate();
    let off_axes: Vec<usize> = (0..n).filter(|&k| k != x && k != y).collect();
    let mut fixed: Vec<String> = off_axes
        .iter()
        .filter(|&&k| base[k] != 0 || off_axes.len() <= 3)
        .map(|&k| format!("x{k}={}", base[k]))
        .collect();
    if off_axes.len() > 3 && off_axes.iter().any(|&k| base[k] == 0) {
        fixed.push(
            if fixed.is_empty() {
                "others 0"
            } else {
                "the rest 0"
            }
            .into(),
        );
    }
    let fixed = match fixed.is_empty() {
        true => String::new(),
        false => format!(" at {}", fixed.join(", ")),
    };
    let map = Heatmap {
        title: match zeros {
            0 => format!("{}: SG values{fixed} (no zero positions)", game.name()),
            z => format!("{}: SG values{fixed} ({z} zeros, dotted)", game.name()),
        },
        x_label: format!("x{x}: {one} {x}"),
        y_label: format!("x{y}: {one} {y}"),
        values,
    };
    map.draw(&args.out)?;
    let top = map.values.iter().flatten().flatten().max().copied();
    let mut out = Out::new();
    if args.json {
        out.json(&serde_json::json!({
            "game": game.name(), "out": args.out, "kind": "heatmap", "axes": [x, y],
            "positions": valued, "zeros": zeros, "largest_value": top,
        }))?;
    } else {
        out.line(format_args!(
            "{}: {valued} positions ({zeros} zero), values up to {}, drawn",
            args.out.display(),
            top.unwrap_or(0)
        ))?;
    }
    Ok(Status::Answered)
}

/// A heap game's nim sequence below `--max`, with the period proved (or observed) within
/// [`PERIOD_SECONDS`].
fn nim_sequence(args: &PlotArgs) -> Result<Status, Error> {
    let game = spec::parse_heap(&args.game)?;
    if args.max == 0 || args.max > MAX_SEQUENCE {
        return Err(Error::Usage(format!(
            "--max must be from 1 to {MAX_SEQUENCE} for a nim sequence, got {}",
            args.max
        )));
    }
    let rule = game.rule();
    let deadline = Instant::now() + Duration::from_secs(PERIOD_SECONDS);
    let a = analyse_until(rule, spec::MAX_HEAP, &Silent, &|| {
        Instant::now() >= deadline
    });
    // The analysis valued heaps as far as its proof needed: extended to --max if short.
    let heaps = args.max as usize;
    let mut values = a.values.range_to_vec(0..heaps.min(a.values.len()));
    rule.extend(&mut values, heaps - 1, &grundy_core::game::heap::never);
    let chart = SequenceChart::of(rule.name(), values, &a);
    let (period, note) = (chart.period, chart.note());
    chart.draw(&args.out)?;
    let mut out = Out::new();
    if args.json {
        out.json(&serde_json::json!({
            "game": rule.name(), "out": args.out, "kind": "sequence", "heaps": args.max,
            "preperiod": period.map(|p| p.0), "period": period.map(|p| p.1),
            "proved": period.map(|p| p.2),
        }))?;
    } else {
        out.line(format_args!(
            "{}: G(0..={}) drawn; {note}",
            args.out.display(),
            args.max - 1
        ))?;
    }
    Ok(Status::Answered)
}
