//! What the engine takes from its opening book ([`crate::book`]): the move to play and the lines
//! to show for a position the book holds, and learning a game into a book file (NBoard `learn`).
//!
//! A book move comes with what the book knows of it: its value for the side to move, the depth of
//! the search behind that value, the games that reached its position, and the book's best line
//! after it. Learning runs on the search thread ([`crate::engine::search_thread`]) one position at
//! a time, so that a `ping` or `stop` ends it between two positions; what it has scored by then is
//! kept and written.

use crate::board::{BoardSize, Game, Move, Position};
use crate::book::file::BookError;
use crate::book::grow::{Grower, ScoreSettings};
use crate::book::{Book, BookMove, EXACT_DEPTH, MoveSource};
use crate::rng::Rng;
use crate::search::Searcher;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The depth of the searches that score the positions a `learn` adds: `magpie book`'s default.
pub const LEARN_DEPTH: u32 = 18;

/// The selectivity of those searches: `magpie book`'s default.
pub const LEARN_SELECTIVITY: u8 = 3;

/// The most discs played of a position a `learn` adds (the book is for the opening).
pub const LEARN_PLIES: u32 = 30;

/// Reads a book file for play, checked whole ([`Book::load`]: a regular file only); the error is
/// one line that names the file, worded as for every file (`b.book: No such file or directory`,
/// `b.book: the book is damaged (its checksum does not match)`, `/dev/zero: not a regular file`).
pub fn read_book(path: &Path) -> Result<Book, String> {
    Book::load(path).map_err(|e| match e {
        BookError::Io(message) => message,
        other => format!("{}: {other}", path.display()),
    })
}

/// A move of a position the book holds, with what the book knows of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookPlay {
    /// The move (a square of the position asked about).
    pub mv: Move,
    /// Its value for the side to move, in centi-discs.
    pub value: i32,
    /// The depth of the search behind the value ([`EXACT_DEPTH`] and more: exact).
    pub depth: u8,
    /// How many of the games added to the book reached the position the move leads to.
    pub games: u32,
    /// The move, then the book's best line after it.
    pub line: Vec<Move>,
}

impl BookPlay {
    /// Whether the value comes from a search to the end of the game.
    pub fn exact(&self) -> bool {
        self.depth >= EXACT_DEPTH
    }

    /// The book's knowledge of `m`, a move of `pos` from [`Book::moves`].
    fn of(book: &Book, pos: &Position, m: BookMove) -> BookPlay {
        let mv = Move::Play(m.square);
        let child = pos.play(m.square);
        let held = if child.must_pass() && !child.is_game_over() { child.pass() } else { child };
        let (depth, games, line) = match m.source {
            MoveSource::GameOver => (EXACT_DEPTH, 0, vec![mv]),
            MoveSource::Leaf => (book.probe(pos).map_or(0, |(e, _)| e.depth), 0, vec![mv]),
            MoveSource::Book => {
                let (depth, games) = book.probe(&held).map_or((0, 0), |(e, _)| (e.depth, e.games));
                (depth, games, std::iter::once(mv).chain(book.principal_line(&child)).collect())
            }
        };
        BookPlay { mv, value: m.value, depth, games, line }
    }
}

/// A book move for `pos` (see [`Book::choose`]: the best with `randomness` 0, else one drawn
/// among the moves within `randomness` centi-discs of the best); `None` when the book does not
/// hold `pos` (or it is not on the 8x8 board, or its side must pass).
pub fn choose(book: &Book, pos: &Position, randomness: u32, rng: &mut Rng) -> Option<BookPlay> {
    let randomness = i32::try_from(randomness).unwrap_or(i32::MAX);
    book.choose(pos, randomness, rng).map(|m| BookPlay::of(book, pos, m))
}

/// Every move of `pos` the book can value, best first (empty when it does not hold `pos`).
pub fn book_moves(book: &Book, pos: &Position) -> Vec<BookPlay> {
    book.moves(pos).into_iter().map(|m| BookPlay::of(book, pos, m)).collect()
}

/// What `learn` is asked to do: add a game's positions to a copy of the book in use and write it.
#[derive(Clone, Debug)]
pub struct LearnTask {
    /// The book to grow: the one in use, copied on the search thread.
    pub book: Arc<Book>,
    /// The file to write it to.
    pub path: PathBuf,
    /// The game.
    pub game: Game,
    /// How the new positions are scored.
    pub settings: ScoreSettings,
    /// The most discs played of a position added.
    pub max_ply: u32,
}

