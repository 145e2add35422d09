//! [syzygy] Syzygy endgame tablebases: the glue between Augur's cozy-chess board and the
//! probing crate, `shakmaty-syzygy`. The search asks two questions: the win/draw/loss of a
//! position just after a capture or pawn move (`probe_wdl`, interior nodes), and at the root
//! which moves keep the best result (`rank_root`, by DTZ, or by WDL where the DTZ tables are
//! missing). The engine-wide settings (`SyzygyPath`, `SyzygyProbeDepth`, `SyzygyProbeLimit`,
//! `Syzygy50MoveRule`) are `Syzygy`.
//!
//! Why `shakmaty-syzygy` (0.28.1, the last release on shakmaty 0.30, which the workspace pins
//! for Rust 1.95) and not `pyrrhic-rs` (0.2.0): measured on 28,000 random legal positions of
//! KQvKR, KRvKP, KPvKP, KRvKR, KQvK, KPvK and KRvK (both sides to move), one thread, after
//! warm-up: pyrrhic-rs 0.4-0.6 µs a WDL probe; shakmaty-syzygy with memory-mapped files 1.0 µs
//! (of which 0.09 µs is building its position from our bitboards), with its default `pread`
//! files 3.1 µs. Both agreed on every position. pyrrhic-rs takes bitboards directly and uses
//! the engine's own attack tables, so it fits cozy-chess better and is about twice as fast;
//! but it is a C-to-Rust transliteration over process-wide mutable statics: one instance per
//! process (a second `TableBases::new` is refused, which rules out tests that load tables in
//! parallel, and changing `SyzygyPath` means every handle must first be dropped), its root
//! probe refuses to run while another thread holds a handle (Lazy SMP always does), and a
//! truncated table whose size still looks valid aborted the process with a stack overflow in
//! our test, where shakmaty-syzygy answered with an error naming the table. A probe happens
//! only after a capture or pawn move within the piece limit, and its result is cached in the
//! transposition table, so half a microsecond a probe buys little; a crash on a bad file, or a
//! GUI that cannot change the path, costs a game. shakmaty-syzygy is safe Rust, maintained
//! with shakmaty (which the arena already uses), GPL like Augur.
//!
//! Files are memory-mapped (the crate's `mmap` feature), as Stockfish and Fathom do: three
//! times faster than a read per lookup. The one risk is the mapping's: a table file cut short
//! on disk while Augur has it open faults the process; a file that is bad before it is
//! opened is found by the checks below and by the crate's own.

use crate::position::Position;
use cozy_chess::{Board, Color, Move, Piece};
use shakmaty::{Bitboard, ByColor, ByRole, CastlingMode, Chess, FromSetup, Setup};
pub use shakmaty_syzygy::Wdl;
use shakmaty_syzygy::{Material, SyzygyError, Tablebase};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use thiserror::Error;

/// The first bytes of every WDL and DTZ file (the generator's magic numbers).
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// Root ranks (Stockfish's scale): a move that wins, or loses, whatever happens to the
/// fifty-move counter ranks near `±MAX_DTZ` (by DTZ), a draw 0; one whose result depends on
/// the counter ranks in between.
pub const MAX_DTZ: i32 = 1 << 18;

/// What the engine-wide options set: the tables (none until `SyzygyPath` names some) and how
/// the search uses them.
#[derive(Clone)]
pub struct Syzygy {
    pub tables: Option<Arc<Tablebases>>,
    /// `SyzygyProbeDepth`: interior probes at this remaining depth or more (positions with
    /// fewer pieces than the limit are probed at any depth).
    pub probe_depth: i32,
    /// `SyzygyProbeLimit`: the most pieces (kings included) probed.
    pub probe_limit: usize,
    /// `Syzygy50MoveRule`: a win that the fifty-move rule turns into a draw (cursed) counts as
    /// a draw, as a game under the rule scores it.
    pub fifty_move_rule: bool,
}

impl Default for Syzygy {
    fn default() -> Self {
        Syzygy {
            tables: None,
            probe_depth: 1,
            probe_limit: 7,
            fifty_move_rule: true,
        }
    }
}

impl Syzygy {
    /// The most pieces a position may have to be probed: the limit, and what the tables hold.
    pub fn cardinality(&self) -> usize {
        self.tables
            .as_ref()
            .map_or(0, |t| t.max_pieces().min(self.probe_limit))
    }
}

