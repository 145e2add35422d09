//! Small charts for lab reports, written as SVG by hand and rasterised to PNG.
//!
//! Two kinds of chart cover what the experiments need:
//! - [`CategoryChart`]: one value per category per series, drawn as lines, grouped bars or
//!   stacked bars (negative values stack downwards), on a linear or log10 y axis. The SPP
//!   diagrams (leaf counts per position, pruning percentages per position) are of this kind.
//! - [`ScatterChart`]: point clouds with an optional fitted line ([`fit_line`], least squares),
//!   e.g. ProbCut's shallow-versus-deep search values.
//!
//! ```no_run
//! use augur_lab::chart::{Chart, CategoryChart, Series, Style, YScale};
//! let chart = CategoryChart::new("Leaves at depth 5", vec!["P1".into(), "P2".into()])
//!     .labels("position", "leaves")
//!     .style(Style::GroupedBars)
//!     .y_scale(YScale::Log10)
//!     .series(Series::new("alphabeta", vec![12000.0, 30000.0]))
//!     .series(Series::new("spp", vec![4000.0, 9000.0]));
//! Chart::from(chart).save(std::path::Path::new("out"), "leaves_d5").unwrap();
//! ```
//!
//! PNG output needs no system fonts: the text is set in DejaVu Sans, bundled into the binary
//! (Bitstream Vera licence, `data/fonts/DejaVuSans-LICENSE.txt`).

mod axis;
mod raster;
mod svg;

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

pub use raster::svg_to_png;

/// One named row of values; `f64::NAN` marks a missing value (no bar, a gap in a line).
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub values: Vec<f64>,
}

impl Series {
    pub fn new(name: impl Into<String>, values: Vec<f64>) -> Self {
        Series {
            name: name.into(),
            values,
        }
    }
}

/// How a [`CategoryChart`] draws its series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A polyline with markers per series.
    Lines,
    /// The series side by side within each category.
    GroupedBars,
    /// The series on top of each other; positive values upwards, negative downwards from 0.
    StackedBars,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YScale {
    Linear,
    /// Decades on the y axis; values <= 0 are not drawn.
    Log10,
}

/// Values per category (x axis: the categories in order, evenly spaced).
#[derive(Clone, Debug, PartialEq)]
pub struct CategoryChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub categories: Vec<String>,
    pub series: Vec<Series>,
    pub style: Style,
    pub y_scale: YScale,
    /// Force the y range (linear scale); otherwise it is fitted to the data (bars include 0).
    pub y_range: Option<(f64, f64)>,
}

impl CategoryChart {
    pub fn new(title: impl Into<String>, categories: Vec<String>) -> Self {
        CategoryChart {
            title: title.into(),
            x_label: String::new(),
            y_label: String::new(),
            categories,
            series: Vec::new(),
            style: Style::GroupedBars,
            y_scale: YScale::Linear,
            y_range: None,
        }
    }
    pub fn labels(mut self, x: impl Into<String>, y: impl Into<String>) -> Self {
        self.x_label = x.into();
        self.y_label = y.into();
        self
    }
    pub fn style(mut self, style: Style) -> Self {
        self.style = style;
        self
    }
    pub fn y_scale(mut self, scale: YScale) -> Self {
        self.y_scale = scale;
        self
    }
    pub fn y_range(mut self, lo: f64, hi: f64) -> Self {
        self.y_range = Some((lo, hi));
        self
    }
    /// Adds a series; its values are matched to the categories by index.
    pub fn series(mut self, series: Series) -> Self {
        self.series.push(series);
        self
    }
}

/// A named set of (x, y) points.
#[derive(Clone, Debug, PartialEq)]
pub struct PointSeries {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

impl PointSeries {
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        PointSeries {
            name: name.into(),
            points,
        }
    }
}

/// Least-squares line `y = slope * x + intercept`, with the correlation coefficient `r`
/// and the standard deviation `sigma` of the residuals (ProbCut's parameters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearFit {
    pub slope: f64,
    pub intercept: f64,
    pub r: f64,
    pub sigma: f64,
    pub n: usize,
}

