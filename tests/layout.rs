//! The source tree keeps the layering docs/development.md describes: the module map of `src/lib.rs`
//! names every top-level module; the tools a user runs, the match runner and the training pipeline
//! are separate modules that do not reach into each other or into the command line; and no two
//! tools import each other.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, recursively.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

fn src(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(path)
}

/// The code of a file without its comments, so that a doc comment naming a module is no use of it.
fn code(path: &Path) -> String {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_module_map_names_every_module() {
    let lib = fs::read_to_string(src("lib.rs")).unwrap();
    let modules: Vec<&str> =
        lib.lines().filter_map(|l| l.strip_prefix("pub mod ")).map(|m| m.trim_end_matches(';')).collect();
    assert!(modules.len() > 10, "{modules:?}");
    let map: String = lib.lines().filter(|l| l.starts_with("//!")).collect::<Vec<_>>().join("\n");
    for module in &modules {
        assert!(map.contains(&format!("[`{module}`]")), "src/lib.rs's module map does not name `{module}`");
    }
    for folder in ["tools", "matches", "train"] {
        assert!(modules.contains(&folder), "no module {folder}");
    }
}

#[test]
fn tools_matches_and_training_do_not_reach_into_each_other() {
    let rules = [
        ("tools", ["crate::train", "crate::matches", "crate::cli"]),
        ("matches", ["crate::tools", "crate::train", "crate::cli"]),
        ("train", ["crate::tools", "crate::matches", "crate::cli"]),
    ];
    for (folder, banned) in rules {
        for file in sources(&src(folder)) {
            let code = code(&file);
            for word in banned {
                assert!(!code.contains(word), "{} uses {word}", file.display());
            }
        }
    }
    // The layers below the tools know nothing of them.
    for folder in ["board", "formats", "eval", "search", "book", "engine", "protocol"] {
        for file in sources(&src(folder)) {
            let code = code(&file);
            for word in ["crate::tools", "crate::matches", "crate::train", "crate::cli"] {
                assert!(!code.contains(word), "{} uses {word}", file.display());
            }
        }
    }
}

#[test]
fn no_two_tools_import_each_other() {
    // tool → the tools it imports, as `super::NAME` or `crate::tools::NAME`.
    let tools_dir = src("tools");
    let names: BTreeSet<String> = fs::read_dir(&tools_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_stem().is_some_and(|s| s != "mod"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for name in &names {
        let dir = tools_dir.join(name);
        let files = if dir.is_dir() { sources(&dir) } else { vec![tools_dir.join(format!("{name}.rs"))] };
        for file in files {
            let code = code(&file);
            for other in names.iter().filter(|o| *o != name) {
                let inside_folder = dir.is_dir() && code.contains(&format!("super::super::{other}"));
                if code.contains(&format!("crate::tools::{other}"))
                    || (!dir.is_dir() && code.contains(&format!("super::{other}")))
                    || inside_folder
                {
                    uses.entry(name.clone()).or_default().insert(other.clone());
                }
            }
        }
    }
    for (tool, imported) in &uses {
        for other in imported {
            let back = uses.get(other).is_some_and(|b| b.contains(tool));
            assert!(!back, "tools/{tool} and tools/{other} import each other");
        }
    }
}
