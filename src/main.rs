//! The `grundy` command line: parses arguments, runs the library's engines, synthesis and
//! proofs, and words their results (text or JSON) with the exit codes every command shares.

mod cli;
mod plot;
mod team;

fn main() {
    std::process::exit(cli::main());
}
