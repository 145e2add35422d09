//! Training checkpoints: the float parameters, the optimiser's moments and the loss history,
//! written after every epoch so that `augur-lab train --resume` continues where a run stopped.
//!
//! Little-endian: magic `AUGURCKP`, version u32, hidden u32, (version 2: output buckets u32),
//! (version 3: the king-bucket map, 64 bytes, zero without king buckets; mirrored u8;
//! factoriser u8), activation u8, epochs done u32,
//! optimiser steps u64, parameter count u64, then params, m, v (f32 each), then the history
//! count u32 and (train loss, validation loss) f64 pairs, then FNV-1a 64 of everything before.

use super::model::{Layout, Model};
use super::optim::AdamW;
use anyhow::{bail, Context, Result};
use augur::eval::nnue::network::fnv1a64;
use augur::eval::nnue::{Activation, KingBuckets};
use std::path::Path;

const MAGIC: &[u8; 8] = b"AUGURCKP";

/// Whether `bytes` begin as a training checkpoint does (and not as a network file).
pub fn is_checkpoint(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// 2 added the output buckets, 3 the king buckets and factoriser; versions 1 and 2 (no king
/// buckets) still load.
const VERSION: u32 = 3;

#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub model: Model,
    pub opt: AdamW,
    pub epochs_done: usize,
    /// (train loss, validation loss) per finished epoch.
    pub history: Vec<(f64, f64)>,
}

impl Checkpoint {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&(self.model.hidden() as u32).to_le_bytes());
        b.extend_from_slice(&(self.model.buckets() as u32).to_le_bytes());
        let l = self.model.layout;
        b.extend_from_slice(l.kings.map());
        b.push(l.kings.is_mirrored() as u8);
        b.push(l.factoriser as u8);
        b.push(self.model.activation.code());
        b.extend_from_slice(&(self.epochs_done as u32).to_le_bytes());
        b.extend_from_slice(&self.opt.steps.to_le_bytes());
        b.extend_from_slice(&(self.model.params.len() as u64).to_le_bytes());
        for v in [&self.model.params, &self.opt.m, &self.opt.v] {
            for x in v.iter() {
                b.extend_from_slice(&x.to_le_bytes());
            }
        }
        b.extend_from_slice(&(self.history.len() as u32).to_le_bytes());
        for (t, v) in &self.history {
            b.extend_from_slice(&t.to_le_bytes());
            b.extend_from_slice(&v.to_le_bytes());
        }
        let sum = fnv1a64(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    pub fn from_bytes(b: &[u8], weight_decay: f32) -> Result<Checkpoint> {
        if b.len() < 8 + 4 + 4 + 1 + 4 + 8 + 8 + 4 + 8 || &b[..8] != MAGIC {
            bail!("not an Augur training checkpoint");
        }
        let (body, tail) = b.split_at(b.len() - 8);
        let sum = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
        if fnv1a64(body) != sum {
            bail!("checkpoint checksum mismatch (corrupt or truncated file)");
        }
        let mut r = Reader { b: body, at: 8 };
        let version = r.u32()?;
        if !(1..=VERSION).contains(&version) {
            bail!("checkpoint version {version}, this trainer reads 1 to {VERSION}");
        }
        let hidden = r.u32()? as usize;
        let buckets = if version >= 2 { r.u32()? as usize } else { 1 };
        if !(1..=augur::eval::nnue::network::MAX_BUCKETS).contains(&buckets) {
            bail!("checkpoint has {buckets} output buckets");
        }
        let (kings, factoriser) = if version >= 3 {
            let map: [u8; 64] = r.take(64)?.try_into().expect("64 bytes");
            let mirrored = r.take(1)?[0];
            let factoriser = r.take(1)?[0];
            let kings = match mirrored {
                0 if map == [0; 64] => KingBuckets::NONE,
                1 => KingBuckets::mirrored(map)?,
                _ => bail!("checkpoint has a bad king-bucket table"),
            };
            (kings, factoriser != 0)
        } else {
            (KingBuckets::NONE, false)
        };
        let activation = Activation::from_code(r.take(1)?[0])?;
        let epochs_done = r.u32()? as usize;
        let steps = r.u64()?;
        let n = r.u64()? as usize;
        let layout = Layout {
            kings,
            factoriser,
            ..Layout::plain(hidden, buckets)
        };
        if n != layout.len() {
            bail!(
                "checkpoint has {n} parameters, H={hidden} with {buckets} bucket(s), {} king bucket(s){} needs {}",
                layout.kings.count(),
                if layout.factoriser { " and a factoriser" } else { "" },
                layout.len()
            );
        }
        let mut floats = || -> Result<Vec<f32>> {
            let raw = r.take(n * 4)?;
            Ok(raw
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect())
        };
        let params = floats()?;
        let m = floats()?;
        let v = floats()?;
        let count = r.u32()? as usize;
        let mut history = Vec::with_capacity(count);
        for _ in 0..count {
            history.push((r.f64()?, r.f64()?));
        }
        if r.at != body.len() {
            bail!(
                "checkpoint has {} unexpected trailing bytes",
                body.len() - r.at
            );
        }
        Ok(Checkpoint {
            model: Model {
                layout,
                activation,
                params,
            },
            opt: AdamW {
                m,
                v,
                steps,
                weight_decay,
                bucket_decay: weight_decay,
            },
            epochs_done,
            history,
        })
    }

    /// Written to a temporary file and renamed, so a kill leaves the previous checkpoint whole.
    pub fn save(&self, path: &Path) -> Result<()> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes())
            .with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))?;
        Ok(())
    }

    pub fn load(path: &Path, weight_decay: f32) -> Result<Checkpoint> {
        let b = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        Checkpoint::from_bytes(&b, weight_decay)
            .with_context(|| format!("checkpoint {}", path.display()))
    }
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8]> {
        if self.at + n > self.b.len() {
            bail!("checkpoint is truncated");
        }
        let s = &self.b[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
    fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_round_trip_and_detect_damage() {
        let model = Model::new(16, 1, Activation::SCReLU, 1);
        let mut opt = AdamW::new(model.params.len(), 0.01);
        opt.steps = 42;
        opt.m[3] = 0.5;
        let ck = Checkpoint {
            model,
            opt,
            epochs_done: 3,
            history: vec![(0.1, 0.2), (0.05, 0.07)],
        };
        let bytes = ck.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes, 0.01).unwrap(), ck);
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 3], 0.01).is_err());
        let mut bad = bytes.clone();
        bad[100] ^= 4;
        let err = Checkpoint::from_bytes(&bad, 0.01).unwrap_err().to_string();
        assert!(err.contains("checksum"), "{err}");

        // [nnue-kings] The king buckets and the factoriser travel with the model.
        let layout = Layout {
            kings: KingBuckets::layout("mirror16").unwrap(),
            factoriser: true,
            ..Layout::plain(16, 2)
        };
        let model = Model::with_layout(layout, Activation::SCReLU, 2);
        let ck = Checkpoint {
            opt: AdamW::new(model.params.len(), 0.01),
            model,
            epochs_done: 1,
            history: vec![(0.1, 0.2)],
        };
        assert_eq!(Checkpoint::from_bytes(&ck.to_bytes(), 0.01).unwrap(), ck);
    }
}
