//! Text forms: every form parses what it prints, every FFO line of the suite parses with its scores,
//! and arbitrary text gives an error, never a panic.

mod common;

use common::Rng;
use magpie::board::{BoardSize, Game, Move, Position};
use magpie::formats::{
    ObfLine, ascii_board, compact_moves, parse_ascii_board, parse_moves, parse_position, spaced_moves,
};
use proptest::prelude::*;

fn ffo_lines() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    ["fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf", "fforum-60-79.obf"]
        .iter()
        .flat_map(|name| {
            let text = std::fs::read_to_string(format!("{dir}/{name}")).expect("FFO file is readable");
            text.lines().filter(|l| !l.trim().is_empty()).map(str::to_string).collect::<Vec<_>>()
        })
        .collect()
}

/// FFO #n (the files hold #1-#79 in order, one a line).
fn ffo(n: usize) -> ObfLine {
    let lines = ffo_lines();
    assert_eq!(lines.len(), 79, "19 + 20 + 20 + 20 positions");
    lines[n - 1].parse().expect("FFO line parses")
}

#[test]
fn every_ffo_line_parses_and_prints_back() {
    for line in ffo_lines() {
        let obf: ObfLine = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(obf.to_string(), line.trim_end());
        assert!(!obf.scores.is_empty());
        // Best first, as the format promises.
        assert_eq!(Some(obf.scores[0].1), obf.best_score());
        assert!(obf.scores.iter().all(|(mv, _)| obf.position.is_legal(*mv)));
    }
}

#[test]
fn ffo_40_to_59_best_moves_and_scores() {
    // OTHELLO-FACTS.md, the table of #40-#59.
    let table = [
        (40, 20, 38, "a2"),
        (41, 22, 0, "h4"),
        (42, 22, 6, "g2"),
        (43, 23, -12, "g3 c7"),
        (44, 23, -14, "d2 b8"),
        (45, 24, 6, "b2"),
        (46, 24, -8, "b3"),
        (47, 25, 4, "g2"),
        (48, 25, 28, "f6"),
        (49, 26, 16, "e1"),
        (50, 26, 10, "d8"),
        (51, 27, 6, "e2 a3"),
        (52, 27, 0, "a3"),
        (53, 28, -2, "d8"),
        (54, 28, -2, "c7"),
        (55, 29, 0, "g6 b7 e2 g4"),
        (56, 29, 2, "h5"),
        (57, 30, -10, "a6"),
        (58, 30, 4, "g1"),
        (59, 34, 64, "h4 g8 e8"),
    ];
    for (n, empties, score, best) in table {
        let line = ffo(n);
        assert_eq!(line.position.empty_count(), empties, "FFO #{n}");
        assert_eq!(line.best_score(), Some(score), "FFO #{n}");
        let mut expected = parse_moves(best).unwrap();
        let mut found = line.best_moves();
        expected.sort();
        found.sort();
        assert_eq!(found, expected, "FFO #{n}");
    }
}

#[test]
fn ffo_scores_count_empties_for_the_winner() {
    // #5, #11, #20 and #31 give +32, +30, +6 and -2 under the empties-to-winner rule.
    for (n, score) in [(5, 32), (11, 30), (20, 6), (31, -2)] {
        assert_eq!(ffo(n).best_score(), Some(score), "FFO #{n}");
    }
}

/// A random game of random length on a random board size.
fn random_game(seed: u64) -> Game {
    let mut rng = Rng::new(seed);
    let size = BoardSize::ALL[rng.below(3)];
    let mut game = Game::new(Position::start(size));
    let plies = rng.below(70);
    for _ in 0..plies {
        let pos = *game.position();
        if pos.is_game_over() {
            break;
        }
        let mv = if pos.must_pass() {
            Move::Pass
        } else {
            let moves: Vec<_> = pos.legal_moves().iter().collect();
            Move::Play(moves[rng.below(moves.len())])
        };
        game.play_strict(mv).expect("legal");
    }
    game
}

