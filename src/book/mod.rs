//! The opening book and the opening names.
//!
//! - [`names`]: the named openings (Zebra's list of 76), recognised under the 8 symmetries.

pub mod names;
