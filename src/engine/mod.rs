//! The engine: a reader thread, the engine loop and the search thread, joined by crossbeam
//! channels.
//!
//! - The reader thread reads stdin line by line, parses each line with the protocol's nom parser
//!   into a typed command stamped with the instant it was read, and sends it to the loop. At end
//!   of input it sends `Eof`.
//! - The engine loop owns the state (through the protocol's [`Frontend`]) and is the only writer
//!   to stdout. It waits on both the input channel and the search thread's reports, so a `stop`,
//!   `isready` or NBoard `ping` is handled while a search runs.
//! - The search thread ([`search_thread`]) runs one job at a time and reports through messages.
//!
//! Each protocol (UGI, NBoard, GTP) is a [`Frontend`] over this same loop.

pub mod io;
pub mod search_thread;
pub mod settings;

use crate::protocol::Protocol;
use crate::protocol::gtp::Gtp;
use crate::protocol::nboard::Nboard;
use crate::protocol::ugi::Ugi;
use crate::rng::Rng;
use crate::search::SearchRequest;
use crossbeam_channel::{Sender, select, unbounded};
pub use io::{LineSource, Output};
use search_thread::{Control, Job, Report, SearchThread};
pub use settings::Settings;
use std::time::Instant;

/// Whether the loop goes on after a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep going.
    Continue,
    /// Exit now.
    Quit,
}

/// What the reader thread sends to the loop.
#[derive(Debug)]
pub enum Input<C> {
    /// A parsed command and the instant its line was read.
    Command(C, Instant),
    /// A line that did not parse, with the message.
    Error(String),
    /// End of input.
    Eof,
}

/// A protocol's front end: parses lines into commands (on the reader thread) and reacts to
/// commands and search reports (on the loop), writing its replies through the [`Context`].
pub trait Frontend {
    /// The protocol's typed command.
    type Command: Send + 'static;

    /// Parses one line. `None` for a line to ignore (blank, comment).
    fn parse(line: &str) -> Option<Result<Self::Command, String>>;

    /// Handles a command.
    fn on_command(&mut self, command: Self::Command, received: Instant, ctx: &mut Context) -> Flow;

    /// Handles a line that did not parse.
    fn on_parse_error(&mut self, message: String, ctx: &mut Context) -> Flow;

    /// Handles a report from the search thread.
    fn on_report(&mut self, report: Report, ctx: &mut Context) -> Flow;

    /// Handles the end of input: stop what must stop; the loop exits once [`Frontend::busy`] is
    /// false.
    fn on_eof(&mut self, ctx: &mut Context) -> Flow;

    /// Whether a job's answer is still owed to the client.
    fn busy(&self) -> bool;
}

/// What a front end works with: the output, the search thread and the shared settings.
pub struct Context {
    /// The one writer of stdout.
    pub out: Output,
    search: SearchThread,
    next_id: u64,
    /// Evaluation, level, move overhead.
    pub settings: Settings,
    /// For the random mover.
    pub rng: Rng,
}

impl Context {
    fn new(out: Output, settings: Settings) -> Context {
        Context { out, search: SearchThread::spawn(), next_id: 0, settings, rng: Rng::from_time() }
    }

    /// Starts a search; returns the id its reports will carry.
    pub fn start_search(&mut self, request: Box<SearchRequest>) -> u64 {
        self.next_id += 1;
        self.search.send(Job::Search { id: self.next_id, request });
        self.next_id
    }

    /// Starts a perft count; returns the id of its report.
    pub fn start_perft(&mut self, position: crate::board::Position, depth: u32) -> u64 {
        self.next_id += 1;
        self.search.send(Job::Perft { id: self.next_id, position, depth });
        self.next_id
    }

    /// Asks the search started last to stop and report (at once if it has not started yet).
    pub fn stop_search(&self) {
        self.search.control(Control::Stop(self.next_id));
    }

    /// Tells the search thread that a new game starts.
    pub fn new_game(&self) {
        self.search.send(Job::NewGame);
    }

    /// Writes one line to the client.
    pub fn line(&mut self, line: &str) {
        self.out.line(line);
    }
}

/// Runs the engine loop with front end `frontend` until `quit` or the end of input. `first` is a
/// line already read (the one the protocol was recognised from).
pub fn run<F: Frontend>(mut frontend: F, first: Option<String>, lines: LineSource, out: Output, settings: Settings) {
    let (tx, rx) = unbounded();
    std::thread::Builder::new()
        .name("reader".into())
        .spawn(move || read_input::<F>(first, lines, tx))
        .unwrap_or_else(|e| panic!("cannot start the reader thread: {e}"));

    let mut ctx = Context::new(out, settings);
    let reports = ctx.search.reports.clone();
    let never = crossbeam_channel::never();
    let mut eof = false;
    loop {
        let input = if eof { &never } else { &rx };
        let flow = select! {
            recv(input) -> message => match message {
                Ok(Input::Command(command, received)) => frontend.on_command(command, received, &mut ctx),
                Ok(Input::Error(message)) => frontend.on_parse_error(message, &mut ctx),
                Ok(Input::Eof) | Err(_) => {
                    eof = true;
                    frontend.on_eof(&mut ctx)
                }
            },
            recv(reports) -> report => match report {
                Ok(report) => frontend.on_report(report, &mut ctx),
                Err(_) => {
                    log::error!("the search thread has gone");
                    Flow::Quit
                }
            },
        };
        if flow == Flow::Quit || ctx.out.is_closed() || (eof && !frontend.busy()) {
            break;
        }
    }
    ctx.search.control(Control::Quit);
}

/// Runs the engine on stdin and stdout until `quit` or the end of input, speaking `protocol`
/// (recognised from the first line that is not blank when `None`).
pub fn run_stdio(protocol: Option<Protocol>, settings: Settings) {
    let mut lines = LineSource::new(Box::new(std::io::BufReader::new(std::io::stdin())));
    let out = Output::new(Box::new(std::io::stdout()));
    let first = loop {
        match lines.next_line() {
            Some(Ok(line)) if line.trim().is_empty() => continue,
            Some(Ok(line)) => break Some(line),
            // A first line too long to read is not worth recognising a protocol from.
            Some(Err(_)) => continue,
            None => break None,
        }
    };
    let protocol = protocol.unwrap_or_else(|| first.as_deref().map_or(Protocol::Ugi, Protocol::detect));
    log::info!("speaking {protocol}");
    match protocol {
        Protocol::Ugi => run(Ugi::default(), first, lines, out, settings),
        Protocol::Nboard => run(Nboard::default(), first, lines, out, settings),
        Protocol::Gtp => run(Gtp::default(), first, lines, out, settings),
    }
}

fn read_input<F: Frontend>(first: Option<String>, mut lines: LineSource, tx: Sender<Input<F::Command>>) {
    let send = |line: &str| {
        let received = Instant::now();
        match F::parse(line) {
            None => true,
            Some(Ok(command)) => tx.send(Input::Command(command, received)).is_ok(),
            Some(Err(message)) => tx.send(Input::Error(message)).is_ok(),
        }
    };
    if let Some(first) = first
        && !send(&first)
    {
        return;
    }
    while let Some(line) = lines.next_line() {
        match line {
            Ok(line) => {
                if !send(&line) {
                    return;
                }
            }
            Err(message) => {
                if tx.send(Input::Error(message)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = tx.send(Input::Eof);
}
