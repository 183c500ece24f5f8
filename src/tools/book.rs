//! `magpie book`: make, grow, read and exchange opening books (see [`crate::book`]).
//!
//! The verbs that score positions (`new`, `grow`, `add`, `deepen`) keep a journal beside the
//! book while they run and write the whole book every few minutes and at the end, so a run that
//! is killed loses at most the search under way; the next run on the same file picks the journal
//! up. `--shard I/N` splits `grow` (by position) and `add` (by game) over machines; `merge` joins
//! the shards' books.

use crate::board::{Move, Position};
use crate::book::file::{BookError, Journal, journal_path, remove_journal, replay_journal};
use crate::book::grow::{Deviation, Grower, ScoreSettings, count_positions};
use crate::book::names::name_of;
use crate::book::{Book, BookKey, EXACT_DEPTH, MoveSource, NO_LEAF, book_key, canonical_position};
use crate::formats::move_list::compact_moves;
use crate::progress::progress_bar;
use crate::search::Searcher;
use crate::shard::Shard;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often a scoring run writes the whole book (and starts its journal afresh).
const CHECKPOINT: Duration = Duration::from_secs(120);

/// The searches that score positions.
#[derive(Clone, Debug)]
pub struct Scoring {
    /// Depth, selectivity and evaluation.
    pub settings: ScoreSettings,
    /// Search threads.
    pub threads: usize,
    /// Table size in MiB.
    pub hash_mib: usize,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// Which book a reading verb reads, as its output names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookName {
    /// A book file.
    File(PathBuf),
    /// The book built into the binary.
    BuiltIn,
}

/// One `magpie book` verb, checked.
#[derive(Clone, Debug)]
pub enum BookRequest {
    /// Start a book at `path` with the start position scored.
    New { path: PathBuf, scoring: Scoring },
    /// Grow by deviations.
    Grow { path: PathBuf, book: Book, scoring: Scoring, deviation: Deviation, max_positions: Option<u64>, shard: Shard },
    /// Add games' positions.
    Add {
        path: PathBuf,
        book: Book,
        scoring: Scoring,
        games: Vec<(Position, Vec<Move>)>,
        max_ply: u32,
        min_games: u32,
        shard: Shard,
    },
    /// Score again the shallowest positions.
    Deepen { path: PathBuf, book: Book, scoring: Scoring, count: usize },
    /// A position's moves: the position after `line` from `start` (`None`: the start of the
    /// game).
    Show { book: Book, start: Option<Position>, position: Position, line: Vec<Move> },
    /// Counts.
    Stats { book: Book, name: BookName },
    /// Join books.
    Merge { out: PathBuf, books: Vec<Book> },
    /// The text form.
    Export { book: Book, out: Option<PathBuf> },
    /// From the text form.
    Import { book: Book, out: PathBuf },
    /// The book's values against deeper searches.
    Verify { book: Book, scoring: Scoring, positions: usize, extra_depth: u32, seed: u64 },
}

/// The book at `path` (read by the caller) with what its journal holds; says so when the
/// journal held any.
fn resume(path: &Path, mut book: Book, out: &mut dyn Write) -> Result<Book, BookError> {
    let resumed = replay_journal(path, &mut book)?;
    if resumed > 0 {
        book.negamax();
        writeln!(out, "resumed {resumed} positions from {}", journal_path(path).display())
            .map_err(|e| BookError::Io(e.to_string()))?;
    }
    Ok(book)
}

/// Writes `book` to `path` and drops the journal it now holds: the end of a scoring run.
fn checkpoint(book: &mut Book, path: &Path) -> Result<(), BookError> {
    book.negamax();
    book.save(path)?;
    remove_journal(path)
}

/// When a scoring run writes its book whole: every [`CHECKPOINT`].
struct Checkpoints<'p> {
    path: &'p Path,
    last: Instant,
}

