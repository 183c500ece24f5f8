//! `magpie book` over the built binary: a growth run killed for real resumes from its journal
//! with nothing lost and nothing scored twice; export and import round-trip; bad books and bad
//! arguments are refused with one line and status 2.

mod common;

use common::TempDir;
use std::collections::HashSet;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn magpie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_magpie")).args(args).output().expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The canonical keys of a book, read from its text form (X: the side to move's discs).
fn keys(dir: &TempDir, book: &str) -> HashSet<(u64, u64)> {
    let text = stdout(&magpie(&["book", "export", dir.join(book).to_str().unwrap()]));
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let squares = l.split(' ').next().unwrap();
            let (mut p, mut o) = (0u64, 0u64);
            for (i, c) in squares.chars().enumerate() {
                match c {
                    'X' => p |= 1 << i,
                    'O' => o |= 1 << i,
                    _ => {}
                }
            }
            (p, o)
        })
        .collect()
}

/// The whole records of a journal file (26 bytes each and a 4-byte check after the 12-byte
/// header): their keys, in order.
fn journal_keys(bytes: &[u8]) -> Vec<(u64, u64)> {
    bytes[12..]
        .chunks_exact(30)
        .map(|r| (u64::from_le_bytes(r[..8].try_into().unwrap()), u64::from_le_bytes(r[8..16].try_into().unwrap())))
        .collect()
}

/// The number in `text` just before `word` (`resumed 57 positions`).
fn number_before(text: &str, word: &str) -> usize {
    let words: Vec<&str> = text.split_whitespace().collect();
    let at = words.iter().position(|w| *w == word).unwrap_or_else(|| panic!("no {word:?} in {text}"));
    words[at - 1].parse().unwrap_or_else(|_| panic!("no number before {word:?} in {text}"))
}

