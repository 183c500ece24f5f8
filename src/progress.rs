//! Progress bars on stderr for the long jobs (solving a suite, a match, training, datagen): the
//! count, the time so far and the time left.

/// A progress bar on stderr over `len` steps, each one of `noun` (`games`, `positions`): the
/// count, the time so far and an estimate of the time left, then the bar's message; redrawn four
/// times a second. A hidden one when `show` is false (`--no-progress`).
pub fn progress_bar(show: bool, len: u64, noun: &str) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(progress_style(noun));
    bar.enable_steady_tick(std::time::Duration::from_millis(250));
    bar
}

/// The style of [`progress_bar`].
fn progress_style(noun: &str) -> indicatif::ProgressStyle {
    // Braces in the noun would be read as template keys.
    let noun = noun.replace(['{', '}'], "");
    let template = format!("{{bar:30}} {{pos}}/{{len}} {noun}, {{elapsed}} so far, about {{eta}} left {{msg}}");
    indicatif::ProgressStyle::with_template(&template).unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A terminal that keeps what is drawn on it.
    #[derive(Debug, Default, Clone)]
    struct Screen(Arc<Mutex<String>>);

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            200
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(&format!("{s}\n"))
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push_str(s);
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_bar_shows_the_count_and_the_time_left() {
        let screen = Screen::default();
        let target = indicatif::ProgressDrawTarget::term_like(Box::new(screen.clone()));
        let bar = indicatif::ProgressBar::with_draw_target(Some(10), target);
        bar.set_style(progress_style("games"));
        bar.set_message("+12 Elo");
        bar.inc(3);
        bar.tick();
        let drawn = screen.0.lock().unwrap().clone();
        assert!(drawn.contains("3/10 games, "), "{drawn}");
        assert!(drawn.contains(" so far, about ") && drawn.contains(" left +12 Elo"), "{drawn}");
    }
}
