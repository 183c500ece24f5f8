//! Evaluations: a score in centi-discs for the side to move, estimating the final disc
//! difference. The trained pattern evaluation ([`pattern`], [`weights`]) is the default on 8x8;
//! Magpie's hand-made evaluation ([`heuristic`]) scores the 4x4 and 6x6 boards, and stays
//! selectable on 8x8 beside the classic course engines' evaluations, for play, difficulty levels
//! and comparison. An [`Evaluator`] is an evaluation with the pattern weights it uses.

pub mod classic;
pub mod features;
pub mod heuristic;
pub mod network;
pub mod pattern;
pub mod weights;

use crate::board::{BoardSize, Position};
use crate::quote::Quoted;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use weights::Weights;

/// A wipeout in centi-discs: the most any score says, and the bound of every evaluation's
/// [`Evaluator::evaluate`] and of every score a search reports. Inside the search the pattern
/// evaluation may go beyond it (see [`weights::SEARCH_BOUND`]).
pub const WIPEOUT: i32 = 6400;

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
    /// The pattern evaluation with trained weights (the hand-made one on 4x4 and 6x6).
    #[default]
    Pattern,
    /// Magpie's hand-made evaluation (mobility, frontier, corners, stability, parity).
    Heuristic,
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
    pub const ALL: [EvalKind; 6] = [
        EvalKind::Pattern,
        EvalKind::Heuristic,
        EvalKind::Discs,
        EvalKind::Iagno,
        EvalKind::Sannidhanam,
        EvalKind::CornerEdge,
    ];

    /// The name used in options and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            EvalKind::Pattern => "pattern",
            EvalKind::Heuristic => "heuristic",
            EvalKind::Discs => "discs",
            EvalKind::Iagno => "iagno",
            EvalKind::Sannidhanam => "sannidhanam",
            EvalKind::CornerEdge => "corner-edge",
        }
    }

    /// The score of `pos` in centi-discs for the side to move, within ±6400 (the pattern
    /// evaluation with the embedded weights).
    #[inline]
    pub fn evaluate(self, pos: &Position) -> i32 {
        match self {
            EvalKind::Pattern => Evaluator::new(self).evaluate(pos),
            EvalKind::Heuristic => heuristic::evaluate(pos),
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
            EvalKind::Pattern => Evaluator::new(self).parts(pos),
            EvalKind::Heuristic => heuristic::parts(pos),
            EvalKind::Discs => {
                vec![EvalPart { name: "discs", raw: pos.disc_difference(), score: classic::discs(pos) }]
            }
            EvalKind::Iagno => classic::weighted_parts(classic::iagno_table(pos.size()), pos),
            EvalKind::Sannidhanam => classic::weighted_parts(classic::sannidhanam_table(pos.size()), pos),
            EvalKind::CornerEdge => classic::corner_edge_parts(pos),
        }
    }
}

/// An evaluation and the pattern weights it uses (those embedded in the binary unless others
/// were loaded); with a network ([`Evaluator::with_network`]), the pattern evaluation's values
/// come from the network over the same features, while the weights still order the moves and
/// give Multi-ProbCut its fits.
#[derive(Clone)]
pub struct Evaluator {
    kind: EvalKind,
    weights: Arc<Weights>,
    network: Option<Arc<network::Quantized>>,
}

impl fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Evaluator")
            .field("kind", &self.kind)
            .field("weights", &self.weights)
            .field("network", &self.network.is_some())
            .finish()
    }
}

impl Evaluator {
    /// `kind` with the embedded weights.
    pub fn new(kind: EvalKind) -> Evaluator {
        Evaluator { kind, weights: Weights::embedded(), network: None }
    }

    /// `kind` with `weights`.
    pub fn with_weights(kind: EvalKind, weights: Arc<Weights>) -> Evaluator {
        Evaluator { kind, weights, network: None }
    }

