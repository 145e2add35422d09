//! [train-step] What happens between two gradient passes: the threads' gradients of the folded
//! model summed in thread order, unfolded onto the factoriser ([`Layout::unfold_gradient`]),
//! scaled to the batch's mean, AdamW, the clip to [`CLIP`] and the model folded again
//! ([`Model::fold_into`]). As five passes on one thread it took a quarter to a third of a
//! two-thread epoch (kb8-h512: 1.3 s of 4.5–4.9 s on 532k positions, the machine otherwise
//! idle; millions of parameters, each with a square root and two divisions), so it runs as one
//! pass over the rows, split by columns over the threads (0.75 s). Every parameter sees the
//! same operations in the same order: the result is bit-identical to the five passes at any
//! thread count (the tests compare them).
//!
//! [`Layout::unfold_gradient`]: super::model::Layout::unfold_gradient

use std::thread;

use super::model::{Model, CLIP};
use super::optim::{AdamW, Rates};
use augur::eval::nnue::INPUTS;

/// One optimiser step of `model` from `grads`, the threads' gradients of `folded` (`model`
/// folded, which is refreshed), `scale` turning their sum into the batch's mean, on `threads`
/// threads.
///
/// # Panics
/// If a gradient or `folded` does not have the folded layout's length.
pub fn step(
    model: &mut Model,
    folded: &mut Model,
    opt: &mut AdamW,
    grads: &[Vec<f32>],
    scale: f32,
    lr: f32,
    threads: usize,
) {
    let l = model.layout;
    let flen = l.folded().len();
    assert!(
        !grads.is_empty() && grads.iter().all(|g| g.len() == flen) && folded.params.len() == flen,
        "update::step: a gradient or the folded model has another layout"
    );
    let rates = opt.next_step(lr);
    let [(rows_group, rows_decay), tail_groups @ ..] = l.groups();
    debug_assert_eq!(rows_group, 0..l.ft_bias());
    // The parameters: the king buckets' feature rows, the factoriser's rows (empty without
    // one), then the tail (feature bias, output weights and biases). The folded model and
    // the gradients have the rows and the tail only.
    let (rows, rest) = model.params.split_at_mut(l.factor());
    let (factor, _) = rest.split_at_mut(l.ft_bias() - l.factor());
    let (m_rows, m_rest) = opt.m.split_at_mut(l.factor());
    let (m_factor, _) = m_rest.split_at_mut(l.ft_bias() - l.factor());
    let (v_rows, v_rest) = opt.v.split_at_mut(l.factor());
    let (v_factor, _) = v_rest.split_at_mut(l.ft_bias() - l.factor());
    let (f_rows, _) = folded.params.split_at_mut(l.factor());

    // Columns of a row block, cut into one range per thread (a multiple of 16 each).
    let block = INPUTS * l.hidden;
    let parts = threads.clamp(1, block / 16);
    let cuts: Vec<usize> = (1..parts).map(|j| block * j / parts / 16 * 16).collect();
    let rows = pieces_mut(rows, block, &cuts);
    let factor = pieces_mut(factor, block, &cuts);
    let m_rows = pieces_mut(m_rows, block, &cuts);
    let m_factor = pieces_mut(m_factor, block, &cuts);
    let v_rows = pieces_mut(v_rows, block, &cuts);
    let v_factor = pieces_mut(v_factor, block, &cuts);
    let f_rows = pieces_mut(f_rows, block, &cuts);
    // Where each part's columns start and end; the gradients are only read, so each thread
    // reads its columns of them in place.
    let bounds: Vec<usize> = std::iter::once(0)
        .chain(cuts.iter().copied())
        .chain(std::iter::once(block))
        .collect();
    thread::scope(|s| {
        let columns = rows
            .into_iter()
            .zip(factor)
            .zip(m_rows.into_iter().zip(m_factor))
            .zip(v_rows.into_iter().zip(v_factor))
            .zip(f_rows.into_iter().zip(bounds.windows(2)));
        for ((((p, pf), (m, mf)), (v, vf)), (f, cols)) in columns {
            let rates = &rates;
            let factor = pf.into_iter().zip(mf).zip(vf).next();
            s.spawn(move || {
                let factor = factor.map(|((p, m), v)| Params { p, m, v });
                let rows = p
                    .into_iter()
                    .zip(m)
                    .zip(v)
                    .map(|((p, m), v)| Params { p, m, v })
                    .collect();
                let grads = GradColumns {
                    grads,
                    block,
                    cols: cols[0]..cols[1],
                };
                columns_step(rows, factor, f, &grads, scale, rates, rows_decay);
            });
        }
    });

    // The tail: a few thousand parameters, on this thread.
    let tail = l.ft_bias()..l.len();
    let ftail = l.factor()..flen;
    let mut g = grads[0][ftail.clone()].to_vec();
    for other in &grads[1..] {
        add(&mut g, &other[ftail.clone()]);
    }
    g.iter_mut().for_each(|x| *x *= scale);
    for (range, decay) in tail_groups {
        let at = range.start - tail.start..range.end - tail.start;
        rates.update(
            &mut model.params[range.clone()],
            &mut opt.m[range.clone()],
            &mut opt.v[range.clone()],
            &g[at],
            decay,
        );
    }
    for p in &mut model.params[l.ft_bias()..l.out_bias()] {
        *p = p.clamp(-CLIP, CLIP);
    }
    folded.params[ftail].copy_from_slice(&model.params[tail]);
}

