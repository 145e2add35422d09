//! Network files (`EvalFile`): any bytes are read or refused with an error, never a panic.
//! Random bytes rarely pass the checksum, so the input is also laid out as a well-formed file
//! (header fields from the first bytes, weights from the rest, the checksum computed): every
//! later check of the reader is reached, and a network it accepts writes back to the same
//! bytes, evaluates a line of moves incrementally exactly as from scratch, and keeps its
//! evaluations inside the search's score range (below the mate scores).
#![no_main]

use augur::eval::nnue::network::{fnv1a64, MAGIC};
use augur::eval::nnue::{evaluate_board, KingBuckets, Network};
use augur::position::Position;
use augur::search::MATE_BOUND;
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

/// The weights after the header (and the version 3 map) for `hidden` neurons, `kings` king
/// buckets and one output bucket (docs/nnue.md).
fn weights_len(hidden: usize, kings: usize) -> usize {
    (kings * 768 * hidden + hidden + 2 * hidden) * 2 + 4
}

/// The plies played from the start position: enough for king moves, castling and captures.
const PLIES: usize = 24;

fn well_formed(data: &[u8]) -> Option<Vec<u8>> {
    let (head, rest) = data.split_at_checked(10)?;
    let hidden = 16 * (1 + (head[0] % 2) as usize);
    // Version 1, or version 3 with a named layout's map, or with a map from the input
    // (mostly refused: the map checks).
    let (version, map): (u16, Option<[u8; 64]>) = match head[9] % 4 {
        0 => (1, None),
        1 => (3, Some(*KingBuckets::layout("mirror4").ok()?.map())),
        2 => (3, Some(*KingBuckets::layout("mirror1").ok()?.map())),
        _ => (
            3,
            Some(std::array::from_fn(|i| {
                rest.get(i).copied().unwrap_or(0) % 5
            })),
        ),
    };
    let kings = map.map_or(1, |m| m.iter().copied().max().unwrap_or(0) as usize + 1);
    let mut file = Vec::new();
    file.extend_from_slice(MAGIC);
    file.extend_from_slice(&version.to_le_bytes());
    file.push(head[1] % 3); // 2: an unknown activation
    file.push(if version == 1 { 0 } else { 1 });
    file.extend_from_slice(&(hidden as u32).to_le_bytes());
    file.extend_from_slice(&head[2..8]); // QA, QB, output scale
    let kings_field = if version == 1 { 0u16 } else { kings as u16 };
    file.extend_from_slice(&kings_field.to_le_bytes());
    // The weights: the rest of the input over and over, scaled down by a shift so that both
    // small (realistic) and extreme weights occur.
    let shift = head[8] % 16;
    let mut payload: Vec<u8> = map.map_or(Vec::new(), |m| m.to_vec());
    payload.extend((0..weights_len(hidden, kings)).map(|i| {
        let b = rest.get(i % rest.len().max(1)).copied().unwrap_or(0);
        if i % 2 == 1 {
            ((b as i8) >> shift.min(7)) as u8
        } else {
            b
        }
    }));
    file.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
    file.extend_from_slice(&payload);
    Some(file)
}

fuzz_target!(|data: &[u8]| {
    let _ = Network::from_bytes(data);
    let Some(file) = well_formed(data) else {
        return;
    };
    let Ok(net) = Network::from_bytes(&file) else {
        return;
    };
    assert_eq!(
        net.to_bytes(),
        file,
        "an accepted network writes back to its bytes"
    );
    let net = Arc::new(net);
    let mut pos = Position::startpos();
    pos.attach_nnue(net.clone());
    for ply in 0..PLIES {
        let incremental = pos.nnue_eval().expect("a network is attached");
        let scratch = evaluate_board(&net, pos.board());
        assert_eq!(incremental, scratch, "ply {ply}");
        assert!(
            scratch.abs() < MATE_BOUND,
            "ply {ply}: evaluation {scratch} is a mate score"
        );
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let pick = data.get(10 + ply).copied().unwrap_or(0) as usize;
        pos.make(moves[pick % moves.len()]);
    }
});
