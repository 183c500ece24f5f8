//! The tools around the engine, each a subcommand over the same library.

pub mod bench;
pub mod bestmove;
pub mod datagen;
pub mod fit_eval;
pub mod matches;
pub mod perft;
pub mod probcut;
pub mod review;
pub mod solve;
pub mod train;
pub mod wthor_samples;

/// A progress bar on stderr over `len` steps drawn with the indicatif `template`, redrawn four
/// times a second; a hidden one when `show` is false (`--no-progress`).
pub fn progress_bar(show: bool, len: u64, template: &str) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(template).unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(250));
    bar
}
