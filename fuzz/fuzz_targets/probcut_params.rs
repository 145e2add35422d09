//! The ProbCut parameter file (the engine's TOML subset, and the lab's full-TOML reader of
//! the same file): errors, never panics; and a file the engine accepts, however extreme
//! its numbers, drives ProbCut and Multi-ProbCut through a short search without a panic.
#![no_main]

use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::limits::Limits;
use augur::search::probcut::ProbCutParams;
use augur::search::SearchTeam;
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = augur_lab::probcut::params::parse(text, "fuzz");
    let Ok(params) = text.parse::<ProbCutParams>() else {
        return;
    };
    if params.pairs.is_empty() {
        return;
    }
    let mut config = SearchConfig::default();
    config.probcut.enabled = true;
    config.probcut.params = Arc::new(params);
    config.mpc.enabled = true;
    let mut team = SearchTeam::new(config, 1).expect("a 1 MiB table");
    let pos = Position::from_fen(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    )
    .unwrap();
    let limits = Limits {
        nodes: Some(3000),
        ..Default::default()
    };
    let r = team.search(&pos, &limits);
    assert!(r.best.is_some());
});
