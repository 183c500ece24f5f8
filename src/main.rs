//! The `magpie` binary: a thin front end over the library's command line.

fn main() -> std::process::ExitCode {
    // Logs go to stderr only, and only warnings unless RUST_LOG asks for more: clients that merge
    // stderr into stdout must not see stray lines.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).format_target(false).init();
    magpie::cli::main(std::env::args_os())
}
