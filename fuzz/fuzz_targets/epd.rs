//! The EPD readers (the lab's suites, the arena's openings): errors, never panics; every position they
//! accept is one the engine accepts too, since the lab sends them to engines.
#![no_main]

use augur::position::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(lines) = augur_lab::epd::parse_epd(text, "fuzz") {
        for l in &lines {
            assert!(Position::from_fen(&l.fen, false).is_ok(), "{}", l.fen);
            for (code, _) in &l.ops {
                let _ = l.op(code);
            }
        }
    }
    if let Ok(openings) = augur_arena::game::openings::parse_epd(text, "fuzz") {
        for o in &openings {
            if let Err(e) = Position::from_fen(&o.fen, false) {
                panic!(
                    "opening {} accepted by the lab, refused by the engine: {e}",
                    o.fen
                );
            }
        }
    }
});