impl<'p> Checkpoints<'p> {
    fn new(path: &'p Path) -> Checkpoints<'p> {
        Checkpoints { path, last: Instant::now() }
    }

    /// Writes the book whole and starts the journal afresh if the last write is old enough.
    fn tick(&mut self, grower: &mut Grower) -> io::Result<()> {
        if self.last.elapsed() >= CHECKPOINT {
            grower.negamax();
            grower.book().save(self.path).map_err(bad)?;
            grower.restart_journal(Journal::open_fresh(self.path).map_err(bad)?);
            self.last = Instant::now();
        }
        Ok(())
    }
}

/// A searcher for `scoring`.
fn searcher(scoring: &Scoring) -> io::Result<Searcher> {
    let mut searcher = Searcher::with_hash(scoring.hash_mib).map_err(io::Error::other)?;
    searcher.set_threads(scoring.threads);
    Ok(searcher)
}

/// Which shard a position belongs to when growth is split.
fn shard_of(key: &BookKey, count: u64) -> u64 {
    (key.0 ^ key.1.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15) % count.max(1)
}

/// An error of the book as an I/O error of the kind the command line reports as bad input.
fn bad(e: BookError) -> io::Error {
    match e {
        BookError::Io(m) => io::Error::other(m),
        other => io::Error::new(io::ErrorKind::InvalidData, other.to_string()),
    }
}

/// Runs one verb.
pub fn run(request: BookRequest, out: &mut dyn Write) -> io::Result<()> {
    match request {
        BookRequest::New { path, scoring } => {
            let mut book = Book::new();
            let mut searcher = searcher(&scoring)?;
            let mut grower = Grower::new(&mut book, &mut searcher, scoring.settings.clone(), None);
            let entry = grower.score(&Position::initial()).map_err(bad)?;
            book.save(&path).map_err(bad)?;
            writeln!(
                out,
                "new book {}: the start position, value {:+.2} at depth {}",
                path.display(),
                f64::from(entry.leaf_value) / 100.0,
                entry.depth
            )
        }
        BookRequest::Grow { path, book, scoring, deviation, max_positions, shard } => {
            grow(&path, book, &scoring, deviation, max_positions, shard, out)
        }
        BookRequest::Add { path, book, scoring, games, max_ply, min_games, shard } => {
            add(&path, book, &scoring, &games, max_ply, min_games, shard, out)
        }
        BookRequest::Deepen { path, book, scoring, count } => deepen(&path, book, &scoring, count, out),
        BookRequest::Show { book, start, position, line } => show(&book, start.as_ref(), &position, &line, out),
        BookRequest::Stats { book, name } => stats(&name, &book, out),
        BookRequest::Merge { out: path, books } => {
            let mut merged = Book::new();
            let mut added = Vec::new();
            for book in &books {
                added.push(merged.merge(book));
            }
            merged.save(&path).map_err(bad)?;
            let added: Vec<String> = added.iter().map(|n| n.to_string()).collect();
            writeln!(
                out,
                "merged {} books into {}: {} positions ({} new from each in turn)",
                books.len(),
                path.display(),
                merged.len(),
                added.join(", ")
            )
        }
        BookRequest::Export { book, out: None } => out.write_all(book.to_text().as_bytes()),
        BookRequest::Export { book, out: Some(path) } => {
            std::fs::write(&path, book.to_text())
                .map_err(|e| io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))?;
            writeln!(out, "wrote {} positions to {}", book.len(), path.display())
        }
        BookRequest::Verify { book, scoring, positions, extra_depth, seed } => {
            verify(&book, &scoring, positions, extra_depth, seed, out)
        }
        BookRequest::Import { mut book, out: path } => {
            book.negamax();
            book.save(&path).map_err(bad)?;
            writeln!(out, "imported {} positions into {}", book.len(), path.display())
        }
    }
}

