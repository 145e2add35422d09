//! `genfens`: opening positions for OpenBench's datagen workloads.
//!
//! OpenBench starts the engine as `augur "genfens N seed S book <file|None> [extra]" quit`
//! and reads every line `info string genfens <FEN>` it prints: N positions, the same for the
//! same seed, from which its games start. A position is a start (the standard one, a Chess960
//! one under `UCI_Chess960`, or a random line of the EPD book) plus a few random legal plies,
//! kept only if it still has a move, is new, and a short search does not call it lost for
//! either side: random plies alone often hang a piece, and a decided opening teaches nothing.
//!
//! Extras (`key=value`, after the book): `plies=A-B` random plies (default 8-9 from a start
//! position, 2-3 after a book line), `nodes=N` for the check search (default 10000),
//! `maxcp=C` the largest |score| kept (default 200).

use crate::position::Position;
use crate::search::config::SearchConfig;
use crate::search::limits::Limits;
use crate::search::tt::TtError;
use crate::search::{Mode, SearchTeam};
use cozy_chess::Board;
use std::collections::HashSet;
use std::path::PathBuf;
use thiserror::Error;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum GenfensError {
    #[error("genfens: {0} (expected 'genfens N seed S book <file|None> [plies=A-B] [nodes=N] [maxcp=C]')")]
    Syntax(String),
    #[error("genfens: cannot read book {path}: {error}")]
    Book { path: String, error: String },
    #[error("genfens: book {0} has no positions")]
    EmptyBook(String),
    #[error("genfens: {path}:{line}: {error}")]
    BookLine {
        path: String,
        line: usize,
        error: String,
    },
    #[error("genfens: {0}")]
    Table(#[from] TtError),
    #[error("genfens: only {found} of {wanted} positions found after {attempts} attempts")]
    Exhausted {
        found: u64,
        wanted: u64,
        attempts: u64,
    },
    #[error("genfens: stopped after {found} of {wanted} positions")]
    Stopped { found: u64, wanted: u64 },
}

/// The most nodes a check search may take: about ten seconds, so that `stop` (read between
/// positions) ends a request in reasonable time.
pub const MAX_NODES: u64 = 10_000_000;

/// A parsed `genfens` command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub count: u64,
    pub seed: u64,
    pub book: Option<PathBuf>,
    /// Random plies played after the start, inclusive range.
    pub plies: (u32, u32),
    pub nodes: u64,
    pub max_cp: i32,
}

impl Request {
    /// Parses the text after `genfens`.
    pub fn parse(text: &str) -> Result<Request, GenfensError> {
        let t: Vec<&str> = text.split_whitespace().collect();
        let bad = |what: &str| GenfensError::Syntax(what.to_string());
        let number = |i: usize, what: &str| -> Result<u64, GenfensError> {
            let v = t.get(i).ok_or_else(|| bad(&format!("missing {what}")))?;
            v.parse()
                .map_err(|_| bad(&format!("'{v}' is not a valid {what}")))
        };
        let count = number(0, "count")?;
        if t.get(1) != Some(&"seed") {
            return Err(bad("'seed' expected after the count"));
        }
        let seed = number(2, "seed")?;
        if t.get(3) != Some(&"book") {
            return Err(bad("'book' expected after the seed"));
        }
        let book = match t.get(4) {
            None => return Err(bad("missing book (a file or None)")),
            Some(b) if b.eq_ignore_ascii_case("none") => None,
            Some(b) => Some(PathBuf::from(b)),
        };
        let mut r = Request {
            count,
            seed,
            plies: if book.is_some() { (2, 3) } else { (8, 9) },
            book,
            nodes: 10_000,
            max_cp: 200,
        };
        for extra in &t[5..] {
            let (key, value) = extra
                .split_once('=')
                .ok_or_else(|| bad(&format!("extra '{extra}' is not key=value")))?;
            let invalid = || bad(&format!("bad value in '{extra}'"));
            match key {
                "plies" => {
                    let (a, b) = value.split_once('-').unwrap_or((value, value));
                    let a: u32 = a.parse().map_err(|_| invalid())?;
                    let b: u32 = b.parse().map_err(|_| invalid())?;
                    if a > b || b > 200 {
                        return Err(invalid());
                    }
                    r.plies = (a, b);
                }
                "nodes" => {
                    r.nodes = value.parse().map_err(|_| invalid())?;
                    if r.nodes > MAX_NODES {
                        return Err(bad(&format!("nodes={} is more than {MAX_NODES}", r.nodes)));
                    }
                }
                "maxcp" => {
                    r.max_cp = value.parse().map_err(|_| invalid())?;
                    if r.max_cp < 0 {
                        return Err(invalid());
                    }
                }
                _ => return Err(bad(&format!("unknown extra '{key}'"))),
            }
        }
        Ok(r)
    }
}

