//! The engine playing from its opening book over pipes, in every protocol: book moves are legal and
//! answered without a search (UGI `info … nodes 0` and `info string book move`, NBoard `===` with
//! no search lines, GTP at once although the clock would allow a long search); `BookRandomness 0`
//! plays the same move in every process, a larger one varies between processes and repeats under
//! a `BookSeed`; `OwnBook false` and `go infinite` search; a broken book file is refused and the
//! book in use stays; NBoard `hint` sends `book` lines and `learn` adds a game to the `--book`
//! file, which a new process then plays from; `magpie bestmove` says when its move is a book move.
//!
//! Only the built-in book's holding the start position is relied on: it is replaced as it grows.
//! Books the tests need more of are made in a temporary folder with `magpie book new`.

mod common;

use common::{Engine, TempDir};
use magpie::board::{Game, Move, Position};
use std::collections::HashSet;
use std::process::{Command, Output};

fn magpie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_magpie")).args(args).output().expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A book holding only the start position, scored at depth 2 (its one move is the start's leaf).
fn start_only_book(dir: &TempDir, name: &str) -> String {
    let path = dir.join(name).display().to_string();
    stdout(&magpie(&["book", "new", &path, "--depth", "2", "--no-progress"]));
    path
}

fn position_after(moves: &[String]) -> Position {
    let mut game = Game::default();
    let moves: Vec<Move> = moves.iter().map(|m| m.parse().unwrap()).collect();
    game.play_all(&moves).unwrap();
    *game.position()
}

/// The word after `name` in an `info` line.
fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|w| *w == name)?;
    words.next()
}

/// What one UGI `go` answered.
struct Answer {
    mv: String,
    lines: Vec<String>,
}

impl Answer {
    fn is_from_the_book(&self) -> bool {
        self.lines.iter().any(|l| l.starts_with("info string book move "))
    }
}

/// Sends `go` (with `limits`) in `pos` (moves from the start) and reads to `bestmove`.
fn go(e: &mut Engine, moves: &[String], limits: &str) -> Answer {
    if moves.is_empty() {
        e.send("position startpos");
    } else {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
    }
    e.send(format!("go {limits}").trim());
    let lines = e.until("bestmove");
    let mv = lines.last().unwrap().strip_prefix("bestmove ").unwrap().to_string();
    let pos = position_after(moves);
    assert!(pos.is_legal(mv.parse().unwrap()), "{mv} in {pos}: {lines:?}");
    Answer { mv, lines }
}

/// Checks a UGI book answer: `info string book move <mv>: …`, then an `info` line of no search
/// whose line starts with the move and is legal, then `bestmove`.
fn check_book_answer(answer: &Answer, moves: &[String]) {
    let lines = &answer.lines;
    assert_eq!(lines.len(), 3, "{lines:?}");
    let prefix = format!("info string book move {}: ", answer.mv);
    assert!(lines[0].starts_with(&prefix) && lines[0].ends_with(" games"), "{lines:?}");
    let info = &lines[1];
    assert!(info.starts_with("info depth 0 seldepth 0 score cp "), "{info}");
    assert_eq!(field(info, "nodes"), Some("0"), "{info}");
    let pv: Vec<String> = info.split(" pv ").nth(1).unwrap().split(' ').map(str::to_string).collect();
    assert_eq!(pv[0], answer.mv, "{info}");
    let mut game = Game::new(position_after(moves));
    game.play_all(&pv.iter().map(|m| m.parse().unwrap()).collect::<Vec<Move>>()).unwrap();
}