/// A run of parameters and their two moments.
struct Params<'a> {
    p: &'a mut [f32],
    m: &'a mut [f32],
    v: &'a mut [f32],
}

/// The threads' gradients of the folded rows, read at one range of columns of every block.
struct GradColumns<'a> {
    grads: &'a [Vec<f32>],
    block: usize,
    cols: std::ops::Range<usize>,
}

impl GradColumns<'_> {
    /// Block `b`'s gradient at these columns, summed over the threads in their order.
    fn sum_into(&self, b: usize, out: &mut [f32]) {
        let at = b * self.block + self.cols.start..b * self.block + self.cols.end;
        out.copy_from_slice(&self.grads[0][at.clone()]);
        for t in &self.grads[1..] {
            add(out, &t[at.clone()]);
        }
    }
}

/// The step on one range of columns of every row block: `rows[b]` of each king bucket, the
/// factoriser's (if any) and the folded rows `folded[b]`.
fn columns_step(
    mut rows: Vec<Params>,
    factor: Option<Params>,
    mut folded: Vec<&mut [f32]>,
    grads: &GradColumns,
    scale: f32,
    rates: &Rates,
    decay: bool,
) {
    let n = grads.cols.len();
    let mut g = vec![0.0f32; n];
    // [train-bucket-decay] Beside a factoriser the buckets' rows decay at their own rate.
    let row_rates = if factor.is_some() {
        rates.for_buckets()
    } else {
        *rates
    };
    // The factoriser's gradient is the sum of its rows' over the buckets, before scaling.
    let mut g_factor = vec![0.0f32; if factor.is_some() { n } else { 0 }];
    for (b, row) in rows.iter_mut().enumerate() {
        grads.sum_into(b, &mut g);
        if factor.is_some() {
            add(&mut g_factor, &g);
        }
        g.iter_mut().for_each(|x| *x *= scale);
        row_rates.update(row.p, row.m, row.v, &g, decay);
        row.p.iter_mut().for_each(|p| *p = p.clamp(-CLIP, CLIP));
    }
    if let Some(f) = factor {
        g_factor.iter_mut().for_each(|x| *x *= scale);
        rates.update(f.p, f.m, f.v, &g_factor, decay);
        f.p.iter_mut().for_each(|p| *p = p.clamp(-CLIP, CLIP));
        for (out, row) in folded.iter_mut().zip(&rows) {
            for ((o, w), x) in out.iter_mut().zip(row.p.iter()).zip(f.p.iter()) {
                *o = w + x;
            }
        }
    } else {
        for (out, row) in folded.iter_mut().zip(&rows) {
            out.copy_from_slice(row.p);
        }
    }
}

fn add(sum: &mut [f32], x: &[f32]) {
    for (s, x) in sum.iter_mut().zip(x) {
        *s += x;
    }
}

