//! The float network the trainer optimises, its loss and gradient, and its quantisation into
//! the engine's [`augur::eval::nnue::Network`].
//!
//! The first layer is sparse: a position touches only the rows of its ~32 active inputs, in the
//! forward pass (accumulator = bias + Σ rows) and in the backward pass (each active row receives
//! the accumulator's gradient). Nothing ever multiplies the 768-wide input vector.

use super::sample::TrainingPosition;
use augur::eval::nnue::network::bucket_of;
use augur::eval::nnue::{
    flip_feature, Activation, KingBuckets, KingKey, Network, Quantisation, INPUTS,
};
use rand::{Rng, SeedableRng};

/// Largest weight magnitude kept after each step: with QA 255 and QB 64, ±1.98 keeps the
/// int16 accumulators and the SCReLU kernel's int16 products from overflowing.
pub const CLIP: f32 = 1.98;

/// What the loss compares: sigmoid(output · scale / K) against
/// λ · result + (1 − λ) · sigmoid(score / K).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossConfig {
    /// Centipawns per unit of network output (the file's `scale`).
    pub scale: f32,
    /// Sigmoid scale, centipawns.
    pub k: f32,
    /// Weight of the game result in the target (0: score only, 1: result only).
    pub lambda: f32,
}

impl Default for LossConfig {
    fn default() -> Self {
        LossConfig {
            scale: Quantisation::STANDARD.scale as f32,
            k: 400.0,
            lambda: 0.3,
        }
    }
}

/// How a float model becomes its file ([train-qcal], [train-qround]).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Rounding {
    /// Every parameter to its nearest step (every network before 28 November's eleventh
    /// session).
    Nearest,
    /// The nearest steps, each output bias moved to where the float outputs are centred.
    Bias,
    /// The output weights' steps chosen to keep the outputs closest to the float model's.
    Compensated,
    /// All three written, and the one with the lowest validation loss kept (none wins on
    /// every model: 28 November's twelfth and thirteenth sessions).
    Best,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Where each parameter group starts in the flat parameter vector: K blocks of 768 feature
/// rows, the factoriser's 768 rows if any, the feature bias, the output weights and biases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub hidden: usize,
    /// Output buckets ([nnue-buckets]): one output layer per range of piece counts.
    pub buckets: usize,
    /// [nnue-kings] The king buckets of the inputs (`KingBuckets::NONE`: version 1/2 files).
    pub kings: KingBuckets,
    /// [train-factoriser] A 768-row block shared by every king bucket, trained alongside
    /// them and added into each at quantisation: what all buckets have in common is learnt
    /// from every position, not from the bucket's share of them.
    pub factoriser: bool,
}

impl Layout {
    /// Without king buckets or factoriser: the network of versions 1 and 2.
    pub fn plain(hidden: usize, buckets: usize) -> Layout {
        Layout {
            hidden,
            buckets,
            kings: KingBuckets::NONE,
            factoriser: false,
        }
    }

    /// Where the factoriser starts (the end of the bucketed feature rows).
    pub fn factor(self) -> usize {
        self.kings.count() * INPUTS * self.hidden
    }
    pub fn ft_bias(self) -> usize {
        self.factor()
            + if self.factoriser {
                INPUTS * self.hidden
            } else {
                0
            }
    }
    pub fn out_weights(self) -> usize {
        self.ft_bias() + self.hidden
    }
    pub fn out_bias(self) -> usize {
        self.out_weights() + self.buckets * 2 * self.hidden
    }
    pub fn len(self) -> usize {
        self.out_bias() + self.buckets
    }
    /// Bucket `b`'s output weights (side to move's H, then the other side's).
    pub fn bucket_weights(self, b: usize) -> std::ops::Range<usize> {
        let start = self.out_weights() + b * 2 * self.hidden;
        start..start + 2 * self.hidden
    }
    /// The output bucket of a sample.
    pub fn bucket(self, s: &TrainingPosition) -> usize {
        bucket_of(u32::from(s.count), self.buckets)
    }

    /// [nnue-kings] The king keys of a sample's two perspectives: the side to move's own
    /// king, and the other side's king seen from that side (its features are
    /// [`flip_feature`] of the sample's).
    #[inline]
    pub fn keys(self, s: &TrainingPosition) -> (KingKey, KingKey) {
        if self.kings == KingBuckets::NONE {
            return (KingKey::default(), KingKey::default());
        }
        let [ours, theirs] = s.king_squares();
        (
            self.kings.key(cozy_chess::Color::White, ours),
            self.kings.key(cozy_chess::Color::Black, theirs),
        )
    }

    /// The parameter offsets of one input's rows for a perspective with `key`: its king
    /// bucket's row, and the factoriser's row (if any) that is added to it.
    #[inline]
    pub fn rows(self, key: KingKey, feature: usize) -> (usize, Option<usize>) {
        let h = self.hidden;
        let row = key.input(feature);
        let factor = self.factoriser.then(|| self.factor() + (row % INPUTS) * h);
        (row * h, factor)
    }
    pub fn is_empty(self) -> bool {
        false
    }
    /// [train-fold] The same layout without a factoriser: where a folded model keeps its
    /// parameters.
    pub fn folded(self) -> Layout {
        Layout {
            factoriser: false,
            ..self
        }
    }
    /// [train-fold] The gradient of this layout from `folded`'s, the gradient of the same
    /// model folded ([`Model::fold_into`]): each bucket row's is its own, the factoriser row's
    /// is the sum of its rows' over the buckets (it is added into every one), and the rest
    /// moves past the factoriser. Without a factoriser the two are one. The trainer does this
    /// fused into its step ([`super::update`]); this plain form is the tests' reference.
    #[cfg(test)]
    pub fn unfold_gradient(self, folded: &[f32], out: &mut Vec<f32>) {
        out.clear();
        if !self.factoriser {
            out.extend_from_slice(folded);
            return;
        }
        let block = INPUTS * self.hidden;
        out.extend_from_slice(&folded[..self.factor()]);
        out.resize(self.ft_bias(), 0.0);
        let (rows, factor) = out.split_at_mut(self.factor());
        for bucket in rows.chunks(block) {
            for (f, g) in factor.iter_mut().zip(bucket) {
                *f += g;
            }
        }
        out.extend_from_slice(&folded[self.factor()..]);
    }
    /// Parameter ranges and whether weight decay applies (weights yes, biases no).
    pub fn groups(self) -> [(std::ops::Range<usize>, bool); 4] {
        [
            (0..self.ft_bias(), true),
            (self.ft_bias()..self.out_weights(), false),
            (self.out_weights()..self.out_bias(), true),
            (self.out_bias()..self.len(), false),
        ]
    }
}

