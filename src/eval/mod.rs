//! Evaluations: a score in centi-discs for the side to move, estimating the final disc
//! difference. Magpie's own hand-made evaluation is the default; the classic course engines'
//! evaluations are selectable by name for play, difficulty levels and comparison.

pub mod classic;
pub mod features;
pub mod heuristic;

use crate::board::Position;
use crate::quote::Quoted;
use std::fmt;
use std::str::FromStr;

/// One named term of an evaluation: its raw feature value and its contribution in centi-discs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalPart {
    /// The feature's name.
    pub name: &'static str,
    /// The feature's value (e.g. the mobility difference in moves).
    pub raw: i32,
    /// Its contribution to the evaluation, in centi-discs.
    pub score: i32,
}

/// Which evaluation the search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EvalKind {
    /// Magpie's hand-made evaluation (mobility, frontier, corners, stability, parity).
    #[default]
    Magpie,
    /// Disc difference.
    Discs,
    /// GNOME Iagno's static square weights.
    Iagno,
    /// Sannidhanam & Annamalai's static square weights.
    Sannidhanam,
    /// John Fish's corner/edge heuristic (the Flippy tutorial).
    CornerEdge,
}

impl EvalKind {
    /// Every evaluation, the default first.
    pub const ALL: [EvalKind; 5] =
        [EvalKind::Magpie, EvalKind::Discs, EvalKind::Iagno, EvalKind::Sannidhanam, EvalKind::CornerEdge];

    /// The name used in options and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            EvalKind::Magpie => "magpie",
            EvalKind::Discs => "discs",
            EvalKind::Iagno => "iagno",
            EvalKind::Sannidhanam => "sannidhanam",
            EvalKind::CornerEdge => "corner-edge",
        }
    }

    /// The score of `pos` in centi-discs for the side to move, within ±6400.
    #[inline]
    pub fn evaluate(self, pos: &Position) -> i32 {
        match self {
            EvalKind::Magpie => heuristic::evaluate(pos),
            EvalKind::Discs => classic::discs(pos),
            EvalKind::Iagno => classic::weighted(classic::iagno_table(pos.size()), pos),
            EvalKind::Sannidhanam => classic::weighted(classic::sannidhanam_table(pos.size()), pos),
            EvalKind::CornerEdge => classic::corner_edge(pos),
        }
    }

    /// The terms that make up [`EvalKind::evaluate`] (their scores add up to it, before the clamp
    /// to ±6400).
    pub fn parts(self, pos: &Position) -> Vec<EvalPart> {
        match self {
            EvalKind::Magpie => heuristic::parts(pos),
            EvalKind::Discs => {
                vec![EvalPart { name: "discs", raw: pos.disc_difference(), score: classic::discs(pos) }]
            }
            EvalKind::Iagno => classic::weighted_parts(classic::iagno_table(pos.size()), pos),
            EvalKind::Sannidhanam => classic::weighted_parts(classic::sannidhanam_table(pos.size()), pos),
            EvalKind::CornerEdge => classic::corner_edge_parts(pos),
        }
    }
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown evaluation name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseEvalError(pub String);

impl fmt::Display for ParseEvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = EvalKind::ALL.iter().map(|e| e.name()).collect();
        write!(f, "unknown evaluation {} (expected {})", Quoted(&self.0), names.join(", "))
    }
}

impl std::error::Error for ParseEvalError {}

impl FromStr for EvalKind {
    type Err = ParseEvalError;
    fn from_str(s: &str) -> Result<EvalKind, ParseEvalError> {
        EvalKind::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseEvalError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;

    #[test]
    fn names_round_trip() {
        for e in EvalKind::ALL {
            assert_eq!(e.name().parse::<EvalKind>(), Ok(e));
            assert_eq!(e.name().to_uppercase().parse::<EvalKind>(), Ok(e));
        }
        assert!("stockfish".parse::<EvalKind>().is_err());
    }

    #[test]
    fn every_evaluation_works_on_every_size_and_parts_add_up() {
        for size in BoardSize::ALL {
            let mut pos = Position::start(size);
            for _ in 0..6 {
                let Some(sq) = pos.legal_moves().first() else { break };
                pos = pos.play(sq);
                for e in EvalKind::ALL {
                    let v = e.evaluate(&pos);
                    assert!(v.abs() <= 6400, "{e} on {size}: {v}");
                    let sum: i32 = e.parts(&pos).iter().map(|p| p.score).sum();
                    assert_eq!(sum.clamp(-6400, 6400), v, "{e} on {size}");
                    assert_eq!(e.evaluate(&pos.pass()), -v + if e == EvalKind::Magpie { parity(&pos) } else { 0 });
                }
            }
        }
    }

    /// The parity term is the same for both sides (it belongs to whoever moves), so swapping sides
    /// changes the evaluation by twice it.
    fn parity(pos: &Position) -> i32 {
        let p = heuristic::parts(pos).into_iter().find(|p| p.name == "parity").map(|p| p.score).unwrap_or(0);
        2 * p
    }
}
