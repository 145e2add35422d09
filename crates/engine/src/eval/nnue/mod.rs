//! NNUE: an efficiently updatable neural network evaluation.
//!
//! [nnue] A perspective network, (768 → H) × 2 → 1: each side's accumulator sums one weight row
//! per piece (colour relative to the perspective × piece × square, mirrored vertically for
//! black), so a move changes only two to four rows. [nnue-kings] A version 3 network has K
//! blocks of those 768 rows, one per bucket of the perspective's own king square, mirrored
//! left to right when that king is on files e–h (`network` has the details). The side to move's accumulator and the
//! other's go through SCReLU (or CReLU) into one output. Trained by `augur-lab train` on Augur's
//! own self-play data; docs/nnue.md has the format, the commands and the measurements.
//!
//! - [`network`]: the quantised weights and the file format (`EvalFile`).
//! - [`accumulator`]: the per-ply accumulator stack the search pushes and pops.
//! - [`simd`]: AVX2 and scalar kernels with bit-identical results.

pub mod accumulator;
pub mod network;
pub mod simd;

pub use accumulator::{evaluate_board, AccumulatorCache, Delta, NnueState, Pieces};
pub use network::{Activation, KingBuckets, KingKey, Network, NetworkError, Quantisation};

use cozy_chess::{Color, Piece, Square};
use std::sync::{Arc, LazyLock};

/// The network compiled into the binary (docs/nnue.md says how it was trained).
pub const DEFAULT_NETWORK: &[u8] = include_bytes!("../../../nets/default.nnue");

/// The embedded network, parsed once; an engine evaluates with the network its settings hold
/// (`SearchConfig::network`), this one unless `EvalFile` names another.
pub fn default_network() -> Arc<Network> {
    static DEFAULT: LazyLock<Arc<Network>> = LazyLock::new(|| {
        Arc::new(Network::from_bytes(DEFAULT_NETWORK).expect("the embedded network is valid"))
    });
    DEFAULT.clone()
}

/// Inputs per perspective: 2 colours × 6 pieces × 64 squares.
pub const INPUTS: usize = 768;

/// The input index of a piece seen from `perspective`: own pieces first (0..384), then the
/// opponent's; squares mirrored vertically for black, so both sides see their own pieces
/// "from the bottom" and share one weight matrix.
#[inline]
pub fn feature(perspective: Color, color: Color, piece: Piece, sq: Square) -> usize {
    let (side, sq) = if perspective == Color::White {
        (color as usize, sq as usize)
    } else {
        (1 - color as usize, sq as usize ^ 56)
    };
    side * 384 + piece as usize * 64 + sq
}

