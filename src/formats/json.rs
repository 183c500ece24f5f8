//! JSON lines, the tools' machine-readable output (`--json`): one object a line, so that a script
//! reads a long run's results as they come.

use serde::Serialize;
use std::io::{self, Write};

/// Writes `value` as one JSON line.
pub fn json_line(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::other)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_object_a_line() {
        let mut out = Vec::new();
        json_line(&mut out, &serde_json::json!({"move": "f5", "score": 1.5})).unwrap();
        json_line(&mut out, &[1, 2]).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "{\"move\":\"f5\",\"score\":1.5}\n[1,2]\n");
    }
}