/// `book grow`: rounds of deviations until none is left (or `max_positions` were added).
fn grow(
    path: &Path,
    book: Book,
    scoring: &Scoring,
    deviation: Deviation,
    max_positions: Option<u64>,
    shard: Shard,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut book = resume(path, book, out).map_err(bad)?;
    let mut searcher = searcher(scoring)?;
    let journal = Journal::open(path).map_err(bad)?;
    let start = Instant::now();
    let mut checkpoints = Checkpoints::new(path);
    let (mut added, mut rounds) = (0u64, 0u32);
    let mut grower = Grower::new(&mut book, &mut searcher, scoring.settings.clone(), Some(journal));
    'rounds: loop {
        let todo: Vec<Position> = grower
            .deviations(&Position::initial(), deviation)
            .into_iter()
            .filter(|p| shard_of(&book_key(p).0, shard.count) == shard.index)
            .collect();
        if todo.is_empty() {
            break;
        }
        rounds += 1;
        let bar = progress_bar(scoring.progress, todo.len() as u64, "leaves");
        bar.set_message(format!("round {rounds}, {} positions", grower.book().len()));
        for pos in &todo {
            if max_positions.is_some_and(|m| added >= m) {
                bar.finish_and_clear();
                break 'rounds;
            }
            if grower.expand_leaf(pos).map_err(bad)? {
                added += 1;
            }
            bar.inc(1);
            checkpoints.tick(&mut grower)?;
        }
        bar.finish_and_clear();
        grower.negamax();
    }
    let (searches, nodes) = (grower.searches, grower.nodes);
    drop(grower);
    checkpoint(&mut book, path).map_err(bad)?;
    writeln!(
        out,
        "grew {}: {added} positions added in {rounds} rounds ({searches} searches, {nodes} nodes, {:.1} s); {} positions",
        path.display(),
        start.elapsed().as_secs_f64(),
        book.len()
    )
}

/// `book add`: the positions of games reached by at least `min_games` of them.
#[allow(clippy::too_many_arguments)]
fn add(
    path: &Path,
    book: Book,
    scoring: &Scoring,
    games: &[(Position, Vec<Move>)],
    max_ply: u32,
    min_games: u32,
    shard: Shard,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut book = resume(path, book, out).map_err(bad)?;
    let counts = count_positions(games, max_ply);
    let mut searcher = searcher(scoring)?;
    let journal = Journal::open(path).map_err(bad)?;
    let start = Instant::now();
    let mut checkpoints = Checkpoints::new(path);
    let mut added = 0;
    let mine: Vec<&(Position, Vec<Move>)> =
        games.iter().enumerate().filter(|(j, _)| shard.contains(*j as u64)).map(|(_, g)| g).collect();
    let mut grower = Grower::new(&mut book, &mut searcher, scoring.settings.clone(), Some(journal));
    let bar = progress_bar(scoring.progress, mine.len() as u64, "games");
    for (start_pos, moves) in mine {
        added += grower.add_game(start_pos, moves, max_ply, Some((&counts, min_games))).map_err(bad)?;
        bar.inc(1);
        checkpoints.tick(&mut grower)?;
    }
    bar.finish_and_clear();
    let (searches, nodes) = (grower.searches, grower.nodes);
    drop(grower);
    checkpoint(&mut book, path).map_err(bad)?;
    writeln!(
        out,
        "added {added} positions of {} games to {} ({searches} searches, {nodes} nodes, {:.1} s); {} positions",
        games.len(),
        path.display(),
        start.elapsed().as_secs_f64(),
        book.len()
    )
}

/// `book deepen`: the `count` positions scored shallowest, scored again at the depth given.
fn deepen(path: &Path, book: Book, scoring: &Scoring, count: usize, out: &mut dyn Write) -> io::Result<()> {
    let mut book = resume(path, book, out).map_err(bad)?;
    let mut searcher = searcher(scoring)?;
    let journal = Journal::open(path).map_err(bad)?;
    let start = Instant::now();
    let mut checkpoints = Checkpoints::new(path);
    let mut grower = Grower::new(&mut book, &mut searcher, scoring.settings.clone(), Some(journal));
    let todo = grower.deepen_candidates(count);
    let bar = progress_bar(scoring.progress, todo.len() as u64, "positions");
    for pos in &todo {
        grower.score(pos).map_err(bad)?;
        bar.inc(1);
        checkpoints.tick(&mut grower)?;
    }
    bar.finish_and_clear();
    drop(grower);
    checkpoint(&mut book, path).map_err(bad)?;
    writeln!(
        out,
        "deepened {} positions of {} to depth {} in {:.1} s",
        todo.len(),
        path.display(),
        scoring.settings.depth,
        start.elapsed().as_secs_f64()
    )
}