    /// The pattern evaluation read through `network` on the 8x8 board, with `weights` for the
    /// move ordering and the Multi-ProbCut fits (and, for a network fitted as their correction,
    /// the value it corrects: refused if the network was fitted over other weights).
    pub fn with_network(weights: Arc<Weights>, network: Arc<network::Quantized>) -> Result<Evaluator, String> {
        network.check_base(&weights)?;
        Ok(Evaluator { kind: EvalKind::Pattern, weights, network: Some(network) })
    }

    /// The network, if the evaluation reads one.
    pub fn network(&self) -> Option<&Arc<network::Quantized>> {
        self.network.as_ref()
    }

    /// The evaluation's name as reports give it: `network` for the patterns read through a
    /// network, else the kind's.
    pub fn name(&self) -> &'static str {
        if self.network.is_some() { "network" } else { self.kind.name() }
    }

    /// The value of a position of the 8x8 board from the lanes of its pattern features (kept up to
    /// date by the search), the side to move's discs `player`, the other side's and the side to
    /// move's legal `moves`, within ±[`weights::SEARCH_BOUND`]: the network's if there is one,
    /// else the pattern weights'.
    #[inline]
    pub fn evaluate_lanes(&self, lanes: &[u16; pattern::LANES], player: u64, opponent: u64, moves: u64) -> i32 {
        match &self.network {
            Some(net) => {
                let base = if net.base() == 0 {
                    0
                } else {
                    self.weights.evaluate_indices_with_moves(lanes, player, opponent, moves)
                };
                (base + net.evaluate(lanes, player, opponent, moves))
                    .clamp(-weights::SEARCH_BOUND, weights::SEARCH_BOUND)
            }
            None => self.weights.evaluate_indices_with_moves(lanes, player, opponent, moves),
        }
    }

    /// A hash of the pattern weights and the network: two evaluators of one kind and identity give
    /// every position the same value.
    pub fn identity(&self) -> u64 {
        self.weights.hash() ^ self.network.as_ref().map_or(0, |n| n.hash().rotate_left(17))
    }

    /// The evaluation.
    pub fn kind(&self) -> EvalKind {
        self.kind
    }

    /// The pattern weights.
    pub fn weights(&self) -> &Arc<Weights> {
        &self.weights
    }

    /// Whether the pattern weights score `pos`.
    #[inline]
    pub fn uses_patterns(&self, pos: &Position) -> bool {
        self.kind == EvalKind::Pattern && pos.size() == BoardSize::Eight
    }

    /// The score of `pos` in centi-discs for the side to move, within ±6400.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        match self.kind {
            EvalKind::Pattern if pos.size() == BoardSize::Eight => match &self.network {
                Some(net) => {
                    let (player, opponent) = (pos.player(), pos.opponent());
                    let lanes = pattern::Features::new(player, opponent).player;
                    let base = if net.base() == 0 { 0 } else { self.weights.evaluate(player, opponent) };
                    let value =
                        net.evaluate(&lanes, player, opponent, crate::board::movegen::legal_moves(player, opponent));
                    (base + value).clamp(-WIPEOUT, WIPEOUT)
                }
                None => self.weights.evaluate(pos.player(), pos.opponent()),
            },
            EvalKind::Pattern => heuristic::evaluate(pos),
            kind => kind.evaluate(pos),
        }
    }

    /// What the `raw` value of each term of [`Evaluator::parts`] counts, in words.
    pub fn raw_meaning(&self, pos: &Position) -> &'static str {
        match self.kind {
            _ if self.uses_patterns(pos) => {
                "a pattern's placements that hold a disc; for the constant, 1; for mobility, the side to move's \
                 legal moves less the other side's, each counted up to 24"
            }
            EvalKind::Pattern | EvalKind::Heuristic => {
                "the feature's value, the side to move's less the other side's (parity: 1 when the side to move \
                 gets the last move, else -1)"
            }
            EvalKind::Discs => "the side to move's discs less the other side's",
            EvalKind::Iagno | EvalKind::Sannidhanam => {
                "the square weights of the side to move's discs less the other side's, before scaling to 64 discs"
            }
            EvalKind::CornerEdge => {
                "the corner and edge points of the side to move less the other side's, before scaling to 64 discs"
            }
        }
    }

    /// The terms that make up [`Evaluator::evaluate`]: for the patterns, each pattern's placements
    /// summed (`raw` is how many placements hold a disc), the stage's constant and the mobility
    /// table's weight (`raw` is the side to move's legal moves less the other side's, each counted
    /// up to [`pattern::MOBILITY_MAX`]).
    pub fn parts(&self, pos: &Position) -> Vec<EvalPart> {
        if !self.uses_patterns(pos) {
            return match self.kind {
                EvalKind::Pattern => heuristic::parts(pos),
                kind => kind.parts(pos),
            };
        }
        let empties = pos.empty_count();
        let weight = |index: usize| self.weights.weight_at(empties, index);
        let indices = pattern::feature_indices(pos.player(), pos.opponent());
        let mut parts: Vec<EvalPart> =
            pattern::PATTERNS.iter().map(|p| EvalPart { name: p.name, raw: 0, score: 0 }).collect();
        for (i, &index) in indices.iter().enumerate() {
            let part = &mut parts[pattern::FEATURE_PATTERN[i]];
            part.score += weight(index as usize);
            part.raw += i32::from(index as usize != pattern::OFFSETS[pattern::FEATURE_PATTERN[i]]);
        }
        parts.push(EvalPart { name: "constant", raw: 1, score: weight(pattern::constant_index(empties)) });
        let mobility = pattern::mobility_index(pos.player(), pos.opponent());
        let raw = (mobility - pattern::MOBILITY) as i32;
        let raw = raw / (pattern::MOBILITY_MAX as i32 + 1) - raw % (pattern::MOBILITY_MAX as i32 + 1);
        parts.push(EvalPart { name: "mobility", raw, score: weight(mobility) });
        parts
    }
}

