//! Where each weight of the `default` evaluation sits in one flat table. The evaluation
//! names a weight by its flat index (`Sink::add`), the engine reads `WEIGHTS`, and the tuner
//! (`augur-lab tune`) works on the flat vector and writes it back as the named tables of
//! `weights.rs`, section by section, in the order of `SECTIONS`.

use super::weights;
use super::Score;

/// The shape of one named table of `weights.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `const NAME: Score`
    One,
    /// `const NAME: [Score; n]`
    List(usize),
    /// `const NAME: [[Score; cols]; rows]`
    Table(usize, usize),
}

impl Shape {
    pub const fn size(self) -> usize {
        match self {
            Shape::One => 1,
            Shape::List(n) => n,
            Shape::Table(r, c) => r * c,
        }
    }
}

/// One named table of weights and the flat index of its first entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    pub name: &'static str,
    /// What the table's entries are indexed by; written above it in `weights.rs`.
    pub doc: &'static str,
    pub start: usize,
    pub shape: Shape,
}

/// Largest number of safe squares a piece can reach: knight, bishop, rook, queen.
pub const MOBILITY_MAX: [usize; 4] = [8, 13, 14, 27];
/// Attack units on the enemy king zone are capped here (see `KING_ATTACK`).
pub const KING_ATTACK_MAX: usize = 40;
/// Pawns counted in a king's shield, capped here.
pub const SHIELD_MAX: usize = 3;

pub const MATERIAL: usize = 0;
pub const PSQ: usize = MATERIAL + 6;
pub const MOBILITY_KNIGHT: usize = PSQ + 6 * 64;
pub const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + MOBILITY_MAX[0] + 1;
pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + MOBILITY_MAX[1] + 1;
pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + MOBILITY_MAX[2] + 1;
pub const PASSED: usize = MOBILITY_QUEEN + MOBILITY_MAX[3] + 1;
pub const PASSED_FREE: usize = PASSED + 8;
pub const DOUBLED: usize = PASSED_FREE + 8;
pub const ISOLATED: usize = DOUBLED + 1;
pub const BISHOP_PAIR: usize = ISOLATED + 1;
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
pub const PAWN_SHIELD: usize = ROOK_SEMI_OPEN + 1;
pub const KING_ATTACK: usize = PAWN_SHIELD + SHIELD_MAX + 1;
pub const THREAT_BY_PAWN: usize = KING_ATTACK + KING_ATTACK_MAX + 1;
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 6;
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 6;
pub const HANGING: usize = THREAT_BY_ROOK + 6;
pub const CONNECTED: usize = HANGING + 1;
pub const PASSED_KING_OWN: usize = CONNECTED + 8;
pub const PASSED_KING_THEIR: usize = PASSED_KING_OWN + 8;
pub const KING_OPEN_FILES: usize = PASSED_KING_THEIR + 8;
pub const ROOK_SEVENTH: usize = KING_OPEN_FILES + 4;
pub const OUTPOST: usize = ROOK_SEVENTH + 1;
pub const SAFE_CHECK: usize = OUTPOST + 2;
pub const BACKWARD: usize = SAFE_CHECK + 4;
pub const PAWN_STORM: usize = BACKWARD + 1;
pub const BISHOP_PAWNS: usize = PAWN_STORM + 8;
pub const MINOR_BEHIND_PAWN: usize = BISHOP_PAWNS + 1;
pub const KING_WEAK: usize = MINOR_BEHIND_PAWN + 1;
pub const PUSH_THREAT: usize = KING_WEAK + 1;
pub const THREAT_BY_KING: usize = PUSH_THREAT + 1;
pub const KING_PAWN_DISTANCE: usize = THREAT_BY_KING + 1;
pub const SPACE: usize = KING_PAWN_DISTANCE + 8;
pub const TEMPO: usize = SPACE + 1;
/// Number of weights.
pub const COUNT: usize = TEMPO + 1;