#[test]
fn ugi_book_moves_come_without_a_search_and_owned_book_false_searches() {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    let hello = e.until("ugiok");
    for line in [
        "option name Book type string default <default>",
        "option name OwnBook type check default true",
        "option name BookRandomness type spin default 0 min 0 max 64",
        "option name BookSeed type spin default 0 min 0 max 2147483647",
    ] {
        assert!(hello.iter().any(|l| l == line), "{line}: {hello:?}");
    }
    // A deep search was asked for; the book answers at once.
    let answer = go(&mut e, &[], "depth 30");
    check_book_answer(&answer, &[]);
    // An analysis searches, book or not.
    e.send("go infinite");
    let first = e.recv();
    assert!(first.starts_with("info depth 1 "), "{first}");
    e.send("stop");
    let lines = e.until("bestmove");
    assert!(lines.iter().all(|l| !l.contains("book move")), "{lines:?}");
    // With OwnBook off the engine searches.
    e.send("setoption name OwnBook value false");
    let answer = go(&mut e, &[], "depth 3");
    assert!(!answer.is_from_the_book(), "{:?}", answer.lines);
    assert!(answer.lines.iter().any(|l| l.starts_with("info depth 3 ")), "{:?}", answer.lines);
    assert!(answer.lines.iter().all(|l| field(l, "nodes") != Some("0")), "{:?}", answer.lines);
    e.send("setoption name OwnBook value maybe");
    assert_eq!(e.recv(), "info string error: setoption OwnBook: 'maybe' is not true or false");
    e.send("setoption name OwnBook value true");
    check_book_answer(&go(&mut e, &[], "movetime 5000"), &[]);
    // Without a book, and on other boards, it searches.
    e.send("setoption name Book value <none>");
    assert!(!go(&mut e, &[], "depth 2").is_from_the_book());
    e.send("setoption name Book value <default>");
    assert!(go(&mut e, &[], "depth 2").is_from_the_book());
    e.send("setoption name BoardSize value 6");
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    assert!(lines.iter().all(|l| !l.contains("book")) && lines[0].starts_with("info depth 1 "), "{lines:?}");
}

#[test]
fn book_randomness_0_plays_the_same_move_in_every_process() {
    let moves: HashSet<String> = (0..3)
        .map(|_| {
            let mut e = Engine::start(&[]);
            e.send("setoption name BookRandomness value 0");
            let answer = go(&mut e, &[], "depth 20");
            check_book_answer(&answer, &[]);
            answer.mv
        })
        .collect();
    assert_eq!(moves.len(), 1, "{moves:?}");
}

/// The four first moves are one position seen in four mirrors, so they are worth the same: with
/// any randomness each is drawn, and twenty processes do not all draw the same one.
#[test]
fn book_randomness_varies_between_processes() {
    let first: HashSet<String> = (0..20)
        .map(|i| {
            // Half from the command line, half by the option.
            let mut e = Engine::start(if i % 2 == 0 { &["--book-randomness", "2"] } else { &[] });
            if i % 2 == 1 {
                e.send("setoption name BookRandomness value 2");
            }
            let answer = go(&mut e, &[], "depth 20");
            check_book_answer(&answer, &[]);
            answer.mv
        })
        .collect();
    assert!(first.len() >= 2, "{first:?}");
    assert!(first.iter().all(|m| ["d3", "c4", "f5", "e6"].contains(&m.as_str())), "{first:?}");
}

/// The moves a process plays from the start with `BookRandomness 2` and `BookSeed seed`, each in
/// the position its earlier moves made, while the book answers (at most 12 plies).
fn seeded_line(seed: u64, by_option: bool) -> Vec<String> {
    let seed_text = seed.to_string();
    let mut e = if by_option {
        let mut e = Engine::start(&[]);
        e.send("setoption name BookRandomness value 2");
        e.send(&format!("setoption name BookSeed value {seed}"));
        e
    } else {
        Engine::start(&["--book-randomness", "2", "--book-seed", &seed_text])
    };
    let mut moves = Vec::new();
    while moves.len() < 12 {
        let answer = go(&mut e, &moves, "depth 4");
        if !answer.is_from_the_book() {
            break;
        }
        check_book_answer(&answer, &moves);
        moves.push(answer.mv);
    }
    assert!(!moves.is_empty(), "the book holds the start");
    moves
}

#[test]
fn a_book_seed_repeats_the_draws() {
    let line = seeded_line(12345, true);
    assert_eq!(seeded_line(12345, true), line);
    assert_eq!(seeded_line(12345, false), line, "the option and the flag seed alike");
    let firsts: HashSet<String> = (1..=8).map(|seed| seeded_line(seed, false)[0].clone()).collect();
    assert!(firsts.len() >= 2, "other seeds draw other moves: {firsts:?}");
}

