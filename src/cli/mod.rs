//! The `grundy` command line.
