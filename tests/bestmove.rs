//! `magpie bestmove` driven as a script would: every move scored in one call (`--multipv`), checked
//! against separate searches of each move, and the JSON's fields, which say what a score is.

mod common;

use std::process::Command;

/// FFO #1: 14 empties, 8 legal moves, each with its exact score in the file.
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

fn magpie(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_magpie")).args(args).output().expect("the binary runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&magpie(&[args, &["--json"]].concat())).unwrap()
}

fn position(obf: &str) -> &str {
    obf.split(';').next().unwrap()
}

/// The score of `mv` played in `fen`, searched on its own with `args`, for the side that played it.
fn separate_score(fen: &str, mv: &str, args: &[&str]) -> f64 {
    let answer = json(&[&["bestmove", "--fen", fen, "--moves", mv, "--no-book"], args].concat());
    -answer["score"].as_f64().unwrap()
}

#[test]
fn every_move_solved_in_one_call_as_separate_solves_score_it() {
    let fen = position(FFO_1);
    let answer = json(&["bestmove", "--fen", fen, "--depth", "60", "--multipv", "all"]);
    let lines = answer["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 8, "every legal move: {answer}");
    let listed: Vec<(String, f64)> = FFO_1
        .split(';')
        .skip(1)
        .filter(|i| !i.trim().is_empty())
        .map(|i| {
            let (mv, score) = i.trim().split_once(':').unwrap();
            (mv.to_lowercase(), score.parse().unwrap())
        })
        .collect();
    for line in lines {
        let mv = line["move"].as_str().unwrap();
        assert_eq!((line["solved"].as_bool(), line["score_kind"].as_str()), (Some(true), Some("value")), "{line}");
        let score = line["score"].as_f64().unwrap();
        assert_eq!(score, separate_score(fen, mv, &["--depth", "60"]), "{mv}");
        assert!(listed.contains(&(mv.to_string(), score)), "{mv} {score} against the file's {listed:?}");
        assert_eq!(line["pv"][0], mv);
    }
    let scores: Vec<f64> = lines.iter().map(|l| l["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "best first: {scores:?}");
    assert_eq!((answer["move"].as_str(), answer["score"].as_f64()), (Some("g8"), Some(18.0)));
    // The text: a line a move, in the one-move form.
    let text = magpie(&["bestmove", "--fen", fen, "--depth", "60", "--multipv", "3"]);
    assert_eq!(text, "g8 +18.00 exact\nh1 +12.00 exact\nh7 +6.00 exact\n");
}

#[test]
fn depth_limited_lines_are_what_each_move_searched_alone_scores() {
    // Selectivity 0, so that a move's score does not hang on the window it was searched in.
    let args = ["--selectivity", "0"];
    let fen = "------------------X--------XX------OXX-----O-------------------- O";
    let answer = json(&[&["bestmove", "--fen", fen, "--depth", "8", "--multipv", "all"], &args[..]].concat());
    let lines = answer["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 4, "{answer}");
    for line in lines {
        let mv = line["move"].as_str().unwrap();
        let alone = separate_score(fen, mv, &[&["--depth", "7"], &args[..]].concat());
        assert_eq!(line["score"].as_f64(), Some(alone), "{mv}: {line}");
        assert_eq!((line["depth"].as_u64(), line["solved"].as_bool()), (Some(8), Some(false)));
    }
    // The N best of all moves are the lines of --multipv N.
    let two = json(&[&["bestmove", "--fen", fen, "--depth", "8", "--multipv", "2"], &args[..]].concat());
    let scores = |a: &serde_json::Value| -> Vec<f64> {
        a["lines"].as_array().unwrap().iter().map(|l| l["score"].as_f64().unwrap()).collect()
    };
    assert_eq!(scores(&two), scores(&answer)[..2]);
}

#[test]
fn a_wld_solve_scores_every_move_win_draw_or_loss() {
    let fen = position(FFO_1);
    let text = magpie(&["bestmove", "--fen", fen, "--depth", "60", "--wld", "--multipv", "all"]);
    let words: Vec<(&str, &str)> = text.lines().map(|l| l.split_once(' ').unwrap()).collect();
    assert_eq!(words.len(), 8, "{text}");
    for (mv, word) in words {
        let exact = separate_score(fen, mv, &["--depth", "60"]);
        let want = if exact > 0.0 {
            "win"
        } else if exact < 0.0 {
            "loss"
        } else {
            "draw"
        };
        assert_eq!(word, want, "{mv} is worth {exact}");
    }
}

/// The JSON says what a score is in two fields that cannot contradict each other: `score_kind`
/// (the value, or a bound on it) and `solved` (searched to the end of the game).
#[test]
fn the_json_says_what_a_score_is() {
    let fen = position(FFO_1);
    let kind = |a: &serde_json::Value| (a["score_kind"].as_str().map(str::to_string), a["solved"].as_bool());
    let depth_limited = json(&["bestmove", "--fen", fen, "--depth", "4"]);
    assert_eq!(kind(&depth_limited), (Some("value".to_string()), Some(false)), "{depth_limited}");
    let solved = json(&["bestmove", "--fen", fen, "--depth", "60"]);
    assert_eq!(kind(&solved), (Some("value".to_string()), Some(true)));
    let wld = json(&["bestmove", "--fen", fen, "--depth", "60", "--wld"]);
    assert_eq!(kind(&wld), (Some("lower_bound".to_string()), Some(true)), "a win is a bound: {wld}");
    assert_eq!(wld["result"], "win");
    let level_0 = json(&["bestmove", "--fen", fen, "--level", "0"]);
    assert!(level_0["score"].is_number(), "the random mover's move is scored by the evaluation: {level_0}");
    for answer in [&depth_limited, &solved, &wld] {
        assert!(answer.get("bound").is_none() && answer.get("exact").is_none(), "the old fields: {answer}");
        assert_eq!(answer["lines"].as_array().map(Vec::len), Some(1));
    }
}

#[test]
fn multipv_refuses_what_it_cannot_do() {
    for bad in ["0", "65", "-1", "some"] {
        let out = Command::new(env!("CARGO_BIN_EXE_magpie")).args(["bestmove", "--multipv", bad]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(err.contains(&format!("'{bad}'")) && err.contains("1 to 64, or all"), "{bad}: {err}");
    }
    // A position that must pass has one line, the pass; a finished game none but its result.
    let must_pass = format!("-O{} O", "X".repeat(62));
    assert_eq!(magpie(&["bestmove", "--fen", &must_pass, "--multipv", "all"]), "pass -64.00 exact\n");
    let over = format!("{} O", "X".repeat(64));
    assert_eq!(magpie(&["bestmove", "--fen", &over, "--multipv", "all"]), "none -64.00 exact\n");
}

/// The four first moves are one move in four mirrors: Magpie plays and shows f5, as players,
/// books and GUIs write it, from its book and from its search, in every protocol; the book's
/// randomness still draws the others.
#[test]
fn the_start_is_answered_f5_as_players_write_it() {
    let first_word = |text: String| text.split_whitespace().next().unwrap_or_default().to_string();
    assert_eq!(first_word(magpie(&["bestmove"])), "f5", "from the book");
    assert_eq!(first_word(magpie(&["bestmove", "--no-book", "--depth", "8"])), "f5", "from the search");
    // Every move scored: f5 first, its three images beside it with its score.
    let text = magpie(&["bestmove", "--no-book", "--depth", "8", "--multipv", "all"]);
    let lines: Vec<(&str, &str)> = text.lines().map(|l| l.split_once(' ').unwrap()).collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[0].0, "f5");
    let mut moves: Vec<&str> = lines.iter().map(|l| l.0).collect();
    moves.sort_unstable();
    assert_eq!(moves, ["c4", "d3", "e6", "f5"]);
    assert!(lines.iter().all(|l| l.1 == lines[0].1), "one score: {text}");
    // The principal variations are the mirror images of f5's.
    let answer = json(&["bestmove", "--no-book", "--depth", "4", "--multipv", "all"]);
    let pv = |mv: &str| -> Vec<String> {
        let lines = answer["lines"].as_array().unwrap();
        let line = lines.iter().find(|l| l["move"] == mv).unwrap();
        line["pv"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect()
    };
    // The half turn maps f5 to c4: a square (c, r) to (9 - c, 9 - r).
    let turned: Vec<String> = pv("f5")
        .iter()
        .map(|m| {
            let b = m.as_bytes();
            format!("{}{}", (b'a' + b'h' - b[0]) as char, (b'1' + b'8' - b[1]) as char)
        })
        .collect();
    assert_eq!(pv("c4"), turned);
    // The protocols.
    let session = |args: &[&str], input: &str| String::from_utf8(common::run_with_input(args, input).stdout).unwrap();
    for own_book in ["true", "false"] {
        let ugi = session(&["--own-book", own_book], "position startpos\ngo depth 6\n");
        assert!(ugi.ends_with("bestmove f5\n"), "{ugi}");
        let gtp = session(&["--own-book", own_book, "--protocol", "gtp"], "clear_board\ngenmove b\n");
        assert!(gtp.contains("= F5"), "{gtp}");
    }
    // Randomness draws among the four.
    let drawn: std::collections::BTreeSet<String> = (1..=16)
        .map(|seed| first_word(magpie(&["bestmove", "--book-randomness", "0.5", "--book-seed", &seed.to_string()])))
        .collect();
    assert!(drawn.len() > 1 && drawn.iter().all(|m| ["c4", "d3", "e6", "f5"].contains(&m.as_str())), "{drawn:?}");
}
