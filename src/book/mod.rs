//! The opening book and the opening names.
//!
//! The book holds positions of the 8x8 board reached from the start, each once for itself and its
//! 7 mirror images (under its [`canonical`] form), with the value of the best line through it for
//! the side to move. As in Edax, a position keeps one move it does not hold yet, its *leaf*: its
//! best move outside the book and that move's value, from a search of a recorded depth. A
//! position's value is the best of its leaf and of its moves whose positions are in the book
//! (negated), kept consistent over the tree by [`Book::negamax`]. The book grows by adding the
//! positions its leaves lead to ([`grow`]).
//!
//! - [`file`](mod@file): the binary file, the journal of a growth run and the text form;
//! - [`grow`]: growing a book by deviations, adding games, deepening;
//! - [`names`]: the named openings (Zebra's list of 76), recognised under the 8 symmetries.
//!
//! Positions where the side to move must pass are not stored: the book reads the position after
//! the pass. Finished games need no entry: their value is the final score.

pub mod file;
pub mod grow;
pub mod names;

use crate::board::symmetry::{canonical, conventional_square, image, inverse, self_symmetries, symmetric_square};
use crate::board::{BoardSize, Move, Position, Square};
use crate::rng::Rng;
use std::collections::HashMap;

/// No leaf: every legal move's position is in the book (or ends the game).
pub const NO_LEAF: u8 = 0xff;

/// The depth recorded for a value that is exact (a search to the end of the game).
pub const EXACT_DEPTH: u8 = 60;

/// A position's canonical discs: the side to move's, the other side's.
pub type BookKey = (u64, u64);

/// What the book knows of one position (and its 7 images), for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The value of the position in centi-discs: the best of the leaf and the book's moves.
    pub value: i16,
    /// The best move not in the book, as a square of the canonical board, or [`NO_LEAF`].
    pub leaf: u8,
    /// The leaf's value for the side to move, in centi-discs.
    pub leaf_value: i16,
    /// The depth of the search that scored the leaf ([`EXACT_DEPTH`] and more: exact).
    pub depth: u8,
    /// How many of the games added to the book reached this position.
    pub games: u32,
}

/// The key of a position to look up: its canonical form and the symmetry that gives it.
#[inline]
pub fn book_key(pos: &Position) -> (BookKey, u8) {
    let (player, opponent, s) = canonical(pos.player(), pos.opponent());
    ((player, opponent), s)
}

/// A move of the book's position for one of its images: the canonical square `leaf` seen from a
/// position whose canonical symmetry is `s`.
#[inline]
pub fn square_from_canonical(s: u8, leaf: u8) -> Square {
    Square::from_index_unchecked(u32::from(symmetric_square(s, leaf)))
}

/// The canonical square of `square` of a position whose canonical symmetry is `s`.
#[inline]
pub fn square_to_canonical(s: u8, square: Square) -> u8 {
    symmetric_square(inverse(s), square.index() as u8)
}

/// The canonical square of a move of `pos`, the same whichever image of `pos` it is played on:
/// where the position is its own image under several symmetries (the start, for one), the least
/// of the squares they map the move to, so that equivalent moves are stored alike.
pub fn canonical_square(pos: &Position, square: Square) -> u8 {
    let (player, opponent) = (pos.player(), pos.opponent());
    let (cp, co, _) = canonical(player, opponent);
    (0..8u8)
        .filter(|&s| image(s, player) == cp && image(s, opponent) == co)
        .map(|s| square_to_canonical(s, square))
        .min()
        .unwrap_or_else(|| unreachable!("the canonical form is one of the images"))
}

/// Where a move's value comes from, in [`Book::moves`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveSource {
    /// The position the move leads to is in the book.
    Book,
    /// The move is the position's leaf.
    Leaf,
    /// The move ends the game: its value is the final score.
    GameOver,
}

/// One move of a book position with its value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, on the position asked about (not the canonical board).
    pub square: Square,
    /// Its value for the side to move, in centi-discs.
    pub value: i32,
    /// Where the value comes from.
    pub source: MoveSource,
}

