//! Growing a book: scoring positions by search, adding the positions a book's best lines and
//! near-best deviations lead to, adding games, deepening.
//!
//! Every position is scored by one search that leaves out the moves whose positions the book
//! already holds (or that end the game): its best move is the position's leaf, with its value
//! and the search's depth. Adding a position scores it and scores its parent again (the parent's
//! leaf was that move; its next best outside the book becomes its leaf), two searches a
//! position. Each scored position goes to the journal at once when one is kept, so a run killed
//! at any moment loses at most the search under way.

use super::file::{BookError, Journal};
use super::{Book, BookKey, EXACT_DEPTH, Entry, NO_LEAF, book_key, canonical_square, square_from_canonical};
use crate::board::{BoardSize, Move, Position, Square};
use crate::eval::Evaluator;
use crate::search::{NoControl, SearchRequest, Searcher};
use std::collections::{HashMap, HashSet};

/// How positions are scored.
#[derive(Clone, Debug)]
pub struct ScoreSettings {
    /// The depth of each search.
    pub depth: u32,
    /// Multi-ProbCut's selectivity (0 to 5).
    pub selectivity: u8,
    /// The evaluation.
    pub eval: Evaluator,
}

/// The positions to grow from: those at most `max_ply` discs played from the start whose leaf is
/// within `deviation` centi-discs of their value, found along every move within `deviation` of
/// the best from `root`.
#[derive(Clone, Copy, Debug)]
pub struct Deviation {
    /// The most discs played of a position added (60 less its empty squares).
    pub max_ply: u32,
    /// How far below the best a move may be and still be followed or added, in centi-discs.
    pub deviation: i32,
}

/// A book being grown: the book, the search that scores its positions and the journal.
pub struct Grower<'a> {
    book: &'a mut Book,
    searcher: &'a mut Searcher,
    settings: ScoreSettings,
    journal: Option<Journal>,
    /// Searches made.
    pub searches: u64,
    /// Nodes searched.
    pub nodes: u64,
}

/// The number of discs played from the start to reach `pos`.
fn ply(pos: &Position) -> u32 {
    60 - pos.empty_count()
}

/// The position a book keeps for `pos`: itself, or the position after its pass. `None` for a
/// finished game.
fn held_form(pos: &Position) -> Option<Position> {
    if pos.is_game_over() {
        None
    } else if pos.must_pass() {
        Some(pos.pass())
    } else {
        Some(*pos)
    }
}

