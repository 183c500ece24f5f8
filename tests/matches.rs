//! `magpie match` through the real binary: matches between Magpie configurations over each
//! protocol, a deliberately broken engine (tests/broken_engine.sh) in every way it can break, an
//! engine that tells how it was started (tests/spy_engine.sh), an interrupted match resumed, and
//! an SPRT that stops a lopsided match.
//!
//! No test here depends on the machine's load: where engines must not lose on time, the margin
//! is generous (a second), and the broken engine's faults are far outside it.

#[allow(unused_imports)] // Rng: the helpers are shared with tests that use them all.
mod common;

use common::TempDir;
use magpie::board::Color;
use magpie::formats::ggf::{GgfGame, parse_ggf_games};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn magpie() -> &'static str {
    env!("CARGO_BIN_EXE_magpie")
}

fn broken(mode: &str, after: u32) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/broken_engine.sh");
    format!("cmd={} {mode} {after}", script.display())
}

fn run_match(args: &[&str]) -> Output {
    Command::new(magpie()).arg("match").args(args).env("MAGPIE", magpie()).output().expect("the match runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

fn games_in(path: &Path) -> Vec<GgfGame> {
    let text = std::fs::read_to_string(path).expect("results file");
    parse_ggf_games(&text).into_iter().map(|g| g.expect("every game parses")).collect()
}

#[test]
fn matches_over_each_protocol() {
    let nboard = format!("cmd={} --protocol nboard", magpie());
    let gtp = format!("cmd={} --protocol gtp", magpie());
    let dir = TempDir::new("match-protocols");
    let out_file = dir.join("protocols.ggf");
    let out = run_match(&[
        "--mode",
        "round-robin",
        "--engine",
        "name=ugi",
        "--engine",
        "name=nboard",
        &nboard,
        "proto=nboard",
        "--engine",
        "name=gtp",
        &gtp,
        "proto=gtp",
        "--games",
        "2",
        "--tc",
        "1+0.02",
        "--margin",
        "1000",
        "--size",
        "6",
        "--opening-plies",
        "4",
        "--opening-depth",
        "3",
        "--no-progress",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = stdout(&out);
    for pairing in ["ugi vs nboard: 2 games", "ugi vs gtp: 2 games", "nboard vs gtp: 2 games"] {
        assert!(report.contains(pairing), "{report}");
    }
    assert!(!report.contains("forfeits"), "no engine may lose on time or otherwise: {report}");
    let games = games_in(&out_file);
    assert_eq!(games.len(), 6);
    for game in &games {
        assert!(game.position().is_game_over(), "every game is played to its end");
        assert_eq!(game.start().size().side(), 6);
        assert!(game.extra_tag("RS").is_none());
        assert!(game.clock(magpie::board::Color::Black).is_some());
    }
    let numbers: BTreeSet<&str> = games.iter().filter_map(|g| g.extra_tag("MI")).collect();
    assert_eq!(numbers.len(), 6);
}

#[test]
fn a_broken_engine_loses_each_way_and_the_runner_finishes() {
    // (mode, the forfeit counted, the RS tag's start, a line of the report)
    let cases = [
        (
            "crash",
            "crash 2",
            "crash: broken: exited with status 3",
            "    crashed: exited with status 3, its last stderr line 'broken: crashing on purpose' (2 games)",
        ),
        ("hang", "time 2", "time: broken: no 'bestmove' within time 0.050 + margin 1.000", "  broken: 2 time losses"),
        (
            "illegal",
            "illegal move 2",
            "illegal move: broken: illegal move d4",
            "    illegal move d4: the square is occupied (2 games)",
        ),
        (
            "badpass",
            "illegal move 2",
            "illegal move: broken: illegal move pass: a legal move exists",
            "    illegal move pass: a legal move exists (2 games)",
        ),
        ("garbage", "garbage 2", "garbage: broken: bestmove xyzzy", "    garbage: bestmove xyzzy (2 games)"),
        ("slow", "time 2", "time: broken", "  broken: 2 time losses in 2 games; "),
    ];
    let dir = TempDir::new("match-broken");
    for (mode, counted, tag, line) in cases {
        let out_file = dir.join(&format!("broken-{mode}.ggf"));
        // A second of margin: the broken engine's legal moves are never near it, its faults
        // (a hang, 3 s of thinking) far beyond it.
        let out = run_match(&[
            "--engine",
            "name=magpie",
            "--engine",
            "name=broken",
            &broken(mode, 2),
            "--games",
            "2",
            "--movetime",
            "50",
            "--margin",
            "1000",
            "--concurrency",
            "1",
            "--opening-depth",
            "3",
            "--no-progress",
            "--out",
            out_file.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{mode}: {}", stderr(&out));
        let report = stdout(&out);
        assert!(report.contains("magpie: 2 wins, 0 draws, 0 losses"), "{mode}: {report}");
        assert!(report.contains("from 1 game pair)"), "{mode}: {report}");
        assert!(report.contains(&format!("forfeits by broken: {counted}\n")), "{mode}: {report}");
        assert!(report.contains(line), "{mode}: {report}");
        assert!(report.contains("  magpie: 0 time losses in 2 games"), "{mode}: {report}");
        let games = games_in(&out_file);
        assert_eq!(games.len(), 2, "{mode}: a crashed or hung engine is restarted for the next game");
        for game in &games {
            let rs = game.extra_tag("RS").unwrap_or_default();
            assert!(rs.starts_with(tag), "{mode}: {rs}");
            // The broken engine played its first two moves legally before failing.
            assert!(game.moves().len() >= 8 + 2, "{mode}");
        }
    }
}

#[test]
fn latency_is_allowed_for_and_not_an_overrun() {
    // The laggy engine answers isready 0.8 s late before each of its first two moves, and the
    // moves as late: 0.8 s is far over 50 ms + 300 ms, but it is what every round trip takes.
    let out = run_match(&[
        "--engine",
        "name=magpie",
        "--engine",
        "name=laggy",
        &broken("laggy", 2),
        "--games",
        "2",
        "--movetime",
        "50",
        "--margin",
        "300",
        "--opening-depth",
        "3",
        "--no-progress",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(!report.contains("forfeits"), "{report}");
    let line = report.lines().find(|l| l.starts_with("  laggy: 0 time losses in 2 games")).expect(&report);
    let latency: f64 = line
        .split("latency allowance up to ")
        .nth(1)
        .and_then(|t| t.trim_end_matches(" s").parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(latency >= 0.8, "{line}");
}

#[test]
fn noise_lines_are_not_faults() {
    let out = run_match(&[
        "--engine",
        "name=magpie",
        "--engine",
        "name=noisy",
        &broken("noise", 0),
        "--games",
        "2",
        "--movetime",
        "20",
        "--margin",
        "1000",
        "--opening-depth",
        "3",
        "--no-progress",
    ]);
    let report = stdout(&out);
    assert!(report.contains("noisy: 2 games") || report.contains("magpie vs noisy: 2 games"), "{report}");
    assert!(!report.contains("forfeits"), "{report}");
}

#[test]
fn an_interrupted_match_resumes_without_losing_or_repeating_games() {
    let dir = TempDir::new("match-resume");
    let out_file = dir.join("resume.ggf");
    let args = [
        "match",
        "--engine",
        "name=a",
        "--engine",
        "name=b",
        "option.Eval=iagno",
        "--games",
        "12",
        "--movetime",
        "15",
        "--concurrency",
        "1",
        "--opening-depth",
        "3",
        "--no-progress",
        "--out",
        out_file.to_str().unwrap(),
    ];
    let mut child = Command::new(magpie()).args(args).spawn().expect("starts");
    // Let a few games finish, then kill the runner without warning.
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let written = std::fs::read_to_string(&out_file).map(|t| t.lines().count()).unwrap_or(0);
        if written >= 3 {
            break;
        }
        assert!(Instant::now() < deadline, "no game finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("kill");
    let _ = child.wait();
    let before = games_in(&out_file).len();
    assert!(before < 12, "interrupted before the end");

    // Without --resume the file is refused rather than overwritten.
    let refused = Command::new(magpie()).args(args).output().expect("runs");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--resume"));

    let mut resumed_args = args.to_vec();
    resumed_args.push("--resume");
    let out = Command::new(magpie()).args(&resumed_args).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = stdout(&out);
    let played = if before == 1 { "1 game".to_string() } else { format!("{before} games") };
    assert!(report.contains(&format!("resuming: {played} already played")), "{report}");
    assert!(report.contains("a vs b: 12 games"), "{report}");
    let games = games_in(&out_file);
    assert_eq!(games.len(), 12);
    let numbers: BTreeSet<usize> = games.iter().filter_map(|g| g.extra_tag("MI")?.parse().ok()).collect();
    assert_eq!(numbers, (0..12).collect::<BTreeSet<_>>(), "every game once");
    // The time section counts the games read back too: every timed move of `a` in the file.
    let moves_of_a: usize = games
        .iter()
        .map(|g| {
            let color = if g.player(Color::Black) == Some("a") { Color::Black } else { Color::White };
            g.moves().iter().filter(|m| m.color == color && m.time.is_some()).count()
        })
        .sum();
    let line =
        report.lines().find(|l| l.trim_start().starts_with("a: ") && l.contains(" time loss")).expect("a's time line");
    assert!(line.contains(&format!("in 12 games; {moves_of_a} moves, ")), "{moves_of_a} moves: {line}\n{report}");
}

#[test]
fn sprt_stops_a_lopsided_match() {
    let out = run_match(&[
        "--engine",
        "name=strong",
        "--engine",
        "name=random",
        "option.Level=0",
        "--games",
        "400",
        "--depth",
        "2",
        "--sprt",
        "0,100",
        "--opening-depth",
        "3",
        "--no-progress",
    ]);
    assert!(out.status.success());
    let report = stdout(&out);
    assert!(report.contains("H1 accepted"), "{report}");
    let games: u32 = report
        .lines()
        .find_map(|l| l.strip_prefix("strong vs random: ")?.split(' ').next()?.parse().ok())
        .expect("games count");
    assert!(games < 400, "stopped early: {games} games");
}

#[test]
fn bad_match_arguments_are_one_line_errors() {
    let cases: [&[&str]; 6] = [
        &["--engine", "name=a"],
        &["--engine", "name=a", "--engine", "name=a"],
        &["--engine", "colour=red", "--engine", "name=b"],
        &["--engine", "name=a", "--engine", "name=b", "proto=gtp", "--depth", "3"],
        &["--engine", "name=a", "--engine", "name=b", "--sprt", "5,1"],
        &["--engine", "name=a", "--engine", "name=b", "--tc", "fast"],
    ];
    for args in cases {
        let out = run_match(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_before_any_game() {
    let dir = TempDir::new("match-ghost");
    let out_file = dir.join("ghost.ggf");
    let cases = [
        (
            "cmd=/nonexistent/engine",
            "error: engine 'ghost' cannot start: /nonexistent/engine: No such file or directory",
        ),
        ("dir=/nonexistent", "error: engine 'ghost' cannot start: dir /nonexistent: No such file or directory"),
        ("cmd=true", "error: engine 'ghost' cannot start: crashed: exited with status 0"),
    ];
    for (word, message) in cases {
        let out = run_match(&[
            "--engine",
            "name=magpie",
            "--engine",
            "name=ghost",
            word,
            "--games",
            "2",
            "--depth",
            "1",
            "--opening-depth",
            "3",
            "--no-progress",
            "--out",
            out_file.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(2), "{word}");
        assert_eq!(stderr(&out).trim_end(), message, "{word}");
        assert_eq!(stdout(&out), "", "{word}: no report");
        assert!(!out_file.exists(), "{word}: no game was played");
    }
}

/// Copies the spy engine into `dir`, so that `dir=… cmd=./spy_engine.sh` finds it there.
fn spy_in(dir: &Path) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spy_engine.sh");
    std::fs::copy(script, dir.join("spy_engine.sh")).expect("the spy engine is copied");
}

#[test]
fn engines_take_a_directory_arguments_their_own_time_and_a_stderr_file() {
    let tmp = TempDir::new("match-spy");
    let (a_dir, others) = (tmp.join("a"), tmp.join("others"));
    for dir in [&a_dir, &others] {
        std::fs::create_dir(dir).unwrap();
        spy_in(dir);
    }
    let out_file = tmp.join("spy.ggf");
    let err_file = tmp.join("a-stderr.log");
    let (a_dir_word, others_word) = (format!("dir={}", a_dir.display()), format!("dir={}", others.display()));
    let stderr_word = format!("stderr={}", err_file.display());
    let out = run_match(&[
        // a: by depth, started as `spy_engine.sh a "two words"` in its own directory.
        "--engine",
        "name=a",
        &a_dir_word,
        "cmd=./spy_engine.sh a",
        "arg=two words",
        "depth=2",
        &stderr_word,
        // b: by time per move, with an empty note.
        "--engine",
        "name=b",
        &others_word,
        "cmd=./spy_engine.sh",
        "arg=b",
        "arg=",
        "movetime=30",
        // c: NBoard by depth.
        "--engine",
        "name=c",
        &others_word,
        "cmd=./spy_engine.sh c - --protocol nboard",
        "proto=nboard",
        "depth=3",
        // d: the match's clock.
        "--engine",
        "name=d",
        &others_word,
        "cmd=./spy_engine.sh d -",
        "--tc",
        "3+0.1",
        "--margin",
        "1000",
        "--games",
        "2",
        "--size",
        "6",
        "--opening-plies",
        "4",
        "--opening-depth",
        "3",
        "--no-progress",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = stdout(&out);
    for header in [
        "a vs b: 2 games, a depth 2, b 30 ms per move",
        "a vs c: 2 games, a depth 2, c depth 3",
        "a vs d: 2 games, a depth 2, d 3+0.1 s",
    ] {
        assert!(report.contains(header), "{header}: {report}");
    }
    assert!(!report.contains("forfeits"), "{report}");
    let read = |path: std::path::PathBuf| std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    // dir= is the working directory; arg= is one argument, blanks and all.
    let spy_a = read(a_dir.join("spy-a.log"));
    assert!(spy_a.contains(&format!("cwd {}\n", a_dir.display())), "{spy_a}");
    assert!(spy_a.contains("note two words\n"), "{spy_a}");
    assert!(read(others.join("spy-b.log")).contains("note \n"), "an empty arg= is an argument");
    // Each engine is asked in its own time control.
    let received = |name: &str| {
        let dir = if name == "a" { &a_dir } else { &others };
        read(dir.join(format!("received-{name}.log")))
    };
    let (ra, rb, rc, rd) = (received("a"), received("b"), received("c"), received("d"));
    assert!(ra.contains("go depth 2\n") && !ra.contains("movetime") && !ra.contains("time "), "{ra}");
    assert!(rb.contains("go movetime 30\n") && !rb.contains("go depth"), "{rb}");
    assert!(rc.contains("set depth 3\n") && !rc.contains("set depth 60"), "{rc}");
    assert!(rd.contains("inc 100") && !rd.contains("go depth") && !rd.contains("movetime"), "{rd}");
    // stderr= keeps the engine's stderr.
    assert!(read(err_file).contains("spy a says hello on stderr"));
    // The GGF gives a clock to d alone, and records every side's time per move.
    let games = games_in(&out_file);
    assert_eq!(games.len(), 6);
    for game in &games {
        for color in [Color::Black, Color::White] {
            let player = game.player(color).unwrap_or_default();
            assert_eq!(game.clock(color).is_some(), player == "d", "{player}: {game}");
        }
        assert!(game.moves().iter().any(|m| m.time.is_some()), "{game}");
    }
}

/// The words of a shell command line: blanks split, double quotes group, `\` at a line's end joins.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let (mut word, mut quoted, mut started) = (String::new(), false, false);
    for c in line.chars() {
        match c {
            '"' => (quoted, started) = (!quoted, true),
            c if c.is_whitespace() && !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                }
                started = false;
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

#[test]
fn the_documented_match_examples_run() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/matches.md")).unwrap();
    let section = doc.split("## Examples").nth(1).expect("the Examples of docs/matches.md");
    let section = section.split("\n## ").next().unwrap_or_default();
    let commands: Vec<Vec<String>> = section
        .split("```sh\n")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .flat_map(|block| block.replace("\\\n", " ").lines().map(shell_words).collect::<Vec<_>>())
        .filter(|words| words.len() > 2 && words[0] == "magpie" && words[1] == "match")
        .collect();
    assert!(commands.len() >= 3, "{commands:?}");
    let dir = TempDir::new("match-readme");
    let mut ran = 0;
    for words in &commands {
        // Examples with other programs were run against them (see docs/matches.md).
        if words.iter().any(|w| w.starts_with("dir=") || w.starts_with("cmd=")) {
            continue;
        }
        let mut args: Vec<String> = words[2..].to_vec();
        for (flag, value) in
            [("--games", "2".to_string()), ("--out", dir.join(&format!("{ran}.ggf")).display().to_string())]
        {
            if let Some(at) = args.iter().position(|a| a == flag) {
                args[at + 1] = value;
            }
        }
        args.push("--no-progress".into());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run_match(&args);
        assert!(out.status.success(), "{words:?}: {}", stderr(&out));
        assert!(stdout(&out).contains(": 2 games, "), "{words:?}: {}", stdout(&out));
        ran += 1;
    }
    assert!(ran >= 1, "no example runs with Magpie alone");
}