/// An opening book: positions with their values, leaves and depths.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Book {
    entries: HashMap<BookKey, Entry>,
}

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book::default()
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every position, in no order.
    pub fn entries(&self) -> impl Iterator<Item = (&BookKey, &Entry)> {
        self.entries.iter()
    }

    /// The entry of a canonical key.
    pub fn get(&self, key: &BookKey) -> Option<&Entry> {
        self.entries.get(key)
    }

    /// Sets the entry of a canonical key (a new position, or one scored again).
    pub fn insert(&mut self, key: BookKey, entry: Entry) {
        self.entries.insert(key, entry);
    }

    /// The entry of a position of the 8x8 board and the symmetry that maps it to its canonical
    /// form; `None` for a position the book does not hold, on another board, or whose side must
    /// pass (see [`Book::value`] for that).
    pub fn probe(&self, pos: &Position) -> Option<(&Entry, u8)> {
        if pos.size() != BoardSize::Eight {
            return None;
        }
        let (key, s) = book_key(pos);
        self.entries.get(&key).map(|e| (e, s))
    }

    /// What the book knows of a position's value for its side to move, in centi-discs: the final
    /// score of a finished game, the value of the position after a pass (negated), or its entry's.
    pub fn value(&self, pos: &Position) -> Option<i32> {
        if pos.is_game_over() {
            return Some(pos.final_score() * 100);
        }
        if pos.must_pass() {
            return self.value(&pos.pass()).map(|v| -v);
        }
        self.probe(pos).map(|(e, _)| i32::from(e.value))
    }

    /// Whether the book holds `pos` (a finished game counts as held: its value is known).
    pub fn holds(&self, pos: &Position) -> bool {
        self.value(pos).is_some()
    }

    /// The legal moves of `pos` that the book can value, best first: the moves to positions it
    /// holds, and the leaf. Among moves of one value the conventional image of moves that the
    /// position's symmetries make equivalent comes first (f5 at the start), then square order.
    /// Empty when the book does not hold `pos`.
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        let Some((entry, s)) = self.probe(pos) else { return Vec::new() };
        let mut moves = Vec::new();
        for square in pos.legal_moves().iter() {
            let child = pos.play(square);
            if child.is_game_over() {
                moves.push(BookMove { square, value: -child.final_score() * 100, source: MoveSource::GameOver });
            } else if let Some(v) = self.value(&child) {
                moves.push(BookMove { square, value: -v, source: MoveSource::Book });
            } else if entry.leaf != NO_LEAF && square_from_canonical(s, entry.leaf) == square {
                moves.push(BookMove { square, value: i32::from(entry.leaf_value), source: MoveSource::Leaf });
            }
        }
        // Of moves of one value, the conventional image of a class of equivalent moves first (f5
        // of the start's four), then square order.
        let symmetries = self_symmetries(pos.player(), pos.opponent());
        moves.sort_by_key(|m| {
            let index = m.square.index() as u8;
            (std::cmp::Reverse(m.value), conventional_square(symmetries, index) != index)
        });
        moves
    }

    /// A book move for `pos`, or `None` when the book does not hold it. With `randomness` 0 the
    /// best move (the first of [`Book::moves`]: f5 at the start); otherwise a move drawn evenly among
    /// those within `randomness` centi-discs of the best. The leaf counts as a move: it is the
    /// search's best outside the book.
    pub fn choose(&self, pos: &Position, randomness: i32, rng: &mut Rng) -> Option<BookMove> {
        let moves = self.moves(pos);
        let best = moves.first()?.value;
        let candidates: Vec<&BookMove> = moves.iter().filter(|m| m.value >= best - randomness.max(0)).collect();
        let pick = if randomness <= 0 || candidates.len() == 1 { 0 } else { rng.below(candidates.len()) };
        Some(*candidates[pick])
    }

    /// The book's line from `pos`: the best move at each position while the book holds it.
    pub fn principal_line(&self, pos: &Position) -> Vec<Move> {
        let mut line = Vec::new();
        let mut pos = *pos;
        while line.len() < 60 {
            if pos.must_pass() && !pos.is_game_over() && self.holds(&pos.pass()) {
                line.push(Move::Pass);
                pos = pos.pass();
                continue;
            }
            let Some(best) = self.moves(&pos).first().copied() else { break };
            line.push(Move::Play(best.square));
            if best.source == MoveSource::Leaf {
                break;
            }
            pos = pos.play(best.square);
        }
        line
    }

    /// Makes every position's value the best of its leaf and its moves held in the book, from
    /// the deepest positions up (the positions form a tree with transpositions: no cycles, since
    /// every move adds a disc). Returns how many values changed.
    pub fn negamax(&mut self) -> usize {
        let mut done: HashMap<BookKey, i16> = HashMap::with_capacity(self.entries.len());
        let keys: Vec<BookKey> = self.entries.keys().copied().collect();
        for key in &keys {
            self.negamax_from(*key, &mut done);
        }
        let mut changed = 0;
        for (key, value) in done {
            if let Some(entry) = self.entries.get_mut(&key)
                && entry.value != value
            {
                entry.value = value;
                changed += 1;
            }
        }
        changed
    }

    /// The negamax value of one held position, its descendants first.
    fn negamax_from(&self, key: BookKey, done: &mut HashMap<BookKey, i16>) -> i16 {
        if let Some(&v) = done.get(&key) {
            return v;
        }
        let entry = self.entries[&key];
        let pos = canonical_position(key);
        let mut best: Option<i32> = None;
        // A leaf whose position the book has come to hold (by another path) is stale.
        let mut leaf_held = false;
        for square in pos.legal_moves().iter() {
            let child = pos.play(square);
            let value = if child.is_game_over() {
                Some(-child.final_score() * 100)
            } else {
                let after = if child.must_pass() { child.pass() } else { child };
                let (child_key, _) = book_key(&after);
                if self.entries.contains_key(&child_key) {
                    let v = i32::from(self.negamax_from(child_key, done));
                    Some(if child.must_pass() { v } else { -v })
                } else {
                    None
                }
            };
            if let Some(v) = value {
                best = Some(best.map_or(v, |b| b.max(v)));
                leaf_held |= square.index() == usize::from(entry.leaf);
            }
        }
        if entry.leaf != NO_LEAF && !leaf_held {
            let leaf = i32::from(entry.leaf_value);
            best = Some(best.map_or(leaf, |b| b.max(leaf)));
        }
        let value = best.map_or(entry.value, |v| v.clamp(-6400, 6400) as i16);
        done.insert(key, value);
        value
    }

    /// Adds every position of `other`: a position in both keeps the entry scored deeper (with the
    /// games of both). Values are made consistent again by [`Book::negamax`]. Returns how many
    /// positions were new.
    pub fn merge(&mut self, other: &Book) -> usize {
        let mut added = 0;
        for (key, theirs) in &other.entries {
            match self.entries.get_mut(key) {
                None => {
                    self.entries.insert(*key, *theirs);
                    added += 1;
                }
                Some(mine) => {
                    let games = mine.games.saturating_add(theirs.games);
                    if theirs.depth > mine.depth {
                        *mine = *theirs;
                    }
                    mine.games = games;
                }
            }
        }
        self.negamax();
        added
    }
}

