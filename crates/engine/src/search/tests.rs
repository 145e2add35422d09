//! The tests across techniques: the engine's search against plain minimax, node-count
//! determinism, mates and draws, the reporter, each history and pruning technique against the
//! baseline, and one generated pair of tests per technique of the table in `config.rs`
//! (`every_technique::<tag>`, `every_technique_at_its_extremes::<tag>`).

use super::config::{self, SearchConfig};
use super::limits::Limits;
use super::report::Recorder;
use super::result::SearchResult;
use super::score::{score_text, INF, MATE};
use super::stats::{SearchStats, Technique};
use super::strength::{Level, ELO_MIN};
use super::team::SearchTeam;
use super::textbook::{self, Algorithm, TextbookConfig};
use crate::eval::EvalKind;
use crate::options::{self, Kind};
use crate::position::Position;

const FENS: [&str; 6] = [
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/8/4k3/8/3K4/3P4/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
];

fn team(cfg: SearchConfig) -> SearchTeam {
    SearchTeam::new(cfg, 4).unwrap()
}

fn depth(d: i32) -> Limits {
    Limits {
        depth: Some(d),
        ..Default::default()
    }
}

fn search_fen(fen: &str, d: i32) -> SearchResult {
    let pos = Position::from_fen(fen, false).unwrap();
    team(SearchConfig::default()).search(&pos, &depth(d))
}

/// With every selective technique off (and the TT, whose deeper entries would mix depths,
/// and quiescence, which the textbook leaves do not have), the engine's PVS with aspiration
/// windows must return exactly the minimax value. With the network both trees evaluate
/// through the accumulators attached at the root ([nnue]) and walked by make/unmake in
/// different orders, so a stale accumulator would show up as a different score.
#[test]
fn without_selectivity_the_search_is_minimax() {
    for kind in [EvalKind::Classic, EvalKind::Hce, EvalKind::Nnue] {
        let mut cfg = SearchConfig::default().without_selectivity();
        cfg.eval = kind;
        cfg.tt.enabled = false;
        cfg.qsearch.enabled = false;
        cfg.checkext.enabled = false;
        cfg.iir.enabled = false;
        let tb = TextbookConfig {
            eval: kind,
            ..Default::default()
        };
        for fen in FENS {
            let pos = Position::from_fen(fen, false).unwrap();
            // Depth 4 minimax on the wide middle-game positions would take too long here.
            let max_depth = if pos.legal_moves().len() > 30 { 3 } else { 4 };
            for d in 1..=max_depth {
                let mm = textbook::run(&pos, Algorithm::Minimax, d, &tb).unwrap();
                let r = team(cfg.clone()).search(&pos, &depth(d));
                assert_eq!(r.score, mm.score, "{kind} depth {d} {fen}");
            }
        }
    }
}

/// [sppf] The exact mode prunes only moves alpha-beta fails low on: on random positions
/// (random walks from the test positions, so with repetitions within reach, and the same
/// with the clock near the fifty-move limit) every search with it returns the score and
/// move of the same search without it, in fewer nodes. The TT is off: a stored bound from
/// another depth is not the evaluation the bound is about.
#[test]
fn sppf_exact_never_prunes_a_move_that_beats_alpha() {
    let mut cfg = SearchConfig::default().without_selectivity();
    cfg.eval = EvalKind::Classic;
    cfg.tt.enabled = false;
    let mut on = cfg.clone();
    on.sppf.enabled = true;
    on.sppf.mode = config::SppfMode::Exact;
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n.max(1)
    };
    let (mut cut, mut positions) = (0, 0);
    for fen in FENS {
        for walk in 0..6 {
            let mut pos = Position::from_fen(fen, false).unwrap();
            if walk % 2 == 1 {
                // Near the fifty-move limit: a reversible move can make the child a draw.
                let mut fields: Vec<&str> = fen.split(' ').collect();
                fields[4] = "96";
                pos = Position::from_fen(&fields.join(" "), false).unwrap();
            }
            for _ in 0..2 + next(12) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[next(moves.len())]);
            }
            if pos.legal_moves().is_empty() {
                continue;
            }
            positions += 1;
            for d in 2..=3 {
                let base = team(cfg.clone()).search(&pos, &depth(d));
                let r = team(on.clone()).search(&pos, &depth(d));
                let at = format!("depth {d} {}", pos.fen());
                assert_eq!((r.score, r.best), (base.score, base.best), "{at}");
                assert!(r.stats.nodes <= base.stats.nodes, "{at}");
                cut += r.stats.cut[Technique::Sppf as usize];
            }
        }
    }
    assert!(
        positions >= 30 && cut > 0,
        "{positions} positions, {cut} cuts"
    );
}

#[test]
fn repeated_node_limited_searches_are_identical() {
    let pos = Position::from_fen(FENS[2], false).unwrap();
    let limits = Limits {
        nodes: Some(20_000),
        ..Default::default()
    };
    let ra = team(SearchConfig::default()).search(&pos, &limits);
    let rb = team(SearchConfig::default()).search(&pos, &limits);
    assert_eq!(ra, rb.clone().with_times_of(&ra));
    assert_eq!(ra.stats.nodes, 20_000);
}

