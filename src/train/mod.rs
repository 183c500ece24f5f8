//! The training pipeline, each step a subcommand over the same library: training samples from
//! tournament games (`wthor-samples`) and from self-play (`datagen`), scored again deeper
//! (`relabel`), the pattern weights fitted to them (`train`), Multi-ProbCut fitted for a weight
//! file (`probcut`), and the hand-made evaluation fitted to tournament games (`fit-eval`).

pub mod datagen;
pub mod fit_eval;
pub mod linear_start;
pub mod network;
pub mod patterns;
pub mod probcut;
pub mod relabel;
pub mod wthor_samples;
