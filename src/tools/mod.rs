//! The tools around the engine, each a subcommand over the same library.

pub mod bench;
pub mod bestmove;
pub mod datagen;
pub mod fit_eval;
pub mod matches;
pub mod perft;
pub mod probcut;
pub mod solve;
pub mod train;
pub mod wthor_samples;
