//! `grundy sg GAME POSITION`: the nimber of one position.

mod ranks;

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use clap::Args;

use super::interrupt;
use super::output::Out;
use super::{SearchArgs, Status};
use grundy_core::catalog::solve::{by_theorem, nimber_undecided, Control, Solution};
use grundy_core::catalog::spec;
use grundy_core::catalog::AnyGame;
use grundy_core::cluster::Team;
use grundy_core::error::{Error, SavedTable, Undecided};
use grundy_core::files;
use grundy_core::game::Stones;
use grundy_core::sg::checkpoint::{Plan, Saved};
use grundy_core::Stop;

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
    /// Keep the search's table in FILE, so that a long search can stop and go on: what FILE
    /// holds is learned first, and the table is saved there as the search goes, when it ends,
    /// when --timeout gives up on it, and before a signal ends it. The file names its game;
    /// another game's is refused. A save never replaces FILE with fewer entries: a FILE
    /// holding more than the table has room for (a smaller --tt or --mem-limit than the run
    /// that saved it) is refused before the search, and a save that would shrink it is not
    /// made. FILE's directory must exist; a final save that fails is an error (exit 2) after
    /// the answer.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Seconds between two saves of --checkpoint's file while the search runs.
    #[arg(long, value_name = "SECS", value_parser = super::parse_seconds, default_value = "600", requires = "checkpoint")]
    checkpoint_every: f64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `sg`; under mpirun the ranks share the search (`ranks::run`).
pub fn run(args: &SgArgs, team: &dyn Team) -> Result<Status, Error> {
    if team.size() > 1 {
        return ranks::run(args, team);
    }
    let (game, p) = super::game_and_position(&args.game, &args.position, "sg")?;
    check_checkpoint(args)?;
    let game: Arc<dyn AnyGame> = Arc::from(game);
    let (send, receive) = mpsc::channel();
    let plan = checkpoint_plan(args, &send);
    // Ctrl-C stops the search, which reports the bounds it has (exit 3) after its last save.
    let stop = Stop::new();
    interrupt::stop_on_ctrl_c(stop.clone());
    let s = match args.timeout {
        None => {
            let ctl = Control {
                plan: plan.as_ref(),
                stop,
            };
            args.search
                .solve(game.as_ref(), &p, args.moves, !args.json, &ctl)?
        }
        Some(limit) => {
            let cfg = args.search.config()?;
            // What a theorem answers takes no time, whatever the limit (0 included).
            match by_theorem(game.as_ref(), &p, args.search.engine, &cfg, args.moves) {
                Some(s) => s,
                None => match within(limit, args, &game, &p, plan, stop, (send, receive)) {
                    Ok(s) => s?,
                    Err(saved) => return Err(undecided(game.as_ref(), &p, limit, args, saved)),
                },
            }
        }
    };
    interrupt::no_save_on_signal();
    print(args, game.as_ref(), &p, &s, None)?;
    finish(s)
}

