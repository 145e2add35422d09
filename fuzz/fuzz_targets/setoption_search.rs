//! Sequences of in-range search options followed by short searches, in process: whatever
//! values inside their declared ranges a GUI or a tuner (OpenBench's SPSA, `augur-lab spsa`)
//! sends, in whatever combination, the search must end with a legal move and a finite score
//! and never panic (the crash of issue 29 was `LmrMinDepth 1` then `go depth 1`).
//!
//! Input: pairs of bytes (option, value). The option byte picks a search option of the table
//! (switches, spins, combos; the ProbCut parameter file's path is left out), the value byte a
//! value in its range: 0 the minimum, 255 the maximum, others spread between, and for a
//! switch its low bit. Every eighth pair, and at the end, searches one of four positions to
//! depth 1..=6 under a node cap.
#![no_main]

use augur::options::{Kind, OptionSpec};
use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::limits::Limits;
use augur::search::{SearchTeam, INF};
use libfuzzer_sys::fuzz_target;

const FENS: [&str; 4] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/8/4k3/8/3K4/3P4/8/8 w - - 0 1",
    "rnbqkbnr/ppp2ppp/3p4/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 1 3",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
];

fn value_text(spec: &OptionSpec, byte: u8) -> Option<String> {
    match spec.kind {
        Kind::Check(_) => Some((byte & 1 == 1).to_string()),
        Kind::Spin { min, max, .. } => {
            let v = min as i128 + (max as i128 - min as i128) * byte as i128 / 255;
            Some(v.to_string())
        }
        Kind::Combo { choices, .. } => Some(choices[byte as usize % choices.len()].to_string()),
        Kind::Button | Kind::Text(_) => None,
    }
}

fn search(team: &mut SearchTeam, selector: u8) {
    let pos = Position::from_fen(FENS[selector as usize % FENS.len()], false).unwrap();
    let limits = Limits {
        depth: Some(1 + (selector as i32 / 4) % 6),
        nodes: Some(20_000),
        ..Default::default()
    };
    let r = team.search(&pos, &limits);
    let best = r.best.expect("a best move");
    assert!(pos.legal_moves().contains(&best), "illegal best move {best}");
    assert!(r.score.abs() < INF, "score {}", r.score);
}

fuzz_target!(|data: &[u8]| {
    let specs: Vec<OptionSpec> = SearchConfig::option_specs()
        .into_iter()
        .filter(|s| !matches!(s.kind, Kind::Button | Kind::Text(_)))
        // The textbook algorithms search to a fixed depth without a node limit: another
        // target's matter, and far slower.
        .filter(|s| s.name != "Algorithm")
        .collect();
    let mut team = SearchTeam::new(SearchConfig::default(), 1).unwrap();
    for (i, pair) in data.chunks_exact(2).take(256).enumerate() {
        let spec = &specs[pair[0] as usize % specs.len()];
        if let Some(text) = value_text(spec, pair[1]) {
            team.set_option(spec.name, Some(&text))
                .unwrap_or_else(|e| panic!("{} = {text} is in range but refused: {e}", spec.name));
        }
        if i % 8 == 7 {
            search(&mut team, pair[1]);
        }
    }
    search(&mut team, data.first().copied().unwrap_or(0));
});