/// (768 → H) × 2 → B in f32: feature weights (row per input), feature bias, output weights
/// (per bucket: side to move's H, then the other side's H), output biases, all in one vector.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub layout: Layout,
    pub activation: Activation,
    pub params: Vec<f32>,
}

/// Per-thread buffers of one forward/backward pass.
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
    d_us: Vec<f32>,
    d_them: Vec<f32>,
}

impl Scratch {
    pub fn new(hidden: usize) -> Self {
        Scratch {
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
            d_us: vec![0.0; hidden],
            d_them: vec![0.0; hidden],
        }
    }
}

/// Mean loss of `model` over `data`, on `threads` threads.
pub fn mean_loss(
    model: &Model,
    data: &[TrainingPosition],
    loss: &LossConfig,
    threads: usize,
) -> f64 {
    if data.is_empty() {
        return f64::NAN;
    }
    let chunk = data.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = data
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut scratch = Scratch::new(model.hidden());
                    part.iter()
                        .map(|x| model.sample_loss(x, loss, &mut scratch) as f64)
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("loss thread"))
            .sum()
    });
    total / data.len() as f64
}

impl Model {
    /// Uniform initialisation scaled to the fan-in that is really summed: ~32 active inputs
    /// for the first layer, 2H for the output.
    pub fn new(hidden: usize, buckets: usize, activation: Activation, seed: u64) -> Model {
        Model::with_layout(Layout::plain(hidden, buckets), activation, seed)
    }

    /// [`Model::new`] for any layout; the factoriser starts at zero, so that every bucket
    /// starts from its own random rows as a network without one does.
    pub fn with_layout(layout: Layout, activation: Activation, seed: u64) -> Model {
        let hidden = layout.hidden;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut params = vec![0.0f32; layout.len()];
        let a = 1.0 / (32.0f32).sqrt();
        for p in &mut params[..layout.factor()] {
            *p = rng.random_range(-a..a);
        }
        // Biases start mid-range so that activations are neither dead nor saturated.
        for p in &mut params[layout.ft_bias()..layout.out_weights()] {
            *p = rng.random_range(0.0..0.5);
        }
        let b = 1.0 / (2.0 * hidden as f32).sqrt();
        for p in &mut params[layout.out_weights()..layout.out_bias()] {
            *p = rng.random_range(-b..b);
        }
        Model {
            layout,
            activation,
            params,
        }
    }

    /// [train-init] The float network a quantised one came from, up to rounding: feature
    /// layer / QA, output weights / QB, output biases / (QA · QB). Its output is in units of
    /// the file's scale, so the trainer's scale must be the same.
    pub fn from_network(net: &Network) -> Model {
        let q = net.quantisation();
        let (qa, qb) = (q.qa as f32, q.qb as f32);
        let (ft, ft_bias, out, out_bias) = net.parts();
        let layout = Layout {
            kings: *net.king_buckets(),
            ..Layout::plain(net.hidden(), net.buckets())
        };
        let mut params = Vec::with_capacity(layout.len());
        params.extend(ft.iter().chain(ft_bias).map(|&w| w as f32 / qa));
        params.extend(out.iter().map(|&w| w as f32 / qb));
        params.extend(out_bias.iter().map(|&b| b as f32 / (qa * qb)));
        debug_assert_eq!(params.len(), layout.len());
        Model {
            layout,
            activation: net.activation(),
            params,
        }
    }

    pub fn hidden(&self) -> usize {
        self.layout.hidden
    }

    /// [train-rebucket] A one-output model widened to `buckets` output layers, each a copy of
    /// the one: the wider model computes exactly what the narrow one did, so a fine-tune
    /// starts from the narrow network's loss and lets each bucket move away from it. `None`
    /// unless this model has one bucket and `buckets` is more.
    pub fn widened(&self, buckets: usize) -> Option<Model> {
        if self.buckets() != 1 || buckets <= 1 {
            return None;
        }
        let layout = Layout {
            buckets,
            ..self.layout
        };
        let old = self.layout;
        let mut params = Vec::with_capacity(layout.len());
        params.extend_from_slice(&self.params[..old.out_weights()]);
        for _ in 0..buckets {
            params.extend_from_slice(&self.params[old.bucket_weights(0)]);
        }
        params.extend(std::iter::repeat_n(self.params[old.out_bias()], buckets));
        debug_assert_eq!(params.len(), layout.len());
        Some(Model {
            layout,
            activation: self.activation,
            params,
        })
    }

    pub fn buckets(&self) -> usize {
        self.layout.buckets
    }

