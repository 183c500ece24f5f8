//! The protocols Magpie speaks, one module each, over the same engine loop ([`crate::engine`]):
//! a nom parser from a line to a typed command, a formatter from a typed reply to a line, and the
//! [`crate::engine::Frontend`] that connects them to the engine.
//!
//! - [`ugi`]: Magpie's own UCI-shaped protocol, compatible with UGI clients (cutegames).

pub mod ugi;

use nom::IResult;
use nom::Parser;
use nom::bytes::complete::{tag_no_case, take_till1};
use nom::character::complete::{space0, space1};
use nom::combinator::{eof, peek};
use nom::sequence::terminated;

/// One blank-separated word.
pub(crate) fn word(input: &str) -> IResult<&str, &str> {
    let (input, _) = space0(input)?;
    take_till1(char::is_whitespace)(input)
}

/// A keyword, matched whole and in either case.
pub(crate) fn keyword<'a>(
    word: &'static str,
) -> impl Parser<&'a str, Output = &'a str, Error = nom::error::Error<&'a str>> {
    terminated(tag_no_case(word), peek(nom::branch::alt((space1, eof))))
}

/// The first word of the text that a nom error stopped at, for error messages.
pub(crate) fn offending(err: &nom::Err<nom::error::Error<&str>>) -> String {
    match err {
        nom::Err::Error(e) | nom::Err::Failure(e) => {
            e.input.split_whitespace().next().unwrap_or("end of line").to_string()
        }
        nom::Err::Incomplete(_) => "end of line".to_string(),
    }
}