/// Broken book files: not a book, damaged (a byte changed), cut short, of another version.
fn broken_books(dir: &TempDir, good: &str) -> Vec<(String, &'static str)> {
    let bytes = std::fs::read(good).unwrap();
    let mut damaged = bytes.clone();
    let last = damaged.len() - 9;
    damaged[last] ^= 0x40;
    let mut version = bytes.clone();
    version[8..12].copy_from_slice(&2u32.to_le_bytes());
    let files: [(&str, Vec<u8>, &str); 4] = [
        ("text.book", b"not a book at all\n".to_vec(), "not a Magpie book"),
        ("damaged.book", damaged, "damaged"),
        ("short.book", bytes[..bytes.len() / 2].to_vec(), "cut short"),
        ("version.book", version, "version 2"),
    ];
    files
        .into_iter()
        .map(|(name, content, why)| {
            let path = dir.join(name);
            std::fs::write(&path, content).unwrap();
            (path.display().to_string(), why)
        })
        .collect()
}

#[test]
fn a_broken_book_is_refused_and_the_book_in_use_stays() {
    let dir = TempDir::new("engine-book-broken");
    let good = start_only_book(&dir, "good.book");
    let broken = broken_books(&dir, &good);
    // On the command line: status 2 and one line naming the file.
    for (path, why) in &broken {
        let out = magpie(&["--book", path]);
        assert_eq!(out.status.code(), Some(2), "{path}");
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: --book: ") && err.contains(path.as_str()) && err.contains(why), "{err}");
    }
    let missing = dir.join("missing.book").display().to_string();
    let out = magpie(&["--book", &missing]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&missing));

    let mut e = Engine::start(&[]);
    // No book: each refusal leaves none, and the start is searched.
    e.send("setoption name Book value <none>");
    for (path, why) in &broken {
        e.send(&format!("setoption name Book value {path}"));
        let line = e.recv();
        assert!(line.starts_with("info string error: setoption Book: ") && line.contains(path.as_str()), "{line}");
        assert!(line.contains(why), "{line}");
        assert!(!go(&mut e, &[], "depth 2").is_from_the_book());
    }
    // The good book (the start, scored at depth 2, and nothing after it) stays through every
    // refusal.
    e.send(&format!("setoption name Book value {good}"));
    let from_the_good_book = |e: &mut Engine| {
        let answer = go(e, &[], "depth 2");
        check_book_answer(&answer, &[]);
        assert!(answer.lines[0].ends_with(", depth 2, 0 games"), "{:?}", answer.lines);
        assert!(!go(e, &["f5".to_string()], "depth 2").is_from_the_book(), "it holds nothing after the first move");
    };
    from_the_good_book(&mut e);
    for path in broken.iter().map(|(p, _)| p.clone()).chain([missing.clone()]) {
        e.send(&format!("setoption name Book value {path}"));
        let line = e.recv();
        assert!(line.starts_with("info string error: setoption Book: ") && line.contains(&path), "{line}");
        from_the_good_book(&mut e);
    }
    drop(e);
    assert_eq!(dir.entries().len(), 5, "the engine wrote nothing: {:?}", dir.entries());
}

/// A GGF game as NBoard writes it, from the start.
fn nboard_game(moves: &str) -> String {
    let mut text = "(;GM[Othello]PC[NBoard]DT[2026-11-26]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]".to_string();
    let parsed = magpie::formats::parse_moves(moves).unwrap();
    for (i, mv) in parsed.iter().enumerate() {
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        text.push_str(&format!("{colour}[{}]", mv.to_string().to_uppercase()));
    }
    text + ";)"
}

/// A `book` line's fields: the line (its first move legal in `pos`), the eval, the games, the depth.
fn check_book_line(line: &str, pos: &Position) -> Move {
    let fields: Vec<&str> = line.split(' ').collect();
    assert_eq!((fields.len(), fields[0]), (5, "book"), "{line}");
    assert!(fields[2].parse::<f64>().is_ok() && fields[3].parse::<u32>().is_ok(), "{line}");
    assert!(fields[4] == "100%" || fields[4].parse::<u32>().is_ok(), "{line}");
    let mv: Move = fields[1][..2].parse().unwrap();
    assert!(pos.is_legal(mv), "{line}");
    mv
}