    /// [train-factoriser] This model with a factoriser (zero, so it computes the same), or
    /// itself if it has one.
    pub fn with_factoriser(&self) -> Model {
        if self.layout.factoriser {
            return self.clone();
        }
        let layout = Layout {
            factoriser: true,
            ..self.layout
        };
        let mut params = Vec::with_capacity(layout.len());
        params.extend_from_slice(&self.params[..layout.factor()]);
        params.extend(std::iter::repeat_n(0.0, INPUTS * layout.hidden));
        params.extend_from_slice(&self.params[layout.factor()..]);
        Model {
            layout,
            activation: self.activation,
            params,
        }
    }

    fn act(&self, x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        match self.activation {
            Activation::CReLU => c,
            Activation::SCReLU => c * c,
        }
    }

    #[inline(always)]
    fn accumulate(&self, s: &TrainingPosition, scratch: &mut Scratch) {
        let h = self.hidden();
        let bias = &self.params[self.layout.ft_bias()..self.layout.out_weights()];
        scratch.us.copy_from_slice(bias);
        scratch.them.copy_from_slice(bias);
        let l = self.layout;
        let (k_us, k_them) = l.keys(s);
        let add = |acc: &mut [f32], (row, factor): (usize, Option<usize>)| {
            for (a, w) in acc.iter_mut().zip(&self.params[row..row + h]) {
                *a += w;
            }
            if let Some(row) = factor {
                for (a, w) in acc.iter_mut().zip(&self.params[row..row + h]) {
                    *a += w;
                }
            }
        };
        for &f in s.active() {
            let f = f as usize;
            add(&mut scratch.us, l.rows(k_us, f));
            add(&mut scratch.them, l.rows(k_them, flip_feature(f)));
        }
    }

    /// The raw output (multiply by the scale for centipawns, side to move).
    pub fn forward(&self, s: &TrainingPosition, scratch: &mut Scratch) -> f32 {
        self.accumulate(s, scratch);
        self.output(scratch, self.layout.bucket(s))
    }

    fn output(&self, scratch: &Scratch, bucket: usize) -> f32 {
        let h = self.hidden();
        let ow = &self.params[self.layout.bucket_weights(bucket)];
        let (w_us, w_them) = ow.split_at(h);
        let mut sum = self.params[self.layout.out_bias() + bucket];
        for (x, w) in scratch.us.iter().zip(w_us) {
            sum += self.act(*x) * w;
        }
        for (x, w) in scratch.them.iter().zip(w_them) {
            sum += self.act(*x) * w;
        }
        sum
    }

    /// The loss of one sample, and d loss / d output.
    fn loss(out: f32, s: &TrainingPosition, cfg: &LossConfig) -> (f32, f32) {
        let target =
            cfg.lambda * s.result.value() + (1.0 - cfg.lambda) * sigmoid(s.score as f32 / cfg.k);
        let p = sigmoid(out * cfg.scale / cfg.k);
        let diff = p - target;
        (diff * diff, 2.0 * diff * p * (1.0 - p) * cfg.scale / cfg.k)
    }

    /// Loss of one sample without a gradient.
    pub fn sample_loss(
        &self,
        s: &TrainingPosition,
        cfg: &LossConfig,
        scratch: &mut Scratch,
    ) -> f32 {
        let out = self.forward(s, scratch);
        Self::loss(out, s, cfg).0
    }

