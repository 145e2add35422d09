//! A position labelled for learning: the board, its game's result and, where the data has
//! one, a search score, both from white's point of view; and the parsers of the fields every
//! format shares (board, result), so that each format's reader ([`super::samples`],
//! [`super::pgn`], `datagen`'s conversion) builds on one vocabulary.

use anyhow::{anyhow, bail, Result};
use cozy_chess::{Board, Color};

#[derive(Clone, Debug, PartialEq)]
pub struct LabelledBoard {
    pub board: Board,
    /// Game result for white: 1 win, 0.5 draw, 0 loss.
    pub result: f32,
    /// Search score for white in centipawns, when the data has one.
    pub score: Option<i32>,
}

/// A legal position, as the engine reads it.
pub fn parse_board(fen: &str) -> Result<Board> {
    let pos = augur::position::Position::from_fen(fen, false).map_err(|e| anyhow!("{e}"))?;
    Ok(pos.board().clone())
}

/// White's result: PGN style ("1-0", "1/2-1/2", "0-1") or bullet's (1.0, 0.5, 0.0).
pub fn parse_result(text: &str) -> Result<f32> {
    match text.trim() {
        "1-0" | "1.0" | "1" => Ok(1.0),
        "0-1" | "0.0" | "0" => Ok(0.0),
        "1/2-1/2" | "0.5" => Ok(0.5),
        other => bail!("result '{other}' is not 1-0, 0-1, 1/2-1/2, 1.0, 0.5 or 0.0"),
    }
}

/// A side-to-move score from white's view; the same negation turns a white score back into
/// the side to move's.
pub(crate) fn white_view(stm_score: i32, stm: Color) -> i32 {
    if stm == Color::White {
        stm_score
    } else {
        -stm_score
    }
}
