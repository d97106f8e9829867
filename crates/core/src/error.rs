//! The one error type, and the kinds that decide a failure's exit code.
//!
//! Callers branch on [`Error::kind`], never on message text: `auto` hands a length to SAT on a
//! resource limit only, and a bug ([`Kind::Internal`]) is never mistaken for one.

use std::path::PathBuf;

/// Everything that can go wrong on user input, resources or time.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A game spec that does not parse or describes no valid game.
    #[error("bad game spec: {0}")]
    Spec(String),
    /// A position that does not fit the game.
    #[error("bad position: {0}")]
    Position(String),
    /// An input file that does not parse.
    #[error("{path}: {msg}")]
    Data {
        /// The file.
        path: PathBuf,
        /// What is wrong in it.
        msg: String,
    },
    /// A bad combination of options.
    #[error("{0}")]
    Usage(String),
    /// An option refused, alone or beside others: `key` names it by a typed key (each front
    /// end words it its own way, the command line as its flag), `msg` goes on from its name
    /// (" must be at least 1", ": the prover needs a game"), naming any other option in words.
    #[error("the option `{}`{msg}", key.name())]
    Refused {
        /// The option refused.
        key: OptionKey,
        /// The rest of the sentence after the option's name.
        msg: String,
    },
    /// A file that cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A computation that would not fit in memory (or in a size limit the user can raise).
    #[error("{0}")]
    Resource(String),
    /// A limit that a setting raises was reached: the message says what needed more, `raise`
    /// which setting gives it (the command line adds the flag's name).
    #[error("{msg}")]
    Limit {
        /// What needed more, and how much.
        msg: String,
        /// The setting that gives it.
        raise: Setting,
    },
    /// Every program length up to the longest one allowed was refuted: a proved bound, but no
    /// program (a limit the user can raise, so it is reported as a resource).
    #[error("no program of length at most {max_len} exists (every length was refuted)")]
    LengthLimit {
        /// The longest length allowed.
        max_len: usize,
    },
    /// The time limit passed before the question was settled.
    #[error("{0}")]
    Timeout(Undecided),
    /// A result that contradicts itself: a bug in grundy, not in the input.
    #[error("internal error (a bug in grundy): {0}")]
    Internal(String),
    /// Another rank of an MPI job failed with this message; the kind is that rank's error's.
    #[error("rank {rank}: {msg}")]
    Elsewhere {
        /// The rank that failed.
        rank: usize,
        /// Its error's kind, which decides the exit code.
        kind: Kind,
        /// Its error's message.
        msg: String,
        /// The setting that gets past the failure there ([`Error::raise`]).
        raise: Option<Setting>,
    },
}

/// A setting a caller can change to get past a limit ([`Error::raise`]); each front end names
/// it its own way (the command line by its flag), so library messages name none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Setting {
    /// The memory a table or box may take.
    MemoryLimit,
    /// The longest program a synthesis tries.
    MaxLength,
    /// The word width programs run at.
    Width,
    /// The number of heaps of a heap game's sums.
    Heaps,
    /// The engine: the naive search runs where the others refuse a box too large.
    Engine,
    /// Canonical forms under the game's automorphisms, which need the whole group: turning
    /// them off gets past a group too large to enumerate.
    Orbits,
    /// The room of a search's table (its memory or its entries), or a table file it need not
    /// replace: a kept table holding more entries than the room refuses to shrink it.
    TableRoom,
    /// The disk room values held in a file take.
    DiskRoom,
}

/// An option a caller gives the library, named without any front end's spelling: the
/// command line words [`Error::Refused`] with its flag, another front end with its own name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OptionKey {
    /// How many heaps a heap game's positions have.
    Heaps,
    /// The side of the box tabulated as the data.
    Max,
    /// A data file.
    Data,
    /// A family of positions.
    Family,
    /// The orbit criterion.
    Orbits,
    /// What a program computes.
    Target,
    /// The word width.
    Width,
    /// Small constants added to the instructions.
    Consts,
    /// Proving the program for every position.
    Prove,
    /// The bit-vector bound of a proof.
    Bound,
    /// The side of the larger box a program is checked on.
    VerifyMax,
    /// A search's table kept in a file.
    Checkpoint,
    /// How many elements each game of a subtraction family has.
    Size,
    /// How many code digits each game of an octal or hex family has.
    Digits,
    /// The condition rows of a survey must meet.
    Where,
    /// Values held in a file rather than in memory.
    OnDisk,
}

impl OptionKey {
    /// Its neutral name, as JSON and library messages say it: `verify_max`.
    pub fn name(self) -> &'static str {
        match self {
            OptionKey::Heaps => "heaps",
            OptionKey::Max => "max",
            OptionKey::Data => "data",
            OptionKey::Family => "family",
            OptionKey::Orbits => "orbits",
            OptionKey::Target => "target",
            OptionKey::Width => "width",
            OptionKey::Consts => "consts",
            OptionKey::Prove => "prove",
            OptionKey::Bound => "bound",
            OptionKey::VerifyMax => "verify_max",
            OptionKey::Checkpoint => "checkpoint",
            OptionKey::Size => "size",
            OptionKey::Digits => "digits",
            OptionKey::Where => "where",
            OptionKey::OnDisk => "on_disk",
        }
    }
}

/// What a search had settled when its time ran out.
#[derive(Clone, Debug, PartialEq)]
pub struct Undecided {
    /// Seconds spent.
    pub seconds: f64,
    /// For a program search: every length below this was refuted.
    pub lower_bound: Option<usize>,
    /// What was being decided, for the message ("length 12").
    pub what: String,
    /// Where the search's table was saved, for a search that keeps one (`sg --checkpoint`).
    pub table: Option<SavedTable>,
}

