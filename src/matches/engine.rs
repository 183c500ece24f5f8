//! External engines for the match runner: a child process driven over pipes in its own protocol
//! (UGI, NBoard or GTP). Every wait has a deadline, so an engine that hangs, crashes or prints
//! garbage becomes a typed [`EngineError`] instead of a stuck runner.
//!
//! Each engine also measures the latency the runner sees: before every move request it times the
//! round trip of a command that needs no thinking (UGI `isready`, NBoard `ping`, the last GTP
//! command before `genmove`), and [`Engine::latency`] is the largest of the last
//! [`LATENCY_WINDOW`] of them. The referee adds it to the time an engine is allowed, so that what
//! is only the pipes' and the scheduler's delay on a loaded machine never counts as an overrun.

use super::spec::{EngineSpec, TimeControl};
use crate::board::{BoardSize, Color, Game, Move, Position};
use crate::engine::LineSource;
use crate::formats::ggf::{Clock as GgfClock, GgfGame};
use crate::formats::spaced_moves;
use crate::protocol::Protocol;
use crate::quote::io_text;
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use std::collections::VecDeque;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Write};
use std::process::{Child, ChildStderr, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long an engine may take to start up or answer a command that needs no thinking.
pub const SETUP_TIMEOUT: Duration = Duration::from_secs(10);

/// How many of an engine's latest round trips its latency allowance is the largest of.
pub const LATENCY_WINDOW: usize = 8;

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started: the program, or its directory or stderr file, and why.
    Spawn(String),
    /// The process exited or closed its output: how it ended.
    Crashed(String),
    /// No answer in time: what was awaited, and for how long.
    Timeout(String),
    /// An answer that is not what the protocol allows.
    Garbage(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "cannot start: {e}"),
            EngineError::Crashed(how) => write!(f, "crashed: {how}"),
            EngineError::Timeout(what) => f.write_str(what),
            EngineError::Garbage(line) => write!(f, "unexpected answer '{}'", shorten(line)),
        }
    }
}

impl std::error::Error for EngineError {}

/// A line cut to a readable length for messages.
fn shorten(line: &str) -> String {
    let mut s: String = line.chars().take(60).collect();
    if line.chars().count() > 60 {
        s.push('…');
    }
    s.escape_debug().to_string()
}

/// A duration in seconds to the millisecond, for messages.
pub fn secs(d: Duration) -> String {
    format!("{:.3} s", d.as_secs_f64())
}

/// The time a move is allowed, in its parts: `time 0.050 + margin 0.100 + latency 0.002 s`.
pub fn allowance(limit: Duration, margin: Duration, latency: Duration) -> String {
    let f = |d: Duration| format!("{:.3}", d.as_secs_f64());
    format!("time {} + margin {} + latency {} s", f(limit), f(margin), f(latency))
}

/// A time in whole seconds for GTP, rounded up so that the engine is never told less than it has.
pub fn gtp_seconds(t: Duration) -> u64 {
    t.as_secs() + u64::from(t.subsec_nanos() > 0)
}

/// An engine's answer to a move request.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The move as the engine wrote it, parsed.
    pub mv: Move,
    /// The engine's evaluation in discs for the mover, when it gave one.
    pub eval: Option<f64>,
    /// Time from writing the request (`go`, `genmove`) to reading the answer.
    pub spent: Duration,
    /// The latency allowance the answer was waited for with ([`Engine::latency`]).
    pub latency: Duration,
}

/// One side's time in a game as the runner keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SideTime {
    /// The side's time control (its engine's own, or the match's).
    pub tc: TimeControl,
    /// Time left on its clock (meaningful for a clock time control only).
    pub left: Duration,
}

/// The time of both sides in a game, kept by the runner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clocks {
    /// Black's.
    pub black: SideTime,
    /// White's.
    pub white: SideTime,
}

