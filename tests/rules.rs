//! The bitboard rules against the array-based reference in `common`: legal moves, flips, passes,
//! game end and final scores over thousands of random games on every board size; perft of the
//! small boards; the known perfect-play result of 4x4.

mod common;

use common::{Cell, RefBoard, Rng};
use magpie::board::{BoardSize, Color, Convention, Move, Position, Square, perft};
use proptest::prelude::*;

fn square(row: usize, col: usize) -> Square {
    Square::from_coords(col as u8, row as u8).unwrap()
}

fn cell_of(color: Color) -> Cell {
    match color {
        Color::Black => Cell::Black,
        Color::White => Cell::White,
    }
}

/// Checks every rule the position answers against the reference board.
fn assert_same(pos: &Position, reference: &RefBoard) {
    assert_eq!(cell_of(pos.side_to_move()), reference.to_move);
    let n = reference.n;
    for row in 0..n {
        for col in 0..n {
            let sq = square(row, col);
            let cell = if pos.black().contains(sq) {
                Cell::Black
            } else if pos.white().contains(sq) {
                Cell::White
            } else {
                Cell::Empty
            };
            assert_eq!(cell, reference.cells[row][col], "square {sq}");
        }
    }
    let moves: Vec<Square> = pos.legal_moves().iter().collect();
    let expected: Vec<Square> = reference.moves().iter().map(|&(r, c)| square(r, c)).collect();
    assert_eq!(moves, expected, "legal moves of {pos}");
    for &(r, c) in &reference.moves() {
        let flips: Vec<Square> = pos.flips(square(r, c)).iter().collect();
        let mut expected: Vec<Square> =
            reference.flips_for(r, c, reference.to_move).iter().map(|&(r, c)| square(r, c)).collect();
        expected.sort();
        assert_eq!(flips, expected, "flips of {} in {pos}", square(r, c));
    }
    assert_eq!(pos.must_pass(), reference.must_pass(), "pass in {pos}");
    assert_eq!(pos.is_game_over(), reference.game_over(), "game over in {pos}");
    assert_eq!(pos.final_score(), reference.final_score(), "score of {pos}");
    assert_eq!(pos.disc_counts(), (reference.count(Cell::Black) as u32, reference.count(Cell::White) as u32));
    assert_eq!(pos.empty_count(), reference.count(Cell::Empty) as u32);
}

/// Plays one random game on both boards, comparing them at every ply.
fn random_game(size: BoardSize, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut pos = Position::start(size);
    let mut reference = RefBoard::start(size.side());
    loop {
        assert_same(&pos, &reference);
        if pos.is_game_over() {
            assert!(pos.try_play(Move::Pass).is_err());
            break;
        }
        if pos.must_pass() {
            pos = pos.try_play(Move::Pass).expect("a forced pass is legal");
            reference.pass();
            continue;
        }
        assert!(pos.try_play(Move::Pass).is_err(), "pass refused while moves exist");
        let moves = reference.moves();
        let (r, c) = moves[rng.below(moves.len())];
        pos = pos.try_play(Move::Play(square(r, c))).expect("reference move is legal");
        reference.play(r, c);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn random_8x8_games_follow_the_rules(seed in any::<u64>()) {
        random_game(BoardSize::Eight, seed);
    }

    #[test]
    fn random_6x6_games_follow_the_rules(seed in any::<u64>()) {
        random_game(BoardSize::Six, seed);
    }

    #[test]
    fn random_4x4_games_follow_the_rules(seed in any::<u64>()) {
        random_game(BoardSize::Four, seed);
    }

    /// Illegal moves are refused with the position unchanged, whatever the square.
    #[test]
    fn illegal_squares_are_refused(seed in any::<u64>(), index in 0u8..64) {
        let mut rng = Rng::new(seed);
        let mut pos = Position::initial();
        for _ in 0..rng.below(40) {
            let moves: Vec<Square> = pos.legal_moves().iter().collect();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
        let sq = Square::new(index).unwrap();
        let before = pos;
        let result = pos.try_play(Move::Play(sq));
        prop_assert_eq!(result.is_ok(), pos.legal_moves().contains(sq));
        prop_assert_eq!(pos, before);
    }
}

#[test]
fn small_board_perft_matches_the_reference() {
    let four = Position::start(BoardSize::Four);
    let four_ref = RefBoard::start(4);
    for depth in 0..=14 {
        assert_eq!(perft(&four, depth, Convention::Standard), four_ref.perft(depth), "4x4 depth {depth}");
    }
    let six = Position::start(BoardSize::Six);
    let six_ref = RefBoard::start(6);
    for depth in 0..=6 {
        assert_eq!(perft(&six, depth, Convention::Standard), six_ref.perft(depth), "6x6 depth {depth}");
    }
    let eight_ref = RefBoard::start(8);
    for depth in 0..=5 {
        assert_eq!(perft(&Position::initial(), depth, Convention::Standard), eight_ref.perft(depth));
    }
}

/// Plain minimax over the whole 4x4 tree, returning (score with empties to the winner, plain disc
/// difference) for the side to move.
fn solve(pos: &Position) -> (i32, i32) {
    if pos.is_game_over() {
        return (pos.final_score(), pos.disc_difference());
    }
    if pos.must_pass() {
        let (a, b) = solve(&pos.pass());
        return (-a, -b);
    }
    let mut best = (i32::MIN, i32::MIN);
    for sq in pos.legal_moves() {
        let (a, b) = solve(&pos.play(sq));
        best = (best.0.max(-a), best.1.max(-b));
    }
    best
}

#[test]
fn four_by_four_is_a_white_win_by_eight() {
    // OTHELLO-FACTS.md: White wins 11-3 with 2 squares empty: -8 plain, -10 with empties.
    assert_eq!(solve(&Position::start(BoardSize::Four)), (-10, -8));
}