impl<'a> Grower<'a> {
    /// A grower of `book`, scoring with `searcher` at `settings`, appending to `journal` if given.
    pub fn new(
        book: &'a mut Book,
        searcher: &'a mut Searcher,
        settings: ScoreSettings,
        journal: Option<Journal>,
    ) -> Grower<'a> {
        Grower { book, searcher, settings, journal, searches: 0, nodes: 0 }
    }

    /// The book.
    pub fn book(&self) -> &Book {
        self.book
    }

    /// Makes the book's values consistent again ([`Book::negamax`]).
    pub fn negamax(&mut self) -> usize {
        self.book.negamax()
    }

    /// Appends to `journal` from now on (after the book was written whole).
    pub fn restart_journal(&mut self, journal: Journal) {
        self.journal = Some(journal);
    }

    /// Sets `pos`'s entry and writes it to the journal.
    fn put(&mut self, key: BookKey, entry: Entry) -> Result<(), BookError> {
        self.book.insert(key, entry);
        if let Some(journal) = &mut self.journal {
            journal.append(&key, &entry)?;
        }
        Ok(())
    }

    /// Scores `pos` (a position of the 8x8 board with a legal move) afresh: its leaf is the best
    /// move the book does not hold, by one search, and its value the best of the leaf and of the
    /// moves the book holds. Keeps its games. Returns the new entry.
    pub fn score(&mut self, pos: &Position) -> Result<Entry, BookError> {
        let (key, _) = book_key(pos);
        let legal = pos.legal_moves().0;
        // The moves whose positions the book holds (or that end the game), and the best of them.
        let (mut known, mut known_best) = (0u64, None::<i32>);
        for sq in pos.legal_moves().iter() {
            if let Some(v) = self.book.value(&pos.play(sq)) {
                known |= sq.bit();
                known_best = Some(known_best.map_or(-v, |b| b.max(-v)));
            }
        }
        let games = self.book.get(&key).map_or(0, |e| e.games);
        let entry = if legal & !known == 0 {
            let value = known_best.unwrap_or(0).clamp(-6400, 6400) as i16;
            let depth = self.book.get(&key).map_or(self.settings.depth as u8, |e| e.depth);
            Entry { value, leaf: NO_LEAF, leaf_value: 0, depth, games }
        } else {
            let mut request = SearchRequest::new(*pos, self.settings.eval.clone());
            request.max_depth = self.settings.depth;
            request.selectivity = self.settings.selectivity;
            request.excluded = known;
            let result = self.searcher.search(&request, &mut NoControl, &mut |_| {});
            self.searches += 1;
            self.nodes += result.info.nodes;
            let Move::Play(leaf) = result.best else {
                unreachable!("a position with a move outside the book searches one of them")
            };
            let leaf_value = result.info.score.clamp(-6400, 6400);
            let depth =
                if result.info.exact && result.info.solve { EXACT_DEPTH } else { result.info.depth.min(59) as u8 };
            let value = known_best.map_or(leaf_value, |k| k.max(leaf_value)).clamp(-6400, 6400);
            Entry {
                value: value as i16,
                leaf: canonical_square(pos, leaf),
                leaf_value: leaf_value as i16,
                depth,
                games,
            }
        };
        self.put(key, entry)?;
        Ok(entry)
    }

    /// Adds the position `pos` leads to by `square` (scored, unless the book holds it or the
    /// game ends there), then scores `pos` again so that its leaf moves on to its next best move.
    /// Returns whether a position was added.
    pub fn expand(&mut self, pos: &Position, square: Square) -> Result<bool, BookError> {
        let child = pos.play(square);
        let mut added = false;
        if let Some(held) = held_form(&child)
            && self.book.probe(&held).is_none()
        {
            self.score(&held)?;
            added = true;
        }
        self.score(pos)?;
        Ok(added)
    }

    /// The positions whose leaves a deviation round expands, from `root` (shallowest first, each
    /// once): along every move within `deviation.deviation` of the best, the positions of fewer
    /// than `deviation.max_ply` discs played whose leaf is that close to the best.
    pub fn deviations(&self, root: &Position, deviation: Deviation) -> Vec<Position> {
        let mut todo = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = Vec::new();
        if let Some(held) = held_form(root) {
            stack.push(held);
        }
        while let Some(pos) = stack.pop() {
            if ply(&pos) >= deviation.max_ply || !seen.insert(book_key(&pos).0) {
                continue;
            }
            let Some((entry, s)) = self.book.probe(&pos) else { continue };
            let floor = i32::from(entry.value) - deviation.deviation;
            if entry.leaf != NO_LEAF && i32::from(entry.leaf_value) >= floor {
                let leaf = square_from_canonical(s, entry.leaf);
                if pos.legal_moves().contains(leaf) {
                    todo.push(pos);
                }
            }
            for m in self.book.moves(&pos) {
                if m.source == super::MoveSource::Book
                    && m.value >= floor
                    && let Some(held) = held_form(&pos.play(m.square))
                {
                    stack.push(held);
                }
            }
        }
        todo.sort_by_key(ply);
        todo
    }

    /// Expands the leaf of `pos` (one of [`Grower::deviations`]): see [`Grower::expand`].
    pub fn expand_leaf(&mut self, pos: &Position) -> Result<bool, BookError> {
        let Some((entry, s)) = self.book.probe(pos) else { return Ok(false) };
        if entry.leaf == NO_LEAF {
            return Ok(false);
        }
        let leaf = square_from_canonical(s, entry.leaf);
        if !pos.legal_moves().contains(leaf) {
            // A leaf that is not a move here is a damaged entry: score the position again.
            self.score(pos)?;
            return Ok(false);
        }
        self.expand(pos, leaf)
    }

    /// Adds the positions of a game up to `max_ply` discs played that at least `min_games` of the
    /// games counted in `counts` reached (all of them when `counts` is `None`), and counts the
    /// games that reached each: as many as `counts` says, or one more without it. Stops at the first position below the threshold or past `max_ply`. Returns how
    /// many positions were added.
    pub fn add_game(
        &mut self,
        start: &Position,
        moves: &[Move],
        max_ply: u32,
        counts: Option<(&HashMap<BookKey, u32>, u32)>,
    ) -> Result<usize, BookError> {
        let mut added = 0;
        let mut pos = *start;
        let mut parent: Option<Position> = None;
        for &mv in moves.iter().chain(std::iter::once(&Move::Pass)) {
            let Some(held) = held_form(&pos) else { break };
            if ply(&held) > max_ply || pos.size() != BoardSize::Eight {
                break;
            }
            let count = counts.map(|(counts, _)| counts.get(&book_key(&held).0).copied().unwrap_or(0));
            if counts.is_some_and(|(_, min)| count < Some(min)) {
                break;
            }
            if self.add_position(&held, parent.as_ref(), count)? {
                added += 1;
            }
            let Move::Play(square) = mv else { break };
            let mover = if pos.must_pass() { pos.pass() } else { pos };
            if !mover.legal_moves().contains(square) {
                break;
            }
            parent = Some(mover);
            pos = mover.play(square);
        }
        Ok(added)
    }

    /// One position of a game being added (`held`: one whose side to move can play), reached from
    /// `parent` (the game's previous such position): scored if the book does not hold it, and then
    /// the parent scored again if its leaf led here (it moves on to its next best move outside the
    /// book); its game count set to `games` if that is more (the counts of all the games being
    /// added, so that a resumed run counts nothing twice), or one more without it. Returns
    /// whether the position was new.
    pub fn add_position(
        &mut self,
        held: &Position,
        parent: Option<&Position>,
        games: Option<u32>,
    ) -> Result<bool, BookError> {
        let (key, _) = book_key(held);
        let new = self.book.get(&key).is_none();
        if new {
            self.score(held)?;
            if let Some(p) = parent
                && let Some((e, s)) = self.book.probe(p)
                && e.leaf != NO_LEAF
                && self.book.holds(&p.play(square_from_canonical(s, e.leaf)))
            {
                self.score(p)?;
            }
        }
        if let Some(&entry) = self.book.get(&key) {
            let games = games.map_or(entry.games.saturating_add(1), |g| entry.games.max(g));
            if games != entry.games {
                self.put(key, Entry { games, ..entry })?;
            }
        }
        Ok(new)
    }

    /// The `count` positions scored shallowest below `self`'s depth, shallowest first, that have
    /// a leaf to score again (exact ones are left alone): what `book deepen` scores again.
    pub fn deepen_candidates(&self, count: usize) -> Vec<Position> {
        let target = self.settings.depth.min(59) as u8;
        let mut candidates: Vec<(u8, BookKey)> = self
            .book
            .entries()
            .filter(|(_, e)| e.depth < target && e.leaf != NO_LEAF)
            .map(|(k, e)| (e.depth, *k))
            .collect();
        candidates.sort_unstable();
        candidates.into_iter().take(count).map(|(_, k)| super::canonical_position(k)).collect()
    }
}

