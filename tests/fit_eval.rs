//! `magpie fit-eval` end to end on a small WTHOR file written here from random games, the WTHOR
//! reader on the same bytes, and the one-line errors (exit status 2) for a `--wthor` path that
//! is missing, unreadable, broken or empty.

mod common;

use common::{Rng, TempDir};
use magpie::board::{Move, Position};
use magpie::formats::wthor::parse_wtb;
use std::path::Path;
use std::process::{Command, Output};

fn fit_eval(wthor: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_magpie")).arg("fit-eval").arg("--wthor").arg(wthor).output().expect("runs")
}

/// Checks that the run failed as a bad argument does (status 2, nothing on stdout) with one line
/// on stderr, and returns that line.
fn bad_argument(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(out.stdout.is_empty());
    err.trim_end().to_string()
}

/// A WTHOR file of `count` random games played to their end.
fn random_wtb(count: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut bytes = vec![20, 26, 11, 22];
    bytes.extend_from_slice(&(count as u32).to_le_bytes());
    bytes.extend_from_slice(&[0, 0]);
    bytes.extend_from_slice(&2026u16.to_le_bytes());
    bytes.extend_from_slice(&[8, 0, 22, 0]);
    for _ in 0..count {
        let mut pos = Position::initial();
        let mut moves = Vec::new();
        while !pos.is_game_over() {
            if pos.must_pass() {
                pos = pos.pass();
                continue;
            }
            let legal: Vec<_> = pos.legal_moves().iter().collect();
            let sq = legal[rng.below(legal.len())];
            moves.push(10 * (sq.row() + 1) + sq.col() + 1);
            pos = pos.play(sq);
        }
        let black = (pos.final_score_for_black() + 64) / 2;
        bytes.extend_from_slice(&[1, 0, 2, 0, 3, 0, black as u8, black as u8]);
        moves.resize(60, 0);
        bytes.extend_from_slice(&moves);
    }
    bytes
}

#[test]
fn the_reader_replays_what_was_written() {
    let bytes = random_wtb(30, 5);
    let (header, games) = parse_wtb(&bytes).unwrap();
    assert_eq!(header.games, 30);
    for game in games {
        let replayed = game.replay().unwrap();
        assert!(replayed.position().is_game_over());
        assert_eq!(replayed.position().final_score_for_black(), game.score_for_black());
        assert_eq!(replayed.moves().iter().filter(|m| **m != Move::Pass).count(), game.moves.len());
    }
}

#[test]
fn fit_eval_fits_and_prints_a_weight_table() {
    let dir = TempDir::new("fit");
    let path = dir.path().join("WTH_2026.wtb");
    std::fs::write(&path, random_wtb(60, 9)).unwrap();
    // The file itself, and the directory that holds it.
    for wthor in [path.as_path(), dir.path()] {
        let out = fit_eval(wthor);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with("60 games (0 skipped as illegal)"), "{text}");
        assert!(text.contains("held-out error"), "{text}");
        let rows = text.lines().filter(|l| l.trim_start().starts_with('[') && l.trim_end().ends_with("],")).count();
        assert_eq!(rows, 5, "{text}");
    }
}

#[test]
fn a_missing_wthor_path_is_a_bad_argument_named_in_one_line() {
    let err = bad_argument(&fit_eval(Path::new("/nonexistent")));
    assert_eq!(err, "error: --wthor /nonexistent: No such file or directory");
}

#[test]
fn unreadable_broken_and_empty_wthor_files_are_named() {
    let dir = TempDir::new("bad");
    // No .wtb file in the directory.
    std::fs::write(dir.path().join("README.txt"), "not a database").unwrap();
    let err = bad_argument(&fit_eval(dir.path()));
    assert_eq!(err, format!("error: --wthor {}: no WTHOR game there (expected WTH_*.wtb files)", dir.path().display()));

    // A file shorter than its header says: the file is named, in a directory or alone.
    let broken = dir.path().join("WTH_1999.wtb");
    let mut bytes = random_wtb(3, 1);
    bytes.truncate(100);
    std::fs::write(&broken, &bytes).unwrap();
    for wthor in [dir.path(), broken.as_path()] {
        let err = bad_argument(&fit_eval(wthor));
        assert!(err.starts_with(&format!("error: --wthor {}: not a WTHOR file: ", broken.display())), "{err}");
        assert!(err.contains("100 bytes"), "{err}");
    }
    std::fs::remove_file(&broken).unwrap();

    // A .wtb name that cannot be read as a file (a directory; root reads any file).
    let unreadable = dir.path().join("WTH_2000.wtb");
    std::fs::create_dir(&unreadable).unwrap();
    let err = bad_argument(&fit_eval(dir.path()));
    assert_eq!(err, format!("error: --wthor {}: Is a directory", unreadable.display()));
}