/// A search's table, saved when its time ran out or a signal ended it: the same command goes
/// on from there.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SavedTable {
    /// The file the table was saved to (or meant to be).
    pub path: PathBuf,
    /// Entries saved; `None` when the save failed.
    pub entries: Option<u64>,
}

impl std::fmt::Display for Undecided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "timed out after {:.1} s", self.seconds)?;
        match self.lower_bound {
            Some(l) if l > 1 => write!(
                f,
                ": lengths below {l} are refuted, {} is undecided",
                self.what
            ),
            _ => write!(f, ": {} is undecided", self.what),
        }?;
        match &self.table {
            Some(table) => write!(f, "; {table}"),
            None => Ok(()),
        }
    }
}

impl std::fmt::Display for SavedTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = self.path.display();
        match self.entries {
            Some(n) => write!(
                f,
                "its table ({n} entries) is saved in {path}, where the same command goes on"
            ),
            None => write!(f, "its table could not be saved in {path}"),
        }
    }
}

/// The classes of failure: each has one exit code and one name in JSON output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The input is wrong: a spec, a position, an option, a file.
    BadInput,
    /// A file could not be read or written.
    Io,
    /// Memory or a size limit.
    Resource,
    /// The time limit passed; the bounds established are reported.
    Timeout,
    /// A check found a counterexample: not an error but an answer (the commands report it
    /// with their output), named here for its exit code.
    Counterexample,
    /// A bug in grundy.
    Internal,
}

impl Kind {
    /// The process exit code: 1 a counterexample, 2 bad input or a limit, 3 undecided within
    /// the time limit. An internal error exits 2 too (the JSON `kind` tells them apart).
    pub fn exit_code(self) -> i32 {
        match self {
            Kind::Counterexample => 1,
            Kind::Timeout => 3,
            Kind::BadInput | Kind::Io | Kind::Resource | Kind::Internal => 2,
        }
    }
}

impl Error {
    /// Work its listener stopped ([`crate::progress::Progress::stopped`]) after `seconds`, with
    /// `what` it computed undecided: reported as a time limit is.
    pub fn stopped(what: &str, seconds: f64) -> Error {
        Error::Timeout(Undecided {
            seconds,
            lower_bound: None,
            what: what.to_string(),
            table: None,
        })
    }

    /// The class of this failure.
    pub fn kind(&self) -> Kind {
        match self {
            Error::Spec(_)
            | Error::Position(_)
            | Error::Data { .. }
            | Error::Usage(_)
            | Error::Refused { .. } => Kind::BadInput,
            Error::Io { .. } => Kind::Io,
            Error::Resource(_) | Error::LengthLimit { .. } => Kind::Resource,
            Error::Limit { raise, .. } => match raise {
                Setting::MemoryLimit
                | Setting::MaxLength
                | Setting::Engine
                | Setting::Orbits
                | Setting::TableRoom
                | Setting::DiskRoom => Kind::Resource,
                Setting::Width | Setting::Heaps => Kind::BadInput,
            },
            Error::Timeout(_) => Kind::Timeout,
            Error::Internal(_) => Kind::Internal,
            Error::Elsewhere { kind, .. } => *kind,
        }
    }

    /// The setting that gets past this failure, if changing one does (most by a larger value).
    pub fn raise(&self) -> Option<Setting> {
        match self {
            Error::Limit { raise, .. } => Some(*raise),
            Error::LengthLimit { .. } => Some(Setting::MaxLength),
            Error::Elsewhere { raise, .. } => *raise,
            _ => None,
        }
    }

    /// A limit `raise` lifts, reached: `msg` says what needed more.
    pub fn limit(raise: Setting, msg: impl Into<String>) -> Self {
        Error::Limit {
            msg: msg.into(),
            raise,
        }
    }

    pub(crate) fn spec(msg: impl Into<String>) -> Self {
        Error::Spec(msg.into())
    }
    pub(crate) fn position(msg: impl Into<String>) -> Self {
        Error::Position(msg.into())
    }
    /// An I/O failure on `path`, for `map_err` on file operations.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
    /// `key` refused: `msg` goes on from the option's name.
    pub fn refused(key: OptionKey, msg: impl Into<String>) -> Self {
        Error::Refused {
            key,
            msg: msg.into(),
        }
    }
    /// A bug: a result that contradicts itself.
    pub fn internal(msg: impl Into<String>) -> Self {
        Error::Internal(msg.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_decide_exit_codes() {
        let timeout = Error::Timeout(Undecided {
            seconds: 2.0,
            lower_bound: Some(9),
            what: "length 9".into(),
            table: None,
        });
        assert_eq!(timeout.kind().exit_code(), 3);
        assert_eq!(
            timeout.to_string(),
            "timed out after 2.0 s: lengths below 9 are refuted, length 9 is undecided"
        );
        assert_eq!(Kind::Counterexample.exit_code(), 1);
        assert_eq!(Error::Usage("x".into()).kind(), Kind::BadInput);
        let refused = Error::refused(OptionKey::VerifyMax, " must be at least 1");
        assert_eq!(refused.kind(), Kind::BadInput);
        assert_eq!(
            refused.to_string(),
            "the option `verify_max` must be at least 1"
        );
        assert_eq!(Error::Resource("x".into()).kind().exit_code(), 2);
        assert_eq!(Error::internal("x").kind(), Kind::Internal);
        assert!(Error::internal("x").to_string().contains("a bug"));
        let io = Error::io("f", std::io::Error::other("disk"));
        assert_eq!((io.kind(), io.kind().exit_code()), (Kind::Io, 2));
        assert_eq!(
            serde_json::to_value(Kind::BadInput).unwrap(),
            serde_json::json!("bad_input")
        );
    }
}
