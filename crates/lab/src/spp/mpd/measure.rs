//! What `mpd` measures in one position: its game phase, its quiet children (thesis section
//! 3.2: no capture, promotion or check) with their evaluations from the mover's side, and
//! their spread under each evaluation.

use anyhow::{anyhow, bail, Result};
use augur::eval::{self, classic, EvalKind};
use augur::position::Position;
use cozy_chess::{Move, Piece};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Opening,
    Middlegame,
    Endgame,
}

impl Phase {
    pub const ALL: [Phase; 3] = [Phase::Opening, Phase::Middlegame, Phase::Endgame];
    pub fn name(self) -> &'static str {
        match self {
            Phase::Opening => "opening",
            Phase::Middlegame => "middlegame",
            Phase::Endgame => "endgame",
        }
    }
}

/// Game phase: endgame by Crafty's stage (`is_endgame_stage`: both sides' non-pawn material,
/// Q=9 R=5 B=N=3, below 15); otherwise opening up to move 15 when the move number is known,
/// else opening while both sides keep all their pieces (non-pawn weight 31); otherwise
/// middlegame.
pub fn phase(pos: &Position, fullmove: Option<u32>) -> Phase {
    let b = pos.board();
    if eval::is_endgame_stage(b) {
        return Phase::Endgame;
    }
    let opening = match fullmove {
        Some(m) => m <= 15,
        None => [cozy_chess::Color::White, cozy_chess::Color::Black]
            .iter()
            .all(|&c| eval::non_pawn_weight(b, c) >= 31),
    };
    if opening {
        Phase::Opening
    } else {
        Phase::Middlegame
    }
}

/// Whether `mv` captures (en passant included; castling, encoded king-takes-own-rook, not).
pub fn is_capture(pos: &Position, mv: Move) -> bool {
    let b = pos.board();
    let us = b.side_to_move();
    if b.colors(!us).has(mv.to) {
        return true;
    }
    b.piece_on(mv.from) == Some(Piece::Pawn) && mv.from.file() != mv.to.file()
}

/// Whether `mv` is castling (cozy-chess encodes it as the king moving onto its own rook).
pub fn is_castle(pos: &Position, mv: Move) -> bool {
    let b = pos.board();
    b.piece_on(mv.from) == Some(Piece::King) && b.colors(b.side_to_move()).has(mv.to)
}

/// The evaluations, from the mover's point of view, of the quiet children of `pos` (no
/// capture, promotion or check: the thesis's siblings with spatial locality), with the moves.
pub fn quiet_children(pos: &Position, kind: EvalKind) -> Vec<(Move, i32)> {
    // `nnue` is the embedded network: the measure is of the evaluation the engine ships.
    let network = eval::nnue::default_network();
    let mut p = pos.clone();
    let mut out = Vec::new();
    for mv in pos.legal_moves() {
        if mv.promotion.is_some() || is_capture(pos, mv) {
            continue;
        }
        p.make(mv);
        if !p.in_check() {
            out.push((
                mv,
                -eval::evaluate(&p, kind, &network, eval::tapered::KING_SAFETY_AS_TUNED),
            ));
        }
        p.unmake();
    }
    out
}

/// One position's measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct SiblingSpread {
    pub phase: Phase,
    /// Quiet-sibling spread (max - min) per evaluation, `[classic, default, nnue]`; `None`
    /// with fewer than two quiet children.
    pub spread: [Option<i32>; 3],
    /// Classic: the largest rise of the mover's evaluation over the parent's by one quiet
    /// non-castling move, and `quiet_gain_bound`, the sound bound `spp-exact` uses for it.
    pub gain: Option<i32>,
    pub bound: i32,
    pub fen: String,
}

/// A sample as the result files write it, one field each: `selfplay.csv` (a game's samples)
/// and `spreads.csv` (one row each, after its source).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SiblingSpreadFields {
    pub phase: Phase,
    pub classic_spread: Option<i32>,
    pub default_spread: Option<i32>,
    pub nnue_spread: Option<i32>,
    pub classic_gain: Option<i32>,
    pub bound: i32,
    pub fen: String,
}

