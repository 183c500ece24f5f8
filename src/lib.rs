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
//! - [`tools`]: perft, bench, bestmove;
//! - [`cli`]: the command line;
//! - [`rng`], [`quote`]: a seeded random generator, and input quoted safely in error messages.

pub mod board;
pub mod book;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod formats;
pub mod protocol;
pub mod quote;
pub mod rng;
pub mod search;
pub mod tools;
