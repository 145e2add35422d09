//! The training-data record: bullet's 32-byte `ChessBoard` (bulletformat), so the files that
//! `augur-lab datagen` writes are read unchanged by bullet and the tools of its ecosystem.
//!
//! Layout, little-endian, no header, one record after another:
//!
//! | bytes | field | meaning |
//! | --- | --- | --- |
//! | 0..8 | `occ` u64 | occupied squares, from the side to move's view (a1 = bit 0; for black to move the board is mirrored vertically, square ^ 56) |
//! | 8..24 | `pcs` [u8; 16] | 4-bit piece codes in ascending square order of `occ`, low nibble first; code = colour << 3 \| piece, colour 0 = side to move, piece 0..5 = P N B R Q K; unused nibbles 0 |
//! | 24..26 | `score` i16 | search score in centipawns, side to move's view |
//! | 26 | `result` u8 | game result for the side to move: 0 loss, 1 draw, 2 win |
//! | 27 | `ksq` u8 | the side to move's king square (in the oriented board) |
//! | 28 | `opp_ksq` u8 | the other king's square seen from its own side (oriented square ^ 56) |
//! | 29..32 | `extra` [u8; 3] | Augur's, ignored by bullet: see below |
//!
//! bullet's own writers leave `extra` zero and never read it. Augur stores there what the
//! oriented board loses, so a record turns back into the exact position (FEN) it came from:
//! `extra[0]` bit 0 = black to move, bits 1..=4 = castling rights K, Q, k, q (standard chess:
//! rooks on the a- and h-files), bits 5..=7 zero; `extra[1]` = en-passant file + 1 (0 = none);
//! `extra[2]` = halfmove clock (0..=100). The fullmove number is not stored (a FEN written from a
//! record says 1).

