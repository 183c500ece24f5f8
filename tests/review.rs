//! `magpie review`, driven as a user would: the endgames of recorded games judged by exact solves,
//! and files that cannot be read refused in one line.

mod common;

use common::TempDir;
use std::process::{Command, Output};

fn magpie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_magpie")).args(args).output().expect("the binary runs")
}

const GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ntest-TestGames.ggf");

#[test]
fn reviews_every_player_of_every_game() {
    let out = magpie(&["review", GAMES, "--from", "12", "--threads", "1", "--no-progress"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "reviewing 12 games from 12 empties (exact, selectivity 5, 1 thread, 64 MiB table)", "{text}");
    // The twelve games are Saio1200's, against Saio3000 (10), Saio2400 and cruel+; each player
    // moves about half of the last 12 squares, and these engines solve them perfectly.
    let row = |name: &str| {
        let line = lines.iter().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name}: {text}"));
        line.split_whitespace().skip(1).collect::<Vec<_>>()
    };
    assert_eq!(row("Saio1200")[0], "12");
    assert_eq!(row("Saio3000")[0], "10");
    assert_eq!(row("Saio2400")[0], "1");
    assert_eq!(row("cruel+")[0], "1");
    for name in ["Saio1200", "Saio3000", "Saio2400", "cruel+"] {
        let r = row(name);
        let games: usize = r[0].parse().unwrap();
        let moves: usize = r[1].parse().unwrap();
        assert!(moves >= 5 * games && moves <= 7 * games, "{name}: {text}");
        assert_eq!(&r[2..], ["0", "0.000", "0"], "{name}: {text}");
    }
    assert!(lines.last().unwrap().starts_with("time "), "{text}");
    // A line per game first, with its players and its opening (the first game opens d3 c5 f6 f5
    // e6 e3 c3 d2: the No-Kung, turned about the a1-h8 diagonal).
    let games: Vec<&&str> = lines.iter().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 12, "{text}");
    assert_eq!(*games[0], "game 1: Saio1200 vs Saio3000, opening: No-Kung", "{text}");
    assert!(games.iter().all(|l| !l.ends_with("opening: (none)")), "every game opens from the start: {text}");
}

#[test]
fn moves_before_the_exact_part_are_judged_by_a_search() {
    let row = |args: &[&str], name: &str| {
        let out = magpie(args);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let line = text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{text}")).to_string();
        (text, line.split_whitespace().skip(1).map(str::to_string).collect::<Vec<_>>())
    };
    let (text, deep) =
        row(&["review", GAMES, "--from", "40", "--exact", "12", "--depth", "4", "--no-progress"], "Saio1200");
    assert!(
        text.starts_with("reviewing 12 games from 40 empties (depth 4 above 12 empties, exact below, selectivity 5,"),
        "{text}"
    );
    let (_, exact) = row(&["review", GAMES, "--from", "12", "--no-progress"], "Saio1200");
    let moves = |r: &[String]| r[1].parse::<usize>().unwrap();
    // Saio1200 plays about half of the 40 last moves of its 12 games.
    assert!(moves(&deep) >= 12 * 19 && moves(&deep) <= 12 * 21, "{deep:?}");
    assert!(moves(&deep) > moves(&exact));
    // A depth-4 search finds fault with some of a strong engine's middle-game moves.
    assert!(deep[2].parse::<usize>().unwrap() > 0, "{deep:?}");
}

#[test]
fn an_unreadable_game_or_file_is_one_error_line() {
    let dir = TempDir::new("review");
    let broken = dir.join("broken.ggf");
    let good = std::fs::read_to_string(GAMES).unwrap();
    let first = good.lines().next().unwrap();
    std::fs::write(
        &broken,
        format!(
            "{first}\n(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[Z9];)\n"
        ),
    )
    .unwrap();
    let missing = dir.join("missing.ggf");
    for (args, token) in [
        (vec!["review".to_string(), broken.display().to_string()], "game 2".to_string()),
        (vec!["review".to_string(), missing.display().to_string()], missing.display().to_string()),
        (vec!["review".to_string(), GAMES.to_string(), "--from".to_string(), "61".to_string()], "'61'".to_string()),
        (vec!["review".to_string(), "/dev/zero".to_string()], "/dev/zero: not a regular file".to_string()),
        (vec!["review".to_string(), GAMES.to_string(), "--exact".to_string(), "31".to_string()], "'31'".to_string()),
    ] {
        let out = magpie(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(&token), "{args:?} should name {token}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
