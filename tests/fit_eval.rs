//! `magpie fit-eval` end to end on a small WTHOR file written here from random games, and the
//! WTHOR reader on the same bytes.

mod common;

use common::Rng;
use magpie::board::{Move, Position};
use magpie::formats::wthor::parse_wtb;
use std::process::Command;

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
    let dir = common::TempDir::new("fit-eval");
    let path = dir.join("games.wtb");
    std::fs::write(&path, random_wtb(60, 9)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_magpie"))
        .args(["fit-eval", "--wthor", path.to_str().unwrap()])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("60 games (0 skipped as illegal)"), "{text}");
    assert!(text.contains("held-out error"), "{text}");
    let rows = text.lines().filter(|l| l.trim_start().starts_with('[') && l.trim_end().ends_with("],")).count();
    assert_eq!(rows, 5, "{text}");
    let missing =
        Command::new(env!("CARGO_BIN_EXE_magpie")).args(["fit-eval", "--wthor", "/nonexistent"]).output().unwrap();
    assert!(!missing.status.success());
    assert_eq!(String::from_utf8_lossy(&missing.stderr).lines().count(), 1);
}
