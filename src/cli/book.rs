//! `magpie book`'s verbs and their options.

use super::numbers::count;
use super::shared::{hash_parser, output_file, selectivity_parser, start_position, threads_parser};
use super::{CliError, EngineArgs, Request};
use crate::board::{Game, Move, Position};
use crate::book::grow::{Deviation, ScoreSettings};
use crate::book::{Book, default_book};
use crate::engine::book::read_book;
use crate::eval::{EvalKind, Evaluator};
use crate::formats::ggf::parse_ggf_games;
use crate::formats::move_list::parse_moves;
use crate::shard::Shard;
use crate::tools::book::{BookName, BookRequest, Scoring};
use crate::train::fit_eval;
use clap::Subcommand;
use std::path::{Path, PathBuf};

/// Make, grow, read and exchange opening books (see docs/book.md).
#[derive(clap::Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    verb: BookVerb,
}

#[derive(Subcommand, Debug)]
enum BookVerb {
    /// Start a book: the start position, scored by a search.
    New {
        /// The book file to write (it must not exist).
        book: PathBuf,
        #[command(flatten)]
        scoring: ScoringArgs,
    },
    /// Grow a book by deviations: from the start, along every move within --deviation of the best,
    /// add the positions the leaves (best moves outside the book) lead to, up to --plies.
    Grow {
        /// The book file (made by `book new`); a journal beside it keeps each scored position.
        book: PathBuf,
        /// The most discs played of a position added.
        #[arg(long, value_parser = count::<u32>(1..=60))]
        plies: u32,
        /// How far below the best a move may be and still be followed or added, in discs.
        #[arg(long, value_name = "DISCS")]
        deviation: f64,
        /// Stop after adding this many positions.
        #[arg(long, value_name = "N", value_parser = count::<u64>(0..))]
        max_positions: Option<u64>,
        /// Expand only the leaves of positions in shard I of N (join the shards' books with `book merge`).
        #[arg(long, value_name = "I/N", default_value = "0/1")]
        shard: Shard,
        #[command(flatten)]
        scoring: ScoringArgs,
    },
    /// Add the positions of games (GGF files, WTHOR .wtb files or folders of them, or text files
    /// of move lists, one game a line) up to --plies, each scored by a search.
    Add {
        /// The book file (made by `book new`).
        book: PathBuf,
        /// The game files.
        #[arg(required = true)]
        games: Vec<PathBuf>,
        /// The most discs played of a position added.
        #[arg(long, default_value_t = 20, value_parser = count::<u32>(1..=60))]
        plies: u32,
        /// Only positions that at least this many of the games reached.
        #[arg(long, default_value_t = 1, value_parser = count::<u32>(1..))]
        min_games: u32,
        /// Add only the games j with j % N == I.
        #[arg(long, value_name = "I/N", default_value = "0/1")]
        shard: Shard,
        #[command(flatten)]
        scoring: ScoringArgs,
    },
    /// Score again the positions scored shallowest, at --depth.
    Deepen {
        /// The book file.
        book: PathBuf,
        /// How many positions.
        #[arg(long, value_parser = count::<u64>(1..))]
        count: u64,
        #[command(flatten)]
        scoring: ScoringArgs,
    },
    /// Show a position's moves with their values.
    Show {
        /// The book file, or <default> [default: the book built into the binary].
        book: Option<PathBuf>,
        /// The position: the squares (64 of X, O, -) then X or O [default: the start].
        #[arg(long, alias = "position", allow_hyphen_values = true)]
        fen: Option<String>,
        /// Moves to play from the position first, e.g. f5d6c3.
        #[arg(long, default_value = "")]
        moves: String,
    },
    /// Count a book's positions by discs played and by depth.
    Stats {
        /// The book file, or <default> [default: the book built into the binary].
        book: Option<PathBuf>,
    },
    /// Join books into one: a position in several keeps its deepest score.
    Merge {
        /// The book to write.
        #[arg(long)]
        out: PathBuf,
        /// The books to join.
        #[arg(required = true)]
        books: Vec<PathBuf>,
    },
    /// Write a book's text form (one position a line; see docs/book.md).
    Export {
        /// The book file, or <default> [default: the book built into the binary].
        book: Option<PathBuf>,
        /// The text file to write [default: standard output].
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Check a book's values: positions drawn at random, each searched again --extra-depth plies
    /// deeper than it was scored (so --depth is not used); the mean and worst difference from the
    /// book's value.
    Verify {
        /// The book file.
        book: PathBuf,
        /// How many positions.
        #[arg(long, default_value_t = 500, value_parser = count::<u64>(1..))]
        positions: u64,
        /// How many plies deeper than each position was scored.
        #[arg(long, default_value_t = 4, value_parser = count::<u32>(0..=20))]
        extra_depth: u32,
        /// Seed of the draw.
        #[arg(long, default_value_t = 1, value_parser = count::<u64>(0..))]
        seed: u64,
        #[command(flatten)]
        scoring: ScoringArgs,
    },
    /// Make a book from its text form.
    Import {
        /// The text file.
        text: PathBuf,
        /// The book file to write.
        #[arg(long)]
        out: PathBuf,
    },
}

/// How the verbs that score positions search.
#[derive(clap::Args, Debug, Clone)]
struct ScoringArgs {
    /// The depth of each search.
    #[arg(long, default_value_t = DEFAULT_DEPTH, value_parser = count::<u32>(1..=60))]
    depth: u32,
    /// Multi-ProbCut's selectivity, 0 (off) to 5 (most cuts).
    #[arg(long, value_name = "0-5", default_value_t = DEFAULT_SELECTIVITY, value_parser = selectivity_parser())]
    selectivity: u8,
    /// The weight file of the evaluation [default: the weights built into the binary].
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Search threads [default: 1].
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    threads: Option<u64>,
    /// Transposition table size in MiB [default: 64].
    #[arg(long, value_name = "MIB", value_parser = hash_parser())]
    hash: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

/// The depth of a book's searches unless told.
pub const DEFAULT_DEPTH: u32 = 18;
/// The selectivity of a book's searches unless told.
pub const DEFAULT_SELECTIVITY: u8 = 3;

impl ScoringArgs {
    fn resolve(&self, engine: &EngineArgs) -> Result<Scoring, CliError> {
        let weights = engine.weights(self.weights.as_deref(), "--weights")?;
        Ok(Scoring {
            settings: ScoreSettings {
                depth: self.depth,
                selectivity: self.selectivity,
                eval: Evaluator::with_weights(EvalKind::Pattern, weights),
            },
            threads: engine.threads(self.threads, 1),
            hash_mib: engine.hash_mib(self.hash, crate::engine::settings::DEFAULT_HASH_MIB),
            progress: !self.no_progress,
        })
    }
}

/// A book file that must exist and be whole; `<default>` is the built-in book.
fn existing(path: &Path) -> Result<Book, CliError> {
    if path.as_os_str() == "<default>" {
        return Ok((*default_book()).clone());
    }
    read_book(path).map_err(CliError)
}

/// The book a reading verb reads: the file given, else the built-in book; with the name to show.
fn readable(path: Option<PathBuf>) -> Result<(Book, BookName), CliError> {
    match path.filter(|p| p.as_os_str() != "<default>") {
        Some(path) => Ok((existing(&path)?, BookName::File(path))),
        None => Ok(((*default_book()).clone(), BookName::BuiltIn)),
    }
}

/// The games of one file: GGF, WTHOR (.wtb, or a folder of them), or move lists.
fn read_games(path: &Path) -> Result<Vec<(Position, Vec<Move>)>, CliError> {
    let name = path.display();
    let is_wthor = path.is_dir() || path.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb"));
    if is_wthor {
        let games = fit_eval::read_wthor(path).map_err(|e| CliError(e.to_string()))?;
        return Ok(games
            .iter()
            .filter_map(|g| g.replay().ok())
            .map(|game| (*game.start(), game.moves().to_vec()))
            .collect());
    }
    let text = std::fs::read_to_string(path).map_err(|e| CliError(format!("{name}: {e}")))?;
    let mut games = Vec::new();
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("ggf")) {
        for (i, game) in parse_ggf_games(&text).into_iter().enumerate() {
            let game = game.map_err(|e| CliError(format!("{name}: game {}: {e}", i + 1)))?;
            let replayed = game.game();
            games.push((*replayed.start(), replayed.moves().to_vec()));
        }
    } else {
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let moves = parse_moves(line).map_err(|e| CliError(format!("{name}: line {}: {e}", i + 1)))?;
            let mut game = Game::new(Position::initial());
            game.play_all(&moves)
                .map_err(|(j, e)| CliError(format!("{name}: line {}: move {} ({}): {e}", i + 1, j + 1, moves[j])))?;
            games.push((Position::initial(), game.moves().to_vec()));
        }
    }
    if games.is_empty() {
        return Err(CliError(format!("{name}: no game in it")));
    }
    Ok(games)
}