/// How many of `games` reach each position (by its held form) up to `max_ply` discs played.
pub fn count_positions(games: &[(Position, Vec<Move>)], max_ply: u32) -> HashMap<BookKey, u32> {
    let mut counts = HashMap::new();
    for (start, moves) in games {
        let mut pos = *start;
        let mut seen = HashSet::new();
        for &mv in moves.iter().chain(std::iter::once(&Move::Pass)) {
            let Some(held) = held_form(&pos) else { break };
            if ply(&held) > max_ply || pos.size() != BoardSize::Eight {
                break;
            }
            let key = book_key(&held).0;
            if seen.insert(key) {
                *counts.entry(key).or_insert(0) += 1;
            }
            let Move::Play(square) = mv else { break };
            if !held.legal_moves().contains(square) {
                break;
            }
            pos = held.play(square);
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalKind;
    use crate::formats::move_list::parse_moves;

    fn settings(depth: u32) -> ScoreSettings {
        ScoreSettings { depth, selectivity: 0, eval: Evaluator::new(EvalKind::Pattern) }
    }

    #[test]
    fn a_leaf_is_the_best_move_outside_the_book() {
        let mut book = Book::new();
        let mut searcher = Searcher::with_hash(4).unwrap();
        let mut grower = Grower::new(&mut book, &mut searcher, settings(4), None);
        let start = Position::initial();
        let first = grower.score(&start).unwrap();
        assert_ne!(first.leaf, NO_LEAF);
        // The four first moves are one position: once it is held, the start has no leaf.
        let added = grower.expand_leaf(&start).unwrap();
        assert!(added);
        let (entry, _) = grower.book().probe(&start).unwrap();
        assert_eq!(entry.leaf, NO_LEAF);
        assert_eq!(grower.book().len(), 2);
        let f5 = start.play("f5".parse().unwrap());
        assert_eq!(grower.book().value(&start), grower.book().value(&f5).map(|v| -v));
        // After f5, White's leaf is a legal move whose position the book does not hold.
        let (e, s) = grower.book().probe(&f5).unwrap();
        let leaf = square_from_canonical(s, e.leaf);
        assert!(f5.legal_moves().contains(leaf));
        assert!(!grower.book().holds(&f5.play(leaf)));
        // The start, then f5; the start then has every move held and needs no search.
        assert_eq!(grower.searches, 2);
    }

    #[test]
    fn deviations_grow_every_near_best_line_and_stop_at_the_ply() {
        let mut book = Book::new();
        let mut searcher = Searcher::with_hash(4).unwrap();
        let mut grower = Grower::new(&mut book, &mut searcher, settings(3), None);
        let start = Position::initial();
        grower.score(&start).unwrap();
        let rule = Deviation { max_ply: 3, deviation: 300 };
        for _ in 0..20 {
            let todo = grower.deviations(&start, rule);
            if todo.is_empty() {
                break;
            }
            for pos in todo {
                grower.expand_leaf(&pos).unwrap();
            }
            grower.book.negamax();
        }
        assert!(grower.deviations(&start, rule).is_empty());
        // Along every move within 3 discs of the best, no position before ply 3 keeps a leaf
        // that close to its best.
        let book = grower.book();
        let mut stack = vec![start];
        let mut visited = 0;
        while let Some(pos) = stack.pop() {
            let pos = held_form(&pos).unwrap();
            let (entry, s) = book.probe(&pos).unwrap();
            visited += 1;
            assert!(ply(&pos) <= 3, "nothing past ply 3");
            if ply(&pos) == 3 {
                continue;
            }
            if entry.leaf != NO_LEAF {
                assert!(i32::from(entry.leaf_value) < i32::from(entry.value) - 300);
                assert!(!book.holds(&pos.play(square_from_canonical(s, entry.leaf))));
            }
            for m in book.moves(&pos) {
                if m.source == crate::book::MoveSource::Book && m.value >= i32::from(entry.value) - 300 {
                    stack.push(pos.play(m.square));
                }
            }
        }
        assert!(visited >= 3);
        // The start and f5 at least, and the replies to f5 within 3 discs of the best.
        assert!(book.len() >= 3, "{}", book.len());
        let values: Vec<i32> = book.moves(&start.play("f5".parse().unwrap())).iter().map(|m| m.value).collect();
        assert!(values.windows(2).all(|w| w[0] >= w[1]));
    }

    #[test]
    fn games_add_their_positions_and_count_them() {
        let mut book = Book::new();
        let mut searcher = Searcher::with_hash(4).unwrap();
        let mut grower = Grower::new(&mut book, &mut searcher, settings(2), None);
        let start = Position::initial();
        let a = parse_moves("f5d6c3d3c4").unwrap();
        let b = parse_moves("f5d6c3d3c4f4").unwrap();
        let c = parse_moves("c4e3f6").unwrap();
        let games = vec![(start, a.clone()), (start, b.clone()), (start, c.clone())];
        let counts = count_positions(&games, 4);
        assert_eq!(counts[&book_key(&start).0], 3);
        assert_eq!(counts[&book_key(&start.play("f5".parse().unwrap())).0], 3, "c4 is f5 mirrored");
        // Only the positions two games reached: the start to f5d6c3d3 (ply 4), not c4e3.
        let mut added = 0;
        for (s, moves) in &games {
            added += grower.add_game(s, moves, 4, Some((&counts, 2))).unwrap();
        }
        assert_eq!(added, 5);
        assert_eq!(grower.book().len(), 5);
        let (entry, _) = grower.book().probe(&start).unwrap();
        assert_eq!(entry.games, 3);
        // Every leaf is a move whose position the book does not hold.
        for (key, entry) in grower.book().entries() {
            let pos = crate::book::canonical_position(*key);
            if entry.leaf != NO_LEAF {
                let leaf = Square::from_index_unchecked(u32::from(entry.leaf));
                assert!(pos.legal_moves().contains(leaf));
                assert!(!grower.book().holds(&pos.play(leaf)));
            }
        }
    }
}
