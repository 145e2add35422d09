//! The referee: an independent rules check on top of `shakmaty` (the engine's
//! own move generator is never consulted). It validates each UCI move, keeps
//! the repetition history and declares mate, stalemate, threefold repetition,
//! the fifty-move rule and insufficient material.

use std::collections::HashMap;

use anyhow::{anyhow, Result};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

/// Why a game ended by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleEnd {
    Checkmate,
    Stalemate,
    Threefold,
    FiftyMoves,
    InsufficientMaterial,
}

impl RuleEnd {
    pub fn describe(self) -> &'static str {
        match self {
            RuleEnd::Checkmate => "checkmate",
            RuleEnd::Stalemate => "stalemate",
            RuleEnd::Threefold => "threefold repetition",
            RuleEnd::FiftyMoves => "fifty-move rule",
            RuleEnd::InsufficientMaterial => "insufficient material",
        }
    }
}

pub struct Referee {
    /// Chess960 castling: read from the FEN's castling field, and sent king-takes-rook.
    mode: CastlingMode,
    start: Chess,
    start_fen: String,
    pos: Chess,
    /// UCI moves from the start position, as sent to the engines.
    uci_moves: Vec<String>,
    /// Occurrences of each position (hash with legal en passant only, so
    /// positions differing in an unusable e.p. square count as the same).
    seen: HashMap<u64, u32>,
    repeated_three_times: bool,
}

fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

impl Referee {
    /// Sets up from a FEN (or EPD: extra fields after the first four are ignored).
    pub fn from_fen(fen: &str) -> Result<Self> {
        Self::from_fen_in(fen, CastlingMode::Standard)
    }

    /// Like [`Referee::from_fen`]; in `CastlingMode::Chess960` the castling field may name
    /// rook files (Shredder-FEN, X-FEN) and castling is sent as king-takes-rook.
    pub fn from_fen_in(fen: &str, mode: CastlingMode) -> Result<Self> {
        let fen_only: Vec<&str> = fen.split_whitespace().collect();
        let core = if fen_only.len() >= 6
            && fen_only[4].parse::<u32>().is_ok()
            && fen_only[5].parse::<u32>().is_ok()
        {
            fen_only[..6].join(" ")
        } else if fen_only.len() >= 4 {
            fen_only[..4].join(" ")
        } else {
            return Err(anyhow!("'{fen}' is not a FEN"));
        };
        let parsed: Fen = core.parse().map_err(|e| anyhow!("bad FEN '{core}': {e}"))?;
        let pos: Chess = parsed
            .into_position(mode)
            .map_err(|e| anyhow!("illegal position '{core}': {e}"))?;
        Ok(Self::from_position_in(pos, mode))
    }

    pub fn from_position(pos: Chess) -> Self {
        Self::from_position_in(pos, CastlingMode::Standard)
    }

    pub fn from_position_in(pos: Chess, mode: CastlingMode) -> Self {
        let start_fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        let mut seen = HashMap::new();
        seen.insert(key(&pos), 1);
        Referee {
            mode,
            start: pos.clone(),
            start_fen,
            pos,
            uci_moves: Vec::new(),
            seen,
            repeated_three_times: false,
        }
    }

    pub fn start_fen(&self) -> &str {
        &self.start_fen
    }

    pub fn start_position(&self) -> &Chess {
        &self.start
    }

    pub fn position(&self) -> &Chess {
        &self.pos
    }

    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    pub fn ply(&self) -> usize {
        self.uci_moves.len()
    }

    /// Full-move number of the current position.
    pub fn fullmoves(&self) -> u32 {
        self.pos.fullmoves().get()
    }

    /// The `position fen ... moves ...` command for the engines.
    pub fn uci_position(&self) -> String {
        let mut s = String::with_capacity(80 + 5 * self.uci_moves.len());
        s.push_str("position fen ");
        s.push_str(&self.start_fen);
        if !self.uci_moves.is_empty() {
            s.push_str(" moves");
            for m in &self.uci_moves {
                s.push(' ');
                s.push_str(m);
            }
        }
        s
    }

    /// Validates and plays a move given in UCI notation; returns its SAN.
    /// An error means the move is illegal (or not a move at all).
    pub fn play_uci(&mut self, text: &str) -> std::result::Result<SanPlus, String> {
        let uci: UciMove = text
            .parse()
            .map_err(|_| format!("'{text}' is not a UCI move"))?;
        let m = uci
            .to_move(&self.pos)
            .map_err(|_| format!("'{text}' is illegal in {}", self.current_fen()))?;
        let san = SanPlus::from_move_and_play_unchecked(&mut self.pos, m);
        // Castling as the engines expect it: king two squares, or king takes rook (960).
        self.uci_moves.push(m.to_uci(self.mode).to_string());
        if self.pos.halfmoves() == 0 {
            // Irreversible move: earlier positions can never recur.
            self.seen.clear();
        }
        let n = self.seen.entry(key(&self.pos)).or_insert(0);
        *n += 1;
        if *n >= 3 {
            self.repeated_three_times = true;
        }
        Ok(san)
    }

