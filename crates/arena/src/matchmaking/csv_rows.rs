//! CSV files of serde rows under a fixed column line, the form of the arena's records
//! (`games.csv`, the verdict registry): read with the column line checked and each bad line
//! named, written one row to a line.

use anyhow::{anyhow, bail, Context, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Parses a CSV text whose column line must be `columns` (`name` for errors).
pub fn parse<T: DeserializeOwned>(text: &str, name: &str, columns: &str) -> Result<Vec<T>> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .with_context(|| format!("{name}: bad CSV"))?
        .iter()
        .collect::<Vec<_>>()
        .join(",");
    if headers != columns {
        bail!("{name}: expected the column line '{columns}', found '{headers}'");
    }
    reader
        .deserialize()
        .map(|record| {
            record.map_err(|e| match e.position() {
                Some(p) => anyhow!("{name}:{}: {e}", p.line()),
                None => anyhow!("{name}: {e}"),
            })
        })
        .collect()
}

/// One row as a CSV line with its newline, quoted where a field needs it.
pub fn line<T: Serialize>(row: &T) -> Result<String> {
    let mut out = csv::WriterBuilder::new()
        .has_headers(false)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    out.serialize(row)?;
    let bytes = out.into_inner().map_err(|e| anyhow!("{e}"))?;
    Ok(String::from_utf8(bytes)?)
}