/// `book verify`: `count` positions drawn at random (by `seed`) among those with a leaf, each
/// searched again `extra_depth` plies deeper than it was scored; the differences between the
/// book's value and the search's, in discs.
fn verify(
    book: &Book,
    scoring: &Scoring,
    count: usize,
    extra_depth: u32,
    seed: u64,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut keys: Vec<BookKey> =
        book.entries().filter(|(_, e)| e.leaf != NO_LEAF && e.depth < EXACT_DEPTH).map(|(k, _)| *k).collect();
    keys.sort_unstable();
    let mut rng = crate::rng::Rng::new(seed);
    for i in (1..keys.len()).rev() {
        keys.swap(i, rng.below(i + 1));
    }
    keys.truncate(count);
    let mut searcher = searcher(scoring)?;
    let bar = progress_bar(scoring.progress, keys.len() as u64, "positions");
    let (mut sum, mut worst, mut worst_line) = (0.0f64, 0i32, String::new());
    let start = Instant::now();
    for key in &keys {
        let pos = canonical_position(*key);
        let Some(&entry) = book.get(key) else { continue };
        let mut request = crate::search::SearchRequest::new(pos, scoring.settings.eval.clone());
        request.max_depth = u32::from(entry.depth) + extra_depth;
        request.selectivity = scoring.settings.selectivity;
        let result = searcher.search(&request, &mut crate::search::NoControl, &mut |_| {});
        let diff = (result.info.score - i32::from(entry.value)).abs();
        sum += f64::from(diff);
        if diff >= worst {
            worst = diff;
            worst_line = format!(
                "{} (book {}, depth {} search {})",
                crate::formats::position_text::squares_text(&pos),
                discs(i32::from(entry.value)),
                request.max_depth,
                discs(result.info.score)
            );
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let n = keys.len().max(1) as f64;
    writeln!(
        out,
        "verified {} positions, each searched {extra_depth} plies deeper than it was scored ({:.1} s): \
         mean difference {:.2} discs, worst {:.2}",
        keys.len(),
        start.elapsed().as_secs_f64(),
        sum / n / 100.0,
        f64::from(worst) / 100.0
    )?;
    if !worst_line.is_empty() {
        writeln!(out, "worst: {worst_line}")?;
    }
    Ok(())
}

/// A value in discs with its sign.
fn discs(cp: i32) -> String {
    format!("{:+.2}", f64::from(cp) / 100.0)
}

/// A depth as shown: `exact` for a solve.
fn depth_text(depth: u8) -> String {
    if depth >= EXACT_DEPTH { "exact".into() } else { depth.to_string() }
}

/// `book show`: the position after `line` (from `start`, else from the start of the game), its
/// value and its moves with their values.
fn show(book: &Book, start: Option<&Position>, pos: &Position, line: &[Move], out: &mut dyn Write) -> io::Result<()> {
    let shown = match (start, line.is_empty()) {
        (None, true) => "the start".to_string(),
        (None, false) => compact_moves(line),
        (Some(start), true) => start.to_string(),
        (Some(start), false) => format!("{start} then {}", compact_moves(line)),
    };
    let name = name_of(pos).map(|n| format!(" ({n})")).unwrap_or_default();
    let held = if pos.must_pass() && !pos.is_game_over() { pos.pass() } else { *pos };
    let Some((entry, _)) = book.probe(&held) else {
        return writeln!(out, "{shown}{name}: not in the book");
    };
    let side = if held.side_to_move() == crate::board::Color::Black { "Black" } else { "White" };
    writeln!(
        out,
        "{shown}{name}: {side} to move, value {} (depth {}, {} games)",
        discs(i32::from(entry.value)),
        depth_text(entry.depth),
        entry.games
    )?;
    let line = book.principal_line(&held);
    writeln!(out, "best line: {}", compact_moves(&line))?;
    for m in book.moves(&held) {
        let source = match m.source {
            MoveSource::Book => "book",
            MoveSource::Leaf => "leaf (best outside the book)",
            MoveSource::GameOver => "ends the game",
        };
        writeln!(out, "{}  {:>6}  {source}", m.square, discs(m.value))?;
    }
    Ok(())
}

/// `book stats`: positions by discs played, depths, leaves, size.
fn stats(name: &BookName, book: &Book, out: &mut dyn Write) -> io::Result<()> {
    let mut by_ply = [0usize; 61];
    let mut depths = std::collections::BTreeMap::new();
    let (mut leaves, mut games) = (0usize, 0u64);
    for (key, entry) in book.entries() {
        by_ply[60 - canonical_position(*key).empty_count() as usize] += 1;
        *depths.entry(depth_text(entry.depth)).or_insert(0usize) += 1;
        leaves += usize::from(entry.leaf != NO_LEAF);
        games += u64::from(entry.games);
    }
    let (shown, size) = match name {
        BookName::File(path) => (path.display().to_string(), std::fs::metadata(path).map_or(0, |m| m.len())),
        BookName::BuiltIn => ("the built-in book".to_string(), crate::book::DEFAULT_BOOK.len() as u64),
    };
    writeln!(out, "{shown}: {} positions, {size} bytes", book.len())?;
    let plies: Vec<String> =
        by_ply.iter().enumerate().filter(|(_, n)| **n > 0).map(|(p, n)| format!("{p}:{n}")).collect();
    writeln!(out, "positions by discs played: {}", plies.join(" "))?;
    let depths: Vec<String> = depths.iter().map(|(d, n)| format!("{d}:{n}")).collect();
    writeln!(out, "positions by search depth: {}", depths.join(" "))?;
    writeln!(out, "positions with a leaf: {leaves}; game visits counted: {games}")?;
    if let Some(value) = book.value(&Position::initial()) {
        let line = book.principal_line(&Position::initial());
        writeln!(out, "the start: {} for Black, best line {}", discs(value), compact_moves(&line))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{EvalKind, Evaluator};

    fn scoring(depth: u32) -> Scoring {
        Scoring {
            settings: ScoreSettings { depth, selectivity: 0, eval: Evaluator::new(EvalKind::Pattern) },
            threads: 1,
            hash_mib: 4,
            progress: false,
        }
    }

    #[test]
    fn new_grow_show_and_stats() {
        let dir = std::env::temp_dir().join(format!("magpie-book-tool-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.book");
        let mut out = Vec::new();
        run(BookRequest::New { path: path.clone(), scoring: scoring(3) }, &mut out).unwrap();
        let grow = BookRequest::Grow {
            path: path.clone(),
            book: Book::load(&path).unwrap(),
            scoring: scoring(3),
            deviation: Deviation { max_ply: 4, deviation: 200 },
            max_positions: None,
            shard: Shard::ALL,
        };
        run(grow, &mut out).unwrap();
        assert!(!journal_path(&path).exists(), "the journal goes once the book holds it");
        let book = Book::load(&path).unwrap();
        assert!(book.len() > 3);
        let mut shown = Vec::new();
        show(&book, None, &Position::initial(), &[], &mut shown).unwrap();
        let shown = String::from_utf8(shown).unwrap();
        assert!(shown.starts_with("the start: Black to move, value "), "{shown}");
        assert_eq!(shown.lines().filter(|l| l.ends_with("  book")).count(), 4, "{shown}");
        let mut counted = Vec::new();
        stats(&BookName::File(path.clone()), &book, &mut counted).unwrap();
        let counted = String::from_utf8(counted).unwrap();
        assert!(counted.contains(&format!("{} positions", book.len())), "{counted}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
