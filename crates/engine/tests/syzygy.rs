//! [syzygy] The tablebases on the committed 3- and 4-man tables (tests/data/syzygy): every
//! probe of the glue against the crate's own answer, known wins played out to mate and known
//! draws held against a perfect opponent (the crate's best moves), the interior probes and
//! their limit, and bad paths and files through the real binary.

mod common;

use augur::position::Position;
use augur::search::config::SearchConfig;
use augur::search::limits::Limits;
use augur::search::SearchTeam;
use augur::tablebase::{Tablebases, Wdl};
use common::Engine as Session;
use cozy_chess::{Board, BoardBuilder, Color, Piece, Square};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use shakmaty_syzygy::Tablebase;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

/// The materials of the committed tables, strong side first.
const MATERIALS: &[(&str, &str)] = &[
    ("KQ", "KR"),
    ("KR", "KP"),
    ("KR", "KR"),
    ("KP", "K"),
    ("KQ", "K"),
    ("KR", "K"),
    ("KB", "K"),
    ("KN", "K"),
];

fn tables() -> Arc<Tablebases> {
    let (tables, warnings) = Tablebases::open(TABLES);
    assert!(warnings.is_empty(), "{warnings:?}");
    let tables = tables.expect("the committed tables");
    assert_eq!((tables.files(), tables.max_pieces()), (16, 4));
    Arc::new(tables)
}

/// The crate alone, on positions it reads from FEN itself: the reference answers.
fn reference() -> Tablebase<Chess> {
    let mut tb = Tablebase::new();
    tb.add_directory(TABLES).unwrap();
    tb
}

fn chess(board: &Board) -> Chess {
    Fen::from_ascii(board.to_string().as_bytes())
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64: deterministic positions, so a failure is repeatable.
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A random legal position with `white` and `black` men (letters of `KQRBNP`), either side
/// to move, kings apart, no pawn on the first or last rank.
fn random_board(rng: &mut Rng, white: &str, black: &str) -> Board {
    loop {
        let mut b = BoardBuilder::empty();
        let mut used = 0u64;
        let mut ok = true;
        for (side, men) in [(Color::White, white), (Color::Black, black)] {
            for letter in men.chars() {
                let piece = match letter {
                    'K' => Piece::King,
                    'Q' => Piece::Queen,
                    'R' => Piece::Rook,
                    'B' => Piece::Bishop,
                    'N' => Piece::Knight,
                    _ => Piece::Pawn,
                };
                let sq = loop {
                    let s = (rng.next() % 64) as usize;
                    if used & (1 << s) == 0 {
                        break s;
                    }
                };
                ok &= piece != Piece::Pawn || (8..56).contains(&sq);
                used |= 1 << sq;
                *b.square_mut(Square::index(sq)) = Some((piece, side));
            }
        }
        b.side_to_move = if rng.next() & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        if !ok {
            continue;
        }
        if let Ok(board) = b.build() {
            let kings = board.pieces(Piece::King);
            if (cozy_chess::get_king_moves(board.king(Color::White)) & kings).is_empty() {
                return board;
            }
        }
    }
}

#[test]
fn every_probe_agrees_with_the_crate() {
    let ours = tables();
    let theirs = reference();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut positions, mut dtz_answers) = (0, 0);
    let mut seen = [0; 5];
    for &(strong, weak) in MATERIALS {
        for (white, black) in [(strong, weak), (weak, strong)] {
            for _ in 0..200 {
                let board = random_board(&mut rng, white, black);
                let pos = chess(&board);
                let wdl = ours.probe_wdl(&board);
                let expected = theirs.probe_wdl_after_zeroing(&pos).ok();
                assert_eq!(wdl, expected, "{board}");
                let wdl = wdl.unwrap_or_else(|| panic!("{board}: no answer"));
                seen[(wdl as i32 + 2) as usize] += 1;
                let dtz = ours.probe_dtz(&board);
                let expected = theirs.probe_dtz(&pos).ok().map(|d| d.ignore_rounding().0);
                assert_eq!(dtz, expected, "{board}");
                dtz_answers += dtz.is_some() as usize;
                positions += 1;
            }
        }
    }
    assert_eq!(positions, 3200);
    // Only KRvKP positions whose DTZ needs a missing table (KRvKB, KRvKN) go unanswered.
    assert!(dtz_answers > 3000, "{dtz_answers} DTZ answers");
    assert!(
        seen[0] > 100 && seen[2] > 100 && seen[4] > 100,
        "losses, draws, wins: {seen:?}"
    );
}

/// Positions of `white` v `black`, White to move and not in check, `wdl` by the tables (a
/// result the fifty-move rule does not touch) and at least `min_dtz` plies from the next
/// capture or pawn move (so that the way is long enough to lose).
fn positions_where(
    tables: &Tablebases,
    (seed, white, black, min_dtz): (u64, &str, &str, i32),
    wdl: Wdl,
    count: usize,
) -> Vec<Board> {
    let mut rng = Rng(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let board = random_board(&mut rng, white, black);
        if board.side_to_move() != Color::White || !board.checkers().is_empty() {
            continue;
        }
        let right = tables.probe_wdl(&board) == Some(wdl)
            && tables
                .probe_dtz(&board)
                .is_some_and(|d| d.abs() <= 100 && d.abs() >= min_dtz);
        if right {
            found.push(board);
        }
    }
    found
}

