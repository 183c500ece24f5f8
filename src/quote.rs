//! Input text quoted in error messages: clipped, so that a 500 KB line is not echoed back, and
//! with control characters escaped, so that a NUL byte reads `\0` rather than vanishing or
//! breaking the line. And the one wording of a file that cannot be read, for every kind of file
//! (books, weights, games, suites): `<path>: <what is wrong>`.

use std::fmt;
use std::io;
use std::path::Path;

/// An I/O error as a person reads it: `No such file or directory`, without `(os error 2)`.
pub fn io_text(e: &io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text,
    }
}

/// The bytes of the file `path`, which must be a regular file (a folder, or a device such as
/// /dev/zero that never ends, is refused); the error is `<path>: <what is wrong>`.
pub fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    let name = path.display();
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(format!("{name}: not a regular file")),
        Ok(_) => std::fs::read(path).map_err(|e| format!("{name}: {}", io_text(&e))),
        Err(e) => Err(format!("{name}: {}", io_text(&e))),
    }
}

/// The most characters of a token an error message quotes.
pub const MAX_QUOTED_CHARS: usize = 80;

/// `text` as an error message shows it: at most [`MAX_QUOTED_CHARS`] characters, then `…`, with
/// control characters escaped (`\0`, `\t`, `\u{1b}`).
pub fn clipped(text: &str) -> String {
    one_line(text, MAX_QUOTED_CHARS)
}

fn escape_into(c: char, out: &mut String) {
    match c {
        '\0' => out.push_str("\\0"),
        c if c.is_control() => out.extend(c.escape_debug()),
        c => out.push(c),
    }
}

/// The longest error message a protocol writes (a message quotes at most a few tokens).
pub const MAX_ERROR_CHARS: usize = 400;

/// A whole message made safe for one output line: every control character escaped (a message
/// never spans lines), and at most `max` characters.
pub fn one_line(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    for c in chars.by_ref().take(max) {
        escape_into(c, &mut out);
    }
    if chars.next().is_some() {
        out.push('…');
    }
    out
}

/// A token between single quotes, [`clipped`]: `'f9'`.
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}'", clipped(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_that_cannot_be_read_are_named_with_what_is_wrong() {
        assert_eq!(
            read_file(Path::new("no-such-dir/x.book")),
            Err("no-such-dir/x.book: No such file or directory".into())
        );
        let folder = std::env::temp_dir();
        assert_eq!(read_file(&folder), Err(format!("{}: not a regular file", folder.display())));
        assert_eq!(io_text(&io::Error::other("plain")), "plain");
    }

    #[test]
    fn long_tokens_are_clipped_and_controls_escaped() {
        assert_eq!(Quoted("f9").to_string(), "'f9'");
        assert_eq!(Quoted("a\0b").to_string(), "'a\\0b'");
        assert_eq!(Quoted("a\tb\u{1b}").to_string(), "'a\\tb\\u{1b}'");
        let long = "x".repeat(500_000);
        let shown = Quoted(&long).to_string();
        assert_eq!(shown.chars().count(), MAX_QUOTED_CHARS + 3);
        assert!(shown.ends_with("…'"));
        assert_eq!(clipped(&"é".repeat(MAX_QUOTED_CHARS)), "é".repeat(MAX_QUOTED_CHARS));
        assert_eq!(one_line("a\nb\rc", 100), "a\\nb\\rc");
        assert_eq!(one_line("abcdef", 3), "abc…");
    }
}
