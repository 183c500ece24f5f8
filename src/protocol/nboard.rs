//! Placeholder while the Nboard front end is written.

use crate::engine::search_thread::Report;
use crate::engine::{Context, Flow, Frontend};
use std::time::Instant;

/// The Nboard front end.
#[derive(Default)]
pub struct Nboard;

impl Frontend for Nboard {
    type Command = String;
    fn parse(line: &str) -> Option<Result<String, String>> {
        Some(Err(format!("not yet: {line}")))
    }
    fn on_command(&mut self, _: String, _: Instant, _: &mut Context) -> Flow {
        Flow::Continue
    }
    fn on_parse_error(&mut self, message: String, ctx: &mut Context) -> Flow {
        ctx.line(&message);
        Flow::Continue
    }
    fn on_report(&mut self, _: Report, _: &mut Context) -> Flow {
        Flow::Continue
    }
    fn on_eof(&mut self, _: &mut Context) -> Flow {
        Flow::Continue
    }
    fn busy(&self) -> bool {
        false
    }
}