enum End {
    /// The side that mated.
    Mate(Color),
    Draw,
    /// Still going after the ply budget.
    Open,
}

/// Augur (White, `nodes` a move, the tables on) against a perfect opponent (the crate's best
/// move), up to `plies`. After each of Augur's moves, `check` sees the opponent's result by the
/// tables (counter zeroed) and the position.
fn play_out(
    tables: &Arc<Tablebases>,
    start: &Board,
    plies: usize,
    mut check: impl FnMut(Wdl, &Board),
) -> End {
    let reference = reference();
    let mut team = SearchTeam::new(SearchConfig::default(), 16).unwrap();
    team.syzygy_mut().tables = Some(tables.clone());
    let mut pos = Position::from_board(start.clone(), false);
    for _ in 0..plies {
        if !pos.has_legal_move() {
            return if pos.in_check() {
                End::Mate(!pos.side())
            } else {
                End::Draw
            };
        }
        if pos.is_draw(usize::MAX) {
            return End::Draw;
        }
        if pos.side() == Color::White {
            let limits = Limits {
                nodes: Some(3000),
                ..Default::default()
            };
            let mv = team.search(&pos, &limits).best.expect("a move");
            pos.make(mv);
            let after = pos.board();
            let wdl = tables
                .probe_wdl(after)
                .or_else(|| (!after.has_legal_moves()).then_some(Wdl::Loss))
                .unwrap_or_else(|| panic!("{after}: not in the tables"));
            check(wdl, after);
        } else {
            // The opponent's way may need a table not committed (an underpromotion in KRvKP
            // reaches KRvKB or KRvKN): the game ends there, judged so far.
            let Ok(Some((mv, _))) = reference.best_move(&chess(pos.board())) else {
                return End::Open;
            };
            let text = mv.to_uci(CastlingMode::Standard).to_string();
            pos.play_uci(&text).unwrap();
        }
    }
    End::Open
}

/// Trait shim: cozy-chess has no `has_legal_moves` on a board.
trait HasMoves {
    fn has_legal_moves(&self) -> bool;
}

impl HasMoves for Board {
    fn has_legal_moves(&self) -> bool {
        self.generate_moves(|_| true)
    }
}

#[test]
fn known_wins_are_played_out_to_mate() {
    let tables = tables();
    let mut starts = Vec::new();
    for (material, n) in [
        ((11, "KQ", "KR", 30), 2),
        ((12, "KR", "KP", 20), 2),
        ((13, "KP", "K", 5), 1),
        ((14, "KR", "K", 20), 1),
        ((15, "KQ", "K", 10), 1),
    ] {
        starts.extend(positions_where(&tables, material, Wdl::Win, n));
    }
    for start in &starts {
        let end = play_out(&tables, start, 400, |wdl, after| {
            assert_eq!(
                wdl,
                Wdl::Loss,
                "from {start}: Augur let the win go at {after}"
            );
        });
        assert!(
            matches!(end, End::Mate(Color::White)),
            "from {start}: not mated within 400 plies or the fifty-move rule"
        );
    }
}

#[test]
fn known_draws_are_held() {
    let tables = tables();
    let mut starts = Vec::new();
    for (material, n) in [
        ((21, "KP", "KR", 0), 2),
        ((22, "KR", "KP", 0), 2),
        ((23, "KR", "KR", 0), 1),
        ((24, "KR", "KQ", 0), 1),
    ] {
        starts.extend(positions_where(&tables, material, Wdl::Draw, n));
    }
    for start in &starts {
        let end = play_out(&tables, start, 80, |wdl, after| {
            assert_ne!(
                wdl,
                Wdl::Win,
                "from {start}: Augur lost the draw at {after}"
            );
        });
        assert!(!matches!(end, End::Mate(_)), "from {start}: mated");
    }
}

/// Inside the search, after a capture into a table: the probes are made (and counted), and
/// `SyzygyProbeLimit` below the tables' pieces turns them off.
#[test]
fn interior_probes_follow_the_limit() {
    let tables = tables();
    // Five men, none of them in a table: only captures reach the tables.
    let pos = Position::from_fen("8/8/3k4/8/3r4/8/2QK4/7R w - - 0 1", false).unwrap();
    let limits = Limits {
        depth: Some(8),
        ..Default::default()
    };
    let mut team = SearchTeam::new(SearchConfig::default(), 16).unwrap();
    team.syzygy_mut().tables = Some(tables.clone());
    let r = team.search(&pos, &limits);
    assert!(r.stats.syzygy.0 > 0, "no probes: {}", r.stats);
    assert!(r.stats.syzygy.1 > 0, "no probe settled a node: {}", r.stats);
    let mut limited = SearchTeam::new(SearchConfig::default(), 16).unwrap();
    limited.syzygy_mut().tables = Some(tables);
    limited.syzygy_mut().probe_limit = 2;
    let r = limited.search(&pos, &limits);
    assert_eq!(r.stats.syzygy, (0, 0), "{}", r.stats);
}

