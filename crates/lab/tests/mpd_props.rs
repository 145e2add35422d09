//! Properties of the MPD measurements over many positions of the bundled sample.

use augur::eval::{self, classic, EvalKind};
use augur::search::textbook::{self, Algorithm, TextbookConfig};
use augur_lab::data::bundled::MPD_SAMPLE1000;
use augur_lab::spp::mpd;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position as _};
use std::collections::BTreeSet;

fn sample(n: usize) -> Vec<(augur::position::Position, Option<u32>)> {
    let mut v = mpd::read_positions(MPD_SAMPLE1000, "bundled").unwrap();
    v.truncate(n);
    v
}

/// spp-exact is sound only if no quiet non-castling move raises the mover's classic
/// evaluation by more than `quiet_gain_bound`; check every such move of 400 positions.
#[test]
fn quiet_gain_bound_holds_for_every_quiet_move() {
    let mut checked = 0;
    for (pos, _) in sample(400) {
        let parent = eval::evaluate(
            &pos,
            EvalKind::Classic,
            &eval::nnue::default_network(),
            eval::tapered::KING_SAFETY_AS_TUNED,
        );
        let bound = classic::quiet_gain_bound(pos.board());
        for (mv, v) in mpd::quiet_children(&pos, EvalKind::Classic) {
            if mpd::is_castle(&pos, mv) {
                continue;
            }
            checked += 1;
            assert!(
                v - parent <= bound,
                "{} {}: rise {} > bound {bound}",
                pos.fen(),
                pos.uci(mv),
                v - parent
            );
        }
    }
    assert!(checked > 5000, "only {checked} moves checked");
}

/// The quiet moves of a position by shakmaty's move generator, independent of the engine's:
/// legal moves that neither capture (en passant included), promote nor give check, in UCI.
fn quiet_moves_by_shakmaty(fen: &str) -> BTreeSet<String> {
    let pos: Chess = Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    pos.legal_moves()
        .into_iter()
        .filter(|m| !m.is_capture() && !m.is_promotion())
        .filter(|m| !pos.clone().play(*m).unwrap().is_check())
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect()
}

/// `quiet_children` returns exactly the quiet moves another move generator finds, each with the
/// evaluation of its child from the mover's side; spreads are the largest minus the smallest
/// of those values, and every game phase occurs in the sample.
#[test]
fn quiet_children_and_spreads_are_consistent() {
    let mut phases = [0usize; 3];
    let mut castles = 0;
    for (pos, fullmove) in sample(300) {
        let fen = pos.fen();
        let kids = mpd::quiet_children(&pos, EvalKind::Hce);
        let found: BTreeSet<String> = kids.iter().map(|&(mv, _)| pos.uci(mv)).collect();
        assert_eq!(found.len(), kids.len(), "{fen}: a move twice");
        assert_eq!(found, quiet_moves_by_shakmaty(&fen), "{fen}");
        castles += kids
            .iter()
            .filter(|&&(mv, _)| mpd::is_castle(&pos, mv))
            .count();
        for &(mv, v) in &kids {
            let mut child = pos.clone();
            child.make(mv);
            assert_eq!(
                v,
                -eval::evaluate(
                    &child,
                    EvalKind::Hce,
                    &eval::nnue::default_network(),
                    eval::tapered::KING_SAFETY_AS_TUNED,
                ),
                "{fen} {}",
                pos.uci(mv)
            );
        }
        let s = mpd::measure_position(&pos, fullmove);
        let values: Vec<i32> = kids.iter().map(|&(_, v)| v).collect();
        let expected = (values.len() >= 2)
            .then(|| values.iter().max().unwrap() - values.iter().min().unwrap());
        assert_eq!(s.spread[1], expected, "{fen}");
        phases[s.phase as usize] += 1;
    }
    assert!(phases.iter().all(|&n| n > 0), "{phases:?}");
    assert!(
        castles > 0,
        "no castling move among the quiet children: the check missed them"
    );
}

/// With its sound bound, spp-exact returns alpha-beta's move and score and never evaluates
/// more leaves, on 24 sample positions at depth 3.
#[test]
fn spp_exact_matches_alphabeta() {
    let cfg = TextbookConfig::default();
    for (pos, _) in sample(24) {
        let ab = textbook::run(&pos, Algorithm::AlphaBeta, 3, &cfg).unwrap();
        let ex = textbook::run(&pos, Algorithm::SppExact, 3, &cfg).unwrap();
        assert_eq!((ab.best, ab.score), (ex.best, ex.score), "{}", pos.fen());
        assert!(ex.leaves <= ab.leaves, "{}", pos.fen());
    }
}
