//! 20,000 random lines per protocol, sent without waiting: protocol words with arguments good and
//! bad, numbers out of every range, random text, random bytes (NUL, invalid UTF-8), lines far over
//! the size limit, and now and then a search. Afterwards Magpie must still answer (UGI `isready`,
//! NBoard `ping`, GTP `name`), drain everything it was sent, exit cleanly at the end of input and
//! never panic. Seeded, so a failure replays.

mod common;

use common::{Engine, Rng};
use magpie::protocol::gtp::COMMANDS;

/// Lines per protocol.
const LINES: usize = 20_000;

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

/// Numbers of every kind; the small ones keep any search short.
const NUMBERS: [&str; 18] = [
    "-5",
    "0",
    "1",
    "2",
    "3",
    "4",
    "-0",
    "+3",
    "007",
    "1.5",
    "1e3",
    "nan",
    "inf",
    "-inf",
    "abc",
    "18446744073709551616",
    "99999999999999999999999",
    "-99999999999999999999999",
];

const MOVES: [&str; 12] = ["f5", "D6", "c3", "pass", "PA", "--", "z9", "a1", "h8", "e4", "f55", "PASS"];

const POSITIONS: [&str; 4] = [
    "---------------------------OX------XO--------------------------- X",
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
    "XXXXXXXXXXXXXXXX O",
    "-----XO--OX----- X",
];

const GAMES: [&str; 4] = [
    "(;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)",
    "(;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[0:01]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//1.2]W[D6/-1.00/0.01];)",
    "(;GM[Othello]TY[8]BO[8 --*****--OOO**-O-OOO**O*-O*O*O**O***O***--*O*O**-***OOO--OOOOO-- *]B[G8];)",
    "(;GM[Othello]BO[8 XX *]B[F5];)",
];

/// Random text: printable ASCII, blanks, a few non-ASCII letters and control characters.
fn random_text(rng: &mut Rng, max: usize) -> String {
    const CHARS: &[char] = &[
        'a', 'e', 'g', 'o', 's', 't', 'x', 'X', 'O', '-', '*', '/', '#', '[', ']', ';', '(', ')', '0', '5', '9', ' ',
        ' ', '\t', 'é', 'ß', '→', '\u{0}', '\u{1}', '\u{1b}', '\u{7f}', '\r',
    ];
    (0..rng.below(max + 1)).map(|_| CHARS[rng.below(CHARS.len())]).collect()
}

/// Random bytes, without newlines (a line is one line), often not UTF-8.
fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    (0..rng.below(48)).map(|_| rng.below(256) as u8).filter(|&b| b != b'\n').collect()
}

/// GTP's numbers: small, because GTP has no `stop` and its clocks are in seconds, so a large
/// `time_settings` would make every later `genmove` think for minutes (large values are read as
/// about eleven days; the unit tests check that).
const GTP_NUMBERS: [&str; 11] = ["-5", "0", "1", "2", "0.5", "-0", "+1", "nan", "inf", "abc", "1e400"];

/// One protocol's vocabulary: commands that answer at once, commands that search (kept rare so
/// that 20,000 lines run in seconds), argument words, numbers, and well-formed lines.
struct Vocabulary {
    numbers: &'static [&'static str],
    cheap: Vec<&'static str>,
    searches: &'static [&'static str],
    words: &'static [&'static str],
    valid: &'static [&'static str],
}