/// Ordinary least squares over the finite points; `None` with fewer than two points or when
/// every x is the same.
pub fn fit_line(points: &[(f64, f64)]) -> Option<LinearFit> {
    let pts: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect();
    let n = pts.len();
    if n < 2 {
        return None;
    }
    let nf = n as f64;
    let mx = pts.iter().map(|p| p.0).sum::<f64>() / nf;
    let my = pts.iter().map(|p| p.1).sum::<f64>() / nf;
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let syy: f64 = pts.iter().map(|p| (p.1 - my).powi(2)).sum();
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let r = if syy > 0.0 {
        sxy / (sxx * syy).sqrt()
    } else {
        1.0
    };
    let rss: f64 = pts
        .iter()
        .map(|p| (p.1 - slope * p.0 - intercept).powi(2))
        .sum();
    let sigma = if n > 2 {
        (rss / (nf - 2.0)).sqrt()
    } else {
        0.0
    };
    Some(LinearFit {
        slope,
        intercept,
        r,
        sigma,
        n,
    })
}

/// Points on linear x and y axes, with an optional fitted line drawn across the x range.
#[derive(Clone, Debug, PartialEq)]
pub struct ScatterChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<PointSeries>,
    pub fit: Option<LinearFit>,
}

impl ScatterChart {
    pub fn new(title: impl Into<String>) -> Self {
        ScatterChart {
            title: title.into(),
            x_label: String::new(),
            y_label: String::new(),
            series: Vec::new(),
            fit: None,
        }
    }
    pub fn labels(mut self, x: impl Into<String>, y: impl Into<String>) -> Self {
        self.x_label = x.into();
        self.y_label = y.into();
        self
    }
    pub fn series(mut self, series: PointSeries) -> Self {
        self.series.push(series);
        self
    }
    /// Draws this line (e.g. from [`fit_line`]) and its equation in the legend.
    pub fn fit(mut self, fit: LinearFit) -> Self {
        self.fit = Some(fit);
        self
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Chart {
    Category(CategoryChart),
    Scatter(ScatterChart),
}

impl From<CategoryChart> for Chart {
    fn from(c: CategoryChart) -> Self {
        Chart::Category(c)
    }
}

impl From<ScatterChart> for Chart {
    fn from(c: ScatterChart) -> Self {
        Chart::Scatter(c)
    }
}

impl Chart {
    /// A standalone SVG document (fonts named: DejaVu Sans, then any sans-serif).
    pub fn to_svg(&self) -> String {
        match self {
            Chart::Category(c) => svg::category(c),
            Chart::Scatter(c) => svg::scatter(c),
        }
    }

    /// The SVG rasterised at its own size (1 px per SVG unit), PNG-encoded.
    pub fn to_png(&self) -> Result<Vec<u8>> {
        svg_to_png(&self.to_svg())
    }

    /// Writes `DIR/STEM.svg` and `DIR/STEM.png` (creating DIR) and returns both paths.
    pub fn save(&self, dir: &Path, stem: &str) -> Result<(PathBuf, PathBuf)> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let svg_path = dir.join(format!("{stem}.svg"));
        let png_path = dir.join(format!("{stem}.png"));
        let svg = self.to_svg();
        std::fs::write(&svg_path, &svg)
            .with_context(|| format!("writing {}", svg_path.display()))?;
        let png = svg_to_png(&svg).with_context(|| format!("rendering {stem} to PNG"))?;
        std::fs::write(&png_path, png)
            .with_context(|| format!("writing {}", png_path.display()))?;
        Ok((svg_path, png_path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_recovers_an_exact_line() {
        let pts: Vec<(f64, f64)> = (0..10).map(|i| (i as f64, 2.0 * i as f64 + 1.0)).collect();
        let f = fit_line(&pts).unwrap();
        assert!((f.slope - 2.0).abs() < 1e-12);
        assert!((f.intercept - 1.0).abs() < 1e-12);
        assert!((f.r - 1.0).abs() < 1e-12);
        assert!(f.sigma.abs() < 1e-9);
        assert_eq!(fit_line(&[(1.0, 2.0)]), None);
        assert_eq!(fit_line(&[(1.0, 2.0), (1.0, 3.0)]), None);
    }
}
