//! `magpie match` through the real binary: matches between Magpie configurations over each
//! protocol, a deliberately broken engine (tests/broken_engine.sh) in every way it can break, an
//! interrupted match resumed, and an SPRT that stops a lopsided match.
//!
//! No test here depends on the machine's load: where engines must not lose on time, the margin
//! is generous (a second), and the broken engine's faults are far outside it.

#[allow(unused_imports)] // Rng: the helpers are shared with tests that use them all.
mod common;

use common::TempDir;
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
    // (mode, the forfeit counted, the RS tag's start)
    let cases = [
        ("crash", "crash 2", "crash: broken"),
        ("hang", "time 2", "time: broken"),
        ("illegal", "illegal move 2", "illegal move: broken: illegal move d4"),
        ("badpass", "illegal move 2", "illegal move: broken: illegal move pass: a legal move exists"),
        ("garbage", "garbage 2", "garbage: broken: bestmove xyzzy"),
        ("slow", "time 2", "time: broken"),
    ];
    let dir = TempDir::new("match-broken");
    for (mode, counted, tag) in cases {
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
        assert!(out.status.success(), "{mode}: {}", String::from_utf8_lossy(&out.stderr));
        let report = stdout(&out);
        assert!(report.contains("magpie: 2 wins, 0 draws, 0 losses"), "{mode}: {report}");
        assert!(report.contains(&format!("forfeits by broken: {counted}")), "{mode}: {report}");
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
    assert!(report.contains(&format!("resuming: {before} games already played")), "{report}");
    assert!(report.contains("a vs b: 12 games"), "{report}");
    let games = games_in(&out_file);
    assert_eq!(games.len(), 12);
    let numbers: BTreeSet<usize> = games.iter().filter_map(|g| g.extra_tag("MI")?.parse().ok()).collect();
    assert_eq!(numbers, (0..12).collect::<BTreeSet<_>>(), "every game once");
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
fn an_engine_that_cannot_start_forfeits_its_games() {
    let out = run_match(&[
        "--engine",
        "name=magpie",
        "--engine",
        "name=ghost",
        "cmd=/nonexistent/engine",
        "--games",
        "2",
        "--depth",
        "1",
        "--opening-depth",
        "3",
        "--no-progress",
    ]);
    assert!(out.status.success());
    let report = stdout(&out);
    assert!(report.contains("forfeits by ghost: setup 2"), "{report}");
}
