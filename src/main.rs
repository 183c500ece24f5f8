//! The `magpie` binary: a thin front end over the library's command line.

fn main() -> std::process::ExitCode {
    magpie::cli::main(std::env::args_os())
}
