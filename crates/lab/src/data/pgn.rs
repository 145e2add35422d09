//! Match games as tuning data: every game `augur-lab match` plays writes each move's search
//! score in its comment (`{+0.59/9 0.008s}`, the mover's view), so the PGN of an SPRT is a
//! second self-play data set for free, with many more independent game results per hour than
//! datagen alone (two cores play SPRT games all session long).
//!
//! A position is kept as datagen keeps one (docs/datagen.md): the mover was not in check, the
//! move played was not a capture or promotion, and the score is not a mate. Games without a
//! result (`*`) are skipped whole; so are games that ended by a fault (time, crash, illegal
//! move), whose result says nothing about the positions.

use std::fs::File;
use std::io::{BufReader, Read};
use std::ops::ControlFlow;
use std::path::Path;

use anyhow::{anyhow, Context, Result};
use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position as _};

use super::labelled::{parse_board, parse_result, LabelledBoard};

/// A game as the visitor reads it: its start, its moves with their comments' scores.
#[derive(Default)]
struct Game {
    fen: Option<String>,
    result: Option<String>,
    termination: Option<String>,
    /// (SAN, the mover's score in cp if the comment gave one).
    moves: Vec<(SanPlus, Option<i32>)>,
    /// The movetext reached its result token: the game was written whole.
    ended: bool,
}

struct GameVisitor;

impl Visitor for GameVisitor {
    type Tags = Game;
    type Movetext = Game;
    type Output = Game;

    fn begin_tags(&mut self) -> ControlFlow<Game, Game> {
        ControlFlow::Continue(Game::default())
    }

    fn tag(&mut self, g: &mut Game, name: &[u8], value: RawTag<'_>) -> ControlFlow<Game> {
        let v = value.decode_utf8_lossy().into_owned();
        match name {
            b"FEN" => g.fen = Some(v),
            b"Result" => g.result = Some(v),
            b"Termination" => g.termination = Some(v),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, g: Game) -> ControlFlow<Game, Game> {
        ControlFlow::Continue(g)
    }

    fn san(&mut self, g: &mut Game, san: SanPlus) -> ControlFlow<Game> {
        g.moves.push((san, None));
        ControlFlow::Continue(())
    }

    fn comment(&mut self, g: &mut Game, comment: RawComment<'_>) -> ControlFlow<Game> {
        if let Some(last) = g.moves.last_mut() {
            if last.1.is_none() {
                last.1 = score_of(&String::from_utf8_lossy(comment.as_bytes()));
            }
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, g: &mut Game, _outcome: pgn_reader::Outcome) -> ControlFlow<Game> {
        g.ended = true;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, g: Game) -> Game {
        g
    }
}

/// The centipawn score at the head of a runner's move comment (`+0.59/9 ...`); `None` for a
/// mate (`+M5/12`) or a comment without a score.
fn score_of(comment: &str) -> Option<i32> {
    let head = comment.split_whitespace().next()?;
    let value = head.split('/').next()?;
    if value.contains('M') {
        return None;
    }
    let pawns: f64 = value.parse().ok()?;
    pawns.is_finite().then(|| (pawns * 100.0).round() as i32)
}

/// The kept positions of every game of a match PGN, white's view, in game order.
pub fn read(path: &Path) -> Result<Vec<LabelledBoard>> {
    Ok(read_range(path, Games::ALL)?.0)
}

/// Like [`read`], from any reader; `name` is used in messages.
pub fn read_from(input: impl Read, name: &str) -> Result<Vec<LabelledBoard>> {
    Ok(read_range_from(input, name, Games::ALL)?.0)
}

/// Which games of a PGN to read: 1-based, inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Games {
    pub first: u64,
    pub last: Option<u64>,
}

impl Games {
    pub const ALL: Games = Games {
        first: 1,
        last: None,
    };
}

/// The games of a PGN that were read: the range, and how many there were.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GamesRead {
    pub first: u64,
    /// The last game read; `first - 1` when none was.
    pub last: u64,
}

/// The kept positions of the games `games` of a match PGN. A live match's file may end in a
/// game that is still being written: the reading stops before a last game that did not reach
/// its result token, so converting from `last + 1` later takes it whole.
pub fn read_range(path: &Path, games: Games) -> Result<(Vec<LabelledBoard>, GamesRead)> {
    let name = path.display().to_string();
    let file = File::open(path).with_context(|| format!("cannot open {name}"))?;
    read_range_from(BufReader::new(file), &name, games)
}

