//! The team this process joins: every rank of the MPI job that started it (with the `mpi`
//! feature), or itself alone. The library computes against [`Team`]; only the binary links MPI.

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
    fn several_ranks_without_mpi_are_refused() {
        assert!(alone(None).is_ok() && alone(Some(1)).is_ok());
        let e = alone(Some(2)).unwrap_err();
        assert!(matches!(e, Error::Usage(_)) && e.to_string().contains("--features mpi"));
    }
}