/// Something wrong with a folder or a file of `SyzygyPath`; the rest of the tables are used.
#[derive(Debug, Error)]
pub enum TableWarning {
    #[error("syzygy folder '{path}' cannot be read: {error}")]
    Folder {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
    #[error("syzygy folder '{0}' holds no table files")]
    Empty(PathBuf),
    #[error("syzygy table '{path}' skipped: {reason}")]
    File { path: PathBuf, reason: String },
    #[error("syzygy table {material} cannot be probed, left out from now on: {reason}")]
    Probe { material: String, reason: String },
}

/// The tables of one `SyzygyPath`, shared by every search thread.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    files: usize,
    /// Tables that failed a probe (a file corrupt past its header), by material seen from
    /// either side (`KRvKP` and `KPvKR`): not probed again, since each failure re-reads the
    /// file. Looked at only once `any_broken` is set.
    broken: Mutex<Vec<String>>,
    any_broken: AtomicBool,
    /// Warnings from probes not yet told to the GUI.
    news: Mutex<Vec<TableWarning>>,
}

impl Tablebases {
    /// Loads the tables of `path`: folders separated by `:` (`;` on Windows). Every folder
    /// and file that cannot be used is a warning, and the rest are loaded; `None` when no
    /// table at all was found.
    pub fn open(path: &str) -> (Option<Tablebases>, Vec<TableWarning>) {
        // SAFETY: the mapped files are only read, and a table changed on disk while mapped is
        // outside what the crate (and every engine that maps its tables) can guard against;
        // see the module documentation.
        let mut tables = unsafe { Tablebase::with_mmap_filesystem() };
        let mut warnings = Vec::new();
        let mut files = 0;
        let separator = if cfg!(windows) { ';' } else { ':' };
        for folder in path
            .split(separator)
            .map(str::trim)
            .filter(|f| !f.is_empty())
        {
            let folder = PathBuf::from(folder);
            let entries = match std::fs::read_dir(&folder) {
                Ok(entries) => entries,
                Err(error) => {
                    warnings.push(TableWarning::Folder {
                        path: folder,
                        error,
                    });
                    continue;
                }
            };
            let mut names: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
            names.sort();
            let mut here = 0;
            for file in names.iter().filter(|p| table_kind(p).is_some()) {
                // One file at a time: the crate's `add_directory` stops at the first bad one.
                match check_file(file).and_then(|()| {
                    tables
                        .add_file(file)
                        .map_err(|e| format!("not a table file ({e})"))
                }) {
                    Ok(()) => here += 1,
                    Err(reason) => warnings.push(TableWarning::File {
                        path: file.clone(),
                        reason,
                    }),
                }
            }
            if here == 0 {
                warnings.push(TableWarning::Empty(folder));
            }
            files += here;
        }
        let loaded = (files > 0).then(|| Tablebases {
            tables,
            files,
            broken: Mutex::new(Vec::new()),
            any_broken: AtomicBool::new(false),
            news: Mutex::new(Vec::new()),
        });
        (loaded, warnings)
    }

    /// Table files loaded (WDL and DTZ).
    pub fn files(&self) -> usize {
        self.files
    }

    /// The most pieces of any table loaded.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// The warnings of probes since the last call (a table corrupt past its header).
    pub fn take_warnings(&self) -> Vec<TableWarning> {
        std::mem::take(&mut *lock(&self.news))
    }

    /// Win, draw or loss for the side to move, assuming `board` was reached by a capture or a
    /// pawn move (or that the fifty-move counter is otherwise of no concern). `None` when the
    /// position is not in the tables (castling rights, too many pieces, a table missing or
    /// broken).
    pub fn probe_wdl(&self, board: &Board) -> Option<Wdl> {
        let pos = to_chess(board)?;
        if self.any_broken.load(Ordering::Relaxed) && self.is_broken(&pos) {
            return None;
        }
        self.answer(self.tables.probe_wdl_after_zeroing(&pos))
    }

    /// Distance to zeroing (plies to the next capture or pawn move, negative when losing; above
    /// 100 for a win the fifty-move rule spoils) for the side to move of `board`.
    pub fn probe_dtz(&self, board: &Board) -> Option<i32> {
        let pos = to_chess(board)?;
        if self.any_broken.load(Ordering::Relaxed) && self.is_broken(&pos) {
            return None;
        }
        self.answer(self.tables.probe_dtz(&pos))
            .map(|dtz| dtz.ignore_rounding().0)
    }

