//! The quantised network and its file format (docs/nnue.md has the same table).
//!
//! All numbers little-endian. A 32-byte header, then the payload:
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `AUGURNNU` |
//! | 8 | 2 | format version, 1 or 2 |
//! | 10 | 1 | activation: 0 CReLU, 1 SCReLU |
//! | 11 | 1 | version 1: reserved, 0; version 2: output buckets B (2..=8) |
//! | 12 | 4 | H, hidden neurons per perspective (a multiple of 16, 16..=4096) |
//! | 16 | 2 | QA, accumulator scale (1..=255) |
//! | 18 | 2 | QB, output weight scale (1..=1024) |
//! | 20 | 2 | output scale: centipawns per unit of network output (1..=10000) |
//! | 22 | 2 | reserved, 0 |
//! | 24 | 8 | checksum: FNV-1a 64 of the payload |
//! | 32 | 768·H·2 | feature weights, int16, feature-major (row f holds H weights) |
//! | … | H·2 | feature biases, int16 |
//! | … | B·2·H·2 | output weights, int16, per bucket: H for the side to move, then H for the other side |
//! | … | B·4 | output biases, int32 (scale QA·QB), one per bucket |
//!
//! A version 1 file has one output (B = 1); a network with B = 1 is always written as version 1.
//! The file is exactly that long; anything else is an error.

use super::simd::Kernel;
use super::INPUTS;
use std::path::Path;
use thiserror::Error;

pub const MAGIC: &[u8; 8] = b"AUGURNNU";
/// The newest format version (2: output buckets); version 1 files still load.
pub const VERSION: u16 = 2;
/// Most output buckets a file may have.
pub const MAX_BUCKETS: usize = 8;
pub const HEADER_LEN: usize = 32;
pub const MAX_HIDDEN: usize = 4096;
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
    #[error("not an Augur network: the file is {0} bytes, shorter than the 32-byte header")]
    TooShort(usize),
    #[error("not an Augur network: bad magic (expected AUGURNNU)")]
    BadMagic,
    #[error(
        "network format version {0} is not supported (this engine reads versions 1 and {VERSION})"
    )]
    Version(u16),
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
    #[error("network file is {actual} bytes, but a network with H={hidden} and {buckets} output bucket(s) needs {expected} (truncated or padded)")]
    Length {
        hidden: usize,
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
    activation: Activation,
    quant: Quantisation,
    /// INPUTS rows of `hidden` weights.
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

fn payload_len(hidden: usize, buckets: usize) -> usize {
    (INPUTS * hidden + hidden + buckets * 2 * hidden) * 2 + buckets * 4
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
    /// Builds a network from its quantised parts, with the same checks as a file; the number
    /// of output biases is the number of buckets.
    pub fn from_parts(
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
        shape("feature weights", INPUTS * hidden, ft_weights.len())?;
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

    /// Reads a network file.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let bytes = std::fs::read(path).map_err(|source| NetworkError::Io {
            path: path.display().to_string(),
            source,
        })?;
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
            v => return Err(NetworkError::Version(v)),
        };
        if u16_at(22) != 0 {
            return Err(NetworkError::Reserved);
        }
        let hidden = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes"));
        check_hidden(hidden)?;
        let hidden = hidden as usize;
        let quant = Quantisation {
            qa: u16_at(16),
            qb: u16_at(18),
            scale: u16_at(20),
        };
        quant.validate()?;
        let expected = HEADER_LEN + payload_len(hidden, buckets);
        if bytes.len() != expected {
            return Err(NetworkError::Length {
                hidden,
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
        let mut words = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let ft_weights: Vec<i16> = words.by_ref().take(INPUTS * hidden).collect();
        let ft_bias: Vec<i16> = words.by_ref().take(hidden).collect();
        let out_weights: Vec<i16> = words.by_ref().take(buckets * 2 * hidden).collect();
        let out_bias = payload[payload.len() - 4 * buckets..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        Network::from_parts(
            activation,
            quant,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        )
    }

    fn payload(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(payload_len(self.hidden, self.buckets()));
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
        let mut out = Vec::with_capacity(HEADER_LEN + payload_len(self.hidden, self.buckets()));
        out.extend_from_slice(MAGIC);
        // One bucket stays version 1, so that such files read in engines of before version 2.
        let (version, bucket_byte) = match self.buckets() {
            1 => (1u16, 0u8),
            b => (VERSION, b as u8),
        };
        out.extend_from_slice(&version.to_le_bytes());
        out.push(self.activation.code());
        out.push(bucket_byte);
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&self.quant.qa.to_le_bytes());
        out.extend_from_slice(&self.quant.qb.to_le_bytes());
        out.extend_from_slice(&self.quant.scale.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&self.checksum.to_le_bytes());
        out.extend_from_slice(&self.payload());
        out
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    pub fn buckets(&self) -> usize {
        self.out_bias.len()
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
        format!(
            "768x{}x2->{} {} QA={} QB={} scale={} checksum {:016x}",
            self.hidden,
            self.buckets(),
            self.activation.name(),
            self.quant.qa,
            self.quant.qb,
            self.quant.scale,
            self.checksum
        )
    }

    /// The quantised parameters: feature weights (row per input), feature biases, output
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