#[test]
fn nboard_go_and_hint_in_book_positions() {
    let mut e = Engine::start(&[]);
    e.send("nboard 2");
    e.send("set depth 30");
    assert_eq!(e.until("set myname Magpie30").len(), 2);
    e.send(&format!("set game {}", nboard_game("")));
    e.send("ping 1");
    e.send("go");
    assert_eq!(e.recv(), "pong 1");
    // At depth 30 a search would take minutes: the book answers at once, with its value, and no
    // search line (nor status) comes before it.
    let answer = e.recv();
    let text = answer.strip_prefix("=== ").unwrap_or_else(|| panic!("{answer}"));
    let parts: Vec<&str> = text.split('/').collect();
    assert_eq!(parts.len(), 3, "{answer}");
    assert!(Position::initial().is_legal(parts[0].to_lowercase().parse().unwrap()), "{answer}");
    assert!(parts[1].parse::<f64>().is_ok(), "{answer}");
    // hint: the book's moves as `book` lines, best first; then, if it knows fewer than asked for,
    // the others searched.
    e.send("set depth 2");
    e.send("ping 2");
    e.send("hint 1");
    assert_eq!(e.until("pong 2").last().map(String::as_str), Some("pong 2"));
    check_book_line(&e.recv(), &Position::initial());
    e.send("ping 3");
    assert_eq!(e.recv(), "pong 3", "a book hint is all at once");

    // A book holding only the start knows one move there (its leaf): hint 4 sends it, then
    // searches the three others.
    let dir = TempDir::new("engine-book-hint");
    let book = start_only_book(&dir, "start.book");
    let mut e = Engine::start(&["--book", &book]);
    e.send("nboard 2");
    e.send("set depth 3");
    e.until("set myname Magpie3");
    e.send(&format!("set game {}", nboard_game("")));
    e.send("ping 1");
    e.send("hint 4");
    assert_eq!(e.recv(), "pong 1");
    let book_line = e.recv();
    let leaf = check_book_line(&book_line, &Position::initial());
    assert!(book_line.ends_with(" 0 2"), "no games, depth 2: {book_line}");
    assert_eq!(e.recv(), "status Magpie is thinking");
    let mut searched = HashSet::new();
    loop {
        let line = e.recv();
        if line == "status" {
            break;
        }
        if let Some(rest) = line.strip_prefix("search ") {
            let mv: Move = rest[..2].parse().unwrap();
            assert_ne!(mv, leaf, "the book's move is not searched again: {line}");
            searched.insert(mv);
        }
    }
    assert_eq!(searched.len(), 3, "{searched:?}");
    // After the first move that book holds nothing: go searches.
    e.send(&format!("set game {}", nboard_game("f5")));
    e.send("ping 2");
    e.send("go");
    let lines = e.until("===");
    assert!(lines.iter().any(|l| l == "status Magpie is thinking"), "{lines:?}");
}

#[test]
fn nboard_learn_adds_the_game_to_the_book_file() {
    let dir = TempDir::new("engine-book-learn");
    let book = start_only_book(&dir, "learn.book");
    let show = |moves: &str| stdout(&magpie(&["book", "show", &book, "--moves", moves]));
    assert!(show("f5d6c3").contains("not in the book"));

    let mut e = Engine::start(&["--book", &book]);
    e.send("nboard 2");
    e.send(&format!("set game {}", nboard_game("f5d6c3d3")));
    e.send("ping 1");
    e.send("learn");
    let lines = e.until("learned");
    assert_eq!(lines[..3], ["set myname Magpie12", "status Perpendicular Opening", "pong 1"], "{lines:?}");
    assert_eq!(lines[3], "status Magpie is learning the game", "{lines:?}");
    let summary = &lines[4];
    assert!(summary.starts_with("status Magpie learnt the game: 4 new positions in "), "{summary}");
    assert!(summary.ends_with("learn.book"), "{summary}");
    assert_eq!(lines.len(), 6, "{lines:?}");
    // The engine plays from what it learnt at once.
    e.send(&format!("set game {}", nboard_game("f5d6c3")));
    e.send("ping 2");
    e.send("go");
    assert_eq!(e.until("pong 2").last().map(String::as_str), Some("pong 2"));
    let answer = e.recv();
    let mv = answer.strip_prefix("=== ").and_then(|a| a.split('/').next()).unwrap_or_else(|| panic!("{answer}"));
    let after_c3 = position_after(&["f5", "d6", "c3"].map(String::from));
    assert!(after_c3.is_legal(mv.to_lowercase().parse().unwrap()), "at once, from the book: {answer}");
    let (_, status, _) = e.finish();
    assert!(status.success());

    // The file holds the game's positions, counted once; nothing else is left in the folder.
    for moves in ["f5", "f5d6", "f5d6c3", "f5d6c3d3"] {
        let shown = show(moves);
        assert!(shown.contains("(depth 18, 1 games)"), "{moves}: {shown}");
    }
    assert_eq!(dir.entries(), ["learn.book"]);
    // A new process with the same --book plays the learnt positions from the book.
    let mut e = Engine::start(&["--book", &book]);
    let moves: Vec<String> = ["f5", "d6", "c3"].iter().map(|m| m.to_string()).collect();
    let answer = go(&mut e, &moves, "depth 10");
    check_book_answer(&answer, &moves);
    // Learnt again, the game counts twice.
    let mut e = Engine::start(&["--book", &book, "--protocol", "nboard"]);
    e.send(&format!("set game {}", nboard_game("f5d6c3d3")));
    e.send("learn");
    let lines = e.until("learned");
    assert!(lines.iter().any(|l| l.starts_with("status Magpie learnt the game: 0 new positions")), "{lines:?}");
    assert!(show("f5d6").contains(", 2 games)"), "{}", show("f5d6"));
}

