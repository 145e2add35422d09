//! PGN output for played games, and a summary reader for any PGN file (used to
//! resume a match and by `augur-lab stats`).

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufReader, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context, Result};
use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Color, KnownOutcome};

use crate::engine::uci::Score;
use crate::game::{GameEnd, GameRecord};

/// Today's date (UTC) as `YYYY.MM.DD`.
pub fn pgn_date_today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn clock_text(d: Duration) -> String {
    let ms = d.as_millis();
    let (h, rest) = (ms / 3_600_000, ms % 3_600_000);
    let (m, rest) = (rest / 60_000, rest % 60_000);
    format!("{h}:{m:02}:{:02}.{:03}", rest / 1000, rest % 1000)
}

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(m) if m >= 0 => format!("+M{m}"),
        Score::Mate(m) => format!("-M{}", -m),
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The standard `Termination` tag and our detailed reason.
pub fn termination(end: &GameEnd) -> (&'static str, String) {
    match end {
        GameEnd::Rules(r) => ("normal", r.describe().to_string()),
        GameEnd::Fault { side, fault } => {
            let std = match fault {
                crate::game::Fault::TimeForfeit => "time forfeit",
                crate::game::Fault::IllegalMove(_) => "rules infraction",
                _ => "abandoned",
            };
            (std, format!("{}: {}", side_name(*side), fault.keyword()))
        }
        GameEnd::ResignAdjudication => ("adjudication", "resign adjudication".to_string()),
        GameEnd::DrawAdjudication => ("adjudication", "draw adjudication".to_string()),
    }
}

