//! The tuner's input: positions with a game result and, where the data has one, a search
//! score, both from white's point of view. Three formats, chosen by the file's extension:
//! `.bin` — datagen's bullet `ChessBoard` records (`data::records`); `.epd` — EPD with the
//! result in `c9` ("1-0", "0-1", "1/2-1/2") and optionally a score in `ce` (side to move, cp);
//! anything else — text lines `FEN | score | result` (bullet's text form, white's view, result
//! 1.0 / 0.5 / 0.0), as `augur-lab convert` writes them; `.pgn` — games of `augur-lab match`,
//! scores from the move comments (`data::pgn`).

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};

use crate::data::epd::parse_epd;
use crate::data::labelled::{parse_board, parse_result, white_view, LabelledBoard};
use crate::data::records::{RecordReader, RECORD_SIZE};

/// The samples of one file, read lazily where the format allows (records, text lines).
pub fn open(path: &Path) -> Result<Box<dyn Iterator<Item = Result<LabelledBoard>>>> {
    let name = path.display().to_string();
    match path.extension().and_then(|e| e.to_str()) {
        Some("bin") => {
            let reader = RecordReader::open(path)?;
            Ok(Box::new(reader.map(move |r| {
                let r = r.with_context(|| name.clone())?;
                let pos = r.to_position().with_context(|| name.clone())?;
                Ok(LabelledBoard {
                    board: pos.board().clone(),
                    result: r.white_result().value(),
                    score: Some(i32::from(r.white_score())),
                })
            })))
        }
        Some("pgn") => Ok(Box::new(super::pgn::read(path)?.into_iter().map(Ok))),
        Some("epd") => {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
            let lines = parse_epd(&text, &name)?;
            Ok(Box::new(lines.into_iter().map(move |l| {
                let at = || format!("{name}:{}", l.line);
                let board = parse_board(&l.fen).with_context(at)?;
                let result = l
                    .op("c9")
                    .ok_or_else(|| anyhow!("no game result (c9 \"1-0\", \"0-1\" or \"1/2-1/2\")"))
                    .and_then(parse_result)
                    .with_context(at)?;
                let score = match l.op("ce") {
                    None => None,
                    Some(ce) => {
                        let stm: i32 = ce
                            .parse()
                            .map_err(|_| anyhow!("ce '{ce}' is not a centipawn score"))
                            .with_context(at)?;
                        Some(white_view(stm, board.side_to_move()))
                    }
                };
                Ok(LabelledBoard {
                    board,
                    result,
                    score,
                })
            })))
        }
        _ => {
            let file = File::open(path).with_context(|| format!("cannot open {name}"))?;
            let mut lines = BufReader::new(file).lines().enumerate();
            Ok(Box::new(std::iter::from_fn(move || loop {
                let (i, line) = lines.next()?;
                let line = match line {
                    Ok(l) => l,
                    Err(e) => return Some(Err(e).with_context(|| format!("{name}:{}", i + 1))),
                };
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                return Some(
                    parse_text_line(line)
                        .with_context(|| format!("{name}:{}: bad line '{line}'", i + 1)),
                );
            })))
        }
    }
}

/// How many samples `path` holds, for the progress line: records by the file's length, lines
/// of the other formats (comments and blank lines included).
pub fn count(path: &Path) -> Result<u64> {
    let name = path.display();
    if path.extension().and_then(|e| e.to_str()) == Some("bin") {
        let len = std::fs::metadata(path)
            .with_context(|| format!("cannot read {name}"))?
            .len();
        return Ok(len / RECORD_SIZE as u64);
    }
    if path.extension().and_then(|e| e.to_str()) == Some("pgn") {
        return Ok(super::pgn::read(path)?.len() as u64);
    }
    let file = File::open(path).with_context(|| format!("cannot open {name}"))?;
    let mut n = 0;
    for line in BufReader::new(file).split(b'\n') {
        line.with_context(|| format!("cannot read {name}"))?;
        n += 1;
    }
    Ok(n)
}

/// `FEN | score | result`, score and result from white's view.
pub fn parse_text_line(line: &str) -> Result<LabelledBoard> {
    let parts: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result] = parts[..] else {
        bail!("expected 'FEN | score | result'");
    };
    let board = parse_board(fen)?;
    let score = score
        .parse::<i32>()
        .map_err(|_| anyhow!("score '{score}' is not an integer"))?;
    Ok(LabelledBoard {
        board,
        result: parse_result(result)?,
        score: Some(score),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::records::{Outcome, Record, RecordWriter};
    use augur::position::Position;

    fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("augur-tune-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }

    #[test]
    fn epd_text_and_records_give_white_relative_samples() {
        let fen_b = "r1b2rk1/4b1pp/p1pppn2/4q3/3BP3/1RN5/P1PQB1PP/5RK1 b - -";
        let epd = format!(
            "{fen_b} hmvc 13; c9 \"0-1\"; ce 40;\n8/8/4k3/8/8/2B5/8/K7 w - - c9 \"1/2-1/2\";\n"
        );
        let got: Vec<LabelledBoard> = open(&temp("a.epd", epd.as_bytes()))
            .unwrap()
            .collect::<Result<_>>()
            .unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].result, got[0].score), (0.0, Some(-40)));
        assert_eq!((got[1].result, got[1].score), (0.5, None));

        let text = format!("# comment\n{fen_b} 0 1 | -25 | 1.0\n\n");
        let got: Vec<LabelledBoard> = open(&temp("a.txt", text.as_bytes()))
            .unwrap()
            .collect::<Result<_>>()
            .unwrap();
        assert_eq!((got[0].result, got[0].score), (1.0, Some(-25)));

        // A record of black to move, black lost: white's view is a win and minus the score.
        let pos = Position::from_fen(&format!("{fen_b} 0 1"), false).unwrap();
        let mut w = RecordWriter::new(Vec::new());
        w.write(&Record::from_position(&pos, 30, Outcome::Loss))
            .unwrap();
        let got: Vec<LabelledBoard> = open(&temp("a.bin", &w.into_inner()))
            .unwrap()
            .collect::<Result<_>>()
            .unwrap();
        assert_eq!((got[0].result, got[0].score), (1.0, Some(-30)));
        assert_eq!(&got[0].board, pos.board());
    }

    #[test]
    fn bad_input_is_an_error_naming_the_line() {
        let err = |name: &str, text: &str| -> String {
            let r: Result<Vec<LabelledBoard>> =
                open(&temp(name, text.as_bytes())).and_then(|it| it.collect::<Result<Vec<_>>>());
            format!("{:#}", r.unwrap_err())
        };
        let e = err("b.epd", "8/8/4k3/8/8/2B5/8/K7 w - - id \"x\";\n");
        assert!(e.contains("b.epd:1") && e.contains("c9"), "{e}");
        let e = err("c.epd", "8/8/4k3/8/8/2B5/8/K7 w - - c9 \"win\";\n");
        assert!(e.contains("'win'"), "{e}");
        let e = err("b.txt", "8/8/4k3/8/8/2B5/8/K7 w - - 0 1 | x | 1.0\n");
        assert!(e.contains("b.txt:1") && e.contains("'x'"), "{e}");
        let e = err("c.txt", "8/8/4k3/8/8/2B5/8/K7 w - - 0 1 | 3\n");
        assert!(e.contains("FEN | score | result"), "{e}");
        let e = err("d.txt", "8/8/8/8/8/8/8/8 w - - 0 1 | 3 | 0.5\n");
        assert!(e.contains("d.txt:1"), "{e}");
        let e = err("e.bin", &"x".repeat(33));
        assert!(e.contains("33 bytes"), "{e}");
    }
}
