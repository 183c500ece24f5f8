//! External engines for the match runner: a child process driven over pipes in its own protocol
//! (UGI, NBoard or GTP). Every wait has a deadline, so an engine that hangs, crashes or prints
//! garbage becomes a typed [`EngineError`] instead of a stuck runner.

use super::spec::{EngineSpec, TimeControl};
use crate::board::{BoardSize, Color, Game, Move, Position};
use crate::engine::LineSource;
use crate::formats::ggf::{Clock as GgfClock, GgfGame};
use crate::formats::spaced_moves;
use crate::protocol::Protocol;
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use std::fmt;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// How long an engine may take to start up or answer a command that needs no thinking.
pub const SETUP_TIMEOUT: Duration = Duration::from_secs(10);

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started.
    Spawn(String),
    /// The process exited or closed its output.
    Crashed,
    /// No answer in time (a hang during setup, or a move over its time).
    Timeout,
    /// An answer that is not what the protocol allows.
    Garbage(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "cannot start: {e}"),
            EngineError::Crashed => f.write_str("crashed"),
            EngineError::Timeout => f.write_str("no answer in time"),
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

/// A time in whole seconds for GTP, rounded up so that the engine is never told less than it has.
pub fn gtp_seconds(t: Duration) -> u64 {
    t.as_secs() + u64::from(t.subsec_nanos() > 0)
}

/// An engine's answer to a move request.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The move as the engine wrote it, parsed (`None` for a text that is no move at all).
    pub mv: Move,
    /// The engine's evaluation in discs for the mover, when it gave one.
    pub eval: Option<f64>,
}

/// The clocks of both sides in a game, kept by the runner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clocks {
    /// Time left for Black.
    pub black: Duration,
    /// Time left for White.
    pub white: Duration,
}

