//! Line input and output for the engine: robust against what pipes really carry (CRLF, invalid
//! UTF-8, a missing final newline, absurdly long lines) and flushed line by line.

use std::io::{BufRead, Write};

/// The longest line accepted, in bytes, its line ending aside; longer ones are skipped with an
/// error (a whole GGF game is a few kilobytes).
pub const MAX_LINE: usize = 1 << 20;

/// The next line of some input, as [`LineSource::next_line`] gives it.
pub type NextLine = Box<dyn FnMut() -> Option<Result<String, String>> + Send>;

/// Reads lines from a byte stream, or from a source that gives whole lines (a line editor).
pub struct LineSource {
    input: Input,
}

enum Input {
    Bytes(Box<dyn BufRead + Send>),
    Lines(NextLine),
}

impl LineSource {
    /// Lines from `reader`.
    pub fn new(reader: Box<dyn BufRead + Send>) -> LineSource {
        LineSource { input: Input::Bytes(reader) }
    }

    /// Lines as `next_line` gives them (already cut, checked and without their line ending).
    pub fn from_fn(next_line: NextLine) -> LineSource {
        LineSource { input: Input::Lines(next_line) }
    }

    /// The next line without its line ending, `Some(Err(..))` for a line that is too long, `None`
    /// at the end of input (or on a read error, which ends input just the same).
    pub fn next_line(&mut self) -> Option<Result<String, String>> {
        let reader = match &mut self.input {
            Input::Bytes(reader) => reader,
            Input::Lines(next_line) => return next_line(),
        };
        let mut buf = Vec::new();
        let mut too_long = false;
        loop {
            let chunk = match reader.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    log::warn!("input error: {e}");
                    return None;
                }
            };
            if chunk.is_empty() {
                if buf.is_empty() && !too_long {
                    return None;
                }
                break;
            }
            let (taken, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            // Room for the line ending (`\r\n`) beyond the longest line.
            if buf.len() + taken <= MAX_LINE + 2 {
                buf.extend_from_slice(&chunk[..taken]);
            } else {
                too_long = true;
            }
            reader.consume(taken);
            if done {
                break;
            }
        }
        while matches!(buf.last(), Some(b'\n' | b'\r')) {
            buf.pop();
        }
        if too_long || buf.len() > MAX_LINE {
            return Some(Err(format!("line longer than {MAX_LINE} bytes (1 MiB) ignored")));
        }
        Some(Ok(String::from_utf8_lossy(&buf).into_owned()))
    }
}

/// The one writer of the engine's output: every line is flushed at once. A failed write (the
/// client closed the pipe) marks the output closed, and the engine then exits.
pub struct Output {
    writer: Box<dyn Write + Send>,
    closed: bool,
}

impl Output {
    /// Output to `writer`.
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output { writer, closed: false }
    }

    /// Writes `line` and a newline, and flushes.
    pub fn line(&mut self, line: &str) {
        if self.closed {
            return;
        }
        let result = self.writer.write_all(line.as_bytes()).and_then(|()| self.writer.write_all(b"\n"));
        if result.and_then(|()| self.writer.flush()).is_err() {
            self.closed = true;
        }
    }

    /// Whether the client has gone.
    pub fn is_closed(&self) -> bool {
        self.closed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn lines(bytes: &[u8]) -> Vec<Result<String, String>> {
        let mut source = LineSource::new(Box::new(Cursor::new(bytes.to_vec())));
        std::iter::from_fn(|| source.next_line()).collect()
    }

    #[test]
    fn line_endings_and_bad_bytes() {
        assert_eq!(lines(b"a\nb\r\nc"), [Ok("a".into()), Ok("b".into()), Ok("c".into())]);
        assert_eq!(lines(b""), []);
        assert_eq!(lines(b"\n\n"), [Ok(String::new()), Ok(String::new())]);
        assert_eq!(lines(b"x\xffy\n"), [Ok("x\u{fffd}y".into())]);
    }

    #[test]
    fn long_lines_are_skipped_and_reading_goes_on() {
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\nisready\n");
        let got = lines(&input);
        assert_eq!(got.len(), 2);
        assert!(got[0].is_err());
        assert_eq!(got[1], Ok("isready".into()));
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_read() {
        for ending in [&b"\n"[..], b"\r\n", b""] {
            let mut input = vec![b'x'; MAX_LINE];
            input.extend_from_slice(ending);
            let got = lines(&input);
            assert_eq!(got.len(), 1);
            assert_eq!(got[0].as_ref().map(String::len), Ok(MAX_LINE), "ending {ending:?}");
        }
        let mut input = vec![b'x'; MAX_LINE + 1];
        input.extend_from_slice(b"\r\nisready\n");
        let got = lines(&input);
        assert_eq!(got[0], Err("line longer than 1048576 bytes (1 MiB) ignored".to_string()));
        assert_eq!(got[1], Ok("isready".into()));
    }
}
