//! What a match's games count up to, and what both the Elo estimates (`elo`) and the SPRT
//! (`sprt`) are computed from: W/D/L, the pentanomial counts of game pairs, the sample that is
//! chosen between the two, and the normalized-Elo scale of a t-value. Kept apart so that `elo`
//! and `sprt` each depend on these counts; `sprt` also uses `elo`'s score conversion.

/// Win/draw/loss counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
    /// "points/games", as crosstables print a result.
    pub fn points_of_games(&self) -> String {
        format!("{:.1}/{}", self.points(), self.games())
    }

    /// Points (win 1, draw 1/2).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

/// Pair counts by pair points: `[LL, LD, LW+DD, WD, WW]`, i.e. index = 2 x points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta(pub [u64; 5]);

impl Penta {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Adds a pair from its two game scores (each 0, 1/2 or 1).
    pub fn add_pair(&mut self, a: f64, b: f64) {
        let i = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[i] += 1;
    }
}

/// The pentanomial row: a match's counts from one engine's side, W/D/L and the pentanomial of
/// its pairs, which every result file of the lab (scaling points, grid cells) and the verdict
/// registry keep as columns `games, wins, draws, losses, LL, LD, WL+DD, WD, WW`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PentaRow {
    pub wdl: Wdl,
    pub penta: Penta,
}

impl PentaRow {
    /// The row read back from its columns; the games must be wins + draws + losses.
    pub fn from_columns(games: u64, wdl: Wdl, penta: [u64; 5]) -> anyhow::Result<PentaRow> {
        if wdl.games() != games {
            anyhow::bail!("games {games} is not wins + draws + losses");
        }
        Ok(PentaRow {
            wdl,
            penta: Penta(penta),
        })
    }

    /// The sample estimates and the SPRT are computed on (see [`Counts::choose`]).
    pub fn sample(&self) -> Counts {
        Counts::choose(&self.wdl, &self.penta)
    }

    /// The games of both rows as one sample.
    pub fn add(&mut self, other: &PentaRow) {
        self.wdl.wins += other.wdl.wins;
        self.wdl.draws += other.wdl.draws;
        self.wdl.losses += other.wdl.losses;
        for (a, b) in self.penta.0.iter_mut().zip(other.penta.0) {
            *a += b;
        }
    }
}

/// 800 / ln 10: normalized Elo per unit of t-value.
pub const NELO_PER_T: f64 = 347.435_585_522_601_46;

/// What the test is computed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counts {
    /// Game pairs `[LL, LD, WL+DD, WD, WW]`.
    Penta([u64; 5]),
    /// Single games `[L, D, W]`.
    Tri([u64; 3]),
}

impl Counts {
    /// The pentanomial sample when most games are in complete pairs (at least
    /// two thirds of them: a runner's output always is, up to the games in
    /// flight when it stopped), else the trinomial one over all games.
    pub fn choose(wdl: &Wdl, penta: &Penta) -> Counts {
        let paired = 2 * penta.pairs();
        if paired > 0 && 3 * paired >= 2 * wdl.games() {
            Counts::Penta(penta.0)
        } else {
            Counts::Tri([wdl.losses, wdl.draws, wdl.wins])
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Counts::Penta(_) => "pentanomial",
            Counts::Tri(_) => "trinomial",
        }
    }

    /// The counts, worst outcome first.
    pub fn counts(&self) -> &[u64] {
        match self {
            Counts::Penta(c) => c,
            Counts::Tri(c) => c,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.counts().iter().all(|&c| c == 0)
    }

    /// Per-game t-value per unit of the sample's own t-value: a pair's
    /// standard deviation is sigma_game / sqrt(2) (fishtest's sqrt 2).
    pub fn t_scale(&self) -> f64 {
        match self {
            Counts::Penta(_) => std::f64::consts::SQRT_2,
            Counts::Tri(_) => 1.0,
        }
    }
}