#[test]
fn nboard_learn_refuses_what_it_cannot_learn() {
    let dir = TempDir::new("engine-book-learn-6x6");
    let book = start_only_book(&dir, "six.book");
    let before = std::fs::read(&book).unwrap();
    let mut e = Engine::start(&["--book", &book, "--protocol", "nboard"]);
    let six = "(;GM[Othello]PC[NBoard]DT[2026]PB[a]PW[b]RE[?]TI[15:00]TY[6]BO[6 --------------O*----*O-------------- *]B[D5];)";
    e.send(&format!("set game {six}"));
    e.send("learn");
    assert_eq!(e.recv(), "status Magpie did not learn the game: the book is for the 8x8 board");
    assert_eq!(e.recv(), "learned");
    let (rest, status, _) = e.finish();
    assert!(rest.is_empty() && status.success(), "{rest:?}");
    assert_eq!(std::fs::read(&book).unwrap(), before, "the book is unchanged");
}

#[test]
fn gtp_genmove_plays_from_the_book() {
    // A minute a move: only the book answers within the 20 s waited for.
    let mut e = Engine::start(&["--protocol", "gtp", "--movetime", "60000"]);
    let mut ask = |command: &str| -> String {
        e.send(command);
        let answer = e.recv_within(20.0);
        assert_eq!(e.recv(), "", "{command}");
        answer.strip_prefix("= ").unwrap_or_else(|| panic!("{command}: {answer}")).to_lowercase()
    };
    // reg_genmove does not play its move; genmove does.
    let suggested: Move = ask("reg_genmove b").parse().unwrap();
    assert!(Position::initial().is_legal(suggested), "{suggested}");
    let played: Move = ask("genmove b").parse().unwrap();
    assert!(Position::initial().is_legal(played), "{played}");
    assert_eq!(ask("gogui-rules_side_to_move"), "white");
}

#[test]
fn bestmove_says_when_its_move_is_from_the_book() {
    let line = stdout(&magpie(&["bestmove"]));
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!((words.len(), words[2]), (3, "book"), "{line}");
    assert!(Position::initial().is_legal(words[0].parse().unwrap()), "{line}");
    let json = stdout(&magpie(&["bestmove", "--json"]));
    assert!(json.contains("\"book\":true") && json.contains("\"nodes\":0,"), "{json}");
    let searched = stdout(&magpie(&["bestmove", "--no-book", "--depth", "2", "--json"]));
    assert!(searched.contains("\"book\":false") && searched.contains("\"depth\":2,"), "{searched}");
    let line = stdout(&magpie(&["bestmove", "--book", "<none>", "--depth", "2"]));
    assert!(!line.contains("book"), "{line}");
    // A book file given before the subcommand counts as its own.
    let dir = TempDir::new("engine-book-bestmove");
    let book = start_only_book(&dir, "start.book");
    assert!(stdout(&magpie(&["--book", &book, "bestmove"])).ends_with(" book\n"));
    assert!(!stdout(&magpie(&["--book", &book, "bestmove", "--moves", "f5", "--depth", "2"])).contains("book"));
}
