//! Test positions: EPD suites read from a file, and the bundled equivalent of the SPP thesis's
//! 16-position set (`data/spp-thesis-16.epd`, its choices documented in `data/README.md`).

use crate::data::bundled::SPP_THESIS_16;
use crate::data::epd;
use anyhow::{bail, Context, Result};
use augur::position::Position;
use std::path::Path;

#[derive(Clone, Debug)]
pub struct SuitePosition {
    /// The EPD `id` operation, or `#<line>` when the line has none.
    pub id: String,
    /// The four FEN fields of the line (halfmove clock 0, move number 1 when parsed).
    pub fen: String,
    pub pos: Position,
    /// 1-based line number in the suite text.
    pub line: usize,
}

/// Parses an EPD suite (see `crate::data::epd`); every position must have a legal move, since the
/// algorithms are compared on the move they choose.
pub fn parse_epd(text: &str, source: &str) -> Result<Vec<SuitePosition>> {
    let mut out = Vec::new();
    for e in epd::parse_epd(text, source)? {
        let pos = Position::from_fen(&e.fen, false)
            .map_err(|err| anyhow::anyhow!("{source}:{}: {err}", e.line))?;
        if pos.legal_moves().is_empty() {
            bail!(
                "{source}:{}: the position '{}' has no legal move (mate or stalemate)",
                e.line,
                e.fen
            );
        }
        out.push(SuitePosition {
            id: e
                .op("id")
                .map_or_else(|| format!("#{}", e.line), str::to_string),
            fen: e.fen,
            pos,
            line: e.line,
        });
    }
    if out.is_empty() {
        bail!("{source}: no positions");
    }
    Ok(out)
}

/// Reads a suite file, or the bundled thesis set when `path` is `None`.
pub fn load(path: Option<&Path>) -> Result<Vec<SuitePosition>> {
    match path {
        None => parse_epd(SPP_THESIS_16, "spp-thesis-16.epd (bundled)"),
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("reading the suite {}", p.display()))?;
            parse_epd(&text, &p.display().to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_set_has_sixteen_positions() {
        let s = parse_epd(SPP_THESIS_16, "bundled").unwrap();
        assert_eq!(s.len(), 16);
        assert_eq!(s[1].id, "BK.02");
    }

    #[test]
    fn bad_line_is_named() {
        let e = parse_epd(
            "8/8/8/8/8/4k3/4P3/4K3 w - - id \"ok\";\nnot a fen at all\n",
            "x.epd",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("x.epd:2"), "{e}");
        assert!(e.contains("not a fen"), "{e}");
        let ok = parse_epd(
            "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";",
            "y",
        )
        .unwrap();
        assert_eq!(ok[0].id, "BK.01");
    }
}
