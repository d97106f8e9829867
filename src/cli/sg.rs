//! `grundy sg GAME POSITION`: the nimber of one position.

use clap::Args;

use super::output::Out;
use super::{SearchArgs, Status};
use crate::error::Error;

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
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &SgArgs) -> Result<Status, Error> {
    let (game, p) = super::game_and_position(&args.game, &args.position, "sg")?;
    let s = args
        .search
        .solve(game.as_ref(), &p, args.moves, !args.json)?;
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