impl BookArgs {
    pub(super) fn request(self, engine: &EngineArgs) -> Result<Request, CliError> {
        let request = match self.verb {
            BookVerb::New { book, scoring } => {
                if book.exists() {
                    return Err(CliError(format!(
                        "{}: a file is there already (grow it, or remove it first)",
                        book.display()
                    )));
                }
                BookRequest::New { path: output_file("book", book)?, scoring: scoring.resolve(engine)? }
            }
            BookVerb::Grow { book, plies, deviation, max_positions, shard, scoring } => {
                if !(0.0..=64.0).contains(&deviation) {
                    return Err(CliError(format!("--deviation {deviation}: expected 0 to 64 discs")));
                }
                BookRequest::Grow {
                    book: existing(&book)?,
                    path: book,
                    scoring: scoring.resolve(engine)?,
                    deviation: Deviation { max_ply: plies, deviation: (deviation * 100.0).round() as i32 },
                    max_positions,
                    shard,
                }
            }
            BookVerb::Add { book, games, plies, min_games, shard, scoring } => {
                let (path, book) = (book.clone(), existing(&book)?);
                let mut all = Vec::new();
                for file in &games {
                    all.extend(read_games(file)?);
                }
                BookRequest::Add {
                    path,
                    book,
                    scoring: scoring.resolve(engine)?,
                    games: all,
                    max_ply: plies,
                    min_games,
                    shard,
                }
            }
            BookVerb::Deepen { book, count, scoring } => BookRequest::Deepen {
                book: existing(&book)?,
                path: book,
                scoring: scoring.resolve(engine)?,
                count: count as usize,
            },
            BookVerb::Show { book, fen, moves } => {
                let start = start_position(fen.as_deref(), None, "--fen")?;
                let line = parse_moves(&moves).map_err(|e| CliError(format!("--moves: {e}")))?;
                let mut game = Game::new(start);
                game.play_all(&line)
                    .map_err(|(i, e)| CliError(format!("--moves: move {} ({}): {e}", i + 1, line[i])))?;
                let start = fen.is_some().then_some(start);
                BookRequest::Show { book: readable(book)?.0, start, position: *game.position(), line }
            }
            BookVerb::Stats { book } => {
                let (book, name) = readable(book)?;
                BookRequest::Stats { book, name }
            }
            BookVerb::Merge { out, books } => {
                let out = output_file("--out", out)?;
                let books = books.iter().map(|b| existing(b)).collect::<Result<Vec<_>, _>>()?;
                BookRequest::Merge { out, books }
            }
            BookVerb::Export { book, out } => {
                let out = out.map(|o| output_file("--out", o)).transpose()?;
                BookRequest::Export { book: readable(book)?.0, out }
            }
            BookVerb::Verify { book, positions, extra_depth, seed, scoring } => BookRequest::Verify {
                book: existing(&book)?,
                scoring: scoring.resolve(engine)?,
                positions: positions as usize,
                extra_depth,
                seed,
            },
            BookVerb::Import { text, out } => {
                let out = output_file("--out", out)?;
                let content =
                    std::fs::read_to_string(&text).map_err(|e| CliError(format!("{}: {e}", text.display())))?;
                let book = Book::from_text(&content).map_err(|e| CliError(format!("{}: {e}", text.display())))?;
                if book.is_empty() {
                    return Err(CliError(format!("{}: no position in it", text.display())));
                }
                BookRequest::Import { book, out }
            }
        };
        Ok(Request::Book(Box::new(request)))
    }
}
