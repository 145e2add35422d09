//! The quantised network and its file format (docs/nnue.md has the same table).
//!
//! All numbers little-endian. A 32-byte header, then the payload:
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `AUGURNNU` |
//! | 8 | 2 | format version, 1, 2 or 3 |
//! | 10 | 1 | activation: 0 CReLU, 1 SCReLU |
//! | 11 | 1 | version 1: reserved, 0; version 2: output buckets B (2..=8); version 3: B (1..=8) |
//! | 12 | 4 | H, hidden neurons per perspective (a multiple of 16, 16..=4096) |
//! | 16 | 2 | QA, accumulator scale (1..=255) |
//! | 18 | 2 | QB, output weight scale (1..=1024) |
//! | 20 | 2 | output scale: centipawns per unit of network output (1..=10000) |
//! | 22 | 2 | versions 1 and 2: reserved, 0; version 3: king buckets K (1..=16) |
//! | 24 | 8 | checksum: FNV-1a 64 of the payload (everything after the header) |
//! | 32 | 64 | version 3 only: the king-bucket map, one byte (< K) per king square a1..h8 |
//! | … | K·768·H·2 | feature weights, int16, feature-major (row f holds H weights); K = 1 before version 3 |
//! | … | H·2 | feature biases, int16 |
//! | … | B·2·H·2 | output weights, int16, per bucket: H for the side to move, then H for the other side |
//! | … | B·4 | output biases, int32 (scale QA·QB), one per bucket |
//!
//! A version 1 file has one output (B = 1); a network with B = 1 is always written as version 1.
//! The file is exactly that long; anything else is an error.
//!
//! [nnue-kings] Version 3 has king buckets, always horizontally mirrored: each perspective
//! looks up its own king's square (seen from its side, so a8..h8 for black's king on its home
//! rank is row 1) in the map, and uses that bucket's 768 rows; when that king stands on files
//! e–h every square of that perspective is mirrored left to right (`sq ^ 7`), so the weights
//! only ever see the king on files a–d. The map must therefore give a square and its mirror the
//! same bucket, and use every bucket below K. Feature row of a piece for a perspective:
//! `bucket · 768 + side · 384 + piece · 64 + (square ^ 56 for black) ^ (7 if mirrored)`.
//! A network without king buckets is written as version 1 or 2 as before.

use super::simd::Kernel;
use super::{feature, INPUTS};
use cozy_chess::{Color, Piece, Square};
use std::path::Path;
use thiserror::Error;

pub const MAGIC: &[u8; 8] = b"AUGURNNU";
/// The newest format version (3: king buckets); versions 1 and 2 still load.
pub const VERSION: u16 = 3;
/// Most output buckets a file may have.
pub const MAX_BUCKETS: usize = 8;
/// Most king buckets a version 3 file may have.
pub const MAX_KING_BUCKETS: usize = 16;
/// Bytes of the version 3 king-bucket map.
pub const KING_MAP_LEN: usize = 64;
pub const HEADER_LEN: usize = 32;
pub const MAX_HIDDEN: usize = 4096;
/// Above the largest file the format allows (16 king buckets × 768 inputs × 4096 int16
/// weights, about 100 MB, plus the output layer): anything larger is not a network.
pub const MAX_FILE_BYTES: u64 = 128 << 20;
/// The largest evaluation a network gives, centipawns. A file's weights and scales can put
/// the raw output anywhere in 64 bits (the `network` fuzz target found -405701 cp from an
/// ordinary header); the search needs evaluations below its mate scores (`MATE_BOUND`) and
/// within the table's 16 bits.
pub const MAX_OUTPUT: i32 = 30_000;