/// How the ranks of an MPI job found an answer.
enum Ranks<'a> {
    /// Rank 0 dealt subtrees to the others; each rank's nodes.
    Dealt { nodes: &'a [u64] },
    /// Each searched the whole position, and `winner` answered first.
    Race { winner: usize, nodes: &'a [u64] },
}

/// Prints the answer `s` for `p` (with `ranks`, how the ranks found it); the failure of the
/// last save, when it failed, is part of it.
fn print(
    args: &SgArgs,
    game: &dyn AnyGame,
    p: &Stones,
    s: &Solution,
    ranks: Option<Ranks>,
) -> Result<(), Error> {
    // The answer stands when the last save failed: it is printed, and the failure ends the run.
    let failed = s.kept.as_ref().and_then(|k| k.saved.as_ref().err());
    let mut out = Out::new();
    if args.json {
        let mut obj = serde_json::json!({
            "game": game.name(),
            "position": p.to_vec(),
            "position_text": game.format_position(p),
            "nimber": s.nimber,
            "engine": s.engine,
            "engine_reason": s.reason,
            "nodes": s.stats.nodes,
            "tt_lookups": s.stats.tt_lookups,
            "tt_evictions": s.stats.tt_evictions,
            "seconds": s.seconds,
        });
        if let (Some(path), Some(kept)) = (&args.checkpoint, &s.kept) {
            obj["checkpoint"] = serde_json::json!({
                "path": path,
                "in_file": kept.loaded.entries,
                "learned": kept.loaded.learned,
                "saved": kept.saved.as_ref().ok().map(|s| s.entries),
                "save_seconds": kept.saved.as_ref().ok().map(|s| s.seconds),
            });
        }
        if let Some(m) = &s.winning_moves {
            obj["winning_moves"] = m.iter().map(|q| q.to_vec()).collect::<Vec<_>>().into();
        }
        if let Some(e) = failed {
            super::output::error_fields(&mut obj, e);
        }
        match ranks {
            Some(Ranks::Dealt { nodes }) => {
                obj["ranks"] = serde_json::json!({
                    "size": nodes.len(),
                    "scheme": "dealt",
                    "nodes": nodes,
                });
            }
            Some(Ranks::Race { winner, nodes }) => {
                obj["ranks"] = serde_json::json!({
                    "size": nodes.len(),
                    "scheme": "race",
                    "winner": winner,
                    "nodes": nodes,
                });
            }
            None => {}
        }
        return out.json(&obj);
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
        let listed = |nodes: &[u64]| nodes.iter().map(u64::to_string).collect::<Vec<_>>();
        match ranks {
            Some(Ranks::Dealt { nodes }) => out.line(format_args!(
                "ranks: {} (rank 0 dealt the subtrees below its top plies; nodes per rank: {})",
                nodes.len(),
                listed(nodes).join(", ")
            ))?,
            Some(Ranks::Race { winner, nodes }) => out.line(format_args!(
                "ranks: {} (answered first by rank {winner}; nodes per rank, 0 when stopped \
                 first: {})",
                nodes.len(),
                listed(nodes).join(", ")
            ))?,
            None => {}
        }
        if let (Some(path), Some(kept)) = (&args.checkpoint, &s.kept) {
            let saved = match &kept.saved {
                Ok(s) => format!("saved {} ({:.1} s)", s.entries, s.seconds),
                Err(_) => "not saved at the end".into(),
            };
            out.line(format_args!(
                "checkpoint: {}: learned {} entries, {saved}",
                path.display(),
                kept.loaded.learned
            ))?;
        }
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
    Ok(())
}

/// The outcome once the answer is printed: answered, or the last save's failure.
fn finish(s: Solution) -> Result<Status, Error> {
    match s.kept.map(|k| k.saved) {
        Some(Err(e)) => Err(e),
        _ => Ok(Status::Answered),
    }
}

/// `--checkpoint`'s file, which is saved to only as the search goes: a path that cannot be
/// written fails before the search.
fn check_checkpoint(args: &SgArgs) -> Result<(), Error> {
    if let Some(path) = &args.checkpoint {
        let inputs: Vec<(&str, &Path)> = spec::input_file(&args.game)
            .map(|p| ("the game's file", p))
            .into_iter()
            .collect();
        files::check_outputs(&[("--checkpoint", path)], &inputs)?;
        files::check_writable(path)?;
    }
    Ok(())
}

/// How `sg --checkpoint` keeps its table: saves heard on `send` (by [`within`]) and by the
/// signal handler, which has the search save before a signal ends it; a save that fails while
/// the search runs is a warning (the search goes on), the last one an error with the answer.
fn checkpoint_plan(args: &SgArgs, send: &mpsc::Sender<Heard>) -> Option<Plan> {
    args.checkpoint.as_ref().map(|path| {
        let mut plan = Plan::new(path, Duration::from_secs_f64(args.checkpoint_every));
        let send = send.clone();
        let saves = Arc::new((Mutex::new(interrupt::Saves::default()), Condvar::new()));
        interrupt::save_on_signal(interrupt::SaveOnSignal {
            path: path.clone(),
            now: Arc::clone(&plan.now),
            saves: Arc::clone(&saves),
        });
        plan.on_save = Arc::new(move |saved, last| {
            if let (Err(e), false) = (saved, last) {
                eprintln!("grundy: warning: the table was not saved: {e}");
            }
            let _ = send.send(Heard::Saved(saved.as_ref().ok().copied()));
            let (made, done) = &*saves;
            if let Ok(mut made) = made.lock() {
                made.count += 1;
                made.entries = saved.as_ref().ok().map(|s| s.entries);
                done.notify_all();
            }
        });
        plan
    })
}

/// What the thread of [`within`] hears: the search's end, or a save of its table (`None`
/// when it failed).
enum Heard {
    Done(Result<Solution, Error>),
    Saved(Option<Saved>),
}

/// The search of `sg`, on a thread of its own so that it can be left behind: its solution, or
/// once `limit` seconds pass first, the table saved per `plan` (`None` without a plan or when
/// the save failed). The thread ends with the process.
fn within(
    limit: f64,
    args: &SgArgs,
    game: &Arc<dyn AnyGame>,
    p: &Stones,
    plan: Option<Plan>,
    stop: Stop,
    (send, receive): (mpsc::Sender<Heard>, mpsc::Receiver<Heard>),
) -> Result<Result<Solution, Error>, Option<Saved>> {
    let deadline = Instant::now() + Duration::from_secs_f64(limit);
    let (search, game, p) = (args.search.clone(), Arc::clone(game), p.clone());
    let (moves, show) = (args.moves, !args.json);
    let now = plan.as_ref().map(|plan| Arc::clone(&plan.now));
    let spawned = std::thread::Builder::new()
        .name("grundy-sg".into())
        .spawn(move || {
            let ctl = Control {
                plan: plan.as_ref(),
                stop,
            };
            let s = search.solve(game.as_ref(), &p, moves, show, &ctl);
            let _ = send.send(Heard::Done(s));
        });
    if let Err(e) = spawned {
        return Ok(Err(Error::Resource(format!(
            "no thread for the search: {e}"
        ))));
    }
    let ended = || Ok(Err(Error::internal("the search ended without an answer")));
    loop {
        match receive.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Heard::Done(solution)) => return Ok(solution),
            Ok(Heard::Saved(_)) => {}
            Err(RecvTimeoutError::Timeout) => break,
            Err(RecvTimeoutError::Disconnected) => return ended(),
        }
    }
    let Some(now) = now else {
        return Err(None);
    };
    // Time is up: the table is saved at the search's next pause, unless it ends first.
    now.store(true, Ordering::Relaxed);
    loop {
        match receive.recv() {
            Ok(Heard::Done(solution)) => return Ok(solution),
            Ok(Heard::Saved(saved)) if !now.load(Ordering::Relaxed) => return Err(saved),
            Ok(Heard::Saved(_)) => {}
            Err(_) => return ended(),
        }
    }
}

/// What `sg` knows when its time limit passes: only the bounds without search, as a timeout,
/// and where the table was saved, if it was.
fn undecided(
    game: &dyn AnyGame,
    p: &Stones,
    limit: f64,
    args: &SgArgs,
    saved: Option<Saved>,
) -> Error {
    Error::Timeout(Undecided {
        table: args.checkpoint.as_ref().map(|path| SavedTable {
            path: path.clone(),
            entries: saved.map(|s| s.entries),
        }),
        ..nimber_undecided(game, p, limit)
    })
}