    /// Adds the gradient of the summed loss over `batch` to `grad` (same layout as the
    /// parameters) and returns the summed loss. Runs the AVX2/FMA build of the loop where the
    /// CPU has it (about twice the lanes of the baseline SSE2 build).
    pub fn backward(
        &self,
        batch: &[TrainingPosition],
        cfg: &LossConfig,
        grad: &mut [f32],
        scratch: &mut Scratch,
    ) -> f64 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU supports the features the function is compiled for.
            return unsafe { self.backward_avx2(batch, cfg, grad, scratch) };
        }
        match self.activation {
            Activation::CReLU => self.backward_body::<false>(batch, cfg, grad, scratch),
            Activation::SCReLU => self.backward_body::<true>(batch, cfg, grad, scratch),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn backward_avx2(
        &self,
        batch: &[TrainingPosition],
        cfg: &LossConfig,
        grad: &mut [f32],
        scratch: &mut Scratch,
    ) -> f64 {
        match self.activation {
            Activation::CReLU => self.backward_body::<false>(batch, cfg, grad, scratch),
            Activation::SCReLU => self.backward_body::<true>(batch, cfg, grad, scratch),
        }
    }

    /// The loop itself, monomorphised per activation so that it has no branch per neuron
    /// and vectorises.
    #[inline(always)]
    fn backward_body<const SQUARED: bool>(
        &self,
        batch: &[TrainingPosition],
        cfg: &LossConfig,
        grad: &mut [f32],
        scratch: &mut Scratch,
    ) -> f64 {
        let h = self.hidden();
        let l = self.layout;
        let act = |x: f32| {
            let c = x.clamp(0.0, 1.0);
            if SQUARED {
                c * c
            } else {
                c
            }
        };
        // d act / dx: zero outside (0, 1).
        let act_grad = |x: f32| {
            let inside = if x > 0.0 && x < 1.0 { 1.0 } else { 0.0 };
            if SQUARED {
                2.0 * x * inside
            } else {
                inside
            }
        };
        let mut total = 0.0f64;
        for s in batch {
            self.accumulate(s, scratch);
            let bucket = l.bucket(s);
            let ow = &self.params[l.bucket_weights(bucket)];
            let (w_us, w_them) = ow.split_at(h);
            // Eight partial sums (H is a multiple of 16), so that the sum vectorises.
            let mut lanes = [0.0f32; 8];
            for j in (0..h).step_by(8) {
                for (k, lane) in lanes.iter_mut().enumerate() {
                    let i = j + k;
                    *lane += act(scratch.us[i]) * w_us[i] + act(scratch.them[i]) * w_them[i];
                }
            }
            let out = self.params[l.out_bias() + bucket] + lanes.iter().sum::<f32>();
            let (loss, g) = Self::loss(out, s, cfg);
            total += loss as f64;

            let (gw_us, gw_them) = grad[l.bucket_weights(bucket)].split_at_mut(h);
            for j in 0..h {
                let (x, y) = (scratch.us[j], scratch.them[j]);
                gw_us[j] += g * act(x);
                gw_them[j] += g * act(y);
                scratch.d_us[j] = g * w_us[j] * act_grad(x);
                scratch.d_them[j] = g * w_them[j] * act_grad(y);
            }
            grad[l.out_bias() + bucket] += g;
            for (b, (du, dt)) in grad[l.ft_bias()..l.out_weights()]
                .iter_mut()
                .zip(scratch.d_us.iter().zip(&scratch.d_them))
            {
                *b += du + dt;
            }
            let (k_us, k_them) = l.keys(s);
            for &f in s.active() {
                let f = f as usize;
                for (key, f, d) in [
                    (k_us, f, &scratch.d_us),
                    (k_them, flip_feature(f), &scratch.d_them),
                ] {
                    let (row, factor) = l.rows(key, f);
                    for (gw, d) in grad[row..row + h].iter_mut().zip(d) {
                        *gw += d;
                    }
                    if let Some(row) = factor {
                        for (gw, d) in grad[row..row + h].iter_mut().zip(d) {
                            *gw += d;
                        }
                    }
                }
            }
        }
        total
    }

    /// Keeps every parameter quantisable (see [`CLIP`]); the output biases are int32 and free.
    /// Fused into the trainer's step ([`super::update`]); this plain form is the tests' reference.
    #[cfg(test)]
    pub fn clip(&mut self) {
        let end = self.layout.out_bias();
        for p in &mut self.params[..end] {
            *p = p.clamp(-CLIP, CLIP);
        }
    }

    /// The float model with every parameter replaced by the value its quantised file holds
    /// (its network read back): what the engine computes, up to integer rounding inside the
    /// kernels.
    pub fn rounded(&self, quant: Quantisation) -> Result<Model, augur::eval::nnue::NetworkError> {
        Ok(Model::from_network(&self.quantise(quant)?))
    }

    // [train-qcal] Where a hidden neuron is on in every position, its output weight's rounding
    // error shifts every output alike (26 cp in one gen2ft3 network, −62 nElo); moving each
    // bucket's bias by the mean float-minus-rounded output over training positions removes it.
    /// This model with each output bucket's bias moved by the mean difference between its own
    /// output and its rounded model's over `sample` (buckets without a sample position keep
    /// theirs), so that the quantised network is centred where the float one is.
    pub fn bias_corrected(
        &self,
        quant: Quantisation,
        sample: &[TrainingPosition],
    ) -> Result<Model, augur::eval::nnue::NetworkError> {
        let rounded = self.rounded(quant)?;
        let l = self.layout;
        let mut sums = vec![(0.0f64, 0usize); l.buckets];
        let mut scratch = Scratch::new(self.hidden());
        for s in sample {
            let d = self.forward(s, &mut scratch) - rounded.forward(s, &mut scratch);
            let e = &mut sums[l.bucket(s)];
            e.0 += f64::from(d);
            e.1 += 1;
        }
        let mut m = self.clone();
        for (b, (sum, n)) in sums.into_iter().enumerate() {
            if n > 0 {
                m.params[l.out_bias() + b] += (sum / n as f64) as f32;
            }
        }
        Ok(m)
    }

    // [train-qround] Rounding every output weight to its nearest step of 1/QB leaves errors
    // that add up position by position, which a bias cannot take out: one gen2ft4 epoch's file
    // lost 0.00025 of held-out loss to them (more than a fine-tune turn gains). Each weight
    // instead takes the step that keeps the written outputs closest to the float model's.
    /// This model as its file will hold it: the feature layer rounded to steps of 1/QA; each
    /// bucket's output weights on the 1/QB grid, chosen by coordinate descent from the nearest
    /// rounding to minimise Σ c·(float output − written output)² over the bucket's positions in
    /// `sample` (c = the loss's curvature in the output there, (p(1−p))² at the float output's
    /// win probability p), and its bias the c-weighted mean difference left over. A bucket
    /// without sample positions keeps the nearest rounding.
    pub fn compensated(
        &self,
        quant: Quantisation,
        sample: &[TrainingPosition],
        loss: &LossConfig,
    ) -> Result<Model, augur::eval::nnue::NetworkError> {
        let rounded = self.rounded(quant)?;
        let l = self.layout;
        let n = 2 * self.hidden();
        let step = 1.0 / f64::from(quant.qb);
        let bound = (f64::from(i16::MAX) / f64::from(quant.qa)).floor() * step;
        let mut m = rounded.clone();
        let mut scratch = Scratch::new(self.hidden());
        let mut act = vec![0.0f64; n];
        for b in 0..l.buckets {
            // Weighted sums: c, c·y, c·a, c·a·y, c·a·aᵀ (upper triangle).
            let (mut w_sum, mut wy) = (0.0f64, 0.0f64);
            let mut wa = vec![0.0f64; n];
            let mut way = vec![0.0f64; n];
            let mut h = vec![0.0f64; n * n];
            for s in sample.iter().filter(|s| l.bucket(s) == b) {
                let out = self.forward(s, &mut scratch);
                let p = f64::from(sigmoid(out * loss.scale / loss.k));
                let (y, c) = (f64::from(out), (p * (1.0 - p)).powi(2));
                rounded.accumulate(s, &mut scratch);
                for (a, x) in act.iter_mut().zip(scratch.us.iter().chain(&scratch.them)) {
                    *a = f64::from(rounded.act(*x));
                }
                w_sum += c;
                wy += c * y;
                for i in 0..n {
                    let ca = c * act[i];
                    wa[i] += ca;
                    way[i] += ca * y;
                    if ca != 0.0 {
                        for (hij, aj) in h[i * n + i..(i + 1) * n].iter_mut().zip(&act[i..]) {
                            *hij += ca * aj;
                        }
                    }
                }
            }
            if w_sum <= 0.0 {
                continue;
            }
            // Centre (the bias absorbs the means): H = Σ c·a·aᵀ − S·Sᵀ/W, r = Σ c·a·y − S·Y/W.
            for i in 0..n {
                for j in i..n {
                    let v = h[i * n + j] - wa[i] * wa[j] / w_sum;
                    h[i * n + j] = v;
                    h[j * n + i] = v;
                }
            }
            let r: Vec<f64> = (0..n).map(|i| way[i] - wa[i] * wy / w_sum).collect();
            // `m` is the rounded model: its factoriser (if any) folded in, so its own offsets.
            let ml = m.layout;
            let range = ml.bucket_weights(b);
            let mut q: Vec<f64> = m.params[range.clone()]
                .iter()
                .map(|&w| f64::from(w))
                .collect();
            // g = H·q − r: half the objective's gradient.
            let mut g: Vec<f64> = (0..n)
                .map(|i| (0..n).map(|j| h[i * n + j] * q[j]).sum::<f64>() - r[i])
                .collect();
            // Every accepted step lowers the objective, so the search ends; 64 sweeps are
            // only a guard on its time.
            for _ in 0..64 {
                let mut changed = false;
                for i in 0..n {
                    for d in [step, -step] {
                        let gain = 2.0 * d * g[i] + d * d * h[i * n + i];
                        if gain < -1e-15 && (q[i] + d).abs() <= bound {
                            q[i] += d;
                            for (gj, hj) in g.iter_mut().zip(&h[i * n..(i + 1) * n]) {
                                *gj += d * hj;
                            }
                            changed = true;
                            break;
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
            let aq: f64 = wa.iter().zip(&q).map(|(a, q)| a * q).sum();
            for (p, q) in m.params[range].iter_mut().zip(&q) {
                *p = *q as f32;
            }
            m.params[ml.out_bias() + b] = ((wy - aq) / w_sum) as f32;
        }
        // The biases on their grid too: exactly what the file will hold.
        m.rounded(quant)
    }

    /// [train-fold] The same function without a factoriser: its rows added into every king
    /// bucket's, written into `out` (reused batch after batch). The gradient pass reads one
    /// row per input instead of two, about half the memory traffic of a king-bucketed batch;
    /// [`Layout::unfold_gradient`] maps its gradient back.
    pub fn fold_into(&self, out: &mut Model) {
        let l = self.layout;
        out.layout = l.folded();
        out.activation = self.activation;
        out.params.clear();
        if !l.factoriser {
            out.params.extend_from_slice(&self.params);
            return;
        }
        let block = INPUTS * l.hidden;
        let factor = &self.params[l.factor()..l.ft_bias()];
        for rows in self.params[..l.factor()].chunks(block) {
            out.params
                .extend(rows.iter().zip(factor).map(|(w, f)| w + f));
        }
        out.params.extend_from_slice(&self.params[l.ft_bias()..]);
    }

    /// [train-fold] [`Model::fold_into`] into a new model.
    pub fn folded(&self) -> Model {
        let mut out = Model {
            layout: self.layout.folded(),
            activation: self.activation,
            params: Vec::with_capacity(self.layout.folded().len()),
        };
        self.fold_into(&mut out);
        out
    }

    /// The engine's integer network: feature layer × QA, output weights × QB, output bias × QA·QB.
    /// [train-factoriser] The factoriser is added into every king bucket's rows first
    /// ([`Model::folded`]), the sum kept within [`CLIP`] as every trained weight is.
    pub fn quantise(
        &self,
        quant: Quantisation,
    ) -> Result<Network, augur::eval::nnue::NetworkError> {
        let folded = self.folded();
        let (l, params) = (folded.layout, &folded.params);
        let (qa, qb) = (quant.qa as f32, quant.qb as f32);
        let q16 = |x: f32, s: f32| (x * s).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        // The SCReLU kernel multiplies activation × weight in int16.
        let out_max = (i16::MAX as f32 / qa).floor();
        // Only a sum needs the clamp: a model's own weights are what its file holds.
        let clip = if self.layout.factoriser {
            CLIP
        } else {
            f32::INFINITY
        };
        let ft = params[..l.factor()]
            .iter()
            .map(|&w| q16(w.clamp(-clip, clip), qa))
            .collect();
        Network::from_parts_kings(
            l.kings,
            self.activation,
            quant,
            ft,
            params[l.ft_bias()..l.out_weights()]
                .iter()
                .map(|&w| q16(w, qa))
                .collect(),
            params[l.out_weights()..l.out_bias()]
                .iter()
                .map(|&w| q16(w, qb).clamp(-out_max as i16, out_max as i16))
                .collect(),
            params[l.out_bias()..l.len()]
                .iter()
                .map(|&b| (b * qa * qb).round() as i32)
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::sample::{material_samples, Wdl};
    use super::*;

    /// The summed loss's derivative in parameter `i` by central differences (step 1e-3).
    fn central_difference(
        model: &mut Model,
        batch: &[TrainingPosition],
        cfg: &LossConfig,
        scratch: &mut Scratch,
        i: usize,
    ) -> f64 {
        let eps = 1e-3;
        let mut loss_at = |m: &Model| -> f64 {
            batch
                .iter()
                .map(|s| m.sample_loss(s, cfg, scratch) as f64)
                .sum()
        };
        let orig = model.params[i];
        model.params[i] = orig + eps;
        let up = loss_at(model);
        model.params[i] = orig - eps;
        let down = loss_at(model);
        model.params[i] = orig;
        (up - down) / (2.0 * eps as f64)
    }

    /// The analytic gradient against central differences on a few parameters of each group.
    #[test]
    fn gradient_matches_finite_differences() {
        for (activation, buckets) in [
            (Activation::SCReLU, 1),
            (Activation::CReLU, 1),
            (Activation::SCReLU, 8),
        ] {
            let mut model = Model::new(16, buckets, activation, 9);
            let batch = material_samples(8, 4);
            let cfg = LossConfig::default();
            let mut grad = vec![0.0; model.layout.len()];
            let mut scratch = Scratch::new(16);
            model.backward(&batch, &cfg, &mut grad, &mut scratch);
            let l = model.layout;
            let f0 = batch[0].features[0] as usize;
            // The output layer of the first sample's bucket ([nnue-buckets]).
            let b0 = l.bucket(&batch[0]);
            let ow = l.bucket_weights(b0).start;
            let probes = [
                f0 * 16 + 3,
                l.ft_bias() + 5,
                ow + 2,
                ow + 16 + 7,
                l.out_bias() + b0,
            ];
            for &i in &probes {
                let numeric = central_difference(&mut model, &batch, &cfg, &mut scratch, i);
                let analytic = grad[i] as f64;
                assert!(
                    (numeric - analytic).abs() <= 1e-3 + 0.05 * analytic.abs(),
                    "{activation:?} {buckets} bucket(s), param {i}: numeric {numeric} analytic {analytic}"
                );
            }
        }
    }

    /// [nnue-kings] [train-factoriser] The gradient of a king-bucketed model with a
    /// factoriser: a bucket row and a factoriser row the first sample uses, against central
    /// differences.
    #[test]
    fn king_bucket_and_factoriser_gradients_match_finite_differences() {
        let kings = KingBuckets::layout("mirror8").unwrap();
        let layout = Layout {
            kings,
            factoriser: true,
            ..Layout::plain(16, 2)
        };
        let mut model = Model::with_layout(layout, Activation::SCReLU, 9);
        // A factoriser that is not zero, so that its rows matter to the forward pass.
        for p in &mut model.params[layout.factor()..layout.ft_bias()] {
            *p = 0.05;
        }
        let batch = material_samples(8, 4);
        let cfg = LossConfig::default();
        let mut grad = vec![0.0; layout.len()];
        let mut scratch = Scratch::new(16);
        model.backward(&batch, &cfg, &mut grad, &mut scratch);
        let (k_us, k_them) = layout.keys(&batch[0]);
        let f0 = batch[0].features[0] as usize;
        let (row, factor) = layout.rows(k_us, f0);
        let (row_them, factor_them) = layout.rows(k_them, flip_feature(f0));
        // In each row the neuron with the largest gradient (a clamped one has none).
        let strongest = |start: usize| {
            (start..start + 16)
                .max_by(|&a, &b| grad[a].abs().total_cmp(&grad[b].abs()))
                .unwrap()
        };
        for i in [
            strongest(row),
            strongest(factor.unwrap()),
            strongest(row_them),
            strongest(factor_them.unwrap()),
        ] {
            let numeric = central_difference(&mut model, &batch, &cfg, &mut scratch, i);
            let analytic = grad[i] as f64;
            assert!(analytic != 0.0, "param {i} has no gradient");
            assert!(
                (numeric - analytic).abs() <= 1e-3 + 0.05 * analytic.abs(),
                "param {i}: numeric {numeric} analytic {analytic}"
            );
        }
    }

    /// [train-fold] The folded model computes what the factorised one does, and its gradient
    /// unfolded is the factorised model's own: every parameter, factoriser rows included
    /// (and a layout without a factoriser passes through unchanged).
    #[test]
    fn the_folded_gradient_unfolds_to_the_factorised_one() {
        for factoriser in [true, false] {
            let layout = Layout {
                kings: KingBuckets::layout("mirror4").unwrap(),
                factoriser,
                ..Layout::plain(16, 2)
            };
            let mut model = Model::with_layout(layout, Activation::SCReLU, 11);
            for (i, p) in model.params[layout.factor()..layout.ft_bias()]
                .iter_mut()
                .enumerate()
            {
                *p = 0.01 * (i % 7) as f32;
            }
            let batch = material_samples(64, 5);
            let cfg = LossConfig::default();
            let mut scratch = Scratch::new(16);
            let mut direct = vec![0.0; layout.len()];
            let loss = model.backward(&batch, &cfg, &mut direct, &mut scratch);
            let mut folded = Model::new(16, 1, Activation::CReLU, 0);
            model.fold_into(&mut folded);
            assert!(!folded.layout.factoriser);
            assert_eq!(folded.params.len() < layout.len(), factoriser);
            let mut g = vec![0.0; folded.layout.len()];
            let folded_loss = folded.backward(&batch, &cfg, &mut g, &mut scratch);
            assert!(
                (loss - folded_loss).abs() <= 1e-5 * loss.abs(),
                "{loss} {folded_loss}"
            );
            let mut unfolded = Vec::new();
            layout.unfold_gradient(&g, &mut unfolded);
            assert_eq!(unfolded.len(), direct.len());
            let scale = direct.iter().fold(0.0f32, |m, x| m.max(x.abs()));
            assert!(scale > 0.0);
            for (i, (a, b)) in direct.iter().zip(&unfolded).enumerate() {
                assert!((a - b).abs() <= 1e-5 * scale, "param {i}: {a} against {b}");
            }
            if factoriser {
                assert!(unfolded[layout.factor()..layout.ft_bias()]
                    .iter()
                    .any(|&x| x != 0.0));
            }
        }
    }

    /// [nnue-kings] A sample's rows follow its kings: the king on e1 reads every square
    /// mirrored (a pawn on a2 uses the row of one on h2 with the king on d1), in the bucket
    /// the map gives; the other side's king (e8 here, its own e1) does the same for it.
    #[test]
    fn sample_rows_mirror_with_the_king() {
        let kings = KingBuckets::layout("mirror8").unwrap();
        let l = Layout {
            kings,
            factoriser: true,
            ..Layout::plain(16, 1)
        };
        let rows = |fen: &str| {
            let b: cozy_chess::Board = fen.parse().unwrap();
            let s = TrainingPosition::from_board(&b, 0, Wdl::Draw).unwrap();
            let (ku, kt) = l.keys(&s);
            let mut us: Vec<_> = s.active().iter().map(|&f| l.rows(ku, f as usize)).collect();
            let mut them: Vec<_> = s
                .active()
                .iter()
                .map(|&f| l.rows(kt, flip_feature(f as usize)))
                .collect();
            us.sort();
            them.sort();
            (ku, kt, us, them)
        };
        // White king d1 and its mirror image, king e1; black's king e8 and d8.
        let (ku_d, kt_d, us_d, them_d) = rows("3k4/8/8/8/8/8/P7/3K4 w - - 0 1");
        let (ku_e, kt_e, us_e, them_e) = rows("4k3/8/8/8/8/8/7P/4K3 w - - 0 1");
        assert_eq!((ku_d.bucket, ku_d.mirror), (3, false));
        assert_eq!((ku_e.bucket, ku_e.mirror), (3, true));
        assert_eq!((kt_d.mirror, kt_e.mirror), (false, true));
        assert_eq!((us_d, them_d), (us_e, them_e));
        // Pawn a2 with the king on d1: bucket 3's row of that pawn, the factoriser's too.
        let pawn = augur::eval::nnue::feature(
            cozy_chess::Color::White,
            cozy_chess::Color::White,
            cozy_chess::Piece::Pawn,
            cozy_chess::Square::A2,
        );
        assert_eq!(
            l.rows(ku_d, pawn),
            ((3 * INPUTS + pawn) * 16, Some(l.factor() + pawn * 16))
        );
        // Black to move: the sample's view is black's, its king on e8 is "e1".
        let b: cozy_chess::Board = "4k3/7p/8/8/8/8/8/3K4 b - - 0 1".parse().unwrap();
        let s = TrainingPosition::from_board(&b, 0, Wdl::Draw).unwrap();
        let (ku, kt) = l.keys(&s);
        assert_eq!(
            (ku.bucket, ku.mirror, kt.bucket, kt.mirror),
            (3, true, 3, false)
        );
        // Without king buckets nothing moves: the rows are the features.
        let plain = Layout::plain(16, 1);
        let (ku, kt) = plain.keys(&s);
        assert_eq!(plain.rows(ku, 77), (77 * 16, None));
        assert_eq!(plain.rows(kt, 77), (77 * 16, None));
    }

    /// [train-factoriser] Quantisation adds the factoriser into every bucket: the written
    /// network computes what the factorised float model does, and a model without one is
    /// unchanged by a zero factoriser.
    #[test]
    fn the_factoriser_is_folded_into_every_bucket() {
        let kings = KingBuckets::layout("mirror4").unwrap();
        let layout = Layout {
            kings,
            factoriser: true,
            ..Layout::plain(32, 2)
        };
        let mut model = Model::with_layout(layout, Activation::SCReLU, 4);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
        for p in &mut model.params[layout.factor()..layout.ft_bias()] {
            *p = rng.random_range(-0.2..0.2);
        }
        let net = model.quantise(Quantisation::STANDARD).unwrap();
        assert_eq!(net.king_buckets(), &kings);
        assert!(!Model::from_network(&net).layout.factoriser);
        // The same model folded by hand: every bucket's rows plus the factoriser's.
        let block = INPUTS * 32;
        let mut folded = Model::with_layout(
            Layout {
                factoriser: false,
                ..layout
            },
            Activation::SCReLU,
            0,
        );
        for (i, p) in folded.params[..layout.factor()].iter_mut().enumerate() {
            *p = model.params[i] + model.params[layout.factor() + i % block];
        }
        folded.params[layout.factor()..].copy_from_slice(&model.params[layout.ft_bias()..]);
        let mut scratch = Scratch::new(32);
        for s in material_samples(200, 5) {
            let a = model.forward(&s, &mut scratch);
            let b = folded.forward(&s, &mut scratch);
            assert!((a - b).abs() < 1e-4, "{a} vs {b}");
        }
        assert_eq!(folded.quantise(Quantisation::STANDARD).unwrap(), net);
        let plain = Model::with_layout(
            Layout {
                factoriser: false,
                ..layout
            },
            Activation::SCReLU,
            4,
        );
        let zero = plain.with_factoriser();
        assert_eq!(
            zero.quantise(Quantisation::STANDARD).unwrap(),
            plain.quantise(Quantisation::STANDARD).unwrap()
        );
    }

    #[test]
    fn loss_is_zero_at_the_target() {
        let s = TrainingPosition::from_board(&cozy_chess::Board::default(), 0, Wdl::Draw).unwrap();
        let cfg = LossConfig::default();
        let (loss, g) = Model::loss(0.0, &s, &cfg);
        assert_eq!((loss, g), (0.0, 0.0));
        let (loss, g) = Model::loss(1.0, &s, &cfg);
        assert!(loss > 0.0 && g > 0.0);
    }

    /// Output weights `frac` of a 1/QB step above the steps −(period/2)… cycling with `period`:
    /// the nearest rounding moves each of them down by `frac` of a step.
    fn off_grid_outputs(model: &mut Model, period: usize, frac: f32, q: Quantisation) {
        let l = model.layout;
        let half = (period / 2) as f32;
        for (i, w) in model.params[l.out_weights()..l.out_bias()]
            .iter_mut()
            .enumerate()
        {
            *w = ((i % period) as f32 - half + frac) / q.qb as f32;
        }
    }

    /// The material samples (`n`, `seed`) in the first one's output bucket, and that bucket.
    fn one_bucket(l: Layout, n: usize, seed: u64) -> (usize, Vec<TrainingPosition>) {
        let samples = material_samples(n, seed);
        let bucket = l.bucket(&samples[0]);
        let sample = samples
            .into_iter()
            .filter(|s| l.bucket(s) == bucket)
            .collect();
        (bucket, sample)
    }

    /// [train-qround] Output weights all 0.45 of a step above a step: the nearest rounding
    /// moves each output by 0.45/QB times its summed activation, which varies by position, so a
    /// bias leaves most of the error; the compensated file rounds some weights up and some down
    /// and keeps its outputs closer (weighted rms 3.6 cp against 6.1 here; the feature layer's
    /// rounding alone leaves 0.5, the rest is the output grid's) to the float model's. Its
    /// parameters are on the file's grid (writing and reading it back changes nothing), and a
    /// bucket without sample positions gets the nearest rounding.
    #[test]
    fn compensated_rounding_keeps_the_outputs_closer_than_a_bias() {
        let q = Quantisation::STANDARD;
        let cfg = LossConfig::default();
        let mut model = Model::new(32, 2, Activation::SCReLU, 5);
        let l = model.layout;
        off_grid_outputs(&mut model, 9, 0.45, q);
        let (bucket, sample) = one_bucket(l, 600, 2);
        let mut scratch = Scratch::new(32);
        let rms = |m: &Model, scratch: &mut Scratch| {
            let (mut num, mut den) = (0.0f64, 0.0f64);
            for s in &sample {
                let y = f64::from(model.forward(s, scratch));
                let p = 1.0 / (1.0 + (-y * f64::from(cfg.scale / cfg.k)).exp());
                let c = (p * (1.0 - p)).powi(2);
                let d = (f64::from(m.forward(s, scratch)) - y) * f64::from(cfg.scale);
                num += c * d * d;
                den += c;
            }
            (num / den).sqrt()
        };
        let biased = model
            .bias_corrected(q, &sample)
            .unwrap()
            .rounded(q)
            .unwrap();
        let compensated = model.compensated(q, &sample, &cfg).unwrap();
        let (b, c) = (rms(&biased, &mut scratch), rms(&compensated, &mut scratch));
        assert!(
            b > 1.0,
            "the nearest rounding's error {b} cp is the case this test is about"
        );
        assert!(
            c < 0.7 * b,
            "compensated {c} cp against bias-corrected {b} cp"
        );
        assert_eq!(compensated.rounded(q).unwrap(), compensated);
        let other = l.bucket_weights(1 - bucket);
        let nearest = model.rounded(q).unwrap();
        assert_eq!(compensated.params[other.clone()], nearest.params[other]);
        assert_eq!(model.compensated(q, &[], &cfg).unwrap(), nearest);
    }

    /// [train-qcal] Hidden neurons on in every position (feature bias 1.5, feature weights 0)
    /// with output weights 0.4 of a 1/QB step above a step: rounding moves every output of the
    /// sampled bucket down by 32 · 0.4 / 64 (80 cp), and the bias-corrected model's rounded
    /// outputs sit where the float model's do; the bucket without a sample keeps its bias.
    #[test]
    fn bias_correction_takes_out_the_rounding_shift() {
        let q = Quantisation::STANDARD;
        let mut model = Model::new(16, 2, Activation::SCReLU, 3);
        let l = model.layout;
        model.params[..l.ft_bias()].fill(0.0);
        model.params[l.ft_bias()..l.out_weights()].fill(1.5);
        off_grid_outputs(&mut model, 7, 0.4, q);
        let (bucket, sample) = one_bucket(l, 200, 1);
        let mut scratch = Scratch::new(16);
        let mean_shift = |m: &Model, scratch: &mut Scratch| {
            let r = m.rounded(q).unwrap();
            sample
                .iter()
                .map(|s| f64::from(model.forward(s, scratch) - r.forward(s, scratch)) * 400.0)
                .sum::<f64>()
                / sample.len() as f64
        };
        let before = mean_shift(&model, &mut scratch);
        assert!((before - 80.0).abs() < 0.05, "rounding shift {before} cp");
        let corrected = model.bias_corrected(q, &sample).unwrap();
        let after = mean_shift(&corrected, &mut scratch);
        assert!(after.abs() < 0.05, "shift after correction {after} cp");
        let other = l.out_bias() + 1 - bucket;
        assert_eq!(corrected.params[other], model.params[other]);
        // An empty sample corrects nothing.
        assert_eq!(model.bias_corrected(q, &[]).unwrap(), model);
    }
}
