//! Helpers shared by the integration tests: a slow, obviously correct array-based Othello board
//! that the bitboard code is checked against, and the engine driven over pipes.

#![allow(dead_code)]

/// A cell of the reference board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    Empty,
    Black,
    White,
}

/// The reference board: an n x n array of cells, row 0 at the top, and the side to move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefBoard {
    pub n: usize,
    pub cells: Vec<Vec<Cell>>,
    pub to_move: Cell,
}

const DIRECTIONS: [(i32, i32); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

impl RefBoard {
    /// The standard start: the two centre squares on the main diagonal white, the others black.
    pub fn start(n: usize) -> RefBoard {
        let mut cells = vec![vec![Cell::Empty; n]; n];
        let c = n / 2 - 1;
        cells[c][c] = Cell::White;
        cells[c + 1][c + 1] = Cell::White;
        cells[c][c + 1] = Cell::Black;
        cells[c + 1][c] = Cell::Black;
        RefBoard { n, cells, to_move: Cell::Black }
    }

    pub fn other(c: Cell) -> Cell {
        match c {
            Cell::Black => Cell::White,
            Cell::White => Cell::Black,
            Cell::Empty => Cell::Empty,
        }
    }

    /// The squares (row, col) that `mover` would flip by playing at (row, col).
    pub fn flips_for(&self, row: usize, col: usize, mover: Cell) -> Vec<(usize, usize)> {
        if self.cells[row][col] != Cell::Empty {
            return Vec::new();
        }
        let n = self.n as i32;
        let mut all = Vec::new();
        for (dr, dc) in DIRECTIONS {
            let mut run = Vec::new();
            let (mut r, mut c) = (row as i32 + dr, col as i32 + dc);
            while r >= 0 && r < n && c >= 0 && c < n {
                let cell = self.cells[r as usize][c as usize];
                if cell == RefBoard::other(mover) {
                    run.push((r as usize, c as usize));
                } else {
                    if cell == mover {
                        all.extend(run);
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        all.sort();
        all
    }

    /// Legal moves of `mover`, as (row, col), row by row.
    pub fn moves_for(&self, mover: Cell) -> Vec<(usize, usize)> {
        let mut moves = Vec::new();
        for row in 0..self.n {
            for col in 0..self.n {
                if !self.flips_for(row, col, mover).is_empty() {
                    moves.push((row, col));
                }
            }
        }
        moves
    }

    pub fn moves(&self) -> Vec<(usize, usize)> {
        self.moves_for(self.to_move)
    }

    pub fn must_pass(&self) -> bool {
        self.moves().is_empty() && !self.moves_for(RefBoard::other(self.to_move)).is_empty()
    }

    pub fn game_over(&self) -> bool {
        self.moves().is_empty() && self.moves_for(RefBoard::other(self.to_move)).is_empty()
    }

    pub fn play(&mut self, row: usize, col: usize) {
        let flips = self.flips_for(row, col, self.to_move);
        assert!(!flips.is_empty(), "reference: illegal move");
        for (r, c) in flips {
            self.cells[r][c] = self.to_move;
        }
        self.cells[row][col] = self.to_move;
        self.to_move = RefBoard::other(self.to_move);
    }

    pub fn pass(&mut self) {
        self.to_move = RefBoard::other(self.to_move);
    }

    pub fn count(&self, who: Cell) -> i32 {
        self.cells.iter().flatten().filter(|c| **c == who).count() as i32
    }

    /// Final score for the side to move: disc difference, empties to the winner.
    pub fn final_score(&self) -> i32 {
        let me = self.count(self.to_move);
        let them = self.count(RefBoard::other(self.to_move));
        let empties = self.count(Cell::Empty);
        if me > them {
            me - them + empties
        } else if me < them {
            me - them - empties
        } else {
            0
        }
    }

    /// Perft under the standard convention (a pass is a ply; a finished game is one leaf).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.game_over() {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            let mut next = self.clone();
            next.pass();
            return next.perft(depth - 1);
        }
        moves
            .iter()
            .map(|&(r, c)| {
                let mut next = self.clone();
                next.play(r, c);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// The library's seeded generator, so that failures replay.
#[allow(unused_imports)]
pub use magpie::rng::Rng;

/// The position after one random legal move of `pos` (or its pass when it has none); `pos` must
/// not be a finished game.
pub fn random_step(rng: &mut Rng, pos: &magpie::board::Position) -> magpie::board::Position {
    if pos.must_pass() {
        return pos.pass();
    }
    let moves: Vec<_> = pos.legal_moves().iter().collect();
    pos.play(moves[rng.below(moves.len())])
}

/// The `magpie` binary driven over pipes, with a reader thread so that reads can time out instead
/// of hanging a test.
pub struct Engine {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Engine {
    /// Starts `magpie` with `args`.
    pub fn start(args: &[&str]) -> Engine {
        use std::io::BufRead;
        use std::process::{Command, Stdio};
        let mut child = Command::new(env!("CARGO_BIN_EXE_magpie"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("magpie starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        use std::io::Write;
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to magpie");
        stdin.flush().expect("flush");
    }

    /// Sends raw bytes (which need not be UTF-8), then a newline.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        use std::io::Write;
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).and_then(|()| stdin.write_all(b"\n")).expect("write to magpie");
        stdin.flush().expect("flush");
    }

    /// The next line, or panics after `secs` seconds.
    pub fn recv_within(&mut self, secs: f64) -> String {
        self.lines
            .recv_timeout(std::time::Duration::from_secs_f64(secs))
            .unwrap_or_else(|e| panic!("no line from magpie within {secs} s: {e}"))
    }

    /// The next line, if one comes within `secs` seconds.
    pub fn try_recv(&mut self, secs: f64) -> Option<String> {
        self.lines.recv_timeout(std::time::Duration::from_secs_f64(secs)).ok()
    }

    /// The next line (waiting up to 30 s).
    pub fn recv(&mut self) -> String {
        self.recv_within(30.0)
    }

    /// Lines up to and including the first that starts with `prefix` (waiting up to 30 s each).
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.recv();
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// Closes stdin (end of input).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// Closes stdin, collects the remaining output and the exit status (within 30 s).
    pub fn finish(mut self) -> (Vec<String>, std::process::ExitStatus, String) {
        use std::io::Read;
        self.close();
        let mut rest = Vec::new();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            match self.lines.recv_timeout(std::time::Duration::from_millis(50)) {
                Ok(line) => rest.push(line),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    assert!(std::time::Instant::now() < deadline, "magpie did not exit after end of input");
                }
            }
        }
        let status = self.child.wait().expect("magpie exits");
        let mut err = String::new();
        if let Some(mut stderr) = self.child.stderr.take() {
            let _ = stderr.read_to_string(&mut err);
        }
        (rest, status, err)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh temporary directory, removed with everything in it when dropped, also when the test
/// fails: tests leave nothing behind in the system's temporary directory.
pub struct TempDir(std::path::PathBuf);

impl TempDir {
    /// Creates `magpie-<label>-<process>-<n>` in the system's temporary directory.
    pub fn new(label: &str) -> TempDir {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("magpie-{label}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("a temporary directory");
        TempDir(path)
    }

    /// The directory.
    pub fn path(&self) -> &std::path::Path {
        &self.0
    }

    /// A path inside it.
    pub fn join(&self, name: &str) -> std::path::PathBuf {
        self.0.join(name)
    }

    /// The names of the entries in the directory, sorted.
    pub fn entries(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .expect("readable")
            .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Says on the terminal that the test `test` is skipped and why, for a plain `cargo test`: the test
/// harness keeps what `eprintln!` prints from a test that passes, so this writes to the process's
/// standard error itself.
pub fn skip(test: &str, why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "test {test}: SKIPPED: {why}");
}

/// Runs `magpie` with `args` and `input` on its stdin, and returns what it printed once it has
/// exited.
pub fn run_with_input(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_magpie"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("magpie starts");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("the input is written");
    child.wait_with_output().expect("magpie exits")
}
