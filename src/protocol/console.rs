//! The console: Magpie's own protocol as a person plays it at a terminal, as Edax's and
//! Egaroucid's consoles are played. On top of the UGI commands it takes `play <moves>`, `undo [n]`,
//! `redo [n]` and `new`, and its `go` plays Magpie's answer on the board; the board is shown after
//! every change. Lines are read with editing and history (the arrow keys, Ctrl-R) by rustyline,
//! and Magpie's output is printed above the line being typed.
//!
//! It runs only when standard input is a terminal and no `--protocol` was given: a client reading
//! a pipe gets the UGI protocol, byte for byte as before (`play` is an unknown command there and
//! `go` leaves the position as it is).

use super::ugi::{Command, ConsoleCommand, Ugi};
use super::{end_of_args, first_word, split_command, whole_number};
use crate::engine::io::MAX_LINE;
use crate::engine::search_thread::Report;
use crate::engine::{Context, Flow, Frontend, LineSource, Output};
use crate::formats::parse_moves;
use crate::quote::Quoted;
use rustyline::error::ReadlineError;
use std::io::{self, Write};
use std::time::Instant;

/// The console's commands, listed by `help` after the UGI ones.
pub const HELP: [&str; 8] = [
    "At the terminal (a game on the board, shown after every change):",
    "  play <moves>                    play moves on the board: play f5, play f5d6c3, play pass",
    "  go [limits]                     Magpie finds its move and plays it on the board",
    "  undo [n]                        take back the last move (or n moves)",
    "  redo [n]                        play again the last move taken back (or n)",
    "  new                             a new game from the start (the BoardSize option's board)",
    "  Up and Down recall earlier lines; Ctrl-C stops a search (twice: quits); Ctrl-D quits.",
    "  Started with --protocol ugi, or reading a pipe, Magpie speaks plain UGI instead.",
];

/// The prompt of the line being typed.
const PROMPT: &str = "> ";

/// Parses one line of the console: its own commands, then the UGI ones.
pub fn parse(line: &str) -> Option<Result<Command, String>> {
    let (name, args) = split_command(line)?;
    let command = match name.to_ascii_lowercase().as_str() {
        "play" if args.is_empty() => Err("play: missing the moves to play (e.g. play f5)".to_string()),
        "play" => parse_moves(args).map(ConsoleCommand::Play).map_err(|e| format!("play: {e}")),
        "undo" => count(args, "undo").map(ConsoleCommand::Undo),
        "redo" => count(args, "redo").map(ConsoleCommand::Redo),
        "new" => end_of_args(args, "new").map(|()| ConsoleCommand::New),
        _ => return super::ugi::parse(line),
    };
    Some(command.map(Command::Console))
}

/// The number of moves of `undo` and `redo`: 1 when none is given, else 1 to 120.
fn count(args: &str, command: &str) -> Result<u32, String> {
    if args.is_empty() {
        return Ok(1);
    }
    let word = first_word(args);
    end_of_args(&args[word.len()..], command)?;
    match whole_number(word, "a number of moves") {
        Ok(n @ 1..=120) => Ok(n as u32),
        _ => Err(format!("{command}: {} is not a number of moves (1 to 120)", Quoted(word))),
    }
}

/// The console's front end: the UGI one with the console's commands.
pub struct Console(Ugi);

impl Default for Console {
    fn default() -> Console {
        Console(Ugi::console())
    }
}

impl Frontend for Console {
    type Command = Command;

    fn parse(line: &str) -> Option<Result<Command, String>> {
        parse(line)
    }

    fn on_command(&mut self, command: Command, received: Instant, ctx: &mut Context) -> Flow {
        self.0.on_command(command, received, ctx)
    }

    fn on_parse_error(&mut self, message: String, ctx: &mut Context) -> Flow {
        self.0.on_parse_error(message, ctx)
    }

    fn on_report(&mut self, report: Report, ctx: &mut Context) -> Flow {
        self.0.on_report(report, ctx)
    }

    fn on_eof(&mut self, ctx: &mut Context) -> Flow {
        self.0.on_eof(ctx)
    }

    fn busy(&self) -> bool {
        self.0.busy()
    }
}

