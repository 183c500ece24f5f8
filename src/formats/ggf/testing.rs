//! Helpers for the GGF modules' unit tests.

use super::GgfGame;
use crate::board::Move;
use std::time::Duration;

pub(super) const START_BO: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

pub(super) fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

pub(super) fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

pub(super) fn game(text: &str) -> GgfGame {
    GgfGame::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

pub(super) fn error(text: &str) -> String {
    match GgfGame::parse(text) {
        Ok(g) => panic!("{text} parsed: {g}"),
        Err(e) => e.to_string(),
    }
}

/// Black to move with no legal move (white a1 b1, black c1) while White can play d1.
pub(super) const BLACK_MUST_PASS: &str =
    "BO[8 O O * ----- -------- -------- -------- -------- -------- -------- -------- *]";
