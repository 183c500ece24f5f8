//! The examples of the README, of protocol.md and of docs/, run against the built binary, so that
//! the documentation cannot drift from what Magpie does.
//!
//! - Every document: in ```text blocks, a line `$ <command>` is run (through `sh`, with `magpie`
//!   and `target/release/magpie` meaning the built binary, from the repository's top folder) and
//!   the lines after it, up to the next command or the end of the block, are its expected output.
//! - protocol.md: in ``` blocks, `> <line>` is sent to one engine session (its protocol is that of
//!   the section the block is in, or its command line is given by a first line `$ magpie <args>`)
//!   and `< <line>` is an expected answer, in order; in a block of
//!   error examples, each line is `<command>  <answer>` (two blanks or more between).
//!
//! In expected output, a line `…` stands for any number of lines, and what varies from run to run
//! is compared loosely: speeds (`nps`, `leaves/s`), times (`time`, the seconds of `===` and
//! `nodestats`), in `magpie solve`'s table a time in seconds (`0.011s`) and the speed after it,
//! and in JSON lines the values of `time`, `nps` and `time_per_game`.

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

/// A JSON line with the values of its timing fields replaced by a placeholder.
fn loose_json(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = ["\"time\":", "\"nps\":", "\"time_per_game\":"]
        .iter()
        .filter_map(|key| rest.find(key).map(|i| i + key.len()))
        .min()
    {
        out.push_str(&rest[..at]);
        out.push('#');
        let end = rest[at..].find([',', '}']).map_or(rest.len(), |i| at + i);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Replaces what varies between runs by a placeholder.
fn loose(line: &str) -> String {
    if line.starts_with('{') {
        return loose_json(line);
    }
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

/// Runs a documented command line through `sh` in the repository's top folder, `magpie` being
/// the built binary (as the first word, and after a `|`).
fn run_shell(command: &str) -> Vec<String> {
    let bin = env!("CARGO_BIN_EXE_magpie");
    let command = command.replace("target/release/magpie", bin);
    let command = command.replacen("magpie ", &format!("{bin} "), usize::from(command.starts_with("magpie ")));
    let command = command.replace("| magpie ", &format!("| {bin} "));
    let command = match command.strip_suffix("| magpie") {
        Some(head) => format!("{head}| {bin}"),
        None => command,
    };
    let out =
        Command::new("sh").arg("-c").arg(&command).current_dir(env!("CARGO_MANIFEST_DIR")).output().expect("sh runs");
    assert!(out.status.success(), "{command}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

/// The documents whose `$` examples are run: the README, protocol.md and every file of docs/.
fn documents() -> Vec<String> {
    let mut names = vec!["README.md".to_string(), "protocol.md".to_string()];
    let folder = format!("{}/docs", env!("CARGO_MANIFEST_DIR"));
    let mut docs: Vec<String> = std::fs::read_dir(&folder)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| name.ends_with(".md"))
                .map(|name| format!("docs/{name}"))
                .collect()
        })
        .unwrap_or_default();
    docs.sort();
    names.extend(docs);
    names
}

/// Runs the `$` examples of `document`; returns how many ran.
fn run_examples(document: &str) -> usize {
    let mut run = 0;
    for block in blocks(&read(document)).into_iter().filter(|b| b.info == "text") {
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
            check(&format!("{document}: {command}"), &expected, &run_shell(&command));
            run += 1;
        }
    }
    run
}

#[test]
fn documented_examples_are_what_magpie_prints() {
    let mut run = 0;
    for document in documents() {
        run += run_examples(&document);
    }
    assert!(run >= 10, "{run} examples");
    assert!(run_examples("README.md") >= 3, "the README shows what Magpie prints");
}

/// The README quotes today's `bench` node count: its example runs `magpie bench`, whose last line
/// holds the count, so a change to the search that moves it must update the README.
#[test]
fn the_readme_quotes_todays_bench() {
    let readme = read("README.md");
    let bench: Vec<String> = run_shell("magpie bench");
    let total = bench.last().expect("a total line");
    let nodes = total.split("nodes ").nth(1).and_then(|rest| rest.split(',').next()).expect("a node count");
    assert!(readme.contains("$ magpie bench"), "the README shows a bench run");
    assert!(readme.contains(&format!("nodes {nodes},")), "the README's bench figure is not today's {nodes}");
}

/// The README installs the versions of Cargo.lock (a plain `cargo install --path .` resolves newer
/// crates), under a package name free on crates.io (`magpie` there is another project's) whose
/// binary is still `magpie`, and says so.
#[test]
fn the_readme_installs_with_the_lock_under_the_package_name() {
    let readme = read("README.md");
    assert!(readme.contains("cargo install --locked --path ."), "the README's install command uses the lock");
    assert!(!readme.contains("cargo install --path"), "no install without the lock");
    let manifest = read("Cargo.toml");
    let package = manifest.split("[package]").nth(1).unwrap().split("\n[").next().unwrap();
    let name = package.lines().find_map(|l| l.strip_prefix("name = ")).unwrap().trim_matches('"');
    assert_ne!(name, "magpie", "the package name is taken on crates.io");
    assert!(readme.contains(&format!("`{name}`")), "the README names the package {name}");
    let bin = manifest.split("[[bin]]").nth(1).unwrap();
    assert!(bin.lines().any(|l| l == "name = \"magpie\""), "the binary stays magpie");
}

/// The documents agree with the code on how the search runs in parallel: the search module's
/// first lines say so, as docs/search.md does.
#[test]
fn the_search_docs_name_its_parallel_search() {
    let module = read("src/search/mod.rs");
    let summary: String = module.lines().take_while(|l| l.starts_with("//!") && l.len() > 3).collect();
    assert!(summary.contains("young-brothers-wait") && !summary.contains("lazy SMP"), "{summary}");
    assert!(read("docs/search.md").contains("young brothers wait"));
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

/// A heading's anchor as GitHub makes it: lower case, punctuation dropped, blanks made hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every link from one document to another (or to a heading) leads somewhere: the file exists and,
/// when the link names a heading, the file has it.
#[test]
fn links_between_documents_resolve() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for document in documents() {
        let text = read(&document);
        let folder = std::path::Path::new(&document).parent().unwrap_or(std::path::Path::new("")).to_path_buf();
        for link in text.split("](").skip(1).filter_map(|rest| rest.split(')').next()) {
            if link.starts_with("http") || link.contains(' ') {
                continue;
            }
            let (file, heading) = link.split_once('#').unwrap_or((link, ""));
            let target = if file.is_empty() { document.clone() } else { folder.join(file).display().to_string() };
            assert!(root.join(&target).exists(), "{document}: link to {link}: no {target}");
            if !heading.is_empty() {
                let anchors: Vec<String> = read(&target)
                    .lines()
                    .filter_map(|l| l.strip_prefix('#'))
                    .map(|l| anchor(l.trim_start_matches('#')))
                    .collect();
                assert!(
                    anchors.iter().any(|a| a == heading),
                    "{document}: link to {link}: no such heading in {target}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked} links");
}
