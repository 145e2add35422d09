//! Opening positions for matches: EPD (one FEN per line), PGN (the position
//! after the game's moves, or after its first N plies) or the bundled set.

use std::fs::File;
use std::io::{BufReader, Read};
use std::ops::ControlFlow;
use std::path::Path;

use anyhow::{bail, Context, Result};
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use crate::game::referee::Referee;

/// 300 positions sampled from official-stockfish/books `8moves_v3` (CC0);
/// see `crates/arena/data/README.md`.
pub const BUNDLED_EPD: &str = include_str!("../../data/8moves_v3-sample300.epd");
pub const BUNDLED_NAME: &str = "bundled 8moves_v3 sample (official-stockfish/books, CC0)";

#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// Full FEN of the start position.
    pub fen: String,
    /// Where it came from, `file:line` or `file#game`.
    pub origin: String,
}

/// Parses EPD text: blank lines and `#` comments are skipped; each other line
/// must start with a legal position (EPD operations after it are ignored).
pub fn parse_epd(text: &str, name: &str) -> Result<Vec<Opening>> {
    parse_epd_in(text, name, CastlingMode::Standard)
}

/// Like [`parse_epd`]; Chess960 mode reads rook files in the castling field.
pub fn parse_epd_in(text: &str, name: &str, mode: CastlingMode) -> Result<Vec<Opening>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let origin = format!("{name}:{}", i + 1);
        let referee =
            Referee::from_fen_in(line, mode).with_context(|| format!("{origin}: bad opening"))?;
        if referee.rule_end().is_some() {
            bail!("{origin}: the game is already over in this position");
        }
        out.push(Opening {
            fen: referee.start_fen().to_string(),
            origin,
        });
    }
    if out.is_empty() {
        bail!("{name}: no positions");
    }
    Ok(out)
}

/// Collects each game's start position and mainline SANs.
struct BookVisitor {
    max_plies: Option<usize>,
}

struct BookGame {
    fen: Option<String>,
    sans: Vec<SanPlus>,
}

impl Visitor for BookVisitor {
    type Tags = Option<String>;
    type Movetext = BookGame;
    type Output = BookGame;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            *tags = Some(value.decode_utf8_lossy().into_owned());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(BookGame {
            fen: tags,
            sans: Vec::new(),
        })
    }

    fn san(&mut self, game: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        if self.max_plies.is_none_or(|m| game.sans.len() < m) {
            game.sans.push(san_plus);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: Self::Movetext) -> Self::Output {
        game
    }
}

/// Reads a PGN file; each game gives the position after its first `max_plies`
/// plies (all of them if `None`).
pub fn load_pgn(path: &Path, max_plies: Option<usize>) -> Result<Vec<Opening>> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    parse_pgn(BufReader::new(file), &path.display().to_string(), max_plies)
}

/// Like [`load_pgn`], from any reader; `name` is used in messages.
pub fn parse_pgn(input: impl Read, name: &str, max_plies: Option<usize>) -> Result<Vec<Opening>> {
    parse_pgn_in(input, name, max_plies, CastlingMode::Standard)
}

/// Like [`parse_pgn`]; Chess960 mode reads rook files in `FEN` tags' castling field.
pub fn parse_pgn_in(
    input: impl Read,
    name: &str,
    max_plies: Option<usize>,
    mode: CastlingMode,
) -> Result<Vec<Opening>> {
    let mut reader = Reader::new(input);
    let mut visitor = BookVisitor { max_plies };
    let mut out = Vec::new();
    let mut n = 0;
    while let Some(game) = reader
        .read_game(&mut visitor)
        .with_context(|| format!("cannot read {name}"))?
    {
        n += 1;
        let origin = format!("{name}#{n}");
        let mut pos: Chess = match &game.fen {
            Some(f) => {
                let fen: Fen = f
                    .parse()
                    .with_context(|| format!("{origin}: bad FEN tag '{f}'"))?;
                fen.into_position(mode)
                    .map_err(|e| anyhow::anyhow!("{origin}: illegal FEN tag '{f}': {e}"))?
            }
            None => Chess::default(),
        };
        for (ply, san) in game.sans.iter().enumerate() {
            let m = san
                .san
                .to_move(&pos)
                .with_context(|| format!("{origin}: move {} ('{san}') is illegal", ply / 2 + 1))?;
            pos.play_unchecked(m);
        }
        let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        let referee = Referee::from_position_in(pos, mode);
        if referee.rule_end().is_some() {
            bail!("{origin}: the game is already over after the book moves");
        }
        out.push(Opening { fen, origin });
    }
    if out.is_empty() {
        bail!("{name}: no games");
    }
    Ok(out)
}

