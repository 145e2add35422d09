//! The game schedule: which engines meet, with which opening and colours, in
//! which order. It depends only on its inputs and the seed, so a resumed match
//! knows exactly which games are still to be played.

/// SplitMix64 (Steele, Lea, Flood 2014): small, seedable and portable, which is
/// all a schedule shuffle needs.
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0), by rejection to avoid modulo bias.
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let v = self.next_u64();
            if v < zone {
                return v % n;
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OpeningOrder {
    Sequential,
    Random,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The first engine plays every other engine.
    Gauntlet,
    /// Every engine plays every other engine.
    RoundRobin,
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// 0-based game number; the PGN `Round` tag is `index + 1`.
    pub index: usize,
    /// Game pair (same opening, colours reversed).
    pub pair: usize,
    pub white: usize,
    pub black: usize,
    pub opening: usize,
}

/// Pairings of engine indices for a format.
pub fn pairings(n_engines: usize, format: Format) -> Vec<(usize, usize)> {
    match format {
        Format::Gauntlet => (1..n_engines).map(|j| (0, j)).collect(),
        Format::RoundRobin => (0..n_engines)
            .flat_map(|i| (i + 1..n_engines).map(move |j| (i, j)))
            .collect(),
    }
}

/// Builds the schedule: `games_per_pairing` (rounded up to even) games for
/// each pairing; pair-round `r` uses opening `order[r % n_openings]` for every
/// pairing, each opening played once with each colour.
pub fn build(
    pairings: &[(usize, usize)],
    games_per_pairing: usize,
    n_openings: usize,
    order: OpeningOrder,
    seed: u64,
) -> Vec<Slot> {
    let mut perm: Vec<usize> = (0..n_openings).collect();
    if order == OpeningOrder::Random {
        let mut rng = SplitMix64::new(seed);
        for i in (1..perm.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            perm.swap(i, j);
        }
    }
    let rounds = games_per_pairing.div_ceil(2);
    let mut slots = Vec::with_capacity(rounds * 2 * pairings.len());
    for r in 0..rounds {
        let opening = perm[r % n_openings.max(1)];
        for &(a, b) in pairings {
            let pair = slots.len() / 2;
            for (white, black) in [(a, b), (b, a)] {
                slots.push(Slot {
                    index: slots.len(),
                    pair,
                    white,
                    black,
                    opening,
                });
            }
        }
    }
    slots
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_is_deterministic_and_paired() {
        let p = pairings(3, Format::RoundRobin);
        assert_eq!(p, vec![(0, 1), (0, 2), (1, 2)]);
        let a = build(&p, 4, 10, OpeningOrder::Random, 7);
        let b = build(&p, 4, 10, OpeningOrder::Random, 7);
        assert_eq!(a, b);
        assert_eq!(a.len(), 12);
        for pair in a.chunks(2) {
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(pair[0].white, pair[1].black);
            assert_eq!(pair[0].pair, pair[1].pair);
        }
        let c = build(&p, 4, 10, OpeningOrder::Random, 8);
        assert_ne!(a, c);
        let s = build(
            &pairings(2, Format::Gauntlet),
            5,
            2,
            OpeningOrder::Sequential,
            0,
        );
        assert_eq!(s.len(), 6);
        assert_eq!(
            s.iter().map(|x| x.opening).collect::<Vec<_>>(),
            [0, 0, 1, 1, 0, 0]
        );
    }
}