impl Clocks {
    /// The time of `color`.
    pub fn of(&self, color: Color) -> SideTime {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The time of `color`, mutably.
    pub fn of_mut(&mut self, color: Color) -> &mut SideTime {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

/// What the stderr reader keeps: the last non-blank line, and whether the stream has ended.
#[derive(Debug, Default)]
struct StderrTail {
    last: Option<String>,
    closed: bool,
}

/// Reads an engine's stderr to its end, appending it to `file` when given and keeping its last
/// line for crash reports.
fn drain_stderr(mut stderr: ChildStderr, mut file: Option<File>, tail: Arc<Mutex<StderrTail>>) {
    let mut buf = [0u8; 4096];
    let mut line: Vec<u8> = Vec::new();
    loop {
        let n = match stderr.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if let Some(f) = &mut file
            && f.write_all(&buf[..n]).is_err()
        {
            file = None;
        }
        for &b in &buf[..n] {
            if b == b'\n' {
                let text = String::from_utf8_lossy(&line).trim().to_string();
                if !text.is_empty()
                    && let Ok(mut tail) = tail.lock()
                {
                    tail.last = Some(text);
                }
                line.clear();
            } else if line.len() < 200 {
                line.push(b);
            }
        }
    }
    let text = String::from_utf8_lossy(&line).trim().to_string();
    if let Ok(mut tail) = tail.lock() {
        if !text.is_empty() {
            tail.last = Some(text);
        }
        tail.closed = true;
    }
}

/// A running engine process.
pub struct Engine {
    /// Its specification.
    pub spec: EngineSpec,
    /// Its time control: its own, or the match's.
    pub tc: TimeControl,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The last line read from it, for messages.
    last_line: Option<String>,
    stderr: Arc<Mutex<StderrTail>>,
    /// NBoard ping counter.
    ping: u64,
    /// The latest round trips of commands that need no thinking, newest last.
    round_trips: VecDeque<Duration>,
}

impl Engine {
    /// Starts the engine with time control `tc` and completes its protocol's handshake.
    pub fn start(spec: &EngineSpec, tc: TimeControl, size: BoardSize) -> Result<Engine, EngineError> {
        let program = spec.program_path();
        let mut command = Command::new(&program);
        command.args(&spec.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            // A missing directory would otherwise be reported as a missing program.
            match std::fs::metadata(dir) {
                Ok(m) if m.is_dir() => {}
                Ok(_) => return Err(EngineError::Spawn(format!("dir {}: not a directory", dir.display()))),
                Err(e) => return Err(EngineError::Spawn(format!("dir {}: {}", dir.display(), io_text(&e)))),
            }
            command.current_dir(dir);
        }
        let file = match &spec.stderr {
            Some(path) => Some(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| EngineError::Spawn(format!("stderr file {}: {}", path.display(), io_text(&e))))?,
            ),
            None => None,
        };
        let mut child =
            command.spawn().map_err(|e| EngineError::Spawn(format!("{}: {}", program.display(), io_text(&e))))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or_else(|| EngineError::Spawn("no stdout".into()))?;
        let stderr_pipe = child.stderr.take().ok_or_else(|| EngineError::Spawn("no stderr".into()))?;
        let stderr = Arc::new(Mutex::new(StderrTail::default()));
        let (tx, lines) = unbounded();
        let tail = stderr.clone();
        std::thread::Builder::new()
            .name(format!("stderr of {}", spec.name))
            .spawn(move || drain_stderr(stderr_pipe, file, tail))
            .map_err(|e| EngineError::Spawn(e.to_string()))?;
        std::thread::Builder::new()
            .name(format!("engine {}", spec.name))
            .spawn(move || {
                // The engine's own line reader: a line too long to be an answer arrives as garbage.
                let mut lines = LineSource::new(Box::new(BufReader::new(stdout)));
                while let Some(line) = lines.next_line() {
                    if tx.send(line.unwrap_or_else(|too_long| format!("<{too_long}>"))).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| EngineError::Spawn(e.to_string()))?;
        let mut engine = Engine {
            spec: spec.clone(),
            tc,
            child,
            stdin,
            lines,
            last_line: None,
            stderr,
            ping: 0,
            round_trips: VecDeque::new(),
        };
        engine.handshake(size)?;
        Ok(engine)
    }

    /// The latency allowance: the largest of the latest [`LATENCY_WINDOW`] round trips measured
    /// before move requests (zero before the first).
    pub fn latency(&self) -> Duration {
        self.round_trips.iter().copied().max().unwrap_or_default()
    }

    fn note_round_trip(&mut self, rtt: Duration) {
        if self.round_trips.len() == LATENCY_WINDOW {
            self.round_trips.pop_front();
        }
        self.round_trips.push_back(rtt);
    }

    /// How the process ended (it closed its output or its input): its exit status once it has
    /// exited, and the last line it wrote on stderr.
    fn crash(&mut self) -> EngineError {
        let until = Instant::now() + Duration::from_millis(300);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => break None,
            }
        };
        // Let the stderr reader take in what was written last.
        while Instant::now() < until && !self.stderr.lock().map_or(true, |t| t.closed) {
            std::thread::sleep(Duration::from_millis(5));
        }
        let mut how = match status {
            Some(status) => match status.code() {
                Some(code) => format!("exited with status {code}"),
                None => format!("ended by {status}"),
            },
            None => "closed its output".to_string(),
        };
        if let Some(last) = self.stderr.lock().ok().and_then(|t| t.last.clone()) {
            how.push_str(&format!(", its last stderr line '{}'", shorten(&last)));
        }
        EngineError::Crashed(how)
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let sent = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|()| stdin.flush()).is_ok(),
            None => false,
        };
        if sent { Ok(()) } else { Err(self.crash()) }
    }

