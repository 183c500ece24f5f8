//! The console, as a person at a terminal plays it: the binary driven through a pseudo-terminal
//! (`play`, `go` playing Magpie's move, `undo`, `redo`, `new`, history recalled with the arrow
//! keys, the terminal left as it was found); and a client reading a pipe, which gets the UGI
//! protocol byte for byte as before the console existed.

mod common;

/// The pipe session of `tests/data/transcripts/ugi-pipe-console-words.*`, recorded before the
/// console existed (commit e5d9796): the console's words sent to a pipe, where they are unknown
/// commands and `go` leaves the position alone.
#[test]
fn a_pipe_gets_the_ugi_protocol_byte_for_byte() {
    let input = include_str!("data/transcripts/ugi-pipe-console-words.in");
    let expected = include_str!("data/transcripts/ugi-pipe-console-words.out");
    let out = common::run_with_input(&[], input);
    assert!(out.status.success());
    assert!(out.stderr.is_empty(), "no greeting on a pipe: {}", String::from_utf8_lossy(&out.stderr));
    // Only what is measured differs from run to run: the speed and the time.
    let measured = |text: &str| -> String {
        let words: Vec<&str> = text.split(' ').collect();
        let mut masked = Vec::with_capacity(words.len());
        for (i, word) in words.iter().enumerate() {
            let after_measure = i > 0 && ["nps", "time"].contains(&words[i - 1]);
            masked.push(if after_measure && word.bytes().all(|b| b.is_ascii_digit()) { "N" } else { word });
        }
        masked.join(" ")
    };
    let actual = String::from_utf8(out.stdout).unwrap();
    let (actual, expected): (Vec<String>, Vec<String>) =
        (actual.lines().map(measured).collect(), expected.lines().map(measured).collect());
    assert_eq!(actual, expected);
}

#[cfg(unix)]
mod terminal {
    use nix::pty::openpty;
    use nix::sys::termios::{LocalFlags, tcgetattr};
    use std::fs::File;
    use std::io::{Read, Write};
    use std::os::fd::OwnedFd;
    use std::process::{Child, Command, Stdio};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    /// Magpie on a pseudo-terminal, and what it has written there so far.
    struct Terminal {
        child: Child,
        master: File,
        slave: OwnedFd,
        screen: Arc<Mutex<String>>,
        /// How much of the screen the last wait consumed.
        seen: usize,
    }

    impl Terminal {
        fn start(args: &[&str]) -> Terminal {
            let pty = openpty(None, None).expect("a pseudo-terminal");
            let stdio = || Stdio::from(pty.slave.try_clone().unwrap());
            let child = Command::new(env!("CARGO_BIN_EXE_magpie"))
                .args(args)
                .env("TERM", "xterm")
                .stdin(stdio())
                .stdout(stdio())
                .stderr(stdio())
                .spawn()
                .unwrap();
            let master = File::from(pty.master);
            let screen = Arc::new(Mutex::new(String::new()));
            let mut reader = master.try_clone().unwrap();
            let shared = Arc::clone(&screen);
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                // The read fails once the child and the test have closed their ends.
                while let Ok(n @ 1..) = reader.read(&mut buf) {
                    shared.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            });
            Terminal { child, master, slave: pty.slave, screen, seen: 0 }
        }

        /// Types `keys` (a line ends with Enter, `\r` on a terminal).
        fn send(&mut self, keys: &str) {
            self.master.write_all(keys.as_bytes()).unwrap();
        }