/// The 960 Chess960 start positions in their standard (Scharnagl) numbering, #518 being the
/// classical one; the origin names the number. White to move, castling on both rooks'
/// files (Shredder-FEN in, the referee's own FEN out).
pub fn chess960_starts() -> Vec<Opening> {
    (0..960)
        .map(|n| {
            let board = shakmaty::Board::chess960(n).to_string();
            let back = board.rsplit('/').next().unwrap_or("");
            let files: String = back
                .chars()
                .zip('A'..='H')
                .filter(|&(p, _)| p == 'R')
                .map(|(_, f)| f)
                .collect();
            let castling = format!("{files}{}", files.to_ascii_lowercase());
            let fen = format!("{board} w {castling} - 0 1");
            let referee = Referee::from_fen_in(&fen, CastlingMode::Chess960)
                .expect("every Scharnagl number is a legal start");
            Opening {
                fen: referee.start_fen().to_string(),
                origin: format!("chess960 #{n}"),
            }
        })
        .collect()
}

/// Loads openings by file extension (`.pgn` is PGN, anything else EPD), or
/// the bundled set when `path` is `None`.
pub fn load(path: Option<&Path>, pgn_plies: Option<usize>) -> Result<Vec<Opening>> {
    load_in(path, pgn_plies, CastlingMode::Standard)
}

/// Like [`load`]; in Chess960 mode castling fields may name rook files, and without a
/// file the openings are the 960 start positions.
pub fn load_in(
    path: Option<&Path>,
    pgn_plies: Option<usize>,
    mode: CastlingMode,
) -> Result<Vec<Opening>> {
    match path {
        None if mode == CastlingMode::Chess960 => Ok(chess960_starts()),
        None => parse_epd(BUNDLED_EPD, "bundled-8moves_v3"),
        Some(p) if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn")) => {
            let file = File::open(p).with_context(|| format!("cannot open {}", p.display()))?;
            parse_pgn_in(
                BufReader::new(file),
                &p.display().to_string(),
                pgn_plies,
                mode,
            )
        }
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read {}", p.display()))?;
            parse_epd_in(&text, &p.display().to_string(), mode)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_starts_follow_the_standard_numbering() {
        let all = load_in(None, None, CastlingMode::Chess960).unwrap();
        assert_eq!(all.len(), 960);
        let distinct: std::collections::HashSet<&str> = all
            .iter()
            .map(|o| o.fen.split(' ').next().unwrap())
            .collect();
        assert_eq!(distinct.len(), 960);
        // #518 is the classical start, #0 BBQNNRKR (Scharnagl's table).
        assert_eq!(
            all[518].fen,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert!(all[0]
            .fen
            .starts_with("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w "));
        assert_eq!(all[959].origin, "chess960 #959");
        // The written FENs read back in Chess960 mode.
        let text: String = all.iter().map(|o| format!("{}\n", o.fen)).collect();
        assert_eq!(
            parse_epd_in(&text, "960", CastlingMode::Chess960).unwrap(),
            {
                let mut again = all.clone();
                for (i, o) in again.iter_mut().enumerate() {
                    o.origin = format!("960:{}", i + 1);
                }
                again
            }
        );
    }

    #[test]
    fn bundled_set_loads() {
        let o = load(None, None).unwrap();
        assert_eq!(o.len(), 300);
        assert!(o.iter().all(|x| x.fen.split(' ').count() == 6));
    }

    #[test]
    fn bad_epd_line_is_named() {
        let text =
            "# comment\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\nxx yy\n";
        let err = format!("{:#}", parse_epd(text, "book.epd").unwrap_err());
        assert!(err.contains("book.epd:4"), "{err}");
        let ok = parse_epd(&text[..text.len() - 6], "book.epd").unwrap();
        assert_eq!(ok.len(), 1);
    }

    #[test]
    fn pgn_openings_with_ply_limit() {
        let dir = std::env::temp_dir().join(format!("augur-lab-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.pgn");
        std::fs::write(
            &path,
            "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event \"b\"]\n\n1. d4 d5 2. c4 *\n",
        )
        .unwrap();
        let o = load(Some(&path), Some(2)).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(
            o[0].fen,
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        std::fs::write(&path, "[Event \"a\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap();
        let err = format!("{:#}", load(Some(&path), None).unwrap_err());
        assert!(err.contains("book.pgn#1") && err.contains("Ke3"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