/// What a `learn` did.
#[derive(Clone, Debug)]
pub struct Learnt {
    /// The grown book (`None` only if learning failed before it could be kept).
    pub book: Option<Book>,
    /// The file it was written to.
    pub path: PathBuf,
    /// Positions added to the book.
    pub added: usize,
    /// Positions of the game gone through (added, or counted once more).
    pub positions: usize,
    /// Whether a stop ended it before the end of the game's opening.
    pub stopped: bool,
    /// Why the book could not be written (or learning failed), if it could not.
    pub error: Option<String>,
}

impl Learnt {
    /// A learning that failed before it could keep anything.
    pub fn failed(path: PathBuf, error: String) -> Learnt {
        Learnt { book: None, path, added: 0, positions: 0, stopped: false, error: Some(error) }
    }
}

/// Why a game cannot be learnt, if it cannot: the book holds positions reached from the start of
/// the 8x8 board.
pub fn unlearnable(game: &Game) -> Option<&'static str> {
    if game.start().size() != BoardSize::Eight {
        Some("the book is for the 8x8 board")
    } else if *game.start() != Position::initial() {
        Some("the game does not start from the start position")
    } else {
        None
    }
}

/// The positions of `game` a book keeps (the position after a pass for one whose side must pass),
/// each once, in order, up to `max_ply` discs played and before the end of the game.
fn positions_to_learn(game: &Game, max_ply: u32) -> Vec<Position> {
    let mut held: Vec<Position> = Vec::new();
    for pos in game.positions() {
        if pos.is_game_over() {
            break;
        }
        let pos = if pos.must_pass() { pos.pass() } else { *pos };
        if 60 - pos.empty_count() > max_ply {
            break;
        }
        if held.last() != Some(&pos) {
            held.push(pos);
        }
    }
    held
}