#[derive(Debug, Error)]
pub enum NetworkError {
    #[error("cannot read network file '{path}': {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("'{0}' is not a regular file")]
    NotAFile(String),
    #[error("not an Augur network: {0} bytes, more than the largest network file ({MAX_FILE_BYTES} bytes)")]
    TooLarge(u64),
    #[error("not an Augur network: the file is {0} bytes, shorter than the 32-byte header")]
    TooShort(usize),
    #[error("not an Augur network: bad magic (expected AUGURNNU)")]
    BadMagic,
    #[error(
        "network format version {0} is not supported (this engine reads versions 1 to {VERSION})"
    )]
    Version(u16),
    #[error("{0} king buckets: a version 3 file has 1 to {MAX_KING_BUCKETS}")]
    KingBuckets(usize),
    #[error("king-bucket map: square {square} has bucket {bucket}, but the file has {count} king bucket(s)")]
    KingBucketRange {
        square: usize,
        bucket: u8,
        count: usize,
    },
    #[error("king-bucket map: squares {square} and {mirror} have buckets {a} and {b}, but a mirrored map gives a square and its mirror image the same bucket")]
    KingBucketAsymmetric {
        square: usize,
        mirror: usize,
        a: u8,
        b: u8,
    },
    #[error("king-bucket map: bucket {0} is used by no square")]
    KingBucketUnused(usize),
    #[error("unknown king-bucket layout '{0}' (known: {known})", known = KingBuckets::LAYOUTS.join(", "))]
    KingLayout(String),
    #[error("unknown activation code {0} (0 CReLU, 1 SCReLU)")]
    Activation(u8),
    #[error("reserved header bytes are not zero")]
    Reserved,
    #[error("{0} output buckets: a version 2 file has 2 to {MAX_BUCKETS}")]
    Buckets(usize),
    #[error("hidden size {0} is not a multiple of 16 from 16 to {MAX_HIDDEN}")]
    Hidden(u32),
    #[error("bad quantisation: QA {qa} (1..=255), QB {qb} (1..=1024), scale {scale} (1..=10000)")]
    Quantisation { qa: u16, qb: u16, scale: u16 },
    #[error("network file is {actual} bytes, but a network with H={hidden}, {king_buckets} king bucket(s) and {buckets} output bucket(s) needs {expected} (truncated or padded)")]
    Length {
        hidden: usize,
        king_buckets: usize,
        buckets: usize,
        expected: usize,
        actual: usize,
    },
    #[error("checksum mismatch: header says {expected:016x}, payload gives {actual:016x} (corrupt file)")]
    Checksum { expected: u64, actual: u64 },
    #[error(
        "output weight {weight} at {index} times QA {qa} overflows int16 in the SCReLU kernel"
    )]
    OutputWeight { index: usize, weight: i16, qa: u16 },
    #[error("{what} has {actual} values, expected {expected}")]
    Shape {
        what: &'static str,
        expected: usize,
        actual: usize,
    },
}

/// [nnue-kings] How a perspective's own king square chooses its block of 768 feature rows, and
/// whether the perspective is mirrored left to right when that king is on files e–h.
/// [`KingBuckets::NONE`] is the network of versions 1 and 2: one block, never mirrored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingBuckets {
    map: [u8; KING_MAP_LEN],
    count: usize,
    mirrored: bool,
}

/// Which block and which mirror one perspective uses for one king square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KingKey {
    pub bucket: u8,
    pub mirror: bool,
}

impl KingKey {
    /// The weight row of a perspective's 768-input feature (see [`super::feature`]).
    #[inline]
    pub fn input(self, feature: usize) -> usize {
        self.bucket as usize * INPUTS + (feature ^ if self.mirror { 7 } else { 0 })
    }

    /// A dense number for this key, below `2 · K`: the accumulator cache's slot.
    #[inline]
    pub fn slot(self) -> usize {
        self.bucket as usize * 2 + self.mirror as usize
    }
}

/// The named layouts, written for the king on files a–d (the mirror gives e–h), rank 1 first
/// from the perspective's own side.
const fn half(rows: [[u8; 4]; 8]) -> [u8; KING_MAP_LEN] {
    let mut map = [0u8; KING_MAP_LEN];
    let mut sq = 0;
    while sq < KING_MAP_LEN {
        let file = sq % 8;
        let file = if file < 4 { file } else { 7 - file };
        map[sq] = rows[sq / 8][file];
        sq += 1;
    }
    map
}

const MIRROR4: [[u8; 4]; 8] = [
    [0, 0, 1, 1],
    [2, 2, 2, 2],
    [3, 3, 3, 3],
    [3, 3, 3, 3],
    [3, 3, 3, 3],
    [3, 3, 3, 3],
    [3, 3, 3, 3],
    [3, 3, 3, 3],
];
const MIRROR8: [[u8; 4]; 8] = [
    [0, 1, 2, 3],
    [4, 4, 5, 5],
    [6, 6, 6, 6],
    [6, 6, 6, 6],
    [7, 7, 7, 7],
    [7, 7, 7, 7],
    [7, 7, 7, 7],
    [7, 7, 7, 7],
];
const MIRROR16: [[u8; 4]; 8] = [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
    [8, 8, 9, 9],
    [10, 10, 11, 11],
    [12, 12, 13, 13],
    [12, 12, 13, 13],
    [14, 14, 15, 15],
    [14, 14, 15, 15],
];

