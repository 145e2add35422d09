//! The game position: a cozy-chess board plus the history that draw rules need.
//!
//! cozy-chess is copy-make, so `make` pushes the previous board on a stack and `unmake`
//! pops it; the search never clones the history.

use crate::eval::nnue::{evaluate_board, Network, NnueState};
use cozy_chess::{Board, Color, Move, Piece};
use std::fmt;
use std::sync::Arc;
use thiserror::Error;

pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("FEN has {0} fields, expected 4 to 6")]
    FieldCount(usize),
    #[error("bad piece placement '{0}'")]
    Placement(String),
    #[error("bad side to move '{0}' (expected w or b)")]
    SideToMove(String),
    #[error("bad castling rights '{0}'")]
    Castling(String),
    #[error("bad en passant square '{0}'")]
    EnPassant(String),
    #[error("bad halfmove clock '{0}'")]
    HalfmoveClock(String),
    #[error("bad fullmove number '{0}'")]
    FullmoveNumber(String),
    #[error("illegal position: {0}")]
    Illegal(&'static str),
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MoveError {
    #[error("'{0}' is not a move in UCI notation")]
    Syntax(String),
    #[error("'{0}' is not legal in this position")]
    Illegal(String),
}

#[derive(Clone)]
pub struct Position {
    board: Board,
    /// Boards before each `make`, so `unmake` is a pop.
    stack: Vec<Board>,
    /// Zobrist keys of every position of the game and the search line, current one last.
    keys: Vec<u64>,
    chess960: bool,
    /// The network's accumulators, once attached; they follow every make/unmake.
    nnue: Option<Box<NnueLink>>,
}

/// [nnue] A network and its accumulator stack riding on the position's own make/unmake, the
/// way Stockfish keeps them in its state stack: whoever plays moves on the position (the
/// search, the textbook algorithms, a game) updates them, eagerly, by the move's few features.
#[derive(Clone)]
struct NnueLink {
    net: Arc<Network>,
    state: NnueState,
}

impl Default for Position {
    fn default() -> Self {
        Self::startpos()
    }
}

impl Position {
    pub fn startpos() -> Self {
        Self::from_board(Board::default(), false)
    }

    pub fn from_board(board: Board, chess960: bool) -> Self {
        let keys = vec![board.hash()];
        Position {
            board,
            stack: Vec::with_capacity(256),
            keys,
            chess960,
            nnue: None,
        }
    }

    /// Reads a FEN (or the first four fields of an EPD, with clocks defaulting to `0 1`).
    /// Both X-FEN (`KQkq`) and Shredder-FEN (`HAha`) castling rights are accepted.
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Self, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() < 4 || fields.len() > 6 {
            return Err(FenError::FieldCount(fields.len()));
        }
        let half = fields.get(4).copied().unwrap_or("0");
        let full = fields.get(5).copied().unwrap_or("1");
        // cozy-chess refuses a halfmove clock above 100 and a fullmove number of 0, yet both
        // are sent: FIDE's 75-move rule lets a game run to 150 plies without a capture, and
        // some tools count moves from 0. The draw rule only asks whether 100 was reached.
        let half = match half.parse::<u32>() {
            Ok(n) if n > 100 => "100",
            _ => half,
        };
        let full = if full.parse::<u32>() == Ok(0) {
            "1"
        } else {
            full
        };
        let normal = format!(
            "{} {} {} {} {} {}",
            fields[0], fields[1], fields[2], fields[3], half, full
        );
        let shredder = || {
            let letters = xfen_to_shredder(fields[0], fields[2])?;
            let text = format!(
                "{} {} {letters} {} {half} {full}",
                fields[0], fields[1], fields[3]
            );
            Board::from_fen(&text, true).ok()
        };
        let board = match Board::from_fen(&normal, false) {
            Ok(b) => b,
            Err(first) => match Board::from_fen(&normal, true).ok().or_else(shredder) {
                Some(b) => b,
                None => return Err(Self::explain(first, &fields, half, full)),
            },
        };
        // cozy-chess accepts kings side by side; the side to move could then take a king,
        // and the board without one would stop the engine at its next move generation.
        let (white, black) = (board.king(Color::White), board.king(Color::Black));
        if cozy_chess::get_king_moves(white).has(black) {
            return Err(FenError::Illegal("the kings stand side by side"));
        }
        Ok(Self::from_board(board, chess960))
    }

    fn explain(err: cozy_chess::FenParseError, f: &[&str], half: &str, full: &str) -> FenError {
        use cozy_chess::FenParseError as E;
        match err {
            E::InvalidBoard => {
                if placement_is_well_formed(f[0]) && (f[1] == "w" || f[1] == "b") {
                    FenError::Illegal(illegal_placement(f[0]))
                } else {
                    FenError::Placement(f[0].to_string())
                }
            }
            E::InvalidSideToMove => FenError::SideToMove(f[1].to_string()),
            E::InvalidCastlingRights => FenError::Castling(f[2].to_string()),
            E::InvalidEnPassant => FenError::EnPassant(f[3].to_string()),
            E::InvalidHalfMoveClock => FenError::HalfmoveClock(half.to_string()),
            E::InvalidFullmoveNumber => FenError::FullmoveNumber(full.to_string()),
            E::MissingField | E::TooManyFields => FenError::FieldCount(f.len()),
        }
    }

    /// The FEN: Shredder-FEN castling letters under Chess960, and also whenever standard
    /// `KQkq` could not be read back as this position (a king or castling rook off its
    /// standard square, as in a Chess960 position while `UCI_Chess960` is off).
    pub fn fen(&self) -> String {
        if self.chess960 || !self.standard_castling() {
            format!("{:#}", self.board)
        } else {
            format!("{}", self.board)
        }
    }

    /// Every castling right is a king on e1/e8 with its rook in the corner.
    fn standard_castling(&self) -> bool {
        use cozy_chess::{File, Rank, Square};
        [Color::White, Color::Black].into_iter().all(|c| {
            let rights = self.board.castle_rights(c);
            if rights.short.is_none() && rights.long.is_none() {
                return true;
            }
            let back = Rank::First.relative_to(c);
            self.board.king(c) == Square::new(File::E, back)
                && rights.short.is_none_or(|f| f == File::H)
                && rights.long.is_none_or(|f| f == File::A)
        })
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn chess960(&self) -> bool {
        self.chess960
    }

    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    #[inline]
    pub fn side(&self) -> Color {
        self.board.side_to_move()
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.board.hash()
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        !self.board.checkers().is_empty()
    }

    /// Forgets the boards and keys from before the last irreversible move (a capture or pawn
    /// move; no repetition reaches back across one) and from more than 100 plies back (with
    /// the counter at 100 every later position is a draw by the fifty-move rule, repeated or
    /// not): a game of a million moves then costs no more to keep, or to copy to each search
    /// thread, than its last hundred plies. The moves kept can still be unmade.
    pub fn forget_irreversible_past(&mut self) {
        let n = self.keys.len() - 1;
        let cut = n - (self.board.halfmove_clock() as usize).min(n).min(100);
        self.keys.drain(..cut);
        let stack_cut = cut.min(self.stack.len());
        self.stack.drain(..stack_cut);
    }

    /// Number of positions played since this object was created (game moves plus search line).
    #[inline]
    pub fn ply_count(&self) -> usize {
        self.keys.len() - 1
    }

    #[inline]
    pub fn make(&mut self, mv: Move) {
        self.make_then(mv, |_| {});
        self.refresh_nnue();
    }

    /// The search's make: calls `with_key` with the new position's key (the search starts
    /// the key's hash-table load there) and leaves the network's accumulators behind.
    /// [lazynnue] A node that returns before it evaluates (a table cutoff, a draw, a
    /// position in check whose replies are all cut) never pays for its update; the next
    /// `refresh_nnue` brings every pending ply up to date at once.
    #[inline]
    pub fn make_then(&mut self, mv: Move, with_key: impl FnOnce(u64)) {
        if let Some(link) = &mut self.nnue {
            link.state.push_move(&self.board, mv);
        }
        self.stack.push(self.board.clone());
        self.board.play_unchecked(mv);
        let key = self.board.hash();
        self.keys.push(key);
        with_key(key);
    }

    /// Brings the network's accumulators up to the current position (after `make_then`).
    #[inline]
    pub fn refresh_nnue(&mut self) {
        if let Some(link) = &mut self.nnue {
            link.state.apply(&link.net);
        }
    }

    /// Passes the move; the caller guarantees the side to move is not in check.
    #[inline]
    pub fn make_null(&mut self) {
        self.make_null_then(|_| {});
        self.refresh_nnue();
    }

    /// `make_null` the way `make_then` makes a move: the key passed on, the update left.
    #[inline]
    pub fn make_null_then(&mut self, with_key: impl FnOnce(u64)) {
        let next = self
            .board
            .null_move()
            .expect("null move is only tried when not in check");
        self.stack.push(std::mem::replace(&mut self.board, next));
        let key = self.board.hash();
        self.keys.push(key);
        with_key(key);
        if let Some(link) = &mut self.nnue {
            link.state.push_null();
        }
    }

    #[inline]
    pub fn unmake(&mut self) {
        self.board = self.stack.pop().expect("unmake without make");
        self.keys.pop();
        if let Some(link) = &mut self.nnue {
            if link.state.depth() == 0 {
                // Unmaking a move played before the network was attached: start afresh.
                link.state.reset(&link.net, &self.board);
            } else {
                link.state.pop();
            }
        }
    }

    /// Keeps `net`'s accumulators from now on (a full refresh here, then incremental).
    pub fn attach_nnue(&mut self, net: Arc<Network>) {
        let mut state = match self.nnue.take() {
            Some(link) => link.state,
            None => NnueState::new(&net),
        };
        state.reset(&net, &self.board);
        self.nnue = Some(Box::new(NnueLink { net, state }));
    }

    pub fn detach_nnue(&mut self) {
        self.nnue = None;
    }

    /// The attached network's evaluation (side to move), from the incremental accumulators
    /// (from scratch while a `make_then` has left them behind: `refresh_nnue` first).
    #[inline]
    pub fn nnue_eval(&self) -> Option<i32> {
        self.nnue.as_ref().map(|link| {
            if link.state.is_current() {
                link.state.evaluate_current(&link.net, &self.board)
            } else {
                evaluate_board(&link.net, &self.board)
            }
        })
    }

    /// The attached network, if any.
    pub fn nnue_network(&self) -> Option<&Arc<Network>> {
        self.nnue.as_ref().map(|link| &link.net)
    }

    /// Plays a game move given in UCI notation, after checking it is legal.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = self.parse_uci(text)?;
        self.make(mv);
        Ok(mv)
    }

    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        // cozy-chess reads the first four or five characters and ignores the rest, so the
        // whole text is checked first. A capital promotion letter is taken, as GUIs send it.
        let b = text.as_bytes();
        let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
        let well_formed = (b.len() == 4 || b.len() == 5)
            && square(b[0], b[1])
            && square(b[2], b[3])
            && b.get(4).is_none_or(|p| b"nbrqNBRQ".contains(p));
        if !well_formed {
            return Err(MoveError::Syntax(text.to_string()));
        }
        let text_lower = text.to_ascii_lowercase();
        let parsed = if self.chess960 {
            text_lower.parse::<Move>().ok()
        } else {
            cozy_chess::util::parse_uci_move(&self.board, &text_lower).ok()
        };
        let mv = parsed.ok_or_else(|| MoveError::Syntax(text.to_string()))?;
        if self.board.is_legal(mv) {
            Ok(mv)
        } else {
            Err(MoveError::Illegal(text.to_string()))
        }
    }

    /// UCI text of a move: king-to-destination castling in standard chess,
    /// king-takes-rook in Chess960 (as the UCI spec asks for `UCI_Chess960`).
    /// Also king-takes-rook when castling is off the standard squares (a Chess960 position
    /// while `UCI_Chess960` is off): there `b1c1` would read back as the king's step.
    pub fn uci(&self, mv: Move) -> String {
        if self.chess960 || !self.standard_castling() {
            mv.to_string()
        } else {
            cozy_chess::util::display_uci_move(&self.board, mv).to_string()
        }
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(64);
        self.board.generate_moves(|pm| {
            out.extend(pm);
            false
        });
        out
    }

    pub fn has_legal_move(&self) -> bool {
        self.board.generate_moves(|_| true)
    }

    /// Repetition for search purposes: a position seen once before inside the search line
    /// (at or after `root_ply`) is a draw; before the root it must have occurred twice,
    /// i.e. a real threefold repetition.
    pub fn is_repetition(&self, root_ply: usize) -> bool {
        let n = self.keys.len() - 1;
        let key = self.keys[n];
        let window = (self.board.halfmove_clock() as usize).min(n);
        let mut seen = 0;
        let mut back = 4;
        while back <= window {
            let i = n - back;
            if self.keys[i] == key {
                if i >= root_ply {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// Threefold repetition over the game so far (used when adjudicating, not in search).
    pub fn is_threefold(&self) -> bool {
        self.is_repetition(usize::MAX)
    }

    pub fn is_fifty_moves(&self) -> bool {
        self.board.halfmove_clock() >= 100 && (!self.in_check() || self.has_legal_move())
    }

    /// Neither side can ever mate: bare kings, a single minor, or bishops all on one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let b = &self.board;
        let heavy = b.pieces(Piece::Pawn) | b.pieces(Piece::Rook) | b.pieces(Piece::Queen);
        if !heavy.is_empty() {
            return false;
        }
        let knights = b.pieces(Piece::Knight);
        let bishops = b.pieces(Piece::Bishop);
        let minors = knights.len() + bishops.len();
        if minors <= 1 {
            return true;
        }
        if knights.is_empty() {
            let dark = bishops & cozy_chess::BitBoard::DARK_SQUARES;
            return dark.is_empty() || dark == bishops;
        }
        false
    }

    /// Draw by rule inside the search (repetition against the line, fifty moves, material).
    #[inline]
    pub fn is_draw(&self, root_ply: usize) -> bool {
        self.is_repetition(root_ply) || self.is_fifty_moves() || self.is_insufficient_material()
    }
}

/// X-FEN castling letters (`KQkq`: the outermost rook on that side of the king) as
/// Shredder-FEN file letters, which cozy-chess reads for any king and rook files. `None` if
/// the placement is malformed or a letter has no rook to name.
fn xfen_to_shredder(placement: &str, castling: &str) -> Option<String> {
    if castling == "-" {
        return Some(castling.to_string());
    }
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return None;
    }
    // The back rank of a colour as eight squares (None = empty), files a..h.
    let back_rank = |rank: &str| -> Option<Vec<Option<char>>> {
        let mut squares = Vec::with_capacity(8);
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(n) => squares.extend(std::iter::repeat_n(None, n as usize)),
                None => squares.push(Some(c)),
            }
        }
        (squares.len() == 8).then_some(squares)
    };
    let white = back_rank(ranks[7])?;
    let black = back_rank(ranks[0])?;
    let mut out = String::new();
    for letter in castling.chars() {
        let (rank, king, rook) = if letter.is_ascii_uppercase() {
            (&white, 'K', 'R')
        } else {
            (&black, 'k', 'r')
        };
        let king_file = rank.iter().position(|&p| p == Some(king))?;
        let rooks = (0..8).filter(|&f| rank[f] == Some(rook));
        let file = match letter.to_ascii_lowercase() {
            'k' => rooks.filter(|&f| f > king_file).max()?,
            'q' => rooks.filter(|&f| f < king_file).min()?,
            'a'..='h' => letter.to_ascii_lowercase() as usize - 'a' as usize,
            _ => return None,
        };
        let name = (b'a' + file as u8) as char;
        out.push(if letter.is_ascii_uppercase() {
            name.to_ascii_uppercase()
        } else {
            name
        });
    }
    Some(out)
}

