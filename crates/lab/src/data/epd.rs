//! EPD reading shared by the lab's commands: one position per line (the four FEN fields, or a
//! full six-field FEN), then operations such as `bm Qg6; id "WAC.001";`. Blank lines and `#`
//! comments are skipped; a bad line is an error naming the file and line.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{bail, Context, Result};

use super::bundled::{GAMES_SAMPLE300, GAMES_SAMPLE300_NAME};
use crate::kit::provenance::{sha256_file, sha256_hex};

/// One EPD line: the FEN (the four EPD fields, or six with move counters) and the
/// operations that follow it.
#[derive(Clone, Debug, PartialEq)]
pub struct EpdLine {
    /// 1-based line number in its file.
    pub line: usize,
    pub fen: String,
    /// `(opcode, operand)` in file order, operand quotes removed.
    pub ops: Vec<(String, String)>,
}

impl EpdLine {
    pub fn op(&self, code: &str) -> Option<&str> {
        self.ops
            .iter()
            .find(|(c, _)| c == code)
            .map(|(_, v)| v.as_str())
    }
}

/// Positions as the items of a job whose rows name their position by its EPD line (the `id`
/// column), so that a resumed file is read back into items whatever the order it was written in.
pub struct EpdItems<'a> {
    pub positions: &'a [EpdLine],
    /// A position's item from its EPD line.
    items: HashMap<usize, usize>,
}

impl<'a> EpdItems<'a> {
    pub fn new(positions: &'a [EpdLine]) -> Self {
        let items = positions
            .iter()
            .enumerate()
            .map(|(i, p)| (p.line, i))
            .collect();
        EpdItems { positions, items }
    }

    /// The item of the position at EPD line `line`; an error when it is none of this run's.
    pub fn item_of(&self, line: usize) -> Result<usize> {
        self.items.get(&line).copied().with_context(|| {
            format!(
                "position {line} (its EPD line) is not one of this run's {} positions",
                self.positions.len()
            )
        })
    }
}

/// Parses an EPD text. Empty lines and lines starting with `#` are skipped; any other line
/// must hold a legal position, else the error names the file and line.
pub fn parse_epd(text: &str, name: &str) -> Result<Vec<EpdLine>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parsed = parse_epd_line(line, i + 1)
            .with_context(|| format!("{name}:{}: bad EPD line '{line}'", i + 1))?;
        out.push(parsed);
    }
    Ok(out)
}

fn parse_epd_line(line: &str, number: usize) -> Result<EpdLine> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        bail!("expected at least 4 FEN fields, found {}", fields.len());
    }
    // Six-field FENs carry two move counters; EPD puts operations there instead.
    let counters = fields.len() >= 6
        && fields[4].parse::<u32>().is_ok()
        && fields[5].trim_end_matches(';').parse::<u32>().is_ok();
    let (fen_fields, rest_at) = if counters { (6, 6) } else { (4, 4) };
    let fen = fields[..fen_fields].join(" ");
    augur::position::Position::from_fen(&fen, false).map_err(|e| anyhow::anyhow!("{e}"))?;
    let rest = fields[rest_at..].join(" ");
    let mut ops = Vec::new();
    for op in split_operations(&rest)? {
        let op = op.trim();
        if op.is_empty() {
            continue;
        }
        let (code, operand) = match op.split_once(char::is_whitespace) {
            Some((c, v)) => (c, v.trim()),
            None => (op, ""),
        };
        let operand = operand
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(operand);
        ops.push((code.to_string(), operand.to_string()));
    }
    Ok(EpdLine {
        line: number,
        fen,
        ops,
    })
}

/// Splits EPD operations at `;` outside double quotes.
fn split_operations(text: &str) -> Result<Vec<String>> {
    let mut ops = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                cur.push(c);
            }
            ';' if !quoted => ops.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    if quoted {
        bail!("unterminated quoted operand");
    }
    if !cur.trim().is_empty() {
        ops.push(cur);
    }
    Ok(ops)
}

/// How a run's header names the EPD it reads, and the EPD's SHA-256: the file's path, or the
/// bundled sample's name when `path` is `None` (the sample [`load_epd`] reads then).
pub fn epd_identity(path: Option<&Path>) -> Result<(String, String)> {
    Ok(match path {
        None => (
            GAMES_SAMPLE300_NAME.to_string(),
            sha256_hex(GAMES_SAMPLE300.as_bytes()),
        ),
        Some(p) => (p.display().to_string(), sha256_file(p)?),
    })
}

/// Reads an EPD file, or the bundled 300-position sample ([`GAMES_SAMPLE300`]) when `path` is
/// `None`.
pub fn load_epd(path: Option<&Path>) -> Result<Vec<EpdLine>> {
    match path {
        None => parse_epd(GAMES_SAMPLE300, GAMES_SAMPLE300_NAME),
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read EPD file {}", p.display()))?;
            parse_epd(&text, &p.display().to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_with_quoted_semicolons() {
        let v = parse_epd(
            "8/8/8/8/8/8/8/K1k5 w - - bm Kb2; c0 \"a;b\"; id \"x\";\n",
            "t",
        )
        .unwrap();
        assert_eq!(v[0].fen, "8/8/8/8/8/8/8/K1k5 w - -");
        assert_eq!(v[0].op("bm"), Some("Kb2"));
        assert_eq!(v[0].op("c0"), Some("a;b"));
        assert_eq!(v[0].op("id"), Some("x"));
    }

    #[test]
    fn bad_epd_line_is_named() {
        let err = parse_epd("8/8/8/8/8/8/8/K1k5 w - -\nnot a fen at all\n", "pos.epd").unwrap_err();
        let msg = format!("{err:#}");
        assert!(msg.contains("pos.epd:2"), "{msg}");
    }
}
