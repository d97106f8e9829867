//! `grundy play GAME [POSITION]`: a game against the optimal agent, one move a line on
//! standard input (so a game can be scripted), or agents against each other (`--agents`).

use std::io::{BufRead, Write};

use clap::Args;

use super::deadline::{watched, Clock};
use super::output::{stdout_error, Out};
use super::{SearchArgs, Status};
use grundy_core::error::Error;
use grundy_core::game::Stones;
use grundy_core::play::session::{Command, Session, HELP};
use grundy_core::play::tournament::tournament;
use grundy_core::play::{Agent, Oracle};
use grundy_core::sg::with_deep_stack;

#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// Game spec, e.g. subtraction:1,2,3, path:3, cram:3x4, chomp:4x5.
    game: String,
    /// The starting position (default: a board game's full board).
    #[arg(num_args = 0.., allow_negative_numbers = true)]
    position: Vec<String>,
    /// Who moves first.
    #[arg(long, value_enum, default_value_t = First::You)]
    first: First,
    /// Agents to play against each other instead of you, e.g. optimal,random: every ordered
    /// pair plays --games games (a lone agent plays itself).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    agents: Vec<String>,
    /// Games per pair of agents.
    #[arg(long, value_name = "N", default_value_t = 100, requires = "agents")]
    games: u64,
    /// Seed of the agents' random choices: the same seed plays the same games.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    search: SearchArgs,
    /// Give up (exit 3) once grundy thinks for more than this many seconds at a stretch:
    /// valuing the start, a reply, a hint, or with --agents the whole match. The time you take
    /// to type a move does not count.
    #[arg(long, value_name = "SECS", value_parser = super::parse_seconds)]
    timeout: Option<f64>,
    /// With --agents: one JSON object instead of the table.
    #[arg(long, requires = "agents")]
    pub json: bool,
}

/// Who moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum First {
    /// You, at the terminal.
    You,
    /// The optimal agent.
    Computer,
}

pub fn run(args: &PlayArgs) -> Result<Status, Error> {
    let (game, start) = super::game_and_position(&args.game, &args.position, "play")?;
    let agents = args
        .agents
        .iter()
        .map(|a| a.parse::<Agent>())
        .collect::<Result<Vec<_>, _>>()?;
    let opts = args.search.table_options(false)?;
    let cfg = args.search.config()?;
    let engine = args.search.engine;
    let what = match agents.is_empty() {
        true => "the nimber of",
        false => "the agents' games of",
    };
    let what = format!(
        "{what} {} from {}",
        game.name(),
        game.format_position(&start)
    );
    let args = args.clone();
    watched(args.timeout, what, move |clock| {
        with_deep_stack(|| {
            let mut oracle = Oracle::new(game.as_ref(), &start, engine, cfg, &opts)?;
            match agents.is_empty() {
                true => converse(&mut oracle, start.clone(), &args, clock),
                false => agents_table(&mut oracle, &start, &agents, &args),
            }
        })
    })
}

/// `--agents`: the results of every pairing, as a table or one JSON object.
fn agents_table(
    oracle: &mut Oracle,
    start: &Stones,
    agents: &[Agent],
    args: &PlayArgs,
) -> Result<Status, Error> {
    let game = oracle.game();
    let nimber = oracle.nimber(start);
    let results = tournament(oracle, start, agents, args.games, args.seed);
    let mut out = Out::new();
    if args.json {
        out.json(&serde_json::json!({
            "game": game.name(),
            "position": start.to_vec(),
            "position_text": game.format_position(start),
            "nimber": nimber,
            "seed": args.seed,
            "pairings": results,
        }))?;
        return Ok(Status::Answered);
    }
    out.line(format_args!(
        "{} from {} (nimber {nimber}: the {} player wins with best play), seed {}",
        game.name(),
        game.format_position(start),
        if nimber == 0 { "second" } else { "first" },
        args.seed
    ))?;
    out.line(format_args!(
        "{:<10} {:<10} {:>7} {:>11} {:>12} {:>11}",
        "first", "second", "games", "first wins", "second wins", "mean moves"
    ))?;
    for r in &results {
        out.line(format_args!(
            "{:<10} {:<10} {:>7} {:>11} {:>12} {:>11.1}",
            r.first.name(),
            r.second.name(),
            r.games,
            r.first_wins,
            r.second_wins,
            r.mean_moves()
        ))?;
    }
    Ok(Status::Answered)
}

