//! Axis ranges, tick positions and tick labels.

/// A value axis mapped onto a pixel interval; `log` axes map log10 of the value.
#[derive(Clone, Debug)]
pub struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub log: bool,
    pub ticks: Vec<f64>,
}

impl Axis {
    /// A linear axis over [min, max] widened to "nice" tick values (1, 2, 5 x 10^k).
    pub fn linear(min: f64, max: f64) -> Axis {
        let (mut min, mut max) = if min.is_finite() && max.is_finite() {
            (min, max)
        } else {
            (0.0, 1.0)
        };
        if max - min < 1e-12 {
            let pad = if min.abs() > 1e-12 {
                min.abs() * 0.1
            } else {
                1.0
            };
            min -= pad;
            max += pad;
        }
        let step = nice_step((max - min) / 6.0);
        let lo = (min / step).floor() * step;
        let hi = (max / step).ceil() * step;
        let mut ticks = Vec::new();
        let mut i = 0;
        loop {
            let t = lo + step * i as f64;
            if t > hi + step * 1e-6 {
                break;
            }
            // Snap tiny float noise to 0 so labels read "0", not "-1.4e-17".
            ticks.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
            i += 1;
        }
        Axis {
            lo,
            hi,
            log: false,
            ticks,
        }
    }

    /// A log10 axis over whole decades covering the positive values in [min, max].
    pub fn log10(min: f64, max: f64) -> Axis {
        let min = if min.is_finite() && min > 0.0 {
            min
        } else {
            1.0
        };
        let max = if max.is_finite() && max > min {
            max
        } else {
            min * 10.0
        };
        // A value exactly on a decade gets the decade below, so its bar has a height.
        let lo_exp = (min * 0.999).log10().floor() as i32;
        let mut hi_exp = max.log10().ceil() as i32;
        if hi_exp <= lo_exp {
            hi_exp = lo_exp + 1;
        }
        let ticks = (lo_exp..=hi_exp).map(|e| 10f64.powi(e)).collect();
        Axis {
            lo: 10f64.powi(lo_exp),
            hi: 10f64.powi(hi_exp),
            log: true,
            ticks,
        }
    }

    /// Position of `v` as a fraction of the axis (0 at `lo`, 1 at `hi`); `None` if it cannot
    /// be drawn (not finite, or not positive on a log axis).
    pub fn frac(&self, v: f64) -> Option<f64> {
        if !v.is_finite() {
            return None;
        }
        if self.log {
            if v <= 0.0 {
                return None;
            }
            Some((v.log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10()))
        } else {
            Some((v - self.lo) / (self.hi - self.lo))
        }
    }

    /// The value bars grow from: 0 on a linear axis (clamped into range), `lo` on a log axis.
    pub fn baseline(&self) -> f64 {
        if self.log {
            self.lo
        } else {
            0.0f64.clamp(self.lo, self.hi)
        }
    }

    pub fn label(&self, v: f64) -> String {
        if self.log {
            return short_number(v);
        }
        let step = if self.ticks.len() > 1 {
            self.ticks[1] - self.ticks[0]
        } else {
            1.0
        };
        if step >= 1.0 || v == 0.0 {
            short_number(v)
        } else {
            let decimals = (-step.log10().floor()) as usize;
            format!("{v:.decimals$}")
        }
    }
}

/// The nearest of 1, 2, 5 x 10^k at or above `raw`.
fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let mag = 10f64.powf(raw.log10().floor());
    let m = raw / mag;
    let nice = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// 1500 -> "1.5k", 2000000 -> "2M", 12 -> "12", 0.5 -> "0.5".
pub fn short_number(v: f64) -> String {
    let a = v.abs();
    let (scaled, suffix) = if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e4 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let text = if (scaled - scaled.round()).abs() < 1e-9 {
        format!("{}", scaled.round() as i64)
    } else {
        let s = format!("{scaled:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    format!("{text}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ticks_cover_the_data_with_nice_steps() {
        let a = Axis::linear(-13.0, 87.0);
        assert!(a.lo <= -13.0 && a.hi >= 87.0);
        assert_eq!(a.ticks[1] - a.ticks[0], 20.0);
        assert!(a.ticks.contains(&0.0));
    }

    #[test]
    fn log_axis_is_whole_decades() {
        let a = Axis::log10(37.0, 123_456.0);
        assert_eq!(a.lo, 10.0);
        assert_eq!(a.hi, 1e6);
        assert_eq!(a.ticks.len(), 6);
        assert_eq!(a.frac(1000.0).map(|f| (f * 5.0).round()), Some(2.0));
        assert_eq!(a.frac(0.0), None);
        assert_eq!(short_number(1e6), "1M");
        assert_eq!(short_number(12_500.0), "12.5k");
    }
}