/// SplitMix64, written out so that a seed means the same positions in every version
/// (a library generator's stream may change between releases).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0), by multiply-shift.
    fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }
}

/// An EPD/FEN book kept as one text with the start offset of each position line, so that a
/// book of millions of lines costs little more than its size.
struct Book {
    path: String,
    text: String,
    /// (byte offset, line number) of every line that is not blank or a `#` comment.
    lines: Vec<(usize, usize)>,
}

impl Book {
    fn load(path: &std::path::Path) -> Result<Book, GenfensError> {
        let shown = path.display().to_string();
        let fail = |error: String| GenfensError::Book {
            path: shown.clone(),
            error,
        };
        // A device or a pipe (`/dev/zero`) could be read forever.
        let meta = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
        if !meta.is_file() {
            return Err(fail("not a regular file".into()));
        }
        let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
        let mut lines = Vec::new();
        let mut offset = 0;
        for (n, line) in text.split_inclusive('\n').enumerate() {
            let t = line.trim();
            if !t.is_empty() && !t.starts_with('#') {
                lines.push((offset, n + 1));
            }
            offset += line.len();
        }
        if lines.is_empty() {
            return Err(GenfensError::EmptyBook(shown));
        }
        Ok(Book {
            path: shown,
            text,
            lines,
        })
    }

    /// The position of line `i` (checked when it is drawn, not all up front).
    fn position(&self, i: usize, chess960: bool) -> Result<Position, GenfensError> {
        let (at, line) = self.lines[i];
        let text = self.text[at..].lines().next().unwrap_or("");
        Position::from_fen(&epd_to_fen(text), chess960).map_err(|e| GenfensError::BookLine {
            path: self.path.clone(),
            line,
            error: e.to_string(),
        })
    }
}

/// A FEN from an EPD or FEN line: the four board fields, then the clocks from a FEN's fifth
/// and sixth fields or EPD's `hmvc`/`fmvn` operations (OpenBench writes the latter).
pub fn epd_to_fen(line: &str) -> String {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return line.to_string();
    }
    let board = fields[..4].join(" ");
    let is_number = |s: &&str| s.parse::<u32>().is_ok();
    if fields.len() >= 6 && is_number(&fields[4]) && is_number(&fields[5]) {
        return format!("{board} {} {}", fields[4], fields[5]);
    }
    let ops = fields[4..].join(" ");
    let op = |name: &str| {
        ops.split(';')
            .filter_map(|o| o.trim().strip_prefix(name))
            .map(str::trim)
            .find(is_number)
            .map(str::to_string)
    };
    let half = op("hmvc").unwrap_or_else(|| "0".into());
    let full = op("fmvn").unwrap_or_else(|| "1".into());
    format!("{board} {half} {full}")
}

/// A request made ready to run: its book read and its check search set up, so that a bad book
/// is reported before any work starts.
pub struct Generator {
    req: Request,
    book: Option<Book>,
    searcher: SearchTeam,
    chess960: bool,
}

impl Generator {
    /// The engine's search settings apply to the check search (its own small table, one
    /// thread, fixed nodes: the result depends on the seed alone).
    pub fn new(req: Request, config: &SearchConfig, chess960: bool) -> Result<Self, GenfensError> {
        let book = req.book.as_deref().map(Book::load).transpose()?;
        let mut config = config.clone();
        config.algorithm = Mode::Engine;
        config.multipv = 1;
        let searcher = SearchTeam::new(config, 4)?;
        Ok(Generator {
            req,
            book,
            searcher,
            chess960,
        })
    }

