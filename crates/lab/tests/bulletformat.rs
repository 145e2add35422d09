//! Augur's datagen files are bullet's `ChessBoard` files: read with bullet's own crate
//! (`bulletformat`, the loader bullet's trainer uses), every record of a real `augur-lab
//! datagen` run and of hand-made positions (black to move, castling rights, en passant, a
//! promotion-rich endgame) gives the same board, score and result as Augur's reader; and
//! bullet's own text parser, fed Augur's text line (`augur-lab convert`), builds the same
//! 32 bytes (less Augur's `extra`, which bullet writes as zeros and never reads).

use std::path::Path;
use std::process::{Command, Stdio};

use augur::position::Position;
use augur_lab::data::records::{Outcome, Record, RecordReader, RecordWriter};
use bulletformat::{BulletFormat, ChessBoard, DataLoader};

mod common;
use common::scratch;

fn bullet_boards(path: &Path) -> Vec<ChessBoard> {
    let mut boards = Vec::new();
    DataLoader::<ChessBoard>::new(path, 1)
        .unwrap()
        .map_positions(|b| boards.push(*b));
    boards
}

fn augur_records(path: &Path) -> Vec<Record> {
    let reader = RecordReader::open(path).unwrap();
    reader.map(|r| r.unwrap()).collect()
}

fn assert_same(path: &Path) -> usize {
    let bullet = bullet_boards(path);
    let augur = augur_records(path);
    assert_eq!(bullet.len(), augur.len());
    assert!(!augur.is_empty());
    for (i, (b, r)) in bullet.iter().zip(&augur).enumerate() {
        let at = format!("record {i} ({})", r.to_text());
        // The board as bullet iterates it (piece code, oriented square) and Augur's.
        let bullet_pieces: Vec<(u8, u8)> = b.into_iter().collect();
        let augur_pieces: Vec<(u8, u8)> = r.pieces().map(|(sq, code)| (code, sq)).collect();
        assert_eq!(bullet_pieces, augur_pieces, "{at}");
        assert_eq!(b.occ(), r.occupancy(), "{at}");
        assert_eq!(
            (b.our_ksq(), b.opp_ksq()),
            (r.king_square(), r.opponent_king_square()),
            "{at}"
        );
        // Score and result, side to move's view, through bullet's trait.
        assert_eq!(BulletFormat::score(b), r.score(), "{at}");
        assert_eq!(BulletFormat::result(b), r.result().value(), "{at}");
        // bullet's text parser on Augur's line gives the same record.
        let parsed: ChessBoard = r.to_text().parse().unwrap();
        let mut ours = *b;
        ours.extra = [0; 3];
        assert_eq!(parsed, ours, "{at}");
        // Every record is a legal position of the engine's.
        r.to_position().unwrap();
    }
    augur.len()
}

#[test]
fn datagen_files_read_the_same_with_bullets_own_crate() {
    let dir = scratch("bulletformat", "datagen");
    let out = dir.join("games.bin");
    let o = Command::new(env!("CARGO_BIN_EXE_augur-lab"))
        .args(["datagen", "--games", "6", "--nodes", "150", "--seed", "5"])
        .args(["--threads", "2", "--hash", "1", "--quiet", "--out"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let n = assert_same(&out);
    assert!(n > 100, "{n} records");
    // Both sides to move occur, and all three results.
    let records = augur_records(&out);
    assert!(records
        .iter()
        .any(|r| r.side_to_move() == cozy_chess::Color::Black));
    assert!(records
        .iter()
        .any(|r| r.side_to_move() == cozy_chess::Color::White));
}

#[test]
fn hand_made_positions_read_the_same_with_bullets_own_crate() {
    let dir = scratch("bulletformat", "hand");
    let path = dir.join("hand.bin");
    let cases = [
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            35,
            Outcome::Win,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 3 2",
            -120,
            Outcome::Loss,
        ),
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            20,
            Outcome::Draw,
        ),
        ("8/2P1k3/8/8/8/8/1p2K3/8 b - - 0 60", -7, Outcome::Draw),
        ("8/8/4k3/8/3K4/3P4/8/8 w - - 12 80", 310, Outcome::Win),
    ];
    let mut w = RecordWriter::new(std::fs::File::create(&path).unwrap());
    for (fen, score, result) in cases {
        let pos = Position::from_fen(fen, false).unwrap();
        w.write(&Record::from_position(&pos, score, result))
            .unwrap();
    }
    w.flush().unwrap();
    drop(w);
    assert_eq!(assert_same(&path), cases.len());
    // White-view score and result as bullet's text format has them, for the black-to-move
    // case: bullet negates and flips them back into the side to move's view.
    let b = &bullet_boards(&path)[1];
    assert_eq!(
        (BulletFormat::score(b), BulletFormat::result(b)),
        (-120, 0.0)
    );
}
