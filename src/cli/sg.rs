//! `grundy sg GAME POSITION`: the nimber of one position.

use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use super::output::Out;
use super::{SearchArgs, Status};
use crate::error::{Error, Undecided};
use crate::game::hypergraph::Stones;
use crate::sg::solve::Solution;
use crate::sg::AnyGame;

#[derive(Args, Debug)]
pub struct SgArgs {
    /// Game spec, e.g. path:3, star:4, circular:5,2, complex:0-1,1-2 (`grundy games` lists them
    /// all).
    game: String,
    /// Stones per vertex (heap sizes for a heap game), e.g. `3,0,3` or `3 0 3`; for a board
    /// game the board (default: the full board), e.g. `..#./....` for Cram, heights for Chomp.
    #[arg(num_args = 0.., allow_negative_numbers = true)]
    position: Vec<String>,
    #[command(flatten)]
    search: SearchArgs,
    /// Also print the engine, nodes expanded, table look-ups and time.
    #[arg(long)]
    stats: bool,
    /// Also print the winning moves (successors with nimber 0).
    #[arg(long)]
    moves: bool,
    /// Give up after this many seconds: a timeout (exit 3) with the bounds known without the
    /// search (0 and the number of moves, which the mex of that many values cannot pass).
    #[arg(long, value_name = "SECS", value_parser = super::parse_seconds)]
    timeout: Option<f64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &SgArgs) -> Result<Status, Error> {
    let (game, p) = super::game_and_position(&args.game, &args.position, "sg")?;
    let game: Arc<dyn AnyGame> = Arc::from(game);
    let s = match args.timeout {
        None => args
            .search
            .solve(game.as_ref(), &p, args.moves, !args.json)?,
        Some(limit) => match within(limit, args, &game, &p) {
            Some(s) => s?,
            None => return Err(undecided(game.as_ref(), &p, limit)),
        },
    };
    let mut out = Out::new();
    if args.json {
        let mut obj = serde_json::json!({
            "game": game.name(),
            "position": p.to_vec(),
            "position_text": game.format_position(&p),
            "nimber": s.nimber,
            "engine": s.engine,
            "engine_reason": s.reason,
            "nodes": s.stats.nodes,
            "tt_lookups": s.stats.tt_lookups,
            "tt_evictions": s.stats.tt_evictions,
            "seconds": s.seconds,
        });
        if let Some(m) = &s.winning_moves {
            obj["winning_moves"] = m.iter().map(|q| q.to_vec()).collect::<Vec<_>>().into();
        }
        out.json(&obj)?;
        return Ok(Status::Answered);
    }
    out.line(format_args!("{}", s.nimber))?;
    if args.stats {
        match &s.reason {
            Some(why) => out.line(format_args!("engine: {} (auto: {why})", s.engine))?,
            None => out.line(format_args!("engine: {}", s.engine))?,
        }
        out.line(format_args!("nodes: {}", s.stats.nodes))?;
        out.line(format_args!("tt_lookups: {}", s.stats.tt_lookups))?;
        out.line(format_args!("tt_evictions: {}", s.stats.tt_evictions))?;
        out.line(format_args!("seconds: {:.6}", s.seconds))?;
    }
    if let Some(w) = &s.winning_moves {
        if w.is_empty() {
            out.line(format_args!(
                "winning moves: none (a zero position: every move loses)"
            ))?;
        } else {
            out.line(format_args!("winning moves ({}):", w.len()))?;
            for q in w {
                out.line(format_args!("  -> {}", game.format_position(q)))?;
            }
        }
    }
    Ok(Status::Answered)
}

/// The search of `sg`, on a thread of its own so that it can be left behind: its solution, or
/// `None` when `limit` seconds pass first (the thread ends with the process).
fn within(
    limit: f64,
    args: &SgArgs,
    game: &Arc<dyn AnyGame>,
    p: &Stones,
) -> Option<Result<Solution, Error>> {
    let (send, receive) = std::sync::mpsc::channel();
    let (search, game, p) = (args.search.clone(), Arc::clone(game), p.clone());
    let (moves, show) = (args.moves, !args.json);
    let spawned = std::thread::Builder::new()
        .name("grundy-sg".into())
        .spawn(move || {
            let _ = send.send(search.solve(game.as_ref(), &p, moves, show));
        });
    if let Err(e) = spawned {
        return Some(Err(Error::Resource(format!(
            "no thread for the search: {e}"
        ))));
    }
    match receive.recv_timeout(Duration::from_secs_f64(limit)) {
        Ok(solution) => Some(solution),
        Err(RecvTimeoutError::Timeout) => None,
        Err(RecvTimeoutError::Disconnected) => {
            Some(Err(Error::internal("the search ended without an answer")))
        }
    }
}

/// What `sg` knows when its time limit passes: only the bounds without search, as a timeout.
fn undecided(game: &dyn AnyGame, p: &Stones, limit: f64) -> Error {
    Error::Timeout(Undecided {
        seconds: limit,
        lower_bound: None,
        what: format!(
            "the nimber of {} at {} (from 0 to {}, the number of moves)",
            game.name(),
            game.format_position(p),
            game.move_count(p)
        ),
    })
}
