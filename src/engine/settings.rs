//! The engine's settings shared by every protocol (evaluation, difficulty level, move overhead,
//! hash table size, search threads, the opening book and how it is used) and the decision every
//! protocol needs before a search: answer at once (from the book, among others), or search with
//! which request.

use super::book::{BookPlay, choose};
use crate::board::{Move, Position};
use crate::book::{Book, default_book};
use crate::eval::network::Quantized;
use crate::eval::weights::Weights;
use crate::eval::{EvalKind, Evaluator};
use crate::rng::Rng;
use crate::search::{Deadlines, Limits, MAX_SEARCH_DEPTH, SearchRequest, search_depth, tt};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The strongest level: no cap.
pub const MAX_LEVEL: u8 = 10;

/// The most search threads accepted (the `Threads` option, `--threads`).
pub const MAX_THREADS: usize = 256;

/// The smallest transposition table, in MiB (the `Hash` option, `--hash`).
pub const MIN_HASH_MIB: usize = tt::MIN_MIB;

/// The largest transposition table, in MiB.
pub const MAX_HASH_MIB: usize = tt::MAX_MIB;

/// The default transposition table, in MiB.
pub const DEFAULT_HASH_MIB: usize = tt::DEFAULT_MIB;

/// The most discs of `BookRandomness` (`--book-randomness`).
pub const MAX_BOOK_RANDOMNESS: u32 = 64;

/// The largest `BookSeed` (`--book-seed`): what a 32-bit GUI's spin box holds.
pub const MAX_BOOK_SEED: u64 = i32::MAX as u64;

/// Settings that shape the engine's play.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The evaluation at the leaves (levels 2 and up).
    pub eval: EvalKind,
    /// The pattern evaluation's weights: the embedded ones, or a file's (`--weights`, the
    /// `Weights` option).
    pub weights: Arc<Weights>,
    /// The network whose values replace the pattern weights' at the leaves (`--network`), if any.
    pub network: Option<Arc<Quantized>>,
    /// Difficulty level, 0 (random mover) to [`MAX_LEVEL`] (full strength).
    pub level: u8,
    /// Time kept in hand for the answer to reach the client.
    pub move_overhead: Duration,
    /// Thinking time when a client gives no limit at all (UGI `go`, GTP `genmove` without time
    /// settings).
    pub default_movetime: Duration,
    /// How many best moves a search scores and reports (UGI `MultiPV`).
    pub multi_pv: usize,
    /// Multi-ProbCut's selectivity, 0 (off) to [`crate::search::MAX_SELECTIVITY`] (the
    /// `Selectivity` option).
    pub selectivity: u8,
    /// The size of the transposition table, in MiB ([`MIN_HASH_MIB`] to [`MAX_HASH_MIB`]). The
    /// engine changes it with [`crate::engine::Context::set_hash`], which allocates the table.
    pub hash_mib: usize,
    /// Search threads (1 to [`MAX_THREADS`]). The engine changes it with
    /// [`crate::engine::Context::set_threads`].
    pub threads: usize,
    /// The opening book: the one built into the binary by default, a file's (`--book`, the
    /// `Book` option), or none.
    pub book: Option<Arc<Book>>,
    /// Whether moves are played from the book while it holds the position (`OwnBook`).
    pub own_book: bool,
    /// How far below the best a book move may be and still be played, in centi-discs (the
    /// `BookRandomness` option is in discs): 0 plays the best.
    pub book_randomness: u32,
    /// The seed of the book's random choices: `None` seeds them from the clock and the process,
    /// so that processes differ; a seed repeats them.
    pub book_seed: Option<u64>,
    /// The book file NBoard's `learn` adds games to (`--book`); `None` without one.
    pub book_file: Option<PathBuf>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            eval: EvalKind::default(),
            weights: Weights::embedded(),
            network: None,
            level: MAX_LEVEL,
            move_overhead: Duration::from_millis(10),
            default_movetime: Duration::from_millis(1000),
            multi_pv: 1,
            selectivity: crate::search::DEFAULT_SELECTIVITY,
            hash_mib: DEFAULT_HASH_MIB,
            threads: 1,
            book: Some(default_book()),
            own_book: true,
            book_randomness: 0,
            book_seed: None,
            book_file: None,
        }
    }
}

/// What a difficulty level does: the deepest search and the evaluation it may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelPlay {
    /// Any legal move, at random.
    Random,
    /// A search no deeper than `depth` plies, with the disc count as evaluation if `greedy`.
    Capped {
        /// Deepest iteration.
        depth: u32,
        /// Count discs instead of using the chosen evaluation.
        greedy: bool,
    },
    /// No cap.
    Full,
}

