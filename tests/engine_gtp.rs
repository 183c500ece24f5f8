//! The engine over pipes, speaking GTP the way its clients do: Quarry's pipelined start-up, a GoGui
//! rules-engine session, a GTP match runner with ids, both pass conventions, clocks and a whole game,
//! undo, showboard and the small boards, end of input during a genmove, and garbage. Every line a
//! client parses is checked character for character.

mod common;

use common::{Engine, Rng};
use magpie::board::{BoardSize, Color, Game, Move, Position};
use magpie::formats::ascii_board;
use proptest::prelude::*;
use std::time::{Duration, Instant};

/// Fast engine options: a few milliseconds per genmove.
const FAST: [&str; 6] = ["--protocol", "gtp", "--movetime", "20", "--move-overhead", "5"];

/// The lines of the next answer, without the empty line that ends it.
fn block(e: &mut Engine) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let line = e.recv();
        if line.is_empty() {
            return lines;
        }
        lines.push(line);
    }
}

/// Sends `command` and returns its answer's lines.
fn ask(e: &mut Engine, command: &str) -> Vec<String> {
    e.send(command);
    block(e)
}

/// Sends `command`, checks that it succeeds with a one-line answer and returns the result text.
fn ok(e: &mut Engine, command: &str) -> String {
    let answer = ask(e, command);
    assert_eq!(answer.len(), 1, "{command}: {answer:?}");
    result_of(&answer[0], None)
}

/// The text of a one-line success answer with the given id.
fn result_of(line: &str, id: Option<u32>) -> String {
    let head = format!("={}", id.map_or(String::new(), |id| id.to_string()));
    let rest = line.strip_prefix(&head).unwrap_or_else(|| panic!("not a success answer {head}: {line:?}"));
    if rest.is_empty() {
        return String::new();
    }
    rest.strip_prefix(' ').unwrap_or_else(|| panic!("no space after {head}: {line:?}")).to_string()
}

/// A move as GTP prints it.
fn gtp_move(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_uppercase(),
        Move::Pass => "pass".to_string(),
    }
}

/// Reads a genmove answer, checks it is legal in `pos` (GTP's upper-case form), and returns it.
fn legal_answer(pos: &Position, text: &str) -> Move {
    if text == "pass" {
        assert!(pos.legal_moves().is_empty(), "pass while moves exist in {pos}");
        return Move::Pass;
    }
    assert_eq!(text, text.to_uppercase(), "moves are upper case");
    let mv: Move = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    assert!(pos.is_legal(mv), "{text} is not legal in {pos}");
    mv
}

