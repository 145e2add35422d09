//! What the lab reads: EPD ([`epd`]), datagen's training records ([`records`]), the scored
//! positions of match PGNs ([`pgn`]), the tuner's labelled positions in every format it reads
//! ([`samples`]), and the data compiled into the binary ([`bundled`]).

pub mod bundled;
pub mod epd;
pub mod pgn;
pub mod records;
pub mod samples;
