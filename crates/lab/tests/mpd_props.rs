//! Properties of the MPD measurements over many positions of the bundled sample.

use augur::eval::{self, classic, EvalKind};
use augur::search::textbook::{self, Algorithm, TextbookConfig};
use augur_lab::spp::mpd::{self, Phase};

fn sample(n: usize) -> Vec<(augur::position::Position, Option<u32>)> {
    let mut v = mpd::read_positions(mpd::SAMPLE, "bundled").unwrap();
    v.truncate(n);
    v
}

/// spp-exact is sound only if no quiet non-castling move raises the mover's classic
/// evaluation by more than `quiet_gain_bound`; check every such move of 400 positions.
#[test]
fn quiet_gain_bound_holds_for_every_quiet_move() {
    let mut checked = 0;
    for (pos, _) in sample(400) {
        let parent = eval::evaluate(&pos, EvalKind::Classic);
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

/// Quiet children really are quiet, spreads are non-negative, and every sample gets a phase.
#[test]
fn quiet_children_and_spreads_are_consistent() {
    let mut phases = [0usize; 3];
    for (pos, fullmove) in sample(300) {
        let kids = mpd::quiet_children(&pos, EvalKind::Default);
        for &(mv, _) in &kids {
            assert!(mv.promotion.is_none());
            assert!(!mpd::is_capture(&pos, mv), "{} {}", pos.fen(), pos.uci(mv));
            let mut p = pos.clone();
            p.make(mv);
            assert!(!p.in_check());
        }
        let s = mpd::measure_position(&pos, fullmove);
        for sp in s.spread.iter().flatten() {
            assert!(*sp >= 0);
        }
        phases[s.phase as usize] += 1;
    }
    assert!(phases.iter().all(|&n| n > 0), "{phases:?}");
    assert_eq!(Phase::ALL.len(), 3);
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
