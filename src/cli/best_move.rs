//! `grundy best-move GAME POSITION`: a winning move and the position it leads to, or that
//! none wins, for scripts.

use clap::Args;

use super::deadline::watched;
use super::output::Out;
use super::{SearchArgs, Status};
use grundy_core::error::Error;

#[derive(Args, Debug)]
pub struct BestMoveArgs {
    /// Game spec, e.g. subtraction:1,2,3, path:3, cram:3x4, chomp:4x5.
    game: String,
    /// The position to move from (default: a board game's full board).
    #[arg(num_args = 0.., allow_negative_numbers = true)]
    position: Vec<String>,
    #[command(flatten)]
    search: SearchArgs,
    /// Give up after this many seconds: a timeout (exit 3).
    #[arg(long, value_name = "SECS", value_parser = super::parse_seconds)]
    timeout: Option<f64>,
    /// Print one JSON object: `position` is the position the move leads to (null when no
    /// move wins), `from` the position moved from.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &BestMoveArgs) -> Result<Status, Error> {
    let (game, p) = super::game_and_position(&args.game, &args.position, "best-move")?;
    let game: std::sync::Arc<dyn grundy_core::catalog::AnyGame> = game.into();
    let what = format!(
        "the winning moves of {} from {}",
        game.name(),
        game.format_position(&p)
    );
    let (search, show) = (args.search.clone(), !args.json);
    let (searched, from) = (std::sync::Arc::clone(&game), p.clone());
    let s = watched(args.timeout, what, move |_| {
        search.solve(searched.as_ref(), &from, true, show, &Default::default())
    })?;
    let wins = s.winning_moves.unwrap_or_default();
    let best = wins.first();
    let mut out = Out::new();
    if args.json {
        out.json(&serde_json::json!({
            "game": game.name(),
            "from": p.to_vec(),
            "from_text": game.format_position(&p),
            "nimber": s.nimber,
            "move": best.map(|q| game.describe_move(&p, q)),
            "position": best.map(|q| q.to_vec()),
            "position_text": best.map(|q| game.format_position(q)),
            "winning_moves": wins.len(),
        }))?;
        return Ok(Status::Answered);
    }
    match best {
        Some(q) => {
            out.line(format_args!("move: {}", game.describe_move(&p, q)))?;
            out.line(format_args!("position: {}", game.format_position(q)))?;
        }
        None => out.line(format_args!(
            "none wins: the nimber is 0 (no move, or every move leaves the opponent a win)"
        ))?,
    }
    Ok(Status::Answered)
}
