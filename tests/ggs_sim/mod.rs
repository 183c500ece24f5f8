//! A Generic Game Server simulated on the loopback address, for `magpie ggs`'s tests: it speaks
//! the server's side of `/os` as the server writes it (prompts, `READY`, requests, `+ match`,
//! `join` and `update` boards with their clocks, a synchro board's `end`, `- match`), referees
//! every move with Magpie's rules, keeps the clocks by its own wall time, plays the other side at
//! random, and can drop the connection after a chosen move of the client, storing the match as
//! the real server adjourns one, to be resumed with `tell /os ask .ID` after `tell /os stored`.
//!
//! It listens on 127.0.0.1 only, serves one client at a time, and stops with the test.

#![allow(dead_code)]

use magpie::board::{BoardSize, Color, Move, Position};
use magpie::rng::Rng;
use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The name the server's own player logs in as.
pub const BOT: &str = "bot";

/// What the server does.
#[derive(Clone, Debug)]
pub struct Script {
    /// The client's login and password.
    pub login: String,
    pub password: String,
    /// Matches the server offers the client, one after another (the client may also ask).
    pub matches: usize,
    /// Their type (`s8r20`, `8`).
    pub game_type: String,
    /// The clock: main time, increment, extension.
    pub main: Duration,
    pub increment: Duration,
    pub extension: Duration,
    /// A start position instead of the random or standard one.
    pub start: Option<Position>,
    /// Whether the server offers the matches (else the client must ask for them).
    pub offer: bool,
    /// Before the first match, a request the client should decline (komi, which Magpie does not
    /// play).
    pub decline_first: bool,
    /// The client's move counts (over the whole run) after which the connection is dropped.
    pub drops: Vec<u64>,
    /// Drop at random after about one move in this many (0: never).
    pub random_drops: u64,
    /// Send a junk line before every message, one in this many (0: never).
    pub junk: u64,
    /// Write the login prompt without its line ending, as the server does.
    pub bare_prompt: bool,
    /// The seed of openings, the other side's moves, drops and junk.
    pub seed: u64,
}

impl Script {
    pub fn new(login: &str, password: &str) -> Script {
        Script {
            login: login.to_string(),
            password: password.to_string(),
            matches: 1,
            game_type: "s8r20".to_string(),
            main: Duration::from_secs(60),
            increment: Duration::ZERO,
            extension: Duration::from_secs(10),
            start: None,
            offer: true,
            decline_first: false,
            drops: Vec::new(),
            random_drops: 0,
            junk: 0,
            bare_prompt: true,
            seed: 1,
        }
    }
}

/// What happened, for the test to check.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Every line the client sent (the password replaced by `<password>`).
    pub received: Vec<String>,
    /// Boards finished, and how: from the client's side.
    pub boards: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Moves of the client refused (illegal, out of turn, unknown board).
    pub refused: u64,
    /// Moves of the client after its main time ran out.
    pub time_losses: u64,
    /// The client's moves accepted, and passes among them.
    pub moves: u64,
    pub passes: u64,
    /// Logins accepted, connections dropped, matches resumed.
    pub logins: u64,
    pub drops: u64,
    pub resumed: u64,
    /// Requests declined by the client, requests accepted, asks received.
    pub declined: u64,
    pub accepted: u64,
    pub asks: u64,
    /// Tournaments joined.
    pub td_joins: Vec<String>,
    /// The most time the client took for a move, as the server measured it.
    pub slowest_move: Duration,
    /// Matches finished.
    pub matches: u64,
    /// The least time left on the client's clock at the end of a board.
    pub least_left: Option<Duration>,
}

/// One board on the server.
#[derive(Clone, Debug)]
struct SimBoard {
    id: String,
    start: Position,
    position: Position,
    moves: Vec<String>,
    /// The client's colour.
    client: Color,
    /// Time left, Black's then White's; moves made.
    clocks: [Duration; 2],
    counts: [u32; 2],
    extension_used: [bool; 2],
    /// Since when the side to move has been thinking.
    since: Instant,
    over: Option<i32>,
    /// Whether its end has been announced.
    ended: bool,
}

#[derive(Clone, Debug)]
struct SimMatch {
    number: u32,
    game_type: String,
    boards: Vec<SimBoard>,
    /// Set when the connection dropped: the archive id it is stored under.
    stored: Option<String>,
}

