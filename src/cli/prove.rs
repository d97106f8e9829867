//! `grundy prove`: the theorem that a program's zero set is exactly the P-positions, for all
//! positions of a game of hypergraph nim or a sum of heaps, proved or refuted by z3.

use clap::{Args, ValueEnum};

use super::interrupt;
use super::output::Out;
use super::{parse_seconds, Status};
use grundy_core::catalog::spec::{self, Heaps};
use grundy_core::error::Error;
use grundy_synth::lang::Program;
use grundy_synth::prove::heaps::Take;
use grundy_synth::prove::{self, Options, Theorem, Verdict};

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
    /// What the program claims: zero (it is 0 exactly on the P-positions), indicator (0 there
    /// and 1 elsewhere) or sg (it is the SG value).
    #[arg(long, value_enum, default_value_t = Target::Zero)]
    target: Target,
    /// Word width of a proof over bit-vectors (default: the least at which no step can wrap
    /// for heaps below 2^B; refused, with the width needed, where a step wraps).
    #[arg(long, value_name = "W")]
    width: Option<u32>,
    /// Prove over bit-vectors for every position with heaps below 2^B (the default for
    /// programs with no exact linear reading: the widest B at which no step passes 64 bits
    /// when candidate moves prove it there, else 4).
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

impl From<Target> for prove::Target {
    fn from(t: Target) -> Self {
        match t {
            Target::Zero => prove::Target::Zero,
            Target::Indicator => prove::Target::Indicator,
            Target::Sg => prove::Target::Sg,
        }
    }
}

/// The claim in words, for the first line.
fn claim(game: &str, args: &ProveArgs, t: &prove::Theorem, program: &Program) -> String {
    let scope = match t.bound {
        None => format!("for {} of {game}", t.scope),
        Some(_) => format!("for every position of {game} with {}", t.scope),
    };
    let set = match args.orbits {
        false => format!("those with {}", t.reading.words),
        true => format!(
            "those with an image under the {} automorphisms where {}",
            t.automorphisms, t.reading.words
        ),
    };
    let how = match (t.bound, t.width) {
        (None, _) if t.states.is_some() => {
            "in words wide enough that no step wraps, at every width".to_string()
        }
        (None, _) => format!("where {} is 0, over unbounded naturals", program.infix()),
        (Some(_), Some(w)) => {
            match prove::bitvec::free_differences(program, args.target == Target::Zero) {
                0 => format!("at width {w}, where no step wraps"),
                _ => format!(
                    "at width {w}, where no step wraps but differences compared with 0, which \
                     are 0 exactly when their sides are equal"
                ),
            }
        }
        (Some(_), None) => "over bit-vectors".to_string(),
    };
    match args.target {
        Target::Zero => format!("{scope}, the P-positions are exactly {set} ({how})"),
        Target::Indicator => format!(
            "{scope}, the P-positions are exactly {set}, and {} is 1 at every other position \
             ({how})",
            program.infix()
        ),
        Target::Sg => match (t.bound, t.states) {
            (None, None) => format!(
                "{scope}, the SG value is {} (the value of {}, over unbounded naturals)",
                t.reading.words,
                program.infix()
            ),
            _ => format!("{scope}, the SG value is {} ({how})", t.reading.words),
        },
    }
}

pub fn run(args: &ProveArgs) -> Result<Status, Error> {
    let program: Program = args.program.parse()?;
    let opts = Options {
        orbits: args.orbits,
        timeout: args.timeout,
        target: args.target.into(),
        bound: args.bound,
        width: args.width,
        fallback_bound: None,
    };
    // The first Ctrl-C interrupts z3, and the outcome is "unknown" (exit 3).
    interrupt::answer_on_ctrl_c();
    let found = theorem(args, &program, &opts)?;
    let (t, takes) = &found;
    let mut out = Out::new();
    if args.json {
        out.json(&prove::json(&found, &args.game, &program, args.orbits))?;
    } else {
        let game = match &takes {
            Some(_) => format!("{} heaps of {}", t.faces, args.game),
            None => args.game.clone(),
        };
        let claim = claim(&game, args, t, &program);
        match &t.verdict {
            Verdict::Proved => out.line(format_args!("proved: {claim}"))?,
            Verdict::Refuted(_) => out.line(format_args!("refuted: {claim}"))?,
            Verdict::Unknown(_) => out.line(format_args!("unknown: {claim}"))?,
        }
        out.line(format_args!("  reading:  {}", t.reading.words))?;
        out.line(format_args!("  infix:    {}", t.reading.infix))?;
        out.line(format_args!("  LaTeX:    {}", t.reading.latex))?;
        match (&t.no_linear_reading, t.states) {
            (Some(why), Some(_)) => out.line(format_args!(
                "  column by column: no exact linear reading ({why})"
            ))?,
            (Some(why), None) => out.line(format_args!(
                "  over bit-vectors: no exact linear reading ({why})"
            ))?,
            _ => {}
        }
        let domain = match (t.bound, t.width) {
            (None, _) if t.states.is_some() => "over unbounded naturals".to_string(),
            (None, _) => "by z3 over unbounded naturals".to_string(),
            (_, Some(w)) => format!("by z3 over {w}-bit words, for {}", t.scope),
            (_, None) => format!("by z3 over bit-vectors, for {}", t.scope),
        };
        let domain = match t.states {
            Some(k) => format!(
                "{domain}, reading their bits column by column ({k} states of the carries and \
                 comparisons reached)"
            ),
            None => domain,
        };
        let moves = match &takes {
            Some(takes) => format!(
                "no move ({} from one of the {} heaps)",
                amounts(takes),
                t.faces
            ),
            None => format!("no move through any of the {} faces", t.faces),
        };
        let conditions = match args.target {
            Target::Sg => {
                format!("(S1) {moves} keeps the value; (S2) every smaller value is some option's")
            }
            target => format!(
                "(A) {moves} joins two positions of the set; (B) every position outside it has a \
                 move into it{}",
                match target {
                    Target::Indicator => "; (C) the value is 0 or 1 everywhere",
                    _ => "",
                }
            ),
        };
        match &t.verdict {
            Verdict::Proved => out.line(format_args!(
                "  {domain}: {conditions} ({:.2} s)",
                t.seconds
            ))?,
            Verdict::Refuted(c) => out.line(format_args!(
                "  counterexample (re-checked by the game's moves): {c}"
            ))?,
            Verdict::Unknown(why) => out.line(format_args!(
                "  z3 settled neither way after {:.2} s: {why}",
                t.seconds
            ))?,
        }
    }
    Ok(match &t.verdict {
        Verdict::Proved => Status::Answered,
        Verdict::Refuted(c) => Status::Counterexample(match args.target {
            Target::Zero => format!(
                "the zero set of {} is not the set of P-positions of {}: {c}",
                program.infix(),
                args.game
            ),
            Target::Indicator => format!(
                "{} is not the indicator of the P-positions of {}: {c}",
                program.infix(),
                args.game
            ),
            Target::Sg => format!(
                "{} is not the SG value of {}: {c}",
                program.infix(),
                args.game
            ),
        }),
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
    if let Some(found) = prove::prove_game(game.as_ref(), program, opts)? {
        return Ok(found);
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