impl SearchResult {
    /// The result with another's iteration times (the only thing that may differ).
    fn with_times_of(mut self, other: &SearchResult) -> SearchResult {
        for (a, b) in self.iterations.iter_mut().zip(&other.iterations) {
            a.ms = b.ms;
        }
        self
    }
}

#[test]
fn finds_mates_with_the_right_distance() {
    // Mate in 1 (back rank, rook ladder, smothered-style knight), and mated in 1.
    let cases = [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", MATE - 1),
        ("k7/8/1K6/8/8/8/8/6R1 w - - 0 1", MATE - 1),
        ("7k/8/8/8/8/1r6/r7/7K w - - 0 1", -MATE + 2),
        ("6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", MATE - 1),
    ];
    for (fen, want) in cases {
        let r = search_fen(fen, 6);
        assert_eq!(r.score, want, "{fen}: {}", score_text(r.score));
    }
}

#[test]
fn draws_by_repetition_and_fifty_moves_are_seen() {
    // White is two rooks down and facing Rb1 mate, but has perpetual check:
    // Qe8+ Kh7 Qh5+ Kg8 Qe8+ ... (each reply forced).
    let r = search_fen("6k1/6p1/8/7Q/8/8/rr6/7K w - - 0 1", 10);
    assert_eq!(r.score, 0, "perpetual: {}", score_text(r.score));
    // Fifty-move rule: a won KRK with the clock at 99 half-moves is a draw if no mate now.
    let r = search_fen("8/8/8/4k3/8/8/8/R3K3 w - - 99 80", 5);
    assert_eq!(r.score, 0, "{}", score_text(r.score));
}

/// The reporter hears one line per completed iteration and MultiPV line, in order, and
/// one summary; the search itself prints nothing.
#[test]
fn the_reporter_hears_every_line() {
    let pos = Position::from_fen(FENS[0], false).unwrap();
    let cfg = SearchConfig {
        multipv: 3,
        ..Default::default()
    };
    let mut rec = Recorder::default();
    let r = team(cfg).search_with(&pos, &depth(5), &mut rec, || {});
    let heads: Vec<(i32, usize)> = rec.lines.iter().map(|l| (l.0, l.1)).collect();
    let want: Vec<(i32, usize)> = (1..=5).flat_map(|d| (1..=3).map(move |m| (d, m))).collect();
    assert_eq!(heads, want);
    assert_eq!((rec.summaries, rec.errors.len()), (1, 0));
    let last_best = rec.lines.iter().rev().find(|l| l.1 == 1).unwrap();
    assert_eq!((last_best.2, &last_best.3), (r.score, &r.pv));
}

/// Switched off, each history heuristic leaves the search node-for-node as it was, whatever
/// its parameters, and its counter at 0; switched on, it is tried, cuts and changes the tree.
#[test]
fn history_heuristics_off_are_the_baseline() {
    let pos = Position::from_fen(FENS[2], false).unwrap();
    let run = |cfg: SearchConfig| team(cfg).search(&pos, &depth(8)).stats;
    let mut plain = SearchConfig::default();
    plain.conthist.enabled = false;
    plain.capthist.enabled = false;
    plain.corrhist.enabled = false;
    plain.sfpc.enabled = false;
    // [seeprune] prunes this small tree so hard that the 1-ply continuation history
    // no longer changes its node count at depth 8; the test is about the histories.
    plain.seeprune.enabled = false;
    // [tteval] likewise: with it, the 1-ply continuation history's reordering no longer
    // shows in this tree's node count.
    plain.tteval.enabled = false;
    let base = run(plain.clone());
    type Switch = fn(&mut SearchConfig, bool);
    let cases: [(Technique, Switch); 3] = [
        (Technique::CaptHist, |c, on| {
            c.capthist.enabled = on;
            c.capthist.divisor = 1;
        }),
        (Technique::ContHist, |c, on| {
            c.conthist.enabled = on;
            c.conthist.plies = 1;
            c.conthist.lmr_weight = 300;
        }),
        // At its largest limit and weight: with generation 2's network the small limit's
        // corrections (7 cp) no longer change this tree's node count at depth 8.
        (Technique::CorrHist, |c, on| {
            c.corrhist.enabled = on;
            c.corrhist.limit = 1000;
            c.corrhist.weight_max = 256;
        }),
    ];
    for (t, switch) in cases {
        let mut off = plain.clone();
        switch(&mut off, false);
        let stats = run(off);
        assert_eq!(stats.nodes, base.nodes, "{}", t.tag());
        assert_eq!((stats.tried[t as usize], stats.cut[t as usize]), (0, 0));
        let mut on = plain.clone();
        switch(&mut on, true);
        let stats = run(on);
        assert!(stats.tried[t as usize] > 0, "{stats}");
        assert!(stats.cut[t as usize] > 0, "{stats}");
        assert_ne!(stats.nodes, base.nodes, "{}", t.tag());
    }
}

