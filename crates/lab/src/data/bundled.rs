//! The data compiled into the binary, so that the default runs need no files: position samples
//! drawn from `../shared/data/` (how each was drawn: `data/README.md` and
//! `data/games-sample300.md`). The opening set of the matches lives with the arena
//! (`augur_arena::game::openings::BUNDLED_EPD`).

/// 300 positions of TCEC games, every 50th line of `../shared/data/positions/games-sample.epd`
/// (see `data/games-sample300.md`): the default positions of `collect`, `depth`, `accuracy`
/// and `sfpc-depths`.
pub const GAMES_SAMPLE300: &str = include_str!("../../data/games-sample300.epd");
/// How reports and result headers name [`GAMES_SAMPLE300`].
pub const GAMES_SAMPLE300_NAME: &str = "<builtin games-sample300>";

/// 1000 positions of `../shared/data/positions/games-sample.epd`: the positions `mpd` samples.
pub const MPD_SAMPLE1000: &str = include_str!("../../data/mpd-sample1000.epd");

/// The SPP thesis's test set rebuilt from our data: a mate-in-3 problem, 12 Bratko-Kopec
/// positions, and three endgames (bishops and pawns, KPK, KRK); `compare`'s default suite.
pub const SPP_THESIS_16: &str = include_str!("../../data/spp-thesis-16.epd");

/// Win At Chess, 300 positions (revised; `data/wac.md`: MIT, arasan-chess's `wacnew.epd`):
/// `reproduce`'s `solve` step when `../shared` is not there.
pub const WAC: &str = include_str!("../../data/wac.epd");
