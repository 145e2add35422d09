//! Training positions from `augur-lab datagen` files (bullet's 32-byte `ChessBoard` records,
//! read with [`crate::data::records`]).
//!
//! A record is already oriented for the side to move (its pieces are "ours" or "theirs", the
//! board mirrored when black moves), which is exactly the side to move's feature view:
//! feature = theirs · 384 + piece · 64 + oriented square.

use super::sample::{TrainingPosition, Wdl};
use crate::data::records::{Outcome, Record, RecordReader};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

pub fn sample_of(r: &Record) -> TrainingPosition {
    let mut s = TrainingPosition {
        features: [0; 32],
        count: 0,
        score: r.score(),
        result: match r.result() {
            Outcome::Loss => Wdl::Loss,
            Outcome::Draw => Wdl::Draw,
            Outcome::Win => Wdl::Win,
        },
    };
    // A valid record holds at most 32 pieces (16 bytes of 4-bit codes).
    for (sq, code) in r.pieces().take(32) {
        let theirs = (code >> 3) as u16;
        let piece = (code & 7) as u16;
        s.features[s.count as usize] = theirs * 384 + piece * 64 + sq as u16;
        s.count += 1;
    }
    s
}

/// Every record of `paths` in order, at most `max` of them; a corrupt or torn file is an
/// error naming it.
pub fn load(paths: &[PathBuf], max: Option<usize>) -> Result<Vec<TrainingPosition>> {
    load_files(paths, max).map(|(samples, _)| samples)
}

/// As [`load`], with how many positions each file gave (in order; a file after `max` was
/// reached gives 0), so that the caller can treat each file's positions as one source.
pub fn load_files(
    paths: &[PathBuf],
    max: Option<usize>,
) -> Result<(Vec<TrainingPosition>, Vec<usize>)> {
    let mut out = Vec::new();
    let mut counts = Vec::with_capacity(paths.len());
    let limit = max.unwrap_or(usize::MAX);
    for path in paths {
        let before = out.len();
        read_file(path, limit, &mut out)?;
        counts.push(out.len() - before);
    }
    Ok((out, counts))
}

fn read_file(path: &Path, limit: usize, out: &mut Vec<TrainingPosition>) -> Result<()> {
    let bytes = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    out.reserve(((bytes / 32) as usize).min(limit - out.len()));
    for (i, rec) in RecordReader::open(path)?.enumerate() {
        if out.len() == limit {
            return Ok(());
        }
        let rec = rec.with_context(|| format!("{}: record {i}", path.display()))?;
        out.push(sample_of(&rec));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use augur::position::Position;

    /// A record's features equal those computed from the position it encodes, for white and
    /// black to move, with castling and en passant on the board.
    #[test]
    fn record_features_match_the_board() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/5pk1/6p1/8/3P4/8/5K2/8 b - - 0 40",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen, false).unwrap();
            let rec = Record::from_position(&pos, -37, Outcome::Win);
            let a = sample_of(&rec);
            let b = TrainingPosition::from_board(pos.board(), -37, Wdl::Win).unwrap();
            let (mut fa, mut fb) = (a.active().to_vec(), b.active().to_vec());
            fa.sort();
            fb.sort();
            assert_eq!(fa, fb, "{fen}");
            assert_eq!((a.score, a.result), (-37, Wdl::Win));
        }
    }

    #[test]
    fn a_torn_file_is_an_error() {
        let dir = std::env::temp_dir().join(format!("augur-train-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("torn.bin");
        let rec = Record::from_position(&Position::startpos(), 12, Outcome::Draw);
        let mut bytes = rec.to_bytes().to_vec();
        bytes.extend_from_slice(&rec.to_bytes());
        std::fs::write(&path, &bytes).unwrap();
        let all = load(std::slice::from_ref(&path), None).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(load(std::slice::from_ref(&path), Some(1)).unwrap().len(), 1);
        bytes.truncate(40);
        std::fs::write(&path, &bytes).unwrap();
        let err = format!("{:#}", load(&[path], None).unwrap_err());
        assert!(err.contains("torn"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