impl SiblingSpreadFields {
    /// The number of fields, and their short names for errors.
    pub const COUNT: usize = 7;
    pub const NAMES: &'static str = "phase;classic;default;nnue;gain;bound;fen";
}

impl From<&SiblingSpread> for SiblingSpreadFields {
    fn from(s: &SiblingSpread) -> SiblingSpreadFields {
        SiblingSpreadFields {
            phase: s.phase,
            classic_spread: s.spread[0],
            default_spread: s.spread[1],
            nnue_spread: s.spread[2],
            classic_gain: s.gain,
            bound: s.bound,
            fen: s.fen.clone(),
        }
    }
}

impl From<SiblingSpreadFields> for SiblingSpread {
    fn from(f: SiblingSpreadFields) -> SiblingSpread {
        SiblingSpread {
            phase: f.phase,
            spread: [f.classic_spread, f.default_spread, f.nnue_spread],
            gain: f.classic_gain,
            bound: f.bound,
            fen: f.fen,
        }
    }
}

/// [nnue] The network (`EvalFile`'s, the embedded one by default) is measured beside the two
/// hand-written evaluations on the same positions: its spread is what SPP would have to bound
/// if the search evaluated with it.
pub const KINDS: [EvalKind; 3] = [EvalKind::Classic, EvalKind::Hce, EvalKind::Nnue];

pub fn measure_position(pos: &Position, fullmove: Option<u32>) -> SiblingSpread {
    let mut spread = [None; 3];
    let mut gain = None;
    for (k, &kind) in KINDS.iter().enumerate() {
        let kids = quiet_children(pos, kind);
        if kids.len() >= 2 {
            let max = kids.iter().map(|c| c.1).max().unwrap_or(0);
            let min = kids.iter().map(|c| c.1).min().unwrap_or(0);
            spread[k] = Some(max - min);
        }
        if kind == EvalKind::Classic {
            let parent = eval::evaluate(
                pos,
                kind,
                &eval::nnue::default_network(),
                eval::tapered::KING_SAFETY_AS_TUNED,
            );
            gain = kids
                .iter()
                .filter(|(mv, _)| !is_castle(pos, *mv))
                .map(|(_, v)| v - parent)
                .max();
        }
    }
    SiblingSpread {
        phase: phase(pos, fullmove),
        spread,
        gain,
        bound: classic::quiet_gain_bound(pos.board()),
        fen: pos.fen(),
    }
}

/// The position at the start of each line (FEN or EPD) with its move number (EPD `fmvn`, or
/// the sixth FEN field).
pub fn read_positions(text: &str, source: &str) -> Result<Vec<(Position, Option<u32>)>> {
    let mut out = Vec::new();
    for e in crate::data::epd::parse_epd(text, source)? {
        let pos = Position::from_fen(&e.fen, false)
            .map_err(|err| anyhow!("{source}:{}: {err}", e.line))?;
        let fullmove = match e.fen.split_whitespace().nth(5) {
            Some(n) => n.parse().ok(),
            None => e.op("fmvn").and_then(|v| v.parse().ok()),
        };
        out.push((pos, fullmove));
    }
    if out.is_empty() {
        bail!("{source}: no positions");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The network's spread is measured on the same quiet children as the others'.
    #[test]
    fn the_network_is_measured_beside_the_hand_written_evaluations() {
        let pos = Position::from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            false,
        )
        .unwrap();
        let s = measure_position(&pos, Some(4));
        let kids = quiet_children(&pos, EvalKind::Nnue);
        let max = kids.iter().map(|c| c.1).max().unwrap();
        let min = kids.iter().map(|c| c.1).min().unwrap();
        assert_eq!(s.spread[2], Some(max - min));
        assert_eq!(kids.len(), quiet_children(&pos, EvalKind::Classic).len());
    }

    #[test]
    fn castling_and_en_passant_are_classified() {
        let p = Position::from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6", false).unwrap();
        let moves = p.legal_moves();
        let ep = moves.iter().find(|m| p.uci(**m) == "e5d6").unwrap();
        assert!(is_capture(&p, *ep));
        let castles: Vec<_> = moves.iter().filter(|m| is_castle(&p, **m)).collect();
        assert_eq!(castles.len(), 2);
        assert!(castles.iter().all(|m| !is_capture(&p, **m)));
    }
}
