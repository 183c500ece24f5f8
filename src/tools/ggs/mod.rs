//! `magpie ggs`: a client of the Generic Game Server's Othello service. It logs in, sets up
//! `/os`, takes or asks for games by the user's rules, plays every board of its own with the
//! engine's search, records finished games as GGF, keeps the connection alive, and connects
//! again with a growing delay when the connection is lost.
//!
//! Threads: a reader thread turns the socket's bytes into lines (a login prompt, which the server
//! writes without a line ending, is passed on as soon as it is seen); this thread runs the
//! [`Session`] on the messages, writes to the socket and drives one
//! [`SearchThread`]. Boards are searched one after another, each
//! from the moment its board arrived, so that a board waiting behind another is charged the wait
//! on its own clock (the server charges it too). The search thread never writes anything; the
//! log goes to stderr through `log`.

mod session;

pub use session::{Action, Ask, Config, Policy, Session, Turn, keepalive_line, setup_lines, type_matches};

use crate::board::Move;
use crate::engine::search_thread::{Control, Job, Report, SearchThread};
use crate::engine::settings::{MovePlan, Settings};
use crate::formats::ggf::GgfGame;
use crate::protocol::ggs::{Framer, GameId, is_prompt, parse_message};
use crate::rng::Rng;
use crate::search::tt::{AllocError, TranspositionTable};
use crate::search::{Clock, Limits};
use crossbeam_channel::{Sender, select, unbounded};
use std::collections::VecDeque;
use std::fmt;
use std::fs::OpenOptions;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::thread;
use std::time::{Duration, Instant};

/// The public server.
pub const DEFAULT_HOST: &str = "skatgame.net";

/// Its port for clients.
pub const DEFAULT_PORT: u16 = 5000;

/// How long after connecting the stored games asked for are waited for before requests are
/// taken again in their place.
const RESUME_WAIT: Duration = Duration::from_secs(60);

/// Everything `magpie ggs` needs.
#[derive(Clone, Debug)]
pub struct GgsRequest {
    /// The server's host.
    pub host: String,
    /// Its port.
    pub port: u16,
    /// Login, password and the rules of play.
    pub session: Config,
    /// The engine's settings (level, threads, hash, book, book randomness).
    pub settings: Settings,
    /// Where finished games are appended as GGF, one a line.
    pub ggf: Option<PathBuf>,
    /// How long the connection may stay quiet before a keepalive is sent.
    pub keepalive: Duration,
    /// The delay before the first attempt to connect again; it doubles up to `retry_max`.
    pub retry_delay: Duration,
    /// The longest delay between attempts.
    pub retry_max: Duration,
    /// Attempts to connect in a row before giving up (`None`: never give up).
    pub retries: Option<u32>,
    /// Stop (log out) once this many boards are finished and no match is on.
    pub games: Option<u64>,
}

/// Why the client stopped for good.
#[derive(Debug)]
pub enum GgsError {
    /// The server refused the login.
    Refused(String),
    /// The server could not be reached `retries` times in a row.
    Unreachable(String),
    /// The transposition table could not be allocated.
    Hash(AllocError),
    /// The GGF file could not be written.
    Write(String),
}

impl fmt::Display for GgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GgsError::Refused(text) => f.write_str(text),
            GgsError::Unreachable(text) => f.write_str(text),
            GgsError::Hash(e) => write!(f, "--hash: {e}"),
            GgsError::Write(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for GgsError {}

/// What a session did, for the last line of the log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Boards finished and recorded.
    pub boards: u64,
    /// Moves sent.
    pub moves: u64,
    /// Connections made.
    pub connections: u32,
}

/// What the reader thread passes on.
enum Input {
    /// A line, without its line ending.
    Line(String),
    /// The connection is closed (or broken: the reason).
    Closed(String),
}

