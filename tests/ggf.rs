//! GGF games: every game of NTest's test file reads, replays and writes back to an equal game;
//! random games built with the builder survive writing and reading; and no text, however broken,
//! makes the reader panic.

mod common;

use common::Rng;
use magpie::board::{BoardSize, Color, Move, Position};
use magpie::formats::{Clock, GameEnd, GgfGame, GgfResult, parse_ggf_games};
use proptest::prelude::*;
use std::time::Duration;

fn test_games_text() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ntest-TestGames.ggf"))
        .expect("tests/data/ntest-TestGames.ggf is readable")
}

fn test_game_lines() -> Vec<String> {
    test_games_text().lines().filter(|l| !l.trim().is_empty()).map(str::to_string).collect()
}

#[test]
fn every_test_game_reads_replays_and_writes_back() {
    let lines = test_game_lines();
    assert_eq!(lines.len(), 12);
    for line in &lines {
        let game = GgfGame::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        // Every move is written out in these games (passes too), so nothing is inserted.
        let items = line.matches("]B[").count() + line.matches("]W[").count();
        assert_eq!(game.moves().len(), items, "{line}");
        assert_eq!(game.place(), Some("GGS/os"));
        assert_eq!(game.board_type(), Some("8"));
        assert_eq!(game.start(), Position::initial());
        assert!(game.clock(Color::Black).is_some_and(|c| c.grace == Duration::from_secs(120)));

        let replayed = game.game();
        assert_eq!(*replayed.start(), game.start());
        assert_eq!(replayed.moves(), game.moves().iter().map(|m| m.mv).collect::<Vec<_>>());
        assert_eq!(*replayed.position(), game.position());
        for (mv, pos) in game.moves().iter().zip(replayed.positions()) {
            assert_eq!(mv.color, pos.side_to_move());
        }

        let written = game.to_string();
        assert_eq!(GgfGame::parse(&written).as_ref(), Ok(&game), "{written}");
        assert_eq!(GgfGame::parse(&written).map(|g| g.to_string()), Ok(written));
    }
}

#[test]
fn test_games_details() {
    let games: Vec<GgfGame> = parse_ggf_games(&test_games_text()).into_iter().collect::<Result<_, _>>().unwrap();
    assert_eq!(games.len(), 12);
    // All twelve are played to the end; the first is a draw.
    assert!(games.iter().all(|g| g.position().is_game_over()));
    let first = &games[0];
    assert_eq!(first.player(Color::Black), Some("Saio1200"));
    assert_eq!(first.rating(Color::White), Some("2200.35"));
    assert_eq!(first.result(), Some(GgfResult::Score { black_net: 0.0, end: GameEnd::Normal }));
    assert_eq!(first.position().disc_counts(), (32, 32));
    assert_eq!(first.clock(Color::White), Some(Clock::new(Duration::from_secs(300))));
    // White's times in the first game add up to 145.67 s of its 5 minutes.
    let white_used: f64 = first.moves().iter().filter(|m| m.color == Color::White).filter_map(|m| m.time).sum();
    assert!((white_used - 145.67).abs() < 1e-9, "{white_used}");
    let left = first.time_left(Color::White).unwrap().as_secs_f64();
    assert!((left - 154.33).abs() < 1e-6, "{left}");
    // Passes are spelt `pass` and `PA//0.38` in the file.
    let passes: Vec<usize> = games.iter().map(|g| g.moves().iter().filter(|m| m.mv == Move::Pass).count()).collect();
    assert_eq!(passes, [0, 0, 1, 0, 1, 0, 0, 0, 1, 1, 0, 1]);
    assert_eq!(games[9].moves().iter().find(|m| m.mv == Move::Pass).and_then(|m| m.time), Some(0.38));
}