use std::fmt;
use std::fs::File;
use std::io::{BufReader, ErrorKind, Read, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use augur::position::Position;
use cozy_chess::{Color, File as BoardFile, Square};

/// Bytes per record.
pub const RECORD_SIZE: usize = 32;

/// A game's result for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

impl Outcome {
    /// The same result seen by the other side.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }

    /// The result as a score: 1 win, 0.5 draw, 0 loss.
    pub fn value(self) -> f32 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// The nearest result to a score in 0..=1.
    pub fn from_value(v: f32) -> Outcome {
        if v > 0.75 {
            Outcome::Win
        } else if v < 0.25 {
            Outcome::Loss
        } else {
            Outcome::Draw
        }
    }

    pub fn from_code(code: u8) -> Option<Outcome> {
        match code {
            0 => Some(Outcome::Loss),
            1 => Some(Outcome::Draw),
            2 => Some(Outcome::Win),
            _ => None,
        }
    }

    /// bullet's text form: 1.0 win, 0.5 draw, 0.0 loss.
    pub fn text(self) -> &'static str {
        match self {
            Outcome::Loss => "0.0",
            Outcome::Draw => "0.5",
            Outcome::Win => "1.0",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

const BLACK_TO_MOVE: u8 = 1;
/// Castling flags in `extra[0]`: white short, white long, black short, black long.
const CASTLE_BITS: [u8; 4] = [1 << 1, 1 << 2, 1 << 3, 1 << 4];
const CASTLE_LETTERS: [char; 4] = ['K', 'Q', 'k', 'q'];
const PIECE_LETTERS: [char; 6] = ['p', 'n', 'b', 'r', 'q', 'k'];
const OUR_KING: u8 = 5;
const THEIR_KING: u8 = 8 | 5;

/// One training position: bullet's `ChessBoard`. Build it with [`Record::from_position`] or
/// read it with [`Record::from_bytes`] (which validates it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    occ: u64,
    pcs: [u8; 16],
    score: i16,
    result: u8,
    ksq: u8,
    opp_ksq: u8,
    extra: [u8; 3],
}

impl Record {
    /// Encodes `pos` with its search score (centipawns) and the game's result, both from the
    /// side to move's view.
    pub fn from_position(pos: &Position, score_stm_cp: i16, result_stm: Outcome) -> Record {
        let board = pos.board();
        let stm = board.side_to_move();
        let orient = |sq: Square| -> u8 {
            let i = sq as u8;
            if stm == Color::Black {
                i ^ 56
            } else {
                i
            }
        };
        let mut pieces: Vec<(u8, u8)> = board
            .occupied()
            .into_iter()
            .map(|sq| {
                let piece = board.piece_on(sq).expect("occupied square has a piece") as u8;
                let theirs = board.color_on(sq) != Some(stm);
                (orient(sq), u8::from(theirs) << 3 | piece)
            })
            .collect();
        pieces.sort_unstable_by_key(|&(sq, _)| sq);
        let mut occ = 0u64;
        let mut pcs = [0u8; 16];
        for (i, &(sq, code)) in pieces.iter().enumerate() {
            occ |= 1 << sq;
            pcs[i / 2] |= code << (4 * (i & 1));
        }

        let mut flags = if stm == Color::Black {
            BLACK_TO_MOVE
        } else {
            0
        };
        for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let rights = board.castle_rights(color);
            if rights.short.is_some() {
                flags |= CASTLE_BITS[2 * i];
            }
            if rights.long.is_some() {
                flags |= CASTLE_BITS[2 * i + 1];
            }
        }
        let ep = board.en_passant().map_or(0, |f| f as u8 + 1);
        Record {
            occ,
            pcs,
            score: score_stm_cp,
            result: result_stm as u8,
            ksq: orient(board.king(stm)),
            opp_ksq: orient(board.king(!stm)) ^ 56,
            extra: [flags, ep, board.halfmove_clock()],
        }
    }

    /// The same record with another game result (side to move's view): a game's positions
    /// are recorded before its end is known.
    pub fn with_result(mut self, result_stm: Outcome) -> Record {
        self.result = result_stm as u8;
        self
    }

    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut b = [0u8; RECORD_SIZE];
        b[0..8].copy_from_slice(&self.occ.to_le_bytes());
        b[8..24].copy_from_slice(&self.pcs);
        b[24..26].copy_from_slice(&self.score.to_le_bytes());
        b[26] = self.result;
        b[27] = self.ksq;
        b[28] = self.opp_ksq;
        b[29..32].copy_from_slice(&self.extra);
        b
    }

    /// Reads and checks one record: the fields must describe a board bullet can train on (at
    /// most 32 pieces with valid codes, one king each whose squares match `ksq`/`opp_ksq`, no
    /// pawn on a back rank, a result 0..=2) and Augur's `extra` bytes must be in range. Full
    /// legality (e.g. the side not to move in check) is checked by [`Record::to_position`].
    pub fn from_bytes(b: &[u8; RECORD_SIZE]) -> Result<Record> {
        let mut pcs = [0u8; 16];
        pcs.copy_from_slice(&b[8..24]);
        let r = Record {
            occ: u64::from_le_bytes(b[0..8].try_into().expect("8 bytes")),
            pcs,
            score: i16::from_le_bytes([b[24], b[25]]),
            result: b[26],
            ksq: b[27],
            opp_ksq: b[28],
            extra: [b[29], b[30], b[31]],
        };
        r.validate()?;
        Ok(r)
    }

    fn validate(&self) -> Result<()> {
        let count = self.occ.count_ones() as usize;
        if count > 32 {
            bail!("{count} pieces (at most 32)");
        }
        let (mut our_king, mut their_king) = (None, None);
        for (i, (sq, code)) in self.pieces().enumerate() {
            if code & 7 > 5 {
                bail!("invalid piece code {code} on square {sq}");
            }
            if code & 7 == 0 && !(8..56).contains(&sq) {
                bail!("a pawn on square {sq} (a back rank)");
            }
            let slot = match code {
                OUR_KING => &mut our_king,
                THEIR_KING => &mut their_king,
                _ => continue,
            };
            if slot.replace(sq).is_some() {
                bail!("two kings of one side (piece {i})");
            }
        }
        for i in count..32 {
            if (self.pcs[i / 2] >> (4 * (i & 1))) & 0xF != 0 {
                bail!("piece nibble {i} is set but only {count} squares are occupied");
            }
        }
        match (our_king, their_king) {
            (Some(k), Some(o)) if k == self.ksq && o ^ 56 == self.opp_ksq => {}
            (Some(_), Some(_)) => bail!(
                "king squares {}/{} do not match the board",
                self.ksq,
                self.opp_ksq
            ),
            _ => bail!("a side has no king"),
        }
        if self.result > 2 {
            bail!("result {} (must be 0, 1 or 2)", self.result);
        }
        if self.extra[0] & 0xE0 != 0 || self.extra[1] > 8 || self.extra[2] > 100 {
            bail!(
                "extra bytes {:?} out of range (flags, en-passant file + 1, halfmove clock)",
                self.extra
            );
        }
        Ok(())
    }

    /// (oriented square, piece code) in ascending square order, as bullet iterates them.
    pub fn pieces(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        let mut occ = self.occ;
        let mut i = 0;
        std::iter::from_fn(move || {
            if occ == 0 {
                return None;
            }
            let sq = occ.trailing_zeros() as u8;
            occ &= occ - 1;
            let code = (self.pcs[i / 2] >> (4 * (i & 1))) & 0xF;
            i += 1;
            Some((sq, code))
        })
    }

    pub fn occupancy(&self) -> u64 {
        self.occ
    }

    /// Search score, centipawns, side to move's view.
    pub fn score(&self) -> i16 {
        self.score
    }

    /// Game result for the side to move.
    pub fn result(&self) -> Outcome {
        Outcome::from_code(self.result).expect("validated result")
    }

    pub fn king_square(&self) -> u8 {
        self.ksq
    }

    pub fn opponent_king_square(&self) -> u8 {
        self.opp_ksq
    }

    pub fn side_to_move(&self) -> Color {
        if self.extra[0] & BLACK_TO_MOVE != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Score from white's view (bullet's text format).
    pub fn white_score(&self) -> i16 {
        match self.side_to_move() {
            Color::White => self.score,
            Color::Black => self.score.saturating_neg(),
        }
    }

    /// Result from white's view (bullet's text format).
    pub fn white_result(&self) -> Outcome {
        match self.side_to_move() {
            Color::White => self.result(),
            Color::Black => self.result().flip(),
        }
    }

    /// The position as a FEN (fullmove number 1: it is not stored).
    pub fn to_fen(&self) -> String {
        let stm = self.side_to_move();
        let mut squares = [None::<char>; 64];
        for (sq, code) in self.pieces() {
            let real = if stm == Color::Black { sq ^ 56 } else { sq };
            let ours = code & 8 == 0;
            let white = ours == (stm == Color::White);
            let letter = PIECE_LETTERS[usize::from(code & 7).min(5)];
            squares[usize::from(real)] = Some(if white {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
        let mut fen = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match squares[rank * 8 + file] {
                    Some(c) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if stm == Color::White { " w " } else { " b " });
        let castling: String = CASTLE_BITS
            .iter()
            .zip(CASTLE_LETTERS)
            .filter(|(bit, _)| self.extra[0] & **bit != 0)
            .map(|(_, c)| c)
            .collect();
        fen.push_str(if castling.is_empty() { "-" } else { &castling });
        match self.extra[1] {
            0 => fen.push_str(" -"),
            f => {
                let file = BoardFile::index(usize::from(f - 1));
                let rank = if stm == Color::White { '6' } else { '3' };
                fen.push_str(&format!(" {file}{rank}"));
            }
        }
        fen.push_str(&format!(" {} 1", self.extra[2]));
        fen
    }

    /// The position, checked for legality by the engine's FEN reader.
    pub fn to_position(&self) -> Result<Position> {
        let fen = self.to_fen();
        Position::from_fen(&fen, false).with_context(|| format!("record describes '{fen}'"))
    }

    /// bullet's text line: `FEN | score | result`, score and result from white's view.
    pub fn to_text(&self) -> String {
        format!(
            "{} | {} | {}",
            self.to_fen(),
            self.white_score(),
            self.white_result()
        )
    }
}

/// Streams records from a reader; a short read at the end is an error (a torn or foreign file).
pub struct RecordReader<R: Read> {
    inner: R,
    index: u64,
    done: bool,
}

impl<R: Read> RecordReader<R> {
    pub fn new(inner: R) -> Self {
        RecordReader {
            inner,
            index: 0,
            done: false,
        }
    }

    /// Records read so far.
    pub fn count(&self) -> u64 {
        self.index
    }
}

impl RecordReader<BufReader<File>> {
    /// Opens a record file, refusing at once one whose length is not a multiple of 32.
    pub fn open(path: &Path) -> Result<Self> {
        let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let len = file
            .metadata()
            .with_context(|| format!("cannot read {}", path.display()))?
            .len();
        if len % RECORD_SIZE as u64 != 0 {
            bail!(
                "{}: {len} bytes is not a whole number of {RECORD_SIZE}-byte records \
                 (a torn write, or not a bullet ChessBoard file)",
                path.display()
            );
        }
        Ok(RecordReader::new(BufReader::with_capacity(1 << 16, file)))
    }
}

impl<R: Read> Iterator for RecordReader<R> {
    type Item = Result<Record>;

    fn next(&mut self) -> Option<Result<Record>> {
        if self.done {
            return None;
        }
        let mut buf = [0u8; RECORD_SIZE];
        let mut filled = 0;
        while filled < RECORD_SIZE {
            match self.inner.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => {
                    self.done = true;
                    return Some(Err(e).context(format!("reading record {}", self.index)));
                }
            }
        }
        if filled == 0 {
            self.done = true;
            return None;
        }
        let index = self.index;
        if filled < RECORD_SIZE {
            self.done = true;
            return Some(Err(anyhow::anyhow!(
                "record {index} is truncated: {filled} of {RECORD_SIZE} bytes"
            )));
        }
        self.index += 1;
        Some(Record::from_bytes(&buf).with_context(|| format!("record {index} is invalid")))
    }
}

/// Writes records; [`RecordWriter::write_game`] hands a whole game to the OS in one write.
pub struct RecordWriter<W: Write> {
    inner: W,
}

impl<W: Write> RecordWriter<W> {
    pub fn new(inner: W) -> Self {
        RecordWriter { inner }
    }

    pub fn write(&mut self, record: &Record) -> std::io::Result<()> {
        self.inner.write_all(&record.to_bytes())
    }

    /// Writes the records as one buffer and flushes.
    pub fn write_game(&mut self, records: &[Record]) -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(records.len() * RECORD_SIZE);
        for r in records {
            buf.extend_from_slice(&r.to_bytes());
        }
        self.inner.write_all(&buf)?;
        self.inner.flush()
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }

    pub fn into_inner(self) -> W {
        self.inner
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENS: [&str; 7] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 3 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 27 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 1",
        "8/8/8/8/3pP3/8/k6K/8 b - e3 0 1",
    ];

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, false).unwrap()
    }

    #[test]
    fn round_trip_to_the_same_fen_and_position() {
        for fen in FENS {
            let p = pos(fen);
            let r = Record::from_position(&p, -123, Outcome::Win);
            // The fullmove number is the one thing not stored.
            let expected: Vec<&str> = fen.split(' ').take(5).collect();
            let got = r.to_fen();
            let got: Vec<&str> = got.split(' ').take(5).collect();
            assert_eq!(got, expected, "{fen}");
            let back = r.to_position().unwrap();
            assert!(back.board().same_position(p.board()), "{fen}");
            assert_eq!(back.board().halfmove_clock(), p.board().halfmove_clock());
            let bytes = r.to_bytes();
            assert_eq!(Record::from_bytes(&bytes).unwrap(), r, "{fen}");
        }
    }

    /// The fields bullet reads, for the start position with black to move after 1.e4: the
    /// board is mirrored so black's pieces are "ours" on ranks 1-2, scores and results are
    /// black's, and `opp_ksq` is white's king seen from white's side.
    #[test]
    fn bullet_fields_are_side_to_move_relative() {
        let p = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let r = Record::from_position(&p, 37, Outcome::Loss);
        // Mirrored: black's back rank is rank 1 (squares 0..8), white's e4 pawn is on e5 (36).
        assert_eq!(r.occupancy() & 0xFFFF, 0xFFFF);
        assert_eq!(
            r.occupancy() >> 48,
            0xFFEF,
            "white's ranks 1-2 on 8-7, e2 empty"
        );
        let pieces: Vec<(u8, u8)> = r.pieces().collect();
        // a1..h1 after mirroring: black's r n b q k b n r, colour bit 0 (side to move).
        let first_rank: Vec<u8> = pieces[..8].iter().map(|&(_, c)| c).collect();
        assert_eq!(first_rank, vec![3, 1, 2, 4, 5, 2, 1, 3]);
        assert!(
            pieces.contains(&(36, 8)),
            "white e4 pawn on e5 as 'their' pawn"
        );
        assert_eq!(r.king_square(), 4, "black king e8 -> e1");
        assert_eq!(r.opponent_king_square(), 4, "white king e1 seen from white");
        assert_eq!((r.score(), r.result()), (37, Outcome::Loss));
        assert_eq!((r.white_score(), r.white_result()), (-37, Outcome::Win));
        // Byte layout.
        let b = r.to_bytes();
        assert_eq!(&b[24..26], &37i16.to_le_bytes());
        assert_eq!((b[26], b[27], b[28]), (0, 4, 4));
        assert_eq!(b[29] & 1, 1, "black to move");
    }

    /// bullet's `ChessBoard::from_str` contract, written out independently: parse the text line
    /// the way bullet does (white-relative score/result, mirror for black) and compare bytes.
    #[test]
    fn matches_bullets_text_parser_on_the_bullet_fields() {
        for fen in FENS {
            let p = pos(fen);
            let r = Record::from_position(&p, 55, Outcome::Draw);
            let theirs = bullet_from_text(&r.to_text());
            assert_eq!(&theirs[..29], &r.to_bytes()[..29], "{fen}");
        }
    }

    /// A re-statement of bulletformat's text-line parser (FEN | white score | white result).
    fn bullet_from_text(line: &str) -> [u8; 32] {
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        let fen: Vec<&str> = parts[0].split(' ').collect();
        let black = fen[1] == "b";
        let mut occ = 0u64;
        let mut pcs = [0u8; 16];
        let (mut ksq, mut opp) = (0u8, 0u8);
        let mut placed: Vec<(usize, u8)> = Vec::new();
        for (row, text) in fen[0].split('/').enumerate() {
            let rank = 7 - row;
            let mut file = 0;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                    continue;
                }
                let idx = "PNBRQKpnbrqk".find(c).unwrap();
                let mut code = ((idx / 6) << 3 | (idx % 6)) as u8;
                let mut sq = rank * 8 + file;
                if black {
                    code ^= 8;
                    sq ^= 56;
                }
                if code == 5 {
                    ksq = sq as u8;
                }
                if code == 13 {
                    opp = sq as u8 ^ 56;
                }
                placed.push((sq, code));
                file += 1;
            }
        }
        placed.sort();
        for (i, &(sq, code)) in placed.iter().enumerate() {
            occ |= 1 << sq;
            pcs[i / 2] |= code << (4 * (i & 1));
        }
        let mut score: i16 = parts[1].parse().unwrap();
        let mut result: u8 = match parts[2] {
            "1.0" => 2,
            "0.5" => 1,
            _ => 0,
        };
        if black {
            score = -score;
            result = 2 - result;
        }
        let mut b = [0u8; 32];
        b[0..8].copy_from_slice(&occ.to_le_bytes());
        b[8..24].copy_from_slice(&pcs);
        b[24..26].copy_from_slice(&score.to_le_bytes());
        b[26] = result;
        b[27] = ksq;
        b[28] = opp;
        b
    }

    #[test]
    fn reader_reads_back_what_the_writer_wrote() {
        let records: Vec<Record> = FENS
            .iter()
            .enumerate()
            .map(|(i, f)| Record::from_position(&pos(f), i as i16 * 10 - 30, Outcome::Draw))
            .collect();
        let mut w = RecordWriter::new(Vec::new());
        w.write_game(&records[..3]).unwrap();
        for r in &records[3..] {
            w.write(r).unwrap();
        }
        let bytes = w.into_inner();
        assert_eq!(bytes.len(), records.len() * RECORD_SIZE);
        let back: Vec<Record> = RecordReader::new(&bytes[..])
            .collect::<Result<_>>()
            .unwrap();
        assert_eq!(back, records);
    }

    #[test]
    fn truncated_and_corrupt_input_is_an_error_not_a_panic() {
        let r = Record::from_position(&pos(FENS[4]), 5, Outcome::Win);
        let mut bytes = r.to_bytes().to_vec();
        bytes.extend_from_slice(&r.to_bytes()[..20]);
        let items: Vec<Result<Record>> = RecordReader::new(&bytes[..]).collect();
        assert_eq!(items.len(), 2);
        assert!(items[0].is_ok());
        let err = format!("{:#}", items[1].as_ref().unwrap_err());
        assert!(err.contains("record 1 is truncated: 20 of 32"), "{err}");

        let corrupt = |f: &dyn Fn(&mut [u8; 32])| {
            let mut b = r.to_bytes();
            f(&mut b);
            format!("{:#}", Record::from_bytes(&b).unwrap_err())
        };
        assert!(corrupt(&|b| b[26] = 3).contains("result 3"));
        assert!(corrupt(&|b| b[27] ^= 1).contains("king squares"));
        assert!(corrupt(&|b| b[8] = 0x66).contains("invalid piece code 6"));
        assert!(
            corrupt(&|b| b[0..8].copy_from_slice(&u64::MAX.to_le_bytes())).contains("64 pieces")
        );
        assert!(corrupt(&|b| b[29] = 0x80).contains("extra bytes"));
        assert!(corrupt(&|b| b[23] = 0x10).contains("nibble"));
        // All zero: no kings.
        assert!(Record::from_bytes(&[0u8; 32]).is_err());
        // Structurally fine but illegal: the side not to move (black) is in check.
        let b = bullet_from_text("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1 | 0 | 0.5");
        let illegal = Record::from_bytes(&b).unwrap();
        let err = format!("{:#}", illegal.to_position().unwrap_err());
        assert!(err.contains("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1"), "{err}");
    }

    #[test]
    fn open_refuses_a_length_that_is_not_a_multiple_of_32() {
        let dir = std::env::temp_dir().join(format!("augur-format-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("torn.bin");
        std::fs::write(&path, [0u8; 33]).unwrap();
        let err = format!("{:#}", RecordReader::open(&path).err().unwrap());
        assert!(err.contains("33 bytes is not a whole number"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
