// Provisional, not yet calibrated: a first guess from a pilot of 20 games a level against
// Stockfish 15.1 at 2+0.02 (too short for its higher levels), to be replaced by `augur-lab
// strength` from the calibration against Stockfish 15.1 (campaigns/calibrate-elo.toml).
// One row per level: the Elo it plays at, nodes a move, root moves scored, temperature (cp).
pub const LEVELS: [(i32, u64, u32, i32); 7] = [
    (1320, 1_200, 4, 65),
    (1500, 2_500, 4, 55),
    (1800, 8_000, 4, 35),
    (2100, 25_000, 4, 22),
    (2400, 100_000, 4, 10),
    (2700, 400_000, 4, 4),
    (3000, 2_000_000, 1, 0),
];