/// [kingsafety] Whether the weight at flat index `index` is a king-safety term, one of those
/// the `KingSafety` option scales: the shelter (pawn shield, open files, pawn storm) and the
/// attack (king-zone attack units, safe checks, weak squares by the king), the family
/// Crafty's king-safety weight scaled when Jiang & Buro played MPC at 125% of it.
pub const fn is_king_safety(index: usize) -> bool {
    // The shield and the attack table are adjacent sections.
    (index >= PAWN_SHIELD && index < THREAT_BY_PAWN)
        || (index >= KING_OPEN_FILES && index < ROOK_SEVENTH)
        || (index >= SAFE_CHECK && index < BACKWARD)
        || (index >= PAWN_STORM && index < BISHOP_PAWNS)
        || index == KING_WEAK
}

/// Flat index of the first mobility weight of a knight, bishop, rook or queen.
pub const MOBILITY: [usize; 4] = [
    MOBILITY_KNIGHT,
    MOBILITY_BISHOP,
    MOBILITY_ROOK,
    MOBILITY_QUEEN,
];

pub const SECTIONS: [Section; 36] = [
    Section {
        name: "MATERIAL",
        doc: "Piece values: pawn, knight, bishop, rook, queen, king.",
        start: MATERIAL,
        shape: Shape::List(6),
    },
    Section {
        name: "PSQ",
        doc: "Piece-square tables per piece (pawn..king), square a1..h8 seen from the side's own \
              back rank (black's squares are mirrored), eight squares a line from rank 1.",
        start: PSQ,
        shape: Shape::Table(6, 64),
    },
    Section {
        name: "MOBILITY_KNIGHT",
        doc: "Knight by number of reachable squares not held by own pieces nor attacked by enemy pawns.",
        start: MOBILITY_KNIGHT,
        shape: Shape::List(MOBILITY_MAX[0] + 1),
    },
    Section {
        name: "MOBILITY_BISHOP",
        doc: "Bishop by number of safe reachable squares (as for the knight).",
        start: MOBILITY_BISHOP,
        shape: Shape::List(MOBILITY_MAX[1] + 1),
    },
    Section {
        name: "MOBILITY_ROOK",
        doc: "Rook by number of safe reachable squares.",
        start: MOBILITY_ROOK,
        shape: Shape::List(MOBILITY_MAX[2] + 1),
    },
    Section {
        name: "MOBILITY_QUEEN",
        doc: "Queen by number of safe reachable squares.",
        start: MOBILITY_QUEEN,
        shape: Shape::List(MOBILITY_MAX[3] + 1),
    },
    Section {
        name: "PASSED",
        doc: "Passed pawn by rank from its own side (rank 1 = index 0).",
        start: PASSED,
        shape: Shape::List(8),
    },
    Section {
        name: "PASSED_FREE",
        doc: "Passed pawn whose path to promotion is empty, added to PASSED, by rank.",
        start: PASSED_FREE,
        shape: Shape::List(8),
    },
    Section {
        name: "DOUBLED",
        doc: "Each pawn beyond the first on a file.",
        start: DOUBLED,
        shape: Shape::One,
    },
    Section {
        name: "ISOLATED",
        doc: "Each pawn with no own pawn on an adjacent file.",
        start: ISOLATED,
        shape: Shape::One,
    },
    Section {
        name: "BISHOP_PAIR",
        doc: "Two or more bishops.",
        start: BISHOP_PAIR,
        shape: Shape::One,
    },
    Section {
        name: "ROOK_OPEN",
        doc: "Rook on a file without pawns.",
        start: ROOK_OPEN,
        shape: Shape::One,
    },
    Section {
        name: "ROOK_SEMI_OPEN",
        doc: "Rook on a file with enemy pawns only.",
        start: ROOK_SEMI_OPEN,
        shape: Shape::One,
    },
    Section {
        name: "PAWN_SHIELD",
        doc: "King on its first two ranks, by own pawns in front of it on its and the adjacent \
              files within two ranks (capped at 3).",
        start: PAWN_SHIELD,
        shape: Shape::List(SHIELD_MAX + 1),
    },
    Section {
        name: "KING_ATTACK",
        doc: "Attack on the enemy king zone by two or more pieces, by attack units (sum over \
              attacked zone squares of N=2, B=2, R=3, Q=5 per attacker, capped at 40).",
        start: KING_ATTACK,
        shape: Shape::List(KING_ATTACK_MAX + 1),
    },
    Section {
        name: "THREAT_BY_PAWN",
        doc: "Enemy piece attacked by one of our pawns, by its type (pawn..king).",
        start: THREAT_BY_PAWN,
        shape: Shape::List(6),
    },
    Section {
        name: "THREAT_BY_MINOR",
        doc: "Enemy piece attacked by one of our knights or bishops, by its type (pawn..king).",
        start: THREAT_BY_MINOR,
        shape: Shape::List(6),
    },
    Section {
        name: "THREAT_BY_ROOK",
        doc: "Enemy piece attacked by one of our rooks, by its type (pawn..king).",
        start: THREAT_BY_ROOK,
        shape: Shape::List(6),
    },
    Section {
        name: "HANGING",
        doc: "Enemy knight, bishop, rook or queen that we attack and no enemy piece defends.",
        start: HANGING,
        shape: Shape::One,
    },
    Section {
        name: "CONNECTED",
        doc: "Pawn defended by an own pawn or beside one (phalanx), by rank from its own side.",
        start: CONNECTED,
        shape: Shape::List(8),
    },
    Section {
        name: "PASSED_KING_OWN",
        doc: "Passed pawn, by the distance (in king moves, capped at 7) of its own king to the \
              square in front of it.",
        start: PASSED_KING_OWN,
        shape: Shape::List(8),
    },
    Section {
        name: "PASSED_KING_THEIR",
        doc: "Passed pawn, by the distance (in king moves, capped at 7) of the enemy king to the \
              square in front of it.",
        start: PASSED_KING_THEIR,
        shape: Shape::List(8),
    },
    Section {
        name: "KING_OPEN_FILES",
        doc: "King, by how many of its own and the adjacent files hold none of its pawns.",
        start: KING_OPEN_FILES,
        shape: Shape::List(4),
    },
    Section {
        name: "ROOK_SEVENTH",
        doc: "Rook on the seventh rank from its own side.",
        start: ROOK_SEVENTH,
        shape: Shape::One,
    },
    Section {
        name: "OUTPOST",
        doc: "Knight, bishop on ranks 4 to 6 from its own side, defended by an own pawn and out \
              of reach of every enemy pawn.",
        start: OUTPOST,
        shape: Shape::List(2),
    },
    Section {
        name: "SAFE_CHECK",
        doc: "Squares from which a knight, bishop, rook, queen can check the enemy king, that \
              one of ours of that kind reaches and that no enemy piece or pawn defends.",
        start: SAFE_CHECK,
        shape: Shape::List(4),
    },
    Section {
        name: "BACKWARD",
        doc: "Pawn whose stop square an enemy pawn attacks and that no own pawn on an adjacent \
              file can support (none level with it or behind; isolated pawns excluded).",
        start: BACKWARD,
        shape: Shape::One,
    },
    Section {
        name: "PAWN_STORM",
        doc: "Per file of the king and its neighbours, the enemy pawn nearest the king's side \
              by its rank seen from the king's side (0: no enemy pawn on the file).",
        start: PAWN_STORM,
        shape: Shape::List(8),
    },
    Section {
        name: "BISHOP_PAWNS",
        doc: "Per bishop, each own pawn on squares of the bishop's colour.",
        start: BISHOP_PAWNS,
        shape: Shape::One,
    },
    Section {
        name: "MINOR_BEHIND_PAWN",
        doc: "Knight or bishop right behind a pawn (of either side) on its file.",
        start: MINOR_BEHIND_PAWN,
        shape: Shape::One,
    },
    Section {
        name: "KING_WEAK",
        doc: "Squares of the enemy king zone that we attack and that no enemy pawn, minor or \
              rook defends (only the king or queen, or nothing).",
        start: KING_WEAK,
        shape: Shape::One,
    },
    Section {
        name: "PUSH_THREAT",
        doc: "Enemy pieces (not pawns) that one of our pawns would attack after a single push to \
              an empty square no enemy pawn attacks.",
        start: PUSH_THREAT,
        shape: Shape::One,
    },
    Section {
        name: "THREAT_BY_KING",
        doc: "Enemy pieces and pawns our king attacks.",
        start: THREAT_BY_KING,
        shape: Shape::One,
    },
    Section {
        name: "KING_PAWN_DISTANCE",
        doc: "Distance (king moves, 0..7) from our king to the nearest pawn of either side; 0 \
              when there are no pawns.",
        start: KING_PAWN_DISTANCE,
        shape: Shape::List(8),
    },
    Section {
        name: "SPACE",
        doc: "Squares on files c to f, ranks 2 to 4 from our side, not held by our pawns nor \
              attacked by enemy pawns, that lie behind one of our pawns.",
        start: SPACE,
        shape: Shape::One,
    },
    Section {
        name: "TEMPO",
        doc: "Side to move; blended by phase on its own, after the other terms.",
        start: TEMPO,
        shape: Shape::One,
    },
];

