//! `grundy prove`: the theorem that a program's zero set is exactly the P-positions, for all
//! positions of a game of hypergraph nim or a sum of heaps, proved or refuted by z3.

use clap::{Args, ValueEnum};

use super::output::Out;
use super::{parse_seconds, Status};
use crate::error::Error;
use crate::game::heap::HeapSum;
use crate::game::hypergraph::HypergraphNim;
use crate::game::spec::{self, Heaps};
use crate::prove::heaps::Take;
use crate::prove::{self, Options, Theorem, Verdict};
use crate::synth::lang::Program;

#[derive(Args, Debug)]
pub struct ProveArgs {
    /// A game of hypergraph nim, e.g. path:3, nim:2, circular:4,2, or a heap game whose moves
    /// take from one heap without splitting it, e.g. subtraction:1,2,3 (with --heaps).
    game: String,
    /// How many heaps a heap game's sum has.
    #[arg(long, value_name = "N")]
    heaps: Option<usize>,
    /// The program, e.g. "Push(2) Push(0) BooleanEq Push(1) RightShift BooleanNot".
    #[arg(long)]
    program: String,
    /// The zero set is the union of the program's zero set over the automorphism group.
    #[arg(long)]
    orbits: bool,
    /// What the program claims: zero (it is 0 exactly on the P-positions); indicator and sg
    /// are not available yet.
    #[arg(long, value_enum, default_value_t = Target::Zero)]
    target: Target,
    /// Word width of a proof over bit-vectors (not available yet: readings are width-free).
    #[arg(long, value_name = "W")]
    width: Option<u32>,
    /// Prove over bit-vectors for heaps below 2^B, for programs with no linear reading (not
    /// available yet).
    #[arg(long, value_name = "B")]
    bound: Option<u32>,
    /// Give up after this many seconds (exit 3, status unknown).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    timeout: Option<f64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Target {
    Zero,
    Indicator,
    Sg,
}

/// Refuses, with the reason, what this first version does not prove.
fn not_yet(args: &ProveArgs) -> Result<(), Error> {
    let what = match (args.target, args.width, args.bound) {
        (Target::Indicator, ..) => "--target indicator",
        (Target::Sg, ..) => "--target sg",
        (_, Some(_), _) => "--width (a proof over bit-vectors)",
        (_, _, Some(_)) => "--bound (a proof over bit-vectors)",
        _ => return Ok(()),
    };
    Err(Error::Usage(format!(
        "{what} is not available yet: grundy prove proves zero targets over unbounded naturals"
    )))
}