impl KingBuckets {
    /// No king buckets (versions 1 and 2).
    pub const NONE: KingBuckets = KingBuckets {
        map: [0; KING_MAP_LEN],
        count: 1,
        mirrored: false,
    };

    /// The layouts [`KingBuckets::layout`] knows, by name: `none` (no king buckets, no
    /// mirror), `mirror1` (mirror only), then 4, 8 and 16 buckets that split the squares a
    /// king stands on in the opening and middlegame finely and the rest coarsely.
    pub const LAYOUTS: &'static [&'static str] =
        &["none", "mirror1", "mirror4", "mirror8", "mirror16"];

    /// A named layout.
    pub fn layout(name: &str) -> Result<KingBuckets, NetworkError> {
        let rows = match name {
            "none" => return Ok(KingBuckets::NONE),
            "mirror1" => [[0; 4]; 8],
            "mirror4" => MIRROR4,
            "mirror8" => MIRROR8,
            "mirror16" => MIRROR16,
            _ => return Err(NetworkError::KingLayout(name.to_string())),
        };
        KingBuckets::mirrored(half(rows))
    }

    /// The name of this layout, if it is one of [`KingBuckets::LAYOUTS`].
    pub fn name(&self) -> Option<&'static str> {
        KingBuckets::LAYOUTS
            .iter()
            .copied()
            .find(|n| KingBuckets::layout(n).ok().as_ref() == Some(self))
    }

    /// A mirrored map as a version 3 file holds it: every value below the number of buckets
    /// (one more than the largest), every bucket used, a square and its mirror alike.
    pub fn mirrored(map: [u8; KING_MAP_LEN]) -> Result<KingBuckets, NetworkError> {
        let count = map.iter().copied().max().unwrap_or(0) as usize + 1;
        KingBuckets::checked(map, count)
    }

    /// [`KingBuckets::mirrored`] with the bucket count a file declares.
    pub fn checked(map: [u8; KING_MAP_LEN], count: usize) -> Result<KingBuckets, NetworkError> {
        if !(1..=MAX_KING_BUCKETS).contains(&count) {
            return Err(NetworkError::KingBuckets(count));
        }
        for (square, &bucket) in map.iter().enumerate() {
            if bucket as usize >= count {
                return Err(NetworkError::KingBucketRange {
                    square,
                    bucket,
                    count,
                });
            }
            let mirror = square ^ 7;
            if map[mirror] != bucket {
                return Err(NetworkError::KingBucketAsymmetric {
                    square,
                    mirror,
                    a: bucket,
                    b: map[mirror],
                });
            }
        }
        if let Some(unused) = (0..count).find(|&b| !map.contains(&(b as u8))) {
            return Err(NetworkError::KingBucketUnused(unused));
        }
        Ok(KingBuckets {
            map,
            count,
            mirrored: true,
        })
    }

    /// Number of buckets, K.
    pub fn count(&self) -> usize {
        self.count
    }

    pub fn is_mirrored(&self) -> bool {
        self.mirrored
    }

    /// The map, one bucket per king square seen from its own side (a1..h8).
    pub fn map(&self) -> &[u8; KING_MAP_LEN] {
        &self.map
    }

    /// The key of `perspective` with its own king on `king`.
    #[inline]
    pub fn key(&self, perspective: Color, king: Square) -> KingKey {
        let rel = king as usize ^ if perspective == Color::White { 0 } else { 56 };
        KingKey {
            bucket: self.map[rel],
            mirror: self.mirrored && rel & 7 >= 4,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// clamp(x, 0, QA)
    CReLU,
    /// clamp(x, 0, QA)², divided by QA once after the sum
    SCReLU,
}

impl Activation {
    pub fn code(self) -> u8 {
        match self {
            Activation::CReLU => 0,
            Activation::SCReLU => 1,
        }
    }

    pub fn from_code(code: u8) -> Result<Self, NetworkError> {
        match code {
            0 => Ok(Activation::CReLU),
            1 => Ok(Activation::SCReLU),
            c => Err(NetworkError::Activation(c)),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Activation::CReLU => "crelu",
            Activation::SCReLU => "screlu",
        }
    }
}

/// The quantisation constants a network file declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quantisation {
    pub qa: u16,
    pub qb: u16,
    pub scale: u16,
}