/// Every weight in flat order, built at compile time from the tables of `weights.rs`.
pub static WEIGHTS: [Score; COUNT] = flatten();

const fn flatten() -> [Score; COUNT] {
    let mut w = [Score(0, 0); COUNT];
    w = put(w, MATERIAL, &weights::MATERIAL);
    let mut p = 0;
    while p < 6 {
        w = put(w, PSQ + 64 * p, &weights::PSQ[p]);
        p += 1;
    }
    w = put(w, MOBILITY_KNIGHT, &weights::MOBILITY_KNIGHT);
    w = put(w, MOBILITY_BISHOP, &weights::MOBILITY_BISHOP);
    w = put(w, MOBILITY_ROOK, &weights::MOBILITY_ROOK);
    w = put(w, MOBILITY_QUEEN, &weights::MOBILITY_QUEEN);
    w = put(w, PASSED, &weights::PASSED);
    w = put(w, PASSED_FREE, &weights::PASSED_FREE);
    w = put(w, DOUBLED, &[weights::DOUBLED]);
    w = put(w, ISOLATED, &[weights::ISOLATED]);
    w = put(w, BISHOP_PAIR, &[weights::BISHOP_PAIR]);
    w = put(w, ROOK_OPEN, &[weights::ROOK_OPEN]);
    w = put(w, ROOK_SEMI_OPEN, &[weights::ROOK_SEMI_OPEN]);
    w = put(w, PAWN_SHIELD, &weights::PAWN_SHIELD);
    w = put(w, KING_ATTACK, &weights::KING_ATTACK);
    w = put(w, THREAT_BY_PAWN, &weights::THREAT_BY_PAWN);
    w = put(w, THREAT_BY_MINOR, &weights::THREAT_BY_MINOR);
    w = put(w, THREAT_BY_ROOK, &weights::THREAT_BY_ROOK);
    w = put(w, HANGING, &[weights::HANGING]);
    w = put(w, CONNECTED, &weights::CONNECTED);
    w = put(w, PASSED_KING_OWN, &weights::PASSED_KING_OWN);
    w = put(w, PASSED_KING_THEIR, &weights::PASSED_KING_THEIR);
    w = put(w, KING_OPEN_FILES, &weights::KING_OPEN_FILES);
    w = put(w, ROOK_SEVENTH, &[weights::ROOK_SEVENTH]);
    w = put(w, OUTPOST, &weights::OUTPOST);
    w = put(w, SAFE_CHECK, &weights::SAFE_CHECK);
    w = put(w, BACKWARD, &[weights::BACKWARD]);
    w = put(w, PAWN_STORM, &weights::PAWN_STORM);
    w = put(w, BISHOP_PAWNS, &[weights::BISHOP_PAWNS]);
    w = put(w, MINOR_BEHIND_PAWN, &[weights::MINOR_BEHIND_PAWN]);
    w = put(w, KING_WEAK, &[weights::KING_WEAK]);
    w = put(w, PUSH_THREAT, &[weights::PUSH_THREAT]);
    w = put(w, THREAT_BY_KING, &[weights::THREAT_BY_KING]);
    w = put(w, KING_PAWN_DISTANCE, &weights::KING_PAWN_DISTANCE);
    w = put(w, SPACE, &[weights::SPACE]);
    w = put(w, TEMPO, &[weights::TEMPO]);
    w
}

const fn put(mut w: [Score; COUNT], at: usize, src: &[Score]) -> [Score; COUNT] {
    let mut i = 0;
    while i < src.len() {
        w[at + i] = src[i];
        i += 1;
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_tile_the_flat_table_in_order() {
        let mut next = 0;
        for s in SECTIONS {
            assert_eq!(s.start, next, "{} starts at {}", s.name, s.start);
            next += s.shape.size();
        }
        assert_eq!(next, COUNT);
    }
}
