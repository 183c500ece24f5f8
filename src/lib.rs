//! Magpie: an Othello (Reversi) engine.
//!
//! The library holds all the logic; the `magpie` binary is a thin command-line front end over it.
//!
//! Module map:
//! - [`board`]: squares, bitboards, positions, move generation and flips, board sizes, perft;
//! - [`formats`]: text forms of positions, moves, OBF test-suite lines, GGF games and ASCII
//!   boards;
//! - [`eval`]: evaluations (Magpie's own and the classic ones);
//! - [`search`]: iterative deepening PVS, limits and time plans, move ordering;
//! - [`book`]: the opening book and the opening names;
//! - [`engine`]: the reader, engine-loop and search threads;
//! - [`protocol`]: the protocols over the engine loop;
//! - [`tools`]: what a user runs on positions and games: bestmove, solve, analyze, review, book,
//!   openings, bench, perft;
//! - [`matches`](mod@matches): the match runner;
//! - [`train`]: the training pipeline: samples, self-play, relabelling, fitting the weights,
//!   Multi-ProbCut, the hand-made evaluation's fit;
//! - [`cli`]: the command line;
//! - [`rng`], [`quote`], [`progress`], [`shard`]: a seeded random generator, input quoted safely in
//!   error messages, progress bars, and the shares of a long job.

pub mod board;
pub mod book;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod formats;
pub mod matches;
pub mod progress;
pub mod protocol;
pub mod quote;
pub mod rng;
pub mod search;
pub mod shard;
pub mod tools;
pub mod train;
