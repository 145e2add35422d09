//! The `genfens` command's arguments and its book lines: errors, never panics.
#![no_main]

use augur::genfens::{epd_to_fen, Request};
use augur::position::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(r) = Request::parse(text) {
        assert!(r.plies.0 <= r.plies.1);
    }
    for line in text.lines() {
        let _ = Position::from_fen(&epd_to_fen(line), false);
    }
});
