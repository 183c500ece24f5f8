//! Magpie's hand-made evaluation (`Eval heuristic`): the default before the trained pattern
//! evaluation, and still the one of the 4x4 and 6x6 boards.
//!
//! It combines the features strong players reason with: mobility (moves now), potential mobility
//! (the opponent's frontier discs, i.e. moves to come), corners, the X- and C-squares next to empty
//! corners, stable discs, the disc count and parity (who gets the last move). Each feature has a
//! weight at five stages of the game (board 0, ¼, ½, ¾ and completely filled), interpolated in
//! between.
//!
//! The features and their form are hand-made; the weights are fitted by least squares to the
//! perfect-play results of the 124,106 WTHOR tournament games (`magpie fit-eval --wthor <dir>`,
//! which also measures the error on games kept out of the fit: 15.2 discs, against 19.3 for the
//! weights first set by hand).

use super::EvalPart;
use super::features::{Geometry, frontier, mobility};
use crate::board::stability::stable_discs;
use crate::board::{BoardSize, Position};

/// The features' names, in the order of [`features`].
pub const FEATURE_NAMES: [&str; 8] =
    ["mobility", "potential-mobility", "corners", "x-squares", "c-squares", "stability", "discs", "parity"];

/// The stages the weights are given at: phases 0, 16, 32, 48 and 64 (see [`phase`]).
pub const STAGES: usize = 5;

/// Centi-discs per unit of each feature at each stage, from `magpie fit-eval` on WTHOR.
pub const WEIGHTS: [[i32; 8]; STAGES] = [
    [8, -2, 623, -842, 97, 441, 17, -48],
    [168, 163, 637, -839, 126, 454, 3, 16],
    [173, 156, 549, -608, -1, 183, 12, 17],
    [156, 95, 252, -275, -56, 96, 19, -10],
    [86, 71, 24, 20, -14, 35, 20, 63],
];

/// The weight of each feature at `phase`, interpolated between the two stages around it.
pub fn weights_at(table: &[[i32; 8]; STAGES], phase: i32) -> [i32; 8] {
    let span = 64 / (STAGES as i32 - 1);
    let stage = ((phase / span) as usize).min(STAGES - 2);
    let into = phase - stage as i32 * span;
    let mut w = [0; 8];
    for (i, slot) in w.iter_mut().enumerate() {
        *slot = (table[stage][i] * (span - into) + table[stage + 1][i] * into) / span;
    }
    w
}

/// The raw feature values (side to move minus opponent), in the order of [`FEATURE_NAMES`].
pub fn features(pos: &Position) -> [i32; 8] {
    let g = Geometry::of(pos.size());
    let (p, o) = (pos.player(), pos.opponent());
    let empties = !(p | o) & g.playable;
    let (my_moves, their_moves) = mobility(p, o, g.playable);
    let count = |b: u64| b.count_ones() as i32;

    let mobility = count(my_moves) - count(their_moves);
    let potential = count(frontier(o, empties)) - count(frontier(p, empties));
    let corners = count(p & g.corners) - count(o & g.corners);
    let (mut x, mut c) = (0, 0);
    for i in 0..4 {
        if empties & g.corner_list[i] != 0 {
            x += count(p & g.x_squares[i]) - count(o & g.x_squares[i]);
            c += count(p & g.c_squares[i]) - count(o & g.c_squares[i]);
        }
    }
    let stable = if pos.size() == BoardSize::Eight {
        // The solver's stability: faster, and it finds more (edges from a table of every edge).
        count(stable_discs(p, o)) - count(stable_discs(o, p))
    } else {
        count(g.stable_discs(p, o)) - count(g.stable_discs(o, p))
    };
    let discs = count(p) - count(o);
    let parity = if count(empties) % 2 == 1 { 1 } else { -1 };
    [mobility, potential, corners, x, c, stable, discs, parity]
}

/// How far the game is, 0 (start) to 64 (board full), for blending the weights.
pub fn phase(pos: &Position) -> i32 {
    let squares = pos.size().squares() as i32;
    let played = squares - pos.empty_count() as i32 - 4;
    (played * 64 / (squares - 4)).clamp(0, 64)
}

/// The evaluation in centi-discs for the side to move, within ±6400.
pub fn evaluate(pos: &Position) -> i32 {
    let weights = weights_at(&WEIGHTS, phase(pos));
    let total: i32 = weights.iter().zip(features(pos)).map(|(w, v)| w * v).sum();
    total.clamp(-6400, 6400)
}

/// Each feature's raw value and its weighted contribution.
pub fn parts(pos: &Position) -> Vec<EvalPart> {
    let weights = weights_at(&WEIGHTS, phase(pos));
    FEATURE_NAMES
        .iter()
        .zip(weights)
        .zip(features(pos))
        .map(|((&name, w), raw)| EvalPart { name, raw, score: w * raw })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;

    #[test]
    fn start_positions_are_balanced() {
        // Symmetric: every feature is even at the start but parity, which belongs to the mover.
        for size in BoardSize::ALL {
            let start = Position::start(size);
            let parts = parts(&start);
            for part in &parts {
                assert_eq!(part.raw == 0, part.name != "parity", "{size} {}", part.name);
            }
            let parity = parts.iter().find(|p| p.name == "parity").map_or(0, |p| p.score);
            assert_eq!(evaluate(&start), parity, "{size}");
        }
    }

    #[test]
    fn weights_interpolate_between_stages() {
        let table = [[0; 8], [16; 8], [32; 8], [48; 8], [64; 8]];
        for phase in 0..=64 {
            assert_eq!(weights_at(&table, phase), [phase; 8]);
        }
        assert_eq!(weights_at(&WEIGHTS, 0), WEIGHTS[0]);
        assert_eq!(weights_at(&WEIGHTS, 64), WEIGHTS[4]);
        assert_eq!(weights_at(&WEIGHTS, 32), WEIGHTS[2]);
    }

    #[test]
    fn parts_add_up_and_mirror() {
        let pos = Position::initial().play("f5".parse().unwrap()).play("d6".parse().unwrap());
        let sum: i32 = parts(&pos).iter().map(|p| p.score).sum();
        assert_eq!(sum.clamp(-6400, 6400), evaluate(&pos));
        // Swapping sides negates every feature except parity.
        let swapped = parts(&pos.pass());
        for (a, b) in parts(&pos).iter().zip(&swapped) {
            if a.name != "parity" {
                assert_eq!(a.raw, -b.raw, "{}", a.name);
            }
        }
    }

    #[test]
    fn owning_a_corner_is_good() {
        // Black owns a1 and h8 otherwise symmetric material: Black to move should be ahead.
        let black = 1u64 | (1 << 63) | (1 << 28) | (1 << 35);
        let white = (1 << 27) | (1 << 36);
        let pos = Position::from_discs(black, white, crate::board::Color::Black, BoardSize::Eight).unwrap();
        assert!(evaluate(&pos) > 500, "{}", evaluate(&pos));
    }
}
