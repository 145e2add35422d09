//! AdamW (decoupled weight decay) and the learning-rate schedules.

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Schedule {
    /// lr · gamma^(epoch / step_every): drops in stages.
    Step,
    /// Half a cosine from lr down to lr · final_fraction over all epochs.
    Cosine,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LrSchedule {
    pub kind: Schedule,
    pub lr: f32,
    pub epochs: usize,
    pub step_every: usize,
    pub gamma: f32,
    pub final_fraction: f32,
}

impl LrSchedule {
    /// The rate at `progress` epochs (fractional: the cosine moves every batch).
    pub fn at(&self, progress: f64) -> f32 {
        match self.kind {
            Schedule::Step => {
                let stage = (progress as usize) / self.step_every.max(1);
                self.lr * self.gamma.powi(stage as i32)
            }
            Schedule::Cosine => {
                let t = (progress / self.epochs.max(1) as f64).clamp(0.0, 1.0);
                let lo = self.lr * self.final_fraction;
                lo + (self.lr - lo) * 0.5 * (1.0 + (std::f64::consts::PI * t).cos()) as f32
            }
        }
    }
}

/// Adam moments per parameter and the step count; saved in checkpoints.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub steps: u64,
    pub weight_decay: f32,
    /// [train-bucket-decay] The king buckets' rows' decay beside a factoriser (the run's
    /// setting, not the checkpoint's: `new` and a loaded checkpoint set it to `weight_decay`).
    pub bucket_decay: f32,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPS: f32 = 1e-8;

impl AdamW {
    pub fn new(len: usize, weight_decay: f32) -> Self {
        AdamW {
            m: vec![0.0; len],
            v: vec![0.0; len],
            steps: 0,
            weight_decay,
            bucket_decay: weight_decay,
        }
    }

    /// Counts a step; the constants every parameter's update of that step uses.
    pub fn next_step(&mut self, lr: f32) -> Rates {
        self.steps += 1;
        let n = self.steps.min(i32::MAX as u64) as i32;
        Rates {
            lr,
            bc1: 1.0 - BETA1.powi(n),
            bc2: 1.0 - BETA2.powi(n),
            weight_decay: self.weight_decay,
            bucket_decay: self.bucket_decay,
        }
    }

    /// One step with the mean gradient `grad`; weight decay only on the weight groups. The
    /// trainer runs it fused with the steps around it ([`super::update::step`]); this plain
    /// form is the tests' reference.
    #[cfg(test)]
    pub fn step(
        &mut self,
        params: &mut [f32],
        grad: &[f32],
        lr: f32,
        layout: super::model::Layout,
    ) {
        let rates = self.next_step(lr);
        for (range, decay) in layout.groups() {
            rates.update(
                &mut params[range.clone()],
                &mut self.m[range.clone()],
                &mut self.v[range.clone()],
                &grad[range],
                decay,
            );
        }
    }
}

/// One step's learning rate, bias corrections and weight decay.
#[derive(Clone, Copy, Debug)]
pub struct Rates {
    lr: f32,
    bc1: f32,
    bc2: f32,
    weight_decay: f32,
    bucket_decay: f32,
}

impl Rates {
    /// [train-bucket-decay] The same step for the king buckets' rows beside a factoriser.
    pub fn for_buckets(&self) -> Rates {
        Rates {
            weight_decay: self.bucket_decay,
            ..*self
        }
    }

    /// AdamW on a run of parameters, their moments and mean gradient (equal lengths);
    /// `decay`: the run is weights, which decay.
    #[inline(always)]
    pub fn update(&self, p: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32], decay: bool) {
        let wd = if decay { self.weight_decay } else { 0.0 };
        let n = p.len();
        let (m, v, g) = (&mut m[..n], &mut v[..n], &g[..n]);
        for i in 0..n {
            m[i] = BETA1 * m[i] + (1.0 - BETA1) * g[i];
            v[i] = BETA2 * v[i] + (1.0 - BETA2) * g[i] * g[i];
            let update = (m[i] / self.bc1) / ((v[i] / self.bc2).sqrt() + EPS);
            p[i] -= self.lr * (update + wd * p[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::Layout;
    use super::*;

    #[test]
    fn schedules_start_at_lr_and_fall() {
        let mut s = LrSchedule {
            kind: Schedule::Cosine,
            lr: 0.01,
            epochs: 10,
            step_every: 4,
            gamma: 0.1,
            final_fraction: 0.05,
        };
        assert!((s.at(0.0) - 0.01).abs() < 1e-9);
        assert!((s.at(10.0) - 0.0005).abs() < 1e-9);
        assert!(s.at(3.0) > s.at(6.0));
        s.kind = Schedule::Step;
        assert_eq!(s.at(3.9), 0.01);
        assert!((s.at(4.0) - 0.001).abs() < 1e-9);
        assert!((s.at(8.5) - 0.0001).abs() < 1e-9);
    }

    #[test]
    fn adamw_minimises_a_quadratic_and_decays_weights() {
        let layout = Layout::plain(16, 1);
        let mut p = vec![1.0f32; layout.len()];
        let mut opt = AdamW::new(layout.len(), 0.0);
        for _ in 0..2000 {
            // Gradient of Σ (p - 0.25)²
            let g: Vec<f32> = p.iter().map(|x| 2.0 * (x - 0.25)).collect();
            opt.step(&mut p, &g, 0.01, layout);
        }
        assert!(p.iter().all(|x| (x - 0.25).abs() < 0.01));
        // With zero gradient only the weights decay, the biases stay.
        let mut p = vec![1.0f32; layout.len()];
        let mut opt = AdamW::new(layout.len(), 0.5);
        opt.step(&mut p, &vec![0.0; layout.len()], 0.1, layout);
        assert!(p[0] < 1.0);
        assert_eq!(p[layout.ft_bias()], 1.0);
        assert_eq!(p[layout.out_bias()], 1.0);
    }
}
