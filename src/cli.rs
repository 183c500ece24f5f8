//! The command line: subcommands parsed by clap into typed requests, and the one-line error form.
//!
//! Every failure prints one line `error: …` on stderr naming the offending token and exits with
//! status 2; nothing here panics on bad input.

use crate::board::{BoardSize, Convention, Position};
use crate::formats::parse_position;
use crate::tools::perft::{self, PerftRequest};
use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::fmt;
use std::process::ExitCode;

/// Magpie, an Othello engine.
#[derive(Parser, Debug)]
#[command(name = "magpie", version, about = "Magpie, an Othello (Reversi) engine")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the game tree to a fixed depth (move-generator test and benchmark).
    Perft(PerftArgs),
}

#[derive(clap::Args, Debug)]
struct PerftArgs {
    /// Plies to count (0 to 64).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=64))]
    depth: u32,
    /// Board size: 4, 6 or 8 (the start position of that size).
    #[arg(long, value_parser = parse_size)]
    size: Option<BoardSize>,
    /// Count from this position instead: the squares (16, 36 or 64 of X, O, -) then X or O.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// How passes and games ending early count: standard, edax or free-pass.
    #[arg(long, default_value = "standard")]
    convention: Convention,
    /// Print the count under each root move.
    #[arg(long)]
    divide: bool,
    /// Also time the masked (small-board) code path on the same position and print the ratio.
    #[arg(long)]
    mask_overhead: bool,
}

fn parse_size(text: &str) -> Result<BoardSize, String> {
    text.parse::<usize>().ok().and_then(BoardSize::from_side).ok_or_else(|| "expected 4, 6 or 8".to_string())
}

/// A command line that names a valid command but cannot be carried out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CliError {}

/// What the command line asks for, checked and typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Run perft.
    Perft(PerftRequest),
    /// Print this text (help or version) and exit successfully.
    Info(String),
}

/// Parses and checks a command line (the program name first).
pub fn parse_args<I, T>(args: I) -> Result<Request, CliError>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            let text = e.render().to_string();
            return match e.kind() {
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => Ok(Request::Info(text)),
                _ => Err(CliError(one_line(&text))),
            };
        }
    };
    match cli.command {
        Command::Perft(args) => perft_request(args).map(Request::Perft),
    }
}

/// clap's message on one line: the lines before its usage section, joined.
fn one_line(text: &str) -> String {
    let message: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty() && !l.starts_with("tip:"))
        .collect();
    let line = message.join(" ");
    let line = line.trim_start_matches("error: ");
    if line.is_empty() { "invalid command line".to_string() } else { line.to_string() }
}

fn perft_request(args: PerftArgs) -> Result<PerftRequest, CliError> {
    let position = match (&args.position, args.size) {
        (None, size) => Position::start(size.unwrap_or_default()),
        (Some(text), size) => {
            let pos = parse_position(text).map_err(|e| CliError(format!("--position: {e}")))?;
            if let Some(size) = size.filter(|s| *s != pos.size()) {
                return Err(CliError(format!("--position is a {} board but --size says {size}", pos.size())));
            }
            pos
        }
    };
    Ok(PerftRequest {
        position,
        depth: args.depth,
        convention: args.convention,
        divide: args.divide,
        mask_overhead: args.mask_overhead,
    })
}

/// Runs the program on `args` and returns its exit status.
pub fn main<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let request = match parse_args(args) {
        Ok(request) => request,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut stdout = std::io::stdout().lock();
    let result = match request {
        Request::Info(text) => {
            print!("{text}");
            Ok(())
        }
        Request::Perft(request) => perft::run(&request, &mut stdout),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed stdout (e.g. piped into `head`) is not worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(args: &[&str]) -> String {
        let mut full = vec!["magpie"];
        full.extend_from_slice(args);
        parse_args(full).unwrap_err().0
    }

    #[test]
    fn perft_arguments() {
        let Ok(Request::Perft(req)) = parse_args(["magpie", "perft", "3", "--size", "6", "--convention", "edax"])
        else {
            panic!("perft request expected");
        };
        assert_eq!(req.depth, 3);
        assert_eq!(req.position, Position::start(BoardSize::Six));
        assert_eq!(req.convention, Convention::Edax);
        let start = Position::initial().to_string();
        let Ok(Request::Perft(req)) = parse_args(["magpie", "perft", "1", "--position", &start]) else {
            panic!("perft request expected");
        };
        assert_eq!(req.position, Position::initial());
    }

    #[test]
    fn bad_arguments_name_the_token() {
        assert!(err(&["perft", "abc"]).contains("'abc'"));
        assert!(err(&["perft", "-3"]).contains("-3"));
        assert!(err(&["perft", "99"]).contains("99"));
        assert!(err(&["perft", "3", "--size", "5"]).contains("'5'"));
        assert!(err(&["perft", "3", "--convention", "bik"]).contains("bik"));
        assert!(err(&["perft", "3", "--position", "XO"]).contains("--position"));
        assert!(err(&["perft", "3", "--bogus"]).contains("--bogus"));
        assert!(err(&["frobnicate"]).contains("frobnicate"));
        let start = Position::initial().to_string();
        assert!(err(&["perft", "3", "--size", "4", "--position", &start]).contains("8x8"));
        for args in [&["perft", "abc"][..], &["frobnicate"], &["perft", "3", "--position", "XO"]] {
            assert!(!err(args).contains('\n'));
        }
    }
}