/// A random game on a random board, with random tags, evaluations and times, built with the
/// builder API; it may stop before the end, and may end on a pass.
fn random_game(rng: &mut Rng) -> GgfGame {
    let size = BoardSize::ALL[rng.below(3)];
    let mut game = GgfGame::new(Position::start(size));
    if rng.below(2) == 0 {
        game.set_player(Color::Black, format!("player{}", rng.below(1000)));
        game.set_player(Color::White, "white ] player\t2");
        game.set_place("test");
        game.set_date(format!("2025-{:02}-01", rng.below(12) + 1));
        game.set_rating(Color::White, "1999.5");
    }
    if rng.below(2) == 0 {
        let secs = |rng: &mut Rng, max| Duration::from_secs(rng.below(max) as u64);
        let clock = Clock { main: secs(rng, 200_000), increment: secs(rng, 30), grace: secs(rng, 300) };
        game.set_clock(clock);
        if rng.below(2) == 0 {
            game.set_player_clock(Color::White, Clock::new(Duration::from_millis(rng.below(1_000_000) as u64)));
        }
    }
    let length = rng.below(70);
    for _ in 0..length {
        let pos = game.position();
        if pos.is_game_over() {
            break;
        }
        let moves: Vec<Move> =
            if pos.must_pass() { vec![Move::Pass] } else { pos.legal_moves().iter().map(Move::Play).collect() };
        let mv = moves[rng.below(moves.len())];
        let number = |rng: &mut Rng| match rng.below(4) {
            0 => None,
            1 => Some((rng.below(12_801) as f64 - 6400.0) / 100.0),
            2 => Some(f64::from_bits(rng.next_u64())).filter(|x| x.is_finite()),
            _ => Some(rng.below(100_000) as f64 / 1000.0),
        };
        let (eval, time) = (number(rng), number(rng).map(f64::abs));
        game.push_move(mv, eval, time).expect("a legal move");
    }
    match rng.below(3) {
        0 => game.set_result(GgfResult::Unknown),
        1 => game.set_result(GgfResult::Score {
            black_net: game.position().final_score_for_black() as f64,
            end: [GameEnd::Normal, GameEnd::Resigned, GameEnd::Timeout, GameEnd::Agreement][rng.below(4)],
        }),
        _ => {}
    }
    game
}

#[test]
fn random_games_round_trip() {
    let mut rng = Rng::new(0x6767_6620_726f_756e);
    let mut passes = 0;
    for _ in 0..200 {
        let game = random_game(&mut rng);
        let written = game.to_string();
        assert!(!written.contains('\n'), "{written}");
        let read = GgfGame::parse(&written).unwrap_or_else(|e| panic!("{written}: {e}"));
        assert_eq!(read, game, "{written}");
        assert_eq!(read.to_string(), written);
        passes += game.moves().iter().filter(|m| m.mv == Move::Pass).count();
    }
    // The 4x4 and 6x6 games pass often: the round trip covers passes, trailing ones included.
    assert!(passes > 0);
}

/// The first test game, cut or spliced at random places.
fn mutated_game() -> impl Strategy<Value = String> {
    let line = test_game_lines().swap_remove(0);
    let chars: Vec<char> = line.chars().collect();
    let len = chars.len();
    (0..=len, 0..=len, "\\PC{0,3}|[\\[\\];()/*O\\- ]{0,3}", 0..3usize).prop_map(move |(a, b, insert, kind)| {
        let (a, b) = (a.min(b), a.max(b));
        match kind {
            0 => chars[..a].iter().collect(),
            1 => chars[..a].iter().chain(insert.chars().collect::<Vec<_>>().iter()).chain(&chars[a..]).collect(),
            _ => chars[..a].iter().chain(insert.chars().collect::<Vec<_>>().iter()).chain(&chars[b..]).collect(),
        }
    })
}

proptest! {
    #[test]
    fn arbitrary_text_gives_ok_or_err(text in "\\PC*") {
        let _ = GgfGame::parse(&text);
        let _ = parse_ggf_games(&text);
    }

    #[test]
    fn mutated_games_give_ok_or_err(text in mutated_game()) {
        // Whatever reads must write back to itself.
        if let Ok(game) = GgfGame::parse(&text) {
            prop_assert_eq!(GgfGame::parse(&game.to_string()), Ok(game));
        } else if let Err(e) = GgfGame::parse(&text) {
            prop_assert!(!e.to_string().contains('\n'));
        }
        let _ = parse_ggf_games(&text);
    }
}
