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
//! Each protocol (UGI, NBoard, GTP) is a [`Frontend`] over this same loop. The engine knows a
//! protocol only through that trait; which one runs is chosen above it ([`crate::protocol`]).

pub mod book;
pub mod io;
pub mod latency;
pub mod search_thread;
pub mod settings;

use crate::board::Position;
use crate::rng::Rng;
use crate::search::tt::AllocError;
use crate::search::{Limits, SearchRequest, TranspositionTable};
use crossbeam_channel::{Sender, select, unbounded};
pub use io::{LineSource, Output};
pub use latency::Latency;
use search_thread::{Control, Job, Report, SearchThread};
use settings::MovePlan;
pub use settings::Settings;
use std::collections::HashMap;
use std::sync::Arc;
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

/// What a front end works with: the output, the search thread, the shared settings and the
/// observed latency.
pub struct Context {
    /// The one writer of stdout.
    pub out: Output,
    search: SearchThread,
    next_id: u64,
    /// Evaluation, level, move overhead, table size, threads and the book. The table size and
    /// threads reach the search thread only through [`Context::set_hash`] and
    /// [`Context::set_threads`], the book seed only through [`Context::set_book_seed`].
    pub settings: Settings,
    /// The transposition table the search thread was last given.
    table: Arc<TranspositionTable>,
    /// For the random mover.
    pub rng: Rng,
    /// For the book's random choices (`BookRandomness`), seeded by `BookSeed` or the clock.
    book_rng: Rng,
    /// The delays observed on this machine, which grow the time kept in hand.
    pub latency: Latency,
    /// The hard deadline of each running search.
    deadlines: HashMap<u64, Instant>,
}

impl Context {
    fn new(out: Output, settings: Settings, table: Arc<TranspositionTable>) -> Context {
        Context {
            out,
            search: SearchThread::spawn(Arc::clone(&table), settings.threads),
            book_rng: settings.book_rng(),
            next_id: 0,
            settings,
            table,
            rng: Rng::from_time(),
            latency: Latency::default(),
            deadlines: HashMap::new(),
        }
    }

    /// The settings with the move overhead grown by the observed latency: what plans a search.
    fn planning_settings(&self) -> Settings {
        Settings { move_overhead: self.latency.margin(self.settings.move_overhead), ..self.settings.clone() }
    }

    /// How to answer a request for a move in `pos` under `limits`, the clock having started at
    /// `received` ([`Settings::plan`], keeping the observed latency in hand).
    pub fn plan(&mut self, pos: &Position, limits: &Limits, received: Instant) -> MovePlan {
        self.planning_settings().plan(pos, limits, received, &mut self.rng, &mut self.book_rng)
    }

    /// Seeds the book's random choices (`None`: from the clock), from the next choice on.
    pub fn set_book_seed(&mut self, seed: Option<u64>) {
        self.settings.book_seed = seed;
        self.book_rng = self.settings.book_rng();
    }

    /// The search for `pos` under `limits` ([`Settings::search_request`], keeping the observed
    /// latency in hand).
    pub fn search_request(&self, pos: &Position, limits: &Limits, received: Instant) -> Box<SearchRequest> {
        self.planning_settings().search_request(pos, limits, received)
    }

    /// Starts a search; returns the id its reports will carry.
    pub fn start_search(&mut self, request: Box<SearchRequest>) -> u64 {
        self.next_id += 1;
        if let Some(hard) = request.deadlines.hard {
            self.deadlines.insert(self.next_id, hard);
        }
        self.search.send(Job::Search { id: self.next_id, request });
        self.next_id
    }

    /// Search `id` has finished: how late its report came after the search's hard deadline is
    /// observed (the answer is written as the report is handled).
    fn search_finished(&mut self, id: u64) {
        if let Some(hard) = self.deadlines.remove(&id) {
            self.latency.observe_lateness(Instant::now().saturating_duration_since(hard));
        }
    }

    /// Starts a perft count; returns the id of its report.
    pub fn start_perft(&mut self, position: crate::board::Position, depth: u32) -> u64 {
        self.next_id += 1;
        self.search.send(Job::Perft { id: self.next_id, position, depth });
        self.next_id
    }

    /// Starts learning a game into a book file (NBoard `learn`) on the search thread; returns the
    /// id of its report. [`Context::stop_search`] ends it between two positions.
    pub fn start_learning(&mut self, task: book::LearnTask) -> u64 {
        self.next_id += 1;
        self.search.send(Job::Learn { id: self.next_id, task: Box::new(task) });
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

    /// A new transposition table of `mib` MiB for the searches from the next one on (a running
    /// search keeps its table). If the memory cannot be had, the table and the settings stay as
    /// they were.
    pub fn set_hash(&mut self, mib: usize) -> Result<(), AllocError> {
        let table = TranspositionTable::shared(mib)?;
        self.settings.hash_mib = mib;
        self.table = table;
        self.configure();
        Ok(())
    }

    /// Searches with `threads` threads from the next search on.
    pub fn set_threads(&mut self, threads: usize) {
        self.settings.threads = threads;
        self.configure();
    }

    fn configure(&self) {
        self.search.send(Job::Configure { table: Arc::clone(&self.table), threads: self.settings.threads });
    }

    /// Writes one line to the client.
    pub fn line(&mut self, line: &str) {
        self.out.line(line);
    }
}

/// The transposition table `settings` ask for (`hash_mib`), allocated before the engine starts so
/// that a size the machine cannot give is refused at once.
pub fn allocate_table(settings: &Settings) -> Result<Arc<TranspositionTable>, AllocError> {
    TranspositionTable::shared(settings.hash_mib)
}

/// Runs the engine loop with front end `frontend` until `quit` or the end of input. `first` is a
/// line already read (the one the protocol was recognised from), or the error of a first line that
/// could not be read (too long). `table` is the transposition table of `settings`
/// ([`allocate_table`]).
pub fn run<F: Frontend>(
    mut frontend: F,
    first: Option<Result<String, String>>,
    lines: LineSource,
    out: Output,
    settings: Settings,
    table: Arc<TranspositionTable>,
) {
    let (tx, rx) = unbounded();
    std::thread::Builder::new()
        .name("reader".into())
        .spawn(move || read_input::<F>(first, lines, tx))
        .unwrap_or_else(|e| panic!("cannot start the reader thread: {e}"));

    let mut ctx = Context::new(out, settings, table);
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
                Ok(report) => {
                    if let Report::Finished { id, .. } = &report {
                        ctx.search_finished(*id);
                    }
                    frontend.on_report(report, &mut ctx)
                }
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

fn read_input<F: Frontend>(
    first: Option<Result<String, String>>,
    mut lines: LineSource,
    tx: Sender<Input<F::Command>>,
) {
    let send = |line: Result<String, String>| {
        let received = Instant::now();
        match line.map(|line| F::parse(&line)) {
            Ok(None) => true,
            Ok(Some(Ok(command))) => tx.send(Input::Command(command, received)).is_ok(),
            Ok(Some(Err(message))) | Err(message) => tx.send(Input::Error(message)).is_ok(),
        }
    };
    for line in first.into_iter().chain(std::iter::from_fn(|| lines.next_line())) {
        if !send(line) {
            return;
        }
    }
    let _ = tx.send(Input::Eof);
}