/// A folder of copies of the committed tables, for the tests that spoil some.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("augur-syzygy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(TABLES).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rtbw" || e == "rtbz") {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    dir
}

fn cut_short(path: &Path, len: u64) {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .unwrap()
        .set_len(len)
        .unwrap();
}

#[test]
fn a_bad_path_is_a_warning_and_the_search_goes_on() {
    let mut s = Session::start();
    s.send("setoption name SyzygyPath value /no/such/folder");
    let lines = s.ready();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string warning: syzygy folder '/no/such/folder'")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: SyzygyPath: no tables found")),
        "{lines:?}"
    );
    s.send("position fen 8/8/8/8/8/2k5/8/KQ4r1 w - - 0 1");
    s.send("go depth 6");
    let (mv, lines) = s.bestmove();
    assert_ne!(mv, "0000");
    assert!(lines.iter().any(|l| l.contains(" tbhits 0 ")), "{lines:?}");
    assert_eq!(s.close_and_wait().code(), Some(0));
}

#[test]
fn good_tables_answer_through_uci() {
    let mut s = Session::start();
    s.send(&format!(
        "setoption name SyzygyPath value /no/such/folder:{TABLES}"
    ));
    let lines = s.ready();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string SyzygyPath: 16 table files, up to 4 pieces")),
        "{lines:?}"
    );
    // A path without tables afterwards is refused, and the tables in force stay.
    s.send("setoption name SyzygyPath value /no/such/folder");
    assert!(common::has_error(&s.ready()));
    // KQ v KR, White to move: the tables' win shows as cp 20000, and they were probed.
    s.send("position fen 8/8/8/3k4/8/8/1r6/KQ6 w - - 0 1");
    s.send("go depth 6");
    let (mv, lines) = s.bestmove();
    assert_ne!(mv, "0000");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last.contains(" score cp 20000 "), "{last}");
    let hits: u64 = last
        .split_whitespace()
        .skip_while(|t| *t != "tbhits")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(hits > 0, "{last}");
    assert_eq!(s.close_and_wait().code(), Some(0));
}

#[test]
fn a_truncated_or_corrupt_table_is_a_warning_and_the_search_goes_on() {
    let dir = scratch("bad");
    // Cut mid-file: the size tells at once.
    cut_short(&dir.join("KQvKR.rtbw"), 5000);
    // Cut where the size still looks whole (16 past a multiple of 64): found when probed.
    cut_short(&dir.join("KRvKP.rtbw"), 16400);
    let mut s = Session::start();
    s.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    let lines = s.ready();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string warning: syzygy table")
                && l.contains("KQvKR.rtbw")
                && l.contains("truncated")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string SyzygyPath: 15 table files")),
        "{lines:?}"
    );
    for fen in [
        "8/8/8/3k4/8/8/1r6/KQ6 w - - 0 1",
        "8/8/1k6/8/8/4p3/8/K1R5 w - - 0 1",
        "8/8/1k6/8/8/4p3/8/K1R5 b - - 0 1",
    ] {
        s.send(&format!("position fen {fen}"));
        s.send("go depth 6");
        let (mv, lines) = s.bestmove();
        assert_ne!(mv, "0000", "{fen}");
        if fen.contains("K1R5") && fen.ends_with("w - - 0 1") {
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with("info string warning: syzygy table KRvKP")),
                "{lines:?}"
            );
        }
    }
    // A broken table is told once, not at every search.
    s.send("position fen 8/8/1k6/8/8/4p3/8/K1R5 w - - 0 1");
    s.send("go depth 4");
    let (_, lines) = s.bestmove();
    assert!(!lines.iter().any(|l| l.contains("warning")), "{lines:?}");
    assert_eq!(s.close_and_wait().code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without `SyzygyPath` nothing changes: a search with the limit at 0 is the search without
/// tables, node for node.
#[test]
fn no_tables_no_trace() {
    let pos = Position::from_fen("8/8/3k4/8/3r4/8/2QK4/7R w - - 0 1", false).unwrap();
    let limits = Limits {
        depth: Some(8),
        ..Default::default()
    };
    let plain = SearchTeam::new(SearchConfig::default(), 16)
        .unwrap()
        .search(&pos, &limits);
    let mut off = SearchTeam::new(SearchConfig::default(), 16).unwrap();
    off.syzygy_mut().tables = Some(tables());
    off.syzygy_mut().probe_limit = 0;
    let r = off.search(&pos, &limits);
    assert_eq!(r.stats, plain.stats);
    assert_eq!(r.best, plain.best);
}