/// Formats a game. Move comments are `{score/depth time [%clk h:mm:ss.mmm]}`,
/// the score from the mover's point of view (as cutechess does).
pub fn format_game(rec: &GameRecord, event: &str, date: &str, time_control: &str) -> String {
    let result = rec.outcome.as_str();
    let (term, detail) = termination(&rec.end);
    let mut s = String::new();
    let tags: [(&str, String); 13] = [
        ("Event", event.to_string()),
        ("Site", "augur-lab".to_string()),
        ("Date", date.to_string()),
        ("Round", rec.round.to_string()),
        ("White", rec.white.clone()),
        ("Black", rec.black.clone()),
        ("Result", result.to_string()),
        ("FEN", rec.start_fen.clone()),
        ("SetUp", "1".to_string()),
        ("TimeControl", time_control.to_string()),
        ("PlyCount", rec.moves.len().to_string()),
        ("Termination", term.to_string()),
        ("TerminationDetail", detail.clone()),
    ];
    for (k, v) in tags {
        let _ = writeln!(s, "[{k} \"{}\"]", escape(&v));
    }
    if let Some(others) = rec.others {
        // [arena-others] Cores' worth of CPU outside the match during the game.
        let _ = writeln!(s, "[OtherLoad \"{others:.2}\"]");
    }
    s.push('\n');
    let mut fields = rec.start_fen.split_whitespace().skip(1);
    let mut white_to_move = fields.next() != Some("b");
    let mut number: u32 = rec
        .start_fen
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in rec.moves.iter().enumerate() {
        // A move number stays on the same line as its move.
        if white_to_move {
            tokens.push(format!("{number}.\u{a0}{}", m.san));
        } else if i == 0 {
            tokens.push(format!("{number}...\u{a0}{}", m.san));
        } else {
            tokens.push(m.san.clone());
        }
        let mut c = String::from("{");
        if let Some(score) = m.score {
            c.push_str(&score_text(score));
            if let Some(d) = m.depth {
                let _ = write!(c, "/{d}");
            }
            c.push(' ');
        }
        let _ = write!(c, "{:.3}s", m.time.as_secs_f64());
        if let Some(clk) = m.clock {
            let _ = write!(c, " [%clk {}]", clock_text(clk));
        }
        c.push('}');
        tokens.push(c);
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    // A move that lost on time is not in the movetext: its time and clock close the game.
    match rec.flag {
        Some((used, clock)) => tokens.push(format!(
            "{{{detail}, used {:.3}s of {:.3}s}}",
            used.as_secs_f64(),
            clock.as_secs_f64()
        )),
        None => tokens.push(format!("{{{detail}}}")),
    }
    tokens.push(result.to_string());
    // Wrap movetext at 80 columns; comments may be split at spaces.
    let mut line = String::new();
    for tok in tokens {
        for word in tok.split(' ') {
            if !line.is_empty() && line.len() + 1 + word.chars().count() > 79 {
                s.push_str(&line);
                s.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word.replace('\u{a0}', " "));
        }
    }
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// The PGN result tokens that end a game's movetext.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Length of the longest prefix of `bytes` made of complete game records: a record is
/// complete once its movetext line ending in a result token is followed by a blank line
/// (LF or CRLF), which is how [`format_game`] ends every record. Anything after it is a record
/// torn by a kill in the middle of a write. A tag pair is `[...]` on a line of its own; a
/// wrapped movetext line may also start with `[` (a `[%clk ...]` command inside a comment) and
/// still end the game, so only a line that ends with `]` as well is a tag. The count is of
/// bytes, so that it cuts the file itself whatever bytes it holds.
pub fn complete_prefix_len(bytes: &[u8]) -> usize {
    let mut end = 0;
    let mut pos = 0;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        pos += line.len();
        let body = line.trim_ascii_end();
        let last = body.rsplit(|&b| b == b' ').next().unwrap_or(b"");
        let is_movetext_end = line.ends_with(b"\n")
            && !(body.starts_with(b"[") && body.ends_with(b"]"))
            && RESULTS.iter().any(|r| r.as_bytes() == last);
        if !is_movetext_end {
            continue;
        }
        let rest = &bytes[pos..];
        if rest.starts_with(b"\n") {
            end = pos + 1;
        } else if rest.starts_with(b"\r\n") {
            end = pos + 2;
        }
    }
    end
}

/// The prefix of a finished file (not one being written) made of whole games: as
/// [`complete_prefix_len`], and a last game whose result line ends the file counts too.
pub fn finished_prefix_len(bytes: &[u8]) -> usize {
    let mut closed = bytes.to_vec();
    closed.extend_from_slice(b"\n\n");
    complete_prefix_len(&closed).min(bytes.len())
}

/// Cuts a torn record off the end of a PGN file that the runner writes, so that appending goes
/// on from a record boundary; returns the bytes removed. A last game whose result line ends
/// the file (a kill between the record's last two bytes) is a game: it stays, and the blank
/// line that ends a record is added. Callers read the games to resume from the same prefix,
/// [`finished_prefix_len`].
pub fn truncate_torn_tail(path: &Path) -> Result<u64> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let keep = finished_prefix_len(&bytes);
    let tail = &bytes[keep..];
    let text = String::from_utf8_lossy(tail);
    // A file with no whole game whose text does not open like a PGN record is not the
    // runner's (a mistyped --pgn naming a data file): refuse it rather than empty it.
    if keep == 0 && !text.trim_start().is_empty() && !text.trim_start().starts_with('[') {
        bail!(
            "{} is not a PGN file (it does not begin with a tag like [Event ...]); name another --pgn file",
            path.display()
        );
    }
    // The runner tears at most the one record it was writing; a tail with more games in it
    // is a file written otherwise (another tool's line endings or layout): keep it whole.
    let records = text
        .lines()
        .filter(|l| l.trim_start().starts_with("[Event "))
        .count();
    if records > 1 {
        bail!(
            "{}: {} bytes after its last complete record hold {records} game records; it was \
             not written by this runner (each record ends with a blank line after its result); \
             name another --pgn file",
            path.display(),
            tail.len()
        );
    }
    let closing: &[u8] = match &bytes[..keep] {
        [] => b"",
        b if b.ends_with(b"\n\n") || b.ends_with(b"\r\n\r\n") => b"",
        b if b.ends_with(b"\n") => b"\n",
        _ => b"\n\n",
    };
    let dropped = tail.len() as u64;
    if dropped > 0 || !closing.is_empty() {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("cannot open {} to repair it", path.display()))?;
        file.set_len(keep as u64)
            .and_then(|_| {
                use std::io::{Seek, Write};
                file.seek(std::io::SeekFrom::End(0))?;
                file.write_all(closing)?;
                file.sync_all()
            })
            .with_context(|| format!("cannot repair {}", path.display()))?;
    }
    Ok(dropped)
}

