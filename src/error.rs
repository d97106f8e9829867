//! The one error type: every failure a user can cause ends as one line and exit code 2.

use std::path::PathBuf;

/// Everything that can go wrong on user input or resources.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A game spec that does not parse or describes no valid game.
    #[error("bad game spec: {0}")]
    Spec(String),
    /// A position that does not fit the game.
    #[error("bad position: {0}")]
    Position(String),
    /// A computation that would not fit in memory or time.
    #[error("{0}")]
    Resource(String),
    /// An input file that does not parse.
    #[error("{path}: {msg}")]
    Data { path: PathBuf, msg: String },
    /// A file that cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A check that ran and failed (a counterexample): exit code 1, not 2.
    #[error("{0}")]
    Failed(String),
    /// A bad combination of options.
    #[error("{0}")]
    Usage(String),
}

impl Error {
    pub(crate) fn spec(msg: impl Into<String>) -> Self {
        Error::Spec(msg.into())
    }
    pub(crate) fn position(msg: impl Into<String>) -> Self {
        Error::Position(msg.into())
    }
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}
