//! Magpie's hand-made evaluation, the default until the trained pattern evaluation arrives.
//!
//! It combines the features strong players reason with: mobility (moves now), potential mobility
//! (the opponent's frontier discs, i.e. moves to come), corners, the X- and C-squares next to empty
//! corners, stable discs, the disc count and parity (who gets the last move). Each feature has an
//! opening and an endgame weight, blended by how full the board is.

use super::EvalPart;
use super::features::{Geometry, frontier, mobility};
use crate::board::Position;

/// One feature's weights in centi-discs per unit: at the start and at the end of the game.
struct Weight {
    name: &'static str,
    opening: i32,
    endgame: i32,
}

const FEATURES: [Weight; 8] = [
    Weight { name: "mobility", opening: 70, endgame: 30 },
    Weight { name: "potential-mobility", opening: 25, endgame: 5 },
    Weight { name: "corners", opening: 700, endgame: 400 },
    Weight { name: "x-squares", opening: -350, endgame: -100 },
    Weight { name: "c-squares", opening: -120, endgame: -40 },
    Weight { name: "stability", opening: 80, endgame: 120 },
    Weight { name: "discs", opening: -5, endgame: 60 },
    Weight { name: "parity", opening: 0, endgame: 150 },
];

/// The raw feature values (side to move minus opponent), in the order of `FEATURES`.
fn features(pos: &Position) -> [i32; 8] {
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
    let stable = count(g.stable_discs(p, o)) - count(g.stable_discs(o, p));
    let discs = count(p) - count(o);
    let parity = if count(empties) % 2 == 1 { 1 } else { -1 };
    [mobility, potential, corners, x, c, stable, discs, parity]
}

/// How far the game is, 0 (start) to 64 (board full), for blending the weights.
fn phase(pos: &Position) -> i32 {
    let squares = pos.size().squares() as i32;
    let played = squares - pos.empty_count() as i32 - 4;
    (played * 64 / (squares - 4)).clamp(0, 64)
}

fn blend(w: &Weight, phase: i32) -> i32 {
    (w.opening * (64 - phase) + w.endgame * phase) / 64
}

/// The evaluation in centi-discs for the side to move, within ±6400.
pub fn evaluate(pos: &Position) -> i32 {
    let phase = phase(pos);
    let values = features(pos);
    let total: i32 = FEATURES.iter().zip(values).map(|(w, v)| blend(w, phase) * v).sum();
    total.clamp(-6400, 6400)
}

/// Each feature's raw value and its weighted contribution.
pub fn parts(pos: &Position) -> Vec<EvalPart> {
    let phase = phase(pos);
    FEATURES
        .iter()
        .zip(features(pos))
        .map(|(w, raw)| EvalPart { name: w.name, raw, score: blend(w, phase) * raw })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;

    #[test]
    fn start_positions_are_balanced() {
        // Symmetric: mobility, frontier, corners all even; parity counts for nothing at the start.
        for size in BoardSize::ALL {
            assert_eq!(evaluate(&Position::start(size)), 0, "{size}");
        }
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