/// [histprune] Off, the search is node-for-node the same whatever the margin; on, it
/// prunes at low depth and changes the tree; with a margin no history can reach it is
/// tried and never cuts, and the tree is the default's again. (Whether the tree shrinks is
/// not a property: the pruned moves' missing history updates reorder later nodes, and
/// with the session-14 evaluation these six trees at depth 9 grow by 2%.)
#[test]
fn history_pruning_prunes_only_what_the_histories_condemn() {
    let t = Technique::HistPrune as usize;
    let run = |cfg: SearchConfig| {
        let mut total = SearchStats::default();
        for fen in FENS {
            let pos = Position::from_fen(fen, false).unwrap();
            let s = team(cfg.clone()).search(&pos, &depth(9)).stats;
            total.nodes += s.nodes;
            total.tried[t] += s.tried[t];
            total.cut[t] += s.cut[t];
        }
        total
    };
    let mut plain = SearchConfig::default();
    plain.histprune.enabled = false;
    let base = run(plain.clone());
    let mut off = plain.clone();
    off.histprune.margin = 1;
    let stats = run(off);
    assert_eq!(stats.nodes, base.nodes);
    assert_eq!((stats.tried[t], stats.cut[t]), (0, 0));

    // A small tree has learned little, so a lower margin than the default shows the cut.
    let mut on = plain;
    on.histprune.enabled = true;
    on.histprune.margin = 100;
    let stats = run(on.clone());
    assert!(stats.tried[t] > 0 && stats.cut[t] > 0, "{stats}");
    assert_ne!(stats.nodes, base.nodes, "{stats}");

    on.histprune.margin = 49152;
    let stats = run(on);
    assert!(stats.tried[t] > 0, "{stats}");
    assert_eq!(stats.cut[t], 0, "{stats}");
    assert_eq!(stats.nodes, base.nodes);
}

/// [improving] On, some nodes (not all) are judged improving, and the flag changes the
/// tree; it acts only through the techniques that read it, so with those off it changes
/// nothing but its counter.
#[test]
fn improving_acts_only_through_the_techniques_that_read_it() {
    let pos = Position::from_fen(FENS[2], false).unwrap();
    let run = |cfg: SearchConfig| team(cfg).search(&pos, &depth(9)).stats;
    let t = Technique::Improving as usize;
    let on = run(SearchConfig::default());
    assert!(on.cut[t] > 0 && on.cut[t] < on.tried[t], "{on}");
    let mut off = SearchConfig::default();
    off.improving.enabled = false;
    let stats = run(off);
    assert_eq!((stats.tried[t], stats.cut[t]), (0, 0));
    assert_ne!(stats.nodes, on.nodes);

    let mut blind = SearchConfig::default();
    blind.rfp.enabled = false;
    blind.lmp.enabled = false;
    blind.lmr.enabled = false;
    blind.sfpc.enabled = false;
    let with = run(blind.clone());
    blind.improving.enabled = false;
    let without = run(blind);
    assert!(with.cut[t] > 0, "{with}");
    assert_eq!(with.nodes, without.nodes);
}

/// [qstt] On, some non-PV quiescence nodes (not all) end on a stored bound, which changes
/// the tree; without the table it has nothing to read and changes nothing.
#[test]
fn stored_bounds_end_quiescence_nodes() {
    let pos = Position::from_fen(FENS[2], false).unwrap();
    let run = |cfg: SearchConfig| team(cfg).search(&pos, &depth(9)).stats;
    let t = Technique::QsTt as usize;
    let on = run(SearchConfig::default());
    assert!(on.cut[t] > 0 && on.cut[t] < on.tried[t], "{on}");
    let mut off = SearchConfig::default();
    off.qstt.enabled = false;
    let stats = run(off);
    assert_eq!((stats.tried[t], stats.cut[t]), (0, 0));
    assert_ne!(stats.nodes, on.nodes);

    let mut no_tt = SearchConfig::default();
    no_tt.tt.enabled = false;
    let with = run(no_tt.clone());
    no_tt.qstt.enabled = false;
    let without = run(no_tt);
    assert_eq!((with.tried[t], with.nodes), (0, without.nodes));
}

/// [lmrhistory] On, late quiet moves have their reduction moved by their history (some,
/// not all, by a ply or more), which changes the tree; with a divisor too large for any
/// history the moves are still examined and the tree is that of the switch off.
#[test]
fn history_moves_the_reduction_of_late_quiet_moves() {
    let pos = Position::from_fen(FENS[2], false).unwrap();
    let run = |cfg: SearchConfig| team(cfg).search(&pos, &depth(9)).stats;
    let t = Technique::LmrHistory as usize;
    let mut off = SearchConfig::default();
    off.lmrhistory.enabled = false;
    let base = run(off);
    assert_eq!((base.tried[t], base.cut[t]), (0, 0));
    // A small tree has learned little (its histories stay below the default 6000), so a
    // smaller divisor shows the shift.
    let mut on = SearchConfig::default();
    on.lmrhistory.divisor = 500;
    let stats = run(on);
    assert!(stats.cut[t] > 0 && stats.cut[t] < stats.tried[t], "{stats}");
    assert_ne!(base.nodes, stats.nodes);

    // Each table is bounded by 16384 (butterfly and two continuation plies at
    // ContHistLmrWeight 100): a sum of at most 49,152 never reaches the divisor 100,000.
    let mut inert = SearchConfig::default();
    inert.lmrhistory.divisor = 100_000;
    let stats = run(inert);
    assert!(stats.tried[t] > 0, "{stats}");
    assert_eq!(stats.cut[t], 0, "{stats}");
    assert_eq!(stats.nodes, base.nodes);
}