/// Rewrites the canonical text with the other accepted spellings.
fn respell(text: &str, rng: &mut Rng) -> String {
    text.chars()
        .map(|c| {
            let options: &[char] = match c {
                'X' => &['X', 'x', '*', 'b', 'B'],
                'O' => &['O', 'o', 'w', 'W', '0'],
                '-' => &['-', '.', '_'],
                other => return other,
            };
            options[rng.below(options.len())]
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn position_text_round_trips(seed in any::<u64>()) {
        let game = random_game(seed);
        let pos = *game.position();
        let text = pos.to_string();
        prop_assert_eq!(parse_position(&text), Ok(pos));
        let mut rng = Rng::new(seed ^ 0x55);
        prop_assert_eq!(parse_position(&respell(&text, &mut rng)), Ok(pos));
        // Rows written apart, as GGS does.
        let n = pos.size().side();
        let (squares, side) = text.split_at(n * n);
        let rows: Vec<String> = squares.as_bytes().chunks(n).map(|c| String::from_utf8_lossy(c).to_string()).collect();
        prop_assert_eq!(parse_position(&format!("{}{}", rows.join(" "), side)), Ok(pos));
    }

    #[test]
    fn ascii_board_round_trips(seed in any::<u64>()) {
        let pos = *random_game(seed).position();
        prop_assert_eq!(parse_ascii_board(&ascii_board(&pos)), Ok(pos));
    }

    #[test]
    fn move_lists_round_trip_and_replay(seed in any::<u64>()) {
        let game = random_game(seed);
        for text in [compact_moves(game.moves()), spaced_moves(game.moves())] {
            let moves = parse_moves(&text).unwrap();
            prop_assert_eq!(&moves, game.moves());
            let mut replay = Game::new(*game.start());
            replay.play_all(&moves).unwrap();
            prop_assert_eq!(replay.position(), game.position());
            // Leaving the passes out gives the same game.
            let without: Vec<Move> = moves.iter().copied().filter(|m| *m != Move::Pass).collect();
            let mut implicit = Game::new(*game.start());
            implicit.play_all(&without).unwrap();
            let ends_in_pass = game.moves().last() == Some(&Move::Pass);
            if !ends_in_pass {
                prop_assert_eq!(implicit.position(), game.position());
            }
        }
    }

    #[test]
    fn obf_lines_round_trip(seed in any::<u64>()) {
        let pos = *random_game(seed).position();
        let mut rng = Rng::new(seed ^ 0xabc);
        let scores: Vec<(Move, i32)> = if pos.must_pass() {
            vec![(Move::Pass, rng.below(129) as i32 - 64)]
        } else {
            pos.legal_moves().iter().map(|sq| (Move::Play(sq), rng.below(129) as i32 - 64)).collect()
        };
        let line = ObfLine { position: pos, scores, score: None };
        prop_assert_eq!(line.to_string().parse::<ObfLine>(), Ok(line));
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,80}") {
        let _ = parse_position(&text);
        let _ = parse_moves(&text);
        let _ = text.parse::<ObfLine>();
        let _ = parse_ascii_board(&text);
    }

    #[test]
    fn board_like_text_never_panics(text in "[-XOxo*bw.0_ ]{0,70}[;:+0-9A-Ha-hPp ]{0,30}") {
        let _ = parse_position(&text);
        let _ = text.parse::<ObfLine>();
        let _ = parse_ascii_board(&text);
    }
}

#[test]
fn illegal_moves_in_a_list_are_reported_with_their_place() {
    let moves = parse_moves("f5 d6 a1").unwrap();
    let mut game = Game::default();
    let (index, err) = game.play_all(&moves).unwrap_err();
    assert_eq!(index, 2);
    assert_eq!(err.mv.to_string(), "a1");
    assert!(err.to_string().contains("a1"));
    assert_eq!(game, Game::default());
}
