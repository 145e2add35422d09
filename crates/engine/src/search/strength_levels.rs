// Calibrated: written by `augur-lab strength` (docs/strength.md) from calibration.csv: each
// row's settings measured in matches against Stockfish 15.1's UCI_Elo, the Elo column the
// measured one (95% intervals in the CSV).
// One row per level: the Elo it plays at, nodes a move, root moves scored, temperature (cp).
pub const LEVELS: [(i32, u64, u32, i32); 11] = [
    (1435, 2500, 4, 55),
    (1496, 4494, 4, 45),
    (1750, 10662, 4, 31),
    (1761, 14170, 4, 28),
    (1845, 25000, 4, 22),
    (1875, 50000, 4, 16),
    (1990, 70711, 4, 13),
    (2073, 141421, 4, 9),
    (2097, 200000, 4, 7),
    (2126, 282843, 4, 6),
    (2229, 400000, 4, 4),
];