/// [lmrttcapture] Off, the tree is the default's whatever the reduction; on, nodes with a
/// TT move are examined and quiet moves below a capturing one reduced more, which changes
/// the tree; with a reduction of 0 it counts the same moves and changes nothing.
#[test]
fn tt_capture_lmr_reduces_quiets_below_a_capturing_tt_move() {
    let pos = Position::from_fen(FENS[2], false).unwrap();
    let run = |cfg: SearchConfig| team(cfg).search(&pos, &depth(9)).stats;
    let t = Technique::LmrTtCapture as usize;
    let base = run(SearchConfig::default());
    let mut off = SearchConfig::default();
    off.lmrttcapture.reduction = 3;
    let stats = run(off);
    assert_eq!(
        (stats.nodes, stats.tried[t], stats.cut[t]),
        (base.nodes, 0, 0)
    );

    let mut on = SearchConfig::default();
    on.lmrttcapture.enabled = true;
    let stats = run(on.clone());
    assert!(stats.tried[t] > 0 && stats.cut[t] > 0, "{stats}");
    assert_ne!(stats.nodes, base.nodes);

    on.lmrttcapture.reduction = 0;
    let stats = run(on);
    assert!(stats.cut[t] > 0, "{stats}");
    assert_eq!(stats.nodes, base.nodes);
}

/// [allchild] Off, no null-window child is counted and the tree is the default's; on,
/// some (not all) are searched as all nodes, which changes the tree. Without the
/// techniques that read the node type nothing changes but the counter.
#[test]
fn unreduced_children_of_cut_nodes_become_all_nodes() {
    let pos = Position::from_fen(FENS[2], false).unwrap();
    // Depth 11: at depth 9 the flipped children (mostly captures) are too shallow for
    // the techniques that read the node type, and the tree can come out the same.
    let run = |cfg: SearchConfig| team(cfg).search(&pos, &depth(11)).stats;
    let t = Technique::AllChild as usize;
    let base = run(SearchConfig::default());
    assert_eq!((base.tried[t], base.cut[t]), (0, 0));

    let mut on = SearchConfig::default();
    on.allchild.enabled = true;
    let stats = run(on);
    assert!(stats.cut[t] > 0 && stats.cut[t] < stats.tried[t], "{stats}");
    assert_ne!(stats.nodes, base.nodes);

    let mut blind = SearchConfig::default();
    for c in [
        &mut blind.lmr.enabled,
        &mut blind.iir.enabled,
        &mut blind.nmp.enabled,
    ] {
        *c = false;
    }
    blind.sfpc.enabled = false;
    // [se] singular extensions read the node type too (a cut node's negative extension)
    blind.se.enabled = false;
    let plain = run(blind.clone());
    blind.allchild.enabled = true;
    let stats = run(blind);
    assert!(stats.cut[t] > 0, "{stats}");
    assert_eq!(stats.nodes, plain.nodes);
}

/// [lmrnoisy] Off, the search is node-for-node the default whatever the offset; on, late
/// captures are examined and those that lose by exchange reduced, which changes the tree;
/// with LMR itself off nothing is reduced and the tree is the default-without-LMR's.
#[test]
fn noisy_lmr_reduces_only_late_losing_captures() {
    let pos = Position::from_fen(FENS[2], false).unwrap();
    let run = |cfg: SearchConfig| team(cfg).search(&pos, &depth(9)).stats;
    let t = Technique::LmrNoisy as usize;
    let base = run(SearchConfig::default());
    let mut off = SearchConfig::default();
    off.lmrnoisy.offset = 3;
    let stats = run(off);
    assert_eq!(stats.nodes, base.nodes);
    assert_eq!((stats.tried[t], stats.cut[t]), (0, 0));

    let mut on = SearchConfig::default();
    on.lmrnoisy.enabled = true;
    let stats = run(on.clone());
    assert!(stats.tried[t] > 0 && stats.cut[t] > 0, "{stats}");
    assert!(stats.cut[t] < stats.tried[t], "{stats}");
    assert_ne!(stats.nodes, base.nodes);

    let mut no_lmr = SearchConfig::default();
    no_lmr.lmr.enabled = false;
    let plain = run(no_lmr.clone());
    no_lmr.lmrnoisy.enabled = true;
    let stats = run(no_lmr);
    assert_eq!((stats.tried[t], stats.nodes), (0, plain.nodes));
}

/// Textbook mode runs on the team's table (sized by `Hash`) with the team's
/// `AspirationWindow`, not on a table and window of its own.
#[test]
fn textbook_mode_uses_the_teams_table_and_window() {
    let pos = Position::from_fen(FENS[2], false).unwrap();
    let run = |algorithm: &str, window: &str| {
        let mut t = team(SearchConfig::default());
        t.set_option("Algorithm", Some(algorithm)).unwrap();
        t.set_option("AspirationWindow", Some(window)).unwrap();
        let r = t.search(&pos, &depth(4));
        (r, t.hashfull())
    };
    let (mtdf, used) = run("mtdf", "25");
    let tb = TextbookConfig {
        eval: SearchConfig::default().eval,
        tt_mib: 4,
        ..Default::default()
    };
    let alone = textbook::run(&pos, Algorithm::Mtdf, 4, &tb).unwrap();
    assert_eq!((mtdf.score, mtdf.stats.nodes), (alone.score, alone.nodes));
    assert!(used > 0, "the team's table holds the MTD(f) tree");
    let (narrow, _) = run("aspiration", "5");
    let (wide, _) = run("aspiration", "400");
    assert_eq!(narrow.score, wide.score);
    assert_ne!(narrow.stats.nodes, wide.stats.nodes);
}

