//! The positions `augur bench` searches (`bench_positions.txt`, one FEN a line), also the
//! tests' sample of openings, middle games and endgames. Data alone, taking nothing from the
//! engine, so that the tests of any module may read them.

const POSITIONS: &str = include_str!("../bench_positions.txt");

pub fn positions() -> impl Iterator<Item = &'static str> {
    POSITIONS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}
