//! Perft from the start position against the published table in `tests/data/perft.txt`, under both
//! the standard convention and Edax's. Rows marked `deep` run in release builds only.

use magpie::board::{Convention, Position, perft};

struct Row {
    depth: u32,
    standard: u64,
    edax: u64,
    deep: bool,
}

fn table() -> Vec<Row> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt"))
        .expect("tests/data/perft.txt is readable");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            Row {
                depth: fields[0].parse().expect("depth"),
                standard: fields[1].parse().expect("standard count"),
                edax: fields[2].parse().expect("edax count"),
                deep: fields.get(3) == Some(&"deep"),
            }
        })
        .collect()
}

fn rows() -> impl Iterator<Item = Row> {
    table().into_iter().filter(|row| !row.deep || !cfg!(debug_assertions))
}

#[test]
fn standard_convention_matches_the_table() {
    let start = Position::initial();
    for row in rows() {
        assert_eq!(perft(&start, row.depth, Convention::Standard), row.standard, "depth {}", row.depth);
    }
}

#[test]
fn edax_convention_matches_its_table() {
    let start = Position::initial();
    for row in rows() {
        assert_eq!(perft(&start, row.depth, Convention::Edax), row.edax, "depth {}", row.depth);
    }
}

#[test]
fn free_pass_convention_matches_the_published_counts() {
    // OTHELLO-FACTS.md: a pass that uses no depth gives 3,005,320 at depth 9.
    assert_eq!(perft(&Position::initial(), 9, Convention::FreePass), 3_005_320);
    if !cfg!(debug_assertions) {
        assert_eq!(perft(&Position::initial(), 11, Convention::FreePass), 212_260_880);
    }
}

#[test]
fn the_table_is_complete() {
    let table = table();
    assert_eq!(table.len(), 12);
    assert!(table.iter().enumerate().all(|(i, row)| row.depth == i as u32 + 1));
}