/// Positions for the extremes test: a middle game with every piece type in play, a king
/// and pawn ending (null move and the stage-dependent rules switch off there), and a side
/// in check with six ways out (check extension, no pruning before the move loop).
const EXTREME_FENS: [&str; 3] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/8/4k3/8/3K4/3P4/8/8 w - - 0 1",
    "rnbqkbnr/ppp2ppp/3p4/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 1 3",
];

/// The settings the extremes test tries for `tag`: each spin parameter at its minimum and
/// at its maximum alone, all of them at their minimums and all at their maximums together,
/// and each choice of a combo; a technique without parameters is tried as it is.
fn extreme_settings(tag: &str) -> Vec<Vec<(&'static str, String)>> {
    let switch = options::all()
        .into_iter()
        .find(|s| s.tag == Some(tag) && options::technique_switch(s.name, tag))
        .expect("a switch");
    let mut settings = Vec::new();
    let (mut lows, mut highs) = (Vec::new(), Vec::new());
    let mut combos = Vec::new();
    for s in options::all()
        .into_iter()
        .filter(|s| s.tag == Some(tag) && s.name != switch.name)
    {
        match s.kind {
            Kind::Spin { min, max, .. } => {
                settings.push(vec![(s.name, min.to_string())]);
                settings.push(vec![(s.name, max.to_string())]);
                lows.push((s.name, min.to_string()));
                highs.push((s.name, max.to_string()));
            }
            Kind::Combo { choices, .. } => {
                combos.extend(choices.iter().map(|c| (s.name, c.to_string())));
            }
            Kind::Check(_) | Kind::Button | Kind::Text(_) => {}
        }
    }
    // Every choice of a combo alone and with all spins at one end: [sfpc]'s dynamic rule
    // with SfpcEvalDivisor 1 is such a pair.
    for c in &combos {
        settings.push(vec![c.clone()]);
        for ends in [&lows, &highs] {
            settings.push(ends.iter().cloned().chain([c.clone()]).collect());
        }
    }
    if lows.len() > 1 && combos.is_empty() {
        settings.push(lows);
        settings.push(highs);
    }
    if settings.is_empty() {
        settings.push(Vec::new());
    }
    for s in &mut settings {
        s.insert(0, (switch.name, "true".to_string()));
    }
    settings
}

/// [every tag] Switched on, with its parameters at their declared extremes (see
/// `extreme_settings`), a technique searches each of `EXTREME_FENS` to a legal best move
/// and a score that is a score, without a panic: the test profile checks arithmetic, so an
/// overflow or a `clamp` whose bounds cross fails here. A GUI, OpenBench's SPSA or
/// `augur-lab spsa` may send any value inside a declared range; `LmrMinDepth 1` crashed
/// the engine at `go depth 1` before this test (issue 29). Depth 1 is searched as well as
/// deeper searches, since frontier nodes are where the smallest values bite.
fn on_at_its_extremes_searches_soundly(tag: &str) {
    let technique = *Technique::ALL
        .iter()
        .find(|t| t.tag() == tag)
        .expect("a technique's tag");
    let mut tried = 0;
    for settings in extreme_settings(tag) {
        for fen in EXTREME_FENS {
            let pos = Position::from_fen(fen, false).unwrap();
            let legal = pos.legal_moves();
            // Shallow searches with no node limit (a rule that searches deeper than
            // its node would never end), a deeper one with a limit.
            for (d, nodes) in [(1, None), (4, None), (8, Some(60_000))] {
                let mut t = team(SearchConfig::default());
                for (name, value) in &settings {
                    assert_eq!(t.set_option(name, Some(value)), Ok(true), "{name}");
                }
                let mut limits = Limits {
                    depth: Some(d),
                    nodes,
                    ..Default::default()
                };
                if tag == "timeman" {
                    (limits.wtime, limits.btime) = (Some(100_000_000), Some(100_000_000));
                }
                let r = t.search(&pos, &limits);
                let best = r
                    .best
                    .unwrap_or_else(|| panic!("{settings:?} {fen}: no move"));
                assert!(
                    legal.contains(&best),
                    "{settings:?} {fen}: {best} is illegal"
                );
                assert!(
                    r.score.abs() < INF && r.depth >= 1,
                    "{settings:?} {fen} depth {d}: score {} depth {}",
                    r.score,
                    r.depth
                );
                tried += r.stats.tried[technique as usize];
            }
        }
    }
    // Some extremes switch a technique off in effect (a minimum depth beyond these
    // searches, a ProbCut pair without fitted parameters, `SppfMode exact` without the
    // classic evaluation), but not all of them.
    if !matches!(tag, "probcut" | "timeman" | "aspiration") {
        assert!(tried > 0, "{tag}: never tried at any of its extremes");
    }
}

