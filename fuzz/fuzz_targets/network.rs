//! Network files (`EvalFile`): any bytes are read or refused with an error, never a panic.
//! Random bytes rarely pass the checksum, so the input is also laid out as a well-formed file
//! (header fields from the first bytes, weights from the rest, the checksum computed): every
//! later check of the reader is reached, and a network it accepts writes back to the same
//! bytes, evaluates a line of moves incrementally exactly as from scratch, and keeps its
//! evaluations inside the search's score range (below the mate scores).
#![no_main]

use augur::eval::nnue::network::{fnv1a64, HEADER_LEN, MAGIC, VERSION};
use augur::eval::nnue::{evaluate_board, Network};
use augur::position::Position;
use augur::search::MATE_BOUND;
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

/// The part after the header for `hidden` neurons (docs/nnue.md).
fn payload_len(hidden: usize) -> usize {
    (768 * hidden + hidden + 2 * hidden) * 2 + 4
}

fn well_formed(data: &[u8]) -> Option<Vec<u8>> {
    let (head, rest) = data.split_at_checked(9)?;
    let hidden = 16 * (1 + (head[0] % 2) as usize);
    let mut file = Vec::with_capacity(HEADER_LEN + payload_len(hidden));
    file.extend_from_slice(MAGIC);
    file.extend_from_slice(&VERSION.to_le_bytes());
    file.push(head[1] % 3); // 2: an unknown activation
    file.push(0);
    file.extend_from_slice(&(hidden as u32).to_le_bytes());
    file.extend_from_slice(&head[2..8]); // QA, QB, output scale
    file.extend_from_slice(&[0, 0]);
    // The weights: the rest of the input over and over, scaled down by a shift so that both
    // small (realistic) and extreme weights occur.
    let shift = head[8] % 16;
    let payload: Vec<u8> = (0..payload_len(hidden))
        .map(|i| {
            let b = rest.get(i % rest.len().max(1)).copied().unwrap_or(0);
            if i % 2 == 1 {
                ((b as i8) >> shift.min(7)) as u8
            } else {
                b
            }
        })
        .collect();
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
    assert_eq!(net.to_bytes(), file, "an accepted network writes back to its bytes");
    let net = Arc::new(net);
    let mut pos = Position::startpos();
    pos.attach_nnue(net.clone());
    for ply in 0..12 {
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
        let pick = data.get(9 + ply).copied().unwrap_or(0) as usize;
        pos.make(moves[pick % moves.len()]);
    }
});