    /// Generates the positions, calling `emit` with each one's FEN as soon as it is found.
    /// `stop` (the UCI `stop` or `quit`) is read before each position.
    pub fn run(
        mut self,
        stop: &std::sync::atomic::AtomicBool,
        emit: impl FnMut(&str),
    ) -> Result<(), GenfensError> {
        generate(
            &self.req,
            self.book.as_ref(),
            &mut self.searcher,
            self.chess960,
            stop,
            emit,
        )
    }
}

fn generate(
    req: &Request,
    book: Option<&Book>,
    searcher: &mut SearchTeam,
    chess960: bool,
    stop: &std::sync::atomic::AtomicBool,
    mut emit: impl FnMut(&str),
) -> Result<(), GenfensError> {
    let limits = Limits {
        nodes: Some(req.nodes.max(1)),
        ..Default::default()
    };
    let mut rng = Rng(req.seed);
    let mut seen = HashSet::new();
    let max_attempts = req.count.saturating_mul(100).max(1000);
    let (mut found, mut attempts) = (0, 0);
    while found < req.count {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(GenfensError::Stopped {
                found,
                wanted: req.count,
            });
        }
        if attempts == max_attempts {
            return Err(GenfensError::Exhausted {
                found,
                wanted: req.count,
                attempts,
            });
        }
        attempts += 1;
        let mut pos = match book {
            Some(b) => b.position(rng.below(b.lines.len() as u64) as usize, chess960)?,
            None if chess960 => {
                Position::from_board(Board::chess960_startpos(rng.below(960) as u32), true)
            }
            None => Position::startpos(),
        };
        let (lo, hi) = req.plies;
        let plies = lo + rng.below((hi - lo) as u64 + 1) as u32;
        let mut dead_end = false;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                dead_end = true;
                break;
            }
            pos.make(moves[rng.below(moves.len() as u64) as usize]);
        }
        // A fresh position: the history of the random plies is no part of the opening.
        let pos = Position::from_board(pos.board().clone(), chess960);
        if dead_end
            || !pos.has_legal_move()
            || pos.is_insufficient_material()
            || pos.is_fifty_moves()
            || !seen.insert(pos.hash())
        {
            continue;
        }
        searcher.new_game();
        let result = searcher.search(&pos, &limits);
        if result.score.abs() > req.max_cp {
            continue;
        }
        emit(&pos.fen());
        found += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_openbench_command_is_parsed() {
        let r = Request::parse("10 seed 77 book None ").unwrap();
        assert_eq!(
            r,
            Request {
                count: 10,
                seed: 77,
                book: None,
                plies: (8, 9),
                nodes: 10_000,
                max_cp: 200
            }
        );
        let r = Request::parse("3 seed 1 book Books/UHO.epd plies=0-1 nodes=500 maxcp=90").unwrap();
        assert_eq!(r.book, Some(PathBuf::from("Books/UHO.epd")));
        assert_eq!((r.plies, r.nodes, r.max_cp), ((0, 1), 500, 90));
        for bad in [
            "",
            "x seed 1 book None",
            "10 sed 1 book None",
            "10 seed -1 book None",
            "10 seed 1 book",
            "10 seed 1 book None plies=5-2",
            "10 seed 1 book None colour=blue",
            "10 seed 1 book None maxcp",
        ] {
            assert!(Request::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn book_lines_in_fen_and_epd_forms() {
        assert_eq!(
            epd_to_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;"),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(
            epd_to_fen("8/8/8/8/8/8/1R6/K1k5 w - - 12 40"),
            "8/8/8/8/8/8/1R6/K1k5 w - - 12 40"
        );
        assert_eq!(
            epd_to_fen("8/8/8/8/8/8/1R6/K1k5 w - - bm b2b1; id \"x\";"),
            "8/8/8/8/8/8/1R6/K1k5 w - - 0 1"
        );
    }

    #[test]
    fn the_generator_is_uniform_enough() {
        let mut rng = Rng(5);
        let mut counts = [0u32; 6];
        for _ in 0..6000 {
            counts[rng.below(6) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (850..1150).contains(&c)),
            "{counts:?}"
        );
    }
}