/// The play of each level, 0 to 10.
pub fn level_play(level: u8) -> LevelPlay {
    match level {
        0 => LevelPlay::Random,
        1 => LevelPlay::Capped { depth: 1, greedy: true },
        2 => LevelPlay::Capped { depth: 1, greedy: false },
        3 => LevelPlay::Capped { depth: 2, greedy: false },
        4 => LevelPlay::Capped { depth: 3, greedy: false },
        5 => LevelPlay::Capped { depth: 4, greedy: false },
        6 => LevelPlay::Capped { depth: 6, greedy: false },
        7 => LevelPlay::Capped { depth: 8, greedy: false },
        8 => LevelPlay::Capped { depth: 10, greedy: false },
        9 => LevelPlay::Capped { depth: 12, greedy: false },
        _ => LevelPlay::Full,
    }
}

/// How to answer a request for a move.
#[derive(Clone, Debug)]
pub enum MovePlan {
    /// Neither side can move.
    GameOver,
    /// Answer with this move at once, for the given reason.
    Immediate {
        /// The move.
        mv: Move,
        /// Why no search is needed.
        reason: ImmediateReason,
    },
    /// Play this move from the opening book, at once.
    Book(BookPlay),
    /// Run this search.
    Search(Box<SearchRequest>),
}

/// Why a move is answered without a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImmediateReason {
    /// The side to move has no legal move.
    Pass,
    /// There is only one legal move.
    OnlyMove,
    /// Level 0 plays at random.
    Random,
}

impl fmt::Display for ImmediateReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ImmediateReason::Pass => "no legal move: pass",
            ImmediateReason::OnlyMove => "only move",
            ImmediateReason::Random => "level 0: random move",
        })
    }
}

