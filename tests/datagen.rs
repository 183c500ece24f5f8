//! `magpie datagen` end to end, run as the real binary: the file parses as samples, the bytes are
//! the same for one thread or two, two shards concatenated hold the same records as one run, the
//! solved records agree with the solver, and bad arguments and paths give one-line errors; and
//! `magpie relabel` on its files.
//! Tiny settings keep it to a second or so in release mode.

mod common;

use common::TempDir;
use magpie::board::{BoardSize, Color, Position};
use magpie::eval::EvalKind;
use magpie::formats::samples::{EXACT_DEPTH, RECORD_LEN, Sample, Source, parse_samples};
use magpie::search::{NoControl, SearchRequest, Searcher};
use std::path::Path;
use std::process::{Command, Output};

const DEPTH: u8 = 2;
const EXACT_EMPTIES: u32 = 8;

/// Runs `magpie datagen` with the tiny settings (seed 5 unless `extra` gives one) and `extra`.
fn datagen(out: &Path, extra: &[&str]) -> Output {
    let seed: &[&str] = if extra.contains(&"--seed") { &[] } else { &["--seed", "5"] };
    Command::new(env!("CARGO_BIN_EXE_magpie"))
        .args(["datagen", "--games", "6", "--depth", "2", "--exact-empties", "8", "--random-plies", "6"])
        .args(seed)
        .args(["--no-progress", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .expect("magpie runs")
}

/// Runs datagen, checks that it succeeded with its one statistics line, and returns the file.
fn generate(out: &Path, extra: &[&str]) -> Vec<u8> {
    let run = datagen(out, extra);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.starts_with("datagen: "), "{stdout}");
    std::fs::read(out).expect("the samples file")
}

/// A run that fails: its one line on stderr.
fn refused(run: &Output) -> String {
    let err = String::from_utf8_lossy(&run.stderr).to_string();
    assert!(!run.status.success(), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(run.stdout.is_empty());
    err
}

fn sorted(mut samples: Vec<Sample>) -> Vec<[u8; RECORD_LEN]> {
    let mut bytes: Vec<_> = samples.drain(..).map(|s| s.to_bytes()).collect();
    bytes.sort_unstable();
    bytes
}

#[test]
fn samples_are_valid_reproducible_and_shard() {
    let dir = TempDir::new("datagen");
    let one = generate(&dir.join("one.bin"), &["--threads", "1"]);
    assert!(!one.is_empty());
    assert_eq!(one.len() % RECORD_LEN, 0);
    let samples = parse_samples(&one).expect("valid samples");
    let stats = String::from_utf8_lossy(&datagen(&dir.join("again.bin"), &[]).stdout).to_string();
    assert!(
        stats.starts_with(&format!("datagen: 6 games, {} positions (", samples.len()))
            && stats.ends_with("shard 0/1, seed 5\n"),
        "{stats}"
    );

    let two = generate(&dir.join("two.bin"), &["--threads", "2"]);
    assert_eq!(one, two, "the bytes depend on the number of threads");

    let mut shards = generate(&dir.join("shard0.bin"), &["--shard", "0/2", "--threads", "2"]);
    shards.extend(generate(&dir.join("shard1.bin"), &["--shard", "1/2"]));
    let shards = parse_samples(&shards).expect("valid shards");
    assert_eq!(sorted(shards), sorted(samples.clone()));

    let other_seed = generate(&dir.join("seed6.bin"), &["--seed", "6"]);
    assert_ne!(one, other_seed);

    let mut searcher = Searcher::with_hash(16).expect("a table");
    let mut solved = 0;
    for sample in &samples {
        assert_eq!(sample.source, Source::SelfPlay);
        let pos = Position::from_player_opponent(sample.player, sample.opponent, Color::Black, BoardSize::Eight);
        assert!(!pos.legal_moves().is_empty(), "a position that must pass was recorded: {pos}");
        if sample.depth != EXACT_DEPTH {
            assert_eq!(sample.depth, DEPTH);
            assert!(sample.empties() > EXACT_EMPTIES);
            continue;
        }
        assert!(sample.empties() <= EXACT_EMPTIES);
        // Every fourth solved position is checked against a fresh solve.
        solved += 1;
        if solved % 4 == 1 {
            searcher.clear();
            let result = searcher.search(&SearchRequest::new(pos, EvalKind::Heuristic), &mut NoControl, &mut |_| {});
            assert!(result.info.exact);
            assert_eq!(i32::from(sample.score), result.info.score, "{pos}");
        }
    }
    assert!(solved >= 6, "each game ends in solved positions: {solved}");
}

#[test]
fn bad_shards_and_paths_are_refused() {
    let dir = TempDir::new("datagen-bad");
    for shard in ["3/2", "1/0", "x", "1/1"] {
        let err = refused(&datagen(&dir.join("bad.bin"), &["--shard", shard]));
        assert!(err.contains(&format!("'{shard}'")) && err.contains("--shard"), "{err}");
    }
    assert!(!dir.join("bad.bin").exists(), "a refused command line wrote the file");
    let missing = dir.join("no-such-directory").join("out.bin");
    let err = refused(&datagen(&missing, &[]));
    assert!(err.contains(&missing.display().to_string()), "{err}");
    assert!(refused(&datagen(&dir.join("bad.bin"), &["--random-rate", "101"])).contains("101"));
}

#[test]
fn an_empty_shard_writes_an_empty_file() {
    let dir = TempDir::new("datagen-empty");
    let out = dir.join("empty.bin");
    assert!(generate(&out, &["--shard", "7/8"]).is_empty());
    assert_eq!(dir.entries(), vec!["empty.bin".to_string()]);
}

/// `magpie relabel` scores a datagen file's searched records again and keeps the exact ones; at
/// the depth that made them it writes the same bytes, for any number of threads.
#[test]
fn relabel_scores_the_records_again() {
    let dir = TempDir::new("relabel");
    let original = generate(&dir.join("sp.bin"), &[]);
    let relabel = |depth: &str, threads: &str, out: &str| -> Vec<u8> {
        let run = Command::new(env!("CARGO_BIN_EXE_magpie"))
            .args(["relabel", "--depth", depth, "--threads", threads, "--no-progress", "--out"])
            .arg(dir.join(out))
            .arg(dir.join("sp.bin"))
            .output()
            .expect("magpie runs");
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(run.status.success(), "{stdout}{}", String::from_utf8_lossy(&run.stderr));
        assert!(stdout.starts_with("relabel: ") && stdout.lines().count() == 1, "{stdout}");
        std::fs::read(dir.join(out)).expect("the relabelled file")
    };
    assert_eq!(relabel("2", "2", "same.bin"), original, "datagen's own depth gives its own labels");
    let deeper = relabel("3", "1", "d3.bin");
    assert_eq!(relabel("3", "2", "d3-two.bin"), deeper, "the bytes depend on the number of threads");
    let (before, after) = (parse_samples(&original).unwrap(), parse_samples(&deeper).unwrap());
    assert_eq!(before.len(), after.len());
    let mut changed = 0;
    for (old, new) in before.iter().zip(&after) {
        assert_eq!((old.player, old.opponent, old.source), (new.player, new.opponent, new.source));
        if old.depth == EXACT_DEPTH {
            assert_eq!(old, new);
        } else {
            assert_eq!(new.depth, 3);
            changed += usize::from(old.score != new.score);
        }
    }
    assert!(changed > 0, "a depth-3 search scores some positions otherwise than a depth-2 one");
    let err = refused(
        &Command::new(env!("CARGO_BIN_EXE_magpie"))
            .args(["relabel", "--depth", "0", "--out"])
            .arg(dir.join("bad.bin"))
            .arg(dir.join("sp.bin"))
            .output()
            .unwrap(),
    );
    assert!(err.contains("--depth") && err.contains("'0'"), "{err}");
}
