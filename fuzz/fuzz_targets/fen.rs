//! FEN reading and writing: any text either is refused with an error or gives a position
//! whose FEN reads back to the same position. Every legal move's UCI text reads back to the
//! move, make/unmake restores the position, and the move count agrees with shakmaty's (an
//! independent move generator) whenever shakmaty reads the same FEN.
#![no_main]

use augur::eval::{evaluate, EvalKind};
use augur::position::Position;
use libfuzzer_sys::fuzz_target;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position as _};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for chess960 in [false, true] {
        let Ok(pos) = Position::from_fen(text, chess960) else {
            continue;
        };
        let fen = pos.fen();
        let again = Position::from_fen(&fen, chess960)
            .unwrap_or_else(|e| panic!("{text:?} wrote {fen:?}, which does not read: {e}"));
        assert_eq!(again.board(), pos.board(), "{text:?} -> {fen:?}");
        assert_eq!(again.fen(), fen);

        let moves = pos.legal_moves();
        for &mv in &moves {
            let uci = pos.uci(mv);
            assert_eq!(pos.parse_uci(&uci), Ok(mv), "{fen} {uci}");
            let mut p = pos.clone();
            p.make(mv);
            let _ = p.fen();
            p.unmake();
            assert_eq!(p.board(), pos.board());
        }
        let network = augur::eval::nnue::default_network();
        for kind in [EvalKind::Hce, EvalKind::Classic, EvalKind::Nnue] {
            let _ = evaluate(&pos, kind, &network);
        }
        let _ = pos.is_draw(0);

        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let theirs = fen
            .parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position::<Chess>(mode).ok());
        if let Some(theirs) = theirs {
            assert_eq!(
                theirs.legal_moves().len(),
                moves.len(),
                "move count differs from shakmaty's for {fen} (chess960: {chess960})"
            );
        }
    }
});