/// Reads `stream` into lines until it closes.
fn read_lines(mut stream: TcpStream, lines: Sender<Input>) {
    let mut pending: Vec<u8> = Vec::new();
    let mut buffer = [0u8; 8192];
    let reason = loop {
        match stream.read(&mut buffer) {
            Ok(0) => break "closed by the server".to_string(),
            Ok(n) => {
                pending.extend_from_slice(&buffer[..n]);
                while let Some(end) = pending.iter().position(|&b| b == b'\n') {
                    let line: Vec<u8> = pending.drain(..=end).collect();
                    let text = String::from_utf8_lossy(&line[..line.len() - 1]).into_owned();
                    if lines.send(Input::Line(text)).is_err() {
                        return;
                    }
                }
                // A prompt waits for our answer without a line ending.
                let text = String::from_utf8_lossy(&pending);
                if is_prompt(text.trim()) && text.trim_end().ends_with('.') {
                    let _ = lines.send(Input::Line(text.into_owned()));
                    pending.clear();
                }
                // A line longer than any the server writes: cut it, rather than grow.
                if pending.len() > 1 << 20 {
                    let text = String::from_utf8_lossy(&pending).into_owned();
                    let _ = lines.send(Input::Line(text));
                    pending.clear();
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => break e.to_string(),
        }
    };
    let _ = lines.send(Input::Closed(reason));
}

/// A board being searched.
struct Searching {
    job: u64,
    turn: Turn,
    received: Instant,
}

/// A search thread and the board it searches.
struct Slot {
    thread: SearchThread,
    current: Option<Searching>,
}

/// The boards waiting for a search, and the search slots: two (one per board of a synchro
/// match, each with half the threads) when there are two threads or more, else one, whose boards
/// are searched one after another, each planned on its share of its clock.
struct Searches {
    slots: Vec<Slot>,
    /// Every slot's reports, in one channel.
    reports: crossbeam_channel::Receiver<Report>,
    next_job: u64,
    queue: VecDeque<(Turn, Instant)>,
    settings: Settings,
    rng: Rng,
    book_rng: Rng,
}

impl Searches {
    fn new(settings: &Settings) -> Result<Searches, GgsError> {
        let table = TranspositionTable::shared(settings.hash_mib).map_err(GgsError::Hash)?;
        let slots = if settings.threads >= 2 { 2 } else { 1 };
        let (report_tx, reports) = unbounded();
        let slots = (0..slots)
            .map(|_| {
                let thread = SearchThread::spawn(std::sync::Arc::clone(&table), (settings.threads / slots).max(1));
                let (from, to) = (thread.reports.clone(), report_tx.clone());
                let _ = thread::Builder::new().name("ggs-reports".into()).spawn(move || {
                    while let Ok(report) = from.recv() {
                        if to.send(report).is_err() {
                            break;
                        }
                    }
                });
                Slot { thread, current: None }
            })
            .collect();
        Ok(Searches {
            slots,
            reports,
            next_job: 1,
            queue: VecDeque::new(),
            book_rng: settings.book_rng(),
            rng: Rng::from_time(),
            settings: settings.clone(),
        })
    }

    fn quit(&self) {
        for slot in &self.slots {
            slot.thread.control(Control::Quit);
        }
    }
}

/// How a connection ended.
enum Ending {
    /// The work asked for is done: logged out.
    Done,
    /// Lost: connect again.
    Lost(String),
}

/// Runs the client until the games asked for are done, the login is refused, or the server stays
/// out of reach.
pub fn run(request: GgsRequest) -> Result<Summary, GgsError> {
    let mut searches = Searches::new(&request.settings)?;
    let mut session = Session::new(request.session.clone());
    let mut summary = Summary::default();
    let mut failures = 0u32;
    let mut refusals = 0u32;
    let mut delay = request.retry_delay;
    loop {
        let address = format!("{}:{}", request.host, request.port);
        match connect(&address) {
            Ok(stream) => {
                summary.connections += 1;
                failures = 0;
                log::info!("ggs: connected to {address}");
                let forgotten = session.connected();
                searches.forget_all(forgotten);
                match connection(stream, &request, &mut session, &mut searches, &mut summary)? {
                    Ending::Done => {
                        log::info!(
                            "ggs: done: {} boards recorded, {} moves sent, {} connection(s)",
                            summary.boards,
                            summary.moves,
                            summary.connections
                        );
                        searches.quit();
                        return Ok(summary);
                    }
                    Ending::Lost(reason) => {
                        log::warn!("ggs: connection lost: {reason}");
                        if session.awaiting_login() {
                            refusals += 1;
                            if refusals >= 2 {
                                return Err(GgsError::Refused(format!(
                                    "the server refused the login {}: it closed the connection after the \
                                     password, twice",
                                    request.session.login
                                )));
                            }
                        } else {
                            refusals = 0;
                        }
                        if session.logged_in() {
                            delay = request.retry_delay;
                        }
                    }
                }
            }
            Err(e) => {
                failures += 1;
                log::warn!("ggs: cannot connect to {address}: {e}");
                if request.retries.is_some_and(|r| failures >= r) {
                    return Err(GgsError::Unreachable(format!(
                        "cannot connect to {address} after {failures} attempt(s): {e}"
                    )));
                }
            }
        }
        log::info!("ggs: connecting again in {:.1} s", delay.as_secs_f64());
        thread::sleep(delay);
        delay = (delay * 2).min(request.retry_max);
    }
}

/// Connects to `address`, trying each of its addresses for a few seconds.
fn connect(address: &str) -> io::Result<TcpStream> {
    let mut last = io::Error::new(io::ErrorKind::NotFound, "the host has no address");
    for addr in address.to_socket_addrs()? {
        match TcpStream::connect_timeout(&addr, Duration::from_secs(10)) {
            Ok(stream) => {
                let _ = stream.set_nodelay(true);
                return Ok(stream);
            }
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// Plays over one connection until it is lost or the work is done.
fn connection(
    stream: TcpStream,
    request: &GgsRequest,
    session: &mut Session,
    searches: &mut Searches,
    summary: &mut Summary,
) -> Result<Ending, GgsError> {
    let (line_tx, lines) = unbounded();
    let reader = stream.try_clone().map_err(|e| GgsError::Unreachable(e.to_string()))?;
    thread::Builder::new()
        .name("ggs-reader".into())
        .spawn(move || read_lines(reader, line_tx))
        .map_err(|e| GgsError::Unreachable(format!("cannot start the reader thread: {e}")))?;
    let mut writer = Writer { stream, last: Instant::now() };
    let connected = Instant::now();
    let mut framer = Framer::new();
    let ticks = crossbeam_channel::tick(Duration::from_millis(250));
    let ending = loop {
        let mut actions = Vec::new();
        select! {
            recv(lines) -> input => match input {
                Ok(Input::Line(line)) => {
                    for message in framer.push(&line) {
                        actions.extend(session.message(&parse_message(&message)));
                    }
                }
                Ok(Input::Closed(reason)) => break Ending::Lost(reason),
                Err(_) => break Ending::Lost("the reader stopped".to_string()),
            },
            recv(searches.reports) -> report => {
                if let Ok(report) = report {
                    actions.extend(searches.report(report, session));
                }
            },
            recv(ticks) -> _ => {
                if connected.elapsed() >= RESUME_WAIT {
                    session.expire_resumes();
                }
                if session.logged_in() && writer.last.elapsed() >= request.keepalive {
                    actions.push(Action::Send(keepalive_line(session.config())));
                }
            },
        }
        if let Err(reason) = apply(actions, &mut writer, session, searches, request, summary)? {
            break Ending::Lost(reason);
        }
        if request.games.is_some_and(|n| summary.boards >= n) && session.matches_on() == 0 {
            let _ = writer.send("quit");
            break Ending::Done;
        }
    };
    let _ = writer.stream.shutdown(Shutdown::Both);
    Ok(ending)
}

/// The socket's writing end, and when it was last written to.
struct Writer {
    stream: TcpStream,
    last: Instant,
}

impl Writer {
    fn send(&mut self, line: &str) -> io::Result<()> {
        log::debug!("ggs: > {}", if line.starts_with("tell") || line.is_empty() { line } else { "(login)" });
        self.last = Instant::now();
        // The line and its ending in one write: the server reads a login split in two as two.
        self.stream.write_all(format!("{line}\n").as_bytes())
    }
}

/// Carries out `actions` and those they lead to. `Ok(Err(reason))`: the connection broke.
fn apply(
    mut actions: Vec<Action>,
    writer: &mut Writer,
    session: &mut Session,
    searches: &mut Searches,
    request: &GgsRequest,
    summary: &mut Summary,
) -> Result<Result<(), String>, GgsError> {
    while !actions.is_empty() {
        let mut next = Vec::new();
        for action in actions {
            match action {
                Action::Send(line) => {
                    if line.starts_with("tell /os play") {
                        summary.moves += 1;
                    }
                    if let Err(e) = writer.send(&line) {
                        return Ok(Err(e.to_string()));
                    }
                }
                Action::Search(turn) => searches.push(*turn, Instant::now()),
                Action::Forget(id) => searches.forget(id),
                Action::Record(game) => {
                    summary.boards += 1;
                    record(&game, request)?;
                }
                Action::Fatal(text) => return Err(GgsError::Refused(text)),
            }
        }
        next.extend(searches.start_next(session));
        actions = next;
    }
    Ok(Ok(()))
}

/// Appends a finished game to the GGF file, if there is one.
fn record(game: &GgfGame, request: &GgsRequest) -> Result<(), GgsError> {
    let result = game.result().map_or("?".to_string(), |r| r.to_string());
    log::info!(
        "ggs: game over: {} (Black) against {} (White): {result}",
        game.player(crate::board::Color::Black).unwrap_or("?"),
        game.player(crate::board::Color::White).unwrap_or("?"),
    );
    let Some(path) = &request.ggf else { return Ok(()) };
    let write = || -> io::Result<()> {
        let mut file = OpenOptions::new().create(true).append(true).open(path)?;
        writeln!(file, "{game}")
    };
    write().map_err(|e| GgsError::Write(format!("cannot write to {}: {e}", path.display())))
}

impl Searches {
    /// Queues `turn` (in place of an older turn of the same board).
    fn push(&mut self, turn: Turn, received: Instant) {
        self.forget(turn.id);
        self.queue.push_back((turn, received));
    }

    /// Drops the board's queued turn and stops its search.
    fn forget(&mut self, id: GameId) {
        self.queue.retain(|(t, _)| t.id != id);
        for slot in &mut self.slots {
            if let Some(current) = slot.current.take_if(|c| c.turn.id == id) {
                slot.thread.control(Control::Stop(current.job));
            }
        }
    }

    fn forget_all(&mut self, actions: Vec<Action>) {
        for action in actions {
            if let Action::Forget(id) = action {
                self.forget(id);
            }
        }
        for slot in &mut self.slots {
            if let Some(current) = slot.current.take() {
                slot.thread.control(Control::Stop(current.job));
            }
        }
        self.queue.clear();
    }

    /// Starts queued searches on the free slots; turns answered without a search give their
    /// moves at once.
    fn start_next(&mut self, session: &mut Session) -> Vec<Action> {
        let mut actions = Vec::new();
        let slots = self.slots.len() as u32;
        while let Some(free) = self.slots.iter().position(|s| s.current.is_none()) {
            let Some((turn, received)) = self.queue.pop_front() else { break };
            let limits = limits_of(&turn, slots);
            match self.settings.plan(&turn.position, &limits, received, &mut self.rng, &mut self.book_rng) {
                MovePlan::GameOver => {}
                MovePlan::Immediate { mv, reason } => {
                    log::debug!("ggs: {}: {mv} ({reason})", turn.id);
                    actions.extend(session.moved(&turn, mv, 0.0, received.elapsed()));
                }
                MovePlan::Book(play) => {
                    log::debug!("ggs: {}: {} from the book", turn.id, play.mv);
                    actions.extend(session.moved(&turn, play.mv, f64::from(play.value) / 100.0, received.elapsed()));
                }
                MovePlan::Search(search) => {
                    let job = self.next_job;
                    self.next_job += 1;
                    let slot = &mut self.slots[free];
                    slot.thread.send(Job::Search { id: job, request: search });
                    slot.current = Some(Searching { job, turn, received });
                }
            }
        }
        actions
    }

    /// A report of a search thread: a finished search gives its move.
    fn report(&mut self, report: Report, session: &mut Session) -> Vec<Action> {
        let Report::Finished { id, result } = report else { return Vec::new() };
        let Some(current) = self.slots.iter_mut().find_map(|s| s.current.take_if(|c| c.job == id)) else {
            return Vec::new();
        };
        let eval = f64::from(result.info.score) / 100.0;
        let time = current.received.elapsed();
        log::debug!(
            "ggs: {}: {} at depth {}, {:+.2} discs, {} nodes, {:.2} s",
            current.turn.id,
            result.best,
            result.info.depth,
            eval,
            result.info.nodes,
            time.as_secs_f64()
        );
        let mv = if current.turn.position.is_legal(result.best) { result.best } else { Move::Pass };
        let mut actions = session.moved(&current.turn, mv, eval, time);
        actions.extend(self.start_next(session));
        actions
    }
}

/// The search limits of a turn: its clock as the server showed it (main time left, increment),
/// less a tenth kept in hand (5 s at most): the server measures the time on its side of the
/// network and a loaded machine answers late, so the engine's plan, which spends nearly all of a
/// clock, is given a little less. The extension is never planned on, since a game that reaches
/// it is lost on the server's books. Our boards still on share the `slots` search slots, so
/// with more boards than slots each is planned on its share of its clock. A clock shown at
/// zero gets a second.
fn limits_of(turn: &Turn, slots: u32) -> Limits {
    if turn.clock.left.is_zero() {
        return Limits { movetime: Some(Duration::from_secs(1)), ..Limits::default() };
    }
    let share = turn.boards_on.max(1).div_ceil(slots);
    let kept = (turn.clock.left / 10).min(Duration::from_secs(5));
    let time = (turn.clock.left - kept) / share;
    let clock = Clock { time, increment: turn.clock.increment / share, moves_to_go: None };
    Limits { clock: Some(clock), ..Limits::default() }
}
