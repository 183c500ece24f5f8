//! The `magpie` binary's command line, driven as a user would: perft output and bad arguments.

use magpie::cli::parse_args;

mod common;
use proptest::prelude::*;
use std::process::{Command, Output};

fn magpie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_magpie")).args(args).output().expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn perft_prints_leaves_time_and_speed() {
    let out = magpie(&["perft", "6"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("\nleaves: 8200\n"), "{text}");
    assert!(text.contains("\ntime: "), "{text}");
    assert!(text.contains("\nleaves/s: "), "{text}");
}

#[test]
fn perft_divide_lists_root_moves() {
    let out = magpie(&["perft", "3", "--divide"]);
    let text = stdout(&out);
    for line in ["d3: 14", "c4: 14", "f5: 14", "e6: 14", "leaves: 56"] {
        assert!(text.lines().any(|l| l == line), "missing {line} in {text}");
    }
}

#[test]
fn perft_from_a_position_and_small_boards() {
    // FFO #1 has 14 empties; the same position with the size given explicitly.
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let out = magpie(&["perft", "1", "--position", ffo1, "--size", "8"]);
    assert!(stdout(&out).contains("\nleaves: 8\n"), "{}", stdout(&out));
    let out = magpie(&["perft", "4", "--size", "4"]);
    assert!(out.status.success());
    let out = magpie(&["perft", "11", "--size", "6", "--convention", "edax"]);
    assert!(out.status.success());
    let out = magpie(&["perft", "4", "--mask-overhead"]);
    assert!(stdout(&out).contains("masked/direct"), "{}", stdout(&out));
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["perft", "x"], "'x'"),
        (&["perft", "100"], "100"),
        (&["perft", "3", "--size", "7"], "'7'"),
        (&["perft", "3", "--position", "XXXX"], "--position"),
        (&["perft", "3", "--position", "---------------------------OX------XO--------------------------q X"], "'q'"),
        (&["perft", "3", "--convention", "nope"], "nope"),
        (&["perft"], "depth"),
        (&["nonsense"], "nonsense"),
        (&["--hash", "0"], "'0' for '--hash"),
        (&["--hash", "65537"], "'65537' for '--hash"),
        (&["--hash", "big"], "'big' for '--hash"),
        (&["--threads", "0"], "'0' for '--threads"),
        (&["--threads", "999"], "'999' for '--threads"),
        (&["--protocol", "gtp", "--threads", "-1"], "'-1'"),
        (&["bestmove", "--threads", "0"], "'0' for '--threads"),
        (&["bestmove", "--hash", "0"], "'0' for '--hash"),
        (&["solve", "tests/data/fforum-1-19.obf", "--threads", "257"], "'257' for '--threads"),
        (&["solve", "tests/data/fforum-1-19.obf", "--time-limit", "0"], "'0' for '--time-limit"),
        (&["solve", "tests/data/fforum-1-19.obf", "--time-limit", "soon"], "'soon' for '--time-limit"),
        (&["--book", "tests/data/no-such.book"], "tests/data/no-such.book"),
        (&["--book", "tests/data/perft.txt"], "tests/data/perft.txt: not a Magpie book"),
        (&["--own-book", "perhaps"], "'perhaps' for '--own-book"),
        (&["--book-randomness", "65"], "'65' for '--book-randomness"),
        (&["--book-seed", "2147483648"], "'2147483648' for '--book-seed"),
        (&["bestmove", "--book", "tests/data/perft.txt"], "tests/data/perft.txt"),
        (&["bestmove", "--book", "x.book", "--no-book"], "--no-book"),
        (&["--own-book", "false", "bestmove"], "--own-book is an engine option"),
        // A negative number is a value out of its range, named, not an unknown option.
        (&["bestmove", "--threads", "-1"], "'-1' for '--threads <N>': expected a whole number from 1 to 256"),
        (&["bestmove", "--nodes", "-5"], "'-5' for '--nodes <NODES>': expected a whole number, 1 or more"),
        (&["bestmove", "--depth", "-2"], "'-2' for '--depth <DEPTH>': expected a depth in plies"),
        (&["perft", "-3"], "'-3' for '<DEPTH>': expected a whole number from 0 to 64"),
        (&["datagen", "--games", "-3", "--out", "x.bin"], "'-3' for '--games <GAMES>'"),
        (&["--hash", "-5"], "'-5' for '--hash <MIB>': expected a whole number from 1 to 65536"),
        // A stray word after a position is named, not counted among its squares.
        (
            &["bestmove", "--fen", "---------------------------OX------XO--------------------------- X f5"],
            "--fen: unexpected 'f5' after the position",
        ),
        (
            &["bestmove", "--fen", "--------------------------OX------XO--------------------------- X"],
            "has 63 squares then a side to move",
        ),
        // The book and the weights word the same fault the same way.
        (&["--book", "no-such.book"], "--book: no-such.book: No such file or directory"),
        (&["--weights", "no-such.w"], "--weights: no-such.w: No such file or directory"),
        (&["--book", "tests"], "--book: tests: not a regular file"),
        (&["--weights", "tests"], "--weights: tests: not a regular file"),
    ];
    for (args, token) in cases {
        let out = magpie(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.to_lowercase().contains(&token.to_lowercase()), "{args:?} should name {token}: {err}");
        assert!(stdout(&out).is_empty());
    }
}

