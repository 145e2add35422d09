// Calibrated: written by `augur-lab strength` (docs/strength.md) from calibration.csv: each
// row's settings measured in matches against Stockfish 15.1's UCI_Elo, the Elo column the
// measured one (95% intervals in the CSV).
// One row per level: the Elo it plays at, nodes a move, root moves scored, temperature (cp).
pub const LEVELS: [(i32, u64, u32, i32); 5] = [
    (1435, 2500, 4, 55),
    (1556, 8000, 4, 35),
    (1845, 25000, 4, 22),
    (1965, 100000, 4, 10),
    (2229, 400000, 4, 4),
];
