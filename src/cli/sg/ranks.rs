//! `sg` under `mpirun`: the ranks search one position together, rank 0 dealing the subtrees
//! below its top plies to the others where the engine deals (`grundy_core::catalog::dealt`),
//! or else each searches it whole and the first answer is taken (`grundy_core::catalog::race`);
//! rank 0 prints it.

use std::sync::mpsc;
use std::time::Duration;

use super::super::{interrupt, Status};
use super::{finish, print, Ranks, SgArgs};
use grundy_core::catalog::dealt::{solve_dealt, Dealing};
use grundy_core::catalog::race::solve_race;
use grundy_core::catalog::solve::Control;
use grundy_core::cluster::Team;
use grundy_core::error::Error;
use grundy_core::sg::SearchConfig;
use grundy_core::Stop;

/// Values the position on every rank together; a rank stopped (its time limit, Ctrl-C) ends
/// every rank with a timeout, and an error on any rank is every rank's.
pub(super) fn run(args: &SgArgs, team: &dyn Team) -> Result<Status, Error> {
    // Everything before the search is one settled step: a rank that fails it (its input,
    // its memory limit) stops every rank before the race's first collective step.
    let set_up = || {
        let (game, p) = super::super::game_and_position(&args.game, &args.position, "sg")?;
        // Rank 0 alone keeps the table (the whole search's, see below).
        if team.is_root() {
            super::check_checkpoint(args)?;
        }
        let cfg = SearchConfig {
            threads: args.search.threads.unwrap_or(1),
            ..args.search.config()?
        };
        let opts = args.search.table_options(false)?;
        Ok((game, p, cfg, opts))
    };
    let (game, p, cfg, opts) = team.settle(set_up())?;
    // No thread waits on the saves here (the time limit below stops the search itself, which
    // then saves once more), so what the plan tells of them goes nowhere.
    let (send, _) = mpsc::channel();
    let plan = match team.is_root() {
        true => super::checkpoint_plan(args, &send),
        false => None,
    };
    let stop = Stop::new();
    interrupt::stop_on_ctrl_c(stop.clone());
    if let Some(limit) = args.timeout {
        // The search looks at its token as it goes; the timer outlives it harmlessly.
        let timer = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs_f64(limit));
            timer.stop();
        });
    }
    let ctl = Control {
        plan: plan.as_ref(),
        stop,
    };
    let dealt = solve_dealt(
        game.as_ref(),
        &p,
        args.search.engine,
        cfg,
        &opts,
        args.moves,
        &ctl,
        team,
    );
    // Once a search has ended, a signal ends the process at once again.
    if !matches!(dealt, Ok(Dealing::NotDealt)) {
        interrupt::no_save_on_signal();
    }
    match dealt? {
        Dealing::Answered(d) => {
            let ranks = Ranks::Dealt { nodes: &d.nodes };
            print(args, game.as_ref(), &p, &d.solution, Some(ranks))?;
            return finish(d.solution);
        }
        // Rank 0 prints.
        Dealing::Served => return Ok(Status::Answered),
        Dealing::NotDealt => {}
    }
    let race = solve_race(
        game.as_ref(),
        &p,
        args.search.engine,
        cfg,
        &opts,
        args.moves,
        &ctl,
        team,
    );
    interrupt::no_save_on_signal();
    let race = race?;
    if !team.is_root() {
        return Ok(Status::Answered);
    }
    let ranks = Ranks::Race {
        winner: race.winner,
        nodes: &race.nodes,
    };
    print(args, game.as_ref(), &p, &race.solution, Some(ranks))?;
    finish(race.solution)
}
