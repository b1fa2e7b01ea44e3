//! The `grip` command-line tool; see `grip --help`.

fn main() {
    std::process::exit(grip_cli::main());
}
