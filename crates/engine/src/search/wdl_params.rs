// Written by `augur-lab wdl` (docs/wdl.md) from 559939 positions of selfplay-7363975-seed4001.bin, selfplay-7363975-seed4002.bin:
// the cubic coefficients of a and b in material / 58, highest power first.
pub const A: [f64; 4] = [-324.802, 898.436, -845.538, 364.84];
pub const B: [f64; 4] = [37.764, -127.168, 139.717, 12.711];