impl Clocks {
    /// The time left for `color`.
    pub fn of(&self, color: Color) -> Duration {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The time left for `color`, mutably.
    pub fn of_mut(&mut self, color: Color) -> &mut Duration {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

/// A running engine process.
pub struct Engine {
    /// Its specification.
    pub spec: EngineSpec,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// NBoard ping counter.
    ping: u64,
}

impl Engine {
    /// Starts the engine and completes its protocol's handshake.
    pub fn start(spec: &EngineSpec, tc: &TimeControl, size: BoardSize) -> Result<Engine, EngineError> {
        let mut command = Command::new(&spec.program);
        command.args(&spec.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        let mut child = command.spawn().map_err(|e| EngineError::Spawn(format!("{}: {e}", spec.program.display())))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or_else(|| EngineError::Spawn("no stdout".into()))?;
        let (tx, lines) = unbounded();
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
        let mut engine = Engine { spec: spec.clone(), child, stdin, lines, ping: 0 };
        engine.handshake(tc, size)?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let stdin = self.stdin.as_mut().ok_or(EngineError::Crashed)?;
        writeln!(stdin, "{line}").and_then(|()| stdin.flush()).map_err(|_| EngineError::Crashed)
    }

    /// The next line, before `deadline`.
    fn recv(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Crashed),
        }
    }

    /// Reads lines until one satisfies `done`, returning it and the lines before it.
    fn until(&mut self, deadline: Instant, done: impl Fn(&str) -> bool) -> Result<(String, Vec<String>), EngineError> {
        let mut before = Vec::new();
        loop {
            let line = self.recv(deadline)?;
            if done(&line) {
                return Ok((line, before));
            }
            before.push(line);
        }
    }

    /// A GTP command's answer: the text after `=`, or the message of a `?` answer as garbage.
    fn gtp(&mut self, command: &str, deadline: Instant) -> Result<String, EngineError> {
        self.send(command)?;
        let (first, _) = self.until(deadline, |l| l.starts_with('=') || l.starts_with('?'))?;
        // Read the rest of the answer up to its empty line.
        loop {
            if self.recv(deadline)?.trim().is_empty() {
                break;
            }
        }
        match first.strip_prefix('=') {
            Some(rest) => Ok(rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string()),
            None => Err(EngineError::Garbage(format!("{command} → {first}"))),
        }
    }

    fn nboard_sync(&mut self, deadline: Instant) -> Result<(), EngineError> {
        self.ping += 1;
        let pong = format!("pong {}", self.ping);
        self.send(&format!("ping {}", self.ping))?;
        self.until(deadline, |l| l.trim() == pong).map(|_| ())
    }

    fn handshake(&mut self, tc: &TimeControl, size: BoardSize) -> Result<(), EngineError> {
        let deadline = Instant::now() + SETUP_TIMEOUT;
        match self.spec.protocol {
            Protocol::Ugi => {
                self.send("ugi")?;
                self.until(deadline, |l| l.trim() == "ugiok")?;
                let options = self.spec.options.clone();
                for (name, value) in &options {
                    self.send(&format!("setoption name {name} value {value}"))?;
                }
                self.send("isready")?;
                self.until(deadline, |l| l.trim() == "readyok")?;
            }
            Protocol::Nboard => {
                self.send("nboard 2")?;
                let depth = match tc {
                    TimeControl::Depth(d) => *d,
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
    pub fn new_game(&mut self, tc: &TimeControl, size: BoardSize) -> Result<(), EngineError> {
        let deadline = Instant::now() + SETUP_TIMEOUT;
        match self.spec.protocol {
            Protocol::Ugi => {
                self.send("uginewgame")?;
                self.send("isready")?;
                self.until(deadline, |l| l.trim() == "readyok").map(|_| ())
            }
            Protocol::Nboard => self.nboard_sync(deadline),
            Protocol::Gtp => {
                self.gtp(&format!("boardsize {}", size.side()), deadline)?;
                self.gtp("clear_board", deadline)?;
                match tc {
                    TimeControl::Clock { main, .. } => {
                        self.gtp(&format!("time_settings {} 0 0", main.as_secs()), deadline).map(|_| ())
                    }
                    TimeControl::MoveTime(t) => {
                        // GTP times are whole seconds: byo-yomi of one move per period.
                        self.gtp(&format!("time_settings 0 {} 1", gtp_seconds(*t)), deadline).map(|_| ())
                    }
                    TimeControl::Depth(_) => Ok(()),
                }
            }
        }
    }

    /// Asks for a move in the current position of `game` (which the side to move can play in),
    /// waiting until `deadline`. `clocks` are the runner's clocks (for clock time controls);
    /// `times` are the seconds each move of the game took (for NBoard's GGF).
    pub fn request_move(
        &mut self,
        game: &Game,
        times: &[Option<f64>],
        tc: &TimeControl,
        clocks: &Clocks,
        deadline: Instant,
    ) -> Result<Answer, EngineError> {
        match self.spec.protocol {
            Protocol::Ugi => self.ugi_move(game, tc, clocks, deadline),
            Protocol::Nboard => self.nboard_move(game, times, tc, deadline),
            Protocol::Gtp => self.gtp_move(game, tc, clocks, deadline),
        }
    }

    fn ugi_move(
        &mut self,
        game: &Game,
        tc: &TimeControl,
        clocks: &Clocks,
        deadline: Instant,
    ) -> Result<Answer, EngineError> {
        let start = game.start();
        let base = if *start == Position::start(start.size()) && start.size() == BoardSize::Eight {
            "position startpos".to_string()
        } else {
            format!("position fen {start}")
        };
        let position =
            if game.moves().is_empty() { base } else { format!("{base} moves {}", spaced_moves(game.moves())) };
        self.send(&position)?;
        let go = match tc {
            TimeControl::MoveTime(t) => format!("go movetime {}", t.as_millis()),
            TimeControl::Depth(d) => format!("go depth {d}"),
            TimeControl::Clock { increment, .. } => format!(
                "go p1time {} p2time {} p1inc {} p2inc {}",
                clocks.black.as_millis(),
                clocks.white.as_millis(),
                increment.as_millis(),
                increment.as_millis()
            ),
        };
        self.send(&go)?;
        let (line, info) = self.until(deadline, |l| l.split_whitespace().next() == Some("bestmove"))?;
        let text = line.split_whitespace().nth(1).unwrap_or("");
        let mv = text.parse::<Move>().map_err(|_| EngineError::Garbage(line.clone()))?;
        let eval = info.iter().rev().find_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "cp")?;
            words.get(at + 1)?.parse::<f64>().ok().map(|cp| cp / 100.0)
        });
        Ok(Answer { mv, eval })
    }

    /// NBoard reads the clocks from the game: the time control's clock and the time of each move.
    fn nboard_move(
        &mut self,
        game: &Game,
        times: &[Option<f64>],
        tc: &TimeControl,
        deadline: Instant,
    ) -> Result<Answer, EngineError> {
        let mut ggf = GgfGame::new(*game.start());
        ggf.set_place("magpie match");
        for (mv, time) in game.moves().iter().zip(times) {
            ggf.push_move(*mv, None, *time).map_err(|e| EngineError::Garbage(e.to_string()))?;
        }
        let mover = game.position().side_to_move();
        match tc {
            TimeControl::Clock { main, increment } => {
                let clock = GgfClock { main: *main, increment: *increment, grace: Duration::ZERO };
                ggf.set_clock(clock);
            }
            TimeControl::MoveTime(t) => {
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
                let main = Duration::from_secs_f64(used) + *t * moves_left / 4;
                ggf.set_player_clock(mover, GgfClock { main, increment: Duration::ZERO, grace: Duration::ZERO });
            }
            TimeControl::Depth(_) => {}
        }
        self.send(&format!("set game {ggf}"))?;
        self.ping += 1;
        let pong = format!("pong {}", self.ping);
        self.send(&format!("ping {}", self.ping))?;
        self.send("go")?;
        self.until(deadline, |l| l.trim() == pong)?;
        let (line, _) = self.until(deadline, |l| l.starts_with("==="))?;
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
        Ok(Answer { mv, eval })
    }

    fn gtp_move(
        &mut self,
        game: &Game,
        tc: &TimeControl,
        clocks: &Clocks,
        deadline: Instant,
    ) -> Result<Answer, EngineError> {
        let setup = Instant::now() + SETUP_TIMEOUT;
        // Resynchronise the engine's board: clear it and replay the game, passes written out.
        self.gtp("clear_board", setup)?;
        for (mv, pos) in game.moves().iter().zip(game.positions()) {
            self.gtp(&format!("play {} {}", pos.side_to_move().name(), mv), setup)?;
        }
        let mover = game.position().side_to_move();
        if let TimeControl::Clock { .. } = tc {
            self.gtp(&format!("time_left {} {} 0", mover.name(), clocks.of(mover).as_secs()), setup)?;
        }
        let answer = self.gtp(&format!("genmove {}", mover.name()), deadline)?;
        let mv = answer.parse::<Move>().map_err(|_| EngineError::Garbage(format!("genmove → {answer}")))?;
        Ok(Answer { mv, eval: None })
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