/// Like [`read_range`], from any reader.
pub fn read_range_from(
    input: impl Read,
    name: &str,
    games: Games,
) -> Result<(Vec<LabelledBoard>, GamesRead)> {
    if games.first == 0 || games.last.is_some_and(|l| l < games.first) {
        anyhow::bail!(
            "games {}..{}: games are numbered from 1 and the range must not be empty",
            games.first,
            games.last.map_or(String::new(), |l| l.to_string())
        );
    }
    let mut reader = Reader::new(input);
    let mut out = Vec::new();
    let mut n = 0;
    let mut last_read = games.first - 1;
    while let Some(game) = reader
        .read_game(&mut GameVisitor)
        .with_context(|| format!("cannot read {name}"))?
    {
        n += 1;
        if n < games.first {
            continue;
        }
        if games.last.is_some_and(|l| n > l) {
            break;
        }
        if !game.ended {
            // A torn game can only be the file's last; one in the middle is a broken file.
            if reader
                .read_game(&mut GameVisitor)
                .with_context(|| format!("cannot read {name}"))?
                .is_some()
            {
                anyhow::bail!("{name}#{n}: the game has no result token but others follow it");
            }
            break;
        }
        last_read = n;
        let origin = format!("{name}#{n}");
        let result = match game.result.as_deref() {
            Some("*") | None => continue,
            Some(r) => parse_result(r).with_context(|| origin.clone())?,
        };
        if game
            .termination
            .as_deref()
            .is_some_and(|t| t != "normal" && t != "adjudication")
        {
            continue;
        }
        let mut pos: Chess = match &game.fen {
            Some(f) => {
                let fen: Fen = f
                    .parse()
                    .with_context(|| format!("{origin}: bad FEN tag '{f}'"))?;
                fen.into_position(CastlingMode::Standard)
                    .map_err(|e| anyhow!("{origin}: illegal FEN tag '{f}': {e}"))?
            }
            None => Chess::default(),
        };
        for (ply, (san, score)) in game.moves.iter().enumerate() {
            let m = san
                .san
                .to_move(&pos)
                .with_context(|| format!("{origin}: move {} ('{san}') is illegal", ply / 2 + 1))?;
            let quiet = !pos.is_check() && !m.is_capture() && !m.is_promotion();
            if let (true, Some(stm)) = (quiet, score) {
                let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
                let white = if pos.turn() == Color::White {
                    *stm
                } else {
                    -stm
                };
                out.push(LabelledBoard {
                    board: parse_board(&fen).with_context(|| origin.clone())?,
                    result,
                    score: Some(white),
                });
            }
            pos.play_unchecked(m);
        }
    }
    Ok((
        out,
        GamesRead {
            first: games.first,
            last: last_read,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = r#"[Event "augur-lab match"]
[Result "0-1"]
[FEN "rn2kb1r/ppp1qnpp/3p1p2/7P/3Pp1b1/1P2PN2/PBP1BPP1/RN1QK2R w KQkq - 0 9"]
[SetUp "1"]
[Termination "normal"]

9. Nfd2 {+0.59/9 0.008s} Bxe2 {-0.61/8 0.007s} 10. Qxe2 {+0.71/9 0.008s} d5
{-0.65/8 0.008s} 11. Nc3 {+M3/9 0.008s} Qd7 0-1

[Event "augur-lab match"]
[Result "1-0"]
[Termination "time forfeit"]

1. e4 {+0.30/9 0.008s} e5 {-0.20/8 0.007s} 1-0

[Event "augur-lab match"]
[Result "*"]

1. d4 {+0.30/9 0.008s} *
"#;

    /// Quiet moves with a centipawn score are kept (the mover's score turned to white's
    /// view); captures, mates, scoreless moves, faulted and unfinished games are not.
    #[test]
    fn keeps_scored_quiet_moves_of_finished_games() {
        let samples = read_from(GAME.as_bytes(), "t.pgn").unwrap();
        let scores: Vec<Option<i32>> = samples.iter().map(|s| s.score).collect();
        // Nfd2 (+59 white), d5 (black -65 → white +65); Bxe2, Qxe2 capture; Nc3 mate; Qd7 no score.
        assert_eq!(scores, vec![Some(59), Some(65)]);
        assert!(samples.iter().all(|s| s.result == 0.0));
        assert_eq!(samples[1].board.side_to_move(), cozy_chess::Color::Black);
    }

    #[test]
    fn an_illegal_move_is_an_error_naming_the_game() {
        let bad = "[Result \"1-0\"]\n\n1. e5 {+0.10/3 0.001s} 1-0\n";
        let e = read_from(bad.as_bytes(), "bad.pgn").unwrap_err();
        assert!(format!("{e:#}").contains("bad.pgn#1"), "{e:#}");
    }

    /// [pgn-data] A live match is converted in pieces: a range of games, and a torn last game
    /// left for the next piece.
    #[test]
    fn a_range_of_games_and_a_torn_tail() {
        let (all, read) = read_range_from(GAME.as_bytes(), "m", Games::ALL).unwrap();
        assert_eq!(read, GamesRead { first: 1, last: 3 });
        let (second_on, read) = read_range_from(
            GAME.as_bytes(),
            "m",
            Games {
                first: 2,
                last: None,
            },
        )
        .unwrap();
        assert_eq!(read, GamesRead { first: 2, last: 3 });
        // Game 1 holds every kept position (game 2 was a time forfeit, game 3 unfinished).
        assert!(second_on.is_empty() && !all.is_empty());
        let torn = format!("{GAME}\n[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 {{+0.30/9}} e5");
        let (_, read) = read_range_from(torn.as_bytes(), "m", Games::ALL).unwrap();
        assert_eq!(read.last, 3, "the torn fourth game is not read");
        let broken = format!("[Result \"1-0\"]\n\n1. e4 e5\n\n{GAME}");
        assert!(read_range_from(broken.as_bytes(), "m", Games::ALL).is_err());
        let empty = Games {
            first: 3,
            last: Some(2),
        };
        assert!(read_range_from(GAME.as_bytes(), "m", empty).is_err());
    }
}