    fn is_broken(&self, pos: &Chess) -> bool {
        let material = Material::from_board(shakmaty::Position::board(pos)).to_string();
        lock(&self.broken).contains(&material)
    }

    /// A probe's answer; a table that fails is reported once and left out from then on. A
    /// missing table is no news: a folder of 5-man tables without some 4-man ones is common,
    /// and the search just goes on without an answer.
    fn answer<T>(&self, result: Result<T, SyzygyError>) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(SyzygyError::ProbeFailed {
                material, error, ..
            }) => {
                let name = material.to_string();
                let mut broken = lock(&self.broken);
                if !broken.contains(&name) {
                    lock(&self.news).push(TableWarning::Probe {
                        material: name.clone(),
                        reason: probe_reason(&error),
                    });
                    if let Some((white, black)) = name.split_once('v') {
                        broken.push(format!("{black}v{white}"));
                    }
                    broken.push(name);
                    self.any_broken.store(true, Ordering::Relaxed);
                }
                None
            }
            Err(_) => None,
        }
    }

    /// Ranks the root moves `candidates` of `pos` by what the tables say they keep (Stockfish's
    /// ranks): by DTZ when the DTZ tables answer for every move, otherwise by WDL. `None` when
    /// the position is not in the tables.
    pub fn rank_root(
        &self,
        pos: &Position,
        candidates: &[Move],
        fifty_move_rule: bool,
    ) -> Option<RootRanking> {
        let board = pos.board();
        if candidates.is_empty() || to_chess(board).is_none() {
            return None;
        }
        self.rank_by_dtz(pos, candidates, fifty_move_rule)
            .map(|moves| RootRanking {
                moves,
                by_dtz: true,
            })
            .or_else(|| {
                self.rank_by_wdl(pos, candidates, fifty_move_rule)
                    .map(|moves| RootRanking {
                        moves,
                        by_dtz: false,
                    })
            })
    }

    /// Stockfish's `root_probe`: each move's DTZ counted from the root, then its rank.
    fn rank_by_dtz(
        &self,
        pos: &Position,
        candidates: &[Move],
        fifty_move_rule: bool,
    ) -> Option<Vec<RankedMove>> {
        let cnt50 = pos.board().halfmove_clock() as i32;
        // A repetition on the way: a winning side cannot afford to take its time.
        let repeated = pos.is_repetition(0);
        let mut moves = Vec::with_capacity(candidates.len());
        for &mv in candidates {
            let mut after = pos.clone();
            after.make(mv);
            let child = after.board();
            let mut dtz = if child.halfmove_clock() == 0 {
                // A zeroing move: the child's result alone decides, one ply from the root.
                match -self.probe_wdl(child)? {
                    Wdl::Win => 1,
                    Wdl::CursedWin => 101,
                    Wdl::Draw => 0,
                    Wdl::BlessedLoss => -101,
                    Wdl::Loss => -1,
                }
            } else if after.is_draw(usize::MAX) {
                0
            } else {
                let d = -self.probe_dtz(child)?;
                d + d.signum()
            };
            // A mating move wins at once, not at the next zeroing move.
            if dtz == 2 && after.in_check() && !after.has_legal_move() {
                dtz = 1;
            }
            // Unlike Stockfish's default, certain wins are ranked by DTZ too (its `rankDTZ`):
            // with all of them equal, a search of a few thousand nodes shuffled in KRvK until
            // the counter forced its hand (mate at ply 100 of a 32-ply ending); the shortest
            // way to the next capture, pawn move or mate converts at any speed. A lost root
            // holds out longest the same way.
            let rank = if dtz > 0 {
                if dtz + cnt50 <= 99 && !repeated {
                    MAX_DTZ - dtz
                } else {
                    MAX_DTZ / 2 - (dtz + cnt50)
                }
            } else if dtz < 0 {
                if -dtz * 2 + cnt50 < 100 {
                    -MAX_DTZ - dtz
                } else {
                    -MAX_DTZ / 2 + (-dtz + cnt50)
                }
            } else {
                0
            };
            moves.push(RankedMove {
                mv,
                rank,
                score: rank_score(rank, fifty_move_rule),
            });
        }
        Some(moves)
    }

    /// Stockfish's `root_probe_wdl`: each move's WDL, ranked.
    fn rank_by_wdl(
        &self,
        pos: &Position,
        candidates: &[Move],
        fifty_move_rule: bool,
    ) -> Option<Vec<RankedMove>> {
        let mut moves = Vec::with_capacity(candidates.len());
        for &mv in candidates {
            let mut after = pos.clone();
            after.make(mv);
            let mut wdl = if after.is_draw(usize::MAX) {
                Wdl::Draw
            } else {
                -self.probe_wdl(after.board())?
            };
            if !fifty_move_rule {
                wdl = match wdl {
                    Wdl::CursedWin => Wdl::Win,
                    Wdl::BlessedLoss => Wdl::Loss,
                    other => other,
                };
            }
            let rank = match wdl {
                Wdl::Loss => -MAX_DTZ,
                Wdl::BlessedLoss => -MAX_DTZ + 101,
                Wdl::Draw => 0,
                Wdl::CursedWin => MAX_DTZ - 101,
                Wdl::Win => MAX_DTZ,
            };
            moves.push(RankedMove {
                mv,
                rank,
                score: rank_score(rank, fifty_move_rule),
            });
        }
        Some(moves)
    }
}