/// What statistics and resuming need from a game in a PGN file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameSummary {
    pub round: Option<usize>,
    pub white: String,
    pub black: String,
    /// `None` for `*` or a missing result.
    pub result: Option<KnownOutcome>,
    pub fen: Option<String>,
    /// `TerminationDetail` as written by us, e.g. `White: crash`.
    pub detail: Option<String>,
    /// The standard `Termination` tag (`normal`, `time forfeit`, ...).
    pub termination: Option<String>,
    /// The `TimeControl` tag.
    pub time_control: Option<String>,
    /// [arena-others] The `OtherLoad` tag: cores' worth of CPU outside the match during a game
    /// on the clock.
    pub others: Option<f64>,
    pub plies: usize,
    /// FNV-1a of the moves' SAN, in order: two games with the same start and the same hash
    /// were played move for move alike (the scaling study counts such game pairs).
    pub moves_hash: u64,
    /// Per side (white, black): the sum of the depths the move comments give (`+0.32/10 ...`)
    /// and how many moves gave one, for the average depth each engine reached.
    pub depths: [(u64, u64); 2],
}

impl GameSummary {
    /// The faulting side and fault keyword, from our `TerminationDetail` tag.
    pub fn fault(&self) -> Option<(Color, String)> {
        fault_of(self.detail.as_deref()?)
    }

    /// How the game ended in the arena's words: our `TerminationDetail`, else the standard
    /// `Termination` tag, else nothing.
    pub fn ending(&self) -> String {
        self.detail
            .clone()
            .or_else(|| self.termination.clone())
            .unwrap_or_default()
    }
}

/// The side and keyword of a fault's detail (`White: time` -> White, `time`), as
/// [`termination`] writes it.
pub fn fault_of(detail: &str) -> Option<(Color, String)> {
    let (side, what) = detail.split_once(": ")?;
    let side = match side {
        "White" => Color::White,
        "Black" => Color::Black,
        _ => return None,
    };
    Some((side, what.to_string()))
}

struct SummaryVisitor;

