//! The `magpie` binary's command line, driven as a user would: perft output and bad arguments.

use magpie::cli::parse_args;
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