/// Eight ranks of piece letters and digits, each adding up to eight files.
/// Which rule of a legal position a well-formed placement breaks, as far as counting tells;
/// what counting cannot see is the side not to move being in check.
fn illegal_placement(placement: &str) -> &'static str {
    let count = |c: char| placement.chars().filter(|&x| x == c).count();
    let side = |upper: bool| {
        placement
            .chars()
            .filter(|c| c.is_ascii_alphabetic() && c.is_ascii_uppercase() == upper)
            .count()
    };
    let (first, last) = (placement.rsplit('/').next(), placement.split('/').next());
    if count('K') != 1 || count('k') != 1 {
        "each side needs exactly one king"
    } else if [first, last]
        .iter()
        .flatten()
        .any(|r| r.contains(['P', 'p']))
    {
        "a pawn stands on the first or last rank"
    } else if side(true) > 16 || side(false) > 16 {
        "a side has more than 16 pieces"
    } else {
        "the side not to move is in check, or another rule of a legal position is broken"
    }
}

fn placement_is_well_formed(s: &str) -> bool {
    let ranks: Vec<&str> = s.split('/').collect();
    ranks.len() == 8
        && ranks.iter().all(|r| {
            let mut files = 0;
            for c in r.chars() {
                match c {
                    '1'..='8' => files += c as u32 - '0' as u32,
                    'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                        files += 1
                    }
                    _ => return false,
                }
            }
            files == 8
        })
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = cozy_chess::Square::index(rank * 8 + file);
                let c = match (self.board.piece_on(sq), self.board.color_on(sq)) {
                    (Some(p), Some(c)) => {
                        let ch: char = p.into();
                        if c == Color::White {
                            ch.to_ascii_uppercase()
                        } else {
                            ch
                        }
                    }
                    _ => '.',
                };
                write!(f, "{c} ")?;
            }
            writeln!(f)?;
        }
        write!(f, "fen {}", self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_round_trip_and_epd_fields() {
        let p = Position::from_fen(STARTPOS_FEN, false).unwrap();
        assert_eq!(p.fen(), STARTPOS_FEN);
        let epd = Position::from_fen("8/8/8/8/8/8/8/K1k5 w - -", false).unwrap();
        assert_eq!(epd.fen(), "8/8/8/8/8/8/8/K1k5 w - - 0 1");
    }

    #[test]
    fn bad_fens_say_what_is_wrong() {
        let bad = [
            ("", FenError::Empty),
            ("8/8/8 w", FenError::FieldCount(2)),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                FenError::SideToMove("x".into()),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
                FenError::Placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX".into()),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                FenError::EnPassant("e9".into()),
            ),
        ];
        for (fen, want) in bad {
            assert_eq!(Position::from_fen(fen, false).err(), Some(want), "{fen}");
        }
        // An illegal placement says which rule it breaks, as far as counting can tell.
        for (fen, why) in [
            ("8/8/8/8/8/8/8/8 w - - 0 1", "exactly one king"),
            ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "exactly one king"),
            ("4k3/8/8/8/8/8/8/3KP3 w - - 0 1", "first or last rank"),
            (
                "4k3/8/8/QQQQQQQQ/QQQQQQQQ/Q7/8/4K3 w - - 0 1",
                "more than 16 pieces",
            ),
            ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", "not to move is in check"),
        ] {
            match Position::from_fen(fen, false) {
                Err(FenError::Illegal(said)) => assert!(said.contains(why), "{fen}: {said}"),
                other => panic!("{fen}: {other:?}"),
            }
        }
        // Kings side by side (found by an input audit: the side to move took the king and
        // the engine stopped at its next move generation), in every direction and both modes.
        for fen in [
            "8/8/8/8/8/8/8/Kk6 w - - 0 1",
            "7Q/8/8/8/8/8/8/Kk6 w - - 0 1",
            "8/8/8/8/8/8/1k6/K7 b - - 0 1",
            "8/8/8/8/3k4/4K3/8/8 w - - 0 1",
        ] {
            for chess960 in [false, true] {
                assert_eq!(
                    Position::from_fen(fen, chess960).err(),
                    Some(FenError::Illegal("the kings stand side by side")),
                    "{fen}"
                );
            }
        }
        assert!(Position::from_fen("8/8/8/8/8/8/8/K1k5 w - - 0 1", false).is_ok());
    }

    /// Found by fuzzing (fuzz/fuzz_targets/fen.rs): a Chess960 position read with
    /// `UCI_Chess960` off was written with `KQkq`, which did not read back; and X-FEN castling
    /// letters (`KQkq` for rooks off the corners) were refused in either mode.
    #[test]
    fn chess960_fens_in_either_castling_notation_read_back() {
        let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let xfen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9";
        for chess960 in [false, true] {
            let a = Position::from_fen(shredder, chess960).unwrap();
            let b = Position::from_fen(xfen, chess960).unwrap();
            assert_eq!(a.board(), b.board());
            assert_eq!(a.fen(), shredder);
            let again = Position::from_fen(&a.fen(), chess960).unwrap();
            assert_eq!(again.board(), a.board());
        }
        // Only one rook of a side can castle: the letters name the outermost rook.
        let one = Position::from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w Kq - 0 1", true).unwrap();
        assert_eq!(one.fen(), "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w Gb - 0 1");
        // A castling letter without a rook on that side is still an error.
        assert!(matches!(
            Position::from_fen("4k3/8/8/8/8/8/8/1R2K3 w K - 0 1", true),
            Err(FenError::Castling(_))
        ));
        // Standard positions keep standard letters.
        assert_eq!(
            Position::from_fen(STARTPOS_FEN, false).unwrap().fen(),
            STARTPOS_FEN
        );
    }

    /// Found by fuzzing (fuzz/fuzz_targets/position_moves.rs): text after the first four or
    /// five characters of a move was ignored, so `e1c1<garbage>` was played as `e1c1`.
    #[test]
    fn move_text_must_be_exactly_a_move() {
        let p = Position::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", false).unwrap();
        for bad in [
            "e1d1x",
            "e1d1\u{10}",
            "e1e2k",
            "b7b8p",
            "E1D1",
            "e1",
            "b7b8qq",
            "e1d1é",
        ] {
            assert!(
                matches!(p.parse_uci(bad), Err(MoveError::Syntax(_))),
                "{bad}"
            );
        }
        let q = p.parse_uci("b7b8q").unwrap();
        assert_eq!(p.parse_uci("b7b8Q"), Ok(q));
        assert!(p.parse_uci("e1d1").is_ok());
    }

    /// Found by fuzzing (fuzz/fuzz_targets/fen.rs): in a Chess960 position read while
    /// `UCI_Chess960` is off, queenside castling with the king on b1 was written `b1c1`,
    /// which reads back as the king's step to c1.
    #[test]
    fn castling_outside_the_standard_squares_is_king_takes_rook() {
        let fen = "2rkr3/pp1qppb1/bn2pnp1/3PN3/1p2R3/2N2Q1p/PPPBBPPP/RK5R w HAec - 0 1";
        let p = Position::from_fen(fen, false).unwrap();
        let castle = p
            .legal_moves()
            .into_iter()
            .find(|m| m.from == cozy_chess::Square::B1 && m.to == cozy_chess::Square::A1)
            .unwrap();
        assert_eq!(p.uci(castle), "b1a1");
        assert_eq!(p.parse_uci("b1a1"), Ok(castle));
        assert_ne!(p.parse_uci("b1c1"), Ok(castle));
        for mv in p.legal_moves() {
            assert_eq!(p.parse_uci(&p.uci(mv)), Ok(mv));
        }
    }

    #[test]
    fn castling_text_follows_the_variant() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let mut p = Position::from_fen(fen, false).unwrap();
        let mv = p.parse_uci("e1g1").unwrap();
        assert_eq!(p.uci(mv), "e1g1");
        p.set_chess960(true);
        assert_eq!(p.uci(mv), "e1h1");
        assert!(p.parse_uci("e1g1").is_err());
        assert!(matches!(p.parse_uci("zz"), Err(MoveError::Syntax(_))));
    }

    #[test]
    fn repetition_and_material_rules() {
        let mut p = Position::startpos();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            p.play_uci(m).unwrap();
        }
        // Startpos seen twice: a twofold inside the search, not yet a threefold in the game.
        assert!(p.is_repetition(0));
        assert!(!p.is_threefold());
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            p.play_uci(m).unwrap();
        }
        assert!(p.is_threefold());

        let kbk = Position::from_fen("8/8/8/8/8/8/B7/K1k5 w - - 0 1", false).unwrap();
        assert!(kbk.is_insufficient_material());
        let kbbk = Position::from_fen("8/8/8/8/8/2B5/B7/K1k5 w - - 0 1", false).unwrap();
        assert!(!kbbk.is_insufficient_material());
        let fifty = Position::from_fen("8/8/8/8/8/8/1R6/K1k5 w - - 100 80", false).unwrap();
        assert!(fifty.is_fifty_moves());
        // Past the fifty moves (no claim; FIDE's automatic draw comes at 75) and a move
        // counter from 0: read, with the clock kept at the 100 the draw rule needs.
        let late = Position::from_fen("8/8/8/8/8/8/1R6/K1k5 w - - 140 0", false).unwrap();
        assert!(late.is_fifty_moves());
        assert_eq!(late.fen(), "8/8/8/8/8/8/1R6/K1k5 w - - 100 1");
        assert!(Position::from_fen("8/8/8/8/8/8/1R6/K1k5 w - - -3 1", false).is_err());
    }

    /// Forgetting the past before the last irreversible move (or 100 plies back) changes no
    /// repetition verdict, at the root or a ply into the search, and bounds what is kept.
    #[test]
    fn forgetting_the_irreversible_past_keeps_every_repetition() {
        let dance = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let mut moves: Vec<&str> = Vec::new();
        for round in 0..60 {
            moves.extend(dance);
            if round % 7 == 3 {
                moves.extend(["b1c3", "b8c6", "c3b1", "c6b8"]);
            }
        }
        moves.extend(["e2e4", "e7e5"]);
        moves.extend(dance.iter().cycle().take(8));
        let mut p = Position::startpos();
        for m in &moves {
            p.play_uci(m).unwrap();
            let mut q = p.clone();
            q.forget_irreversible_past();
            assert!(q.ply_count() <= 100);
            assert_eq!(q.is_threefold(), p.is_threefold(), "{m}");
            let (rp, rq) = (p.ply_count(), q.ply_count());
            for reply in ["b1c3", "g1f3", "f3g1", "g8f6", "f6g8"] {
                let (mut p2, mut q2) = (p.clone(), q.clone());
                if p2.play_uci(reply).is_ok() {
                    q2.play_uci(reply).unwrap();
                    assert_eq!(q2.is_draw(rq), p2.is_draw(rp), "{m} {reply}");
                }
            }
        }
        assert!(p.ply_count() > 250);
    }

    /// With a network attached, every make, null move and unmake (also below the point where
    /// it was attached) leaves the same evaluation as a fresh computation, and the make's
    /// call (where the search prefetches) gets the new position's key.
    #[test]
    fn attached_network_follows_make_and_unmake() {
        use crate::eval::nnue::test_support::{random_king_network, random_network, Rng};
        use crate::eval::nnue::{evaluate_board, Activation, KingBuckets};
        let mut rng = Rng(77);
        let kings = KingBuckets::layout("mirror8").unwrap();
        let nets = [
            random_network(&mut rng, 32, Activation::SCReLU),
            // [nnue-kings] The second network replaces the first on the same position.
            random_king_network(&mut rng, 32, Activation::SCReLU, 8, kings),
        ];
        let mut p = Position::startpos();
        for m in ["e2e4", "d7d5", "e4d5", "g8f6"] {
            p.play_uci(m).unwrap();
        }
        for net in nets {
            let net = Arc::new(net);
            p.attach_nnue(net.clone());
            let check = |p: &Position| {
                assert_eq!(
                    p.nnue_eval(),
                    Some(evaluate_board(&net, p.board())),
                    "{}",
                    p.fen()
                )
            };
            check(&p);
            for _ in 0..400 {
                let moves = p.legal_moves();
                match rng.next() % 8 {
                    0 if p.ply_count() > 0 => p.unmake(),
                    1 if !p.in_check() => {
                        let mut told = None;
                        p.make_null_then(|key| told = Some(key));
                        assert_eq!(told, Some(p.hash()), "make_null_then passes the new key");
                    }
                    _ if !moves.is_empty() => {
                        let mv = moves[(rng.next() % moves.len() as u64) as usize];
                        let mut told = None;
                        p.make_then(mv, |key| told = Some(key));
                        assert_eq!(told, Some(p.hash()), "make_then passes the new key");
                    }
                    _ => p.unmake(),
                }
                // [lazynnue] Half the time the pending plies (one or several) are brought up to
                // date here, so chains of `make_then` are updated together; otherwise
                // `nnue_eval` computes from scratch, and both must agree with a fresh one.
                if rng.next().is_multiple_of(2) {
                    p.refresh_nnue();
                }
                check(&p);
            }
            while p.ply_count() > 0 {
                p.unmake();
                check(&p);
            }
            let copy = p.clone();
            check(&copy);
            for m in ["e2e4", "d7d5", "e4d5", "g8f6"] {
                p.play_uci(m).unwrap();
            }
        }
        p.detach_nnue();
        assert_eq!(p.nnue_eval(), None);
    }
}