/// A game against the optimal agent, one line of standard input a turn; the end of the
/// input ends the game as `quit` does.
fn converse(
    oracle: &mut Oracle,
    start: Stones,
    args: &PlayArgs,
    clock: &Clock,
) -> Result<Status, Error> {
    let game = oracle.game();
    let mut out = Out::new();
    let mut session = Session::new(oracle, start, args.seed);
    out.line(format_args!(
        "{}: you play against the optimal agent; `help` lists the commands.",
        game.name()
    ))?;
    if args.first == First::Computer && !computer_moves(&mut session, &mut out)? {
        return Ok(Status::Answered);
    }
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    // The position is shown again after a move or an undo, not after a listing or an error.
    let mut moved = true;
    loop {
        if std::mem::take(&mut moved) {
            show(&mut session, &mut out)?;
            if session.moves().is_empty() {
                out.line(format_args!("no move left: you lose."))?;
                return Ok(Status::Answered);
            }
        }
        write!(out.raw(), "your move> ").map_err(stdout_error)?;
        out.raw().flush().map_err(stdout_error)?;
        clock.idle();
        let Some(line) = lines.next() else {
            out.line(format_args!("\n(end of input: game left)"))?;
            return Ok(Status::Answered);
        };
        let line = line.map_err(|e| Error::io("standard input", e))?;
        clock.busy(|| format!("grundy's answer to `{}`", line.trim()));
        if line.trim().is_empty() {
            continue;
        }
        match session.parse(&line) {
            Err(e) => out.line(format_args!("{e}"))?,
            Ok(Command::Quit) => return Ok(Status::Answered),
            Ok(Command::Help) => out.line(format_args!("{HELP}"))?,
            Ok(Command::Undo) => match session.undo() {
                true => {
                    out.line(format_args!("taken back."))?;
                    moved = true;
                }
                false => out.line(format_args!("nothing to take back."))?,
            },
            Ok(Command::Moves) => {
                let p = session.position().clone();
                for (k, q) in session.moves().iter().enumerate() {
                    out.line(format_args!(
                        "  #{:<3} {}  ->  {}",
                        k + 1,
                        game.describe_move(&p, q),
                        game.format_position(q)
                    ))?;
                }
            }
            Ok(Command::Hint) => {
                let p = session.position().clone();
                let wins = session.oracle().winning_moves(&p);
                if wins.is_empty() {
                    out.line(format_args!(
                        "no move wins here: every move leaves a nonzero nimber."
                    ))?;
                }
                for q in wins {
                    out.line(format_args!(
                        "  wins: {}  ->  {}",
                        game.describe_move(&p, &q),
                        game.format_position(&q)
                    ))?;
                }
            }
            Ok(Command::Move(q)) => {
                let p = session.position().clone();
                out.line(format_args!("you: {}", game.describe_move(&p, &q)))?;
                session.play(q);
                if !computer_moves(&mut session, &mut out)? {
                    return Ok(Status::Answered);
                }
                moved = true;
            }
        }
    }
}

/// The agent's turn; whether the game goes on (false: the agent had no move and lost).
fn computer_moves(session: &mut Session, out: &mut Out) -> Result<bool, Error> {
    let p = session.position().clone();
    let game = session.oracle().game();
    match session.reply() {
        Some(q) => {
            out.line(format_args!("grundy: {}", game.describe_move(&p, &q)))?;
            Ok(true)
        }
        None => {
            show(session, out)?;
            out.line(format_args!("no move left for grundy: you win."))?;
            Ok(false)
        }
    }
}

/// The position, drawn, and its nimber.
fn show(session: &mut Session, out: &mut Out) -> Result<(), Error> {
    let p = session.position().clone();
    let game = session.oracle().game();
    let nimber = session.oracle().nimber(&p);
    let drawn = game.draw_position(&p);
    if drawn.contains('\n') {
        out.line(format_args!("\n{drawn}"))?;
    } else {
        out.line(format_args!("\nposition: {drawn}"))?;
    }
    let verdict = if nimber == 0 {
        "every move loses against best play"
    } else {
        "a winning move exists"
    };
    out.line(format_args!("nimber {nimber}: {verdict}"))
}
