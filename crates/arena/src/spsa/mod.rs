//! SPSA (simultaneous perturbation stochastic approximation, Spall 1992) over
//! numeric UCI options, as fishtest and OpenBench tune engines: every
//! iteration perturbs all parameters at once by ±c_k, plays game pairs of
//! θ + c_k Δ against θ - c_k Δ, and moves θ along Δ by the result.
//!
//! Parameters come in OpenBench's input format, one per line:
//! `name, int|float, start, min, max, c_end, r_end` (the last two are called
//! step and learning rate there). With N iterations, A = a_ratio x N:
//!
//! ```text
//! c_k = c_end N^gamma / k^gamma        (at least 0.5 for an int)
//! a_k = r_end c_end^2 (A + N)^alpha / (A + k)^alpha,    r_k = a_k / c_k^2
//! θ±  = clamp(θ ± c_k Δ), Δ_i = ±1;  ints rounded by floor(x + u), one u for both
//! θ  += r_k c_k (wins - losses of θ+) Δ, clamped to [min, max]
//! ```
//!
//! so c_k shrinks to c_end and r_k to r_end at the last iteration (alpha =
//! 0.602, gamma = 0.101, Spall's recommended exponents).

pub mod run;

use anyhow::{bail, Context, Result};

use crate::matchmaking::schedule::SplitMix64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Int,
    Float,
}

/// One tuned option.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub kind: Kind,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// Perturbation at the last iteration (OpenBench's "step").
    pub c_end: f64,
    /// r_k at the last iteration (OpenBench's "learning rate").
    pub r_end: f64,
}

impl Param {
    /// Parses `name, int|float, start, min, max, c_end, r_end`.
    pub fn parse(line: &str) -> Result<Param> {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != 7 {
            bail!(
                "expected 7 comma-separated fields 'name, int|float, start, min, max, step, learning rate', got {}",
                fields.len()
            );
        }
        let name = fields[0].to_string();
        if name.is_empty() {
            bail!("empty parameter name");
        }
        let kind = match fields[1].to_ascii_lowercase().as_str() {
            "int" => Kind::Int,
            "float" => Kind::Float,
            other => bail!("type '{other}' is neither int nor float"),
        };
        let num = |i: usize, what: &str| -> Result<f64> {
            let v: f64 = fields[i]
                .parse()
                .with_context(|| format!("{what} '{}' is not a number", fields[i]))?;
            if !v.is_finite() {
                bail!("{what} '{}' is not finite", fields[i]);
            }
            Ok(v)
        };
        let p = Param {
            name,
            kind,
            start: num(2, "start")?,
            min: num(3, "min")?,
            max: num(4, "max")?,
            c_end: num(5, "step")?,
            r_end: num(6, "learning rate")?,
        };
        if p.min >= p.max {
            bail!("{}: min {} must be below max {}", p.name, p.min, p.max);
        }
        if p.start < p.min || p.start > p.max {
            bail!(
                "{}: start {} is outside [{}, {}]",
                p.name,
                p.start,
                p.min,
                p.max
            );
        }
        if p.c_end <= 0.0 || p.r_end <= 0.0 {
            bail!("{}: step and learning rate must be positive", p.name);
        }
        Ok(p)
    }

    /// The value sent to the engine.
    pub fn format(&self, v: f64) -> String {
        match self.kind {
            Kind::Int => format!("{}", v.round() as i64),
            Kind::Float => format!("{v}"),
        }
    }
}

/// Parses a parameter file: one parameter per line, `#` comments and blank
/// lines skipped; errors name the line.
pub fn parse_params(text: &str, origin: &str) -> Result<Vec<Param>> {
    let mut out: Vec<Param> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let p = Param::parse(line).with_context(|| format!("{origin}:{}", i + 1))?;
        if out.iter().any(|q| q.name.eq_ignore_ascii_case(&p.name)) {
            bail!("{origin}:{}: parameter '{}' given twice", i + 1, p.name);
        }
        out.push(p);
    }
    if out.is_empty() {
        bail!("{origin}: no parameters");
    }
    Ok(out)
}

/// The gain schedule's constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    pub iterations: u64,
    /// A = a_ratio x iterations (OpenBench's default ratio is 0.1).
    pub a_ratio: f64,
    pub alpha: f64,
    pub gamma: f64,
}

/// One iteration's gains for one parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    pub c: f64,
    pub r: f64,
}

impl Schedule {
    /// c_k and r_k of `p` at iteration `k` (1-based).
    pub fn gains(&self, p: &Param, k: u64) -> Gains {
        let n = self.iterations as f64;
        let big_a = self.a_ratio * n;
        let k = k as f64;
        let c0 = p.c_end * n.powf(self.gamma);
        let a0 = p.r_end * p.c_end * p.c_end * (big_a + n).powf(self.alpha);
        let floor = if p.kind == Kind::Int { 0.5 } else { 0.0 };
        let c = (c0 / k.powf(self.gamma)).max(floor);
        let a = a0 / (big_a + k).powf(self.alpha);
        Gains { c, r: a / (c * c) }
    }
}

/// One iteration's perturbation: the signs and the two points played.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    pub flips: Vec<f64>,
    pub gains: Vec<Gains>,
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
}