/// White's feature index to black's: swap the colour half and mirror the square.
#[inline]
pub fn flip_feature(f: usize) -> usize {
    let f = f ^ 56;
    if f >= 384 {
        f - 384
    } else {
        f + 384
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    use super::*;

    /// SplitMix64, for reproducible random tests.
    pub struct Rng(pub u64);
    impl Rng {
        pub fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
            lo + (self.next() % (hi - lo + 1) as u64) as i32
        }
    }

    /// A network with weights of the sizes a trained one has.
    pub fn random_network(rng: &mut Rng, hidden: usize, activation: Activation) -> Network {
        random_bucketed_network(rng, hidden, activation, 1)
    }

    /// The same with `buckets` output buckets.
    pub fn random_bucketed_network(
        rng: &mut Rng,
        hidden: usize,
        activation: Activation,
        buckets: usize,
    ) -> Network {
        random_king_network(rng, hidden, activation, buckets, KingBuckets::NONE)
    }

    /// The same with king buckets.
    pub fn random_king_network(
        rng: &mut Rng,
        hidden: usize,
        activation: Activation,
        buckets: usize,
        kings: KingBuckets,
    ) -> Network {
        let ft: Vec<i16> = (0..kings.count() * INPUTS * hidden)
            .map(|_| rng.range(-200, 200) as i16)
            .collect();
        let bias: Vec<i16> = (0..hidden).map(|_| rng.range(-100, 300) as i16).collect();
        let out: Vec<i16> = (0..buckets * 2 * hidden)
            .map(|_| rng.range(-127, 127) as i16)
            .collect();
        let out_bias = (0..buckets).map(|_| rng.range(-5000, 5000)).collect();
        Network::from_parts_kings(
            kings,
            activation,
            Quantisation::STANDARD,
            ft,
            bias,
            out,
            out_bias,
        )
        .expect("valid random network")
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{random_network, Rng};
    use super::*;

    #[test]
    fn the_embedded_network_loads() {
        let net = default_network();
        assert_eq!(net.to_bytes(), DEFAULT_NETWORK);
        let b = cozy_chess::Board::default();
        // The start position is about level for a trained network.
        assert!(evaluate_board(&net, &b).abs() < 100);
    }

    #[test]
    fn feature_indices_mirror_between_perspectives() {
        let mut seen = [false; INPUTS];
        for c in [Color::White, Color::Black] {
            for p in Piece::ALL {
                for sq in Square::ALL {
                    let w = feature(Color::White, c, p, sq);
                    let b = feature(Color::Black, c, p, sq);
                    assert_eq!(flip_feature(w), b);
                    assert_eq!(flip_feature(b), w);
                    assert!(!seen[w]);
                    seen[w] = true;
                }
            }
        }
        // White's pawn on e2 seen by white is black's pawn on e7 seen by black.
        assert_eq!(
            feature(Color::White, Color::White, Piece::Pawn, Square::E2),
            feature(Color::Black, Color::Black, Piece::Pawn, Square::E7)
        );
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        let mut rng = Rng(11);
        let kings = KingBuckets::layout("mirror8").unwrap();
        for net in [
            random_network(&mut rng, 32, Activation::SCReLU),
            test_support::random_king_network(&mut rng, 32, Activation::SCReLU, 8, kings),
        ] {
            let a: cozy_chess::Board =
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
                    .parse()
                    .unwrap();
            let b: cozy_chess::Board =
                "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3"
                    .parse()
                    .unwrap();
            assert_eq!(evaluate_board(&net, &a), evaluate_board(&net, &b));
        }
    }

    #[test]
    fn files_round_trip_and_bad_files_are_refused() {
        let mut rng = Rng(5);
        let net = random_network(&mut rng, 16, Activation::SCReLU);
        let bytes = net.to_bytes();
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.checksum(), net.checksum());

        let err = |b: &[u8]| Network::from_bytes(b).unwrap_err();
        assert!(matches!(err(&bytes[..10]), NetworkError::TooShort(10)));
        // A folder (like a pipe or a device) is refused before any read.
        assert!(matches!(
            Network::load(&std::env::temp_dir()),
            Err(NetworkError::NotAFile(_))
        ));
        // A pipe with no writer is refused at once (opening it would block).
        #[cfg(unix)]
        {
            let fifo = std::env::temp_dir().join(format!("augur-fifo-{}", std::process::id()));
            let _ = std::fs::remove_file(&fifo);
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                assert!(matches!(
                    Network::load(&fifo),
                    Err(NetworkError::NotAFile(_))
                ));
                let _ = std::fs::remove_file(&fifo);
            }
        }
        assert!(matches!(
            err(&bytes[..bytes.len() - 1]),
            NetworkError::Length { .. }
        ));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(err(&longer), NetworkError::Length { .. }));
        let mut b = bytes.clone();
        b[0] = b'X';
        assert!(matches!(err(&b), NetworkError::BadMagic));
        let mut b = bytes.clone();
        b[8] = 9;
        assert!(matches!(err(&b), NetworkError::Version(9)));
        let mut b = bytes.clone();
        b[10] = 7;
        assert!(matches!(err(&b), NetworkError::Activation(7)));
        let mut b = bytes.clone();
        b[12] = 17;
        assert!(matches!(err(&b), NetworkError::Hidden(17)));
        let mut b = bytes.clone();
        b[16] = 0;
        b[17] = 1; // QA 256
        assert!(matches!(err(&b), NetworkError::Quantisation { .. }));
        let mut b = bytes.clone();
        let last = b.len() - 7;
        b[last] ^= 1;
        assert!(matches!(err(&b), NetworkError::Checksum { .. }));
        let msg = err(&bytes[..100]).to_string();
        assert!(msg.contains("truncated"), "{msg}");

        // An output weight whose product with QA overflows int16 is refused.
        let mut out = vec![0i16; 32];
        out[3] = 200;
        let r = Network::from_parts(
            Activation::SCReLU,
            Quantisation::STANDARD,
            vec![0; INPUTS * 16],
            vec![0; 16],
            out,
            vec![0],
        );
        assert!(matches!(
            r,
            Err(NetworkError::OutputWeight { index: 3, .. })
        ));
    }

    /// [nnue-buckets] A bucketed network is a version 2 file with B in byte 11 and reads back
    /// the same; a one-bucket network is still written as version 1; a version 2 file with
    /// fewer than 2 or more than 8 buckets, or the wrong length for its B, is refused.
    #[test]
    fn bucketed_files_round_trip_and_bad_bucket_counts_are_refused() {
        let mut rng = Rng(11);
        let net = test_support::random_bucketed_network(&mut rng, 16, Activation::SCReLU, 8);
        let bytes = net.to_bytes();
        assert_eq!((bytes[8], bytes[11]), (2, 8));
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!((back.buckets(), back.to_bytes()), (8, bytes.clone()));
        let one = random_network(&mut rng, 16, Activation::SCReLU).to_bytes();
        assert_eq!((one[8], one[11]), (1, 0));
        for bad in [0u8, 1, 9] {
            let mut b = bytes.clone();
            b[11] = bad;
            assert!(matches!(
                Network::from_bytes(&b),
                Err(NetworkError::Buckets(n)) if n == bad as usize
            ));
        }
        let mut b = bytes.clone();
        b[11] = 4;
        assert!(matches!(
            Network::from_bytes(&b),
            Err(NetworkError::Length { buckets: 4, .. })
        ));
        let mut b = one.clone();
        b[11] = 8;
        assert!(matches!(
            Network::from_bytes(&b),
            Err(NetworkError::Reserved)
        ));
    }

    /// [nnue-kings] Version 3 files: K in bytes 22-23, the map after the header; they read
    /// back the same, and every bad map, count or length is an error, not a panic.
    #[test]
    fn king_bucketed_files_round_trip_and_bad_maps_are_refused() {
        use network::{HEADER_LEN, KING_MAP_LEN};
        let mut rng = Rng(67);
        for (name, k) in [
            ("mirror1", 1),
            ("mirror4", 4),
            ("mirror8", 8),
            ("mirror16", 16),
        ] {
            let kings = KingBuckets::layout(name).unwrap();
            assert_eq!((kings.count(), kings.name()), (k, Some(name)));
            for buckets in [1, 8] {
                let net = test_support::random_king_network(
                    &mut rng,
                    16,
                    Activation::SCReLU,
                    buckets,
                    kings,
                );
                let bytes = net.to_bytes();
                assert_eq!(
                    (bytes[8], bytes[11], bytes[22], bytes[23]),
                    (3, buckets as u8, k as u8, 0)
                );
                assert_eq!(&bytes[HEADER_LEN..HEADER_LEN + KING_MAP_LEN], kings.map());
                let back = Network::from_bytes(&bytes).unwrap();
                assert_eq!(back, net);
                assert_eq!(back.to_bytes(), bytes);
                assert!(back.describe().contains(&format!("kings={name}")));
            }
        }
        assert!(KingBuckets::layout("none").unwrap().name() == Some("none"));
        assert!(matches!(
            KingBuckets::layout("mirror5"),
            Err(NetworkError::KingLayout(_))
        ));

        let kings = KingBuckets::layout("mirror4").unwrap();
        let net = test_support::random_king_network(&mut rng, 16, Activation::SCReLU, 2, kings);
        let bytes = net.to_bytes();
        // Edits of the map or header, the checksum recomputed so that the check under test is
        // the one that fails.
        let edit = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = bytes.clone();
            f(&mut b);
            let sum = network::fnv1a64(&b[HEADER_LEN..]);
            b[24..32].copy_from_slice(&sum.to_le_bytes());
            Network::from_bytes(&b)
        };
        let map = HEADER_LEN;
        assert!(matches!(
            edit(&|b| b[map + 9] = 4),
            Err(NetworkError::KingBucketRange {
                square: 9,
                bucket: 4,
                count: 4
            })
        ));
        // b2 and g2 disagree.
        assert!(matches!(
            edit(&|b| b[map + 9] = 3),
            Err(NetworkError::KingBucketAsymmetric { .. })
        ));
        // Bucket 1 (c1, d1, e1, f1) made 0: four buckets declared, three used.
        assert!(matches!(
            edit(&|b| for sq in 2..6 {
                b[map + sq] = 0
            }),
            Err(NetworkError::KingBucketUnused(1))
        ));
        for bad in [0u8, 17] {
            assert!(matches!(
                edit(&|b| b[22] = bad),
                Err(NetworkError::KingBuckets(n)) if n == bad as usize
            ));
        }
        // K 8 with the weights of 4: the length check, not a slice out of range.
        assert!(matches!(
            edit(&|b| b[22] = 8),
            Err(NetworkError::Length {
                king_buckets: 8,
                ..
            })
        ));
        assert!(matches!(
            edit(&|b| b[11] = 0),
            Err(NetworkError::Buckets(0))
        ));
        assert!(matches!(
            edit(&|b| b[11] = 9),
            Err(NetworkError::Buckets(9))
        ));
        let mut short = bytes.clone();
        short.truncate(HEADER_LEN + 40);
        assert!(matches!(
            Network::from_bytes(&short),
            Err(NetworkError::Length { .. })
        ));
        // A corrupt map byte without a new checksum is a checksum error.
        let mut b = bytes.clone();
        b[map + 20] ^= 1;
        assert!(matches!(
            Network::from_bytes(&b),
            Err(NetworkError::Checksum { .. })
        ));
        // Hand-made maps: asymmetric refused, symmetric accepted with its own count.
        let mut m = [0u8; 64];
        m[0] = 1;
        assert!(matches!(
            KingBuckets::mirrored(m),
            Err(NetworkError::KingBucketAsymmetric {
                square: 0,
                mirror: 7,
                ..
            })
        ));
        m[7] = 1;
        assert_eq!(KingBuckets::mirrored(m).unwrap().count(), 2);
    }

    /// [nnue-kings] A perspective's inputs follow its own king: with the king on e1 (files
    /// e–h) every square is mirrored, on d1 none is, and the bucket is the map's.
    #[test]
    fn king_bucket_inputs_mirror_with_the_king() {
        let kings = KingBuckets::layout("mirror8").unwrap();
        let mut rng = Rng(3);
        let net = test_support::random_king_network(&mut rng, 16, Activation::SCReLU, 1, kings);
        let (w, b) = (Color::White, Color::Black);
        // d1 is bucket 3 unmirrored, e1 the same bucket mirrored: a pawn on a2 reads the
        // row of a pawn on h2.
        let d1 = net.input(w, Square::D1, w, Piece::Pawn, Square::A2);
        let e1 = net.input(w, Square::E1, w, Piece::Pawn, Square::H2);
        assert_eq!(d1, e1);
        assert_eq!(d1, 3 * INPUTS + feature(w, w, Piece::Pawn, Square::A2));
        // Black's king on e8 is its e1.
        assert_eq!(net.input(b, Square::E8, b, Piece::Pawn, Square::H7), e1);
        // A king on rank 5 is in bucket 7.
        assert_eq!(
            net.input(w, Square::B5, b, Piece::Queen, Square::C3),
            7 * INPUTS + feature(w, b, Piece::Queen, Square::C3)
        );
        // Positions mirror images of each other evaluate alike, and so do the colour flips.
        let pairs = [
            (
                "4k3/8/8/3p4/8/2N5/PP6/3K4 w - - 0 1",
                "3k4/8/8/4p3/8/5N2/6PP/4K3 w - - 0 1",
            ),
            (
                "r3k3/8/8/8/8/8/8/4K2R b - - 0 1",
                "3k3r/8/8/8/8/8/8/R2K4 b - - 0 1",
            ),
        ];
        for (a, m) in pairs {
            let (a, m): (cozy_chess::Board, cozy_chess::Board) =
                (a.parse().unwrap(), m.parse().unwrap());
            assert_eq!(evaluate_board(&net, &a), evaluate_board(&net, &m), "{a}");
        }
    }

    /// [nnue-buckets] The bucket follows the number of pieces: 2..=32 pieces cover every
    /// bucket in order, and the evaluation uses that bucket's output layer.
    #[test]
    fn the_output_bucket_follows_the_piece_count() {
        for buckets in 1..=network::MAX_BUCKETS {
            let seen: Vec<usize> = (2..=32).map(|n| network::bucket_of(n, buckets)).collect();
            assert_eq!(seen[0], 0);
            assert_eq!(seen[30], buckets - 1);
            assert!(seen.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        }
        assert_eq!(network::bucket_of(0, 8), 0);
        assert_eq!(network::bucket_of(40, 8), 7);
        // Zero weights: the output is bucket i's bias alone, 1000·(i + 1) · 400 / (255 · 64).
        let q = Quantisation::STANDARD;
        let net = Network::from_parts(
            Activation::SCReLU,
            q,
            vec![0; INPUTS * 16],
            vec![0; 16],
            vec![0; 8 * 32],
            (0..8).map(|i| 1000 * (i + 1)).collect(),
        )
        .unwrap();
        let start = cozy_chess::Board::default().to_string();
        for (fen, pieces) in [
            (start.as_str(), 32),
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 3),
            ("r3k3/pppp4/8/8/8/8/PPPP4/R3K3 b - - 0 1", 12),
        ] {
            let b: cozy_chess::Board = fen.parse().unwrap();
            let bias = 1000 * (network::bucket_of(pieces, 8) as i32 + 1);
            let want = bias * q.scale as i32 / (q.qa as i32 * q.qb as i32);
            assert_eq!(evaluate_board(&net, &b), want, "{fen}");
        }
    }

    /// Found by the `network` fuzz target: a file any reader accepts (CReLU, H=32, standard
    /// quantisation) evaluated the start position at -405701 cp, beyond the mate scores
    /// and the transposition table's 16 bits.
    #[test]
    fn a_network_cannot_evaluate_beyond_the_mate_scores() {
        use crate::search::MATE_BOUND;
        const { assert!(network::MAX_OUTPUT < MATE_BOUND) };
        for (bias, weight) in [(i32::MAX, 0), (i32::MIN, 0), (0, i16::MAX), (0, i16::MIN)] {
            for activation in [Activation::CReLU, Activation::SCReLU] {
                let weight = if activation == Activation::SCReLU {
                    weight / 256
                } else {
                    weight
                };
                let net = Network::from_parts(
                    activation,
                    Quantisation {
                        qa: 255,
                        qb: 1,
                        scale: 10000,
                    },
                    vec![i16::MAX / 32; INPUTS * 16],
                    vec![0; 16],
                    vec![weight; 32],
                    vec![bias],
                )
                .unwrap();
                let v = evaluate_board(&net, &cozy_chess::Board::default());
                assert!(
                    v.abs() <= network::MAX_OUTPUT,
                    "{activation:?} {bias} {weight}: {v}"
                );
            }
        }
    }
}