/// [every tag] Switched off, a technique leaves no trace: its counters stay 0 and the tree
/// (every counter of the search) is the same whatever its parameters. Switched on, it is
/// tried. `every_technique` runs this once per tag of the table.
fn off_is_the_baseline_and_on_is_tried(tag: &str) {
    let technique = *Technique::ALL
        .iter()
        .find(|t| t.tag() == tag)
        .expect("a technique's tag");
    let counters: Vec<Technique> = Technique::ALL
        .iter()
        .copied()
        .filter(|t| t.tag() == tag || t.tag().starts_with(&format!("{tag}_")))
        .collect();
    let pos = Position::from_fen(FENS[5], false).unwrap();
    let run_on = |pos: &Position, settings: &[(&str, String)]| {
        // Each technique on the default search less Stockfish-style ProbCut, which prunes
        // most of this small tree (IIR, for one, would never be reached at depth 8).
        let mut cfg = SearchConfig::default();
        cfg.sfpc.enabled = tag == "sfpc";
        let mut t = team(cfg);
        for (name, value) in settings {
            assert_eq!(t.set_option(name, Some(value)), Ok(true), "{name}");
        }
        let mut limits = depth(8);
        if tag == "timeman" {
            // [timeman] Only a search on the clock rescales its soft limit; this clock is
            // far too long to stop depth 8, so every run still ends at that depth.
            (limits.wtime, limits.btime) = (Some(100_000_000), Some(100_000_000));
        }
        t.search(pos, &limits).stats
    };
    let run = |settings: &[(&str, String)]| run_on(&pos, settings);
    let switch = options::all()
        .into_iter()
        .find(|s| s.tag == Some(tag) && options::technique_switch(s.name, tag))
        .expect("a switch");
    let off = vec![(switch.name, "false".to_string())];
    let mut tweaked = off.clone();
    for s in options::all().into_iter().filter(|s| s.tag == Some(tag)) {
        let other = match s.kind {
            Kind::Spin { default, min, max } => if default == min { max } else { min }.to_string(),
            Kind::Combo { default, choices } => {
                choices.iter().find(|c| **c != default).unwrap().to_string()
            }
            Kind::Check(_) | Kind::Button | Kind::Text(_) => continue,
        };
        tweaked.push((s.name, other));
    }
    let base = run(&off);
    for &c in &counters {
        assert_eq!(
            (base.tried[c as usize], base.cut[c as usize]),
            (0, 0),
            "{tag} off"
        );
    }
    assert_eq!(
        run(&tweaked),
        base,
        "{tag} off, parameters changed: {tweaked:?}"
    );
    let mut on = vec![(switch.name, "true".to_string())];
    if tag == "probcut" {
        // The compiled-in models fit (3, 5) but not the default (4, 8) at this depth.
        on.push(("ProbCutHeight", "5".into()));
        on.push(("ProbCutShallow", "3".into()));
    }
    // A network that sees this position's tactic at once searches a tree too small for the
    // deep techniques (singular extensions, ProbCut, MPC): then it counts if the middlegame
    // of FENS[2] tries them (searched only when this position did not).
    let stats = run(&on);
    let tried = stats.tried[technique as usize] > 0 || {
        let wider = Position::from_fen(FENS[2], false).unwrap();
        run_on(&wider, &on).tried[technique as usize] > 0
    };
    assert!(tried, "{tag} on: {stats}");
}

/// One test of each kind per technique of the table, named by its tag: `config.rs` calls
/// back with every tag (`technique_tags!`), so a new technique block gets its tests.
macro_rules! every_technique {
    ($($tag:ident),* $(,)?) => {
        /// Switched off, each technique leaves no trace whatever its parameters; switched
        /// on, it is tried (`off_is_the_baseline_and_on_is_tried`).
        mod every_technique {
            $(
                #[test]
                fn $tag() {
                    super::off_is_the_baseline_and_on_is_tried(stringify!($tag));
                }
            )*
        }

        /// Switched on with each parameter at its declared minimum and maximum, each
        /// technique searches soundly (`on_at_its_extremes_searches_soundly`).
        mod every_technique_at_its_extremes {
            $(
                #[test]
                fn $tag() {
                    super::on_at_its_extremes_searches_soundly(stringify!($tag));
                }
            )*
        }
    };
}
config::technique_tags!(every_technique);

