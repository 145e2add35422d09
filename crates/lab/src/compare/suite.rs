//! Test positions: EPD suites read from a file, and the bundled equivalent of the SPP thesis's
//! 16-position set (`data/spp-thesis-16.epd`, its choices documented in `data/README.md`).

use anyhow::{bail, Context, Result};
use augur::position::Position;
use std::path::Path;

/// The thesis's test set rebuilt from our data: a mate-in-3 problem, 12 Bratko-Kopec
/// positions, and three endgames (bishops and pawns, KPK, KRK).
pub const THESIS_SET: &str = include_str!("../../data/spp-thesis-16.epd");

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

/// Parses an EPD suite: one position per line (the four FEN fields, then operations such as
/// `bm`, `id "..."`); blank lines and lines starting with `#` are skipped. A bad line is an
/// error naming its number and text.
pub fn parse_epd(text: &str, source: &str) -> Result<Vec<SuitePosition>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let n = i + 1;
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            bail!("{source}:{n}: an EPD line needs at least the four FEN fields: '{line}'");
        }
        let fen = fields[..4].join(" ");
        let pos = Position::from_fen(&fen, false)
            .map_err(|e| anyhow::anyhow!("{source}:{n}: bad FEN '{fen}': {e}"))?;
        if pos.legal_moves().is_empty() {
            bail!("{source}:{n}: the position '{fen}' has no legal move (mate or stalemate)");
        }
        let ops = fields[4..].join(" ");
        let id = epd_op(&ops, "id").unwrap_or_else(|| format!("#{n}"));
        out.push(SuitePosition {
            id,
            fen,
            pos,
            line: n,
        });
    }
    if out.is_empty() {
        bail!("{source}: no positions");
    }
    Ok(out)
}

/// The value of EPD operation `name` (`name value;` or `name "value";`), unquoted.
pub fn epd_op(ops: &str, name: &str) -> Option<String> {
    for op in ops.split(';') {
        let op = op.trim();
        let mut parts = op.splitn(2, char::is_whitespace);
        if parts.next() == Some(name) {
            let v = parts.next().unwrap_or("").trim().trim_matches('"');
            return Some(v.to_string());
        }
    }
    None
}

/// Reads a suite file, or the bundled thesis set when `path` is `None`.
pub fn load(path: Option<&Path>) -> Result<Vec<SuitePosition>> {
    match path {
        None => parse_epd(THESIS_SET, "spp-thesis-16.epd (bundled)"),
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
        let s = parse_epd(THESIS_SET, "bundled").unwrap();
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
        assert_eq!(
            epd_op("bm Qd1+; id \"BK.01\";", "id").as_deref(),
            Some("BK.01")
        );
    }
}
