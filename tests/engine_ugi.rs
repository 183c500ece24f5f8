//! The engine over pipes, speaking Magpie's UGI-shaped protocol the way people, scripts and match
//! runners (cutegames) do: sessions, stop, isready during a search, passes, game over, end of input
//! in each state, a whole match-runner game, and garbage.

mod common;

use common::{Engine, Rng};
use magpie::board::{BoardSize, Color, Game, Move, Position};
use proptest::prelude::*;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `magpie` with `input` on stdin until it exits; returns stdout lines and the status.
fn run_piped(input: &str) -> (Vec<String>, std::process::ExitStatus) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_magpie"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("magpie starts");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("magpie exits");
    (String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect(), out.status)
}

/// The engine's arguments for tests of the search: no book, so that opening positions are
/// searched rather than answered from it.
const SEARCHING: &[&str] = &["--own-book", "false"];

fn bestmove_of(line: &str) -> &str {
    line.strip_prefix("bestmove ").unwrap_or_else(|| panic!("not a bestmove line: {line}"))
}

fn assert_legal_answer(pos: &Position, answer: &str) {
    if pos.is_game_over() {
        assert_eq!(answer, "none", "game over in {pos}");
        return;
    }
    let mv: Move = answer.parse().unwrap_or_else(|e| panic!("{answer}: {e}"));
    assert!(pos.is_legal(mv), "{answer} is not legal in {pos}");
}

/// A random position reached by a random game of random length on a random board size.
fn random_position(rng: &mut Rng) -> Position {
    let size = BoardSize::ALL[rng.below(3)];
    let mut pos = Position::start(size);
    let plies = rng.below(size.squares() as usize);
    for _ in 0..plies {
        if pos.is_game_over() {
            break;
        }
        pos = common::random_step(rng, &pos);
    }
    pos
}

#[test]
fn piped_session_prints_a_move_and_exits() {
    let (lines, status) = run_piped("position startpos\ngo movetime 500\n");
    assert!(status.success());
    let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 1, "{lines:?}");
    assert_legal_answer(&Position::initial(), bestmove_of(best[0]));
    assert!(lines.iter().any(|l| l.starts_with("info depth ")), "{lines:?}");
}

#[test]
fn handshake_lists_options_then_ugiok() {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    let lines = e.until("ugiok");
    assert!(lines[0].starts_with("id name Magpie"));
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for name in ["Eval", "Level", "MoveOverhead", "BoardSize"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {name} type "))), "{name}");
    }
    assert_eq!(lines.last().map(String::as_str), Some("ugiok"));
    e.send("uci");
    assert_eq!(e.until("uciok").last().map(String::as_str), Some("uciok"));
    e.send("isready");
    assert_eq!(e.recv(), "readyok");
}

#[test]
fn stop_ends_an_infinite_search_with_one_bestmove() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves f5 d6 c3");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let lines = e.until("bestmove");
    let pos = {
        let mut g = Game::default();
        g.play_all(&magpie::formats::parse_moves("f5d6c3").unwrap()).unwrap();
        *g.position()
    };
    assert_legal_answer(&pos, bestmove_of(lines.last().unwrap()));
    // Nothing else is owed: the next answer is readyok.
    e.send("isready");
    assert_eq!(e.recv(), "readyok");
    // A second stop with nothing running is ignored.
    e.send("stop");
    e.send("isready");
    assert_eq!(e.recv(), "readyok");
}

#[test]
fn isready_is_answered_during_a_search() {
    let mut e = Engine::start(SEARCHING);
    e.send("position startpos");
    e.send("go movetime 3000");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready");
    let lines = e.until("readyok");
    assert!(lines.iter().all(|l| l.starts_with("info ") || l == "readyok"), "{lines:?}");
    e.send("stop");
    let lines = e.until("bestmove");
    assert_legal_answer(&Position::initial(), bestmove_of(lines.last().unwrap()));
}

#[test]
fn one_bestmove_per_go_over_hundreds_of_positions() {
    let mut e = Engine::start(&[]);
    let mut rng = Rng::new(0x5eed_1234);
    for _ in 0..300 {
        let pos = random_position(&mut rng);
        e.send(&format!("position fen {pos}"));
        e.send("go movetime 10");
        let lines = e.until("bestmove");
        assert!(lines.iter().take(lines.len() - 1).all(|l| l.starts_with("info ")), "{lines:?}");
        assert_legal_answer(&pos, bestmove_of(lines.last().unwrap()));
    }
    e.send("isready");
    assert_eq!(e.recv(), "readyok", "no stray line after the last bestmove");
}