pub fn run(args: &ProveArgs) -> Result<Status, Error> {
    not_yet(args)?;
    let program: Program = args.program.parse()?;
    let opts = Options {
        orbits: args.orbits,
        timeout: args.timeout,
    };
    let (t, takes) = theorem(args, &program, &opts)?;
    let status = match &t.verdict {
        Verdict::Proved => "proved",
        Verdict::Refuted(_) => "refuted",
        Verdict::Unknown(_) => "unknown",
    };
    let mut out = Out::new();
    if args.json {
        let (counterexample, undecided) = match &t.verdict {
            Verdict::Refuted(c) => (serde_json::json!(c), None),
            Verdict::Unknown(why) => (serde_json::Value::Null, Some(why.clone())),
            Verdict::Proved => (serde_json::Value::Null, None),
        };
        out.json(&serde_json::json!({
            "status": status,
            "scope": t.scope,
            "game": args.game,
            "program": program.names(),
            "expression": program.infix(),
            "orbits": args.orbits,
            "automorphisms": t.automorphisms,
            "faces": t.faces,
            "heaps": takes.as_ref().map(|_| t.faces),
            "reading": t.reading,
            "counterexample": counterexample,
            "undecided": undecided,
            "seconds": t.seconds,
        }))?;
    } else {
        let game = match &takes {
            Some(_) => format!("{} heaps of {}", t.faces, args.game),
            None => args.game.clone(),
        };
        let claim = match args.orbits {
            false => format!(
                "for {} of {}, the P-positions are exactly those with {} (where {} is 0, over \
                 unbounded naturals)",
                t.scope,
                game,
                t.reading.words,
                program.infix()
            ),
            true => format!(
                "for {} of {}, the P-positions are exactly those with an image under the {} \
                 automorphisms where {} (where {} is 0, over unbounded naturals)",
                t.scope,
                game,
                t.automorphisms,
                t.reading.words,
                program.infix()
            ),
        };
        match &t.verdict {
            Verdict::Proved => out.line(format_args!("proved: {claim}"))?,
            Verdict::Refuted(_) => out.line(format_args!("refuted: {claim}"))?,
            Verdict::Unknown(_) => out.line(format_args!("unknown: {claim}"))?,
        }
        out.line(format_args!("  reading:  {}", t.reading.words))?;
        out.line(format_args!("  infix:    {}", t.reading.infix))?;
        out.line(format_args!("  LaTeX:    {}", t.reading.latex))?;
        match (&t.verdict, &takes) {
            (Verdict::Proved, Some(takes)) => out.line(format_args!(
                "  by z3 over unbounded naturals: (A) no move ({} from one of the {} heaps) joins \
                 two positions of the set; (B) every position outside it has a move into it \
                 ({:.2} s)",
                amounts(takes),
                t.faces,
                t.seconds
            ))?,
            (Verdict::Proved, None) => out.line(format_args!(
                "  by z3 over unbounded naturals: (A) no move through any of the {} faces joins \
                 two positions of the set; (B) every position outside it has a move into it \
                 ({:.2} s)",
                t.faces, t.seconds
            ))?,
            (Verdict::Refuted(c), _) => out.line(format_args!(
                "  counterexample (re-checked by the game's moves): {c}"
            ))?,
            (Verdict::Unknown(why), _) => out.line(format_args!(
                "  z3 settled neither way after {:.2} s: {why}",
                t.seconds
            ))?,
        }
    }
    Ok(match t.verdict {
        Verdict::Proved => Status::Answered,
        Verdict::Refuted(c) => Status::Counterexample(format!(
            "the zero set of {} is not the set of P-positions of {}: {c}",
            program.infix(),
            args.game
        )),
        Verdict::Unknown(_) => Status::Undecided,
    })
}

/// The theorem about the game `args` names, and for a heap game the amounts its moves take.
fn theorem(
    args: &ProveArgs,
    program: &Program,
    opts: &Options,
) -> Result<(Theorem, Option<Vec<Take>>), Error> {
    let game = spec::parse(&args.game, Heaps::given(args.heaps))?;
    if let Some(g) = game.as_any().downcast_ref::<HypergraphNim>() {
        return Ok((prove::prove(g, program, opts)?, None));
    }
    if let Some(g) = game.as_any().downcast_ref::<HeapSum>() {
        let takes = prove::heaps::takes(g.game().rule())?;
        return Ok((prove::heaps::prove(g, program, opts)?, Some(takes)));
    }
    Err(Error::Usage(format!(
        "{} is a board game; grundy prove handles games of hypergraph nim and heap games",
        args.game
    )))
}

/// The amounts a move takes, e.g. "1, 2 or 3", each with its condition when it has one.
fn amounts(takes: &[Take]) -> String {
    let words: Vec<String> = takes
        .iter()
        .map(|t| match (t.whole, t.part) {
            (true, true) => t.amount.to_string(),
            (true, false) => format!("{} (a whole heap of {0} only)", t.amount),
            _ => format!("{} (leaving at least 1)", t.amount),
        })
        .collect();
    match words.split_last() {
        Some((last, [])) => format!("taking {last}"),
        Some((last, rest)) => format!("taking {} or {last}", rest.join(", ")),
        None => "taking nothing".into(),
    }
}