/// `s` as blocks of `block` values, each cut at `cuts` (ascending, inside the block):
/// `[j][b]` is block b's piece j.
fn pieces_mut<'a>(s: &'a mut [f32], block: usize, cuts: &[usize]) -> Vec<Vec<&'a mut [f32]>> {
    let mut parts: Vec<Vec<&'a mut [f32]>> = (0..=cuts.len()).map(|_| Vec::new()).collect();
    for mut rest in s.chunks_mut(block) {
        let mut at = 0;
        for (part, &cut) in parts.iter_mut().zip(cuts) {
            let (piece, tail) = std::mem::take(&mut rest).split_at_mut(cut - at);
            part.push(piece);
            rest = tail;
            at = cut;
        }
        parts[cuts.len()].push(rest);
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::super::model::{Layout, Model};
    use super::super::optim::AdamW;
    use super::step;
    use augur::eval::nnue::{Activation, KingBuckets};
    use rand::{Rng, SeedableRng};

    /// The five passes the fused step replaces, one after another.
    fn reference(
        model: &mut Model,
        folded: &mut Model,
        opt: &mut AdamW,
        grads: &[Vec<f32>],
        scale: f32,
        lr: f32,
    ) {
        let mut total = grads[0].clone();
        for other in &grads[1..] {
            for (t, o) in total.iter_mut().zip(other) {
                *t += o;
            }
        }
        let mut full = Vec::new();
        model.layout.unfold_gradient(&total, &mut full);
        full.iter_mut().for_each(|g| *g *= scale);
        opt.step(&mut model.params, &full, lr, model.layout);
        model.clip();
        model.fold_into(folded);
    }

    fn bits(x: &[f32]) -> Vec<u32> {
        x.iter().map(|v| v.to_bits()).collect()
    }

    #[test]
    fn the_fused_step_is_the_five_passes_bit_for_bit() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        let layouts = [
            Layout::plain(32, 1),
            Layout::plain(16, 8),
            Layout {
                hidden: 16,
                buckets: 8,
                kings: KingBuckets::layout("mirror4").expect("a layout"),
                factoriser: true,
            },
            Layout {
                hidden: 32,
                buckets: 2,
                kings: KingBuckets::layout("mirror8").expect("a layout"),
                factoriser: false,
            },
        ];
        for layout in layouts {
            for (threads, grad_buffers) in [(1, 1), (2, 2), (3, 3), (5, 2), (4, 1)] {
                let mut a = Model::with_layout(layout, Activation::SCReLU, 9);
                // Weights near the clip, so that clipping acts on some.
                a.params.iter_mut().for_each(|p| *p *= 40.0);
                let mut b = a.clone();
                let (mut fa, mut fb) = (a.folded(), a.folded());
                let (mut oa, mut ob) = (
                    AdamW::new(a.params.len(), 0.3),
                    AdamW::new(a.params.len(), 0.3),
                );
                for round in 0..3 {
                    let grads: Vec<Vec<f32>> = (0..grad_buffers)
                        .map(|_| {
                            (0..layout.folded().len())
                                .map(|i| {
                                    if i % 7 == round {
                                        0.0
                                    } else {
                                        rng.random_range(-50.0..50.0)
                                    }
                                })
                                .collect()
                        })
                        .collect();
                    let scale = 1.0 / 4096.0;
                    reference(&mut a, &mut fa, &mut oa, &grads, scale, 0.01);
                    step(&mut b, &mut fb, &mut ob, &grads, scale, 0.01, threads);
                    let at = format!("{layout:?}, {threads} threads, round {round}");
                    assert_eq!(bits(&a.params), bits(&b.params), "params: {at}");
                    assert_eq!(bits(&fa.params), bits(&fb.params), "folded: {at}");
                    assert_eq!(
                        (bits(&oa.m), bits(&oa.v)),
                        (bits(&ob.m), bits(&ob.v)),
                        "moments: {at}"
                    );
                    assert_eq!(oa.steps, ob.steps);
                }
                assert!(
                    b.params.iter().any(|p| p.abs() == super::CLIP),
                    "the clip acted: {layout:?}"
                );
            }
        }
    }

    #[test]
    fn the_buckets_decay_at_their_own_rate_beside_a_factoriser() {
        // A zero gradient leaves only the decay: p · (1 − lr · decay) per weight.
        let (lr, wd, bd) = (0.01f32, 0.1f32, 2.0f32);
        for factoriser in [true, false] {
            let layout = Layout {
                hidden: 16,
                buckets: 1,
                kings: KingBuckets::layout("mirror4").expect("a layout"),
                factoriser,
            };
            let mut m = Model::with_layout(layout, Activation::SCReLU, 3);
            m.params.iter_mut().for_each(|p| *p += 0.5);
            let before = m.clone();
            let mut f = m.folded();
            let mut o = AdamW::new(m.params.len(), wd);
            o.bucket_decay = bd;
            let grads = vec![vec![0.0; layout.folded().len()]];
            step(&mut m, &mut f, &mut o, &grads, 1.0, lr, 2);
            let shrunk = |range: std::ops::Range<usize>, decay: f32| {
                range
                    .clone()
                    .all(|i| (m.params[i] - before.params[i] * (1.0 - lr * decay)).abs() < 1e-6)
            };
            let rows = if factoriser { bd } else { wd };
            assert!(
                shrunk(0..layout.factor(), rows),
                "rows, factoriser {factoriser}"
            );
            assert!(
                shrunk(layout.factor()..layout.ft_bias(), wd),
                "the factoriser"
            );
            assert!(
                shrunk(layout.ft_bias()..layout.ft_bias() + 16, 0.0),
                "biases"
            );
            assert_eq!(f.params, m.folded().params);
        }
    }

    #[test]
    #[should_panic(expected = "another layout")]
    fn a_gradient_of_another_layout_is_refused() {
        let layout = Layout::plain(16, 1);
        let mut m = Model::with_layout(layout, Activation::SCReLU, 1);
        let mut f = m.folded();
        let mut o = AdamW::new(m.params.len(), 0.0);
        step(&mut m, &mut f, &mut o, &[vec![0.0; 3]], 1.0, 0.01, 2);
    }
}