/// [nnue] Each engine evaluates with the network of its own settings: two teams with two
/// networks, searching at the same time in one process, each find what they find alone (score,
/// move and nodes), which is each network's own minimax value, and the two differ.
#[test]
fn two_engines_with_two_networks_in_one_process() {
    use crate::eval::nnue::test_support::{random_network, Rng};
    use crate::eval::nnue::Activation;
    use std::sync::Arc;
    let nets =
        [3u64, 4].map(|seed| Arc::new(random_network(&mut Rng(seed), 32, Activation::SCReLU)));
    let plain = |net: &Arc<crate::eval::nnue::Network>| {
        let mut cfg = SearchConfig::default().without_selectivity();
        cfg.eval = EvalKind::Nnue;
        cfg.network = net.clone();
        cfg.tt.enabled = false;
        cfg.qsearch.enabled = false;
        cfg.checkext.enabled = false;
        cfg.iir.enabled = false;
        cfg
    };
    let pos = Position::from_fen(FENS[0], false).unwrap();
    let key = |r: &SearchResult| (r.score, r.best, r.stats.nodes);
    let alone: Vec<_> = nets
        .iter()
        .map(|n| key(&team(plain(n)).search(&pos, &depth(3))))
        .collect();
    assert_ne!(alone[0].0, alone[1].0, "two networks, two scores");
    for (net, a) in nets.iter().zip(&alone) {
        let tb = TextbookConfig {
            eval: EvalKind::Nnue,
            network: net.clone(),
            ..Default::default()
        };
        let mm = textbook::run(&pos, Algorithm::Minimax, 3, &tb).unwrap();
        assert_eq!(a.0, mm.score, "the network's own minimax value");
    }
    for _ in 0..3 {
        let together: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = nets
                .iter()
                .map(|n| {
                    let (cfg, pos) = (plain(n), pos.clone());
                    s.spawn(move || key(&team(cfg).search(&pos, &depth(3))))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(together, alone);
    }
}

/// [margins] Logging the margin rules' nodes changes nothing in the search (same tree, score
/// and move), records every rule with the fields the lab relies on, keeps [rfp] and
/// [futility] samples inside the window, and stops when switched off.
#[test]
fn margin_log_records_each_rule_without_changing_the_search() {
    use super::margins::MarginRule;
    let pos = Position::from_fen(FENS[2], false).unwrap();
    let plain = team(SearchConfig::default()).search(&pos, &depth(9));
    let mut t = team(SearchConfig::default());
    assert!(t.take_margin_samples().is_empty(), "off by default");
    t.log_margins(Some(300));
    let logged = t.search(&pos, &depth(9));
    assert_eq!(logged.stats, plain.stats);
    assert_eq!((logged.score, logged.best), (plain.score, plain.best));
    let samples = t.take_margin_samples();
    for rule in MarginRule::ALL {
        let of: Vec<_> = samples.iter().filter(|s| s.rule == rule).collect();
        assert!(!of.is_empty(), "{rule:?}: no sample");
        for s in of {
            let node = Position::from_board(s.board.clone(), false);
            assert!(s.depth >= 1, "{s:?}");
            match rule {
                MarginRule::Rfp => {
                    assert!(s.mv.is_none() && s.depth <= SearchConfig::default().rfp.max_depth)
                }
                MarginRule::Futility => {
                    let mv = s.mv.expect("a quiet move");
                    assert!(
                        node.legal_moves().contains(&mv)
                            && !node.board().colors(!node.board().side_to_move()).has(mv.to)
                    );
                }
                MarginRule::Sfpc => {
                    let mv = s.mv.expect("a capture");
                    assert!(node.legal_moves().contains(&mv));
                    assert!(s.reduced_depth >= 0 && s.reduced_depth < s.depth);
                }
            }
            if rule != MarginRule::Sfpc {
                assert!((s.estimate - s.bound).abs() <= 300, "{s:?}");
            }
        }
    }
    assert!(t.take_margin_samples().is_empty(), "taken");
    t.log_margins(None);
    t.search(&pos, &depth(6));
    assert!(t.take_margin_samples().is_empty(), "switched off");
}

/// [rfp] [sfpc] The rows the fitted margins need are live: with a larger constant margin
/// reverse futility cuts a smaller share of the nodes it tries, with a smaller one a larger
/// share; a margin growing with depth makes Stockfish-style ProbCut cut a smaller share, one
/// shrinking with it a larger share. (Shares: the counts follow the tree, which changes too.)
#[test]
fn the_fitted_margin_rows_move_their_rules() {
    let pos = Position::from_fen(FENS[2], false).unwrap();
    let cuts = |name: &str, value: &str, t: Technique| {
        let mut team = team(SearchConfig::default());
        assert_eq!(team.set_option(name, Some(value)), Ok(true));
        let stats = team.search(&pos, &depth(9)).stats;
        stats.cut[t as usize] as f64 / stats.tried[t as usize].max(1) as f64
    };
    let rfp = |v: &str| cuts("RfpBase", v, Technique::Rfp);
    let (low, default, high) = (rfp("-500"), rfp("0"), rfp("1000"));
    assert!(low > default && default > high, "{low} {default} {high}");
    let sfpc = |v: &str| cuts("SfpcDepthMargin", v, Technique::Sfpc);
    let (low, default, high) = (sfpc("-30"), sfpc("0"), sfpc("100"));
    assert!(low > default && default > high, "{low} {default} {high}");
}

/// [strength] The weak mode at `elo` with a fixed seed.
fn weak(elo: i32, seed: i32) -> SearchConfig {
    SearchConfig {
        limit_strength: true,
        elo,
        strength_seed: seed,
        ..SearchConfig::default()
    }
}

/// [strength] At the lowest Elo the move is drawn among the root moves of the last completed
/// iteration: always one of them (so legal), the best more often than any other, another
/// sometimes, the same for the same seed; the search itself does not depend on the seed.
#[test]
fn the_weak_mode_plays_a_scored_move_and_sometimes_not_the_best() {
    let mut by_rank = [0usize; 8];
    for fen in FENS {
        let pos = Position::from_fen(fen, false).unwrap();
        let legal = pos.legal_moves();
        let mut nodes = Vec::new();
        for seed in 1..=8 {
            let mut lines = Recorder::default();
            let r = team(weak(ELO_MIN as i32, seed)).search_with(
                &pos,
                &Limits::default(),
                &mut lines,
                || {},
            );
            assert!(r.depth >= 1, "{fen}");
            let scored: Vec<_> = lines
                .lines
                .iter()
                .filter(|l| l.0 == r.depth)
                .map(|l| (l.1, l.3[0]))
                .collect();
            let mv = r.best.unwrap();
            assert!(legal.contains(&mv), "{fen}: {mv}");
            assert!(
                scored.iter().any(|&(_, m)| m == mv),
                "{fen}: {mv} not in {scored:?}"
            );
            assert_eq!(r.pv.first(), Some(&mv));
            let again = team(weak(ELO_MIN as i32, seed)).search(&pos, &Limits::default());
            assert_eq!(again.best, r.best, "{fen}: seed {seed} is not reproducible");
            nodes.push(r.stats.nodes);
            let rank = scored
                .iter()
                .find(|&&(_, m)| m == mv)
                .map_or(0, |&(k, _)| k);
            by_rank[rank.min(7)] += 1;
        }
        assert!(nodes.iter().all(|&n| n == nodes[0]), "{fen}: {nodes:?}");
    }
    let (best, others) = (by_rank[1], &by_rank[2..]);
    assert!(others.iter().all(|&n| best > n), "{by_rank:?}");
    assert!(others.iter().sum::<usize>() > 0, "{by_rank:?}");
    // A mate in one is no close call: even the weakest level plays it.
    let mate = Position::from_fen(FENS[4], false).unwrap();
    for seed in 1..=8 {
        let r = team(weak(ELO_MIN as i32, seed)).search(&mate, &Limits::default());
        assert_eq!(r.best.map(|m| m.to_string()), Some("d1d8".into()));
    }
}

/// [strength] `UCI_Elo` alone changes nothing: without `UCI_LimitStrength` the search at the
/// table's lowest and highest Elo is the full one (same move, same nodes), and with it the
/// highest level is still a weakened search (its root moves scored, its draw), not the full one.
#[test]
fn uci_elo_acts_only_with_limit_strength() {
    let (low, high) = match options::all()
        .into_iter()
        .find(|s| s.name == "UCI_Elo")
        .unwrap()
        .kind
    {
        Kind::Spin { min, max, .. } => (min as i32, max as i32),
        k => panic!("UCI_Elo is a spin, not {k:?}"),
    };
    let limits = Limits {
        nodes: Some(20_000),
        ..Default::default()
    };
    let mut weakened = 0;
    for fen in FENS {
        let pos = Position::from_fen(fen, false).unwrap();
        let full = team(SearchConfig::default()).search(&pos, &limits);
        for elo in [low, high] {
            let off = SearchConfig {
                elo,
                ..SearchConfig::default()
            };
            let r = team(off).search(&pos, &limits);
            assert_eq!(r, full.clone().with_times_of(&r), "{elo}: {fen}");
        }
        let top = team(weak(high, 3)).search(&pos, &limits);
        weakened += usize::from(top != full.clone().with_times_of(&top));
    }
    assert!(
        weakened > 0,
        "the top level searched as the full engine everywhere"
    );
}

/// [strength] The level's node cap holds after the first iteration, and a smaller `go nodes`
/// (from the first node) or `go depth` still wins.
#[test]
fn the_weak_mode_keeps_its_node_cap_and_the_gui_limits() {
    let pos = Position::from_fen(FENS[2], false).unwrap();
    // The first iteration, and the one node of the second that finds the cap passed.
    let first = team(weak(ELO_MIN as i32, 1))
        .search(&pos, &depth(1))
        .stats
        .nodes
        + 1;
    for elo in [ELO_MIN as i32, 1800, 2100] {
        let cap = Level::at(elo).nodes;
        let r = team(weak(elo, 1)).search(&pos, &Limits::default());
        assert!(
            r.stats.nodes <= cap.max(first),
            "{elo}: {} > {cap}",
            r.stats.nodes
        );
        assert!(r.depth >= 1);
        let r = team(weak(elo, 1)).search(
            &pos,
            &Limits {
                nodes: Some(cap / 3),
                ..Default::default()
            },
        );
        assert!(r.stats.nodes <= cap / 3, "{elo}: {}", r.stats.nodes);
        let r = team(weak(elo, 1)).search(&pos, &depth(1));
        assert_eq!(r.depth, 1);
    }
}

/// [strength] Out-of-range and malformed values are refused, the previous value kept.
#[test]
fn strength_options_refuse_bad_values() {
    let mut cfg = SearchConfig::default();
    assert!(!cfg.limit_strength);
    assert_eq!(cfg.set_option("uci_limitstrength", Some("true")), Ok(true));
    assert_eq!(cfg.set_option("UCI_Elo", Some("1500")), Ok(true));
    assert_eq!(cfg.set_option("StrengthSeed", Some("99")), Ok(true));
    assert!(cfg.limit_strength && cfg.elo == 1500 && cfg.strength_seed == 99);
    let before = cfg.clone();
    for (name, value) in [
        ("UCI_Elo", Some("1319")),
        ("UCI_Elo", Some("3001")),
        ("UCI_Elo", Some("strong")),
        ("UCI_Elo", None),
        ("UCI_LimitStrength", Some("sometimes")),
        ("StrengthSeed", Some("-1")),
    ] {
        let e = cfg.set_option(name, value).unwrap_err();
        assert!(e.to_string().ends_with("previous value kept"), "{e}");
    }
    assert_eq!(cfg, before);
}
