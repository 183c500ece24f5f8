//! `magpie solve` driven as a user would: Edax's problem files as they are distributed, standard
//! input, and the suite's numbering beside the file's lines.

mod common;

use common::run_with_input as magpie_with_input;
use std::process::{Command, Output};

fn magpie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_magpie")).args(args).output().expect("the binary runs")
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// Edax's hard-20 set (276 positions of 20 empties, each line ending with the `--:-127;` entry),
/// read as it is distributed and solved exactly: every answer agrees with the file. In release
/// mode only: a debug build solves it ten times slower.
#[test]
fn edax_hard_20_is_solved_exactly() {
    let text = include_str!("data/hard-20.obf");
    assert_eq!(text.lines().filter(|l| l.ends_with("--:-127;")).count(), 276, "the file as distributed");
    let lines = if cfg!(debug_assertions) { 20 } else { 276 };
    let input: String = text.lines().take(lines).map(|l| format!("{l}\n")).collect();
    let out = magpie_with_input(&["solve", "-", "--json", "--no-progress"], &input);
    let solved = json_lines(&out);
    let total = solved.last().unwrap();
    assert_eq!(
        (total["positions"].as_u64(), total["agree"].as_u64(), total["disagree"].as_u64()),
        (Some(lines as u64), Some(lines as u64), Some(0)),
        "{total}"
    );
    assert!(solved[..lines].iter().all(|p| p["empties"] == 20 && p["check"] == "ok"));
}

/// The `#` column numbers the suite: from the file's name when it gives the range it holds, from
/// `--first`, else from 1; the `line` column is the file's line.
#[test]
fn positions_are_numbered_in_their_suite_and_by_line() {
    let ffo: Vec<&str> = include_str!("data/fforum-1-19.obf").lines().collect();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let named = dir.join("suite-5-7.obf");
    // A comment line first: the positions stand on lines 2 to 4.
    std::fs::write(&named, format!("% FFO #5 to #7\n{}\n{}\n{}\n", ffo[4], ffo[5], ffo[6])).unwrap();
    let path = named.to_str().unwrap();
    let by_name = magpie(&["solve", path, "--json", "--no-progress"]);
    let table = magpie(&["solve", path, "--no-progress"]);
    let by_flag = magpie(&["solve", path, "--first", "40", "--json", "--no-progress"]);
    std::fs::remove_file(&named).unwrap();
    let numbers = |out: &Output| -> Vec<(u64, u64)> {
        json_lines(out)
            .iter()
            .filter(|p| p["type"] == "position")
            .map(|p| (p["number"].as_u64().unwrap(), p["line"].as_u64().unwrap()))
            .collect()
    };
    assert_eq!(numbers(&by_name), [(5, 2), (6, 3), (7, 4)]);
    assert_eq!(numbers(&by_flag), [(40, 2), (41, 3), (42, 4)]);
    let text = String::from_utf8_lossy(&table.stdout).to_string();
    let rows: Vec<Vec<&str>> = text.lines().skip(2).take(3).map(|l| l.split_whitespace().collect()).collect();
    assert!(text.starts_with("solving 3 positions #5-#7 ("), "{text}");
    assert_eq!(text.lines().nth(1).unwrap().split_whitespace().take(3).collect::<Vec<_>>(), ["#", "line", "empties"]);
    assert_eq!(
        rows.iter().map(|r| (r[0], r[1], r[3])).collect::<Vec<_>>(),
        [("5", "2", "g8"), ("6", "3", "h3"), ("7", "4", "a6")]
    );
    // From standard input nothing names the suite: numbered from 1.
    let piped = magpie_with_input(&["solve", "-", "--json", "--no-progress"], &format!("{}\n", ffo[4]));
    assert_eq!(numbers(&piped), [(1, 1)]);
}

/// The tools that solve many positions use every core unless told.
#[test]
fn solve_uses_every_core_unless_told() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let ffo1 = include_str!("data/fforum-1-19.obf").lines().next().unwrap();
    let threads = |args: &[&str]| {
        let out = magpie_with_input(&[&["solve", "-", "--json", "--no-progress"], args].concat(), ffo1);
        json_lines(&out).last().unwrap()["threads"].as_u64()
    };
    assert_eq!(threads(&[]), Some(cores.min(256)));
    assert_eq!(threads(&["--threads", "1"]), Some(1));
}

/// Bad input on standard input is refused as for a file, naming `<stdin>` and the line.
#[test]
fn bad_input_on_stdin_is_refused_naming_the_line() {
    let ffo1 = include_str!("data/fforum-1-19.obf").lines().next().unwrap();
    let out = magpie_with_input(&["solve", "-", "--no-progress"], &format!("{ffo1}\n{}; A1:+3;\n", &ffo1[..66]));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: <stdin> line 2: ") && err.contains("a1"), "{err}");
    let out = magpie_with_input(&["solve", "-", "--no-progress"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("<stdin>: no position in it"));
}
