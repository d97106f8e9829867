fn main() {
    std::process::exit(grundy::cli::main());
}