impl Quantisation {
    /// What Augur's trainer writes: QA 255, QB 64, 400 cp per unit of output.
    pub const STANDARD: Quantisation = Quantisation {
        qa: 255,
        qb: 64,
        scale: 400,
    };

    /// The ranges a file may declare: QA 1..=255, QB 1..=1024, scale 1..=10000.
    pub fn validate(self) -> Result<(), NetworkError> {
        if !(1..=255).contains(&self.qa)
            || !(1..=1024).contains(&self.qb)
            || !(1..=10000).contains(&self.scale)
        {
            return Err(NetworkError::Quantisation {
                qa: self.qa,
                qb: self.qb,
                scale: self.scale,
            });
        }
        Ok(())
    }
}

/// A perspective network (768 → H) × 2 → B output buckets (one chosen by the number of
/// pieces), quantised to int16 (int32 output biases).
#[derive(Clone)]
pub struct Network {
    hidden: usize,
    kings: KingBuckets,
    activation: Activation,
    quant: Quantisation,
    /// K · INPUTS rows of `hidden` weights, bucket-major.
    ft_weights: Vec<i16>,
    ft_bias: Vec<i16>,
    /// Per bucket: side to move's `hidden` weights, then the other side's.
    out_weights: Vec<i16>,
    /// One per bucket: their number is the number of buckets.
    out_bias: Vec<i32>,
    checksum: u64,
    pub(super) kernel: Kernel,
}

/// Two networks are equal when they evaluate alike: the same shape and weights (the kernel is
/// the machine's, not the network's).
impl PartialEq for Network {
    fn eq(&self, other: &Self) -> bool {
        self.hidden == other.hidden
            && self.kings == other.kings
            && self.activation == other.activation
            && self.quant == other.quant
            && self.ft_weights == other.ft_weights
            && self.ft_bias == other.ft_bias
            && self.out_weights == other.out_weights
            && self.out_bias == other.out_bias
    }
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({})", self.describe())
    }
}

/// FNV-1a, 64 bit: enough to catch a corrupt or hand-edited file, trivially reimplemented by
/// any other reader.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn payload_len(hidden: usize, kings: usize, buckets: usize) -> usize {
    (kings * INPUTS * hidden + hidden + buckets * 2 * hidden) * 2 + buckets * 4
}

/// [nnue-buckets] The output bucket of a position with `pieces` pieces (kings included):
/// 2..=32 pieces spread evenly over the buckets. How much material is left changes what the
/// hidden features are worth (a passed pawn, king safety), and a separate output layer per
/// stage of the game learns that for a few hundred extra weights.
#[inline]
pub fn bucket_of(pieces: u32, buckets: usize) -> usize {
    ((pieces.clamp(2, 32) as usize - 2) * buckets / 31).min(buckets - 1)
}

impl Network {
    /// Builds a network without king buckets from its quantised parts, with the same checks as
    /// a file; the number of output biases is the number of buckets.
    pub fn from_parts(
        activation: Activation,
        quant: Quantisation,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: Vec<i32>,
    ) -> Result<Network, NetworkError> {
        Network::from_parts_kings(
            KingBuckets::NONE,
            activation,
            quant,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        )
    }