struct State {
    script: Script,
    tally: Tally,
    rng: Rng,
    matches: Vec<SimMatch>,
    next_number: u32,
    next_request: u32,
    /// Requests out to the client: id, type.
    requests: Vec<(String, String)>,
    offered: usize,
    client_moves: u64,
}

/// A running server.
pub struct Server {
    pub port: u16,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Server {
    /// Starts the server on a free port of 127.0.0.1.
    pub fn start(script: Script) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(Mutex::new(State {
            rng: Rng::new(script.seed),
            script,
            tally: Tally::default(),
            matches: Vec::new(),
            next_number: 1,
            next_request: 1,
            requests: Vec::new(),
            offered: 0,
            client_moves: 0,
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let (s, st) = (Arc::clone(&state), Arc::clone(&stop));
        let thread = thread::spawn(move || {
            while !st.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => serve(stream, &s, &st),
                    Err(e) if e.kind() == ErrorKind::WouldBlock => thread::sleep(Duration::from_millis(10)),
                    Err(_) => break,
                }
            }
        });
        Server { port, state, stop, thread: Some(thread) }
    }

    /// What happened so far.
    pub fn tally(&self) -> Tally {
        self.state.lock().unwrap().tally.clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The client's connection: lines out, with junk now and then.
struct Out {
    stream: TcpStream,
}

impl Out {
    fn raw(&mut self, text: &str) {
        let _ = self.stream.write_all(text.as_bytes());
    }

    /// A message: its lines, then READY.
    fn message(&mut self, state: &mut State, lines: &[String]) {
        if state.script.junk > 0 && state.rng.below(state.script.junk as usize) == 0 {
            let junk = junk_line(&mut state.rng);
            self.raw(&format!("{junk}\r\n"));
        }
        let mut text = String::new();
        for line in lines {
            text.push_str(line);
            text.push_str("\r\n");
        }
        text.push_str("READY\r\n");
        self.raw(&text);
    }
}

/// A line the client must skip: noise, broken messages, bytes that are not UTF-8.
fn junk_line(rng: &mut Rng) -> String {
    let choices = [
        "/os: update .999 8 K?\r\n| 1 - - 1".to_string(),
        "|orphan".to_string(),
        "/os: + match".to_string(),
        "/os: join .77.0 s8r20 K?\r\n|3 move(s)\r\n|garbage".to_string(),
        "/os: end .5.9 ( a vs. b ) nonsense".to_string(),
        ": bot tells you: hello".to_string(),
        "/os: - match .123 x y".to_string(),
        "/os: +   .9 1500.0 bot 99:99:99//x 8q Z 1 magpie".to_string(),
        "\u{7}\u{7}ALERT".to_string(),
        (0..rng.below(300)).map(|_| char::from(32 + rng.below(95) as u8)).collect(),
        "/os: error .x something".to_string(),
        "/os: timeout .4242 nobody".to_string(),
        "\u{fffd}\u{0}\u{1b}[2J".to_string(),
    ];
    choices[rng.below(choices.len())].clone()
}

fn clock_text(d: Duration, moves: u32, negative: bool) -> String {
    let s = d.as_secs();
    format!("{}{:02}:{:02},{moves}:0", if negative { "-" } else { "" }, s / 60, s % 60)
}

fn set_clock(d: Duration) -> String {
    let s = d.as_secs();
    if s == 0 { String::new() } else { format!("{:02}:{:02}", s / 60, s % 60) }
}

impl SimBoard {
    fn player_lines(&self, login: &str, script: &Script, now: Instant) -> Vec<String> {
        let mut lines = Vec::new();
        for color in [Color::Black, Color::White] {
            let i = side(color);
            let mut left = self.clocks[i];
            if self.over.is_none() && self.position.side_to_move() == color {
                left = left.saturating_sub(now - self.since);
            }
            let name = if color == self.client { login } else { BOT };
            let mark = if color == Color::Black { '*' } else { 'O' };
            lines.push(format!(
                "|{name:<8} ({:>6.1} {mark}) {}/{}/{}",
                if name == BOT { 1500.0 } else { 1720.0 },
                clock_text(left, self.counts[i], false),
                set_clock(script.increment),
                if self.extension_used[i] {
                    String::new()
                } else {
                    format!("{},{}:0", set_clock(script.extension), self.counts[i])
                }
            ));
        }
        lines
    }

    fn board_lines(position: &Position) -> Vec<String> {
        let mut lines = vec!["|".to_string(), "|   A B C D E F G H".to_string()];
        for r in 0..8 {
            let mut row = format!("| {} ", r + 1);
            for c in 0..8 {
                let bit = 1u64 << (r * 8 + c);
                row.push(if position.black().0 & bit != 0 {
                    '*'
                } else if position.white().0 & bit != 0 {
                    'O'
                } else {
                    '-'
                });
                row.push(' ');
            }
            row.push_str(&format!("{} ", r + 1));
            lines.push(row);
        }
        lines.push("|   A B C D E F G H".to_string());
        lines.push("|".to_string());
        lines.push(format!("|{} to move", if position.side_to_move() == Color::Black { '*' } else { 'O' }));
        lines
    }

    /// A `join`: with every move from the start when there are any.
    fn join(&self, game_type: &str, login: &str, script: &Script, now: Instant) -> Vec<String> {
        let mut lines = vec![format!("/os: join {} {game_type} K?", self.id), format!("|{} move(s)", self.moves.len())];
        if self.moves.is_empty() {
            lines.push("|  0: PASS".to_string());
        } else {
            let start =
                SimBoard { position: self.start, clocks: [script.main; 2], counts: [0; 2], over: None, ..self.clone() };
            lines.extend(start.player_lines(login, script, now));
            lines.extend(SimBoard::board_lines(&self.start));
            for (i, m) in self.moves.iter().enumerate() {
                lines.push(format!("|{:>3}: {m}", i + 1));
            }
        }
        lines.extend(self.player_lines(login, script, now));
        lines.extend(SimBoard::board_lines(&self.position));
        lines
    }

    fn update(&self, game_type: &str, login: &str, script: &Script, now: Instant) -> Vec<String> {
        let mut lines = vec![format!("/os: update {} {game_type} K?", self.id)];
        lines.push(format!("|{:>3}: {}", self.moves.len(), self.moves.last().cloned().unwrap_or_default()));
        lines.extend(self.player_lines(login, script, now));
        lines.extend(SimBoard::board_lines(&self.position));
        lines
    }

    /// Plays `mv` for the side to move, charging `spent`.
    fn play(&mut self, mv: Move, text: &str, spent: Duration, script: &Script) -> Result<bool, ()> {
        let next = self.position.try_play(mv).map_err(|_| ())?;
        let i = side(self.position.side_to_move());
        let mut late = false;
        if spent > self.clocks[i] {
            late = true;
            if !self.extension_used[i] {
                self.extension_used[i] = true;
                self.clocks[i] += script.extension;
            }
        }
        self.clocks[i] = self.clocks[i].saturating_sub(spent) + script.increment;
        self.counts[i] += 1;
        self.position = next;
        self.moves.push(text.to_string());
        self.since = Instant::now();
        if self.position.is_game_over() {
            self.over = Some(self.position.final_score_for_black());
        }
        Ok(late)
    }
}

fn side(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// A random start with `discs` discs (random legal moves from the standard start).
fn random_start(rng: &mut Rng, discs: u32) -> Position {
    'again: loop {
        let mut p = Position::initial();
        while 64 - p.empty_count() < discs {
            let moves: Vec<_> = p.legal_moves().iter().collect();
            if moves.is_empty() {
                continue 'again;
            }
            p = p.play(moves[rng.below(moves.len())]);
        }
        if !p.legal_moves().is_empty() {
            return p;
        }
    }
}

fn serve(stream: TcpStream, shared: &Arc<Mutex<State>>, stop: &AtomicBool) {
    stream.set_read_timeout(Some(Duration::from_millis(20))).unwrap();
    let mut out = Out { stream: stream.try_clone().unwrap() };
    let mut reader = BufReader::new(stream);
    let (login, password, bare) = {
        let s = shared.lock().unwrap();
        (s.script.login.clone(), s.script.password.clone(), s.script.bare_prompt)
    };
    out.raw(if bare {
        ": Enter login (yours, or one you'd like to use)."
    } else {
        ": Enter login (yours, or one you'd like to use).\r\n"
    });
    let mut phase = 0; // 0: login, 1: password, 2: in
    let mut line = String::new();
    let mut last_bot = Instant::now();
    loop {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        match reader.read_line(&mut line) {
            Ok(0) => {
                adjourn(&mut shared.lock().unwrap());
                return;
            }
            Ok(_) if line.ends_with('\n') => {
                let text = line.trim_end().to_string();
                line.clear();
                let mut s = shared.lock().unwrap();
                match phase {
                    0 => {
                        s.tally.received.push(text.clone());
                        if text != login {
                            out.raw(": ERR Login (2-8 chars) unknown.\r\nREADY\r\n");
                            return;
                        }
                        out.raw(": Enter your password.\r\n");
                        phase = 1;
                    }
                    1 => {
                        s.tally.received.push("<password>".to_string());
                        if text != password {
                            out.raw(": ERR Password is incorrect.\r\nREADY\r\n");
                            return;
                        }
                        out.raw("READY\r\n");
                        s.tally.logins += 1;
                        phase = 2;
                        offer(&mut s, &mut out);
                    }
                    _ => {
                        s.tally.received.push(text.clone());
                        if !command(&mut s, &mut out, &text) {
                            return;
                        }
                    }
                }
            }
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => {
                adjourn(&mut shared.lock().unwrap());
                return;
            }
        }
        if phase == 2 && last_bot.elapsed() > Duration::from_millis(5) {
            last_bot = Instant::now();
            let mut s = shared.lock().unwrap();
            if !tick(&mut s, &mut out) {
                adjourn(&mut s);
                return;
            }
        }
    }
}

/// The client's connection is gone: its matches are stored, as the server adjourns them.
fn adjourn(s: &mut State) {
    for m in s.matches.iter_mut().filter(|m| m.stored.is_none()) {
        m.stored = Some(format!(".{}", 80_000 + m.number));
    }
    s.requests.clear();
}

/// Offers the next match, or the komi request to decline first.
fn offer(s: &mut State, out: &mut Out) {
    // No new match while one is on or stored: the other side waits to resume it.
    if !s.script.offer || !s.matches.is_empty() || !s.requests.is_empty() {
        return;
    }
    let login = s.script.login.clone();
    let clock =
        format!("{}/{}/{}", set_clock(s.script.main), set_clock(s.script.increment), set_clock(s.script.extension));
    if s.script.decline_first && s.tally.declined == 0 && s.offered == 0 {
        let id = format!(".{}", s.next_request);
        s.next_request += 1;
        s.requests.push((id.clone(), "8k".to_string()));
        out.message(s, &[format!("/os: +   {id} 1500.0 {BOT}      {clock}       8k U 1720.0 {login}")]);
        return;
    }
    if s.offered >= s.script.matches {
        return;
    }
    let id = format!(".{}", s.next_request);
    s.next_request += 1;
    let t = s.script.game_type.clone();
    s.requests.push((id.clone(), t.clone()));
    out.message(s, &[format!("/os: +   {id} 1500.0 {BOT}      {clock}       {t} U 1720.0 {login}")]);
}

/// Starts a match of `game_type` with the client.
fn start_match(s: &mut State, out: &mut Out, game_type: &str) {
    s.offered += 1;
    let number = s.next_number;
    s.next_number += 1;
    let synchro = game_type.starts_with('s');
    let start = s.script.start.unwrap_or_else(|| match game_type.split_once('r') {
        Some((_, n)) => {
            let discs = n.parse().unwrap_or(20);
            random_start(&mut s.rng, discs)
        }
        None => Position::start(BoardSize::Eight),
    });
    let now = Instant::now();
    let board = |id: String, client| SimBoard {
        id,
        start,
        position: start,
        moves: Vec::new(),
        client,
        clocks: [s.script.main; 2],
        counts: [0; 2],
        extension_used: [false; 2],
        since: now,
        over: None,
        ended: false,
    };
    let boards = if synchro {
        vec![board(format!(".{number}.0"), Color::Black), board(format!(".{number}.1"), Color::White)]
    } else {
        let client = if s.rng.below(2) == 0 { Color::Black } else { Color::White };
        vec![board(format!(".{number}"), client)]
    };
    let login = s.script.login.clone();
    out.message(s, &[format!("/os: + match .{number} 1720.0 {login} 1500.0 {BOT} {game_type} U")]);
    for b in &boards {
        let lines = b.join(game_type, &login, &s.script, now);
        out.message(s, &lines);
    }
    s.matches.push(SimMatch { number, game_type: game_type.to_string(), boards, stored: None });
}

/// A line from the client. `false`: close the connection.
fn command(s: &mut State, out: &mut Out, text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["quit"] => return false,
        ["tell", "/os", "accept", id] => {
            if let Some(i) = s.requests.iter().position(|(r, _)| r == id) {
                let (_, t) = s.requests.remove(i);
                s.tally.accepted += 1;
                out.message(s, &[format!("/os: -   {id} 1500.0 {BOT}")]);
                start_match(s, out, &t);
            } else {
                out.message(s, &[format!("/os: ERR request '{id}' not found.")]);
            }
        }
        ["tell", "/os", "decline", id] => {
            if let Some(i) = s.requests.iter().position(|(r, _)| r == id) {
                let (_, t) = s.requests.remove(i);
                s.tally.declined += 1;
                if t == s.script.game_type {
                    // A match declined is a match the server no longer offers.
                    s.offered += 1;
                }
                out.message(s, &[format!("/os: -   {id} 1500.0 {BOT}")]);
                offer(s, out);
            }
        }
        ["tell", "/os", "ask", stored] if stored.starts_with('.') => {
            let Some(m) = s.matches.iter_mut().find(|m| m.stored.as_deref() == Some(*stored)) else {
                out.message(s, &[format!("/os: ERR stored game '{stored}' not found.")]);
                return true;
            };
            // Resumed under a new number, every board with its moves; clocks go on.
            m.stored = None;
            let old = m.number;
            let number = s.next_number;
            s.next_number += 1;
            m.number = number;
            let now = Instant::now();
            for b in &mut m.boards {
                b.id = b.id.replacen(&format!(".{old}"), &format!(".{number}"), 1);
                b.since = now;
            }
            let m = m.clone();
            s.tally.resumed += 1;
            let login = s.script.login.clone();
            out.message(s, &[format!("/os: + match .{number} 1720.0 {login} 1500.0 {BOT} {} U", m.game_type)]);
            for b in &m.boards {
                if b.over.is_none() {
                    let lines = b.join(&m.game_type, &login, &s.script, now);
                    out.message(s, &lines);
                }
            }
        }
        ["tell", "/os", "ask", game_type, _clock, opponent] => {
            s.tally.asks += 1;
            if *opponent == BOT && s.offered < s.script.matches && !s.matches.iter().any(|m| m.stored.is_none()) {
                let t = game_type.to_string();
                start_match(s, out, &t);
            } else {
                out.message(s, &[format!("/os: ERR {opponent} does not accept.")]);
            }
        }
        ["tell", "/os", "stored"] => {
            let login = s.script.login.clone();
            let mut lines = vec![format!("/os: stored {}", s.matches.iter().filter(|m| m.stored.is_some()).count())];
            for m in s.matches.iter().filter(|m| m.stored.is_some()) {
                lines.push(format!(
                    "|{}  02 Dec 2026 12:00:00 {login}  {BOT} {}:l",
                    m.stored.as_deref().unwrap(),
                    m.game_type
                ));
            }
            out.message(s, &lines);
        }
        ["tell", "/os", "play", id, mv] => client_move(s, out, id, mv),
        ["tell", "/td", "join", t] => {
            s.tally.td_joins.push(t.to_string());
            let login = s.script.login.clone();
            out.message(s, &[format!("/td: join: {login} joins tournament {t}")]);
        }
        _ => out.message(s, &[]),
    }
    true
}

fn client_move(s: &mut State, out: &mut Out, id: &str, text: &str) {
    let login = s.script.login.clone();
    let Some((mi, bi)) = s.matches.iter().enumerate().find_map(|(mi, m)| {
        (m.stored.is_none()).then(|| m.boards.iter().position(|b| b.id == id).map(|bi| (mi, bi))).flatten()
    }) else {
        s.tally.refused += 1;
        out.message(s, &[format!("/os: ERR match '{id}' not found.")]);
        return;
    };
    let board = &s.matches[mi].boards[bi];
    let word = text.split('/').next().unwrap_or_default();
    let mv: Option<Move> = word.parse().ok();
    let mover = board.position.side_to_move();
    let Some(mv) = mv.filter(|&m| board.over.is_none() && mover == board.client && board.position.is_legal(m)) else {
        s.tally.refused += 1;
        out.message(s, &[format!("/os: error {id} illegal move {text}")]);
        return;
    };
    let spent = board.since.elapsed();
    let script = s.script.clone();
    let game_type = s.matches[mi].game_type.clone();
    let board = &mut s.matches[mi].boards[bi];
    let move_text =
        format!("{}{}", if mv == Move::Pass { "PA".to_string() } else { mv.to_string() }, &text[word.len()..]);
    let late = board.play(mv, &move_text, spent, &script).unwrap_or(false);
    let lines = board.update(&game_type, &login, &script, Instant::now());
    s.tally.slowest_move = s.tally.slowest_move.max(spent);
    s.tally.moves += 1;
    s.client_moves += 1;
    if mv == Move::Pass {
        s.tally.passes += 1;
    }
    if late {
        s.tally.time_losses += 1;
        out.message(s, &[format!("/os: timeout {id} {login} (*)")]);
    }
    out.message(s, &lines);
    finish_boards(s, out);
    let n = s.client_moves;
    let drop =
        s.script.drops.contains(&n) || (s.script.random_drops > 0 && s.rng.below(s.script.random_drops as usize) == 0);
    if drop {
        s.tally.drops += 1;
        let _ = out.stream.shutdown(std::net::Shutdown::Both);
    }
}

/// The other side moves on every board where it is to move (at random, at once), and boards
/// over are ended. `false`: the connection is gone.
fn tick(s: &mut State, out: &mut Out) -> bool {
    let login = s.script.login.clone();
    let script = s.script.clone();
    for mi in 0..s.matches.len() {
        if s.matches[mi].stored.is_some() {
            continue;
        }
        for bi in 0..s.matches[mi].boards.len() {
            let b = &s.matches[mi].boards[bi];
            if b.over.is_some() || b.position.side_to_move() == b.client {
                // The client's time: past main time and extension, the board is lost.
                if b.over.is_none()
                    && b.since.elapsed() > b.clocks[side(b.client)] + script.extension + Duration::from_secs(1)
                {
                    let b = &mut s.matches[mi].boards[bi];
                    b.over = Some(if b.client == Color::Black { -64 } else { 64 });
                    s.tally.time_losses += 1;
                }
                continue;
            }
            let moves: Vec<_> = b.position.legal_moves().iter().collect();
            let (mv, text) = if moves.is_empty() {
                (Move::Pass, "PA".to_string())
            } else {
                let sq = moves[s.rng.below(moves.len())];
                (Move::Play(sq), format!("{sq}/0.00/0.01"))
            };
            let game_type = s.matches[mi].game_type.clone();
            let b = &mut s.matches[mi].boards[bi];
            let _ = b.play(mv, &text, Duration::ZERO, &script);
            let lines = b.update(&game_type, &login, &script, Instant::now());
            out.message(s, &lines);
        }
    }
    finish_boards(s, out);
    out.stream.peer_addr().is_ok()
}

/// Ends the boards that are over, and the matches all of whose boards are.
fn finish_boards(s: &mut State, out: &mut Out) {
    let login = s.script.login.clone();
    let mut i = 0;
    while i < s.matches.len() {
        if s.matches[i].stored.is_some() {
            i += 1;
            continue;
        }
        let synchro = s.matches[i].boards.len() == 2;
        for bi in 0..s.matches[i].boards.len() {
            let b = &s.matches[i].boards[bi];
            let Some(black_net) = b.over else { continue };
            if b.ended {
                continue;
            }
            let ours = if b.client == Color::Black { black_net } else { -black_net };
            let left = b.clocks[side(b.client)];
            s.tally.least_left = Some(s.tally.least_left.map_or(left, |l| l.min(left)));
            let id = b.id.clone();
            s.tally.boards += 1;
            match ours.signum() {
                1 => s.tally.wins += 1,
                0 => s.tally.draws += 1,
                _ => s.tally.losses += 1,
            }
            s.matches[i].boards[bi].ended = true;
            if synchro {
                out.message(s, &[format!("/os: end {id} ( {login} vs. {BOT} ) {ours:+}.00")]);
            }
        }
        let m = &s.matches[i];
        if m.boards.iter().all(|b| b.over.is_some()) {
            let total: i32 = m
                .boards
                .iter()
                .map(|b| {
                    let net = b.over.unwrap_or(0);
                    if b.client == Color::Black { net } else { -net }
                })
                .sum();
            let average = f64::from(total) / m.boards.len() as f64;
            let line =
                format!("/os: - match .{} 1720.0 {login} 1500.0 {BOT} {} U {average:+.2}", m.number, m.game_type);
            s.matches.remove(i);
            s.tally.matches += 1;
            out.message(s, &[line]);
            offer(s, out);
        } else {
            i += 1;
        }
    }
}
