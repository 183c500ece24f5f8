//! `magpie analyze`, driven as a user would: a game with a known blunder found and classed, its
//! values those of `magpie bestmove`, the picture well-formed with a point per move, the JSON
//! readable, and bad input refused in one line.

mod common;

use common::TempDir;
use serde_json::Value;
use std::process::{Command, Output};

fn magpie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_magpie")).args(args).output().expect("the binary runs")
}

const GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ntest-TestGames.ggf");

/// The first 40 moves of the first game of `GAMES` (Saio1200 against Saio3000, a draw by
/// perfect play from there), then Black's b2, an X-square that hands White the a1 corner, and
/// White's a1.
const OPENING: &str = "d3c5f6f5e6e3c3d2c4b5f4d6f3b4c7d7c6e7b6f7a5a4e8f8d8e2a3c8b3a6c1a2f1g6g5h5g4h3h4c2";

/// The game: `OPENING`, then b2 and a1.
fn blunder_game() -> String {
    format!("{OPENING}b2a1")
}

/// The JSON lines of a run.
fn json_lines(out: &Output) -> Vec<Value> {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect()
}

/// The exact value of the position after `moves` for its side to move, by `magpie bestmove`.
fn exact_value(moves: &str) -> (String, f64) {
    let out = magpie(&["bestmove", "--moves", moves, "--depth", "60", "--no-book", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).expect("bestmove's JSON");
    assert_eq!(v["solved"], true, "{v}");
    (v["move"].as_str().unwrap().to_string(), v["score"].as_f64().unwrap())
}

#[test]
fn a_corner_given_away_is_a_blunder_and_the_values_are_exact() {
    let game = blunder_game();
    let out = magpie(&["analyze", "--moves", &game, "--depth", "4", "--exact", "20", "--threads", "1", "--json"]);
    let lines = json_lines(&out);
    let moves: Vec<&Value> = lines.iter().filter(|l| l["type"] == "move").collect();
    assert_eq!(moves.len(), 42);
    let b2 = moves[40];
    assert_eq!(
        (b2["number"].as_u64(), b2["move"].as_str(), b2["color"].as_str()),
        (Some(41), Some("b2"), Some("black"))
    );
    assert_eq!(b2["empties"], 20);
    assert_eq!(b2["exact"], true);
    assert_eq!(b2["class"], "blunder", "{b2}");
    // Checked by exact solves: the position before b2, and the one after it, for White.
    let (_, before) = exact_value(OPENING);
    let (reply, after) = exact_value(&format!("{OPENING}b2"));
    assert_eq!(reply, "a1", "White takes the corner");
    assert_eq!(b2["best_value"].as_f64(), Some(before));
    assert_eq!(b2["value"].as_f64(), Some(-after));
    assert_eq!(b2["loss"].as_f64(), Some(before + after));
    assert!(before + after >= 8.0, "a blunder loses 8 discs or more: {before} {after}");
    assert_ne!(b2["best"], "b2");
    // White's a1 is the best move: no loss.
    assert_eq!(moves[41]["class"], "best");
    let black = lines.iter().find(|l| l["type"] == "player" && l["color"] == "black").unwrap();
    assert_eq!(black["classes"]["blunder"], 1, "{black}");
    assert_eq!(black["moves"], 21);
    let first = &lines[0];
    assert_eq!((first["type"].as_str(), first["result"].as_i64()), (Some("game"), None), "unfinished: {first}");
    assert_eq!(lines.last().unwrap()["type"], "total");

    // The table says the same.
    let out = magpie(&["analyze", "--moves", &game, "--depth", "4", "--no-progress"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let row = text.lines().find(|l| l.trim_start().starts_with("41 ")).unwrap_or_else(|| panic!("{text}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&cells[..3], ["41", "Black", "b2"], "{row}");
    assert!(row.contains("blunder") && row.ends_with("exact"), "{row}");
    assert!(text.contains("opening: No-Kung"), "{text}");
}

#[test]
fn values_agree_with_bestmove_on_the_same_positions() {
    let lines = json_lines(&magpie(&[
        "analyze",
        GAMES,
        "--game",
        "2",
        "--depth",
        "7",
        "--exact",
        "14",
        "--selectivity",
        "3",
        "--threads",
        "2",
        "--json",
        "--no-progress",
    ]));
    let moves: Vec<&Value> = lines.iter().filter(|l| l["type"] == "move").collect();
    assert!(moves.len() >= 58, "{}", moves.len());
    let played: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    for i in [0, 9, 22, 35, 44] {
        let m = moves[i];
        assert_eq!(m["exact"], false);
        assert_eq!(m["depth"], 7);
        let prefix = played[..i].concat();
        let out = magpie(&[
            "bestmove",
            "--moves",
            &prefix,
            "--depth",
            "7",
            "--selectivity",
            "3",
            "--no-book",
            "--json",
            "--threads",
            "1",
        ]);
        let v: Value = serde_json::from_slice(&out.stdout).expect("bestmove's JSON");
        assert_eq!((&v["move"], &v["score"]), (&m["best"], &m["best_value"]), "move {}: {m}", i + 1);
    }
    // Exact from 14 empties down, whatever the search before.
    assert!(moves.iter().all(|m| m["exact"].as_bool() == Some(m["empties"].as_u64().unwrap() <= 14)));
}

#[test]
fn the_picture_is_well_formed_with_a_point_per_move() {
    let dir = TempDir::new("analyze");
    let svg = dir.join("game.svg");
    let out = magpie(&[
        "analyze",
        GAMES,
        "--game",
        "3",
        "--depth",
        "3",
        "--exact",
        "12",
        "--svg",
        svg.to_str().unwrap(),
        "--no-progress",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let points = doc.descendants().filter(|n| n.has_tag_name("circle") && n.attribute("class") == Some("move")).count();
    let table = String::from_utf8_lossy(&out.stdout);
    // The table's rows: a move number, then the player.
    let rows: Vec<Vec<&str>> = table
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|cells| cells.len() > 2 && cells[0].parse::<u32>().is_ok() && ["Black", "White"].contains(&cells[1]))
        .collect();
    assert_eq!(points, rows.len(), "{table}");
    assert!(points >= 58);
    // Every inaccuracy, mistake and blunder the table counts is ringed, by its class.
    for class in ["inaccuracy", "mistake", "blunder"] {
        let counted = rows.iter().filter(|cells| cells.contains(&class)).count();
        let rings =
            doc.descendants().filter(|n| n.has_tag_name("circle") && n.attribute("class") == Some(class)).count();
        assert_eq!(rings, counted, "{class}: {table}");
    }
    assert!(rows.iter().any(|cells| cells.contains(&"inaccuracy")), "the game has an inaccuracy: {table}");
    // The score axis: four ticks each side of 0, evenly spaced, the largest value within them.
    let ticks: Vec<f64> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("tick"))
        .map(|n| n.text().unwrap().replace('+', "").parse().unwrap())
        .collect();
    assert_eq!(ticks.len(), 9, "{ticks:?}");
    let step = ticks[1] - ticks[0];
    assert!(step > 0.0 && ticks.windows(2).all(|w| w[1] - w[0] == step) && ticks[4] == 0.0, "{ticks:?}");
    // The game stays close: a tick every few discs, not only at -8, 0 and +8.
    assert!(step <= 4.0, "{ticks:?}");
}

#[test]
fn a_match_games_given_opening_is_not_counted_to_the_players() {
    // As `magpie match` writes a game: the 10 moves of the opening without a time, then the
    // engines' moves with theirs.
    let game = blunder_game();
    let moves: Vec<String> = (0..game.len() / 2)
        .map(|i| {
            let (color, square) = (if i % 2 == 0 { 'B' } else { 'W' }, &game[2 * i..2 * i + 2]);
            if i < 10 { format!("{color}[{square}]") } else { format!("{color}[{square}//0.5]") }
        })
        .collect();
    let start = "---------------------------O*------*O---------------------------";
    let dir = TempDir::new("analyze-given");
    let file = dir.join("match.ggf");
    std::fs::write(&file, format!("(;GM[Othello]PB[one]PW[two]TY[8]BO[8 {start} *]{};)\n", moves.concat())).unwrap();
    let svg = dir.join("match.svg");
    let file = file.display().to_string();
    let args = ["analyze", &file, "--depth", "4", "--json", "--svg", svg.to_str().unwrap(), "--no-progress"];
    let lines = json_lines(&magpie(&args));
    let given: Vec<bool> =
        lines.iter().filter(|l| l["type"] == "move").map(|l| l["given"].as_bool().unwrap()).collect();
    assert_eq!(given.len(), 42);
    assert!(given.iter().enumerate().all(|(i, &g)| g == (i < 10)), "{given:?}");
    for line in lines.iter().filter(|l| l["type"] == "player") {
        assert_eq!(line["moves"], 16, "{line}");
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    assert_eq!(doc.descendants().filter(|n| n.attribute("class") == Some("given")).count(), 1);
    let table =
        String::from_utf8_lossy(&magpie(&["analyze", &file, "--depth", "4", "--no-progress"]).stdout).into_owned();
    assert!(table.contains("moves 1 to 10: the opening both players were given"), "{table}");
    assert!(table.lines().any(|l| l.trim_start().starts_with("10 ") && l.contains(" given ")), "{table}");
}

#[test]
fn unreadable_games_are_one_error_line() {
    let dir = TempDir::new("analyze-bad");
    let broken = dir.join("broken.ggf");
    std::fs::write(
        &broken,
        "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[Z9];)\n",
    )
    .unwrap();
    let wtb = dir.join("short.wtb");
    std::fs::write(&wtb, [20u8, 19, 1, 1, 5, 0, 0, 0]).unwrap();
    let svg_in_no_folder = dir.join("no-such-folder").join("x.svg");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec![broken.display().to_string()], "game 1"),
        (vec![GAMES.to_string(), "--game".into(), "13".into()], "no game 13"),
        (vec!["--moves".into(), "f5d6a1".into()], "a1"),
        (vec!["--moves".into(), "f5q9".into()], "q9"),
        (vec![wtb.display().to_string()], "short.wtb"),
        (vec![dir.join("missing.ggf").display().to_string()], "missing.ggf"),
        (vec!["--moves".into(), "f5".into(), "--exact".into(), "31".into()], "31"),
        (vec!["--moves".into(), "f5".into(), "--svg".into(), svg_in_no_folder.display().to_string()], "no-such-folder"),
        (vec![], "--moves"),
        (vec!["/dev/zero".into()], "/dev/zero: not a regular file"),
        (vec![dir.path().display().to_string()], "not a regular file"),
    ];
    for (args, token) in cases {
        let mut full = vec!["analyze".to_string()];
        full.extend(args.iter().cloned());
        let out = magpie(&full.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(token), "{args:?} should name {token}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