#[test]
fn passes_and_game_over() {
    // Find a position where the side to move must pass, and one where the game is over.
    let mut rng = Rng::new(99);
    let (mut pass_pos, mut over_pos) = (None, None);
    while pass_pos.is_none() || over_pos.is_none() {
        let pos = random_position(&mut rng);
        if pos.must_pass() {
            pass_pos.get_or_insert(pos);
        }
        if pos.is_game_over() {
            over_pos.get_or_insert(pos);
        }
    }
    let (pass_pos, over_pos) = (pass_pos.unwrap(), over_pos.unwrap());
    let mut e = Engine::start(&[]);

    e.send(&format!("position fen {pass_pos}"));
    e.send("go movetime 100");
    let lines = e.until("bestmove");
    assert_eq!(lines, ["info string no legal move: pass", "bestmove pass"]);

    // An explicit pass, and the same move list with the pass left out, give the same position.
    let reply = pass_pos.pass().legal_moves().first().unwrap();
    e.send(&format!("position fen {pass_pos} moves pass {reply}"));
    e.send("d");
    let explicit = e.until("moves played");
    e.send(&format!("position fen {pass_pos} moves {reply}"));
    e.send("d");
    let implicit = e.until("moves played");
    assert_eq!(explicit, implicit);

    // A pass while a move exists is refused and the position stays.
    e.send("position startpos moves pass");
    let err = e.recv();
    assert!(err.starts_with("info string error: position: move 1 (pass)"), "{err}");
    e.send("query p1turn");
    // The position is still the one after the pass and the reply: the passer is to move again.
    let expected = if pass_pos.side_to_move() == Color::Black { "response true" } else { "response false" };
    assert_eq!(e.recv(), expected);

    e.send(&format!("position fen {over_pos}"));
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert_eq!(lines, ["info string game over: no move to play", "bestmove none"]);
    e.send("query gameover");
    assert_eq!(e.recv(), "response true");
    e.send("moves");
    assert_eq!(e.recv(), "moves none");
}

#[test]
fn a_lone_move_is_answered_at_once() {
    // Search random positions for one with a single legal move.
    let mut rng = Rng::new(7);
    let pos = loop {
        let pos = random_position(&mut rng);
        if pos.legal_moves().len() == 1 {
            break pos;
        }
    };
    let mut e = Engine::start(&[]);
    e.send(&format!("position fen {pos}"));
    e.send("go movetime 60000");
    let lines = e.until("bestmove");
    assert_eq!(lines[0], "info string only move");
    assert_eq!(bestmove_of(&lines[1]), pos.legal_moves().first().unwrap().to_string());
}

#[test]
fn end_of_input_when_idle_exits_at_once() {
    let (lines, status) = run_piped("isready\n");
    assert!(status.success());
    assert_eq!(lines, ["readyok"]);
    let (lines, status) = run_piped("");
    assert!(status.success());
    assert!(lines.is_empty());
}

#[test]
fn end_of_input_during_a_finite_search_waits_for_its_answer() {
    let mut e = Engine::start(SEARCHING);
    e.send("position startpos");
    e.send("go movetime 700");
    std::thread::sleep(Duration::from_millis(50));
    let started = Instant::now();
    let (lines, status, _) = e.finish();
    assert!(status.success());
    assert!(started.elapsed() >= Duration::from_millis(300), "the search ran to its time");
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "{lines:?}");
}

#[test]
fn end_of_input_stops_an_infinite_search_and_answers() {
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let (lines, status, _) = e.finish();
    assert!(status.success());
    let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 1, "{lines:?}");
    assert_legal_answer(&Position::initial(), bestmove_of(best[0]));
}

#[test]
fn end_of_input_with_a_held_answer_prints_it() {
    // go infinite on a finished game holds "bestmove none" until stop or end of input.
    let full = "XXXXXXXXXXXXXXXX X";
    let (lines, status) = run_piped(&format!("position fen {full}\ngo infinite\n"));
    assert!(status.success());
    assert_eq!(lines.last().map(String::as_str), Some("bestmove none"), "{lines:?}");
}

#[test]
fn end_of_input_during_perft_prints_the_count() {
    let (lines, status) = run_piped("perft 7\n");
    assert!(status.success());
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with("perft 7 leaves 55092 time "), "{lines:?}");
}

#[test]
fn stop_ends_a_long_perft() {
    let mut e = Engine::start(&[]);
    e.send("perft 20");
    e.send("isready");
    assert_eq!(e.recv(), "readyok", "answered while counting");
    e.send("stop");
    assert_eq!(e.recv_within(10.0), "info string perft 20 stopped");
    e.send("perft 3");
    assert!(e.recv().starts_with("perft 3 leaves 56 "));
}

#[test]
fn quit_exits_during_a_search_without_answering() {
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    e.send("quit");
    let (lines, status, _) = e.finish();
    assert!(status.success());
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")), "{lines:?}");
}