    /// Reads lines until one satisfies `done` or `deadline` passes, returning it and the lines
    /// before it. `expected` names the awaited answer for the timeout's message.
    fn until(
        &mut self,
        deadline: Instant,
        expected: &str,
        done: impl Fn(&str) -> bool,
    ) -> Result<(String, Vec<String>), EngineError> {
        let within = secs(deadline.saturating_duration_since(Instant::now()));
        self.until_within(deadline, expected, &within, done)
    }

    /// [`Engine::until`] with the wait described as `within` in the timeout's message.
    fn until_within(
        &mut self,
        deadline: Instant,
        expected: &str,
        within: &str,
        done: impl Fn(&str) -> bool,
    ) -> Result<(String, Vec<String>), EngineError> {
        let mut before = Vec::new();
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(wait) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    let last = match &self.last_line {
                        Some(line) => format!(" (its last line: '{}')", shorten(line)),
                        None => String::new(),
                    };
                    return Err(EngineError::Timeout(format!("no {expected} within {within}{last}")));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.crash()),
            };
            self.last_line = Some(line.clone());
            if done(&line) {
                return Ok((line, before));
            }
            before.push(line);
        }
    }

    /// A GTP command's answer: the text after `=`, or the message of a `?` answer as garbage.
    fn gtp(&mut self, command: &str, deadline: Instant) -> Result<String, EngineError> {
        let within = secs(deadline.saturating_duration_since(Instant::now()));
        self.gtp_within(command, deadline, &within)
    }

    /// [`Engine::gtp`] with the wait described as `within` in the timeout's message.
    fn gtp_within(&mut self, command: &str, deadline: Instant, within: &str) -> Result<String, EngineError> {
        self.send(command)?;
        let expected = format!("answer to '{command}'");
        let (first, _) =
            self.until_within(deadline, &expected, within, |l| l.starts_with('=') || l.starts_with('?'))?;
        // Read the rest of the answer up to its empty line.
        self.until_within(deadline, &expected, within, |l| l.trim().is_empty())?;
        match first.strip_prefix('=') {
            Some(rest) => Ok(rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string()),
            None => Err(EngineError::Garbage(format!("{command} → {first}"))),
        }
    }

    fn nboard_sync(&mut self, deadline: Instant) -> Result<(), EngineError> {
        self.ping += 1;
        let pong = format!("pong {}", self.ping);
        self.send(&format!("ping {}", self.ping))?;
        self.until(deadline, &format!("'{pong}'"), |l| l.trim() == pong).map(|_| ())
    }

    fn handshake(&mut self, size: BoardSize) -> Result<(), EngineError> {
        let deadline = Instant::now() + SETUP_TIMEOUT;
        match self.spec.protocol {
            Protocol::Ugi => {
                self.send("ugi")?;
                self.until(deadline, "'ugiok'", |l| l.trim() == "ugiok")?;
                let options = self.spec.options.clone();
                for (name, value) in &options {
                    self.send(&format!("setoption name {name} value {value}"))?;
                }
                self.send("isready")?;
                self.until(deadline, "'readyok'", |l| l.trim() == "readyok")?;
            }
            Protocol::Nboard => {
                self.send("nboard 2")?;
                // NBoard has no time per move and some engines (NTest) ignore clocks: a depth
                // time control is the engine's depth; otherwise it searches as deep as its
                // clock allows.
                let depth = match self.tc {
                    TimeControl::Depth(d) => d,
                    _ => 60,
                };
                self.send(&format!("set depth {depth}"))?;
                self.nboard_sync(deadline)?;
            }
            Protocol::Gtp => {
                self.gtp("protocol_version", deadline)?;
                self.gtp(&format!("boardsize {}", size.side()), deadline)?;
                self.gtp("clear_board", deadline)?;
            }
        }
        Ok(())
    }

    /// Prepares the engine for a new game.
    pub fn new_game(&mut self, size: BoardSize) -> Result<(), EngineError> {
        let deadline = Instant::now() + SETUP_TIMEOUT;
        match self.spec.protocol {
            Protocol::Ugi => {
                self.send("uginewgame")?;
                self.send("isready")?;
                self.until(deadline, "'readyok'", |l| l.trim() == "readyok").map(|_| ())
            }
            Protocol::Nboard => self.nboard_sync(deadline),
            Protocol::Gtp => {
                self.gtp(&format!("boardsize {}", size.side()), deadline)?;
                self.gtp("clear_board", deadline)?;
                match self.tc {
                    TimeControl::Clock { main, .. } => {
                        self.gtp(&format!("time_settings {} 0 0", main.as_secs()), deadline).map(|_| ())
                    }
                    TimeControl::MoveTime(t) => {
                        // GTP times are whole seconds: byo-yomi of one move per period.
                        self.gtp(&format!("time_settings 0 {} 1", gtp_seconds(t)), deadline).map(|_| ())
                    }
                    TimeControl::Depth(_) => Ok(()),
                }
            }
        }
    }

    /// Asks for a move in the current position of `game` (which the side to move can play in).
    /// The engine is first brought to the position and its round trip measured; then the request
    /// is written and the answer waited for `limit` (its time) + `margin` + [`Engine::latency`].
    /// `clocks` are the runner's clocks; `times` are the seconds each move of the game took (for
    /// NBoard's GGF).
    pub fn request_move(
        &mut self,
        game: &Game,
        times: &[Option<f64>],
        clocks: &Clocks,
        limit: Duration,
        margin: Duration,
    ) -> Result<Answer, EngineError> {
        let rtt = match self.spec.protocol {
            Protocol::Ugi => self.ugi_position(game)?,
            Protocol::Nboard => self.nboard_position(game, times, clocks)?,
            Protocol::Gtp => self.gtp_position(game, clocks)?,
        };
        self.note_round_trip(rtt);
        let latency = self.latency();
        let started = Instant::now();
        let deadline = started + limit + margin + latency;
        let within = allowance(limit, margin, latency);
        let (mv, eval) = match self.spec.protocol {
            Protocol::Ugi => self.ugi_go(clocks, deadline, &within)?,
            Protocol::Nboard => self.nboard_go(deadline, &within)?,
            Protocol::Gtp => self.gtp_go(game, deadline, &within)?,
        };
        Ok(Answer { mv, eval, spent: started.elapsed(), latency })
    }

    /// Sends the position and times an `isready` round trip.
    fn ugi_position(&mut self, game: &Game) -> Result<Duration, EngineError> {
        let start = game.start();
        let base = if *start == Position::start(start.size()) && start.size() == BoardSize::Eight {
            "position startpos".to_string()
        } else {
            format!("position fen {start}")
        };
        let position =
            if game.moves().is_empty() { base } else { format!("{base} moves {}", spaced_moves(game.moves())) };
        let sent = Instant::now();
        self.send(&position)?;
        self.send("isready")?;
        self.until(sent + SETUP_TIMEOUT, "'readyok'", |l| l.trim() == "readyok")?;
        Ok(sent.elapsed())
    }

    fn ugi_go(&mut self, clocks: &Clocks, deadline: Instant, within: &str) -> Result<(Move, Option<f64>), EngineError> {
        let go = match self.tc {
            TimeControl::MoveTime(t) => format!("go movetime {}", t.as_millis()),
            TimeControl::Depth(d) => format!("go depth {d}"),
            TimeControl::Clock { .. } => {
                // Each side's clock, when it has one (an opponent may play by depth or time per
                // move).
                let mut go = "go".to_string();
                for (color, p) in [(Color::Black, "p1"), (Color::White, "p2")] {
                    let side = clocks.of(color);
                    if let TimeControl::Clock { increment, .. } = side.tc {
                        go.push_str(&format!(" {p}time {} {p}inc {}", side.left.as_millis(), increment.as_millis()));
                    }
                }
                go
            }
        };
        self.send(&go)?;
        let (line, info) =
            self.until_within(deadline, "'bestmove'", within, |l| l.split_whitespace().next() == Some("bestmove"))?;
        let text = line.split_whitespace().nth(1).unwrap_or("");
        let mv = text.parse::<Move>().map_err(|_| EngineError::Garbage(line.clone()))?;
        let eval = info.iter().rev().find_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "cp")?;
            words.get(at + 1)?.parse::<f64>().ok().map(|cp| cp / 100.0)
        });
        Ok((mv, eval))
    }

    /// Sends the game with the clocks NBoard reads (the time control's clock and the time of
    /// each move), and times a `ping` round trip.
    fn nboard_position(
        &mut self,
        game: &Game,
        times: &[Option<f64>],
        clocks: &Clocks,
    ) -> Result<Duration, EngineError> {
        let mut ggf = GgfGame::new(*game.start());
        ggf.set_place("magpie match");
        for (mv, time) in game.moves().iter().zip(times) {
            ggf.push_move(*mv, None, *time).map_err(|e| EngineError::Garbage(e.to_string()))?;
        }
        let mover = game.position().side_to_move();
        set_ggf_clocks(&mut ggf, clocks.black.tc, clocks.white.tc);
        if let TimeControl::MoveTime(t) = clocks.of(mover).tc {
            // NBoard has no time per move. The mover gets a clock from which a budget like
            // Magpie's (a share of the time left, at most four times that share) stays within
            // the time per move: a quarter of it per remaining move and two more.
            let moves_left = game.position().empty_count().div_ceil(2) + 2;
            let used: f64 = game
                .positions()
                .iter()
                .zip(times)
                .filter(|(p, _)| p.side_to_move() == mover)
                .filter_map(|(_, t)| *t)
                .sum();
            let main = Duration::from_secs_f64(used) + t * moves_left / 4;
            ggf.set_player_clock(mover, GgfClock { main, increment: Duration::ZERO, grace: Duration::ZERO });
        }
        let sent = Instant::now();
        self.send(&format!("set game {ggf}"))?;
        self.nboard_sync(sent + SETUP_TIMEOUT)?;
        Ok(sent.elapsed())
    }

    fn nboard_go(&mut self, deadline: Instant, within: &str) -> Result<(Move, Option<f64>), EngineError> {
        self.send("go")?;
        let (line, _) = self.until_within(deadline, "'=== move'", within, |l| l.starts_with("==="))?;
        let rest = line.trim_start_matches("===").trim();
        let mut parts = rest.split(|c: char| c == '/' || c.is_whitespace()).filter(|p| !p.is_empty());
        let text = parts.next().unwrap_or("");
        let lower = text.to_ascii_lowercase();
        let mv = if !lower.is_empty() && ("pass".starts_with(&lower) || lower == "--") {
            Move::Pass
        } else {
            text.parse::<Move>().map_err(|_| EngineError::Garbage(line.clone()))?
        };
        let eval = parts.next().and_then(|e| e.parse::<f64>().ok());
        Ok((mv, eval))
    }

    /// Resynchronises the engine's board (cleared, the game replayed, passes written out) and its
    /// clock; the round trip is that of the last command.
    fn gtp_position(&mut self, game: &Game, clocks: &Clocks) -> Result<Duration, EngineError> {
        let setup = Instant::now() + SETUP_TIMEOUT;
        let mut commands = vec!["clear_board".to_string()];
        for (mv, pos) in game.moves().iter().zip(game.positions()) {
            commands.push(format!("play {} {}", pos.side_to_move().name(), mv));
        }
        let mover = game.position().side_to_move();
        if let TimeControl::Clock { .. } = self.tc {
            commands.push(format!("time_left {} {} 0", mover.name(), clocks.of(mover).left.as_secs()));
        }
        let mut rtt = Duration::ZERO;
        for command in &commands {
            let sent = Instant::now();
            self.gtp(command, setup)?;
            rtt = sent.elapsed();
        }
        Ok(rtt)
    }

    fn gtp_go(&mut self, game: &Game, deadline: Instant, within: &str) -> Result<(Move, Option<f64>), EngineError> {
        let mover = game.position().side_to_move();
        let answer = self.gtp_within(&format!("genmove {}", mover.name()), deadline, within)?;
        let mv = answer.parse::<Move>().map_err(|_| EngineError::Garbage(format!("genmove → {answer}")))?;
        Ok((mv, None))
    }

    /// Asks the engine to quit, and kills it if it does not within a moment.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// The clocks of a GGF game whose sides play by `black` and `white`: one `TI` when both have
/// the same clock, else a `TB`/`TW` for each side that has one.
pub fn set_ggf_clocks(ggf: &mut GgfGame, black: TimeControl, white: TimeControl) {
    let clock = |tc: TimeControl| match tc {
        TimeControl::Clock { main, increment } => Some(GgfClock { main, increment, grace: Duration::ZERO }),
        _ => None,
    };
    match (clock(black), clock(white)) {
        (Some(b), Some(w)) if b == w => ggf.set_clock(b),
        (b, w) => {
            for (color, c) in [(Color::Black, b), (Color::White, w)] {
                if let Some(c) = c {
                    ggf.set_player_clock(color, c);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_read_without_their_code() {
        let e = io::Error::from_raw_os_error(2);
        assert_eq!(io_text(&e), "No such file or directory");
        assert_eq!(io_text(&io::Error::other("plain")), "plain");
    }

    #[test]
    fn gtp_rounds_up() {
        assert_eq!(gtp_seconds(Duration::from_millis(50)), 1);
        assert_eq!(gtp_seconds(Duration::from_secs(2)), 2);
    }
}