impl Settings {
    /// Decides how to answer a request for a move in `pos` under `limits`, the clock having
    /// started at `received`. A lone legal move, and a position the book holds (with `OwnBook`,
    /// above level 0), are answered at once unless the search is infinite (an analysis, which goes
    /// on until stopped). `rng` draws the random mover's moves, `book_rng` the book's.
    pub fn plan(
        &self,
        pos: &Position,
        limits: &Limits,
        received: Instant,
        rng: &mut Rng,
        book_rng: &mut Rng,
    ) -> MovePlan {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.opponent_moves().is_empty() {
                MovePlan::GameOver
            } else {
                MovePlan::Immediate { mv: Move::Pass, reason: ImmediateReason::Pass }
            };
        }
        let play = level_play(self.level);
        if play == LevelPlay::Random {
            let squares: Vec<_> = moves.iter().collect();
            return MovePlan::Immediate {
                mv: Move::Play(squares[rng.below(squares.len())]),
                reason: ImmediateReason::Random,
            };
        }
        if moves.len() == 1 && !limits.infinite {
            let only = moves.first().map_or(Move::Pass, Move::Play);
            return MovePlan::Immediate { mv: only, reason: ImmediateReason::OnlyMove };
        }
        if !limits.infinite
            && let Some(play) = self.book_move(pos, book_rng)
        {
            return MovePlan::Book(play);
        }
        MovePlan::Search(self.search_request(pos, limits, received))
    }

    /// The book in use when moves are taken from it: `None` when there is none or `OwnBook` is
    /// off.
    pub fn playing_book(&self) -> Option<&Book> {
        self.book.as_deref().filter(|_| self.own_book)
    }

    /// The book's move for `pos`, drawn with `rng` within the randomness, if the book is used and
    /// holds `pos`.
    pub fn book_move(&self, pos: &Position, rng: &mut Rng) -> Option<BookPlay> {
        choose(self.playing_book()?, pos, self.book_randomness, rng)
    }

    /// The generator of the book's random choices for `book_seed`.
    pub fn book_rng(&self) -> Rng {
        self.book_seed.map_or_else(Rng::from_time, Rng::new)
    }

    /// The evaluation with its weights.
    pub fn evaluator(&self) -> Evaluator {
        match &self.network {
            Some(net) if self.eval == EvalKind::Pattern => {
                Evaluator::with_network(Arc::clone(&self.weights), Arc::clone(net))
                    .unwrap_or_else(|_| Evaluator::with_weights(self.eval, Arc::clone(&self.weights)))
            }
            _ => Evaluator::with_weights(self.eval, Arc::clone(&self.weights)),
        }
    }

    /// The search for `pos` under `limits` at this level, the clock having started at `received`.
    pub fn search_request(&self, pos: &Position, limits: &Limits, received: Instant) -> Box<SearchRequest> {
        let mut request = SearchRequest::new(*pos, self.evaluator());
        request.start = received;
        request.deadlines = Deadlines::plan(limits, pos.empty_count(), received, self.move_overhead);
        request.node_limit = if limits.infinite { None } else { limits.nodes };
        request.max_depth = if limits.infinite {
            MAX_SEARCH_DEPTH
        } else {
            limits.depth.map_or(MAX_SEARCH_DEPTH, |d| search_depth(d.into()))
        };
        request.multi_pv = self.multi_pv;
        request.selectivity = self.selectivity;
        request.wld = limits.wld;
        if let LevelPlay::Capped { depth, greedy } = level_play(self.level) {
            request.max_depth = request.max_depth.min(depth);
            if greedy {
                request.eval = EvalKind::Discs.into();
            }
        }
        Box::new(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BoardSize, Color};

    fn plan(settings: &Settings, pos: &Position, limits: &Limits) -> MovePlan {
        settings.plan(pos, limits, Instant::now(), &mut Rng::new(1), &mut Rng::new(2))
    }

    /// Settings that search: no book.
    fn searching() -> Settings {
        Settings { own_book: false, ..Settings::default() }
    }

    #[test]
    fn special_positions_are_answered_at_once() {
        let s = Settings::default();
        let limits = Limits::default();
        // Game over: a full 4x4 board.
        let full = Position::from_discs(0x0f0f_0f0f, 0, Color::Black, BoardSize::Four).unwrap();
        assert!(matches!(plan(&s, &full, &limits), MovePlan::GameOver));
        // Level 0 is random but legal.
        let random = Settings { level: 0, ..Settings::default() };
        let MovePlan::Immediate { mv, reason: ImmediateReason::Random } = plan(&random, &Position::initial(), &limits)
        else {
            panic!("level 0 answers at once")
        };
        assert!(Position::initial().is_legal(mv));
    }

    #[test]
    fn levels_cap_depth_and_full_strength_does_not() {
        for level in 1..=MAX_LEVEL {
            let s = Settings { level, ..searching() };
            let MovePlan::Search(req) = plan(&s, &Position::initial(), &Limits::default()) else {
                panic!("level {level} searches")
            };
            match level_play(level) {
                LevelPlay::Capped { depth, greedy } => {
                    assert_eq!(req.max_depth, depth);
                    assert_eq!(req.eval.kind() == EvalKind::Discs, greedy);
                }
                LevelPlay::Full => assert_eq!(req.max_depth, 60),
                LevelPlay::Random => unreachable!(),
            }
        }
        let depth = Limits { depth: Some(3), ..Limits::default() };
        let MovePlan::Search(req) = plan(&searching(), &Position::initial(), &depth) else { panic!() };
        assert_eq!(req.max_depth, 3);
    }

    #[test]
    fn the_book_answers_at_once_unless_off_or_infinite() {
        let start = Position::initial();
        let limits = Limits { depth: Some(20), ..Limits::default() };
        let MovePlan::Book(play) = plan(&Settings::default(), &start, &limits) else {
            panic!("the built-in book holds the start")
        };
        assert!(start.is_legal(play.mv));
        assert_eq!(play.line.first(), Some(&play.mv));
        assert!(matches!(plan(&searching(), &start, &limits), MovePlan::Search(_)));
        let no_book = Settings { book: None, ..Settings::default() };
        assert!(matches!(plan(&no_book, &start, &limits), MovePlan::Search(_)));
        let infinite = Limits { infinite: true, ..Limits::default() };
        assert!(matches!(plan(&Settings::default(), &start, &infinite), MovePlan::Search(_)));
        let random = Settings { level: 0, ..Settings::default() };
        assert!(matches!(plan(&random, &start, &limits), MovePlan::Immediate { .. }));
        // Other boards have no book.
        let six = Position::start(crate::board::BoardSize::Six);
        assert!(matches!(plan(&Settings::default(), &six, &limits), MovePlan::Search(_)));
        // A seed repeats the book's draws.
        let wide = Settings { book_randomness: 200, book_seed: Some(9), ..Settings::default() };
        let draws = |s: &Settings| {
            let mut rng = s.book_rng();
            (0..16).map(|_| s.book_move(&start, &mut rng).map(|p| p.mv)).collect::<Vec<_>>()
        };
        assert_eq!(draws(&wide), draws(&wide));
    }

    #[test]
    fn wld_reaches_the_request() {
        let s = Settings::default();
        let start = Position::initial();
        assert!(!s.search_request(&start, &Limits::default(), Instant::now()).wld);
        let wld = Limits { wld: true, ..Limits::default() };
        assert!(s.search_request(&start, &wld, Instant::now()).wld);
        assert_eq!((s.hash_mib, s.threads), (DEFAULT_HASH_MIB, 1));
    }
}