/// A game as cutegames plays it: two engines, the whole history re-sent before every move,
/// `query gameover` to both, `query p1turn`, `isready`, then the `go` that `go_line` makes from
/// both clocks (milliseconds). Every `go` must be answered with a legal move, to the end.
fn match_runner_game(engine_args: &[&str], go_line: &dyn Fn(u64, u64) -> String) {
    let mut engines = [Engine::start(engine_args), Engine::start(engine_args)];
    for e in &mut engines {
        e.send("ugi");
        e.until("ugiok");
        e.send("setoption name MoveOverhead value 5");
        e.send("uginewgame");
        e.send("isready");
        assert_eq!(e.recv(), "readyok");
    }
    let mut game = Game::default();
    let mut history: Vec<String> = Vec::new();
    let (mut p1time, mut p2time) = (3000u64, 3000u64);
    loop {
        let position = if history.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", history.join(" "))
        };
        let mut over = Vec::new();
        for e in &mut engines {
            e.send(&position);
            e.send("query gameover");
            over.push(e.recv());
        }
        assert_eq!(over[0], over[1], "the engines agree on game over");
        if over[0] == "response true" {
            assert!(game.position().is_game_over());
            break;
        }
        assert!(!game.position().is_game_over());
        let mover = usize::from(game.position().side_to_move() == Color::White);
        let e = &mut engines[mover];
        e.send("query p1turn");
        assert_eq!(e.recv(), format!("response {}", mover == 0));
        e.send("isready");
        assert_eq!(e.recv(), "readyok");
        let started = Instant::now();
        e.send(&go_line(p1time, p2time));
        let lines = e.until("bestmove");
        let spent = started.elapsed().as_millis() as u64;
        let answer = bestmove_of(lines.last().unwrap()).to_string();
        let mv: Move = answer.parse().unwrap();
        game.play_strict(mv).unwrap_or_else(|err| panic!("{answer}: {err}"));
        // The clocks a runner would send next (a flag that fell reads 0; Magpie still answers).
        let clock = if mover == 0 { &mut p1time } else { &mut p2time };
        *clock = (*clock + 20).saturating_sub(spent);
        history.push(answer);
    }
    let pos = game.position();
    let expected = match pos.final_score_for_black().signum() {
        1 => "response p1win",
        -1 => "response p2win",
        _ => "response draw",
    };
    for e in &mut engines {
        e.send("query result");
        assert_eq!(e.recv(), expected);
    }
}

#[test]
fn a_match_runner_game_to_the_end() {
    match_runner_game(&[], &|p1, p2| format!("go p1time {p1} p2time {p2} p1inc 20 p2inc 20"));
}

/// A runner used to UCI that sends one clock only (here White's, as `wtime`): Black's moves get
/// the default time, and every `go` is answered.
#[test]
fn a_match_runner_game_with_one_clock() {
    match_runner_game(&["--movetime", "20"], &|_, p2| format!("go wtime {p2} winc 20"));
}

#[test]
fn errors_leave_the_state_unchanged() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves f5");
    e.send("frobnicate");
    assert_eq!(e.recv(), "info string error: unknown command 'frobnicate' (help lists the commands)");
    e.send("position startpos moves f5 d6 a1");
    let err = e.recv();
    assert!(err.starts_with("info string error: position: move 3 (a1): illegal move a1"), "{err}");
    e.send("position fen XXXX X");
    assert!(e.recv().starts_with("info string error: position fen: "));
    e.send("setoption name Level value 11");
    assert!(e.recv().starts_with("info string error: setoption Level"));
    e.send("setoption name Colour value blue");
    assert_eq!(e.recv(), "info string error: unknown option 'Colour'");
    e.send("go movetime soon");
    assert!(e.recv().starts_with("info string error: go: "));
    // Absurd numbers are limits too far to matter, not a crash.
    e.send("go movetime 18446744073709551615 p1time 18446744073709551615 p1inc 18446744073709551615 depth 1");
    assert!(e.until("bestmove").last().unwrap().starts_with("bestmove "));
    // The position is still the one after f5: White to move.
    e.send("query p1turn");
    assert_eq!(e.recv(), "response false");
    e.send("d");
    let board = e.until("moves played");
    assert_eq!(board.last().map(String::as_str), Some("moves played: f5"));
}

#[test]
fn every_evaluation_and_level_plays_legal_moves_on_every_size() {
    let mut e = Engine::start(&[]);
    for size in [4, 6, 8] {
        e.send(&format!("setoption name BoardSize value {size}"));
        let start = Position::start(BoardSize::from_side(size).unwrap());
        for eval in ["magpie", "discs", "iagno", "sannidhanam", "corner-edge"] {
            e.send(&format!("setoption name Eval value {eval}"));
            e.send("position startpos");
            e.send("go depth 3");
            let lines = e.until("bestmove");
            assert_legal_answer(&start, bestmove_of(lines.last().unwrap()));
        }
        e.send("setoption name Eval value magpie");
        for level in 0..=10 {
            e.send(&format!("setoption name Level value {level}"));
            e.send("position startpos");
            e.send("go movetime 50");
            let lines = e.until("bestmove");
            assert_legal_answer(&start, bestmove_of(lines.last().unwrap()));
        }
    }
    e.send("isready");
    assert_eq!(e.recv(), "readyok", "no error line on the way");
}