/// The book built into the binary (`src/book/default.book`; docs/book.md says how it is made).
pub static DEFAULT_BOOK: &[u8] = include_bytes!("default.book");

/// The book built into the binary, read once.
pub fn default_book() -> std::sync::Arc<Book> {
    static BOOK: std::sync::LazyLock<std::sync::Arc<Book>> = std::sync::LazyLock::new(|| {
        std::sync::Arc::new(Book::from_bytes(DEFAULT_BOOK).unwrap_or_else(|e| {
            log::error!("the built-in book is damaged ({e}); playing without it");
            let mut book = Book::new();
            book.negamax();
            book
        }))
    });
    BOOK.clone()
}

/// The position of a canonical key (the side to move taken as Black: the book's values are for
/// the side to move, whatever its colour).
pub fn canonical_position(key: BookKey) -> Position {
    Position::from_player_opponent(key.0, key.1, crate::board::Color::Black, BoardSize::Eight)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Game;
    use crate::formats::move_list::parse_moves;

    fn after(moves: &str) -> Position {
        let mut game = Game::new(Position::initial());
        game.play_all(&parse_moves(moves).unwrap()).unwrap();
        *game.position()
    }

    fn entry(value: i16, leaf: u8, leaf_value: i16) -> Entry {
        Entry { value, leaf, leaf_value, depth: 10, games: 0 }
    }

    #[test]
    fn the_built_in_book_reads_and_holds_the_start() {
        let book = Book::from_bytes(DEFAULT_BOOK).unwrap();
        assert!(book.holds(&Position::initial()));
        assert!(!book.moves(&Position::initial()).is_empty());
    }

    #[test]
    fn the_eight_images_are_one_entry() {
        // f5, d3, c4 and e6 are the same opening move seen in four mirrors.
        let mut book = Book::new();
        let (key, _) = book_key(&after("f5"));
        book.insert(key, entry(-50, NO_LEAF, 0));
        for first in ["f5", "d3", "c4", "e6"] {
            let pos = after(first);
            assert_eq!(book.value(&pos), Some(-50), "{first}");
            assert_eq!(book_key(&pos).0, key);
        }
        // The other four symmetries swap the colours: the position with the same discs for the
        // side to move and the other side is the same entry.
        let pos = after("f5");
        for s in 0..8 {
            let image = Position::from_player_opponent(
                crate::board::symmetry::image(s, pos.player()),
                crate::board::symmetry::image(s, pos.opponent()),
                pos.side_to_move(),
                BoardSize::Eight,
            );
            assert_eq!(book.value(&image), Some(-50), "image {s}");
        }
        assert_eq!(book.len(), 1);
    }

    #[test]
    fn a_leaf_maps_back_to_each_image() {
        let mut book = Book::new();
        let pos = after("f5");
        let (key, s) = book_key(&pos);
        let d6 = "d6".parse::<Square>().unwrap();
        book.insert(key, entry(0, square_to_canonical(s, d6), 30));
        assert_eq!(book.moves(&pos)[0].square, d6);
        // The same opening played as c4 (f5 turned half a circle): its answer is d6 turned, e3,
        // the perpendicular opening.
        let other = after("c4");
        let reply = book.moves(&other)[0].square;
        assert_eq!(reply, "e3".parse::<Square>().unwrap());
        assert_eq!(book_key(&after("c4e3")).0, book_key(&after("f5d6")).0);
        // The start is its own image four ways: a move stored from any of them reads the same.
        let start = Position::initial();
        let leaves: Vec<u8> =
            ["f5", "d3", "c4", "e6"].iter().map(|m| canonical_square(&start, m.parse().unwrap())).collect();
        assert!(leaves.windows(2).all(|w| w[0] == w[1]), "{leaves:?}");
    }

    #[test]
    fn negamax_of_a_small_tree() {
        // After f5, White's leaf (d6, worth +10 by a search) and three replies held beneath it,
        // each with a value for Black, to move there: d6 +40, f6 −70, f4 +25. Positions with no
        // leaf and no held move keep their own value.
        let mut book = Book::new();
        let root = after("f5");
        let (rk, rs) = book_key(&root);
        book.insert(rk, entry(0, square_to_canonical(rs, "d6".parse().unwrap()), 10));
        for (reply, value) in [("d6", 40), ("f6", -70), ("f4", 25)] {
            let (k, _) = book_key(&after(&format!("f5{reply}")));
            book.insert(k, entry(value, NO_LEAF, 0));
        }
        assert_eq!(book.negamax(), 1);
        // White's best: f6, leaving Black −70, so +70 for White; the leaf d6 is held now.
        assert_eq!(book.value(&root), Some(70));
        let moves = book.moves(&root);
        assert_eq!(moves.iter().map(|m| m.value).collect::<Vec<_>>(), [70, -25, -40]);
        assert_eq!((moves[0].square, moves[0].source), ("f6".parse().unwrap(), MoveSource::Book));
        // The start, its leaf f5 at −200 by an old search: f5 held (−70 for Black) replaces it.
        let (sk, ss) = book_key(&Position::initial());
        book.insert(sk, entry(0, square_to_canonical(ss, "e6".parse().unwrap()), -200));
        book.negamax();
        assert_eq!(book.value(&Position::initial()), Some(-70));
        let line = book.principal_line(&Position::initial());
        assert_eq!(line.len(), 2, "{line:?}");
        let mut game = Game::new(Position::initial());
        game.play_all(&line).unwrap();
        assert_eq!(book_key(game.position()).0, book_key(&after("f5f6")).0);
        // A second pass changes nothing.
        assert_eq!(book.negamax(), 0);
    }

    #[test]
    fn choose_is_the_best_at_zero_and_stays_within_the_margin() {
        let mut book = Book::new();
        let root = Position::initial();
        let (rk, rs) = book_key(&root);
        book.insert(rk, entry(0, square_to_canonical(rs, "f5".parse().unwrap()), 0));
        let pos = after("f5");
        let (k, s) = book_key(&pos);
        book.insert(k, entry(0, square_to_canonical(s, "f4".parse().unwrap()), 0));
        for reply in ["d6", "f6"] {
            let (ck, _) = book_key(&after(&format!("f5{reply}")));
            book.insert(ck, entry(if reply == "d6" { 10 } else { 150 }, NO_LEAF, 0));
        }
        book.negamax();
        let mut rng = Rng::new(1);
        // White's moves: f4 (leaf, 0), d6 (−10), f6 (−150).
        let best = book.choose(&pos, 0, &mut rng).unwrap();
        assert_eq!(best.square, "f4".parse::<Square>().unwrap());
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            let m = book.choose(&pos, 20, &mut rng).unwrap();
            assert!(m.value >= -20);
            seen.insert(m.square);
        }
        assert_eq!(seen.len(), 2, "f4 and d6, never f6");
        assert!(book.choose(&after("f5d6c3"), 0, &mut rng).is_none());
    }
}