/// The root moves with their ranks.
#[derive(Clone, Debug)]
pub struct RootRanking {
    pub moves: Vec<RankedMove>,
    /// Ranked by DTZ (the tables lead the way to the win), or by WDL only.
    pub by_dtz: bool,
}

impl RootRanking {
    /// The best-ranked moves: the only ones the search chooses among.
    pub fn best(&self) -> Vec<Move> {
        let top = self.moves.iter().map(|m| m.rank).max().unwrap_or(0);
        self.moves
            .iter()
            .filter(|m| m.rank == top)
            .map(|m| m.mv)
            .collect()
    }

    /// The rank of the best moves.
    pub fn best_rank(&self) -> i32 {
        self.moves.iter().map(|m| m.rank).max().unwrap_or(0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    pub mv: Move,
    pub rank: i32,
    /// What the rank is worth: `TbScore::Win`/`Loss` for a result the fifty-move rule does
    /// not touch, centipawns otherwise.
    pub score: TbScore,
}

/// The score a root rank stands for; the search turns `Win`/`Loss` into its tablebase-win
/// scores (below its mates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TbScore {
    Win,
    Loss,
    Cp(i32),
}

/// Stockfish's `tbScore` of a rank: certain results are wins and losses; one that the
/// fifty-move rule decides is a few centipawns, more the closer it is to certain.
fn rank_score(rank: i32, fifty_move_rule: bool) -> TbScore {
    let bound = if fifty_move_rule {
        MAX_DTZ / 2 - 100
    } else {
        1
    };
    const PAWN: i32 = 100;
    if rank >= bound {
        TbScore::Win
    } else if rank > 0 {
        TbScore::Cp((3.max(rank - (MAX_DTZ / 2 - 200)) * PAWN) / 200)
    } else if rank == 0 {
        TbScore::Cp(0)
    } else if rank > -bound {
        TbScore::Cp(((-3).min(rank + (MAX_DTZ / 2 - 200)) * PAWN) / 200)
    } else {
        TbScore::Loss
    }
}

/// The crate's position for a cozy-chess board: the bitboards copied (no FEN round trip).
/// `None` with castling rights (no table holds them) or when shakmaty refuses the position
/// (cozy-chess accepts kings side by side from a FEN).
pub fn to_chess(board: &Board) -> Option<Chess> {
    for color in [Color::White, Color::Black] {
        let rights = board.castle_rights(color);
        if rights.short.is_some() || rights.long.is_some() {
            return None;
        }
    }
    let bb = |p| Bitboard(board.pieces(p).0);
    let by_role = ByRole {
        pawn: bb(Piece::Pawn),
        knight: bb(Piece::Knight),
        bishop: bb(Piece::Bishop),
        rook: bb(Piece::Rook),
        queen: bb(Piece::Queen),
        king: bb(Piece::King),
    };
    let by_color = ByColor {
        white: Bitboard(board.colors(Color::White).0),
        black: Bitboard(board.colors(Color::Black).0),
    };
    let mut setup = Setup::empty();
    setup.board = shakmaty::Board::try_from_bitboards(by_role, by_color).ok()?;
    let white = board.side_to_move() == Color::White;
    setup.turn = if white {
        shakmaty::Color::White
    } else {
        shakmaty::Color::Black
    };
    setup.ep_square = board.en_passant().map(|file| {
        let rank = if white { 5 } else { 2 };
        shakmaty::Square::new(rank * 8 + file as u32)
    });
    setup.halfmoves = board.halfmove_clock() as u32;
    setup.fullmoves = std::num::NonZeroU32::new(board.fullmove_number() as u32)
        .unwrap_or(std::num::NonZeroU32::MIN);
    match Chess::from_setup(setup, CastlingMode::Standard) {
        Ok(pos) => Some(pos),
        // An en passant square no pawn can take (cozy-chess may keep one): the same position.
        Err(e) => e.ignore_invalid_ep_square().ok(),
    }
}

/// `Some(true)` for a WDL file name, `Some(false)` for DTZ, `None` for anything else.
fn table_kind(path: &Path) -> Option<bool> {
    match path.extension()?.to_str()? {
        "rtbw" => Some(true),
        "rtbz" => Some(false),
        _ => None,
    }
}

/// What can be told of a table file without opening its contents: its size (the generator
/// writes 64-byte blocks after a 16-byte header) and its magic number.
fn check_file(path: &Path) -> Result<(), String> {
    use std::io::Read;
    let wdl = table_kind(path) == Some(true);
    let size = std::fs::metadata(path).map_err(|e| e.to_string())?.len();
    if size % 64 != 16 {
        return Err(format!(
            "its size, {size} bytes, is not a table's (truncated?)"
        ));
    }
    let mut magic = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .map_err(|e| e.to_string())?;
    let expected = if wdl { WDL_MAGIC } else { DTZ_MAGIC };
    if magic != expected {
        return Err("it does not start as a Syzygy table does".into());
    }
    Ok(())
}

/// Why a probe failed, in a line: a corrupted table's message carries a backtrace when
/// `RUST_BACKTRACE` is set, which is no reason a user can act on.
fn probe_reason(error: &shakmaty_syzygy::ProbeError) -> String {
    match error {
        shakmaty_syzygy::ProbeError::CorruptedTable { .. } => "corrupted table".to_string(),
        other => other
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .trim()
            .to_string(),
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::EnPassantMode;

    /// The bitboard copy is the position shakmaty reads from the same FEN: side, en passant
    /// (a capturable one, and one no pawn can take), the fifty-move counter.
    #[test]
    fn the_copy_is_the_fen_position() {
        for fen in [
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
            "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1",
            "4k3/8/8/3p4/8/8/4P3/4K3 w - d6 0 1",
            "8/8/1k6/8/8/4p3/8/K1R5 b - - 37 60",
        ] {
            let board: Board = fen.parse().unwrap();
            let ours = to_chess(&board).unwrap_or_else(|| panic!("{fen}"));
            let theirs: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let text = |p: &Chess| Fen::from_position(p, EnPassantMode::Legal).to_string();
            assert_eq!(text(&ours), text(&theirs), "{fen}");
        }
    }

    /// No table holds castling rights, and shakmaty refuses kings side by side (cozy-chess
    /// reads them from a FEN): no position, so no probe.
    #[test]
    fn castling_and_touching_kings_are_not_probed() {
        for fen in [
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
            "8/8/8/8/8/8/8/KkR5 w - - 0 1",
        ] {
            if let Ok(board) = fen.parse::<Board>() {
                assert!(to_chess(&board).is_none(), "{fen}");
            }
        }
    }

    #[test]
    fn ranks_score_as_stockfish_scores_them() {
        assert_eq!(rank_score(MAX_DTZ - 7, true), TbScore::Win);
        assert_eq!(rank_score(-MAX_DTZ + 7, true), TbScore::Loss);
        assert_eq!(rank_score(0, true), TbScore::Cp(0));
        // A win the counter spoils: a few centipawns, not a win.
        assert!(
            matches!(rank_score(MAX_DTZ / 2 - 120, true), TbScore::Cp(cp) if cp > 0 && cp < 100)
        );
        // Without the rule it is a win.
        assert_eq!(rank_score(MAX_DTZ / 2 - 120, false), TbScore::Win);
    }
}
