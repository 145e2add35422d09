//! `position ... moves <arbitrary text>`: the engine accepts exactly the move lists that
//! shakmaty (an independent rules implementation) finds legal, with castling written
//! king-takes-rook under Chess960, and reaches the same position.
#![no_main]

use augur::uci::parse_position;
use libfuzzer_sys::fuzz_target;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position as _};

/// Start positions: castling both ways, en passant, promotions, a Chess960 setup.
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(moves) = std::str::from_utf8(rest) else {
        return;
    };
    let fen = STARTS[selector as usize % STARTS.len()];
    let chess960 = selector & 0x80 != 0 || fen.contains("HFhf");
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let ours = parse_position(&format!("fen {fen} moves {moves}"), chess960);

    let mut theirs: Chess = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
    let mut legal = true;
    for token in moves.split_whitespace() {
        // UCI squares are lower case; a capital promotion letter is taken (GUIs send it).
        let mut text = token.as_bytes().to_vec();
        if let Some(p) = text.get_mut(4) {
            p.make_ascii_lowercase();
        }
        let m = UciMove::from_ascii(&text)
            .ok()
            .and_then(|u| u.to_move(&theirs).ok());
        // Under Chess960 castling is written as the king taking its rook.
        let written_right = token.bytes().take(4).all(|b| !b.is_ascii_uppercase())
            && match m {
                Some(Move::Castle { rook, .. }) if chess960 => {
                    token.ends_with(rook.to_string().as_str())
                }
                _ => true,
            };
        match m {
            Some(m) if written_right => theirs.play_unchecked(m),
            _ => {
                legal = false;
                break;
            }
        }
    }
    match ours {
        Ok(pos) if legal => {
            let want = Fen::from_position(&theirs, EnPassantMode::Always).to_string();
            let got = pos.fen();
            let fields = |f: &str| -> Vec<String> {
                let mut v: Vec<String> = f.split(' ').map(String::from).collect();
                v[4] = v[4].parse::<u32>().unwrap().min(100).to_string();
                if chess960 {
                    v.remove(2); // Shredder-FEN and X-FEN castling letters differ
                }
                v
            };
            assert_eq!(fields(&got), fields(&want), "{fen} moves {moves}");
        }
        Ok(pos) => panic!("accepted {moves:?} from {fen} (reached {})", pos.fen()),
        Err(e) if legal => panic!("refused legal {moves:?} from {fen}: {e}"),
        Err(_) => {}
    }
});