fn gtp_colour(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The board as `gogui-rules_board` writes it: rows from the highest down, cells X, O, `.`.
fn rules_rows(pos: &Position) -> Vec<String> {
    let n = pos.size().side();
    (0..n)
        .rev()
        .map(|row| {
            (0..n)
                .map(|col| {
                    let sq = magpie::board::Square::from_coords(col as u8, row as u8).unwrap();
                    if pos.black().contains(sq) {
                        "X"
                    } else if pos.white().contains(sq) {
                        "O"
                    } else {
                        "."
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// The `B+n` / `W+n` / `0` form of a score for Black.
fn result_text(score: i32) -> String {
    match score.signum() {
        1 => format!("B+{score}"),
        -1 => format!("W+{}", -score),
        _ => "0".to_string(),
    }
}

/// A seeded random game on `size`, passes written out, stopped as soon as `stop` holds (or at the
/// end of the game).
fn random_game(rng: &mut Rng, size: BoardSize, stop: impl Fn(&Position) -> bool) -> Game {
    let mut game = Game::new(Position::start(size));
    loop {
        let pos = *game.position();
        if stop(&pos) || pos.is_game_over() {
            return game;
        }
        let mv = if pos.must_pass() {
            Move::Pass
        } else {
            let moves: Vec<_> = pos.legal_moves().iter().collect();
            Move::Play(moves[rng.below(moves.len())])
        };
        game.play_strict(mv).unwrap();
    }
}

/// A game that reaches a position where the side to move must pass.
fn game_to_a_pass(seed: u64) -> Game {
    let mut rng = Rng::new(seed);
    loop {
        let game = random_game(&mut rng, BoardSize::Eight, Position::must_pass);
        if game.position().must_pass() {
            return game;
        }
    }
}

/// Plays `game`'s moves with `play <colour> <move>`, passes included.
fn replay(e: &mut Engine, game: &Game) {
    for (pos, mv) in game.positions().iter().zip(game.moves()) {
        let command = format!("play {} {}", gtp_colour(pos.side_to_move()), gtp_move(*mv));
        assert_eq!(ok(e, &command), "", "{command}");
    }
}

#[test]
fn quarry_start_up_pipelined_is_recognised_without_the_flag() {
    let mut e = Engine::start(&["--movetime", "50"]);
    // Quarry writes its first five commands without waiting for answers.
    e.send("protocol_version\nname\nversion\nlist_commands\nlist_games");
    assert_eq!(block(&mut e), ["= 2"]);
    assert_eq!(block(&mut e), ["= Magpie"]);
    assert_eq!(block(&mut e), [format!("= {}", env!("CARGO_PKG_VERSION"))]);
    let commands = block(&mut e);
    assert_eq!(commands[0], "= protocol_version");
    for command in [
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "genmove",
        "reg_genmove",
        "undo",
        "showboard",
        "final_score",
        "time_settings",
        "time_left",
        "list_games",
        "set_game",
        "gogui-rules_game_id",
        "gogui-rules_board_size",
        "gogui-rules_board",
        "gogui-rules_side_to_move",
        "gogui-rules_legal_moves",
        "gogui-rules_final_result",
    ] {
        assert!(commands[1..].iter().any(|c| c == command), "{command} listed");
    }
    assert_eq!(block(&mut e), ["= Othello"]);

    assert_eq!(ask(&mut e, "set_game Othello"), ["="]);
    assert_eq!(ask(&mut e, "boardsize 8"), ["="]);
    assert_eq!(ask(&mut e, "clear_board"), ["="]);
    // A human move immediately followed by the engine's.
    e.send("play black F5\ngenmove white");
    assert_eq!(block(&mut e), ["="]);
    let answer = block(&mut e);
    assert_eq!(answer.len(), 1);
    let after_f5 = Position::initial().play("f5".parse().unwrap());
    legal_answer(&after_f5, &result_of(&answer[0], None));
    assert_eq!(ask(&mut e, "known_command genmove"), ["= true"]);
    assert_eq!(ask(&mut e, "known_command frobnicate"), ["= false"]);
}

#[test]
fn gogui_rules_engine_session() {
    let mut e = Engine::start(&FAST);
    assert_eq!(ok(&mut e, "name"), "Magpie");
    assert_eq!(ok(&mut e, "protocol_version"), "2");
    assert_eq!(ok(&mut e, "version"), env!("CARGO_PKG_VERSION"));
    assert!(ask(&mut e, "list_commands").len() >= 25);
    assert_eq!(ok(&mut e, "gogui-rules_game_id"), "Othello");
    assert_eq!(ok(&mut e, "gogui-rules_board_size"), "8");
    assert_eq!(ok(&mut e, "boardsize 8"), "");
    assert_eq!(ok(&mut e, "clear_board"), "");
    assert_eq!(ok(&mut e, "komi 6.5"), "");
    assert_eq!(
        ask(&mut e, "gogui-rules_board"),
        [
            "= . . . . . . . .",
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . X O . . .",
            ". . . O X . . .",
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . . . . . .",
        ]
    );
    assert_eq!(ok(&mut e, "gogui-rules_side_to_move"), "black");
    assert_eq!(ok(&mut e, "gogui-rules_legal_moves"), "D3 C4 F5 E6");
    assert_eq!(ok(&mut e, "gogui-rules_final_result"), "unknown");
    assert_eq!(ok(&mut e, "play B F5"), "");
    let mut game = Game::default();
    game.play_strict("f5".parse().unwrap()).unwrap();
    let reply = legal_answer(game.position(), &ok(&mut e, "genmove w"));
    game.play_strict(reply).unwrap();
    assert_eq!(ok(&mut e, "gogui-rules_side_to_move"), "black");

    // GoGui resynchronises: clear_board, then every move again.
    assert_eq!(ok(&mut e, "clear_board"), "");
    replay(&mut e, &game);
    let mut board = rules_rows(game.position());
    board[0] = format!("= {}", board[0]);
    assert_eq!(ask(&mut e, "gogui-rules_board"), board);

    // A position where passing is the only move.
    let game = game_to_a_pass(11);
    assert_eq!(ok(&mut e, "clear_board"), "");
    replay(&mut e, &game);
    assert_eq!(ok(&mut e, "gogui-rules_legal_moves"), "pass");
    assert_eq!(ok(&mut e, "gogui-rules_side_to_move"), gtp_colour(game.position().side_to_move()));
    assert_eq!(ok(&mut e, "gogui-rules_final_result"), "unknown");

    // A finished game: no legal move at all, and the result.
    let finished = random_game(&mut Rng::new(5), BoardSize::Eight, |_| false);
    assert!(finished.position().is_game_over());
    assert_eq!(ok(&mut e, "clear_board"), "");
    replay(&mut e, &finished);
    assert_eq!(ask(&mut e, "gogui-rules_legal_moves"), ["="]);
    let score = finished.position().final_score_for_black();
    assert_eq!(ok(&mut e, "gogui-rules_final_result"), result_text(score));
}

/// A match runner's side of the pipe: every command numbered.
struct Runner {
    e: Engine,
    id: u32,
}

impl Runner {
    /// Sends `command` with the next id; returns the id and the answer's lines.
    fn ask(&mut self, command: &str) -> (u32, Vec<String>) {
        self.id += 1;
        (self.id, ask(&mut self.e, &format!("{} {command}", self.id)))
    }

    /// Sends `command` with the next id, checks it succeeds on one line, and returns the result.
    fn ok(&mut self, command: &str) -> String {
        let (id, answer) = self.ask(command);
        assert_eq!(answer.len(), 1, "{command}: {answer:?}");
        result_of(&answer[0], Some(id))
    }

    /// Sends `command` and checks it fails with exactly `message`.
    fn fails(&mut self, command: &str, message: &str) {
        let (id, answer) = self.ask(command);
        assert_eq!(answer, [format!("?{id} {message}")], "{command}");
    }

    /// Clears the board and plays `game`'s moves, passes included.
    fn replay(&mut self, game: &Game) {
        assert_eq!(self.ok("clear_board"), "");
        for (pos, mv) in game.positions().iter().zip(game.moves()) {
            assert_eq!(self.ok(&format!("play {} {}", gtp_colour(pos.side_to_move()), gtp_move(*mv))), "");
        }
    }
}

#[test]
fn a_match_runner_with_ids_passes_clocks_and_a_whole_game() {
    // No flag: the first line, with its id, is recognised as GTP.
    let mut r = Runner { e: Engine::start(&["--movetime", "20", "--move-overhead", "5"]), id: 0 };
    assert_eq!(r.ok("name"), "Magpie");
    assert_eq!(r.ok("version"), env!("CARGO_PKG_VERSION"));
    assert_eq!(r.ok("clear_board"), "");
    // A pass is refused while a legal move exists, and so is a move out of turn.
    r.fails("play b pass", "illegal move: a legal move exists");
    r.fails("play w f5", "illegal move: not white's turn");
    r.fails("play b a1", "illegal move: A1 flips no disc");
    r.fails("play b d4", "illegal move: D4 is occupied");

    // An explicit pass (neural-reversi's convention) and an implicit one (Edax's) give one board.
    let game = game_to_a_pass(3);
    let passer = gtp_colour(game.position().side_to_move());
    let other = gtp_colour(game.position().side_to_move().opposite());
    let reply = game.position().pass().legal_moves().first().unwrap().to_uppercase();
    r.replay(&game);
    r.fails(&format!("play {other} pass"), "illegal move: a legal move exists");
    assert_eq!(r.ok(&format!("play {passer} pass")), "");
    assert_eq!(r.ok(&format!("play {other} {reply}")), "");
    let explicit = r.ask("showboard").1;
    r.replay(&game);
    assert_eq!(r.ok(&format!("play {other} {reply}")), "");
    let implicit = r.ask("showboard").1;
    assert_eq!(explicit[1..], implicit[1..]);
    // Undo takes back the move and the pass it inserted.
    assert_eq!(r.ok("undo"), "");
    assert_eq!(r.ok("gogui-rules_legal_moves"), "pass");
    assert_eq!(r.ok("gogui-rules_side_to_move"), passer);

    // Clocks: time_settings, then time_left, then genmove; the answer comes well within the clock.
    assert_eq!(r.ok("clear_board"), "");
    assert_eq!(r.ok("time_settings 2 0 0"), "");
    assert_eq!(r.ok("time_left b 1 0"), "");
    let mv = legal_answer(&Position::initial(), &r.ok("genmove b"));
    assert_eq!(r.ok("time_left w 0.5 3"), "");
    let after = Position::initial().play(mv.square().unwrap());
    legal_answer(&after, &r.ok("genmove w"));
    assert_eq!(r.ok("time_settings 0 0 0"), "");

    // A whole game by genmove for both colours, checked against the library.
    assert_eq!(r.ok("clear_board"), "");
    let mut game = Game::default();
    while !game.position().is_game_over() {
        let colour = gtp_colour(game.position().side_to_move());
        let mv = legal_answer(game.position(), &r.ok(&format!("genmove {colour}")));
        game.play_strict(mv).unwrap();
    }
    let score = result_text(game.position().final_score_for_black());
    assert_eq!(r.ok("final_score"), score);
    assert_eq!(r.ok("gogui-rules_final_result"), score);
    // Asked to move in a finished game, a runner that stops after two passes gets them.
    assert_eq!(r.ok("genmove b"), "pass");
    assert_eq!(r.ok("genmove w"), "pass");
    // A pass sent to a finished game (gogui-twogtp ends games on two passes) is accepted and
    // changes nothing; a move is refused, naming it; undo takes the pass back.
    assert_eq!(r.ok("play w PASS"), "");
    r.fails("play b c4", "illegal move: C4: the game is over");
    assert_eq!(r.ok("final_score"), score);
    assert_eq!(r.ok("undo"), "");
    assert_eq!(r.ok("final_score"), score);

    let quit = r.id + 1;
    r.e.send(&format!("{quit} quit"));
    let (rest, status, stderr) = r.e.finish();
    assert_eq!(rest, [format!("={quit}"), String::new()]);
    assert!(status.success());
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn undo_showboard_small_boards_and_reg_genmove() {
    let mut e = Engine::start(&FAST);
    assert_eq!(ask(&mut e, "undo"), ["? cannot undo"]);
    assert_eq!(ok(&mut e, "play b f5"), "");
    let reply = legal_answer(&Position::initial().play("f5".parse().unwrap()), &ok(&mut e, "genmove w"));
    let mut game = Game::default();
    game.play_strict("f5".parse().unwrap()).unwrap();
    game.play_strict(reply).unwrap();
    let mut expected = vec!["=".to_string()];
    expected.extend(ascii_board(game.position()).lines().map(str::to_string));
    assert_eq!(ask(&mut e, "showboard"), expected);

    // reg_genmove answers without playing.
    let mv = legal_answer(game.position(), &ok(&mut e, "reg_genmove black"));
    assert!(game.position().is_legal(mv));
    assert_eq!(ask(&mut e, "showboard"), expected);

    assert_eq!(ok(&mut e, "undo"), "");
    assert_eq!(ok(&mut e, "gogui-rules_side_to_move"), "white");
    assert_eq!(ok(&mut e, "undo"), "");
    assert_eq!(ok(&mut e, "gogui-rules_legal_moves"), "D3 C4 F5 E6");
    assert_eq!(ask(&mut e, "7 undo"), ["?7 cannot undo"]);

    assert_eq!(ask(&mut e, "boardsize 10"), ["? unacceptable size"]);
    assert_eq!(ok(&mut e, "gogui-rules_board_size"), "8", "a refused size changes nothing");
    for size in [BoardSize::Four, BoardSize::Six] {
        let n = size.side();
        assert_eq!(ok(&mut e, &format!("boardsize {n}")), "");
        assert_eq!(ok(&mut e, "clear_board"), "");
        assert_eq!(ok(&mut e, "gogui-rules_board_size"), n.to_string());
        let mut rows = rules_rows(&Position::start(size));
        rows[0] = format!("= {}", rows[0]);
        assert_eq!(ask(&mut e, "gogui-rules_board"), rows);
        let (id, answer) = (9, ask(&mut e, "9 play b h8"));
        assert_eq!(answer, [format!("?{id} illegal move: H8 is not on the {n}x{n} board")]);
        let mut game = Game::new(Position::start(size));
        while !game.position().is_game_over() {
            let colour = gtp_colour(game.position().side_to_move());
            let mv = legal_answer(game.position(), &ok(&mut e, &format!("genmove {colour}")));
            game.play_strict(mv).unwrap();
        }
        assert_eq!(ok(&mut e, "final_score"), result_text(game.position().final_score_for_black()));
        let mut expected = vec!["=".to_string()];
        expected.extend(ascii_board(game.position()).lines().map(str::to_string));
        assert_eq!(ask(&mut e, "showboard"), expected);
    }
    // The current disc difference before the end.
    assert_eq!(ok(&mut e, "boardsize 8"), "");
    assert_eq!(ok(&mut e, "play b f5"), "");
    assert_eq!(ok(&mut e, "final_score"), "B+3");
}

#[test]
fn end_of_input_during_a_genmove_still_answers_it_and_what_follows() {
    let mut e = Engine::start(&["--protocol", "gtp", "--movetime", "400", "--own-book", "false"]);
    e.send("genmove b\nname");
    let (lines, status, stderr) = e.finish();
    assert!(status.success(), "{stderr}");
    assert_eq!(lines.len(), 4, "{lines:?}");
    legal_answer(&Position::initial(), &result_of(&lines[0], None));
    assert_eq!(lines[1..], ["", "= Magpie", ""]);
}

#[test]
fn commands_behind_a_genmove_wait_and_quit_comes_last() {
    let mut e = Engine::start(&["--protocol", "gtp", "--movetime", "30000", "--own-book", "false"]);
    let started = Instant::now();
    e.send("1 genmove b\n2 name\n3 quit\n4 name");
    let (lines, status, _) = e.finish();
    // quit cuts the long genmove short, but its answer still comes first.
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    assert!(status.success());
    assert_eq!(lines.len(), 6, "{lines:?}");
    legal_answer(&Position::initial(), &result_of(&lines[0], Some(1)));
    assert_eq!(lines[1..], ["", "=2 Magpie", "", "=3", ""]);
}

#[test]
fn errors_keep_the_id_and_leave_the_state() {
    let mut e = Engine::start(&FAST);
    assert_eq!(ok(&mut e, "play b f5"), "");
    assert_eq!(ask(&mut e, "17 frobnicate"), ["?17 unknown command"]);
    assert_eq!(ask(&mut e, "frobnicate"), ["? unknown command"]);
    assert_eq!(ask(&mut e, "5 play b z9"), ["?5 play: 'z9' is not a move (a1..h8 or pass)"]);
    assert_eq!(ask(&mut e, "6 play purple d6"), ["?6 play: 'purple' is not a colour (black or white)"]);
    assert_eq!(ask(&mut e, "8 boardsize 9"), ["?8 unacceptable size"]);
    assert_eq!(ask(&mut e, "9 set_game Go"), ["?9 unsupported game"]);
    assert_eq!(ask(&mut e, "10 komi lots"), ["?10 komi: 'lots' is not a number"]);
    assert_eq!(ask(&mut e, "11 genmove b"), ["?11 illegal move: not black's turn"]);
    assert_eq!(ask(&mut e, "12 # just an id"), ["?12 missing command"]);
    // Comments and blank lines get no answer; control characters are dropped.
    e.send("# a comment\n\n   \nna\u{1}me # trailing comment");
    assert_eq!(block(&mut e), ["= Magpie"]);
    // Still White to move after f5.
    assert_eq!(ok(&mut e, "gogui-rules_side_to_move"), "white");
    assert_eq!(ok(&mut e, "final_score"), "B+3");
}

/// What the engine reads of a line: the text before any `#` (the strategies below make no control
/// characters).
fn visible(line: &str) -> &str {
    line.split('#').next().unwrap_or("")
}

/// The id a line begins with, as the engine reads it: a number followed by a blank.
fn line_id(line: &str) -> Option<u32> {
    let first = visible(line).split_whitespace().next()?;
    if first.chars().all(|c| c.is_ascii_digit()) { first.parse().ok() } else { None }
}

/// The command word of a line, after its id, in lower case.
fn command_word(line: &str) -> String {
    let mut words = visible(line).split_whitespace();
    if line_id(line).is_some() {
        words.next();
    }
    words.next().unwrap_or("").to_ascii_lowercase()
}

/// Lines for the garbage test: arbitrary text, and known commands with arbitrary arguments, either
/// with or without an id.
fn garbage_line() -> impl Strategy<Value = String> {
    let names: Vec<&'static str> = magpie::protocol::gtp::COMMANDS.to_vec();
    let command =
        (proptest::sample::select(names), "[ a-zA-Z0-9.#+-]{0,16}").prop_map(|(c, args)| format!("{c} {args}"));
    let line = prop_oneof!["\\PC{0,40}", command];
    (proptest::option::of("[0-9]{1,11}"), line).prop_map(|(id, line)| match id {
        Some(id) => format!("{id} {line}"),
        None => line,
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, max_shrink_iters: 64, ..ProptestConfig::default() })]

    /// Arbitrary lines: each one that is not blank or a comment gets exactly one answer block
    /// beginning with `=` or `?` and the line's id, nothing panics, and `name` is still answered
    /// afterwards.
    #[test]
    fn garbage_lines_get_one_answer_each(lines in proptest::collection::vec(garbage_line(), 1..30)) {
        let mut e = Engine::start(&FAST);
        let mut ids = Vec::new();
        for line in &lines {
            // Commands with lasting effects are not garbage: quit exits, genmoves take time.
            if ["quit", "genmove", "reg_genmove"].contains(&command_word(line).as_str()) {
                continue;
            }
            e.send(line);
            if !visible(line).trim().is_empty() {
                ids.push(line_id(line));
            }
        }
        for id in ids {
            let answer = block(&mut e);
            prop_assert!(!answer.is_empty());
            let head = &answer[0];
            let id = id.map_or(String::new(), |id| id.to_string());
            let rest = head.strip_prefix(&format!("={id}")).or_else(|| head.strip_prefix(&format!("?{id}")));
            prop_assert!(rest.is_some_and(|r| r.is_empty() || r.starts_with(' ')), "{:?} for id {:?}", answer, id);
        }
        prop_assert_eq!(ask(&mut e, "name"), ["= Magpie"]);
        let (rest, status, stderr) = e.finish();
        prop_assert!(rest.is_empty(), "{:?}", rest);
        prop_assert!(status.success());
        prop_assert!(!stderr.contains("panicked"), "{}", stderr);
    }
}

/// `--hash` and `--threads` on the command line (GTP has no options command): a whole game by
/// `genmove` for both colours with a small table and two threads, each answer legal, and
/// `clear_board` (a new game, which clears the table) before a second one.
#[test]
fn hash_and_threads_from_the_command_line() {
    let mut args = FAST.to_vec();
    args.extend(["--hash", "1", "--threads", "2"]);
    let mut e = Engine::start(&args);
    for _ in 0..2 {
        assert_eq!(ok(&mut e, "boardsize 6"), "");
        assert_eq!(ok(&mut e, "clear_board"), "");
        let mut game = Game::new(Position::start(BoardSize::Six));
        while !game.position().is_game_over() {
            let colour = gtp_colour(game.position().side_to_move());
            let mv = legal_answer(game.position(), &ok(&mut e, &format!("genmove {colour}")));
            game.play_strict(mv).unwrap();
        }
        assert_eq!(ok(&mut e, "final_score"), result_text(game.position().final_score_for_black()));
    }
}