/// A search depth is read as the protocols read `go depth`: 0 searches one ply and anything beyond
/// 60 to the end, where a depth of 1000 was refused.
#[test]
fn search_depths_follow_the_protocols_rule() {
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let out = magpie(&["bestmove", "--fen", ffo1, "--depth", "1000"]);
    assert_eq!(stdout(&out), "g8 +18.00 exact\n", "{}", stderr(&out));
    let json = |depth: &str| -> serde_json::Value {
        let out = magpie(&["bestmove", "--fen", ffo1, "--depth", depth, "--json"]);
        serde_json::from_str(&stdout(&out)).unwrap()
    };
    assert_eq!(json("0")["depth"], 1);
    assert_eq!(json("99")["solved"], true);
}

#[test]
fn help_and_version_succeed() {
    assert!(magpie(&["--help"]).status.success());
    assert!(magpie(&["--version"]).status.success());
    assert!(stdout(&magpie(&["perft", "--help"])).contains("--convention"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Arbitrary arguments to perft are either accepted or refused with one line, never a panic.
    #[test]
    fn arbitrary_perft_arguments(args in proptest::collection::vec("\\PC{0,12}", 0..5)) {
        let mut full = vec!["magpie".to_string(), "perft".to_string()];
        full.extend(args);
        if let Err(e) = parse_args(full) {
            prop_assert!(!e.0.contains('\n'));
            prop_assert!(!e.0.is_empty());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, max_shrink_iters: 64, ..ProptestConfig::default() })]

    /// The same through the real binary: exit 0 with a report (or the help), or exit 2 with one
    /// `error:` line.
    #[test]
    fn arbitrary_arguments_to_the_binary(args in proptest::collection::vec("[-a-z0-9XO ]{0,10}", 0..4)) {
        let mut full = vec!["perft"];
        full.extend(args.iter().map(String::as_str));
        // Keep accepted runs short: a depth above 6 would only make the test slow.
        let shallow = full.get(1).and_then(|d| d.parse::<u32>().ok()).is_none_or(|d| d <= 6);
        prop_assume!(shallow);
        let out = magpie(&full);
        match out.status.code() {
            // A count, or the help that -h / --help asks for.
            Some(0) => prop_assert!(stdout(&out).contains("leaves: ") || stdout(&out).contains("Usage: ")),
            Some(2) => {
                let err = stderr(&out);
                prop_assert_eq!(err.lines().count(), 1, "{}", err);
                prop_assert!(err.starts_with("error: "));
            }
            other => prop_assert!(false, "exit status {:?} for {:?}: {}", other, full, stderr(&out)),
        }
    }
}

/// A table larger than the machine can give: one `error:` line and status 2 before anything is
/// read, from the engine and from the subcommands that search (a machine that can give 64 GiB of
/// address space accepts it, and the engine then exits at the end of its empty input).
#[test]
fn a_table_that_cannot_be_allocated_is_one_error_line() {
    for args in [&["--hash", "65536"][..], &["bestmove", "--hash", "65536", "--depth", "1"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_magpie"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("the binary runs");
        if out.status.success() {
            continue;
        }
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&out), "error: --hash: cannot allocate a 65536 MiB hash table\n", "{args:?}");
        assert!(stdout(&out).is_empty());
    }
}

