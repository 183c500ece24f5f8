//! `scripts/register-quarry.sh` over its command line: `-h` prints the usage, an unknown option is
//! refused in one line, and a registration writes Quarry's engine section. Each run gets a
//! temporary HOME, removed afterwards, so that no real `~/.quarry` is touched and nothing is left.

mod common;

use common::TempDir;
use std::path::Path;
use std::process::{Command, Output};

/// Runs the script with `args` and HOME set to `home` (QUARRY_CONFIG unset).
fn register(home: &Path, args: &[&str]) -> Output {
    Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/register-quarry.sh"))
        .args(args)
        .env("HOME", home)
        .env_remove("QUARRY_CONFIG")
        .output()
        .expect("the script runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

#[test]
fn help_prints_the_usage_and_exits_0() {
    let home = TempDir::new("help");
    for flag in ["-h", "--help"] {
        let out = register(home.path(), &[flag]);
        assert_eq!(out.status.code(), Some(0), "{flag}: {}", text(&out.stderr));
        let usage = text(&out.stdout);
        assert!(usage.contains("Usage: scripts/register-quarry.sh [-h|--help]"), "{flag}: {usage}");
        assert!(usage.contains("ENGINE_ARGS"), "{flag}: {usage}");
        assert!(out.stderr.is_empty(), "{flag}: {}", text(&out.stderr));
    }
    assert!(home.entries().is_empty(), "{:?}", home.entries());
}

#[test]
fn an_unknown_option_is_refused_in_one_line_with_status_2() {
    let home = TempDir::new("unknown");
    for option in ["-x", "--level", "-help"] {
        let out = register(home.path(), &[option, "5"]);
        assert_eq!(out.status.code(), Some(2), "{option}");
        let err = text(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{option}: {err}");
        assert!(err.starts_with(&format!("register-quarry: unknown option '{option}'")), "{err}");
        assert!(out.stdout.is_empty());
    }
    assert!(home.entries().is_empty(), "{:?}", home.entries());
}

#[test]
fn a_binary_and_its_options_are_registered_in_home_quarry() {
    let home = TempDir::new("register");
    let magpie = env!("CARGO_BIN_EXE_magpie");
    let out = register(home.path(), &[magpie, "--level", "5"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(home.entries(), [".quarry"]);
    let config = std::fs::read_to_string(home.path().join(".quarry")).expect("written");
    let section = format!("[GTP Engine \"Magpie {} --level 5\"]", env!("CARGO_PKG_VERSION"));
    assert!(config.contains(&section), "{config}");
    assert!(config.contains(&format!("Command line\t\t= \"{magpie} --protocol gtp --level 5\"")), "{config}");
    // `--` lets the binary come after it.
    let out = register(home.path(), &["--", magpie]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let config = std::fs::read_to_string(home.path().join(".quarry")).expect("written");
    assert_eq!(config.matches("[GTP Engine ").count(), 2, "{config}");
}
