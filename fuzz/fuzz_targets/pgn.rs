//! The arena's PGN readers (openings after N plies, game summaries for `stats`, the ends of
//! complete records): errors, never panics; an opening they accept is a position the engine
//! accepts.
#![no_main]

use augur::position::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&plies, pgn)) = data.split_first() else {
        return;
    };
    let max_plies = (plies < 200).then_some(plies as usize);
    if let Ok(openings) = augur_arena::game::openings::parse_pgn(pgn, "fuzz", max_plies) {
        for o in &openings {
            if let Err(e) = Position::from_fen(&o.fen, false) {
                panic!(
                    "opening {} accepted by the lab, refused by the engine: {e}",
                    o.fen
                );
            }
        }
    }
    // The record ends are byte offsets into the file as it is (a lossy decoding once made
    // them point past its end).
    let whole = augur_arena::game::pgn::complete_prefix_len(pgn);
    let finished = augur_arena::game::pgn::finished_prefix_len(pgn);
    assert!(whole <= finished && finished <= pgn.len());
    let _ = augur_arena::game::pgn::read_summaries_from(&pgn[..finished], "fuzz");
    if let Ok(games) = augur_arena::game::pgn::read_summaries_from(pgn, "fuzz") {
        let _ = augur_arena::matchmaking::results::ResultTable::from_summaries(&games);
        for g in &games {
            let _ = g.fault();
        }
    }
});