/// `magpie bestmove --wld`: `<move> win|draw|loss` once solved (FFO #1 is a win: G8 +18, and H1,
/// H7, A2 and A3 win too), the usual score when the search did not reach the end; `--threads` and
/// `--hash` are accepted.
#[test]
fn bestmove_wld_says_win_draw_or_loss() {
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let out = magpie(&["bestmove", "--fen", ffo1, "--wld", "--threads", "2", "--hash", "4"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let words: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(words.len(), 2, "{text}");
    assert!(["g8", "h1", "h7", "a2", "a3"].contains(&words[0]), "{text}");
    assert_eq!(words[1], "win", "{text}");
    let out = magpie(&["bestmove", "--fen", ffo1, "--wld", "--depth", "4"]);
    let text = stdout(&out);
    assert!(text.trim_end().split(' ').nth(1).is_some_and(|score| score.parse::<f64>().is_ok()), "{text}");
    let out = magpie(&["bestmove", "--fen", ffo1, "--depth", "14"]);
    assert_eq!(stdout(&out), "g8 +18.00 exact\n");
}

/// Samples from a few random games, scored 0: enough records to read, too few to fit anything.
fn few_samples(path: &std::path::Path, games: usize) {
    use magpie::formats::samples::{Sample, Source};
    let mut rng = magpie::rng::Rng::new(7);
    let mut bytes = Vec::new();
    for _ in 0..games {
        let mut pos = magpie::board::Position::initial();
        while !pos.is_game_over() {
            if pos.must_pass() {
                pos = pos.pass();
                continue;
            }
            let sample =
                Sample { player: pos.player(), opponent: pos.opponent(), score: 0, depth: 0, source: Source::SelfPlay };
            bytes.extend_from_slice(&sample.to_bytes());
            let moves: Vec<_> = pos.legal_moves().iter().collect();
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
    std::fs::write(path, bytes).unwrap();
}

/// Runs `args` and checks the refusal: exit status 2, nothing on stdout, one `error:` line on
/// stderr holding each of `words`.
fn refused(args: &[&str], words: &[&str]) {
    let out = magpie(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}{}", stdout(&out));
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    for word in words {
        assert!(err.contains(word), "{args:?} should name {word}: {err}");
    }
}

#[test]
fn bad_or_empty_input_files_exit_2_naming_the_file() {
    let dir = common::TempDir::new("cli-input");
    let empty = dir.join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let broken = dir.join("broken.bin");
    std::fs::write(&broken, b"nineteen bytes here").unwrap();
    let missing = dir.join("missing.bin");
    let out = dir.join("w.bin");
    let no_folder = dir.join("no-such-folder/w.bin");
    let [empty, broken, missing, out, no_folder] =
        [&empty, &broken, &missing, &out, &no_folder].map(|p| p.display().to_string());
    for data in [&empty, &broken, &missing] {
        refused(&["train", data, "--out", &out, "--no-progress"], &[data]);
        refused(&["probcut", data, "--out", &out, "--no-progress"], &[data]);
        refused(&["relabel", data, "--depth", "4", "--out", &out, "--no-progress"], &[data]);
    }
    refused(&["train", &empty, "--out", &no_folder], &["--out", "no-such-folder"]);
    refused(&["probcut", &empty, "--out", &no_folder], &["--out", "no-such-folder"]);
    refused(&["datagen", "--games", "1", "--out", &no_folder], &["--out", "no-such-folder"]);
    refused(&["relabel", &empty, "--depth", "4", "--out", &no_folder], &["--out", "no-such-folder"]);
    refused(&["wthor-samples", "--wthor", &missing, "--out", &out], &["--wthor", &missing]);
    refused(&["train", &broken, "--out", &out, "--prior", &broken], &["--prior", &broken]);
    assert!(dir.entries().iter().all(|name| name != "w.bin"), "nothing written: {:?}", dir.entries());
}

#[test]
fn an_empty_suite_or_game_file_is_refused() {
    let dir = common::TempDir::new("cli-empty");
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let empty = empty.display().to_string();
    refused(&["solve", &empty, "--no-progress"], &[&empty, "no position"]);
    refused(&["review", &empty, "--no-progress"], &[&empty, "no game"]);
}

/// `probcut` on too few positions says how many it needs and writes nothing, before searching.
#[test]
fn probcut_refuses_what_it_cannot_fit() {
    let dir = common::TempDir::new("cli-probcut");
    let data = dir.join("few.bin");
    few_samples(&data, 3);
    let out = dir.join("w.bin");
    let [data, out_text] = [&data, &out].map(|p| p.display().to_string());
    refused(&["probcut", &data, "--out", &out_text, "--positions", "40", "--no-progress"], &[&data, "needs 30"]);
    let args = ["probcut", &data, "--out", &out_text, "--positions", "600", "--solve-positions", "20", "--no-progress"];
    refused(&args, &["--solve-positions", "needs 30"]);
    assert!(!out.exists());
}

/// Each subcommand's help lists its own options and no other: the engine's options appear only
/// where the subcommand uses them.
#[test]
fn each_subcommand_shows_only_its_options() {
    let expected: &[(&str, &[&str])] = &[
        ("perft", &["--size", "--position", "--convention", "--divide", "--mask-overhead"]),
        (
            "bestmove",
            &[
                "--fen",
                "--moves",
                "--size",
                "--movetime",
                "--depth",
                "--nodes",
                "--wld",
                "--eval",
                "--weights",
                "--network",
                "--level",
                "--selectivity",
                "--hash",
                "--threads",
                "--book",
                "--no-book",
                "--book-randomness",
                "--book-seed",
                "--multipv",
                "--json",
            ],
        ),
        ("bench", &["--depth", "--eval", "--weights", "--network", "--selectivity"]),
        (
            "solve",
            &[
                "--wld",
                "--selectivity",
                "--weights",
                "--hash",
                "--threads",
                "--time-limit",
                "--first",
                "--json",
                "--no-progress",
            ],
        ),
        (
            "accuracy",
            &[
                "--depth",
                "--selectivity",
                "--eval",
                "--weights",
                "--network",
                "--threads",
                "--hash",
                "--first",
                "--json",
                "--no-progress",
            ],
        ),
        (
            "review",
            &[
                "--from",
                "--exact",
                "--depth",
                "--selectivity",
                "--weights",
                "--hash",
                "--threads",
                "--json",
                "--no-progress",
            ],
        ),
        (
            "analyze",
            &[
                "--game",
                "--moves",
                "--fen",
                "--depth",
                "--movetime",
                "--exact",
                "--selectivity",
                "--weights",
                "--hash",
                "--threads",
                "--svg",
                "--json",
                "--no-progress",
            ],
        ),
        ("fit-eval", &["--wthor"]),
        (
            "openings",
            &[
                "--wthor",
                "--out",
                "--plies",
                "--min-games",
                "--count",
                "--skip",
                "--seed",
                "--balanced",
                "--balance-depth",
                "--threads",
            ],
        ),
        (
            "wthor-samples",
            &[
                "--wthor",
                "--out",
                "--exact-empties",
                "--solved-only",
                "--depth",
                "--selectivity",
                "--weights",
                "--shard",
                "--threads",
                "--no-progress",
            ],
        ),
        (
            "train",
            &[
                "--out",
                "--iterations",
                "--holdout",
                "--l2",
                "--smooth",
                "--prior",
                "--weights",
                "--threads",
                "--no-progress",
            ],
        ),
        (
            "probcut",
            &[
                "--out",
                "--weights",
                "--network",
                "--positions",
                "--max-depth",
                "--solve-positions",
                "--solve-max-empties",
                "--threads",
                "--seed",
                "--no-progress",
            ],
        ),
        ("relabel", &["--out", "--depth", "--selectivity", "--weights", "--threads", "--no-progress"]),
        (
            "datagen",
            &[
                "--games",
                "--out",
                "--seed",
                "--shard",
                "--threads",
                "--depth",
                "--exact-empties",
                "--random-plies",
                "--random-rate",
                "--selectivity",
                "--weights",
                "--hash",
                "--no-progress",
            ],
        ),
    ];
    for (command, options) in expected {
        let help = stdout(&magpie(&[command, "--help"]));
        let mut listed: Vec<&str> = help
            .lines()
            .map(str::trim_start)
            .filter(|l| l.starts_with('-'))
            .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
            .map(|w| w.trim_end_matches(','))
            .filter(|w| *w != "--help")
            .collect();
        listed.sort_unstable();
        let mut want = options.to_vec();
        want.sort_unstable();
        assert_eq!(listed, want, "{command} --help:\n{help}");
        // No help text names the subcommands an option serves: each describes its own use.
        assert!(!help.contains("engine, bestmove"), "{command} --help:\n{help}");
    }
    // The match runner's options are its own too.
    let help = stdout(&magpie(&["match", "--help"]));
    assert!(help.contains("--engine") && help.contains("--json") && !help.contains("--weights"), "{help}");
}

/// An engine option before a subcommand is the subcommand's when it has one, and refused otherwise.
#[test]
fn engine_options_before_a_subcommand() {
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let out = magpie(&["--selectivity", "0", "--hash", "4", "bestmove", "--fen", ffo1, "--depth", "14"]);
    assert_eq!(stdout(&out), "g8 +18.00 exact\n", "{}", stderr(&out));
    let out = magpie(&[
        "--movetime",
        "20",
        "match",
        "--engine",
        "name=a",
        "--engine",
        "name=b",
        "--games",
        "2",
        "--no-progress",
    ]);
    assert!(stdout(&out).starts_with("a vs b: 2 games, 20 ms per move\n"), "{}{}", stdout(&out), stderr(&out));
    refused(&["--level", "3", "solve", "tests/data/fforum-1-19.obf"], &["--level", "solve"]);
    refused(&["--protocol", "gtp", "perft", "3"], &["--protocol", "perft"]);
    refused(&["--selectivity", "2", "perft", "3"], &["--selectivity", "perft"]);
}

/// `--json` output is one JSON object a line, with the documented fields.
#[test]
fn json_output_parses() {
    let json_lines = |args: &[&str]| -> Vec<serde_json::Value> {
        let out = magpie(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))).collect()
    };
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let answer = json_lines(&["bestmove", "--fen", ffo1, "--json"]);
    assert_eq!(answer.len(), 1);
    let answer = &answer[0];
    assert_eq!((answer["move"].as_str(), answer["score"].as_f64()), (Some("g8"), Some(18.0)));
    assert_eq!((answer["solved"].as_bool(), answer["result"].as_str()), (Some(true), Some("win")));
    assert_eq!(answer["pv"][0], "g8");
    assert_eq!(answer["position"], ffo1);

    let solved = json_lines(&["solve", "tests/data/fforum-1-19.obf", "--json", "--no-progress"]);
    assert_eq!(solved.len(), 20);
    assert!(solved[..19].iter().all(|p| p["type"] == "position" && p["check"] == "ok"), "{solved:?}");
    assert_eq!((solved[0]["move"].as_str(), solved[0]["expected_score"].as_i64()), (Some("g8"), Some(18)));
    let total = &solved[19];
    assert_eq!((total["type"].as_str(), total["agree"].as_u64()), (Some("total"), Some(19)));
    assert_eq!(total["cut"].as_u64(), Some(0));

    let reviewed = json_lines(&["review", "tests/data/ntest-TestGames.ggf", "--from", "12", "--json", "--no-progress"]);
    let total = reviewed.last().unwrap();
    assert_eq!((total["type"].as_str(), total["games"].as_u64()), (Some("total"), Some(12)));
    let saio = reviewed.iter().find(|p| p["name"] == "Saio1200").unwrap();
    assert_eq!(
        (saio["type"].as_str(), saio["games"].as_u64(), saio["moves"].as_u64()),
        (Some("player"), Some(12), Some(74))
    );
    // A line per game first, with its players and its opening.
    let games: Vec<_> = reviewed.iter().filter(|g| g["type"] == "game").collect();
    assert_eq!(games.len(), 12);
    assert_eq!(
        (games[0]["number"].as_u64(), games[0]["black"].as_str(), games[0]["opening"].as_str()),
        (Some(1), Some("Saio1200"), Some("No-Kung"))
    );
}

/// `magpie openings` writes distinct lines from WTHOR games; another `--skip` gives other ones,
/// and `magpie match` plays them.
#[test]
fn openings_from_tournament_games() {
    use magpie::formats::wthor::{WthorGame, WthorHeader, write_wtb};
    let dir = common::TempDir::new("cli-openings");
    let mut rng = magpie::rng::Rng::new(3);
    let games: Vec<WthorGame> = (0..40)
        .map(|_| {
            let (mut pos, mut moves) = (magpie::board::Position::initial(), Vec::new());
            while moves.len() < 12 {
                let legal: Vec<_> = pos.legal_moves().iter().collect();
                moves.push(legal[rng.below(legal.len())]);
                pos = pos.play(*moves.last().unwrap());
            }
            WthorGame { tournament: 0, black: 0, white: 0, black_discs: 32, theoretical_black_discs: 32, moves }
        })
        .collect();
    let wthor = dir.join("WTH_2000.wtb");
    std::fs::write(&wthor, write_wtb(&WthorHeader { games: 0, year: 2000, depth: 24 }, &games)).unwrap();
    let [wthor, first, second] = [wthor, dir.join("a.txt"), dir.join("b.txt")].map(|p| p.display().to_string());
    for (out, skip) in [(&first, "0"), (&second, "10")] {
        let args = ["openings", "--wthor", &wthor, "--plies", "6", "--count", "10", "--skip", skip, "--out", out];
        let run = magpie(&args);
        assert!(run.status.success(), "{}", stderr(&run));
        assert!(stdout(&run).contains("wrote 10 (from "), "{}", stdout(&run));
    }
    let read =
        |path: &str| -> Vec<String> { std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect() };
    let (a, b) = (read(&first), read(&second));
    assert_eq!((a.len(), b.len()), (10, 10));
    assert!(a.iter().all(|l| l.len() == 12 && !b.contains(l)), "{a:?} {b:?}");
    let played = magpie(&[
        "match",
        "--engine",
        "name=x",
        "--engine",
        "name=y",
        "--openings",
        &first,
        "--games",
        "2",
        "--movetime",
        "5",
        "--no-progress",
    ]);
    assert!(stdout(&played).starts_with("x vs y: 2 games"), "{}", stderr(&played));
    refused(&["openings", "--wthor", &wthor, "--plies", "6", "--skip", "1000", "--out", &first], &["no opening"]);

    // --balanced: every line written is within the discs of a draw by the same search
    // (`bestmove` at the balance depth), the lines keep the shuffle's order, and a bound no
    // position exceeds writes what the plain command writes.
    let balanced = dir.join("c.txt").display().to_string();
    let args =
        ["openings", "--wthor", &wthor, "--plies", "6", "--count", "5", "--balanced", "2", "--balance-depth", "4"];
    let run = magpie(&[&args[..], &["--threads", "2", "--out", &balanced]].concat());
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(stdout(&run).contains("examined, 5 within 2 discs at depth 4"), "{}", stdout(&run));
    let kept = read(&balanced);
    assert_eq!(kept.len(), 5);
    for line in &kept {
        let best = magpie(&["bestmove", "--moves", line, "--depth", "4", "--no-book"]);
        let score: f64 = stdout(&best).split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(score.abs() <= 2.0, "{line}: {}", stdout(&best));
    }
    let everything = [&args[..3], &["--plies", "6", "--count", "10", "--balanced", "64", "--out", &balanced]].concat();
    assert!(magpie(&everything).status.success());
    assert_eq!(read(&balanced), a);
    refused(&[&args[..3], &["--balanced", "65", "--out", &balanced]].concat(), &["65"]);
}

/// `solve --time-limit`: a position not solved in time is stopped and reported as cut, with the
/// move of the search so far, counted apart from those that agree or disagree; the run succeeds.
#[test]
fn solve_cuts_positions_at_the_time_limit() {
    // FFO #1 (14 empties, solved in milliseconds), then the start of the game (60 empties: no
    // machine solves it in a second).
    let ffo1 = include_str!("data/fforum-1-19.obf").lines().next().unwrap();
    let start = "---------------------------OX------XO--------------------------- X";
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("solve-time-limit.obf");
    std::fs::write(&file, format!("{ffo1}\n{start}\n")).unwrap();
    let path = file.to_str().unwrap().to_string();
    let out = magpie(&["solve", &path, "--time-limit", "1", "--threads", "1", "--json", "--no-progress"]);
    let table = magpie(&["solve", &path, "--time-limit", "1", "--threads", "1", "--no-progress"]);
    std::fs::remove_file(&file).unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!((lines[0]["check"].as_str(), lines[0]["score"].as_i64()), (Some("ok"), Some(18)));
    assert_eq!((lines[1]["check"].as_str(), lines[1]["empties"].as_u64()), (Some("cut"), Some(60)));
    let position = start.parse::<magpie::formats::ObfLine>().unwrap().position;
    let cut_move: magpie::board::Move = lines[1]["move"].as_str().unwrap().parse().unwrap();
    assert!(position.is_legal(cut_move), "{cut_move} in {position}");
    assert!(lines[1]["time"].as_f64().unwrap() < 60.0, "stopped soon after the limit: {}", lines[1]);
    let total = &lines[2];
    assert_eq!(
        (total["positions"].as_u64(), total["agree"].as_u64(), total["disagree"].as_u64(), total["cut"].as_u64()),
        (Some(2), Some(1), Some(0), Some(1))
    );
    assert!(table.status.success());
    let text = stdout(&table);
    assert!(
        text.contains("cut at the time limit") && text.contains("1 agree, 0 disagree, 0 unchecked, 1 cut"),
        "{text}"
    );
    let header = "solving 2 positions (exact, selectivity 5, 1 thread, 64 MiB table, at most 1 s a position)";
    assert!(text.starts_with(header), "{text}");
}