fn ugi() -> Vocabulary {
    Vocabulary {
        numbers: &NUMBERS,
        cheap: vec![
            "ugi",
            "uci",
            "isready",
            "setoption",
            "uginewgame",
            "ucinewgame",
            "position",
            "stop",
            "query",
            "d",
            "moves",
            "eval",
            "help",
            "UGI",
            "Position",
            "frobnicate",
        ],
        searches: &["go", "perft"],
        words: &[
            "name",
            "value",
            "Eval",
            "Level",
            "MoveOverhead",
            "BoardSize",
            "MultiPV",
            "Hash",
            "Threads",
            "magpie",
            "iagno",
            "discs",
            "startpos",
            "fen",
            "moves",
            "movetime",
            "depth",
            "nodes",
            "p1time",
            "p2time",
            "p1inc",
            "p2inc",
            "btime",
            "wtime",
            "movestogo",
            "infinite",
            "wld",
            "p1turn",
            "gameover",
            "result",
        ],
        valid: &[
            "position startpos moves f5 d6 c3",
            "position startpos",
            "setoption name Level value 3",
            "setoption name BoardSize value 6",
            "setoption name BoardSize value 8",
            "setoption name MultiPV value 2",
            "setoption name Eval value iagno",
            "setoption name Hash value 2",
            "setoption name Threads value 2",
            "setoption name Threads value 1",
            "query gameover",
            "go movetime 3",
            "go depth 2",
            "go nodes 500",
            "go infinite",
            "go wld depth 3",
            "stop",
        ],
    }
}

fn nboard() -> Vocabulary {
    Vocabulary {
        numbers: &NUMBERS,
        cheap: vec!["nboard", "set", "move", "ping", "learn", "NBOARD", "sett", "frobnicate"],
        searches: &["go", "hint", "analyze"],
        words: &["depth", "game", "contempt", "F5//1.2", "d6/0.50/0.8", "PA", "F5/x/y", "2"],
        valid: &["set depth 3", "set depth 1", "ping 17", "move F5", "set contempt 100", "learn", "hint 2", "go"],
    }
}

/// GTP's: every command Magpie knows but those that search or quit, and some that it does not.
fn gtp() -> Vocabulary {
    let searches = ["genmove", "reg_genmove", "quit"];
    let mut cheap: Vec<&'static str> = COMMANDS.iter().copied().filter(|c| !searches.contains(c)).collect();
    cheap.extend(["12", "#", "frobnicate"]);
    Vocabulary {
        numbers: &GTP_NUMBERS,
        cheap,
        searches: &["genmove", "reg_genmove"],
        words: &["b", "w", "black", "WHITE", "red", "Othello", "Go", "genmove", "4", "6", "8", "10"],
        valid: &[
            "clear_board",
            "boardsize 8",
            "boardsize 4",
            "play b f5",
            "play w d6",
            "play w pass",
            "undo",
            "time_settings 1 0 0",
            "time_settings 0 1 1",
            "time_left b 1 0",
            "3 name",
        ],
    }
}

/// One random line for `vocabulary` (`Err` for raw bytes).
fn random_line(rng: &mut Rng, vocabulary: &Vocabulary) -> Result<String, Vec<u8>> {
    let roll = rng.below(10_000);
    let line = match roll {
        0..=1 => "z".repeat(magpie::engine::io::MAX_LINE + 1 + rng.below(1000)),
        2..=5 => random_text(rng, 200_000),
        6..=99 => pick(rng, vocabulary.searches).to_string() + &arguments(rng, vocabulary),
        100..=4499 => pick(rng, &vocabulary.cheap).to_string() + &arguments(rng, vocabulary),
        4500..=5999 => pick(rng, vocabulary.valid).to_string(),
        6000..=8499 => random_text(rng, 60),
        _ => return Err(random_bytes(rng)),
    };
    Ok(line)
}

/// Zero to five argument words: protocol words, numbers, moves, positions, games, junk.
fn arguments(rng: &mut Rng, vocabulary: &Vocabulary) -> String {
    let mut line = String::new();
    for _ in 0..rng.below(6) {
        let word = match rng.below(8) {
            0 | 1 => pick(rng, vocabulary.words).to_string(),
            2 | 3 => pick(rng, vocabulary.numbers).to_string(),
            4 => pick(rng, &MOVES).to_string(),
            5 => pick(rng, &POSITIONS).to_string(),
            6 => pick(rng, &GAMES).to_string(),
            _ => random_text(rng, 12),
        };
        line.push(' ');
        line.push_str(&word);
    }
    line
}

