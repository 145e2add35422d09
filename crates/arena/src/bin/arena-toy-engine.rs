//! A toy UCI engine for the arena's tests: its strength depends on two
//! options in a known way, so that SPSA can be checked against the optimum.
//!
//! It plays the legal move that wins the most material at once (mate first),
//! except that with probability `blunder` it plays a random legal move:
//!
//!   blunder = min(1, 0.8 |Skill - 70| / 60 + 0.8 |Focus - 0.3|)
//!
//! so the strongest setting is Skill = 70, Focus = 0.3. It reports the
//! material balance as its score, which lets the runner adjudicate games
//! quickly. Every choice is a function of the position and the options, so
//! games are deterministic. It knows nothing else about chess; do not use it
//! for anything but tests.

use std::io::{self, BufRead, Write};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Role};

fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight | Role::Bishop => 300,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 0,
    }
}

fn material(pos: &Chess, side: Color) -> i32 {
    let board = pos.board();
    let mut total = 0;
    for sq in board.occupied() {
        if let Some(piece) = board.piece_at(sq) {
            let v = value(piece.role);
            total += if piece.color == side { v } else { -v };
        }
    }
    total
}

fn gain(pos: &Chess, m: &Move) -> i32 {
    let mut after = pos.clone();
    after.play_unchecked(*m);
    if after.is_checkmate() {
        return 100_000;
    }
    let captured = m.capture().map_or(0, value);
    let promoted = m.promotion().map_or(0, |r| value(r) - 100);
    captured + promoted
}

/// SplitMix64 step.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

struct Toy {
    skill: f64,
    focus: f64,
    pos: Chess,
}

impl Toy {
    fn blunder(&self) -> f64 {
        (0.8 * (self.skill - 70.0).abs() / 60.0 + 0.8 * (self.focus - 0.3).abs()).min(1.0)
    }

    fn set_position(&mut self, line: &str) -> Option<()> {
        let rest = line.strip_prefix("position")?.trim();
        let (setup, moves) = match rest.split_once("moves") {
            Some((s, m)) => (s.trim(), m),
            None => (rest, ""),
        };
        let mut pos = if setup == "startpos" {
            Chess::default()
        } else {
            let fen: Fen = setup.strip_prefix("fen")?.trim().parse().ok()?;
            fen.into_position(CastlingMode::Standard).ok()?
        };
        for text in moves.split_whitespace() {
            let m = text.parse::<UciMove>().ok()?.to_move(&pos).ok()?;
            pos.play_unchecked(m);
        }
        self.pos = pos;
        Some(())
    }

    fn choose(&self) -> Option<Move> {
        let moves = self.pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let key: u64 = self.pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        let seed = mix(key ^ self.skill.to_bits().rotate_left(17) ^ self.focus.to_bits());
        let coin = (mix(seed) >> 11) as f64 / (1u64 << 53) as f64;
        if coin < self.blunder() {
            return Some(moves[(mix(seed ^ 1) % moves.len() as u64) as usize]);
        }
        let best = moves.iter().map(|m| gain(&self.pos, m)).max()?;
        let top: Vec<&Move> = moves
            .iter()
            .filter(|m| gain(&self.pos, m) == best)
            .collect();
        Some(*top[(mix(seed ^ 2) % top.len() as u64) as usize])
    }
}

fn main() {
    let mut toy = Toy {
        skill: 50.0,
        focus: 0.5,
        pos: Chess::default(),
    };
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        let reply = if line == "uci" {
            "id name arena-toy-engine\n\
             option name Skill type spin default 50 min 0 max 100\n\
             option name Focus type string default 0.5\n\
             uciok"
                .to_string()
        } else if line == "isready" {
            "readyok".to_string()
        } else if line == "quit" {
            break;
        } else if let Some(rest) = line.strip_prefix("setoption name ") {
            if let Some((name, value)) = rest.split_once(" value ") {
                if let Ok(v) = value.trim().parse::<f64>() {
                    match name.trim() {
                        "Skill" => toy.skill = v,
                        "Focus" => toy.focus = v,
                        _ => {}
                    }
                }
            }
            continue;
        } else if line.starts_with("position") {
            if toy.set_position(line).is_none() {
                "info string error: bad position".to_string()
            } else {
                continue;
            }
        } else if line.starts_with("go") {
            let score = material(&toy.pos, toy.pos.turn());
            match toy.choose() {
                Some(m) => format!(
                    "info depth 1 score cp {score} nodes 1\nbestmove {}",
                    m.to_uci(CastlingMode::Standard)
                ),
                None => "bestmove 0000".to_string(),
            }
        } else {
            continue;
        };
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}