        /// Waits until the screen shows `text` after what earlier waits saw, and returns what it
        /// showed up to and including it, with the terminal's control sequences taken out.
        fn wait_for(&mut self, text: &str) -> String {
            let deadline = Instant::now() + Duration::from_secs(60);
            loop {
                let screen = plain(&self.screen.lock().unwrap()[self.seen..]);
                if let Some(at) = screen.find(text) {
                    let shown = screen[..at + text.len()].to_string();
                    // Consume the raw text up to the same point.
                    let raw = self.screen.lock().unwrap()[self.seen..].to_string();
                    self.seen += consumed(&raw, at + text.len());
                    return shown;
                }
                assert!(Instant::now() < deadline, "waited for {text:?}; the screen shows {screen:?}");
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }

    impl Drop for Terminal {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    /// `text` without the terminal's control sequences (`ESC [ … letter`) and carriage returns.
    fn plain(text: &str) -> String {
        let mut out = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\u{1b}' => {
                    if chars.peek() == Some(&'[') {
                        chars.next();
                        for c in chars.by_ref() {
                            if c.is_ascii_alphabetic() || c == '~' {
                                break;
                            }
                        }
                    }
                }
                '\r' => {}
                c => out.push(c),
            }
        }
        out
    }

    /// How many bytes of `raw` hold its first `shown` plain characters' bytes.
    fn consumed(raw: &str, shown: usize) -> usize {
        (0..=raw.len())
            .filter(|&i| raw.is_char_boundary(i))
            .find(|&i| plain(&raw[..i]).len() >= shown)
            .unwrap_or(raw.len())
    }

    #[test]
    fn a_game_played_at_the_terminal() {
        let mut t = Terminal::start(&[]);
        t.wait_for("Type help for the commands");
        t.send("setoption name OwnBook value false\r");
        t.send("play f5\r");
        t.wait_for("moves played: f5\n");
        // Magpie's move, on the board.
        t.send("go depth 3\r");
        let shown = t.wait_for("moves played: f5 ");
        // Output is printed above the line being typed: its lines may follow the prompt.
        let reply = shown
            .lines()
            .rev()
            .find_map(|l| l.split_once("bestmove ").map(|(_, mv)| mv.trim().to_string()))
            .unwrap_or_else(|| panic!("a bestmove in {shown:?}"));
        let line = t.wait_for("\n");
        assert_eq!(line.trim(), reply, "the board shows Magpie's move played");
        // Undo takes it back, redo plays it again, undo 2 goes back to the start.
        t.send("undo\r");
        t.wait_for("moves played: f5\n");
        t.send("redo\r");
        t.wait_for(&format!("moves played: f5 {reply}\n"));
        t.send("undo 2\r");
        t.wait_for("moves played: (none)\n");
        // A bad line changes nothing and says why in one line.
        t.send("play a1\r");
        t.wait_for("info string error: play: move 1 (a1): ");
        t.send("redo\r");
        t.wait_for("moves played: f5\n");
        // The arrow keys recall earlier lines: Up three times is `undo 2`.
        t.send("\u{1b}[A\u{1b}[A\u{1b}[A\r");
        t.wait_for("moves played: (none)\n");
        t.send("play f5d6\r");
        t.wait_for("moves played: f5 d6\n");
        t.send("new\r");
        t.wait_for("moves played: (none)\n");
        t.send("help\r");
        t.wait_for("undo [n]");
        t.send("quit\r");
        let status = t.child.wait().unwrap();
        assert!(status.success());
        // The terminal is left in its normal mode: lines echoed and edited by the terminal.
        let mode = tcgetattr(&t.slave).unwrap();
        assert!(mode.local_flags.contains(LocalFlags::ICANON | LocalFlags::ECHO), "{:?}", mode.local_flags);
    }

    #[test]
    fn ctrl_c_stops_a_search_and_ctrl_d_quits() {
        let mut t = Terminal::start(&[]);
        t.wait_for("Type help for the commands");
        t.send("setoption name OwnBook value false\r");
        t.send("go infinite\r");
        t.wait_for("info depth 2 ");
        // Ctrl-C is `stop`: the search answers; an infinite one plays nothing on the board.
        t.send("\u{3}");
        t.wait_for("bestmove ");
        t.send("d\r");
        t.wait_for("moves played: (none)\n");
        t.send("\u{4}");
        let status = t.child.wait().unwrap();
        assert!(status.success());
    }

    #[test]
    fn a_protocol_given_on_the_command_line_is_spoken_plainly() {
        let mut t = Terminal::start(&["--protocol", "ugi"]);
        t.wait_for("Type help for the commands");
        t.send("play f5\r");
        t.wait_for("info string error: unknown command 'play' (help lists the commands)");
        t.send("quit\r");
        assert!(t.child.wait().unwrap().success());
    }
}
