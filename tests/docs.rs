//! The examples of the README and of protocol.md, run against the built binary, so that the
//! documentation cannot drift from what Magpie does.
//!
//! - README: in ```text blocks, a line `$ <command>` is run (through `sh`, with `magpie` and
//!   `target/release/magpie` meaning the built binary) and the lines after it, up to the next
//!   command or the end of the block, are its expected output.
//! - protocol.md: in ``` blocks, `> <line>` is sent to one engine session (its protocol is that of
//!   the section the block is in, or its command line is given by a first line `$ magpie <args>`)
//!   and `< <line>` is an expected answer, in order; in a block of
//!   error examples, each line is `<command>  <answer>` (two blanks or more between).
//!
//! In expected output, a line `…` stands for any number of lines, and what varies from run to run
//! is compared loosely: speeds (`nps`, `leaves/s`), times (`time`, the seconds of `===` and
//! `nodestats`), and in `magpie solve`'s table a time in seconds (`0.011s`) and the speed after it.

mod common;

use common::Engine;
use std::process::Command;

fn read(name: &str) -> String {
    let path = format!("{}/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A fenced block: its info string (`text`, `sh`, or empty), its lines, and the last `##` heading
/// above it.
struct Block {
    info: String,
    lines: Vec<String>,
    section: String,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut section = String::new();
    let mut current: Option<Block> = None;
    for line in text.lines() {
        if let Some(info) = line.strip_prefix("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => current = Some(Block { info: info.to_string(), lines: Vec::new(), section: section.clone() }),
            }
        } else if let Some(block) = &mut current {
            block.lines.push(line.to_string());
        } else if let Some(heading) = line.strip_prefix("## ") {
            section = heading.to_string();
        }
    }
    blocks
}

/// Whether `word` is a time in seconds as `magpie solve` writes it in its table: `0.011s`.
fn is_seconds(word: &str) -> bool {
    word.strip_suffix('s').is_some_and(|n| n.contains('.') && n.parse::<f64>().is_ok())
}

/// Replaces what varies between runs by a placeholder.
fn loose(line: &str) -> String {
    if line.split_whitespace().any(is_seconds) {
        // A row of `magpie solve`'s table: its time and speed vary, and so do their columns' widths.
        let mut out: Vec<&str> = Vec::new();
        let mut words = line.split_whitespace();
        while let Some(word) = words.next() {
            if is_seconds(word) {
                out.push("#");
                if words.next().is_some() {
                    out.push("#");
                }
            } else {
                out.push(word);
            }
        }
        return out.join(" ");
    }
    let words: Vec<&str> = line.split(' ').collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        out.push(word.to_string());
        let varies = matches!(word, "nps" | "time" | "leaves/s:" | "time:") && i + 1 < words.len();
        if varies {
            out.push("#".to_string());
            i += 1;
        }
        i += 1;
    }
    let mut line = out.join(" ");
    if line.starts_with("nodestats ") {
        let mut words: Vec<&str> = line.split(' ').collect();
        words.truncate(2);
        line = words.join(" ") + " #";
    }
    if line.starts_with("=== ") && line.matches('/').count() == 2 {
        line = line[..line.rfind('/').unwrap_or(line.len())].to_string() + "/#";
    }
    line
}

/// Checks `actual` against `expected` (with `…` lines), loosely; panics with both on a mismatch.
fn check(what: &str, expected: &[String], actual: &[String]) {
    let mut a = 0;
    let mut skipping = false;
    for want in expected {
        if want.trim() == "…" {
            skipping = true;
            continue;
        }
        loop {
            let Some(got) = actual.get(a) else {
                panic!("{what}: expected {want:?}, output ended\nexpected: {expected:#?}\nactual: {actual:#?}");
            };
            a += 1;
            if loose(got) == loose(want) {
                skipping = false;
                break;
            }
            assert!(skipping, "{what}: expected {want:?}, got {got:?}\nexpected: {expected:#?}\nactual: {actual:#?}");
        }
    }
    assert!(skipping || a == actual.len(), "{what}: more output than documented: {:#?}", &actual[a..]);
}