impl From<EvalKind> for Evaluator {
    fn from(kind: EvalKind) -> Evaluator {
        Evaluator::new(kind)
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

    #[test]
    fn a_correcting_network_adds_to_the_weights_it_was_fitted_over() {
        let weights = Weights::embedded();
        let mut net = network::Network::initial_correction(4, weights.hash(), true);
        net.readout_bias.iter_mut().for_each(|b| *b = 1.5);
        let eval = Evaluator::with_network(weights.clone(), Arc::new(network::Quantized::new(&net))).unwrap();
        let alone = {
            let mut n = net.clone();
            n.base = 0;
            Arc::new(network::Quantized::new(&n))
        };
        let pos = Position::initial().play("f5".parse().unwrap());
        let lanes = pattern::Features::new(pos.player(), pos.opponent()).player;
        let moves = pos.legal_moves().0;
        let sum = weights.evaluate(pos.player(), pos.opponent())
            + alone.evaluate(&lanes, pos.player(), pos.opponent(), moves);
        assert_eq!(eval.evaluate(&pos), sum);
        assert_eq!(eval.evaluate_lanes(&lanes, pos.player(), pos.opponent(), moves), sum);
        // Over other weights it is refused, in one line.
        let mut other = net;
        other.base ^= 1;
        let err = Evaluator::with_network(weights, Arc::new(network::Quantized::new(&other))).unwrap_err();
        assert!(err.contains("other pattern weights") && !err.contains('\n'), "{err}");
    }

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
                    if e != EvalKind::Pattern || size != BoardSize::Eight {
                        let parity =
                            if matches!(e, EvalKind::Heuristic | EvalKind::Pattern) { parity(&pos) } else { 0 };
                        assert_eq!(e.evaluate(&pos.pass()), -v + parity);
                    }
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