/// The terminal's input with line editing and history, and the output printed above the line
/// being typed; `None` where the terminal cannot be driven (the plain streams are used then).
pub fn terminal() -> Option<(LineSource, Output)> {
    let mut editor = rustyline::DefaultEditor::new().map_err(|e| log::warn!("no line editing: {e}")).ok()?;
    let printer = editor.create_external_printer().map_err(|e| log::warn!("no line editing: {e}")).ok()?;
    let mut done = false;
    let mut interrupted = false;
    let next_line = move || {
        if done {
            return None;
        }
        match editor.readline(PROMPT) {
            Ok(line) => {
                interrupted = false;
                if line.len() > MAX_LINE {
                    return Some(Err(format!("line longer than {MAX_LINE} bytes (1 MiB) ignored")));
                }
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                // Nothing is read after `quit`: the terminal is left as it was found.
                done = first_word(&line).eq_ignore_ascii_case("quit");
                Some(Ok(line))
            }
            // Ctrl-C stops a search; a second one in a row quits.
            Err(ReadlineError::Interrupted) if interrupted => {
                done = true;
                Some(Ok("quit".to_string()))
            }
            Err(ReadlineError::Interrupted) => {
                interrupted = true;
                Some(Ok("stop".to_string()))
            }
            Err(ReadlineError::Eof) => None,
            Err(e) => {
                log::warn!("input error: {e}");
                None
            }
        }
    };
    let out = Output::new(Box::new(Printed { printer: Box::new(printer), pending: Vec::new() }));
    Some((LineSource::from_fn(Box::new(next_line)), out))
}

/// Output that the line editor prints above the line being typed, a line at a time.
struct Printed {
    printer: Box<dyn rustyline::ExternalPrinter + Send>,
    pending: Vec<u8>,
}

impl Write for Printed {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        self.printer.print(text).map_err(io::Error::other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap_or_else(|| panic!("{line} ignored")).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    fn err(line: &str) -> String {
        parse(line).unwrap_or_else(|| panic!("{line} ignored")).unwrap_err()
    }

    #[test]
    fn the_consoles_commands() {
        let moves = |text: &str| parse_moves(text).unwrap();
        assert_eq!(ok("play f5"), Command::Console(ConsoleCommand::Play(moves("f5"))));
        assert_eq!(ok("PLAY f5d6 c3"), Command::Console(ConsoleCommand::Play(moves("f5 d6 c3"))));
        assert_eq!(ok("undo"), Command::Console(ConsoleCommand::Undo(1)));
        assert_eq!(ok("undo 2"), Command::Console(ConsoleCommand::Undo(2)));
        assert_eq!(ok("redo"), Command::Console(ConsoleCommand::Redo(1)));
        assert_eq!(ok("new"), Command::Console(ConsoleCommand::New));
        // Everything else is UGI's.
        assert_eq!(ok("go depth 3"), super::super::ugi::parse("go depth 3").unwrap().unwrap());
        assert!(parse("  ").is_none());
    }

    proptest::proptest! {
        #[test]
        fn any_line_is_a_command_or_a_one_line_error(
            verb in "(play|undo|redo|new|go|PLAY)?",
            rest in "[ -~\t\u{0}-\u{1f}é]{0,60}",
        ) {
            if let Some(Err(message)) = parse(&format!("{verb} {rest}")) {
                proptest::prop_assert!(!message.contains('\n'), "{message}");
            }
        }
    }

    #[test]
    fn bad_console_lines_are_named() {
        assert_eq!(err("play"), "play: missing the moves to play (e.g. play f5)");
        assert!(err("play f9").starts_with("play: ") && err("play f9").contains("f9"), "{}", err("play f9"));
        assert_eq!(err("undo 0"), "undo: '0' is not a number of moves (1 to 120)");
        assert_eq!(err("undo -1"), "undo: '-1' is not a number of moves (1 to 120)");
        assert_eq!(err("redo two"), "redo: 'two' is not a number of moves (1 to 120)");
        assert_eq!(err("undo 1 2"), "undo: unexpected '2'");
        assert_eq!(err("new game"), "new: unexpected 'game'");
    }
}
