//! Sessions recorded from real clients, replayed against the built engine: the NBoard GUI (a game,
//! a game with a pass, analysis, undo and learn) and gogui-twogtp, the standard GTP match tool.
//! The recordings are in `tests/data/transcripts/` (see its README).

mod common;

use common::Engine;
use magpie::board::{Color, Game, Move};
use magpie::formats::GgfGame;

fn transcript(name: &str) -> String {
    let path = format!("{}/tests/data/transcripts/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// What the NBoard GUI sent, in order: the lines between `## sent by NBoard` and the next `##`.
fn sent_by_nboard(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("## sent by NBoard"))
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .map(str::to_string)
        .collect()
}

/// The deepest search the replays let the GUI ask for, so that they run in seconds.
const MAX_DEPTH: u32 = 8;

/// Replays an NBoard GUI session as the GUI paces it: after `go` it waits for the move, after
/// `analyze` for the whole analysis, after `learn` for `learned`; other lines follow at once (a
/// `ping` stops what runs). Magpie plays with its built-in book, as a user's would. Depths
/// are capped at [`MAX_DEPTH`]. Checks every pong in order, every move legal in the game the GUI
/// described, every analysis value from Black's point of view, and no error. Returns every line
/// Magpie wrote.
fn replay_nboard(name: &str) -> Vec<String> {
    let mut e = Engine::start(&[]);
    let mut game = Game::default();
    let mut out = Vec::new();
    let mut pings = Vec::new();
    for line in sent_by_nboard(&transcript(name)) {
        let line = match line.strip_prefix("set depth ") {
            Some(depth) => format!("set depth {}", depth.parse::<u32>().unwrap().min(MAX_DEPTH)),
            None => line,
        };
        e.send(&line);
        let (command, args) = line.split_once(' ').unwrap_or((&line, ""));
        match command {
            "set" if args.starts_with("game ") => {
                let ggf: GgfGame = args["game ".len()..].parse().unwrap_or_else(|err| panic!("{line}: {err}"));
                game = ggf.game();
            }
            "move" => {
                let text = args.split('/').next().unwrap();
                let mv: Move = if text.eq_ignore_ascii_case("PA") { Move::Pass } else { text.parse().unwrap() };
                game.play_strict(mv).unwrap_or_else(|err| panic!("{line}: {err}"));
            }
            "ping" => pings.push(format!("pong {args}")),
            "go" => {
                let lines = e.until("===");
                let answer = lines.last().unwrap();
                let text = answer["=== ".len()..].split(['/', ' ']).next().unwrap();
                let mv: Move = if text == "PA" { Move::Pass } else { text.parse().unwrap() };
                assert!(game.position().is_legal(mv), "{name}: {answer} in {}", game.position());
                out.extend(lines);
            }
            "analyze" => {
                let lines = e.until("analysis 0 ");
                check_analysis(&game, &lines);
                out.extend(lines);
            }
            // The GUI waits for the answer before its next request.
            "learn" => out.extend(e.until("learned")),
            _ => {}
        }
    }
    e.send("ping 999999");
    pings.push("pong 999999".to_string());
    out.extend(e.until("pong 999999"));
    let (rest, status, stderr) = e.finish();
    assert!(rest.is_empty(), "{rest:?}");
    assert!(status.success(), "{stderr}");
    let pongs: Vec<&String> = out.iter().filter(|l| l.starts_with("pong ")).collect();
    assert_eq!(pongs, pings.iter().collect::<Vec<_>>(), "{name}: every ping answered, in order");
    assert!(out.iter().all(|l| !l.contains("error")), "{name}: {out:?}");
    out
}

/// The analysis of a finished game: the last value is the final score for Black, and positions
/// solved exactly keep Black's value whoever moves (no zigzag between +x and -x).
fn check_analysis(game: &Game, lines: &[String]) {
    let values: Vec<(usize, f64)> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("analysis "))
        .map(|rest| {
            let (n, v) = rest.split_once(' ').unwrap();
            (n.parse().unwrap(), v.parse().unwrap())
        })
        .collect();
    assert_eq!(values.len(), game.positions().len(), "{lines:?}");
    let last = game.positions().last().unwrap();
    assert!(last.is_game_over());
    assert_eq!(values[0], (game.positions().len() - 1, f64::from(last.final_score_for_black())));
    // In the recorded game both sides played the endgame perfectly, so every position solved
    // exactly has the final score for Black, whoever is to move there.
    for &(n, value) in &values {
        if game.positions()[n].empty_count() <= MAX_DEPTH {
            assert_eq!(value, f64::from(last.final_score_for_black()), "analysis {n}: {lines:?}");
        }
    }
}

#[test]
fn nboard_gui_game() {
    let out = replay_nboard("nboard-gui-game.txt");
    assert!(out.iter().filter(|l| l.starts_with("=== ")).count() >= 10, "{out:?}");
}

#[test]
fn nboard_gui_game_with_a_pass() {
    let out = replay_nboard("nboard-gui-pass.txt");
    assert!(out.iter().any(|l| l.starts_with("=== PA")), "the pass is answered PA: {out:?}");
}

#[test]
fn nboard_gui_analysis_undo_learn() {
    let out = replay_nboard("nboard-gui-analysis-undo-learn.txt");
    assert!(out.iter().any(|l| l == "learned"), "{out:?}");
}

/// The gogui-twogtp session: the commands it sent to Magpie as Black player (`B>>`) and as referee
/// (`R>>`), each to its own Magpie, with Black's `genmove` answers of the recording replayed as
/// `play` so that the game is the recorded one. Every answer must be `=`, including the pass sent
/// to the finished game, and the final score must be the recorded one.
#[test]
fn gogui_twogtp_session_gets_no_error() {
    let text = transcript("gogui-twogtp-othello.txt");
    let lines: Vec<&str> = text.lines().collect();
    for (role, colour) in [("B", Some(Color::Black)), ("R", None)] {
        let mut e = Engine::start(&["--protocol", "gtp", "--movetime", "20"]);
        let mut game = Game::default();
        let mut sent = 0;
        for (i, line) in lines.iter().enumerate() {
            let Some(command) = line.strip_prefix(&format!("{role}>> ")) else { continue };
            let command = if command.starts_with("genmove ") && colour.is_some() {
                // The recorded answer is on the next line: `B<< = D3`.
                let answer = lines[i + 1].strip_prefix(&format!("{role}<< = ")).expect("a genmove answer");
                format!("play b {answer}")
            } else {
                command.to_string()
            };
            e.send(&command);
            sent += 1;
            let mut answer = vec![e.recv()];
            while answer.last().is_some_and(|l| !l.is_empty()) {
                answer.push(e.recv());
            }
            assert!(answer[0].starts_with('='), "{role}: {command} → {answer:?}");
            if let Some(mv) = command.strip_prefix("play ") {
                let mv = mv.split_whitespace().nth(1).unwrap();
                let mv: Move = mv.parse().unwrap();
                if !game.position().is_game_over() {
                    game.play(mv).unwrap();
                }
            }
            if command == "final_score" {
                assert_eq!(answer[0], "= B+34");
                assert!(game.position().is_game_over());
                assert_eq!(game.position().final_score_for_black(), 34);
            }
        }
        assert!(sent > 60, "{role}: {sent} commands");
        let (_, status, _) = e.finish();
        assert!(status.success());
    }
}
