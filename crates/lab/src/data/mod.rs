//! What the lab reads: EPD ([`epd`]), datagen's training records ([`records`]), the scored
//! positions of match PGNs ([`pgn`]), the tuner's labelled positions in every format it reads
//! ([`samples`]; the position with its labels and the shared field parsers: [`labelled`]),
//! and the data compiled into the binary ([`bundled`]).

pub mod bundled;
pub mod epd;
pub mod labelled;
pub mod pgn;
pub mod records;
pub mod samples;