/// Adds the positions of the task's game to its book, each new one scored by a search and each
/// counted as reached by one more game, then writes the book (safely: [`Book::save`] writes a
/// temporary file and renames it). `stop` is asked before each position: once it says so, the
/// positions done are kept and written, and the rest are left.
pub fn learn(task: LearnTask, searcher: &mut Searcher, stop: &mut dyn FnMut() -> bool) -> Learnt {
    let LearnTask { book, path, game, settings, max_ply } = task;
    let mut book = Arc::unwrap_or_clone(book);
    let mut learnt = Learnt { book: None, path, added: 0, positions: 0, stopped: false, error: None };
    let mut grower = Grower::new(&mut book, searcher, settings, None);
    let mut parent: Option<Position> = None;
    for pos in positions_to_learn(&game, max_ply) {
        if stop() {
            learnt.stopped = true;
            break;
        }
        match grower.add_position(&pos, parent.as_ref(), None) {
            Ok(new) => learnt.added += usize::from(new),
            Err(e) => {
                learnt.error = Some(e.to_string());
                break;
            }
        }
        learnt.positions += 1;
        parent = Some(pos);
    }
    drop(grower);
    if learnt.positions > 0 {
        book.negamax();
        if let Err(e) = book.save(&learnt.path) {
            learnt.error.get_or_insert(e.to_string());
        }
    }
    learnt.book = Some(book);
    learnt
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{Entry, book_key, canonical_square};
    use crate::eval::{EvalKind, Evaluator};
    use crate::formats::move_list::parse_moves;

    fn after(moves: &str) -> Position {
        let mut game = Game::new(Position::initial());
        game.play_all(&parse_moves(moves).unwrap()).unwrap();
        *game.position()
    }

    /// A book holding the start (leaf f5) and the position after f5 (leaf d6).
    fn small_book() -> Book {
        let mut book = Book::new();
        for (moves, leaf, value) in [("", "f5", -20), ("f5", "d6", 20)] {
            let pos = after(moves);
            let (key, _) = book_key(&pos);
            let leaf = canonical_square(&pos, leaf.parse().unwrap());
            book.insert(key, Entry { value, leaf, leaf_value: value, depth: 12, games: 3 });
        }
        book.negamax();
        book
    }

    #[test]
    fn book_moves_carry_their_line_depth_and_games() {
        let book = small_book();
        let start = Position::initial();
        let moves = book_moves(&book, &start);
        // The four first moves are one position, held: each is a book move worth −(+20).
        assert_eq!(moves.len(), 4, "{moves:?}");
        for m in &moves {
            assert_eq!((m.value, m.depth, m.games), (-20, 12, 3), "{m:?}");
            assert_eq!(m.line.len(), 2, "the move, then the leaf after it: {m:?}");
            let mut game = Game::new(start);
            game.play_all(&m.line).unwrap();
        }
        // After f5, the leaf d6: the position's own depth, no games beyond it.
        let f5 = after("f5");
        let leaf = choose(&book, &f5, 0, &mut Rng::new(1)).unwrap();
        assert_eq!(leaf.mv, "d6".parse().unwrap());
        assert_eq!((leaf.value, leaf.depth, leaf.games, leaf.line.len()), (20, 12, 0, 1));
        assert!(!leaf.exact());
        assert!(choose(&book, &after("f5d6"), 0, &mut Rng::new(1)).is_none());
        assert!(choose(&book, &Position::start(BoardSize::Six), 0, &mut Rng::new(1)).is_none());
    }

    #[test]
    fn randomness_draws_among_equal_moves_and_a_seed_repeats() {
        let book = small_book();
        let start = Position::initial();
        let best = choose(&book, &start, 0, &mut Rng::new(1)).unwrap().mv;
        for seed in 0..20 {
            assert_eq!(choose(&book, &start, 0, &mut Rng::new(seed)).unwrap().mv, best);
        }
        let draw = |seed| {
            let mut rng = Rng::new(seed);
            (0..8).map(|_| choose(&book, &start, 200, &mut rng).unwrap().mv).collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        let seen: std::collections::HashSet<Move> = (0..10).flat_map(draw).collect();
        assert_eq!(seen.len(), 4, "the four first moves are equal: {seen:?}");
    }

    #[test]
    fn only_games_from_the_start_of_the_8x8_board_are_learnt() {
        assert_eq!(unlearnable(&Game::new(Position::initial())), None);
        assert!(unlearnable(&Game::new(Position::start(BoardSize::Six))).is_some());
        assert!(unlearnable(&Game::new(after("f5"))).is_some());
        // Passes are read through; the list stops at the ply.
        let mut game = Game::new(Position::initial());
        game.play_all(&parse_moves("f5d6c3d3c4").unwrap()).unwrap();
        let positions = positions_to_learn(&game, 3);
        assert_eq!(positions.len(), 4);
        assert_eq!(positions[3], after("f5d6c3"));
    }

    #[test]
    fn only_regular_files_are_read_as_books() {
        let err = read_book(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(err, "/dev/zero: not a regular file");
        assert!(read_book(&std::env::temp_dir()).unwrap_err().ends_with(": not a regular file"));
        let err = read_book(Path::new("no-such-folder/b.book")).unwrap_err();
        assert_eq!(err, "no-such-folder/b.book: No such file or directory");
    }

    #[test]
    fn learning_adds_the_positions_and_writes_the_book() {
        let dir = std::env::temp_dir().join(format!("magpie-learn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("learn.book");
        let mut game = Game::new(Position::initial());
        game.play_all(&parse_moves("f5d6c3").unwrap()).unwrap();
        let settings = ScoreSettings { depth: 2, selectivity: 0, eval: Evaluator::new(EvalKind::Pattern) };
        let task = LearnTask { book: Arc::new(Book::new()), path: path.clone(), game, settings, max_ply: 2 };
        let mut searcher = Searcher::with_hash(1).unwrap();
        let learnt = learn(task.clone(), &mut searcher, &mut || false);
        assert_eq!((learnt.added, learnt.positions, learnt.stopped, learnt.error.as_deref()), (3, 3, false, None));
        let saved = Book::load(&path).unwrap();
        assert_eq!(Some(&saved), learnt.book.as_ref());
        for moves in ["", "f5", "f5d6"] {
            assert_eq!(saved.probe(&after(moves)).map(|(e, _)| e.games), Some(1), "{moves}");
        }
        assert!(saved.probe(&after("f5d6c3")).is_none(), "past the ply");
        // A stop before the first position keeps the book as it was.
        let mut stopped = learn(task, &mut searcher, &mut || true);
        assert!(stopped.stopped && stopped.positions == 0);
        assert_eq!(stopped.book.take().map(|b| b.len()), Some(0));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