/// The random stream of iteration `k`, from the run's seed alone, so that a
/// resumed run draws exactly what an uninterrupted one would.
pub fn iteration_rng(seed: u64, k: u64) -> SplitMix64 {
    let mut base = SplitMix64::new(seed ^ 0x5350_5341_0000_0000);
    let offset = base.next_u64();
    SplitMix64::new(offset.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
}

fn unit(rng: &mut SplitMix64) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Draws Δ and builds θ ± c_k Δ for iteration `k`.
pub fn perturb(
    params: &[Param],
    theta: &[f64],
    schedule: &Schedule,
    k: u64,
    rng: &mut SplitMix64,
) -> Perturbation {
    let mut out = Perturbation {
        flips: Vec::new(),
        gains: Vec::new(),
        plus: Vec::new(),
        minus: Vec::new(),
    };
    for (p, &t) in params.iter().zip(theta) {
        let g = schedule.gains(p, k);
        let flip = if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 };
        let u = unit(rng);
        let point = |x: f64| {
            let x = match p.kind {
                // OpenBench's probabilistic rounding, with one u for both points.
                Kind::Int => (x + u).floor(),
                Kind::Float => x,
            };
            x.clamp(p.min, p.max)
        };
        out.plus.push(point(t + flip * g.c));
        out.minus.push(point(t - flip * g.c));
        out.flips.push(flip);
        out.gains.push(g);
    }
    out
}

/// θ += r_k c_k (wins - losses of θ+) Δ, clamped.
pub fn update(params: &[Param], theta: &mut [f64], pert: &Perturbation, wins_minus_losses: i64) {
    for (i, p) in params.iter().enumerate() {
        let g = pert.gains[i];
        let step = g.r * g.c * wins_minus_losses as f64 * pert.flips[i];
        theta[i] = (theta[i] + step).clamp(p.min, p.max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill() -> Param {
        Param::parse("Skill, int, 20, 0, 100, 10, 0.002").unwrap()
    }

    #[test]
    fn parses_openbench_lines_and_rejects_bad_ones() {
        let p = skill();
        assert_eq!(p.name, "Skill");
        assert_eq!(p.kind, Kind::Int);
        assert_eq!(
            (p.start, p.min, p.max, p.c_end, p.r_end),
            (20.0, 0.0, 100.0, 10.0, 0.002)
        );
        let f = Param::parse("Focus, float, 0.5, 0.0, 1.0, 0.05, 0.002").unwrap();
        assert_eq!(f.kind, Kind::Float);
        assert_eq!(f.format(0.25), "0.25");
        assert_eq!(p.format(41.6), "42");
        for bad in [
            "Skill, int, 20, 0, 100, 10",
            "Skill, long, 20, 0, 100, 10, 0.002",
            "Skill, int, 200, 0, 100, 10, 0.002",
            "Skill, int, 20, 100, 0, 10, 0.002",
            "Skill, int, 20, 0, 100, 0, 0.002",
            "Skill, int, x, 0, 100, 10, 0.002",
        ] {
            assert!(Param::parse(bad).is_err(), "{bad}");
        }
        let err = format!(
            "{:#}",
            parse_params(
                "# tuned\nA, int, 1, 0, 2, 1, 0.1\n\nB, int, 1, 0, 2\n",
                "p.txt"
            )
            .unwrap_err()
        );
        assert!(err.contains("p.txt:4"), "{err}");
        assert!(parse_params("A, int, 1, 0, 2, 1, 0.1\nA, int, 1, 0, 2, 1, 0.1", "x").is_err());
    }

    #[test]
    fn gains_end_at_c_end_and_r_end() {
        let s = Schedule {
            iterations: 1000,
            a_ratio: 0.1,
            alpha: 0.602,
            gamma: 0.101,
        };
        let p = skill();
        let last = s.gains(&p, 1000);
        assert!((last.c - 10.0).abs() < 1e-9, "{last:?}");
        assert!((last.r - 0.002).abs() < 1e-12, "{last:?}");
        // The first iteration perturbs more: c_1 = 10 x 1000^0.101 = 20.1.
        let first = s.gains(&p, 1);
        assert!((first.c - 10.0 * 1000f64.powf(0.101)).abs() < 1e-9);
        // a_1 = 0.002 x 100 x 1100^0.602 / 101^0.602.
        let a1 = 0.2 * 1100f64.powf(0.602) / 101f64.powf(0.602);
        assert!((first.r - a1 / (first.c * first.c)).abs() < 1e-12);
        // An int's perturbation never drops below half a unit.
        let tiny = Param::parse("T, int, 1, 0, 2, 0.1, 0.1").unwrap();
        assert_eq!(s.gains(&tiny, 1000).c, 0.5);
    }

    #[test]
    fn perturbation_is_symmetric_rounded_and_clamped() {
        let s = Schedule {
            iterations: 10,
            a_ratio: 0.1,
            alpha: 0.602,
            gamma: 0.101,
        };
        let params = vec![
            skill(),
            Param::parse("F, float, 0.95, 0, 1, 0.1, 0.01").unwrap(),
        ];
        let theta = vec![20.0, 0.95];
        let mut rng = iteration_rng(7, 3);
        let p = perturb(&params, &theta, &s, 3, &mut rng);
        assert_eq!(p, perturb(&params, &theta, &s, 3, &mut iteration_rng(7, 3)));
        let c = s.gains(&params[0], 3).c;
        // Ints: both points whole numbers, about 2c apart, on opposite sides.
        assert_eq!(p.plus[0].fract(), 0.0);
        assert!(((p.plus[0] - p.minus[0]) * p.flips[0] - 2.0 * c).abs() <= 1.0);
        // Floats: exact, but clamped at max.
        assert!(p.plus[1] <= 1.0 && p.minus[1] <= 1.0);
        let mut t = theta.clone();
        update(&params, &mut t, &p, 3);
        let g = p.gains[0];
        assert!((t[0] - (20.0 + g.r * g.c * 3.0 * p.flips[0])).abs() < 1e-12);
        let mut t = theta.clone();
        update(&params, &mut t, &p, 1_000_000);
        assert!(t
            .iter()
            .zip(&params)
            .all(|(v, q)| *v >= q.min && *v <= q.max));
    }
}