    /// [`Network::from_parts`] with king buckets: `ft_weights` holds `kings.count()` blocks of
    /// 768 rows.
    pub fn from_parts_kings(
        kings: KingBuckets,
        activation: Activation,
        quant: Quantisation,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: Vec<i32>,
    ) -> Result<Network, NetworkError> {
        let hidden = ft_bias.len();
        let buckets = out_bias.len();
        check_hidden(hidden as u32)?;
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(NetworkError::Buckets(buckets));
        }
        quant.validate()?;
        let shape = |what, expected, actual| {
            if expected == actual {
                Ok(())
            } else {
                Err(NetworkError::Shape {
                    what,
                    expected,
                    actual,
                })
            }
        };
        shape(
            "feature weights",
            kings.count() * INPUTS * hidden,
            ft_weights.len(),
        )?;
        shape("output weights", buckets * 2 * hidden, out_weights.len())?;
        if activation == Activation::SCReLU {
            for (index, &weight) in out_weights.iter().enumerate() {
                if (weight as i32 * quant.qa as i32).abs() > i16::MAX as i32 {
                    return Err(NetworkError::OutputWeight {
                        index,
                        weight,
                        qa: quant.qa,
                    });
                }
            }
        }
        let mut net = Network {
            hidden,
            kings,
            activation,
            quant,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            checksum: 0,
            kernel: Kernel::detect(),
        };
        net.checksum = fnv1a64(&net.payload());
        Ok(net)
    }

    /// Reads a network file: a regular file of at most [`MAX_FILE_BYTES`], so that an
    /// `EvalFile` naming a pipe, a device or a huge file is refused at once instead of
    /// blocking the engine or filling its memory.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        use std::io::Read;
        let io = |source| NetworkError::Io {
            path: path.display().to_string(),
            source,
        };
        // Asked before the open: opening a pipe with no writer blocks.
        if !std::fs::metadata(path).map_err(io)?.is_file() {
            return Err(NetworkError::NotAFile(path.display().to_string()));
        }
        let file = std::fs::File::open(path).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            return Err(NetworkError::NotAFile(path.display().to_string()));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(NetworkError::TooLarge(meta.len()));
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        file.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(NetworkError::TooLarge(bytes.len() as u64));
        }
        Network::from_bytes(&bytes)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER_LEN {
            return Err(NetworkError::TooShort(bytes.len()));
        }
        let u16_at = |o: usize| u16::from_le_bytes([bytes[o], bytes[o + 1]]);
        if &bytes[0..8] != MAGIC {
            return Err(NetworkError::BadMagic);
        }
        let version = u16_at(8);
        let activation = Activation::from_code(bytes[10])?;
        let buckets = match version {
            1 if bytes[11] != 0 => return Err(NetworkError::Reserved),
            1 => 1,
            2 if !(2..=MAX_BUCKETS).contains(&(bytes[11] as usize)) => {
                return Err(NetworkError::Buckets(bytes[11] as usize))
            }
            2 => bytes[11] as usize,
            3 if !(1..=MAX_BUCKETS).contains(&(bytes[11] as usize)) => {
                return Err(NetworkError::Buckets(bytes[11] as usize))
            }
            3 => bytes[11] as usize,
            v => return Err(NetworkError::Version(v)),
        };
        let king_buckets = match version {
            3 if !(1..=MAX_KING_BUCKETS).contains(&(u16_at(22) as usize)) => {
                return Err(NetworkError::KingBuckets(u16_at(22) as usize))
            }
            3 => u16_at(22) as usize,
            _ if u16_at(22) != 0 => return Err(NetworkError::Reserved),
            _ => 1,
        };
        let map_len = if version == 3 { KING_MAP_LEN } else { 0 };
        let hidden = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes"));
        check_hidden(hidden)?;
        let hidden = hidden as usize;
        let quant = Quantisation {
            qa: u16_at(16),
            qb: u16_at(18),
            scale: u16_at(20),
        };
        quant.validate()?;
        let expected = HEADER_LEN + map_len + payload_len(hidden, king_buckets, buckets);
        if bytes.len() != expected {
            return Err(NetworkError::Length {
                hidden,
                king_buckets,
                buckets,
                expected,
                actual: bytes.len(),
            });
        }
        let checksum = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
        let payload = &bytes[HEADER_LEN..];
        let actual = fnv1a64(payload);
        if actual != checksum {
            return Err(NetworkError::Checksum {
                expected: checksum,
                actual,
            });
        }
        let (map, payload) = payload.split_at(map_len);
        let kings = if version == 3 {
            KingBuckets::checked(map.try_into().expect("64 bytes"), king_buckets)?
        } else {
            KingBuckets::NONE
        };
        let mut words = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let ft_weights: Vec<i16> = words
            .by_ref()
            .take(king_buckets * INPUTS * hidden)
            .collect();
        let ft_bias: Vec<i16> = words.by_ref().take(hidden).collect();
        let out_weights: Vec<i16> = words.by_ref().take(buckets * 2 * hidden).collect();
        let out_bias = payload[payload.len() - 4 * buckets..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        Network::from_parts_kings(
            kings,
            activation,
            quant,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        )
    }

    /// Whether this network is written as version 3 (it has king buckets or a mirror).
    fn is_v3(&self) -> bool {
        self.kings != KingBuckets::NONE
    }

    fn payload(&self) -> Vec<u8> {
        let map_len = if self.is_v3() { KING_MAP_LEN } else { 0 };
        let mut out = Vec::with_capacity(
            map_len + payload_len(self.hidden, self.kings.count(), self.buckets()),
        );
        if self.is_v3() {
            out.extend_from_slice(self.kings.map());
        }
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// The file image: header and payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = self.payload();
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
        out.extend_from_slice(MAGIC);
        // Without king buckets one output bucket stays version 1 and more stay version 2, so
        // that such files read in engines of before versions 2 and 3.
        let (version, bucket_byte, kings) = match (self.is_v3(), self.buckets()) {
            (true, b) => (VERSION, b as u8, self.kings.count() as u16),
            (false, 1) => (1u16, 0u8, 0),
            (false, b) => (2, b as u8, 0),
        };
        out.extend_from_slice(&version.to_le_bytes());
        out.push(self.activation.code());
        out.push(bucket_byte);
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&self.quant.qa.to_le_bytes());
        out.extend_from_slice(&self.quant.qb.to_le_bytes());
        out.extend_from_slice(&self.quant.scale.to_le_bytes());
        out.extend_from_slice(&kings.to_le_bytes());
        out.extend_from_slice(&self.checksum.to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    pub fn buckets(&self) -> usize {
        self.out_bias.len()
    }

    /// The king buckets ([`KingBuckets::NONE`] for versions 1 and 2).
    pub fn king_buckets(&self) -> &KingBuckets {
        &self.kings
    }

    /// The weight row of a piece seen from `perspective`, whose own king stands on `king`.
    #[inline]
    pub fn input(
        &self,
        perspective: Color,
        king: Square,
        color: Color,
        piece: Piece,
        sq: Square,
    ) -> usize {
        self.kings
            .key(perspective, king)
            .input(feature(perspective, color, piece, sq))
    }

    pub fn activation(&self) -> Activation {
        self.activation
    }

    pub fn quantisation(&self) -> Quantisation {
        self.quant
    }

    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// One line for `info string`: size, activation, checksum.
    pub fn describe(&self) -> String {
        let kings = match (self.is_v3(), self.kings.name()) {
            (false, _) => String::new(),
            (true, Some(name)) => format!(" kings={name}"),
            (true, None) => format!(" kings={}-mirrored", self.kings.count()),
        };
        format!(
            "768x{}x2->{}{kings} {} QA={} QB={} scale={} checksum {:016x}",
            self.hidden,
            self.buckets(),
            self.activation.name(),
            self.quant.qa,
            self.quant.qb,
            self.quant.scale,
            self.checksum
        )
    }

    /// The quantised parameters: feature weights (row per input, K blocks of 768), feature biases, output
    /// weights (per bucket), output biases (per bucket). A trainer starts from them.
    pub fn parts(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (
            &self.ft_weights,
            &self.ft_bias,
            &self.out_weights,
            &self.out_bias,
        )
    }

    /// Uses the scalar kernels whatever the CPU (tests compare both paths).
    pub fn with_kernel(mut self, kernel: Kernel) -> Network {
        self.kernel = kernel;
        self
    }

    #[inline]
    pub(super) fn ft_weights(&self) -> &[i16] {
        &self.ft_weights
    }

    #[inline]
    pub(super) fn ft_row(&self, feature: usize) -> &[i16] {
        &self.ft_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    #[inline]
    pub(super) fn ft_bias(&self) -> &[i16] {
        &self.ft_bias
    }

    /// The output from the two perspectives' accumulators for a position with `pieces`
    /// pieces, in centipawns for the side to move.
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16], pieces: u32) -> i32 {
        let h = self.hidden;
        let qa = self.quant.qa as i16;
        let b = bucket_of(pieces, self.out_bias.len());
        let (w_us, w_them) = self.out_weights[b * 2 * h..(b + 1) * 2 * h].split_at(h);
        let k = self.kernel;
        let sum = match self.activation {
            Activation::CReLU => k
                .dot_crelu(us, w_us, qa)
                .wrapping_add(k.dot_crelu(them, w_them, qa)),
            Activation::SCReLU => {
                let s = k
                    .dot_screlu(us, w_us, qa)
                    .wrapping_add(k.dot_screlu(them, w_them, qa));
                // Back from QA² to QA before the bias (scale QA·QB) is added.
                s / qa as i32
            }
        };
        let qab = self.quant.qa as i64 * self.quant.qb as i64;
        let v = (sum as i64 + self.out_bias[b] as i64) * self.quant.scale as i64 / qab;
        v.clamp(-MAX_OUTPUT as i64, MAX_OUTPUT as i64) as i32
    }
}

fn check_hidden(hidden: u32) -> Result<(), NetworkError> {
    if hidden == 0 || !hidden.is_multiple_of(16) || hidden as usize > MAX_HIDDEN {
        return Err(NetworkError::Hidden(hidden));
    }
    Ok(())
}