/// Sends `LINES` random lines to a Magpie speaking `protocol`; returns the engine and the lines
/// as text (raw bytes read as the engine reads them).
fn bombard(protocol: &str, vocabulary: &Vocabulary, seed: u64) -> (Engine, Vec<String>) {
    let mut e = Engine::start(&["--protocol", protocol, "--movetime", "5"]);
    let mut rng = Rng::new(seed);
    let mut sent = Vec::with_capacity(LINES);
    for _ in 0..LINES {
        match random_line(&mut rng, vocabulary) {
            Ok(line) => {
                // `quit` ends the session: it is not what this test is about.
                if line.split_whitespace().any(|w| w.eq_ignore_ascii_case("quit")) {
                    continue;
                }
                e.send(&line);
                sent.push(line);
            }
            Err(bytes) => {
                e.send_bytes(&bytes);
                sent.push(String::from_utf8_lossy(&bytes).into_owned());
            }
        }
    }
    (e, sent)
}

/// Reads lines until `wanted` has been seen `count` times; panics if Magpie goes quiet for 60 s.
fn read_until_count(e: &mut Engine, wanted: &str, count: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut seen = 0;
    while seen < count {
        let line = e.recv_within(60.0);
        seen += usize::from(line == wanted);
        lines.push(line);
    }
    lines
}

/// The end of every session: end of input, a clean exit, no panic.
fn finish_cleanly(e: Engine) {
    let (_, status, stderr) = e.finish();
    assert!(status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn ugi_survives_20000_random_lines() {
    use magpie::protocol::ugi::{Command, parse};
    let (mut e, sent) = bombard("ugi", &ugi(), 0x00f0_22e1);
    // isready answers at once, even behind a search: one readyok for each sent, and one more.
    let ready = sent.iter().filter(|l| matches!(parse(l), Some(Ok(Command::IsReady)))).count();
    e.send("isready");
    let lines = read_until_count(&mut e, "readyok", ready + 1);
    assert!(lines.iter().all(|l| !l.contains("panicked")));
    // Everything queued is handled: stop what runs, then a marker whose error only it can cause.
    e.send("stop");
    e.send("zzz-marker");
    read_until_count(&mut e, "info string error: unknown command 'zzz-marker' (help lists the commands)", 1);
    // And the engine still plays: the options the garbage set are set back first.
    for line in ["setoption name BoardSize value 8", "setoption name Level value 10", "position startpos", "go depth 1"]
    {
        e.send(line);
    }
    let answer = loop {
        let line = e.recv_within(60.0);
        if line.starts_with("bestmove ") {
            break line;
        }
    };
    assert!(["d3", "c4", "f5", "e6"].iter().any(|m| answer == format!("bestmove {m}")), "{answer}");
    finish_cleanly(e);
}

#[test]
fn nboard_survives_20000_random_lines() {
    let (mut e, _) = bombard("nboard", &nboard(), 0x00f0_22e2);
    // A ping stops whatever runs and comes back.
    e.send("ping 987654321");
    read_until_count(&mut e, "pong 987654321", 1);
    e.send("set depth 2");
    e.send(&format!("set game {}", GAMES[0]));
    e.send("ping 987654322");
    e.send("go");
    read_until_count(&mut e, "pong 987654322", 1);
    let lines = {
        let mut lines = Vec::new();
        while !lines.last().is_some_and(|l: &String| l.starts_with("=== ")) {
            lines.push(e.recv_within(60.0));
        }
        lines
    };
    assert!(["=== D3", "=== C4", "=== F5", "=== E6"].iter().any(|m| lines.last().unwrap().starts_with(m)), "{lines:?}");
    finish_cleanly(e);
}

#[test]
fn gtp_survives_20000_random_lines() {
    let (mut e, _) = bombard("gtp", &gtp(), 0x00f0_22e3);
    // GTP answers in order: the name comes once everything before it is answered.
    e.send("987654 name");
    read_until_count(&mut e, "=987654 Magpie", 1);
    e.send("987655 clear_board");
    e.send("987656 boardsize 8");
    e.send("987657 genmove b");
    let answer = loop {
        let line = e.recv_within(60.0);
        if line.starts_with("=987657 ") || line.starts_with("?987657 ") {
            break line;
        }
    };
    assert!(["D3", "C4", "F5", "E6"].iter().any(|m| answer == format!("=987657 {m}")), "{answer}");
    finish_cleanly(e);
}
