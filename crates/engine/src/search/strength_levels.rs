// Provisional, not yet calibrated: a first guess (node budgets from Augur's rough Elo per doubling
// of nodes, temperatures chosen to make the lower levels err often), to be replaced by
// `augur-lab strength` from the calibration against Stockfish 15.1 (campaigns/calibrate-elo.toml).
// One row per level: the Elo it plays at, nodes a move, root moves scored, temperature (cp).
pub const LEVELS: [(i32, u64, u32, i32); 7] = [
    (1320, 400, 4, 150),
    (1500, 700, 4, 120),
    (1800, 2_000, 4, 80),
    (2100, 6_000, 4, 50),
    (2400, 20_000, 4, 30),
    (2700, 80_000, 4, 15),
    (3000, 2_000_000, 1, 0),
];