#[test]
fn a_killed_growth_run_resumes_with_nothing_lost_or_scored_twice() {
    let dir = TempDir::new("book-kill");
    let book = dir.join("k.book");
    let book = book.to_str().unwrap();
    stdout(&magpie(&["book", "new", book, "--depth", "3", "--selectivity", "0"]));
    let grow = ["book", "grow", book, "--plies", "8", "--deviation", "6", "--depth", "4", "--selectivity", "0"];
    let mut child = Command::new(env!("CARGO_BIN_EXE_magpie"))
        .args(grow)
        .arg("--no-progress")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once it has scored some positions (the journal holds them), well before it ends.
    let journal = dir.join("k.book.journal");
    let started = Instant::now();
    loop {
        let len = std::fs::metadata(&journal).map(|m| m.len()).unwrap_or(0);
        if len >= 12 + 30 * 200 {
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "the run ended before it could be killed");
        assert!(started.elapsed() < Duration::from_secs(120), "the run scores nothing");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let at_kill = std::fs::read(&journal).unwrap();
    let whole = journal_keys(&at_kill);
    let scored: HashSet<(u64, u64)> = whole.iter().copied().collect();
    let mut held = keys(&dir, "k.book");
    held.extend(&scored);

    // The next run takes the journal up: it says how many records it replayed, adds only
    // positions it did not hold, and ends with the book whole and the journal gone.
    let out = stdout(&magpie(&[&grow[..], &["--no-progress"]].concat()));
    assert_eq!(number_before(&out, "positions"), whole.len(), "{out}");
    let added = out.split_once(": ").map(|(_, rest)| number_before(rest, "positions")).unwrap();
    let after = keys(&dir, "k.book");
    assert!(scored.is_subset(&after), "a position the killed run scored is lost");
    assert_eq!(after.len(), held.len() + added, "{out}");
    assert!(!journal.exists());

    // A run on the finished book has nothing left to do.
    let again = stdout(&magpie(&[&grow[..], &["--no-progress"]].concat()));
    assert!(again.contains(": 0 positions added in 0 rounds"), "{again}");
}

#[test]
fn export_then_import_gives_the_same_book() {
    let dir = TempDir::new("book-text");
    let book = dir.join("a.book");
    let book = book.to_str().unwrap();
    stdout(&magpie(&["book", "new", book, "--depth", "2", "--selectivity", "0"]));
    stdout(&magpie(&["book", "grow", book, "--plies", "4", "--deviation", "3", "--depth", "2", "--no-progress"]));
    let text = dir.join("a.txt");
    stdout(&magpie(&["book", "export", book, "--out", text.to_str().unwrap()]));
    let copy = dir.join("b.book");
    stdout(&magpie(&["book", "import", text.to_str().unwrap(), "--out", copy.to_str().unwrap()]));
    assert_eq!(std::fs::read(book).unwrap(), std::fs::read(&copy).unwrap());
    let shown = stdout(&magpie(&["book", "show", book, "--moves", "f5"]));
    assert!(shown.starts_with("f5: White to move, value "), "{shown}");
    let verified =
        stdout(&magpie(&["book", "verify", book, "--positions", "3", "--extra-depth", "1", "--no-progress"]));
    assert!(verified.starts_with("verified 3 positions, each searched 1 plies deeper"), "{verified}");
    assert!(verified.contains("mean difference ") && verified.contains("\nworst: "), "{verified}");
    let stats = stdout(&magpie(&["book", "stats", book]));
    assert!(stats.contains("positions by discs played: 0:1 1:1"), "{stats}");
}

#[test]
fn bad_books_and_arguments_are_refused_with_one_line() {
    let dir = TempDir::new("book-bad");
    let good = dir.join("g.book");
    stdout(&magpie(&["book", "new", good.to_str().unwrap(), "--depth", "1"]));
    let bytes = std::fs::read(&good).unwrap();
    let cut = dir.join("cut.book");
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    let mut version = bytes.clone();
    version[8] = 9;
    let other = dir.join("v9.book");
    std::fs::write(&other, &version).unwrap();
    let text = dir.join("t.book");
    std::fs::write(&text, "not a book at all").unwrap();
    let bad_text = dir.join("bad.txt");
    std::fs::write(&bad_text, "XO X 1 2 -- 3 4\n").unwrap();
    let bad_games = dir.join("games.txt");
    std::fs::write(&bad_games, "f5d6c3\nf5f5\n").unwrap();
    let s = |p: &std::path::PathBuf| p.to_str().unwrap().to_string();
    for (args, want) in [
        (vec!["book".into(), "show".into(), s(&cut)], "cut short"),
        (vec!["book".into(), "stats".into(), s(&other)], "version 9"),
        (vec!["book".into(), "stats".into(), "/dev/zero".into()], "/dev/zero: not a regular file"),
        (vec!["book".into(), "show".into(), dir.path().to_str().unwrap().into()], "not a regular file"),
        (
            vec![
                "book".into(),
                "grow".into(),
                s(&text),
                "--plies".into(),
                "4".into(),
                "--deviation".into(),
                "1".into(),
            ],
            "not a Magpie book",
        ),
        (vec!["book".into(), "new".into(), s(&good)], "a file is there already"),
        (vec!["book".into(), "import".into(), s(&bad_text), "--out".into(), s(&dir.join("x.book"))], "line 1"),
        (vec!["book".into(), "add".into(), s(&good), s(&bad_games)], "line 2: move 2 (f5)"),
        (vec!["book".into(), "show".into(), s(&good), "--moves".into(), "f5f5".into()], "--moves: move 2"),
        (
            vec!["book".into(), "grow".into(), s(&good), "--plies".into(), "4".into(), "--deviation=-1".into()],
            "--deviation",
        ),
    ] {
        let args: Vec<String> = args;
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = magpie(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    // The good book is unchanged by all of it.
    assert_eq!(std::fs::read(&good).unwrap(), bytes);
}

/// The reading verbs read the built-in book when no file is given (or `<default>`), and `show`
/// takes a position as moves or as a FEN.
#[test]
fn the_built_in_book_can_be_read() {
    let start = stdout(&magpie(&["book", "show"]));
    assert!(start.starts_with("the start: Black to move, value "), "{start}");
    assert!(start.lines().nth(1).is_some_and(|l| l.starts_with("best line: f5")), "{start}");
    assert_eq!(start.lines().nth(2).map(|l| &l[..2]), Some("f5"), "f5 first of the four equal moves: {start}");
    assert_eq!(stdout(&magpie(&["book", "show", "<default>"])), start);
    let perpendicular = stdout(&magpie(&["book", "show", "--moves", "f5d6"]));
    assert!(perpendicular.starts_with("f5d6 (Perpendicular Opening): Black to move"), "{perpendicular}");
    // The same position as a FEN, and as a FEN then moves.
    let fen = "---------------------------OX------XO--------------------------- X";
    let after = |fen_moves: &[&str]| stdout(&magpie(&[&["book", "show", "--fen", fen], fen_moves].concat()));
    let from_fen = after(&["--moves", "f5d6"]);
    assert!(from_fen.starts_with(&format!("{fen} then f5d6 (Perpendicular Opening): Black to move")), "{from_fen}");
    assert_eq!(from_fen.lines().skip(1).collect::<Vec<_>>(), perpendicular.lines().skip(1).collect::<Vec<_>>());
    let stats = stdout(&magpie(&["book", "stats"]));
    assert!(stats.starts_with("the built-in book: ") && stats.contains(" positions, "), "{stats}");
    assert!(stats.contains("the start: ") && stats.contains("best line f5"), "{stats}");
    let exported = stdout(&magpie(&["book", "export"]));
    let positions = stats.split(": ").nth(1).and_then(|s| s.split(' ').next()).unwrap();
    assert_eq!(exported.lines().filter(|l| !l.starts_with('#')).count().to_string(), positions);
    // A bad position is refused naming it.
    let out = magpie(&["book", "show", "--fen", "XO X"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: --fen: position 'XO X'"));
}