#[test]
fn people_commands() {
    let mut e = Engine::start(&[]);
    e.send("position startpos");
    e.send("moves");
    assert_eq!(e.recv(), "moves d3 c4 f5 e6");
    e.send("eval");
    let lines = e.until("eval total");
    // First what `raw` and `cp` mean, for this evaluation.
    assert!(lines[0].starts_with("info string eval: raw is a pattern's placements that hold a disc"), "{lines:?}");
    assert!(lines[0].contains("cp is the term's share"), "{lines:?}");
    // The pattern evaluation: one line per pattern (no disc on an edge yet) and the constant.
    assert!(lines.iter().any(|l| l.starts_with("eval edge+2x raw 0 ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("eval constant raw 1 ")), "{lines:?}");
    // The total is the sum of the parts.
    let cp = |l: &str| -> i32 { l.split_whitespace().skip_while(|w| *w != "cp").nth(1).unwrap().parse().unwrap() };
    let sum: i32 = lines[1..lines.len() - 1].iter().map(|l| cp(l)).sum();
    assert_eq!(cp(lines.last().unwrap()), sum, "{lines:?}");
    e.send("setoption name Eval value heuristic");
    e.send("eval");
    let lines = e.until("eval total");
    assert!(lines[0].starts_with("info string eval: raw is the feature's value"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("eval mobility raw 0 cp 0")), "{lines:?}");
    let sum: i32 = lines[1..lines.len() - 1].iter().map(|l| cp(l)).sum();
    assert_eq!(cp(lines.last().unwrap()), sum, "{lines:?}");
    e.send("d");
    let lines = e.until("moves played");
    assert_eq!(lines[0], "  a b c d e f g h");
    assert!(lines.contains(&format!("fen {}", Position::initial())));
    e.send("perft 5");
    assert!(e.recv().starts_with("perft 5 leaves 1396 "));
}

#[test]
fn one_shot_bestmove_from_the_command_line() {
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let out = Command::new(env!("CARGO_BIN_EXE_magpie"))
        .args(["bestmove", "--fen", ffo1, "--depth", "14"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "g8 +18.00 exact\n");
    let out = Command::new(env!("CARGO_BIN_EXE_magpie"))
        .args(["bestmove", "--moves", "f5d6", "--movetime", "100"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let mv: Move = text.split_whitespace().next().unwrap().parse().unwrap();
    let mut game = Game::default();
    game.play_all(&magpie::formats::parse_moves("f5d6").unwrap()).unwrap();
    assert!(game.position().is_legal(mv), "{text}");
    let out = Command::new(env!("CARGO_BIN_EXE_magpie")).args(["bestmove", "--moves", "f5a1"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: --moves: move 2 (a1)"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, max_shrink_iters: 64, ..ProptestConfig::default() })]

    /// Garbage lines: each gets an error line (or its answer, if it happens to be a command), no
    /// panic, and the engine still answers the next valid command.
    #[test]
    fn garbage_lines_get_errors_and_the_engine_carries_on(lines in proptest::collection::vec("\\PC{0,40}", 1..30)) {
        // Forced: a garbage first line such as "# …" or "1 …" would otherwise start a GTP session.
        let mut e = Engine::start(&["--protocol", "ugi"]);
        let mut sent = 0;
        for line in &lines {
            let first = line.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
            // Commands with lasting effects are not garbage: quit exits, go and perft take time.
            if ["quit", "go", "perft"].contains(&first.as_str()) || line.contains('\n') || line.contains('\r') {
                continue;
            }
            e.send(line);
            sent += 1;
        }
        // A marker whose answer cannot come from the garbage, then isready: everything before the
        // marker's error is the garbage's own answers (a garbage `isready` answers readyok too).
        e.send("zzz-not-a-command");
        let replies = e.until("info string error: unknown command 'zzz-not-a-command'");
        for reply in &replies {
            prop_assert!(!reply.starts_with("bestmove"), "{}", reply);
        }
        prop_assert!(replies.len() <= sent * 16 + 1);
        e.send("isready");
        prop_assert_eq!(e.recv_within(10.0), "readyok");
        let (_, status, stderr) = e.finish();
        prop_assert!(status.success());
        prop_assert!(!stderr.contains("panicked"), "{}", stderr);
    }
}

#[test]
fn multipv_reports_that_many_lines_best_first() {
    let mut e = Engine::start(SEARCHING);
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves f5");
    e.send("go depth 5");
    let lines = e.until("bestmove");
    let last_depth: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth 5 ")).collect();
    // Three lines for depth 5, then the three repeated before bestmove, in rank order.
    assert_eq!(last_depth.len(), 6, "{lines:?}");
    let repeated: Vec<&String> = lines[lines.len() - 4..lines.len() - 1].iter().collect();
    for (k, line) in repeated.iter().enumerate() {
        assert!(line.contains(&format!(" multipv {} ", k + 1)), "{lines:?}");
    }
    let score = |l: &str| -> i32 {
        let w: Vec<&str> = l.split_whitespace().collect();
        w[w.iter().position(|x| *x == "cp").unwrap() + 1].parse().unwrap()
    };
    for (k, line) in last_depth.iter().take(3).enumerate() {
        assert!(line.contains(&format!(" multipv {} ", k + 1)), "{line}");
    }
    assert!(score(last_depth[0]) >= score(last_depth[1]) && score(last_depth[1]) >= score(last_depth[2]));
    let first_move = last_depth[0].split(" pv ").nth(1).unwrap().split_whitespace().next().unwrap();
    assert_eq!(bestmove_of(lines.last().unwrap()), first_move);
    e.send("setoption name MultiPV value 0");
    assert!(e.recv().starts_with("info string error: setoption MultiPV"));
}

#[test]
fn stop_right_after_go_is_not_lost() {
    // The stop may reach the search thread before the search itself: it must still stop it.
    let mut e = Engine::start(&[]);
    for _ in 0..20 {
        e.send("position startpos");
        e.send("go infinite");
        e.send("stop");
        let line = loop {
            let line = e.recv_within(5.0);
            if line.starts_with("bestmove") {
                break line;
            }
        };
        assert_legal_answer(&Position::initial(), bestmove_of(&line));
    }
}

/// A `go` whose limits are all for the other side (or say nothing about time) thinks for the
/// default time, and the engine exits at the end of input, as a client used to UCI expects.
#[test]
fn a_go_without_a_limit_for_the_mover_answers_and_exits() {
    for go in ["go movestogo 40", "go p2time 100", "go p2inc 100", "go wtime 100", "go", "go winc 5 movestogo 3"] {
        let mut e = Engine::start(&["--movetime", "50", "--own-book", "false"]);
        e.send("position startpos");
        e.send(go);
        let lines = e.until("bestmove");
        assert_eq!(lines[0], "info string go: no limit for X to move: thinking 50 ms", "{go}");
        assert_legal_answer(&Position::initial(), bestmove_of(lines.last().unwrap()));
        // White to move: White's own clock is a limit; Black's is not.
        e.send("position startpos moves f5");
        e.send("go btime 100 binc 100");
        let lines = e.until("bestmove");
        assert_eq!(lines[0], "info string go: no limit for O to move: thinking 50 ms", "{go}");
        e.send("go wtime 1000 btime 100000000");
        let lines = e.until("bestmove");
        assert!(lines.iter().all(|l| !l.contains("no limit")), "{lines:?}");
        e.send(go);
        let (rest, status, _) = e.finish();
        assert!(status.success(), "{go}");
        assert_eq!(rest.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "{go}: {rest:?}");
    }
}

/// Scripts pipe commands without waiting: each `go` is answered, in order, with a move for the
/// position set just before it.
#[test]
fn piped_commands_behind_a_search_are_handled_in_order() {
    let (lines, status) = run_piped(
        "setoption name OwnBook value false\nposition startpos\ngo depth 8\nposition startpos moves f5\ngo depth 8\nquery p1turn\n",
    );
    assert!(status.success());
    let answers: Vec<&String> = lines.iter().filter(|l| !l.starts_with("info")).collect();
    assert_eq!(answers.len(), 3, "{lines:?}");
    assert_legal_answer(&Position::initial(), bestmove_of(answers[0]));
    let after_f5 = Position::initial().play("f5".parse().unwrap());
    assert_legal_answer(&after_f5, bestmove_of(answers[1]));
    assert_eq!(answers[2], "response false");
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
}

/// While a search runs, `isready` is answered at once, and `stop` ends it and every `go` waiting
/// behind it (each still answers, in order); the commands behind it run after.
#[test]
fn stop_and_isready_act_at_once_and_the_rest_waits() {
    let mut e = Engine::start(SEARCHING);
    e.send("position startpos");
    e.send("go infinite");
    e.send("position startpos moves f5");
    e.send("go depth 60");
    e.send("d");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(lines.iter().all(|l| l.starts_with("info ") || l == "readyok"), "{lines:?}");
    e.send("stop");
    let first = e.until("bestmove");
    assert_legal_answer(&Position::initial(), bestmove_of(first.last().unwrap()));
    // The depth-60 search was asked for before the stop: it is stopped as soon as it starts.
    let second = e.until("bestmove");
    let after_f5 = Position::initial().play("f5".parse().unwrap());
    assert_legal_answer(&after_f5, bestmove_of(second.last().unwrap()));
    let board = e.until("moves played");
    assert_eq!(board.last().map(String::as_str), Some("moves played: f5"));
    e.send("isready");
    assert_eq!(e.recv(), "readyok", "nothing else is owed");
}

/// Under `go infinite`, later commands (even a second `go`) wait for `stop`; at the end of input
/// the infinite search is stopped and the commands behind it are handled.
#[test]
fn commands_wait_behind_an_infinite_search_until_stop_or_end_of_input() {
    let mut e = Engine::start(&["--movetime", "50"]);
    e.send("position startpos");
    e.send("go infinite");
    e.send("query p1turn");
    e.send("position startpos moves f5");
    e.send("go movetime 20");
    // Nothing but info lines until stop.
    assert!(e.try_recv(0.3).is_none_or(|l| l.starts_with("info ")));
    e.send("stop");
    let lines = e.until("bestmove");
    assert_legal_answer(&Position::initial(), bestmove_of(lines.last().unwrap()));
    assert_eq!(e.recv(), "response true");
    let lines = e.until("bestmove");
    assert_legal_answer(&Position::initial().play("f5".parse().unwrap()), bestmove_of(lines.last().unwrap()));

    let (lines, status) = run_piped("position startpos\ngo infinite\nposition startpos moves f5\ngo infinite\nmoves\n");
    assert!(status.success());
    let answers: Vec<&String> = lines.iter().filter(|l| !l.starts_with("info")).collect();
    assert_eq!(answers.len(), 3, "{lines:?}");
    assert_legal_answer(&Position::initial(), bestmove_of(answers[0]));
    assert_legal_answer(&Position::initial().play("f5".parse().unwrap()), bestmove_of(answers[1]));
    assert_eq!(answers[2], "moves f4 d6 f6");
}

/// Numbers: an error names the value and the parameter; clock readings may be negative; depths
/// are clamped to 1..60.
#[test]
fn bad_numbers_are_named_and_the_state_kept() {
    let mut e = Engine::start(SEARCHING);
    e.send("position startpos moves f5");
    for (go, error) in [
        ("go movetime -5", "go: movetime: '-5' is not a number of milliseconds"),
        ("go depth -3", "go: depth: '-3' is not a depth in plies"),
        ("go movetime", "go: movetime: missing a number of milliseconds"),
        (
            "go movetime 99999999999999999999999",
            "go: movetime: '99999999999999999999999' is not a number of milliseconds",
        ),
        ("go nodes 1.5", "go: nodes: '1.5' is not a number of nodes"),
        ("go p1inc -10", "go: p1inc: '-10' is not a number of milliseconds"),
    ] {
        e.send(go);
        assert_eq!(e.recv(), format!("info string error: {error}"), "{go}");
    }
    e.send("go depth 0");
    let lines = e.until("bestmove");
    assert!(lines[0].starts_with("info depth 1 "), "{lines:?}");
    e.send("go p2time -20 p1time 5000 depth 2");
    let lines = e.until("bestmove");
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    e.send("setoption name Level value 99");
    assert_eq!(e.recv(), "info string error: setoption Level: '99' is not a level (0 to 10)");
    e.send("query p1turn");
    assert_eq!(e.recv(), "response false");
}

/// Lines: one over the size limit gets an error even as the first line; unknown commands are
/// quoted at most 80 characters long; a NUL byte is shown as `\0`.
#[test]
fn long_lines_and_control_characters_in_errors() {
    let long = format!("{}\nisready\n", "x".repeat(magpie::engine::io::MAX_LINE + 10));
    let (lines, status) = run_piped(&long);
    assert!(status.success());
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("info string error: line longer than"), "{lines:?}");
    assert_eq!(lines[1], "readyok");
    // A line of exactly the limit is read (blanks after a command are allowed), with a CRLF too.
    let max = magpie::engine::io::MAX_LINE;
    let exact = format!("isready{}\r\nisready{}\n", " ".repeat(max - 7), " ".repeat(max - 6));
    let (lines, _) = run_piped(&exact);
    assert_eq!(lines, ["readyok", "info string error: line longer than 1048576 bytes (1 MiB) ignored"]);

    let huge = "y".repeat(500_000);
    let (lines, _) = run_piped(&format!("ugi\n{huge}\nfoo\0bar\n"));
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 2, "{lines:?}");
    assert_eq!(
        *errors[0],
        format!("info string error: unknown command '{}…' (help lists the commands)", "y".repeat(80))
    );
    assert_eq!(errors[1], "info string error: unknown command 'foo\\0bar' (help lists the commands)");
}

/// For people: `help` lists the commands one a line, `eval` on a finished game gives its score.
#[test]
fn help_and_eval_of_a_finished_game() {
    let mut e = Engine::start(&[]);
    e.send("help");
    let mut help = Vec::new();
    while let Some(line) = e.try_recv(1.0) {
        help.push(line);
    }
    for command in [
        "ugi",
        "isready",
        "setoption",
        "uginewgame",
        "position",
        "go",
        "stop",
        "query",
        "d",
        "moves",
        "eval",
        "perft",
        "help",
        "quit",
    ] {
        assert!(help.iter().any(|l| l.trim_start().starts_with(command)), "{command} in {help:?}");
    }
    // A full 4x4 board: 16 black discs, White to move.
    e.send("position fen XXXXXXXXXXXXXXXX O");
    e.send("eval");
    let line = e.recv();
    assert_eq!(line, "eval total cp -1600 (-16.00 for O, exact: the game is over, X 16 O 0, empties to the winner)");
}

/// A `stop` that answers a held answer (an infinite `go` whose search already ended, or which
/// needed none) also frees the commands that waited behind it.
#[test]
fn stop_of_a_held_answer_frees_the_waiting_commands() {
    let mut e = Engine::start(&[]);
    // A finished game: nothing to search, `bestmove none` is held.
    e.send("position fen XXXXXXXXXXXXXXXX X");
    e.send("go infinite");
    e.send("query gameover");
    assert!(e.try_recv(0.3).is_none_or(|l| l.starts_with("info ")));
    e.send("stop");
    // The `info string` saying the game is over may come before or after the 0.3 s above (on a
    // loaded machine, after); the answer itself only with the stop.
    let lines = e.until("bestmove");
    let (answer, before) = lines.split_last().unwrap();
    assert_eq!(answer, "bestmove none");
    assert!(before.iter().all(|l| l.starts_with("info ")), "{lines:?}");
    assert_eq!(e.recv_within(5.0), "response true");
    // The 4x4 start is solved at once: the exact answer is held until stop.
    e.send("setoption name BoardSize value 4");
    e.send("position startpos");
    e.send("go infinite");
    // Its exact result (the last info line, repeated) is written, and the answer held.
    loop {
        let line = e.recv();
        assert!(line.starts_with("info depth"), "{line}");
        if line.contains(" exact ") {
            break;
        }
    }
    e.send("query p1turn");
    e.send("stop");
    let lines = e.until("bestmove");
    assert_legal_answer(&Position::start(BoardSize::Four), bestmove_of(lines.last().unwrap()));
    assert_eq!(e.recv_within(5.0), "response true");
}

/// FFO #1 (tests/data/fforum-1-19.obf, 14 empties): G8 wins by 18 discs.
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

/// The OBF line `number` of the FFO file (1-based), split into the position and its scores. #1
/// is a win for the side to move, #4 a draw, #9 a loss.
fn ffo(number: usize) -> (String, Vec<(String, i32)>) {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fforum-1-19.obf"))
        .expect("the FFO file");
    let line = text.lines().filter(|l| !l.trim().is_empty()).nth(number - 1).expect("that many lines");
    let mut parts = line.split(';').map(str::trim).filter(|p| !p.is_empty());
    let position = parts.next().unwrap().to_string();
    let scores = parts
        .map(|p| {
            let (mv, score) = p.split_once(':').unwrap();
            (mv.to_ascii_lowercase(), score.parse().unwrap())
        })
        .collect();
    (position, scores)
}

/// The word after `name` in an `info` line.
fn info_field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|w| *w == name)?;
    words.next()
}

/// The node count of the last `info` line before `bestmove`: the search's total.
fn total_nodes(lines: &[String]) -> u64 {
    let info = &lines[lines.len() - 2];
    info_field(info, "nodes").unwrap_or_else(|| panic!("no nodes in {info}")).parse().unwrap()
}

/// `Hash` and `Threads` are set, and a bad value is refused with an error naming it, leaving the
/// old setting: after the refusals the search is that of an engine started with `--hash 1`, one
/// thread: the same node count (a second thread adds its own nodes) and the same `hashfull` (a
/// 64 MiB table would show 0).
#[test]
fn hash_and_threads_are_set_and_bad_values_refused() {
    let mut reference = Engine::start(&["--hash", "1", "--own-book", "false"]);
    reference.send("position startpos moves f5 d6 c3");
    reference.send("go depth 9");
    let expected = reference.until("bestmove");

    let mut e = Engine::start(SEARCHING);
    e.send("setoption name Hash value 1");
    e.send("setoption name threads value 2");
    e.send("setoption name Threads value 1");
    for (line, error) in [
        ("setoption name Hash value 0", "setoption Hash: '0' is not a table size in MiB (1 to 65536)"),
        ("setoption name Hash value 65537", "setoption Hash: '65537' is not a table size in MiB (1 to 65536)"),
        ("setoption name Hash value lots", "setoption Hash: 'lots' is not a table size in MiB (1 to 65536)"),
        ("setoption name Hash value -5", "setoption Hash: '-5' is not a table size in MiB (1 to 65536)"),
        ("setoption name Hash", "setoption Hash: '' is not a table size in MiB (1 to 65536)"),
        ("setoption name Threads value 0", "setoption Threads: '0' is not a number of threads (1 to 256)"),
        ("setoption name Threads value 999", "setoption Threads: '999' is not a number of threads (1 to 256)"),
        ("setoption name THREADS value two", "setoption THREADS: 'two' is not a number of threads (1 to 256)"),
    ] {
        e.send(line);
        assert_eq!(e.recv(), format!("info string error: {error}"), "{line}");
    }
    e.send("position startpos moves f5 d6 c3");
    e.send("go depth 9");
    let lines = e.until("bestmove");
    assert_eq!(lines.last(), expected.last());
    assert_eq!(total_nodes(&lines), total_nodes(&expected), "{lines:?}\n{expected:?}");
    let hashfull = |lines: &[String]| info_field(&lines[lines.len() - 2], "hashfull").map(str::to_string);
    assert_eq!(hashfull(&lines), hashfull(&expected));
}

/// A table larger than the machine can give is refused at once and the engine goes on (on a
/// machine that can give 64 GiB of address space, it is simply accepted).
#[test]
fn a_table_that_cannot_be_allocated_is_refused() {
    let mut e = Engine::start(&[]);
    e.send("setoption name Hash value 65536");
    e.send("isready");
    let lines = e.until("readyok");
    if lines.len() == 2 {
        assert_eq!(lines[0], "info string error: setoption Hash: cannot allocate a 65536 MiB hash table");
    } else {
        assert_eq!(lines, ["readyok"]);
    }
    e.send("setoption name Hash value 2");
    e.send("position startpos");
    e.send("go depth 4");
    assert_legal_answer(&Position::initial(), bestmove_of(e.until("bestmove").last().unwrap()));
}

/// With two threads the engine plays legal moves, and solves an endgame exactly.
#[test]
fn two_threads_play_legal_moves_and_solve_exactly() {
    let mut e = Engine::start(SEARCHING);
    e.send("setoption name Threads value 2");
    e.send("position startpos moves f5 d6");
    e.send("go movetime 300");
    let pos = Position::initial().play("f5".parse().unwrap()).play("d6".parse().unwrap());
    assert_legal_answer(&pos, bestmove_of(e.until("bestmove").last().unwrap()));
    e.send(&format!("position fen {FFO_1}"));
    e.send("go depth 60");
    let lines = e.until("bestmove");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove g8"), "{lines:?}");
    assert!(lines[lines.len() - 2].contains(" score cp 1800 exact "), "{lines:?}");
}

/// `go wld` solves for win, draw or loss: the solved line says `wld` (a bound for a win or a loss),
/// and the move played keeps the result.
#[test]
fn go_wld_solves_for_win_draw_or_loss() {
    let mut e = Engine::start(&[]);
    for (number, word) in [(1, " lowerbound wld "), (4, " wld "), (9, " upperbound wld ")] {
        let (position, scores) = ffo(number);
        let best = scores.iter().map(|s| s.1).max().unwrap();
        e.send(&format!("position fen {position}"));
        e.send("go wld");
        let lines = e.until("bestmove");
        let solved = &lines[lines.len() - 2];
        assert!(solved.contains(word), "FFO #{number}: {solved}");
        assert!(!solved.contains(" exact "), "FFO #{number}: {solved}");
        let score: i32 = info_field(solved, "cp").unwrap().parse().unwrap();
        assert_eq!(score.signum(), best.signum(), "FFO #{number}: {solved}");
        let played = bestmove_of(lines.last().unwrap());
        let result = scores.iter().find(|s| s.0 == played).map(|s| s.1);
        assert_eq!(result.map(i32::signum), Some(best.signum()), "FFO #{number}: {played} {lines:?}");
    }
    // Without wld the same position is solved exactly.
    e.send(&format!("position fen {FFO_1}"));
    e.send("go");
    let lines = e.until("bestmove");
    assert!(lines[lines.len() - 2].contains(" score cp 1800 exact "), "{lines:?}");
}

/// Every `info` line of a search carries `hashfull <permille>` between `nps` and `time`; a small
/// table fills up. (Without ProbCut, so that the search stores enough entries for the thousand
/// slots `hashfull` samples to see them: at selectivity 5 this search fills about one in a
/// thousand.)
#[test]
fn info_lines_show_hashfull() {
    let mut e = Engine::start(&["--hash", "1", "--selectivity", "0", "--own-book", "false"]);
    e.send("position startpos moves f5 d6");
    e.send("go depth 11");
    let lines = e.until("bestmove");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth ")).collect();
    assert!(infos.len() >= 11, "{lines:?}");
    for info in &infos {
        let words: Vec<&str> = info.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "hashfull").unwrap_or_else(|| panic!("{info}"));
        assert_eq!((words[at - 2], words[at + 2]), ("nps", "time"), "{info}");
        let permille: u32 = words[at + 1].parse().unwrap();
        assert!(permille <= 1000, "{info}");
    }
    let last: u32 = info_field(infos[infos.len() - 1], "hashfull").unwrap().parse().unwrap();
    assert!(last > 0, "a 1 MiB table is used by a depth-11 search: {lines:?}");
}

/// `uginewgame` clears the table: the same search after it takes the same nodes as the first,
/// while the same search repeated without it is shorter, the table remembering the first.
#[test]
fn a_new_game_forgets_what_the_table_learnt() {
    let mut e = Engine::start(SEARCHING);
    let search = |e: &mut Engine| {
        e.send("position startpos moves f5 d6 c3 d3 c4");
        e.send("go depth 9");
        total_nodes(&e.until("bestmove"))
    };
    let first = search(&mut e);
    let again = search(&mut e);
    e.send("uginewgame");
    let after_new_game = search(&mut e);
    assert!(again < first, "the table shortens a repeated search: {again} vs {first}");
    assert_eq!(after_new_game, first);
}

/// The Book and Weights options word the same fault the same way: `<option>: <file>: <what>`.
#[test]
fn book_and_weights_options_word_a_bad_file_alike() {
    let input = "setoption name Book value no-such.file\nsetoption name Weights value no-such.file\n\
                 setoption name Book value tests\nsetoption name Weights value tests\nisready\n";
    let (lines, _) = run_piped(input);
    assert_eq!(
        lines,
        [
            "info string error: setoption Book: no-such.file: No such file or directory",
            "info string error: setoption Weights: no-such.file: No such file or directory",
            "info string error: setoption Book: tests: not a regular file",
            "info string error: setoption Weights: tests: not a regular file",
            "readyok",
        ]
    );
}
