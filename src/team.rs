//! The team this process joins: every rank of the MPI job that started it (with the `mpi`
//! feature), or itself alone. The library computes against [`Team`]; only the binary links MPI.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::BufRead;
use std::sync::Arc;

use grundy_core::cluster::{launched_ranks, Solo, Team};
use grundy_core::error::Error;

/// The team this process belongs to: every rank of the MPI job that started it, or itself
/// alone.
pub fn join() -> Result<Arc<dyn Team>, Error> {
    let var = |name: &str| std::env::var(name).ok();
    let ranks = launched_ranks(var);
    #[cfg(feature = "mpi")]
    if ranks.is_some() {
        return Ok(Arc::new(grundy_mpi::join()?));
    }
    alone(ranks)?;
    Ok(Arc::new(Solo))
}

/// What tells one build of grundy from another: its version and a hash of the executable's
/// bytes (its version alone when the executable cannot be read).
fn fingerprint() -> String {
    let version = env!("CARGO_PKG_VERSION");
    let hashed = std::env::current_exe()
        .and_then(std::fs::File::open)
        .and_then(|f| {
            let mut r = std::io::BufReader::with_capacity(1 << 20, f);
            let mut h = DefaultHasher::new();
            loop {
                let n = {
                    let buf = r.fill_buf()?;
                    buf.hash(&mut h);
                    buf.len()
                };
                if n == 0 {
                    return Ok(h.finish());
                }
                r.consume(n);
            }
        });
    match hashed {
        Ok(h) => format!("grundy {version} (executable {h:016x})"),
        Err(_) => format!("grundy {version}"),
    }
}

/// Refuses, on every rank alike, ranks that run different builds of grundy: their messages
/// and their work would not agree. Called once the team is joined, as the first step of the
/// command, so that rank 0 reports it before the job ends.
pub fn same_build(team: &dyn Team) -> Result<(), Error> {
    match team.size() {
        1 => Ok(()),
        _ => agree_on_build(team, &fingerprint()),
    }
}

fn agree_on_build(team: &dyn Team, mine: &str) -> Result<(), Error> {
    team.same_everywhere(mine, "run one build of grundy on every rank")
}

/// Refuses a job of several ranks in a grundy built without the `mpi` feature: each rank would
/// do the whole work, and they would write over each other's files.
fn alone(ranks: Option<usize>) -> Result<(), Error> {
    match ranks {
        Some(n) if n > 1 => Err(Error::Usage(format!(
            "started as one of {n} MPI ranks, but this grundy was built without MPI; build it \
             with `cargo build --release --features mpi`"
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_of_different_builds_are_refused_on_every_rank() {
        use grundy_core::cluster::threads;
        assert!(fingerprint().starts_with("grundy "));
        let same = threads::run(2, |team| agree_on_build(&*team, "a").is_ok());
        assert_eq!(same, vec![true, true]);
        let kinds = threads::run(2, |team| {
            let mine = ["a", "b"][team.rank()];
            agree_on_build(&*team, mine).map_err(|e| e.kind())
        });
        assert!(kinds
            .iter()
            .all(|k| *k == Err(grundy_core::error::Kind::BadInput)));
    }

    #[test]
    fn several_ranks_without_mpi_are_refused() {
        assert!(alone(None).is_ok() && alone(Some(1)).is_ok());
        let e = alone(Some(2)).unwrap_err();
        assert!(matches!(e, Error::Usage(_)) && e.to_string().contains("--features mpi"));
    }
}
