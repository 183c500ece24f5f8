//! The pattern evaluation's weight files from the outside: the engine loads one with `--weights`
//! or `setoption name Weights`, refuses a damaged or foreign one with one clear line and keeps
//! what it had; `magpie train` and `magpie probcut` write files the engine reads back.

mod common;

use common::{Engine, TempDir};
use magpie::eval::weights::Weights;
use std::process::Command;

/// The weights built into the binary, as a file.
fn embedded_file() -> Vec<u8> {
    std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/src/eval/pattern.weights")).expect("the embedded weights")
}

fn eval_total(e: &mut Engine) -> String {
    e.send("eval");
    e.until("eval total").pop().expect("a total")
}

#[test]
fn bad_weight_files_are_refused_and_the_weights_stay() {
    let dir = TempDir::new("weights-bad");
    let garbage = dir.join("garbage.bin");
    std::fs::write(&garbage, b"not weights at all").unwrap();
    let mut damaged_bytes = embedded_file();
    let middle = damaged_bytes.len() / 2;
    damaged_bytes[middle] ^= 0x10;
    let damaged = dir.join("damaged.bin");
    std::fs::write(&damaged, &damaged_bytes).unwrap();
    let mut version_bytes = embedded_file();
    version_bytes[8] = 99;
    let version = dir.join("version.bin");
    std::fs::write(&version, &version_bytes).unwrap();

    let mut e = Engine::start(&[]);
    e.send("position startpos moves f5 d6 c3");
    let before = eval_total(&mut e);
    for (path, reason) in [
        (garbage.display().to_string(), "not a Magpie weight file"),
        (damaged.display().to_string(), "damaged"),
        (version.display().to_string(), "version 99"),
        (dir.join("missing.bin").display().to_string(), "No such file"),
    ] {
        e.send(&format!("setoption name Weights value {path}"));
        let line = e.recv();
        assert!(line.starts_with("info string error: setoption Weights: "), "{line}");
        assert!(line.contains(&path) && line.contains(reason), "{line}");
        assert_eq!(eval_total(&mut e), before, "the weights in use stay");
    }
    // A good file loads without a word, and <embedded> goes back.
    let good = dir.join("good.bin");
    std::fs::write(&good, embedded_file()).unwrap();
    e.send(&format!("setoption name Weights value {}", good.display()));
    assert_eq!(eval_total(&mut e), before);
    e.send("setoption name Weights value <embedded>");
    assert_eq!(eval_total(&mut e), before);

    // On the command line, a bad file stops the engine before it reads anything.
    let out = Command::new(env!("CARGO_BIN_EXE_magpie")).arg("--weights").arg(&damaged).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--weights") && stderr.contains("damaged"), "{stderr}");
}

#[test]
fn the_embedded_weights_have_probcut_fits_and_round_trip() {
    let bytes = embedded_file();
    let weights = Weights::from_bytes(&bytes).unwrap();
    assert_eq!(weights.to_bytes(), bytes);
    assert!(!weights.probcut().is_empty(), "the shipped weights carry their Multi-ProbCut fits");
}