impl Visitor for SummaryVisitor {
    type Tags = GameSummary;
    type Movetext = GameSummary;
    type Output = GameSummary;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(GameSummary {
            moves_hash: 0xcbf2_9ce4_8422_2325,
            ..GameSummary::default()
        })
    }

    fn tag(
        &mut self,
        g: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        let v = value.decode_utf8_lossy().into_owned();
        match name {
            b"Round" => g.round = v.trim().parse().ok(),
            b"White" => g.white = v,
            b"Black" => g.black = v,
            b"Result" => g.result = v.parse().ok(),
            b"FEN" => g.fen = Some(v),
            b"TerminationDetail" => g.detail = Some(v),
            b"Termination" => g.termination = Some(v),
            b"TimeControl" => g.time_control = Some(v),
            b"OtherLoad" => g.others = v.trim().parse().ok().filter(|x: &f64| x.is_finite()),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, g: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(g)
    }

    fn san(&mut self, g: &mut Self::Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        g.plies += 1;
        for b in san.to_string().bytes().chain([b' ']) {
            g.moves_hash = (g.moves_hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        g: &mut Self::Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        // The comment after a move: `+0.32/10 0.008s` (score/depth, time). The mover is
        // white after an odd number of plies unless the game started with black to move.
        let text = String::from_utf8_lossy(comment.as_bytes());
        let depth = text
            .split_whitespace()
            .next()
            .and_then(|w| w.split_once('/'))
            .and_then(|(_, d)| d.parse::<u64>().ok());
        if let (Some(d), true) = (depth, g.plies > 0) {
            let black_first =
                g.fen.as_deref().and_then(|f| f.split_whitespace().nth(1)) == Some("b");
            let side = usize::from((g.plies % 2 == 0) != black_first);
            g.depths[side].0 += d;
            g.depths[side].1 += 1;
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, g: &mut Self::Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        // The movetext result wins over a missing/odd Result tag.
        if let Outcome::Known(k) = outcome {
            g.result = Some(k);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, g: Self::Movetext) -> Self::Output {
        g
    }
}

/// Reads the summaries of all games in a PGN file.
pub fn read_summaries(path: &Path) -> Result<Vec<GameSummary>> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    summaries_of(
        Reader::new(BufReader::new(file)),
        &path.display().to_string(),
    )
}

/// A game as played, for comparing two runs of one schedule: round, result, length and the
/// moves' hash, not the clock and eval comments that differ between runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub round: Option<usize>,
    pub result: Option<KnownOutcome>,
    pub plies: usize,
    pub moves_hash: u64,
}

/// The games of a PGN file as played, in round order.
pub fn read_played(path: &Path) -> Result<Vec<Played>> {
    let mut games: Vec<Played> = read_summaries(path)?
        .into_iter()
        .map(|g| Played {
            round: g.round,
            result: g.result,
            plies: g.plies,
            moves_hash: g.moves_hash,
        })
        .collect();
    games.sort_by_key(|g| g.round);
    Ok(games)
}

/// Reads the summaries of the games in PGN text (`name` for errors).
pub fn read_summaries_from(bytes: &[u8], name: &str) -> Result<Vec<GameSummary>> {
    summaries_of(Reader::new(bytes), name)
}

fn summaries_of<R: std::io::Read>(mut reader: Reader<R>, name: &str) -> Result<Vec<GameSummary>> {
    let mut out = Vec::new();
    while let Some(g) = reader
        .read_game(&mut SummaryVisitor)
        .with_context(|| format!("cannot read {name}"))?
    {
        out.push(g);
    }
    Ok(out)
}

/// Writes one game record. The runner writes a record in one piece, so a kill
/// tears at most the record being written; the test hook
/// `AUGUR_ARENA_WRITE_PAUSE_MS` splits it in two with a pause between, so that
/// the kill tests can tear a record for certain.
pub fn append_record(out: &mut impl Write, record: &str) -> std::io::Result<()> {
    match write_pause() {
        Some(pause) => {
            let half = record.len() / 2;
            let cut = (half..record.len())
                .find(|&i| record.is_char_boundary(i))
                .unwrap_or(record.len());
            out.write_all(&record.as_bytes()[..cut])?;
            out.flush()?;
            std::thread::sleep(pause);
            out.write_all(&record.as_bytes()[cut..])?;
        }
        None => out.write_all(record.as_bytes())?,
    }
    out.flush()
}

fn write_pause() -> Option<Duration> {
    let ms: u64 = std::env::var("AUGUR_ARENA_WRITE_PAUSE_MS")
        .ok()?
        .parse()
        .ok()?;
    Some(Duration::from_millis(ms))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Fault, MoveRecord, Overhead};

    /// A --pgn naming a file that is not a PGN (a data file) is refused and left as it was;
    /// a torn PGN loses only its torn game.
    #[test]
    fn a_file_that_is_not_a_pgn_is_never_emptied() {
        let dir = std::env::temp_dir().join(format!("augur-pgn-torn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.bin");
        let bytes: Vec<u8> = (0..200u8).collect();
        std::fs::write(&data, &bytes).unwrap();
        let err = truncate_torn_tail(&data).unwrap_err();
        assert!(err.to_string().contains("not a PGN"), "{err}");
        assert_eq!(std::fs::read(&data).unwrap(), bytes);
        let pgn = dir.join("games.pgn");
        let whole = "[Round \"1\"]\n\n1. e4 e5 1-0\n\n";
        let torn = "[Round \"2\"]\n\n1. d4";
        std::fs::write(&pgn, format!("{whole}{torn}")).unwrap();
        assert_eq!(truncate_torn_tail(&pgn).unwrap(), torn.len() as u64);
        assert_eq!(std::fs::read_to_string(&pgn).unwrap(), whole);
        // Records with CRLF line endings are complete; a file whose records end otherwise
        // (no blank line after the result) holds more than one torn record and is refused.
        let crlf = whole.replace('\n', "\r\n").repeat(2);
        assert_eq!(complete_prefix_len(crlf.as_bytes()), crlf.len());
        let other =
            "[Event \"a\"]\n\n1. e4 1-0\n[Event \"b\"]\n\n1. d4 0-1\n[Event \"c\"]\n\n1. c4";
        std::fs::write(&pgn, other).unwrap();
        let err = truncate_torn_tail(&pgn).unwrap_err();
        assert!(err.to_string().contains("3 game records"), "{err}");
        assert_eq!(std::fs::read_to_string(&pgn).unwrap(), other);
        // A last game whose result line ends the file is kept, closed by a blank line.
        let open = "[Event \"a\"]\n\n1. e4 1-0\n";
        std::fs::write(&pgn, open).unwrap();
        assert_eq!(truncate_torn_tail(&pgn).unwrap(), 0);
        assert_eq!(std::fs::read_to_string(&pgn).unwrap(), format!("{open}\n"));
        std::fs::write(&pgn, "[Event \"a\"]\n\n1. e4 1-0").unwrap();
        truncate_torn_tail(&pgn).unwrap();
        assert_eq!(std::fs::read_to_string(&pgn).unwrap(), format!("{open}\n"));
        // Bytes that are not UTF-8 (a Latin-1 name in a tag) are counted as bytes.
        let mut latin = b"[White \"M\xfcller\"]\n\n1. e4 1-0\n\n".to_vec();
        let whole_len = latin.len();
        latin.extend_from_slice(b"[White \"M\xfcller\"]\n\n1. d4");
        std::fs::write(&pgn, &latin).unwrap();
        assert_eq!(complete_prefix_len(&latin), whole_len);
        truncate_torn_tail(&pgn).unwrap();
        assert_eq!(std::fs::read(&pgn).unwrap(), &latin[..whole_len]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The summary's move hash tells games apart by their moves alone, and the depths of the
    /// move comments are credited to the side that moved, also from a black-to-move start.
    #[test]
    fn summaries_hash_the_moves_and_sum_each_sides_depths() {
        let pgn = "[Round \"1\"]\n\n1. e4 {+0.20/10 0.01s} e5 {-0.10/8 0.01s} 2. Nf3 {+0.30/12 0.01s} 1-0\n\n\
                   [Round \"2\"]\n\n1. e4 {+0.20/10 0.01s} e5 {-0.10/8 0.01s} 2. Nc3 {+0.30/12 0.01s} 1-0\n\n\
                   [Round \"3\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
                   [Round \"4\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 1\"]\n\n1... Kd7 {-5.00/20 0.01s} 2. Rh7+ {+5.10/9 0.01s} 1-0\n\n";
        let g = read_summaries_from(pgn.as_bytes(), "test").unwrap();
        assert_eq!(g.len(), 4);
        assert_eq!(g[0].depths, [(22, 2), (8, 1)]);
        assert_ne!(g[0].moves_hash, g[1].moves_hash);
        assert_eq!(
            g[0].moves_hash, g[2].moves_hash,
            "comments do not change the hash"
        );
        assert_eq!(g[2].depths, [(0, 0), (0, 0)]);
        assert_eq!(g[3].depths, [(9, 1), (20, 1)]);
    }

    #[test]
    fn torn_records_are_found() {
        let game = "[Event \"e\"]\n[Result \"1-0\"]\n\n1. e4 {0.1s} e5 {White: crash}\n1-0\n\n";
        let two = format!("{game}{game}");
        assert_eq!(complete_prefix_len(two.as_bytes()), two.len());
        // Every cut inside the second record keeps exactly the first.
        for cut in game.len()..two.len() {
            let torn = &two.as_bytes()[..cut];
            assert_eq!(complete_prefix_len(torn), game.len(), "cut at {cut}");
        }
        assert_eq!(complete_prefix_len(&game.as_bytes()[..game.len() - 1]), 0);
        assert_eq!(complete_prefix_len(b""), 0);
        // A finished file may end right after its last result line.
        assert_eq!(
            finished_prefix_len(&two.as_bytes()[..two.len() - 1]),
            two.len() - 1
        );
        assert_eq!(
            finished_prefix_len(&two.as_bytes()[..two.len() - 2]),
            two.len() - 2
        );
        assert_eq!(
            finished_prefix_len(&two.as_bytes()[..two.len() - 3]),
            game.len()
        );
        let dir = std::env::temp_dir().join(format!("augur-arena-torn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.pgn");
        std::fs::write(&path, &two[..game.len() + 20]).unwrap();
        assert_eq!(truncate_torn_tail(&path).unwrap(), 20);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), game);
        assert_eq!(truncate_torn_tail(&path).unwrap(), 0);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_wrapped_clock_command_can_end_a_record() {
        // The shape of a 100th game that resuming cut off and replayed (27 Nov):
        // the 79-column wrap put `[%clk ...]` at the start of the result's line.
        let game = "[Round \"100\"]\n[Result \"0-1\"]\n\n1. e4 {+0.10/9 0.1s [%clk\n\
                    0:00:09.9]} e5 {-0.10/9 0.1s\n\
                    [%clk 0:00:01.041]} {resign adjudication} 0-1\n\n";
        let two = format!("{game}{game}");
        assert_eq!(complete_prefix_len(two.as_bytes()), two.len());
        assert_eq!(complete_prefix_len(game.as_bytes()), game.len());
        for cut in game.len()..two.len() {
            let torn = &two.as_bytes()[..cut];
            assert_eq!(complete_prefix_len(torn), game.len(), "cut at {cut}");
        }
        // A tag pair never ends a record, whatever its value.
        let tags = "[Round \"1\"]\n[Result \"1-0\"]\n\n";
        assert_eq!(complete_prefix_len(tags.as_bytes()), 0);
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn writes_and_reads_back() {
        let rec = GameRecord {
            round: 3,
            white: "a \"quoted\"".to_string(),
            black: "b".to_string(),
            start_fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".to_string(),
            moves: vec![
                MoveRecord {
                    san: "e5".to_string(),
                    score: Some(Score::Cp(-12)),
                    depth: Some(9),
                    time: Duration::from_millis(250),
                    clock: Some(Duration::from_millis(9850)),
                },
                MoveRecord {
                    san: "Nf3".to_string(),
                    score: Some(Score::Mate(3)),
                    depth: Some(20),
                    time: Duration::from_millis(5),
                    clock: None,
                },
            ],
            outcome: KnownOutcome::Decisive {
                winner: Color::White,
            },
            end: GameEnd::Fault {
                side: Color::Black,
                fault: Fault::Crash,
            },
            overhead: Overhead::default(),
            think: Duration::ZERO,
            wall: Duration::ZERO,
            flag: None,
            others: None,
        };
        let text = format_game(&rec, "test", "2026.01.01", "10+0.1");
        assert!(
            text.contains("1... e5 {-0.12/9 0.250s [%clk 0:00:09.850]} 2. Nf3 {+M3/20 0.005s}"),
            "{text}"
        );
        assert!(text.contains("[Termination \"abandoned\"]"));
        let dir = std::env::temp_dir().join(format!("augur-lab-pgn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.pgn");
        std::fs::write(&path, format!("{text}{text}")).unwrap();
        let s = read_summaries(&path).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].round, Some(3));
        assert_eq!(s[0].white, "a \"quoted\"");
        assert_eq!(s[0].plies, 2);
        assert_eq!(s[0].result, rec.outcome.into());
        assert_eq!(s[0].fault(), Some((Color::Black, "crash".to_string())));
        std::fs::remove_dir_all(&dir).ok();
    }
}