    pub fn current_fen(&self) -> String {
        Fen::from_position(&self.pos, EnPassantMode::Legal).to_string()
    }

    /// The result by the rules in the current position, if the game is over.
    /// Checkmate takes precedence over the fifty-move rule (FIDE 9.3).
    pub fn rule_end(&self) -> Option<RuleEnd> {
        if self.pos.is_checkmate() {
            return Some(RuleEnd::Checkmate);
        }
        if self.pos.is_stalemate() {
            return Some(RuleEnd::Stalemate);
        }
        if self.pos.is_insufficient_material() {
            return Some(RuleEnd::InsufficientMaterial);
        }
        if self.repeated_three_times {
            return Some(RuleEnd::Threefold);
        }
        if self.pos.halfmoves() >= 100 {
            return Some(RuleEnd::FiftyMoves);
        }
        None
    }

    /// Whether `color` could still mate by any sequence of legal moves
    /// (a side that flags against a lone king only draws).
    pub fn can_mate(&self, color: Color) -> bool {
        !self.pos.has_insufficient_material(color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn play(r: &mut Referee, moves: &str) {
        for m in moves.split_whitespace() {
            r.play_uci(m).unwrap();
        }
    }

    #[test]
    fn fools_mate_and_san() {
        let mut r = Referee::from_fen(START).unwrap();
        play(&mut r, "f2f3 e7e5 g2g4");
        assert_eq!(r.play_uci("d8h4").unwrap().to_string(), "Qh4#");
        assert_eq!(r.rule_end(), Some(RuleEnd::Checkmate));
        assert!(r.uci_position().ends_with("moves f2f3 e7e5 g2g4 d8h4"));
    }

    #[test]
    fn rejects_illegal_and_garbage() {
        let mut r = Referee::from_fen(START).unwrap();
        assert!(r.play_uci("e2e5").is_err());
        assert!(r.play_uci("hello").is_err());
        assert!(r.play_uci("0000").is_err());
        assert_eq!(r.ply(), 0);
        assert!(Referee::from_fen("not a fen").is_err());
        assert!(Referee::from_fen("8/8/8/8/8/8/8/8 w - -").is_err());
    }

    #[test]
    fn threefold_by_knight_shuffle() {
        let mut r = Referee::from_fen(START).unwrap();
        play(&mut r, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        assert_eq!(r.rule_end(), None);
        play(&mut r, "f6g8");
        assert_eq!(r.rule_end(), Some(RuleEnd::Threefold));
    }

    #[test]
    fn fifty_moves_stalemate_and_material() {
        let r = Referee::from_fen("8/8/8/8/8/5k2/8/5K1R w - - 100 80").unwrap();
        assert_eq!(r.rule_end(), Some(RuleEnd::FiftyMoves));
        let r = Referee::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(r.rule_end(), Some(RuleEnd::Stalemate));
        let r = Referee::from_fen("8/8/8/8/8/5k2/8/N4K2 w - - 0 1").unwrap();
        assert_eq!(r.rule_end(), Some(RuleEnd::InsufficientMaterial));
        let r = Referee::from_fen("8/8/8/8/8/5k2/8/4RK2 w - - 0 1").unwrap();
        assert!(r.can_mate(Color::White));
        assert!(!r.can_mate(Color::Black));
    }

    #[test]
    fn castling_is_normalised() {
        let mut r = Referee::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert_eq!(r.play_uci("e1h1").unwrap().to_string(), "O-O");
        assert!(r.uci_position().ends_with("e1g1"));
    }

    #[test]
    fn chess960_castling_is_king_takes_rook() {
        // The king on f1 castles short onto h1's rook (f1g1 would be a king step); the FEN
        // is written back in X-FEN (KQkq for the outermost rooks).
        let fen = "4k2r/pppppppp/8/8/8/8/PPPPPPPP/5K1R w Hh - 0 1";
        assert!(
            Referee::from_fen(fen).is_err(),
            "castling from f1 is not standard"
        );
        let mut r = Referee::from_fen_in(fen, CastlingMode::Chess960).unwrap();
        assert_eq!(r.play_uci("f1h1").unwrap().to_string(), "O-O");
        assert!(
            r.uci_position().ends_with(" w Kk - 0 1 moves f1h1"),
            "{}",
            r.uci_position()
        );
        assert!(r
            .current_fen()
            .starts_with("4k2r/pppppppp/8/8/8/8/PPPPPPPP/5RK1 b"));
        let mut r = Referee::from_fen_in(fen, CastlingMode::Chess960).unwrap();
        assert_eq!(r.play_uci("f1g1").unwrap().to_string(), "Kg1");
    }
}