/// Runs a README command line through `sh`, `magpie` being the built binary.
fn run_shell(command: &str) -> Vec<String> {
    let bin = env!("CARGO_BIN_EXE_magpie");
    let command = command.replace("target/release/magpie", bin);
    let command = command.replacen("magpie ", &format!("{bin} "), usize::from(command.starts_with("magpie ")));
    let out = Command::new("sh").arg("-c").arg(&command).output().expect("sh runs");
    assert!(out.status.success(), "{command}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

#[test]
fn readme_examples_are_what_magpie_prints() {
    let mut run = 0;
    for block in blocks(&read("README.md")).into_iter().filter(|b| b.info == "text") {
        let mut commands: Vec<(String, Vec<String>)> = Vec::new();
        for line in block.lines {
            match line.strip_prefix("$ ") {
                Some(command) => commands.push((command.to_string(), Vec::new())),
                None => {
                    if let Some((_, expected)) = commands.last_mut() {
                        expected.push(line);
                    }
                }
            }
        }
        for (command, expected) in commands {
            check(&command, &expected, &run_shell(&command));
            run += 1;
        }
    }
    assert!(run >= 4, "{run} README examples");
}

/// The protocol a section of protocol.md is about, as `--protocol` names it.
fn protocol_of(section: &str) -> &'static str {
    if section.starts_with("NBoard") {
        "nboard"
    } else if section.starts_with("GTP") {
        "gtp"
    } else {
        "ugi"
    }
}

/// Reads Magpie's answers for `expected`: as many lines as documented, or, with `…`, until the line
/// after it comes.
fn answers(e: &mut Engine, expected: &[String]) -> Vec<String> {
    let mut got = Vec::new();
    let mut pending = expected.iter().filter(|l| l.trim() != "…").count();
    let mut it = expected.iter().peekable();
    while let Some(want) = it.next() {
        if want.trim() == "…" {
            let Some(next) = it.peek().map(|l| loose(l)) else { break };
            loop {
                let line = e.recv();
                let done = loose(&line) == next;
                got.push(line);
                if done {
                    pending -= 1;
                    it.next();
                    break;
                }
            }
        } else {
            got.push(e.recv());
            pending -= 1;
        }
    }
    assert_eq!(pending, 0);
    got
}

#[test]
fn protocol_sessions_are_what_magpie_answers() {
    let mut sessions = 0;
    for block in blocks(&read("protocol.md")) {
        if !block.lines.iter().any(|l| l.starts_with("> ")) {
            continue;
        }
        // A first line `$ magpie <args>` gives the engine's command line.
        let args: Vec<String> = match block.lines.first().and_then(|l| l.strip_prefix("$ magpie ")) {
            Some(args) => args.split_whitespace().map(str::to_string).collect(),
            None => vec!["--protocol".to_string(), protocol_of(&block.section).to_string()],
        };
        let mut e = Engine::start(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let mut expected: Vec<String> = Vec::new();
        let flush = |e: &mut Engine, expected: &mut Vec<String>| {
            if !expected.is_empty() {
                let got = answers(e, expected);
                check(&format!("protocol.md, {}", block.section), expected, &got);
                expected.clear();
            }
        };
        for line in &block.lines {
            if let Some(sent) = line.strip_prefix("> ") {
                flush(&mut e, &mut expected);
                e.send(sent);
            } else if let Some(answer) = line.strip_prefix('<') {
                expected.push(answer.strip_prefix(' ').unwrap_or(answer).to_string());
            }
        }
        flush(&mut e, &mut expected);
        sessions += 1;
    }
    assert!(sessions >= 3, "{sessions} sessions");
}

#[test]
fn protocol_error_examples_are_what_magpie_answers() {
    let mut checked = 0;
    for block in blocks(&read("protocol.md")) {
        let pairs: Vec<(&str, &str)> = block
            .lines
            .iter()
            .filter_map(|l| l.split_once("  ").map(|(a, b)| (a.trim(), b.trim())))
            .filter(|(_, b)| b.starts_with("info string error") || b.starts_with('?'))
            .collect();
        if pairs.is_empty() {
            continue;
        }
        let protocol = protocol_of(&block.section);
        for (command, answer) in pairs {
            // A remark in parentheses after the answer says when it holds.
            let answer = answer.split("  ").next().unwrap();
            let mut e = Engine::start(&["--protocol", protocol]);
            if protocol == "ugi" {
                e.send("position startpos");
            }
            e.send(command);
            assert_eq!(e.recv(), answer, "protocol.md, {}: {command}", block.section);
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} error examples");
}
